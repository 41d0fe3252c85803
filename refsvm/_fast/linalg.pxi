# Dense linear algebra of the projection step, included by budget.pyx (one module: the calls stay
# direct C calls, inlined where the compiler sees fit).
#
# * :func:`lu_factor` / :func:`lu_solve`: LU with partial pivoting, the algorithm of LAPACK's
#   ``dgetf2`` / ``dgetrs`` that ``numpy.linalg.solve`` calls, row-major, written out here (no build
#   dependency on SciPy's Cython LAPACK, no BLAS threads inside the training loop);
#   :func:`c_maintain_projection_solve` (budget_projection.pxi) solves ``(K_p + ridge I) x = k_p`` with them.
# * :func:`kinv_refresh` / :func:`kinv_append` / :func:`sym_swap_remove`: the inverse of ``K + ridge I``
#   of the current SVs that BSGD keeps up to date in O(B^2) per step (declared in budget.pxd for
#   :mod:`refsvm._fast.bsgd`; :func:`c_maintain_projection_inverse` in budget_projection.pxi reads it).


cdef int lu_factor(double* M, Py_ssize_t n, Py_ssize_t ld, int* piv) noexcept nogil:
    """In-place ``P M = L U`` of the row-major (n, n) matrix ``M`` (leading dimension ``ld``).

    Partial pivoting: the first row of largest ``|M[i, k]|``.  Returns 0, or
    ``k + 1`` if the pivot of column k is exactly zero (LAPACK's ``info``).
    """
    cdef Py_ssize_t i, j, k, p
    cdef double amax, v, inv, l
    cdef double* rk
    cdef double* ri
    for k in range(n):
        p = k
        amax = fabs(M[k * ld + k])
        for i in range(k + 1, n):
            v = fabs(M[i * ld + k])
            if v > amax:
                amax = v
                p = i
        piv[k] = <int> p
        if amax == 0.0:
            return <int> (k + 1)
        if p != k:
            for j in range(n):
                v = M[k * ld + j]
                M[k * ld + j] = M[p * ld + j]
                M[p * ld + j] = v
        rk = M + k * ld
        inv = 1.0 / rk[k]
        for i in range(k + 1, n):
            ri = M + i * ld
            l = ri[k] * inv
            ri[k] = l
            for j in range(k + 1, n):
                ri[j] -= l * rk[j]
    return 0


cdef void lu_solve(const double* LU, Py_ssize_t n, Py_ssize_t ld, const int* piv,
                   double* b) noexcept nogil:
    """Solve ``M x = b`` in place with the factors of :func:`lu_factor`."""
    cdef Py_ssize_t i, j
    cdef double v
    for i in range(n):                                   # row interchanges
        if piv[i] != i:
            v = b[i]
            b[i] = b[piv[i]]
            b[piv[i]] = v
    for i in range(n):                                   # L y = P b (unit diagonal)
        v = b[i]
        for j in range(i):
            v -= LU[i * ld + j] * b[j]
        b[i] = v
    for i in range(n - 1, -1, -1):                       # U x = y
        v = b[i]
        for j in range(i + 1, n):
            v -= LU[i * ld + j] * b[j]
        b[i] = v / LU[i * ld + i]


cdef void lu_inverse_abs_row_sums(const double* LU, Py_ssize_t n, const int* piv, double* W,
                                  double* rows) noexcept nogil:
    """``rows[i] = sum_j |M^{-1}[i, j]|`` from the factors ``P M = L U`` of :func:`lu_factor` (n x n, ld = n).

    ``M^{-1} = U^{-1} L^{-1} P``, and the column permutation ``P`` leaves the row sums as they are, so
    ``W`` (n x n scratch) receives ``U^{-1} L^{-1}``: ``L^{-1}`` (lower triangular, row i from the rows
    before it, n^3 / 6 multiply-adds), then the back substitution by rows (n^3 / 2), contiguous inner
    loops.  For error bounds only: its rounding moves a bound by rounding."""
    cdef Py_ssize_t i, j, c
    cdef double l, v, inv
    cdef double* wi
    cdef const double* wk
    for i in range(n * n):
        W[i] = 0.0
    for i in range(n):                                   # L^{-1}: row i = e_i - sum_{j<i} L_ij row j
        wi = W + i * n
        wi[i] = 1.0
        for j in range(i):
            l = LU[i * n + j]
            if l != 0.0:
                wk = W + j * n
                for c in range(j + 1):                   # row j of L^{-1} is 0 beyond column j
                    wi[c] -= l * wk[c]
    for i in range(n - 1, -1, -1):                       # U X = L^{-1}
        wi = W + i * n
        for j in range(i + 1, n):
            l = LU[i * n + j]
            if l != 0.0:
                wk = W + j * n
                for c in range(n):
                    wi[c] -= l * wk[c]
        inv = 1.0 / LU[i * n + i]
        for c in range(n):
            wi[c] *= inv
    for i in range(n):
        v = 0.0
        wi = W + i * n
        for c in range(n):
            v += fabs(wi[c])
        rows[i] = v


