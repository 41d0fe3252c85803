"""IDSVM, the incremental SVM of Cauwenberghs & Poggio (2000): the exact online baseline (reference).

Wang, Crammer & Vucetic (2012) list IDSVM in Table 3 as the online algorithm "which achieves the
optimal solution": after each example the model is the SVM of every example seen so far.  The
paper (Cauwenberghs & Poggio, "Incremental and decremental support vector machine learning",
NIPS 2000) is not in the shared folder; this module follows its equations as they are widely
restated (the numbers below are that paper's equation numbers), with the choices it leaves open
named.  The compiled twin is :mod:`refsvm._fast.idsvm` (same function, same signature, same
decisions).

The dual, with ``Q_ij = y_i y_j k(x_i, x_j)`` and one box ``0 <= alpha_i <= C_i`` per example::

    W = 1/2 sum_ij alpha_i Q_ij alpha_j - sum_i alpha_i + b sum_i y_i alpha_i           (1)
    g_i = dW/dalpha_i = sum_j Q_ij alpha_j + y_i b - 1 = y_i f(x_i) - 1                  (2)
    h = dW/db = sum_j y_j alpha_j = 0

KKT splits the examples into three sets: the margin vectors S (``g_i = 0``, ``0 <= alpha_i <= C_i``),
the error vectors E (``g_i <= 0``, ``alpha_i = C_i``) and the reserve R (``g_i >= 0``, ``alpha_i = 0``).
A new example ``c`` enters with ``alpha_c = 0``; if ``g_c >= 0`` it joins R and nothing changes.
Otherwise ``alpha_c`` grows while every other example keeps its KKT condition: the margin vectors'
coefficients and ``b`` move along ``beta`` (eq. 7-8)::

    [Delta b; Delta alpha_S] = beta Delta alpha_c,   beta = -Rinv [y_c; Q_Sc],
    Rinv = [[0, y_S^T], [y_S, Q_SS]]^-1,

and every gradient along ``gamma`` (eq. 9-10)::

    Delta g_i = gamma_i Delta alpha_c,   gamma_i = Q_ic + sum_{j in S} Q_ij beta_j + y_i beta_b
    (0 for i in S).

The step ``Delta alpha_c`` is the largest for which no condition breaks (the *bookkeeping*, eq. 11);
the first condition to bind ends it: ``g_c`` reaches 0 (c joins S: done), ``alpha_c`` reaches
``C_c`` (c joins E: done), a margin vector's ``alpha_j`` reaches 0 or ``C_j`` (it moves to R or
E), or an error or reserve vector's ``g_i`` reaches 0 (it joins S).  ``Rinv`` follows S by the
rank-one formulas (eq. 12-13), and the next step starts from the new sets.

Choices the paper leaves open (this module's, both paths):

* **No margin vector.**  When S is empty (the first examples, or after the last margin vector
  left), eq. 7-8 have no solution and only ``b`` can move (``h = 0`` holds for any ``b``):
  ``b`` moves by ``y_c Delta`` and ``g_i`` by ``y_i y_c Delta``, until ``g_c`` reaches 0 (c joins S
  with ``alpha_c = 0``) or an error or reserve vector's ``g_i`` does (it joins S).
* **The bias.**  ``b`` starts at 0; the first example therefore meets ``g_c = -1`` and
  sets ``b = y_c`` (it joins S with ``alpha_c = 0``).
* **Examples are the rows in ``order``**, repeats included: a row visited twice is two examples
  (the SVM of the multiset).  The model's SVs are the examples with ``alpha_i > 0``, in the order
  they were seen; ``coef`` holds ``y_i alpha_i``.
* **Continuing a run** (``state``): the result's :class:`IDSVMState` holds every example seen and the
  bookkeeping; a later call starts from it, the state's examples first, as if its loop went on (the final
  refinement of the earlier call stays in the coefficients).
* **Weights.**  ``sample_weight`` gives example ``i`` the box ``C_i = C s_i`` (a weighted hinge loss);
  an example of weight 0 joins R (its ``alpha`` is 0 by its box) whatever its ``g``, and no condition
  of it ever binds (its box ``[0, 0]`` holds for every ``g``).

Decisions on computed numbers (both paths), with the error bounds they rest on:

* **The new example's test** ``g_c >= 0``: ``g_c`` is a fresh sum of ``m`` kernel values, read as
  ``>= 0`` within :func:`gradient_tolerance` (a first-order bound of its rounding and of the kernel
  values' errors): an example within rounding of the margin needs no coefficient.
* **The signs of ``gamma_i`` and ``beta_j``** decide which conditions can bind.  The margin vectors'
  own ``gamma_j`` are 0 in exact arithmetic, so their computed values measure the error of ``beta``;
  :func:`sensitivity_tolerance` is the largest of them plus a summation bound (a measured error, not
  a bound; its docstring says why).  A ``gamma_i`` or
  ``beta_j`` within it of 0 binds nothing (a repeated row of a margin vector moves with it: its
  ``gamma`` is 0, and S never takes a row whose bordered column is dependent on S's).
* **The step.**  Each candidate step ``Delta_k`` (a ratio ``-g_i / gamma_i``, or a distance to a box
  bound over ``beta_j``) carries a first-order error ``err_k`` from the errors of its numerator (the
  kept gradients' accumulated bound ``g_err``; one rounding of a box bound) and of its
  denominator (the tolerance above).  The step taken is the least ``Delta_min``, so that no
  condition is overshot; every candidate whose condition binds within its own error at that step
  (``Delta_k <= Delta_min + err_k``: at ``Delta_min`` its gradient or coefficient is within its error of
  the bound) ties, and the event is the first in this order: ``c`` itself (the step that ends the
  example), then the lowest example index (the earliest seen).  The winner's gradient or coefficient
  is then set to its bound, a change within its error.  (Taking the winner's own ``Delta`` overshot the
  least candidate's bound when the winner's error was wide: a KKT error of 6e-4 in a test.)
* **A new margin vector's Schur complement** ``kappa`` (the pivot of eq. 12) is ``> 0`` for every
  row whose gradient moves, in exact arithmetic.  An exact repeat of a margin vector (either label)
  has ``gamma`` bitwise its twin's residual and never binds.  A row numerically dependent on S's does
  move in floating point: a near-duplicate of a margin vector, of either label (its ``gamma`` of the
  order of their distance, its ``kappa`` of the squared distance: rows 1e-5 apart under the Gaussian
  kernel are dependent at the threshold below), or one more margin vector than a rank-deficient kernel
  (linear, polynomial) has dimensions.  A ``kappa`` within :func:`schur_tolerance` of 0 (the larger of a
  summation bound and :data:`SCHUR_RTOL` times the terms' magnitude, which keeps ``Rinv``'s condition
  below about 1e10) marks the row *dependent* (event ``DEPENDENT``): it keeps its set with ``g = 0``
  (``c``: keeps growing towards its box) and binds nothing until S changes (S's version, counted at every
  join and leave), so its gradient drifts by its (rounding-level) ``gamma`` while S stays, a KKT error of
  the order of the distance that makes it dependent.  (Without this rule such a row joined S with a
  ``kappa`` of rounding noise and ``Rinv`` lost every digit.)

* **The final model is refined** (:func:`refine`): with the sets kept, sweeps of iterative refinement of
  the margin vectors' linear system, each kept only if the KKT certificate improves.

Cost: the kernel matrix of the examples seen (``m^2`` doubles: the reference and the twin keep it
whole), ``O(m |S|)`` per bookkeeping step and ``O(|S|^2)`` per change of S.
"""

