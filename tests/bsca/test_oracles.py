"""Oracle tests of BSCA (refsvm.bsca / refsvm._fast.bsca) against independent computations.

Everything expected is computed here from the definitions: the dual QP solved
by scipy's L-BFGS-B, kernel matrices from tests/_helpers.kern, the truncated
Newton step written out, the primal and dual objectives from their formulas.
"""

import numpy as np
import pytest
from scipy.optimize import minimize

import refsvm._fast.bsca as fast_bsca
import refsvm.bsca as ref_bsca
from _helpers import checkerboard, kern, run_bsca_passes

BACKENDS = [ref_bsca, fast_bsca]
IDS = ["python", "fast"]


def qp_solution(X, y, C, gamma):
    """max sum a - 1/2 a'Qa, 0 <= a <= C (no equality constraint: no bias), by L-BFGS-B."""
    Q = (y[:, None] * y[None, :]) * kern(X, X, "rbf", gamma)
    res = minimize(lambda a: (0.5 * a @ Q @ a - a.sum(), Q @ a - 1.0), np.zeros(len(y)), jac=True,
                   method="L-BFGS-B", bounds=[(0.0, C)] * len(y),
                   options=dict(ftol=1e-15, gtol=1e-12, maxiter=10000))
    return res.x, Q


def dual_value(a, Q):
    return a.sum() - 0.5 * a @ Q @ a


def primal_value(X, y, sv, beta, C, gamma):
    beta = beta.reshape(-1)
    f = kern(X, sv, "rbf", gamma) @ beta
    return 0.5 * beta @ kern(sv, sv, "rbf", gamma) @ beta + C * np.maximum(0.0, 1.0 - y * f).sum()


# ----------------------------------------------------------------------------
# single steps: Algorithm 2, lines 5-9, written out
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("module", BACKENDS, ids=IDS)
def test_steps_match_written_out_algorithm(module):
    """Every step: f~ from the model, delta = clip(a_i + (1 - y_i f~)/Q_ii, 0, C) - a_i,
    coefficient delta * y_i (the erratum), appended or accumulated (without a budget)."""
    X, y = checkerboard(40, 1)
    C, gamma = 0.7, 1.5
    rng = np.random.default_rng(2)
    order = rng.integers(0, 40, 150)
    for sv_update in ("append", "accumulate"):
        sv = np.zeros((0, 2))
        beta = np.zeros(0)
        src = []
        a = np.zeros(40)
        state = {}
        for i in order:
            f = kern(X[i], sv, "rbf", gamma)[0] @ beta if len(beta) else 0.0
            delta = min(max(a[i] + (1.0 - y[i] * f) / 1.0, 0.0), C) - a[i]
            if abs(1.0 - y[i] * f) <= 1e-9:          # below the rounding rule's reach: skip compare
                delta = None
            r = module.bsca(X, y, np.array([i]), budget=None, C=C, gamma=gamma, sv_update=sv_update,
                            **state)
            state = dict(sv=r.sv, alpha=r.alpha, dual=r.dual, sv_source=r.sv_source, t0=r.t)
            if delta is None:                            # margin 1 up to rounding: either way
                delta = r.dual[i] - a[i] if r.trace["changed"][0] else 0.0
            assert r.dual[i] - a[i] == pytest.approx(delta, abs=1e-12)
            assert r.trace["changed"][0] == (delta != 0.0)
            if delta != 0.0:
                a[i] += delta
                if sv_update == "accumulate" and i in src:
                    beta[src.index(i)] += delta * y[i]
                else:
                    sv = np.vstack([sv, X[i]])
                    beta = np.append(beta, delta * y[i])          # (delta y_i, x_i), not (delta, x_i)
                    src.append(i)
            np.testing.assert_allclose(r.dual, a, atol=1e-12)
            np.testing.assert_allclose(r.sv, sv)
            np.testing.assert_allclose(r.alpha[:, 0], beta, atol=1e-12)
            np.testing.assert_array_equal(r.sv_source, src)
        assert (sv_update == "accumulate") == (len(src) == len(set(src)))
        assert len(src) > 5 and np.any(y[src] < 0)


@pytest.mark.parametrize("module", BACKENDS, ids=IDS)
def test_zero_diagonal_linear_kernel(module):
    """Q_ii = 0 (linear kernel, x_i = 0): alpha_i jumps to C (the margin of x_i is 0 < 1)."""
    X = np.array([[0.0, 0.0], [1.0, 0.5]])
    y = np.array([1, -1])
    r = module.bsca(X, y, np.array([0, 0, 1]), budget=None, C=2.0, kernel="linear")
    assert r.dual[0] == 2.0 and r.trace["changed"].tolist() == [1, 0, 1]


