"""Projectron and Projectron++ (Orabona, Keshet & Caputo 2009; reference).

A mistake whose new kernel function lies (nearly) in the span of the SVs is
projected onto it instead of adding an SV.  The span test and the projection
read the Cholesky factor ``L`` of the SVs' kernel matrix ``K = L L'``, grown by
one row per added SV (:class:`SpanFactor`).  Conventions, weights and trace:
:mod:`refsvm.online`.
"""

import math
from typing import NamedTuple

import numpy as np
from scipy.linalg.blas import dtrsv

from ..constants import UNIT_ROUNDOFF
from .common import ADDED, PROJECTED, begin

#: Safety factor of the span test's tolerance over its first-order error bound
#: (:func:`span_tolerance`; the twin reads it from here).
SPAN_SAFETY = 4.0


def projectron(X, y, order, *, eta, budget, plusplus, kernel, gamma, degree, coef0, sv=None,
               alpha=None, t0=0, state=None, zero_prediction="mistake", variant="paper", sample_weight=None):
    """Projectron and Projectron++ (Orabona, Keshet & Caputo 2009, JMLR 10).

    With ``K`` the kernel matrix of the SVs, ``d* = K^{-1} k_t`` and
    ``delta_t = ||P^perp k(x_t, .)|| = sqrt(k(x_t, x_t) - k_t' d*)``:

    * mistake (``y_t f_t(x_t) <= 0``): if ``delta_t <= eta`` project,
      ``alpha += y_t d*``; otherwise add ``x_t`` with coefficient ``y_t``;
    * Projectron++ only, margin error (no mistake and ``0 < y_t f_t(x_t) < 1``):
      ``l = 1 - y_t f_t(x_t)``, ``||P k_t||^2 = k_t' d*``,
      ``tau = min(l / ||P k_t||^2, 1)``; if
      ``beta = tau (2 l - tau ||P k_t||^2 - 2 delta_t / eta) >= 0`` project with
      step ``tau``: ``alpha += y_t tau d*`` (no SV is ever added on a margin error).

    How the numbers are computed (both paths; :class:`SpanFactor`): ``z = L^{-1} k_t``
    (forward substitution), ``||P k_t||^2 = z'z``, ``delta_t^2 = k(x_t, x_t) - z'z`` (the
    last pivot of the bordered Cholesky factorisation), ``d* = L^{-T} z``; an added SV
    appends the row ``[z', delta_t]`` to ``L``.  The discrete decisions on these numbers:

    * *in the span*: ``delta_t^2 <= tol`` (:func:`span_tolerance`, an error bound of the
      computed ``delta_t^2``); then ``delta_t`` is read as 0 (projected on a mistake,
      whatever the budget or ``eta``; no margin penalty);
    * ``delta_t <= eta`` (paper) is ``delta_t^2 <= eta^2 + tol``: within rounding of
      ``eta`` counts as ``<=`` (projected);
    * the mistake ``y f <= 0`` is ``y f <= tol_f`` (:func:`is_mistake`; ``tol_f`` the error bound of
      the computed ``f``, :func:`projectron_margin_tolerance`, which counts the coefficients' own
      rounding: a repeated row projected back leaves an exact 0 computed as noise);
    * Projectron++'s margin error ``0 < y f < 1`` is ``tol_f < y f < 1 - tol_f``:
      a margin within rounding of 1 (a repeated row after a step ``tau = l / ||P k_t||^2``,
      which puts its margin at 1 exactly) is no margin error;
    * ``beta >= 0``, ``||P k_t||^2 > 0`` and ``b == B``: exact (``beta``'s sign is continuous in
      the numbers, and with ``delta_t`` read as 0 in the span ``beta >= tau l > 0``).

    ``budget``: ``None`` is the paper's algorithm (the size is bounded through
    ``eta`` only).  An integer B gives the fixed-budget variant Lu et al. (2016)
    compare against: a mistake made with B SVs is always projected.

    A mistake made by the empty model adds ``x_t`` unless ``k(x_t, x_t)`` is within
    rounding of 0 (the zero function: "projected", nothing changes); the span is {0}, so
    ``delta_t = sqrt(k(x_t, x_t))`` and with ``eta >= delta_t`` the model would stay empty
    for ever; JSAT and Lu et al.'s code add the first example unconditionally too.

    ``eta = 0`` makes the Projectron the kernel perceptron (it adds on every
    mistake unless ``k(x_t, .)`` is in the span); with ``eta = 0``
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
    project a mistake whose ``x_t`` is in the span (adding it would make ``K``
    singular; the authors' code tests ``delta_t == 0``, whose computed value is
    rounding noise).  ``zero_prediction``: how
    ``f_t(x_t) = 0`` is read (:func:`is_mistake`); a step that is no mistake
    with ``y_t f_t(x_t) = 0`` is not a margin error (the margin condition is
    ``0 < y f < 1``, as in the code).

    ``sample_weight`` (n,) or None: the mistake step is ``s_t y_t`` (projected
    or added), the margin-error step ``tau = min(l / ||P k_t||^2, s_t)``;
    ``s_t = 0``: no step (module docstring).

    ``state``: ``L`` (the Cholesky factor, n_sv x n_sv, lower), ``diag_max``
    (``max_j k(x_j, x_j)``) and ``coef_error`` (the coefficients' error weights ``e_j`` of
    :func:`projectron_margin_tolerance`) to continue from; computed from ``sv`` (``e = 0``) when absent.
    """
    run, o, rec = begin("projectron++" if plusplus else "projectron", X, y, order, kernel, gamma, degree, coef0,
                        sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight, zero_prediction=zero_prediction,
                        budget=budget, variant=variant, eta=eta)
    factor = initial_factor(run, state)                    # K = L L' of the current SVs
    errors = initial_coefficient_errors(run, state)        # e_j: the coefficients' error weights
    for step, x_t, y_t, s_t in run.examples():
        f_t, k_t = run.f(x_t)
        margin = y_t * f_t
        tol_f = projectron_margin_tolerance(run, k_t, errors)   # f's error bound
        mistake = o.is_mistake(y_t, f_t, tol_f)
        rec.mistake(mistake)
        if s_t > 0.0 and (mistake or (plusplus and tol_f < margin < 1.0 - tol_f)):   # ++: margin error
            b = run.b
            span = factor.project(k_t, run.k_tt(x_t))      # d* = K^{-1} k_t, ||P k_t||^2, delta_t^2
            if mistake:
                if projects_mistake(o, span, b):
                    project_coefficients(run, errors, y_t * s_t, span.d_star)   # f += s_t y_t P k(x_t, .)
                    rec.update(step, PROJECTED)
                else:
                    factor.append(span)                    # L grows by the row [z', delta_t]
                    run.append(x_t, y_t * s_t)             # f += s_t y_t k(x_t, .)
                    rec.update(step, ADDED)
            elif (tau := margin_step(o, span, b, 1.0 - margin, s_t)) is not None:   # Projectron++: margin error
                project_coefficients(run, errors, y_t * tau, span.d_star)       # f += y_t tau P k(x_t, .)
                rec.update(step, PROJECTED)
    return run.result({**factor.state(), "coef_error": errors[:run.b].copy()})


