# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Sparse rows and SV slots (compiled mirror of :mod:`refsvm.sparse`).

The public functions are those of :mod:`refsvm.sparse`; ``row_sq_norms``,
``sparse_dots`` and ``rows_equal`` are computed here in C, the storage
helpers of the reference (``SparseRows``, ``canonical_csr``, ...) are
re-exported.  The C level (``Rows``, ``Store``, ``store_*``; see sparse.pxd)
is what :mod:`refsvm._fast.bsgd` and :mod:`refsvm._fast.budget` use.

Sparse SV slot ``j`` owns ``ind[j]`` / ``val[j]`` (``room[j]`` entries, ``nnz[j]``
in use) and ``sq[j] = ||s_j||^2``.  remove(p) swaps the buffers of slots ``p``
and ``last`` (no copy, no allocation); a merge builds the union of two rows in
a fresh buffer, drops values that come out exactly 0 (as scipy does) and
frees the old one.
"""

import numpy as np
import scipy.sparse as sp

from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy

from refsvm._fast.kernels cimport (KERNEL_RBF, dense_nonzeros, exp_row, gather_dots, kernel_row_into, rbf_from_sq,
                                   rbf_row_by_feature, rbf_row_gather, seq_sq)

from refsvm.sparse import (SparseRows, canonical_csr, is_sparse, n_rows,  # noqa: F401 (re-exported)
                           new_sv_storage)
from refsvm.validation import check_sparse_rows
from refsvm.sparse import DENSE_LAYOUT_ENTRIES as _DENSE_LAYOUT_ENTRIES

cdef Py_ssize_t DENSE_LAYOUT_ENTRIES = _DENSE_LAYOUT_ENTRIES

#: A store in the dense layout also keeps its rows by feature (``Store.dense_t``, d x cap) when
#: ``cap * d`` is at most this (64 MB): a Gaussian kernel row is then vector adds of the rows of
#: ``dense_t`` at x's nonzeros instead of a gather per SV, bitwise the same numbers.  0: never.
BY_FEATURE_ENTRIES = 1 << 23


cdef void _column_from_row(Store* S, Py_ssize_t j) noexcept nogil:
    """``dense_t``'s column ``j`` <- row ``j`` of the dense layout (after every write of a row)."""
    cdef Py_ssize_t r
    if S.dense_t != NULL:
        for r in range(S.d):
            S.dense_t[r * S.cap + j] = S.dense[j * S.d + r]


cdef void _keep_by_feature(Store* S) noexcept:
    """Allocate ``dense_t`` from the rows in the dense layout (none kept if too large or out of
    memory: the row-by-row gather is used, the same numbers)."""
    cdef Py_ssize_t j
    if S.dense == NULL or S.cap <= 0 or S.d <= 0 or S.cap * S.d > BY_FEATURE_ENTRIES:
        return
    S.dense_t = <double*> calloc(S.cap * S.d, sizeof(double))
    if S.dense_t != NULL:
        for j in range(S.cap):
            _column_from_row(S, j)

__all__ = ["SparseRows", "canonical_csr", "is_sparse", "new_sv_storage", "rows_equal", "row_sq_norms",
           "n_rows", "sparse_dots"]


# ----------------------------------------------------------------------------
# set-up, with the GIL
# ----------------------------------------------------------------------------

cdef int rows_init(Rows* R, object X) except -1:
    """View ``X`` (a C-contiguous float64 array or a canonical CSR matrix, kept alive by the caller)."""
    cdef const double[:, ::1] Xd
    cdef const double[::1] data
    cdef const int32_t[::1] indices
    cdef const int64_t[::1] indptr
    R.sparse = sp.issparse(X)
    R.d = X.shape[1]
    R.dense = NULL
    R.data = NULL
    R.indices = NULL
    R.indptr = NULL
    if not R.sparse:
        Xd = X
        if X.shape[0] > 0 and X.shape[1] > 0:
            R.dense = &Xd[0, 0]
        return 0
    data = X.data
    indices = X.indices
    indptr = X.indptr
    R.indptr = &indptr[0]
    if X.nnz > 0:
        R.data = &data[0]
        R.indices = &indices[0]
    return 0