import math
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .constants import UNIT_ROUNDOFF
from .kernels import Kernel, kernel_value_error, seq_sum
from .validation import (_check_kernel_parameters, check_binary_data, check_gaussian_rows, check_memory, check_option,
                         check_positive, check_sample_weight, weights_as_data)

#: Sweeps of iterative refinement of the final model (:func:`refine`).
REFINE_SWEEPS = 2

#: The sets of the examples seen (``sets`` in the result): margin, error, reserve.
MARGIN, ERROR, RESERVE = 0, 1, 2
#: The new example's state while its coefficient grows (in no set yet).
GROWING = -1

#: The bookkeeping events (the trace's ``event_kind``): c joins S, c joins E, a margin vector
#: leaves S for R, for E, an error vector joins S, a reserve vector joins S.
C_TO_MARGIN, C_TO_ERROR, MARGIN_TO_RESERVE, MARGIN_TO_ERROR, ERROR_TO_MARGIN, RESERVE_TO_MARGIN, DEPENDENT = range(7)
EVENT_NAMES = ("c_to_margin", "c_to_error", "margin_to_reserve", "margin_to_error", "error_to_margin",
               "reserve_to_margin", "dependent")


@dataclass
class IDSVMResult:
    """What :func:`idsvm` returns.

    ``sv`` (n_sv, d): the examples with ``alpha > 0``, in the order seen; ``alpha`` (n_sv, 1):
    their coefficients ``y_i alpha_i``; ``bias``: ``b``; ``support``: their rows in ``X``.
    ``alpha_all`` / ``sets`` / ``gradients`` (m,): every seen example's ``alpha_i``, set
    (:data:`MARGIN`, :data:`ERROR`, :data:`RESERVE`) and ``g_i``, example ``i`` being ``order[i]``.
    ``trace``: ``n_steps``, ``mistakes`` (``y_c f(x_c) <= 0`` before learning c), ``events``
    (bookkeeping steps), ``event_kind`` / ``event_step`` / ``event_index`` (per event: kind, the
    step, the example index), ``n_margin`` (``|S|`` at the end), ``kkt_violation`` (the certificate,
    :func:`kkt_violation`).  ``state``: the bookkeeping (:class:`IDSVMState`) that continues the run.
    After a call with ``state``, example ``i`` is the ``i``-th of the whole run (the state's first) and
    ``support`` indexes the rows ``vstack(state.X, X)``; ``n_steps`` and ``mistakes`` count this call's.
    """

    sv: np.ndarray
    alpha: np.ndarray
    bias: float
    support: np.ndarray
    alpha_all: np.ndarray
    sets: np.ndarray
    gradients: np.ndarray
    trace: dict
    state: "IDSVMState" = None