class Span(NamedTuple):
    """One step's projection of ``k(x_t, .)`` onto the span of the SVs (:meth:`SpanFactor.project`)."""

    z: np.ndarray          # L^{-1} k_t
    d_star: np.ndarray     # K^{-1} k_t = L^{-T} z
    k_tt: float            # k(x_t, x_t)
    Pk_sq: float           # ||P k_t||^2 = z'z
    delta_sq: float        # delta_t^2 = k_tt - z'z (computed; may be negative rounding noise)
    tol: float             # span_tolerance: the error bound of delta_sq
    in_span: bool          # delta_sq <= tol
    delta: float           # delta_t: 0 in the span, else sqrt(delta_sq)


class SpanFactor:
    """The Cholesky factor ``L`` (lower) of the SVs' kernel matrix ``K = L L'`` and ``max_j K_jj``.

    An added SV appends the row ``[z', delta_t]`` (the bordered factorisation), O(b) work;
    a step's solves are two triangular substitutions, O(b^2); ``K^{-1}`` is never formed
    and nothing is solved afresh.  ``eps_K``: one kernel value's error bound
    (:func:`refsvm.online.common.kernel_error_over_rows`), for :func:`span_tolerance`.
    """

    def __init__(self, L, diag_max, eps_K):
        self.L, self.diag_max, self.eps_K = L, float(diag_max), float(eps_K)

    def project(self, k_t, k_tt):
        """The :class:`Span` of ``k(x_t, .)``: ``z = L^{-1} k_t`` (forward substitution),
        ``d* = L^{-T} z``, ``||P k_t||^2 = z'z``, ``delta_t^2 = k_tt - z'z``, the span test."""
        b = self.L.shape[0]
        if b:
            U = self.L.T                               # L' (Fortran order): BLAS trsv without a copy
            z = dtrsv(U, k_t, lower=0, trans=1)        # L z = k_t
            d_star = dtrsv(U, z, lower=0, trans=0)     # L' d* = z
        else:
            z = d_star = np.zeros(0)
        Pk_sq = float(np.sum(z * z))                   # pairwise, as the twin's pw_dot
        delta_sq = k_tt - Pk_sq
        tol = span_tolerance(b, k_tt, self.diag_max, float(np.sum(np.abs(d_star))), self.eps_K)
        in_span = delta_sq <= tol
        return Span(z, d_star, k_tt, Pk_sq, delta_sq, tol, in_span, 0.0 if in_span else math.sqrt(delta_sq))

    def append(self, span):
        """Grow ``L`` by the row ``[z', sqrt(max(delta_t^2, tol))]``.  The loop appends only points
        outside the span (``delta_t^2 > tol``), so the floor acts only in :func:`factor_of_matrix`
        (given SVs in the span of earlier ones: ``K`` perturbed by ``tol`` on that diagonal entry)."""
        b = self.L.shape[0]
        grown = np.zeros((b + 1, b + 1))
        grown[:b, :b] = self.L
        grown[b, :b] = span.z
        grown[b, b] = math.sqrt(max(span.delta_sq, span.tol))
        self.L = grown
        self.diag_max = max(self.diag_max, span.k_tt)

    def state(self):
        """The state that continues the run: ``L`` and ``diag_max``."""
        return {"L": self.L.copy(), "diag_max": self.diag_max}


