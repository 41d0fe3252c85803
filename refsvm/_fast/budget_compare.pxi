# The comparison mode of merging (the decisions of all four merge solvers on one merge event), included
# by budget.pyx: the compiled mirror of refsvm.budget.compare.  Its Python-level entry,
# :func:`merge_compare`, is in budget.pyx (as the reference's is in refsvm.budget).

# ----------------------------------------------------------------------------
# C cores: comparison mode
# ----------------------------------------------------------------------------

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
