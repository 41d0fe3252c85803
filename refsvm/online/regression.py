"""Online kernel regression baselines of Lu et al. (2016, section 7.4, Table 9) (reference).

Lu, Hoi, Wang, Zhao & Liu (2016, JMLR 17) compare FOGD-R / NOGD-R (:mod:`refsvm.fogd`,
:mod:`refsvm.nogd`, ``task="regression"``) with regression versions of the budget
baselines.  The paper prints no pseudo-code for them; it says (section 7.4.1) that
the threshold ``epsilon`` is fixed to 0.1 for all but Norma, ``B = 30``, and that the
perceptron-type learners' step size is chosen by validation (about 0.1).  The rules
below are those of the authors' released code (jingcoco/Online-Kernel-Learning,
``regression/OGD.m``, ``RBP.m``, ``BOGD.m``; read for understanding, not copied),
where the paper is silent.  Every learner, at step ``t``:

* predicts ``f_t(x_t) = sum_j alpha_j k(x_j, x_t)`` and suffers the squared loss
  ``(y_t - f_t(x_t))^2`` (counted before the update, ``trace["squared_loss"]``);
* updates only when the residual ``delta_t = y_t - f_t(x_t)`` leaves the tube,
  ``|delta_t| > epsilon`` (the code's test; the epsilon-insensitive loss
  ``max(0, |delta_t| - epsilon)`` is then positive).  FOGD-R's Algorithm 5 puts the
  threshold on the squared loss instead (``delta^2 > epsilon``); the baselines'
  code does not, and neither do we here;
* OGD (``OGD.m``): adds ``x_t`` with ``eta s_t delta_t`` (the gradient step of
  ``delta^2 / 2``), no budget;
* RBP (``RBP.m``): adds ``x_t`` with ``eta s_t sign(delta_t)`` (the perceptron-type
  step, the subgradient of the epsilon-insensitive loss); with B SVs it first
  discards one chosen uniformly at random (slot ``floor(u_t B)``, as binary RBP);
* Perceptron (``perceptron.m``): adds ``x_t`` with ``eta s_t sign(delta_t)``, no budget;
* Forgetron (``forgetron.m``): the perceptron-type step, then, with more than B SVs, the
  self-tuned Forgetron's shrink and removal of the oldest SV (Dekel et al. 2008, as
  :func:`refsvm.online.forgetron`) with ``sigma = |alpha_r|`` and ``mu = |f'_t(x_r)|`` (the code's
  ``abs(f_tp)``: a regression SV has no label ``y_r``); ``M`` counts the steps outside the tube
  (the code's ``err_count``).  ``variant="authors"``: the larger root when the quadratic opens
  downwards (:func:`refsvm.online.forgetron_shrink`), as the code;
* Projectron (``projectron.m``): the perceptron-type step; below B SVs ``x_t`` is added, with B
  SVs it is projected onto their span, ``alpha += eta s_t sign(delta_t) K^{-1} k_t`` (the code's
  rule, Lu et al.'s fixed-budget reading; the code's ``norm_delta_t <= eta`` test is commented
  out, so no threshold); an ``x_t`` in the span within rounding is projected too (adding it would
  make ``K`` singular), through the Cholesky factor of :mod:`refsvm.online.projection`;
* Norma (``Epsilon.m``; Kivinen, Smola & Williamson's NORMA with the nu-insensitive
  loss): every step shrinks ``f <- (1 - eta lam) f``; outside the tube add ``x_t`` with
  ``eta s_t sign(delta_t)`` and widen the tube, ``epsilon += eta (s_t - nu)``; inside
  narrow it, ``epsilon -= eta nu`` (the gradient of ``s_t max(0, |delta| - epsilon) +
  nu epsilon`` in ``epsilon``; ``s_t = 1`` is the code's ``(1 - nu) eta``).  No budget;
  ``state["epsilon"]`` carries the tube to the next call;
* BOGD: every step shrinks ``f <- (1 - eta lam) f``; an update adds ``x_t`` with
  ``eta s_t delta_t``; with B SVs it first discards the SV in slot ``floor(u_t B)``
  and rescales the others by ``B (1 - eta lam) / (B - 1)``, each clipped to
  ``eta max_coef`` (the binary BOGD of Zhao et al. 2012, :func:`refsvm.online.bogd`,
  with the regression gradient).  ``variant="authors"`` is the authors' ``regression/BOGD.m``
  (function ``BOGD``): at the budget it removes the OLDEST SV (the first of its list, ``subset=2:B``)
  and only shrinks the others by ``1 - eta lam``, neither rescaling nor clipping; the update test and
  the new coefficient ``eta delta_t`` are the same.

The decision ``|delta_t| > epsilon`` is taken on a computed number: a residual
within its rounding bound of ``epsilon`` (:func:`residual_tolerance`) is read as in
the tube (no update), on both paths.  Example weights ``s_t`` scale the step, not
the test; ``s_t = 0`` takes no step (BOGD still shrinks).  Storage, ``uniforms``,
``sv``/``alpha``/``t0`` continuation and the rest of the trace: :mod:`refsvm.online`;
``mistakes`` counts the steps outside the tube (the code's ``err_count``).
"""

