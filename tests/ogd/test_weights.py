"""sample_weight / class_weight for FOGD and NOGD (functions, both paths, and the estimators).

A weight s_t scales the example's loss, hence its gradient: the step is
eta s_t (Alg. 1 line 10, eq. 10-11, Alg. 5; NOGD lines 6 and 18).  Oracles:
FOGD and kernel-phase NOGD written out here for a few steps.
"""

import numpy as np
import pytest

from refsvm import FOGDClassifier, FOGDRegressor, NOGDClassifier, NOGDRegressor
from refsvm.backend import get_module
from refsvm.ogd import fourier_directions

from _helpers import blobs, checkerboard, kern

BACKENDS = ["python", "fast"]
TASKS = ["binary", "multiclass", "regression"]


def _data(task, n=120, seed=0):
    if task == "binary":
        return checkerboard(n, seed=seed)
    if task == "multiclass":
        return blobs(n, seed=seed)
    X, _ = checkerboard(n, seed=seed)
    return X, np.sin(3 * X[:, 0]) + X[:, 1]


def _weights(n, seed=0):
    return np.random.default_rng(seed).choice([0.0, 0.5, 1.0, 2.0, 3.0], size=n)


def _fogd(backend, task, X, y, order, **kw):
    U = fourier_directions(np.random.default_rng(1), 30, X.shape[1], 1.5)
    return get_module("fogd", backend).fogd(X, y, order, task=task, n_classes=3, U=U, eta=0.01,
                                            epsilon=0.01, **kw), U


def _nogd(backend, task, X, y, order, budget=25, **kw):
    return get_module("nogd", backend).nogd(X, y, order, task=task, n_classes=3, budget=budget, rank=10,
                                            gamma=1.5, eta=0.2, epsilon=0.01, **kw)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("task", TASKS)
def test_weight_one_is_bitwise_unweighted(backend, task):
    X, y = _data(task)
    order = np.random.default_rng(2).permutation(len(y))
    a, _ = _fogd(backend, task, X, y, order)
    b, _ = _fogd(backend, task, X, y, order, sample_weight=np.ones(len(y)))
    assert np.array_equal(a.W, b.W)
    c = _nogd(backend, task, X, y, order)
    d = _nogd(backend, task, X, y, order, sample_weight=np.ones(len(y)))
    assert c.trace["switch_step"] >= 0
    assert np.array_equal(c.W, d.W) and np.array_equal(c.sv, d.sv)


@pytest.mark.parametrize("task", TASKS)
def test_weighted_paths_agree(task):
    X, y = _data(task, seed=1)
    w = _weights(len(y), 1)
    order = np.random.default_rng(3).permutation(len(y))
    py, _ = _fogd("python", task, X, y, order, sample_weight=w)
    fa, _ = _fogd("fast", task, X, y, order, sample_weight=w)
    assert np.array_equal(py.trace["updated"], fa.trace["updated"])
    np.testing.assert_allclose(fa.W, py.W, rtol=1e-9, atol=1e-12)
    py = _nogd("python", task, X, y, order, sample_weight=w)
    fa = _nogd("fast", task, X, y, order, sample_weight=w)
    for key in ("updated", "added"):
        assert np.array_equal(py.trace[key], fa.trace[key]), key
    assert py.trace["switch_step"] == fa.trace["switch_step"] >= 0
    np.testing.assert_allclose(fa.W, py.W, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fa.alpha, py.alpha, rtol=1e-9, atol=1e-12)
    # weight 0: never a step, never an SV
    assert not np.any(py.trace["updated"][w[order] == 0])


def _z(U, x):
    p = U @ x
    return np.ravel(np.column_stack([np.sin(p), np.cos(p)]))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("task", TASKS)
def test_fogd_oracle_few_steps(backend, task):
    """w <- w - eta s_t grad l_t written out for 12 steps."""
    X, y = _data(task, n=12, seed=4)
    w = np.array([2.0, 0.0, 0.5, 3.0, 1.0, 1.5, 0.0, 2.0, 1.0, 0.5, 3.0, 1.0])
    order = np.arange(12)
    res, U = _fogd(backend, task, X, y, order, sample_weight=w)
    W = np.zeros((60, 3 if task == "multiclass" else 1))
    for t in order:
        z = _z(U, X[t])
        f = z @ W
        if task == "binary":
            if y[t] * f[0] < 1:
                W[:, 0] += 0.01 * w[t] * y[t] * z
        elif task == "multiclass":
            s = max((r for r in range(3) if r != y[t]), key=lambda r: (f[r], -r))
            if 1 - f[y[t]] + f[s] > 0:
                W[:, y[t]] += 0.01 * w[t] * z
                W[:, s] -= 0.01 * w[t] * z
        elif (f[0] - y[t]) ** 2 > 0.01:
            W[:, 0] -= 0.01 * w[t] * 2 * (f[0] - y[t]) * z
    np.testing.assert_allclose(res.W, W, rtol=1e-10, atol=1e-13)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("task", TASKS)
