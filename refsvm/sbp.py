"""SBP: the kernelized Stochastic Batch Perceptron (reference implementation).

A. Cotter, S. Shalev-Shwartz, N. Srebro (2012), "The kernelized stochastic
batch perceptron", ICML.  Appendix B: Algorithm 1 (:func:`optimize`),
Algorithm 2 (:func:`find_gamma`) and Algorithm 3 (:func:`find_gamma_and_bias`).
The compiled mirror is :mod:`refsvm._fast.sbp`, same functions, same signatures.

SBP maximises the margin subject to a total slack of ``n nu`` (problem 2.3)::

    max_{||w|| <= 1}  max_{xi >= 0, 1'xi <= n nu}  min_i  y_i <w, Phi(x_i)> + xi_i

by projected stochastic supergradient ascent.  The supergradient needs the
*water level* gamma of the responses ``c_i = y_i <w, Phi(x_i)>``: pour the
volume ``n nu`` into a basin of heights ``c_i``; the indices under water are
the ones the supergradient samples from (Figure 1 of the paper).

Algorithm 1 (``optimize``)::

     1: eta_0 := 1 / sqrt(max_i K(x_i, x_i))
     2: alpha := 0^n; c := 0^n; r_0 := 0
     3: for t := 1 to T
     4:   eta_t := eta_0 / sqrt(t)
     5:   gamma := find_gamma(c, n nu)
     6:   sample i ~ uniform{j : c_j < gamma}
     7:   alpha := alpha + eta_t e_i
     8:   r_t^2 := r_{t-1}^2 + 2 eta_t c_i + eta_t^2 K(x_i, x_i)
     9:   for j = 1 to n
    10:     c_j := c_j + eta_t y_i y_j K(x_i, x_j)
    11:   if r_t > 1 then
    12:     alpha := alpha / r_t; c := c / r_t; r_t := 1
    13: alpha_bar := mean_t alpha^(t); c_bar := mean_t c^(t); gamma := find_gamma(c_bar, n nu)
    14: return alpha_bar / gamma

The predictor is ``f(x) = sum_j (alpha_bar_j / gamma) y_j K(x_j, x)``; with an
unregularised bias (section 3.6) line 5 becomes
``(gamma, b) := find_gamma_and_bias(y, c, n nu)``, line 6 samples among
``{j : c_j + y_j b < gamma}`` and the output adds ``b_bar / gamma``.

:func:`optimize` holds these lines with their tags (``# Alg. 1, line 7``) and
nothing else: the arguments are checked and resolved once before the loop
(:class:`SBPOptions`, which also picks line 5's search and line 6's sampler),
and the trace goes through :class:`SBPRecorder`, once per event.

Reading of the pseudo-code (errata and choices; see also ``docs/sbp.rst``):

* **Sampling (line 6).**  All randomness comes from the caller: ``u[t-1]`` is a
  uniform number in [0, 1) and ``i`` is the ``floor(u_t * count)``-th index
  (0-based, in index order) of the set ``{j : c_j < gamma}``.  With
  ``nu = 0`` (the separable case of section 3.1) the water level *is*
  ``min_j c_j`` and the strict set is empty; the paper's section 3.2 says that
  the uniform distribution over ``{j : c_j <= gamma}`` is minimax optimal as
  well, so that set is used whenever the strict one is empty.  That one is
  empty only for NaN responses (an overflowing kernel value): a ValueError.
* **Ties at the water line (line 6).**  Membership ``c_j < gamma`` is decided
  to a tolerance ``tol_t`` that bounds the rounding error of ``c_j - gamma``
  (:func:`_tie_terms`: the responses are running sums of ``t`` updates,
  ``|c_j| <= sqrt(k_max)``, so ``E_c <= 4 t u sqrt(k_max) + 2 sqrt(t) eta_0 eps_K``
  with ``eps_K`` the error of one kernel value; the level adds ``4 E_c`` and its
  own rounding).  Tie rule: a response within ``tol_t`` of the level is *at* it
  (the exact case of ``nu = 0`` and of Algorithm 3's ``delta_m = 0`` with
  duplicated rows), so the strict set is ``{j : c_j < gamma - tol_t}`` and the
  fallback ``{j : c_j <= gamma + tol_t}`` (:func:`_under_water`), on both paths.
* **Algorithm 2 as printed** does not terminate when the partition returns
  the lowest position of the range (``lower := middle`` leaves the range
  unchanged; on the first pass line 8 then computes ``-inf * 0 = NaN``) and
  divides 0 by 0 for ``n = 1`` (``lower - 1 = 0``).  Here the
  partition is three-way (smaller / equal / larger than the pivot), which
  always shrinks the range, and ranges are half-open and 0-based, so that the
  final ``lower`` is the *number* of responses under water (>= 1).  The
  volume needed to fill the first ``middle`` responses up to the pivot is
  summed from the non-negative gaps ``pivot - c_j`` instead of as
  ``middle_max * count - middle_sum`` (the printed line 8): the difference of
  two large sums can round to a positive number when all responses are
  equal, which would push every candidate out (and give 0/0 with
  ``nu = 0``).  ``lower_volume`` is the printed
  ``lower_max * (lower - 1) - lower_sum``; line 12 is the printed formula.
* **Pivot rule.**  The median of the first, middle and last value of the
  range (deterministic, so both paths partition identically; expected O(n)
  on responses in no adversarial order; a sort is never used).
* **Algorithm 3.**  The printed loop (lines 3-37) reads ``C`` where it means
  ``C^+`` / ``C^-`` (lines 5-6) and moves the two ranges by a sign logic that
  is hard to verify; the quantity it searches for is the common number ``k``
  of covered responses in both basins (Appendix B: "water must cover an equal
  number of indices in each basin"), which is the largest ``k`` with
  ``need^+(k) + need^-(k) <= n nu`` (``need(k)`` = volume to fill the ``k``
  smallest up to the ``k``-th smallest).  :func:`find_gamma_and_bias` finds
  it by the same kind of divide and conquer (a partition of ``C^+``, a
  selection of the same count in ``C^-``) and then applies lines 38-44
  exactly as printed.  Both functions are tested against a sort-based oracle
  and a linear program.
* **Output (line 14).**  When the water level of the averaged responses is
  not positive (early iterations, or ``nu`` too small for the data), dividing
  by it would flip or blow up the predictor; ``alpha_bar`` (and ``b_bar``) are
  then returned undivided.  The sign of every prediction is the same either
  way for a positive level.
"""

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import numpy as np

