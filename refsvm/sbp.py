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

Reading of the pseudo-code (errata and choices; see also ``docs/sbp.rst``):

* **Sampling (line 6).**  All randomness comes from the caller: ``u[t-1]`` is a
  uniform number in [0, 1) and ``i`` is the ``floor(u_t * count)``-th index
  (0-based, in index order) of the set ``{j : c_j < gamma}``.  With
  ``nu = 0`` (the separable case of section 3.1) the water level *is*
  ``min_j c_j`` and the strict set is empty; the paper's section 3.2 says that
  the uniform distribution over ``{j : c_j <= gamma}`` is minimax optimal as
  well, so that set is used whenever the strict one is empty.
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
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .kernels import kernel_diag, kernel_row
from .validation import check_responses, check_sample_weight, check_sbp_arguments

__all__ = ["SBPState", "SBPResult", "find_gamma", "find_gamma_and_bias", "optimize",
           "nu_from_solution", "nu_from_svc"]


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
# partition (the "partition" of Algorithms 2 and 3)
# ----------------------------------------------------------------------------

def _pivot(C, lo, hi):
    """Median of ``C[lo]``, ``C[(lo + hi) // 2]`` (lower middle) and ``C[hi - 1]``."""
    a, b, c = C[lo], C[lo + (hi - lo) // 2], C[hi - 1]
    return max(min(a, b), min(max(a, b), c))


def partition(C, lo, hi):
    """Three-way partition of ``C[lo:hi]`` in place around the pivot of :func:`_pivot`.

    Returns ``(lt, gt)``: ``C[lo:lt] < p``, ``C[lt:gt] == p``, ``C[gt:hi] > p``
    (Dijkstra's Dutch national flag, one pass; ``lt < gt``).
    """
    p = _pivot(C, lo, hi)
    lt, i, gt = lo, lo, hi
    while i < gt:
        v = C[i]
        if v < p:
            C[i], C[lt] = C[lt], v
            lt += 1
            i += 1
        elif v > p:
            gt -= 1
            C[i], C[gt] = C[gt], v
        else:
            i += 1
    return lt, gt


def select_count(C, lo, hi, count):
    """Quickselect in place: afterwards ``C[lo:count]`` holds the ``count - lo``
    smallest values of ``C[lo:hi]`` and ``C[count - 1]`` is the largest of them
    (``lo < count <= hi``)."""
    while True:
        lt, gt = partition(C, lo, hi)
        if count <= lt:
            hi = lt
        elif count > gt:
            lo = gt
        else:
            return


def _gap_sum(C, lo, hi, level):
    """``sum_{lo <= j < hi} (level - C[j])`` (sequential, every term >= 0)."""
    s = 0.0
    for j in range(lo, hi):
        s += level - C[j]
    return s


# ----------------------------------------------------------------------------
# Algorithm 2: find_gamma
# ----------------------------------------------------------------------------

def find_gamma(c, volume):
    """Water level gamma with ``sum_i max(0, gamma - c_i) = volume`` (Algorithm 2).

    Parameters
    ----------
    c : ndarray of shape (n,)
        Responses (not modified; the routine partitions a copy).
    volume : float
        ``n nu`` >= 0.  With ``volume = 0`` the level is ``min(c)``.

    Returns
    -------
    float
    """
    C, volume = check_responses(c, volume)
    return float(_find_gamma(C, volume))


def _find_gamma(C, volume):
    """Algorithm 2 on the work array ``C`` (partitioned in place)."""
    lower, upper = 0, C.shape[0]                          # Alg. 2, line 1 (0-based, half-open)
    lower_max, lower_volume = -math.inf, 0.0              # Alg. 2, line 2
    while lower < upper:                                  # Alg. 2, line 3
        lt, middle = partition(C, lower, upper)           # Alg. 2, line 5
        middle_max = C[lt]                                # Alg. 2, line 6: max(lower_max, C[lower:middle])
        middle_volume = 0.0                               # Alg. 2, lines 7-8: volume to fill C[:middle] up to middle_max
        if lower > 0:
            middle_volume = lower_volume + lower * (middle_max - lower_max)
        middle_volume += _gap_sum(C, lower, middle, middle_max)
        if middle_volume > volume:                        # Alg. 2, line 8
            upper = lt                                    # Alg. 2, line 9
        else:                                             # Alg. 2, line 11
            lower, lower_max, lower_volume = middle, middle_max, middle_volume
    return (volume - lower_volume) / lower + lower_max    # Alg. 2, line 12


def partition_pairs(C, S, lo, hi):
    """:func:`partition` of ``C[lo:hi]`` that applies every swap to ``S`` as well (weights travel with
    their responses)."""
    p = _pivot(C, lo, hi)
    lt, i, gt = lo, lo, hi
    while i < gt:
        v = C[i]
        if v < p:
            C[i], C[lt] = C[lt], v
            S[i], S[lt] = S[lt], S[i]
            lt += 1
            i += 1
        elif v > p:
            gt -= 1
            C[i], C[gt] = C[gt], v
            S[i], S[gt] = S[gt], S[i]
        else:
            i += 1
    return lt, gt


def find_gamma_weighted(c, s, volume):
    """Weighted water level: gamma with ``sum_i s_i max(0, gamma - c_i) = volume`` (weights ``s_i > 0``).

    Column ``i`` of the basin has width ``s_i``.  This is the water level of
    the weighted slack ``sum_i s_i xi_i <= volume`` (``volume = nu sum_i s_i``),
    whose supergradient samples ``i`` under water with probability
    ``s_i / sum_{under water} s_j`` (:func:`optimize` with ``sample_weight``).
    Not in the paper: Algorithm 2 with every count replaced by a weight sum.
    """
    C, volume = check_responses(c, volume)
    S = np.array(s, dtype=np.float64, copy=True, order="C")
    if S.shape != C.shape or not np.all(np.isfinite(S)) or not np.all(S > 0.0):
        raise ValueError(f"s must hold one finite weight > 0 per response, shape {C.shape}")
    return float(_find_gamma_weighted(C, S, volume))


def _find_gamma_weighted(C, S, volume):
    """Algorithm 2 with widths: counts become weight sums (``C`` and ``S`` partitioned in place)."""
    lower, upper = 0, C.shape[0]
    lower_max, lower_volume, lower_weight = -math.inf, 0.0, 0.0
    while lower < upper:
        lt, middle = partition_pairs(C, S, lower, upper)
        middle_max = C[lt]
        middle_volume = 0.0                               # volume to fill C[:middle] up to middle_max
        if lower > 0:
            middle_volume = lower_volume + lower_weight * (middle_max - lower_max)
        gap = weight = 0.0
        for j in range(lower, middle):                    # sequential, every term >= 0 (as _gap_sum)
            gap += S[j] * (middle_max - C[j])
            weight += S[j]
        middle_volume += gap
        if middle_volume > volume:
            upper = lt
        else:
            lower, lower_max, lower_volume = middle, middle_max, middle_volume
            lower_weight += weight
    return (volume - lower_volume) / lower_weight + lower_max


# ----------------------------------------------------------------------------
# Algorithm 3: find_gamma_and_bias
# ----------------------------------------------------------------------------

def find_gamma_and_bias(y, c, volume):
    """Water level gamma and bias b of two basins (Algorithm 3, section 3.6).

    Maximises ``gamma`` such that ``sum_i max(0, gamma - c_i - y_i b) <= volume``
    over ``gamma`` and ``b``: the positive examples form a basin of heights
    ``c_i + b``, the negative ones a basin of heights ``c_i - b``.

    Parameters
    ----------
    y : ndarray of shape (n,)
        Labels -1 / +1, both present.
    c : ndarray of shape (n,)
        Responses (not modified).
    volume : float
        ``n nu`` >= 0.

    Returns
    -------
    (gamma, b) : (float, float)
        ``b`` is the midpoint of the optimal interval (line 42).
    """
    y, C, volume = check_responses(c, volume, y)
    Cp = np.ascontiguousarray(C[y == 1])                  # Alg. 3, line 1: C^+
    Cm = np.ascontiguousarray(C[y == -1])                 # Alg. 3, line 2: C^-
    gamma, b = _find_gamma_and_bias(Cp, Cm, volume)[:2]
    return float(gamma), float(b)


def _find_gamma_and_bias(Cp, Cm, volume):
    """Algorithm 3 on the work arrays ``Cp`` = C^+ and ``Cm`` = C^- (partitioned in place).

    Returns ``(gamma, b, gamma_p, gamma_m)``; ``gamma_p = gamma - b`` and
    ``gamma_m = gamma + b`` are the levels relative to the raw responses of each
    basin (line 42), which line 6 of Algorithm 1 compares with.
    """
    n_p, n_m = Cp.shape[0], Cm.shape[0]
    K = min(n_p, n_m)                      # at most K responses can be covered in both basins
    if n_p > K:
        select_count(Cp, 0, n_p, K)
    if n_m > K:
        select_count(Cm, 0, n_m, K)
    lower, upper = 0, K                    # the common count k lies in [lower, upper]
    lower_max_p = lower_max_m = -math.inf
    lower_volume_p = lower_volume_m = 0.0
    while lower < upper:                   # Alg. 3, line 7
        lt, middle = partition(Cp, lower, upper)          # Alg. 3, lines 3 / 29: partition C^+
        select_count(Cm, lower, upper, middle)            # same count in C^- (lines 4 / 35)
        middle_max_p, middle_max_m = Cp[lt], Cm[middle - 1]   # lines 5-6 / 30, 36
        vp = vm = 0.0                                     # lines 14-15: volumes to fill both up to the middle
        if lower > 0:
            vp = lower_volume_p + lower * (middle_max_p - lower_max_p)
            vm = lower_volume_m + lower * (middle_max_m - lower_max_m)
        vp += _gap_sum(Cp, lower, middle, middle_max_p)
        vm += _gap_sum(Cm, lower, middle, middle_max_m)
        if vp + vm > volume:                              # line 16: the level is below the middle
            upper = middle - 1
        else:                                             # lines 28 / 34: both lower ranges are under water
            lower = middle
            lower_max_p, lower_volume_p = middle_max_p, vp
            lower_max_m, lower_volume_m = middle_max_m, vm
    # Alg. 3, line 38: lower = common number of covered responses (>= 1)
    delta = (volume - lower_volume_p - lower_volume_m) / lower      # Alg. 3, line 39
    if lower < n_p:                                                   # Alg. 3, line 40
        delta_p = min(delta, float(np.min(Cp[lower:])) - lower_max_p)
    else:
        delta_p = delta
    if lower < n_m:                                                   # Alg. 3, line 41
        delta_m = min(delta, float(np.min(Cm[lower:])) - lower_max_m)
    else:
        delta_m = delta
    gamma_p = lower_max_p + 0.5 * (delta + delta_p - delta_m)         # Alg. 3, line 42
    gamma_m = lower_max_m + 0.5 * (delta - delta_p + delta_m)
    return 0.5 * (gamma_p + gamma_m), 0.5 * (gamma_m - gamma_p), gamma_p, gamma_m   # Alg. 3, line 43


# ----------------------------------------------------------------------------
# Algorithm 1: optimize
# ----------------------------------------------------------------------------

def _sample(c, y, level_p, level_m, u_t):
    """Alg. 1, line 6: the floor(u_t * count)-th index of {j : c_j + y_j b < gamma}
    (``{j : ... <= gamma}`` when that set is empty).  Returns ``(i, count)``.

    ``c_j + y_j b < gamma`` is evaluated as ``c_j < gamma_{y_j}`` with the level
    of each basin relative to the raw responses (``gamma - b`` for y = +1,
    ``gamma + b`` for y = -1; both ``gamma`` without bias): the same set,
    without the rounding of ``c_j + y_j b``, which decides membership at the
    water line when ``nu = 0``.
    """
    level = np.where(y == 1, level_p, level_m)
    violating = np.flatnonzero(c < level)
    if violating.size == 0:
        violating = np.flatnonzero(c <= level)
    count = violating.size
    k = min(int(u_t * count), count - 1)
    return int(violating[k]), count


def _sample_weighted(c, s, level, u_t):
    """Line 6 with example weights: among ``{j : s_j > 0, c_j < gamma}`` (``<=`` when empty), in index
    order, the first ``j`` whose running weight sum exceeds ``u_t`` times the set's total weight
    (probability ``s_j / total``).  Returns ``(i, count)``."""
    violating = np.flatnonzero((c < level) & (s > 0.0))
    if violating.size == 0:
        violating = np.flatnonzero((c <= level) & (s > 0.0))
    cum = np.cumsum(s[violating])                         # sequential, as the compiled loop
    k = min(int(np.searchsorted(cum, u_t * cum[-1], side="right")), violating.size - 1)
    return int(violating[k]), violating.size


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
    """
    X, y, u = check_sbp_arguments(X, y, u, nu=nu, kernel=kernel, gamma=gamma, degree=degree,
                                  coef0=coef0, fit_bias=fit_bias, cache_rows=cache_rows, state=state,
                                  sample_weight=sample_weight)
    n = X.shape[0]
    s = check_sample_weight(sample_weight, n)
    volume = n * float(nu) if s is None else float(nu) * float(np.sum(s))
    positive = None if s is None else s > 0.0             # the basin of the weighted water level
    k_max = float(np.max(kernel_diag(X, kernel, gamma, degree, coef0)))
    if not k_max > 0.0:
        raise ValueError(f"X: max_i K(x_i, x_i) must be > 0 (line 1 divides by its root); got {k_max}")
    eta_0 = 1.0 / math.sqrt(k_max)                                         # Alg. 1, line 1
    if state is None:                                                      # Alg. 1, line 2
        alpha, c, alpha_sum, c_sum, r2, t = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n), 0.0, 0
    else:
        alpha, c = np.array(state.alpha, dtype=np.float64), np.array(state.c, dtype=np.float64)
        alpha_sum = np.array(state.alpha_sum, dtype=np.float64)
        c_sum = np.array(state.c_sum, dtype=np.float64)
        r2, t = float(state.r2), int(state.t)

    T = u.shape[0]
    sampled = np.zeros(T, dtype=np.int64)
    water_level = np.zeros(T)
    bias_t = np.zeros(T)
    n_violating = np.zeros(T, dtype=np.int64)
    projected = np.zeros(T, dtype=np.int8)
    cache = _RowCache(cache_rows, n)
    kernel_evaluations = 0
    mistakes = 0

    for step in range(T):                                                  # Alg. 1, line 3
        t += 1
        eta_t = eta_0 / math.sqrt(t)                                       # Alg. 1, line 4
        if fit_bias:
            level, b, level_p, level_m = _find_gamma_and_bias(
                np.ascontiguousarray(c[y == 1]), np.ascontiguousarray(c[y == -1]), volume)  # line 5 (Alg. 3)
        elif s is not None:                                                # line 5, weighted
            level, b = _find_gamma_weighted(c[positive], s[positive], volume), 0.0
            level_p = level_m = level
        else:
            level, b = _find_gamma(c.copy(), volume), 0.0                  # Alg. 1, line 5
            level_p = level_m = level
        if s is not None:
            i, count = _sample_weighted(c, s, level, u[step])              # line 6, weighted
        else:
            i, count = _sample(c, y, level_p, level_m, u[step])            # Alg. 1, line 6
        mistakes += c[i] + y[i] * b <= 0.0                                 # w^(t-1) misclassifies x_i
        alpha[i] += eta_t                                                  # Alg. 1, line 7
        row = cache.get(i)
        if row is None:
            row = kernel_row(X, X[i], kernel, gamma, degree, coef0)        # K(x_i, x_j), j = 1..n
            kernel_evaluations += n
            cache.put(i, row)
        r2 = r2 + 2.0 * eta_t * c[i] + eta_t * eta_t * row[i]              # Alg. 1, line 8
        c += eta_t * y[i] * y * row                                        # Alg. 1, lines 9-10
        if r2 > 1.0:                                                       # Alg. 1, line 11: r_t > 1
            scale = 1.0 / math.sqrt(r2)
            alpha *= scale                                                 # Alg. 1, line 12
            c *= scale
            r2 = 1.0
            projected[step] = 1
        alpha_sum += alpha                                                 # for line 13
        c_sum += c
        sampled[step], water_level[step], bias_t[step], n_violating[step] = i, level, b, count

    # Alg. 1, line 13: averages over all t iterations, water level of the averaged responses
    if t > 0:
        alpha_bar, c_bar = alpha_sum / t, c_sum / t
    else:
        alpha_bar, c_bar = np.zeros(n), np.zeros(n)
    if fit_bias:
        level_bar, b_bar = _find_gamma_and_bias(np.ascontiguousarray(c_bar[y == 1]),
                                                np.ascontiguousarray(c_bar[y == -1]), volume)[:2]
    elif s is not None:
        level_bar, b_bar = _find_gamma_weighted(c_bar[positive], s[positive], volume), 0.0
    else:
        level_bar, b_bar = _find_gamma(c_bar.copy(), volume), 0.0
    divisor = level_bar if level_bar > 0.0 else 1.0                       # see the module docstring
    coef = y * (alpha_bar / divisor)                                       # Alg. 1, line 14
    bias = b_bar / divisor

    trace = {
        "n_iterations": int(T),
        "n_steps": int(T),
        "mistakes": int(mistakes),
        "sampled": sampled,
        "water_level": water_level,
        "bias": bias_t,
        "n_violating": n_violating,
        "projected": projected,
        "kernel_evaluations": int(kernel_evaluations),
        "cache_hits": int(cache.hits),
        "cache_misses": int(cache.misses),
        "cache_hit_rate": cache.hits / T if T else 0.0,
        "water_level_bar": float(level_bar),
        "bias_bar": float(b_bar),
    }
    new_state = SBPState(alpha=alpha, c=c, alpha_sum=alpha_sum, c_sum=c_sum, r2=r2, t=t)
    return SBPResult(coef=coef, bias=float(bias), water_level=float(level_bar), state=new_state,
                     trace=trace)


class _RowCache:
    """At most ``capacity`` kernel rows, least recently used evicted (slot order
    as in the compiled path: free slots first, then the stalest)."""

    def __init__(self, capacity, n):
        self.capacity = capacity
        self.rows = np.zeros((capacity, n)) if capacity else None
        self.slot_of = {}
        self.owner = [-1] * capacity
        self.stamp = [0] * capacity
        self.clock = 0
        self.hits = self.misses = 0

    def get(self, i):
        self.clock += 1
        slot = self.slot_of.get(i)
        if slot is None:
            self.misses += 1
            return None
        self.hits += 1
        self.stamp[slot] = self.clock
        return self.rows[slot]

    def put(self, i, row):
        if not self.capacity:
            return
        if len(self.slot_of) < self.capacity:
            slot = len(self.slot_of)
        else:
            slot = min(range(self.capacity), key=lambda s: self.stamp[s])   # least recently used
            del self.slot_of[self.owner[slot]]
        self.rows[slot] = row
        self.slot_of[i] = slot
        self.owner[slot] = i
        self.stamp[slot] = self.clock


# ----------------------------------------------------------------------------
# nu from a reference SVM (section 5)
# ----------------------------------------------------------------------------

def nu_from_solution(K, y, coef, bias=0.0):
    """``nu = mean hinge loss of w* / ||w*||`` for a kernel expansion (section 5).

    The paper derives its ``nu`` from the regularised optimum ``w*`` for
    ``lambda``: ``||w*|| nu = (1/n) sum_i max(0, 1 - y_i f*(x_i))``.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Kernel matrix of the training points.
    y : ndarray of shape (n,)
        Labels -1 / +1.
    coef : ndarray of shape (n,)
        ``f*(x) = sum_j coef_j K(x_j, x) + bias`` (signed coefficients,
        e.g. LIBSVM's ``dual_coef_`` scattered to all n points).
    bias : float
        The bias of ``f*`` (0 without one).
    """
    K = np.asarray(K, dtype=np.float64)
    coef = np.asarray(coef, dtype=np.float64)
    f = K @ coef + bias
    hinge = float(np.mean(np.maximum(0.0, 1.0 - np.asarray(y) * f)))
    norm = math.sqrt(max(float(coef @ K @ coef), 0.0))
    if norm == 0.0:
        raise ValueError("coef describes w* = 0; nu = hinge / ||w*|| is undefined")
    return hinge / norm


def nu_from_svc(X, y, *, lam, kernel="rbf", gamma=1.0, degree=3, coef0=0.0, tol=1e-6):
    """``nu`` for SBP from ``lambda``, through scikit-learn's SVC as the reference optimum.

    Trains ``SVC(C = 1 / (lambda n))`` (LIBSVM, which always fits a bias: the
    result matches the paper's "with unregularised bias" column; for the
    objective without bias pass your own solution to :func:`nu_from_solution`)
    and returns :func:`nu_from_solution` of its solution.
    """
    from sklearn.svm import SVC

    from .kernels import kernel_matrix

    X = X.tocsr() if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y)
    n = X.shape[0]
    svc = SVC(C=1.0 / (lam * n), kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, tol=tol)
    svc.fit(X, y)
    coef = np.zeros(n)
    coef[svc.support_] = svc.dual_coef_[0]
    sign = np.where(y == svc.classes_[1], 1, -1)
    K = kernel_matrix(X, X, kernel, gamma, degree, coef0)
    return nu_from_solution(K, sign, coef, float(svc.intercept_[0]))


def nu_without_bias(X, y, *, lam, kernel="rbf", gamma=1.0, degree=3, coef0=0.0, tol=1e-6, max_iter=20000):
    """``nu`` for SBP from ``lambda`` for the SVM *without* bias (the paper's Table 2, left columns).

    Solves the dual of ``min_w lambda/2 ||w||^2 + (1/n) sum_i max(0, 1 - y_i <w, phi(x_i)>)``,
    ``min_a 1/2 a' Q a - 1' a`` over the box ``0 <= a_i <= C = 1/(lambda n)`` (``Q_ij = y_i y_j K_ij``;
    no equality constraint, as there is no bias), with SciPy's L-BFGS-B on the full kernel matrix
    (``n^2`` memory: meant for the few thousand rows of a reproduced figure), and returns
    :func:`nu_from_solution` of ``w* = sum_i a_i y_i phi(x_i)``.  Raises ``RuntimeError`` when the
    largest projected gradient (the KKT violation) stays above ``tol``.
    """
    from scipy.optimize import minimize

    from .kernels import kernel_matrix

    X = X.tocsr() if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = X.shape[0]
    C = 1.0 / (lam * n)
    K = kernel_matrix(X, X, kernel, gamma, degree, coef0)
    Q = (y[:, None] * y[None, :]) * K

    def objective(a):
        Qa = Q @ a
        return 0.5 * (a @ Qa) - a.sum(), Qa - 1.0

    res = minimize(objective, np.zeros(n), jac=True, method="L-BFGS-B", bounds=[(0.0, C)] * n,
                   options=dict(maxiter=max_iter, ftol=1e-15, gtol=tol * 1e-3))
    a = np.clip(res.x, 0.0, C)
    g = Q @ a - 1.0
    projected = np.where(a <= 0.0, np.minimum(g, 0.0), np.where(a >= C, np.maximum(g, 0.0), g))
    if np.abs(projected).max() > tol * max(1.0, C):
        raise RuntimeError(f"the dual solve did not reach the KKT tolerance {tol:g}: largest projected gradient "
                           f"{np.abs(projected).max():.3g} after {res.nit} iterations ({res.message})")
    return nu_from_solution(K, y, a * y)