import numpy as np

from ..constants import UNIT_ROUNDOFF
from ..kernels import Kernel
from ..validation import check_online_arguments, check_positive, weights_as_data
from .common import ADDED, PROJECTED, OnlineOptions, OnlineRecorder, OnlineRun
from .multiclass import bogd_discard
from .perceptrons import forgetron_next_Q, forgetron_shrink, forgetron_state
from .projection import initial_factor

#: The regression learners here, by name.
REGRESSION_ALGORITHMS = ("ogd", "perceptron", "rbp", "forgetron", "projectron", "bogd", "norma")


def check_regression_arguments(X, y, order, uniforms=None, *, algorithm, epsilon, eta, sv, alpha, budget=None,
                               **rest):
    """The binary learners' checks for everything but the targets (:func:`check_online_arguments` under
    ``algorithm``), then real finite targets, ``epsilon >= 0`` and ``eta > 0``.  Returns
    ``(X, y, order, uniforms)`` with ``y`` float64."""
    if algorithm not in REGRESSION_ALGORITHMS:
        raise ValueError(f"algorithm must be one of {REGRESSION_ALGORITHMS} for regression; got {algorithm!r}")
    nu = rest.pop("nu", None)
    if algorithm == "norma":
        check_positive(rest.pop("lam"), "lam", allow_zero=True)
        check_positive(nu, "nu", allow_zero=True)
        if nu > 1.0:
            raise ValueError(f"nu must lie in [0, 1]; got {nu}")
    X, _, order, uniforms = check_online_arguments(
        X, np.ones(X.shape[0] if hasattr(X, "shape") else len(X)), order, uniforms,
        algorithm="ogd" if algorithm == "norma" else algorithm, sv=sv, alpha=alpha, budget=budget,
        eta=eta if algorithm in ("ogd", "norma", "bogd", "projectron") else None, **rest)
    y = np.ascontiguousarray(np.asarray(y, dtype=np.float64).reshape(-1))
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"y must hold one target per row of X ({X.shape[0]}); got {y.shape[0]}")
    if not np.all(np.isfinite(y)):
        raise ValueError("y must hold finite real targets")
    check_positive(epsilon, "epsilon", allow_zero=True)
    check_positive(eta, "eta")
    return X, y, order, uniforms


def residual_tolerance(k, a, eps_K, y_t, f_t):
    """The tie tolerance of ``|y_t - f_t| > epsilon`` (both paths): :func:`~refsvm.online.common.margin_tolerance`
    of ``f_t`` (its terms and kernel values) plus ``2 u (|y_t| + |f_t|)`` for the subtraction.

    Error bound: ``margin_tolerance`` bounds twice the rounding of the computed ``f_t``; the
    subtraction ``y_t - f_t`` adds at most ``u |y_t - f_t| <= u (|y_t| + |f_t|)``, doubled for the two
    paths.  A residual within this of ``epsilon`` reads as ``epsilon`` (in the tube)."""
    from .common import margin_tolerance
    return margin_tolerance(k, a, eps_K) + 2.0 * UNIT_ROUNDOFF * (abs(y_t) + abs(f_t))


