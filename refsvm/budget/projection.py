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

#: Where a slot's carried bound ``e_j`` saturates (:func:`projection_solve_error`; read by the compiled
#: twin at import).  The bounds of near duplicates compound by ``max(|x_j|, delta_j) + delta_j`` per solve,
#: which exceeds 1 there (``delta_j`` up to ``u / ridge`` times the system's scale); without the cap they
#: overflowed to infinity (agreement run seeds 2657, 6721: the estimator's next epoch refused its own
#: ``sv_error``).  A slot at the cap lies in every selection band (``s_j >= 3e200 k_jj``), as it would
#: with any larger bound, so the cap changes no decision; it keeps the arithmetic finite.
SOLVE_ERROR_CAP = 1e100


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
        errors[others] = np.minimum(errors[others] + projection_solve_error(K_p, k_p, K_inv_k, alpha[p], errors[p],
                                                                           kernel_error), SOLVE_ERROR_CAP)
    alpha[others] += np.outer(K_inv_k, alpha[p])                             # eq. 14: Delta alpha^(i) = alpha_p^(i) K_p^{-1} k_p
    wd = float(np.sum(alpha[p] ** 2) * (k_pp - k_p @ K_inv_k))              # eq. 15
    if errors is not None:
        errors[p], errors[n_sv - 1] = errors[n_sv - 1], 0.0                   # follows remove(p); a free slot holds 0
    n_sv = remove_sv(SV, alpha, n_sv, p)                                     # Alg. 2, projection, line 2
    return n_sv, p, -1, max(wd, 0.0)


def conditioning_errors(SV, alpha, n_sv, kernel, gamma, degree, coef0, ridge, kernel_error):
    """BSGD projection's per-slot bounds ``e_j`` for the selection (:func:`select_smallest` with
    ``tie_unit = 0``), from the state at selection time:

    ``e_j = ||A^{-1}[j, :]||_1 rho``, ``A = K + r I`` over the ``n_sv`` SVs (:func:`relative_ridge`),
    ``rho = max_i [(3 n + 2) u max_k (|A| |alpha^(i)|)_k + eps_K ||alpha^(i)||_1]`` over the classes i,
    for the slots j that have a near duplicate in the set (:func:`near_duplicate_slots`); 0 elsewhere.

    What it bounds: ``alpha - alpha' = A^{-1} (A alpha - A alpha')``, so two coefficient vectors whose
    images ``A alpha`` (the function's values at the SVs plus ``r alpha``) agree within ``rho`` in every
    entry differ in entry j by at most ``||A^{-1}[j, :]||_1 rho``.  ``rho`` is one backward-stable
    solve's residual bound (LU, growth 1: :func:`projection_solve_error`) plus a kernel value's error
    ``eps_K`` (``kernel_error``) per coefficient: the amount by which the two paths' kernel values and
    solves move ``A alpha``.  The row norms are large (up to ``1 / r``) only for the rows of near
    duplicates or a rank-deficient ``K``: there the split of a coefficient between the near-equal SVs
    is decided by rounding, and ``N_j`` within ``s_j`` of the least are ties (lowest index); on
    well-conditioned rows the band is a few hundred ulps and the exact rule decides.  It is not a
    bound of the error accumulated over the run's earlier solves: such a bound (carried per slot as
    BSCA's ``e_j``) compounds by ``|x_j| e_p`` at every event and grew past the coefficients
    themselves on a9a (B = 100, 3,000 steps), turning the selection into "the lowest slot".
    Restricted to near duplicates: a rank-deficient or ill-conditioned ``K`` without them (a9a,
    linear kernel, B = 100: rows ~3e9) has bounds as large as the coefficients too, and the band
    then picked the lowest slot at 352 of 353 events, while both paths compute those ``N_j`` with the
    same operations and agreed under the exact rule; for a near-duplicate pair the function does not
    depend on the split (projecting either twin onto the other leaves it within the ridge), so which
    twin goes is a tie of the problem, decided by the lowest index among those within their bounds.
    """
    u, n = UNIT_ROUNDOFF, n_sv
    S = SV[:n]
    A = kernel_matrix(S, S, kernel, gamma, degree, coef0)
    diag = kernel_diag(S, kernel, gamma, degree, coef0)
    twins = near_duplicate_slots(A, diag, relative_ridge(ridge, diag))
    if not twins.any():                                            # every e_j = 0: no inverse needed
        return np.zeros(n)
    A[np.diag_indices_from(A)] += relative_ridge(ridge, diag)
    rows = np.sum(np.abs(np.linalg.inv(A)), axis=0)                # A symmetric: column sums = row sums
    a = np.abs(alpha[:n])
    rho = float(np.max((3 * n + 2) * u * np.max(np.abs(A) @ a, axis=0) + kernel_error * np.sum(a, axis=0)))
    return np.where(twins, rows * rho, 0.0)


