"""The mistake-driven learners: kernel perceptron, RBP and the self-tuned Forgetron (reference).

On a mistake each adds ``x_t`` with the perceptron step ``s_t y_t``; RBP then keeps
at most B SVs by discarding one at random, the Forgetron by shrinking the model
and removing the oldest SV.  Conventions, weights and trace: :mod:`refsvm.online`.
"""

import math

import numpy as np

from .common import ADDED, begin


def perceptron(X, y, order, *, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0, state=None,
               sample_weight=None, zero_prediction="mistake"):
    """Kernel perceptron, no budget (Freund & Schapire 1999; the plain last hypothesis).

    For t = 1, 2, ...: predict ``sign(f_t(x_t))``; on a mistake
    (``y_t f_t(x_t) <= 0``) add ``x_t`` with coefficient ``y_t``:
    ``f_{t+1} = f_t + y_t k(x_t, .)``.  (The voted / averaged variants of the
    paper are not used by the budget papers; this is the plain last iterate.)

    ``sample_weight`` (n,) or None: the added coefficient is ``s_t y_t``
    (module docstring).  ``zero_prediction``: how ``f_t(x_t) = 0`` is read (:func:`is_mistake`);
    a computed ``f_t`` within its rounding bound of 0 (:func:`refsvm.online.common.margin_tolerance`)
    is read as 0 (both paths).
    """
    run, o, rec = begin("perceptron", X, y, order, kernel, gamma, degree, coef0, sv=sv, alpha=alpha, t0=t0,
                        sample_weight=sample_weight, zero_prediction=zero_prediction)
    for step, x_t, y_t, s_t in run.examples():
        f_t, k_t = run.f(x_t)                              # predict sign(f_t(x_t))
        tol = run.margin_tolerance(k_t, run.kernel_error(x_t))   # f_t within rounding of 0 reads as 0
        mistake = o.is_mistake(y_t, f_t, tol)
        rec.mistake(mistake)
        if mistake and s_t > 0.0:                          # mistake (weighted loss 0: no step)
            run.append(x_t, y_t * s_t)                     # f_{t+1} = f_t + s_t y_t k(x_t, .)
            rec.update(step, ADDED)
    return run.result({})


def rbp(X, y, order, uniforms, *, budget, kernel, gamma, degree, coef0, sv=None, alpha=None,
        t0=0, state=None, sample_weight=None, zero_prediction="mistake"):
    """Randomized budget perceptron (Cavallanti, Cesa-Bianchi & Gentile 2007).

    On a mistake: if the model already holds B SVs, discard one chosen
    uniformly at random (slot ``floor(u_t B)``, ``u_t = uniforms[step]``), then
    add ``x_t`` with coefficient ``y_t`` (perceptron update).  Never more than B
    SVs.  ``sample_weight`` (n,) or None: coefficient ``s_t y_t``; ``s_t = 0``:
    no update, no discard.  ``zero_prediction``: how ``f_t(x_t) = 0`` is read
    (:func:`is_mistake`; Lu et al.'s code: ``"positive"``); a computed ``f_t`` within its rounding
    bound of 0 (:func:`refsvm.online.common.margin_tolerance`) is read as 0 (both paths).
    """
    run, o, rec = begin("rbp", X, y, order, kernel, gamma, degree, coef0, sv=sv, alpha=alpha, t0=t0,
                        sample_weight=sample_weight, zero_prediction=zero_prediction, uniforms=uniforms,
                        budget=budget)
    for step, x_t, y_t, s_t in run.examples():
        f_t, k_t = run.f(x_t)
        tol = run.margin_tolerance(k_t, run.kernel_error(x_t))   # f_t within rounding of 0 reads as 0
        mistake = o.is_mistake(y_t, f_t, tol)
        rec.mistake(mistake)
        if mistake and s_t > 0.0:                          # mistake (weighted loss 0: no step, no discard)
            if run.b == budget:                            # |S| = B: discard a random SV
                run.remove(run.random_slot(step), step)
            run.append(x_t, y_t * s_t)                     # perceptron update (weighted: s_t y_t)
            rec.update(step, ADDED)
    return run.result({})


