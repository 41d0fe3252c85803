"""SBP (Cotter, Shalev-Shwartz, Srebro 2012) against independent oracles, both backends.

* ``find_gamma``: a sort-based water level written here (sort, prefix sums,
  first count whose level does not reach the next response).
* ``find_gamma_and_bias``: the same kind of sort-based oracle over the common
  count of covered responses, a linear program (scipy's HiGHS) for the optimal
  level, and feasibility of the returned ``(gamma, b)``.
* ``optimize``: a brute-force SBP written here that recomputes the responses
  ``c = y * (K @ (y * alpha))`` and ``||w||^2 = (y alpha)' K (y alpha)`` from
  scratch every iteration (no incremental line 8 / line 10), with the sort
  oracle for the water level and the sampling rule of the module docstring.
* Separable toy data with ``nu = 0``: the margin grows and the training error
  reaches 0.
* Validation: errors name the parameter.
"""

import inspect
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

import refsvm._fast.sbp as fast_sbp
import refsvm.sbp as ref_sbp
from _helpers import kern

BACKENDS = {"python": ref_sbp, "fast": fast_sbp}


# ----------------------------------------------------------------------------
# oracles
# ----------------------------------------------------------------------------

def water_level_oracle(c, volume):
    """Sort-based: the level (V + S_k) / k of the first k whose level is <= the (k+1)-th response."""
    s = np.sort(np.asarray(c, dtype=np.float64))
    prefix = np.cumsum(s)
    for k in range(1, s.size + 1):
        level = (volume + prefix[k - 1]) / k
        if k == s.size or level <= s[k]:
            return level
    raise AssertionError("unreachable")


def two_basin_oracle(y, c, volume):
    """Sort-based optimum of max gamma s.t. sum max(0, gamma - c_i - y_i b) <= V.

    With k responses covered in each basin, g+ + g- = (V + S+_k + S-_k) / k,
    feasible when it lies between c+_(k) + c-_(k) and c+_(k+1) + c-_(k+1)
    (+inf past the end); gamma = (g+ + g-) / 2 for the largest feasible k.
    """
    p, m = np.sort(c[y == 1]), np.sort(c[y == -1])
    Sp, Sm = np.cumsum(p), np.cumsum(m)
    best = None
    for k in range(1, min(p.size, m.size) + 1):
        total = (volume + Sp[k - 1] + Sm[k - 1]) / k
        nxt = (p[k] if k < p.size else np.inf) + (m[k] if k < m.size else np.inf)
        if total >= p[k - 1] + m[k - 1] - 1e-12 * (1 + abs(total)) and total <= nxt + 1e-12 * (1 + abs(total)):
            best = total / 2
    assert best is not None
    return best


def lp_level(y, c, volume):
    """max gamma over (gamma, b, xi): gamma <= c_i + y_i b + xi_i, xi >= 0, sum xi <= V."""
    n = c.size
    cost = np.zeros(n + 2)
    cost[0] = -1.0
    A = np.zeros((n + 1, n + 2))
    rhs = np.zeros(n + 1)
    for i in range(n):
        A[i, 0], A[i, 1], A[i, 2 + i], rhs[i] = 1.0, -y[i], -1.0, c[i]
    A[n, 2:] = 1.0
    rhs[n] = volume
    res = linprog(cost, A_ub=A, b_ub=rhs, bounds=[(None, None)] * 2 + [(0, None)] * n, method="highs")
    assert res.status == 0
    return res.x[0]


# ----------------------------------------------------------------------------
# find_gamma
# ----------------------------------------------------------------------------

responses = st.lists(st.sampled_from([-3.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0, 7.5]), min_size=1, max_size=40) | \
    st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=40)
