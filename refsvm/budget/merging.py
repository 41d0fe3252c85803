"""Budget maintenance by merging (Algorithm 2, "Merging", eq. 16-19 of Wang et al. 2012).

The merging coefficient h of a pair (golden-section search, GSS-precise's Newton polish), the
merge of the smallest SV with its partner of least weight degradation (any of
:data:`MERGE_SOLVERS`), and the tie rule of that partner search.  Part of :mod:`refsvm.budget`
(every name is importable from there; the choices where the paper is silent, multi-class merging
and the half of the segment searched, are documented in its docstring); compiled mirror:
``refsvm/_fast/budget_merging.pxi`` (with the partner pruning of ``pruning.pxi``).
"""

import math

import numpy as np

from ..constants import GOLDEN_RATIO, MERGE_EPS_PRECISE, UNIT_ROUNDOFF
from ..kernels import sq_dist
from .removal import remove_sv, select_smallest

#: Default precision of the golden-section search (Wang et al. use 0.01).
MERGE_EPS = 0.01

#: How merging places z (``merge_solver``): golden-section search at the
#: precision ``merge_eps`` (``"gss"``, default 0.01, Wang et al.'s standard) or at
#: ``MERGE_EPS_PRECISE`` (``"gss-precise"``, ``merge_eps`` ignored), or table
#: lookup (Glasmachers & Qaadan; binary models only, ``merge_eps`` ignored).
MERGE_SOLVERS = ("gss", "gss-precise", "lookup-h", "lookup-wd")
#: The solvers that read the precomputed tables of :mod:`refsvm.lookup`.
LOOKUP_SOLVERS = ("lookup-h", "lookup-wd")
#: GSS-precise (:func:`merge_h` with ``polish=True``): the golden-section search stops at this
#: bracket width, where its comparisons of the objective are still decided by the objective and
#: not by rounding, and :func:`polish_merge_h` takes ``MERGE_POLISH_STEPS`` Newton steps on g'.
MERGE_POLISH_WIDTH = 1e-3
MERGE_POLISH_STEPS = 4
#: Near duplicates: for ``log kappa > -MERGE_NEAR_LOG_KAPPA`` the search for h compares the
#: cancellation-free gain :func:`merge_gain` instead of ``g`` (:func:`merge_search_objective`).
MERGE_NEAR_LOG_KAPPA = 1e-6


# ----------------------------------------------------------------------------
# merging (Algorithm 2, "Merging", eq. 16-19)
# ----------------------------------------------------------------------------

def golden_section_search(f, lo, hi, eps):
    """Maximise a unimodal ``f`` on ``[lo, hi]`` until the bracket is narrower than ``eps``.

    Returns the midpoint of the final bracket.  The compiled mirror performs
    exactly the same comparisons in the same order.
    """
    if not eps > 0.0:                     # eps <= 0 (or NaN) would never end the loop
        raise ValueError(f"merge_eps must be positive, got {eps!r}")
    a, b = lo, hi
    c = b - GOLDEN_RATIO * (b - a)
    d = a + GOLDEN_RATIO * (b - a)
    fc, fd = f(c), f(d)
    while b - a > eps:
        if fc >= fd:          # the maximum lies in [a, d]
            b, d, fd = d, c, fc
            c = b - GOLDEN_RATIO * (b - a)
            fc = f(c)
        else:                 # the maximum lies in [c, b]
            a, c, fc = c, d, fd
            d = a + GOLDEN_RATIO * (b - a)
            fd = f(d)
    return 0.5 * (a + b)


def class_dot(a, b):
    """``sum_i a[i] b[i]`` over the classes, added in index order from 0.

    Written out instead of ``numpy.dot``: for short vectors numpy hands the
    product to BLAS, whose summation (with or without fused multiply-add)
    depends on the CPU kernel OpenBLAS picks.  The merging objective decides
    the golden-section search's comparisons, so both paths must compute it the
    same way on every machine; :mod:`refsvm._fast.kernels` ``seq_dot`` is the
    same loop.  Scalars count as vectors of length 1.
    """
    s = 0.0
    for a_i, b_i in zip(np.atleast_1d(a).tolist(), np.atleast_1d(b).tolist()):
        s += a_i * b_i
    return s