cdef int store_init(Store* S, object SV, Py_ssize_t cap, Py_ssize_t d, bint sparse) except -1:
    """An empty store of ``cap`` slots: dense over the C-contiguous ``SV`` (cap, d) (dense rows), or
    for sparse rows per-SV buffers, or a dense array allocated here when ``cap * d`` is at most
    :data:`refsvm.sparse.DENSE_LAYOUT_ENTRIES` (the layout changes no number: refsvm/sparse.py)."""
    cdef double[:, ::1] SVv
    cdef Py_ssize_t j
    store_clear(S, sparse, cap, d)
    if not sparse:                                    # dense rows: the array itself, its norms
        SVv = SV
        if SVv.shape[0] > 0 and SVv.shape[1] > 0:
            S.dense = &SVv[0, 0]
        S.sq = <double*> calloc(cap if cap > 0 else 1, sizeof(double))
        S.x_ind = <int32_t*> calloc(d if d > 0 else 1, sizeof(int32_t))
        S.x_val = <double*> calloc(d if d > 0 else 1, sizeof(double))
        if S.sq == NULL or S.x_ind == NULL or S.x_val == NULL:
            store_free(S)
            raise MemoryError(f"could not allocate the SV norms ({cap} slots, {d} features)")
        if S.dense != NULL:
            for j in range(cap):                      # rows already in the array (a model to continue)
                S.sq[j] = seq_sq(S.dense + j * d, d)
        _keep_by_feature(S)
        return 0
    S.nnz = <Py_ssize_t*> calloc(cap, sizeof(Py_ssize_t))
    S.sq = <double*> calloc(cap, sizeof(double))
    S.x_ind = <int32_t*> calloc(d if d > 0 else 1, sizeof(int32_t))
    S.x_val = <double*> calloc(d if d > 0 else 1, sizeof(double))
    if cap * d <= DENSE_LAYOUT_ENTRIES:
        S.owns_dense = True
        S.dense = <double*> calloc(cap * d if cap * d > 0 else 1, sizeof(double))
        if S.nnz == NULL or S.sq == NULL or S.dense == NULL or S.x_ind == NULL or S.x_val == NULL:
            store_free(S)
            raise MemoryError(f"could not allocate the SV slots ({cap} slots, {d} features)")
        _keep_by_feature(S)
        return 0
    S.slots = True
    S.ind = <int32_t**> calloc(cap, sizeof(int32_t*))
    S.val = <double**> calloc(cap, sizeof(double*))
    S.room = <Py_ssize_t*> calloc(cap, sizeof(Py_ssize_t))
    S.work = <double*> calloc(d if d > 0 else 1, sizeof(double))
    if (S.ind == NULL or S.val == NULL or S.nnz == NULL or S.room == NULL or S.sq == NULL or S.work == NULL
            or S.x_ind == NULL or S.x_val == NULL):
        store_free(S)
        raise MemoryError(f"could not allocate the sparse SV slots ({cap} slots, {d} features)")
    return 0


cdef int store_fill(Store* S, object sv) except -1:
    """Slots ``0 .. n_sv-1`` from the SVs of a model to continue (dense array or canonical CSR)."""
    cdef Rows R
    cdef Py_ssize_t j
    if not S.sparse:                                  # dense rows: copied in, their norms
        sv = np.ascontiguousarray(sv, dtype=np.float64).reshape(-1, S.d)
        rows_init(&R, sv)
        for j in range(sv.shape[0]):
            store_set_row(S, j, &R, j)
        return 0
    sv = check_sparse_rows(sp.csr_matrix(sv), "sv")
    rows_init(&R, sv)
    for j in range(sv.shape[0]):
        if store_set_row(S, j, &R, j) != 0:
            raise MemoryError("could not allocate a sparse SV")
    return 0