volumes = st.sampled_from([0.0, 1e-3, 0.5, 1.0, 3.0, 50.0, 1e5]) | st.floats(0.0, 100.0)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=150, deadline=None)
@given(c=responses, volume=volumes)
def test_find_gamma_matches_sort_oracle(backend, c, volume):
    c = np.array(c)
    before = c.copy()
    gamma = BACKENDS[backend].find_gamma(c, volume)
    expected = water_level_oracle(c, volume)
    scale = 1.0 + np.abs(c).max() + volume
    assert gamma == pytest.approx(expected, rel=1e-12, abs=1e-12 * scale)
    # the defining equation, and the responses are left untouched
    assert np.maximum(0.0, gamma - c).sum() == pytest.approx(volume, rel=1e-9, abs=1e-9 * scale)
    np.testing.assert_array_equal(c, before)


@pytest.mark.parametrize("backend", BACKENDS)
def test_find_gamma_edge_cases(backend):
    fg = BACKENDS[backend].find_gamma
    assert fg(np.array([0.3]), 0.0) == 0.3                       # n = 1, volume 0
    assert fg(np.array([0.3]), 2.0) == pytest.approx(2.3)        # n = 1
    assert fg(np.full(7, 0.1), 0.0) == 0.1                       # all equal, volume 0: exactly min
    assert fg(np.full(7, 0.1), 0.7) == pytest.approx(0.2)        # all equal
    assert fg(np.array([2.0, -1.0, 5.0]), 0.0) == -1.0           # volume 0: the minimum
    # more volume than needed to cover everything: level above the maximum
    c = np.array([-2.0, 0.0, 1.0])
    assert fg(c, 30.0) == pytest.approx((30.0 + c.sum()) / 3)
    # negative responses only
    assert fg(np.array([-5.0, -4.0, -1.0]), 1.0) == pytest.approx(-4.0)
    assert fg(np.array([-5.0, -4.0, -1.0]), 3.0) == pytest.approx(-3.0)
    # many ties around the answer, adversarial order (sorted, reversed)
    c = np.repeat(np.arange(50.0), 3)
    for arr in (c, c[::-1].copy()):
        assert fg(arr, 10.0) == pytest.approx(water_level_oracle(arr, 10.0))


# ----------------------------------------------------------------------------
# find_gamma_and_bias
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=120, deadline=None)
@given(c=responses, volume=volumes, signs=st.lists(st.booleans(), min_size=40, max_size=40))
def test_find_gamma_and_bias_matches_oracles(backend, c, volume, signs):
    c = np.array(c)
    if c.size < 2:
        c = np.append(c, 0.5)
    y = np.where(np.array(signs[: c.size]), 1, -1)
    y[0], y[-1] = 1, -1                                          # both classes present
    before = c.copy()
    gamma, b = BACKENDS[backend].find_gamma_and_bias(y, c, volume)
    scale = 1.0 + np.abs(c).max() + volume
    assert gamma == pytest.approx(two_basin_oracle(y, c, volume), rel=1e-9, abs=1e-9 * scale)
    assert gamma == pytest.approx(lp_level(y, c, volume), rel=1e-6, abs=1e-6 * scale)
    # (gamma, b) is feasible: the volume under the level gamma of heights c_i + y_i b is V
    assert np.maximum(0.0, gamma - c - y * b).sum() <= volume + 1e-9 * scale
    np.testing.assert_array_equal(c, before)


@pytest.mark.parametrize("backend", BACKENDS)
def test_find_gamma_and_bias_edge_cases(backend):
    fgb = BACKENDS[backend].find_gamma_and_bias
    # one point per class: the two basins are filled evenly, b balances them
    gamma, b = fgb(np.array([1, -1]), np.array([1.0, 3.0]), 0.0)
    assert (gamma, b) == (pytest.approx(2.0), pytest.approx(1.0))    # heights 1 + b = 3 - b = 2
    gamma, b = fgb(np.array([1, -1]), np.array([1.0, 3.0]), 2.0)
    assert gamma == pytest.approx(3.0)
    # all equal responses, volume 0
    gamma, b = fgb(np.array([1, 1, -1, -1]), np.full(4, -0.25), 0.0)
    assert (gamma, b) == (-0.25, 0.0)
    # unbalanced classes, negative responses, large volume
    y = np.array([1, -1, -1, -1, -1])
    c = np.array([-2.0, -1.0, -3.0, 0.5, 4.0])
    for volume in (0.0, 0.1, 5.0, 1e4):
        assert fgb(y, c, volume)[0] == pytest.approx(lp_level(y, c, volume), rel=1e-7, abs=1e-7)


