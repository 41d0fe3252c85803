# cython: language_level=3
"""Rows of X and SV slots, dense or sparse, for the compiled solvers (see refsvm/sparse.py).

``Rows`` is a read-only view of the examples: a C-contiguous ``(n, d)`` float64
array, or a canonical CSR matrix (float64 data, int32 sorted indices, int64
indptr).  ``Store`` holds the SVs and their squared norms: a C-contiguous ``(cap, d)``
array (with room for the nonzeros of one dense x), or one index / value
buffer per slot plus a scatter workspace of ``d`` zeros.  The ``store_*``
functions are the list operations of DESIGN.md (append, swap-remove, merge)
and the kernel values the algorithms read.

Gaussian kernel values of dense and sparse rows alike use the squared norms
(refsvm/kernels.py): the squared norm is the sum of squared values in index
order, a dot product adds the products of common indices in index order.
Sparse rows' linear and poly kernels use the same sequential dot; dense rows'
use numpy's pairwise order (``pw_dot``).
"""

from libc.stdint cimport int32_t, int64_t

from refsvm._fast.kernels cimport (KERNEL_RBF, KERNEL_LINEAR, kernel_row_into, kernel_self,
                                   kernel_value, libm_pow, rbf_from_sq, seq_dot, seq_sq)

cdef extern from "<math.h>" nogil:
    double exp(double)

cdef enum:
    ERR_NOMEM = 3           # a sparse SV buffer could not be allocated (after common.pxd's codes)


cdef struct Rows:
    bint sparse
    Py_ssize_t d
    const double* dense
    const double* data
    const int32_t* indices
    const int64_t* indptr


cdef struct Store:
    bint sparse             # the rows are sparse: norms, sparse formulas, nnz counts (the numbers)
    bint slots              # per-SV index / value buffers; False: a dense (cap, d) array (the layout)
    bint owns_dense         # the dense array was allocated here (sparse rows in the dense layout)
    Py_ssize_t d
    Py_ssize_t cap
    double* dense
    int32_t** ind
    double** val
    Py_ssize_t* nnz
    Py_ssize_t* room
    double* sq              # ||s_j||^2 (seq_sq; every store of store_init, dense rows too)
    double* work            # d zeros (scatter of x in the slots layout)
    double* dense_t         # the dense layout's rows by feature: d rows of length cap, or NULL (sparse.pyx)
    int32_t* x_ind          # room for d: the nonzeros of a dense x or SV (Gaussian kernel rows, merging)
    double* x_val
    bint failed             # an allocation failed inside a nogil operation (the caller raises MemoryError)


# --- set-up (sparse.pyx; with the GIL) ---
cdef int rows_init(Rows* R, object X) except -1
cdef int store_init(Store* S, object SV, Py_ssize_t cap, Py_ssize_t d, bint sparse) except -1
cdef int store_fill(Store* S, object sv) except -1
cdef object store_export(const Store* S, Py_ssize_t b)
cdef void store_free(Store* S) noexcept

# --- list operations (sparse.pyx; nogil) ---
cdef int store_set_row(Store* S, Py_ssize_t j, const Rows* R, Py_ssize_t i) noexcept nogil
cdef void store_move(Store* S, Py_ssize_t p, Py_ssize_t last) noexcept nogil
cdef int store_merge(Store* S, Py_ssize_t m, Py_ssize_t n, double h) noexcept nogil
cdef Py_ssize_t store_find_row(const Store* S, Py_ssize_t b, const Rows* R, Py_ssize_t i) noexcept nogil
cdef void store_kernel_row_slot(const Store* S, Py_ssize_t b, Py_ssize_t r, int kernel, double gamma,
                                double degree, double coef0, double* out) noexcept nogil
cdef void store_log_kappa_row(const Store* S, Py_ssize_t b, Py_ssize_t m, double gamma,
                              double* out) noexcept nogil
cdef void store_kernel_row_pre(const Store* S, Py_ssize_t b, const Rows* R, Py_ssize_t i, int kernel,
                               double gamma, double degree, double coef0, double* out,
                               double* pre) noexcept nogil
cdef void store_kernel_row(const Store* S, Py_ssize_t b, const Rows* R, Py_ssize_t i, int kernel,
                           double gamma, double degree, double coef0, double* out) noexcept nogil


cdef inline void store_clear(Store* S, bint sparse, Py_ssize_t cap, Py_ssize_t d) noexcept nogil:
    """A store without buffers: every pointer NULL, the layout flags off (set-up, and after freeing)."""
    S.sparse = sparse
    S.slots = False
    S.owns_dense = False
    S.d = d
    S.cap = cap
    S.dense = NULL
    S.ind = NULL
    S.val = NULL
    S.nnz = NULL
    S.room = NULL
    S.sq = NULL
    S.work = NULL
    S.dense_t = NULL
    S.x_ind = NULL
    S.x_val = NULL
    S.failed = False


