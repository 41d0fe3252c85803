"""Projectron and Projectron++ (Orabona, Keshet & Caputo 2009; reference).

A mistake whose new kernel function lies (nearly) in the span of the SVs is
projected onto it instead of adding an SV; ``K^{-1}`` of the SVs is kept up to
date.  Conventions, weights and trace: :mod:`refsvm.online`.
"""

import math

import numpy as np

from .common import ADDED, PROJECTED, begin

_UNIT_ROUNDOFF = 2.0 ** -53      #: u, the unit roundoff of float64


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
    mistake unless ``k(x_t, .)`` is in the span, to ``tol``); with ``eta = 0``
    Projectron++ never updates on margin errors (``2 delta / eta`` is read as
    +inf, 0 when ``delta = 0``).

    Differences from implementations read: the MATLAB code released with Lu
    et al. ignores ``eta`` on mistakes (projects only when the budget is full)
    and replaces ``1/eta`` of the margin condition by
    ``U = sqrt((B+1)/log(B+1))/4``; JSAT's Projectron++ takes
    ``tau = max(l/||Pk||^2, 2 (l - delta/eta)/||Pk||^2, 1)``.  We follow the
    paper's form above (``eta`` on both branches, ``tau = min(., 1)``).

    Every decision on ``delta_t`` is taken to the error bound ``tol`` of the computed ``delta_t^2``
    (:func:`span_tolerance`): ``delta_t^2 <= tol`` is ``x_t`` in the span (``delta_t = 0``: projected
    on a mistake, no penalty on a margin error), ``delta_t <= eta`` is ``delta_t^2 <= eta^2 + tol``.
    ``K^{-1}`` grows by the block formula only while ``delta_t^2`` is accurate enough, otherwise it
    is computed afresh (:func:`grown_inverse`).

    ``variant="authors"`` is Lu et al.'s reading (an integer ``budget`` is
    required): a mistake adds ``x_t`` while fewer than B SVs are held and is
    projected once B are (``eta`` is not used on mistakes), and the margin
    condition uses ``2 U delta_t`` with ``U = 1/4 sqrt((B+1)/ln(B+1))``
    (:func:`projectron_U`) instead of ``2 delta_t / eta``.  Both variants
    project a mistake whose ``delta_t`` is 0 to ``tol`` (``x_t`` in the span:
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
    k_bound = kernel_diag_bound(run.kernel, run.X, run.SV[:run.b])   # >= k(x, x) of every SV (tolerances)
    for step, x_t, y_t, s_t in run.examples():
        f_t, k_t = run.f(x_t)
        margin = y_t * f_t
        mistake = o.is_mistake(y_t, f_t)
        rec.mistake(mistake)
        if s_t > 0.0 and (mistake or (plusplus and 0.0 < margin < 1.0 - margin_tolerance(k_t, run, k_bound))):
            b = run.b
            k_tt = run.k_tt(x_t)
            # d* = K^{-1} k_t, ||P k_t||^2 = k_t' d*, delta_t^2 = k_tt - ||P k_t||^2 and its error bound
            Kinv, d_star, Pk_sq, delta_sq, tol, solved = projection_distance(run, o, Kinv, k_t, k_tt, k_bound)
            delta = math.sqrt(delta_sq) if delta_sq > tol else 0.0   # within tol: in the span, delta_t = 0
            if mistake:
                if b > 0 and projects_mistake(o, delta_sq, tol, b):
                    run.A[:b] += (y_t * s_t) * d_star      # f += s_t y_t P k(x_t, .)
                    rec.update(step, PROJECTED)
                else:
                    run.append(x_t, y_t * s_t)             # f += s_t y_t k(x_t, .)
                    Kinv = grown_inverse(Kinv, d_star, delta_sq, solved, run)
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
            Kinv[:] = fresh_inverse(run.kernel, run.SV[:run.b])
    return Kinv


#: ``delta_t^2`` from the kept ``K^{-1}`` decides (and the block update uses it) only when its error
#: bound is at most this fraction of it and of its distance to ``eta^2``; otherwise the step solves
#: with ``K`` afresh (:func:`projection_distance`).
BORDER_RTOL = 1e-6

#: Steps of iterative refinement of a solve with ``K`` afresh (each reduces the error by a factor of
#: about ``u cond(K)``; three reach the working accuracy for ``cond(K)`` up to about 1e13).
REFINEMENT_STEPS = 3


def projects_mistake(o, delta_sq, tol, b):
    """Whether a mistake is projected rather than added, each comparison to the tolerance ``tol`` of
    :func:`span_tolerance` (within it counts as the smaller side: projected):

    * ``delta_t <= eta`` (the paper; not the authors' code), read as ``delta_t^2 <= eta^2 + tol``;
    * B SVs held (the fixed-budget variant, and the authors' code);
    * ``x_t`` in the span of the SVs, ``delta_t^2 <= tol`` (both variants: adding it would make
      ``K`` singular; the computed ``delta_t^2`` of such a point is rounding noise).
    """
    return ((not o.authors and delta_sq <= o.eta * o.eta + tol) or (o.budget is not None and b == o.budget)
            or delta_sq <= tol)


def kernel_diag_bound(kernel, X, SV):
    """An upper bound of ``k(x, x)`` over the rows of ``X`` and of the SVs ``SV`` the call starts with
    (every SV of the call is one of them): 1 for rbf, else the largest diagonal value (not counted as
    kernel evaluations: it serves the tolerances only)."""
    if kernel.kind == "rbf":
        return 1.0
    bound = float(np.max(kernel.diag(X))) if X.shape[0] else 0.0
    return max(bound, float(np.max(kernel.diag(SV)))) if SV.shape[0] else bound


def span_tolerance(k_tt, k_t, d_star, Kinv, k_bound):
    """Error bound of ``delta_t^2 = k(x_t, x_t) - k_t' d*`` computed with the *kept* ``K^{-1}``
    (``u`` = 2^-53, ``b`` SVs, ``k_bound`` from :func:`kernel_diag_bound`)::

        tol_kept = 4 (b + 2) u (k_tt + ||k_t|| ||d*||) kappa,   kappa = max(1, b k_bound ||K^{-1}||_F)

    The subtraction and the dot ``k_t' d*`` round by at most ``(b + 2) u (k_tt + ||k_t|| ||d*||)``;
    the kept ``K^{-1}`` (block updates) is off by a relative error of order ``u cond(K)``, which
    ``k_t' d*`` inherits: ``kappa`` bounds ``cond_2(K)`` (``||K||_2 <= trace K <= b k_bound``,
    ``||K^{-1}||_2 <= ||K^{-1}||_F``).  Pessimistic: it only decides whether a step may use the kept
    inverse (:func:`projection_distance`), never a comparison by itself.
    """
    b = d_star.shape[0]
    kappa = max(1.0, b * k_bound * math.sqrt(float(np.sum(Kinv * Kinv))))
    scale = k_tt + math.sqrt(float(k_t @ k_t)) * math.sqrt(float(d_star @ d_star))
    return 4.0 * (b + 2) * _UNIT_ROUNDOFF * scale * kappa


def solved_tolerance(k_tt, k_t, d_star, k_bound):
    """Error bound of ``delta_t^2`` computed from a solve with ``K`` afresh and iterative refinement
    (:func:`projection_distance`)::

        tol = 4 (b + 2) u (k_tt + 2 ||k_t|| ||d*|| + b k_bound ||d*||^2)

    The refined ``d*`` solves ``(K + Delta K) d* = k_t`` with ``||Delta K|| <= (b + 2) u ||K||`` and
    ``||K||_2 <= b k_bound``, which moves ``k_t' d*`` by at most ``||Delta K|| ||d*||^2``; the residual,
    the dot and the subtraction round by at most ``(b + 2) u (k_tt + 2 ||k_t|| ||d*||)``; factor 4: slack.
    """
    b = d_star.shape[0]
    nd = math.sqrt(float(d_star @ d_star))
    return 4.0 * (b + 2) * _UNIT_ROUNDOFF * (k_tt + 2.0 * math.sqrt(float(k_t @ k_t)) * nd + b * k_bound * nd * nd)


def needs_solve(o, delta_sq, tol):
    """Whether ``delta_t^2`` from the kept inverse is too inexact for this step: within ``tol /
    BORDER_RTOL`` of 0 (the span test, and the block update's Schur complement) or, paper variant,
    of ``eta^2`` (the distance test)."""
    return delta_sq * BORDER_RTOL <= tol or (not o.authors and abs(delta_sq - o.eta * o.eta) * BORDER_RTOL <= tol)


def projection_distance(run, o, Kinv, k_t, k_tt, k_bound):
    """``(Kinv, d*, ||P k_t||^2, delta_t^2, tol, solved)`` of one step.

    From the kept ``K^{-1}`` when :func:`needs_solve` says its ``delta_t^2`` is accurate enough for
    every comparison of the step (``tol`` = :func:`span_tolerance`); otherwise ``K`` of the SVs is
    computed afresh (:func:`fresh_inverse`, which also replaces the kept inverse), ``d*`` solved with
    ``REFINEMENT_STEPS`` steps of iterative refinement and ``tol`` = :func:`solved_tolerance` (``solved`` True).
    """
    d_star = Kinv @ k_t
    Pk_sq = float(k_t @ d_star)
    delta_sq = max(k_tt - Pk_sq, 0.0)
    tol = span_tolerance(k_tt, k_t, d_star, Kinv, k_bound)
    if run.b == 0 or not needs_solve(o, delta_sq, tol):
        return Kinv, d_star, Pk_sq, delta_sq, tol, False
    K = run.kernel.matrix(run.SV[:run.b], run.SV[:run.b])
    Kinv = np.linalg.inv(K)
    d_star = Kinv @ k_t
    for _ in range(REFINEMENT_STEPS):                    # iterative refinement (fixed number of steps)
        d_star = d_star - Kinv @ (K @ d_star - k_t)
    Pk_sq = float(k_t @ d_star)
    delta_sq = max(k_tt - Pk_sq, 0.0)
    return Kinv, d_star, Pk_sq, delta_sq, solved_tolerance(k_tt, k_t, d_star, k_bound), True


def margin_tolerance(k_t, run, k_bound):
    """Error bound of the computed ``f_t(x_t) = sum_j alpha_j k(x_j, x_t)`` (``u`` = 2^-53, ``b`` SVs,
    ``d`` features)::

        tol_f = (b + 4) u sum_j |alpha_j k_j| + (d + 2) u k_bound sum_j |alpha_j|

    (the sum of ``b`` products; each kernel value off by at most 2 ulp (rbf) or ``(d + 2) u k_bound``
    (a dot product of ``d`` terms)).  Projectron++'s margin error ``y_t f_t < 1`` is read as
    ``y_t f_t < 1 - tol_f``: a margin within it of 1 is met (tie rule; a point projected once with
    ``tau = l / ||P k_t||^2`` has margin exactly 1 the next time it comes, in exact arithmetic).
    """
    A = run.A[:run.b]
    d = run.X.shape[1]
    return (run.b + 4) * _UNIT_ROUNDOFF * float(np.sum(np.abs(A * k_t))) \
        + (d + 2) * _UNIT_ROUNDOFF * k_bound * float(np.sum(np.abs(A)))


def grown_inverse(Kinv, d_star, delta_sq, solved, run):
    """``K^{-1}`` grown by one SV (``run`` holds it already): the block formula
    ``[[K^{-1}, 0], [0, 0]] + (1/delta^2) [d*; -1][d*; -1]'`` when ``delta^2`` came from the kept
    inverse (then its error bound is at most ``BORDER_RTOL delta^2``, :func:`needs_solve`);
    after a solve (``solved``: ``delta^2`` was too inexact for the kept inverse) :func:`fresh_inverse`
    of the grown SV set."""
    if solved:
        return fresh_inverse(run.kernel, run.SV[:run.b])
    b = Kinv.shape[0]
    d_ext = np.append(d_star, -1.0)
    grown = np.zeros((b + 1, b + 1))
    grown[:b, :b] = Kinv
    return grown + np.outer(d_ext, d_ext) / delta_sq


def fresh_inverse(kernel, SV):
    """``K^{-1}`` of the SVs ``SV`` computed afresh (``K`` by :func:`refsvm.kernels.kernel_matrix`, the
    same on both paths; not counted as kernel evaluations, as the initial inverse)."""
    return np.linalg.inv(kernel.matrix(SV, SV))


def margin_penalty(o, delta):
    """``2 delta_t / eta`` of Projectron++'s margin condition (``eta = 0``: +inf, 0 when
    ``delta_t = 0``); Lu et al.'s code: ``2 U delta_t`` (:func:`projectron_U`)."""
    if o.authors:
        return 2.0 * o.U * delta
    if o.eta > 0.0:
        return 2.0 * delta / o.eta
    return 0.0 if delta == 0.0 else math.inf
