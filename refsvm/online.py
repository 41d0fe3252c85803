"""Classic online kernel learners, the baselines of the budget papers (reference implementation).

Lu et al. (2016, Table 5) and Qaadan et al. (2019, Table 2) compare their
methods with these learners.  Each function below mirrors the update of its
own paper (cited at the function and line by line); the compiled mirror is
:mod:`refsvm._fast.online` (same functions, same signatures, same list
operations, so both make the same discrete decisions).

========================  ==========================================================  ==================
function                  paper                                                       budget
========================  ==========================================================  ==================
:func:`perceptron`        Freund & Schapire (1999), kernel perceptron                 none
:func:`ogd`               Kivinen, Smola & Williamson (2004), NORMA, lambda = 0        none
:func:`rbp`               Cavallanti, Cesa-Bianchi & Gentile (2007), random removal   B
:func:`forgetron`         Dekel, Shalev-Shwartz & Singer (2008), self-tuned           B
:func:`projectron`        Orabona, Keshet & Caputo (2009), Projectron / Projectron++  eta (and B)
:func:`bpas`              Wang & Vucetic (2010), BPA-S                                B
:func:`bogd`              Zhao, Wang, Wu, Jin & Hoi (2012), BOGD, uniform sampling    B
========================  ==========================================================  ==================

Sources.  The five papers are not in the shared paper folder; each update
below was written from the paper's description (as summarised by Lu et al.
2016 and Wang et al. 2012) and checked against the published implementations
read for understanding only (the MATLAB code released with Lu et al., JSAT);
where those disagree with the paper the docstring says so and the paper's form
is used.  Equation and figure numbers of the original papers are therefore not
cited.

Conventions shared by all learners (see DESIGN.md):

* binary labels y in {-1, +1}; the model is ``f(x) = sum_j alpha_j k(x_j, x)``
  with ``alpha`` of shape ``(n_sv, 1)`` and no bias (none of the papers has one);
* a *mistake* is counted before the update (online mistake rate =
  ``mistakes / n_steps``, as Lu et al. report).  ``zero_prediction``
  says how a decision value of exactly 0 is read (:func:`is_mistake`):
  ``"mistake"`` (default) counts ``y_t f_t(x_t) <= 0`` as a mistake, the
  reading of the papers (no prediction is made, so no label is right);
  ``"positive"`` predicts ``sign(0) = +1`` as Lu et al.'s released code does,
  so ``f = 0`` is a mistake only for ``y_t = -1``.  The mistake-driven updates
  (Perceptron, RBP, the Projectrons' mistake branch) follow the same reading;
  the Forgetron updates on ``y_t f_t(x_t) <= 0`` under both (its paper and the
  authors' code) and counts its ``M`` by the chosen reading.  A value of
  exactly 0 is not only the empty model's: with a Gaussian kernel whose values
  underflow (unscaled spambase) it happens 90-170 times a pass;
* ``variant``: ``"paper"`` (default) is each paper's update as stated;
  ``"authors"`` is Lu et al.'s released MATLAB code where it differs
  (Forgetron, Projectron(++), BOGD; the docstrings say how), the reading
  behind the numbers of their Table 5;
* the hinge loss is "active" when ``y_t f_t(x_t) < 1`` (Lu et al., section 7.2.1:
  the gradient is taken as 0 at ``y f = 1``);
* SV storage: *append* writes slot ``n_sv``; *remove(p)* moves the last SV into
  slot ``p`` (as :func:`refsvm.budget.remove_sv`); BPA-S *replaces* slot ``r``;
* randomness (the SV RBP and BOGD discard) comes from ``uniforms``, one number
  in [0, 1) per step drawn by the caller; the discarded slot is
  ``floor(u_t * n_sv)``;
* every function continues from ``sv``, ``alpha``, ``t0`` and ``state`` (what
  the previous call returned) and returns an :class:`OnlineResult`;
* **example weights** (``sample_weight``, not in the papers), for every
  learner.  A weight ``s_t >= 0`` scales the example's loss; the line of the
  update that the loss enters changes, the test that triggers it (mistake /
  hinge loss active) does not:

  - perceptron, RBP, Forgetron: the new SV's coefficient is ``s_t y_t``
    (``f'_t = f_t + s_t y_t k(x_t, .)``); the Forgetron's shrinking then runs
    as printed on the weighted ``f'_t`` (its ``M`` counts mistakes, unweighted);
  - OGD, BOGD: ``eta s_t y_t`` (the gradient of the weighted hinge loss);
  - Projectron: the perceptron step ``s_t y_t``, projected (``alpha += s_t y_t d*``)
    or added; Projectron++'s margin-error step is capped at ``s_t`` instead
    of 1, ``tau = min(l / ||P k_t||^2, s_t)`` (the cap is the mistake step);
  - BPA-S: PA-I with the weighted loss ``s_t l``, i.e. ``C s_t`` in place of
    ``C``, in the step ``tau = min(C s_t, l / k_tt)`` and in the replacement
    objective ``Q_r``.

  An example with ``s_t = 0`` changes nothing (no SV, no projection, no
  removal; BOGD still shrinks, the regulariser is not weighted).  ``s_t = 1``
  is bitwise the unweighted run.  Counters (mistakes) are unweighted.

Trace (both paths):

====================== ===========================================================
``mistakes``            number of steps with ``y_t f_t(x_t) <= 0``
``n_steps``             ``len(order)``
``updates``             steps on which the loss triggered an update of the model
``removals``            number of SVs discarded (or replaced, BPA-S)
``kernel_evaluations``  kernel values computed (the papers' unit of cost)
``update_kind``         int8 per step: 0 none, 1 an SV was added, 2 coefficients
                        changed without adding an SV (projection)
``n_sv``                int64 per step: number of SVs after the step
``removal_step``        int64 per removal: index into ``order`` of the step
``removal_index``       int64 per removal: slot of the SV discarded / replaced
====================== ===========================================================
"""