def merge_objective(h, alpha_m, alpha_n, log_kappa):
    """``g(h) = ||alpha_m kappa^((1-h)^2) + alpha_n kappa^(h^2)||^2`` = ``||alpha_z(h)||^2``."""
    alpha_z = alpha_m * math.exp((1.0 - h) * (1.0 - h) * log_kappa) + alpha_n * math.exp(h * h * log_kappa)
    return class_dot(alpha_z, alpha_z)


def merge_gain(h, alpha_m, alpha_n, log_kappa):
    """``G(h) = g(h) - ||alpha_m + alpha_n||^2 = 2 S.D + D.D`` without cancellation, for near duplicates.

    ``S = alpha_m + alpha_n``, ``D = alpha_m expm1((1-h)^2 L) + alpha_n expm1(h^2 L)``, ``L = log kappa``
    (``alpha_z(h) = S + D``).  Near ``kappa = 1`` ``g`` varies with h by about ``2 |L| ||S||^2`` times
    a quadratic in h, below its own rounding (``~8 u ||S||^2``) once ``|L| w^2 < ~10 u`` at bracket
    width w; ``G`` holds that variation with a relative error of a few ``u`` (expm1 and each product
    err by an ulp; ``2 S.D`` has no cancellation for an equal-sign binary pair), so the search's
    comparisons are decided by the objective down to widths ~1e-7 whatever ``L``.  At ``L = 0``
    ``G = 0`` for every h, as ``g`` is constant: the same comparisons as ``g``'s.  Same order of
    operations in the compiled twin (``c_merge_gain``).
    """
    D = alpha_m * math.expm1((1.0 - h) * (1.0 - h) * log_kappa) + alpha_n * math.expm1(h * h * log_kappa)
    return 2.0 * class_dot(alpha_m + alpha_n, D) + class_dot(D, D)


def merge_search_objective(alpha_m, alpha_n, log_kappa):
    """The function of h whose comparisons decide :func:`merge_h`'s half and search.

    ``g`` (:func:`merge_objective`), or for near duplicates, ``log_kappa > -MERGE_NEAR_LOG_KAPPA``,
    the gain :func:`merge_gain` (``g`` less a constant: the same maximiser, the same comparisons in
    exact arithmetic).  Why: on points 1e-6..1e-9 apart (``|L|`` ~ 1e-12..1e-18) the comparisons of
    ``g`` were rounding noise, so h was anywhere in the half (0.018 against the maximiser 0.105) and
    moved with the inputs' last bits; the merged point, ``h ||x_m - x_n||`` off, parted the two paths
    by 2e-9..2e-8 of the decision scale (BSCA).  The threshold: ``g``'s comparisons at bracket
    width w are rounding once ``|L| w^2 < ~10 u``; the narrowest bracket the default solvers compare
    at is ``MERGE_POLISH_WIDTH = 1e-3`` (``"gss"``: 0.01), where that is ``|L| ~ 1e-9``; 1e-6 keeps
    a factor of 1000 (above it both forms take the same decisions but at exact near-ties, so models
    with ``kappa`` away from 1 are unchanged).  Exact comparison of ``log_kappa`` (bitwise the same
    number on both paths).
    """
    if log_kappa > -MERGE_NEAR_LOG_KAPPA:
        return lambda h: merge_gain(h, alpha_m, alpha_n, log_kappa)  # noqa: E731
    return lambda h: merge_objective(h, alpha_m, alpha_n, log_kappa)  # noqa: E731


def merge_h(alpha_m, alpha_n, log_kappa, eps, polish=False):
    """The merging coefficient ``h`` of eq. (18): ``z = h x_m + (1-h) x_n``.

    ``log_kappa = log k(x_m, x_n) = -gamma ||x_m - x_n||^2``.  Searches the half
    of ``[0, 1]`` whose end point is better (see :mod:`refsvm.budget`), comparing
    :func:`merge_search_objective` (near duplicates: :func:`merge_gain`).  ``polish``
    (GSS-precise): the search to ``MERGE_POLISH_WIDTH`` (``eps`` ignored), then
    :func:`polish_merge_h` within that width of its result, in the half.
    """
    g = merge_search_objective(alpha_m, alpha_n, log_kappa)
    lo, hi = (0.5, 1.0) if g(1.0) >= g(0.0) else (0.0, 0.5)
    if not polish:
        return golden_section_search(g, lo, hi, eps)
    h = golden_section_search(g, lo, hi, MERGE_POLISH_WIDTH)
    return polish_merge_h(h, alpha_m, alpha_n, log_kappa, max(lo, h - MERGE_POLISH_WIDTH),
                          min(hi, h + MERGE_POLISH_WIDTH))