# ----------------------------------------------------------------------------
# incremental inverse of K + ridge I (projection inside BSGD)
# ----------------------------------------------------------------------------

cdef void sym_swap_remove(double[:, ::1] M, Py_ssize_t n, Py_ssize_t p) noexcept nogil:
    """remove(p) on a symmetric (n, n) matrix: row and column ``n-1`` move into ``p``."""
    cdef Py_ssize_t last = n - 1, i, j
    if p == last:
        return
    for j in range(n):
        M[p, j] = M[last, j]
    for i in range(last):
        M[i, p] = M[i, last]


cdef int kinv_refresh(const double[:, ::1] K, double[:, ::1] Kinv, Py_ssize_t n, double ridge,
                      double[:, ::1] W, int[::1] ipiv, double[::1] work) noexcept nogil:
    """``Kinv[:n, :n] = (K[:n, :n] + ridge I)^{-1}`` from scratch.

    Cholesky ``L L' = K + ridge I`` (row-oriented, in ``Kinv``), the rows of
    ``W = L^{-T}`` (``W[j]`` = column j of ``L^{-1}``) and
    ``Kinv[i, j] = W[i] . W[j]``: about n^3 / 2 multiply-adds in plain loops
    (no BLAS threads: this runs inside the training loop).  If the matrix is not
    numerically positive definite, LU with partial pivoting is used instead
    (``W`` holds the factors, ``work`` >= n one column of the inverse at a time).
    ``W`` is a scratch matrix of the same capacity.  Returns 0 on success, a
    positive number if the matrix is exactly singular.
    """
    cdef int info = 0
    cdef Py_ssize_t i, j, k
    cdef double s
    cdef bint ok = True
    if n == 0:
        return 0
    for i in range(n):                                   # Cholesky-Banachiewicz, L in Kinv's lower part
        for j in range(i + 1):
            s = K[i, j] + (ridge if i == j else 0.0) - pw_dot(&Kinv[i, 0], &Kinv[j, 0], j)
            if i == j:
                if not s > 0.0:
                    ok = False
                    break
                Kinv[i, i] = sqrt(s)
            else:
                Kinv[i, j] = s / Kinv[j, j]
        if not ok:
            break
    if ok:
        for j in range(n):                               # W[j, i] = (L^{-1})[i, j], i >= j
            for i in range(j):
                W[j, i] = 0.0
            W[j, j] = 1.0 / Kinv[j, j]
            for i in range(j + 1, n):
                W[j, i] = -pw_dot(&Kinv[i, j], &W[j, j], i - j) / Kinv[i, i]
        for i in range(n):                               # (K + ridge I)^{-1} = L^{-T} L^{-1}
            for j in range(i + 1):
                s = pw_dot(&W[i, i], &W[j, i], n - i)     # sum over k >= i (W[j, k] = 0 for k < j <= i)
                Kinv[i, j] = s
                Kinv[j, i] = s
        return 0
    # not numerically positive definite: LU with partial pivoting
    for i in range(n):
        for j in range(n):
            W[i, j] = K[i, j]
        W[i, i] += ridge
    info = lu_factor(&W[0, 0], n, W.shape[1], &ipiv[0])
    if info != 0:
        return info
    for j in range(n):                                   # column j of the inverse
        for i in range(n):
            work[i] = 1.0 if i == j else 0.0
        lu_solve(&W[0, 0], n, W.shape[1], &ipiv[0], &work[0])
        for i in range(n):
            Kinv[i, j] = work[i]
    return 0


cdef double KINV_APPEND_RTOL = 1e-6    # largest accepted bound on the relative error of the Schur complement