def forgetron_shrink(sigma, mu, Q, M, variant="paper"):
    """The shrinking coefficient ``phi_t`` of the self-tuned Forgetron (Dekel et al. 2008).

    ``phi_t = max{phi in (0, 1] : Q_{t-1} + Psi(sigma phi, phi mu) <= (15/32) M_t}`` with
    ``Psi(lam, mu) = lam^2 + 2 lam - 2 lam mu``; ``sigma`` is the weight of the SV
    to be removed in ``f'_t``, ``mu = y_r f'_t(x_r)``, ``M`` the number of
    mistakes so far (including this one).  ``Q + Psi(sigma phi, phi mu)`` is the
    quadratic ``Q + a phi^2 + b phi`` with ``a = sigma^2 - 2 sigma mu``,
    ``b = 2 sigma``; when ``phi = 1`` is infeasible the answer is its root
    ``2 c / (b + sqrt(b^2 + 4 a c))``, ``c = (15/32) M - Q >= 0`` (the smaller
    root if ``a < 0``, the larger if ``a > 0``, written without cancellation).
    Returns ``(phi, Psi(sigma phi, phi mu))``.

    ``variant="authors"``: Lu et al.'s forgetron.m takes the *larger* root also
    when ``a < 0``, ``(b + sqrt(b^2 + 4 a c)) / (2 |a|)``, which is above 1
    (the parabola opens downwards and ``phi = 1`` is infeasible, so both roots
    lie outside ``[0, 1]`` but the smaller): the model is *amplified* by
    ``phi > 1`` and ``Q`` grows by the value of ``Psi`` there.  This is not the
    paper's ``phi in (0, 1]``; it happens 16 times a pass on a9a (Table 5
    setting) and moves the mistake rate from 29.97 % to 28.26 % (paper 27.8 %).
    """
    bound = 15.0 / 32.0 * M
    psi1 = sigma * sigma + 2.0 * sigma - 2.0 * sigma * mu
    if Q + psi1 <= bound:
        return 1.0, psi1
    a = sigma * sigma - 2.0 * sigma * mu
    b = 2.0 * sigma
    c = max(bound - Q, 0.0)
    disc = max(b * b + 4.0 * a * c, 0.0)
    if variant == "authors" and a < 0.0:
        phi = (b + math.sqrt(disc)) / (-2.0 * a)           # the larger root (> 1), as forgetron.m
    else:
        den = b + math.sqrt(disc)
        phi = 0.0 if den <= 0.0 else min(max(2.0 * c / den, 0.0), 1.0)
    lam = sigma * phi
    return phi, lam * lam + 2.0 * lam - 2.0 * lam * (phi * mu)


#: :func:`forgetron_next_Q` takes ``Q_t = (15/32) M`` (exact) where ``|Q| + |psi|`` exceeds this many times
#: ``(15/32) M``: the sum ``Q + psi`` would then lose more than 9 bits to cancellation (the twin reads it here).
FORGETRON_Q_CANCELLATION = 512.0


def forgetron_next_Q(Q, psi, phi, M):
    """``Q_t = Q_{t-1} + Psi(sigma phi, phi mu)`` after :func:`forgetron_shrink` returned ``(phi, psi)``.

    Where ``phi`` is a root of the shrink quadratic (``0 < phi != 1``: the paper's root in (0, 1), the
    authors' larger root above 1), ``Q + a phi^2 + b phi = (15/32) M`` holds exactly, so the exact
    ``Q_t`` is ``(15/32) M``; the computed sum ``Q + psi`` cancels (``|psi| ~ |Q|``) and errs by about
    ``2 u (|Q| + |psi|)`` plus ``psi``'s own error (``2 sigma phi^2`` times ``mu``'s, and ``mu = y_r
    f'(x_r)`` is itself a cancelling sum).  Where that cancellation is severe (``|Q| + |psi| >``
    :data:`FORGETRON_Q_CANCELLATION` ``(15/32) M``) ``Q_t = (15/32) M`` is taken, exactly, on both paths;
    elsewhere the sum, as before (bitwise unchanged).  At the switch the two differ by at most ``2 u 512``
    of ``(15/32) M`` plus ``psi``'s error, so where it falls is no tie that matters.  Before: a polynomial
    kernel on a constant column of ~2e3 beside ~2e-2 gave ``Q`` of 5.7e15 cancelling to 4.75 on one path,
    5.25 on the other (exact 5.625), and the next ``phi`` (through ``c = (15/32) M - Q``) 20 % apart
    (generated seed 1774: decision values 5e-3 of the scale apart after 3 epochs)."""
    bound = 15.0 / 32.0 * M
    if phi > 0.0 and phi != 1.0 and abs(Q) + abs(psi) > FORGETRON_Q_CANCELLATION * bound:
        return bound
    return Q + psi