def polish_merge_h(h, alpha_m, alpha_n, log_kappa, lo, hi):
    """``MERGE_POLISH_STEPS`` Newton steps on ``g'(h) = 0`` from ``h``, each clamped to ``[lo, hi]``.

    Why: a golden-section search to 1e-10 compares ``g(c)`` with ``g(d)`` long after they differ by
    less than their rounding (``g`` is flat to ``u g`` within ~1e-8 of its maximum), so the
    comparisons follow the inputs' last bits and the two paths' h differed by up to 1e-8, the
    merged point with it (BSGD runs 2e-8 .. 1e-7 apart).  ``g'`` crosses zero with slope ``g''``:
    its root moves by about ``u`` with the inputs.  With ``A = kappa^((1-h)^2)``,
    ``B = kappa^(h^2)``, ``L = log kappa``: ``alpha_z = a_m A + a_n B``,
    ``alpha_z' = a_m A' + a_n B'`` (``A' = -2 (1-h) L A``, ``B' = 2 h L B``), ``alpha_z''`` with
    ``A'' = (2 L + 4 (1-h)^2 L^2) A``, ``B'' = (2 L + 4 h^2 L^2) B``; the step is
    ``-(alpha_z . alpha_z') / (alpha_z' . alpha_z' + alpha_z . alpha_z'')`` (``g'/g''``).
    Discrete decision: a step is taken only while the curvature is negative (a maximum; 0 for
    ``kappa = 1``, identical points: the search's h stays), exact comparison; the number of steps
    is fixed (no convergence test).  From within 1e-3 Newton reaches the root to rounding in
    2-3 steps (error ``C e^2``, ``C = |g^(3) / 2 g''|``).  The compiled twin runs the same operations.
    """
    L = log_kappa
    for _ in range(MERGE_POLISH_STEPS):
        u = 1.0 - h
        A = math.exp(u * u * L)
        B = math.exp(h * h * L)
        a_z = alpha_m * A + alpha_n * B
        a_1 = alpha_m * ((-2.0 * u * L) * A) + alpha_n * ((2.0 * h * L) * B)
        a_2 = (alpha_m * ((2.0 * L + 4.0 * (u * u) * (L * L)) * A)
               + alpha_n * ((2.0 * L + 4.0 * (h * h) * (L * L)) * B))
        curvature = class_dot(a_1, a_1) + class_dot(a_z, a_2)
        if not curvature < 0.0:
            break
        h = min(max(h - class_dot(a_z, a_1) / curvature, lo), hi)
    return h


def merge_pair(alpha_m, alpha_n, log_kappa, eps, polish=False):
    """Merge ``alpha_m phi(x_m) + alpha_n phi(x_n)`` into ``alpha_z phi(z)``.

    Returns ``(h, alpha_z, WD)`` with ``alpha_z = alpha_m k(x_m,z) + alpha_n k(x_n,z)``
    (the solution of eq. 19), ``k(x_m, z) = kappa^((1-h)^2)``, ``k(x_n, z) = kappa^(h^2)``
    and ``WD = ||alpha_m||^2 + ||alpha_n||^2 + 2 kappa alpha_m.alpha_n - ||alpha_z||^2``.
    ``polish``: GSS-precise's h (:func:`merge_h`).
    """
    h = merge_h(alpha_m, alpha_n, log_kappa, eps, polish)
    alpha_z = alpha_m * math.exp((1.0 - h) * (1.0 - h) * log_kappa) + alpha_n * math.exp(h * h * log_kappa)
    kappa = math.exp(log_kappa)
    wd = (class_dot(alpha_m, alpha_m) + class_dot(alpha_n, alpha_n)
          + 2.0 * kappa * class_dot(alpha_m, alpha_n) - class_dot(alpha_z, alpha_z))
    return h, alpha_z, max(float(wd), 0.0)


