"""Merging with GSS-precise: h is the root of g' to rounding, and depends smoothly on the inputs.

A golden-section search to 1e-10 compares g(c) with g(d) long after they differ by less than their
rounding (g is flat to u g within ~1e-8 of its maximum): its h followed the inputs' last bits, so
the two paths, whose coefficients and kernel values are a few ulps apart, merged at points up to
1e-8 apart and BSGD runs drifted 2e-8 .. 1e-7 apart (the property run).  GSS-precise now searches
to 1e-3 and takes Newton steps on g' (``refsvm.budget.polish_merge_h``).  What must hold: h equals
the root of g' computed with 50 digits (mpmath) to a few ulps, both paths compute it bitwise alike,
an ulp of change in the inputs moves the merged point by rounding only, and the property run's
cases agree.
"""

import math

import mpmath
import numpy as np
import pytest

import refsvm._fast.budget as fast_budget
import refsvm.budget as ref_budget


def _cases(seed, n=200):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        c = int(rng.choice([1, 1, 3]))
        a_m = np.abs(rng.normal(size=c)) * 10.0 ** rng.uniform(-2, 2)
        a_n = np.abs(rng.normal(size=c)) * 10.0 ** rng.uniform(-2, 2)
        if c > 1:
            a_n *= np.where(rng.random(c) < 0.3, -1.0, 1.0)
        yield a_m, a_n, -float(10.0 ** rng.uniform(-6, 1.5))


def _root_of_g_prime(a_m, a_n, log_kappa, h0):
    mpmath.mp.dps = 50
    L = mpmath.mpf(log_kappa)
    am = [mpmath.mpf(float(v)) for v in a_m]
    an = [mpmath.mpf(float(v)) for v in a_n]

    def g_prime(h):
        A, B = mpmath.exp((1 - h) ** 2 * L), mpmath.exp(h ** 2 * L)
        dA, dB = -2 * (1 - h) * L * A, 2 * h * L * B
        return 2 * sum((p * A + q * B) * (p * dA + q * dB) for p, q in zip(am, an))

    return float(mpmath.findroot(g_prime, mpmath.mpf(h0)))


def test_h_is_the_root_of_g_prime():
    worst = 0.0
    for a_m, a_n, log_kappa in _cases(0):
        h = ref_budget.merge_h(a_m, a_n, log_kappa, 1e-10, polish=True)
        if h in (0.0, 0.5, 1.0):
            continue                                   # a maximum at the end of the half: no root
        worst = max(worst, abs(h - _root_of_g_prime(a_m, a_n, log_kappa, h)))
    assert worst <= 1e-14


@pytest.mark.parametrize("seed", range(3))
def test_the_paths_polish_bitwise_alike(seed):
    for a_m, a_n, log_kappa in _cases(seed):
        r = ref_budget.merge_pair(a_m, a_n, log_kappa, 1e-10, polish=True)
        f = fast_budget.merge_pair(a_m, a_n, log_kappa, 1e-10, polish=True)
        assert r[0] == f[0] and r[2] == f[2]
        np.testing.assert_array_equal(np.atleast_1d(r[1]), np.atleast_1d(f[1]))


def _merged_point(module, SV, alpha):
    S, A = SV.copy(), alpha.copy()
    n_sv, m, n, _ = module.maintain_merge(S, A, SV.shape[0], 1.0, 0.01, "gss-precise")
    return S[m], A[m], m, n


@pytest.mark.parametrize("module", [ref_budget, fast_budget], ids=["python", "fast"])
def test_an_ulp_in_the_inputs_moves_the_merge_by_rounding_only(module):
    """The merged SV and its coefficient under a one-ulp change of every coefficient: within 1e-13
    (relative) of the unperturbed merge, where GSS at 1e-10 moved them by up to ~1e-8."""
    worst = 0.0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        SV = rng.normal(size=(8, 3))
        alpha = np.abs(rng.normal(size=(8, 1))) + 0.5
        z0, a0, m0, n0 = _merged_point(module, SV, alpha)
        z1, a1, m1, n1 = _merged_point(module, SV, np.nextafter(alpha, np.inf))
        assert (m0, n0) == (m1, n1)
        worst = max(worst, float(np.max(np.abs(z1 - z0)) / np.max(np.abs(SV))),
                    float(np.max(np.abs(a1 - a0)) / np.max(np.abs(a0))))
    assert worst <= 1e-13


@pytest.mark.parametrize("seed", [4969, 5839, 6438, 12978])
def test_property_run_cases_agree(seed):
    """BSGD with GSS-precise merging, the property run's drifting configurations (2e-8 .. 1e-7 of the
    scale before): within 1e-9, the same decisions."""
    import agreement._generate as gen
    result = gen.check(gen.draw_config(seed))
    assert result["status"] == "agree", result


def test_identical_points_keep_the_search_h():
    """kappa = 1 (identical rows): g is constant, the curvature 0, no Newton step (h of the search)."""
    for module in (ref_budget, fast_budget):
        h = module.merge_h(np.array([1.0]), np.array([2.0]), 0.0, 1e-10, polish=True)
        g = lambda t: ref_budget.merge_objective(t, np.array([1.0]), np.array([2.0]), 0.0)  # noqa: E731
        lo, hi = (0.5, 1.0) if g(1.0) >= g(0.0) else (0.0, 0.5)
        assert h == ref_budget.golden_section_search(g, lo, hi, ref_budget.MERGE_POLISH_WIDTH)
        assert math.isfinite(h)