cdef inline void store_dense(Store* S, double[:, ::1] SV) noexcept nogil:
    """A dense store over the C-contiguous ``SV`` (cap, d) without norms or workspace (no
    allocation): for the list operations only, never for kernel rows."""
    store_clear(S, False, SV.shape[0], SV.shape[1])
    if SV.shape[0] > 0 and SV.shape[1] > 0:
        S.dense = &SV[0, 0]


cdef inline double sparse_dot(const int32_t* ia, const double* va, Py_ssize_t na,
                              const int32_t* ib, const double* vb, Py_ssize_t nb) noexcept nogil:
    """``a . b`` of two sorted sparse rows: products of common indices added in index order."""
    cdef double s = 0.0
    cdef Py_ssize_t p = 0, q = 0
    while p < na and q < nb:
        if ia[p] == ib[q]:
            s += va[p] * vb[q]
            p += 1
            q += 1
        elif ia[p] < ib[q]:
            p += 1
        else:
            q += 1
    return s


cdef inline double kernel_from_dot(int kernel, double dot, double sq_a, double sq_b, double gamma,
                                   double degree, double coef0) noexcept nogil:
    """``k(a, b)`` from ``a . b`` and the squared norms (rbf: clamped squared distance)."""
    if kernel == KERNEL_RBF:
        return exp(rbf_from_sq(sq_a, sq_b, dot, gamma))
    if kernel == KERNEL_LINEAR:
        return dot
    return libm_pow(gamma * dot + coef0, degree)


cdef inline const double* rows_dense(const Rows* R, Py_ssize_t i) noexcept nogil:
    return R.dense + i * R.d


cdef inline double rows_self(const Rows* R, Py_ssize_t i, int kernel, double gamma, double degree,
                             double coef0) noexcept nogil:
    """``k(x_i, x_i)``."""
    cdef double sq
    if not R.sparse:
        return kernel_self(kernel, R.dense + i * R.d, R.d, gamma, degree, coef0)
    if kernel == KERNEL_RBF:
        return 1.0
    sq = seq_sq(R.data + R.indptr[i], R.indptr[i + 1] - R.indptr[i])
    return kernel_from_dot(kernel, sq, sq, sq, gamma, degree, coef0)


cdef inline double store_self(const Store* S, Py_ssize_t j, int kernel, double gamma, double degree,
                              double coef0) noexcept nogil:
    """``k(s_j, s_j)`` as ``kernel_diag`` computes it."""
    if not S.sparse:
        return kernel_self(kernel, S.dense + j * S.d, S.d, gamma, degree, coef0)
    if kernel == KERNEL_RBF:
        return 1.0
    return kernel_from_dot(kernel, S.sq[j], S.sq[j], S.sq[j], gamma, degree, coef0)


cdef inline double store_kernel(const Store* S, Py_ssize_t i, Py_ssize_t j, int kernel, double gamma,
                                double degree, double coef0) noexcept nogil:
    """``k(s_i, s_j)`` (the dense order of arguments: ``kernel_value(s_i, s_j)``)."""
    cdef double dot = 0.0
    cdef Py_ssize_t k
    if not S.sparse:
        return kernel_value(kernel, S.dense + i * S.d, S.dense + j * S.d, S.d, gamma, degree, coef0)
    if S.slots:
        dot = sparse_dot(S.ind[j], S.val[j], S.nnz[j], S.ind[i], S.val[i], S.nnz[i])
    else:                                  # sparse rows in the dense layout: the same products, in order
        for k in range(S.d):
            dot += S.dense[j * S.d + k] * S.dense[i * S.d + k]
    return kernel_from_dot(kernel, dot, S.sq[j], S.sq[i], gamma, degree, coef0)


cdef inline double store_sq_dist(const Store* S, Py_ssize_t m, Py_ssize_t n) noexcept nogil:
    """``||s_m - s_n||^2`` as the Gaussian kernel computes it (``refsvm.kernels.sq_dist``): the squared
    norms and a dot in index order, clamped at 0.  Merging reads it (all candidates at once:
    :func:`store_log_kappa_row`, the same numbers)."""
    cdef double dot, sq
    if S.slots:
        dot = sparse_dot(S.ind[n], S.val[n], S.nnz[n], S.ind[m], S.val[m], S.nnz[m])
    else:
        dot = seq_dot(S.dense + n * S.d, S.dense + m * S.d, S.d)
    sq = S.sq[m] + S.sq[n] - 2.0 * dot
    return sq if sq > 0.0 else 0.0