# ----------------------------------------------------------------------------
# without a budget: plain kernel SDCA
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("sv_update", ["accumulate", "append"])
def test_dual_never_decreases(sv_update):
    X, y = checkerboard(60, 3)
    C, gamma = 2.0, 2.0
    _, Q = qp_solution(X[:2], y[:2], C, gamma)
    Q = (y[:, None] * y[None, :]) * kern(X, X, "rbf", gamma)
    order = np.random.default_rng(4).integers(0, 60, 900)
    state = {}
    prev = 0.0
    n_up = 0
    for i in order:
        r = fast_bsca.bsca(X, y, np.array([i]), budget=None, C=C, gamma=gamma, sv_update=sv_update, **state)
        state = dict(sv=r.sv, alpha=r.alpha, dual=r.dual, sv_source=r.sv_source, t0=r.t)
        d = dual_value(r.dual, Q)
        assert d >= prev - 1e-12 * max(1.0, abs(prev))
        n_up += d > prev
        prev = d
    assert n_up > 100


@pytest.mark.parametrize("module", BACKENDS, ids=IDS)
def test_converges_to_qp_solution_and_gap_closes(module):
    X, y = checkerboard(120, 5)
    C, gamma = 1.0, 2.0
    a_star, Q = qp_solution(X, y, C, gamma)
    rng = np.random.default_rng(6)
    n_epochs = 300 if module is fast_bsca else 120
    rs = run_bsca_passes(module, X, y, [rng.permutation(120) for _ in range(n_epochs)], budget=None, C=C, gamma=gamma)
    r = rs[-1]
    d_star = dual_value(a_star, Q)
    # alpha converges (slowly along the flat directions of Q; KKT violation of a_star: 8e-8)
    tol = 5e-3 if module is fast_bsca else 2e-2
    err = np.max(np.abs(r.dual - a_star))
    assert err < tol and err < 0.1 * np.max(np.abs(rs[9].dual - a_star))
    assert dual_value(r.dual, Q) == pytest.approx(d_star, rel=tol * 1e-3)
    P = primal_value(X, y, r.sv, r.alpha, C, gamma)
    D = dual_value(r.dual, Q)
    assert 0.0 <= P - D < tol * 1e-1 * P                 # weak duality, gap closes
    # the library's objectives agree with the formulas
    kw = dict(kernel="rbf", gamma=gamma, degree=3, coef0=0.0)
    assert module.primal_objective(X, y, r.sv, r.alpha, C=C, **kw) == pytest.approx(P, rel=1e-10)
    assert module.dual_objective(X, y, r.dual, **kw) == pytest.approx(D, rel=1e-10)
    # the gap at the start is large (the test can fail)
    P0 = primal_value(X, y, rs[0].sv, rs[0].alpha, C, gamma)
    assert P0 - dual_value(rs[0].dual, Q) > 100 * (P - D)


def test_lemma2_fraction_of_nonzero_steps():
    """Lemma 2 (no budget): in the long run the fraction of steps with delta != 0
    approaches the fraction of free variables 0 < alpha*_i < C of the optimum
    (and not the fraction of support vectors alpha*_i > 0, BSGD's rate)."""
    X, y = checkerboard(200, 0)
    C, gamma = 1.0, 2.0
    a_star, _ = qp_solution(X, y, C, gamma)
    free = np.mean((a_star > 1e-6) & (a_star < C - 1e-6))
    sv_frac = np.mean(a_star > 1e-6)
    rng = np.random.default_rng(0)
    rs = run_bsca_passes(fast_bsca, X, y, [rng.integers(0, 200, 200) for _ in range(200)], budget=None, C=C,
                gamma=gamma)
    late = rs[100:]
    p = 1.0 - sum(r.trace["n_zero_steps"] for r in late) / sum(r.trace["n_steps"] for r in late)
    assert sv_frac > free + 0.2
    assert abs(p - free) < 0.03, (p, free, sv_frac)
    # n_at_bound: the late steps land on the box bounds about as often as the bounded variables are visited
    at_bound = sum(r.trace["n_at_bound"] for r in late) / sum(r.trace["n_steps"] for r in late)
    assert abs(at_bound - (1.0 - free)) < 0.03


# ----------------------------------------------------------------------------
# with a budget
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("module", BACKENDS, ids=IDS)
@pytest.mark.parametrize("maintenance", ["removal", "projection", "merge"])
def test_budget_trace_and_source_map(module, maintenance):
    X, y = checkerboard(150, 7)
    rng = np.random.default_rng(8)
    orders = [rng.integers(0, 150, 150), rng.permutation(150)]
    rs = run_bsca_passes(module, X, y, orders, budget=15, C=10.0, gamma=5.0, maintenance=maintenance)
    for r in rs:
        tr = r.trace
        assert len(r.sv) <= 15
        ne = len(tr["maint_step"])
        assert ne > 5 and ne == int(np.sum(tr["added"])) - (0 if r is not rs[0] else 15)
        assert tr["maintenance_fraction"] == ne / tr["n_steps"]
        assert tr["n_zero_steps"] == tr["n_steps"] - int(tr["changed"].sum())
        assert np.all(tr["added"] <= tr["changed"])
        assert np.all(tr["weight_degradation"] >= 0)
        assert (np.any(tr["maint_partner"] >= 0)) == (maintenance == "merge")
        # every slot that claims an example holds exactly that example
        held = r.sv_source >= 0
        np.testing.assert_array_equal(r.sv[held], X[r.sv_source[held]])
        assert np.all((r.dual >= 0) & (r.dual <= 10.0))
    # kernel evaluations of distinct points, as BSGD counts them: the margin's |M| per step, plus
    # removal 0 / projection (b-1)^2 / merging one per same-sign candidate (first call from |M| = 0)
    tr = rs[0].trace
    size = np.cumsum(tr["added"]) - np.searchsorted(tr["maint_step"], np.arange(150), side="right")
    before = np.concatenate([[0], size[:-1]])
    margins = int(np.sum(before))
    if maintenance == "merge":
        assert margins < tr["kernel_evaluations"] <= margins + len(tr["maint_step"]) * 15
    else:
        per_event = {"removal": 0, "projection": 15 ** 2}[maintenance]
        assert tr["kernel_evaluations"] == margins + len(tr["maint_step"]) * per_event


