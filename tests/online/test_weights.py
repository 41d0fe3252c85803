"""sample_weight / class_weight for the classic online learners (refsvm.online, both paths).

Perceptron / RBP / Forgetron add ``s_t y_t``, OGD / BOGD ``eta s_t y_t``, the
Projectrons step ``s_t y_t`` (margin-error step capped at ``s_t``), BPA-S runs
PA-I with ``C s_t``.  Oracles: the weighted perceptron, kernel OGD, BOGD,
Forgetron (below the budget), Projectron++ and BPA-S written out here.
"""

import numpy as np
import pytest

from refsvm import OnlineKernelClassifier
from refsvm.backend import get_module

from _helpers import checkerboard, kern

BACKENDS = ["python", "fast"]
KW = dict(kernel="rbf", gamma=2.0, degree=3, coef0=0.0)


def _call(backend, name, X, y, order, **kw):
    f = getattr(get_module("online", backend), name.rstrip("+"))
    u = np.random.default_rng(9).random(len(order))
    budget = kw.pop("budget", 12)
    if name == "ogd":
        return f(X, y, order, eta=0.3, **KW, **kw)
    if name == "rbp":
        return f(X, y, order, u, budget=budget, **KW, **kw)
    if name == "bogd":
        return f(X, y, order, u, budget=budget, eta=0.3, lam=0.01, max_coef=2.0, **KW, **kw)
    if name == "forgetron":
        return f(X, y, order, budget=budget, **KW, **kw)
    if name in ("projectron", "projectron++"):
        return get_module("online", backend).projectron(X, y, order, eta=0.3, budget=budget,
                                                        plusplus=name == "projectron++", **KW, **kw)
    if name == "bpas":
        return f(X, y, order, budget=budget, C=0.7, **KW, **kw)
    return f(X, y, order, **KW, **kw)


def _weights(n, seed=0):
    return np.random.default_rng(seed).choice([0.0, 0.5, 1.0, 2.0, 3.0], size=n)


ALL = ["perceptron", "ogd", "rbp", "bogd", "forgetron", "projectron", "projectron++", "bpas"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ALL)
def test_weight_one_is_bitwise_unweighted(backend, name):
    X, y = checkerboard(150, seed=1)
    order = np.random.default_rng(0).permutation(150)
    a = _call(backend, name, X, y, order)
    b = _call(backend, name, X, y, order, sample_weight=np.ones(150))
    assert np.array_equal(a.sv, b.sv) and np.array_equal(a.alpha, b.alpha)
    if name in ("rbp", "bogd", "forgetron", "bpas"):
        assert a.trace["removals"] > 0


@pytest.mark.parametrize("name", ALL)
def test_weighted_paths_agree(name):
    X, y = checkerboard(150, seed=2)
    w = _weights(150, 2)
    order = np.random.default_rng(1).permutation(150)
    py = _call("python", name, X, y, order, sample_weight=w)
    fa = _call("fast", name, X, y, order, sample_weight=w)
    for key in ("update_kind", "n_sv", "removal_step", "removal_index"):
        assert np.array_equal(py.trace[key], fa.trace[key]), key
    np.testing.assert_allclose(fa.alpha, py.alpha, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(fa.sv, py.sv)
    assert not np.any(py.trace["update_kind"][w[order] == 0])     # weight 0: no update


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["perceptron", "ogd", "bogd"])
def test_oracle_few_steps(backend, name):
    """The weighted updates written out (no removal: BOGD with a budget above the 20 steps)."""
    X, y = checkerboard(20, seed=3)
    w = np.random.default_rng(4).choice([0.0, 0.5, 2.0, 3.0], size=20)
    order = np.arange(20)
    res = _call(backend, name, X, y, order, sample_weight=w, budget=25)
    svs, coefs = [], []
    for t in order:
        f = float(kern(np.array(svs), X[t], "rbf", 2.0)[:, 0] @ np.array(coefs)) if svs else 0.0
        if name == "perceptron":
            if y[t] * f <= 0 and w[t] > 0:
                svs.append(X[t])
                coefs.append(w[t] * y[t])
        elif name == "ogd":
            if y[t] * f < 1 and w[t] > 0:
                svs.append(X[t])
                coefs.append(0.3 * w[t] * y[t])
        else:
            coefs = [a * (1 - 0.3 * 0.01) for a in coefs]
            if y[t] * f < 1 and w[t] > 0:
                svs.append(X[t])
                coefs.append(0.3 * w[t] * y[t])
    assert len(svs) >= 4
    np.testing.assert_array_equal(res.sv, np.array(svs))
    np.testing.assert_allclose(res.alpha[:, 0], coefs, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ALL)
def test_functions_reject_bad_sample_weight(backend, name):
    X, y = checkerboard(30, seed=0)
    for bad in (-np.ones(30), np.ones(4), np.full(30, np.nan)):
        with pytest.raises(ValueError, match="sample_weight"):
            _call(backend, name, X, y, np.arange(30), sample_weight=bad)