def span_tolerance(b, k_tt, diag_max, d_star_l1, eps_K):
    """The error bound of the computed ``delta_t^2`` (the tolerance of the span test).

    ``tol = SPAN_SAFETY ((b + 2) u R^2 + eps_K (1 + ||d*||_1)^2)`` with
    ``R = sqrt(k_tt) + sqrt(diag_max) ||d*||_1``, ``u`` the unit roundoff, ``diag_max =
    max_j K_jj`` and ``eps_K`` one kernel value's error bound.  Bound: the bordered Cholesky
    factorisation is backward stable (Higham, Thm 10.3): the computed ``L`` and pivot
    ``delta_t^2`` are exact for the bordered matrix ``M = [[K, k_t], [k_t', k_tt]]`` plus ``E``
    with ``|E_ij| <= gamma_{b+2} sqrt(M_ii M_jj)``, whatever the conditioning of ``K``; the
    kernel values add at most ``eps_K`` per entry.  The exact pivot is
    ``[-d*; 1]' M [-d*; 1]`` (``d* = K^{-1} k_t``), so to first order the computed one errs by at
    most ``|[-d*; 1]' E [-d*; 1]|``, i.e. ``(b + 2) u R^2 + eps_K (1 + ||d*||_1)^2``.
    ``SPAN_SAFETY = 4`` covers the second-order terms, the error of the computed ``d*`` in its
    own 1-norm and the other path's rounding (two paths: each within the bound).  Cost: O(b),
    on the ``d*`` the step solves anyway; no ``cond(K)`` factor beyond ``||d*||_1``.
    """
    R = math.sqrt(max(k_tt, 0.0)) + math.sqrt(diag_max) * d_star_l1
    return SPAN_SAFETY * ((b + 2) * UNIT_ROUNDOFF * R * R + eps_K * (1.0 + d_star_l1) * (1.0 + d_star_l1))


def factor_of_matrix(K, eps_K):
    """``(L, diag_max)`` of the kernel matrix ``K`` of given SVs, factorised row by row with
    :meth:`SpanFactor.project` / :meth:`SpanFactor.append` (the loop's own arithmetic; an SV in
    the span of the earlier ones gets the pivot ``tol``).  Both paths start a continued run here."""
    factor = SpanFactor(np.zeros((0, 0)), 0.0, eps_K)
    for j in range(K.shape[0]):
        factor.append(factor.project(K[j, :j], float(K[j, j])))
    return factor.L, factor.diag_max


def initial_factor(run, state):
    """The :class:`SpanFactor` ``run`` starts from: ``state["L"]`` and ``state["diag_max"]``, or
    computed from the SVs (:func:`factor_of_matrix`)."""
    if state and "L" in state:
        return SpanFactor(np.array(state["L"], dtype=np.float64), state["diag_max"], run.eps_K)
    if run.b:
        S = run.SV[:run.b]
        return SpanFactor(*factor_of_matrix(run.kernel.matrix(S, S), run.eps_K), run.eps_K)
    return SpanFactor(np.zeros((0, 0)), 0.0, run.eps_K)


