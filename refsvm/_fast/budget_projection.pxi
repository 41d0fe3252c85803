# Projection (Algorithm 2, "Projection", eq. 13-15), included by budget.pyx after linalg.pxi (whose LU
# and kept-inverse helpers it calls): the compiled mirror of refsvm.budget.projection.
#
# Contents: the stateless C core (:func:`c_maintain_projection_solve`, :func:`c_project_sv`, as the
# reference), the C cores of BSGD's compiled path with the kept inverse
# (:func:`c_maintain_projection_inverse`) and with the kept Cholesky factor (the ``kept="factor"`` variant,
# :func:`c_maintain_projection_factor`), then the Python-level :func:`maintain_projection`.

# ----------------------------------------------------------------------------
# C cores: projection
# ----------------------------------------------------------------------------

cdef int c_maintain_projection_solve(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv,
                                     int kernel, double gamma, double degree, double coef0,
                                     double ridge, double[::1] Kp, double[::1] rhs, int[::1] ipiv,
                                     Py_ssize_t* p_out, double* wd_out, double* errors,
                                     double kernel_error) noexcept nogil:
    """Projection from scratch (LU with partial pivoting), as the reference.  Returns 0, or
    a positive number if K_p + ridge I is exactly singular.  The ridge is relative,
    ``ridge * max_j k(x_j, x_j)`` over the others (:func:`refsvm.budget.relative_ridge`; the ridge itself for rbf).

    ``errors`` (BSGD projection; NULL: none): room for ``n_sv`` per-slot bounds, filled by
    :func:`c_conditioning_errors` and read by the selection (:func:`c_select_smallest_tie` with
    ``tie_unit = 0``).

    Buffers: ``Kp`` >= (n_sv-1)^2 (with ``errors``: 3 n_sv^2 + n_sv), ``rhs`` >= 2 (n_sv-1),
    ``ipiv`` >= n_sv (each at least 1).
    """
    cdef double dummy
    if errors == NULL:
        p_out[0] = c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, &dummy)   # Alg. 2, projection, line 1
    else:
        c_conditioning_errors(SV, alpha, n_sv, kernel, gamma, degree, coef0, ridge, kernel_error, errors,
                              &Kp[0], &ipiv[0])
        p_out[0] = c_select_smallest_tie(SV, alpha, n_sv, kernel, gamma, degree, coef0, 0.0, errors, &dummy)  # line 1
    return c_project_sv(SV, alpha, n_sv, p_out[0], kernel, gamma, degree, coef0, ridge, Kp, rhs, ipiv, wd_out, NULL)


cdef void c_conditioning_errors(const Store* SV, const double[:, ::1] alpha, Py_ssize_t n, int kernel,
                                double gamma, double degree, double coef0, double ridge, double kernel_error,
                                double* errors, double* work, int* ipiv) noexcept nogil:
    """:func:`refsvm.budget.conditioning_errors` of the ``n`` SVs into ``errors[:n]``: ``A = K + r I``
    (relative ridge), ``e_j = ||A^{-1}[j, :]||_1 rho`` (:func:`lu_inverse_abs_row_sums`, O(n^3)),
    ``rho`` from ``A`` and ``alpha`` (:func:`_conditioning_rho`), for the slots with a near duplicate
    (:func:`_near_duplicate_slot`), 0 elsewhere.  ``work``: 3 n^2 + n doubles, ``ipiv``: n.  A singular
    ``A`` (not reached with a positive ridge) leaves every ``e_j = 0``."""
    cdef Py_ssize_t i, j
    cdef double top = 0.0, v, rho
    cdef bint any_twin
    cdef double* diag = &work[3 * n * n]
    for i in range(n):
        for j in range(n):
            work[i * n + j] = store_kernel(SV, j, i, kernel, gamma, degree, coef0)
        v = store_self(SV, i, kernel, gamma, degree, coef0)
        work[i * n + i] = v
        diag[i] = v
        top = v if v > top else top
    if top > 0.0:                                            # relative ridge: ridge * max(diag K)
        ridge = ridge * top
    any_twin = False
    for j in range(n):                                       # 1 / 0: slot j has a near duplicate
        errors[j] = 1.0 if _near_duplicate_slot(work, n, n, diag, 1, j, ridge) else 0.0
        any_twin = any_twin or errors[j] != 0.0
    if not any_twin:                                         # every e_j = 0: no inverse needed
        return
    for i in range(n):
        work[i * n + i] += ridge
    rho = _conditioning_rho(work, n, n, 0.0, alpha, kernel_error)
    memcpy(&work[n * n], &work[0], n * n * sizeof(double))
    if lu_factor(&work[n * n], n, n, ipiv) != 0:
        for j in range(n):
            errors[j] = 0.0
        return
    memcpy(&work[3 * n * n], errors, n * sizeof(double))    # the flags (diag is no longer read)
    lu_inverse_abs_row_sums(&work[n * n], n, ipiv, &work[2 * n * n], errors)
    for j in range(n):
        errors[j] = errors[j] * rho if work[3 * n * n + j] != 0.0 else 0.0