cdef object store_export(const Store* S, Py_ssize_t b):
    """The first ``b`` slots of a store of sparse rows as a canonical CSR matrix (b, d)."""
    cdef Py_ssize_t j, total = 0, pos = 0
    if not S.slots:                                   # the dense layout: its nonzeros in index order
        dense = np.zeros((b, S.d))
        if b > 0 and S.d > 0:
            dense[...] = <double[:b, :S.d]> S.dense
        return check_sparse_rows(sp.csr_matrix(dense), "sv")
    for j in range(b):
        total += S.nnz[j]
    indptr = np.zeros(b + 1, dtype=np.int64)
    indices = np.empty(total, dtype=np.int32)
    data = np.empty(total, dtype=np.float64)
    cdef int64_t[::1] ipv = indptr
    cdef int32_t[::1] iv = indices
    cdef double[::1] dv = data
    for j in range(b):
        if S.nnz[j] > 0:
            memcpy(&iv[pos], S.ind[j], S.nnz[j] * sizeof(int32_t))
            memcpy(&dv[pos], S.val[j], S.nnz[j] * sizeof(double))
        pos += S.nnz[j]
        ipv[j + 1] = pos
    out = sp.csr_matrix((data, indices, indptr), shape=(b, S.d))
    out.indices, out.indptr = indices, indptr             # int32 / int64 as check_sparse_rows leaves them
    return out


cdef void store_free(Store* S) noexcept:
    cdef Py_ssize_t j
    if S.slots:
        for j in range(S.cap):
            if S.ind != NULL:
                free(S.ind[j])
            if S.val != NULL:
                free(S.val[j])
    if S.sparse:
        free(S.ind)
        free(S.val)
        free(S.nnz)
        free(S.room)
        free(S.work)
    free(S.sq)
    free(S.x_ind)
    free(S.x_val)
    if S.owns_dense:
        free(S.dense)
    free(S.dense_t)
    store_clear(S, S.sparse, S.cap, S.d)


# ----------------------------------------------------------------------------
# list operations, nogil
# ----------------------------------------------------------------------------

cdef inline void _dense_row_stats(Store* S, Py_ssize_t j) noexcept nogil:
    """nnz and squared norm (squared values in index order) of dense-layout row ``j``."""
    cdef Py_ssize_t k, n = 0
    cdef double sq = 0.0, v
    cdef const double* row = S.dense + j * S.d
    for k in range(S.d):
        v = row[k]
        if v != 0.0:
            n += 1
            sq += v * v
    S.nnz[j] = n
    S.sq[j] = sq


cdef int _reserve(Store* S, Py_ssize_t j, Py_ssize_t n) noexcept nogil:
    """Room for ``n`` entries in slot ``j`` (contents not kept).  0, or ERR_NOMEM."""
    cdef int32_t* ni
    cdef double* nv
    if S.room[j] >= n:
        return 0
    ni = <int32_t*> malloc((n if n > 0 else 1) * sizeof(int32_t))
    nv = <double*> malloc((n if n > 0 else 1) * sizeof(double))
    if ni == NULL or nv == NULL:
        free(ni)
        free(nv)
        return ERR_NOMEM
    free(S.ind[j])
    free(S.val[j])
    S.ind[j] = ni
    S.val[j] = nv
    S.room[j] = n
    return 0


cdef int store_set_row(Store* S, Py_ssize_t j, const Rows* R, Py_ssize_t i) noexcept nogil:
    """Slot ``j`` <- x_i (Alg. 1, line 7: a new SV is its row).  0, or ERR_NOMEM."""
    cdef Py_ssize_t r, start, n
    if not S.sparse:
        for r in range(S.d):
            S.dense[j * S.d + r] = R.dense[i * R.d + r]
        if S.sq != NULL:
            S.sq[j] = seq_sq(S.dense + j * S.d, S.d)
        _column_from_row(S, j)
        return 0
    start = R.indptr[i]
    n = R.indptr[i + 1] - start
    if not S.slots:                                   # sparse row into the dense layout
        for r in range(S.d):
            S.dense[j * S.d + r] = 0.0
        for r in range(n):
            S.dense[j * S.d + R.indices[start + r]] = R.data[start + r]
        S.nnz[j] = n
        S.sq[j] = seq_sq(R.data + start, n)
        _column_from_row(S, j)
        return 0
    if _reserve(S, j, n) != 0:
        return ERR_NOMEM
    if n > 0:
        memcpy(S.ind[j], R.indices + start, n * sizeof(int32_t))
        memcpy(S.val[j], R.data + start, n * sizeof(double))
    S.nnz[j] = n
    S.sq[j] = seq_sq(S.val[j], n)
    return 0


