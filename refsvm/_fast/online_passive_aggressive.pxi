# BPA-NN's replacement step (mirror of refsvm.online.passive_aggressive: bpann,
# nearest_neighbours, nearest_neighbour_replacement, bpann_tolerances); included by online.pyx.
# Every expression is written in the reference's evaluation order (numpy's elementwise
# operations, left to right), so the two paths compute the same numbers from the same inputs.

cdef inline Py_ssize_t _least_index(const double* Q, const double* tol, Py_ssize_t b) noexcept nogil:
    """:func:`refsvm.online.passive_aggressive.least_objective`: the lowest ``j`` with a finite ``Q_j``
    and ``Q_j - tol_j <= min over finite Q_j of (Q_j + tol_j)``; 0 when none is finite."""
    cdef double upper = INFINITY
    cdef bint any_finite = False
    cdef Py_ssize_t j
    for j in range(b):
        if isfinite(Q[j]):
            any_finite = True
            if Q[j] + tol[j] < upper:
                upper = Q[j] + tol[j]
    if not any_finite:
        return 0
    for j in range(b):
        if isfinite(Q[j]) and Q[j] - tol[j] <= upper:
            return j
    return 0


cdef void _nearest_neighbours(const double[:, ::1] G, Py_ssize_t b, double eps_K, double* D, double* tol,
                              double* diag, int64_t* nn) noexcept nogil:
    """:func:`refsvm.online.passive_aggressive.nearest_neighbours`: ``nn[r]``, the lowest ``j != r`` whose
    ``D_rj = (G_rr + G_jj) - 2 G_rj`` is within ``tol_rj = 2 (4 eps_K + 3 u ((G_rr + G_jj) + 2 |G_rj|))`` of
    the least (``D``, ``tol``, ``diag``: scratch rows of ``b``; ``diag`` gets ``G_jj``).

    Screened as :func:`_least_objective`: ``T`` (``tol_rj`` at the row's largest ``G_jj`` and ``|G_rj|``,
    rounded up) bounds every ``tol_rj``, so ``U = min (D_rj + tol_rj) <= min D + T`` and a ``j`` with
    ``D_rj > min D + 2 T`` neither sets ``U`` nor ties: only the others get their ``tol_rj`` (the same
    choice as evaluating every one)."""
    cdef Py_ssize_t r, j, best_j
    cdef double u = U_ROUND, sum_d, d_min, g_max, diag_max = 0.0, T, screen, upper, g_rr
    cdef const double* G_r
    for j in range(b):
        diag[j] = G[j, j]
        if diag[j] > diag_max:
            diag_max = diag[j]
    for r in range(b):
        d_min = INFINITY
        g_max = 0.0
        G_r = &G[r, 0]
        g_rr = diag[r]
        for j in range(b):
            D[j] = (g_rr + diag[j]) - 2.0 * G_r[j]
            if D[j] < d_min and j != r:
                d_min = D[j]
            if fabs(G_r[j]) > g_max and j != r:
                g_max = fabs(G_r[j])
        D[r] = INFINITY                                     # r is not its own neighbour
        T = 2.0 * (4.0 * eps_K + 3.0 * u * ((g_rr + diag_max) + 2.0 * g_max)) * (1.0 + 16.0 * u)
        screen = d_min + 2.0 * T if isfinite(T) else INFINITY
        upper = INFINITY
        best_j = -1
        for j in range(b):
            if isfinite(D[j]) and D[j] <= screen:
                sum_d = g_rr + diag[j]
                tol[j] = 2.0 * (4.0 * eps_K + 3.0 * u * (sum_d + 2.0 * fabs(G_r[j])))
                if D[j] + tol[j] < upper:
                    upper = D[j] + tol[j]
        for j in range(b):
            if isfinite(D[j]) and D[j] <= screen and D[j] - tol[j] <= upper:
                best_j = j
                break
        nn[r] = best_j if best_j >= 0 else 0