def check_merge_solver(merge_solver, binary=True):
    """Validate ``merge_solver``; lookup solvers need a binary model.  Returns it."""
    if not isinstance(merge_solver, str) or merge_solver not in MERGE_SOLVERS:
        raise ValueError(f"merge_solver must be one of {MERGE_SOLVERS}, got {merge_solver!r}")
    if merge_solver in LOOKUP_SOLVERS and not binary:
        raise ValueError(f"merge_solver={merge_solver!r} needs a binary model (the lookup tables cover "
                         f"equal-sign pairs, m in [0, 1]); use 'gss' or 'gss-precise' for multi-class")
    return merge_solver


def merge_solver_eps(merge_solver, merge_eps):
    """The GSS precision a solver uses: ``merge_eps`` for ``"gss"``, ``MERGE_EPS_PRECISE`` otherwise."""
    return merge_eps if merge_solver == "gss" else MERGE_EPS_PRECISE


def merge_smallest(SV, alpha, n_sv, gamma, eps, merge_solver, tables, h_out=None, tie_unit=0.0, errors=None):
    """Alg. 2, merging, of :func:`maintain_merge` with resolved arguments (no checks).

    ``eps`` is the precision the solver uses (:func:`merge_solver_eps`), ``tables`` the
    lookup tables of a lookup solver (``None`` for GSS).  Returns ``(n_sv, m, n, WD)``.
    ``h_out`` (a mutable sequence, or None): receives in ``h_out[0]`` the h that placed z
    (eq. 18; NaN when ``m`` was removed for want of a partner), the value the merge used.
    ``tie_unit``, ``errors``: m's selection ties (:func:`select_smallest`; BSCA passes its
    ``selection_tie_unit`` and the coefficients' bounds ``e_j``); 0 / None (BSGD): the exact argmin.
    """
    binary = alpha.shape[1] == 1
    lk = _lookup() if tables is not None else None
    m, wd_removal = select_smallest(SV, alpha, n_sv, "rbf", gamma, 0, 0.0, tie_unit, errors)  # Alg. 2, merging, line 1: fix m
    solved = {}                                                             # n -> (WD, h, alpha_z, log kappa)
    for n in range(n_sv):                                                   # Alg. 2, merging, line 1: choose n
        if n == m or (binary and alpha[m, 0] * alpha[n, 0] < 0.0):
            continue
        log_kappa = -gamma * sq_dist(SV[m], SV[n])
        if merge_solver == "lookup-wd":                                     # G&Q Alg. 1, lines 5-9 by lookup
            h, alpha_z, wd = 0.0, None, lk.merge_wd_lookup(alpha[m, 0], alpha[n, 0], log_kappa, tables[1])
        elif merge_solver == "lookup-h":                                    # G&Q Alg. 1, lines 5-9, h by lookup
            h, alpha_z, wd = lk.merge_pair_lookup(alpha[m], alpha[n], log_kappa, "lookup-h", tables)
        else:
            h, alpha_z, wd = merge_pair(alpha[m], alpha[n], log_kappa, eps, merge_solver == "gss-precise")  # eq. 18-19
        solved[n] = (wd, h, alpha_z, log_kappa)
    best_n = least_wd_partner({n: v[0] for n, v in solved.items()}, alpha, m, merge_solver)  # least WD, ties
    if best_n < 0:                                   # no partner of equal sign: remove m
        if h_out is not None:
            h_out[0] = math.nan
        return remove_sv(SV, alpha, n_sv, m), m, -1, wd_removal
    best_wd, best_h, best_alpha_z, best_log_kappa = solved[best_n]
    if merge_solver == "lookup-wd":                  # G&Q Alg. 1, lines 13-14: h only for the chosen partner
        best_h, best_alpha_z, best_wd = lk.merge_pair_lookup(alpha[m], alpha[best_n], best_log_kappa,
                                                             "lookup-h", tables)
    SV[m] = best_h * SV[m] + (1.0 - best_h) * SV[best_n]                   # eq. 18: z = h x_m + (1-h) x_n
    alpha[m] = best_alpha_z                                                 # eq. 19
    if h_out is not None:
        h_out[0] = float(best_h)
    n_sv = remove_sv(SV, alpha, n_sv, best_n)                               # Alg. 2, merging, line 2
    return n_sv, m, best_n, best_wd


