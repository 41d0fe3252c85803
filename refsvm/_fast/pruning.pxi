# Partner pruning of merging, included by budget.pyx (compiled path only; the reference scans every
# candidate).
#
# For binary models :func:`c_maintain_merge` (budget_merging.pxi) skips the candidates whose lower bound on the
# weight degradation (:func:`c_merge_wd_bound`, tables of :func:`_c_bound_table`; for Lookup-WD a cut on
# log kappa, :func:`c_wd_cut`) exceeds the best WD found so far.  The partner, h and the merged SV are
# the plain scan's bitwise (docs/lookup.rst, "Partner pruning"; tests/budget/test_merge_pruning.py).  One file
# with budget.pyx (``include``): the bounds are inline C functions of the merge's scan loop.
#
# Contents: the bounds and cuts (C), the scans over the candidates of equal sign (C), then the tables
# the bounds read and the test hooks (Python).

cdef extern from "fastmath.h":
    # flags[j] = !(am0 a[j] < 0) and lk[j] > -inf; returns the number of j with am0 a[j] >= 0
    Py_ssize_t sign_flags "refsvm_sign_flags" (const double* a, const double* lk, double am0,
                                                Py_ssize_t n, Py_ssize_t* flags) noexcept nogil


# Partner pruning (compiled path only; speed, not a change of decisions).  For a binary pair of
# equal sign the weight degradation is (a + b)^2 WD(m, kappa), a = |alpha_m| <= b = |alpha_n|,
# m = a / (a + b) <= 1/2 (refsvm.lookup), and whatever h a solver returns, the WD it computes for
# that h is at least the minimum over h.  WD(m, kappa) does not increase in kappa (proved), does
# not decrease in m on [0, 1/2], and WD / m^2 does not increase in m (both checked by brute force;
# docs/lookup.rst, "Partner pruning"; tests/budget/test_merge_pruning.py), so table nodes next to
# (m, kappa) bound every candidate of their cell from below (c_merge_wd_bound).  A candidate whose
# bound exceeds the best WD found so far is skipped: it could not have been chosen.
# Lookup-WD reads interpolated values, which that bound does not cover; it gets a bound of its own,
# computed from its table and needing no property of WD: with a = |alpha_m| fixed by the event, the
# interpolated WD / a^2 has a lower bound P(kappa) that does not increase in kappa, so every
# candidate below one log-kappa cut is skipped with one comparison (c_wd_cut, _wd_cut_table).

#: Margins of the bound: on ``m G`` and ``kappa G`` when the nodes are chosen (covers the rounding
#: of ``m = a / (a + b)`` and of the vectorised ``exp`` for kappa), and on the normalised WD
#: (covers the rounding of the tables' GSS-precise values and of the WD a solver computes,
#: ~1e-16 of ``(a + b)^2``).
cdef double BOUND_NODE_MARGIN = 1e-9
cdef double BOUND_WD_MARGIN = 1e-12


cdef inline double c_merge_wd_bound(double a_m, double a_n, double kappa, const double* lb_table,
                                    Py_ssize_t G) noexcept nogil:
    """A lower bound of the WD any solver but Lookup-WD computes for the binary pair (``a_m a_n >= 0``).

    ``lb_table`` holds two ``(G + 1, G + 1)`` tables (:func:`_c_bound_table`): ``T`` = normalised WD
    at the nodes and ``R[k - 1] = T[k] / m_k^2``.  With ``m_i <= m <= m_k`` and ``kappa_j >= kappa``:
    ``WD(m, kappa) >= T[i, j]`` (WD does not decrease in m) and ``>= m^2 R[k - 1, j]`` (WD / m^2 does
    not increase in m, which keeps the bound useful for small m, where ``T[0, :] = 0``)."""
    cdef double a = fabs(a_m), b = fabs(a_n), s = a + b, mrel, t, lo, hi
    cdef Py_ssize_t i, j, k
    if not (s > 0.0 and s * s < INFINITY):              # (a + b)^2 overflows: no bound (a WD the
        return 0.0                                      # solver computes may still be finite)
    mrel = (a if a < b else b) / s
    t = mrel * G - BOUND_NODE_MARGIN                    # node m_i <= m
    i = <Py_ssize_t>t if t > 0.0 else 0
    if i > G // 2:
        i = G // 2
    t = mrel * G + BOUND_NODE_MARGIN                    # node m_k >= m, k >= 1
    k = <Py_ssize_t>t
    if <double>k < t:
        k += 1
    if k > G // 2:
        k = G // 2
    if k < 1:
        k = 1
    t = kappa * G + BOUND_NODE_MARGIN                   # node kappa_j >= kappa
    j = <Py_ssize_t>t
    if <double>j < t:
        j += 1
    if j > G:
        j = G
    lo = lb_table[i * (G + 1) + j]
    hi = (mrel * mrel) * lb_table[(G + 1) * (G + 1) + (k - 1) * (G + 1) + j]
    if hi > lo:
        lo = hi
    return (s * s) * (lo - BOUND_WD_MARGIN)


