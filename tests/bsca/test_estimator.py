"""BSCAClassifier: scikit-learn conventions, both backends, multi-class one-vs-rest,
partial_fit, monitoring, save/load and the command line."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import refsvm
from refsvm import BSCAClassifier, BudgetedModel
from refsvm.cli import main
from _helpers import blobs, checkerboard, kern

ESTIMATORS = [
    BSCAClassifier(budget=30, C=10.0, epochs=3, random_state=0, backend="fast"),
    BSCAClassifier(budget=20, C=10.0, epochs=2, random_state=0, backend="python"),
]


def expected_failed_checks(estimator):
    """Checks BSCAClassifier is known to fail, with the reason."""
    reason = ("stochastic dual coordinate ascent for a few passes: weight k widens one box to "
              "[0, k C], k copies get k boxes of [0, C] -- the same optimum, but n, hence the "
              "visiting order, the steps per epoch and the budget maintenance, differ, so a "
              "finite number of passes ends at different models (tests/bsca/test_weights.py "
              "checks the equivalence at convergence without budget)")
    return {
        "check_sample_weight_equivalence_on_dense_data": reason,
        "check_sample_weight_equivalence_on_sparse_data": reason,
    }


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks, xfail_strict=True)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_binary_model_is_the_algorithms():
    """fit with sampling="uniform" is the algorithm on rng.integers(0, n, n), epoch after epoch."""
    X, y01 = checkerboard(200, 1)
    labels = np.where(y01 > 0, "b", "a")
    clf = BSCAClassifier(budget=25, C=5.0, gamma=2.0, epochs=2, random_state=3).fit(X, labels)
    rng = np.random.default_rng(3)
    state = {}
    for _ in range(2):
        from refsvm._fast.bsca import bsca
        r = bsca(X, y01, rng.integers(0, 200, 200), budget=25, C=5.0, gamma=2.0, **state)
        state = dict(sv=r.sv, alpha=r.alpha, dual=r.dual, sv_source=r.sv_source, t0=r.t)
    np.testing.assert_array_equal(clf.support_vectors_, r.sv)
    np.testing.assert_array_equal(clf.alpha_, r.alpha)
    np.testing.assert_array_equal(clf.dual_, r.dual)
    assert clf.t_ == 400 and len(clf.trace_) == 2
    np.testing.assert_array_equal(clf.bias_, [0.0])
    f = kern(X, r.sv, "rbf", 2.0) @ r.alpha[:, 0]
    np.testing.assert_allclose(clf.decision_function(X), f, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(clf.predict(X), np.where(f > 0, "b", "a"))


@pytest.mark.parametrize("sampling", ["uniform", "permutation"])
def test_partial_fit_equals_fit_and_backends_agree(sampling):
    X, y = checkerboard(150, 2)
    kw = dict(budget=20, C=5.0, gamma=2.0, random_state=4, sampling=sampling)
    fit = BSCAClassifier(epochs=3, **kw).fit(X, y)
    part = BSCAClassifier(**kw)
    for _ in range(3):
        part.partial_fit(X, y, classes=[-1, 1])
    np.testing.assert_array_equal(fit.alpha_, part.alpha_)
    np.testing.assert_array_equal(fit.dual_, part.dual_)
    py = BSCAClassifier(epochs=3, backend="python", **kw).fit(X, y)
    np.testing.assert_allclose(py.alpha_, fit.alpha_, rtol=1e-9, atol=1e-12)
    if sampling == "permutation":      # every example visited once per epoch
        assert all(np.sum(tr["changed"]) > 0 for tr in fit.trace_)


def test_partial_fit_on_new_data_starts_new_dual():
    X, y = checkerboard(200, 5)
    clf = BSCAClassifier(budget=20, C=5.0, gamma=2.0, random_state=0)
    clf.partial_fit(X[:100], y[:100], classes=[-1, 1])
    n_sv = len(clf.support_vectors_)
    clf.partial_fit(X[100:], y[100:])
    assert clf.dual_.shape == (100,)
    assert n_sv > 0 and len(clf.support_vectors_) <= 20
    assert clf.score(X, y) > 0.6


def test_multiclass_one_vs_rest():
    X, y = blobs(300, 3, seed=1)
    clf = BSCAClassifier(budget=15, C=5.0, gamma=1.0, epochs=10, random_state=0).fit(X, y)
    assert clf.alpha_.shape[1] == 3 and len(clf.support_vectors_) <= 45
    assert clf.dual_.shape == (3, 300)
    # machine r's rows carry a coefficient in column r only; each machine is a binary BSCA
    assert np.all(np.count_nonzero(clf.alpha_, axis=1) <= 1)
    machines = clf.trace_[0]["machines"]
    assert len(machines) == 3 and clf.trace_[0]["n_steps"] == 900
    from refsvm._fast.bsca import bsca
    rng = np.random.default_rng(0)
    orders = [rng.integers(0, 300, 300) for _ in range(10)]
    for r in range(3):
        yr = np.where(y == r, 1, -1)
        state = {}
        for o in orders:
            res = bsca(X, yr, o, budget=15, C=5.0, gamma=1.0, **state)
            state = dict(sv=res.sv, alpha=res.alpha, dual=res.dual, sv_source=res.sv_source, t0=res.t)
        rows = clf.alpha_[:, r] != 0
        np.testing.assert_array_equal(clf.dual_[r], res.dual)
        np.testing.assert_allclose(np.sort(clf.alpha_[rows, r]), np.sort(res.alpha[res.alpha[:, 0] != 0, 0]))
    from sklearn.svm import SVC
    exact = SVC(C=5.0, gamma=1.0).fit(X, y).score(X, y)          # overlapping blobs: ~0.75
    assert clf.score(X, y) > exact - 0.1 and exact < 0.9


def test_monitoring():
    X, y = checkerboard(300, 6)
    Xt, yt = checkerboard(200, 7)
    clf = BSCAClassifier(budget=None, C=1.0, gamma=2.0, epochs=3, monitor_every=100, random_state=0)
    clf.fit(X, y, eval_set=(Xt, yt))
    mon = clf.monitor_
    assert mon["t"] == list(range(100, 901, 100))
    Q = (y[:, None] * y[None, :]) * kern(X, X, "rbf", 2.0)
    a = clf.dual_
    assert mon["dual"][-1] == pytest.approx(a.sum() - 0.5 * a @ Q @ a, rel=1e-10)
    assert np.all(np.diff(mon["dual"]) >= -1e-9)              # no budget: the dual never decreases
    assert all(g >= -1e-9 for g in mon["gap"]) and mon["gap"][-1] < mon["gap"][0]
    assert mon["test_accuracy"][-1] == pytest.approx(clf.score(Xt, yt))
    assert np.all(np.diff(mon["seconds"]) >= 0) and mon["seconds"][-1] <= clf.solver_seconds_
    # chunked calls give the same model as one call per epoch
    plain = BSCAClassifier(budget=None, C=1.0, gamma=2.0, epochs=3, random_state=0).fit(X, y)
    np.testing.assert_allclose(plain.dual_, clf.dual_, atol=1e-12)
    # the estimate of the dual for large nnz
    est = BSCAClassifier(budget=None, C=1.0, gamma=2.0, monitor_every="epoch", monitor_dual_max=20,
                         random_state=0).fit(X, y)
    assert est.monitor_["dual_exact"] == [False] and est.monitor_["t"] == [300]


def test_save_load(tmp_path):
    X, y = checkerboard(200, 8)
    clf = BSCAClassifier(budget=20, C=5.0, gamma=2.0, random_state=0).fit(X, y)
    clf.save(tmp_path / "m.npz")
    back = BSCAClassifier.load(tmp_path / "m.npz")
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))
    assert isinstance(back.model_, BudgetedModel)
    assert back.get_params() == clf.get_params()


def test_verbose_chunks_give_the_same_model(capsys):
    X, y = checkerboard(3000, 10)
    kw = dict(budget=30, C=5.0, gamma=2.0, epochs=2, random_state=0, monitor_every=700)
    quiet = BSCAClassifier(**kw).fit(X, y)
    loud = BSCAClassifier(verbose=2, **kw).fit(X, y)
    err = capsys.readouterr().err
    assert "[BSCAClassifier] epoch 2/2 done" in err and "online error" in err
    np.testing.assert_array_equal(loud.dual_, quiet.dual_)
    np.testing.assert_array_equal(loud.alpha_, quiet.alpha_)
    assert loud.monitor_["t"] == quiet.monitor_["t"] == [700, 1400, 2100, 2800, 3000, 3500, 4200,
                                                            4900, 5600, 6000]
    for a, b in zip(loud.trace_, quiet.trace_):
        for key in ("changed", "added", "maint_step", "maint_index", "maint_partner"):
            np.testing.assert_array_equal(a[key], b[key])
        assert a["mistakes"] == b["mistakes"] and a["n_zero_steps"] == b["n_zero_steps"]
    # the default gamma is "scale", resolved into gamma_
    est = BSCAClassifier(budget=10, random_state=0).fit(X, y)
    assert est.gamma_ == pytest.approx(1.0 / (2 * X.var()))


@pytest.mark.parametrize("name,value", [
    ("budget", 1), ("C", 0.0), ("sv_update", "x"), ("sampling", "x"), ("monitor_every", 0),
    ("monitor_dual_max", 1), ("maintenance", "x"), ("merge_solver", "x"), ("gamma", -1.0),
])
def test_bad_parameters(name, value):
    X, y = checkerboard(50, 0)
    with pytest.raises(ValueError, match=name):
        BSCAClassifier(**{name: value}).fit(X, y)


def test_cli_train_bsca(tmp_path, capsys):
    from sklearn.datasets import dump_svmlight_file
    X, y = checkerboard(200, 9)
    dump_svmlight_file(X, y, str(tmp_path / "d.txt"), zero_based=False)
    assert main(["train", str(tmp_path / "d.txt"), str(tmp_path / "m"), "--solver", "bsca", "--C", "5",
                 "--gamma", "2", "--budget", "20", "--random-state", "1"]) == 0
    out = capsys.readouterr().out
    assert "trained BSCA" in out
    ref = BSCAClassifier(budget=20, C=5.0, gamma=2.0, random_state=1).fit(X, y.astype(np.float64))
    model = BudgetedModel.load(tmp_path / "m.npz")
    np.testing.assert_allclose(model.coef, ref.alpha_, rtol=1e-9)   # X went through a text file
