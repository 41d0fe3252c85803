"""Kernel functions shared by every algorithm (reference implementation).

Three kernels, named by strings on both backends:

``"rbf"``
    Gaussian kernel ``k(x, x') = exp(-gamma ||x - x'||^2)``.  This is the
    convention of the whole library: Wang et al. write ``exp(-sigma ||x-x'||^2)``
    (their sigma is our gamma); Cotter et al. and Lu et al. write
    ``exp(-||x-x'||^2 / (2 sigma^2))`` (``gamma = 1 / (2 sigma^2)``).
``"linear"``
    ``k(x, x') = x . x'``.
``"poly"``
    ``k(x, x') = (gamma x . x' + coef0) ** degree``.

The squared distance of the Gaussian kernel is computed directly as
``sum((x - x')**2)`` (not through ``||x||^2 + ||x'||^2 - 2 x.x'``), which avoids
cancellation for nearby points; :mod:`refsvm._fast.kernels` does the same.
Sparse rows (scipy CSR, :mod:`refsvm.sparse`) go through the squared norms
instead, ``||x||^2 + ||x'||^2 - 2 x.x'`` clamped at 0, so that a kernel row
costs one sparse dot product per SV.
"""

import numpy as np
import scipy.sparse as sp

from .sparse import row_sq_norms, sparse_dots, sparse_sq_dist

KERNELS = ("rbf", "linear", "poly")


def kernel_row(SV, x, kernel, gamma, degree, coef0):
    """Kernel values between one point ``x`` (d,) and every row of ``SV`` (B, d).

    Returns a float64 array of shape (B,).  ``SV`` and ``x`` may be sparse (CSR; see the
    module docstring).
    """
    if sp.issparse(SV):
        dots = sparse_dots(SV, x)                             # s_j . x
        if kernel == "rbf":
            sq_dist = row_sq_norms(SV) + row_sq_norms(x)[0] - 2.0 * dots
            return np.exp(-gamma * np.maximum(sq_dist, 0.0))
        return _from_dots(dots, kernel, gamma, degree, coef0)
    SV = np.asarray(SV, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    if kernel == "rbf":
        sq_dist = np.sum((SV - x) ** 2, axis=1)
        return np.exp(-gamma * sq_dist)
    if kernel == "linear":
        return SV @ x
    if kernel == "poly":
        return (gamma * (SV @ x) + coef0) ** degree
    raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")


def kernel_diag(SV, kernel, gamma, degree, coef0):
    """The values ``k(x_j, x_j)`` for every row of ``SV``; shape (B,)."""
    if kernel == "rbf":
        return np.ones(SV.shape[0])
    if sp.issparse(SV):
        return _from_dots(row_sq_norms(SV), kernel, gamma, degree, coef0)
    SV = np.asarray(SV, dtype=np.float64)
    return _from_dots(np.sum(SV * SV, axis=1), kernel, gamma, degree, coef0)


def _from_dots(dots, kernel, gamma, degree, coef0):
    """The linear or polynomial kernel from the dot products ``x . x'``."""
    if kernel == "linear":
        return dots
    if kernel == "poly":
        return (gamma * dots + coef0) ** degree
    raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")


def sq_dist(a, b):
    """``||a - b||^2`` of two rows by the direct sum in numpy's pairwise order (sparse rows: the same
    number, :func:`refsvm.sparse.sparse_sq_dist`); merging reads it."""
    if sp.issparse(a):
        return sparse_sq_dist(a, b)
    return float(np.sum((np.asarray(a) - np.asarray(b)) ** 2))


def kernel_matrix(A, B, kernel, gamma, degree, coef0):
    """Kernel matrix between the rows of ``A`` (n, d) and of ``B`` (m, d); shape (n, m).

    Row ``i`` equals ``kernel_row(B, A[i], ...)``; used for prediction.  Both dense or both sparse.
    """
    if not sp.issparse(A):
        A = np.asarray(A, dtype=np.float64)
        B = np.asarray(B, dtype=np.float64)
    K = np.empty((A.shape[0], B.shape[0]))
    for i in range(A.shape[0]):
        K[i] = kernel_row(B, A[i], kernel, gamma, degree, coef0)
    return K