#: GSS's bound (:func:`c_gss_wd_bound`) applies from this ``eps`` up (below it, ``h_min`` is too small
#: to help), with this relative margin on the widths of :func:`c_gss_h_min` (covers the rounding of
#: the search's end points: a few ulps of [0, 1] per step against a final width above ``GR * 1e-6``).
cdef double GSS_BOUND_MIN_EPS = 1e-6
cdef double GSS_H_MIN_MARGIN = 1e-5
#: Below this log kappa (kappa < 1/e) the pruned scan tries GSS's bound before the table's (far
#: candidates: the table's is then below a_m^2 and rarely decides); above it, after.  Speed only:
#: either order skips the same candidates.
cdef double GSS_BOUND_FIRST_LK = -1.0


cdef inline double c_gss_h_min(double eps) noexcept nogil:
    """A lower bound of ``min(h, 1 - h)`` for every ``h`` that GSS of width ``eps`` returns (0: none).

    :func:`c_merge_h` searches ``[0, 1/2]`` or ``[1/2, 1]``; each step keeps ``GR`` of the bracket,
    the search stops at the first width ``<= eps`` and returns the last bracket's midpoint.  With
    widths ``0.5 GR^j`` known to ``GSS_H_MIN_MARGIN``, it stops by the first ``j`` whose width is
    surely ``<= eps``, so its last width is at least that ``0.5 GR^j``, and ``h`` is at least half
    of it from the interval's ends."""
    cdef double w = 0.5
    if not eps >= GSS_BOUND_MIN_EPS:
        return 0.0
    while w * (1.0 + GSS_H_MIN_MARGIN) > eps * (1.0 - GSS_H_MIN_MARGIN):
        w *= GR
    return 0.5 * w * (1.0 - GSS_H_MIN_MARGIN)


cdef inline double c_gss_wd_bound(double a_m, double a_n, double kappa, double log_kappa,
                                  double h_min) noexcept nogil:
    """A lower bound of the WD that GSS computes for the binary pair (``a_m a_n >= 0``), from
    ``h_min <= h <= 1 - h_min`` (:func:`c_gss_h_min`; 0: no bound).

    The exact bound (:func:`c_merge_wd_bound`) is the WD at the best ``h``; GSS stops short of it,
    which matters when the points are far apart (kappa tiny): the best ``h`` is then ~0 or ~1 (``z``
    on the point of larger coefficient) and the WD climbs steeply with ``h``.  With ``a <= b`` the
    two magnitudes and ``WD = a^2 + b^2 + 2 kappa a b - alpha_z(h)^2``, ``alpha_z`` is bounded on the
    four pieces ``[h_min, 1/4]``, ``[1/4, 1/2]``, ``[1/2, 3/4]``, ``[3/4, 1 - h_min]`` by each term's
    largest value (``kappa^e`` falls with ``e``); as ``b >= a`` the first two bounds dominate:
    ``A = max(a kappa^(9/16) + b e_1, a kappa^(1/4) + b kappa^(1/16))``, each power replaced by an
    upper bound that costs no square root but the first (``kappa^x = e^(x log kappa) <=
    1 / (1 - x log kappa)``): ``e_1 = 1 / (1 - h_min^2 log kappa)``, ``kappa^(9/16) <= kappa^(1/2)
    / (1 - log kappa / 16)``; the second piece, loose this way, matters only for kappa near 1, where
    the exact bound is the better one.  Less ``BOUND_WD_MARGIN (a + b)^2``, which covers the
    rounding of this value and of the WD (~20 ulps of ``(a + b)^2``)."""
    cdef double a = fabs(a_m), b = fabs(a_n), s, e1, r2, r4, r16, p1, p2
    if a > b:
        a, b = b, a
    s = a + b
    if not (h_min > 0.0 and s > 0.0 and s * s < INFINITY and kappa <= 1.0 and log_kappa <= 0.0):
        return 0.0
    e1 = 1.0 / (1.0 - (h_min * h_min) * log_kappa)     # >= kappa^(h_min^2) (0 for log kappa = -inf)
    r2 = sqrt(kappa)                                     # kappa^(1/2)
    r4 = 1.0 / (1.0 - 0.25 * log_kappa)                  # >= kappa^(1/4)
    r16 = 1.0 / (1.0 - 0.0625 * log_kappa)               # >= kappa^(1/16)
    p1 = a * (r2 * r16) + b * e1                         # h in [h_min, 1/4]
    p2 = a * r4 + b * r16                                # h in [1/4, 1/2]
    if p2 > p1:
        p1 = p2
    return ((a * a + b * b) + (2.0 * kappa) * (a * b)) - p1 * p1 - BOUND_WD_MARGIN * (s * s)