@dataclass
class IDSVMState:
    """The bookkeeping after a call of :func:`idsvm`, which a later call continues (``state=``): the ``m``
    examples seen, in visiting order: their rows ``X`` (m, d), labels ``y`` (+-1.0), boxes ``C_box``, kernel
    matrix ``K`` (m, m), ``alpha``, ``g``, ``sets``, ``blocked`` (the S version a dependent row waits on),
    the margin vectors ``S`` in ``Rinv``'s order and ``Rinv``, ``b``, ``version`` and the accumulated error
    bounds ``g_err`` / ``a_err``; ``C`` and ``kernel`` (kind, gamma, degree, coef0), which a continuation
    must repeat (``K`` holds that kernel's values).  It holds the kernel matrix: ``8 m^2`` bytes."""

    X: np.ndarray
    y: np.ndarray
    C_box: np.ndarray
    K: np.ndarray
    alpha: np.ndarray
    g: np.ndarray
    sets: np.ndarray
    blocked: np.ndarray
    S: np.ndarray
    Rinv: np.ndarray
    b: float
    version: int
    g_err: float
    a_err: float
    C: float
    kernel: tuple


@dataclass(frozen=True)
class IDSVMOptions:
    """The options of one call, resolved and checked once (the twin's ``Params``)."""

    kernel: Kernel
    C: float
    eps_K: float          # the error bound of one kernel value (refsvm.kernels.kernel_value_error)
    k_max: float          # the largest k(x_i, x_i) over the rows (|k_ij| <= k_max)

    @classmethod
    def of(cls, X, *, C, kernel, gamma, degree, coef0):
        kern = Kernel.of(kernel, gamma, degree, coef0)
        k_max = float(np.max(kern.diag(X))) if X.shape[0] else 0.0
        return cls(kern, float(C), float(kernel_value_error(X, kern)), k_max)