def test_accumulate_is_exact_and_saves_maintenance():
    """Adding delta y_i to an unmerged copy of x_i represents the same function as appending."""
    X, y = checkerboard(80, 9)
    order = np.random.default_rng(10).integers(0, 80, 400)
    kw = dict(budget=None, C=3.0, gamma=2.0)
    acc = fast_bsca.bsca(X, y, order, sv_update="accumulate", **kw)
    app = fast_bsca.bsca(X, y, order, sv_update="append", **kw)
    np.testing.assert_array_equal(acc.trace["changed"], app.trace["changed"])
    np.testing.assert_allclose(acc.dual, app.dual, atol=1e-9)
    np.testing.assert_allclose(kern(X, acc.sv, "rbf", 2.0) @ acc.alpha, kern(X, app.sv, "rbf", 2.0) @ app.alpha,
                               atol=1e-9)
    assert len(acc.sv) == np.count_nonzero(acc.dual != 0) or len(acc.sv) < len(app.sv)
    assert len(acc.sv) < len(app.sv)


def test_dual_estimate_is_unbiased():
    X, y = checkerboard(150, 11)
    r = fast_bsca.bsca(X, y, np.arange(150), budget=None, C=1.0, gamma=2.0)
    kw = dict(kernel="rbf", gamma=2.0, degree=3, coef0=0.0)
    exact = fast_bsca.dual_objective(X, y, r.dual, **kw)
    nz = np.flatnonzero(r.dual)
    rng = np.random.default_rng(12)
    est = [fast_bsca.dual_objective(X, y, r.dual, sample=rng.choice(nz, 20, replace=False), **kw)
           for _ in range(400)]
    assert abs(np.mean(est) - exact) < 4 * np.std(est) / np.sqrt(len(est)) + 1e-9
    full = fast_bsca.dual_objective(X, y, r.dual, sample=nz, **kw)
    assert full == pytest.approx(exact, rel=1e-12)


# ----------------------------------------------------------------------------
# input validation
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("module", BACKENDS, ids=IDS)
@pytest.mark.parametrize("name,value", [
    ("C", 0.0), ("C", -1.0), ("budget", 1), ("sv_update", "copy"), ("maintenance", "drop"),
    ("merge_solver", "newton"), ("gamma", 0.0), ("merge_eps", 0.0), ("t0", -1),
    ("dual", np.zeros(3)), ("dual", np.full(20, 5.0)), ("order", np.array([0, 20])),
])
def test_bad_arguments_name_the_parameter(module, name, value):
    X, y = checkerboard(20, 0)
    kw = dict(budget=5, C=1.0)
    order = np.arange(20)
    if name == "order":
        order = value
    else:
        kw[name] = value
    with pytest.raises(ValueError, match=name):
        module.bsca(X, y, order, **kw)


@pytest.mark.parametrize("module", BACKENDS, ids=IDS)
def test_bad_state_and_sample(module):
    X, y = checkerboard(20, 0)
    r = module.bsca(X, y, np.arange(20), budget=5, C=1.0)
    with pytest.raises(ValueError, match="sv_source"):
        module.bsca(X, y, np.arange(3), budget=5, C=1.0, sv=r.sv, alpha=r.alpha, sv_source=np.zeros(2))
    bad = np.where(r.sv_source >= 0, (r.sv_source + 1) % 20, -1)
    if np.any(bad >= 0):
        with pytest.raises(ValueError, match="sv_source"):
            module.bsca(X, y, np.arange(3), budget=5, C=1.0, sv=r.sv, alpha=r.alpha, sv_source=bad)
    with pytest.raises(ValueError, match="alpha"):
        module.bsca(X, y, np.arange(3), budget=5, C=1.0, sv=r.sv, alpha=np.zeros((len(r.sv), 2)))
    with pytest.raises(ValueError, match="y"):
        module.bsca(X, y + 1, np.arange(3), budget=5, C=1.0)
    with pytest.raises(ValueError, match="sample"):
        module.dual_objective(X, y, r.dual, kernel="rbf", gamma=1.0, degree=3, coef0=0.0,
                              sample=np.array([0, 0]))