from .kernels import Kernel
from .recorder import NoStepRecords, Recorder, StepRecords
from .sbp_nu import nu_from_solution, nu_from_svc, nu_without_bias  # noqa: F401 (section 5; re-exported)
from .sbp_tolerance import (_ball_terms, _outside_ball, _tie_terms,  # noqa: F401 (re-exported)
                            _tie_tolerance)
from .sbp_water import (_find_gamma, _find_gamma_and_bias, _find_gamma_weighted,  # noqa: F401 (Algs. 2-3; re-exported)
                        find_gamma, find_gamma_and_bias, find_gamma_weighted, partition, select_count)
from .validation import check_sbp_arguments, weights_as_data

__all__ = ["SBPState", "SBPResult", "SBPOptions", "SBPRecorder", "optimize", "find_gamma", "find_gamma_weighted",
           "find_gamma_and_bias", "partition", "select_count", "nu_from_solution",
           "nu_from_svc", "nu_without_bias"]


@dataclass
class SBPState:
    """Iterate of Algorithm 1 after ``t`` iterations (to continue a run)."""

    alpha: np.ndarray      #: alpha^(t), shape (n,)
    c: np.ndarray          #: responses c^(t), shape (n,)
    alpha_sum: np.ndarray  #: sum_{s <= t} alpha^(s)
    c_sum: np.ndarray      #: sum_{s <= t} c^(s)
    r2: float              #: r_t^2 = ||w^(t)||^2 (line 8)
    t: int                 #: iterations done


@dataclass
class SBPResult:
    """What :func:`optimize` returns (both backends)."""

    coef: np.ndarray       #: y_j alpha_bar_j / gamma_bar, shape (n,): f(x) = sum_j coef_j K(x_j, x) + bias
    bias: float            #: b_bar / gamma_bar (0 without fit_bias)
    water_level: float     #: gamma_bar, the water level of the averaged responses (line 13)
    state: SBPState        #: iterate after the last iteration (pass it back to continue)
    trace: dict = field(default_factory=dict)  #: diagnostics, see DESIGN.md


