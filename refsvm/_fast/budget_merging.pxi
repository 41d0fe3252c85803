# Merging (Algorithm 2, "Merging", eq. 16-19), included by budget.pyx after pruning.pxi (whose bounds
# the partner scan of :func:`c_maintain_merge` calls inline): the compiled mirror of
# refsvm.budget.merging (same functions, same signatures, same comparisons).
#
# Contents: the C cores of a pair (objective, golden-section search, GSS-precise's Newton polish, WD),
# the partner search with its tie rule and the merge (:func:`c_maintain_merge`), then the Python-level
# functions and the tables a merge reads (:func:`open_merge_tables`).

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


cdef double c_merge_gain(double h, const double* am, const double* an, Py_ssize_t c,
                         double log_kappa) noexcept nogil:
    """:func:`refsvm.budget.merge_gain`: ``G(h) = 2 S.D + D.D``, ``S = alpha_m + alpha_n``,
    ``D = alpha_m expm1((1-h)^2 L) + alpha_n expm1(h^2 L)`` (the same operations, class sums in
    index order)."""
    cdef double u = 1.0 - h
    cdef double em = expm1(u * u * log_kappa)
    cdef double en = expm1(h * h * log_kappa)
    cdef double s_d = 0.0, d_d = 0.0, d
    cdef Py_ssize_t r
    for r in range(c):
        d = am[r] * em + an[r] * en
        s_d += (am[r] + an[r]) * d
        d_d += d * d
    return 2.0 * s_d + d_d


cdef inline double _merge_search_value(double h, const double* am, const double* an, Py_ssize_t c,
                                       double log_kappa, bint near, double* az) noexcept nogil:
    """:func:`refsvm.budget.merge_search_objective` at ``h``: ``G`` if ``near``, else ``g``."""
    if near:
        return c_merge_gain(h, am, an, c, log_kappa)
    return c_merge_objective(h, am, an, c, log_kappa, az)


cdef double _gss_merge(double lo, double hi, double eps, const double* am, const double* an,
                       Py_ssize_t c, double log_kappa, bint near, double* az) noexcept nogil:
    """``golden_section_search(f, lo, hi, eps)`` for :func:`_merge_search_value`, same comparisons."""
    cdef double a = lo, b = hi
    cdef double cc = b - GR * (b - a)
    cdef double dd = a + GR * (b - a)
    cdef double fc = _merge_search_value(cc, am, an, c, log_kappa, near, az)
    cdef double fd = _merge_search_value(dd, am, an, c, log_kappa, near, az)
    while b - a > eps:
        if fc >= fd:          # the maximum lies in [a, d]
            b = dd
            dd = cc
            fd = fc
            cc = b - GR * (b - a)
            fc = _merge_search_value(cc, am, an, c, log_kappa, near, az)
        else:                 # the maximum lies in [c, b]
            a = cc
            cc = dd
            fc = fd
            dd = a + GR * (b - a)
            fd = _merge_search_value(dd, am, an, c, log_kappa, near, az)
    return 0.5 * (a + b)


cdef inline bint _upper_half(const double* am, const double* an, Py_ssize_t c, double log_kappa, bint near,
                             double* az) noexcept nogil:
    """``f(1) >= f(0)`` for the search's objective (:func:`refsvm.budget.merge_h`: search [1/2, 1])."""
    return (_merge_search_value(1.0, am, an, c, log_kappa, near, az)
            >= _merge_search_value(0.0, am, an, c, log_kappa, near, az))


cdef double c_merge_h(const double* am, const double* an, Py_ssize_t c, double log_kappa,
                      double eps, double* az) noexcept nogil:
    """``h`` of eq. (18), searched on the half of [0, 1] whose end point is better."""
    cdef bint near = log_kappa > -NEAR_LOG_KAPPA                # refsvm.budget.merge_search_objective
    if _upper_half(am, an, c, log_kappa, near, az):
        return _gss_merge(0.5, 1.0, eps, am, an, c, log_kappa, near, az)
    return _gss_merge(0.0, 0.5, eps, am, an, c, log_kappa, near, az)


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
    cdef bint near = log_kappa > -NEAR_LOG_KAPPA                # refsvm.budget.merge_search_objective
    if _upper_half(am, an, c, log_kappa, near, az):
        lo = 0.5
        hi = 1.0
    h = _gss_merge(lo, hi, POLISH_WIDTH, am, an, c, log_kappa, near, az)
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


