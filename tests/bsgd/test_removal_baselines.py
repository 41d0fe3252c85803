"""BSGD's removal baselines of Wang et al.'s section 7.3: ``maintenance="random-removal"`` (MP+random) and
``"stop"`` (MP+stop).

Checked against a brute-force pass written here from the paper's words (Algorithm 1 with the margin
perceptron's or Pegasos' step; "removes a random SV when the budget is exceeded" / "stops training when the
budget is exceeded"), on both paths; the draws' contract (one ``u_t`` per step, drawn by the caller, the slot
``floor(u_t (B + 1))``); the errors for bad draws; the estimator's draws (none for the other strategies, so
their models keep their hashes: tests/package/test_model_hashes.py).
"""

import numpy as np
import pytest
import scipy.sparse as sp

import refsvm._fast.budget as fast_budget
import refsvm.budget as ref_budget
from refsvm import BSCAClassifier, BudgetedSVC
from refsvm._fast.bsgd import bsgd as fast_bsgd
from refsvm.bsgd import bsgd as ref_bsgd

BSGDS = {"python": ref_bsgd, "fast": fast_bsgd}


def _data(n=300, seed=0, classes=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    if classes == 2:
        y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1, -1)
    else:
        y = np.digitize(X[:, 0] + 0.3 * rng.normal(size=n), [-0.5, 0.5]).astype(np.int64)
    return X, y


def _kw(budget, rate="pegasos", n_classes=2, radius=np.inf):
    return dict(n_classes=n_classes, budget=budget, lam=0.01, learning_rate=rate, eta=0.5, radius=radius,
                kernel="rbf", gamma=0.5, degree=3, coef0=0.0, merge_eps=0.01, projection_ridge=1e-10, fit_bias=False)


def _brute_force(X, y, order, u, budget, rate, rule, gamma=0.5, lam=0.01, eta=0.5):
    """Binary BSGD without a bias, the rule as the paper words it: a list of (x, alpha) pairs; on overflow the
    SV at position floor(u_t (B + 1)) of the list (random; the last SV moves into its place) or the SV just
    added (stop) leaves.  Returns the decision values' function."""
    svs, alphas = [], []
    for step, i in enumerate(order):
        t = step + 1
        f = sum(a * np.exp(-gamma * np.sum((s - X[i]) ** 2)) for s, a in zip(svs, alphas))
        eta_t = 1.0 / (lam * t) if rate == "pegasos" else eta
        if rate == "pegasos":
            alphas = [a * (1.0 - eta_t * lam) for a in alphas]
        if y[i] * f < 1.0:
            svs.append(X[i].copy())
            alphas.append(eta_t * y[i])
            if len(svs) > budget:
                p = min(int(u[step] * len(svs)), len(svs) - 1) if rule == "random-removal" else len(svs) - 1
                svs[p], alphas[p] = svs[-1], alphas[-1]
                svs.pop()
                alphas.pop()
    S, a = np.array(svs), np.array(alphas)
    return lambda Z: np.exp(-gamma * ((Z[:, None, :] - S[None]) ** 2).sum(-1)) @ a


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("rate", ["pegasos", "perceptron"])
@pytest.mark.parametrize("rule", ["random-removal", "stop"])
def test_against_brute_force(rule, rate, backend):
    X, y = _data()
    order = np.random.default_rng(1).permutation(len(y)).astype(np.int64)
    u = np.random.default_rng(2).random(len(y))
    res = BSGDS[backend](X, y, order, maintenance=rule, uniforms=u if rule == "random-removal" else None,
                         **_kw(8, rate))
    brute = _brute_force(X, y, order, u, 8, rate, rule)
    Z = np.random.default_rng(3).normal(size=(50, 3))
    K = np.exp(-0.5 * ((Z[:, None, :] - res.sv[None]) ** 2).sum(-1))
    mine = K @ res.alpha[:, 0]
    assert len(res.trace["maint_step"]) > 50                     # the rule ran often
    np.testing.assert_allclose(mine, brute(Z), rtol=1e-10, atol=1e-10 * np.max(np.abs(mine)))


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_the_slot_is_floor_of_u_times_b_plus_1(backend):
    X, y = _data()
    order = np.arange(len(y), dtype=np.int64)
    u = np.random.default_rng(4).random(len(y))
    res = BSGDS[backend](X, y, order, maintenance="random-removal", uniforms=u, **_kw(10))
    steps, index = res.trace["maint_step"], res.trace["maint_index"]
    np.testing.assert_array_equal(index, np.floor(u[steps] * 11).astype(np.int64))
    stop = BSGDS[backend](X, y, order, maintenance="stop", **_kw(10))
    assert np.all(stop.trace["maint_index"] == 10)                  # the SV just added, in slot B


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_stop_keeps_the_first_budget_svs(backend):
    """The model stops growing: its SVs are the first B that were added, and with the perceptron's constant step
    (no ball) their coefficients never change after the budget is reached."""
    X, y = _data()
    order = np.random.default_rng(5).permutation(len(y)).astype(np.int64)
    res = BSGDS[backend](X, y, order, maintenance="stop", **_kw(12, "perceptron"))
    added = np.flatnonzero(res.trace["added"])
    first = order[added[:12]]
    np.testing.assert_array_equal(res.sv, X[first])
    np.testing.assert_array_equal(res.alpha[:, 0], 0.5 * y[first])


