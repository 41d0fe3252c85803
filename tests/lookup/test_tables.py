"""Lookup-table merging (Glasmachers & Qaadan): refsvm.lookup and refsvm._fast.lookup.

Interpolation error bound for WD (test (a))
-------------------------------------------
Linear interpolation on an interval of length Delta errs by at most
``(Delta^2 / 8) max|f''|``.  Bilinear interpolation is ``I_m I_kappa``, and
``f - I_m I_kappa f = (f - I_m f) + I_m (f - I_kappa f)`` with ``I_m`` a convex
combination, so on a cell where WD is C^2

    |WD - I WD| <= (Delta^2 / 8) (max_cell |WD_mm| + max_cell |WD_kk|).

Second derivatives: by the implicit function theorem on ``s_h(h*) = 0``,
``s*_mm = -s_mh^2 / s_hh`` and ``s*_kk = s_kk - s_kh^2 / s_hh``, so
``WD_mm = 4 - 4 kappa - 2 (s_m^2 + s* s*_mm)`` and
``WD_kk = -2 (s_k^2 + s* s*_kk)`` (:func:`wd_second_derivatives`; checked
against finite differences below).  Evaluated on a fine grid (8 x 8 sub-cells
per cell, the closed cell's nodes) and maximised together with finite
differences of a fine GSS-precise evaluation, over all cells of the 400 x 400
grid that do not meet ``N u Z`` (``refsvm.lookup.nonsmooth_cells``):

    max |WD_mm| = 367.46  in cells (199, 55) and (200, 55), at their corner
                          (1/2, 55/400) next to the pitchfork point (1/2, e^-2);
                          analytically 4(1-k) - 8 sqrt(k) |ln k| / (2 - |ln k|)
                          at m = 1/2
    max |WD_kk| = 7.40    in cells (198, 46) and (201, 46)

    => |WD - I WD| <= (1/400)^2 / 8 * (367.5 + 7.41) = 2.93e-4   (WD_BOUND)

The bound is dominated by the cells next to the pitchfork; away from it
(cell centre more than 0.05 from (1/2, e^-2)) it is 1.44e-5, for
``kappa >= 1/4`` 6.3e-6, and the median per-cell bound is 5.0e-7.  Finite
differences alone under-estimate the maximum next to the pitchfork (287 with
4 x 4, 334 with 8 x 8 sub-cells): WD_mm has a narrow peak at m = 1/2 there.

The first row of cells (kappa in [0, Delta]) is not excluded by Lemma 1, but
WD_kk has an integrable logarithmic singularity at kappa = 0
(``WD_kk ~ 4 min(m, 1-m)^2 ln kappa``): with
``|f''(k)| <= A ln(Delta/k) + C`` the Peano-kernel form of the error gives
``<= Delta^2 (C/8 + 0.107 A)``, which the fine-grid maximum (taken down to
``kappa = Delta/8``, where ``A ln 8 = 2.08 A > 8 * 0.107 A``) covers.

Measured (200,000 uniform points, 400 x 400 tables, cells not meeting N u Z):
max |error| 7.6e-5, mean 4.0e-7; the per-cell bound is attained up to 0.9996
(cells near m = 0 or 1 at small kappa, where WD ~ m^2 is nearly quadratic).
"""

import math
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from refsvm import lookup
from refsvm.backend import get_module
from refsvm.budget import MERGE_EPS_PRECISE, merge_h, merge_pair

G = lookup.DEFAULT_GRID_SIZE
DELTA = 1.0 / G
E2 = math.exp(-2.0)

#: max |WD_mm| and max |WD_kk| over cells not meeting N u Z (module docstring)
M_MM = 367.5
M_KK = 7.41
#: the derived interpolation error bound of WD on those cells (2.93e-4)
WD_BOUND = DELTA ** 2 / 8.0 * (M_MM + M_KK)


@pytest.fixture(scope="module")
def tables():
    """The 400 x 400 tables, computed afresh (no disk cache touched)."""
    return lookup.compute_tables(G)


@pytest.fixture(scope="module")
def fast():
    return get_module("lookup", "fast")


def wd_second_derivatives(m, kappa, h):
    """Analytic ``(WD_mm, WD_kk)`` at ``(m, kappa)`` given the maximiser ``h`` of ``s``."""
    with np.errstate(all="ignore"):
        L = np.log(kappa)
        A = np.exp((1 - h) ** 2 * L)           # kappa^((1-h)^2)
        B = np.exp(h * h * L)                  # kappa^(h^2)
        s = m * A + (1 - m) * B
        s_m = A - B
        s_hh = m * A * (4 * (1 - h) ** 2 * L * L + 2 * L) + (1 - m) * B * (4 * h * h * L * L + 2 * L)
        s_mh = -2 * (1 - h) * L * A - 2 * h * L * B
        s_k = (m * (1 - h) ** 2 * A + (1 - m) * h * h * B) / kappa
        s_kk = (m * (1 - h) ** 2 * ((1 - h) ** 2 - 1) * A + (1 - m) * h * h * (h * h - 1) * B) / kappa ** 2
        s_kh = (m * A * (-2 * (1 - h) - 2 * (1 - h) ** 3 * L) + (1 - m) * B * (2 * h + 2 * h ** 3 * L)) / kappa
        wd_mm = 4 - 4 * kappa - 2 * (s_m ** 2 + s * (-s_mh ** 2 / s_hh))
        wd_kk = -2 * (s_k ** 2 + s * (s_kk - s_kh ** 2 / s_hh))
    return wd_mm, wd_kk