import math
from dataclasses import dataclass, field

import numpy as np

from .kernels import kernel_diag, kernel_row
from .sparse import n_rows, new_sv_storage
from .validation import check_online_arguments, check_sample_weight

#: The learners, by the name the estimator and ``refsvm reproduce`` use.
ALGORITHMS = ("perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd")


def is_mistake(y_t, f_t, zero_prediction="mistake"):
    """Whether the prediction of ``f_t`` for label ``y_t`` is wrong.

    ``"mistake"``: ``y_t f_t <= 0`` (a value of 0 predicts nothing, so it is
    wrong for both labels).  ``"positive"``: ``sign(f_t) != y_t`` with
    ``sign(0) = +1`` (Lu et al.'s code), i.e. ``f_t < 0`` for ``y_t = +1`` and
    ``f_t >= 0`` for ``y_t = -1``.
    """
    if zero_prediction == "positive":
        return f_t < 0.0 if y_t > 0 else f_t >= 0.0
    return y_t * f_t <= 0.0


def projectron_U(budget):
    """``U = 1/4 sqrt((B + 1) / ln(B + 1))``, the constant Lu et al.'s Projectron++ code puts where the
    paper has ``1 / eta`` in the margin-error condition."""
    return 0.25 * math.sqrt((budget + 1.0) / math.log(budget + 1.0))


@dataclass
class OnlineResult:
    """What one pass of an online learner returns (both backends)."""

    sv: np.ndarray        #: support vectors, shape (n_sv, d)
    alpha: np.ndarray     #: coefficients, shape (n_sv, 1)
    bias: np.ndarray      #: always zeros(1) (no learner here has a bias)
    t: int                #: index of the last step taken
    state: dict = field(default_factory=dict)   #: learner state to continue from
    trace: dict = field(default_factory=dict)   #: diagnostics (module docstring)