#: Relative margin of the exact solvers' cut on ``a_m^2 P[J]`` (keeps the slack that the rounding
#: margin of the WD must fit in positive).
cdef double CUT_EXACT_MARGIN = 1e-9


cdef inline double c_exact_cut(double a_m, double best_wd, const double* lb_table, Py_ssize_t G,
                               double unit, double* a_max) noexcept nogil:
    """The cut on log kappa for the solvers :func:`c_merge_wd_bound` covers: a candidate ``n`` with
    ``log kappa`` below the value returned and ``|alpha_n| <= a_max`` (written) has a WD above
    ``best_wd`` by more than its tie tolerance ``unit (a_m^2 + a_n^2)`` (-DBL_MAX: no cut; ``best_wd``:
    the least ``WD + tol`` so far, :func:`refsvm.budget.least_wd_partner`).

    With ``m <= 1/2`` and ``kappa <= kappa_J``, that bound gives
    ``WD >= a_m^2 R[G/2 - 1, J] - (a + b)^2 1e-12`` (node ``k = G/2``, ``s^2 m^2 = a_m^2``); ``P[J]``,
    the running minimum of that row over ``J`` (rows ``2 G + 2`` of ``lb_table``), does not increase.
    For the largest ``J`` with ``a_m^2 P[J] > best_wd`` (relative margin ``CUT_EXACT_MARGIN``: the slack
    is then positive), every candidate with ``kappa < kappa_J`` and
    ``(a + b)^2 (1e-12 + unit) <= (a_m^2 P[J] - best_wd) / 2`` loses strictly, tolerance included
    (``unit (a^2 + b^2) <= unit (a + b)^2``)."""
    cdef double am2 = a_m * a_m, slack, t
    cdef const double* P = lb_table + 2 * (G + 1) * (G + 1)
    cdef Py_ssize_t lo = 0, hi = G + 1, mid
    a_max[0] = 0.0
    if not (am2 < INFINITY and best_wd < INFINITY and best_wd >= 0.0):
        return -DBL_MAX
    while lo < hi:                                                   # P[J] > limit for J < lo
        mid = (lo + hi) // 2
        if am2 * P[mid] * (1.0 - CUT_EXACT_MARGIN) > best_wd:
            lo = mid + 1
        else:
            hi = mid
    if lo <= 1:                                                      # J = 0: kappa < 0, nothing to cut
        return -DBL_MAX
    slack = am2 * P[lo - 1] - best_wd
    t = slack * (0.5 / (BOUND_WD_MARGIN + unit))
    if not t < INFINITY:
        return -DBL_MAX
    a_max[0] = sqrt(t) - fabs(a_m)
    return P[G + 1 + lo - 1]                                         # log(kappa_J) less a margin


#: Relative margin of the Lookup-WD cut (covers the rounding of ``m = a / (a + b)``, of the
#: interpolation and of ``(a + b)^2``, a few ulps each), and absolute margin on ``log kappa`` (covers
#: libm's ``exp`` and ``log`` of the cut's nodes).
cdef double CUT_WD_MARGIN = 1e-12
CUT_LK_MARGIN = 1e-9


cdef inline double c_wd_cut(double a_m, double best_wd, const double* cut_table, Py_ssize_t G) noexcept nogil:
    """The Lookup-WD cut: every candidate with ``log kappa`` below the value returned has an
    interpolated WD above ``best_wd`` (-inf: no cut).

    ``cut_table`` (:func:`_wd_cut_table`) holds ``P[J]``, a lower bound of ``WD / a_m^2`` over all
    ``m <= 1/2`` and ``kappa < (J + 1) / G`` (non-increasing in ``J``), and ``log((J + 1) / G)``
    less a margin.  The largest ``J`` with ``a_m^2 P[J] > best_wd`` (with margin) is found by bisection."""
    cdef double am2 = a_m * a_m
    cdef Py_ssize_t lo = 0, hi = G, mid                 # P[J] > limit for J < lo, not for J >= hi
    if not (am2 < INFINITY and best_wd < INFINITY and best_wd >= 0.0):
        return -INFINITY
    while lo < hi:
        mid = (lo + hi) // 2
        if am2 * cut_table[mid] * (1.0 - CUT_WD_MARGIN) > best_wd:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return -INFINITY
    return cut_table[G + lo - 1]


