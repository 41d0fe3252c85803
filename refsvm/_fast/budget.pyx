# cython: language_level=3
"""Budget maintenance: removal, projection and merging (compiled mirror of :mod:`refsvm.budget`).

Same public functions, same signatures, same in-place list operations as the
reference (section 6 and Algorithm 2 of Wang, Crammer, Vucetic 2012; the
choices where the paper is silent are documented in :mod:`refsvm.budget`):

* remove(p): the last SV moves into slot ``p``;
* merge(m, n): ``z`` is written into slot ``m``, then remove(n);
* argmin ties go to the lowest index.

Each ``def`` converts / validates its arguments and runs a ``cdef ... nogil``
core (declared in ``budget.pxd``) that :mod:`refsvm._fast.bsgd` calls directly.

Floating-point fidelity to the reference (what makes the discrete decisions
agree): sums over features and classes follow numpy's pairwise order,
dot products over the classes are sequential sums (``seq_dot`` = the reference's ``class_dot``),
``(1 - h)^2`` is ``(1 - h) * (1 - h)`` in both paths, and every ``kappa``
power is ``exp(a * log_kappa)`` with libm's ``exp`` (as ``math.exp``).  The
golden-section search makes exactly the reference's comparisons, so ``h`` and
the merged SVs are bitwise equal to the reference's on the same inputs.

Three files, one module: this one mirrors :mod:`refsvm.budget`; ``pruning.pxi`` holds the
partner pruning that exists only here (for binary models :func:`c_maintain_merge` skips the
candidates whose lower bound on the weight degradation exceeds the best WD found so far; the
partner, h and the merged SV are the plain scan's bitwise: docs/lookup.rst, "Partner pruning";
tests/budget/test_merge_pruning.py); ``linalg.pxi`` the dense linear algebra of projection.  They are
``include``-d, so the bounds stay inline C in the merge's scan loop and every call stays direct.

Projection.  :func:`maintain_projection` has no state and solves
``(K_p + ridge I) x = k_p`` from scratch by LU with partial pivoting (linalg.pxi).  Inside BSGD the
compiled path instead keeps the inverse of ``K + ridge I`` of the current SVs up
to date in O(B^2) per step (:func:`kinv_append`,
:func:`c_maintain_projection_inverse`), see those functions.

The constants, the dispatcher :func:`maintain` (over this module's steps) and the Python-level
:func:`golden_section_search` are the reference's (imported, not redefined); the C search of
merging, :func:`_gss_merge`, makes the same comparisons.
"""

import numpy as np

from refsvm.sparse import SparseRows

from libc.math cimport exp, fabs, sqrt, INFINITY, NAN
from libc.float cimport DBL_MAX
from libc.string cimport memcpy

from refsvm._fast.kernels cimport (KERNEL_RBF, seq_dot, kernel_code, kernel_self,
                                   kernel_value, pw_dot, pw_sq_sum)
from refsvm._fast.sparse cimport (Store, store_export, store_fill, store_free, store_init, store_kernel,
                                  store_log_kappa_row, store_merge, store_move, store_self,
                                  store_sq_dist)
from refsvm._fast.lookup cimport (SOLVER_LOOKUP_H, bilinear_ptr, lookup_h_c, merge_pair_lookup_c,
                                  merge_wd_lookup_c, relative_weight)

from refsvm.budget import (COMPARE_SOLVERS, GOLDEN_RATIO, LOOKUP_SOLVERS, MAINTENANCE,  # noqa: F401
                           MERGE_EPS, MERGE_EPS_PRECISE, MERGE_POLISH_STEPS, MERGE_POLISH_WIDTH, MERGE_SOLVERS,
                           PROJECTION_RIDGE, MaintenanceOptions,
                           check_merge_solver, golden_section_search, maintain_with, merge_solver_eps,
                           wd_tie_unit)
from refsvm.kernels import Kernel

# C copies of the reference's constants, read once at import
cdef double GR = GOLDEN_RATIO
cdef double EPS_PRECISE = MERGE_EPS_PRECISE
cdef double POLISH_WIDTH = MERGE_POLISH_WIDTH                   # GSS-precise: search width, Newton steps
cdef int POLISH_STEPS = MERGE_POLISH_STEPS
cdef double TIE_UNIT_LOOKUP_WD = wd_tie_unit("lookup-wd", 1)   # tie tolerances (refsvm.budget.least_wd_partner):
cdef double TIE_UNIT_BASE = wd_tie_unit("gss", 0)              # (64 + 8 c) u = BASE + c PER_CLASS
cdef double TIE_UNIT_PER_CLASS = wd_tie_unit("gss", 1) - wd_tie_unit("gss", 0)


# ----------------------------------------------------------------------------
# C cores: list operations shared by all strategies
# ----------------------------------------------------------------------------

cdef Py_ssize_t c_remove_sv(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv,
                            Py_ssize_t p) noexcept nogil:
    """remove(p): the last SV moves into slot ``p``.  Returns ``n_sv - 1``."""
    cdef Py_ssize_t last = n_sv - 1, k
    if p != last:
        store_move(SV, p, last)
        for k in range(alpha.shape[1]):
            alpha[p, k] = alpha[last, k]
    return last


cdef Py_ssize_t _smallest_square(const double[:, ::1] alpha, Py_ssize_t n_sv) noexcept nogil:
    """The first ``j`` of least ``alpha[j, 0]^2`` (-1 if a square is NaN: the caller's plain loop
    decides).  Four running minima with their first indices (selects, no branch) break the loop's
    chain of dependent comparisons; the least of the four, lowest index among equals, is the answer."""
    cdef double v0 = INFINITY, v1 = INFINITY, v2 = INFINITY, v3 = INFINITY, v, low
    cdef Py_ssize_t j, n4 = n_sv - n_sv % 4, i0 = -1, i1 = -1, i2 = -1, i3 = -1, best
    cdef bint nan = False
    for j in range(0, n4, 4):
        v = alpha[j, 0] * alpha[j, 0]
        nan |= v != v
        i0 = j if v < v0 else i0
        v0 = v if v < v0 else v0
        v = alpha[j + 1, 0] * alpha[j + 1, 0]
        nan |= v != v
        i1 = j + 1 if v < v1 else i1
        v1 = v if v < v1 else v1
        v = alpha[j + 2, 0] * alpha[j + 2, 0]
        nan |= v != v
        i2 = j + 2 if v < v2 else i2
        v2 = v if v < v2 else v2
        v = alpha[j + 3, 0] * alpha[j + 3, 0]
        nan |= v != v
        i3 = j + 3 if v < v3 else i3
        v3 = v if v < v3 else v3
    for j in range(n4, n_sv):
        v = alpha[j, 0] * alpha[j, 0]
        nan |= v != v
        i0 = j if v < v0 else i0
        v0 = v if v < v0 else v0
    if nan:
        return -1
    low, best = v0, i0
    if v1 < low or (v1 == low and i1 >= 0 and (best < 0 or i1 < best)):
        low, best = v1, i1
    if v2 < low or (v2 == low and i2 >= 0 and (best < 0 or i2 < best)):
        low, best = v2, i2
    if v3 < low or (v3 == low and i3 >= 0 and (best < 0 or i3 < best)):
        low, best = v3, i3
    return best if best >= 0 else 0                                  # all inf: the plain loop's 0