# ----------------------------------------------------------------------------
# C cores: the merge of the smallest SV
# ----------------------------------------------------------------------------

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
                                 const double* kappa_hint, Py_ssize_t* n_same_out, double* h_out) noexcept nogil:
    """:func:`c_maintain_merge_tie` with m the exact argmin (BSGD: ``tie_unit = 0``, no bounds)."""
    return c_maintain_merge_tie(SV, alpha, n_sv, gamma, eps, solver, T, work, m_out, n_out, wd_out, lk_hint,
                                kappa_hint, n_same_out, h_out, 0.0, NULL)


cdef Py_ssize_t c_maintain_merge_tie(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv, double gamma, double eps,
                                     int solver, const MergeTables* T, double[::1] work, Py_ssize_t* m_out,
                                     Py_ssize_t* n_out, double* wd_out, const double* lk_hint,
                                     const double* kappa_hint, Py_ssize_t* n_same_out, double* h_out,
                                     double tie_unit, const double* errors) noexcept nogil:
    """Merge the smallest SV ``m`` with the partner of least WD; ``work`` holds >= 2 c + 3 n_sv doubles.

    ``m``: :func:`c_select_smallest_tie` with ``tie_unit`` and ``errors`` (BSCA: its selection tie unit
    and the coefficients' bounds ``e_j``; :func:`refsvm.budget.merge_smallest`); ``tie_unit = 0``: the
    exact argmin.

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
    ``h_out`` (or NULL: one guarded store, per-step records off): the h that placed z (eq. 18), the
    value the merge used; NaN when ``m`` was removed for want of a partner.
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
    cdef Py_ssize_t m = c_select_smallest_tie(SV, alpha, n_sv, KERNEL_RBF, gamma, 0.0, 0.0, tie_unit, errors,
                                              &wd_removal)   # Alg. 2, merging, line 1: fix m
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
        if h_out != NULL:
            h_out[0] = NAN
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
    if h_out != NULL:
        h_out[0] = best_h
    return c_remove_sv(SV, alpha, n_sv, best_n)                         # Alg. 2, merging, line 2


# ----------------------------------------------------------------------------
# Python-level functions (same names and signatures as refsvm.budget.merging)
# ----------------------------------------------------------------------------

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


def merge_smallest(SV, alpha, n_sv, gamma, eps, merge_solver, tables, h_out=None, tie_unit=0.0, errors=None):
    """Alg. 2, merging, with resolved arguments (:func:`refsvm.budget.merge_smallest`): ``eps`` the
    solver's precision, ``tables`` those of a lookup solver (None: ``get_tables()``); ``h_out[0]``
    (if given) receives the merge's h; ``tie_unit``, ``errors``: m's selection ties (BSCA)."""
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
    cdef double g = gamma, wd, h = NAN, tu = tie_unit
    ev = None if errors is None else np.ascontiguousarray(errors, dtype=np.float64)
    if ev is not None and ev.shape[0] < n:
        raise ValueError(f"errors must hold one bound per SV ({n}), got shape {ev.shape}")
    cdef const double[::1] evv = ev
    cdef const double* ep = NULL if ev is None else &evv[0]
    with nogil:
        n = c_maintain_merge_tie(&St, Av, n, g, e, code, &T, wv, &m, &partner, &wd, NULL, NULL, NULL, &h, tu, ep)
    if h_out is not None:
        h_out[0] = float(h)
    _close_store(&St, S, n)
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return int(n), int(m), int(partner), float(wd)