cdef void store_move(Store* S, Py_ssize_t p, Py_ssize_t last) noexcept nogil:
    """remove(p): slot ``last`` moves into slot ``p`` (sparse: the two slots swap buffers)."""
    cdef Py_ssize_t r
    cdef int32_t* ti
    cdef double* tv
    cdef Py_ssize_t tn
    if p == last:
        return
    if not S.slots:
        for r in range(S.d):
            S.dense[p * S.d + r] = S.dense[last * S.d + r]
        if S.sparse:
            S.nnz[p] = S.nnz[last]
        if S.sq != NULL:
            S.sq[p] = S.sq[last]
        _column_from_row(S, p)
        return
    ti = S.ind[p]
    tv = S.val[p]
    tn = S.room[p]
    S.ind[p] = S.ind[last]
    S.val[p] = S.val[last]
    S.room[p] = S.room[last]
    S.nnz[p] = S.nnz[last]
    S.sq[p] = S.sq[last]
    S.ind[last] = ti
    S.val[last] = tv
    S.room[last] = tn
    S.nnz[last] = 0


cdef int store_merge(Store* S, Py_ssize_t m, Py_ssize_t n, double h) noexcept nogil:
    """Slot ``m`` <- z = h s_m + (1 - h) s_n (eq. 18); sparse: the union of the supports, exact
    zeros dropped.  0, or ERR_NOMEM."""
    cdef Py_ssize_t r, p = 0, q = 0, k = 0, na, nb
    cdef double u = 1.0 - h, v
    cdef int32_t* ni
    cdef double* nv
    cdef int32_t* ia
    cdef int32_t* ib
    cdef double* va
    cdef double* vb
    if not S.slots:
        for r in range(S.d):
            S.dense[m * S.d + r] = h * S.dense[m * S.d + r] + u * S.dense[n * S.d + r]
        if S.sparse:
            _dense_row_stats(S, m)
        elif S.sq != NULL:
            S.sq[m] = seq_sq(S.dense + m * S.d, S.d)
        _column_from_row(S, m)
        return 0
    na = S.nnz[m]
    nb = S.nnz[n]
    ni = <int32_t*> malloc((na + nb if na + nb > 0 else 1) * sizeof(int32_t))
    nv = <double*> malloc((na + nb if na + nb > 0 else 1) * sizeof(double))
    if ni == NULL or nv == NULL:
        free(ni)
        free(nv)
        return ERR_NOMEM
    ia = S.ind[m]
    ib = S.ind[n]
    va = S.val[m]
    vb = S.val[n]
    while p < na or q < nb:
        if q >= nb or (p < na and ia[p] < ib[q]):
            ni[k] = ia[p]
            v = h * va[p]
            p += 1
        elif p >= na or ib[q] < ia[p]:
            ni[k] = ib[q]
            v = u * vb[q]
            q += 1
        else:
            ni[k] = ia[p]
            v = h * va[p] + u * vb[q]
            p += 1
            q += 1
        if v != 0.0:
            nv[k] = v
            k += 1
    free(S.ind[m])
    free(S.val[m])
    S.ind[m] = ni
    S.val[m] = nv
    S.room[m] = na + nb
    S.nnz[m] = k
    S.sq[m] = seq_sq(nv, k)
    return 0


cdef Py_ssize_t store_find_row(const Store* S, Py_ssize_t b, const Rows* R, Py_ssize_t i) noexcept nogil:
    """The lowest ``j < b`` whose SV equals x_i in every coordinate, or -1."""
    cdef Py_ssize_t j, r, start, n, k
    cdef const double* x
    cdef const double* row
    if not S.sparse:
        x = R.dense + i * R.d
        for j in range(b):
            for r in range(S.d):
                if S.dense[j * S.d + r] != x[r]:
                    break
            else:
                return j
        return -1
    start = R.indptr[i]
    n = R.indptr[i + 1] - start
    for j in range(b):
        if S.nnz[j] != n:
            continue
        if not S.slots:                               # dense layout: x's entries, then nnz equal
            row = S.dense + j * S.d
            for r in range(n):
                if row[R.indices[start + r]] != R.data[start + r]:
                    break
            else:
                return j
            continue
        for r in range(n):
            if S.ind[j][r] != R.indices[start + r] or S.val[j][r] != R.data[start + r]:
                break
        else:
            return j
    return -1