def test_the_slot_rule_at_the_edges_on_both_paths():
    """``u`` just below 1: ``u (B + 1)`` rounds up to B + 1 in floating point for large B; the slot is capped."""
    u = 1.0 - 2.0 ** -53
    for n in (1, 2, 3, 1000, 2 ** 40 + 1):
        assert ref_budget.random_slot(u, n) == fast_budget.random_slot(u, n) == n - 1
        assert ref_budget.random_slot(0.0, n) == fast_budget.random_slot(0.0, n) == 0
    rng = np.random.default_rng(6)
    for _ in range(2000):
        v, n = rng.random(), int(rng.integers(1, 5000))
        assert ref_budget.random_slot(v, n) == fast_budget.random_slot(v, n) == min(int(np.floor(v * n)), n - 1)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_maintain_removal_at_agrees(kernel, sparse):
    rng = np.random.default_rng(7)
    SV, alpha = rng.normal(size=(9, 4)), rng.normal(size=(9, 3))
    SV[2] = 0.0
    out = {}
    for name, mod in (("python", ref_budget), ("fast", fast_budget)):
        S = SV.copy()
        if sparse:
            S = ref_budget.SparseRows(9, 4)
            S[:9] = sp.csr_matrix(SV)
        A = alpha.copy()
        wd = mod.removal_norm(S, A, 4, kernel, 0.3, 2, 1.0)
        n, p, partner, wd2 = mod.maintain_removal_at(S, A, 9, 4, kernel, 0.3, 2, 1.0)
        out[name] = (n, p, partner, wd, wd2, S[:n].toarray() if sparse else S[:n], A[:n])
    ref, fast = out["python"], out["fast"]
    assert ref[:3] == fast[:3] == (8, 4, -1)
    assert ref[3] == ref[4] and fast[3] == fast[4]
    np.testing.assert_allclose(ref[3], fast[3], rtol=1e-14)
    np.testing.assert_array_equal(ref[5], fast[5])
    np.testing.assert_array_equal(ref[6], fast[6])
    np.testing.assert_array_equal(ref[5][4], SV[8])                     # the last SV moved into slot 4


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_bad_draws_name_the_parameter(backend):
    X, y = _data(50)
    order = np.arange(50, dtype=np.int64)
    bsgd = BSGDS[backend]
    with pytest.raises(ValueError, match="uniforms must hold"):
        bsgd(X, y, order, maintenance="random-removal", **_kw(5))
    with pytest.raises(ValueError, match="uniforms must have shape"):
        bsgd(X, y, order, maintenance="random-removal", uniforms=np.zeros(49), **_kw(5))
    for bad in (1.0, -0.1, np.nan):
        u = np.zeros(50)
        u[7] = bad
        with pytest.raises(ValueError, match=r"uniforms must lie in \[0, 1\)"):
            bsgd(X, y, order, maintenance="random-removal", uniforms=u, **_kw(5))
    for other in ("removal", "stop", "merge"):
        with pytest.raises(ValueError, match="uniforms is read by maintenance='random-removal' only"):
            bsgd(X, y, order, maintenance=other, uniforms=np.zeros(50), **_kw(5))
    with pytest.raises(ValueError, match="maintenance"):
        bsgd(X, y, order, maintenance="random", **_kw(5))


def test_bsca_and_the_public_dispatcher_refuse_the_baselines():
    X, y = _data(60)
    with pytest.raises(ValueError, match="maintenance"):
        BSCAClassifier(budget=5, maintenance="random-removal").fit(X, y)
    for mod in (ref_budget, fast_budget):
        with pytest.raises(ValueError, match="maintenance must be one of"):
            mod.maintain("stop", np.zeros((3, 2)), np.ones((3, 1)), 3, "rbf", 1.0, 3, 0.0, 0.01, 1e-10)


@pytest.mark.parametrize("rule", ["random-removal", "stop"])
def test_estimator_paths_and_seeds(rule):
    X, y = _data(400, classes=3)
    fits = {b: BudgetedSVC(budget=15, maintenance=rule, random_state=11, epochs=2, backend=b).fit(X, y)
            for b in ("python", "fast")}
    np.testing.assert_array_equal(fits["python"].support_vectors_, fits["fast"].support_vectors_)
    np.testing.assert_allclose(fits["python"].alpha_, fits["fast"].alpha_, rtol=1e-12, atol=1e-15)
    for tp, tf in zip(fits["python"].trace_, fits["fast"].trace_):
        np.testing.assert_array_equal(tp["maint_index"], tf["maint_index"])
    again = BudgetedSVC(budget=15, maintenance=rule, random_state=11, epochs=2).fit(X, y)
    np.testing.assert_array_equal(again.alpha_, fits["fast"].alpha_)