cdef Py_ssize_t _nearest_same_sign(double am0, const double[:, ::1] alpha, Py_ssize_t n_sv,
                                   Py_ssize_t m, const double* lk, Py_ssize_t* cand,
                                   Py_ssize_t* n_cand, Py_ssize_t* n_same) noexcept nogil:
    """The candidate of largest kappa among those of the binary SV ``m``'s sign (-1: none; first index
    on ties), the likely partner.  Writes ``cand`` (``n_cand`` entries of ``n_sv``): the candidates
    of ``m``'s sign other than ``m`` with ``log kappa > -inf``, in index order, so that the pruned
    scans visit only those (a branch on the sign per SV would be mispredicted half the time;
    ``lk[m]`` is read, not used); and ``n_same``: the number of ``n`` with ``alpha_m alpha_n >= 0``."""
    cdef Py_ssize_t n, j, first, k = 0, k2
    cdef Py_ssize_t f0 = -1, f1 = -1
    cdef double t0 = -INFINITY, t1 = -INFINITY
    cdef Py_ssize_t f
    n_same[0] = sign_flags(&alpha[0, 0], lk, am0, n_sv, cand)      # binary: alpha[n, 0] = a[n]
    cand[m] = 0
    for n in range(n_sv):                                            # compaction in place (k <= n)
        f = cand[n]
        cand[k] = n
        k += f
    n_cand[0] = k
    k2 = k - k % 2
    for j in range(0, k2, 2):                                        # two running maxima (two chains)
        n = cand[j]
        if lk[n] > t0:
            t0 = lk[n]
            f0 = n
        n = cand[j + 1]
        if lk[n] > t1:
            t1 = lk[n]
            f1 = n
    if k2 < k:
        n = cand[k2]
        if lk[n] > t0:
            t0 = lk[n]
            f0 = n
    first = f0
    if t1 > t0 or (t1 == t0 and f1 >= 0 and (f0 < 0 or f1 < f0)):
        first = f1
    return first


cdef Py_ssize_t _lookup_wd_cut_scan(double am0, const double[:, ::1] alpha, Py_ssize_t n_sv,
                                    Py_ssize_t m, const double* lk, Py_ssize_t* cand,
                                    const double* wd_table,
                                    Py_ssize_t G, const double* cut_table, Py_ssize_t cut_G,
                                    double unit, double* lo, double* best_wd_out, double* best_lk_out,
                                    Py_ssize_t* n_same) noexcept nogil:
    """Lookup-WD's choice of partner for the binary SV ``m`` (coefficient ``am0``), pruned by the cut.

    Returns the partner (-1: none of equal sign) and writes its WD and log kappa: the plain scan's
    (:func:`refsvm.budget.least_wd_partner`: tie tolerance ``tol = unit WD``; ``lo`` (``n_sv``, all
    NaN on entry) receives ``WD - tol`` of each candidate solved).  ``cand``: work for
    :func:`_nearest_same_sign`.  The candidate of largest kappa is evaluated first; then every
    candidate in index order whose log kappa reaches the cut (:func:`c_wd_cut`) of
    ``upper (1 + 2 unit)``, ``upper`` the least ``WD + tol`` so far: below it ``WD (1 - unit) > upper``,
    no tie.  ``n_same``: as :func:`_nearest_same_sign`'s."""
    cdef Py_ssize_t n, k, best_n, n_cand
    cdef double wd, upper = INFINITY, cut = -DBL_MAX                 # -DBL_MAX: skip only the -inf entries
    cdef Py_ssize_t first = _nearest_same_sign(am0, alpha, n_sv, m, lk, cand, &n_cand, n_same)
    if first < 0:
        return -1
    wd = merge_wd_lookup_c(am0, alpha[first, 0], lk[first], wd_table, G)   # G&Q Alg. 1, lines 5-9
    if wd < INFINITY:
        lo[first] = wd - unit * wd
        upper = wd + unit * wd
        cut = c_wd_cut(am0, upper * (1.0 + 2.0 * unit), cut_table, cut_G)
        if cut < -DBL_MAX:
            cut = -DBL_MAX
    else:                                                            # inf or NaN (overflowing coefficients):
        first = -1                                                   # never chosen: scan it again in order
    for k in range(n_cand):
        n = cand[k]
        if lk[n] < cut or n == first:
            continue                                                 # cannot be a tie of the best
        wd = merge_wd_lookup_c(am0, alpha[n, 0], lk[n], wd_table, G)
        if not wd < INFINITY:
            continue
        lo[n] = wd - unit * wd
        if wd + unit * wd < upper:
            upper = wd + unit * wd
            cut = c_wd_cut(am0, upper * (1.0 + 2.0 * unit), cut_table, cut_G)
            if cut < -DBL_MAX:
                cut = -DBL_MAX
    best_n = _least_wd_partner(lo, n_sv, upper)                      # ties within rounding: lowest index
    if best_n >= 0:
        best_wd_out[0] = merge_wd_lookup_c(am0, alpha[best_n, 0], lk[best_n], wd_table, G)
        best_lk_out[0] = lk[best_n]
    return best_n



