"""SBP's water filling: Algorithms 2 and 3 of Cotter, Shalev-Shwartz & Srebro (2012), Appendix B.

:func:`find_gamma` (Algorithm 2), :func:`find_gamma_weighted` (Algorithm 2 with widths, not in the
paper) and :func:`find_gamma_and_bias` (Algorithm 3), with the three-way :func:`partition` and the
quickselect :func:`select_count` they share.  Line 5 (and 13) of Algorithm 1 (:mod:`refsvm.sbp`,
which re-exports these names) calls them; the reading of the pseudo-code (the non-terminating
printed loop, the pivot rule, the count of Algorithm 3) is in :mod:`refsvm.sbp`'s docstring.  The
compiled mirror is ``refsvm/_fast/sbp_water.pxi``, included by :mod:`refsvm._fast.sbp`.
"""

import math

import numpy as np

from .validation import check_responses

__all__ = ["find_gamma", "find_gamma_weighted", "find_gamma_and_bias", "partition", "select_count"]

# ----------------------------------------------------------------------------
# partition (the "partition" of Algorithms 2 and 3)
# ----------------------------------------------------------------------------

def _pivot(C, lo, hi):
    """Median of ``C[lo]``, ``C[(lo + hi) // 2]`` (lower middle) and ``C[hi - 1]``."""
    a, b, c = C[lo], C[lo + (hi - lo) // 2], C[hi - 1]
    return max(min(a, b), min(max(a, b), c))


def partition(C, lo, hi, S=None):
    """Three-way partition of ``C[lo:hi]`` in place around the pivot of :func:`_pivot`.

    Returns ``(lt, gt)``: ``C[lo:lt] < p``, ``C[lt:gt] == p``, ``C[gt:hi] > p``
    (Dijkstra's Dutch national flag, one pass; ``lt < gt``).  With ``S`` (the
    widths of :func:`find_gamma_weighted`) every swap is applied to ``S`` as
    well, so the weights travel with their responses.
    """
    p = _pivot(C, lo, hi)
    lt, i, gt = lo, lo, hi
    while i < gt:
        if C[i] < p:                                      # smaller: to the front
            _swap(C, S, i, lt)
            lt, i = lt + 1, i + 1
        elif C[i] > p:                                    # larger: to the back
            gt -= 1
            _swap(C, S, i, gt)
        else:                                             # equal: stays in the middle
            i += 1
    return lt, gt


def _swap(C, S, i, j):
    """Swap entries ``i`` and ``j`` of ``C`` (and of ``S`` unless it is None)."""
    C[i], C[j] = C[j], C[i]
    if S is not None:
        S[i], S[j] = S[j], S[i]


def select_count(C, lo, hi, count):
    """Quickselect in place: afterwards ``C[lo:count]`` holds the ``count - lo``
    smallest values of ``C[lo:hi]`` and ``C[count - 1]`` is the largest of them
    (``lo < count <= hi``)."""
    while True:
        lt, gt = partition(C, lo, hi)
        if lt < count <= gt:                              # the count-th smallest is the pivot
            return
        lo, hi = (lo, lt) if count <= lt else (gt, hi)    # keep the side that holds it


def _gap_sum(C, lo, hi, level):
    """``sum_{lo <= j < hi} (level - C[j])`` (sequential, every term >= 0)."""
    s = 0.0
    for j in range(lo, hi):
        s += level - C[j]
    return s


def _weighted_gap_sum(C, S, lo, hi, level):
    """``(sum_{lo <= j < hi} S[j] (level - C[j]), sum_{lo <= j < hi} S[j])`` (sequential, one pass)."""
    gap = weight = 0.0
    for j in range(lo, hi):
        gap += S[j] * (level - C[j])
        weight += S[j]
    return gap, weight


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


def find_gamma_weighted(c, s, volume):
    """Weighted water level: gamma with ``sum_i s_i max(0, gamma - c_i) = volume`` (weights ``s_i > 0``).

    Column ``i`` of the basin has width ``s_i``.  This is the water level of
    the weighted slack ``sum_i s_i xi_i <= volume`` (``volume = nu sum_i s_i``),
    whose supergradient samples ``i`` under water with probability
    ``s_i / sum_{under water} s_j`` (:func:`optimize` with ``sample_weight``).
    Not in the paper: Algorithm 2 with every count replaced by a weight sum.
    """
    C, S, volume = check_responses(c, volume, s=s)
    return float(_find_gamma_weighted(C, S, volume))


def _find_gamma_weighted(C, S, volume):
    """Algorithm 2 with widths: counts become weight sums (``C`` and ``S`` partitioned in place)."""
    lower, upper = 0, C.shape[0]
    lower_max, lower_volume, lower_weight = -math.inf, 0.0, 0.0
    while lower < upper:
        lt, middle = partition(C, lower, upper, S)
        middle_max = C[lt]
        middle_volume = 0.0                               # volume to fill C[:middle] up to middle_max
        if lower > 0:
            middle_volume = lower_volume + lower_weight * (middle_max - lower_max)
        gap, weight = _weighted_gap_sum(C, S, lower, middle, middle_max)
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