def wd_tie_unit(merge_solver, c):
    """The factor of a candidate's tie tolerance (:func:`least_wd_partner`) for ``c`` coefficients per SV.

    ``merge_solver="lookup-wd"``: ``64 u``, relative to the candidate's WD; every other solver:
    ``(64 + 8 c) u``, relative to ``||alpha_m||^2 + ||alpha_n||^2`` (``u`` = :data:`UNIT_ROUNDOFF`;
    small integers times a power of two, so both paths get the same number exactly).  Twice the
    rounding bounds of :func:`least_wd_partner`'s docstring (``(32 + 4 c) u`` and ``~10 u``), so that
    inputs that differ between the paths by a few ulps (BSCA's coefficients) stay inside as well.
    """
    return (64.0 if merge_solver == "lookup-wd" else 64.0 + 8.0 * c) * UNIT_ROUNDOFF


def least_wd_partner(wds, alpha, m, merge_solver):
    """The partner of ``m`` among the solved candidates ``wds`` (``{n: WD}``): the lowest index whose
    WD is within rounding of the least.  Returns -1 when no WD is finite (``m`` is then removed).

    Candidates holding the same row have WD exactly 0, and points a rounding error apart nearly so;
    the computed values are rounding noise, and an exact argmin over them lets the last bits (which
    differ between the paths when their coefficients do) pick the slot.  So WDs are compared with a
    tolerance from the error bound of their computation.  With ``A = ||alpha_m||^2``,
    ``B = ||alpha_n||^2``, ``u = 2^-53``, GSS and Lookup-H compute
    ``WD = ((A + B) + 2 kappa alpha_m.alpha_n) - ||alpha_z||^2`` (cancellation: WD can be 0 while the
    terms are of order ``A + B``); each dot product over ``c`` classes errs by at most ``c u`` times
    the sum of its terms' magnitudes, ``kappa = exp(log kappa)`` and the powers ``kappa^((1-h)^2)``,
    ``kappa^(h^2)`` by an ulp plus ``4 u |x| e^x <= 1.5 u`` for their exponent ``x``, and with
    ``2 kappa |alpha_m.alpha_n| <= A + B`` and ``||alpha_z||^2 <= 2 (A + B)`` the total is at most
    ``(32 + 4 c) u (A + B)``.  Lookup-WD's ``(|a_m| + |a_n|)^2 WD-table(m, kappa)`` has no
    cancellation (non-negative terms): its error is below ``10 u WD``.  The tolerance ``tol_n`` is
    twice that (:func:`wd_tie_unit`).

    The rule: ``U = min_n (WD_n + tol_n)`` over the finite WDs; the ties are the candidates with
    ``WD_n - tol_n <= U`` (the least WD among them); the partner is the lowest index among the ties.
    It depends on the set of candidates only, not on the order in which they are solved, so the
    compiled twin's pruned scan (which solves the likeliest candidate first and skips a candidate
    only when its lower bound less ``tol_n`` exceeds ``U``) picks the same partner.  Where no other
    WD is within ``tol_n + tol_best`` of the least the rule is the exact argmin (models unchanged).
    """
    unit = wd_tie_unit(merge_solver, alpha.shape[1])
    am2 = class_dot(alpha[m], alpha[m])
    bounds = {}
    for n, wd in wds.items():
        if wd < math.inf:                                    # inf, NaN (overflow): never chosen
            tol = unit * wd if merge_solver == "lookup-wd" else unit * (am2 + class_dot(alpha[n], alpha[n]))
            bounds[n] = (wd - tol, wd + tol)
    upper = min((hi for _, hi in bounds.values()), default=math.inf)
    return min((n for n, (lo, _) in bounds.items() if lo <= upper), default=-1)


def _lookup():
    from .. import lookup  # lazy: refsvm.lookup imports this module
    return lookup
