"""Multi-class online baselines on one shared SV set (reference; Lu et al. 2016, section 5).

Lu, Hoi, Wang, Zhao & Liu (2016, JMLR 17, section 5.1) run every baseline of their
multi-class table with the multi-prototype protocol of Crammer et al. (2006): one
function per class, ``f^r(x) = sum_j alpha_j^r k(x_j, x)``, all ``m`` of them over
the SAME support vectors (``alpha`` of shape ``(n_sv, m)``, section 5.3), and

* the prediction ``y^_t = argmax_r f^r_t(x_t)`` (eq. 8);
* the rival ``s_t = argmax_{r != y_t} f^r_t(x_t)``, the highest-scoring wrong class
  (:func:`refsvm.ogd.rival_class`: lowest index on ties, as MATLAB's ``max``), and
  the margin ``gamma_t = f^{y_t}_t(x_t) - f^{s_t}_t(x_t)``;
* an update adds ``x_t`` ONCE to the shared set with a coefficient vector that is
  nonzero for two classes only: ``+c`` for ``y_t`` and ``-c`` for ``s_t`` (eq. 12-13
  for OGD, ``c = eta``; the perceptron's ``c = 1``).

The paper prints this rule for FOGD / NOGD only (Algorithms 3 and 4; refsvm.fogd and
refsvm.nogd follow it).  For the baselines the rule below is the one of the authors'
released code (jingcoco/Online-Kernel-Learning, ``multiclass/perceptron.m``,
``RBP.m``, ``ogd.m``; read for understanding, not copied):

* Perceptron (Crammer & Singer's max update): on a mistake (eq. 8 wrong), add
  ``x_t`` with ``+1`` for ``y_t`` and ``-1`` for ``s_t``;
* RBP: the same step; when the shared set already holds B SVs, first discard one
  SV chosen uniformly at random (with ALL its class coefficients; the code removes
  the id from every prototype);
* OGD: when the multi-class hinge loss ``max(0, 1 - gamma_t)`` is positive (eq. 9),
  add ``x_t`` with ``+eta`` for ``y_t`` and ``-eta`` for ``s_t``.

Forgetron, BOGD, BPA-S and the Projectrons (:func:`multiclass_forgetron`, :func:`multiclass_bogd`,
:func:`multiclass_bpas`, :func:`multiclass_projectron`): the default (``variant="paper"``) is the binary paper's rule
lifted by this protocol; the authors' ``multiclass/forgetron.m`` and ``BOGD.m`` depart
from it, and ``variant="authors"`` takes their reading (each function's docstring says
where; ``multiclass/projectron.m`` and ``proplus.m`` depart from the binary paper as the binary
``variant="authors"`` does; ``BPAs.m`` is the lifted rule for the Gaussian kernel, so BPA-S has no variant).

The code keeps one list per class and stores an id twice (once per class it
enters); one shared SV with two nonzero coefficients is the same model and the
layout of section 5.3.  Each slot holds one SV of the shared set, so RBP's budget B
counts shared SVs (the code's ``size_SV``).

Conventions of :mod:`refsvm.online` (storage, ``uniforms``, the trace, example
weights: the coefficient is ``s_t`` times the unweighted one, ``s_t = 0`` changes
nothing).  Labels are ``0 .. n_classes - 1``.  ``zero_prediction`` says how a tie
in eq. 8 is read (:func:`multiclass_decision`): ``"mistake"`` (default) counts
``f^{s_t} >= f^{y_t}`` as a mistake (a tie predicts no single class, the reading of
the binary learners and of refsvm's multi-class FOGD / NOGD); ``"positive"`` takes
the lowest-index maximum as the prediction, as the authors' code (MATLAB ``max``),
so an empty model predicts class 0 and makes no mistake on it.  Both readings
compare the computed scores exactly (no tie tolerance yet: see DESIGN.md, "Discrete
decisions on computed numbers", multi-class online).
"""

import numpy as np
import scipy.sparse as sp

from ..kernels import Kernel
from ..ogd import _check_labels, rival_class
from ..sparse import n_rows
from ..validation import _check_warm_start, check_int, check_online_arguments, weights_as_data
from ..constants import UNIT_ROUNDOFF
from ..recorder import StepRecords
from .common import ADDED, PROJECTED, OnlineOptions, OnlineRecorder, OnlineResult, OnlineRun, margin_tolerance
from .passive_aggressive import bpas_term_errors, least_objective, pa_step
from .perceptrons import forgetron_next_Q, forgetron_shrink, forgetron_state
from .projection import initial_factor, margin_step, projects_mistake

