"""sample_weight (function layer and estimators) and class_weight.

A weight s_i scales the example's loss, hence its subgradient step: Alg. 1,
line 7 adds the SV with beta_t = s_i eta_t y_t.  Oracle: a few-line kernel
Pegasos with weights written here (no budget, so no maintenance).
"""

import numpy as np
import pytest
from sklearn.metrics import balanced_accuracy_score

from refsvm import BudgetedSVC
from refsvm.backend import get_module

from _helpers import blobs, checkerboard, kern

BACKENDS = ["python", "fast"]


def _kw(n_classes=2, **extra):
    kw = dict(n_classes=n_classes, budget=1000, lam=1e-2, learning_rate="pegasos", eta=0.1,
              radius=1.0, maintenance="removal", kernel="rbf", gamma=2.0, degree=3, coef0=0.0,
              merge_eps=0.01, projection_ridge=1e-10, fit_bias=False)
    kw.update(extra)
    return kw


def weighted_pegasos(X, y, order, w, lam, gamma, n_classes):
    """Kernel Pegasos (no budget) on the weighted hinge loss: SVs and coefficients."""
    c = 1 if n_classes == 2 else n_classes
    svs, coefs = [], []
    for t, i in enumerate(order, start=1):
        eta = 1.0 / (lam * t)
        f = np.zeros(c)
        if svs:
            f = kern(np.array(svs), X[i], "rbf", gamma)[:, 0] @ np.array(coefs)
        coefs = [a * (1.0 - eta * lam) for a in coefs]
        if n_classes == 2:
            if y[i] * f[0] < 1.0 and w[i] > 0:
                svs.append(X[i])
                coefs.append(np.array([w[i] * eta * y[i]]))
        else:
            r = max((k for k in range(c) if k != y[i]), key=lambda k: (f[k], -k))
            if 1.0 + f[r] - f[y[i]] > 0.0 and w[i] > 0:
                beta = np.zeros(c)
                beta[y[i]], beta[r] = w[i] * eta, -w[i] * eta
                svs.append(X[i])
                coefs.append(beta)
    return np.array(svs), np.array(coefs)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_weighted_bsgd_equals_weighted_kernel_pegasos(backend, n_classes):
    X, y = checkerboard(120, seed=3) if n_classes == 2 else blobs(120, seed=3)
    rng = np.random.default_rng(0)
    w = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], size=len(y))
    order = rng.permutation(len(y))
    res = get_module("bsgd", backend).bsgd(X, y, order, sample_weight=w, **_kw(n_classes))
    sv, coef = weighted_pegasos(X, y, order, w, 1e-2, 2.0, n_classes)
    np.testing.assert_array_equal(res.sv, sv)
    np.testing.assert_allclose(res.alpha, coef, rtol=1e-9, atol=1e-12)
    # an example of weight 0 never becomes an SV
    assert not np.any(res.trace["added"][w[order] == 0])


# (multi-class merging: the unweighted agreement tests cover it; its tolerance is being revised)
@pytest.mark.parametrize("n_classes, maintenance", [
    (2, "removal"), (2, "projection"), (2, "merge"), (3, "removal"), (3, "projection")])