cdef Py_ssize_t c_select_smallest(const Store* SV, const double[:, ::1] alpha,
                                  Py_ssize_t n_sv, int kernel, double gamma, double degree,
                                  double coef0, double* norm_min) noexcept nogil:
    """``p = argmin_j ||alpha_j||^2 k(x_j, x_j)`` (sec. 6.1); first index on ties."""
    cdef Py_ssize_t j, best = 0, c = alpha.shape[1]
    cdef double v, best_v = INFINITY
    if c == 1 and kernel == KERNEL_RBF and n_sv > 0:                 # alpha_j^2 (k = 1): see _smallest_square
        best = _smallest_square(alpha, n_sv)
        if best >= 0:
            norm_min[0] = (alpha[best, 0] * alpha[best, 0]) * 1.0
            return best
        best = 0
    for j in range(n_sv):
        v = pw_sq_sum(&alpha[j, 0], c) * store_self(SV, j, kernel, gamma, degree, coef0)
        if j == 0 or v < best_v:
            best = j
            best_v = v
    norm_min[0] = best_v
    return best


cdef Py_ssize_t c_select_smallest_tie(const Store* SV, const double[:, ::1] alpha, Py_ssize_t n_sv, int kernel,
                                      double gamma, double degree, double coef0, double tie_unit,
                                      double* norm_p) noexcept nogil:
    """:func:`refsvm.budget.select_smallest` with ``tie_unit`` (BSCA): ``U = min_j N_j (1 + tie_unit)``,
    the lowest ``j`` with ``N_j (1 - tie_unit) <= U``; ``tie_unit <= 0``: :func:`c_select_smallest`."""
    cdef Py_ssize_t j, c = alpha.shape[1]
    cdef double v, upper = INFINITY
    if tie_unit <= 0.0 or n_sv == 0:
        return c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, norm_p)
    for j in range(n_sv):
        v = pw_sq_sum(&alpha[j, 0], c) * store_self(SV, j, kernel, gamma, degree, coef0)
        if v * (1.0 + tie_unit) < upper:
            upper = v * (1.0 + tie_unit)
    for j in range(n_sv):
        v = pw_sq_sum(&alpha[j, 0], c) * store_self(SV, j, kernel, gamma, degree, coef0)
        if v * (1.0 - tie_unit) <= upper:
            norm_p[0] = v
            return j
    return c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, norm_p)   # NaN norms


# ----------------------------------------------------------------------------
# C cores: merging (eq. 16-19)
# ----------------------------------------------------------------------------

cdef double c_merge_objective(double h, const double* am, const double* an, Py_ssize_t c,
                              double log_kappa, double* az) noexcept nogil:
    """``g(h) = ||alpha_m kappa^((1-h)^2) + alpha_n kappa^(h^2)||^2``; ``az`` receives alpha_z(h)."""
    cdef double u = 1.0 - h
    cdef double km = exp(u * u * log_kappa)                     # k(x_m, z) = kappa^((1-h)^2)
    cdef double kn = exp(h * h * log_kappa)                     # k(x_n, z) = kappa^(h^2)
    cdef Py_ssize_t r
    for r in range(c):
        az[r] = am[r] * km + an[r] * kn
    return seq_dot(az, az, c)


cdef double _gss_merge(double lo, double hi, double eps, const double* am, const double* an,
                       Py_ssize_t c, double log_kappa, double* az) noexcept nogil:
    """``golden_section_search(g, lo, hi, eps)`` for the merging objective, same comparisons."""
    cdef double a = lo, b = hi
    cdef double cc = b - GR * (b - a)
    cdef double dd = a + GR * (b - a)
    cdef double fc = c_merge_objective(cc, am, an, c, log_kappa, az)
    cdef double fd = c_merge_objective(dd, am, an, c, log_kappa, az)
    while b - a > eps:
        if fc >= fd:          # the maximum lies in [a, d]
            b = dd
            dd = cc
            fd = fc
            cc = b - GR * (b - a)
            fc = c_merge_objective(cc, am, an, c, log_kappa, az)
        else:                 # the maximum lies in [c, b]
            a = cc
            cc = dd
            fc = fd
            dd = a + GR * (b - a)
            fd = c_merge_objective(dd, am, an, c, log_kappa, az)
    return 0.5 * (a + b)


cdef double c_merge_h(const double* am, const double* an, Py_ssize_t c, double log_kappa,
                      double eps, double* az) noexcept nogil:
    """``h`` of eq. (18), searched on the half of [0, 1] whose end point is better."""
    if c_merge_objective(1.0, am, an, c, log_kappa, az) >= c_merge_objective(0.0, am, an, c, log_kappa, az):
        return _gss_merge(0.5, 1.0, eps, am, an, c, log_kappa, az)
    return _gss_merge(0.0, 0.5, eps, am, an, c, log_kappa, az)


cdef double _polish_merge_h(double h, const double* am, const double* an, Py_ssize_t c, double L,
                           double lo, double hi) noexcept nogil:
    """:func:`refsvm.budget.polish_merge_h`: the same operations (the three class sums in index order)."""
    cdef int step
    cdef Py_ssize_t r
    cdef double u, A, B, pa, pb, qa, qb, z, z1, z2, s11, sz2, sz1, curvature, v
    for step in range(POLISH_STEPS):
        u = 1.0 - h
        A = exp(u * u * L)
        B = exp(h * h * L)
        pa = (-2.0 * u * L) * A
        pb = (2.0 * h * L) * B
        qa = (2.0 * L + 4.0 * (u * u) * (L * L)) * A
        qb = (2.0 * L + 4.0 * (h * h) * (L * L)) * B
        s11 = 0.0
        sz2 = 0.0
        sz1 = 0.0
        for r in range(c):
            z = am[r] * A + an[r] * B
            z1 = am[r] * pa + an[r] * pb
            z2 = am[r] * qa + an[r] * qb
            s11 += z1 * z1
            sz2 += z * z2
            sz1 += z * z1
        curvature = s11 + sz2
        if not curvature < 0.0:
            break
        v = h - sz1 / curvature
        if lo > v:                      # max(v, lo), min(v, hi) as Python's
            v = lo
        if hi < v:
            v = hi
        h = v
    return h


cdef double c_merge_h_precise(const double* am, const double* an, Py_ssize_t c, double log_kappa,
                              double* az) noexcept nogil:
    """``refsvm.budget.merge_h(..., polish=True)``: GSS to ``POLISH_WIDTH``, then Newton steps on g'."""
    cdef double lo = 0.0, hi = 0.5, h, a, b
    if c_merge_objective(1.0, am, an, c, log_kappa, az) >= c_merge_objective(0.0, am, an, c, log_kappa, az):
        lo = 0.5
        hi = 1.0
    h = _gss_merge(lo, hi, POLISH_WIDTH, am, an, c, log_kappa, az)
    a = h - POLISH_WIDTH if h - POLISH_WIDTH > lo else lo           # max(lo, h - W)
    b = h + POLISH_WIDTH if h + POLISH_WIDTH < hi else hi           # min(hi, h + W)
    return _polish_merge_h(h, am, an, c, log_kappa, a, b)


cdef double c_merge_pair_precise(const double* am, const double* an, Py_ssize_t c, double log_kappa,
                                 double* h_out, double* az) noexcept nogil:
    """:func:`c_merge_pair` with GSS-precise's h (``merge_pair(..., polish=True)``)."""
    return _merge_pair_at(c_merge_h_precise(am, an, c, log_kappa, az), am, an, c, log_kappa, h_out, az)