cdef inline bint _twin_pair(double di, double dj, double kij, double r) noexcept nogil:
    """The pair test of :func:`refsvm.budget.near_duplicate_slots`: ``k_ii k_jj - k_ij^2 <= r (k_ii + k_jj)``."""
    return di * dj - kij * kij <= r * (di + dj)


cdef void twins_count(const double[:, ::1] K, Py_ssize_t n, double r, int* twins) noexcept nogil:
    """``twins[j]``: the number of near duplicates of slot ``j`` among the ``n`` SVs of the kept ``K``
    (:func:`_twin_pair`, ridge ``r``), O(n^2): at the start of a pass; then kept by :func:`twins_append`
    and the projection's removal (:func:`c_maintain_projection_inverse`)."""
    cdef Py_ssize_t j
    for j in range(n):
        twins[j] = 0
    for j in range(n):
        twins_append(K, j, r, twins)


cdef void twins_append(const double[:, ::1] K, Py_ssize_t b, double r, int* twins) noexcept nogil:
    """Slot ``b`` joins (its row of ``K`` set): the pairs it forms with slots ``0 .. b-1``, O(b)."""
    cdef Py_ssize_t i
    twins[b] = 0
    for i in range(b):
        if _twin_pair(K[i, i], K[b, b], K[b, i], r):
            twins[i] += 1
            twins[b] += 1


cdef void twins_remove(const double[:, ::1] K, Py_ssize_t n, Py_ssize_t p, double r, int* twins) noexcept nogil:
    """Slot ``p`` leaves (``n`` slots before, ``K`` not yet swap-removed; ``twins`` NULL: nothing): its pairs go
    and the counts follow remove(p), O(n)."""
    cdef Py_ssize_t j
    if twins == NULL:
        return
    for j in range(n):
        if j != p and _twin_pair(K[j, j], K[p, p], K[p, j], r):
            twins[j] -= 1
    twins[p] = twins[n - 1]
    twins[n - 1] = 0


cdef bint _near_duplicate_slot(const double* K, Py_ssize_t n, Py_ssize_t ld, const double* diag,
                               Py_ssize_t dstride, Py_ssize_t j, double r) noexcept nogil:
    """:func:`refsvm.budget.near_duplicate_slots` for slot ``j``: some ``i != j`` with
    ``k_ii k_jj - k_ij^2 <= r (k_ii + k_jj)`` (off-diagonal ``k_ij`` from ``K``, row-major with leading
    dimension ``ld``, ``n`` slots; the diagonal from ``diag`` with stride ``dstride``)."""
    cdef Py_ssize_t i
    cdef double dj = diag[j * dstride], di, kij
    for i in range(n):
        if i != j:
            di = diag[i * dstride]
            kij = K[j * ld + i]                              # row j (K symmetric; as the reference's rows)
            if di * dj - kij * kij <= r * (di + dj):
                return True
    return False


