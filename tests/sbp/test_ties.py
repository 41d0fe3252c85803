"""SBP, line 6 at the water line: responses that tie the level (duplicated rows, Algorithm 3's case
delta_m = 0) and the tolerance of the membership test ``c_j < level``.

With duplicated rows and ``fit_bias=True`` Algorithm 3 often sets the level of one basin to exactly
the largest covered response, which its duplicates share: in exact arithmetic they are at the level
(out of the strict set), while the computed responses differ in their last bits between the paths
(the compiled ``exp`` is within one ulp of numpy's).  ``refsvm.sbp._under_water`` decides membership
to the error bound of ``c_j - level`` (``_tie_terms``) and counts a response within it as at the
level, on both paths.  What must hold: the same sampled index at every iteration on both paths,
dense and CSR, and decision values within 1e-9 of their scale; the bound itself is checked against
a replay of the responses in extended precision (mpmath).
"""

import math

import numpy as np
import pytest
import scipy.sparse as sp

import refsvm._fast.sbp as fast_sbp
import refsvm.sbp as ref_sbp
from refsvm import SBPClassifier
from _helpers import kern, spiral_with_duplicates


# seeds and nu where the plain test c_j < level parted the paths (3-16 predictions of 149)
CASES = [(2, 0.05), (3, 0.2), (9, 0.2), (11, 0.2), (16, 0.05), (17, 0.2), (19, 0.2)]


@pytest.mark.parametrize("seed,nu", CASES)
def test_duplicated_rows_with_bias_sample_alike(seed, nu):
    """Both paths, dense and CSR: the same sampled index at every iteration (3 epochs), the same
    counts, and outputs (coef, bias, decision values) within 1e-9 of their scale."""
    X, y = spiral_with_duplicates(seed)
    u = np.random.default_rng(seed).random(3 * y.size)
    kw = dict(nu=nu, kernel="rbf", gamma=2.0, degree=3, coef0=0.0, fit_bias=True)
    runs = [mod.optimize(Xin, y, u, **kw) for mod in (ref_sbp, fast_sbp) for Xin in (X, sp.csr_matrix(X))]
    K = kern(X, X, "rbf", gamma=2.0)
    first = runs[0]
    f0 = K @ first.coef + first.bias
    scale = np.max(np.abs(f0))
    for r in runs[1:]:
        np.testing.assert_array_equal(r.trace["sampled"], first.trace["sampled"])
        np.testing.assert_array_equal(r.trace["n_violating"], first.trace["n_violating"])
        f = K @ r.coef + r.bias
        assert np.max(np.abs(f - f0)) <= 1e-9 * scale
        np.testing.assert_array_equal(np.sign(f), np.sign(f0))


@pytest.mark.parametrize("seed,nu", CASES[:4])
def test_duplicated_rows_estimator_dense_and_csr(seed, nu):
    """SBPClassifier(fit_intercept=True): both backends, dense and CSR, predict alike and their
    decision values agree within 1e-9 of their scale."""
    X, y = spiral_with_duplicates(seed)
    outs = []
    for backend in ("python", "fast"):
        for Xin in (X, sp.csr_matrix(X)):
            clf = SBPClassifier(nu=nu, gamma=2.0, epochs=3, fit_intercept=True, random_state=seed, backend=backend)
            outs.append(clf.fit(Xin, y).decision_function(X))
    scale = np.max(np.abs(outs[0]))
    for f in outs[1:]:
        assert np.max(np.abs(f - outs[0])) <= 1e-9 * scale
        np.testing.assert_array_equal(np.sign(f), np.sign(outs[0]))


def test_tie_rule():
    """Within tol of the level is *at* the level: out of the strict set, in the fallback set."""
    level, tol = 1.0, 1e-12
    c = np.array([0.5, level - 0.5 * tol, level, level + 0.5 * tol, 2.0])
    np.testing.assert_array_equal(ref_sbp._under_water(c, level, tol, True), [0])
    np.testing.assert_array_equal(ref_sbp._under_water(c[1:], level, tol, True), [0, 1, 2])
    np.testing.assert_array_equal(ref_sbp._under_water(c[1:], level, 0.0, True), [0])   # the plain test


def test_tie_tolerance_is_small_without_ties():
    """The tolerance stays far below the spread of the responses (runs without ties are unchanged)."""
    X, y = spiral_with_duplicates(0, n_dup=0)
    opts = ref_sbp.SBPOptions.resolve(X, y, np.zeros(1), nu=0.1, kernel="rbf", gamma=2.0, degree=3, coef0=0.0,
                                      fit_bias=True, cache_rows=0, state=None, sample_weight=None)[3]
    terms = ref_sbp._tie_terms(1.0, X, opts)
    assert 0.0 < ref_sbp._tie_tolerance(10_000, terms) < 1e-10


@pytest.mark.parametrize("kernel,gamma", [("rbf", 2.0), ("linear", 1.0), ("poly", 0.5)])
def test_tolerance_bounds_the_response_error(kernel, gamma):
    """Replay of lines 7-12 in extended precision (mpmath, 40 digits) with the sampled indices of the
    float run: the float responses are within the response part of the bound of ``_tie_terms``."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    X, y = spiral_with_duplicates(4, n=30, n_dup=10)
    X = 3.0 * X
    T = 120
    u = np.random.default_rng(4).random(T)
    res = ref_sbp.optimize(X, y, u, nu=0.1, kernel=kernel, gamma=gamma, degree=2, coef0=1.0, fit_bias=True)
    n = y.size
    Xm = [[mpmath.mpf(float(v)) for v in row] for row in X]

    def k(i, j):
        dot = mpmath.fsum(a * b for a, b in zip(Xm[i], Xm[j]))
        if kernel == "linear":
            return dot
        if kernel == "poly":
            return (gamma * dot + 1) ** 2
        sq = mpmath.fsum((a - b) ** 2 for a, b in zip(Xm[i], Xm[j]))
        return mpmath.exp(-gamma * sq)

    kmax = max(k(j, j) for j in range(n))
    eta_0 = 1 / mpmath.sqrt(kmax)
    c = [mpmath.mpf(0)] * n
    r2 = mpmath.mpf(0)
    for t in range(1, T + 1):
        i = int(res.trace["sampled"][t - 1])
        eta = eta_0 / mpmath.sqrt(t)
        row = [k(i, j) for j in range(n)]
        r2 = r2 + 2 * eta * c[i] + eta * eta * row[i]
        c = [c[j] + eta * int(y[i]) * int(y[j]) * row[j] for j in range(n)]
        if r2 > 1:
            s = 1 / mpmath.sqrt(r2)
            c = [v * s for v in c]
            r2 = mpmath.mpf(1)
    err = max(abs(float(res.state.c[j]) - c[j]) for j in range(n))
    opts = ref_sbp.SBPOptions.resolve(X, y, u, nu=0.1, kernel=kernel, gamma=gamma, degree=2, coef0=1.0,
                                      fit_bias=True, cache_rows=0, state=None, sample_weight=None)[3]
    a, b, _ = ref_sbp._tie_terms(float(eta_0), X, opts)
    bound_c = (a * T + b * math.sqrt(T)) / 5.0          # E_c: the responses' part of the bound
    assert err <= bound_c, (float(err), bound_c)
    assert err > 0.0