cdef double c_merge_pair(const double* am, const double* an, Py_ssize_t c, double log_kappa,
                         double eps, double* h_out, double* az) noexcept nogil:
    """Returns WD; ``h_out`` receives h, ``az`` alpha_z (eq. 19)."""
    return _merge_pair_at(c_merge_h(am, an, c, log_kappa, eps, az), am, an, c, log_kappa, h_out, az)


cdef double _merge_pair_at(double h, const double* am, const double* an, Py_ssize_t c, double log_kappa,
                           double* h_out, double* az) noexcept nogil:
    """WD of merging with coefficient ``h``; ``h_out`` receives h, ``az`` alpha_z (eq. 19)."""
    cdef double u = 1.0 - h
    cdef double km = exp(u * u * log_kappa)
    cdef double kn = exp(h * h * log_kappa)
    cdef double kappa, wd
    cdef Py_ssize_t r
    for r in range(c):
        az[r] = am[r] * km + an[r] * kn                         # eq. 19: alpha_z
    kappa = exp(log_kappa)
    wd = ((seq_dot(am, am, c) + seq_dot(an, an, c))
          + (2.0 * kappa) * seq_dot(am, an, c)) - seq_dot(az, az, c)
    h_out[0] = h
    if 0.0 > wd:
        wd = 0.0
    return wd


include "linalg.pxi"


# ----------------------------------------------------------------------------
# C cores: the three strategies
# ----------------------------------------------------------------------------

cdef Py_ssize_t c_maintain_removal(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv,
                                   int kernel, double gamma, double degree, double coef0,
                                   Py_ssize_t* p_out, double* wd_out) noexcept nogil:
    cdef Py_ssize_t p = c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, wd_out)  # Alg. 2, removal, line 1
    p_out[0] = p
    return c_remove_sv(SV, alpha, n_sv, p)                                                         # Alg. 2, removal, line 2


include "pruning.pxi"


cdef inline double _merge_candidate(const double* am, const double[:, ::1] alpha, Py_ssize_t n,
                                    Py_ssize_t c, double log_kappa, int solver, double eps,
                                    const double* h_table, const double* wd_table, Py_ssize_t G,
                                    double* h, double* az) noexcept nogil:
    """WD of merging ``m`` with candidate ``n`` by ``solver`` (``h`` and alpha_z written but for Lookup-WD)."""
    cdef double wd, k_mz, k_nz
    if solver == MERGE_LOOKUP_WD:                                    # G&Q Alg. 1, lines 5-9 by lookup
        return merge_wd_lookup_c(am[0], alpha[n, 0], log_kappa, wd_table, G)
    if solver == MERGE_LOOKUP_H:                                     # G&Q Alg. 1, lines 5-9, h by lookup
        wd = merge_pair_lookup_c(am[0], alpha[n, 0], log_kappa, SOLVER_LOOKUP_H, h_table, wd_table, G,
                                 h, &k_mz, &k_nz)
        az[0] = am[0] * k_mz + alpha[n, 0] * k_nz
        return wd
    if solver == MERGE_GSS_PRECISE:
        return c_merge_pair_precise(am, &alpha[n, 0], c, log_kappa, h, az)   # eq. 18, 19
    return c_merge_pair(am, &alpha[n, 0], c, log_kappa, eps, h, az)   # eq. 18, 19


cdef inline double _tie_unit(int solver, Py_ssize_t c) noexcept nogil:
    """:func:`refsvm.budget.wd_tie_unit` (the same number: small integers times ``2^-53``)."""
    if solver == MERGE_LOOKUP_WD:
        return TIE_UNIT_LOOKUP_WD
    return TIE_UNIT_BASE + <double>c * TIE_UNIT_PER_CLASS


cdef inline double _tie_tol(double unit, int solver, double wd, double am2, const double* an,
                            Py_ssize_t c) noexcept nogil:
    """A candidate's tie tolerance (:func:`refsvm.budget.least_wd_partner`): ``unit WD`` for
    Lookup-WD, ``unit (||alpha_m||^2 + ||alpha_n||^2)`` otherwise (``am2 = ||alpha_m||^2``)."""
    if solver == MERGE_LOOKUP_WD:
        return unit * wd
    return unit * (am2 + seq_dot(an, an, c))


cdef inline Py_ssize_t _least_wd_partner(const double* lo, Py_ssize_t n_sv, double upper) noexcept nogil:
    """:func:`refsvm.budget.least_wd_partner`'s choice: the lowest ``n`` with ``lo[n] = WD_n - tol_n
    <= upper = min (WD + tol)`` (``lo[n] = NaN``: not solved, or WD not finite); -1 if none."""
    cdef Py_ssize_t n
    for n in range(n_sv):
        if lo[n] <= upper:
            return n
    return -1