# ----------------------------------------------------------------------------
# optimize against a brute-force SBP
# ----------------------------------------------------------------------------

def brute_force_sbp(X, y, u, nu, gamma, fit_bias):
    """SBP recomputing responses and norms from scratch (no incremental updates)."""
    n = X.shape[0]
    K = kern(X, X, "rbf", gamma)
    eta0 = 1.0 / math.sqrt(K.diagonal().max())
    alpha = np.zeros(n)
    alphas, cs, picks = [], [], []
    for t in range(1, len(u) + 1):
        eta = eta0 / math.sqrt(t)
        c = y * (K @ (y * alpha))
        if fit_bias:
            level, b = lp_level(y, c, n * nu), None
            b = ref_sbp.find_gamma_and_bias(y, c, n * nu)[1]   # b is not unique; take the code's midpoint
            heights = c + y * b
        else:
            level, heights = water_level_oracle(c, n * nu), c
        candidates = np.flatnonzero(heights < level - 1e-12 * (1 + abs(level)))
        if candidates.size == 0:
            candidates = np.flatnonzero(heights <= level + 1e-12 * (1 + abs(level)))
        i = candidates[min(int(u[t - 1] * candidates.size), candidates.size - 1)]
        alpha[i] += eta
        norm = math.sqrt((y * alpha) @ K @ (y * alpha))
        if norm > 1.0:
            alpha /= norm
        picks.append(i)
        alphas.append(alpha.copy())
        cs.append(y * (K @ (y * alpha)))
    alpha_bar, c_bar = np.mean(alphas, axis=0), np.mean(cs, axis=0)
    return np.array(picks), alpha_bar, c_bar


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fit_bias", [False, True])
def test_optimize_matches_brute_force(backend, fit_bias):
    rng = np.random.default_rng(3)
    n = 40
    X = rng.standard_normal((n, 3))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1, -1).astype(np.int64)
    u = rng.random(120)
    res = BACKENDS[backend].optimize(X, y, u, nu=0.05, kernel="rbf", gamma=0.7, degree=3, coef0=0.0,
                                     fit_bias=fit_bias)
    picks, alpha_bar, c_bar = brute_force_sbp(X, y, u, 0.05, 0.7, fit_bias)
    np.testing.assert_array_equal(res.trace["sampled"], picks)
    if fit_bias:
        level, b = ref_sbp.find_gamma_and_bias(y, c_bar, n * 0.05)
        assert level == pytest.approx(lp_level(y, c_bar, n * 0.05), rel=1e-7)
    else:
        level, b = water_level_oracle(c_bar, n * 0.05), 0.0
    assert res.water_level == pytest.approx(level, rel=1e-9)
    np.testing.assert_allclose(res.coef, y * alpha_bar / level, rtol=1e-9, atol=1e-12)
    assert res.bias == pytest.approx(b / level, rel=1e-9, abs=1e-12)
    assert res.trace["kernel_evaluations"] == n * len(u)         # one row of n per iteration, no cache


@pytest.mark.parametrize("backend", BACKENDS)
def test_separable_margin_grows_and_training_error_reaches_zero(backend):
    rng = np.random.default_rng(0)
    n = 60
    y = np.where(np.arange(n) % 2 == 0, 1, -1).astype(np.int64)
    X = rng.standard_normal((n, 2)) * 0.4 + 1.5 * y[:, None]     # two separated clouds
    K = kern(X, X, "rbf", 0.5)
    mod, state, margins, errors = BACKENDS[backend], None, [], []
    for _ in range(6):
        res = mod.optimize(X, y, rng.random(100), nu=0.0, kernel="rbf", gamma=0.5, degree=3, coef0=0.0,
                           state=state)
        state = res.state
        w = y * state.alpha_sum / state.t                        # the averaged iterate, before rescaling
        margins.append(np.min(y * (K @ w)) / math.sqrt(w @ K @ w))   # normalised margin min_i y_i f(x_i) / ||w||
        errors.append(np.mean(np.sign(K @ res.coef) != y))
    assert margins[0] < margins[-1]
    assert margins[-1] > 0.0
    assert errors[-1] == 0.0
    assert np.all(np.diff(margins) > -1e-3 * abs(margins[-1]))   # (nearly) monotone growth