#: The learners with a multi-class form here (the estimator's multi-class branch accepts these).
MULTICLASS_ALGORITHMS = ("perceptron", "rbp", "ogd", "forgetron", "bogd", "bpas", "projectron", "projectron++")


def check_multiclass_arguments(X, y, order, uniforms=None, *, algorithm, n_classes, sv, alpha, budget=None,
                               **rest):
    """The binary learners' checks (:func:`refsvm.validation.check_online_arguments`) for everything
    but the labels and the warm start, then labels in ``0 .. n_classes - 1`` and ``alpha`` of shape
    ``(n_sv, n_classes)``.  Returns ``(X, y, order, uniforms)`` as the binary check does."""
    check_option_multiclass(algorithm)
    check_int(n_classes, "n_classes", 2)
    n = X.shape[0] if sp.issparse(X) or hasattr(X, "shape") else len(X)
    X, _, order, uniforms = check_online_arguments(X, np.ones(n, dtype=np.int64), order, uniforms,
                                                   algorithm=algorithm, sv=None, alpha=None, budget=budget, **rest)
    y = _check_labels(y, order, "multiclass", n_classes, X.shape[0])
    if sv is not None and n_rows(sv) > 0:
        _check_warm_start(sv, alpha, X.shape[1], n_classes, budget)
    return X, y, order, uniforms


def check_option_multiclass(algorithm):
    """``algorithm`` has a multi-class form here (a clear error naming those that do)."""
    if algorithm not in MULTICLASS_ALGORITHMS:
        raise ValueError(f"algorithm={algorithm!r} is binary only; the multi-class online learners are "
                         f"{', '.join(MULTICLASS_ALGORITHMS)}")


def multiclass_decision(f, y_t, zero_prediction="mistake"):
    """``(s_t, mistake)``: the rival class of eq. 9 (:func:`refsvm.ogd.rival_class`, lowest index on
    ties) and whether eq. 8's prediction is wrong.

    ``"mistake"``: ``f[s_t] >= f[y_t]`` (a tie for the top predicts no class); ``"positive"``:
    ``argmax_r f[r] != y_t`` with the lowest index winning ties (MATLAB ``max``, the authors' code),
    i.e. ``f[s_t] > f[y_t]``, or ``f[s_t] = f[y_t]`` with ``s_t < y_t``.  Exact comparisons of the
    computed scores (both paths sum each score in numpy's pairwise order; they differ only through the
    1-ulp ``exp`` differences of the kernel row, so a decision can flip only at a tie perturbed by
    those, never at the exact ties of unused classes, whose scores are exactly 0 on both paths).
    """
    s_t = rival_class(f, y_t)
    if zero_prediction == "positive":
        return s_t, bool(f[s_t] > f[y_t] or (f[s_t] == f[y_t] and s_t < y_t))
    return s_t, bool(f[s_t] >= f[y_t])


def two_class_step(n_classes, y_t, s_t, c):
    """The coefficient vector of the added SV: ``+c`` for ``y_t``, ``-c`` for ``s_t``, 0 elsewhere
    (eq. 12-13)."""
    a = np.zeros(n_classes)
    a[y_t] = c
    a[s_t] = -c
    return a


class MulticlassRun(OnlineRun):
    """:class:`refsvm.online.common.OnlineRun` with one coefficient column per class: ``A`` of shape
    ``(capacity, n_classes)``; append / remove / random_slot move whole rows (one shared SV)."""

    def __init__(self, X, y, order, uniforms, s, sv, alpha, t0, options, rec, n_classes):
        n0 = 0 if sv is None else n_rows(sv)
        super().__init__(X, y, order, uniforms, s, sv, np.zeros(n0), t0, options, rec)
        self.m = n_classes
        self.A = np.zeros((self.A.shape[0], n_classes))
        self.steps = StepRecords.when_on(len(order), n_classes)   # per-step records: the m scores
        if n0:
            self.A[:n0] = np.asarray(alpha, dtype=np.float64).reshape(n0, n_classes)

    def f(self, x):
        """The scores ``f^r(x)`` (m,) and the kernel row ``k`` (``b`` kernel values; each score summed
        in numpy's pairwise order, as the binary ``f``)."""
        k = self.kernel.row(self.SV[:self.b], x)
        self.rec.kernel_values(self.b)
        f = np.array([float(np.sum(k * self.A[:self.b, r])) for r in range(self.m)])
        self.record_score(f)
        return f, k

    def class_tolerances(self, k, eps_K):
        """:func:`refsvm.online.common.margin_tolerance` of each class's score (m,): its error bound."""
        return np.array([margin_tolerance(k, self.A[:self.b, r], eps_K) for r in range(self.m)])

    def result(self, state):
        out = super().result(state)
        out.alpha = self.A[:self.b].copy()
        return out