cdef Py_ssize_t c_maintain_merge(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv, double gamma, double eps,
                                 int solver, const MergeTables* T, double[::1] work, Py_ssize_t* m_out,
                                 Py_ssize_t* n_out, double* wd_out, const double* lk_hint,
                                 const double* kappa_hint, Py_ssize_t* n_same_out) noexcept nogil:
    """Merge the smallest SV ``m`` with the partner of least WD; ``work`` holds >= 2 c + 3 n_sv doubles.

    ``solver``: a ``MERGE_*`` code (``eps`` already resolved by the caller);
    the lookup solvers need ``c == 1`` and the ``(G + 1, G + 1)`` tables ``T.h_table``, ``T.wd_table``
    (:func:`open_merge_tables`).
    ``T.lb_table`` (:func:`_c_bound_table`; ``T.lb_G = 0``: none) switches partner pruning on for
    binary models; the winner is the reference's (:func:`refsvm.budget.least_wd_partner`: the lowest
    index among the candidates whose WD is within its tie tolerance ``tol`` of ``U``, the least
    ``WD + tol``; ``lo[n] = WD_n - tol_n`` is kept per slot in ``work``, and the winner's h and
    alpha_z are solved again when it is not the candidate of least WD).
    All solvers but Lookup-WD: :func:`_c_bound_table`'s, a cut on ``log kappa`` (:func:`c_exact_cut`)
    and a bound per candidate (:func:`c_merge_wd_bound`; GSS also :func:`c_gss_wd_bound`); the
    candidate of largest kappa is evaluated first, then the others in index order, skipping those
    below the cut or whose bound less ``tol`` exceeds ``U`` so far (they cannot be ties).  Lookup-WD: ``(2, lb_G)``
    (:func:`_wd_cut_table` of its table), a cut on ``log kappa`` (:func:`c_wd_cut`); the candidate of
    largest kappa is evaluated first, then the others in index order, skipping those below the cut
    of the best WD so far.
    ``lk_hint`` / ``kappa_hint`` (or NULL): the log kappas and kappas of the last SV (slot
    ``n_sv - 1``) against the others, computed by the caller, used when ``m`` turns out to be that SV
    (BSCA: the step's kernel row of the example that just became the last SV,
    ``store_kernel_row_pre``: bitwise :func:`store_log_kappa_row`'s numbers; its kappas feed the
    bound only).
    ``n_same_out`` (or NULL; binary models): the number of SVs ``n`` with ``alpha_n alpha_m >= 0``,
    ``m`` included, before the merge (BSCA's count of the merge's kernel evaluations).
    """
    cdef const double* h_table = T.h_table
    cdef const double* wd_table = T.wd_table
    cdef Py_ssize_t G = T.G
    cdef const double* lb_table = T.lb_table
    cdef Py_ssize_t lb_G = T.lb_G
    cdef Py_ssize_t c = alpha.shape[1], n, i, k, best_n = -1, first = -1, n_cand = 0, n_same = 0
    cdef bint binary = c == 1
    cdef bint prune = binary and lb_G > 0 and solver != MERGE_LOOKUP_WD
    cdef bint cut = binary and lb_G > 0 and solver == MERGE_LOOKUP_WD
    cdef double wd_removal, best_wd = INFINITY, best_h = 0.0, h = 0.0, wd, log_kappa, am0, bound
    cdef double best_lk = 0.0, k_mz, k_nz, lk_cut = -DBL_MAX, a_max = 0.0, kappa, bound_exact
    cdef double h_min = c_gss_h_min(eps) if solver == MERGE_GSS or solver == MERGE_GSS_PRECISE else 0.0
    cdef double upper = INFINITY, tol, unit = _tie_unit(solver, c)
    cdef double* az = &work[0]
    cdef double* best_az = &work[c]
    cdef double* lk = &work[2 * c]
    cdef Py_ssize_t* cand = <Py_ssize_t*>&work[2 * c + n_sv]        # the candidates of equal sign
    cdef double* lo = &work[2 * c + 2 * n_sv]                        # WD_n - tol_n of each candidate solved
    cdef Py_ssize_t m = c_select_smallest(SV, alpha, n_sv, KERNEL_RBF, gamma, 0.0, 0.0, &wd_removal)  # Alg. 2, merging, line 1: fix m
    cdef const double* am = &alpha[m, 0]
    cdef double am2 = seq_dot(am, am, c)
    am0 = alpha[m, 0]
    cdef bint hinted = lk_hint != NULL and m == n_sv - 1
    cdef const double* lkv = lk                                      # log kappa of every candidate (eq. 18):
    for n in range(n_sv):
        lo[n] = NAN                                                  # not solved
    if hinted:                                                       # the caller's row (m is the last SV;
        lkv = lk_hint                                                # its entry m is never read)
    else:
        store_log_kappa_row(SV, n_sv, m, gamma, lk)
    if prune:                                                        # exact solvers, pruned
        first = _nearest_same_sign(am0, alpha, n_sv, m, lkv, cand, &n_cand, &n_same)
        if first >= 0:                                               # the likely winner first
            best_wd = _merge_candidate(am, alpha, first, c, lkv[first], solver, eps, h_table, wd_table, G,
                                       &best_h, best_az)
            best_n = first
            best_lk = lkv[first]
            if not best_wd < INFINITY:                               # inf or NaN (overflowing coefficients):
                best_wd = INFINITY                                   # never wins the plain scan: scan it
                best_n = -1                                          # again in order with the others
                first = -1
            else:
                tol = _tie_tol(unit, solver, best_wd, am2, &alpha[first, 0], c)
                lo[first] = best_wd - tol
                upper = best_wd + tol
        lk_cut = c_exact_cut(am0, upper, lb_table, lb_G, unit, &a_max)
    if n_same_out != NULL and not (prune or cut):                   # (the pruned scans count it)
        for n in range(n_sv):
            n_same += am0 * alpha[n, 0] >= 0.0
    if cut:                                                          # Lookup-WD, pruned
        best_n = _lookup_wd_cut_scan(am0, alpha, n_sv, m, lkv, cand, wd_table, G, lb_table, lb_G,
                                     unit, lo, &best_wd, &best_lk, &n_same)
    else:
        for i in range(n_cand if prune else n_sv):                   # Alg. 2, merging, line 1: choose n
            if prune:                                                # (pruned: the candidates of equal sign)
                n = cand[i]
                log_kappa = lkv[n]
                if log_kappa < lk_cut and fabs(alpha[n, 0]) <= a_max:
                    continue                                         # cut off
                if n == first:
                    continue
                kappa = kappa_hint[n] if hinted else exp(log_kappa)
                tol = _tie_tol(unit, solver, 0.0, am2, &alpha[n, 0], c)
                bound = 0.0                                          # two bounds, the likelier first:
                if h_min > 0.0 and log_kappa < GSS_BOUND_FIRST_LK:   # far: GSS's end points
                    bound = c_gss_wd_bound(am0, alpha[n, 0], kappa, log_kappa, h_min)
                if bound - tol <= upper:                             # the best h's (table)
                    bound_exact = c_merge_wd_bound(am0, alpha[n, 0], kappa, lb_table, lb_G)
                    if bound_exact > bound:
                        bound = bound_exact
                    if h_min > 0.0 and log_kappa >= GSS_BOUND_FIRST_LK and bound - tol <= upper:  # near
                        bound_exact = c_gss_wd_bound(am0, alpha[n, 0], kappa, log_kappa, h_min)
                        if bound_exact > bound:
                            bound = bound_exact
                if bound - tol > upper:
                    continue                                         # cannot be a tie of the best
            else:
                n = i
                if n == m or (binary and am0 * alpha[n, 0] < 0.0):
                    continue
                log_kappa = lkv[n]
            wd = _merge_candidate(am, alpha, n, c, log_kappa, solver, eps, h_table, wd_table, G, &h, az)
            if not wd < INFINITY:
                continue                                             # inf, NaN (overflow): never chosen
            tol = _tie_tol(unit, solver, wd, am2, &alpha[n, 0], c)
            lo[n] = wd - tol
            if wd < best_wd or (wd == best_wd and n < best_n):      # the least WD: h, alpha_z kept
                best_n = n
                best_wd = wd
                best_h = h
                best_lk = log_kappa
                if solver != MERGE_LOOKUP_WD:
                    memcpy(best_az, az, c * sizeof(double))
            if wd + tol < upper:
                upper = wd + tol
                if prune:
                    lk_cut = c_exact_cut(am0, upper, lb_table, lb_G, unit, &a_max)
        n = _least_wd_partner(lo, n_sv, upper)                       # ties within rounding: lowest index
        if n >= 0 and n != best_n:                                   # a tie below the least WD's index
            best_wd = _merge_candidate(am, alpha, n, c, lkv[n], solver, eps, h_table, wd_table, G,
                                       &best_h, best_az)
            best_lk = lkv[n]
        best_n = n
    m_out[0] = m
    if n_same_out != NULL:
        n_same_out[0] = n_same
    if best_n < 0:                                   # no partner of equal sign: remove m
        n_out[0] = -1
        wd_out[0] = wd_removal
        return c_remove_sv(SV, alpha, n_sv, m)
    if solver == MERGE_LOOKUP_WD:                    # G&Q Alg. 1, lines 13-14: h only for the chosen partner
        best_wd = merge_pair_lookup_c(am0, alpha[best_n, 0], best_lk, SOLVER_LOOKUP_H, h_table, wd_table, G,
                                      &best_h, &k_mz, &k_nz)
        best_az[0] = am0 * k_mz + alpha[best_n, 0] * k_nz
    if store_merge(SV, m, best_n, best_h) != 0:                          # eq. 18: z = h x_m + (1-h) x_n
        SV.failed = True                                                # (out of memory: slot m unchanged)
    for k in range(c):
        alpha[m, k] = best_az[k]                                        # eq. 19
    n_out[0] = best_n
    wd_out[0] = best_wd
    return c_remove_sv(SV, alpha, n_sv, best_n)                         # Alg. 2, merging, line 2


