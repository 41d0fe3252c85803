# Projection (Algorithm 2, "Projection", eq. 13-15), included by budget.pyx after linalg.pxi (whose LU
# and kept-inverse helpers it calls): the compiled mirror of refsvm.budget.projection.
#
# Contents: the stateless C core (:func:`c_maintain_projection_solve`, :func:`c_project_sv`, as the
# reference), the C core with the kept inverse of BSGD's compiled path
# (:func:`c_maintain_projection_inverse`), then the Python-level :func:`maintain_projection`.

# ----------------------------------------------------------------------------
# C cores: projection
# ----------------------------------------------------------------------------

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
    return c_project_sv(SV, alpha, n_sv, p_out[0], kernel, gamma, degree, coef0, ridge, Kp, rhs, ipiv, wd_out, NULL)


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
    :func:`c_project_sv`, ``LU`` its factors, ``b = k_p``): ``errors[o_j] += a_p ||A^{-1}[j, :]||_1 rho
    + |x_j| errors[p]`` for the SV ``o_j`` of row j (the SVs but ``p``), ``a_p = ||alpha_p||_inf``,
    ``rho = (3 m + 2) u max_i (|A| |x| + |b|)_i + eps_K (||x||_1 + 1)``.  The row norms from the
    inverse (:func:`lu_inverse_abs_row_sums`, O(m^3)); ``work``: m^2 + m doubles."""
    cdef Py_ssize_t i, j, oj
    cdef double mag, mmax = 0.0, x1 = 0.0, rho, rows, e_p = errors[p]
    for i in range(m):
        mag = fabs(b[i])
        for j in range(m):
            mag += fabs(A[i * m + j]) * fabs(x[j])
        mmax = mag if mag > mmax else mmax
        x1 += fabs(x[i])
    rho = (3 * m + 2) * (0.5 * DBL_EPSILON) * mmax + kernel_error * (x1 + 1.0)
    lu_inverse_abs_row_sums(LU, m, ipiv, work, work + m * m)
    for j in range(m):
        rows = work[m * m + j]                               # ||A^{-1}[j, :]||_1
        oj = j if j < p else j + 1
        errors[oj] += a_p * rows * rho + fabs(x[j]) * e_p


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