# ----------------------------------------------------------------------------
# Algorithm 1: optimize
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SBPOptions:
    """The options of one :func:`optimize` call, checked and resolved once before the loop (both paths).

    ``water_level(c, y)`` is line 5 (and line 13) and ``sample(c, y, level_p, level_m, u_t)``
    line 6, each chosen here once: Algorithm 3 with ``fit_bias``; the weighted level
    (:func:`find_gamma_weighted`) and the sampler by weight with ``sample_weight``; else
    Algorithm 2 and the uniform sampler.  The unweighted run keeps Algorithm 2 (the weighted
    search with unit weights is a different sequence of operations, not promised bitwise equal).
    """

    kernel: Kernel         #: the kernel (``gamma`` there is its width, not the water level)
    volume: float          #: n nu, or nu sum_i s_i with weights: the total slack
    fit_bias: bool         #: unregularised bias (section 3.6): Algorithm 3
    weighted: bool         #: sample_weight given (then ``fit_bias`` is False)
    weights: np.ndarray    #: s, ones when sample_weight is None
    cache_rows: int        #: rows of the LRU kernel-row cache
    water_level: Callable = field(repr=False)   #: line 5: ``c, y -> (gamma, b, gamma_p, gamma_m)``
    sample: Callable = field(repr=False)        #: line 6: ``c, y, gamma_p, gamma_m, u_t, tol -> (i, count)``

    @classmethod
    def resolve(cls, X, y, u, *, nu, kernel, gamma, degree, coef0, fit_bias, cache_rows, state,
                sample_weight):
        """Check the arguments of :func:`optimize` and resolve them: returns ``(X, y, u, options)``."""
        X, y, u = check_sbp_arguments(X, y, u, nu=nu, kernel=kernel, gamma=gamma, degree=degree,
                                      coef0=coef0, fit_bias=fit_bias, cache_rows=cache_rows, state=state,
                                      sample_weight=sample_weight)
        n = X.shape[0]
        s = weights_as_data(sample_weight, n)
        weighted = sample_weight is not None
        volume = float(nu) * float(np.sum(s)) if weighted else n * float(nu)
        if fit_bias:
            water_level, sample = partial(_water_level_and_bias, volume=volume), _sample
        elif weighted:                    # the basin of the weighted level: the examples with s_i > 0
            water_level = partial(_water_level_weighted, volume=volume, s=s, basin=s > 0.0)
            sample = lambda c, y, level_p, level_m, u_t, tol: _sample_weighted(c, s, level_p, u_t, tol)  # noqa: E731
        else:
            water_level, sample = partial(_water_level, volume=volume), _sample
        kernel = Kernel(kernel, gamma, degree, coef0)    # the values as given (as the kernel functions get them)
        options = cls(kernel, volume, bool(fit_bias), weighted, s, int(cache_rows), water_level, sample)
        return X, y, u, options


def _water_level(c, y, *, volume):
    """Alg. 1, line 5: ``gamma := find_gamma(c, n nu)`` (Algorithm 2 on a copy); ``b = 0``."""
    level = _find_gamma(c.copy(), volume)
    return level, 0.0, level, level


def _water_level_weighted(c, y, *, volume, s, basin):
    """Line 5 with example weights: :func:`find_gamma_weighted` over the basin ``s_i > 0``; ``b = 0``."""
    level = _find_gamma_weighted(c[basin], s[basin], volume)
    return level, 0.0, level, level


def _water_level_and_bias(c, y, *, volume):
    """Line 5 with a bias: ``(gamma, b) := find_gamma_and_bias(y, c, n nu)`` (Algorithm 3), with the
    level of each basin relative to the raw responses (``gamma - b``, ``gamma + b``)."""
    return _find_gamma_and_bias(np.ascontiguousarray(c[y == 1]), np.ascontiguousarray(c[y == -1]), volume)


