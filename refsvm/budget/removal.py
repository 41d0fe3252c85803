"""Budget maintenance: the list operations every strategy shares, the selection rule and removal.

Section 6.1 and Algorithm 2, "Removal", of Wang, Crammer, Vucetic (2012).  Projection
(:mod:`refsvm.budget.projection`) and merging (:mod:`refsvm.budget.merging`) select and remove
with these functions.  Part of :mod:`refsvm.budget` (every name is importable from there; the
choices where the paper is silent are documented in its docstring); compiled mirror:
``refsvm/_fast/budget_removal.pxi``.
"""

import numpy as np

from ..constants import UNIT_ROUNDOFF
from ..kernels import kernel_diag
from ..sparse import SparseRows, n_rows, new_sv_storage, rows_equal

#: The safety factor of :func:`solve_error_margin` (``s_j = SOLVE_ERROR_SAFETY (2 ||a_j||_1 e_j + c e_j^2)
#: k_jj``): 2 for the other path's coefficients, times 1.5 for the other path's bounds ``e_j`` (see there);
#: read by the compiled twin at import, so both backends use this one value.
SOLVE_ERROR_SAFETY = 3.0


# ----------------------------------------------------------------------------
# list operations shared by all strategies
# ----------------------------------------------------------------------------

def remove_sv(SV, alpha, n_sv, p):
    """Remove SV ``p``: the last SV moves into slot ``p``.  Returns ``n_sv - 1``."""
    last = n_sv - 1
    SV[p] = SV[last]
    alpha[p] = alpha[last]
    return last


def new_model(capacity, X, c, sv=None, alpha=None):
    """The model's storage: ``SV`` with room for ``capacity`` rows like ``X`` (sparse X: sparse
    slots, :func:`refsvm.sparse.new_sv_storage`) and ``A`` (capacity, c), holding ``sv``,
    ``alpha`` (a model to continue from) in their first ``b`` rows.  Returns ``(SV, A, b)``."""
    b = n_rows(sv) if sv is not None else 0
    SV = new_sv_storage(capacity, X)
    A = np.zeros((capacity, c))
    if b > 0:
        SV[:b] = sv
        A[:b] = alpha
    return SV, A, b


def select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit=0.0, errors=None):
    """``p = argmin_j ||alpha_j||^2 k(x_j, x_j)`` over the first ``n_sv`` SVs (sec. 6.1).

    ``tie_unit = 0`` (BSGD): exact comparison, lowest index on exact ties (no tolerance: see
    DESIGN.md, "Ties of the selection rule").  ``tie_unit > 0`` (BSCA, :func:`selection_tie_unit`):
    with ``N_j`` the computed norms and ``t_j = tie_unit N_j + s_j``,
    ``U = min_j (N_j + t_j)``; the ties are the ``j`` with ``N_j - t_j <= U``, and the lowest index
    among them is chosen (the rule of :func:`least_wd_partner`).  ``s_j``
    (:func:`solve_error_margin`) comes from ``errors`` (``e_j``, a bound of coefficient j's error: BSCA's
    Newton steps, :func:`refsvm.bsca.step_error`, and projection solves,
    :func:`refsvm.budget.projection_solve_error`; ``None`` or 0: ``s_j = 0`` and the rule is bitwise the
    one without it).  ``tie_unit = 0`` with ``errors`` (BSGD projection: the near duplicates' bounds,
    :func:`refsvm.budget.conditioning_errors`, DESIGN.md): the same band with ``t_j = s_j`` only, so the
    rule is the exact one (argmin, lowest index) wherever every ``e_j`` is 0, e.g. among Pegasos' equal
    coefficients.  NaN norms: the exact rule.  Returns ``(p, ||alpha_p||^2 k(x_p, x_p))``.
    """
    diag = kernel_diag(SV[:n_sv], kernel, gamma, degree, coef0)
    norms = np.sum(alpha[:n_sv] ** 2, axis=1) * diag
    if (tie_unit > 0.0 or errors is not None) and not np.isnan(norms).any():
        s = 0.0 if errors is None else solve_error_margin(alpha[:n_sv], errors[:n_sv], diag)
        p = int(np.flatnonzero(norms * (1.0 - tie_unit) - s <= np.min(norms * (1.0 + tie_unit) + s))[0])
        return p, float(norms[p])
    return int(np.argmin(norms)), float(norms.min())