def near_duplicate_slots(K, diag, r):
    """Slots ``j`` with a near duplicate ``i != j`` in the SV set: ``k_ii k_jj - k_ij^2 <= r (k_ii + k_jj)``
    (``K`` the kernel matrix, ``diag`` its diagonal ``k(x_j, x_j)``, ``r`` the ridge), i.e. the pair's
    2 x 2 Gram matrix has an eigenvalue below ``2 r``: their difference lies below the ridge's
    resolution, and eq. 14 splits a coefficient between them by the ridge and by rounding.  rbf with
    ``r = 1e-10``: ``2 gamma ||x_i - x_j||^2 <~ 2e-10``.  The determinant's rounding (``~u k^2``) is far
    below ``r k``, so the test's edge lies at pairs ~1e-5 apart, not at rounding noise."""
    d = diag
    det = d[:, None] * d[None, :] - K * K
    close = det <= r * (d[:, None] + d[None, :])
    np.fill_diagonal(close, False)
    return np.any(close, axis=1)


def projection_solve_error(A, b, x, alpha_p, e_p, kernel_error):
    """A bound of the error that one projection solve puts into each remaining coefficient (eq. 14's
    ``Delta alpha_j = x_j alpha_p`` with ``x = A^{-1} b``, ``A = K_p + r I``, ``b = k_p``), to first order:

    ``E_j = ||alpha_p||_inf delta_j + (max(|x_j|, delta_j) + delta_j) e_p``, ``delta_j = ||A^{-1}[j, :]||_1 rho``,
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
    ``delta_j`` bounds ``x_j``'s error.  ``alpha_p``'s own bound ``e_p`` reaches coefficient j through
    the exact ``x_j``, and ``|exact x_j| <= |x_j| + delta_j <= max(|x_j|, delta_j) + delta_j``: the
    product ``delta_j e_p`` is not negligible, as carried bounds of repeated rows reach 1e5 x their
    coefficient.  The ``max`` makes the term depend on ``delta_j`` only where ``x_j`` is noise
    (``|x_j| < delta_j``: the split of a coefficient between exact duplicates, decided by rounding):
    there the computed ``|x_j|`` differed 300-fold between the paths (4.3e-7 against 1.25e-9, exact
    1.25e-9; agreement run seed 15079), ``|x_j| e_p`` moved a slot's bound 18-fold and a slot across
    the selection's band edge; ``delta_j`` (row norms of ``A^{-1}``, relative error ~ ``u cond(A)``)
    agrees between the paths to ~1e-6.  Second-order terms (``dA`` times the error of ``x``) are left
    out; the selection doubles the bound (:func:`refsvm.budget.solve_error_margin`).  Checked against
    a 60-digit solve in ``tests/bsca/test_projection_selection.py`` (also with ``e_p`` >> ``|alpha_p|``).
    """
    u, m = UNIT_ROUNDOFF, len(b)
    rows = np.sum(np.abs(np.linalg.inv(A)), axis=0)                # A symmetric: column sums = row sums
    rho = ((3 * m + 2) * u * float(np.max(np.abs(A) @ np.abs(x) + np.abs(b)))
           + kernel_error * (float(np.sum(np.abs(x))) + 1.0))
    delta = rows * rho                                             # |x_j - exact x_j| <= delta_j
    return float(np.max(np.abs(alpha_p))) * delta + (np.maximum(np.abs(x), delta) + delta) * e_p
