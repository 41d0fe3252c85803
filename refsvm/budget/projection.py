"""Budget maintenance by projection (Algorithm 2, "Projection", eq. 13-15 of Wang et al. 2012).

Part of :mod:`refsvm.budget` (every name is importable from there); compiled mirror:
``refsvm/_fast/budget_projection.pxi`` (with the kept inverse of BSGD's compiled path).
"""

import numpy as np

from ..constants import UNIT_ROUNDOFF
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


def maintain_projection(SV, alpha, n_sv, kernel, gamma, degree, coef0, ridge, tie_unit=0.0, errors=None,
                        kernel_error=0.0):
    """Project the smallest SV (ties: :func:`select_smallest`) onto the others (eq. 14) and remove it.

    Returns ``(n_sv, p, -1, WD)`` with ``WD = ||alpha_p||^2 (k_pp - k_p' K_p^{-1} k_p)`` (eq. 15).
    ``K_p`` is regularised by :func:`relative_ridge` (``ridge * max diag K_p``).

    ``errors`` (BSCA; ``None``: BSGD, nothing tracked): the per-slot bounds ``e_j`` of the
    coefficients' error that earlier solves put in (:func:`projection_solve_error`), read by the
    selection's tie rule and updated in place: the others gain this solve's bound, and the array
    follows remove(p).  ``kernel_error``: one kernel value's error (``eps_K``).
    """
    p, _ = select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit, errors)  # Alg. 2, projection, line 1
    others = np.array([j for j in range(n_sv) if j != p], dtype=np.intp)
    K_p = kernel_matrix(SV[others], SV[others], kernel, gamma, degree, coef0)
    K_p[np.diag_indices_from(K_p)] += relative_ridge(ridge, kernel_diag(SV[others], kernel, gamma, degree, coef0))
    k_p = kernel_row(SV[others], SV[p], kernel, gamma, degree, coef0)
    k_pp = kernel_diag(SV[p:p + 1], kernel, gamma, degree, coef0)[0]
    K_inv_k = np.linalg.solve(K_p, k_p)                                      # K_p^{-1} k_p
    if errors is not None:                                                   # before alpha changes
        errors[others] += projection_solve_error(K_p, k_p, K_inv_k, alpha[p], errors[p], kernel_error)
    alpha[others] += np.outer(K_inv_k, alpha[p])                             # eq. 14: Delta alpha^(i) = alpha_p^(i) K_p^{-1} k_p
    wd = float(np.sum(alpha[p] ** 2) * (k_pp - k_p @ K_inv_k))              # eq. 15
    if errors is not None:
        errors[p], errors[n_sv - 1] = errors[n_sv - 1], 0.0                   # follows remove(p); a free slot holds 0
    n_sv = remove_sv(SV, alpha, n_sv, p)                                     # Alg. 2, projection, line 2
    return n_sv, p, -1, max(wd, 0.0)


def projection_solve_error(A, b, x, alpha_p, e_p, kernel_error):
    """A bound of the error that one projection solve puts into each remaining coefficient (eq. 14's
    ``Delta alpha_j = x_j alpha_p`` with ``x = A^{-1} b``, ``A = K_p + r I``, ``b = k_p``), to first order:

    ``E_j = ||alpha_p||_inf ||A^{-1}[j, :]||_1 rho + |x_j| e_p``,
    ``rho = (3 m + 2) u max_i (|A| |x| + |b|)_i + eps_K (||x||_1 + 1)``.

    The computed ``x`` solves its own system exactly up to the residual: ``x - A^{-1} b = -A^{-1} (b - A x)``,
    and LU with partial pivoting leaves ``|b - A x| <= gamma_3m |L| |U| |x|`` (Higham, Thm 9.4), taken
    with ``|L| |U| ~ |A|`` (growth 1: K_p + r I is positive definite; the measured residuals are below
    1/30 of this term, and the bound is checked against a 60-digit solve).  The computed residual
    itself is not used: it is rounding noise, different on the two paths, and it moved the bound by 2 %
    between them (a band edge decided by noise).  The kernel values of ``A`` and ``b`` are within
    ``eps_K`` of the exact ones (``kernel_error``; the two paths' values differ by one such amount),
    which moves the solution by ``A^{-1} (dA x - db)``; the row norms of ``A^{-1}`` carry the
    conditioning to each coefficient (large only for the rows of near duplicates / a rank-deficient
    ``K_p``, up to ``1 / r``).
    ``alpha_p``'s own bound ``e_p`` reaches coefficient j through ``x_j``.  Second-order terms (``dA``
    times the error of ``x``) are left out; the selection doubles the bound
    (:func:`refsvm.budget.solve_error_margin`).  Checked against a 60-digit solve in
    ``tests/bsca/test_projection_selection.py``.
    """
    u, m = UNIT_ROUNDOFF, len(b)
    rows = np.sum(np.abs(np.linalg.inv(A)), axis=0)                # A symmetric: column sums = row sums
    rho = ((3 * m + 2) * u * float(np.max(np.abs(A) @ np.abs(x) + np.abs(b)))
           + kernel_error * (float(np.sum(np.abs(x))) + 1.0))
    return float(np.max(np.abs(alpha_p))) * rows * rho + np.abs(x) * e_p