cdef inline double _exact_wd(double a_m, double a_n, double h, double log_kappa) noexcept nogil:
    """Exact WD of merging a binary pair with coefficient ``h`` (as ``refsvm.budget._exact_wd``)."""
    cdef double u = 1.0 - h
    cdef double k_mz = exp(u * u * log_kappa)
    cdef double k_nz = exp(h * h * log_kappa)
    cdef double a_z = a_m * k_mz + a_n * k_nz
    cdef double wd = a_m * a_m + a_n * a_n + 2.0 * exp(log_kappa) * (a_m * a_n) - a_z * a_z
    return 0.0 if 0.0 > wd else wd


cdef void _compare_criteria(const Store* SV, const double[:, ::1] alpha, Py_ssize_t m, Py_ssize_t n, double gamma,
                            double eps, const MergeTables* T, double* crit, double* hs, double* lk) noexcept nogil:
    """The four solvers' criteria (WD; Lookup-WD's interpolated WD) and h for the binary pair (m, n)."""
    cdef double a_m = alpha[m, 0], a_n = alpha[n, 0], az, k_mz, k_nz
    lk[0] = -gamma * store_sq_dist(SV, m, n)
    crit[0] = c_merge_pair(&alpha[m, 0], &alpha[n, 0], 1, lk[0], eps, &hs[0], &az)
    crit[1] = c_merge_pair_precise(&alpha[m, 0], &alpha[n, 0], 1, lk[0], &hs[1], &az)
    crit[2] = merge_pair_lookup_c(a_m, a_n, lk[0], SOLVER_LOOKUP_H, T.h_table, T.wd_table, T.G,
                                  &hs[2], &k_mz, &k_nz)
    crit[3] = merge_wd_lookup_c(a_m, a_n, lk[0], T.wd_table, T.G)
    hs[3] = 0.0


cdef inline void _compare_candidate(const Store* SV, const double[:, ::1] alpha, Py_ssize_t m, Py_ssize_t n,
                                    double gamma, double eps, const MergeTables* T, double unit, double unit_wd,
                                    double* crit, double* hs, double* tols, double* lk) noexcept nogil:
    """:func:`_compare_criteria` of the pair (m, n) and each solver's tie tolerance (the rule of
    :func:`refsvm.budget.least_wd_partner`: the exact solvers ``unit (a_m^2 + a_n^2)``, Lookup-WD
    ``unit_wd WD``)."""
    _compare_criteria(SV, alpha, m, n, gamma, eps, T, crit, hs, lk)
    tols[0] = unit * (alpha[m, 0] * alpha[m, 0] + alpha[n, 0] * alpha[n, 0])
    tols[1] = tols[0]
    tols[2] = tols[0]
    tols[3] = unit_wd * crit[3]


cdef void c_merge_compare(const Store* SV, const double[:, ::1] alpha, Py_ssize_t n_sv,
                          double gamma, double eps, const MergeTables* T, unsigned char* same, double* factor,
                          double* wd) noexcept nogil:
    """Comparison mode (binary): see ``refsvm.budget.merge_compare``; writes 4 entries to each output.

    Each solver's partner by the rule of :func:`refsvm.budget.least_wd_partner` (ties within its
    tolerance: lowest index), in two passes over the candidates (diagnostics, not timed): the least
    ``WD + tol`` per solver, then the lowest index within it."""
    cdef const double* h_table = T.h_table
    cdef Py_ssize_t G = T.G
    cdef Py_ssize_t n, k, found = 0
    cdef Py_ssize_t best_n[4]
    cdef double best_h[4]
    cdef double best_lk[4]
    cdef double upper[4]
    cdef double tols[4]
    cdef double crit[4]
    cdef double hs[4]
    cdef double wd_removal, a_m, a_n, log_kappa
    cdef double unit = _tie_unit(MERGE_GSS, 1), unit_wd = _tie_unit(MERGE_LOOKUP_WD, 1)
    cdef Py_ssize_t m = c_select_smallest(SV, alpha, n_sv, KERNEL_RBF, gamma, 0.0, 0.0, &wd_removal)
    a_m = alpha[m, 0]
    for k in range(4):
        best_n[k] = -1
        best_h[k] = 0.0
        best_lk[k] = 0.0
        upper[k] = INFINITY
    for n in range(n_sv):                            # pass 1: the least WD + tol of each solver
        if n == m or a_m * alpha[n, 0] < 0.0:
            continue
        _compare_candidate(SV, alpha, m, n, gamma, eps, T, unit, unit_wd, crit, hs, tols, &log_kappa)
        for k in range(4):
            if crit[k] < INFINITY and crit[k] + tols[k] < upper[k]:
                upper[k] = crit[k] + tols[k]
    for n in range(n_sv):                            # pass 2: the lowest index within it
        if found == 4:
            break
        if n == m or a_m * alpha[n, 0] < 0.0:
            continue
        _compare_candidate(SV, alpha, m, n, gamma, eps, T, unit, unit_wd, crit, hs, tols, &log_kappa)
        for k in range(4):
            if best_n[k] < 0 and crit[k] < INFINITY and crit[k] - tols[k] <= upper[k]:
                best_n[k] = n
                best_h[k] = hs[k]
                best_lk[k] = log_kappa
                found += 1
    for k in range(4):
        same[k] = 1
        factor[k] = 1.0
        wd[k] = wd_removal
    if best_n[1] < 0:
        return
    for k in range(4):
        a_n = alpha[best_n[k], 0]
        if k == 3:                                   # Lookup-WD looks h up for its chosen partner only
            best_h[k] = lookup_h_c(h_table, G, relative_weight(a_m, a_n), exp(best_lk[k]))
        wd[k] = _exact_wd(a_m, a_n, best_h[k], best_lk[k])
        same[k] = best_n[k] == best_n[1]
    for k in range(4):
        if wd[1] > 0.0:
            factor[k] = wd[k] / wd[1]
        else:
            factor[k] = 1.0 if wd[k] <= 0.0 else INFINITY


cdef int c_maintain_projection_solve(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv,
                                     int kernel, double gamma, double degree, double coef0,
                                     double ridge, double[::1] Kp, double[::1] rhs, int[::1] ipiv,
                                     Py_ssize_t* p_out, double* wd_out) noexcept nogil:
    """Projection from scratch (LU with partial pivoting), as the reference.  Returns 0, or
    a positive number if K_p + ridge I is exactly singular.  The ridge is relative,
    ``ridge * max_j k(x_j, x_j)`` over the others (:func:`refsvm.budget.relative_ridge`; the ridge itself for rbf).

    Buffers: ``Kp`` >= (n_sv-1)^2, ``rhs`` >= 2 (n_sv-1), ``ipiv`` >= n_sv-1 (each at least 1).
    """
    cdef double dummy
    p_out[0] = c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, &dummy)   # Alg. 2, projection, line 1
    return c_project_sv(SV, alpha, n_sv, p_out[0], kernel, gamma, degree, coef0, ridge, Kp, rhs, ipiv, wd_out)