def brute_force_wd(a_m, a_n, kappa, h):
    """Exact weight degradation of ``z = h x_m + (1-h) x_n`` (arrays of h)."""
    a_z = a_m * kappa ** ((1 - h) ** 2) + a_n * kappa ** (h * h)
    return a_m * a_m + a_n * a_n + 2 * kappa * a_m * a_n - a_z * a_z


# ----------------------------------------------------------------------------
# table generation
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("eps", [MERGE_EPS_PRECISE, 0.01])
def test_vectorised_gss_equals_scalar_merge_h(eps):
    """Same comparisons as the scalar loop: bitwise equal to refsvm.budget.merge_h."""
    rng = np.random.default_rng(0)
    m = np.concatenate([rng.integers(1, G, 300) / G, rng.random(300), [0.5, 0.5, 0.25, 0.75]])
    kappa = np.concatenate([rng.integers(1, G, 300) / G, rng.random(300), [0.01, 0.9, E2, 1e-300]])
    log_kappa = np.log(kappa)
    h = lookup.gss_h_grid(m, log_kappa, eps)
    expected = [merge_h(np.array([mi]), np.array([1.0 - mi]), float(li), eps) for mi, li in zip(m, log_kappa)]
    np.testing.assert_array_equal(h, expected)
    # numpy's SIMD exp differs from libm by an ulp now and then: h may move by ~1e-7
    np.testing.assert_allclose(lookup.gss_h_grid(m, log_kappa, eps, exact=False), expected, rtol=0, atol=1e-6)


def test_interior_nodes_are_merge_pair_precise(tables):
    h_table, wd_table = tables
    assert h_table.shape == wd_table.shape == (G + 1, G + 1)
    assert h_table.dtype == wd_table.dtype == np.float64
    rng = np.random.default_rng(1)
    for i, j in rng.integers(1, G, size=(200, 2)):
        m, kappa = i / G, j / G
        h, alpha_z, wd = merge_pair(np.array([m]), np.array([1.0 - m]), math.log(kappa), MERGE_EPS_PRECISE)
        assert h_table[i, j] == h
        assert wd_table[i, j] == wd
        # normalised WD of Lemma 1: m^2 + (1-m)^2 + 2 m (1-m) kappa - s(h)^2
        assert wd == pytest.approx(m * m + (1 - m) ** 2 + 2 * m * (1 - m) * kappa - alpha_z[0] ** 2, abs=1e-15)


def test_border_nodes_are_the_limits(tables):
    h_table, wd_table = tables
    nodes = lookup.grid_nodes(G)
    np.testing.assert_array_equal(h_table[0], 0.0)
    np.testing.assert_array_equal(h_table[G], 1.0)
    np.testing.assert_array_equal(wd_table[0], 0.0)
    np.testing.assert_array_equal(wd_table[G], 0.0)
    np.testing.assert_array_equal(h_table[:, G], nodes)                       # kappa = 1: h = m
    np.testing.assert_array_equal(wd_table[:, G], 0.0)
    np.testing.assert_array_equal(h_table[:, 0], np.where(nodes >= 0.5, 1.0, 0.0))
    np.testing.assert_array_equal(wd_table[:, 0], np.minimum(nodes, 1 - nodes) ** 2)
    # ... and they are the limits: the neighbouring columns/rows are close
    inner = slice(1, G)
    assert np.max(np.abs(wd_table[inner, 1] - wd_table[inner, 0])) < 3 * DELTA
    assert np.max(np.abs(wd_table[inner, G - 1] - wd_table[inner, G])) < 3 * DELTA
    away = np.abs(nodes - 0.5) > 0.1
    assert np.max(np.abs(h_table[away, 1] - h_table[away, 0])) < 0.01      # 1-h ~ kappa (1-m)/m
    assert np.max(np.abs(h_table[inner, G - 1] - h_table[inner, G])) < 0.01
    assert np.max(np.abs(h_table[1, :] - h_table[0, :])) < 0.01
    assert np.max(np.abs(wd_table[1, :] - wd_table[0, :])) < 3 * DELTA


