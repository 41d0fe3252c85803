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

The squared distance of the Gaussian kernel is computed through the squared
norms, ``||x - x'||^2 = ||x||^2 + ||x'||^2 - 2 x.x'`` clamped at 0, with every
sum taken in index order (:func:`seq_sum`), for dense and sparse rows alike.
A kernel row then costs one dot product over the nonzeros of ``x`` per SV,
and a dense row and its CSR copy give bitwise the same kernel values (adding
an exact zero changes no partial sum), hence the same run.  The price is the
cancellation of the expansion for nearby points: the squared distance is off
by about ``1e-16 (||x||^2 + ||x'||^2)``, the kernel value by about
``gamma 1e-16 (||x||^2 + ||x'||^2)`` relative (LIBSVM's training kernel and
scikit-learn's ``euclidean_distances`` make the same choice; ``||x - x||^2`` is
exactly 0).  Earlier development versions
summed ``(x - x')**2`` directly for dense rows; docs/sparse.rst ("One formula
for dense and sparse rows") says why that changed.  Merging's distance
between two SVs (:func:`sq_dist`) is the same number as the kernel rows'.
:mod:`refsvm._fast.kernels` computes the same numbers.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .constants import UNIT_ROUNDOFF
from .sparse import n_rows, row_sq_norms, sparse_dots

KERNELS = ("rbf", "linear", "poly")


@dataclass(frozen=True)
class Kernel:
    """A kernel as one value: its kind (``"rbf"``, ``"linear"``, ``"poly"``) and parameters.

    The algorithms carry this instead of four loose arguments; ``Kernel.of(kernel, gamma,
    degree, coef0)`` builds it (unchecked: the validation module checks the parameters first).
    ``row``, ``diag`` and ``matrix`` are :func:`kernel_row`, :func:`kernel_diag` and
    :func:`kernel_matrix` with these parameters.
    """

    kind: str = "rbf"
    gamma: float = 1.0
    degree: int = 3
    coef0: float = 0.0

    @classmethod
    def of(cls, kind, gamma=1.0, degree=3, coef0=0.0):
        if isinstance(kind, Kernel):
            return kind
        return cls(kind, float(gamma), int(degree), float(coef0))

    @property
    def params(self):
        """``(kind, gamma, degree, coef0)``, the loose arguments of the kernel functions."""
        return self.kind, self.gamma, self.degree, self.coef0

    def row(self, SV, x):
        """``k(x_j, x)`` for every row ``x_j`` of ``SV`` (:func:`kernel_row`)."""
        return kernel_row(SV, x, *self.params)

    def diag(self, SV):
        """``k(x_j, x_j)`` for every row of ``SV`` (:func:`kernel_diag`)."""
        return kernel_diag(SV, *self.params)

    def matrix(self, A, B):
        """The kernel matrix between the rows of ``A`` and ``B`` (:func:`kernel_matrix`)."""
        return kernel_matrix(A, B, *self.params)


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
    if kernel == "rbf":                                       # ||s_j||^2 + ||x||^2 - 2 s_j . x
        sq_dist = seq_sum(SV * SV) + seq_sum(x * x) - 2.0 * seq_sum(SV * x)
        return np.exp(-gamma * np.maximum(sq_dist, 0.0))
    if kernel == "linear":
        return SV @ x
    if kernel == "poly":
        return (gamma * (SV @ x) + coef0) ** degree
    raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")


def seq_sum(M):
    """The sums of ``M`` along its last axis, each added in index order (``np.cumsum``'s last
    entry; ``np.sum`` would add pairwise).  Over a dense row this is the sum over its nonzeros in
    index order, the sparse rows' definition (:mod:`refsvm.sparse`)."""
    M = np.asarray(M, dtype=np.float64)
    if M.shape[-1] == 0:
        return np.zeros(M.shape[:-1])
    return np.cumsum(M, axis=-1)[..., -1]


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
    """``||a - b||^2`` of two rows as the Gaussian kernel computes it: ``||a||^2 + ||b||^2 - 2 a.b``
    clamped at 0, every sum in index order (dense and sparse rows: the same number).  Merging reads
    it (``log kappa = -gamma ||x_m - x_n||^2``)."""
    if sp.issparse(a):
        sq_a, sq_b, dot = row_sq_norms(a)[0], row_sq_norms(b)[0], sparse_dots(a, b)[0]
    else:
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        sq_a, sq_b, dot = seq_sum(a * a), seq_sum(b * b), seq_sum(a * b)
    sq = float(sq_a + sq_b - 2.0 * dot)
    return sq if sq > 0.0 else 0.0


def kernel_matrix(A, B, kernel, gamma, degree, coef0):
    """Kernel matrix between the rows of ``A`` (n, d) and of ``B`` (m, d); shape (n, m).

    Row ``i`` equals ``kernel_row(B, A[i], ...)``; used for prediction.  Both dense or both sparse.
    """
    if not sp.issparse(A):
        A = np.asarray(A, dtype=np.float64)
        B = np.asarray(B, dtype=np.float64)
        if kernel == "rbf" and A.shape[0] > 1:
            return _rbf_matrix(A, B, gamma)
    K = np.empty((A.shape[0], B.shape[0]))
    for i in range(A.shape[0]):
        K[i] = kernel_row(B, A[i], kernel, gamma, degree, coef0)
    return K


#: Entries of the (rows, m, d) products :func:`_rbf_matrix` forms at a time.
_BLOCK_ENTRIES = 1 << 20


def _rbf_matrix(A, B, gamma):
    """The dense Gaussian kernel matrix, a block of rows at a time, with :func:`kernel_row`'s numbers:
    every sum is the same ``seq_sum`` (``cumsum``'s sequential sum along the last axis, whatever the
    leading axes), then the same elementwise operations."""
    sq_b = seq_sum(B * B)
    K = np.empty((A.shape[0], B.shape[0]))
    rows = max(1, _BLOCK_ENTRIES // max(1, B.shape[0] * B.shape[1]))
    for start in range(0, A.shape[0], rows):
        a = A[start:start + rows]
        dots = seq_sum(a[:, None, :] * B[None, :, :])          # (rows, m): s_j . x_i in index order
        sq_dist = sq_b[None, :] + seq_sum(a * a)[:, None] - 2.0 * dots
        K[start:start + rows] = np.exp(-gamma * np.maximum(sq_dist, 0.0))
    return K


def kernel_value_error(X, kernel):
    """A bound on the absolute rounding error of one kernel value ``K(x_i, x_j)`` over rows of ``X``
    (both paths; ``u`` = 2^-53, ``d`` = number of features, ``M = max_i ||x_i||^2``):

    * linear: the dot product of ``d`` terms, ``(d + 2) u M``;
    * rbf: the squared distance ``||x||^2 + ||x'||^2 - 2 x.x'`` is off by at most
      ``2 (d + 2) u M``, ``exp(-g d^2)`` (<= 1) then by ``g`` times that, plus 2 ulp of ``exp``
      and the rounding of the exponent ``x = g d^2`` (``u x``, moving ``e^-x`` by ``u x e^-x <= u / e``):
      ``u (2.5 + 2 (d + 2) g M)``;
    * poly ``(g x.x' + c0)^p``: with ``B = g M + |c0|`` (a bound of the base), ``p (d + 3) u B^p``.

    SBP's ties, BSCA's and BSGD's projection bounds and the online learners' tolerances all read this
    one bound (:func:`kernel_value_error_over` for several sets of rows).
    """
    d = X.shape[1]
    M = float(np.max(Kernel("linear").diag(X))) if X.shape[0] else 0.0
    if kernel.kind == "linear":
        return (d + 2) * UNIT_ROUNDOFF * M
    if kernel.kind == "rbf":
        return UNIT_ROUNDOFF * (2.5 + 2.0 * (d + 2) * float(kernel.gamma) * M)
    base = abs(float(kernel.gamma)) * M + abs(float(kernel.coef0))
    return float(kernel.degree) * (d + 3) * UNIT_ROUNDOFF * base ** float(kernel.degree)


def kernel_value_error_over(kernel, *row_sets):
    """:func:`kernel_value_error` for kernel values between rows of any of ``row_sets`` (e.g. the
    training rows and a warm start's support vectors): the largest bound over the sets that hold
    rows (``None`` and empty sets skipped), 0.0 when none does."""
    return max((kernel_value_error(rows, kernel) for rows in row_sets if rows is not None and n_rows(rows)),
               default=0.0)