cdef int c_project_sv(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv, Py_ssize_t p, int kernel, double gamma,
                      double degree, double coef0, double ridge, double[::1] Kp, double[::1] rhs, int[::1] ipiv,
                      double* wd_out) noexcept nogil:
    """Eq. 14-15 for the chosen SV ``p`` (the rest of :func:`c_maintain_projection_solve`; BSCA selects
    ``p`` with its tie rule, :func:`c_select_smallest_tie`).  Returns 0 or the LU's singular pivot."""
    cdef Py_ssize_t c = alpha.shape[1], i, j, oi, oj, r
    cdef double k_pp, wd, top = 0.0
    cdef Py_ssize_t m = n_sv - 1
    cdef int info = 0
    for i in range(m):                                       # K_p = kernel_matrix(SV[others], SV[others])
        oi = i if i < p else i + 1
        for j in range(m):
            oj = j if j < p else j + 1
            Kp[i * m + j] = store_kernel(SV, oj, oi, kernel, gamma, degree, coef0)
        k_pp = store_self(SV, oi, kernel, gamma, degree, coef0)   # k(x, x): exactly 1 for rbf
        if k_pp > top:
            top = k_pp
        rhs[i] = store_kernel(SV, oi, p, kernel, gamma, degree, coef0)   # k_p
        rhs[m + i] = rhs[i]
    if top > 0.0:                                            # relative ridge: ridge * max(diag K_p)
        ridge = ridge * top
    for i in range(m):                                       # + ridge I
        Kp[i * m + i] += ridge
    k_pp = store_self(SV, p, kernel, gamma, degree, coef0)
    if m > 0:
        info = lu_factor(&Kp[0], m, m, &ipiv[0])
        if info != 0:
            return info
        lu_solve(&Kp[0], m, m, &ipiv[0], &rhs[0])        # K_p^{-1} k_p
    for i in range(m):                                       # eq. 14: Delta alpha^(i) = alpha_p^(i) K_p^{-1} k_p
        oi = i if i < p else i + 1
        for r in range(c):
            alpha[oi, r] += rhs[i] * alpha[p, r]
    wd = pw_sq_sum(&alpha[p, 0], c) * (k_pp - (seq_dot(&rhs[m], &rhs[0], m) if m > 0 else 0.0))  # eq. 15
    wd_out[0] = 0.0 if 0.0 > wd else wd
    return 0


cdef Py_ssize_t c_maintain_projection_inverse(Store* SV, double[:, ::1] alpha,
                                              Py_ssize_t n_sv, int kernel, double gamma,
                                              double degree, double coef0, double ridge,
                                              double[:, ::1] K, double[:, ::1] Kinv,
                                              double[::1] x, double[::1] r, int refine_steps,
                                              Py_ssize_t* p_out, double* wd_out) noexcept nogil:
    """Projection (eq. 14, 15) with the inverse ``Kinv = (K + ridge I)^{-1}`` of all ``n_sv`` SVs.

    ``(K_p + ridge I)^{-1} k_p = -Kinv[-p, p] / Kinv[p, p]``, refined by
    ``refine_steps`` steps of iterative refinement with the downdated inverse
    ``Kinv_{-p} = Kinv[-p, -p] - Kinv[-p, p] Kinv[p, -p] / Kinv[p, p]``; then
    K, Kinv, SV and alpha all lose SV ``p`` by the same swap-remove.
    """
    cdef Py_ssize_t c = alpha.shape[1], n = n_sv, i, j, k, p
    cdef double q, xi, s, wd, dummy
    cdef int it
    p = c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, &dummy)   # Alg. 2, projection, line 1
    p_out[0] = p
    q = Kinv[p, p]
    for j in range(n):
        x[j] = -Kinv[j, p] / q if j != p else 0.0       # K_p^{-1} k_p (bordered-inverse identity)
    for i in range(n):                                  # downdate: Kinv_{-p} (x[p] = 0 leaves column p)
        if i != p:
            xi = Kinv[i, p]
            for j in range(n):
                Kinv[i, j] += xi * x[j]                 # - Kinv[i,p] Kinv[p,j] / Kinv[p,p]
    for it in range(refine_steps):                      # iterative refinement:
        for j in range(n):                              # r = k_p - (K_p + ridge I) x
            r[j] = 0.0 if j == p else K[p, j] - (pw_dot(&K[j, 0], &x[0], n) + ridge * x[j])
        for j in range(n):                              # x += Kinv_{-p} r
            if j != p:
                x[j] += pw_dot(&Kinv[j, 0], &r[0], n)  # r[p] = 0 hides the stale column p
    for j in range(n):                                  # eq. 14: Delta alpha^(i) = alpha_p^(i) K_p^{-1} k_p
        if j != p:
            for k in range(c):
                alpha[j, k] += x[j] * alpha[p, k]
    wd = pw_sq_sum(&alpha[p, 0], c) * (K[p, p] - pw_dot(&K[p, 0], &x[0], n))   # eq. 15 (x[p] = 0)
    wd_out[0] = 0.0 if 0.0 > wd else wd
    sym_swap_remove(K, n, p)
    sym_swap_remove(Kinv, n, p)
    return c_remove_sv(SV, alpha, n_sv, p)                                  # Alg. 2, projection, line 2


# ----------------------------------------------------------------------------
# Python-level functions (same names and signatures as refsvm.budget)
# ----------------------------------------------------------------------------

def _inplace(arr, name):
    """A C-contiguous float64 2-D array to work on; copied (and written back later) if needed.
    Sparse SV slots (:class:`refsvm.sparse.SparseRows`) are worked on as they are."""
    if isinstance(arr, SparseRows):
        return arr, False
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name} must be a numpy array (it is modified in place), got {type(arr).__name__}")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {arr.shape}")
    if arr.dtype == np.float64 and arr.flags.c_contiguous and arr.flags.writeable:
        return arr, False
    return np.ascontiguousarray(arr, dtype=np.float64), True


def _writeback(arr, work, copied):
    if copied:
        arr[...] = work


cdef int _open_store(Store* St, object S, Py_ssize_t n) except -1:
    """A C store over the SVs: the dense array itself, or the first ``n`` sparse slots copied."""
    if isinstance(S, SparseRows):
        store_init(St, None, max(len(S), 1), S.d, True)
        if n > 0:
            store_fill(St, S[:n])
    else:
        store_init(St, S, S.shape[0], S.shape[1], False)
    return 0


cdef int _close_store(Store* St, object S, Py_ssize_t n) except -1:
    """Write the first ``n`` slots back into sparse SV slots (a dense store worked in place); free."""
    failed = St.failed
    if St.sparse and not failed and n > 0:          # sparse rows: copied in, copied back
        S[:n] = store_export(St, n)
    store_free(St)
    if failed:
        raise MemoryError("could not allocate a sparse SV")
    return 0


def _check_model(SV, alpha, n_sv):
    n_sv = int(n_sv)
    if n_sv < 0 or n_sv > SV.shape[0] or n_sv > alpha.shape[0]:
        raise ValueError(f"n_sv={n_sv} out of range for arrays of {min(SV.shape[0], alpha.shape[0])} rows")
    return n_sv


def _working_model(SV, alpha, n_sv):
    """``(S, copied, A, copied, n)``: the arrays a maintenance step works on in place (:func:`_inplace`)
    and the number of SVs; ValueError when there is none to choose from."""
    S, cs = _inplace(SV, "SV")
    A, ca = _inplace(alpha, "alpha")
    n = _check_model(S, A, n_sv)
    if n == 0:
        raise ValueError("attempt to get argmin of an empty sequence")
    return S, cs, A, ca, n