cdef int kinv_append(const double[:, ::1] K, double[:, ::1] Kinv, Py_ssize_t n, double ridge,
                     double[::1] u) noexcept nogil:
    """Grow ``Kinv`` from the first ``n`` SVs to ``n + 1`` (row/column ``n`` of K already set).

    Bordered inverse: ``u = Kinv k``, Schur complement ``s = k_nn + ridge - k'u``,
    ``Kinv <- [[Kinv + u u'/s, -u/s], [-u'/s, 1/s]]``.  Returns 1 (nothing
    changed) when ``s`` is not known to at least ``KINV_APPEND_RTOL`` (1e-6) of
    itself; the caller then recomputes the inverse from scratch
    (:func:`kinv_refresh`, the fresh solve).

    Error bound of the computed ``s`` (first order in eps = 2^-52): with
    ``r = k - (K + ridge I) u`` the residual of ``u`` (the kept inverse is not
    exact), the exact ``s* = k_nn + ridge - k'(K + ridge I)^{-1} k`` is
    ``s* = s - u'r + O(||r||^2)``, and the rounding of the dot products
    (``k'u`` and ``r``'s own, n + 2 terms each) adds at most
    ``(n + 2) eps (|k_nn| + ridge + sum_j |u_j| (|k_j| + ridge |u_j|) + max_j K_jj ||u||_1^2)``
    (``|K_ji| <= max K_jj`` for a positive semi-definite K bounds ``sum_ij |u_j K_ji u_i|``).
    So ``|s - s*| <= e_s = |u'r| + (n + 2) eps (...)``, and the update is taken
    only if ``s >= ridge / 2`` (in exact arithmetic ``s* >= ridge``) and
    ``e_s <= 1e-6 s``.  The error of the new row / column of the inverse is then
    at most 1e-6 relative (plus ``u``'s own error, the same ``r``), which the
    projection's refinement step reduces further.  Cost: the residual is one
    more product K u (n^2 multiply-adds; the update costs 2 n^2).  Rejections
    are rare on real data with rbf (20,000 rows, B = 100 / 500: a9a 0 / 0,
    ijcnn1 0 / 14 of 2980 events, w8a 0 / 0) and frequent with near-duplicates
    (1e-6 noise), which the old rule ``s >= ridge / 2`` let through.
    """
    cdef Py_ssize_t i, j
    cdef double s, inv_s, ui, e_inh = 0.0, e_rnd = 0.0, u1 = 0.0, kmax = 0.0
    for i in range(n):
        u[i] = pw_dot(&Kinv[i, 0], &K[n, 0], n)
    s = K[n, n] + ridge - pw_dot(&K[n, 0], &u[0], n)
    if not (s >= 0.5 * ridge) or s == 0.0:
        return 1
    for j in range(n):                                   # u'r with r = k - (K + ridge I) u
        e_inh += u[j] * (K[n, j] - ridge * u[j] - pw_dot(&K[j, 0], &u[0], n))
        e_rnd += fabs(u[j]) * (fabs(K[n, j]) + ridge * fabs(u[j]))
        u1 += fabs(u[j])
        if K[j, j] > kmax:
            kmax = K[j, j]
    e_rnd += kmax * u1 * u1                              # |u|'|K||u| <= max_j K_jj ||u||_1^2 (K PSD)
    if fabs(e_inh) + (n + 2) * 2.220446049250313e-16 * (fabs(K[n, n]) + ridge + e_rnd) > KINV_APPEND_RTOL * s:
        return 1
    inv_s = 1.0 / s
    for i in range(n):
        ui = u[i] * inv_s
        for j in range(n):
            Kinv[i, j] += ui * u[j]
        Kinv[i, n] = -ui
        Kinv[n, i] = -ui
    Kinv[n, n] = inv_s
    return 0


# ----------------------------------------------------------------------------
# kept Cholesky factor of K + ridge I (projection inside BSGD, kept="factor")
# ----------------------------------------------------------------------------
#
# ``L`` (lower triangular, row-major, in a (capacity, capacity) buffer) with ``L L' = K_f + ridge I``, where
# ``K_f`` is the kernel matrix of the SVs in *factor order*: factor row ``k`` belongs to slot ``fslot[k]``, and
# ``fidx[slot]`` is its factor row.  The factor order is the order in which SVs joined (less those that left); the
# slot order is the model's (remove(p) moves the last slot into p), which a triangular factor cannot follow
# without a re-triangularisation, so the two orders are kept apart and mapped.
#
# Every operation is backward stable (the factor is the exact factor of a matrix within a few ulps times
# ``n |L| |L'|`` of ``K_f + ridge I``), so, unlike the kept inverse, no accuracy check and no periodic
# recomputation are needed: append is the Cholesky-Banachiewicz step of one more row (a forward substitution,
# O(n^2)); deleting a row is a rank-one *update* of the trailing block (Givens-like, O((n - q)^2)), not a downdate.