class RegressionRun(OnlineRun):
    """An :class:`~refsvm.online.common.OnlineRun` whose targets are real (``y_t`` a float)."""

    records_scores = False                      # per-step records: not for regression (no margin)

    def examples(self):
        for step, i in enumerate(self.order):
            yield step, self.X[i], float(self.y[i]), float(self.s[i])
            self.rec.size(step, self.b)

    def residual(self, x_t, y_t, epsilon):
        """``(delta_t, outside)``: the residual ``y_t - f_t(x_t)`` and whether ``|delta_t| > epsilon``
        beyond its rounding bound (:func:`residual_tolerance`); the squared loss is recorded."""
        return self.residual_row(x_t, y_t, epsilon)[:2]

    def residual_row(self, x_t, y_t, epsilon):
        """:meth:`residual` and the kernel row ``k_t`` of ``x_t`` against the SVs: ``(delta_t, outside, k_t)``."""
        f_t, k = self.f(x_t)
        delta = y_t - f_t
        self.rec.squared_loss(delta * delta)
        tol = residual_tolerance(k, self.A[:self.b], self.kernel_error(x_t), y_t, f_t) if self.b else 0.0
        outside = abs(delta) > epsilon + tol
        self.rec.mistake(outside)
        return delta, outside, k


class RegressionRecorder(OnlineRecorder):
    """The online trace plus ``squared_loss``, the sum of ``(y_t - f_t(x_t))^2`` over the pass."""

    def __init__(self, n_steps):
        super().__init__(n_steps)
        self.loss = 0.0

    def squared_loss(self, value):
        self.loss += value

    def trace(self):
        out = super().trace()
        out["squared_loss"] = float(self.loss)
        return out


def begin_regression(algorithm, X, y, order, kernel, gamma, degree, coef0, *, epsilon, eta, sv, alpha, t0,
                     sample_weight, uniforms=None, budget=None, **hyperparameters):
    """The regression learners' preamble: ``(run, options, recorder)`` (arguments checked once)."""
    X, y, order, uniforms = check_regression_arguments(
        X, y, order, uniforms, algorithm=algorithm, epsilon=epsilon, eta=eta, sv=sv, alpha=alpha, budget=budget,
        kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, t0=t0, **hyperparameters)
    hyperparameters.pop("nu", None)
    options = OnlineOptions(algorithm, Kernel(kernel, gamma, degree, coef0), budget=budget, eta=eta,
                            **hyperparameters)
    rec = RegressionRecorder(len(order))
    s = weights_as_data(sample_weight, X.shape[0])
    return RegressionRun(X, y, order, uniforms, s, sv, alpha, t0, options, rec), options, rec


def regression_ogd(X, y, order, *, eta, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                   state=None, sample_weight=None):
    """Kernel OGD for regression (Lu et al.'s ``regression/OGD.m``), no budget: when
    ``|y_t - f_t(x_t)| > epsilon``, add ``x_t`` with ``eta s_t (y_t - f_t(x_t))``."""
    run, o, rec = begin_regression("ogd", X, y, order, kernel, gamma, degree, coef0, epsilon=epsilon, eta=eta,
                                   sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight)
    for step, x_t, y_t, s_t in run.examples():
        delta, outside = run.residual(x_t, y_t, epsilon)   # predict f_t(x_t), suffer (y_t - f_t)^2
        if outside and s_t > 0.0:                          # |delta_t| > epsilon
            run.append(x_t, eta * s_t * delta)             # f - eta grad (delta^2 / 2)
            rec.update(step, ADDED)
    return run.result({})


def regression_rbp(X, y, order, uniforms, *, budget, eta, epsilon, kernel, gamma, degree, coef0, sv=None,
                   alpha=None, t0=0, state=None, sample_weight=None):
    """Randomized budget perceptron for regression (Lu et al.'s ``regression/RBP.m``): when
    ``|delta_t| > epsilon``, discard a random SV if B are held (slot ``floor(u_t B)``), then add
    ``x_t`` with ``eta s_t sign(delta_t)``."""
    run, o, rec = begin_regression("rbp", X, y, order, kernel, gamma, degree, coef0, epsilon=epsilon, eta=eta,
                                   sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight, uniforms=uniforms,
                                   budget=budget)
    for step, x_t, y_t, s_t in run.examples():
        delta, outside = run.residual(x_t, y_t, epsilon)
        if outside and s_t > 0.0:                          # |delta_t| > epsilon (s_t = 0: no step, no discard)
            if run.b == budget:                            # |S| = B: discard a random SV
                run.remove(run.random_slot(step), step)
            run.append(x_t, eta * s_t * (1.0 if delta > 0.0 else -1.0))   # perceptron step, sign(delta_t)
            rec.update(step, ADDED)
    return run.result({})