def test_estimator_draws_the_uniforms_after_the_order():
    """fit: per pass ``order = rng.permutation(n)``, then ``u = rng.random(n)`` (random removal only)."""
    X, y = _data(200)
    est = BudgetedSVC(budget=10, maintenance="random-removal", lam=0.01, gamma=0.5, random_state=12).fit(X, y)
    rng = np.random.default_rng(12)
    order = rng.permutation(200).astype(np.int64)
    direct = fast_bsgd(X, y, order, uniforms=rng.random(200), maintenance="random-removal", **_kw(10))
    np.testing.assert_array_equal(direct.trace["maint_index"], est.trace_[0]["maint_index"])
    np.testing.assert_array_equal(direct.alpha, est.alpha_)


def test_other_strategies_draw_nothing_more():
    """The generator after fit is where the order alone leaves it: removal, projection and merging draw no u_t."""
    X, y = _data(200)
    for rule in ("removal", "projection", "merge", "stop"):
        est = BudgetedSVC(budget=10, maintenance=rule, random_state=13, epochs=2).fit(X, y)
        rng = np.random.default_rng(13)
        rng.permutation(200)
        rng.permutation(200)
        assert est._rng.bit_generator.state == rng.bit_generator.state, rule


@pytest.mark.parametrize("maintenance", ["merge", "random-removal", "stop", "projection"])
@pytest.mark.parametrize("classes", [2, 3])
def test_margin_perceptron_without_the_ball(maintenance, classes):
    """MP of section 7.3 (no ball): ``radius=inf`` skips the projection and keeps no kernel matrix; the model is
    bitwise the one of a radius so large that the ball never binds, and the paths agree (trace included)."""
    X, y = _data(300, classes=classes)
    order = np.random.default_rng(8).permutation(len(y)).astype(np.int64)
    u = np.random.default_rng(9).random(len(y)) if maintenance == "random-removal" else None
    runs = {}
    for backend, bsgd in BSGDS.items():
        for radius in (np.inf, 1e300):
            runs[backend, radius] = bsgd(X, y, order, maintenance=maintenance, uniforms=u,
                                         **_kw(12, "perceptron", classes, radius))
    for backend in BSGDS:
        np.testing.assert_array_equal(runs[backend, np.inf].alpha, runs[backend, 1e300].alpha)
        np.testing.assert_array_equal(runs[backend, np.inf].sv, runs[backend, 1e300].sv)
    a, b = runs["python", np.inf], runs["fast", np.inf]
    np.testing.assert_allclose(a.alpha, b.alpha, rtol=1e-12, atol=1e-15)
    for key in ("maint_index", "maint_partner", "added", "kernel_evaluations"):
        np.testing.assert_array_equal(a.trace[key], b.trace[key], err_msg=key)
    if maintenance == "merge":            # no K: z's new row is not computed (the ball's K needs it)
        assert a.trace["kernel_evaluations"] < runs["python", 1e300].trace["kernel_evaluations"]


def test_non_budgeted_margin_perceptron_keeps_no_gram_matrix():
    """A budget above the rows (MP without budget): with the ball, the kept K would be (n + 1)^2 doubles; without it
    nothing of that size is allocated (tracemalloc's peak stays far below it)."""
    import tracemalloc

    X, y = _data(3000)
    order = np.arange(3000, dtype=np.int64)
    tracemalloc.start()
    fast_bsgd(X, y, order, maintenance="removal", **_kw(3001, "perceptron", 2, np.inf))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 3001 ** 2 * 8 / 10, peak


def test_partial_fit_draws_per_call_on_both_paths():
    """partial_fit: each call draws its chunk's order, then its uniforms (random removal); both paths agree, and the
    same seed and chunks give the same model."""
    X, y = _data(400)
    fits = {}
    for backend in ("python", "fast"):
        est = BudgetedSVC(budget=10, maintenance="random-removal", lam=0.01, gamma=0.5, random_state=1,
                          backend=backend)
        for i in range(4):
            est.partial_fit(X[i * 100:(i + 1) * 100], y[i * 100:(i + 1) * 100], classes=np.array([-1, 1]))
        fits[backend] = est
    assert sum(len(t["maint_index"]) for t in fits["fast"].trace_) > 20
    np.testing.assert_array_equal(fits["python"].support_vectors_, fits["fast"].support_vectors_)
    np.testing.assert_allclose(fits["python"].alpha_, fits["fast"].alpha_, rtol=1e-12, atol=1e-15)
    rng = np.random.default_rng(1)
    order = rng.permutation(100).astype(np.int64)
    first = fast_bsgd(X[:100], y[:100], order, uniforms=rng.random(100), maintenance="random-removal", **_kw(10))
    np.testing.assert_array_equal(first.trace["maint_index"], fits["fast"].trace_[0]["maint_index"])