def begin_multiclass(algorithm, X, y, order, kernel, gamma, degree, coef0, *, n_classes, sv, alpha, t0,
                     sample_weight, zero_prediction, uniforms=None, budget=None, **hyperparameters):
    """The multi-class learners' preamble (as :func:`refsvm.online.common.begin`): returns
    ``(run, options, recorder)``."""
    X, y, order, uniforms = check_multiclass_arguments(
        X, y, order, uniforms, algorithm=algorithm, n_classes=n_classes, sv=sv, alpha=alpha, budget=budget,
        kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, t0=t0, zero_prediction=zero_prediction,
        **hyperparameters)
    options = OnlineOptions(algorithm, Kernel(kernel, gamma, degree, coef0), budget=budget,
                            zero_prediction=zero_prediction, **hyperparameters)
    rec = OnlineRecorder(len(order))
    s = weights_as_data(sample_weight, X.shape[0])
    run = MulticlassRun(X, y, order, uniforms, s, sv, alpha, t0, options, rec, n_classes)
    return run, options, rec


def multiclass_perceptron(X, y, order, *, n_classes, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                          state=None, sample_weight=None, zero_prediction="mistake"):
    """Multi-class kernel perceptron, no budget (Crammer & Singer's max update; Lu et al.'s
    ``multiclass/perceptron.m``; module docstring).

    On a mistake (eq. 8 wrong, :func:`multiclass_decision`): add ``x_t`` to the shared set with
    ``+s_t`` for ``y_t`` and ``-s_t`` for the rival ``s_t`` (weight ``s_t``; 0: no step).
    Returns an :class:`OnlineResult` with ``alpha`` of shape ``(n_sv, n_classes)``.
    """
    run, o, rec = begin_multiclass("perceptron", X, y, order, kernel, gamma, degree, coef0, n_classes=n_classes,
                                   sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight,
                                   zero_prediction=zero_prediction)
    for step, x_t, y_t, w_t in run.examples():
        f_t, _ = run.f(x_t)                                # eq. 8: the m scores f^r_t(x_t)
        s_t, mistake = multiclass_decision(f_t, y_t, o.zero_prediction)   # eq. 9: the rival s_t
        rec.mistake(mistake)
        if mistake and w_t > 0.0:                          # mistake (weighted loss 0: no step)
            run.append(x_t, two_class_step(run.m, y_t, s_t, w_t))   # f^y += k(x_t, .), f^s -= k(x_t, .)
            rec.update(step, ADDED)
    return run.result({})


def multiclass_rbp(X, y, order, uniforms, *, n_classes, budget, kernel, gamma, degree, coef0, sv=None,
                   alpha=None, t0=0, state=None, sample_weight=None, zero_prediction="mistake"):
    """Multi-class randomized budget perceptron (Cavallanti et al. 2007 on the shared set; Lu et al.'s
    ``multiclass/RBP.m``; module docstring).

    On a mistake: if the shared set holds B SVs, discard the one in slot ``floor(u_t B)`` (all its
    class coefficients), then the perceptron step of :func:`multiclass_perceptron`.  ``s_t = 0``: no
    step, no discard.
    """
    run, o, rec = begin_multiclass("rbp", X, y, order, kernel, gamma, degree, coef0, n_classes=n_classes, sv=sv,
                                   alpha=alpha, t0=t0, sample_weight=sample_weight, zero_prediction=zero_prediction,
                                   uniforms=uniforms, budget=budget)
    for step, x_t, y_t, w_t in run.examples():
        f_t, _ = run.f(x_t)                                # eq. 8
        s_t, mistake = multiclass_decision(f_t, y_t, o.zero_prediction)   # eq. 9
        rec.mistake(mistake)
        if mistake and w_t > 0.0:
            if run.b == budget:                            # |S| = B: discard a random shared SV
                run.remove(run.random_slot(step), step)
            run.append(x_t, two_class_step(run.m, y_t, s_t, w_t))
            rec.update(step, ADDED)
    return run.result({})