@pytest.mark.parametrize("backend", BACKENDS)
def test_cache_never_changes_the_result(backend):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((50, 4))
    y = np.where(rng.random(50) < 0.5, 1, -1).astype(np.int64)
    u = rng.random(300)
    kw = dict(nu=0.1, kernel="rbf", gamma=0.3, degree=3, coef0=0.0)
    plain = BACKENDS[backend].optimize(X, y, u, **kw)
    cached = BACKENDS[backend].optimize(X, y, u, cache_rows=5, **kw)
    np.testing.assert_array_equal(plain.coef, cached.coef)
    np.testing.assert_array_equal(plain.trace["sampled"], cached.trace["sampled"])
    # LRU hits counted independently from the sampled sequence
    lru, hits = [], 0
    for i in cached.trace["sampled"]:
        if i in lru:
            hits += 1
            lru.remove(i)
        elif len(lru) == 5:
            lru.pop(0)
        lru.append(i)
    assert cached.trace["cache_hits"] == hits
    assert cached.trace["kernel_evaluations"] == 50 * (300 - hits)
    assert cached.trace["cache_hit_rate"] == pytest.approx(hits / 300)


NOT_UNDER_WATER = [dict(), dict(fit_bias=True), dict(sample_weight=np.ones(4))]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("extra", NOT_UNDER_WATER, ids=["plain", "bias", "weights"])
def test_no_response_under_water_raises(backend, extra):
    """Line 6 when not even ``{j : c_j <= gamma}`` holds an index (NaN responses): a ValueError that
    says so, on both paths.  Here the linear kernel's diagonal overflows (``max_i K(x_i, x_i) = inf``,
    so ``eta_0 = 0`` and line 10 adds ``0 * inf = NaN`` to every response); the second iteration
    then finds the NaN level and no index at or below it.  Before the fix the reference raised an
    IndexError and the compiled loop read ``c[i]`` with ``i`` unset (gcc: "may be used
    uninitialized"), finishing the run and failing later in line 13's check."""
    X = np.array([[1e200], [-1e200], [2e200], [-2e200]])
    y = np.array([1, -1, 1, -1])
    with np.errstate(over="ignore", invalid="ignore"):
        with pytest.raises(ValueError, match="no response lies at or below the water level"):
            BACKENDS[backend].optimize(X, y, np.array([0.3, 0.6, 0.9]), nu=0.1, kernel="linear", gamma=1.0,
                                       degree=3, coef0=0.0, **extra)


@pytest.mark.parametrize("backend", BACKENDS)
def test_non_finite_state_raises_at_line_6(backend):
    """A ``state`` whose responses are NaN reaches the same branch in the first iteration."""
    n = 4
    state = ref_sbp.SBPState(alpha=np.zeros(n), c=np.full(n, np.nan), alpha_sum=np.zeros(n), c_sum=np.zeros(n),
                             r2=0.0, t=0)
    with pytest.raises(ValueError, match="no response lies at or below the water level"):
        BACKENDS[backend].optimize(np.arange(4.0).reshape(4, 1), np.array([1, -1, 1, -1]), np.array([0.5]),
                                   nu=0.1, kernel="rbf", gamma=1.0, degree=3, coef0=0.0, state=state)


# ----------------------------------------------------------------------------
# nu from a reference solution (section 5)
# ----------------------------------------------------------------------------