cdef struct NNCandidate:
    bint in_span              # x_n counted in span{x_t}: V = {t}
    double c_n                # projection coefficient on k(x_n, .) (0 in the span)
    double wd                 # alpha_r^2 ||P_V^perp k(x_r, .)||^2
    double tol_wd             # its tie tolerance


cdef inline NNCandidate _nn_candidate(const double[:, ::1] G, const double* A, const double* k, Py_ssize_t r,
                                      Py_ssize_t n, double k_tt, double eps_K) noexcept nogil:
    """One candidate ``r`` of :func:`refsvm.online.passive_aggressive.nearest_neighbour_replacement` with its
    neighbour ``n`` (:func:`~refsvm.online.passive_aggressive.bpann_tolerances` for the bounds)."""
    cdef NNCandidate out
    cdef double u = U_ROUND
    cdef double k_tr = k[r], k_tn = k[n], k_nr = G[n, r], k_rr = G[r, r], k_nn = G[n, n], a = A[r]
    cdef double s = k_nn - k_tn * k_tn / k_tt               # ||P_t^perp k(x_n, .)||^2
    cdef double m = k_nr - k_tn * k_tr / k_tt
    cdef double e = k_rr - k_tr * k_tr / k_tt               # ||P_t^perp k(x_r, .)||^2 (BPA-S)
    cdef double q_r = fabs(k_tr) / k_tt, q_n = fabs(k_tn) / k_tt
    cdef double e_s = eps_K * ((1.0 + q_n) * (1.0 + q_n)) + 3.0 * u * (fabs(k_nn) + q_n * fabs(k_tn))
    cdef double e_m = eps_K * (1.0 + q_n) * (1.0 + q_r) + 3.0 * u * (fabs(k_nr) + q_n * fabs(k_tr))
    cdef double e_e = eps_K * ((1.0 + q_r) * (1.0 + q_r)) + 3.0 * u * (fabs(k_rr) + q_r * fabs(k_tr))
    cdef double m2s = 0.0, e_m2s = 0.0, resid
    out.in_span = s <= SPAN_SAFETY_C * e_s
    if out.in_span:
        out.c_n = 0.0
        resid = e
    else:
        m2s = m * m / s
        e_m2s = 2.0 * fabs(m) * e_m / s + m2s * e_s / s + 3.0 * u * m2s
        out.c_n = m / s
        resid = e - m * m / s
    if resid < 0.0:                                         # max(0, resid) (NaN stays NaN, as numpy's)
        resid = 0.0
    out.wd = a * a * resid
    out.tol_wd = 2.0 * a * a * (e_e + e_m2s + 4.0 * u * (fabs(e) + m2s))
    return out


cdef Py_ssize_t _bpann_replacement(const double[:, ::1] G, const double* A, const double* k, Py_ssize_t b,
                                   double k_tt, double eps_K, double* wd, double* tol, double* scratch,
                                   double* diag, int64_t* nn, Py_ssize_t* n_out, double* c_t,
                                   double* c_n) noexcept nogil:
    """:func:`refsvm.online.passive_aggressive.nearest_neighbour_replacement`: the replaced ``r`` (returned),
    its neighbour ``*n_out`` and the projection ``*c_t``, ``*c_n`` (``wd``, ``tol``, ``scratch``, ``diag``:
    rows of ``b``; ``nn``: the neighbours)."""
    cdef Py_ssize_t r, n
    cdef NNCandidate cand
    _nearest_neighbours(G, b, eps_K, wd, scratch, diag, nn)   # wd, scratch: the distance rows' scratch
    for r in range(b):
        cand = _nn_candidate(G, A, k, r, nn[r], k_tt, eps_K)
        wd[r] = cand.wd
        tol[r] = cand.tol_wd
    r = _least_index(wd, tol, b)                            # argmin WD_r, ties within rounding: lowest slot
    n = nn[r]
    cand = _nn_candidate(G, A, k, r, n, k_tt, eps_K)
    n_out[0] = n
    c_n[0] = cand.c_n
    c_t[0] = (k[r] - k[n] * cand.c_n) / k_tt
    return r