def multiclass_ogd(X, y, order, *, n_classes, eta, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                   state=None, sample_weight=None, zero_prediction="mistake"):
    """Multi-class kernel OGD, no budget (Lu et al. 2016, eq. 9 and 12-13 without the Nystrom switch;
    ``multiclass/ogd.m``; module docstring).

    When the hinge loss ``max(0, 1 - f^{y_t} + f^{s_t})`` is positive, add ``x_t`` with
    ``+eta s_t`` for ``y_t`` and ``-eta s_t`` for the rival.  ``zero_prediction`` changes only the
    mistake count.
    """
    run, o, rec = begin_multiclass("ogd", X, y, order, kernel, gamma, degree, coef0, n_classes=n_classes, sv=sv,
                                   alpha=alpha, t0=t0, sample_weight=sample_weight, zero_prediction=zero_prediction,
                                   eta=eta)
    for step, x_t, y_t, w_t in run.examples():
        f_t, _ = run.f(x_t)                                # eq. 8
        s_t, mistake = multiclass_decision(f_t, y_t, o.zero_prediction)   # eq. 9
        rec.mistake(mistake)
        if 1.0 - f_t[y_t] + f_t[s_t] > 0.0 and w_t > 0.0:  # eq. 9: hinge loss > 0
            run.append(x_t, two_class_step(run.m, y_t, s_t, eta * w_t))   # eq. 12-13
            rec.update(step, ADDED)
    return run.result({})


def multiclass_forgetron(X, y, order, *, n_classes, budget, kernel, gamma, degree, coef0, sv=None, alpha=None,
                         t0=0, state=None, sample_weight=None, zero_prediction="mistake", variant="paper"):
    """Multi-class self-tuned Forgetron on the shared set (Dekel et al. 2008 lifted by section 5's protocol).

    On a mistake (eq. 8 wrong, :func:`multiclass_decision`; ``M <- M + 1``): the perceptron step of
    :func:`multiclass_perceptron` (``+s_t`` for ``y_t``, ``-s_t`` for the rival; the new SV gets age
    ``t``).  If the shared set then holds more than B SVs: ``r`` = the oldest SV, ``sigma`` and ``mu``
    from :func:`forgetron_margin`, shrink every class's coefficients by ``phi_t``
    (:func:`refsvm.online.forgetron_shrink`), ``Q <- Q + Psi``, remove ``r`` (all its classes).

    ``variant="paper"``: the binary rule lifted, ``mu`` the margin of ``x_r`` between its two classes
    (halved, so that with two classes this is :func:`refsvm.online.forgetron` exactly:
    ``f^1 - f^0 = 2 f`` of the binary model).  ``variant="authors"``: Lu et al.'s
    ``multiclass/forgetron.m``: ``mu = f'^{y_r}(x_r)`` (the true class's score alone) and the larger
    root of the quadratic (as the binary ``variant="authors"``).  ``state``: ``Q``, ``M``, ``age`` (as
    the binary Forgetron).  Weight ``s_t = 0``: no step.
    """
    run, o, rec = begin_multiclass("forgetron", X, y, order, kernel, gamma, degree, coef0, n_classes=n_classes,
                                   sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight,
                                   zero_prediction=zero_prediction, budget=budget, variant=variant)
    Q, M, age = forgetron_state(state, run)
    for step, x_t, y_t, w_t in run.examples():
        f_t, _ = run.f(x_t)                                # eq. 8
        s_t, mistake = multiclass_decision(f_t, y_t, o.zero_prediction)   # eq. 9
        rec.mistake(mistake)
        M += int(mistake)                                  # M_t: mistakes so far
        if mistake and w_t > 0.0:
            age[run.b] = run.t0 + step + 1                 # the new SV's age: t
            run.append(x_t, two_class_step(run.m, y_t, s_t, w_t))   # f'_t: perceptron step
            rec.update(step, ADDED)
            if run.b > budget:
                r = int(np.argmin(age[:run.b]))            # r_t: the oldest shared SV
                sigma, mu = forgetron_margin(run, r, o.authors)
                phi, psi = forgetron_shrink(sigma, mu, Q, M, variant)
                Q = forgetron_next_Q(Q, psi, phi, M)       # Q_t = Q_{t-1} + Psi
                run.A[:run.b] *= phi                       # f''_t = phi_t f'_t (every class)
                drop_slot(run, age, r, step)               # remove x_r from every class
    return run.result({"Q": Q, "M": M, "age": age[:run.b].copy()})


