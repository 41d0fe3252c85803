"""Online regression baselines (refsvm.online.regression): both paths agree, and single updates match a
brute-force recomputation of the rules of Lu et al.'s regression code (OGD.m, perceptron.m, RBP.m, forgetron.m,
projectron.m, Epsilon.m) and of BOGD."""

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm._fast import online as fast
from refsvm.online import regression as ref

KERNELS = [dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0), dict(kernel="poly", gamma=0.3, degree=2, coef0=1.0)]


def _data(seed=0, n=50, d=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[rng.random(size=(n, d)) < 0.3] = 0.0                 # zeros, for the CSR path
    X[7] = X[2]                                           # a repeated row with the same target
    y = np.sin(X[:, 0]) + 0.2 * rng.normal(size=n)
    y[7] = y[2]
    order = np.concatenate([rng.permutation(n) for _ in range(3)]).astype(np.int64)   # three passes
    w = rng.uniform(0.0, 2.0, size=n)
    w[4] = 0.0
    return X, y, order, rng.random(order.size), w


def _call(module, name, X, y, order, u, **kw):
    fn = getattr(module, name)
    return fn(X, y, order, u, **kw) if name in ("regression_rbp", "regression_bogd") else fn(X, y, order, **kw)


def _assert_states_close(a, b, rtol=0.0, atol=1e-9):
    """Two learners' states: the same keys, integers equal, floats and arrays within ``atol``."""
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], (int, np.integer)) or np.asarray(a[key]).dtype.kind == "i":
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
        else:
            np.testing.assert_allclose(b[key], a[key], rtol=rtol, atol=atol, err_msg=key)


CASES = [("regression_ogd", dict(eta=0.2, epsilon=0.1)),
         ("regression_rbp", dict(budget=8, eta=0.2, epsilon=0.1)),
         ("regression_bogd", dict(budget=8, eta=0.2, lam=0.05, max_coef=1.0, epsilon=0.1)),
         ("regression_norma", dict(eta=0.2, lam=0.05, nu=0.3, epsilon=0.1)),
         ("regression_perceptron", dict(eta=0.2, epsilon=0.1)),
         ("regression_forgetron", dict(budget=8, eta=0.2, epsilon=0.1)),
         ("regression_forgetron", dict(budget=8, eta=0.6, epsilon=0.1, variant="authors")),
         ("regression_projectron", dict(budget=8, eta=0.2, epsilon=0.1)),
         ("regression_bogd", dict(budget=8, eta=0.2, lam=0.05, max_coef=1.0, epsilon=0.1, variant="authors"))]


