"""Projectron and Projectron++ (Orabona, Keshet & Caputo 2009; reference).

A mistake whose new kernel function lies (nearly) in the span of the SVs is
projected onto it instead of adding an SV; ``K^{-1}`` of the SVs is kept up to
date.  Conventions, weights and trace: :mod:`refsvm.online`.
"""

import math

import numpy as np

from .common import ADDED, PROJECTED, begin


def projectron(X, y, order, *, eta, budget, plusplus, kernel, gamma, degree, coef0, sv=None,
               alpha=None, t0=0, state=None, zero_prediction="mistake", variant="paper", sample_weight=None):
    """Projectron and Projectron++ (Orabona, Keshet & Caputo 2009, JMLR 10).

    With ``K`` the kernel matrix of the SVs (its inverse kept up to date),
    ``d* = K^{-1} k_t`` and ``delta_t = ||P^perp k(x_t, .)|| = sqrt(k(x_t, x_t) - k_t' d*)``
    (a negative rounding error is clipped to 0):

    * mistake (``y_t f_t(x_t) <= 0``): if ``delta_t <= eta`` project,
      ``alpha += y_t d*``; otherwise add ``x_t`` with coefficient
      ``y_t`` and grow ``K^{-1}`` by the block formula
      ``[[K^{-1}, 0], [0, 0]] + (1/delta_t^2) [d*; -1][d*; -1]'``;
    * Projectron++ only, margin error (no mistake and ``0 < y_t f_t(x_t) < 1``):
      ``l = 1 - y_t f_t(x_t)``, ``||P k_t||^2 = k_t' d*``,
      ``tau = min(l / ||P k_t||^2, 1)``; if
      ``beta = tau (2 l - tau ||P k_t||^2 - 2 delta_t / eta) >= 0`` project with
      step ``tau``: ``alpha += y_t tau d*`` (no SV is ever added on a margin error).

    ``budget``: ``None`` is the paper's algorithm (the size is bounded through
    ``eta`` only).  An integer B gives the fixed-budget variant Lu et al. (2016)
    compare against: a mistake made with B SVs is always projected.

    A mistake made by the empty model always adds ``x_t`` (the span is {0}, so
    ``delta_t = sqrt(k(x_t, x_t))`` and with ``eta >= delta_t`` the model would
    stay empty for ever; JSAT and Lu et al.'s code add the first example
    unconditionally too).

    ``eta = 0`` makes the Projectron the kernel perceptron (it adds on every
    mistake unless ``k(x_t, .)`` is exactly in the span); with ``eta = 0``
    Projectron++ never updates on margin errors (``2 delta / eta`` is read as
    +inf, 0 when ``delta = 0``).

    Differences from implementations read: the MATLAB code released with Lu
    et al. ignores ``eta`` on mistakes (projects only when the budget is full)
    and replaces ``1/eta`` of the margin condition by
    ``U = sqrt((B+1)/log(B+1))/4``; JSAT's Projectron++ takes
    ``tau = max(l/||Pk||^2, 2 (l - delta/eta)/||Pk||^2, 1)``.  We follow the
    paper's form above (``eta`` on both branches, ``tau = min(., 1)``).

    ``variant="authors"`` is Lu et al.'s reading (an integer ``budget`` is
    required): a mistake adds ``x_t`` while fewer than B SVs are held and is
    projected once B are (``eta`` is not used on mistakes), and the margin
    condition uses ``2 U delta_t`` with ``U = 1/4 sqrt((B+1)/ln(B+1))``
    (:func:`projectron_U`) instead of ``2 delta_t / eta``.  Both variants
    project a mistake whose ``delta_t`` is exactly 0 (``x_t`` in the span:
    adding it would make ``K`` singular).  ``zero_prediction``: how
    ``f_t(x_t) = 0`` is read (:func:`is_mistake`); a step that is no mistake
    with ``y_t f_t(x_t) = 0`` is not a margin error (the margin condition is
    ``0 < y f < 1``, as in the code).

    ``sample_weight`` (n,) or None: the mistake step is ``s_t y_t`` (projected
    or added), the margin-error step ``tau = min(l / ||P k_t||^2, s_t)``;
    ``s_t = 0``: no step (module docstring).

    ``state``: ``Kinv`` (n_sv x n_sv) to continue from; recomputed from ``sv``
    when absent.
    """
    run, o, rec = begin("projectron++" if plusplus else "projectron", X, y, order, kernel, gamma, degree, coef0,
                        sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight, zero_prediction=zero_prediction,
                        budget=budget, variant=variant, eta=eta)
    Kinv = initial_inverse(run, state)                     # K^{-1} of the current SVs
    for step, x_t, y_t, s_t in run.examples():
        f_t, k_t = run.f(x_t)
        margin = y_t * f_t
        mistake = o.is_mistake(y_t, f_t)
        rec.mistake(mistake)
        if s_t > 0.0 and (mistake or (plusplus and 0.0 < margin < 1.0)):
            b = run.b
            k_tt = run.k_tt(x_t)
            d_star = Kinv @ k_t                            # d* = K^{-1} k_t
            Pk_sq = float(k_t @ d_star)                    # ||P k_t||^2 = k_t' K^{-1} k_t
            delta_sq = max(k_tt - Pk_sq, 0.0)              # delta_t^2 = ||k(x_t,.) - P k(x_t,.)||^2
            delta = math.sqrt(delta_sq)
            if mistake:
                if b > 0 and (projects_mistake(o, delta, b) or delta_sq == 0.0):
                    run.A[:b] += (y_t * s_t) * d_star      # f += s_t y_t P k(x_t, .)
                    rec.update(step, PROJECTED)
                else:
                    Kinv = grown_inverse(Kinv, d_star, delta_sq)
                    run.append(x_t, y_t * s_t)             # f += s_t y_t k(x_t, .)
                    rec.update(step, ADDED)
            elif b > 0 and Pk_sq > 0.0:                    # Projectron++: margin error
                loss = 1.0 - margin
                tau = min(loss / Pk_sq, s_t)               # step cap: the mistake step s_t
                beta = tau * (2.0 * loss - tau * Pk_sq - margin_penalty(o, delta))
                if beta >= 0.0:
                    run.A[:b] += (y_t * tau) * d_star      # f += y_t tau P k(x_t, .)
                    rec.update(step, PROJECTED)
    return run.result({"Kinv": Kinv.copy()})