def test_nu_from_solution_and_svc():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((60, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    K = kern(X, X, "rbf", 1.0)
    coef = rng.standard_normal(60) * 0.1
    f = K @ coef + 0.2
    expected = np.mean(np.maximum(0, 1 - y * f)) / math.sqrt(coef @ K @ coef)
    assert ref_sbp.nu_from_solution(K, y, coef, 0.2) == pytest.approx(expected)
    from sklearn.svm import SVC
    lam = 0.01
    svc = SVC(C=1 / (lam * 60), gamma=1.0, tol=1e-6).fit(X, y)
    full = np.zeros(60)
    full[svc.support_] = svc.dual_coef_[0]
    f = svc.decision_function(X)
    expected = np.mean(np.maximum(0, 1 - y * f)) / math.sqrt(full @ K @ full)
    assert ref_sbp.nu_from_svc(X, y, lam=lam, gamma=1.0) == pytest.approx(expected, rel=1e-6)


# ----------------------------------------------------------------------------
# contract and validation
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["find_gamma", "find_gamma_weighted", "find_gamma_and_bias", "optimize"])
def test_same_signatures(name):
    assert inspect.signature(getattr(ref_sbp, name)) == inspect.signature(getattr(fast_sbp, name))


BAD_OPTIMIZE = [
    (dict(nu=-0.1), "nu"),
    (dict(nu=float("nan")), "nu"),
    (dict(gamma=0.0), "gamma"),
    (dict(kernel="sigmoid"), "kernel"),
    (dict(cache_rows=-1), "cache_rows"),
    (dict(fit_bias="yes"), "fit_bias"),
    (dict(u=np.array([0.5, 1.0])), "u"),
    (dict(u=np.array([[0.5]])), "u"),
    (dict(y=np.array([1, 0, 1, -1])), "y"),
    (dict(y=np.array([1, 1, 1])), "y"),
    (dict(y=np.ones(4, dtype=np.int64), fit_bias=True), "y"),
    (dict(X=np.array([[0.0], [np.nan], [1.0], [2.0]])), "X"),
    (dict(X=np.zeros((4, 1)), kernel="linear"), "X"),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("change,name", BAD_OPTIMIZE)
def test_optimize_validation_names_parameter(backend, change, name):
    kw = dict(X=np.arange(4.0).reshape(4, 1), y=np.array([1, -1, 1, -1]), u=np.array([0.1, 0.9]),
              nu=0.1, kernel="rbf", gamma=1.0, degree=3, coef0=0.0)
    kw.update(change)
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        BACKENDS[backend].optimize(kw.pop("X"), kw.pop("y"), kw.pop("u"), **kw)


@pytest.mark.parametrize("backend", BACKENDS)
def test_water_level_validation_names_parameter(backend):
    mod = BACKENDS[backend]
    with pytest.raises(ValueError, match=r"\bvolume\b"):
        mod.find_gamma(np.array([1.0]), -1.0)
    with pytest.raises(ValueError, match=r"\bc\b"):
        mod.find_gamma(np.array([]), 1.0)
    with pytest.raises(ValueError, match=r"\bc\b"):
        mod.find_gamma(np.array([1.0, np.inf]), 1.0)
    with pytest.raises(ValueError, match=r"\by\b"):
        mod.find_gamma_and_bias(np.array([1, 1]), np.array([1.0, 2.0]), 1.0)
    with pytest.raises(ValueError, match=r"\by\b"):
        mod.find_gamma_and_bias(np.array([1, -1, 1]), np.array([1.0, 2.0]), 1.0)


def test_all_lists_every_public_name():
    """``refsvm.sbp.__all__`` names every public function and class the module defines."""
    defined = {name for name, obj in vars(ref_sbp).items()
               if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
               and obj.__module__ == ref_sbp.__name__}
    assert defined <= set(ref_sbp.__all__), sorted(defined - set(ref_sbp.__all__))
    assert all(hasattr(ref_sbp, name) for name in ref_sbp.__all__)