def remove_sv(SV, alpha, n_sv, p):
    """Remove SV ``p``: the last SV moves into slot ``p``.  Returns ``n_sv - 1``."""
    S, cs = _inplace(SV, "SV")
    A, ca = _inplace(alpha, "alpha")
    cdef Py_ssize_t n = _check_model(S, A, n_sv)
    cdef Py_ssize_t pp = p
    if pp < 0:
        pp += n
    if not 0 <= pp < n:
        raise IndexError(f"p={p} out of range for n_sv={n}")
    cdef Store St
    _open_store(&St, S, n)
    cdef double[:, ::1] Av = A
    with nogil:
        n = c_remove_sv(&St, Av, n, pp)
    _close_store(&St, S, n)
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return n_sv - 1


def select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit=0.0):
    """``p = argmin_j ||alpha_j||^2 k(x_j, x_j)`` over the first ``n_sv`` SVs (sec. 6.1; ties:
    :func:`refsvm.budget.select_smallest`)."""
    S = SV if isinstance(SV, SparseRows) else np.ascontiguousarray(SV, dtype=np.float64)
    A = np.ascontiguousarray(alpha, dtype=np.float64)
    if len(S.shape) != 2 or A.ndim != 2:
        raise ValueError("SV and alpha must be 2-D arrays")
    cdef int code = kernel_code(kernel)
    cdef Py_ssize_t n = _check_model(S, A, n_sv), p
    if n == 0:
        raise ValueError("attempt to get argmin of an empty sequence")
    cdef Store St
    _open_store(&St, S, n)
    cdef const double[:, ::1] Av = A
    cdef double g = gamma, deg = degree, c0 = coef0, v, tu = tie_unit
    with nogil:
        p = c_select_smallest_tie(&St, Av, n, code, g, deg, c0, tu, &v)
    _close_store(&St, S, 0)
    return int(p), float(v)


def maintain_removal(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit=0.0):
    """Remove the smallest SV (ties: :func:`refsvm.budget.select_smallest`).  Returns ``(n_sv, p, -1, WD)``."""
    cdef int code = kernel_code(kernel)
    S, cs, A, ca, n_ = _working_model(SV, alpha, n_sv)
    cdef Py_ssize_t n = n_, p
    cdef Store St
    _open_store(&St, S, n)
    cdef double[:, ::1] Av = A
    cdef double g = gamma, deg = degree, c0 = coef0, wd, tu = tie_unit
    with nogil:
        p = c_select_smallest_tie(&St, Av, n, code, g, deg, c0, tu, &wd)   # Alg. 2, removal, line 1
        n = c_remove_sv(&St, Av, n, p)                                      # Alg. 2, removal, line 2
    _close_store(&St, S, n)
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return int(n), int(p), -1, float(wd)


def maintain_projection(SV, alpha, n_sv, kernel, gamma, degree, coef0, ridge, tie_unit=0.0):
    """Project the smallest SV (ties: :func:`refsvm.budget.select_smallest`) onto the others (eq. 14)
    and remove it.

    Returns ``(n_sv, p, -1, WD)`` with ``WD = ||alpha_p||^2 (k_pp - k_p' K_p^{-1} k_p)`` (eq. 15).
    Stateless: solves the regularised system from scratch (LU with partial pivoting).
    """
    cdef int code = kernel_code(kernel)
    S, cs, A, ca, n_ = _working_model(SV, alpha, n_sv)
    cdef Py_ssize_t n = n_, p
    cdef Py_ssize_t m = max(n - 1, 1)
    Kp = np.empty(m * m)
    rhs = np.empty(2 * m)
    ipiv = np.empty(m, dtype=np.intc)
    cdef Store St
    _open_store(&St, S, n)
    cdef double[:, ::1] Av = A
    cdef double[::1] Kpv = Kp
    cdef double[::1] rv = rhs
    cdef int[::1] iv = ipiv
    cdef double g = gamma, deg = degree, c0 = coef0, rdg = ridge, wd, tu = tie_unit
    cdef int info
    with nogil:
        p = c_select_smallest_tie(&St, Av, n, code, g, deg, c0, tu, &wd)   # Alg. 2, projection, line 1
        info = c_project_sv(&St, Av, n, p, code, g, deg, c0, rdg, Kpv, rv, iv, &wd)
        if info == 0:
            n = c_remove_sv(&St, Av, n, p)                # Alg. 2, projection, line 2
    _close_store(&St, S, n)
    if info != 0:
        raise np.linalg.LinAlgError("Singular matrix")
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return int(n), int(p), -1, float(wd)


def _pair(alpha_m, alpha_n):
    am = np.asarray(alpha_m, dtype=np.float64)
    an = np.asarray(alpha_n, dtype=np.float64)
    scalar = am.ndim == 0 and an.ndim == 0
    am = np.ascontiguousarray(am.reshape(-1))
    an = np.ascontiguousarray(an.reshape(-1))
    if am.shape[0] != an.shape[0] or am.shape[0] == 0:
        raise ValueError(f"alpha_m and alpha_n must have the same non-zero length, got {am.shape} and {an.shape}")
    return am, an, scalar


def _check_eps(eps):
    if not eps > 0.0:
        raise ValueError(f"merge_eps must be positive, got {eps!r}")


def merge_objective(h, alpha_m, alpha_n, log_kappa):
    """``g(h) = ||alpha_m kappa^((1-h)^2) + alpha_n kappa^(h^2)||^2`` = ``||alpha_z(h)||^2``."""
    am, an, _ = _pair(alpha_m, alpha_n)
    cdef const double[::1] amv = am
    cdef const double[::1] anv = an
    az = np.empty(am.shape[0])
    cdef double[::1] azv = az
    return float(c_merge_objective(h, &amv[0], &anv[0], amv.shape[0], log_kappa, &azv[0]))


def merge_h(alpha_m, alpha_n, log_kappa, eps, polish=False):
    """The merging coefficient ``h`` of eq. (18): ``z = h x_m + (1-h) x_n``.

    ``log_kappa = log k(x_m, x_n) = -gamma ||x_m - x_n||^2``.  Searches the half
    of ``[0, 1]`` whose end point is better (see :mod:`refsvm.budget`): the ``h`` of
    :func:`merge_pair` (``c_merge_pair`` runs ``c_merge_h``).
    """
    return merge_pair(alpha_m, alpha_n, log_kappa, eps, polish)[0]


def merge_pair(alpha_m, alpha_n, log_kappa, eps, polish=False):
    """Merge ``alpha_m phi(x_m) + alpha_n phi(x_n)`` into ``alpha_z phi(z)``.  ``polish``: GSS-precise's
    h (:func:`refsvm.budget.merge_h`).

    Returns ``(h, alpha_z, WD)`` with ``alpha_z = alpha_m k(x_m,z) + alpha_n k(x_n,z)``
    (the solution of eq. 19), ``k(x_m, z) = kappa^((1-h)^2)``, ``k(x_n, z) = kappa^(h^2)``
    and ``WD = ||alpha_m||^2 + ||alpha_n||^2 + 2 kappa alpha_m.alpha_n - ||alpha_z||^2``.
    """
    _check_eps(eps)
    am, an, scalar = _pair(alpha_m, alpha_n)
    cdef const double[::1] amv = am
    cdef const double[::1] anv = an
    az = np.empty(am.shape[0])
    cdef double[::1] azv = az
    cdef double lk = log_kappa, e = eps, h, wd
    cdef bint precise = polish
    with nogil:
        if precise:
            wd = c_merge_pair_precise(&amv[0], &anv[0], amv.shape[0], lk, &h, &azv[0])
        else:
            wd = c_merge_pair(&amv[0], &anv[0], amv.shape[0], lk, e, &h, &azv[0])
    return float(h), (float(az[0]) if scalar else az), float(wd)


