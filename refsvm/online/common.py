"""What the eight online learners share: the preamble, the options, the pass and its recorder.

Every learner of :mod:`refsvm.online` opens with one call, :func:`begin`, which

* checks the arguments the learner has (no others: :func:`refsvm.validation.check_online_arguments`),
* resolves the options once into a frozen :class:`OnlineOptions` (the reference's
  mirror of the twin's ``Params`` struct in :mod:`refsvm._fast.online`),
* turns ``sample_weight`` into data (:func:`refsvm.validation.weights_as_data`: ones when
  absent, so ``s_t`` stands on the update line without a branch), and
* returns the :class:`OnlineRun` (the examples in ``order``, the model ``f_t`` as
  support vectors and coefficients) and its :class:`OnlineRecorder` (the trace).

The learners' loops then hold the update rules only.
"""

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..constants import EXP_OVERFLOW_ARGUMENT, EXP_UNDERFLOW_ARGUMENT, TINY_KERNEL_ERROR, UNIT_ROUNDOFF
from ..kernels import Kernel, kernel_value_error_over
from ..recorder import NoStepRecords, Recorder, StepRecords
from ..sparse import n_rows, new_sv_storage
from ..validation import ONLINE_ALGORITHMS, check_online_arguments, weights_as_data

#: The learners, by the name the estimator and ``refsvm reproduce`` use (defined once, in validation).
ALGORITHMS = ONLINE_ALGORITHMS

#: ``update_kind`` of the trace, per step: nothing changed, an SV was added, coefficients
#: changed without adding an SV (a projection).
NO_UPDATE, ADDED, PROJECTED = 0, 1, 2


def is_mistake(y_t, f_t, zero_prediction="mistake", tol=0.0):
    """Whether the prediction of ``f_t`` for label ``y_t`` is wrong.

    ``"mistake"``: ``y_t f_t <= 0`` (a value of 0 predicts nothing, so it is
    wrong for both labels).  ``"positive"``: ``sign(f_t) != y_t`` with
    ``sign(0) = +1`` (Lu et al.'s code), i.e. ``f_t < 0`` for ``y_t = +1`` and
    ``f_t >= 0`` for ``y_t = -1``.

    ``tol`` (>= 0): a bound of the rounding error of the computed ``f_t``
    (:meth:`OnlineRun.margin_tolerance`); a value within ``tol`` of 0 is read as 0
    (``"mistake"``: ``y_t f_t <= tol``; ``"positive"``: ``f_t < -tol`` for ``y_t = +1``,
    ``f_t >= -tol`` for ``y_t = -1``).  ``tol = 0`` is the exact comparison.
    """
    if zero_prediction == "positive":
        return f_t < -tol if y_t > 0 else f_t >= -tol
    return y_t * f_t <= tol


def kernel_error_over_rows(X, sv, kernel):
    """``eps_K``: a bound of the absolute rounding error of one kernel value between rows of ``X`` and
    of ``sv`` (None: none), both paths (:func:`kernel_value_error_at` with ``M`` the largest squared
    norm; one O(nnz) pass over ``X``)."""
    return kernel_value_error_at(X.shape[1], max(_max_sq_norm(X), _max_sq_norm(sv)), kernel)


class KernelError(float):
    """``eps_K``, the absolute error bound of one kernel value (it *is* that float), carrying
    ``rel``: for the Gaussian kernel a bound of the *relative* error of a computed value ``k``,
    ``|k - k_exact| <= rel k +`` :data:`TINY_KERNEL_ERROR` (``math.inf`` for the other kernels).

    Error bound of ``rel``: ``k = exp(-x)`` with ``x = gamma d^2``; the squared distance errs by at
    most ``delta = 2 (d + 2) u M`` (:func:`refsvm.kernels.kernel_value_error`), the product
    ``gamma d^2`` by ``u x`` with ``x <= 746`` (:data:`refsvm.constants.EXP_UNDERFLOW_ARGUMENT`: else
    ``k`` underflows to 0), so the exponent by at most ``z = gamma delta + 746 u`` and ``exp(-x)`` by the factor ``e^(+-z)``; exp itself adds 2
    ulps, ``4 u k``: ``rel = (1 + 4 u) expm1(z) + 4 u``.  A tiny ``k`` (distant rows of unscaled
    data) is thus known to a few ulps of itself, where the absolute bound ``eps_K`` would swamp it.
    """

    def __new__(cls, eps, rel=math.inf):
        obj = super().__new__(cls, eps)
        obj.rel = rel
        return obj