class _Run:
    """Model arrays with room for ``capacity`` SVs plus the trace being filled."""

    def __init__(self, X, order, sv, alpha, capacity):
        n0 = 0 if sv is None else n_rows(sv)
        self.SV = new_sv_storage(capacity, X)            # sparse X: sparse SV slots (refsvm.sparse)
        self.A = np.zeros(capacity)
        if n0:
            self.SV[:n0] = sv
            self.A[:n0] = np.asarray(alpha, dtype=np.float64).reshape(-1)
        self.b = n0
        n = len(order)
        self.update_kind = np.zeros(n, dtype=np.int8)
        self.n_sv = np.zeros(n, dtype=np.int64)
        self.removal_step, self.removal_index = [], []
        self.mistakes = self.updates = self.kernel_evaluations = 0

    def f(self, x, kernel, gamma, degree, coef0):
        """``f_t(x) = sum_j alpha_j k(x_j, x)`` and the kernel row ``k_t``."""
        k = kernel_row(self.SV[:self.b], x, kernel, gamma, degree, coef0)
        self.kernel_evaluations += self.b
        return float(np.sum(k * self.A[:self.b])), k     # pairwise sum (the fast path sums alike)

    def append(self, x, a):
        self.SV[self.b] = x
        self.A[self.b] = a
        self.b += 1

    def remove(self, p, step):
        """remove(p): the last SV moves into slot p."""
        last = self.b - 1
        self.SV[p] = self.SV[last]
        self.A[p] = self.A[last]
        self.b = last
        self.removal_step.append(step)
        self.removal_index.append(p)

    def result(self, t, state):
        trace = {
            "mistakes": int(self.mistakes),
            "n_steps": len(self.n_sv),
            "updates": int(self.updates),
            "removals": len(self.removal_step),
            "kernel_evaluations": int(self.kernel_evaluations),
            "update_kind": self.update_kind,
            "n_sv": self.n_sv,
            "removal_step": np.array(self.removal_step, dtype=np.int64),
            "removal_index": np.array(self.removal_index, dtype=np.int64),
        }
        return OnlineResult(sv=self.SV[:self.b].copy(), alpha=self.A[:self.b].reshape(-1, 1).copy(),
                            bias=np.zeros(1), t=int(t), state=state, trace=trace)


def _capacity(sv, order, budget):
    n0 = 0 if sv is None else n_rows(sv)
    arriving = n0 + len(order)                    # at most one new SV per step: a larger budget is never full
    return arriving + 1 if budget is None else min(max(budget, n0), arriving) + 1


# ----------------------------------------------------------------------------
# Perceptron (Freund & Schapire 1999) and kernel OGD (Kivinen et al. 2004)
# ----------------------------------------------------------------------------

def perceptron(X, y, order, *, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0, state=None,
               sample_weight=None, zero_prediction="mistake"):
    """Kernel perceptron, no budget (Freund & Schapire 1999; the plain last hypothesis).

    For t = 1, 2, ...: predict ``sign(f_t(x_t))``; on a mistake
    (``y_t f_t(x_t) <= 0``) add ``x_t`` with coefficient ``y_t``:
    ``f_{t+1} = f_t + y_t k(x_t, .)``.  (The voted / averaged variants of the
    paper are not used by the budget papers; this is the plain last iterate.)

    ``sample_weight`` (n,) or None: the added coefficient is ``s_t y_t``
    (module docstring).  ``zero_prediction``: how ``f_t(x_t) = 0`` is read (:func:`is_mistake`).
    """
    X, y, order, _ = check_online_arguments(
        X, y, order, None, algorithm="perceptron", budget=None, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, eta=1.0, lam=0.0, C=1.0, max_coef=1.0, sv=sv, alpha=alpha, t0=t0,
        zero_prediction=zero_prediction)
    sample_weight = check_sample_weight(sample_weight, X.shape[0])
    R = _Run(X, order, sv, alpha, _capacity(sv, order, None))
    t = t0
    for step, i in enumerate(order):
        t += 1
        x_t, y_t = X[i], int(y[i])
        s_t = 1.0 if sample_weight is None else float(sample_weight[i])   # example weight
        f_t, _ = R.f(x_t, kernel, gamma, degree, coef0)   # predict sign(f_t(x_t))
        if is_mistake(y_t, f_t, zero_prediction):          # mistake
            R.mistakes += 1
            if s_t == 0.0:                                 # weighted loss 0: no step
                R.n_sv[step] = R.b
                continue
            R.append(x_t, y_t * s_t)                       # f_{t+1} = f_t + s_t y_t k(x_t, .)
            R.updates += 1
            R.update_kind[step] = 1
        R.n_sv[step] = R.b
    return R.result(t, {})


