"""BPA-S and BPA-NN, the budgeted passive-aggressive learners (Wang & Vucetic 2010; reference).

A PA-I step on every positive hinge loss; with B SVs the new SV replaces the
one whose removal costs least: projected onto ``x_t`` (BPA-S, :func:`bpas`) or onto
``x_t`` and the removed SV's nearest neighbour (BPA-NN, :func:`bpann`).  Conventions,
weights and trace: :mod:`refsvm.online`.
"""

import numpy as np

from ..constants import UNIT_ROUNDOFF
from ..sparse import n_rows
from .common import ADDED, begin
from .projection import SPAN_SAFETY


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
    (:func:`refsvm.online.common.margin_tolerance`, the error bound of ``f_t``).  A row with
    ``k(x_t, x_t) <= eps_K`` (the kernel value's error bound: a zero row under the linear kernel)
    takes no step (:func:`pa_step`): ``k(x_t, .)`` may be the zero function, which no step moves, and PA-I's
    ``tau = l / k_tt`` is undefined (before this rule the reference divided by zero and the fast
    path added the row with ``tau = C``).
    """
    run, o, rec = begin("bpas", X, y, order, kernel, gamma, degree, coef0, sv=sv, alpha=alpha, t0=t0,
                        sample_weight=sample_weight, zero_prediction=zero_prediction, budget=budget, C=C)
    for step, x_t, y_t, f_t, k_t, tau, k_tt, f_err, eps_K, C_t in pa_updates(run, o, rec, C):
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


def pa_updates(run, o, rec, C):
    """The steps of a passive-aggressive pass that take a PA-I step (BPA-S and BPA-NN share them): every
    example is scored, ``f_t(x_t)`` and its kernel row ``k_t``; its mistake is counted (``f_t`` within its
    error bound ``f_err`` of 0 reads as 0); with ``l_t = max(0, 1 - y_t f_t)``, :func:`pa_step` gives the
    step ``tau`` (PA-I on the weighted loss, ``C_t = C s_t``).  A step is recorded (an added SV) and yielded
    as ``(step, x_t, y_t, f_t, k_t, tau, k_tt, f_err, eps_K, C_t)``; the learner then adds or replaces."""
    for step, x_t, y_t, s_t in run.examples():
        C_t = C * s_t                                      # PA-I on the weighted loss
        f_t, k_t = run.f(x_t)
        eps_K = run.kernel_error(x_t)                      # one kernel value's error bound
        f_err = run.margin_tolerance(k_t, eps_K)           # f_t within rounding of 0 reads as 0
        rec.mistake(o.is_mistake(y_t, f_t, f_err))
        loss = max(0.0, 1.0 - y_t * f_t)
        tau, k_tt = pa_step(run, x_t, loss, f_err, C_t, eps_K)   # PA-I step (None: no step)
        if tau is not None:
            rec.update(step, ADDED)
            yield step, x_t, y_t, f_t, k_t, tau, k_tt, f_err, eps_K, C_t


def pa_step(run, x_t, loss, tol, C_t, eps_K, scale=1.0):
    """PA-I's step ``(tau, k_tt)``, ``tau = min(C_t, loss / (scale k(x_t, x_t)))`` (``scale`` 2: the
    multi-class step), or ``tau = None``, no step: when ``loss <= tol`` (a loss within rounding of 0 is 0:
    ``y f = 1`` after a step), ``C_t = 0`` (weight 0), or ``k(x_t, x_t) <= eps_K``, its error bound
    (``k(x_t, .)`` may be the zero function, which no step moves, and ``loss / k_tt`` is undefined: a
    zero row under the linear kernel).  ``k_tt`` is computed (one kernel value) only past the first two."""
    if not (loss > tol and C_t > 0.0):
        return None, None
    k_tt = run.k_tt(x_t)
    if k_tt <= eps_K:
        return None, k_tt
    return min(C_t, loss / (scale * k_tt)), k_tt


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


def bpann(X, y, order, *, budget, C, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
          state=None, zero_prediction="mistake", sample_weight=None):
    """Budgeted passive-aggressive, nearest-neighbour variant BPA-NN (Wang & Vucetic 2010, AISTATS).

    Wang et al. (2012, section 7.3) run it as their "BPA" row: the "budgeted Passive-Aggressive
    algorithm that uses the projection of an SV to its nearest neighbor to maintain the budget".
    The BPA paper is not in the shared paper folder; the update below is the PA-I problem with
    BPA's budget constraint (Wang et al. 2012, section 2.4: "the removed SV is projected onto the
    space spanned by the remaining SVs" -- for BPA-NN, by ``x_t`` and the removed SV's nearest
    neighbour), solved here in closed form and tested against a numerical solution of the same
    problem (tests/online/test_bpann.py).

    With ``l_t = max(0, 1 - y_t f_t(x_t)) > 0`` and ``tau_t = min(C, l_t / k(x_t, x_t))`` (PA-I):
    below the budget add ``x_t`` with ``y_t tau_t`` (as BPA-S).  With B SVs, for every candidate
    ``r`` let ``n = NN(r)`` be its nearest other SV in feature space (least
    ``k_rr + k_nn - 2 k_rn``) and ``V = {t, n}``; the new model is
    ``f_r = f_t - alpha_r k(x_r, .) + beta_t k(x_t, .) + beta_n k(x_n, .)`` with ``beta`` minimising
    ``Q_r = 1/2 ||f_r - f_t||^2 + C max(0, 1 - y_t f_r(x_t))``.  Its solution (derived in the docs,
    page "Baselines", section BPA-NN): ``c = K_V^{-1} k_Vr``, the projection of ``k(x_r, .)`` onto
    ``span V``, and

    * ``beta_t = alpha_r c_t + y_t tau_t``, ``beta_n = alpha_r c_n`` (added to ``alpha_n``);
    * ``f_r(x_t) = f_t(x_t) + y_t tau_t k_tt``: ``x_t`` is in ``V``, so the projection keeps
      ``f(x_t)`` and ``tau_t`` is PA-I's own;
    * ``Q_r = 1/2 alpha_r^2 ||P_V^perp k(x_r, .)||^2 + (the same for every r)``, so the replaced
      ``r`` minimises the weight degradation ``WD_r = alpha_r^2 (k_rr - k_Vr' K_V^{-1} k_Vr)``.

    Computed through the Schur complement of ``k_tt`` in ``K_V``:
    ``s = k_nn - k_tn^2 / k_tt`` (``||P_t^perp k(x_n, .)||^2``), ``m = k_nr - k_tn k_tr / k_tt``,
    ``e = k_rr - k_tr^2 / k_tt`` (BPA-S's residual): ``c_n = m / s``,
    ``c_t = (k_tr - k_tn c_n) / k_tt``, ``WD_r = alpha_r^2 max(0, e - m^2 / s)``.

    Decisions on computed numbers (both paths, tolerances from first-order error bounds,
    :func:`bpann_tolerances`): the nearest neighbour is the lowest slot whose distance is within
    its bound of the least (:func:`least_objective`); ``x_n`` counts as in ``span{x_t}``
    (``V = {t}``: ``c_n = 0``, BPA-S's projection) when ``s <= SPAN_SAFETY e_s``
    (:data:`refsvm.online.projection.SPAN_SAFETY`, ``e_s`` the error bound of ``s``: a repeated
    row); the replaced ``r`` is the lowest slot whose ``WD_r`` is within its bound of the least.
    The loss, the mistake and a zero ``k_tt`` are decided as in :func:`bpas` (:func:`pa_step`).

    Choices the sources leave open (said in the docs): the neighbour is the nearest in feature
    space (for the Gaussian kernel the same as in input space), among the B SVs other than ``r``,
    and ``x_t`` replaces ``x_r`` in its slot.  The kernel matrix ``G`` of the SVs is kept
    (B^2 numbers, updated from the kernel row ``k_t`` each step needs anyway), so a full-budget step
    computes B + 1 kernel values (BPA-S: 2B + 1, it recomputes the ``k_rr``); finding every
    candidate's neighbour reads ``G``: O(B^2) arithmetic per full-budget update, where Lu et al.'s
    Table 1 gives BPA-NN O(B) time (a kept neighbour list; not done here: the tie rule above
    would have to be kept under every change of ``eps_K``).

    The two paths agree to rounding and make the same choices except where a candidate's
    ``WD_r - tol_r`` lands within rounding of the least ``WD + tol`` (near-duplicate rows, whose
    ``WD`` are rounding noise): then the last bits pick the slot, as for every tolerance rule;
    the models' decision values stay within rounding of each other (tests/online/test_bpann.py).

    ``state``: ``{"gram": G}`` (n_sv x n_sv) to continue from; computed from ``sv`` when absent.
    ``sample_weight``: as :func:`bpas`.
    """
    run, o, rec = begin("bpann", X, y, order, kernel, gamma, degree, coef0, sv=sv, alpha=alpha, t0=t0,
                        sample_weight=sample_weight, zero_prediction=zero_prediction, budget=budget, C=C)
    G = initial_gram(run, state)                           # G[i, j] = k(x_i, x_j) of the SVs
    for step, x_t, y_t, f_t, k_t, tau, k_tt, f_err, eps_K, C_t in pa_updates(run, o, rec, C):
        b = run.b
        if b < budget:
            run.append(x_t, y_t * tau)
            G[b, :b] = G[:b, b] = k_t
            G[b, b] = k_tt
        else:
            r, n, c_t, c_n = nearest_neighbour_replacement(G[:b, :b], run.A[:b], k_t, k_tt, eps_K)
            a_r = run.A[r]
            run.A[n] += a_r * c_n                      # beta_n = alpha_r c_n
            run.replace(r, x_t, a_r * c_t + y_t * tau, step)   # beta_t = alpha_r c_t + y_t tau
            G[r, :b] = G[:b, r] = k_t
            G[r, r] = k_tt
    return run.result({"gram": G[:run.b, :run.b].copy()})


def initial_gram(run, state):
    """The kernel matrix of the SVs held at the start, with room for ``capacity`` SVs: from
    ``state["gram"]`` when given, else :func:`gram_of_rows` (``b (b + 1) / 2`` kernel values)."""
    capacity = run.A.shape[0]
    G = np.zeros((capacity, capacity))
    b = run.b
    if b:
        if state is not None and state.get("gram") is not None:
            G[:b, :b] = np.asarray(state["gram"], dtype=np.float64)
        else:
            G[:b, :b] = gram_of_rows(run.SV[:b], run.kernel)
            run.rec.kernel_values(b * (b + 1) // 2)
    return G


def gram_of_rows(S, kernel):
    """``G[i, j] = k(s_i, s_j)`` of the rows of ``S`` (dense or sparse), row by row as a pass builds it:
    ``k(s_i, s_j)`` for ``i < j`` is the kernel row of ``s_j`` (both paths call this)."""
    b = n_rows(S)
    G = np.zeros((b, b))
    for j in range(b):
        if j:
            G[j, :j] = G[:j, j] = kernel.row(S[:j], S[j])
        G[j, j] = kernel.diag(S[j:j + 1])[0]
    return G


def nearest_neighbours(G, eps_K):
    """``n[r]``: the nearest other SV of every SV ``r`` in feature space (``b >= 2``).

    ``D_rj = G_rr + G_jj - 2 G_rj``, computed with error at most
    ``e_rj = 4 eps_K + 3 u (G_rr + G_jj + 2 |G_rj|)`` (each kernel value within ``eps_K``, three
    roundings); the neighbour is the lowest ``j != r`` whose ``D_rj`` is within ``2 e_rj`` of the
    least (:func:`least_objective`; twice covers the two paths' kernel values).
    """
    u = UNIT_ROUNDOFF
    diag = np.diag(G)
    D = (diag[:, None] + diag[None, :]) - 2.0 * G
    tol = 2.0 * (4.0 * eps_K + 3.0 * u * ((diag[:, None] + diag[None, :]) + 2.0 * np.abs(G)))
    np.fill_diagonal(D, np.inf)                            # r is not its own neighbour
    return np.array([least_objective(D[r], tol[r]) for r in range(G.shape[0])], dtype=np.int64)


def nearest_neighbour_replacement(G, a, k, k_tt, eps_K):
    """``(r, n, c_t, c_n)``: the replaced SV ``r`` of :func:`bpann`, its neighbour ``n`` and the
    projection ``c`` of ``k(x_r, .)`` onto ``span{k(x_t, .), k(x_n, .)}`` (``c_n = 0``: onto
    ``k(x_t, .)`` alone).  ``G``: the SVs' kernel matrix, ``a`` their coefficients, ``k`` the kernel
    row of ``x_t``."""
    n = nearest_neighbours(G, eps_K)
    r_all = np.arange(G.shape[0])
    k_tr, k_tn, k_nr = k, k[n], G[n, r_all]
    k_rr, k_nn = np.diag(G), np.diag(G)[n]
    s = k_nn - k_tn * k_tn / k_tt                          # ||P_t^perp k(x_n, .)||^2
    m = k_nr - k_tn * k_tr / k_tt
    e = k_rr - k_tr * k_tr / k_tt                          # ||P_t^perp k(x_r, .)||^2 (BPA-S)
    tol_s, tol_wd, in_span = bpann_tolerances(a, k_tr, k_tn, k_nr, k_rr, k_nn, k_tt, s, m, e, eps_K)
    s_safe = np.where(in_span, 1.0, s)
    c_n = np.where(in_span, 0.0, m / s_safe)
    resid = np.where(in_span, e, e - m * m / s_safe)
    wd = a * a * np.maximum(0.0, resid)                    # WD_r = alpha_r^2 ||P_V^perp k(x_r, .)||^2
    r = least_objective(wd, tol_wd)                        # argmin WD_r, ties within rounding: lowest slot
    c_t = (k_tr[r] - k_tn[r] * c_n[r]) / k_tt
    return r, int(n[r]), float(c_t), float(c_n[r])


def bpann_tolerances(a, k_tr, k_tn, k_nr, k_rr, k_nn, k_tt, s, m, e, eps_K):
    """``(tol_s, tol_wd, in_span)`` per candidate ``r`` of :func:`nearest_neighbour_replacement`
    (both paths).

    First-order error bounds (``u = 2^-53``, each kernel value within ``eps_K``,
    ``q_j = |k_tj| / k_tt``): ``e_s = eps_K (1 + q_n)^2 + 3 u (k_nn + q_n |k_tn|)`` of ``s``;
    ``e_m = eps_K (1 + q_n)(1 + q_r) + 3 u (|k_nr| + q_n |k_tr|)`` of ``m``;
    ``e_e = eps_K (1 + q_r)^2 + 3 u (k_rr + q_r |k_tr|)`` of ``e``.  ``in_span``:
    ``s <= SPAN_SAFETY e_s``.  Otherwise ``m^2 / s`` errs by at most
    ``2 |m| e_m / s + m^2 e_s / s^2 + 3 u m^2 / s``.  ``tol_wd = 2 alpha_r^2 (e_e + [that] + 4 u
    (|e| + m^2 / s))``: twice covers the two paths' inputs a few ulps apart.
    """
    u = UNIT_ROUNDOFF
    q_r, q_n = np.abs(k_tr) / k_tt, np.abs(k_tn) / k_tt
    e_s = eps_K * (1.0 + q_n) ** 2 + 3.0 * u * (np.abs(k_nn) + q_n * np.abs(k_tn))
    e_m = eps_K * (1.0 + q_n) * (1.0 + q_r) + 3.0 * u * (np.abs(k_nr) + q_n * np.abs(k_tr))
    e_e = eps_K * (1.0 + q_r) ** 2 + 3.0 * u * (np.abs(k_rr) + q_r * np.abs(k_tr))
    tol_s = SPAN_SAFETY * e_s
    in_span = s <= tol_s
    s_safe = np.where(in_span, 1.0, s)
    m2s = np.where(in_span, 0.0, m * m / s_safe)
    e_m2s = np.where(in_span, 0.0, 2.0 * np.abs(m) * e_m / s_safe + m2s * e_s / s_safe + 3.0 * u * m2s)
    tol_wd = 2.0 * a * a * (e_e + e_m2s + 4.0 * u * (np.abs(e) + m2s))
    return tol_s, tol_wd, in_span