def test_weighted_python_and_fast_agree(n_classes, maintenance):
    X, y = checkerboard(300, seed=5) if n_classes == 2 else blobs(300, seed=5)
    rng = np.random.default_rng(1)
    w = rng.uniform(0.0, 3.0, size=len(y))
    w[rng.random(len(y)) < 0.1] = 0.0
    order = rng.permutation(len(y))
    kw = _kw(n_classes, budget=15, maintenance=maintenance, lam=1e-3, fit_bias=True)
    py = get_module("bsgd", "python").bsgd(X, y, order, sample_weight=w, **kw)
    fast = get_module("bsgd", "fast").bsgd(X, y, order, sample_weight=w, **kw)
    for key in ("added", "maint_step", "maint_index", "maint_partner"):
        np.testing.assert_array_equal(py.trace[key], fast.trace[key], err_msg=key)
    np.testing.assert_allclose(fast.alpha, py.alpha, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fast.bias, py.bias, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_unit_weights_change_nothing(backend):
    X, y = checkerboard(200)
    order = np.random.default_rng(2).permutation(200)
    kw = _kw(budget=12, maintenance="merge", fit_bias=True)
    mod = get_module("bsgd", backend)
    a = mod.bsgd(X, y, order, **kw)
    b = mod.bsgd(X, y, order, sample_weight=np.ones(200), **kw)
    np.testing.assert_array_equal(a.alpha, b.alpha)
    np.testing.assert_array_equal(a.bias, b.bias)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bad", [np.ones(5), -np.ones(200), np.full(200, np.nan), np.ones((200, 1))])
def test_function_rejects_bad_sample_weight(backend, bad):
    X, y = checkerboard(200)
    with pytest.raises(ValueError, match="sample_weight"):
        get_module("bsgd", backend).bsgd(X, y, np.arange(200), sample_weight=bad, **_kw())


# ------------------------------------------------------------------ estimator


@pytest.mark.parametrize("backend", BACKENDS)
def test_class_weight_dict_equals_per_example_weights(backend):
    X, y = checkerboard(300)
    kw = dict(budget=20, gamma=3.0, random_state=0, backend=backend, epochs=2)
    a = BudgetedSVC(class_weight={1: 3.0, -1: 0.5}, **kw).fit(X, y)
    b = BudgetedSVC(**kw).fit(X, y, sample_weight=np.where(y == 1, 3.0, 0.5))
    np.testing.assert_array_equal(a.alpha_, b.alpha_)
    # both multiply
    s = np.random.default_rng(0).uniform(0.5, 2.0, size=300)
    c = BudgetedSVC(class_weight={1: 3.0, -1: 0.5}, **kw).fit(X, y, sample_weight=s)
    d = BudgetedSVC(**kw).fit(X, y, sample_weight=s * np.where(y == 1, 3.0, 0.5))
    np.testing.assert_array_equal(c.alpha_, d.alpha_)
    # and they do change the model
    assert not np.array_equal(a.alpha_, BudgetedSVC(**kw).fit(X, y).alpha_)


def test_balanced_is_n_over_classes_times_counts():
    X, y = blobs(300, n_classes=3)
    y = np.where(np.arange(300) < 40, 0, y)  # uneven counts
    counts = np.bincount(y)
    manual = {k: 300 / (3 * counts[k]) for k in range(3)}
    kw = dict(budget=20, gamma=1.0, random_state=0)
    a = BudgetedSVC(class_weight="balanced", **kw).fit(X, y)
    b = BudgetedSVC(class_weight=manual, **kw).fit(X, y)
    np.testing.assert_allclose(a.alpha_, b.alpha_, rtol=1e-12)


def test_balanced_helps_the_minority_class():
    rng = np.random.default_rng(0)
    n = 3000
    y = np.where(rng.random(n) < 0.08, 1, -1)
    X = rng.normal(size=(n, 2)) + np.where(y[:, None] == 1, 1.5, 0.0)
    Xt = rng.normal(size=(n, 2))
    yt = np.where(rng.random(n) < 0.08, 1, -1)
    Xt += np.where(yt[:, None] == 1, 1.5, 0.0)
    kw = dict(budget=30, gamma=1.0, lam=1e-3, random_state=0, epochs=2)
    plain = BudgetedSVC(**kw).fit(X, y)
    balanced = BudgetedSVC(class_weight="balanced", **kw).fit(X, y)
    assert balanced_accuracy_score(yt, balanced.predict(Xt)) > \
        balanced_accuracy_score(yt, plain.predict(Xt)) + 0.05


def test_weights_survive_chunked_passes(monkeypatch, capsys):
    import refsvm.estimators._progress as progress

    monkeypatch.setattr(progress, "MIN_CHUNK", 23)
    X, y = checkerboard(300)
    s = np.random.default_rng(0).uniform(0.0, 2.0, size=300)
    kw = dict(budget=15, gamma=3.0, random_state=0, class_weight={1: 2.0, -1: 1.0})
    a = BudgetedSVC(**kw).fit(X, y, sample_weight=s)
    b = BudgetedSVC(verbose=2, **kw).fit(X, y, sample_weight=s)
    np.testing.assert_array_equal(a.alpha_, b.alpha_)


def test_partial_fit_takes_weights():
    X, y = checkerboard(300)
    s = np.random.default_rng(0).uniform(0.0, 2.0, size=300)
    a = BudgetedSVC(budget=15, gamma=3.0, random_state=0, class_weight={1: 2.0, -1: 1.0})
    a.partial_fit(X, y, classes=[-1, 1], sample_weight=s)
    b = BudgetedSVC(budget=15, gamma=3.0, random_state=0, class_weight={1: 2.0, -1: 1.0}).fit(
        X, y, sample_weight=s)
    np.testing.assert_array_equal(a.alpha_, b.alpha_)
    with pytest.raises(ValueError, match="balanced"):
        BudgetedSVC(class_weight="balanced").partial_fit(X, y, classes=[-1, 1])


@pytest.mark.parametrize("bad, name", [
    (dict(sample_weight=-np.ones(100)), "sample_weight"),
    (dict(sample_weight=np.ones(7)), "sample_weight"),
    (dict(sample_weight=np.full(100, np.inf)), "sample_weight"),
])
def test_estimator_rejects_bad_sample_weight(bad, name):
    X, y = checkerboard(100)
    with pytest.raises(ValueError, match=name):
        BudgetedSVC(budget=10).fit(X, y, **bad)


@pytest.mark.parametrize("class_weight", ["auto", {1: -1.0}, {1: np.nan}, {5: 1.0}, [1.0, 2.0]])
def test_estimator_rejects_bad_class_weight(class_weight):
    X, y = checkerboard(100)
    with pytest.raises(ValueError, match="class_weight|classes"):
        BudgetedSVC(budget=10, class_weight=class_weight).fit(X, y)


def test_class_weight_is_saved(tmp_path):
    X, y = checkerboard(100)
    est = BudgetedSVC(budget=10, class_weight={1: 2.0, -1: 0.5}, random_state=0).fit(X, y)
    est.save(tmp_path / "m.npz")
    assert BudgetedSVC.load(tmp_path / "m.npz").class_weight == {1: 2.0, -1: 0.5}


# ------------------------------------------------------------- probabilities
# refsvm leaves probabilities to scikit-learn's CalibratedClassifierCV (Platt's sigmoid with
# method="sigmoid"), the route scikit-learn itself recommends since it deprecated
# SVC(probability=True) in 1.9; these tests show that it works with BudgetedSVC.


def _prior_log_loss(y_train, y_test, classes):
    from sklearn.metrics import log_loss

    prior = np.bincount(np.searchsorted(classes, y_train)) / len(y_train)
    return log_loss(y_test, np.tile(prior, (len(y_test), 1)), labels=classes)


@pytest.mark.parametrize("problem", ["binary", "multiclass"])
def test_calibrated_classifier_cv_gives_probabilities(problem):
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.metrics import log_loss

    X, y = checkerboard(1800, seed=4) if problem == "binary" else blobs(1800, seed=4)
    X, Xt, y, yt = X[:1200], X[1200:], y[:1200], y[1200:]
    est = BudgetedSVC(budget=40, gamma=3.0 if problem == "binary" else 1.0, lam=1e-3, epochs=2,
                      random_state=0)
    assert not hasattr(est, "predict_proba")
    cal = CalibratedClassifierCV(est, method="sigmoid", cv=3, ensemble=False).fit(X, y)
    P = cal.predict_proba(Xt)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert log_loss(yt, P, labels=cal.classes_) < 0.75 * _prior_log_loss(y, yt, cal.classes_)


def test_calibrating_a_trained_model_on_held_out_data():
    """One training run: fit on 80 %, Platt's sigmoid on the held-out 20 % (FrozenEstimator)."""
    from scipy.special import expit
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.frozen import FrozenEstimator

    X, y = checkerboard(2500, seed=6)
    X, Xh, Xt, y, yh, yt = X[:1600], X[1600:2000], X[2000:], y[:1600], y[1600:2000], y[2000:]
    est = BudgetedSVC(budget=40, gamma=3.0, lam=1e-3, random_state=0).fit(X, y)
    alpha = est.alpha_.copy()
    cal = CalibratedClassifierCV(FrozenEstimator(est), method="sigmoid").fit(Xh, yh)
    np.testing.assert_array_equal(est.alpha_, alpha)  # the model is not retrained
    P = cal.predict_proba(Xt)[:, 1]
    f = est.decision_function(Xt)
    # a sigmoid of the decision value: increasing in f, and exactly expit(a f + b)
    order = np.argsort(f)
    assert np.all(np.diff(P[order]) >= -1e-15)
    a, b = np.polyfit(f, np.log(P / (1 - P)), 1)
    np.testing.assert_allclose(P, expit(a * f + b), rtol=1e-8)
    assert np.mean((P > 0.5) == (yt == 1)) > 0.8