def solve_error_margin(alpha, errors, diag):
    """``s_j = SOLVE_ERROR_SAFETY (2 ||alpha_j||_1 e_j + c e_j^2) k_jj`` (3): three times a bound of the error of
    ``N_j = ||alpha_j||^2 k_jj`` when every entry of ``alpha_j`` is within ``e_j`` of its exact value
    (``|a^2 - (a + d)^2| <= 2 |a| |d| + d^2`` per class).  A factor 2 covers the other path's
    coefficients, which lie within their own bound of the exact ones; a further 1.5 the other path's
    ``e_j``, computed from its own coefficients and inverse (BSCA projection with duplicates, seed
    10246 of the agreement run: the two paths' ``e_j`` 2 % apart moved a slot across the band edge
    ``N_j - t_j <= U``; measured: 1.5 and 2 agree there, 1 does not).  The edge itself remains (a
    discrete decision on computed bounds): the factor moves it, it cannot remove it.  0 where
    ``e_j = 0`` (BSGD passes no ``errors``: bitwise the rule without them)."""
    c = alpha.shape[1]
    return SOLVE_ERROR_SAFETY * (2.0 * np.sum(np.abs(alpha), axis=1) * errors + c * errors * errors) * diag


def selection_tie_unit(kernel, d):
    """The relative tie tolerance of BSCA's selection (:func:`select_smallest`) for a kernel on ``d``
    features: ``2 (8 + e_k) u``.

    Bound: ``||alpha_j||^2 k_jj`` rounds by 2 u (the square, the product); ``k_jj`` by ``e_k u``
    relative (0 for rbf, exactly 1; ``(d + 2)`` for linear, ``degree (d + 3)`` for poly: the dot
    product and the power of :func:`refsvm.kernels.kernel_value_error`, relative here because
    ``k(x, x)`` has no cancellation); a BSCA coefficient is a sum of Newton steps
    ``delta y_i``, each rounded relative to the slot's coefficient, so identical rows, which take
    identical steps in exact arithmetic, hold coefficients a few ulps apart that differ between the
    paths (measured 3.4 u and 3.8 u; 6 u allowed).  Twice the sum.  BSGD keeps the exact rule
    (DESIGN.md, "Ties of the selection": Pegasos' equal norms are broken identically by both paths
    and a tolerance would change the algorithm).
    """
    e_k = {"rbf": 0.0, "linear": d + 2.0}.get(kernel.kind, float(kernel.degree) * (d + 3.0))
    return 2.0 * (8.0 + e_k) * UNIT_ROUNDOFF


def find_duplicate(SV, n_sv, x):
    """The lowest ``j < n_sv`` whose SV equals ``x`` in every coordinate, or -1.

    Used by projection (BSGD, BSCA): a new point equal to an SV joins that SV's
    coefficient instead of taking a slot of its own (see DESIGN.md, "Duplicates").
    Sparse SVs (:class:`refsvm.sparse.SparseRows`) compare their stored entries.
    """
    if isinstance(SV, SparseRows):
        return next((j for j in range(n_sv) if rows_equal(SV[j], x)), -1)
    hits = np.flatnonzero(np.all(SV[:n_sv] == x, axis=1))
    return int(hits[0]) if hits.size else -1


# ----------------------------------------------------------------------------
# removal (Algorithm 2, "Removal")
# ----------------------------------------------------------------------------

def maintain_removal(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit=0.0):
    """Remove the smallest SV (ties: :func:`select_smallest`).  Returns ``(n_sv, p, -1, WD)``."""
    p, wd = select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit)  # Alg. 2, removal, line 1
    n_sv = remove_sv(SV, alpha, n_sv, p)                                      # Alg. 2, removal, line 2
    return n_sv, p, -1, wd


# ----------------------------------------------------------------------------
# the removal baselines of section 7.3: a random SV (MP+random), the SV just added (MP+stop)
# ----------------------------------------------------------------------------

def random_slot(u, n_sv):
    """The slot a uniform draw ``u`` in [0, 1) picks among ``n_sv`` SVs: ``floor(u n_sv)`` (capped at
    ``n_sv - 1``, the rule of the online learners' RBP, :meth:`refsvm.online.common.OnlineRun.random_slot`)."""
    return min(int(u * n_sv), n_sv - 1)


def removal_norm(SV, alpha, p, kernel, gamma, degree, coef0):
    """``||alpha_p||^2 k(x_p, x_p)``: the weight degradation of removing SV ``p`` (sec. 6.1), as
    :func:`select_smallest` computes it for every slot."""
    diag = kernel_diag(SV[p:p + 1], kernel, gamma, degree, coef0)
    return float((np.sum(alpha[p:p + 1] ** 2, axis=1) * diag)[0])


def maintain_removal_at(SV, alpha, n_sv, p, kernel, gamma, degree, coef0):
    """Remove SV ``p``, chosen by the caller (not by the norm): Wang et al.'s baselines MP+random
    (``p`` = :func:`random_slot` of a draw) and MP+stop (``p = n_sv - 1``, the SV just added: the
    model stops growing at the budget).  Returns ``(n_sv, p, -1, WD)``, WD = :func:`removal_norm`."""
    wd = removal_norm(SV, alpha, p, kernel, gamma, degree, coef0)
    n_sv = remove_sv(SV, alpha, n_sv, p)                                      # Alg. 2, removal, line 2
    return n_sv, p, -1, wd
