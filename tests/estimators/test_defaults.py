"""Kernel width defaults: ``gamma="scale"`` / ``"auto"`` (scikit-learn's meaning), ``gamma_``.

Oracles: the formulas written out here and scikit-learn's own ``SVC`` (its
private ``_gamma`` is the value it resolved from the same data).
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC

from refsvm import BudgetedModel, BudgetedSVC
from refsvm.cli import build_parser

from _helpers import blobs, checkerboard


def _data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(3.0, 2.5, size=(200, 5))
    y = np.where(X[:, 0] + rng.normal(size=200) > 3.0, 1, -1)
    return X, y


def test_default_gamma_is_scale():
    assert BudgetedSVC().gamma == "scale"
    assert BudgetedSVC().get_params()["gamma"] == "scale"


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_scale_is_inverse_of_features_times_variance(backend):
    X, y = _data()
    est = BudgetedSVC(budget=20, random_state=0, backend=backend).fit(X, y)
    expected = 1.0 / (X.shape[1] * np.mean((X - X.mean()) ** 2))
    assert est.gamma_ == pytest.approx(expected, rel=1e-12)
    assert est.model_.gamma == est.gamma_
    assert est.gamma == "scale"  # the parameter itself is untouched


def test_scale_and_auto_agree_with_scikit_learn_svc():
    X, y = _data(1)
    for gamma in ("scale", "auto"):
        ours = BudgetedSVC(gamma=gamma, budget=20, random_state=0).fit(X, y).gamma_
        theirs = SVC(gamma=gamma).fit(X, y)._gamma
        assert ours == pytest.approx(theirs, rel=1e-12), gamma


def test_auto_is_inverse_of_features():
    X, y = _data()
    assert BudgetedSVC(gamma="auto", budget=20).fit(X, y).gamma_ == pytest.approx(1 / 5)


def test_scale_with_zero_variance_is_one():
    X = np.full((10, 3), 2.0)
    y = np.array([0, 1] * 5)
    assert BudgetedSVC(budget=5).fit(X, y).gamma_ == 1.0


def test_scale_on_sparse_input_uses_all_entries():
    X, y = _data()
    X[X < 3.0] = 0.0
    dense = BudgetedSVC(budget=20, random_state=0).fit(X, y)
    sparse = BudgetedSVC(budget=20, random_state=0).fit(sp.csr_matrix(X), y)
    assert sparse.gamma_ == dense.gamma_
    np.testing.assert_array_equal(sparse.alpha_, dense.alpha_)


def test_numeric_gamma_is_used_as_is():
    X, y = checkerboard(100)
    est = BudgetedSVC(gamma=7.5, budget=10, random_state=0).fit(X, y)
    assert est.gamma_ == 7.5 and est.model_.gamma == 7.5


def test_scale_gives_same_model_as_the_resolved_number():
    X, y = blobs(150)
    a = BudgetedSVC(budget=15, random_state=3, epochs=2).fit(X, y)
    b = BudgetedSVC(gamma=a.gamma_, budget=15, random_state=3, epochs=2).fit(X, y)
    np.testing.assert_array_equal(a.alpha_, b.alpha_)
    np.testing.assert_array_equal(a.support_vectors_, b.support_vectors_)


def test_partial_fit_resolves_once_and_keeps_it():
    X, y = _data()
    est = BudgetedSVC(budget=20, random_state=0)
    est.partial_fit(X[:100], y[:100], classes=[-1, 1])
    first = est.gamma_
    assert first == pytest.approx(1.0 / (5 * X[:100].var()), rel=1e-12)
    est.partial_fit(10.0 * X[100:], y[100:])  # other scale: gamma_ must not move
    assert est.gamma_ == first and est.model_.gamma == first


def test_refit_resolves_again():
    X, y = _data()
    est = BudgetedSVC(budget=20, random_state=0).fit(X, y)
    g = est.gamma_
    est.fit(2.0 * X, y)
    assert est.gamma_ == pytest.approx(g / 4.0, rel=1e-12)


def test_saved_model_holds_the_resolved_gamma(tmp_path):
    X, y = _data()
    est = BudgetedSVC(budget=20, random_state=0).fit(X, y)
    est.save(tmp_path / "m.npz")
    model = BudgetedModel.load(tmp_path / "m.npz")
    assert model.gamma == est.gamma_
    loaded = BudgetedSVC.load(tmp_path / "m.npz")
    assert loaded.gamma_ == est.gamma_
    np.testing.assert_array_equal(loaded.predict(X), est.predict(X))


@pytest.mark.parametrize("gamma", ["Scale", "", "1.0", 0, -1.0, np.nan, np.inf, None, True])
def test_bad_gamma_raises_naming_gamma(gamma):
    X, y = _data()
    with pytest.raises(ValueError, match="gamma"):
        BudgetedSVC(gamma=gamma, budget=20).fit(X, y)


def test_cli_default_gamma_is_scale():
    parser = build_parser()
    args = parser.parse_args(["train", "a", "b"])
    assert args.gamma == "scale"
    assert parser.parse_args(["train", "a", "b", "--gamma", "auto"]).gamma == "auto"
    assert parser.parse_args(["train", "a", "b", "--gamma", "0.5"]).gamma == 0.5


def test_default_is_not_chance_level_on_standardized_usps(require_data):
    """usps standardized (zero mean, unit variance per feature): gamma = 1 makes every
    kernel value between distinct points ~exp(-2 * 256) = 0 (a lookup table of the
    training set); the default "scale" gives ~1/256 and a working model."""
    X, y, Xt, yt = require_data("usps", standardize=True)
    rng = np.random.default_rng(0)
    tr = rng.choice(len(X), 2000, replace=False)
    te = rng.choice(len(Xt), 1000, replace=False)
    default = BudgetedSVC(budget=100, random_state=0).fit(X[tr], y[tr])
    assert default.gamma_ == pytest.approx(1.0 / (256 * X[tr].var()), rel=1e-12)
    assert default.score(Xt[te], yt[te]) >= 0.82
    old = BudgetedSVC(budget=100, gamma=1.0, random_state=0).fit(X[tr], y[tr])
    assert old.score(Xt[te], yt[te]) < 0.75


# ------------------------------------------------------ lazy allocation (huge budget)


@pytest.mark.parametrize("maintenance", ["merge", "projection"])
@pytest.mark.parametrize("backend", ["python", "fast"])
def test_huge_budget_allocates_only_what_can_arrive(backend, maintenance):
    """budget=1e9 with d=20: room for min(B, n_sv + len(order)) + 1 SVs, not (B + 1) x d."""
    import time
    import tracemalloc

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 20))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=300) > 0, 1, -1)
    kw = dict(gamma=0.05, random_state=0, backend=backend, maintenance=maintenance, epochs=2)
    tracemalloc.start()
    try:
        start = time.perf_counter()
        huge = BudgetedSVC(budget=10**9, **kw).fit(X, y)
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20e6 and seconds < 10.0  # (B + 1) x d would be 160 GB
    ref = BudgetedSVC(budget=10**6, **kw).fit(X, y)
    np.testing.assert_array_equal(huge.alpha_, ref.alpha_)
    np.testing.assert_array_equal(huge.support_vectors_, ref.support_vectors_)
    # partial_fit brings more examples: the model grows past the first call's room
    est = BudgetedSVC(budget=10**9, **kw)
    est.partial_fit(X[:50], y[:50], classes=[-1, 1])
    n1 = est.support_vectors_.shape[0]
    est.partial_fit(X[50:], y[50:])
    assert est.support_vectors_.shape[0] > n1 and est.support_vectors_.shape[0] > 51


def test_scale_variance_in_blocks_equals_numpy_var():
    from refsvm.estimators._base import _variance

    X = np.random.default_rng(0).normal(5.0, 3.0, size=(1001, 7))
    for rows in (1, 10, 1000, None):
        assert _variance(X, rows) == pytest.approx(X.var(), rel=1e-12)
