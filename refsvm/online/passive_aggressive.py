"""BPA-S, the budgeted passive-aggressive learner, simple variant (Wang & Vucetic 2010; reference).

A PA-I step on every positive hinge loss; with B SVs the new SV replaces the
one whose removal (projected onto ``x_t``) costs least.  Conventions, weights
and trace: :mod:`refsvm.online`.
"""

import numpy as np

from .common import ADDED, begin


def bpas(X, y, order, *, budget, C, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
         state=None, zero_prediction="mistake", sample_weight=None):
    """Budgeted passive-aggressive, simple variant BPA-S (Wang & Vucetic 2010, AISTATS).

    With ``l_t = max(0, 1 - y_t f_t(x_t)) > 0`` and ``tau_t = min(C, l_t / k(x_t, x_t))``
    (PA-I): below the budget add ``x_t`` with ``y_t tau_t``.  With B SVs, for
    every candidate ``r`` the SV ``x_r`` is removed and its contribution
    projected onto ``x_t`` alone: ``beta_r = alpha_r k(x_r, x_t) / k(x_t, x_t) + y_t tau_t``,
    ``f_r = f_t - alpha_r k(x_r, .) + beta_r k(x_t, .)``; the ``r`` minimising
    ``Q_r = 1/2 ||f_r - f_t||^2 + C max(0, 1 - y_t f_r(x_t))`` (lowest slot on
    ties) is replaced by ``(x_t, beta_r)`` in its slot.
    ``||f_r - f_t||^2 = alpha_r^2 k_rr + beta_r^2 k_tt - 2 alpha_r beta_r k_rt``.

    Lu et al.'s MATLAB code takes ``beta_r = alpha_r k_rt + y_t tau_t``, the
    same for the Gaussian kernel (``k_tt = 1``).  ``zero_prediction`` only
    changes the mistake count (the update is the hinge loss's).
    ``sample_weight`` (n,) or None: ``C s_t`` in place of ``C`` (PA-I on the
    weighted loss), in the step and in ``Q_r``; ``s_t = 0``: no step.
    """
    run, o, rec = begin("bpas", X, y, order, kernel, gamma, degree, coef0, sv=sv, alpha=alpha, t0=t0,
                        sample_weight=sample_weight, zero_prediction=zero_prediction, budget=budget, C=C)
    for step, x_t, y_t, s_t in run.examples():
        C_t = C * s_t                                      # PA-I on the weighted loss
        f_t, k_t = run.f(x_t)
        rec.mistake(o.is_mistake(y_t, f_t))
        loss = max(0.0, 1.0 - y_t * f_t)
        if loss > 0.0 and C_t > 0.0:
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
                r = int(np.argmin(Q))
                run.replace(r, x_t, beta[r], step)         # replace x_r by x_t
    return run.result({})