def projects_mistake(o, span, b):
    """Whether a mistake is projected rather than added: ``x_t`` in the span (both variants; the
    empty model: ``k(x_t, x_t)`` within rounding of 0), ``delta_t <= eta`` read as
    ``delta_t^2 <= eta^2 + tol`` (the paper; not the authors' code), or B SVs held (the
    fixed-budget variant, and the authors' code)."""
    if span.in_span:
        return True
    return b > 0 and ((not o.authors and span.delta_sq <= o.eta * o.eta + span.tol)
                      or (o.budget is not None and b == o.budget))


def initial_coefficient_errors(run, state):
    """The error weights ``e_j`` (:func:`projectron_margin_tolerance`) ``run`` starts from, one per SV
    slot: ``state["coef_error"]``, or 0 (coefficients given without it are taken as exact)."""
    errors = np.zeros(run.A.shape[0])
    if state and "coef_error" in state:
        errors[:run.b] = np.asarray(state["coef_error"], dtype=np.float64).reshape(-1)
    return errors


def project_coefficients(run, errors, c, d_star):
    """A projection step ``alpha += c d*`` (``c = s_t y_t`` or ``tau y_t``) and its error weights:
    ``e_j += |alpha_j| + (b + 3) |c d*_j|`` with the new ``alpha_j`` (:func:`projectron_margin_tolerance`;
    the twin takes the same operations, so ``e`` is bitwise equal on both paths for equal inputs)."""
    b = run.b
    step = c * d_star
    run.A[:b] += step
    errors[:b] += np.abs(run.A[:b]) + (b + 3) * np.abs(step)


def projectron_margin_tolerance(run, k_t, errors):
    """The error bound ``tol_f`` of the computed ``f = sum_j alpha_j k_j`` on which the Projectrons'
    decisions are taken: the mistake ``y f <= tol_f`` and Projectron++'s margin error
    ``tol_f < y f < 1 - tol_f`` (0 for the empty model).

    ``tol_f = margin_tolerance(k, alpha, eps_K) + 2 u sum_j e_j |k_j|``: the first term is the sum's
    rounding and the kernel values' error (:meth:`refsvm.online.common.OnlineRun.margin_tolerance`), the
    second the coefficients' own error.  A coefficient is a running sum of projection steps
    ``c d*_j`` (:func:`project_coefficients`); each addition errs by at most ``u |alpha_j|`` (the new
    value), each step by ``u |c d*_j|`` for the product plus the two substitutions' backward error
    ``(b + 2) u |c d*_j|`` (Higham, Thm 8.5; to first order, measured in ``f`` at the projected point:
    the solves' residual), so ``alpha_j`` errs by at most ``u e_j`` with ``e_j = sum (|alpha_j| +
    (b + 3) |c d*_j|)`` over its steps, and ``f`` by ``u sum_j e_j |k_j|``; twice that covers the other
    path.  Where steps cancel (a repeated row projected back: the exact coefficient is 0, computed as
    ``1 - d*`` with ``d* = 1 +- u``), ``f`` is this rounding alone and its sign differed between the
    paths (generated seeds 6984, 5089).  Cost: O(b) per step."""
    if run.b == 0:
        return 0.0
    return run.margin_tolerance(k_t) + 2.0 * UNIT_ROUNDOFF * float(np.sum(errors[:run.b] * np.abs(k_t)))


def margin_step(o, span, b, loss, cap):
    """Projectron++'s margin-error step (binary and multi-class): ``tau = min(loss / ||P k_t||^2, cap)``
    (``cap``: the mistake step ``s_t``) when ``beta = tau (2 loss - tau ||P k_t||^2 - penalty) >= 0``
    (:func:`margin_penalty`), else None; None too when ``b = 0`` or ``||P k_t||^2 = 0`` (nothing to
    project onto).  ``beta``'s sign: exact (see :func:`projectron`)."""
    if not (b > 0 and span.Pk_sq > 0.0):
        return None
    tau = min(loss / span.Pk_sq, cap)
    beta = tau * (2.0 * loss - tau * span.Pk_sq - margin_penalty(o, span.delta))
    return tau if beta >= 0.0 else None


def margin_penalty(o, delta):
    """``2 delta_t / eta`` of Projectron++'s margin condition (``eta = 0``: +inf, 0 when
    ``delta_t = 0``); Lu et al.'s code: ``2 U delta_t`` (:func:`projectron_U`)."""
    if o.authors:
        return 2.0 * o.U * delta
    if o.eta > 0.0:
        return 2.0 * delta / o.eta
    return 0.0 if delta == 0.0 else math.inf