def initial_inverse(run, state):
    """``K^{-1}`` of the SVs ``run`` starts from: ``state["Kinv"]``, or computed from the SVs."""
    Kinv = np.zeros((run.b, run.b))
    if run.b:
        if state and "Kinv" in state:
            Kinv[:] = state["Kinv"]
        else:
            Kinv[:] = np.linalg.inv(run.kernel.matrix(run.SV[:run.b], run.SV[:run.b]))
    return Kinv


def projects_mistake(o, delta, b):
    """Whether a mistake is projected rather than added: ``delta_t <= eta`` (the paper; not the
    authors' code), or B SVs held (the fixed-budget variant, and the authors' code)."""
    return (not o.authors and delta <= o.eta) or (o.budget is not None and b == o.budget)


def grown_inverse(Kinv, d_star, delta_sq):
    """``K^{-1}`` grown by one SV (block formula): ``[[K^{-1}, 0], [0, 0]] + (1/delta^2) [d*; -1][d*; -1]'``."""
    b = Kinv.shape[0]
    d_ext = np.append(d_star, -1.0)
    grown = np.zeros((b + 1, b + 1))
    grown[:b, :b] = Kinv
    return grown + np.outer(d_ext, d_ext) / delta_sq


def margin_penalty(o, delta):
    """``2 delta_t / eta`` of Projectron++'s margin condition (``eta = 0``: +inf, 0 when
    ``delta_t = 0``); Lu et al.'s code: ``2 U delta_t`` (:func:`projectron_U`)."""
    if o.authors:
        return 2.0 * o.U * delta
    if o.eta > 0.0:
        return 2.0 * delta / o.eta
    return 0.0 if delta == 0.0 else math.inf