def regression_bogd(X, y, order, uniforms, *, budget, eta, lam, max_coef, epsilon, kernel, gamma, degree, coef0,
                    sv=None, alpha=None, t0=0, state=None, sample_weight=None, variant="paper"):
    """BOGD for regression: every step shrinks by ``1 - eta lam``; when ``|delta_t| > epsilon``, below the
    budget add ``x_t`` with ``eta s_t delta_t``; with B SVs (:func:`~refsvm.online.multiclass.bogd_discard`):

    * ``variant="paper"``: discard slot ``floor(u_t B)``, rescale the rest by ``B (1 - eta lam) / (B - 1)``
      clipped to ``eta max_coef`` (Zhao et al. 2012, as :func:`refsvm.online.bogd`), then add;
    * ``variant="authors"`` (Lu et al.'s ``regression/BOGD.m``): discard the OLDEST SV, shrink the rest by
      ``1 - eta lam`` (no rescaling, no clipping: ``max_coef`` and ``uniforms`` unused), then add.

    ``state``: ``age`` (one per SV, as :func:`refsvm.online.forgetron`), for ``"authors"`` only."""
    run, o, rec = begin_regression("bogd", X, y, order, kernel, gamma, degree, coef0, epsilon=epsilon, eta=eta,
                                   sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight, uniforms=uniforms,
                                   budget=budget, lam=lam, max_coef=max_coef, variant=variant)
    _, _, age = forgetron_state(state, run)                # SV ages: the authors' oldest-first removal
    shrink = 1.0 - eta * lam
    bound = eta * max_coef
    for step, x_t, y_t, s_t in run.examples():
        delta, outside = run.residual(x_t, y_t, epsilon)
        if outside and s_t > 0.0:
            rec.update(step, ADDED)
            if run.b < budget:
                run.A[:run.b] *= shrink                    # (1 - eta lam) f_t
            else:
                rescale = bogd_discard(run, age, step, o.authors, shrink)   # uniform (paper) or oldest (authors)
                a = run.A[:run.b]
                if o.authors:
                    a *= shrink                            # BOGD.m: (1 - eta lam) f_t, no rescaling
                else:
                    run.A[:run.b] = np.sign(a) * np.minimum(rescale * np.abs(a), bound)
            age[run.b] = run.t0 + step + 1                 # the new SV's age: t
            run.append(x_t, eta * s_t * delta)             # - eta * gradient of (weighted) delta^2 / 2
        else:
            run.A[:run.b] *= shrink
    return run.result({"age": age[:run.b].copy()} if o.authors else {})


def regression_norma(X, y, order, *, eta, lam, nu, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None,
                     t0=0, state=None, sample_weight=None):
    """NORMA for regression with an adaptive tube (Lu et al.'s ``regression/Epsilon.m``, their "Norma"):
    every step ``f <- (1 - eta lam) f``; when ``|delta_t| > epsilon_t`` add ``x_t`` with
    ``eta s_t sign(delta_t)`` and ``epsilon += eta (s_t - nu)``, else ``epsilon -= eta nu``.
    ``epsilon`` is the initial tube; ``state["epsilon"]`` (if given) continues the previous call's."""
    run, o, rec = begin_regression("norma", X, y, order, kernel, gamma, degree, coef0, epsilon=epsilon, eta=eta,
                                   sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight, lam=lam, nu=nu)
    eps = float((state or {}).get("epsilon", epsilon))
    shrink = 1.0 - eta * lam
    for step, x_t, y_t, s_t in run.examples():
        delta, outside = run.residual(x_t, y_t, eps)
        run.A[:run.b] *= shrink                            # (1 - eta lam) f_t: the regulariser's step
        if outside and s_t > 0.0:
            run.append(x_t, eta * s_t * (1.0 if delta > 0.0 else -1.0))   # - eta * subgradient in f
            rec.update(step, ADDED)
        eps += eta * (s_t - nu) if outside else -(eta * nu)   # - eta * gradient in epsilon
    return run.result({"epsilon": eps})


def perceptron_step(eta, s_t, delta):
    """The perceptron-type step of Lu et al.'s regression code: ``eta s_t sign(delta_t)`` (``delta_t != 0``
    outside the tube)."""
    return eta * s_t * (1.0 if delta > 0.0 else -1.0)