# ----------------------------------------------------------------------------
# Python level: the tables of the bounds, and test hooks
# ----------------------------------------------------------------------------

#: Grid of the partner-pruning bound table (:func:`_c_bound_table`): 64 cells per axis.
_MERGE_BOUND_GRID = 64
_BOUND_TABLES = []          # computed once per process, kept alive for the C cores
_PRUNE = [True]


def _set_merge_pruning(on):
    """Switch partner pruning of the compiled merge on or off (a test hook: off gives the plain scan);
    returns the previous setting."""
    previous = _PRUNE[0]
    _PRUNE[0] = bool(on)
    return previous


_CUT_TABLES = []            # (wd_table, cut table) of read-only lookup tables, kept alive with them


def _wd_cut_table(wd_table):
    """The ``(2, G)`` table of :func:`c_wd_cut` for a ``(G + 1, G + 1)`` Lookup-WD table ``T``.

    Row 0, ``P[J]``: a lower bound of ``bilinear(T, m, kappa) / m^2`` over ``0 < m <= 1/2`` and the
    kappa cells ``j <= J`` (``kappa < (J + 1) / G``).  On one cell the interpolation is a convex
    combination, over its two kappa columns, of functions linear in ``m``; for a linear ``A >= 0``,
    ``A(m) / m^2 = A x^2`` (``x = 1 / m``) takes its least value at an end of the m-range, so per
    cell the least of ``A / m^2`` at the ends of ``[m_i, min(m_(i+1), 1/2)]``, over both columns,
    bounds it (the end ``m_0 = 0`` contributes nothing: there ``A / m^2`` grows without bound or
    decreases towards the next node).  ``P`` is that minimum over the cells ``i <= G / 2`` and the
    columns ``j' <= J``.  A table with a negative or non-finite entry gets ``P = 0`` (no cut).
    Row 1: ``log((J + 1) / G)`` less ``CUT_LK_MARGIN``.  For the shared read-only tables of
    ``get_tables`` it is computed once."""
    for table, cut in _CUT_TABLES:
        if table is wd_table:
            return cut
    T = np.asarray(wd_table, dtype=np.float64)
    G = T.shape[0] - 1
    cut = np.zeros((2, G))
    cut[1] = np.log(np.arange(1, G + 1) / G) - CUT_LK_MARGIN
    if np.all(np.isfinite(T)) and np.all(T >= 0.0):
        cells = np.arange(min(G // 2, G - 1) + 1)                  # cells i = 0 .. G // 2 (m <= 1/2)
        left = cells / G
        right = np.minimum((cells + 1) / G, 0.5)
        with np.errstate(divide="ignore", invalid="ignore"):
            at_left = T[cells] / (left * left)[:, None]            # A(m_i) = T[i]
            at_left[0] = np.inf                                    # the end m_0 = 0
        u = ((right - left) * G)[:, None]                          # A(right) by the interpolation
        at_right = ((1.0 - u) * T[cells] + u * T[cells + 1]) / (right * right)[:, None]
        ends = np.minimum(at_left, at_right)                       # (cells, G + 1): per cell and column
        per_cell = np.minimum(ends[:, :-1], ends[:, 1:]).min(axis=0)   # both columns of kappa cell j
        cut[0] = np.minimum.accumulate(per_cell)
    if not wd_table.flags.writeable:
        _CUT_TABLES.append((wd_table, cut))
    return cut


def _c_bound_table(needed, merge_solver="gss", wd_table=None):
    """The partner-pruning table of ``merge_solver`` and its grid ``G`` (``c_maintain_merge``).

    Lookup-WD: :func:`_wd_cut_table` of its ``wd_table``, ``G`` of that table.  Every other solver:
    ``G = _MERGE_BOUND_GRID`` and one ``(2 G + 4, G + 1)`` array: the two ``(G + 1, G + 1)`` tables of
    :func:`c_merge_wd_bound`, ``T`` = normalised WD at the nodes (``refsvm.lookup.compute_tables``,
    GSS-precise) and ``R[k - 1] = T[k] / (k / G)^2``, then the two rows of :func:`c_exact_cut`,
    ``P`` (the running minimum of ``R[G/2 - 1]``) and ``log(j / G)`` less a margin.
    A 1x1 dummy and ``G = 0`` (no pruning) when not ``needed`` or pruning is switched off."""
    if not (needed and _PRUNE[0]):
        return np.zeros((1, 1)), 0
    if merge_solver == "lookup-wd":
        return _wd_cut_table(wd_table), wd_table.shape[0] - 1
    if not _BOUND_TABLES:
        from refsvm.lookup import compute_tables
        G = _MERGE_BOUND_GRID
        T = compute_tables(G)[1]
        R = np.zeros_like(T)
        nodes = np.arange(1, G + 1) / G
        R[:G] = T[1:] / (nodes * nodes)[:, None]
        P = np.minimum.accumulate(R[G // 2 - 1])                   # c_exact_cut
        with np.errstate(divide="ignore"):
            LK = np.log(np.arange(G + 1) / G) - CUT_LK_MARGIN
        table = np.ascontiguousarray(np.vstack([T, R, P, LK]), dtype=np.float64)
        table.setflags(write=False)
        _BOUND_TABLES.append(table)
    return _BOUND_TABLES[0], _MERGE_BOUND_GRID


def _merge_wd_bound(alpha_m, alpha_n, log_kappa):
    """The lower bound on a binary pair's WD that partner pruning uses (a test hook; ``alpha_m alpha_n >= 0``)."""
    table, G = _c_bound_table(True)
    cdef const double[:, ::1] tv = table
    return float(c_merge_wd_bound(alpha_m, alpha_n, exp(log_kappa), &tv[0, 0], G)) if G else 0.0


def _gss_wd_bound(alpha_m, alpha_n, log_kappa, eps):
    """The lower bound on GSS's WD from its end points (:func:`c_gss_wd_bound`; a test hook)."""
    return float(c_gss_wd_bound(alpha_m, alpha_n, exp(log_kappa), log_kappa, c_gss_h_min(eps)))


def _sign_flags(a, lk, am0):
    """``(flags, n_same)`` of ``refsvm_sign_flags`` (a test hook)."""
    cdef const double[::1] av = np.ascontiguousarray(a, dtype=np.float64)
    cdef const double[::1] lv = np.ascontiguousarray(lk, dtype=np.float64)
    flags = np.empty(av.shape[0], dtype=np.intp)
    cdef Py_ssize_t[::1] fv = flags
    cdef Py_ssize_t n = av.shape[0], same = 0
    if n:
        same = sign_flags(&av[0], &lv[0], am0, n, &fv[0])
    return flags, int(same)


def _gss_h_min(eps):
    """:func:`c_gss_h_min` (a test hook)."""
    return float(c_gss_h_min(eps))


def _exact_cut(alpha_m, best_wd):
    """``(cut, a_max)`` of :func:`c_exact_cut` (a test hook; pruning must be on)."""
    table, G = _c_bound_table(True)
    cdef const double[:, ::1] tv = table
    cdef double a_max = 0.0
    cdef double cut = c_exact_cut(alpha_m, best_wd, &tv[0, 0], G, _tie_unit(MERGE_GSS, 1), &a_max)
    return float(cut), float(a_max)


def _lookup_wd_cut(alpha_m, best_wd, tables=None):
    """The log-kappa cut of Lookup-WD's pruning for ``|alpha_m|`` and the best WD so far (a test hook;
    -inf: none).  ``tables``: as :func:`maintain_merge`'s."""
    wd_table = _c_tables(tables, True)[1]
    cut = np.ascontiguousarray(_wd_cut_table(wd_table))
    cdef const double[:, ::1] cv = cut
    return float(c_wd_cut(alpha_m, best_wd, &cv[0, 0], cut.shape[1]))