def check_idsvm_arguments(X, y, order, *, C, kernel, gamma, degree, coef0, sample_weight, state=None):
    """The checks of :func:`idsvm` (both paths): dense finite X, labels in {-1, +1}, C > 0, the
    kernel's parameters, room for the kernel matrix of the examples seen; a ``state`` of the same
    kernel, C and number of features."""
    if sp.issparse(X):
        raise ValueError("X: idsvm takes a dense array (it keeps the dense kernel matrix of the examples "
                         "seen anyway); pass X.toarray()")
    X, y, order = check_binary_data(X, y, order, "idsvm is binary")
    check_positive(C, "C")
    check_option(kernel, "kernel", ("rbf", "linear", "poly"))
    _check_kernel_parameters(kernel, gamma, degree, coef0)
    if kernel == "rbf":
        check_gaussian_rows(X)
    if sample_weight is not None:
        sample_weight = check_sample_weight(sample_weight, X.shape[0])
    seen = 0
    if state is not None:
        check_continuation(state, X, C=C, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
        seen = state.y.shape[0]
    check_memory(8 * (seen + order.size) ** 2, "order", "idsvm's kernel matrix of the examples seen")
    return X, y, order, sample_weight


def check_continuation(state, X, *, C, kernel, gamma, degree, coef0):
    """A ``state`` continues only a run of the same kernel (its kernel matrix holds that kernel's values),
    the same ``C`` (its boxes) and rows of the same number of features; the error names the parameter."""
    if not isinstance(state, IDSVMState):
        raise TypeError(f"state must be the IDSVMState of an earlier idsvm result (result.state); got "
                        f"{type(state).__name__}")
    if state.X.shape[1] != X.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features, the state's examples {state.X.shape[1]}")
    given = Kernel.of(kernel, gamma, degree, coef0)
    used = {"rbf": 2, "linear": 1, "poly": 4}[state.kernel[0]]       # the parameters the kernel reads
    for name, was, now in list(zip(("kernel", "gamma", "degree", "coef0"), state.kernel,
                                   (given.kind, given.gamma, given.degree, given.coef0)))[:used]:
        if was != now:
            raise ValueError(f"{name}: the state was built with {name}={was!r}, this call gives {now!r} (its "
                             "kernel matrix holds the first kernel's values)")
    if float(C) != state.C:
        raise ValueError(f"C: the state was built with C={state.C!r}, this call gives {C!r} (the examples seen "
                         "keep their boxes; one run has one C)")


def continued_rows(state, X, y, order, C_box):
    """The rows of a continued run: ``X`` and ``y`` after the state's examples (``vstack(state.X, X)``),
    the order visiting the state's examples first (they are examples ``0 .. m0 - 1``, already learned) and
    then ``m0 + order``, the boxes likewise.  Without a state: the arguments unchanged."""
    if state is None:
        return X, y, order, C_box
    m0 = state.y.shape[0]
    return (np.vstack((state.X, X)), np.concatenate((state.y.astype(np.int64), y)),
            np.concatenate((np.arange(m0, dtype=np.int64), m0 + order)), np.concatenate((state.C_box, C_box)))


def gradient_tolerance(k, a, bias, eps_K):
    """The error bound of a fresh ``g_c = y_c (sum_j a_j k_j + b) - 1`` (``a_j = y_j alpha_j``): the sum of
    ``m + 2`` terms errs by at most ``(m + 3) u`` times their magnitudes, each kernel value by ``eps_K``;
    twice that covers the two paths' few-ulp differences."""
    m = a.shape[0]
    magnitude = float(seq_sum(np.abs(a * k))) + abs(bias) + 1.0
    return 2.0 * ((m + 3) * UNIT_ROUNDOFF * magnitude + eps_K * float(seq_sum(np.abs(a))))


def sensitivity_tolerance(gamma_S, beta, k_max, eps_K):
    """The tolerance on the computed ``beta_j`` and ``gamma_i`` (one number for both).

    The margin vectors' own ``gamma_j`` are 0 in exact arithmetic: their computed values (the residual
    of eq. 8's solve) measure the error ``beta`` carries into a gradient.  The tolerance is the largest
    of them plus the summation bound of one ``gamma_i`` (``|S| + 2`` terms of magnitude at most
    ``k_max |beta_j|``, kernel values off by ``eps_K``), doubled.  This is a measured error, not a bound:
    ``|Rinv| |r|`` would bound ``beta``'s error, but on ill-conditioned margin sets it grows to 1e-3 and
    excludes conditions that do bind (KKT violations of 1e-4 in the tests), while the danger a small
    tolerance leaves, a dependent row joining S, is caught by :func:`schur_tolerance`."""
    s = float(seq_sum(np.abs(beta[1:])))
    bound = (beta.shape[0] + 2) * UNIT_ROUNDOFF * (k_max * (1.0 + s) + abs(beta[0])) + eps_K * (1.0 + s)
    residual = float(np.max(np.abs(gamma_S))) if gamma_S.size else 0.0
    return 2.0 * (bound + residual)


#: A new margin vector's Schur complement at or below ``SCHUR_RTOL`` times the magnitude of its terms
#: marks the row dependent (:func:`schur_tolerance`): ``Rinv``'s condition grows like that ratio's
#: inverse, so this keeps it below about 1e10 and its solves to about six digits.
SCHUR_RTOL = 1e-10


def schur_tolerance(beta, terms, k_max, eps_K):
    """The tolerance on a new margin vector's Schur complement ``kappa = Q_kk + sum_j Q_kj beta_j + y_k beta_b``:
    the larger of twice its summation bound (``|S| + 3`` terms of magnitude at most ``k_max |beta_j|``,
    kernel values off by ``eps_K``) and :data:`SCHUR_RTOL` times ``terms = Q_kk + sum_j |Q_kj beta_j| +
    |beta_b|`` (the cancellation that leaves ``kappa``).  The summation bound alone misses
    ``beta``'s own error, which grows with ``Rinv``'s condition: a polynomial kernel's margin set one row
    past its feature space's dimension passed it with ``Rinv``'s condition at 3e14 and every later
    gradient lost (a KKT error of 7.8 in a test).  ``kappa`` within the tolerance of 0 (or below) is a
    numerically dependent row."""
    s = float(seq_sum(np.abs(beta[1:])))
    bound = 2.0 * ((beta.shape[0] + 2) * UNIT_ROUNDOFF * (k_max * (1.0 + s) + abs(beta[0])) + eps_K * (1.0 + s))
    return max(bound, SCHUR_RTOL * terms)


def kernel_row_libm(SV, x, kernel):
    """``k(x_j, x)`` for the rows of ``SV``, with the twin's numbers bitwise: the Gaussian kernel through
    the squared norms (sums in index order, :func:`refsvm.kernels.seq_sum`) and libm's ``exp`` (``math.exp``,
    one value at a time, where ``numpy.exp`` may differ by an ulp); the linear kernel's dot products in
    numpy's pairwise order (``np.sum`` along the row, the twin's ``pw_dot``); the polynomial kernel's power by
    libm's ``pow`` (``math.pow``)."""
    if kernel.kind == "rbf":
        sq = seq_sum(SV * SV) + seq_sum(x * x) - 2.0 * seq_sum(SV * x)
        return np.array([math.exp(v) for v in -kernel.gamma * np.maximum(sq, 0.0)])
    dots = np.sum(SV * x, axis=1)
    if kernel.kind == "linear":
        return dots
    return np.array([math.pow(v, kernel.degree) for v in kernel.gamma * dots + kernel.coef0])


class IncrementalSVM:
    """The state of the bookkeeping: the examples seen (``x``, ``y``, their boxes ``C_i``), their kernel
    matrix ``K``, ``alpha``, ``g``, ``b``, the sets, the margin vectors ``S`` (in ``Rinv``'s order)
    and ``Rinv`` (eq. 8), with ``g_err`` and ``a_err``, bounds of the kept gradients' and coefficients'
    accumulated errors."""

    def __init__(self, X, y, order, C_box, options):
        m = order.shape[0]
        self.X, self.y_all, self.order, self.C_box, self.o = X, y, order, C_box, options
        self.y = y[order].astype(np.float64)
        self.K = np.zeros((m, m))
        self.alpha = np.zeros(m)
        self.g = np.zeros(m)
        self.sets = np.full(m, RESERVE, dtype=np.int8)
        self.blocked = np.full(m, -1, dtype=np.int64)     # blocked[i] = v: i is dependent on S's version v
        self.version = 0                                   # S's version: +1 at every change of S
        self.m, self.b, self.g_err, self.a_err = 0, 0.0, 0.0, 0.0
        self.first = 0                                     # the first example of this call (resume)
        self.S = []
        self.Rinv = np.zeros((1, 1))

    def resume(self, state):
        """Start from ``state`` (:class:`IDSVMState`): its ``m0`` examples are this run's first, learned;
        returns ``m0``, the first example to see.  The bookkeeping is the state's bitwise."""
        if state is None:
            return 0
        m0 = state.y.shape[0]
        self.K[:m0, :m0] = state.K
        for name in ("alpha", "g", "sets", "blocked"):
            getattr(self, name)[:m0] = getattr(state, name)
        self.S, self.Rinv = [int(j) for j in state.S], state.Rinv.copy()
        self.m, self.b, self.version, self.g_err, self.a_err = m0, state.b, state.version, state.g_err, state.a_err
        self.first = m0
        return m0

    def Q(self, rows, cols):
        """``Q_ij = y_i y_j k(x_i, x_j)`` for the example indices ``rows`` x ``cols``."""
        return self.y[rows, None] * self.y[None, cols] * self.K[np.ix_(rows, cols)]

    def see(self, c):
        """Example ``c`` arrives: its kernel row against the examples seen (``K`` grows), ``f(x_c)`` and
        ``g_c`` (eq. 2) with its error bound."""
        k = kernel_row_libm(self.X[self.order[:c + 1]], self.X[self.order[c]], self.o.kernel)
        self.K[c, :c + 1] = k
        self.K[:c + 1, c] = k
        self.m = c + 1
        a = self.y[:c] * self.alpha[:c]
        f_c = float(seq_sum(a * k[:c])) + self.b
        self.g[c] = self.y[c] * f_c - 1.0
        return f_c, gradient_tolerance(k[:c], a, self.b, self.o.eps_K)

    def sensitivities(self, c):
        """``beta`` (eq. 7-8; ``beta[0]`` for ``b``, ``beta[1:]`` for S in ``Rinv``'s order) and
        ``gamma`` of every example seen (eq. 9-10), for a unit change of ``alpha_c``."""
        S = self.S
        beta = -seq_sum(self.Rinv * np.concatenate(([self.y[c]], self.Q(S, [c])[:, 0])))
        seen = np.arange(self.m)
        gamma = (self.Q(seen, [c])[:, 0] + seq_sum(self.Q(seen, S) * beta[1:])) + self.y[:self.m] * beta[0]
        return beta, gamma

    def bias_sensitivities(self, c):
        """With S empty only ``b`` moves (the module docstring): ``Delta b = y_c`` per unit step,
        ``gamma_i = y_i y_c``."""
        return np.array([self.y[c]]), self.y[:self.m] * self.y[c]

    def candidates(self, c, beta, gamma, tol):
        """Every condition that can bind (eq. 11), as ``(Delta, err, rank, kind, index)``: ``rank`` 0
        for c's own events, 1 for the others (the tie order, then the index)."""
        m, S, err_g, err_a = self.m, self.S, self.g_err, self.a_err
        out = []
        if gamma[c] > tol and self.blocked[c] != self.version:     # g_c rises to 0
            out.append(self.ratio(-self.g[c], gamma[c], tol, err_g, 0, C_TO_MARGIN, c))
        if len(S):                                                            # alpha_c reaches C_c
            out.append((self.C_box[c] - self.alpha[c], err_a + UNIT_ROUNDOFF * self.C_box[c], 0, C_TO_ERROR, c))
        for p, j in enumerate(S):                                             # a margin vector's box
            bj = beta[p + 1]
            if bj > tol:
                out.append(self.ratio(self.C_box[j] - self.alpha[j], bj, tol, err_a + UNIT_ROUNDOFF * self.C_box[j],
                                      1, MARGIN_TO_ERROR, j))
            elif bj < -tol:
                out.append(self.ratio(-self.alpha[j], bj, tol, err_a + UNIT_ROUNDOFF * self.C_box[j],
                                      1, MARGIN_TO_RESERVE, j))
        for i in range(m):
            if i == c or self.sets[i] == MARGIN or self.blocked[i] == self.version or self.C_box[i] == 0.0:
                continue
            if self.sets[i] == ERROR and gamma[i] > tol:                      # g_i < 0 rises to 0
                out.append(self.ratio(-self.g[i], gamma[i], tol, err_g, 1, ERROR_TO_MARGIN, i))
            elif self.sets[i] == RESERVE and gamma[i] < -tol:                 # g_i > 0 falls to 0
                out.append(self.ratio(-self.g[i], gamma[i], tol, err_g, 1, RESERVE_TO_MARGIN, i))
        return out

    @staticmethod
    def ratio(num, den, tol, num_err, rank, kind, index):
        """A candidate step ``num / den >= 0`` (clamped at 0: a numerator within rounding of 0 of the
        wrong sign) with its first-order error ``(num_err + |Delta| tol) / |den|``."""
        delta = max(num / den, 0.0)
        return delta, (num_err + delta * tol) / abs(den), rank, kind, index

    def move(self, c, delta, beta, gamma, tol):
        """Take the step: ``alpha_c``, ``alpha_S`` and ``b`` along ``beta``, every ``g`` along ``gamma``;
        margin vectors keep ``g = 0`` exactly; ``g_err`` and ``a_err`` grow by the step's error (twice each
        update's rounding, for the two paths; ``alpha``'s: the rounding of ``alpha_j + beta_j Delta``, the
        errors of ``beta_j`` and ``gamma_i`` being ``tol`` per unit step)."""
        if self.S:
            self.alpha[c] += delta
        a_max = max((abs(self.alpha[j]) for j in self.S), default=0.0)
        for p, j in enumerate(self.S):
            self.alpha[j] += beta[p + 1] * delta
        b_max = float(np.max(np.abs(beta[1:]))) if self.S else 0.0
        self.a_err += 4.0 * UNIT_ROUNDOFF * (a_max + b_max * delta + delta) + 2.0 * tol * delta
        self.b += beta[0] * delta
        g_max = float(np.max(np.abs(self.g[:self.m]))) if self.m else 0.0
        self.g[:self.m] += gamma * delta
        for j in self.S:
            self.g[j] = 0.0
        self.g_err += delta * float(np.max(np.abs(gamma))) * 4.0 * UNIT_ROUNDOFF + 2.0 * UNIT_ROUNDOFF * g_max \
            + 2.0 * tol * delta

    def add_margin(self, k):
        """Example ``k`` joins S: ``Rinv`` grows by its Schur complement ``kappa`` (eq. 12).  A ``kappa``
        within :func:`schur_tolerance` of 0: ``k`` is numerically dependent on S and does not join; it keeps
        its set (c: keeps growing) with ``g_k = 0`` and binds nothing until S changes; returns False then."""
        S = self.S
        if not S:                                                 # [[0, y_k], [y_k, Q_kk]]^-1
            q = self.Q([k], [k])[0, 0]
            self.Rinv = np.array([[-q, self.y[k]], [self.y[k], 0.0]])
        else:
            beta = -seq_sum(self.Rinv * np.concatenate(([self.y[k]], self.Q(S, [k])[:, 0])))
            q_kk, terms_S = self.Q([k], [k])[0, 0], self.Q([k], S)[0] * beta[1:]
            kappa = (q_kk + float(seq_sum(terms_S))) + self.y[k] * beta[0]
            terms = (q_kk + float(seq_sum(np.abs(terms_S)))) + abs(beta[0])
            if not kappa > schur_tolerance(beta, terms, self.o.k_max, self.o.eps_K):
                self.blocked[k], self.g[k] = self.version, 0.0
                return False
            v = np.concatenate((beta, [1.0]))
            n = self.Rinv.shape[0]
            grown = np.zeros((n + 1, n + 1))
            grown[:n, :n] = self.Rinv
            self.Rinv = grown + np.outer(v, v) / kappa
        S.append(k)
        self.version += 1
        self.sets[k] = MARGIN
        self.g[k] = 0.0
        return True

    def remove_margin(self, k, to):
        """Example ``k`` leaves S for ``to`` (R or E): ``Rinv`` shrinks (eq. 13); its ``alpha`` is set
        to its bound exactly."""
        p = self.S.index(k) + 1
        if len(self.S) == 1:
            self.Rinv = np.zeros((1, 1))
        else:
            keep = [q for q in range(self.Rinv.shape[0]) if q != p]
            R = self.Rinv
            self.Rinv = R[np.ix_(keep, keep)] - np.outer(R[keep, p], R[p, keep]) / R[p, p]
        self.S.remove(k)
        self.version += 1
        self.sets[k] = to
        self.alpha[k] = self.C_box[k] if to == ERROR else 0.0


def fresh_gradients(run, rows):
    """``g_i = y_i (sum_j y_j alpha_j k_ij + b) - 1`` computed afresh for the examples ``rows`` of ``run`` (sums
    over every example seen, in index order)."""
    m = run.m
    a = run.y[:m] * run.alpha[:m]
    return run.y[rows] * (seq_sum(run.K[np.ix_(rows, np.arange(m))] * a) + run.b) - 1.0


def refine(run, sweeps=REFINE_SWEEPS):
    """Iterative refinement of the final model (after the pass; both paths run this function on their state).

    With the sets kept, the margin vectors' coefficients and ``b`` solve ``[[0, y_S'], [y_S, Q_SS]] [b; alpha_S]
    = [-sum_E y_j C_j; 1 - Q_SE C_E]``.  A sweep adds ``Rinv r`` with that system's residual computed afresh,
    ``r = [-sum_j y_j alpha_j; -g_S]``, and is kept only if the model's KKT certificate
    (:func:`kkt_violation`, every example) gets smaller; otherwise it is undone and refinement stops (with an
    inaccurate ``Rinv`` a sweep can move every gradient).  Then every gradient is computed afresh.  Why: the
    bookkeeping moved ``alpha`` along the ``beta`` of near-singular margin sets it has since left, and their
    errors stay in ``alpha`` (a KKT error of 4.5e-3 on an 11-example cubic-kernel problem, 6e-9 after
    refinement).  The sets are not changed: a wrong set stays wrong, and the certificate says so."""
    S, m = run.S, run.m
    if S:
        K, y, sets, C_box = run.K[:m, :m], run.y[:m], run.sets[:m], run.C_box[:m]
        best = kkt_violation(K, y, run.alpha[:m], run.b, sets, C_box)
        for _ in range(sweeps):
            kept = run.b, run.alpha[S].copy()
            r = np.concatenate(([-seq_sum(y * run.alpha[:m])], -fresh_gradients(run, S)))
            delta = seq_sum(run.Rinv * r)
            run.b += delta[0]
            run.alpha[S] += delta[1:]
            now = kkt_violation(K, y, run.alpha[:m], run.b, sets, C_box)
            if not now < best:                                    # no gain: undo, stop
                run.b, run.alpha[S] = kept
                break
            best = now
    run.g[:m] = fresh_gradients(run, list(range(m)))


def max_events(m):
    """A bound on the bookkeeping steps of one example among ``m``: each step moves one example between
    sets and ``alpha_c`` only grows; more than ``4 m + 8`` steps would be a cycle (not seen; a guard)."""
    return 4 * m + 8


def least_step(candidates):
    """The step and its event: the step is the least ``Delta`` (no condition is overshot); every candidate
    whose condition binds within its own error at that step (``Delta_k <= Delta_min + err_k``) ties, won
    by the lowest ``(rank, index)`` (c's own events first, then the earliest example).  Returns
    ``(Delta_min, winner)``."""
    if not candidates:       # (not seen: with S, alpha_c's box is always a candidate; without, g_c)
        raise FloatingPointError("idsvm: no condition binds the step (a bookkeeping state without candidates)")
    best = min(candidates, key=lambda cand: cand[0])
    ties = [cand for cand in candidates if cand[0] <= best[0] + cand[1]]
    return best[0], min(ties, key=lambda cand: (cand[2], cand[4]))


def idsvm(X, y, order, *, C, kernel="rbf", gamma=1.0, degree=3, coef0=0.0, sample_weight=None, state=None):
    """The incremental SVM (Cauwenberghs & Poggio 2000): after example ``t`` of ``order`` the model is
    the SVM (hinge loss, box ``C``, bias) of the first ``t`` examples.  The module docstring holds the
    equations, the choices and the decisions.  ``X`` dense (n, d), ``y`` in {-1, +1}, ``order`` the
    rows to visit (repeats are new examples), ``sample_weight`` (n,) or None (boxes ``C s_i``).
    ``state``: an earlier result's :class:`IDSVMState` (same kernel and ``C``): the run continues it, its
    examples first (the model after the call is the SVM of the state's examples and these).  The
    earlier call's final refinement (:func:`refine`) stays in its coefficients, so the model equals a
    single run over all the examples to the bookkeeping's accuracy (both within their certificates),
    not bitwise; the two paths continue a state bitwise alike.
    Returns :class:`IDSVMResult`.
    """
    X, y, order, sample_weight = check_idsvm_arguments(X, y, order, C=C, kernel=kernel, gamma=gamma,
                                                       degree=degree, coef0=coef0, sample_weight=sample_weight,
                                                       state=state)
    C_box = float(C) * weights_as_data(sample_weight, X.shape[0])[order]
    X, y, order, C_box = continued_rows(state, X, y, order, C_box)
    o = IDSVMOptions.of(X, C=C, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
    run = IncrementalSVM(X, y, order, C_box, o)
    mistakes, events = 0, []
    for c in range(run.resume(state), order.shape[0]):
        f_c, tol_c = run.see(c)                                   # g_c = y_c f(x_c) - 1      (2)
        mistakes += run.y[c] * f_c <= 0.0
        if run.g[c] >= -tol_c or C_box[c] == 0.0:                 # KKT holds with alpha_c = 0: c in R
            run.sets[c] = RESERVE
            continue
        run.sets[c] = GROWING                                     # in no set while alpha_c grows
        for _ in range(max_events(run.m)):
            if run.S:
                beta, gam = run.sensitivities(c)                  # eq. 7-10
                tol = sensitivity_tolerance(gam[run.S], beta, o.k_max, o.eps_K)
            else:
                beta, gam = run.bias_sensitivities(c)             # S empty: only b moves
                tol = 0.0
            delta, (_, _, _, kind, k) = least_step(run.candidates(c, beta, gam, tol))   # bookkeeping (11)
            run.move(c, delta, beta, gam, tol)
            if kind in (C_TO_MARGIN, ERROR_TO_MARGIN, RESERVE_TO_MARGIN):
                if not run.add_margin(k):                      # eq. 12 (a dependent row stays out)
                    kind = DEPENDENT
            elif kind == C_TO_ERROR:
                run.sets[c], run.alpha[c], run.g[c] = ERROR, C_box[c], min(run.g[c], 0.0)
            else:
                run.remove_margin(k, RESERVE if kind == MARGIN_TO_RESERVE else ERROR)   # eq. 13
            events.append((kind, c, k))
            if k == c and kind != DEPENDENT:                      # c joined S or E: done
                break
        else:
            raise FloatingPointError(f"idsvm: example {c} (row {order[c]}) took more than {max_events(run.m)} "
                                     "bookkeeping steps (a cycle of zero-length steps)")
    refine(run)                                                   # the final model, refined
    return _result(run, mistakes, events)


#: The KKT violation (margin units, :func:`kkt_violation`) above which :func:`idsvm` warns: LIBSVM's default
#: stopping tolerance ``eps = 1e-3`` (scikit-learn's ``SVC(tol=1e-3)``), on the same scale (a gradient gap in
#: margin units), so a model without the warning is at least as close to the optimum as LIBSVM's default.  The
#: refined model usually certifies far less (the tests' problems; benchmarks/results/bench_idsvm.txt on Adult).
KKT_WARN = 1e-3


def kkt_violation(K, y, alpha, bias, sets, C_box):
    """The certificate of the returned model: the largest violation of the SVM's KKT conditions over the
    examples seen, from gradients computed afresh (``g = y (K (y alpha) + b) - 1``, not the kept ones), in
    margin units: ``|g_i|`` on S, ``max(0, g_i)`` on E, ``max(0, -g_i)`` on R (examples of box 0 excepted),
    and, relative to ``max C_i``, ``|sum_i y_i alpha_i|`` (the equality constraint) and how far a coefficient
    lies outside its box ``[0, C_i]``."""
    if y.shape[0] == 0:
        return 0.0
    g = y * (K @ (y * alpha) + bias) - 1.0
    live = C_box > 0.0
    worst = np.concatenate((np.abs(g[(sets == MARGIN) & live]), np.maximum(g[(sets == ERROR) & live], 0.0),
                            np.maximum(-g[(sets == RESERVE) & live], 0.0), [0.0]))
    C_max = max(float(np.max(C_box)), 1e-300)
    outside = float(np.max(np.maximum(np.maximum(-alpha, alpha - C_box), 0.0)))
    return max(float(np.max(worst)), abs(float(np.dot(y, alpha))) / C_max, outside / C_max)


def _result(run, mistakes, events):
    """The result (both paths): the SVs, the sets, the trace and the KKT certificate, with a
    ``RuntimeWarning`` when it exceeds :data:`KKT_WARN` (never a silently wrong model)."""
    m = run.m
    support = np.flatnonzero(run.alpha[:m] > 0.0)
    ev = np.array(events, dtype=np.int64).reshape(-1, 3)
    violation = kkt_violation(run.K[:m, :m], run.y[:m], run.alpha[:m], run.b, run.sets[:m], run.C_box[:m])
    if violation > KKT_WARN:
        warnings.warn(f"idsvm: the model violates the SVM's KKT conditions by {violation:.3g} (margin units, "
                      f"above LIBSVM's default tolerance {KKT_WARN:g}): the bookkeeping lost accuracy on an "
                      "ill-conditioned margin set (a rank-deficient kernel, or kernel values of very different "
                      "scales); scale the data or use the Gaussian kernel", RuntimeWarning, stacklevel=3)
    trace = {"n_steps": m - run.first, "mistakes": int(mistakes), "events": int(ev.shape[0]),
             "event_kind": ev[:, 0].astype(np.int8), "event_step": ev[:, 1], "event_index": ev[:, 2],
             "n_margin": len(run.S), "kkt_violation": violation}
    return IDSVMResult(sv=run.X[run.order[support]], alpha=(run.y[support] * run.alpha[support])[:, None],
                       bias=float(run.b), support=run.order[support], alpha_all=run.alpha[:m].copy(),
                       sets=run.sets[:m].copy(), gradients=run.g[:m].copy(), trace=trace,
                       state=bookkeeping_state(run))


def bookkeeping_state(run):
    """The run's bookkeeping as an :class:`IDSVMState` (both paths; the kernel matrix is a view, not a
    copy)."""
    m, kern = run.m, run.o.kernel
    return IDSVMState(X=run.X[run.order[:m]], y=run.y[:m].copy(), C_box=run.C_box[:m].copy(), K=run.K[:m, :m],
                      alpha=run.alpha[:m].copy(), g=run.g[:m].copy(), sets=run.sets[:m].copy(),
                      blocked=run.blocked[:m].copy(), S=np.array(run.S, dtype=np.int64), Rinv=run.Rinv.copy(),
                      b=float(run.b), version=int(run.version), g_err=float(run.g_err), a_err=float(run.a_err),
                      C=run.o.C, kernel=(kern.kind, kern.gamma, kern.degree, kern.coef0))