def regression_perceptron(X, y, order, *, eta, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                          state=None, sample_weight=None):
    """Kernel perceptron for regression (Lu et al.'s ``regression/perceptron.m``), no budget: when
    ``|y_t - f_t(x_t)| > epsilon``, add ``x_t`` with ``eta s_t sign(delta_t)``."""
    run, o, rec = begin_regression("perceptron", X, y, order, kernel, gamma, degree, coef0, epsilon=epsilon,
                                   eta=eta, sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight)
    for step, x_t, y_t, s_t in run.examples():
        delta, outside = run.residual(x_t, y_t, epsilon)   # predict f_t(x_t), suffer (y_t - f_t)^2
        if outside and s_t > 0.0:                          # |delta_t| > epsilon
            run.append(x_t, perceptron_step(eta, s_t, delta))
            rec.update(step, ADDED)
    return run.result({})


def regression_forgetron(X, y, order, *, budget, eta, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None,
                         t0=0, state=None, sample_weight=None, variant="paper"):
    """Self-tuned Forgetron for regression (Lu et al.'s ``regression/forgetron.m``): when
    ``|delta_t| > epsilon`` (``M <- M + 1``), add ``x_t`` with ``eta s_t sign(delta_t)`` (age ``t``); with
    more than B SVs, ``r`` = the oldest, ``sigma = |alpha_r|``, ``mu = |f'_t(x_r)|``, shrink by ``phi_t``
    (:func:`~refsvm.online.forgetron_shrink`, ``Q <- Q + Psi``) and remove ``r``.  ``state``: ``Q``, ``M``,
    ``age`` (as :func:`refsvm.online.forgetron`)."""
    run, o, rec = begin_regression("forgetron", X, y, order, kernel, gamma, degree, coef0, epsilon=epsilon,
                                   eta=eta, sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight, budget=budget,
                                   variant=variant)
    Q, M, age = forgetron_state(state, run)
    for step, x_t, y_t, s_t in run.examples():
        delta, outside = run.residual(x_t, y_t, epsilon)
        M += int(outside)                                  # M_t: the steps outside the tube so far
        if outside and s_t > 0.0:
            age[run.b] = run.t0 + step + 1                 # the new SV's age: t
            run.append(x_t, perceptron_step(eta, s_t, delta))   # f'_t = f_t + eta s_t sign(delta_t) k(x_t, .)
            rec.update(step, ADDED)
            if run.b > budget:
                r = int(np.argmin(age[:run.b]))            # r_t: the oldest SV
                sigma = abs(run.A[r])
                mu = abs(run.f(run.SV[r])[0])              # |f'_t(x_r)|
                phi, psi = forgetron_shrink(sigma, mu, Q, M, variant)
                Q = forgetron_next_Q(Q, psi, phi, M)       # Q_t = Q_{t-1} + Psi(sigma phi, phi mu)
                run.A[:run.b] *= phi                       # f''_t = phi_t f'_t
                age[r] = age[run.b - 1]
                run.remove(r, step)                        # forget the oldest SV
    return run.result({"Q": Q, "M": M, "age": age[:run.b].copy()})


def regression_projectron(X, y, order, *, budget, eta, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None,
                          t0=0, state=None, sample_weight=None):
    """Projectron for regression (Lu et al.'s ``regression/projectron.m``): when ``|delta_t| > epsilon``, the
    step ``c = eta s_t sign(delta_t)``; below B SVs add ``x_t`` with ``c``; with B SVs (or ``x_t`` in their
    span within rounding, :class:`~refsvm.online.projection.Span`) project, ``alpha += c K^{-1} k_t``.
    ``state``: ``L`` and ``diag_max`` (as :func:`refsvm.online.projectron`)."""
    run, o, rec = begin_regression("projectron", X, y, order, kernel, gamma, degree, coef0, epsilon=epsilon,
                                   eta=eta, sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight, budget=budget,
                                   variant="authors")
    factor = initial_factor(run, state)                    # K = L L' of the current SVs
    for step, x_t, y_t, s_t in run.examples():
        delta, outside, k_t = run.residual_row(x_t, y_t, epsilon)
        if outside and s_t > 0.0:
            b = run.b
            span = factor.project(k_t, run.k_tt(x_t))      # d* = K^{-1} k_t, delta_t^2 and the span test
            c = perceptron_step(eta, s_t, delta)
            if span.in_span or b == budget:
                run.A[:b] += c * span.d_star               # f += c P k(x_t, .)
                rec.update(step, PROJECTED)
            else:
                factor.append(span)                        # L grows by the row [z', delta_t]
                run.append(x_t, c)                         # f += c k(x_t, .)
                rec.update(step, ADDED)
    return run.result(factor.state())