cdef double _conditioning_rho(const double* A, Py_ssize_t n, Py_ssize_t ld, double diag_add,
                              const double[:, ::1] alpha, double kernel_error) noexcept nogil:
    """``rho = max_r [(3 n + 2) u max_i (|A| |alpha^(r)|)_i + eps_K ||alpha^(r)||_1]`` of
    :func:`refsvm.budget.conditioning_errors` (row-major ``A``, leading dimension ``ld``, with
    ``diag_add`` >= 0 added to its diagonal: the kept K without its ridge)."""
    cdef Py_ssize_t i, j, r
    cdef double mag, mmax, l1, rho = 0.0, v
    for r in range(alpha.shape[1]):
        mmax = 0.0
        l1 = 0.0
        for i in range(n):
            mag = 0.0
            for j in range(n):
                mag += fabs(A[i * ld + j] + (diag_add if i == j else 0.0)) * fabs(alpha[j, r])
            mmax = mag if mag > mmax else mmax
            l1 += fabs(alpha[i, r])
        v = (3 * n + 2) * (0.5 * DBL_EPSILON) * mmax + kernel_error * l1
        rho = v if v > rho else rho
    return rho


cdef int c_project_sv(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv, Py_ssize_t p, int kernel, double gamma,
                      double degree, double coef0, double ridge, double[::1] Kp, double[::1] rhs, int[::1] ipiv,
                      double* wd_out, double* keep) noexcept nogil:
    """Eq. 14-15 for the chosen SV ``p`` (the rest of :func:`c_maintain_projection_solve`; BSCA selects
    ``p`` with its tie rule, :func:`c_select_smallest_tie`).  Returns 0 or the LU's singular pivot.
    ``keep`` (NULL: none): (n_sv-1)^2 doubles that receive ``K_p + ridge I`` before the LU overwrites it
    (for :func:`c_projection_solve_error`); ``rhs[m:2m]`` keeps ``k_p``."""
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
    if keep != NULL and m > 0:
        memcpy(keep, &Kp[0], m * m * sizeof(double))
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


cdef void c_projection_solve_error(const double* A, const double* LU, const int* ipiv, const double* x,
                                   const double* b, Py_ssize_t m, Py_ssize_t p, double a_p, double kernel_error,
                                   double* errors, double* work) noexcept nogil:
    """:func:`refsvm.budget.projection_solve_error` of the solve ``A x = b`` (``A = K_p + r I`` kept by
    :func:`c_project_sv`, ``LU`` its factors, ``b = k_p``): ``errors[o_j] += a_p d_j + (max(|x_j|, d_j)
    + d_j) errors[p]``, ``d_j = ||A^{-1}[j, :]||_1 rho``, for the SV ``o_j`` of row j (the SVs but ``p``),
    ``a_p = ||alpha_p||_inf``,
    ``rho = (3 m + 2) u max_i (|A| |x| + |b|)_i + eps_K (||x||_1 + 1)``.  The row norms from the
    inverse (:func:`lu_inverse_abs_row_sums`, O(m^3)); ``work``: m^2 + m doubles."""
    cdef Py_ssize_t i, j, oj
    cdef double mag, mmax = 0.0, x1 = 0.0, rho, d, xj, e_p = errors[p]
    for i in range(m):
        mag = fabs(b[i])
        for j in range(m):
            mag += fabs(A[i * m + j]) * fabs(x[j])
        mmax = mag if mag > mmax else mmax
        x1 += fabs(x[i])
    rho = (3 * m + 2) * (0.5 * DBL_EPSILON) * mmax + kernel_error * (x1 + 1.0)
    lu_inverse_abs_row_sums(LU, m, ipiv, work, work + m * m)
    for j in range(m):
        d = work[m * m + j] * rho                            # ||A^{-1}[j, :]||_1 rho >= |x_j - exact x_j|
        xj = fabs(x[j])
        oj = j if j < p else j + 1
        errors[oj] += a_p * d + ((xj if xj > d else d) + d) * e_p
        if errors[oj] > SOLVE_CAP:                           # saturates (SOLVE_ERROR_CAP): no decision changes
            errors[oj] = SOLVE_CAP