def forgetron_margin(run, r, authors=False):
    """``(sigma, mu)`` of the shared SV in slot ``r`` for :func:`refsvm.online.forgetron_shrink`.

    Its classes: ``y_r`` the largest coefficient, ``s_r`` the smallest (lowest index on ties); an SV
    this learner added holds ``+c`` and ``-c`` there and 0 elsewhere, so ``sigma = c``.  Paper:
    ``sigma = (a_r[y_r] - a_r[s_r]) / 2``, ``mu = (f'^{y_r}(x_r) - f'^{s_r}(x_r)) / 2``; authors:
    ``sigma = |a_r[y_r]|``, ``mu = f'^{y_r}(x_r)``.  Costs ``b`` kernel values (the scores at ``x_r``).
    """
    a_r = run.A[r]
    y_r, s_r = int(np.argmax(a_r)), int(np.argmin(a_r))
    f_r, _ = run.f(run.SV[r])
    if authors:
        return abs(float(a_r[y_r])), float(f_r[y_r])
    return 0.5 * float(a_r[y_r] - a_r[s_r]), 0.5 * float(f_r[y_r] - f_r[s_r])


def drop_slot(run, age, r, step):
    """remove(r) of the shared set, the ages following the slots (the last SV moves into ``r``)."""
    age[r] = age[run.b - 1]
    run.remove(r, step)


def multiclass_bogd(X, y, order, uniforms, *, n_classes, budget, eta, lam, max_coef, kernel, gamma, degree, coef0,
                    sv=None, alpha=None, t0=0, state=None, sample_weight=None, zero_prediction="mistake",
                    variant="paper"):
    """Multi-class BOGD on the shared set (Zhao et al. 2012 lifted by section 5's protocol).

    Every step shrinks every class, ``f^r <- (1 - eta lambda) f^r``.  On a positive hinge loss
    ``1 - f^{y_t} + f^{s_t} > 0`` (eq. 9): below the budget shrink and add ``x_t`` with ``+eta s_t``
    for ``y_t`` and ``-eta s_t`` for the rival (eq. 12-13).  With B shared SVs:

    * ``variant="paper"`` (the binary :func:`refsvm.online.bogd` lifted): discard the SV in slot
      ``floor(u_t B)`` (uniform sampling, all its classes), rescale the others by
      ``B (1 - eta lambda) / (B - 1)`` clipping each coefficient's magnitude at ``eta max_coef``
      (sign kept), then add ``x_t``;
    * ``variant="authors"`` (Lu et al.'s ``multiclass/BOGD.m``): discard the OLDEST SV, shrink without
      rescaling, add ``x_t``, then clip every coefficient from above only,
      ``alpha <- min(alpha, eta max_coef)`` (negative ones unbounded).

    ``uniforms`` is read by ``"paper"`` only.  ``state``: ``age`` (one per SV; as the Forgetron's).
    ``zero_prediction`` changes only the mistake count.  Weight ``s_t = 0``: a plain shrink.
    """
    run, o, rec = begin_multiclass("bogd", X, y, order, kernel, gamma, degree, coef0, n_classes=n_classes, sv=sv,
                                   alpha=alpha, t0=t0, sample_weight=sample_weight, zero_prediction=zero_prediction,
                                   uniforms=uniforms, budget=budget, variant=variant, eta=eta, lam=lam,
                                   max_coef=max_coef)
    _, _, age = forgetron_state(state, run)
    shrink, bound = 1.0 - eta * lam, eta * max_coef
    for step, x_t, y_t, w_t in run.examples():
        f_t, _ = run.f(x_t)                                # eq. 8
        s_t, mistake = multiclass_decision(f_t, y_t, o.zero_prediction)   # eq. 9
        rec.mistake(mistake)
        if 1.0 - f_t[y_t] + f_t[s_t] > 0.0 and w_t > 0.0:  # eq. 9: hinge loss > 0
            rec.update(step, ADDED)
            full = run.b == budget
            if full:
                rescale = bogd_discard(run, age, step, o.authors, shrink)   # discard one shared SV
            run.A[:run.b] *= shrink if not full or o.authors else 1.0
            if full and not o.authors:
                a = run.A[:run.b]                          # rescale, |alpha| clipped at eta max_coef
                run.A[:run.b] = np.sign(a) * np.minimum(rescale * np.abs(a), bound)
            age[run.b] = run.t0 + step + 1
            run.append(x_t, two_class_step(run.m, y_t, s_t, eta * w_t))   # eq. 12-13
            if full and o.authors:
                np.minimum(run.A[:run.b], bound, out=run.A[:run.b])   # BOGD.m: min(alpha, eta gamma)
        else:
            run.A[:run.b] *= shrink
    return run.result({"age": age[:run.b].copy()})