@pytest.mark.parametrize("name,kw", CASES)
@pytest.mark.parametrize("kernel", KERNELS, ids=["rbf", "poly"])
@pytest.mark.parametrize("csr", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_both_paths_agree(name, kw, kernel, csr, weighted):
    X, y, order, u, w = _data()
    XX = sp.csr_matrix(X) if csr else X
    sw = w if weighted else None
    a = _call(ref, name, XX, y, order, u, sample_weight=sw, **kw, **kernel)
    b = _call(fast, name, XX, y, order, u, sample_weight=sw, **kw, **kernel)
    assert a.alpha.shape == b.alpha.shape
    np.testing.assert_allclose(b.alpha, a.alpha, rtol=0, atol=1e-9)
    sva = a.sv.toarray() if sp.issparse(a.sv) else a.sv
    svb = b.sv.toarray() if sp.issparse(b.sv) else b.sv
    np.testing.assert_array_equal(sva, svb)
    for key in ("mistakes", "updates", "removals", "kernel_evaluations"):
        assert a.trace[key] == b.trace[key], key
    np.testing.assert_array_equal(a.trace["n_sv"], b.trace["n_sv"])
    np.testing.assert_array_equal(a.trace["removal_index"], b.trace["removal_index"])
    assert abs(a.trace["squared_loss"] - b.trace["squared_loss"]) <= 1e-9 * max(1.0, a.trace["squared_loss"])
    assert a.trace["updates"] > 0
    _assert_states_close(a.state, b.state)
    np.testing.assert_array_equal(a.trace["update_kind"], b.trace["update_kind"])
    if name in ("regression_rbp", "regression_bogd", "regression_forgetron"):
        assert a.trace["removals"] > 0 and a.sv.shape[0] == kw["budget"]


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("name,kw", CASES)
def test_continuing_equals_one_call(module, name, kw):
    X, y, order, u, _ = _data(seed=1)
    whole = _call(module, name, X, y, order, u, **kw, **KERNELS[0])
    h = order.size // 2
    first = _call(module, name, X, y, order[:h], u[:h], **kw, **KERNELS[0])
    second = _call(module, name, X, y, order[h:], u[h:], sv=first.sv, alpha=first.alpha, t0=first.t,
                   state=first.state, **kw, **KERNELS[0])
    _assert_states_close(whole.state, second.state, atol=1e-12)
    np.testing.assert_allclose(second.alpha, whole.alpha, rtol=0, atol=1e-12)


def _rbf(a, b, gamma=0.5):
    return float(np.exp(-gamma * np.sum((a - b) ** 2)))


def _brute_step(name, sv, alpha, x, y_t, u_t, s_t, eta=0.2, epsilon=0.1, budget=3, lam=0.05, max_coef=1.0, nu=0.3):
    """One step recomputed from the rules, on explicit lists (no shared code with the module)."""
    sv, alpha = [r.copy() for r in sv], list(alpha)
    f = sum(a * _rbf(v, x) for v, a in zip(sv, alpha))
    delta = y_t - f
    shrink = 1.0 - eta * lam
    if name == "regression_norma":                        # Epsilon.m: shrink, then the test
        alpha = [shrink * a for a in alpha]
        if abs(delta) <= epsilon:
            return sv, alpha, epsilon - nu * eta
        return sv + [x], alpha + [eta * s_t * np.sign(delta)], epsilon + (s_t - nu) * eta
    if abs(delta) <= epsilon:
        if name == "regression_bogd":
            alpha = [shrink * a for a in alpha]
        return sv, alpha
    if name == "regression_ogd":
        return sv + [x], alpha + [eta * s_t * delta]
    if name == "regression_rbp":
        if len(sv) == budget:
            p = int(u_t * budget)
            sv[p], alpha[p] = sv[-1], alpha[-1]
            sv, alpha = sv[:-1], alpha[:-1]
        return sv + [x], alpha + [eta * s_t * np.sign(delta)]
    if len(sv) < budget:
        return sv + [x], [shrink * a for a in alpha] + [eta * s_t * delta]
    p = int(u_t * budget)
    sv[p], alpha[p] = sv[-1], alpha[-1]
    sv, alpha = sv[:-1], alpha[:-1]
    alpha = [np.sign(a) * min(budget * shrink / (budget - 1) * abs(a), eta * max_coef) for a in alpha]
    return sv + [x], alpha + [eta * s_t * delta]


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("name", ["regression_ogd", "regression_rbp", "regression_bogd", "regression_norma"])
@pytest.mark.parametrize("y_t", [2.5, -2.5, 0.0, 0.6, 0.4])   # 0.4: inside the tube
def test_one_step_matches_brute_force(module, name, y_t):
    """A full model of B = 3 SVs, one more example: SVs and coefficients as recomputed by hand."""
    rng = np.random.default_rng(3)
    sv = [rng.normal(size=2) for _ in range(3)]
    alpha = [0.7, -0.4, 1.3]
    x = rng.normal(size=2)
    X = np.vstack(sv + [x])
    y = np.array([0.0, 0.0, 0.0, y_t])
    kw = dict(eta=0.2, epsilon=0.1, kernel="rbf", gamma=0.5, degree=3, coef0=0.0)
    if name in ("regression_rbp", "regression_bogd"):
        kw["budget"] = 3
    if name == "regression_bogd":
        kw.update(lam=0.05, max_coef=1.0)
    if name == "regression_norma":
        kw.update(lam=0.05, nu=0.3)
    u = np.array([0.4])
    w = np.array([1.0, 1.0, 1.0, 1.5])
    res = _call(module, name, X, y, np.array([3]), u, sv=np.vstack(sv), alpha=np.array(alpha).reshape(-1, 1),
                sample_weight=w, **kw)
    sv_b, alpha_b, *eps = _brute_step(name, sv, alpha, x, y_t, 0.4, 1.5)
    if eps:
        assert res.state["epsilon"] == pytest.approx(eps[0], rel=1e-14)
    np.testing.assert_allclose(res.sv, np.vstack(sv_b), rtol=0, atol=0)
    np.testing.assert_allclose(res.alpha[:, 0], alpha_b, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_bad_arguments_name_the_parameter(module):
    X, y, order, u, _ = _data()
    kw = dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0)
    with pytest.raises(ValueError, match="epsilon"):
        module.regression_ogd(X, y, order, eta=0.1, epsilon=-1.0, **kw)
    with pytest.raises(ValueError, match="eta"):
        module.regression_rbp(X, y, order, u, budget=5, eta=0.0, epsilon=0.1, **kw)
    y_bad = y.copy()
    y_bad[0] = np.nan
    with pytest.raises(ValueError, match="y"):
        module.regression_ogd(X, y_bad, order, eta=0.1, epsilon=0.1, **kw)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("name", ["regression_ogd", "regression_rbp", "regression_bogd", "regression_norma"])
def test_tube_boundary(module, name):
    """|y - f| = epsilon is inside the tube (no update, the code's ``abs(delt) > epsl``); just above is outside."""
    X = np.array([[0.0, 1.0], [1.0, 0.0]])
    kw = dict(eta=0.2, epsilon=0.25, kernel="rbf", gamma=0.5, degree=3, coef0=0.0)
    if name in ("regression_rbp", "regression_bogd"):
        kw["budget"] = 2
    if name == "regression_bogd":
        kw.update(lam=0.0, max_coef=1.0)
    if name == "regression_norma":
        kw.update(lam=0.0, nu=0.5)
    u = np.array([0.5])
    on = _call(module, name, X, np.array([-0.25, 0.0]), np.array([0]), u, **kw)      # empty model: f = 0
    assert on.trace["updates"] == 0 and on.sv.shape[0] == 0
    out = _call(module, name, X, np.array([-0.25 - 1e-15, 0.0]), np.array([0]), u, **kw)
    assert out.trace["updates"] == 1 and out.alpha[0, 0] < 0.0