cdef Py_ssize_t c_maintain_projection_inverse(Store* SV, double[:, ::1] alpha,
                                              Py_ssize_t n_sv, int kernel, double gamma,
                                              double degree, double coef0, double ridge,
                                              double[:, ::1] K, double[:, ::1] Kinv,
                                              double[::1] x, double[::1] r, int refine_steps,
                                              Py_ssize_t* p_out, double* wd_out,
                                              double* errors, double kernel_error, int* twins) noexcept nogil:
    """Projection (eq. 14, 15) with the inverse ``Kinv = (K + ridge I)^{-1}`` of all ``n_sv`` SVs.

    ``(K_p + ridge I)^{-1} k_p = -Kinv[-p, p] / Kinv[p, p]``, refined by
    ``refine_steps`` steps of iterative refinement with the downdated inverse
    ``Kinv_{-p} = Kinv[-p, -p] - Kinv[-p, p] Kinv[p, -p] / Kinv[p, p]``; then
    K, Kinv, SV and alpha all lose SV ``p`` by the same swap-remove.  ``errors`` (NULL: none):
    as :func:`c_maintain_projection_solve`, with ``A = K + ridge I`` and the row norms of its kept
    inverse (O(n^2); rbf: the relative ridge is ``ridge``).  ``twins`` (NULL: scanned from K, O(n^2)):
    each slot's count of near duplicates (:func:`twins_count`), updated for the removal of ``p``.
    """
    cdef Py_ssize_t c = alpha.shape[1], n = n_sv, i, j, k, p
    cdef double q, xi, s, wd, dummy
    cdef int it
    if errors == NULL:
        p = c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, &dummy)   # Alg. 2, projection, line 1
    else:                                               # e_j = ||Kinv[j, :]||_1 rho (conditioning_errors)
        s = 0.0                                         # rho, once a slot has a near duplicate
        for j in range(n):
            r[j] = K[j, j]                              # the diagonal, contiguous (r: refinement's, later)
        for j in range(n):
            errors[j] = 0.0
            if (twins[j] > 0 if twins != NULL else
                    _near_duplicate_slot(&K[0, 0], n, K.shape[1], &r[0], 1, j, ridge)):   # ridge: rbf, k = 1
                if s == 0.0:
                    s = _conditioning_rho(&K[0, 0], n, K.shape[1], ridge, alpha, kernel_error)
                q = 0.0
                for k in range(n):
                    q += fabs(Kinv[j, k])
                errors[j] = q * s
        p = c_select_smallest_tie(SV, alpha, n_sv, kernel, gamma, degree, coef0, 0.0, errors, &dummy)   # line 1
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
    twins_remove(K, n, p, ridge, twins)
    sym_swap_remove(K, n, p)
    sym_swap_remove(Kinv, n, p)
    return c_remove_sv(SV, alpha, n_sv, p)                                  # Alg. 2, projection, line 2