def _sample(c, y, level_p, level_m, u_t, tol):
    """Alg. 1, line 6: the floor(u_t * count)-th index of {j : c_j + y_j b < gamma}
    (``{j : ... <= gamma}`` when that set is empty), membership decided to ``tol``
    (:func:`_under_water`).  Returns ``(i, count)``.

    ``c_j + y_j b < gamma`` is evaluated as ``c_j < gamma_{y_j}`` with the level
    of each basin relative to the raw responses (``gamma - b`` for y = +1,
    ``gamma + b`` for y = -1; both ``gamma`` without bias): the same set,
    without the rounding of ``c_j + y_j b``, which decides membership at the
    water line when ``nu = 0``.
    """
    violating = _under_water(c, np.where(y == 1, level_p, level_m), tol, True)
    if violating.size == 0:
        raise _not_under_water()
    count = violating.size
    k = min(int(u_t * count), count - 1)
    return int(violating[k]), count


def _sample_weighted(c, s, level, u_t, tol):
    """Line 6 with example weights: among ``{j : s_j > 0, c_j < gamma}`` (``<=`` when empty; to ``tol``,
    :func:`_under_water`), in index order, the first ``j`` whose running weight sum exceeds ``u_t``
    times the set's total weight (probability ``s_j / total``).  Returns ``(i, count)``."""
    violating = _under_water(c, level, tol, s > 0.0)
    if violating.size == 0:
        raise _not_under_water()
    cum = np.cumsum(s[violating])                         # sequential, as the compiled loop
    k = min(int(np.searchsorted(cum, u_t * cum[-1], side="right")), violating.size - 1)
    return int(violating[k]), violating.size


def _under_water(c, level, tol, basin):
    """Line 6's set, decided to the tolerance ``tol`` of :func:`_tie_tolerance`: the indices (of
    ``basin``) with ``c_j < level - tol``; when there are none, those with ``c_j <= level + tol``.

    Tie rule: a response within ``tol`` of the level is *at* the level (the paper's case
    ``delta_m = 0`` of Algorithm 3, or ``nu = 0``: the level equals such responses in exact
    arithmetic), so it is left out of the strict set and kept in the fallback set, on both
    paths whatever its last bits.  ``tol`` bounds the rounding error of ``c_j - level``, so a
    response the exact arithmetic puts strictly below (above) the level by more than ``tol``
    is never moved.  With ``tol = 0`` this is the plain ``c_j < level`` (``<=``).
    """
    under = np.flatnonzero((c < level - tol) & basin)
    if under.size == 0:
        under = np.flatnonzero((c <= level + tol) & basin)
    return under


def _not_under_water():
    """The error of line 6 when no response lies at or below the water level (both paths).

    The level is at least the smallest response, so the set ``{j : c_j <= gamma}`` is never
    empty for finite responses; it is empty only when the responses (or the level) are NaN,
    e.g. after a kernel value overflowed to infinity (``eta_0 = 0`` times ``inf``).
    """
    return ValueError("SBP, line 6: no response lies at or below the water level: the responses are not "
                      "finite (a kernel value overflowed to infinity, or state.c is not finite); scale X")


def _eta_0(k_max):
    """Alg. 1, line 1: ``eta_0 = 1 / sqrt(max_i K(x_i, x_i))`` (ValueError when the max is not > 0)."""
    if not k_max > 0.0:
        raise ValueError(f"X: max_i K(x_i, x_i) must be > 0 (line 1 divides by its root); got {k_max}")
    return 1.0 / math.sqrt(k_max)


def _initial_iterate(state, n):
    """Alg. 1, line 2: ``(alpha, c, alpha_sum, c_sum, r2, t)``, zeros, or copies of ``state`` to continue it."""
    if state is None:
        return np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n), 0.0, 0
    alpha, c, alpha_sum, c_sum = (np.array(getattr(state, name), dtype=np.float64, order="C")
                                  for name in ("alpha", "c", "alpha_sum", "c_sum"))
    return alpha, c, alpha_sum, c_sum, float(state.r2), int(state.t)


def _averages(alpha_sum, c_sum, t):
    """Alg. 1, line 13: ``alpha_bar``, ``c_bar`` over all ``t`` iterations since t = 0 (zeros when t = 0)."""
    if t > 0:
        return alpha_sum / t, c_sum / t
    return np.zeros(alpha_sum.shape[0]), np.zeros(c_sum.shape[0])