cdef inline void _slot_dots(const Store* S, Py_ssize_t b, const int32_t* ind, const double* val,
                            Py_ssize_t n, double* out) noexcept nogil:
    """``out[j] = s_j . x`` for the first ``b`` sparse slots and the sparse row ``x = (ind, val)``: x
    scattered into the workspace, one pass over each SV's entries in index order, the workspace
    zeroed again."""
    cdef Py_ssize_t j, r
    cdef double dot
    cdef double* w = S.work
    cdef const int32_t* si
    cdef const double* sv
    for r in range(n):
        w[ind[r]] = val[r]
    for j in range(b):
        si = S.ind[j]
        sv = S.val[j]
        dot = 0.0
        for r in range(S.nnz[j]):
            dot += sv[r] * w[si[r]]
        out[j] = dot
    for r in range(n):
        w[ind[r]] = 0.0


cdef void store_log_kappa_row(const Store* S, Py_ssize_t b, Py_ssize_t m, double gamma,
                              double* out) noexcept nogil:
    """``out[n] = -gamma ||s_n - s_m||^2`` for ``n < b``: :func:`store_sq_dist`'s numbers for every
    candidate partner of ``m`` at once, one dot over s_m's nonzeros per SV (merging, Alg. 2)."""
    cdef Py_ssize_t n, nz
    if not S.slots:                                   # dense array: gather at s_m's nonzeros
        nz = dense_nonzeros(S.dense + m * S.d, S.d, S.x_ind, S.x_val)
        gather_dots(S.dense, b, S.d, S.x_ind, S.x_val, nz, out)
    else:                                             # sparse slots: s_m scattered
        _slot_dots(S, b, S.ind[m], S.val[m], S.nnz[m], out)
    for n in range(b):                                # out[n] held s_n . s_m
        out[n] = rbf_from_sq(S.sq[n], S.sq[m], out[n], gamma)


cdef void store_kernel_row(const Store* S, Py_ssize_t b, const Rows* R, Py_ssize_t i, int kernel,
                           double gamma, double degree, double coef0, double* out) noexcept nogil:
    """``out[j] = k(s_j, x_i)`` for ``j < b`` (:func:`store_kernel_row_pre` without the exponents)."""
    store_kernel_row_pre(S, b, R, i, kernel, gamma, degree, coef0, out, NULL)


cdef void store_kernel_row_pre(const Store* S, Py_ssize_t b, const Rows* R, Py_ssize_t i, int kernel,
                               double gamma, double degree, double coef0, double* out,
                               double* pre) noexcept nogil:
    """``out[j] = k(s_j, x_i)`` for ``j < b`` (Gaussian: from the norms, a dot over x's nonzeros per
    SV; sparse slots: x_i scattered into the workspace, one pass over each SV's entries).  Gaussian
    kernel only: ``pre`` (or NULL) receives the exponents ``-gamma ||s_j - x_i||^2``, the numbers
    :func:`store_log_kappa_row` computes for an SV equal to x_i."""
    cdef Py_ssize_t j, start, n
    cdef double sq_x
    if not S.sparse:                                  # dense rows (x's nonzeros into x_ind / x_val)
        if kernel == KERNEL_RBF:
            n = dense_nonzeros(R.dense + i * R.d, S.d, S.x_ind, S.x_val)
            if S.dense_t != NULL:
                rbf_row_by_feature(S.dense_t, S.cap, b, S.sq, S.x_ind, S.x_val, n, gamma, out, pre)
            else:
                rbf_row_gather(S.dense, b, S.d, S.sq, S.x_ind, S.x_val, n, gamma, out, pre)
        else:
            kernel_row_into(kernel, S.dense, b, S.d, R.dense + i * R.d, gamma, degree, coef0, out,
                            NULL, NULL, NULL)
        return
    start = R.indptr[i]
    n = R.indptr[i + 1] - start
    if not S.slots and kernel == KERNEL_RBF:          # dense layout: gather at x's entries
        if S.dense_t != NULL:
            rbf_row_by_feature(S.dense_t, S.cap, b, S.sq, R.indices + start, R.data + start, n, gamma, out, pre)
        else:
            rbf_row_gather(S.dense, b, S.d, S.sq, R.indices + start, R.data + start, n, gamma, out, pre)
        return
    sq_x = seq_sq(R.data + start, n)
    if S.slots:
        _slot_dots(S, b, R.indices + start, R.data + start, n, out)
    else:
        gather_dots(S.dense, b, S.d, R.indices + start, R.data + start, n, out)
    if kernel != KERNEL_RBF:                          # out[j] held s_j . x
        for j in range(b):
            out[j] = kernel_from_dot(kernel, out[j], S.sq[j], sq_x, gamma, degree, coef0)
        return
    for j in range(b):                                # -gamma ||s_j - x||^2, exp below
        out[j] = rbf_from_sq(S.sq[j], sq_x, out[j], gamma)
    if pre != NULL:
        memcpy(pre, out, b * sizeof(double))
    exp_row(out, b)                                   # the dense rows' exp (kernels.pxd)


