"""Merging near duplicates: h is the maximiser of g even where g is flat to below its rounding.

Points 1e-6..1e-14 apart have ``L = log kappa = -gamma ||x_m - x_n||^2`` of 1e-12..1e-28, and
``g(h) = ||alpha_m kappa^((1-h)^2) + alpha_n kappa^(h^2)||^2`` then varies with h by about
``|L| ||S||^2``, below its own rounding: the golden-section search's comparisons were noise, h landed
anywhere in the half (0.018 against the maximiser 0.105) and followed the inputs' last bits, and BSCA
runs on near-duplicate data parted by 2e-9..2e-8 of the decision scale.  For ``L >
-MERGE_NEAR_LOG_KAPPA`` the search compares the cancellation-free gain ``G(h) = g(h) - ||S||^2``
(``refsvm.budget.merge_gain``).  What must hold: h within the search's precision of the maximiser of g
computed with 60 digits (mpmath), on both paths, bitwise alike; an ulp in the inputs leaves h alone;
identical points (``L = 0``) keep the search's h; the property run's parting configurations agree.
"""

import mpmath
import numpy as np
import pytest

import refsvm._fast.budget as fast_budget
import refsvm.budget as ref_budget

DISTANCES = [1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-12, 1e-14]


def _cases(seed, n=60):
    """``(alpha_m, alpha_n, L)``: equal-sign binary pairs and 3-class pairs, ``L = -gamma d^2``."""
    rng = np.random.default_rng(seed)
    for k in range(n):
        c = 3 if k % 4 == 3 else 1
        a_m = np.abs(rng.normal(size=c)) * 10.0 ** rng.uniform(-2, 2)
        a_n = np.abs(rng.normal(size=c)) * 10.0 ** rng.uniform(-2, 2)
        if rng.random() < 0.5:
            a_m, a_n = -a_m, -a_n
        d = DISTANCES[k % len(DISTANCES)] * rng.uniform(0.5, 2.0)
        yield a_m, a_n, -float(rng.uniform(0.1, 3.0) * d * d)


def _maximiser(a_m, a_n, log_kappa):
    """The maximiser of g on [0, 1] with 60 digits: the root of g' from the first-order limit
    ``S.alpha_m / (S.alpha_m + S.alpha_n)`` (``g - ||S||^2 = 2 L (S.a_m (1-h)^2 + S.a_n h^2) + O(L^2)``)."""
    mpmath.mp.dps = 60
    L = mpmath.mpf(log_kappa)
    am = [mpmath.mpf(float(v)) for v in a_m]
    an = [mpmath.mpf(float(v)) for v in a_n]
    sm = sum((p + q) * p for p, q in zip(am, an))
    sn = sum((p + q) * q for p, q in zip(am, an))

    def g_prime(h):
        A, B = mpmath.exp((1 - h) ** 2 * L), mpmath.exp(h ** 2 * L)
        dA, dB = -2 * (1 - h) * L * A, 2 * h * L * B
        return 2 * sum((p * A + q * B) * (p * dA + q * dB) for p, q in zip(am, an))

    return float(mpmath.findroot(g_prime, sm / (sm + sn)))


@pytest.mark.parametrize("module", [ref_budget, fast_budget], ids=["python", "fast"])
@pytest.mark.parametrize("solver,eps,within", [("gss", 0.01, 0.01), ("gss-precise", 1e-10, 1e-12)])
def test_h_is_the_maximiser_on_near_duplicates(module, solver, eps, within):
    worst = 0.0
    for a_m, a_n, log_kappa in _cases(1):
        h = module.merge_h(a_m, a_n, log_kappa, eps, polish=solver == "gss-precise")
        worst = max(worst, abs(h - _maximiser(a_m, a_n, log_kappa)))
    assert worst <= within


def test_the_paths_merge_near_duplicates_bitwise_alike():
    for a_m, a_n, log_kappa in _cases(2):
        for eps, polish in ((0.01, False), (1e-10, True)):
            r = ref_budget.merge_pair(a_m, a_n, log_kappa, eps, polish)
            f = fast_budget.merge_pair(a_m, a_n, log_kappa, eps, polish)
            assert r[0] == f[0] and r[2] == f[2]
            np.testing.assert_array_equal(np.atleast_1d(r[1]), np.atleast_1d(f[1]))


@pytest.mark.parametrize("module", [ref_budget, fast_budget], ids=["python", "fast"])
def test_an_ulp_in_the_coefficients_leaves_h_alone(module):
    """Before: one ulp of alpha_m moved the search's h by up to 0.1 at L ~ 1e-14."""
    worst = 0.0
    for a_m, a_n, log_kappa in _cases(3):
        h0 = module.merge_h(a_m, a_n, log_kappa, 0.01)
        h1 = module.merge_h(np.nextafter(a_m, np.inf), a_n, log_kappa, 0.01)
        worst = max(worst, abs(h1 - h0))
    assert worst <= 1e-12


@pytest.mark.parametrize("module", [ref_budget, fast_budget], ids=["python", "fast"])
def test_identical_points_keep_the_search_h(module):
    """``L = 0``: g is constant and G is 0, so the search takes the same (all ``>=``) branches."""
    for eps in (0.01, 1e-3):
        for a_m, a_n in ((np.array([1.0]), np.array([2.0])), (np.array([0.3, -1.0, 2.0]), np.array([1.0, 1.0, 1.0]))):
            expected = ref_budget.golden_section_search(lambda t: 1.0, 0.5, 1.0, eps)
            assert module.merge_h(a_m, a_n, 0.0, eps) == expected
            assert module.merge_h(a_m, a_n, -0.0, eps) == expected


def test_far_pairs_compare_g():
    """Above the threshold the search reads g itself (models with kappa away from 1 unchanged)."""
    a_m, a_n = np.array([0.7]), np.array([1.3])
    L = -10.0 * ref_budget.MERGE_NEAR_LOG_KAPPA
    f = ref_budget.merge_search_objective(a_m, a_n, L)
    assert f(0.3) == ref_budget.merge_objective(0.3, a_m, a_n, L)
    g = ref_budget.merge_search_objective(a_m, a_n, -0.5 * ref_budget.MERGE_NEAR_LOG_KAPPA)
    assert g(0.3) == ref_budget.merge_gain(0.3, a_m, a_n, -0.5 * ref_budget.MERGE_NEAR_LOG_KAPPA)


@pytest.mark.parametrize("seed", [1405, 2592])
def test_property_run_cases_agree(seed):
    """BSCA merging on near duplicates, the property run's parting configurations (2e-9..2e-8 of the
    scale before): the same decisions, within 1e-9."""
    import agreement._generate as gen
    result = gen.check(gen.draw_config(seed))
    assert result["status"] == "agree", result
