"""Independent checks of the online baselines (refsvm.online), each against a
computation written out here from the paper's definitions."""

import math

import numpy as np
import pytest

import refsvm.online as online
from refsvm.bsgd import bsgd

from _helpers import checkerboard, kern

RBF = dict(kernel="rbf", gamma=2.0, degree=3, coef0=0.0)
LIN = dict(kernel="linear", gamma=1.0, degree=3, coef0=0.0)


def _separable(n, d, margin, seed):
    """Points in the unit ball, labelled by a unit vector u, at distance >= margin from u's hyperplane."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    X = []
    while len(X) < n:
        x = rng.uniform(-1, 1, size=d)
        if np.linalg.norm(x) <= 1 and abs(x @ u) >= margin:
            X.append(x)
    X = np.array(X)
    return X, np.where(X @ u > 0, 1, -1).astype(np.int64), u


# ----------------------------------------------------------------------------- Perceptron


def test_perceptron_mistake_bound_and_linear_equivalence():
    """Novikoff / Freund & Schapire (1999) Theorem 1 with zero hinge deviation: mistakes <= (R / gamma)^2."""
    X, y, u = _separable(400, 4, 0.15, seed=0)
    R = np.max(np.linalg.norm(X, axis=1))
    margin = np.min(y * (X @ u))
    orders = [np.random.default_rng(s).permutation(len(y)) for s in range(5)]
    total, sv, alpha, t = 0, None, None, 0
    for order in orders:                                  # several passes: the bound covers them all
        res = online.perceptron(X, y, order, **LIN, sv=sv, alpha=alpha, t0=t)
        total += res.trace["mistakes"]
        sv, alpha, t = res.sv, res.alpha, res.t
    assert 0 < total <= (R / margin) ** 2
    assert res.trace["mistakes"] == 0                     # converged: the last pass makes no mistake
    # the linear-kernel perceptron is the primal perceptron w += y x on mistakes
    w, mistakes = np.zeros(X.shape[1]), 0
    for order in orders:
        for i in order:
            if y[i] * (w @ X[i]) <= 0:
                mistakes += 1
                w += y[i] * X[i]
    assert mistakes == total
    np.testing.assert_allclose(alpha[:, 0] @ sv, w, atol=1e-12)


def test_projectron_with_eta_zero_is_the_perceptron():
    X, y = checkerboard(300, seed=2)
    order = np.random.default_rng(0).permutation(len(y))
    p = online.perceptron(X, y, order, **RBF)
    for plusplus in (False,):
        q = online.projectron(X, y, order, eta=0.0, budget=None, plusplus=plusplus, **RBF)
        assert q.trace["mistakes"] == p.trace["mistakes"]
        np.testing.assert_array_equal(q.sv, p.sv)
        np.testing.assert_allclose(q.alpha, p.alpha, atol=1e-12)
        assert set(np.unique(q.trace["update_kind"])) <= {0, 1}   # never projected


# ----------------------------------------------------------------------------- OGD == BSGD


def test_ogd_is_bsgd_margin_perceptron_without_budget_or_ball():
    X, y = checkerboard(300, seed=3)
    order = np.random.default_rng(1).permutation(len(y))
    o = online.ogd(X, y, order, eta=0.3, **RBF)
    b = bsgd(X, y, order, n_classes=2, budget=len(y) + 1, lam=0.0, learning_rate="perceptron",
             eta=0.3, radius=np.inf, maintenance="removal", merge_eps=0.01, projection_ridge=1e-10,
             fit_bias=False, **RBF)
    assert o.trace["mistakes"] == b.trace["mistakes"]
    np.testing.assert_array_equal(o.sv, b.sv)
    np.testing.assert_allclose(o.alpha, b.alpha, rtol=1e-12)
    np.testing.assert_array_equal(o.trace["update_kind"], b.trace["added"])


# ----------------------------------------------------------------------------- budgets


@pytest.mark.parametrize("name", ["rbp", "forgetron", "bpas", "bogd"])
def test_budget_never_exceeded(name):
    X, y = checkerboard(500, seed=4)
    rng = np.random.default_rng(5)
    order, u = rng.permutation(len(y)), rng.random(len(y))
    B = 12
    kw = dict(budget=B, **RBF)
    if name == "bpas":
        kw["C"] = 1.0
    if name == "bogd":
        kw.update(eta=0.2, lam=1e-3, max_coef=2.0)
    f = getattr(online, name)
    res = f(X, y, order, u, **kw) if name in ("rbp", "bogd") else f(X, y, order, **kw)
    n_sv = res.trace["n_sv"]
    assert n_sv.max() == B and len(res.sv) == B
    assert np.all(np.diff(n_sv) <= 1)                    # at most one SV enters per step
    assert res.trace["removals"] > 0


def test_rbp_discards_the_drawn_slot():
    """Replay RBP with a list model written here: slot floor(u B) is discarded, the last SV moves in."""
    X, y = checkerboard(300, seed=6)
    rng = np.random.default_rng(7)
    order, u = rng.permutation(len(y)), rng.random(len(y))
    B = 10
    res = online.rbp(X, y, order, u, budget=B, **RBF)
    SV, A = [], []
    for step, i in enumerate(order):
        f = sum(a * math.exp(-2.0 * np.sum((s - X[i]) ** 2)) for s, a in zip(SV, A))
        if y[i] * f <= 0:
            if len(SV) == B:
                p = int(u[step] * B)
                SV[p], A[p] = SV[-1], A[-1]
                SV.pop(), A.pop()
            SV.append(X[i])
            A.append(float(y[i]))
    np.testing.assert_array_equal(np.array(SV), res.sv)
    np.testing.assert_array_equal(np.array(A), res.alpha[:, 0])


def test_forgetron_shrink_is_the_largest_feasible_phi():
    """phi_t = max{phi in (0, 1]: Q + Psi(sigma phi, phi mu) <= 15/32 M}, checked on a fine grid."""
    rng = np.random.default_rng(0)
    grid = np.linspace(0.0, 1.0, 200001)
    for _ in range(200):
        sigma, mu = rng.uniform(0.05, 2), rng.uniform(-3, 3)
        M = int(rng.integers(1, 40))
        Q = rng.uniform(0, 15 / 32 * M)
        phi, psi = online.forgetron_shrink(sigma, mu, Q, M)
        lam = sigma * grid
        feasible = Q + lam ** 2 + 2 * lam - 2 * lam * grid * mu <= 15 / 32 * M + 1e-12
        best = grid[feasible].max()
        assert phi == pytest.approx(best, abs=2e-5)
        assert psi == pytest.approx((sigma * phi) ** 2 + 2 * sigma * phi - 2 * sigma * phi * phi * mu, abs=1e-12)
        assert Q + psi <= 15 / 32 * M + 1e-9


def test_forgetron_removes_the_oldest_and_keeps_q_bounded():
    X, y = checkerboard(400, seed=8)
    order = np.random.default_rng(9).permutation(len(y))
    B = 10
    res = online.forgetron(X, y, order, budget=B, **RBF)
    # the B SVs kept are the last B mistakes, in arrival order given by their ages
    mistake_steps = np.flatnonzero(res.trace["update_kind"] == 1)
    kept = order[mistake_steps[-B:]]
    ages = res.state["age"]
    np.testing.assert_array_equal(res.sv[np.argsort(ages)], X[kept])
    assert res.state["M"] == res.trace["mistakes"]
    assert res.state["Q"] <= 15 / 32 * res.state["M"] + 1e-9


# ----------------------------------------------------------------------------- Projectron


def test_projectron_projection_step_is_least_squares():
    """One mistake with delta <= eta: f + y P k(x_t, .), P the orthogonal projection onto span{k(x_j, .)}."""
    X, y = checkerboard(200, seed=10)
    rng = np.random.default_rng(11)
    sv = X[:8]
    alpha = rng.normal(size=(8, 1))
    K = kern(sv, sv, "rbf", 2.0)
    # a point the current model gets wrong
    f_all = kern(X, sv, "rbf", 2.0) @ alpha[:, 0]
    i = next(j for j in range(8, 200) if y[j] * f_all[j] <= 0)
    res = online.projectron(X, y, np.array([i]), eta=10.0, budget=None, plusplus=False, sv=sv,
                            alpha=alpha, **RBF)
    k_t = kern(sv, X[i:i + 1], "rbf", 2.0)[:, 0]
    d_star = np.linalg.lstsq(K, k_t, rcond=None)[0]       # argmin_d ||sum d_j k(x_j,.) - k(x_t,.)||
    assert res.trace["update_kind"][0] == 2
    np.testing.assert_allclose(res.alpha[:, 0], alpha[:, 0] + y[i] * d_star, rtol=1e-7, atol=1e-8)
    # and a point far from the span is added, with the inverse grown correctly
    res2 = online.projectron(X, y, np.array([i]), eta=0.0, budget=None, plusplus=False, sv=sv,
                             alpha=alpha, **RBF)
    assert res2.trace["update_kind"][0] == 1
    K2 = kern(res2.sv, res2.sv, "rbf", 2.0)
    np.testing.assert_allclose(res2.state["L"] @ res2.state["L"].T, K2, atol=1e-12)   # K = L L'


def test_projectron_budget_variant_never_exceeds_b():
    X, y = checkerboard(400, seed=12)
    order = np.random.default_rng(13).permutation(len(y))
    for plusplus in (False, True):
        res = online.projectron(X, y, order, eta=0.01, budget=10, plusplus=plusplus, **RBF)
        assert res.trace["n_sv"].max() == 10
        assert np.any(res.trace["update_kind"] == 2)


# ----------------------------------------------------------------------------- BPA-S


def test_bpas_replaces_the_minimiser_of_the_objective():
    """At budget: r = argmin 1/2 ||f_r - f_t||^2 + C hinge(f_r(x_t)), f_r evaluated as explicit expansions."""
    X, y = checkerboard(200, seed=14)
    rng = np.random.default_rng(15)
    B, C = 6, 0.7
    sv = X[:B]
    alpha = rng.normal(scale=0.5, size=(B, 1))
    f_all = kern(X, sv, "rbf", 2.0) @ alpha[:, 0]
    i = next(j for j in range(B, 200) if y[j] * f_all[j] < 1)
    res = online.bpas(X, y, np.array([i]), budget=B, C=C, sv=sv, alpha=alpha, **RBF)
    loss = 1 - y[i] * f_all[i]
    tau = min(C, loss)
    best = None
    for r in range(B):
        k_rt = kern(sv[r:r + 1], X[i:i + 1], "rbf", 2.0)[0, 0]
        beta = alpha[r, 0] * k_rt + y[i] * tau
        new_sv = np.vstack([np.delete(sv, r, 0), X[i:i + 1]])
        new_a = np.append(np.delete(alpha[:, 0], r), beta)
        both = np.vstack([sv, new_sv])
        diff = np.concatenate([-alpha[:, 0], new_a])
        dist = diff @ kern(both, both, "rbf", 2.0) @ diff
        f_new = kern(X[i:i + 1], new_sv, "rbf", 2.0)[0] @ new_a
        Q = 0.5 * dist + C * max(0.0, 1 - y[i] * f_new)
        if best is None or Q < best[0] - 1e-12:
            best = (Q, r, beta)
    _, r, beta = best
    assert res.trace["removal_index"][0] == r
    np.testing.assert_array_equal(res.sv[r], X[i])
    assert res.alpha[r, 0] == pytest.approx(beta, rel=1e-10)


# ----------------------------------------------------------------------------- BOGD


def test_bogd_rescaling_keeps_the_norm_bound():
    """|alpha_j| <= eta max(1, gamma) after every step; ||f||_H <= B eta max(1, gamma); chunked == one pass."""
    X, y = checkerboard(400, seed=16)
    rng = np.random.default_rng(17)
    order, u = rng.permutation(len(y)), rng.random(len(y))
    B, eta, lam, gam = 10, 0.5, 1e-3, 1.5
    kw = dict(budget=B, eta=eta, lam=lam, max_coef=gam, **RBF)
    sv = alpha = None
    t = 0
    bound = eta * max(1.0, gam)
    clipped = False
    for start in range(0, len(y), 20):
        res = online.bogd(X, y, order[start:start + 20], u[start:start + 20], sv=sv, alpha=alpha, t0=t, **kw)
        sv, alpha, t = res.sv, res.alpha, res.t
        assert np.all(np.abs(alpha) <= bound + 1e-15)
        clipped |= bool(np.any(np.isclose(np.abs(alpha), eta * gam)))
        norm = math.sqrt(alpha[:, 0] @ kern(sv, sv, "rbf", 2.0) @ alpha[:, 0])
        assert norm <= B * bound + 1e-12
    assert clipped                                        # the bound was active
    whole = online.bogd(X, y, order, u, **kw)
    np.testing.assert_array_equal(whole.sv, sv)
    np.testing.assert_allclose(whole.alpha, alpha, rtol=1e-12)


def test_bogd_rescaling_factor():
    """One step at budget: the drawn SV leaves, the others scale by B (1 - eta lam) / (B - 1)."""
    X, y = checkerboard(100, seed=18)
    B, eta, lam = 5, 0.1, 0.2
    sv = X[:B]
    alpha = np.full((B, 1), 0.01)
    f = kern(X, sv, "rbf", 2.0) @ alpha[:, 0]
    i = next(j for j in range(B, 100) if y[j] * f[j] < 1)
    res = online.bogd(X, y, np.array([i]), np.array([0.5]), budget=B, eta=eta, lam=lam, max_coef=100.0,
                      sv=sv, alpha=alpha, **RBF)
    p = int(0.5 * B)
    np.testing.assert_allclose(np.sort(res.alpha[:-1, 0]), np.full(B - 1, 0.01 * B * (1 - eta * lam) / (B - 1)))
    assert res.alpha[-1, 0] == pytest.approx(eta * y[i])
    assert res.trace["removal_index"][0] == p


# ----------------------------------------------------------------------------- validation


@pytest.mark.parametrize("call,name", [
    (lambda X, y, o, u: online.rbp(X, y, o, u, budget=1, **RBF), "budget"),
    (lambda X, y, o, u: online.rbp(X, y, o, u[:-1], budget=5, **RBF), "uniforms"),
    (lambda X, y, o, u: online.rbp(X, y, o, u + 1.0, budget=5, **RBF), "uniforms"),
    (lambda X, y, o, u: online.ogd(X, y, o, eta=-1.0, **RBF), "eta"),
    (lambda X, y, o, u: online.projectron(X, y, o, eta=-0.1, budget=None, plusplus=False, **RBF), "eta"),
    (lambda X, y, o, u: online.bpas(X, y, o, budget=5, C=0.0, **RBF), "C"),
    (lambda X, y, o, u: online.bogd(X, y, o, u, budget=5, eta=1.0, lam=1.0, max_coef=1.0, **RBF), "lam"),
    (lambda X, y, o, u: online.bogd(X, y, o, u, budget=5, eta=1.0, lam=0.0, max_coef=0.0, **RBF), "max_coef"),
    (lambda X, y, o, u: online.perceptron(X, (y + 1) // 2, o, **RBF), "y"),
    (lambda X, y, o, u: online.perceptron(X, y, o + 1000, **RBF), "order"),
    (lambda X, y, o, u: online.perceptron(X, y, o, kernel="sigmoid", gamma=1.0, degree=3, coef0=0.0), "kernel"),
    (lambda X, y, o, u: online.perceptron(X, y, o, kernel="rbf", gamma=0.0, degree=3, coef0=0.0), "gamma"),
    (lambda X, y, o, u: online.forgetron(X, y, o, budget=3, sv=X[:5], alpha=np.ones((5, 1)), **RBF), "sv"),
])
@pytest.mark.parametrize("backend", ["python", "fast"])
def test_bad_arguments_name_the_parameter(call, name, backend, monkeypatch):
    from refsvm.backend import get_module
    module = get_module("online", backend)   # the lambdas look the functions up in refsvm.online
    X, y = checkerboard(50, seed=0)
    o = np.arange(50)
    u = np.full(50, 0.5)
    with monkeypatch.context() as m:
        for fname in ("perceptron", "ogd", "rbp", "forgetron", "projectron", "bpas", "bogd"):
            m.setattr(online, fname, getattr(module, fname))
        with pytest.raises(ValueError, match=rf"\b{name}\b"):
            call(X, y, o, u)