def _divide_by_level(y, alpha_bar, b_bar, level_bar):
    """Alg. 1, line 14: ``(coef, bias) = (y alpha_bar / gamma_bar, b_bar / gamma_bar)``, undivided when
    ``gamma_bar <= 0`` (see the module docstring)."""
    divisor = level_bar if level_bar > 0.0 else 1.0
    return y * (alpha_bar / divisor), float(b_bar / divisor)


class SBPRecorder(Recorder):
    """What an SBP run writes down besides the algorithm (the trace keys of DESIGN.md).

    The reference calls it once per event; the compiled path fills the same arrays and
    counters in C and hands them over once per call (:meth:`from_loop`).
    """

    flags = ("projected",)
    events = {"sampled": np.int64, "water_level": np.float64, "bias": np.float64, "n_violating": np.int64}
    counters = ("mistakes", "kernel_evaluations", "cache_hits", "cache_misses")

    def __init__(self, n_steps):
        super().__init__(n_steps)
        self.steps = StepRecords.when_on(n_steps, 1)   # opt-in per-step records (recorder.py)

    def iteration(self, i, level, b, count, margin, y_i):
        """Lines 5-6 of one iteration: the level (and bias), the size of the set ``i`` was drawn from;
        a mistake when ``w^(t-1)`` misclassifies ``x_i`` (``margin = c_i + y_i b <= 0``).  With per-step
        records the score ``y_i margin = <w^(t-1), x_i> + b`` (exact: ``y_i = +-1``)."""
        self.append(sampled=i, water_level=level, bias=b, n_violating=count)
        self.count("mistakes", int(margin <= 0.0))
        self.steps.margin(y_i * margin)

    def kernel_row(self, cached, n):
        """A kernel row served by the cache, or computed (``n`` kernel evaluations)."""
        if cached:
            self.count("cache_hits")
        else:
            self.count("cache_misses")
            self.count("kernel_evaluations", n)

    def projection(self, step):
        """Line 12 rescaled the iterate at ``step``."""
        self.mark("projected", step)

    @classmethod
    def from_loop(cls, sampled, water_level, bias, n_violating, projected, **counts):
        """The recorder of a compiled run: its per-iteration arrays and its counters."""
        rec = cls(projected.shape[0])
        rec.steps = NoStepRecords()          # the twin hands its records over itself (add_step_records)
        rec.columns.update(sampled=sampled, water_level=water_level, bias=bias, n_violating=n_violating)
        rec.step_flags["projected"] = projected
        rec.counts.update(counts)
        return rec

    def sbp_trace(self, level_bar, b_bar):
        """The trace dict of :class:`SBPResult` (``level_bar``, ``b_bar``: line 13)."""
        T = self.n_steps
        return self.trace(n_iterations=T, n_steps=T, cache_hit_rate=self.counts["cache_hits"] / T if T else 0.0,
                          water_level_bar=float(level_bar), bias_bar=float(b_bar), **self.steps.trace())