def forgetron(X, y, order, *, budget, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
              state=None, zero_prediction="mistake", variant="paper", sample_weight=None):
    """Self-tuned Forgetron (Dekel, Shalev-Shwartz & Singer 2008).

    On a mistake (``M <- M + 1``): perceptron step ``f'_t = f_t + y_t k(x_t, .)``
    (the new SV gets age ``t``).  If ``f'_t`` holds more than B SVs: ``r`` = the
    oldest SV, ``sigma = |alpha_r|``, ``mu = y_r f'_t(x_r)`` (``n_sv`` kernel
    values), shrink ``f''_t = phi_t f'_t`` (:func:`forgetron_shrink`),
    ``Q <- Q + Psi``, then remove ``r`` (its shrunk weight goes with it).

    ``state``: ``Q`` (float), ``M`` (mistakes so far), ``age`` (int64 per SV, the
    step at which it was added; SVs passed in without ages count as added at
    steps ``-n_sv .. -1`` in slot order).

    The update is taken when ``y_t f_t(x_t) <= 0`` (computed: ``<= tol``, ``f_t``'s rounding
    bound, :func:`refsvm.online.common.margin_tolerance`) under both ``zero_prediction``
    readings (the paper's condition, and Lu et al.'s code's); ``M`` counts the
    mistakes of the chosen reading (:func:`is_mistake`), as the code's
    ``err_count`` does.  ``variant="authors"``: the larger root of
    :func:`forgetron_shrink`.  ``sample_weight`` (n,) or None: the step is
    ``s_t y_t`` (module docstring); ``s_t = 0``: no step.
    """
    run, o, rec = begin("forgetron", X, y, order, kernel, gamma, degree, coef0, sv=sv, alpha=alpha, t0=t0,
                        sample_weight=sample_weight, zero_prediction=zero_prediction, budget=budget,
                        variant=variant)
    Q, M, age = forgetron_state(state, run)
    for step, x_t, y_t, s_t in run.examples():
        f_t, k_t = run.f(x_t)
        tol = run.margin_tolerance(k_t, run.kernel_error(x_t))   # f_t within rounding of 0 reads as 0
        if o.is_mistake(y_t, f_t, tol):                    # mistake: M_t = M_{t-1} + 1
            rec.mistake()
            M += 1
        if y_t * f_t <= tol and s_t > 0.0:                 # update (weighted loss 0: none)
            age[run.b] = run.t0 + step + 1                 # the new SV's age: t
            run.append(x_t, y_t * s_t)                     # f'_t = f_t + s_t y_t k(x_t, .)
            rec.update(step, ADDED)
            if run.b > budget:
                r = int(np.argmin(age[:run.b]))            # r_t = min I'_t (the oldest SV)
                sigma = abs(run.A[r])                      # sigma_{r,t}
                y_r = 1.0 if run.A[r] >= 0.0 else -1.0
                mu = y_r * run.f(run.SV[r])[0]             # mu_t = y_r f'_t(x_r)
                phi, psi = forgetron_shrink(sigma, mu, Q, M, variant)
                Q = forgetron_next_Q(Q, psi, phi, M)       # Q_t = Q_{t-1} + Psi(sigma phi, phi mu)
                run.A[:run.b] *= phi                       # f''_t = phi_t f'_t
                age[r] = age[run.b - 1]
                run.remove(r, step)                        # f_{t+1} = f''_t - sigma_{r,t+1} y_r k(x_r, .)
    return run.result({"Q": Q, "M": M, "age": age[:run.b].copy()})


def forgetron_state(state, run):
    """The Forgetron's ``Q``, ``M`` and SV ages (one slot per SV slot of ``run``) to continue from:
    ``state``'s, or 0, 0 and ages ``-n_sv .. -1`` in slot order for SVs passed in without them."""
    state = state or {}
    age = np.zeros(run.SV.shape[0], dtype=np.int64)
    age[:run.b] = state.get("age", np.arange(-run.b, 0))
    return float(state.get("Q", 0.0)), int(state.get("M", 0)), age