def ogd(X, y, order, *, eta, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0, state=None,
        sample_weight=None, zero_prediction="mistake"):
    """Kernel online gradient descent on the hinge loss, no budget.

    NORMA of Kivinen, Smola & Williamson (2004), the stochastic gradient step
    ``f_{t+1} = (1 - eta_t lambda) f_t - eta_t l'(f_t(x_t), y_t) k(x_t, .)``,
    in the form Lu et al. (2016) run it: hinge loss, constant step
    ``eta_t = eta``, lambda = 0, so that a step with ``y_t f_t(x_t) < 1`` adds
    ``x_t`` with coefficient ``eta y_t`` and nothing else changes.

    Relation to BSGD (:mod:`refsvm.bsgd`): BSGD's ``"norma"`` learning rate is
    *not* this learner (it decays, ``eta / sqrt(t)``, and needs lambda > 0, so
    every step shrinks the model).  BSGD's ``"perceptron"`` rate (the margin
    perceptron of Wang et al.'s Table 2: ``eta_t = eta``, lambda = 0) with
    ``radius=inf`` and a budget no smaller than the number of steps is exactly
    this update; ``tests/test_online.py`` checks the two give the same model.
    This separate loop exists because it returns the online trace of this
    module (kernel evaluations) and does not evaluate the ball projection
    (``||w||``, O(n_sv^2) kernel values per step) that BSGD's reference path
    computes even for an infinite radius.

    ``sample_weight`` (n,) or None: the added coefficient is ``eta s_t y_t``.
    ``zero_prediction`` only changes the mistake count (the update is the hinge loss's).
    """
    X, y, order, _ = check_online_arguments(
        X, y, order, None, algorithm="ogd", budget=None, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, eta=eta, lam=0.0, C=1.0, max_coef=1.0, sv=sv, alpha=alpha, t0=t0,
        zero_prediction=zero_prediction)
    sample_weight = check_sample_weight(sample_weight, X.shape[0])
    R = _Run(X, order, sv, alpha, _capacity(sv, order, None))
    t = t0
    for step, i in enumerate(order):
        t += 1
        x_t, y_t = X[i], int(y[i])
        s_t = 1.0 if sample_weight is None else float(sample_weight[i])   # example weight
        f_t, _ = R.f(x_t, kernel, gamma, degree, coef0)
        R.mistakes += is_mistake(y_t, f_t, zero_prediction)
        if y_t * f_t < 1.0 and s_t != 0.0:                 # hinge loss > 0: gradient -y_t k(x_t, .)
            R.append(x_t, eta * s_t * y_t)                 # NORMA step, lambda = 0 (weighted: eta s_t)
            R.updates += 1
            R.update_kind[step] = 1
        R.n_sv[step] = R.b
    return R.result(t, {})


# ----------------------------------------------------------------------------
# RBP (Cavallanti et al. 2007) and Forgetron (Dekel et al. 2008)
# ----------------------------------------------------------------------------

