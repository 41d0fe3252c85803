"""BPA-S, the budgeted passive-aggressive learner, simple variant (Wang & Vucetic 2010; reference).

A PA-I step on every positive hinge loss; with B SVs the new SV replaces the
one whose removal (projected onto ``x_t``) costs least.  Conventions, weights
and trace: :mod:`refsvm.online`.
"""

import numpy as np

from ..constants import UNIT_ROUNDOFF
from .common import ADDED, begin


def bpas(X, y, order, *, budget, C, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
         state=None, zero_prediction="mistake", sample_weight=None):
    """Budgeted passive-aggressive, simple variant BPA-S (Wang & Vucetic 2010, AISTATS).

    With ``l_t = max(0, 1 - y_t f_t(x_t)) > 0`` and ``tau_t = min(C, l_t / k(x_t, x_t))``
    (PA-I): below the budget add ``x_t`` with ``y_t tau_t``.  With B SVs, for
    every candidate ``r`` the SV ``x_r`` is removed and its contribution
    projected onto ``x_t`` alone: ``beta_r = alpha_r k(x_r, x_t) / k(x_t, x_t) + y_t tau_t``,
    ``f_r = f_t - alpha_r k(x_r, .) + beta_r k(x_t, .)``; the ``r`` minimising
    ``Q_r = 1/2 ||f_r - f_t||^2 + C max(0, 1 - y_t f_r(x_t))`` is replaced by
    ``(x_t, beta_r)`` in its slot; candidates whose computed ``Q_r`` are within their rounding bound
    of the least are ties, won by the lowest slot (:func:`least_objective`).
    ``||f_r - f_t||^2 = alpha_r^2 k_rr + beta_r^2 k_tt - 2 alpha_r beta_r k_rt``.

    Lu et al.'s MATLAB code takes ``beta_r = alpha_r k_rt + y_t tau_t``, the
    same for the Gaussian kernel (``k_tt = 1``).  ``zero_prediction`` only
    changes the mistake count (the update is the hinge loss's).
    ``sample_weight`` (n,) or None: ``C s_t`` in place of ``C`` (PA-I on the
    weighted loss), in the step and in ``Q_r``; ``s_t = 0``: no step.

    Decisions on computed numbers (both paths): a step leaves ``y_t f(x_t) = 1`` exactly when
    ``tau_t < C``, so a repeated row meets a loss that is rounding noise; the step is taken iff
    ``l_t > tol_f`` and the prediction read as 0 iff ``|f_t| <= tol_f``
    (:func:`refsvm.online.common.margin_tolerance`, the error bound of ``f_t``).
    """
    run, o, rec = begin("bpas", X, y, order, kernel, gamma, degree, coef0, sv=sv, alpha=alpha, t0=t0,
                        sample_weight=sample_weight, zero_prediction=zero_prediction, budget=budget, C=C)
    for step, x_t, y_t, s_t in run.examples():
        C_t = C * s_t                                      # PA-I on the weighted loss
        f_t, k_t = run.f(x_t)
        eps_K = run.kernel_error(x_t)                      # one kernel value's error bound
        f_err = run.margin_tolerance(k_t, eps_K)           # f_t within rounding of 0 reads as 0
        rec.mistake(o.is_mistake(y_t, f_t, f_err))
        loss = max(0.0, 1.0 - y_t * f_t)
        if loss > f_err and C_t > 0.0:                     # a loss within rounding of 0 is 0 (y f = 1 after a step)
            k_tt = run.k_tt(x_t)
            tau = min(C_t, loss / k_tt)                    # PA-I step
            rec.update(step, ADDED)
            if run.b < budget:
                run.append(x_t, y_t * tau)
            else:
                k_rr = run.k_rr()
                a_r = run.A[:run.b]
                beta = a_r * k_t / k_tt + y_t * tau        # projection of x_r onto x_t, plus the PA step
                dist_sq = a_r * a_r * k_rr + beta * beta * k_tt - 2.0 * a_r * beta * k_t
                f_r = f_t - a_r * k_t + beta * k_tt        # f_r(x_t)
                Q = 0.5 * dist_sq + C_t * np.maximum(0.0, 1.0 - y_t * f_r)
                tol = bpas_tie_tolerance(a_r, k_t, k_rr, k_tt, beta, f_t, Q, tau, C_t, f_err, eps_K)
                r = least_objective(Q, tol)                # argmin Q_r, ties within rounding: lowest slot
                run.replace(r, x_t, beta[r], step)         # replace x_r by x_t
    return run.result({})