@pytest.mark.parametrize("backend", BACKENDS)
def test_oracle_forgetron_projectron_bpas(backend):
    """Forgetron below its budget (a weighted perceptron), Projectron++ and BPA-S below theirs, written out."""
    X, y = checkerboard(24, seed=5)
    w = np.random.default_rng(6).choice([0.0, 0.5, 2.0, 3.0], size=24)
    order = np.arange(24)
    res = _call(backend, "forgetron", X, y, order, sample_weight=w, budget=30)
    svs, coefs = [], []
    for t in order:
        f = float(kern(np.array(svs), X[t], "rbf", 2.0)[:, 0] @ np.array(coefs)) if svs else 0.0
        if y[t] * f <= 0 and w[t] > 0:
            svs.append(X[t])
            coefs.append(w[t] * y[t])
    np.testing.assert_array_equal(res.sv, np.array(svs))
    np.testing.assert_allclose(res.alpha[:, 0], coefs, rtol=1e-10, atol=1e-14)

    res = _call(backend, "bpas", X, y, order, sample_weight=w, budget=30)
    svs, coefs = [], []
    for t in order:
        f = float(kern(np.array(svs), X[t], "rbf", 2.0)[:, 0] @ np.array(coefs)) if svs else 0.0
        loss = max(0.0, 1 - y[t] * f)
        if loss > 0 and w[t] > 0:
            svs.append(X[t])
            coefs.append(y[t] * min(0.7 * w[t], loss / 1.0))                # PA-I, C s_t, k(x, x) = 1
    np.testing.assert_array_equal(res.sv, np.array(svs))
    np.testing.assert_allclose(res.alpha[:, 0], coefs, rtol=1e-10, atol=1e-14)

    res = _call(backend, "projectron++", X, y, order, sample_weight=w, budget=30)
    svs, coefs = [], []
    for t in order:
        k = kern(np.array(svs), X[t], "rbf", 2.0)[:, 0] if svs else np.zeros(0)
        f = float(k @ np.array(coefs)) if svs else 0.0
        if w[t] == 0:
            continue
        if svs:
            d_star = np.linalg.solve(kern(np.array(svs), np.array(svs), "rbf", 2.0), k)
            pk = float(k @ d_star)
            delta = np.sqrt(max(1.0 - pk, 0.0))
        if y[t] * f <= 0:
            if svs and delta <= 0.3:
                coefs = list(np.array(coefs) + w[t] * y[t] * d_star)
            else:
                svs.append(X[t])
                coefs.append(w[t] * y[t])
        elif y[t] * f < 1 and pk > 0:
            loss = 1 - y[t] * f
            tau = min(loss / pk, w[t])
            if tau * (2 * loss - tau * pk - 2 * delta / 0.3) >= 0:
                coefs = list(np.array(coefs) + y[t] * tau * d_star)
    np.testing.assert_array_equal(res.sv, np.array(svs))
    np.testing.assert_allclose(res.alpha[:, 0], coefs, rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("algorithm", ["forgetron", "projectron", "projectron++", "bpas"])
def test_estimator_takes_weights_for_every_learner(algorithm):
    X, y = checkerboard(200, seed=0)
    kw = dict(budget=20, gamma=2.0, eta=0.3, random_state=0)
    a = OnlineKernelClassifier(algorithm, **kw).fit(X, y, sample_weight=np.ones(200))
    b = OnlineKernelClassifier(algorithm, **kw).fit(X, y)
    np.testing.assert_array_equal(a.alpha_, b.alpha_)                      # weight 1 = unweighted
    c = OnlineKernelClassifier(algorithm, class_weight="balanced", **kw).fit(X, y)
    s = np.where(y > 0, 200 / (2 * np.sum(y > 0)), 200 / (2 * np.sum(y < 0)))
    d = OnlineKernelClassifier(algorithm, **kw).fit(X, y, sample_weight=s)
    np.testing.assert_array_equal(c.alpha_, d.alpha_)                      # class_weight = sample_weight


@pytest.mark.parametrize("algorithm", ["perceptron", "ogd", "rbp", "bogd"])
def test_estimator_class_weight_and_chunks(algorithm, capsys):
    X, y = checkerboard(2200, seed=6)
    labels = np.where(y > 0, "b", "a")
    kw = dict(algorithm=algorithm, budget=30, gamma=2.0, eta=0.3, lam=1e-3, random_state=0)
    s = np.where(y > 0, 3.0, 0.5)
    a = OnlineKernelClassifier(class_weight={"b": 3.0, "a": 0.5}, **kw).fit(X, labels)
    b = OnlineKernelClassifier(**kw).fit(X, labels, sample_weight=s)
    c = OnlineKernelClassifier(verbose=1, **kw).fit(X, labels, sample_weight=s)   # chunks of 1000
    assert "OnlineKernelClassifier" in capsys.readouterr().err
    np.testing.assert_array_equal(a.alpha_, b.alpha_)
    np.testing.assert_array_equal(b.support_vectors_, c.support_vectors_)
    np.testing.assert_allclose(b.alpha_, c.alpha_, rtol=1e-12, atol=1e-15)
    d = OnlineKernelClassifier(**kw).fit(X, labels)
    assert not np.array_equal(a.alpha_, d.alpha_) or len(a.alpha_) != len(d.alpha_)
