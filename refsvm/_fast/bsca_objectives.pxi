# Included by refsvm/_fast/bsca.pyx at the place this code stood (one module: the objectives share its cimports).
# The monitoring objectives of BSCA (twins of refsvm.bsca.primal_objective / dual_objective); not part of
# Algorithm 2.

# ----------------------------------------------------------------------------
# objectives (monitoring; not part of the algorithm)
# ----------------------------------------------------------------------------

def primal_objective(X, y, sv, alpha, *, C, kernel, gamma, degree, coef0, sample_weight=None):
    """``P(w~) = 1/2 ||w~||^2 + C sum_i s_i max(0, 1 - y_i f~(x_i))`` (see :func:`refsvm.bsca.primal_objective`)."""
    if sp.issparse(X) or sp.issparse(sv):
        return _sparse_primal(X, y, sv, alpha, C, kernel, gamma, degree, coef0, sample_weight)
    X = np.ascontiguousarray(X, dtype=np.float64)
    SVa = np.ascontiguousarray(sv, dtype=np.float64).reshape(-1, X.shape[1])
    beta = np.ascontiguousarray(alpha, dtype=np.float64).reshape(-1)
    ya = np.ascontiguousarray(y, dtype=np.float64)
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1], b = beta.shape[0], i, j
    cdef double Cv = C
    sw = np.ones(n) if sample_weight is None else np.ascontiguousarray(sample_weight, dtype=np.float64)
    cdef const double[::1] swv = sw
    if b == 0:
        return float(Cv * np.sum(sw))
    cdef int code = kernel_code(kernel)
    cdef double g = gamma, deg = degree, c0 = coef0, norm2 = 0.0, loss = 0.0, f, s
    cdef const double[:, ::1] Xv = X
    cdef const double[:, ::1] S = SVa
    cdef const double[::1] bv = beta
    cdef const double[::1] yv = ya
    row = np.zeros(b)
    cdef double[::1] r = row
    cdef RbfRows w = RbfRows(SVa)                             # the Gaussian rows' norms, room for x
    with nogil:
        for j in range(b):                                    # ||w~||^2 = beta' K_M beta
            kernel_row_into(code, &S[0, 0], b, d, &S[j, 0], g, deg, c0, &r[0], &w.sq[0], &w.ind[0], &w.val[0])
            norm2 += bv[j] * pw_dot(&r[0], &bv[0], b)
        for i in range(n):                                    # C sum_i hinge(y_i f~(x_i))
            kernel_row_into(code, &S[0, 0], b, d, &Xv[i, 0], g, deg, c0, &r[0], &w.sq[0], &w.ind[0], &w.val[0])
            f = pw_dot(&r[0], &bv[0], b)
            s = 1.0 - yv[i] * f
            if s > 0.0:
                loss += swv[i] * s
    return float(0.5 * norm2 + Cv * loss)


def dual_objective(X, y, dual, *, kernel, gamma, degree, coef0, sample=None):
    """``D(alpha) = sum_i alpha_i - 1/2 alpha' Q alpha`` (see :func:`refsvm.bsca.dual_objective`).

    ``nnz^2`` kernel evaluations in a nogil loop (``sample``: the unbiased estimate).
    """
    if sp.issparse(X):
        return _sparse_dual(X, y, dual, kernel, gamma, degree, coef0, sample)
    X = np.ascontiguousarray(X, dtype=np.float64)
    da = np.ascontiguousarray(dual, dtype=np.float64)
    ya = np.ascontiguousarray(y, dtype=np.float64)
    nz = np.flatnonzero(da).astype(np.int64)
    cdef Py_ssize_t N = nz.shape[0], m, d = X.shape[1], a, c
    cdef bint estimate = sample is not None
    if estimate:
        S = check_dual_sample(da, sample)
    else:
        S = nz
    m = S.shape[0]
    cdef int code = kernel_code(kernel)
    cdef double g = gamma, deg = degree, c0 = coef0, diag = 0.0, off = 0.0, row, va
    cdef const double[:, ::1] Xv = X
    cdef const double[::1] dv = da
    cdef const double[::1] yv = ya
    cdef const int64_t[::1] nzv = nz
    cdef const int64_t[::1] Sv = S
    with nogil:
        for a in range(N):                                    # diagonal, exact
            va = dv[nzv[a]] * yv[nzv[a]]
            diag += va * va * kernel_self(code, &Xv[nzv[a], 0], d, g, deg, c0)
        for a in range(m):                                    # off-diagonal (all pairs or the sample's)
            va = dv[Sv[a]] * yv[Sv[a]]
            row = 0.0
            for c in range(a + 1, m):
                row += dv[Sv[c]] * yv[Sv[c]] * kernel_value(code, &Xv[Sv[a], 0], &Xv[Sv[c], 0], d, g, deg, c0)
            off += 2.0 * va * row
    if estimate:
        off *= (<double> N * (N - 1)) / (<double> m * (m - 1))
    return float(np.sum(da) - 0.5 * (diag + off))