def bpas_tie_tolerance(a, k, k_rr, k_tt, beta, f_t, Q, tau, C_t, f_err, eps_K):
    """Per candidate ``r``, twice a bound of the rounding error of the computed ``Q_r`` (both paths).

    Candidates holding the row ``x_t`` itself (repeated rows) have the same exact ``Q_r``
    (``tau^2 k_tt / 2 + C max(0, 1 - y f_t - tau k_tt)`` whatever ``alpha_r``), but ``||f_r - f_t||^2``
    is computed as ``a^2 k_rr + beta^2 k_tt - 2 a beta k_rt``, a cancelling sum of terms of order
    ``a^2``: the computed values are rounding noise, and an exact argmin lets the last bits (which
    differ between the paths) pick the slot.  The bound (first order, ``u = 2^-53``, ``e = eps_K``
    one kernel value's error, ``P = |a_r|``, ``B = |beta_r|``, ``k = |k_rt|``):
    ``beta_r``: ``d_b = 3 u (P k / k_tt + tau) + e P (1 + k / k_tt) / k_tt``;
    ``||f_r - f_t||^2``: ``5 u (P^2 k_rr + B^2 k_tt + 2 P B k) + e (P + B)^2 + 2 (B k_tt + P k) d_b``;
    ``f_r(x_t)``: ``f_err + 3 u (|f_t| + P k + B k_tt) + e (P + B) + k_tt d_b`` (``f_err``:
    :func:`refsvm.online.common.margin_tolerance` of ``f_t``); ``Q_r``: half the first, ``C_t``
    times the second, plus ``2 u (|Q_r| + C_t)``.  Twice the total covers the two paths' inputs
    (coefficients, kernel values) a few ulps apart.
    """
    e_dist, e_fr = bpas_term_errors(a, k, k_rr, k_tt, beta, f_t, tau, f_err, eps_K)
    return 2.0 * (0.5 * e_dist + C_t * e_fr + 2.0 * UNIT_ROUNDOFF * (np.abs(Q) + C_t))


def bpas_term_errors(a, k, k_rr, k_tt, beta, f_t, tau, f_err, eps_K):
    """``(e_dist, e_fr)``: the first-order bounds of :func:`bpas_tie_tolerance` on the computed
    ``a^2 k_rr + beta^2 k_tt - 2 a beta k_rt`` and ``f_r(x_t) = f_t - a k_rt + beta k_tt`` (elementwise:
    the multi-class BPA-S, :func:`refsvm.online.multiclass.multiclass_bpas`, passes one column per class)."""
    u = UNIT_ROUNDOFF
    P, B, k = np.abs(a), np.abs(beta), np.abs(k)
    d_b = 3.0 * u * (P * k / k_tt + tau) + eps_K * P * (1.0 + k / k_tt) / k_tt
    e_dist = 5.0 * u * (P * P * k_rr + B * B * k_tt + 2.0 * P * B * k) + eps_K * (P + B) * (P + B) \
        + 2.0 * (B * k_tt + P * k) * d_b
    e_fr = f_err + 3.0 * u * (np.abs(f_t) + P * k + B * k_tt) + eps_K * (P + B) + k_tt * d_b
    return e_dist, e_fr


def least_objective(Q, tol):
    """The replaced slot: the lowest ``r`` whose ``Q_r`` is within ``tol_r`` of the least.

    With ``U = min_r (Q_r + tol_r)`` over the finite ``Q_r``, the ties are the ``r`` with
    ``Q_r - tol_r <= U``; the lowest wins (the rule of :func:`refsvm.budget.least_wd_partner`).
    A non-finite ``Q_r`` is never chosen; slot 0 when none is finite.  Where no other ``Q_r`` is
    within ``tol_r + tol_best`` of the least, this is the exact argmin.
    """
    finite = np.isfinite(Q)
    if not finite.any():
        return 0
    upper = np.min((Q + tol)[finite])
    return int(np.flatnonzero(finite & (Q - tol <= upper))[0])
