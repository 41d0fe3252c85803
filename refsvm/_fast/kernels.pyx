# cython: language_level=3
"""Kernel functions, compiled mirror of :mod:`refsvm.kernels` (same names, same signatures).

``k(x, x') = exp(-gamma ||x - x'||^2)`` (``"rbf"``), ``x . x'`` (``"linear"``),
``(gamma x . x' + coef0) ** degree`` (``"poly"``).  The Gaussian kernel's
squared distance comes from the squared norms, ``||x||^2 + ||x'||^2 - 2 x.x'``
clamped at 0, each sum in index order over the nonzeros (see ``kernels.pxd``),
so it is bitwise the reference's, for dense and sparse rows alike.
The C helpers ``kernel_row_into`` / ``kernel_value`` / ``kernel_self`` in
``kernels.pxd`` are what the other compiled modules use in their loops.
"""

import numpy as np

from libc.stdint cimport int32_t
import scipy.sparse as sp

from refsvm._fast.sparse cimport Rows, Store, rows_init, store_fill, store_free, store_init, store_kernel_row, store_self
from refsvm.kernels import KERNELS, seq_sum  # noqa: F401 (re-exported: the reference's names and sequential sum)
from refsvm.validation import check_sparse_rows


cdef class RbfRows:
    """The squared norms of the rows of the C-contiguous float64 ``S`` (n, d) and room for one x's
    nonzeros (kernels.pxd)."""

    def __init__(self, const double[:, ::1] S):
        cdef Py_ssize_t j, d = S.shape[1]
        self.sq = np.zeros(max(S.shape[0], 1))
        self.ind = np.zeros(max(d, 1), dtype=np.int32)
        self.val = np.zeros(max(d, 1))
        if d > 0:
            for j in range(S.shape[0]):
                self.sq[j] = seq_sq(&S[j, 0], d)


def _as_2d(A, name):
    A = np.ascontiguousarray(A, dtype=np.float64)
    if A.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {A.shape}")
    return A


def kernel_row(SV, x, kernel, gamma, degree, coef0):
    """Kernel values between one point ``x`` (d,) and every row of ``SV`` (B, d).

    Returns a float64 array of shape (B,).  ``SV`` and ``x`` may be sparse (refsvm.sparse).
    """
    if sp.issparse(SV):
        return _sparse_matrix(sp.csr_matrix(x), SV, kernel, gamma, degree, coef0)[0]
    SV = _as_2d(SV, "SV")
    x = np.ascontiguousarray(x, dtype=np.float64)
    cdef int code = kernel_code(kernel)
    if x.ndim != 1 or x.shape[0] != SV.shape[1]:
        raise ValueError(f"x must have shape ({SV.shape[1]},), got {x.shape}")
    cdef const double[:, ::1] S = SV
    cdef const double[::1] xv = x
    cdef Py_ssize_t n = S.shape[0], d = S.shape[1]
    cdef double g = gamma, deg = degree, c0 = coef0
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] o = out
    cdef RbfRows w = RbfRows(SV)
    if n > 0 and d > 0:
        with nogil:
            kernel_row_into(code, &S[0, 0], n, d, &xv[0], g, deg, c0, &o[0], &w.sq[0], &w.ind[0], &w.val[0])
    elif n > 0:
        out[:] = kernel_value(code, NULL, NULL, 0, g, deg, c0)
    return out


def kernel_diag(SV, kernel, gamma, degree, coef0):
    """The values ``k(x_j, x_j)`` for every row of ``SV``; shape (B,)."""
    if sp.issparse(SV):
        return _sparse_diag(SV, kernel, gamma, degree, coef0)
    SV = _as_2d(SV, "SV")
    cdef int code = kernel_code(kernel)
    cdef const double[:, ::1] S = SV
    cdef Py_ssize_t n = S.shape[0], d = S.shape[1], j
    cdef double g = gamma, deg = degree, c0 = coef0
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] o = out
    if d == 0:
        out[:] = kernel_self(code, NULL, 0, g, deg, c0)
        return out
    with nogil:
        for j in range(n):
            o[j] = kernel_self(code, &S[j, 0], d, g, deg, c0)
    return out


def kernel_matrix(A, B, kernel, gamma, degree, coef0):
    """Kernel matrix between the rows of ``A`` (n, d) and of ``B`` (m, d); shape (n, m).

    Row ``i`` equals ``kernel_row(B, A[i], ...)``; used for prediction.  Both dense or both sparse.
    """
    if sp.issparse(A):
        return _sparse_matrix(A, B, kernel, gamma, degree, coef0)
    A = _as_2d(A, "A")
    B = _as_2d(B, "B")
    cdef int code = kernel_code(kernel)
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"A and B must have the same number of columns, got {A.shape[1]} and {B.shape[1]}")
    cdef const double[:, ::1] Av = A
    cdef const double[:, ::1] Bv = B
    cdef Py_ssize_t n = Av.shape[0], m = Bv.shape[0], d = Av.shape[1], i
    cdef double g = gamma, deg = degree, c0 = coef0
    K = np.empty((n, m), dtype=np.float64)
    cdef double[:, ::1] Kv = K
    cdef RbfRows w = RbfRows(B)
    if n > 0 and m > 0 and d > 0:
        with nogil:
            for i in range(n):
                kernel_row_into(code, &Bv[0, 0], m, d, &Av[i, 0], g, deg, c0, &Kv[i, 0],
                                &w.sq[0], &w.ind[0], &w.val[0])
    elif n > 0 and m > 0:
        K[:] = kernel_value(code, NULL, NULL, 0, g, deg, c0)
    return K


def _sparse_matrix(A, B, kernel, gamma, degree, coef0):
    """``K[i, j] = k(a_i, b_j)`` for CSR rows: the rows of B as sparse SV slots, one scatter of a_i each."""
    A = check_sparse_rows(A, "A")
    B = check_sparse_rows(sp.csr_matrix(B), "B")
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"A and B must have the same number of columns, got {A.shape[1]} and {B.shape[1]}")
    cdef int code = kernel_code(kernel)
    cdef Py_ssize_t n = A.shape[0], m = B.shape[0], i
    cdef double g = gamma, deg = degree, c0 = coef0
    K = np.zeros((n, m), dtype=np.float64)
    cdef double[:, ::1] Kv = K
    cdef Rows R
    cdef Store S
    rows_init(&R, A)
    store_init(&S, None, max(m, 1), A.shape[1], True)
    try:
        store_fill(&S, B)
        if m > 0:
            with nogil:
                for i in range(n):
                    store_kernel_row(&S, m, &R, i, code, g, deg, c0, &Kv[i, 0])
    finally:
        store_free(&S)
    return K


def _sparse_diag(SV, kernel, gamma, degree, coef0):
    SV = check_sparse_rows(SV, "SV")
    cdef int code = kernel_code(kernel)
    cdef Py_ssize_t m = SV.shape[0], j
    cdef Store S
    out = np.empty(m, dtype=np.float64)
    store_init(&S, None, max(m, 1), SV.shape[1], True)
    try:
        store_fill(&S, SV)
        for j in range(m):
            out[j] = store_self(&S, j, code, gamma, degree, coef0)
    finally:
        store_free(&S)
    return out