cdef int chol_refresh(const double[:, ::1] K, double[:, ::1] L, Py_ssize_t n, double ridge, int* fslot,
                      int* fidx) noexcept nogil:
    """``L L' = K[:n, :n] + ridge I`` from scratch in slot order (``fslot``, ``fidx``: the identity), row by
    row (:func:`chol_append`'s step).  Returns 0, or 1 if the matrix is not numerically positive definite (``L``
    and the maps are then partial: the caller solves afresh until a refresh succeeds)."""
    cdef Py_ssize_t i
    for i in range(n):
        if chol_append(K, L, i, i, ridge, fslot, fidx) != 0:
            return 1
    return 0


cdef int chol_append(const double[:, ::1] K, double[:, ::1] L, Py_ssize_t n, Py_ssize_t slot, double ridge,
                     int* fslot, int* fidx) noexcept nogil:
    """The SV of slot ``slot`` (its row of ``K`` set) joins as factor row ``n``: ``L[n, :n] = L^{-1} k`` with
    ``k_j = K[slot, fslot[j]]`` (forward substitution), ``L[n, n] = sqrt(K[slot, slot] + ridge - ||L[n, :n]||^2)``.
    Returns 1 (the maps unchanged) when the number under the root is not positive: the new SV is numerically in the
    span of the others even with the ridge (in exact arithmetic it is at least ``ridge``)."""
    cdef Py_ssize_t j
    cdef double s
    for j in range(n):
        L[n, j] = (K[slot, fslot[j]] - pw_dot(&L[n, 0], &L[j, 0], j)) / L[j, j]
    s = K[slot, slot] + ridge - pw_dot(&L[n, 0], &L[n, 0], n)
    if not s > 0.0:
        return 1
    L[n, n] = sqrt(s)
    fslot[n] = <int> slot
    fidx[slot] = <int> n
    return 0


cdef void chol_delete(double[:, ::1] L, Py_ssize_t n, Py_ssize_t q, int* fslot, int* fidx,
                      double* work) noexcept nogil:
    """Factor row and column ``q`` leave (``n`` rows before): with ``L = [[L11, 0, 0], [l', d, 0], [L31, l3, L33]]``
    the factor of the matrix without row / column ``q`` is ``[[L11, 0], [L31, L33~]]`` where
    ``L33~ L33~' = L33 L33' + l3 l3'``: a rank-one update by Givens rotations, LINPACK's ``dchud`` (column k:
    ``r = sqrt(L_kk^2 + x_k^2)``, ``c = L_kk / r``, ``s = x_k / r``, ``L_kk <- r``, and below it
    ``L_ik <- c L_ik + s x_i``, ``x_i <- c x_i - s L_ik``; an update, not a downdate: no cancellation, the
    diagonal stays positive); then the rows and columns after ``q`` move up by one and the maps follow.  The
    update runs row by row (row i applies the rotations of the columns before it, then makes its own): the
    column algorithm's operations on every entry, along contiguous rows.  ``work``: 3 n doubles of scratch.
    O((n - q)^2)."""
    cdef Py_ssize_t m = n - q - 1, i, k, j
    cdef double a, r, l, xi
    cdef double* c = work + n                            # the rotations of the columns done
    cdef double* s = work + 2 * n
    cdef double* row
    for i in range(m):
        row = &L[q + 1 + i, q + 1]
        xi = L[q + 1 + i, q]                             # l3[i], rotated by the columns before i
        for k in range(i):
            l = row[k]
            row[k] = c[k] * l + s[k] * xi
            xi = c[k] * xi - s[k] * l
        a = row[i]
        r = sqrt(a * a + xi * xi)
        c[i] = a / r
        s[i] = xi / r
        row[i] = r
    for i in range(q + 1, n):                            # row i -> i - 1, its columns after q -> one left
        for j in range(q):
            L[i - 1, j] = L[i, j]
        for j in range(q + 1, i + 1):
            L[i - 1, j - 1] = L[i, j]
    for k in range(q, n - 1):
        fslot[k] = fslot[k + 1]
        fidx[fslot[k]] = <int> k


cdef void chol_solve(const double[:, ::1] L, Py_ssize_t n, double* b) noexcept nogil:
    """``b <- (L L')^{-1} b`` in place (factor order): ``L y = b`` by rows, then ``L' x = y`` by rows of ``L``
    (column-oriented back substitution: the inner loops run along contiguous rows)."""
    cdef Py_ssize_t i, k
    cdef double v
    for i in range(n):
        b[i] = (b[i] - pw_dot(&L[i, 0], b, i)) / L[i, i]
    for i in range(n - 1, -1, -1):
        b[i] /= L[i, i]
        v = b[i]
        for k in range(i):
            b[k] -= L[i, k] * v