def rbp(X, y, order, uniforms, *, budget, kernel, gamma, degree, coef0, sv=None, alpha=None,
        t0=0, state=None, sample_weight=None, zero_prediction="mistake"):
    """Randomized budget perceptron (Cavallanti, Cesa-Bianchi & Gentile 2007).

    On a mistake: if the model already holds B SVs, discard one chosen
    uniformly at random (slot ``floor(u_t B)``, ``u_t = uniforms[step]``), then
    add ``x_t`` with coefficient ``y_t`` (perceptron update).  Never more than B
    SVs.  ``sample_weight`` (n,) or None: coefficient ``s_t y_t``; ``s_t = 0``:
    no update, no discard.  ``zero_prediction``: how ``f_t(x_t) = 0`` is read
    (:func:`is_mistake`; Lu et al.'s code: ``"positive"``).
    """
    X, y, order, uniforms = check_online_arguments(
        X, y, order, uniforms, algorithm="rbp", budget=budget, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, eta=1.0, lam=0.0, C=1.0, max_coef=1.0, sv=sv, alpha=alpha, t0=t0,
        zero_prediction=zero_prediction)
    sample_weight = check_sample_weight(sample_weight, X.shape[0])
    R = _Run(X, order, sv, alpha, _capacity(sv, order, budget))
    t = t0
    for step, i in enumerate(order):
        t += 1
        x_t, y_t = X[i], int(y[i])
        s_t = 1.0 if sample_weight is None else float(sample_weight[i])   # example weight
        f_t, _ = R.f(x_t, kernel, gamma, degree, coef0)
        if is_mistake(y_t, f_t, zero_prediction):          # mistake
            R.mistakes += 1
            if s_t == 0.0:                                 # weighted loss 0: no step
                R.n_sv[step] = R.b
                continue
            if R.b == budget:                              # |S| = B: discard a random SV
                R.remove(min(int(uniforms[step] * R.b), R.b - 1), step)
            R.append(x_t, y_t * s_t)                       # perceptron update (weighted: s_t y_t)
            R.updates += 1
            R.update_kind[step] = 1
        R.n_sv[step] = R.b
    return R.result(t, {})


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

    The update is taken when ``y_t f_t(x_t) <= 0`` under both ``zero_prediction``
    readings (the paper's condition, and Lu et al.'s code's); ``M`` counts the
    mistakes of the chosen reading (:func:`is_mistake`), as the code's
    ``err_count`` does.  ``variant="authors"``: the larger root of
    :func:`forgetron_shrink`.  ``sample_weight`` (n,) or None: the step is
    ``s_t y_t`` (module docstring); ``s_t = 0``: no step.
    """
    X, y, order, _ = check_online_arguments(
        X, y, order, None, algorithm="forgetron", budget=budget, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, eta=1.0, lam=0.0, C=1.0, max_coef=1.0, sv=sv, alpha=alpha, t0=t0,
        zero_prediction=zero_prediction, variant=variant)
    sample_weight = check_sample_weight(sample_weight, X.shape[0])
    R = _Run(X, order, sv, alpha, _capacity(sv, order, budget))
    state = state or {}
    Q = float(state.get("Q", 0.0))
    M = int(state.get("M", 0))
    age = np.zeros(R.SV.shape[0], dtype=np.int64)
    age[:R.b] = state.get("age", np.arange(-R.b, 0))
    t = t0
    for step, i in enumerate(order):
        t += 1
        x_t, y_t = X[i], int(y[i])
        s_t = 1.0 if sample_weight is None else float(sample_weight[i])   # example weight
        f_t, _ = R.f(x_t, kernel, gamma, degree, coef0)
        if is_mistake(y_t, f_t, zero_prediction):          # mistake: M_t = M_{t-1} + 1
            R.mistakes += 1
            M += 1
        if y_t * f_t <= 0.0 and s_t != 0.0:                # update (weighted loss 0: none)
            age[R.b] = t
            R.append(x_t, y_t * s_t)                       # f'_t = f_t + s_t y_t k(x_t, .)
            R.updates += 1
            R.update_kind[step] = 1
            if R.b > budget:
                r = int(np.argmin(age[:R.b]))              # r_t = min I'_t (the oldest SV)
                sigma = abs(R.A[r])                        # sigma_{r,t}
                y_r = 1.0 if R.A[r] >= 0.0 else -1.0
                k_r = kernel_row(R.SV[:R.b], R.SV[r], kernel, gamma, degree, coef0)
                R.kernel_evaluations += R.b
                mu = y_r * float(np.sum(k_r * R.A[:R.b]))  # mu_t = y_r f'_t(x_r)
                phi, psi = forgetron_shrink(sigma, mu, Q, M, variant)
                Q += psi                                   # Q_t = Q_{t-1} + Psi(sigma phi, phi mu)
                R.A[:R.b] *= phi                           # f''_t = phi_t f'_t
                age[r] = age[R.b - 1]
                R.remove(r, step)                          # f_{t+1} = f''_t - sigma_{r,t+1} y_r k(x_r, .)
        R.n_sv[step] = R.b
    return R.result(t, {"Q": Q, "M": M, "age": age[:R.b].copy()})


# ----------------------------------------------------------------------------
# Projectron / Projectron++ (Orabona, Keshet & Caputo 2009)
# ----------------------------------------------------------------------------

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
    algorithm = "projectron++" if plusplus else "projectron"
    X, y, order, _ = check_online_arguments(
        X, y, order, None, algorithm=algorithm, budget=budget, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, eta=eta, lam=0.0, C=1.0, max_coef=1.0, sv=sv, alpha=alpha, t0=t0,
        zero_prediction=zero_prediction, variant=variant)
    sample_weight = check_sample_weight(sample_weight, X.shape[0])
    authors = variant == "authors"
    U = projectron_U(budget) if authors else 0.0
    R = _Run(X, order, sv, alpha, _capacity(sv, order, budget))
    Kinv = np.zeros((R.b, R.b))                            # K^{-1} of the current SVs
    if R.b:
        if state and "Kinv" in state:
            Kinv[:] = state["Kinv"]
        else:
            from .kernels import kernel_matrix
            Kinv[:] = np.linalg.inv(kernel_matrix(R.SV[:R.b], R.SV[:R.b], kernel, gamma, degree, coef0))
    t = t0
    for step, i in enumerate(order):
        t += 1
        x_t, y_t = X[i], int(y[i])
        s_t = 1.0 if sample_weight is None else float(sample_weight[i])   # example weight
        f_t, k_t = R.f(x_t, kernel, gamma, degree, coef0)
        margin = y_t * f_t
        mistake = is_mistake(y_t, f_t, zero_prediction)
        R.mistakes += mistake
        if s_t != 0.0 and (mistake or (plusplus and 0.0 < margin < 1.0)):
            b = R.b
            k_tt = float(kernel_diag(X[i:i + 1], kernel, gamma, degree, coef0)[0])
            R.kernel_evaluations += 1
            d_star = Kinv @ k_t                            # d* = K^{-1} k_t
            Pk_sq = float(k_t @ d_star)                    # ||P k_t||^2 = k_t' K^{-1} k_t
            delta_sq = max(k_tt - Pk_sq, 0.0)              # delta_t^2 = ||k(x_t,.) - P k(x_t,.)||^2
            delta = math.sqrt(delta_sq)
            if mistake:
                threshold = (not authors and delta <= eta) or (budget is not None and b == budget)
                if b > 0 and (threshold or delta_sq == 0.0):
                    R.A[:b] += (y_t * s_t) * d_star        # f += s_t y_t P k(x_t, .)
                    R.update_kind[step] = 2
                else:
                    d_ext = np.append(d_star, -1.0)        # grow K^{-1} (block inverse)
                    grown = np.zeros((b + 1, b + 1))
                    grown[:b, :b] = Kinv
                    Kinv = grown + np.outer(d_ext, d_ext) / delta_sq
                    R.append(x_t, y_t * s_t)               # f += s_t y_t k(x_t, .)
                    R.update_kind[step] = 1
                R.updates += 1
            elif b > 0 and Pk_sq > 0.0:                    # Projectron++: margin error
                loss = 1.0 - margin
                tau = min(loss / Pk_sq, s_t)               # step cap: the mistake step s_t
                if authors:
                    penalty = 2.0 * U * delta              # Lu et al.'s code: U in place of 1 / eta
                elif eta > 0.0:
                    penalty = 2.0 * delta / eta
                else:
                    penalty = 0.0 if delta == 0.0 else math.inf
                beta = tau * (2.0 * loss - tau * Pk_sq - penalty)
                if beta >= 0.0:
                    R.A[:b] += (y_t * tau) * d_star        # f += y_t tau P k(x_t, .)
                    R.updates += 1
                    R.update_kind[step] = 2
        R.n_sv[step] = R.b
    return R.result(t, {"Kinv": Kinv.copy()})


# ----------------------------------------------------------------------------
# BPA-S (Wang & Vucetic 2010) and BOGD (Zhao et al. 2012)
# ----------------------------------------------------------------------------

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
    X, y, order, _ = check_online_arguments(
        X, y, order, None, algorithm="bpas", budget=budget, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, eta=1.0, lam=0.0, C=C, max_coef=1.0, sv=sv, alpha=alpha, t0=t0,
        zero_prediction=zero_prediction)
    sample_weight = check_sample_weight(sample_weight, X.shape[0])
    R = _Run(X, order, sv, alpha, _capacity(sv, order, budget))
    t = t0
    for step, i in enumerate(order):
        t += 1
        x_t, y_t = X[i], int(y[i])
        C_t = C if sample_weight is None else C * float(sample_weight[i])   # PA-I on the weighted loss
        f_t, k_t = R.f(x_t, kernel, gamma, degree, coef0)
        R.mistakes += is_mistake(y_t, f_t, zero_prediction)
        loss = max(0.0, 1.0 - y_t * f_t)
        if loss > 0.0 and C_t != 0.0:
            k_tt = float(kernel_diag(X[i:i + 1], kernel, gamma, degree, coef0)[0])
            R.kernel_evaluations += 1
            tau = min(C_t, loss / k_tt)                    # PA-I step
            R.updates += 1
            R.update_kind[step] = 1
            if R.b < budget:
                R.append(x_t, y_t * tau)
            else:
                b = R.b
                k_rr = kernel_diag(R.SV[:b], kernel, gamma, degree, coef0)
                R.kernel_evaluations += b
                a_r = R.A[:b]
                beta = a_r * k_t / k_tt + y_t * tau        # projection of x_r onto x_t, plus the PA step
                dist_sq = a_r * a_r * k_rr + beta * beta * k_tt - 2.0 * a_r * beta * k_t
                f_r = f_t - a_r * k_t + beta * k_tt        # f_r(x_t)
                Q = 0.5 * dist_sq + C_t * np.maximum(0.0, 1.0 - y_t * f_r)
                r = int(np.argmin(Q))
                R.removal_step.append(step)
                R.removal_index.append(r)
                R.SV[r] = x_t                              # replace x_r by x_t
                R.A[r] = beta[r]
        R.n_sv[step] = R.b
    return R.result(t, {})


def bogd(X, y, order, uniforms, *, budget, eta, lam, max_coef, kernel, gamma, degree, coef0,
         sv=None, alpha=None, t0=0, state=None, sample_weight=None, zero_prediction="mistake",
         variant="paper"):
    """Bounded online gradient descent, uniform sampling (Zhao et al. 2012, ICML; BOGD, not BOGD++).

    Every step shrinks, ``f <- (1 - eta lambda) f`` (the regulariser's
    gradient).  On a hinge-loss step (``y_t f_t(x_t) < 1``): below the budget
    shrink and add ``x_t`` with ``eta y_t``; with B SVs, discard the SV in slot
    ``floor(u_t B)`` (uniform sampling), rescale the others by the unbiased
    factor ``1 / (1 - 1/B) = B / (B - 1)`` together with the shrink, and clip
    each rescaled coefficient to the bound ``eta * max_coef`` (the paper's
    ``eta gamma``; sign kept):
    ``alpha_j <- sign(alpha_j) min(B (1 - eta lambda) |alpha_j| / (B - 1), eta max_coef)``;
    then add ``x_t`` with ``eta y_t``.  Hence ``|alpha_j| <= eta max(1, max_coef)``
    for every SV at every step and ``||f||_H <= B eta max(1, max_coef) max_j sqrt(k(x_j, x_j))``.

    Which bound the paper states: Zhao et al. (2012) is not in the shared paper
    folder; the per-coefficient bound above is the form JSAT implements from
    it (its documentation cites the paper and its grid ``gamma in 2^0..2^4``),
    and what this function did before the audit.  ``variant="authors"`` is Lu
    et al.'s BOGD.m, the code behind their Table 5: it updates when
    ``y f <= 1`` (not ``< 1``), and with B SVs it rescales and removes as above,
    appends ``eta y_t`` and then scales the *whole* coefficient vector, new SV
    included, so that its largest entry is at most ``eta max_coef``:
    ``alpha <- alpha min(1, eta max_coef / max_j |alpha_j|)`` (below the budget:
    shrink and append, no bound).  On a9a / ijcnn1 / w8a at ``eta = 0.2`` the
    authors' rule gives 28.09 / 11.79 / 3.59 % mistakes (paper 27.9 / 11.67 /
    3.43), the per-coefficient bound 31.65 / 15.01 / 4.48 (outside audit; our
    own runs: ``refsvm reproduce lu2016-table5``).  ``zero_prediction``
    changes only the mistake count.

    ``sample_weight`` (n,) or None: the new SV gets ``eta s_t y_t`` (the
    hinge step of the weighted loss); ``s_t = 0``: the step is a plain shrink.
    The bound on the rescaled coefficients is unchanged, so
    ``|alpha_j| <= eta max(max_t s_t, max_coef)``.
    """
    X, y, order, uniforms = check_online_arguments(
        X, y, order, uniforms, algorithm="bogd", budget=budget, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, eta=eta, lam=lam, C=1.0, max_coef=max_coef, sv=sv, alpha=alpha, t0=t0,
        zero_prediction=zero_prediction, variant=variant)
    authors = variant == "authors"
    sample_weight = check_sample_weight(sample_weight, X.shape[0])
    R = _Run(X, order, sv, alpha, _capacity(sv, order, budget))
    shrink = 1.0 - eta * lam
    bound = eta * max_coef
    t = t0
    for step, i in enumerate(order):
        t += 1
        x_t, y_t = X[i], int(y[i])
        s_t = 1.0 if sample_weight is None else float(sample_weight[i])   # example weight
        f_t, _ = R.f(x_t, kernel, gamma, degree, coef0)
        R.mistakes += is_mistake(y_t, f_t, zero_prediction)
        hinge = y_t * f_t <= 1.0 if authors else y_t * f_t < 1.0
        if hinge and s_t != 0.0:
            R.updates += 1
            R.update_kind[step] = 1
            if R.b < budget:
                R.A[:R.b] *= shrink                        # (1 - eta lambda) f_t
                R.append(x_t, eta * s_t * y_t)             # - eta * gradient of the (weighted) hinge loss
            else:
                B = R.b
                R.remove(min(int(uniforms[step] * B), B - 1), step)   # uniform sampling
                scale = B * shrink / (B - 1)               # unbiased rescaling 1/(1 - 1/B)
                a = R.A[:R.b]
                if authors:
                    R.A[:R.b] = scale * a
                    R.append(x_t, eta * s_t * y_t)
                    top = float(np.max(np.abs(R.A[:R.b])))
                    if top > bound:                        # alpha <- alpha min(1, eta max_coef / max|alpha|)
                        R.A[:R.b] *= bound / top
                else:
                    R.A[:R.b] = np.sign(a) * np.minimum(scale * np.abs(a), bound)
                    R.append(x_t, eta * s_t * y_t)
        else:
            R.A[:R.b] *= shrink
        R.n_sv[step] = R.b
    return R.result(t, {})