_SOLVER_CODES = {"gss": MERGE_GSS, "gss-precise": MERGE_GSS_PRECISE,
                 "lookup-h": MERGE_LOOKUP_H, "lookup-wd": MERGE_LOOKUP_WD}


def _solver_code(merge_solver):
    return _SOLVER_CODES[merge_solver]


def _c_tables(tables, needed):
    """C-contiguous float64 ``(h_table, wd_table)`` (loaded with ``get_tables()`` if None), or
    1x1 dummies when no lookup is needed (the C cores then never read them)."""
    if not needed:
        dummy = np.zeros((1, 1))
        return dummy, dummy
    if tables is None:
        from refsvm.lookup import get_tables
        tables = get_tables()
    h_table, wd_table = tables
    h_table = np.ascontiguousarray(h_table, dtype=np.float64)
    wd_table = np.ascontiguousarray(wd_table, dtype=np.float64)
    if h_table.ndim != 2 or h_table.shape[0] != h_table.shape[1] or h_table.shape[0] < 2 \
            or wd_table.shape != h_table.shape:
        raise ValueError(f"tables must be two (G + 1, G + 1) arrays, got shapes {h_table.shape}, {wd_table.shape}")
    return h_table, wd_table


cdef object open_merge_tables(MergeTables* T, object tables, object merge_solver, bint lookup, bint prune):
    """Point ``T`` at the tables a merge reads: the lookup tables (``tables``, or ``get_tables()`` if
    None) when ``lookup``, else 1x1 dummies; the partner-pruning table of ``merge_solver`` when
    ``prune`` (binary merging; :func:`_c_bound_table`).  Returns the arrays, which the caller keeps
    alive as long as it uses ``T``."""
    th, tw = _c_tables(tables, lookup)
    tb, lb_G = _c_bound_table(prune, merge_solver, tw)
    tb = tb.reshape(-1)
    cdef const double[:, ::1] thv = th
    cdef const double[:, ::1] twv = tw
    cdef const double[::1] tbv = tb
    T.h_table = &thv[0, 0]
    T.wd_table = &twv[0, 0]
    T.G = thv.shape[0] - 1
    T.lb_table = &tbv[0]
    T.lb_G = lb_G
    return th, tw, tb


def maintain_merge(SV, alpha, n_sv, gamma, eps, merge_solver="gss", tables=None):
    """Merge the smallest SV ``m`` with the partner ``n`` of least weight degradation.

    Gaussian kernel only (``k(x, x) = 1``).  Returns ``(n_sv, m, n, WD)``; ``n``
    is -1 when a binary model has no partner of equal sign and ``m`` was removed.
    ``merge_solver`` and ``tables``: see :func:`refsvm.budget.maintain_merge`.
    Checks its arguments, then :func:`merge_smallest`.
    """
    _check_eps(eps)
    S, cs = _inplace(SV, "SV")
    A, ca = _inplace(alpha, "alpha")
    check_merge_solver(merge_solver, A.shape[1] == 1)
    out = merge_smallest(S, A, n_sv, gamma, merge_solver_eps(merge_solver, eps), merge_solver, tables)
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return out


def merge_smallest(SV, alpha, n_sv, gamma, eps, merge_solver, tables):
    """Alg. 2, merging, with resolved arguments (:func:`refsvm.budget.merge_smallest`): ``eps`` the
    solver's precision, ``tables`` those of a lookup solver (None: ``get_tables()``)."""
    S, cs = _inplace(SV, "SV")
    A, ca = _inplace(alpha, "alpha")
    cdef int code = _solver_code(merge_solver)
    cdef double e = eps
    cdef MergeTables T
    keep = open_merge_tables(&T, tables, merge_solver, merge_solver in LOOKUP_SOLVERS, A.shape[1] == 1)
    cdef Py_ssize_t n = _check_model(S, A, n_sv), m, partner
    if n == 0:
        raise ValueError("attempt to get argmin of an empty sequence")
    work = np.empty(2 * A.shape[1] + 3 * n)
    cdef Store St
    _open_store(&St, S, n)
    cdef double[:, ::1] Av = A
    cdef double[::1] wv = work
    cdef double g = gamma, wd
    with nogil:
        n = c_maintain_merge(&St, Av, n, g, e, code, &T, wv, &m, &partner, &wd, NULL, NULL, NULL)
    _close_store(&St, S, n)
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return int(n), int(m), int(partner), float(wd)


def merge_compare(SV, alpha, n_sv, gamma, merge_eps, tables=None):
    """Comparison mode: the decisions of all four merge solvers on one merge event (nothing changes).

    Returns ``(same, factor, wd)``; see :func:`refsvm.budget.merge_compare`.
    """
    _check_eps(merge_eps)
    S = SV if isinstance(SV, SparseRows) else np.ascontiguousarray(SV, dtype=np.float64)
    A = np.ascontiguousarray(alpha, dtype=np.float64)
    if len(S.shape) != 2 or A.ndim != 2:
        raise ValueError("SV and alpha must be 2-D arrays")
    if A.shape[1] != 1:
        raise ValueError("merge_compare needs a binary model (the lookup solvers do not apply to multi-class)")
    cdef Py_ssize_t n = _check_model(S, A, n_sv)
    if n == 0:
        raise ValueError("attempt to get argmin of an empty sequence")
    cdef MergeTables T
    keep = open_merge_tables(&T, tables, "gss", True, False)
    cdef Store St
    _open_store(&St, S, n)
    cdef const double[:, ::1] Av = A
    same = np.zeros(4, dtype=np.uint8)
    factor = np.zeros(4)
    wd = np.zeros(4)
    cdef unsigned char[::1] sv_ = same
    cdef double[::1] fv = factor
    cdef double[::1] wv = wd
    cdef double g = gamma, e = merge_eps
    with nogil:
        c_merge_compare(&St, Av, n, g, e, &T, &sv_[0], &fv[0], &wv[0])
    _close_store(&St, S, 0)
    return same.astype(bool), factor, wd


def maintain(strategy, SV, alpha, n_sv, kernel, gamma, degree, coef0, merge_eps, projection_ridge,
             merge_solver="gss", tables=None):
    """Dispatch one budget-maintenance step (Alg. 1, line 10).  Returns ``(n_sv, p, n, WD)``.

    The reference's checks (:meth:`refsvm.budget.MaintenanceOptions.resolve`) and dispatcher
    (:func:`refsvm.budget.maintain_with`), run with this module's steps.
    """
    opts = MaintenanceOptions.resolve(strategy, Kernel.of(kernel, gamma, degree, coef0), merge_eps,
                                      projection_ridge, merge_solver, binary=alpha.shape[1] == 1, tables=tables)
    return maintain_with(opts, SV, alpha, n_sv, (maintain_removal, maintain_projection, merge_smallest))