cdef void store_kernel_row_slot(const Store* S, Py_ssize_t b, Py_ssize_t r, int kernel, double gamma,
                                double degree, double coef0, double* out) noexcept nogil:
    """``out[j] = k(s_j, s_r)`` for ``j < b``: the kernel row of a stored SV (dense rows: as the kernel
    row of ``x = s_r``; sparse rows: from the norms, the Gaussian through ``exp_row``)."""
    cdef Py_ssize_t j, k
    cdef double dot, sq
    if not S.sparse:
        kernel_row_into(kernel, S.dense, b, S.d, S.dense + r * S.d, gamma, degree, coef0, out,
                        S.sq, S.x_ind, S.x_val)
        return
    for j in range(b):
        if S.slots:
            dot = sparse_dot(S.ind[j], S.val[j], S.nnz[j], S.ind[r], S.val[r], S.nnz[r])
        else:
            dot = 0.0
            for k in range(S.d):
                dot += S.dense[j * S.d + k] * S.dense[r * S.d + k]
        if kernel == KERNEL_RBF:
            out[j] = rbf_from_sq(S.sq[j], S.sq[r], dot, gamma)
        else:
            out[j] = kernel_from_dot(kernel, dot, S.sq[j], S.sq[r], gamma, degree, coef0)
    if kernel == KERNEL_RBF:
        exp_row(out, b)


# ----------------------------------------------------------------------------
# the public functions of refsvm.sparse
# ----------------------------------------------------------------------------

def row_sq_norms(S):
    """``||s_j||^2`` of every row of the CSR matrix ``S``: squared values added in index order."""
    S = check_sparse_rows(sp.csr_matrix(S), "S")
    cdef Rows R
    rows_init(&R, S)
    out = np.zeros(S.shape[0])
    cdef double[::1] ov = out
    cdef Py_ssize_t j
    for j in range(S.shape[0]):
        ov[j] = seq_sq(R.data + R.indptr[j], R.indptr[j + 1] - R.indptr[j])
    return out


def sparse_dots(S, x):
    """``s_j . x`` for every row of the CSR matrix ``S`` and the sparse row ``x`` (1, d)."""
    S = check_sparse_rows(sp.csr_matrix(S), "S")
    x = check_sparse_rows(sp.csr_matrix(x), "x")
    cdef Rows R, Q
    rows_init(&R, S)
    rows_init(&Q, x)
    out = np.zeros(S.shape[0])
    cdef double[::1] ov = out
    cdef Py_ssize_t j
    for j in range(S.shape[0]):
        ov[j] = sparse_dot(R.indices + R.indptr[j], R.data + R.indptr[j], R.indptr[j + 1] - R.indptr[j],
                           Q.indices, Q.data, Q.indptr[1])
    return out


def rows_equal(a, b):
    """True when the sparse rows ``a`` and ``b`` (1, d) are equal in every coordinate."""
    a = check_sparse_rows(sp.csr_matrix(a), "a")
    b = check_sparse_rows(sp.csr_matrix(b), "b")
    return (a.nnz == b.nnz and np.array_equal(a.indices, b.indices)
            and np.array_equal(a.data, b.data))


def _dense_layout_entries(value=None):
    """The compiled path's layout threshold (refsvm.sparse.DENSE_LAYOUT_ENTRIES as read at import);
    ``value``: set it (tests run both layouts this way).  Returns the previous value."""
    global DENSE_LAYOUT_ENTRIES
    old = DENSE_LAYOUT_ENTRIES
    if value is not None:
        DENSE_LAYOUT_ENTRIES = int(value)
    return old