def bogd_discard(run, age, step, authors, shrink):
    """BOGD's removal on a full shared set: the SV in slot ``floor(u_t B)`` (paper) or the oldest one
    (authors, ``BOGD.m``); returns the paper's rescaling factor ``B (1 - eta lambda) / (B - 1)``."""
    B = run.b
    drop_slot(run, age, int(np.argmin(age[:B])) if authors else run.random_slot(step), step)
    return B * shrink / (B - 1)


def multiclass_bpas(X, y, order, *, n_classes, budget, C, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                    state=None, sample_weight=None, zero_prediction="mistake"):
    """Multi-class BPA-S on the shared set (Wang & Vucetic 2010 lifted by section 5's protocol; Lu et
    al.'s ``multiclass/BPAs.m``).

    With the hinge loss ``l_t = max(0, 1 - f^{y_t} + f^{s_t}) > 0`` (eq. 9): the multi-class PA-I step
    ``tau_t = min(C s_t, l_t / (2 k(x_t, x_t)))`` (the update ``+tau`` for ``y_t``, ``-tau`` for ``s_t``
    has squared norm ``2 tau^2 k_tt``; Crammer et al. 2006).  Below the budget add ``x_t`` with it.
    With B shared SVs, every candidate ``r`` is removed and its coefficient vector projected onto
    ``x_t``, ``beta_r = a_r k_rt / k_tt + tau (e_{y_t} - e_{s_t})``; the ``r`` least in
    ``Q_r = 1/2 ||f_r - f_t||^2 + C s_t l(f_r; x_t, y_t)`` (``||.||^2`` summed over the classes, the
    loss of eq. 9 with the rival of ``f_r``) is replaced by ``(x_t, beta_r)``
    (:func:`bpas_replacement`).

    ``BPAs.m`` takes ``tau = min(C, l_t / 2)``, ``beta_r = a_r k_rt + ...`` and ``||f_r - f_t||^2 =
    |a_r|^2 + |beta_r|^2 - 2 a_r . beta_r k_rt``: this rule for ``k(x, x) = 1`` (the Gaussian kernel it
    runs), so no ``variant``.  Decisions on computed numbers, both paths: the step is taken iff ``l_t``
    exceeds the error bound of ``f^{y_t} - f^{s_t}`` (a step leaves the margin at exactly 1, so a
    repeated row meets rounding noise), candidates within their rounding bounds of the least ``Q_r``
    tie and the lowest slot wins (as the binary :func:`refsvm.online.bpas`).  ``zero_prediction``
    changes only the mistake count.  Weight ``s_t = 0``, or ``k(x_t, x_t)`` within its error bound of
    0: no step (:func:`refsvm.online.passive_aggressive.pa_step`).
    """
    run, o, rec = begin_multiclass("bpas", X, y, order, kernel, gamma, degree, coef0, n_classes=n_classes, sv=sv,
                                   alpha=alpha, t0=t0, sample_weight=sample_weight, zero_prediction=zero_prediction,
                                   budget=budget, C=C)
    for step, x_t, y_t, w_t in run.examples():
        C_t = C * w_t                                      # PA-I on the weighted loss
        f_t, k_t = run.f(x_t)                              # eq. 8
        s_t, mistake = multiclass_decision(f_t, y_t, o.zero_prediction)   # eq. 9
        rec.mistake(mistake)
        eps_K = run.kernel_error(x_t)                      # one kernel value's error bound
        f_err = run.class_tolerances(k_t, eps_K)           # each score's error bound
        loss = max(0.0, 1.0 - f_t[y_t] + f_t[s_t])
        tau, k_tt = pa_step(run, x_t, loss, f_err[y_t] + f_err[s_t], C_t, eps_K, scale=2.0)   # None: no step
        if tau is not None:                                # multi-class PA-I step
            rec.update(step, ADDED)
            step_vec = two_class_step(run.m, y_t, s_t, tau)
            if run.b < budget:
                run.append(x_t, step_vec)
            else:
                r, beta = bpas_replacement(run, k_t, f_t, f_err, y_t, step_vec, k_tt, tau, C_t, eps_K)
                run.replace(r, x_t, beta, step)            # x_r's projection and the step, in its slot
    return run.result({})