def gaussian_relative_error(d, M, gamma):
    """:attr:`KernelError.rel` for rows of ``d`` features and squared norms at most ``M`` (the twin
    evaluates the same expression in C)."""
    z = float(gamma) * 2.0 * (d + 2) * UNIT_ROUNDOFF * M + EXP_UNDERFLOW_ARGUMENT * UNIT_ROUNDOFF
    if not z < EXP_OVERFLOW_ARGUMENT:     # no relative bound worth the name (C's expm1 gives inf too)
        return math.inf
    return (1.0 + 4.0 * UNIT_ROUNDOFF) * math.expm1(z) + 4.0 * UNIT_ROUNDOFF


def kernel_value_error_at(d, M, kernel):
    """``eps_K``: a bound of the absolute rounding error of one kernel value between rows of ``d``
    features and squared norms at most ``M``, both paths (:func:`refsvm.kernels.kernel_value_error`,
    which depends on the rows through ``d`` and ``max ||x||^2`` only, evaluated on one such row; the
    twin evaluates the same expression in C), as a :class:`KernelError` (the Gaussian kernel's
    relative bound too)."""
    row = np.zeros((1, d))
    row[0, 0] = math.sqrt(M) * (1.0 + 4.0 * UNIT_ROUNDOFF)   # ||row||^2 >= M despite the rounding
    rel = gaussian_relative_error(d, float(row[0, 0]) ** 2, kernel.gamma) if kernel.kind == "rbf" else math.inf
    return KernelError(kernel_value_error_over(kernel, row), rel)


def _sq_norm(x):
    """``||x||^2`` of one row (dense or sparse)."""
    if sp.issparse(x):
        return float(x.multiply(x).sum())
    x = np.asarray(x, dtype=np.float64).ravel()
    return float(np.dot(x, x))


def _max_sq_norm(S):
    """``max_j ||s_j||^2`` of the rows of ``S`` (dense or sparse; 0 for None or no rows)."""
    if S is None or n_rows(S) == 0:
        return 0.0
    if sp.issparse(S):
        S = sp.csr_matrix(S)
        return float(np.max(np.asarray(S.multiply(S).sum(axis=1))))
    S = np.asarray(S, dtype=np.float64)
    return float(np.max(np.einsum("ij,ij->i", S, S)))


def margin_tolerance(k, a, eps_K):
    """The tie tolerance of a decision on ``f = sum_j a_j k_j`` (``b`` terms; both paths):
    ``2 ((b + 2) u S_ak + min(eps_K S_a, rel S_ak + tiny S_a))`` with ``S_ak = sum_j |a_j k_j|``,
    ``S_a = sum_j |a_j|``, ``rel = eps_K.rel`` and ``tiny`` = :data:`TINY_KERNEL_ERROR`.

    Error bound: any summation order of ``b`` products errs by at most ``(b + 1) u`` times the sum of
    their magnitudes (plus ``u`` per product), and each kernel value by at most ``eps_K``
    (:func:`kernel_error_over_rows`), which moves ``f`` by at most ``eps_K S_a``; a Gaussian kernel value
    also by at most ``rel k_j + tiny`` (:class:`KernelError`), which moves ``f`` by at most
    ``rel S_ak + tiny S_a``: both bounds hold, the smaller is taken (the relative one where the
    kernel values are small: a margin of distant rows keeps its sign).  Twice that covers the two
    paths, whose coefficients and kernel values may be a few ulps apart.  ``f`` of an empty model is
    exactly 0 with tolerance 0.  ``a`` may have several columns (sums over all of them).
    """
    b = a.shape[0]
    if b == 0:
        return 0.0
    s_ak, s_a = float(np.sum(np.abs(a * k))), float(np.sum(np.abs(a)))
    value_error = eps_K * s_a
    rel = getattr(eps_K, "rel", math.inf)
    if rel < math.inf:
        value_error = min(value_error, rel * s_ak + TINY_KERNEL_ERROR * s_a)
    return 2.0 * ((b + 2) * UNIT_ROUNDOFF * s_ak + value_error)