def _sparse_primal(X, y, sv, alpha, C, kernel, gamma, degree, coef0, sample_weight):
    """primal_objective for sparse rows: kernel rows against the SVs as sparse SV slots."""
    X = check_sparse_rows(sp.csr_matrix(X), "X")
    svc = check_sparse_rows(sp.csr_matrix(sv), "sv")
    beta = np.ascontiguousarray(alpha, dtype=np.float64).reshape(-1)
    ya = np.ascontiguousarray(y, dtype=np.float64)
    cdef Py_ssize_t n = X.shape[0], b = beta.shape[0], i, j
    sw = np.ones(n) if sample_weight is None else np.ascontiguousarray(sample_weight, dtype=np.float64)
    if b == 0:
        return float(C * np.sum(sw))
    cdef int code = kernel_code(kernel)
    cdef double g = gamma, deg = degree, c0 = coef0, norm2 = 0.0, loss = 0.0, f, s
    cdef const double[::1] swv = sw
    cdef const double[::1] bv = beta
    cdef const double[::1] yv = ya
    row = np.zeros(b)
    cdef double[::1] r = row
    cdef Rows RX, RS
    cdef Store St
    rows_init(&RX, X)
    rows_init(&RS, svc)
    store_init(&St, None, b, X.shape[1], True)
    try:
        store_fill(&St, svc)
        with nogil:
            for j in range(b):                                # ||w~||^2 = beta' K_M beta
                store_kernel_row(&St, b, &RS, j, code, g, deg, c0, &r[0])
                norm2 += bv[j] * pw_dot(&r[0], &bv[0], b)
            for i in range(n):                                # C sum_i hinge(y_i f~(x_i))
                store_kernel_row(&St, b, &RX, i, code, g, deg, c0, &r[0])
                f = pw_dot(&r[0], &bv[0], b)
                s = 1.0 - yv[i] * f
                if s > 0.0:
                    loss += swv[i] * s
    finally:
        store_free(&St)
    return float(0.5 * norm2 + C * loss)


def _sparse_dual(X, y, dual, kernel, gamma, degree, coef0, sample):
    """dual_objective for sparse rows: the rows in use as sparse SV slots, one kernel row each."""
    X = check_sparse_rows(sp.csr_matrix(X), "X")
    da = np.ascontiguousarray(dual, dtype=np.float64)
    ya = np.ascontiguousarray(y, dtype=np.float64)
    nz = np.flatnonzero(da).astype(np.int64)
    cdef Py_ssize_t N = nz.shape[0], m, a, c
    S = check_dual_sample(da, sample) if sample is not None else nz
    m = S.shape[0]
    cdef int code = kernel_code(kernel)
    cdef double g = gamma, deg = degree, c0 = coef0, diag = 0.0, off = 0.0, rowsum, va
    cdef const double[::1] dv = da
    cdef const double[::1] yv = ya
    cdef const int64_t[::1] nzv = nz
    cdef const int64_t[::1] Sv = S
    sub = check_sparse_rows(X[S], "X")
    kr = np.zeros(max(m, 1))
    cdef double[::1] k = kr
    cdef Rows RX, RS
    cdef Store St
    rows_init(&RX, X)
    rows_init(&RS, sub)
    store_init(&St, None, max(m, 1), X.shape[1], True)
    try:
        store_fill(&St, sub)
        with nogil:
            for a in range(N):                                # diagonal, exact
                va = dv[nzv[a]] * yv[nzv[a]]
                diag += va * va * rows_self(&RX, nzv[a], code, g, deg, c0)
            for a in range(m):                                # off-diagonal (all pairs or the sample's)
                va = dv[Sv[a]] * yv[Sv[a]]
                store_kernel_row(&St, m, &RS, a, code, g, deg, c0, &k[0])
                rowsum = 0.0
                for c in range(a + 1, m):
                    rowsum += dv[Sv[c]] * yv[Sv[c]] * k[c]
                off += 2.0 * va * rowsum
    finally:
        store_free(&St)
    if sample is not None:
        off *= (<double> N * (N - 1)) / (<double> m * (m - 1))
    return float(np.sum(da) - 0.5 * (diag + off))