def bpas_replacement(run, k, f_t, f_err, y_t, step_vec, k_tt, tau, C_t, eps_K):
    """``(r, beta_r)``: the candidate of :func:`multiclass_bpas` with the least ``Q_r`` (ties within
    the rounding bounds: the lowest slot, :func:`refsvm.online.passive_aggressive.least_objective`).

    ``||f_r - f_t||^2`` sums the classes' ``a^2 k_rr + beta^2 k_tt - 2 a beta k_rt`` in class order
    (both paths).  Error bound of ``Q_r``: each class's terms bounded as the binary BPA-S's
    (:func:`refsvm.online.passive_aggressive.bpas_term_errors`; ``tau`` in every class's ``beta``
    bound, above the truth for the classes the step leaves alone), the loss's by ``e_fr`` of ``y_t``
    plus the largest of the others, doubled with the ``2 u (|Q_r| + C_t)`` of the last operations
    (the binary :func:`refsvm.online.passive_aggressive.bpas_tie_tolerance`).
    """
    k_rr = run.k_rr()[:, None]
    a, kc = run.A[:run.b], k[:, None]
    beta = a * kc / k_tt + step_vec                        # x_r's projection onto x_t, plus the step
    terms = a * a * k_rr + beta * beta * k_tt - 2.0 * a * beta * kc
    f_r = f_t - a * kc + beta * k_tt                       # f_r^c(x_t), every class
    others = np.delete(np.arange(run.m), y_t)
    loss = np.maximum(0.0, 1.0 - f_r[:, y_t] + np.max(f_r[:, others], axis=1))
    e_dist, e_fr = bpas_term_errors(a, kc, k_rr, k_tt, beta, f_t, tau, f_err, eps_K)
    dist, e_sum = terms[:, 0].copy(), e_dist[:, 0].copy()
    for c in range(1, run.m):                              # class order (the twin sums alike)
        dist += terms[:, c]
        e_sum += e_dist[:, c]
    Q = 0.5 * dist + C_t * loss
    tol = 2.0 * (0.5 * e_sum + C_t * (e_fr[:, y_t] + np.max(e_fr[:, others], axis=1))
                 + 2.0 * UNIT_ROUNDOFF * (np.abs(Q) + C_t))
    r = least_objective(Q, tol)
    return r, beta[r].copy()