def projectron_U(budget):
    """``U = 1/4 sqrt((B + 1) / ln(B + 1))``, the constant Lu et al.'s Projectron++ code puts where the
    paper has ``1 / eta`` in the margin-error condition."""
    return 0.25 * math.sqrt((budget + 1.0) / math.log(budget + 1.0))


@dataclass(frozen=True)
class OnlineOptions:
    """The resolved options of one call (checked once, before the loop; the twin's ``Params``).

    A learner's hyperparameters it does not have stay ``None``.
    """

    algorithm: str
    kernel: Kernel
    budget: object = None             #: int B, or None (perceptron, OGD; the paper's Projectron)
    eta: float = None
    lam: float = None
    C: float = None
    max_coef: float = None
    zero_prediction: str = "mistake"
    variant: str = "paper"
    authors: bool = field(init=False)  #: variant="authors": Lu et al.'s released code where it differs
    U: float = field(init=False)       #: Projectrons, variant="authors": projectron_U(B) in place of 1/eta

    def __post_init__(self):
        authors = self.variant == "authors"
        object.__setattr__(self, "authors", authors)
        object.__setattr__(self, "U", projectron_U(self.budget)
                           if authors and self.algorithm.startswith("projectron") else 0.0)

    def is_mistake(self, y_t, f_t, tol=0.0):
        """:func:`is_mistake` under this call's ``zero_prediction`` (``tol``: ``f_t``'s error bound)."""
        return is_mistake(y_t, f_t, self.zero_prediction, tol)


@dataclass
class OnlineResult:
    """What one pass of an online learner returns (both backends)."""

    sv: np.ndarray        #: support vectors, shape (n_sv, d)
    alpha: np.ndarray     #: coefficients, shape (n_sv, 1)
    bias: np.ndarray      #: always zeros(1) (no learner here has a bias)
    t: int                #: index of the last step taken
    state: dict = field(default_factory=dict)   #: learner state to continue from
    trace: dict = field(default_factory=dict)   #: diagnostics (module docstring of refsvm.online)


class OnlineRecorder(Recorder):
    """The trace of one pass (keys in the module docstring of :mod:`refsvm.online`)."""

    counters = ("mistakes", "updates", "kernel_evaluations")
    flags = ("update_kind",)
    events = {"removal_step": np.int64, "removal_index": np.int64}

    def __init__(self, n_steps):
        super().__init__(n_steps)
        self.n_sv = np.zeros(self.n_steps, dtype=np.int64)

    def mistake(self, made=True):
        """A step whose prediction was wrong (counted before the update, unweighted)."""
        self.count("mistakes", int(made))

    def kernel_values(self, n):
        """``n`` kernel values computed (the papers' unit of cost)."""
        self.count("kernel_evaluations", n)

    def update(self, step, kind):
        """The loss triggered an update at ``step``: an SV ``ADDED`` or coefficients ``PROJECTED``."""
        self.count("updates")
        self.mark("update_kind", step, kind)

    def removal(self, step, slot):
        """The SV in ``slot`` was discarded (or replaced, BPA-S) at ``step``."""
        self.append(removal_step=step, removal_index=slot)

    def size(self, step, n_sv):
        """The number of SVs after ``step``."""
        self.n_sv[step] = n_sv

    def trace(self):
        return self.assemble(self.counts["mistakes"], self.n_steps, self.counts["updates"],
                             self.counts["kernel_evaluations"], self.step_flags["update_kind"], self.n_sv,
                             np.array(self.columns["removal_step"], dtype=np.int64),
                             np.array(self.columns["removal_index"], dtype=np.int64))

    @staticmethod
    def assemble(mistakes, n_steps, updates, kernel_evaluations, update_kind, n_sv, removal_step,
                 removal_index):
        """The trace dict from its parts (both paths: the twin's counters arrive here once per call)."""
        return {
            "mistakes": int(mistakes),
            "n_steps": int(n_steps),
            "updates": int(updates),
            "removals": len(removal_step),
            "kernel_evaluations": int(kernel_evaluations),
            "update_kind": update_kind,
            "n_sv": n_sv,
            "removal_step": removal_step,
            "removal_index": removal_index,
        }