def test_nogd_kernel_phase_oracle(backend, task):
    """Kernel OGD with step eta s_t (no switch: budget larger than the data)."""
    X, y = _data(task, n=15, seed=5)
    w = np.random.default_rng(6).choice([0.0, 0.5, 2.0, 3.0], size=15)
    res = _nogd(backend, task, X, y, np.arange(15), budget=40, sample_weight=w)
    svs, coefs = [], []
    c = 3 if task == "multiclass" else 1
    for t in range(15):
        f = kern(np.array(svs), X[t], "rbf", 1.5)[:, 0] @ np.array(coefs) if svs else np.zeros(c)
        beta = np.zeros(c)
        if task == "binary":
            nonzero, beta[0] = y[t] * f[0] < 1, 0.2 * w[t] * y[t]
        elif task == "multiclass":
            s = max((r for r in range(3) if r != y[t]), key=lambda r: (f[r], -r))
            nonzero = 1 - f[y[t]] + f[s] > 0
            beta[y[t]], beta[s] = 0.2 * w[t], -0.2 * w[t]
        else:
            nonzero, beta[0] = (f[0] - y[t]) ** 2 > 0.01, -0.2 * w[t] * 2 * (f[0] - y[t])
        if nonzero and w[t] > 0:
            svs.append(X[t])
            coefs.append(beta)
    assert len(svs) >= 5
    np.testing.assert_array_equal(res.sv, np.array(svs))
    np.testing.assert_allclose(res.alpha, np.array(coefs), rtol=1e-10, atol=1e-13)


@pytest.mark.parametrize("solver", ["fogd", "nogd"])
@pytest.mark.parametrize("bad", [-np.ones(40), np.ones(3), np.full(40, np.inf)])
def test_functions_reject_bad_sample_weight(solver, bad):
    X, y = _data("binary", n=40)
    for backend in BACKENDS:
        with pytest.raises(ValueError, match="sample_weight"):
            if solver == "fogd":
                _fogd(backend, "binary", X, y, np.arange(40), sample_weight=bad)
            else:
                _nogd(backend, "binary", X, y, np.arange(40), sample_weight=bad)


@pytest.mark.parametrize("cls", [FOGDClassifier, NOGDClassifier])
def test_classifier_class_weight_equals_sample_weight(cls):
    X, y = checkerboard(150, seed=7)
    labels = np.where(y > 0, "b", "a")
    kw = dict(epochs=2, random_state=0, gamma=1.5)
    a = cls(class_weight={"b": 3.0, "a": 0.5}, **kw).fit(X, labels)
    b = cls(**kw).fit(X, labels, sample_weight=np.where(y > 0, 3.0, 0.5))
    c = cls(**kw).fit(X, labels)
    assert np.array_equal(a.coef_, b.coef_) if a.coef_ is not None else np.array_equal(a.alpha_, b.alpha_)
    F = a.decision_function(X)
    assert not np.allclose(F, c.decision_function(X))
    assert np.mean(F > 0) > np.mean(c.decision_function(X) > 0)   # class "b" weighted up


@pytest.mark.parametrize("cls", [FOGDRegressor, NOGDRegressor])
def test_regressor_sample_weight_and_verbose(cls, capsys):
    X, y = _data("regression", n=2100, seed=8)            # > 2 chunks of 1000 with verbose=1
    w = _weights(2100, 8)
    kw = dict(epochs=2, random_state=0, gamma=1.5, eta=0.0005 if cls is FOGDRegressor else 0.01)
    a = cls(**kw).fit(X, y, sample_weight=w)
    b = cls(**kw).fit(X, y)
    c = cls(**kw).fit(X, y, sample_weight=np.ones(2100))
    assert not np.allclose(a.predict(X), b.predict(X))
    np.testing.assert_array_equal(b.predict(X), c.predict(X))
    capsys.readouterr()
    d = cls(verbose=1, **kw).fit(X, y, sample_weight=w)
    err = capsys.readouterr().err
    assert "online mse" in err and "epoch 2/2" in err and "1000/2100" in err
    np.testing.assert_array_equal(a.predict(X), d.predict(X))
    e = cls(**kw)
    e.partial_fit(X, y, sample_weight=w)
    e.partial_fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(a.predict(X), e.predict(X))
    with pytest.raises(ValueError, match="sample_weight"):
        cls(**kw).fit(X, y, sample_weight=-np.ones(2100))
    with pytest.raises(ValueError, match="verbose"):
        cls(verbose=-1).fit(X, y)