cdef Py_ssize_t c_maintain_projection_factor(Store* SV, double[:, ::1] alpha,
                                             Py_ssize_t n_sv, int kernel, double gamma,
                                             double degree, double coef0, double ridge,
                                             double[:, ::1] K, double[:, ::1] L, int* fslot, int* fidx,
                                             double* work, int refine_steps,
                                             Py_ssize_t* p_out, double* wd_out,
                                             double* errors, double kernel_error, int* twins) noexcept nogil:
    """Projection (eq. 14, 15) with the kept Cholesky factor ``L`` of ``K + ridge I`` over all ``n_sv`` SVs, in
    factor order (``fslot`` / ``fidx``: linalg.pxi, "kept Cholesky factor"); the ``kept="factor"`` variant of
    :func:`c_maintain_projection_inverse`, the same selection, update and removal, O(n^2) per event.

    SV ``p`` leaves the factor first (:func:`chol_delete`, a rank-one update), so that ``L`` is then the factor
    of ``K_p + ridge I``; ``(K_p + ridge I)^{-1} k_p`` is two triangular solves (:func:`chol_solve`), refined by
    ``refine_steps`` steps of iterative refinement (residual from the kept K).  ``errors`` (NULL: none): the
    selection's bounds as :func:`c_maintain_projection_inverse`, ``e_j = ||A^{-1}[j, :]||_1 rho`` for the slots
    with a near duplicate, the row of ``A^{-1}`` by one solve each (O(n^2) per such slot).  ``work``: 3 n_sv
    doubles (the delete's scratch first, then x, xs and the refinement's).  Then K, SV, alpha and the maps lose SV ``p`` by the same swap-remove.
    """
    cdef Py_ssize_t c = alpha.shape[1], n = n_sv, m = n_sv - 1, i, j, k, p
    cdef double q, s, wd, dummy
    cdef int it
    cdef double* x = work                               # factor order (n - 1)
    cdef double* xs = work + n                          # slot order (n), xs[p] = 0
    cdef double* z = work + 2 * n                       # scratch: solves, chol_delete
    if errors == NULL:
        p = c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, &dummy)   # Alg. 2, projection, line 1
    else:                                               # e_j = ||A^{-1}[j, :]||_1 rho (conditioning_errors)
        s = 0.0                                         # rho, once a slot has a near duplicate
        for j in range(n):
            xs[j] = K[j, j]                             # the diagonal, contiguous
        for j in range(n):
            errors[j] = 0.0
            if (twins[j] > 0 if twins != NULL else
                    _near_duplicate_slot(&K[0, 0], n, K.shape[1], xs, 1, j, ridge)):   # ridge: rbf, k = 1
                if s == 0.0:
                    s = _conditioning_rho(&K[0, 0], n, K.shape[1], ridge, alpha, kernel_error)
                for k in range(n):                      # A^{-1} e_j (A symmetric: its row j)
                    z[k] = 0.0
                z[fidx[j]] = 1.0
                chol_solve(L, n, z)
                q = 0.0
                for k in range(n):
                    q += fabs(z[k])
                errors[j] = q * s
        p = c_select_smallest_tie(SV, alpha, n_sv, kernel, gamma, degree, coef0, 0.0, errors, &dummy)   # line 1
    p_out[0] = p
    chol_delete(L, n, fidx[p], fslot, fidx, work)       # L L' = K_p + ridge I (factor order, m rows)
    for j in range(n):
        xs[j] = 0.0
    for k in range(m):                                  # K_p^{-1} k_p
        x[k] = K[fslot[k], p]
    chol_solve(L, m, x)
    for k in range(m):
        xs[fslot[k]] = x[k]
    for it in range(refine_steps):                      # iterative refinement: z = k_p - (K_p + ridge I) x
        for k in range(m):
            j = fslot[k]
            z[k] = K[j, p] - (pw_dot(&K[j, 0], xs, n) + ridge * x[k])   # xs[p] = 0 hides column p
        chol_solve(L, m, z)
        for k in range(m):
            x[k] += z[k]
            xs[fslot[k]] = x[k]
    for j in range(n):                                  # eq. 14: Delta alpha^(i) = alpha_p^(i) K_p^{-1} k_p
        if j != p:
            for i in range(c):
                alpha[j, i] += xs[j] * alpha[p, i]
    wd = pw_sq_sum(&alpha[p, 0], c) * (K[p, p] - pw_dot(&K[p, 0], xs, n))   # eq. 15 (xs[p] = 0)
    wd_out[0] = 0.0 if 0.0 > wd else wd
    twins_remove(K, n, p, ridge, twins)
    sym_swap_remove(K, n, p)
    if p != n - 1:                                      # the last slot moves into p: its factor row stays
        k = fidx[n - 1]
        fslot[k] = <int> p
        fidx[p] = <int> k
    return c_remove_sv(SV, alpha, n_sv, p)                                  # Alg. 2, projection, line 2


