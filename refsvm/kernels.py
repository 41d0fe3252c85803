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
"""

import numpy as np

KERNELS = ("rbf", "linear", "poly")


def kernel_row(SV, x, kernel, gamma, degree, coef0):
    """Kernel values between one point ``x`` (d,) and every row of ``SV`` (B, d).

    Returns a float64 array of shape (B,).
    """
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
    SV = np.asarray(SV, dtype=np.float64)
    if kernel == "rbf":
        return np.ones(SV.shape[0])
    if kernel == "linear":
        return np.sum(SV * SV, axis=1)
    if kernel == "poly":
        return (gamma * np.sum(SV * SV, axis=1) + coef0) ** degree
    raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")


def kernel_matrix(A, B, kernel, gamma, degree, coef0):
    """Kernel matrix between the rows of ``A`` (n, d) and of ``B`` (m, d); shape (n, m).

    Row ``i`` equals ``kernel_row(B, A[i], ...)``; used for prediction.
    """
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    K = np.empty((A.shape[0], B.shape[0]))
    for i in range(A.shape[0]):
        K[i] = kernel_row(B, A[i], kernel, gamma, degree, coef0)
    return K