def multiclass_projectron(X, y, order, *, n_classes, eta, budget, plusplus, kernel, gamma, degree, coef0, sv=None,
                          alpha=None, t0=0, state=None, sample_weight=None, zero_prediction="mistake",
                          variant="paper"):
    """Multi-class Projectron / Projectron++ on the shared set (Orabona et al. 2009 lifted by section 5's
    protocol; Lu et al.'s ``multiclass/projectron.m`` and ``proplus.m``).

    One Cholesky factor ``K = L L'`` of the shared set (:class:`refsvm.online.projection.SpanFactor`,
    the binary learner's) and one coefficient column per class.  The step's kernel function
    ``k(x_t, .)`` enters two classes, ``+c`` for ``y_t`` and ``-c`` for the rival ``s_t``; a projected
    step puts ``P k(x_t, .) = sum_j d*_j k(x_j, .)`` there instead (:func:`project_two_classes`; the
    span of the shared set is the same for every class, so one ``d* = K^{-1} k_t`` serves both).

    * mistake (eq. 8 wrong, :func:`multiclass_decision`): project with ``c = s_t`` (weight) when
      :func:`refsvm.online.projection.projects_mistake` says so (``delta_t <= eta``, B SVs held, or
      ``x_t`` in the span), else add ``x_t`` with ``+-s_t`` (``L`` grows by a row);
    * Projectron++ only, margin error (no mistake, :func:`multiclass_margin_error`): with the margin
      ``g`` and ``l = 1 - g``, ``tau = min(l / ||P k_t||^2, s_t)``; if
      ``tau (2 l - tau ||P k_t||^2 - penalty) >= 0`` project with ``c = tau`` (never adds an SV).

    ``variant="paper"`` (the binary paper lifted so that two classes are :func:`refsvm.online.projectron`
    exactly, as :func:`multiclass_forgetron`'s): ``g = (f^{y_t} - f^{s_t}) / 2`` (with two classes
    ``f^1 - f^0 = 2 f`` of the binary model), a margin error needs ``0 < g < 1``, penalty
    ``2 delta_t / eta``.  ``variant="authors"`` (``proplus.m``, ``projectron.m``; an integer ``budget``
    required): mistakes add below B SVs and are projected at B (``eta`` unused), ``g = f^{y_t} -
    f^{s_t}`` and a margin error is ``l_t = max(0, 1 - g) > 0`` without a mistake, penalty
    ``2 U delta_t`` (:func:`refsvm.online.projectron_U`).  The code's ``norm_delta_t`` is computed
    with ``K^{-1}`` grown by rank-one updates and ``Kid`` of the first SV (1 for the Gaussian kernel
    it runs); here both variants use the binary learner's factor, span test and tolerances (its
    docstring and DESIGN.md, "Discrete decisions"): a margin within rounding of 1 is no margin error,
    the bound of ``g`` being the sum (paper: the mean) of the two scores' bounds.
    ``state``: ``L`` and ``diag_max`` (the binary Projectron's).  Weight ``s_t = 0``: no step.
    """
    run, o, rec = begin_multiclass("projectron++" if plusplus else "projectron", X, y, order, kernel, gamma, degree,
                                   coef0, n_classes=n_classes, sv=sv, alpha=alpha, t0=t0, sample_weight=sample_weight,
                                   zero_prediction=zero_prediction, budget=budget, variant=variant, eta=eta)
    factor = initial_factor(run, state)                    # K = L L' of the shared set
    for step, x_t, y_t, w_t in run.examples():
        f_t, k_t = run.f(x_t)                              # eq. 8
        s_t, mistake = multiclass_decision(f_t, y_t, o.zero_prediction)   # eq. 9
        rec.mistake(mistake)
        margin_err, margin = (False, 0.0) if mistake or not plusplus else \
            multiclass_margin_error(run, k_t, f_t, y_t, s_t, o.authors)
        if w_t > 0.0 and (mistake or margin_err):
            b = run.b
            span = factor.project(k_t, run.k_tt(x_t))      # d* = K^{-1} k_t, ||P k_t||^2, delta_t^2
            if mistake:
                if projects_mistake(o, span, b):
                    project_two_classes(run, span.d_star, y_t, s_t, w_t)   # f^y += s_t P k_t, f^s -= s_t P k_t
                    rec.update(step, PROJECTED)
                else:
                    factor.append(span)                    # L grows by the row [z', delta_t]
                    run.append(x_t, two_class_step(run.m, y_t, s_t, w_t))
                    rec.update(step, ADDED)
            elif (tau := margin_step(o, span, b, 1.0 - margin, w_t)) is not None:   # Projectron++: margin error
                project_two_classes(run, span.d_star, y_t, s_t, tau)   # f^y += tau P k_t, f^s -= tau P k_t
                rec.update(step, PROJECTED)
    return run.result(factor.state())


def multiclass_margin_error(run, k_t, f_t, y_t, s_t, authors):
    """``(margin_error, g)`` of :func:`multiclass_projectron` (no mistake made): paper ``g = (f^{y_t} -
    f^{s_t}) / 2`` and ``0 < g < 1 - tol``, authors ``g = f^{y_t} - f^{s_t}`` and ``g < 1 - tol``.
    ``tol``: the error bound of ``g``, the two scores' :func:`refsvm.online.common.margin_tolerance`
    (``run.eps_K``, as the binary :func:`refsvm.online.projection.margin_error`) summed, halved for
    the paper's ``g``; evaluated only when ``g < 1``."""
    g = f_t[y_t] - f_t[s_t] if authors else 0.5 * (f_t[y_t] - f_t[s_t])
    if not (g < 1.0 and (authors or g > 0.0)):
        return False, g
    tol = (margin_tolerance(k_t, run.A[:run.b, y_t], run.eps_K)
           + margin_tolerance(k_t, run.A[:run.b, s_t], run.eps_K))
    return g < 1.0 - (tol if authors else 0.5 * tol), g


def project_two_classes(run, d_star, y_t, s_t, c):
    """``f^{y_t} += c P k(x_t, .)``, ``f^{s_t} -= c P k(x_t, .)``: ``alpha[:, y_t] += c d*``,
    ``alpha[:, s_t] -= c d*`` (the other classes unchanged)."""
    b = run.b
    step = c * d_star
    run.A[:b, y_t] += step
    run.A[:b, s_t] -= step