# ----------------------------------------------------------------------------
# Python-level functions (same names and signatures as refsvm.budget.projection)
# ----------------------------------------------------------------------------

def maintain_projection(SV, alpha, n_sv, kernel, gamma, degree, coef0, ridge, tie_unit=0.0, errors=None,
                        kernel_error=0.0):
    """Project the smallest SV (ties: :func:`refsvm.budget.select_smallest`) onto the others (eq. 14)
    and remove it.

    Returns ``(n_sv, p, -1, WD)`` with ``WD = ||alpha_p||^2 (k_pp - k_p' K_p^{-1} k_p)`` (eq. 15).
    Stateless: solves the regularised system from scratch (LU with partial pivoting).  ``errors``,
    ``kernel_error``: as :func:`refsvm.budget.maintain_projection` (updated in place).
    """
    cdef int code = kernel_code(kernel)
    S, cs, A, ca, n_ = _working_model(SV, alpha, n_sv)
    cdef Py_ssize_t n = n_, p
    cdef Py_ssize_t m = max(n - 1, 1)
    Kp = np.empty(3 * m * m + m)                             # the LU, K_p + ridge I (errors), work
    rhs = np.empty(2 * m)
    ipiv = np.empty(m, dtype=np.intc)
    E = np.zeros(max(n, 1)) if errors is None else np.ascontiguousarray(errors, dtype=np.float64)
    if errors is not None and (E.ndim != 1 or E.shape[0] < n):
        raise ValueError(f"errors must hold one bound per SV ({n}), got shape {E.shape}")
    cdef double[::1] Ev = E
    cdef double* ep = &Ev[0] if errors is not None else NULL
    cdef double e_k = kernel_error, a_p
    cdef Py_ssize_t r, mm
    cdef Store St
    _open_store(&St, S, n)
    cdef double[:, ::1] Av = A
    cdef double[::1] Kpv = Kp
    cdef double[::1] rv = rhs
    cdef int[::1] iv = ipiv
    cdef double g = gamma, deg = degree, c0 = coef0, rdg = ridge, wd, tu = tie_unit
    cdef int info
    with nogil:
        p = c_select_smallest_tie(&St, Av, n, code, g, deg, c0, tu, ep, &wd)   # Alg. 2, projection, line 1
        mm = n - 1
        info = c_project_sv(&St, Av, n, p, code, g, deg, c0, rdg, Kpv, rv, iv, &wd,
                            &Kpv[mm * mm] if ep != NULL else NULL)
        if info == 0 and ep != NULL and mm > 0:           # the solve's bound, then follow remove(p)
            a_p = 0.0
            for r in range(Av.shape[1]):
                a_p = fabs(Av[p, r]) if fabs(Av[p, r]) > a_p else a_p
            c_projection_solve_error(&Kpv[mm * mm], &Kpv[0], &iv[0], &rv[0], &rv[mm], mm, p, a_p, e_k, ep,
                                     &Kpv[2 * mm * mm])
        if info == 0 and ep != NULL:
            ep[p] = ep[n - 1]
            ep[n - 1] = 0.0
        if info == 0:
            n = c_remove_sv(&St, Av, n, p)                # Alg. 2, projection, line 2
    _close_store(&St, S, n)
    if info != 0:
        raise np.linalg.LinAlgError("Singular matrix")
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    if errors is not None and E is not errors:
        errors[:E.shape[0]] = E
    return int(n), int(p), -1, float(wd)
