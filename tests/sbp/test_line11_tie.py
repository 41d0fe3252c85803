"""SBP, line 11 at the unit ball: ``r_t > 1`` when ``r_t^2`` is 1 up to rounding.

At the first iteration ``r_1^2 = eta_0^2 K_ii`` with ``eta_0 = 1 / sqrt(max_j K_jj)``: exactly 1 when
the sampled row has the largest diagonal entry, but the computed value is often 1 + 1 ulp, and a
kernel value one ulp apart between the paths (poly, linear) sent one path through line 12 and not
the other (the ``projected`` flag of the property run).  ``refsvm.sbp._outside_ball`` decides
``r_t^2 > 1`` to the error bound of ``r_t^2`` (``_ball_terms``); ``r_t^2`` within it counts as 1
(no rescaling).  What must hold: no rescaling at the first step when the exact ``r_1`` is 1 (both
paths, dense and CSR), the same flags at every step, rescaling still taken where ``r_t^2`` exceeds
1 by more than the bound, and the bound above the rounding error measured against an exact replay
in rational arithmetic.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

import refsvm._fast.sbp as fast_sbp
import refsvm.sbp as ref_sbp
from refsvm import SBPClassifier


def _equal_norm_rows(x):
    """Four rows of equal squared norm ``x^2`` (computed exactly alike for every row), labels +-1."""
    X = np.array([[x, 0.0], [-x, 0.0], [0.0, x], [0.0, -x]])
    return X, np.array([1, -1, 1, -1], dtype=np.int64)


def _rounds_above_one(x):
    k = x * x
    e = 1.0 / math.sqrt(k)
    return e * e * k > 1.0


# values whose first step computes r_1^2 = 1 + 1 ulp (checked below): the old test rescaled there
XS = [x for x in np.linspace(0.3, 3.0, 400) if _rounds_above_one(float(x))][:6]


@pytest.mark.parametrize("x", XS)
@pytest.mark.parametrize("mod", [ref_sbp, fast_sbp], ids=["python", "fast"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("fit_bias", [False, True])
def test_no_rescaling_when_r_is_one_up_to_rounding(x, mod, sparse, fit_bias):
    X, y = _equal_norm_rows(float(x))
    assert _rounds_above_one(float(x))
    u = np.array([0.1])
    res = mod.optimize(sp.csr_matrix(X) if sparse else X, y, u, nu=0.1, kernel="linear", gamma=1.0, degree=2,
                       coef0=0.0, fit_bias=fit_bias)
    assert res.trace["projected"][0] == 0           # the exact r_1 is 1: line 12 would divide by 1


def _poly_data(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 3)) * 10.0 ** rng.uniform(-2, 2, size=3)
    X = np.r_[X, X[:10]]
    return X, np.where(rng.random(40) < 0.5, 1, -1).astype(np.int64)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("fit_bias", [False, True])
def test_the_paths_rescale_alike_and_still_rescale(seed, fit_bias):
    """Poly kernel on scaled columns (the property run's cases): the same flags and samples on both
    paths, dense and CSR, over 3 epochs."""
    X, y = _poly_data(seed)
    u = np.random.default_rng(seed).random(3 * y.size)
    kw = dict(nu=0.05, kernel="poly", gamma=1.0, degree=2, coef0=1.0, fit_bias=fit_bias)
    runs = [mod.optimize(Xin, y, u, **kw) for mod in (ref_sbp, fast_sbp) for Xin in (X, sp.csr_matrix(X))]
    for r in runs[1:]:
        np.testing.assert_array_equal(r.trace["projected"], runs[0].trace["projected"])
        np.testing.assert_array_equal(r.trace["sampled"], runs[0].trace["sampled"])


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("mod", [ref_sbp, fast_sbp], ids=["python", "fast"])
def test_rescaling_is_still_taken(kernel, mod):
    """Away from the tie, line 12 runs as before: at most of the steps of a separable problem."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 1, -1).astype(np.int64)
    res = mod.optimize(X, y, rng.random(120), nu=0.05, kernel=kernel, gamma=1.0, degree=2, coef0=1.0)
    assert res.trace["projected"].sum() >= 50


@pytest.mark.parametrize("seed", [2018, 4737, 11501, 11532, 14032])
def test_property_run_cases_agree(seed):
    """The generated configurations where ``projected`` parted at step 0: now agree."""
    import agreement._generate as gen
    result = gen.check(gen.draw_config(seed))
    assert result["status"] == "agree", result


def test_bound_covers_the_rounding_of_r_squared():
    """The computed ``r_t^2`` (a float replay of lines 7-12 with the reference's operations) stays
    within ``tol_r(t)`` of the exact one (a rational replay with the same kernel values)."""
    X, y = _poly_data(3)
    n = y.size
    K = (X @ X.T + 1.0) ** 2
    opts = ref_sbp.SBPOptions.resolve(X, y, np.zeros(1), nu=0.05, kernel="poly", gamma=1.0, degree=2, coef0=1.0,
                                      fit_bias=False, cache_rows=0, state=None, sample_weight=None)[3]
    eta_0 = 1.0 / math.sqrt(float(np.max(np.diag(K))))
    terms = ref_sbp._ball_terms(eta_0, X, opts)
    rng = np.random.default_rng(0)
    c, r2 = np.zeros(n), 0.0
    c_q, r2_q = [Fraction(0)] * n, Fraction(0)
    worst = 0.0
    for t in range(1, 301):
        eta = eta_0 / math.sqrt(t)
        i = int(rng.integers(n))
        r2 = r2 + 2.0 * eta * c[i] + eta * eta * K[i, i]
        c += eta * y[i] * y * K[i]
        eq = Fraction(eta)                            # exact: ||w + eta y_i Phi_i||^2, c_j = y_j <w, Phi_j>
        r2_q += 2 * eq * c_q[i] + eq * eq * Fraction(float(K[i, i]))
        c_q = [c_q[j] + eq * int(y[i] * y[j]) * Fraction(float(K[i, j])) for j in range(n)]
        if ref_sbp._outside_ball(r2, t, terms):
            scale = 1.0 / math.sqrt(r2)
            c *= scale
            c_q = [v * Fraction(scale) for v in c_q]
            r2_q *= Fraction(scale) ** 2
            r2 = 1.0
        worst = max(worst, abs(float(Fraction(r2) - r2_q)) / ((terms[0] * math.sqrt(t) + terms[1]) * t))
    assert worst <= 1.0
