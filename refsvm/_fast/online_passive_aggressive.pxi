# BPA-NN's replacement step (mirror of refsvm.online.passive_aggressive: bpann,
# nearest_neighbours, nearest_neighbour_replacement, bpann_tolerances); included by online.pyx.
# Every expression is written in the reference's evaluation order (numpy's elementwise
# operations, left to right), so the two paths compute the same numbers from the same inputs.
# How differs: the reference finds every SV's neighbour at every full-budget update (O(B^2));
# the twin keeps the neighbour table and recomputes only the rows a replacement can change
# (_nn_replaced: O(B) checks plus O(B) per such row), the same table as recomputing it.

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


# The neighbour table the twin keeps between steps (the reference recomputes it every full-budget
# update): nn[r] and the row's U_r = min_j (D_rj + tol_rj), valid for the SVs' kernel matrix G and the
# error bound eps; diag holds G_jj, diag_max an upper bound of them.
cdef struct Neighbours:
    bint valid
    double eps
    double diag_max
    int64_t* nn
    double* U
    double* diag
    double* D                 # scratch rows of the capacity
    double* tol


cdef inline double _nn_tol(double eps_K, double sum_d, double g) noexcept nogil:
    """``tol_rj = 2 (4 eps_K + 3 u (sum_d + 2 |G_rj|))``, ``sum_d = G_rr + G_jj`` (reference's order)."""
    return 2.0 * (4.0 * eps_K + 3.0 * U_ROUND * (sum_d + 2.0 * fabs(g)))


cdef void _nn_row(const double[:, ::1] G, Py_ssize_t b, Py_ssize_t r, Neighbours* T) noexcept nogil:
    """Row ``r`` of :func:`refsvm.online.passive_aggressive.nearest_neighbours`: ``nn[r]``, the lowest
    ``j != r`` whose ``D_rj = (G_rr + G_jj) - 2 G_rj`` is within ``tol_rj`` of ``U_r``, the least
    ``D_rj + tol_rj`` (both stored).

    Screened as :func:`_least_objective`: ``bound`` (``tol_rj`` at the largest ``G_jj`` and ``|G_rj|``,
    rounded up) bounds every ``tol_rj``, so ``U_r <= min D + bound`` and a ``j`` with
    ``D_rj > min D + 2 bound`` neither sets ``U_r`` nor ties: only the others get their ``tol_rj`` (the
    same choice as evaluating every one)."""
    cdef Py_ssize_t j, best_j = -1
    cdef double d_min = INFINITY, g_max = 0.0, bound, screen, upper = INFINITY, g_rr = T.diag[r]
    cdef const double* G_r = &G[r, 0]
    cdef double* D = T.D
    for j in range(b):
        D[j] = (g_rr + T.diag[j]) - 2.0 * G_r[j]
        if D[j] < d_min and j != r:
            d_min = D[j]
        if fabs(G_r[j]) > g_max and j != r:
            g_max = fabs(G_r[j])
    D[r] = INFINITY                                         # r is not its own neighbour
    bound = _nn_tol(T.eps, g_rr + T.diag_max, g_max) * (1.0 + 16.0 * U_ROUND)
    screen = d_min + 2.0 * bound if isfinite(bound) else INFINITY
    for j in range(b):
        if isfinite(D[j]) and D[j] <= screen:
            T.tol[j] = _nn_tol(T.eps, g_rr + T.diag[j], G_r[j])
            if D[j] + T.tol[j] < upper:
                upper = D[j] + T.tol[j]
    for j in range(b):
        if isfinite(D[j]) and D[j] <= screen and D[j] - T.tol[j] <= upper:
            best_j = j
            break
    T.nn[r] = best_j if best_j >= 0 else 0
    T.U[r] = upper


cdef void _nearest_neighbours(const double[:, ::1] G, Py_ssize_t b, double eps_K, Neighbours* T) noexcept nogil:
    """:func:`refsvm.online.passive_aggressive.nearest_neighbours` at ``eps_K``: the table kept when it is
    valid at this ``eps_K`` (bitwise), else every row computed."""
    cdef Py_ssize_t j
    if T.valid and T.eps == eps_K:
        return
    T.eps = eps_K
    T.diag_max = 0.0
    for j in range(b):
        T.diag[j] = G[j, j]
        if T.diag[j] > T.diag_max:
            T.diag_max = T.diag[j]
    for j in range(b):
        _nn_row(G, b, j, T)
    T.valid = True


cdef void _nn_replaced(double[:, ::1] G, Py_ssize_t b, Py_ssize_t r, const double* k, double k_tt,
                       Neighbours* T) noexcept nogil:
    """Slot ``r`` of ``G`` becomes ``x_t`` (row and column ``k``, ``G_rr = k_tt``) and the table follows.

    Only entry ``(j, r)`` of a row ``j != r`` changes.  If neither its old nor its new value lies in the
    row's tie band (``D_jr - tol_jr <= U_j``), the row's ``U_j`` and band are unchanged (an entry outside the
    band has ``D + tol > U_j``: it neither set ``U_j`` nor lowers it), and so is ``nn[j]``; otherwise the
    row is recomputed, as is row ``r``.  The result equals a full recomputation at ``T.eps``."""
    cdef Py_ssize_t j
    cdef double d_old, d_new
    if not T.valid:
        for j in range(b):
            G[r, j] = k[j]
            G[j, r] = k[j]
        G[r, r] = k_tt
        return
    for j in range(b):
        if j == r:
            continue
        d_old = (T.diag[j] + T.diag[r]) - 2.0 * G[j, r]
        d_new = (T.diag[j] + k_tt) - 2.0 * k[j]
        if (d_old - _nn_tol(T.eps, T.diag[j] + T.diag[r], G[j, r]) <= T.U[j]
                or d_new - _nn_tol(T.eps, T.diag[j] + k_tt, k[j]) <= T.U[j]):
            T.nn[j] = -1                                    # to recompute
    T.nn[r] = -1
    for j in range(b):
        G[r, j] = k[j]
        G[j, r] = k[j]
    G[r, r] = k_tt
    T.diag[r] = k_tt
    if k_tt > T.diag_max:
        T.diag_max = k_tt
    for j in range(b):
        if T.nn[j] < 0:
            _nn_row(G, b, j, T)


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
                                   double k_tt, double eps_K, double* wd, double* tol, Neighbours* T,
                                   Py_ssize_t* n_out, double* c_t, double* c_n) noexcept nogil:
    """:func:`refsvm.online.passive_aggressive.nearest_neighbour_replacement`: the replaced ``r`` (returned),
    its neighbour ``*n_out`` and the projection ``*c_t``, ``*c_n`` (``wd``, ``tol``: rows of ``b``)."""
    cdef Py_ssize_t r, n
    cdef NNCandidate cand
    _nearest_neighbours(G, b, eps_K, T)
    for r in range(b):
        cand = _nn_candidate(G, A, k, r, T.nn[r], k_tt, eps_K)
        wd[r] = cand.wd
        tol[r] = cand.tol_wd
    r = _least_index(wd, tol, b)                            # argmin WD_r, ties within rounding: lowest slot
    n = T.nn[r]
    cand = _nn_candidate(G, A, k, r, n, k_tt, eps_K)
    n_out[0] = n
    c_n[0] = cand.c_n
    c_t[0] = (k[r] - k[n] * cand.c_n) / k_tt
    return r