def test_symmetry(tables):
    """h(1-m, k) = 1 - h(m, k) and WD(1-m, k) = WD(m, k), except on the tie m = 1/2 for kappa < e^-2."""
    h_table, wd_table = tables
    nodes = lookup.grid_nodes(G)
    mask = np.ones((G + 1, G + 1), dtype=bool)
    mask[G // 2, nodes < E2] = False
    np.testing.assert_allclose((h_table + h_table[::-1])[mask], 1.0, atol=1e-6)   # GSS-precise: h to ~1e-7
    np.testing.assert_allclose(wd_table, wd_table[::-1], atol=1e-14)


def test_merge_functions_checks_range():
    with pytest.raises(ValueError, match="m and kappa"):
        lookup.merge_functions([1.5], [0.5])
    with pytest.raises(ValueError, match="m and kappa"):
        lookup.merge_functions([0.5], [np.nan])


# ----------------------------------------------------------------------------
# (a) interpolation error of WD
# ----------------------------------------------------------------------------

def test_second_derivative_formulas_match_finite_differences():
    rng = np.random.default_rng(2)
    m = rng.uniform(0.02, 0.98, 400)
    kappa = rng.uniform(0.02, 0.98, 400)
    keep = ~((kappa < E2 + 0.03) & (np.abs(m - 0.5) < 0.05))     # away from Z and the pitchfork
    m, kappa = m[keep], kappa[keep]
    d = 1e-4
    wd = lambda mm, kk: lookup.merge_functions(mm, kk, exact=False)[1]  # noqa: E731
    h, w = lookup.merge_functions(m, kappa, exact=False)
    fd_mm = (wd(m + d, kappa) - 2 * w + wd(m - d, kappa)) / d ** 2
    fd_kk = (wd(m, kappa + d) - 2 * w + wd(m, kappa - d)) / d ** 2
    an_mm, an_kk = wd_second_derivatives(m, kappa, h)
    np.testing.assert_allclose(an_mm, fd_mm, rtol=0, atol=1e-4)
    np.testing.assert_allclose(an_kk, fd_kk, rtol=0, atol=1e-4)
    # closed form at m = 1/2, kappa > e^-2 (h = 1/2): 4(1-k) - 8 sqrt(k) |ln k| / (2 - |ln k|)
    k = 55 / G
    expected = 4 * (1 - k) - 8 * math.sqrt(k) * -math.log(k) / (2 + math.log(k))
    assert wd_second_derivatives(0.5, k, 0.5)[0] == pytest.approx(expected, rel=1e-12)
    assert abs(expected) == pytest.approx(367.46, abs=0.01)


def cell_second_derivative_max(i, j, r=8):
    """Estimates of max |WD_mm| and max |WD_kk| on the closed cell (i, j) of the 400-grid.

    The larger of the analytic formulas on the (r+1)^2 sub-grid nodes (kappa in
    (0, 1)) and of central second differences of a fine GSS-precise evaluation
    (stencils inside [0, 1]^2).
    """
    d = DELTA / r
    idx = np.arange(-1, r + 2)
    mm = np.clip(i * DELTA + idx * d, -1.0, 2.0)
    kk = np.clip(j * DELTA + idx * d, -1.0, 2.0)
    M, K = np.meshgrid(mm, kk, indexing="ij")
    inside = (M >= 0) & (M <= 1) & (K >= 0) & (K <= 1)
    H = np.full(M.shape, np.nan)
    W = np.full(M.shape, np.nan)
    H[inside], W[inside] = lookup.merge_functions(M[inside], K[inside], exact=False)
    fd_mm = (W[2:, 1:-1] - 2 * W[1:-1, 1:-1] + W[:-2, 1:-1]) / d ** 2
    fd_kk = (W[1:-1, 2:] - 2 * W[1:-1, 1:-1] + W[1:-1, :-2]) / d ** 2
    core = (slice(1, -1), slice(1, -1))
    an_mm, an_kk = wd_second_derivatives(M[core], K[core], H[core])
    estimates = []
    for fd, an in ((fd_mm, an_mm), (fd_kk, an_kk)):
        values = np.concatenate([np.abs(fd).ravel(), np.abs(an).ravel()])
        estimates.append(np.max(values[np.isfinite(values)]))
    return tuple(estimates)


def test_wd_interpolation_error_below_derived_bound(tables):
    _, wd_table = tables
    nonsmooth = lookup.nonsmooth_cells(G)
    rng = np.random.default_rng(3)
    special = [(199, 55), (200, 55), (199, 56), (201, 46), (198, 46), (201, 54), (198, 54),
               (0, 5), (398, 1), (2, 33), (100, 0), (300, 0), (250, 399), (5, 399)]
    cells = list(special)
    while len(cells) < 120:
        i, j = (int(v) for v in rng.integers(0, G, 2))
        if not nonsmooth[i, j]:
            cells.append((i, j))
    worst_ratio = 0.0
    for i, j in cells:
        assert not nonsmooth[i, j]
        m_mm, m_kk = cell_second_derivative_max(i, j)
        assert m_mm <= M_MM and m_kk <= M_KK, (i, j, m_mm, m_kk)       # the stated maxima hold
        bound = DELTA ** 2 / 8 * (m_mm + m_kk)
        m = (i + rng.random(8)) * DELTA
        kappa = (j + rng.random(8)) * DELTA
        _, wd = lookup.merge_functions(m, kappa)                      # GSS-precise, direct
        err = np.abs(lookup.lookup_wd_array(m, kappa, wd_table) - wd)
        assert np.all(err <= 1.01 * bound + 1e-13), (i, j, err.max(), bound)
        worst_ratio = max(worst_ratio, float(np.max(err / bound)))
    assert worst_ratio > 0.5          # the bound is not vacuous: near-quadratic cells come close to it

    # everywhere off the grid (cells not meeting N u Z): below the global bound
    m = rng.random(20000)
    kappa = rng.random(20000)
    i = np.minimum((m * G).astype(int), G - 1)
    j = np.minimum((kappa * G).astype(int), G - 1)
    smooth = ~nonsmooth[i, j]
    _, wd = lookup.merge_functions(m[smooth], kappa[smooth], exact=False)
    err = np.abs(lookup.lookup_wd_array(m[smooth], kappa[smooth], wd_table) - wd)
    assert err.max() <= WD_BOUND
    assert err.mean() < 1e-6


def test_nonsmooth_cells_criterion():
    """The two-mode region of Lemma 1 against a brute-force count of the modes of s."""
    rng = np.random.default_rng(4)
    h = np.linspace(0, 1, 20001)
    for _ in range(300):
        m, kappa = rng.uniform(0.02, 0.98), rng.uniform(0.01, 0.3)
        psi = lookup.two_mode_threshold(kappa)
        logit = abs(math.log(m / (1 - m)))
        if abs(logit - psi) < 0.02:
            continue                                  # too close to N for a grid count
        s = m * kappa ** ((1 - h) ** 2) + (1 - m) * kappa ** (h * h)
        interior_max = np.sum((s[1:-1] > s[:-2]) & (s[1:-1] > s[2:]))
        assert interior_max == (2 if logit < psi else 1), (m, kappa)
    assert lookup.two_mode_threshold(E2) == 0.0
    assert lookup.two_mode_threshold(0.5) == 0.0
    assert lookup.two_mode_threshold(0.0) == np.inf
    cells = lookup.nonsmooth_cells(G)
    assert cells.shape == (G, G)
    assert not cells[:, int(E2 * G) + 1:].any()       # smooth for kappa > e^-2
    assert cells[G // 2 - 1, :int(E2 * G) + 1].all() and cells[G // 2, :int(E2 * G) + 1].all()   # Z
    assert cells[0, 0] and cells[G - 1, 0]             # N reaches the corners
    assert not cells[G // 4, 40]                       # one mode, away from N and Z
    assert lookup.two_mode_threshold(0.0125) > abs(math.log(0.2525 / 0.7475))
    assert not cells[G // 4, 4]                        # two modes, away from N and Z


# ----------------------------------------------------------------------------
# (b) Lemma 1: h jumps at m = 1/2 for kappa < e^-2, WD is continuous
# ----------------------------------------------------------------------------

def _merge_precise(m, kappa):
    return merge_pair(np.array([m]), np.array([1.0 - m]), math.log(kappa), MERGE_EPS_PRECISE)


@pytest.mark.parametrize("kappa", [0.01, 0.05, 0.1, 0.13])
def test_h_jumps_at_one_half_below_e_minus_2(kappa):
    d = 1e-7
    h_plus, _, wd_plus = _merge_precise(0.5 + d, kappa)
    h_minus, _, wd_minus = _merge_precise(0.5 - d, kappa)
    assert h_plus - h_minus > 0.2                   # the dominant mode switches sides
    assert h_plus > 0.5 > h_minus
    assert abs(wd_plus - wd_minus) < 1e-12          # WD is continuous


@pytest.mark.parametrize("kappa", [0.14, 0.2, 0.5, 0.9])
def test_h_continuous_at_one_half_above_e_minus_2(kappa):
    d = 1e-7
    h_plus, _, wd_plus = _merge_precise(0.5 + d, kappa)
    h_minus, _, wd_minus = _merge_precise(0.5 - d, kappa)
    assert abs(h_plus - h_minus) < 1e-4
    assert abs(wd_plus - wd_minus) < 1e-12


def test_h_interpolation_inaccurate_only_across_the_jump(tables):
    """The cell [1/2 - Delta, 1/2] blends the two modes for kappa < e^-2 when
    interpolated the printed way (``bilinear`` on the h table); ``lookup_h``
    reads the symmetric half instead and is accurate there."""
    h_table, wd_table = tables
    kappa = 0.05
    m = 0.5 - DELTA / 2                               # centre of the straddling cell
    h_direct, wd_direct = (float(v[0]) for v in lookup.merge_functions([m], [kappa]))
    assert h_direct < 0.2                             # the lower mode is dominant here
    h_printed = lookup.bilinear(m, kappa, h_table)
    assert abs(h_printed - 0.5) < 0.05                # the printed interpolation lands near the local minimum of s
    assert abs(h_printed - h_direct) > 0.3
    assert abs(lookup.lookup_h(m, kappa, h_table) - h_direct) < 1e-3   # the symmetric reading does not
    # WD stays continuous and its interpolation accurate
    assert abs(lookup.lookup_wd(m, kappa, wd_table) - wd_direct) < WD_BOUND
    # one cell to the right both nodes hold the upper mode: accurate again
    m = 0.5 + DELTA / 2
    h_direct = float(lookup.merge_functions([m], [kappa])[0][0])
    assert abs(lookup.lookup_h(m, kappa, h_table) - h_direct) < 1e-3


# ----------------------------------------------------------------------------
# (c) the corrected weighting of m in Algorithm 1, by brute force
# ----------------------------------------------------------------------------

def test_corrected_weighting_minimises_wd_printed_does_not(tables):
    h_table, _ = tables
    nonsmooth = lookup.nonsmooth_cells(G)
    rng = np.random.default_rng(5)
    step = 1e-4
    h_grid = np.linspace(0.0, 1.0, int(round(1 / step)) + 1)
    checked = printed_checked = 0
    for _ in range(400):
        sign = rng.choice([-1.0, 1.0])
        a_min, a = sign * rng.uniform(0.01, 1.0, 2)    # alpha_min (fixed point, h multiplies it), alpha (candidate)
        kappa = rng.uniform(0.001, 0.999)
        m = a_min / (a_min + a)                        # corrected line 5
        m_printed = a / (a + a_min)                    # printed line 5
        i, j = min(int(m * G), G - 1), min(int(kappa * G), G - 1)
        if nonsmooth[i, j]:
            continue                                   # h is not smooth there (Lemma 1)
        wd = brute_force_wd(a_min, a, kappa, h_grid)
        k_best = int(np.argmin(wd))
        h_best, wd_best = h_grid[k_best], wd[k_best]
        # GSS-precise with the corrected weight is the brute-force minimiser (within the grid step) ...
        h_gss = merge_h(np.array([a_min]), np.array([a]), math.log(kappa), MERGE_EPS_PRECISE)
        assert abs(h_gss - h_best) <= step
        assert merge_h(np.array([m]), np.array([1 - m]), math.log(kappa), MERGE_EPS_PRECISE) == pytest.approx(
            h_gss, abs=1e-6)
        # ... and so is the looked-up h, within grid step + table resolution (h interpolation error
        # on cells not meeting N u Z: at most 0.0143 measured, next to the pitchfork; 1.4e-5 for kappa >= 1/4)
        h_lookup = lookup.lookup_h(m, kappa, h_table)
        assert abs(h_lookup - h_best) <= step + 0.02
        assert brute_force_wd(a_min, a, kappa, h_lookup) <= wd_best * (1 + 1e-3) + 1e-15
        checked += 1
        # the printed weight gives (about) 1 - h: far off unless m is close to 1/2
        if abs(m - 0.5) >= 0.1:
            h_printed = lookup.lookup_h(m_printed, kappa, h_table)
            assert abs(h_printed - h_best) > 0.1
            assert brute_force_wd(a_min, a, kappa, h_printed) > wd_best * 1.01
            printed_checked += 1
    assert checked > 300 and printed_checked > 200


def test_merge_pair_lookup_matches_merge_pair_precise(tables):
    rng = np.random.default_rng(6)
    nonsmooth = lookup.nonsmooth_cells(G)
    n = 0
    for _ in range(300):
        sign = rng.choice([-1.0, 1.0])
        a_m, a_n = sign * rng.uniform(0.01, 2.0, 2)
        log_kappa = math.log(rng.uniform(0.001, 0.999))
        m, kappa = a_m / (a_m + a_n), math.exp(log_kappa)
        if nonsmooth[min(int(m * G), G - 1), min(int(kappa * G), G - 1)]:
            continue
        h_ref, az_ref, wd_ref = merge_pair(np.array([a_m]), np.array([a_n]), log_kappa, MERGE_EPS_PRECISE)
        scale = (a_m + a_n) ** 2
        h, az, wd = lookup.merge_pair_lookup(np.array([a_m]), np.array([a_n]), log_kappa, "lookup-h", tables)
        assert isinstance(az, np.ndarray) and az.shape == (1,)
        assert abs(h - h_ref) <= 0.02
        assert wd >= wd_ref - 1e-12 * scale           # exact WD of a (slightly) suboptimal h
        assert wd <= wd_ref + WD_BOUND * scale
        # alpha_z and WD are those of merge_pair's formulas for this h
        a_z = a_m * kappa ** ((1 - h) ** 2) + a_n * kappa ** (h * h)
        assert az[0] == pytest.approx(a_z, rel=1e-12)
        h2, az2, wd2 = lookup.merge_pair_lookup(np.array([a_m]), np.array([a_n]), log_kappa, "lookup-wd", tables)
        assert h2 == h and az2[0] == az[0]
        assert abs(wd2 - wd_ref) <= WD_BOUND * scale  # interpolated WD, scaled by (alpha_m + alpha_n)^2
        assert wd2 == lookup.merge_wd_lookup(a_m, a_n, log_kappa, tables[1])
        n += 1
    assert n > 250


def test_merge_pair_lookup_input_checks(tables):
    with pytest.raises(ValueError, match="solver"):
        lookup.merge_pair_lookup(1.0, 1.0, -1.0, "gss", tables)
    with pytest.raises(ValueError, match="equal sign"):
        lookup.merge_pair_lookup(1.0, -1.0, -1.0, "lookup-h", tables)
    with pytest.raises(ValueError, match="alpha_m"):
        lookup.merge_pair_lookup(np.ones(2), 1.0, -1.0, "lookup-h", tables)
    with pytest.raises(ValueError, match="table"):
        lookup.lookup_h(0.5, 0.5, np.zeros((3, 4)))
    # both coefficients zero: nothing to merge
    h, az, wd = lookup.merge_pair_lookup(0.0, 0.0, -1.0, "lookup-h", tables)
    assert az == 0.0 and wd == 0.0


def test_bilinear_reproduces_nodes_and_is_exact_for_bilinear_functions():
    n = 10
    nodes = np.arange(n + 1) / n
    T = 3 + 2 * nodes[:, None] - 5 * nodes[None, :] + 7 * nodes[:, None] * nodes[None, :]
    rng = np.random.default_rng(7)
    for x, y in rng.random((200, 2)):
        assert lookup.bilinear(x, y, T) == pytest.approx(3 + 2 * x - 5 * y + 7 * x * y, abs=1e-13)
    for i, j in [(0, 0), (n, n), (3, 7), (n, 0)]:
        assert lookup.bilinear(nodes[i], nodes[j], T) == pytest.approx(T[i, j], abs=1e-15)
    assert lookup.bilinear(-0.5, 2.0, T) == T[0, n]          # clamped
    assert lookup.bilinear(np.nan, 0.0, T) == T[0, 0]


# ----------------------------------------------------------------------------
# (d) the compiled mirror
# ----------------------------------------------------------------------------

def test_fast_module_has_the_same_public_functions(fast):
    names = [n for n in dir(lookup) if not n.startswith("_") and callable(getattr(lookup, n))
             and getattr(getattr(lookup, n), "__module__", None) == "refsvm.lookup"]
    assert names
    for name in names:
        assert callable(getattr(fast, name)), name
    for name in ("compute_tables", "get_tables", "gss_h_grid", "merge_functions", "nonsmooth_cells"):
        assert getattr(fast, name) is getattr(lookup, name)        # re-exported, not re-implemented


def test_fast_lookup_agrees_with_reference(tables, fast):
    h_table, wd_table = tables
    rng = np.random.default_rng(8)
    m = np.concatenate([rng.random(2000), [0.0, 1.0, 0.5, -0.1, 1.1, np.nan, 1 - 1e-17]])
    kappa = np.concatenate([rng.random(2000), [0.0, 1.0, E2, 0.5, 2.0, 0.3, 1.0]])
    for table in (h_table, wd_table):
        ref = lookup.bilinear_array(m, kappa, table)
        np.testing.assert_allclose(fast.bilinear_array(m, kappa, table), ref, rtol=1e-12, atol=1e-15)
        np.testing.assert_array_equal(fast.bilinear_array(m, kappa, table), ref)     # same operations
        scalar = [lookup.bilinear(a, b, table) for a, b in zip(m, kappa)]
        np.testing.assert_array_equal(scalar, ref)
        np.testing.assert_array_equal([fast.bilinear(a, b, table) for a, b in zip(m, kappa)], ref)
    np.testing.assert_array_equal(fast.lookup_h_array(m, kappa, h_table), lookup.lookup_h_array(m, kappa, h_table))
    np.testing.assert_array_equal(fast.lookup_wd_array(m, kappa, wd_table),
                                  lookup.lookup_wd_array(m, kappa, wd_table))
    M2, K2 = m[:100].reshape(10, 10), kappa[:100].reshape(10, 10)
    assert fast.bilinear_array(M2, K2, h_table).shape == (10, 10)

    for _ in range(500):
        sign = rng.choice([-1.0, 1.0])
        a_m, a_n = sign * rng.uniform(0.0, 3.0, 2)
        log_kappa = -rng.exponential(2.0)
        for solver in lookup.SOLVERS:
            for wrap in (float, lambda v: np.array([v])):
                ref = lookup.merge_pair_lookup(wrap(a_m), wrap(a_n), log_kappa, solver, tables)
                got = fast.merge_pair_lookup(wrap(a_m), wrap(a_n), log_kappa, solver, tables)
                assert got[0] == pytest.approx(ref[0], rel=1e-12, abs=1e-15)
                np.testing.assert_allclose(got[1], ref[1], rtol=1e-12, atol=1e-15)
                assert type(got[1]) is type(ref[1])
                assert got[2] == pytest.approx(ref[2], rel=1e-12, abs=1e-15)
        assert fast.merge_wd_lookup(a_m, a_n, log_kappa, wd_table) == pytest.approx(
            lookup.merge_wd_lookup(a_m, a_n, log_kappa, wd_table), rel=1e-12, abs=1e-15)


def test_fast_input_checks(tables, fast):
    with pytest.raises(ValueError, match="solver"):
        fast.merge_pair_lookup(1.0, 1.0, -1.0, "gss", tables)
    with pytest.raises(ValueError, match="equal sign"):
        fast.merge_pair_lookup(1.0, -1.0, -1.0, "lookup-wd", tables)
    with pytest.raises(ValueError, match="table"):
        fast.lookup_wd(0.5, 0.5, np.zeros((3, 4)))
    ro = tables[0].copy()
    ro.setflags(write=False)                                  # cached tables are read-only
    assert fast.lookup_h(0.3, 0.4, ro) == lookup.lookup_h(0.3, 0.4, ro)


# ----------------------------------------------------------------------------
# (e) caching and determinism
# ----------------------------------------------------------------------------

@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("REFSVM_CACHE", str(tmp_path / "cache"))
    lookup.clear_memory_cache()
    yield tmp_path / "cache"
    lookup.clear_memory_cache()


def test_tables_are_deterministic():
    a = lookup.compute_tables(16)
    b = lookup.compute_tables(16)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert lookup.table_checksum(*a) == lookup.table_checksum(*b)
    assert lookup.table_checksum(*a) != lookup.table_checksum(*lookup.compute_tables(17))


def test_get_tables_caches_on_disk_and_in_memory(cache):
    path = lookup.cache_path(8)
    assert path.parent == cache
    assert "G8" in path.name and f"v{lookup.FORMAT_VERSION}" in path.name
    tables = lookup.get_tables(8)
    assert path.exists()
    expected = lookup.compute_tables(8)
    for got, exp in zip(tables, expected):
        np.testing.assert_array_equal(got, exp)
        assert not got.flags.writeable
    assert lookup.get_tables(8) is tables                     # in-process cache
    with np.load(path) as f:
        assert str(f["sha256"]) == lookup.table_checksum(*expected)
    lookup.clear_memory_cache()
    mtime = path.stat().st_mtime_ns
    again = lookup.get_tables(8)                              # from disk, not recomputed
    assert again is not tables
    assert path.stat().st_mtime_ns == mtime
    for got, exp in zip(again, expected):
        np.testing.assert_array_equal(got, exp)


def test_checksum_mismatch_triggers_regeneration(cache):
    lookup.get_tables(8)
    path = lookup.cache_path(8)
    with np.load(path) as f:
        contents = {k: f[k] for k in f.files}
    contents["h"] = contents["h"].copy()
    contents["h"][3, 4] += 1e-3                               # tampered table, stale checksum
    with open(path, "wb") as fh:
        np.savez(fh, **contents)
    lookup.clear_memory_cache()
    with pytest.warns(RuntimeWarning, match="checksum"):
        h_table, wd_table = lookup.get_tables(8)
    expected = lookup.compute_tables(8)
    np.testing.assert_array_equal(h_table, expected[0])
    with np.load(path) as f:                                  # the file was rewritten
        np.testing.assert_array_equal(f["h"], expected[0])
        assert str(f["sha256"]) == lookup.table_checksum(*expected)


def test_unreadable_cache_file_is_regenerated(cache):
    path = lookup.cache_path(6)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a zip file")
    with pytest.warns(RuntimeWarning, match="unreadable"):
        h_table, _ = lookup.get_tables(6)
    np.testing.assert_array_equal(h_table, lookup.compute_tables(6)[0])
    lookup.clear_memory_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("error")                        # now intact: loads without a warning
        lookup.get_tables(6)


def test_unwritable_cache_dir_still_returns_tables(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("REFSVM_CACHE", str(blocker / "sub"))  # a directory below a regular file
    lookup.clear_memory_cache()
    try:
        with pytest.warns(RuntimeWarning, match="cannot write"):
            h_table, _ = lookup.get_tables(4)
        np.testing.assert_array_equal(h_table, lookup.compute_tables(4)[0])
    finally:
        lookup.clear_memory_cache()


def test_default_cache_dir(monkeypatch):
    monkeypatch.delenv("REFSVM_CACHE", raising=False)
    assert lookup.cache_dir() == Path.home() / ".cache" / "refsvm"


def test_module_main_regenerates_and_prints_checksum(cache):
    env = dict(os.environ, REFSVM_CACHE=str(cache))
    # run outside the repository so that the installed package is imported (as in the tests)
    out = subprocess.run([sys.executable, "-m", "refsvm.lookup", "--grid-size", "8"], env=env, cwd=cache.parent,
                         capture_output=True, text=True, check=True).stdout
    checksum = lookup.table_checksum(*lookup.compute_tables(8))
    assert f"sha256      {checksum}" in out
    assert lookup.cache_path(8).exists()


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "400"])
def test_grid_size_validation(bad):
    with pytest.raises(ValueError, match="grid_size"):
        lookup.compute_tables(bad)


# ----------------------------------------------------------------------------
# plotting
# ----------------------------------------------------------------------------

def test_plot_merge_functions(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from refsvm.plotting import plot_merge_functions

    fig, (ax_h, ax_wd) = plot_merge_functions(grid_size=20)
    fig.savefig(tmp_path / "fig2.png")
    assert (tmp_path / "fig2.png").stat().st_size > 0
    plt.close(fig)
    fig2 = plt.figure()
    axes = (fig2.add_subplot(1, 2, 1, projection="3d"), fig2.add_subplot(1, 2, 2, projection="3d"))
    assert plot_merge_functions(grid_size=10, ax=axes)[0] is fig2
    plt.close(fig2)
    with pytest.raises(ValueError, match="3-D"):
        plot_merge_functions(grid_size=10, ax=(plt.gca(), plt.gca()))
    plt.close("all")


# ----------------------------------------------------------------------------
# the symmetric reading of the h table (correction of the printed method)
# ----------------------------------------------------------------------------

def _brute_force_h(m, kappa, n_grid=200_001):
    """argmax over a fine grid of h in [0, 1] of ||alpha_z(h)||^2 for alpha = (m, 1-m); independent of refsvm."""
    h = np.linspace(0.0, 1.0, n_grid)
    s = m * kappa ** ((1.0 - h) ** 2) + (1.0 - m) * kappa ** (h ** 2)
    wd = m * m + (1 - m) ** 2 + 2 * m * (1 - m) * kappa - s * s
    return h[np.argmax(s)], wd.min(), h


@pytest.mark.parametrize("module", ["refsvm.lookup", "refsvm._fast.lookup"])
def test_symmetric_h_lookup_in_the_straddling_cell(module):
    """Just below m = 1/2 with kappa < e^-2 the looked-up h is on the right branch.

    Interpolating across m = 1/2 (the printed method) blends the two modes of
    Lemma 1; ``lookup_h`` uses h(m, kappa) = 1 - h(1 - m, kappa) instead.  The
    oracle is a brute-force maximisation over a grid of h, and the weight
    degradation of the looked-up h must be within 1 % of the optimum.
    """
    import importlib

    lk = importlib.import_module(module)
    h_table, _ = lk.get_tables()
    G = h_table.shape[0] - 1
    rng = np.random.default_rng(7)
    printed_bad = 0
    for _ in range(40):
        m = 0.5 - rng.uniform(0.0, 1.0) / G          # inside the cell [1/2 - 1/G, 1/2)
        kappa = math.exp(-2.0) * rng.uniform(0.0, 0.9)
        h_best, wd_best, _ = _brute_force_h(m, kappa)
        h = lk.lookup_h(m, kappa, h_table)
        s = m * kappa ** ((1 - h) ** 2) + (1 - m) * kappa ** (h ** 2)
        wd = m * m + (1 - m) ** 2 + 2 * m * (1 - m) * kappa - s * s
        assert wd <= wd_best * 1.01 + 1e-12, (m, kappa, h, h_best)
        hp = lk.bilinear(m, kappa, h_table)           # the printed way, for contrast
        sp = m * kappa ** ((1 - hp) ** 2) + (1 - m) * kappa ** (hp ** 2)
        printed_bad += (m * m + (1 - m) ** 2 + 2 * m * (1 - m) * kappa - sp * sp) > wd_best * 1.01 + 1e-12
    assert printed_bad > 10   # the printed interpolation really is wrong here (the test can tell)


def test_symmetric_h_lookup_array_matches_scalar():
    from refsvm import lookup as lk

    h_table, _ = lk.get_tables()
    rng = np.random.default_rng(3)
    m = rng.uniform(0, 1, 500)
    kappa = rng.uniform(0, 1, 500)
    scalar = np.array([lk.lookup_h(a, b, h_table) for a, b in zip(m, kappa)])
    np.testing.assert_array_equal(lk.lookup_h_array(m, kappa, h_table), scalar)
