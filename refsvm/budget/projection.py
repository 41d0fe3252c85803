"""Budget maintenance by projection (Algorithm 2, "Projection", eq. 13-15 of Wang et al. 2012).

Part of :mod:`refsvm.budget` (every name is importable from there); compiled mirror:
``refsvm/_fast/budget_projection.pxi`` (with the kept inverse of BSGD's compiled path).
"""

import numpy as np

from ..kernels import kernel_diag, kernel_matrix, kernel_row
from .removal import remove_sv, select_smallest

#: Default ridge added to the kernel matrix of the projection step.
PROJECTION_RIDGE = 1e-10


# ----------------------------------------------------------------------------
# projection (Algorithm 2, "Projection", eq. 13-15)
# ----------------------------------------------------------------------------

def relative_ridge(ridge, diag):
    """The ridge added to ``K_p``'s diagonal: ``ridge * max(diag)`` with ``diag = k(x_j, x_j)`` of the SVs of ``K_p``
    (``ridge`` itself if that max is not positive; for rbf the diagonal is exactly 1).

    Relative to K's scale so that it is above one ulp of every diagonal entry
    (``ridge >= 1e-15``) whatever the kernel's units: an absolute ``1e-10``
    vanishes below the rounding of a diagonal of ~6e6 (linear kernel on unscaled
    data) and ``K_p + ridge I`` stays numerically singular.  The maximum (not the
    mean) because it is computed exactly whatever the order of the entries (both
    paths get the same bits), is above the rounding of the largest entry, and
    bounds the condition number: ``cond(K_p + r I) <= 1 + m / ridge`` for m SVs.
    For rbf the diagonal is exactly 1, so the ridge is ``ridge`` itself.
    """
    top = float(np.max(diag)) if len(diag) else 0.0
    return ridge * top if top > 0.0 else ridge


def maintain_projection(SV, alpha, n_sv, kernel, gamma, degree, coef0, ridge, tie_unit=0.0):
    """Project the smallest SV (ties: :func:`select_smallest`) onto the others (eq. 14) and remove it.

    Returns ``(n_sv, p, -1, WD)`` with ``WD = ||alpha_p||^2 (k_pp - k_p' K_p^{-1} k_p)`` (eq. 15).
    ``K_p`` is regularised by :func:`relative_ridge` (``ridge * max diag K_p``).
    """
    p, _ = select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit)   # Alg. 2, projection, line 1
    others = np.array([j for j in range(n_sv) if j != p], dtype=np.intp)
    K_p = kernel_matrix(SV[others], SV[others], kernel, gamma, degree, coef0)
    K_p[np.diag_indices_from(K_p)] += relative_ridge(ridge, kernel_diag(SV[others], kernel, gamma, degree, coef0))
    k_p = kernel_row(SV[others], SV[p], kernel, gamma, degree, coef0)
    k_pp = kernel_diag(SV[p:p + 1], kernel, gamma, degree, coef0)[0]
    K_inv_k = np.linalg.solve(K_p, k_p)                                      # K_p^{-1} k_p
    alpha[others] += np.outer(K_inv_k, alpha[p])                             # eq. 14: Delta alpha^(i) = alpha_p^(i) K_p^{-1} k_p
    wd = float(np.sum(alpha[p] ** 2) * (k_pp - k_p @ K_inv_k))              # eq. 15
    n_sv = remove_sv(SV, alpha, n_sv, p)                                     # Alg. 2, projection, line 2
    return n_sv, p, -1, max(wd, 0.0)