class OnlineRun:
    """One pass: the examples in ``order`` with their weights and uniforms, and the model
    ``f_t(x) = sum_j alpha_j k(x_j, x)``: SV slots ``SV`` and coefficients ``A`` with room for
    ``capacity`` SVs, ``b`` of them in use (module docstring of :mod:`refsvm.online`: append,
    remove(p), replace)."""

    #: Per-step records (opt-in, :func:`refsvm.recorder.recording_steps`): the first ``f`` of each step
    #: is ``f_t(x_t)``, recorded as the step's score (False: a learner whose ``f`` is no margin).
    records_scores = True

    def __init__(self, X, y, order, uniforms, s, sv, alpha, t0, options, rec):
        self.X, self.y, self.order, self.uniforms, self.s, self.t0 = X, y, order, uniforms, s, t0
        self.kernel, self.rec = options.kernel, rec
        n0 = 0 if sv is None else n_rows(sv)
        capacity = capacity_for(n0, len(order), options.budget)
        self.SV = new_sv_storage(capacity, X)            # sparse X: sparse SV slots (refsvm.sparse)
        self.A = np.zeros(capacity)
        if n0:
            self.SV[:n0] = sv
            self.A[:n0] = np.asarray(alpha, dtype=np.float64).reshape(-1)
        self.b = n0
        self.sq_max = _max_sq_norm(sv)                    # max ||x||^2 over the SVs held so far
        self.n0, self._eps_K = n0, None
        self.steps = StepRecords.when_on(len(order), 1) if self.records_scores else NoStepRecords()
        self._unscored = False                            # the step's f_t(x_t) is not recorded yet

    def examples(self):
        """``(step, x_t, y_t, s_t)`` for each step of the pass (``step`` indexes ``order``;
        the paper's ``t`` is ``t0 + step + 1``); after the step its number of SVs is recorded."""
        for step, i in enumerate(self.order):
            self._unscored = True
            yield step, self.X[i], int(self.y[i]), float(self.s[i])
            self.rec.size(step, self.b)

    def f(self, x):
        """``f(x) = sum_j alpha_j k(x_j, x)`` and the kernel row ``k`` (``b`` kernel values)."""
        k = self.kernel.row(self.SV[:self.b], x)
        self.rec.kernel_values(self.b)
        f = float(np.sum(k * self.A[:self.b]))           # pairwise sum (the fast path sums alike)
        self.record_score(f)
        return f, k

    def record_score(self, f):
        """Per-step records (opt-in): the step's first ``f``, ``f_t(x_t)`` of the model before the update
        (every learner scores ``x_t`` first; a later ``f`` of the step, the Forgetron's ``f'_t(x_r)``, is not
        recorded).  A copy of the loop's value: nothing is recomputed."""
        if self._unscored:
            self.steps.margin(f)
            self._unscored = False

    @property
    def eps_K(self):
        """:func:`kernel_error_over_rows` over ``X`` and the SVs passed in (computed once, on first use)."""
        if self._eps_K is None:
            self._eps_K = kernel_error_over_rows(self.X, self.SV[:self.n0], self.kernel)
        return self._eps_K

    def kernel_error(self, x):
        """``eps_K`` of the kernel values between ``x`` and the SVs (:func:`kernel_value_error_at` with
        ``M`` the largest squared norm of ``x`` and of every SV held so far in this call)."""
        return kernel_value_error_at(self.X.shape[1], max(self.sq_max, _sq_norm(x)), self.kernel)

    def margin_tolerance(self, k, eps_K=None):
        """:func:`margin_tolerance` of ``f(x)`` from its kernel row ``k`` (the current coefficients);
        ``eps_K``: the kernel values' error bound (None: :attr:`eps_K`)."""
        return margin_tolerance(k, self.A[:self.b], self.eps_K if eps_K is None else eps_K)

    def k_tt(self, x):
        """``k(x, x)`` (one kernel value)."""
        self.rec.kernel_values(1)
        return float(self.kernel.diag(x.reshape(1, -1))[0])

    def k_rr(self):
        """``k(x_j, x_j)`` of every SV (``b`` kernel values)."""
        self.rec.kernel_values(self.b)
        return self.kernel.diag(self.SV[:self.b])

    def append(self, x, a):
        """Add ``x`` with coefficient ``a`` in slot ``b``."""
        self.SV[self.b] = x
        self.A[self.b] = a
        self.b += 1
        self.sq_max = max(self.sq_max, _sq_norm(x))

    def remove(self, p, step):
        """remove(p): the last SV moves into slot ``p``."""
        last = self.b - 1
        self.SV[p] = self.SV[last]
        self.A[p] = self.A[last]
        self.b = last
        self.rec.removal(step, p)

    def replace(self, r, x, a, step):
        """The SV in slot ``r`` becomes ``x`` with coefficient ``a``."""
        self.SV[r] = x
        self.A[r] = a
        self.sq_max = max(self.sq_max, _sq_norm(x))
        self.rec.removal(step, r)

    def random_slot(self, step):
        """The slot discarded by uniform sampling: ``floor(u_t b)`` (``u_t = uniforms[step]``)."""
        return min(int(self.uniforms[step] * self.b), self.b - 1)

    def result(self, state):
        """The :class:`OnlineResult` of the pass, continuing from ``state``."""
        return OnlineResult(sv=self.SV[:self.b].copy(), alpha=self.A[:self.b].reshape(-1, 1).copy(),
                            bias=np.zeros(1), t=int(self.t0 + len(self.order)), state=state,
                            trace={**self.rec.trace(), **self.steps.trace()})