def optimize(X, y, u, *, nu, kernel, gamma, degree, coef0, fit_bias=False, cache_rows=0,
             state=None, sample_weight=None):
    """``len(u)`` iterations of Algorithm 1 (SBP) on ``(X, y)``.

    Parameters
    ----------
    X : ndarray of shape (n, d), float64
    y : ndarray of shape (n,), int64
        Labels -1 / +1.
    u : ndarray of shape (T,), float64
        One uniform number in [0, 1) per iteration, drawn by the caller
        (line 6 picks the ``floor(u_t * count)``-th violating index).
    nu : float
        Slack per example (>= 0); the total slack is ``n nu``.
    kernel, gamma, degree, coef0
        See :mod:`refsvm.kernels` (``gamma`` is the kernel width, not the
        water level).
    fit_bias : bool
        Unregularised bias (section 3.6): Algorithm 3 instead of Algorithm 2.
    cache_rows : int
        Keep up to this many kernel rows (least recently used evicted);
        never changes the result, only ``kernel_evaluations``.
    state : SBPState or None
        Iterate to continue from (``None``: line 2); ``t`` continues.
    sample_weight : ndarray of shape (n,) or None
        Example weights ``s_i >= 0`` (not in the paper; ``fit_bias=False``
        only).  The slack becomes ``sum_i s_i xi_i <= nu sum_i s_i``: line 5
        is the weighted water level (:func:`find_gamma_weighted`, over the
        examples with ``s_i > 0``) and line 6 samples ``i`` under water with
        probability proportional to ``s_i``; an example of weight 0 is never
        sampled and never enters the level (as if removed).  Weights are
        relative: multiplying all by a constant changes nothing.

    Returns
    -------
    SBPResult
        ``coef = y * alpha_bar / gamma_bar`` over all ``n`` examples (zero
        where ``alpha_bar`` is zero), ``bias = b_bar / gamma_bar``, and the
        state for the next call.  The averages of line 13 run over every
        iteration since ``t = 0``.

    Raises
    ------
    ValueError
        Besides the argument checks: when line 6 finds no response at or
        below the water level (the responses are not finite: a kernel value
        overflowed), see ``_not_under_water``.
    """
    X, y, u, opts = SBPOptions.resolve(X, y, u, nu=nu, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0,
                                       fit_bias=fit_bias, cache_rows=cache_rows, state=state,
                                       sample_weight=sample_weight)
    eta_0 = _eta_0(float(np.max(opts.kernel.diag(X))))                    # Alg. 1, line 1
    ties, ball = _tie_terms(eta_0, X, opts), _ball_terms(eta_0, X, opts)  # lines 6 and 11's tolerances
    alpha, c, alpha_sum, c_sum, r2, t = _initial_iterate(state, X.shape[0])   # Alg. 1, line 2
    rec, cache = SBPRecorder(u.shape[0]), _RowCache(opts.cache_rows)
    for step in range(u.shape[0]):                                         # Alg. 1, line 3
        t += 1
        eta_t = eta_0 / math.sqrt(t)                                       # Alg. 1, line 4
        level, b, level_p, level_m = opts.water_level(c, y)                # Alg. 1, line 5
        i, count = opts.sample(c, y, level_p, level_m, u[step], _tie_tolerance(t, ties))   # Alg. 1, line 6
        rec.iteration(i, level, b, count, margin=c[i] + y[i] * b, y_i=y[i])
        alpha[i] += eta_t                                                  # Alg. 1, line 7
        row = cache.kernel_row(X, i, opts.kernel, rec)                     # K(x_i, x_j), j = 1..n
        r2 = r2 + 2.0 * eta_t * c[i] + eta_t * eta_t * row[i]              # Alg. 1, line 8
        c += eta_t * y[i] * y * row                                        # Alg. 1, lines 9-10
        if _outside_ball(r2, t, ball):                                     # Alg. 1, line 11: r_t > 1
            scale = 1.0 / math.sqrt(r2)
            alpha *= scale                                                 # Alg. 1, line 12
            c *= scale
            r2 = 1.0
            rec.projection(step)
        alpha_sum += alpha                                                 # for line 13
        c_sum += c
    alpha_bar, c_bar = _averages(alpha_sum, c_sum, t)                      # Alg. 1, line 13
    level_bar, b_bar = opts.water_level(c_bar, y)[:2]                      # Alg. 1, line 13: gamma_bar
    coef, bias = _divide_by_level(y, alpha_bar, b_bar, level_bar)          # Alg. 1, line 14
    state = SBPState(alpha=alpha, c=c, alpha_sum=alpha_sum, c_sum=c_sum, r2=r2, t=t)
    return SBPResult(coef=coef, bias=bias, water_level=float(level_bar), state=state,
                     trace=rec.sbp_trace(level_bar, b_bar))


class _RowCache:
    """At most ``capacity`` kernel rows, the least recently used evicted first (as the compiled path)."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.rows = OrderedDict()          # i -> K(x_i, .), least recently used first

    def kernel_row(self, X, i, kernel, rec):
        """``K(x_i, x_j)`` for j = 1..n: the cached row, or computed (and kept when ``capacity > 0``)."""
        row = self.rows.get(i)
        rec.kernel_row(cached=row is not None, n=X.shape[0])
        if row is not None:
            self.rows.move_to_end(i)
            return row
        row = kernel.row(X, X[i])
        if self.capacity:
            if len(self.rows) == self.capacity:
                self.rows.popitem(last=False)
            self.rows[i] = row
        return row