def capacity_for(n0, n_steps, budget):
    """SV slots a call needs: ``n0`` held plus at most one new SV per step, within the budget, plus one."""
    arriving = n0 + n_steps                       # at most one new SV per step: a larger budget is never full
    return arriving + 1 if budget is None else min(max(budget, n0), arriving) + 1


def begin(algorithm, X, y, order, kernel, gamma, degree, coef0, *, sv, alpha, t0, sample_weight,
          zero_prediction, uniforms=None, budget=None, variant="paper", **hyperparameters):
    """The preamble every learner opens with: returns ``(run, options, recorder)``.

    ``hyperparameters``: those the learner has (``eta``, ``lam``, ``C``, ``max_coef``), checked
    by :func:`refsvm.validation.check_online_arguments` with the rest, once per call.
    """
    X, y, order, uniforms = check_online_arguments(
        X, y, order, uniforms, algorithm=algorithm, budget=budget, kernel=kernel, gamma=gamma, degree=degree,
        coef0=coef0, sv=sv, alpha=alpha, t0=t0, zero_prediction=zero_prediction, variant=variant,
        **hyperparameters)
    # Kernel(...), not Kernel.of: the parameters exactly as given (of() converts their types)
    options = OnlineOptions(algorithm, Kernel(kernel, gamma, degree, coef0), budget=budget,
                            zero_prediction=zero_prediction, variant=variant, **hyperparameters)
    rec = OnlineRecorder(len(order))
    s = weights_as_data(sample_weight, X.shape[0])
    return OnlineRun(X, y, order, uniforms, s, sv, alpha, t0, options, rec), options, rec
