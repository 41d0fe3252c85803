# cython: language_level=3
"""SBP: the kernelized Stochastic Batch Perceptron (compiled mirror of :mod:`refsvm.sbp`).

Algorithms 1-3 of Appendix B of Cotter, Shalev-Shwartz, Srebro (2012): same
functions, same signatures, same :class:`refsvm.sbp.SBPResult` and trace as
the reference; see the reference module for the reading of the pseudo-code
(sampling rule, the three-way partition, the pivot rule, Algorithm 3, the
output when the water level is not positive).

How (not what) differs:

* The whole run is one ``nogil`` loop (:func:`_optimize_loop`) over buffers
  allocated once: the partition works on a copy of the responses in a work
  array, the kernel row of each iteration is written straight into a
  preallocated row (or into its slot of the row cache) by the kernel cores of
  :mod:`refsvm._fast.kernels` (``kernel_row_into``: Gaussian rows from the
  squared norms of X's rows, computed once, and a dot over x_i's nonzeros;
  vectorised ``exp``); no temporaries per iteration.
* The partition, selection and gap sums are the reference's loops (the same
  comparisons, swaps and additions in the same order), so on the same
  responses both paths visit the same ranges and compute bitwise the same
  water levels.  The responses themselves may differ by rounding (the
  compiled ``exp`` is within 1 ulp of numpy's), so agreement is asserted to a
  tolerance, and the sampled indices exactly: line 6 decides membership to the
  reference's tolerance (``refsvm.sbp._tie_terms``, the same expression
  ``a t + b sqrt(t) + c``), so responses that tie the level in exact
  arithmetic are read alike whatever their last bits.
* What is not the loop is the reference's, imported: the options
  (:class:`refsvm.sbp.SBPOptions`: checks, kernel, volume, weights), line 1's
  check, line 2's iterate, lines 13-14 (averages, division by the level), the
  error of line 6 when no response is under water, and the trace
  (:class:`refsvm.sbp.SBPRecorder`, filled once per call from the loop's
  arrays and counters).
"""

import numpy as np

from refsvm.sbp import (SBPOptions, SBPRecorder, SBPResult, SBPState, _averages, _divide_by_level, _eta_0,
                        _ball_terms, _initial_iterate, _not_under_water, _tie_terms)
from refsvm.validation import check_responses

from libc.math cimport INFINITY, sqrt
from libc.stdint cimport int8_t, int32_t, int64_t

from refsvm._fast.kernels cimport RbfRows, kernel_code, kernel_row_into
from refsvm._fast.sparse cimport (Rows, Store, rows_init, rows_self, store_dense, store_fill, store_free, store_init,
                                  store_kernel_row)
from refsvm._fast.common cimport _check_signals, _clear_error

__all__ = ["find_gamma", "find_gamma_weighted", "find_gamma_and_bias", "optimize"]


# ----------------------------------------------------------------------------
# partition (Algorithms 2 and 3)
# ----------------------------------------------------------------------------

cdef inline double _pivot(const double* C, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Median of C[lo], C[lo + (hi - lo) // 2], C[hi - 1] (as the reference)."""
    cdef double a = C[lo], b = C[lo + (hi - lo) // 2], c = C[hi - 1]
    # Python's min / max keep the first argument on ties
    cdef double mn = b if b < a else a          # min(a, b)
    cdef double mx = b if b > a else a          # max(a, b)
    cdef double m2 = c if c < mx else mx        # min(max(a, b), c)
    return m2 if m2 > mn else mn                # max(min(a, b), min(max(a, b), c))


cdef inline void _swap(double* C, double* S, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    """Swap entries i and j of C (and of S unless it is NULL)."""
    cdef double v = C[i]
    C[i] = C[j]
    C[j] = v
    if S != NULL:
        v = S[i]
        S[i] = S[j]
        S[j] = v


cdef inline void _partition(double* C, double* S, Py_ssize_t lo, Py_ssize_t hi,
                            Py_ssize_t* lt_out, Py_ssize_t* gt_out) noexcept nogil:
    """Three-way partition of C[lo:hi] in place (Dutch national flag, as the reference); every swap
    is applied to S as well unless S is NULL (refsvm.sbp.partition)."""
    cdef double p = _pivot(C, lo, hi)
    cdef Py_ssize_t lt = lo, i = lo, gt = hi
    cdef double v
    while i < gt:
        v = C[i]
        if v < p:
            _swap(C, S, i, lt)
            lt += 1
            i += 1
        elif v > p:
            gt -= 1
            _swap(C, S, i, gt)
        else:
            i += 1
    lt_out[0] = lt
    gt_out[0] = gt


cdef inline void _select_count(double* C, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t count) noexcept nogil:
    """C[lo:count] = the count - lo smallest of C[lo:hi], C[count - 1] their largest."""
    cdef Py_ssize_t lt, gt
    while True:
        _partition(C, NULL, lo, hi, &lt, &gt)
        if count <= lt:
            hi = lt
        elif count > gt:
            lo = gt
        else:
            return


cdef inline double _gap_sum(const double* C, Py_ssize_t lo, Py_ssize_t hi, double level) noexcept nogil:
    cdef double s = 0.0
    cdef Py_ssize_t j
    for j in range(lo, hi):
        s += level - C[j]
    return s


cdef inline double _weighted_gap_sum(const double* C, const double* S, Py_ssize_t lo, Py_ssize_t hi,
                                     double level, double* weight_out) noexcept nogil:
    """refsvm.sbp._weighted_gap_sum: returns the gap sum, writes the weight sum to weight_out."""
    cdef double gap = 0.0, weight = 0.0
    cdef Py_ssize_t j
    for j in range(lo, hi):
        gap += S[j] * (level - C[j])
        weight += S[j]
    weight_out[0] = weight
    return gap


cdef inline double _capped_step(const double* C, Py_ssize_t lower, Py_ssize_t n, double lower_max,
                                double delta) noexcept nogil:
    """min(delta, min(C[lower:n]) - lower_max) (just delta when C[lower:n] is empty): Alg. 3, lines 40-41."""
    cdef Py_ssize_t j
    cdef double mn
    if lower < n:
        mn = C[lower]
        for j in range(lower + 1, n):
            if C[j] < mn:
                mn = C[j]
        if mn - lower_max < delta:
            delta = mn - lower_max
    return delta


cdef double _find_gamma(double* C, Py_ssize_t n, double volume) noexcept nogil:
    """Algorithm 2 on the work array C (partitioned in place)."""
    cdef Py_ssize_t lower = 0, upper = n, lt, middle           # Alg. 2, line 1
    cdef double lower_max = -INFINITY, lower_volume = 0.0      # Alg. 2, line 2
    cdef double middle_max, middle_volume
    while lower < upper:                                       # Alg. 2, line 3
        _partition(C, NULL, lower, upper, &lt, &middle)        # Alg. 2, line 5
        middle_max = C[lt]                                     # Alg. 2, line 6
        middle_volume = 0.0                                    # Alg. 2, lines 7-8
        if lower > 0:
            middle_volume = lower_volume + <double> lower * (middle_max - lower_max)
        middle_volume += _gap_sum(C, lower, middle, middle_max)
        if middle_volume > volume:                             # Alg. 2, line 8
            upper = lt                                         # Alg. 2, line 9
        else:                                                  # Alg. 2, line 11
            lower = middle
            lower_max = middle_max
            lower_volume = middle_volume
    return (volume - lower_volume) / <double> lower + lower_max    # Alg. 2, line 12


cdef double _find_gamma_weighted(double* C, double* S, Py_ssize_t n, double volume) noexcept nogil:
    """Algorithm 2 with widths S > 0 (refsvm.sbp.find_gamma_weighted), C and S partitioned in place."""
    cdef Py_ssize_t lower = 0, upper = n, lt, middle
    cdef double lower_max = -INFINITY, lower_volume = 0.0, lower_weight = 0.0
    cdef double middle_max, middle_volume, weight
    while lower < upper:
        _partition(C, S, lower, upper, &lt, &middle)
        middle_max = C[lt]
        middle_volume = 0.0
        if lower > 0:
            middle_volume = lower_volume + lower_weight * (middle_max - lower_max)
        middle_volume += _weighted_gap_sum(C, S, lower, middle, middle_max, &weight)
        if middle_volume > volume:
            upper = lt
        else:
            lower = middle
            lower_max = middle_max
            lower_volume = middle_volume
            lower_weight += weight
    return (volume - lower_volume) / lower_weight + lower_max


cdef void _find_gamma_and_bias(double* Cp, Py_ssize_t n_p, double* Cm, Py_ssize_t n_m, double volume,
                               double* gamma_out, double* b_out, double* gp_out, double* gm_out) noexcept nogil:
    """Algorithm 3 on the work arrays Cp = C^+ and Cm = C^- (partitioned in place)."""
    cdef Py_ssize_t K = n_p if n_p < n_m else n_m
    cdef Py_ssize_t lower = 0, upper, lt, middle
    cdef double lower_max_p = -INFINITY, lower_max_m = -INFINITY
    cdef double lower_volume_p = 0.0, lower_volume_m = 0.0
    cdef double middle_max_p, middle_max_m, vp, vm, delta, delta_p, delta_m, gamma_p, gamma_m
    if n_p > K:
        _select_count(Cp, 0, n_p, K)
    if n_m > K:
        _select_count(Cm, 0, n_m, K)
    upper = K
    while lower < upper:                                       # Alg. 3, line 7
        _partition(Cp, NULL, lower, upper, &lt, &middle)       # partition C^+
        _select_count(Cm, lower, upper, middle)                # same count in C^-
        middle_max_p = Cp[lt]
        middle_max_m = Cm[middle - 1]
        vp = 0.0
        vm = 0.0
        if lower > 0:
            vp = lower_volume_p + <double> lower * (middle_max_p - lower_max_p)
            vm = lower_volume_m + <double> lower * (middle_max_m - lower_max_m)
        vp += _gap_sum(Cp, lower, middle, middle_max_p)
        vm += _gap_sum(Cm, lower, middle, middle_max_m)
        if vp + vm > volume:                                   # Alg. 3, line 16
            upper = middle - 1
        else:
            lower = middle
            lower_max_p = middle_max_p
            lower_volume_p = vp
            lower_max_m = middle_max_m
            lower_volume_m = vm
    delta = (volume - lower_volume_p - lower_volume_m) / <double> lower     # Alg. 3, line 39
    delta_p = _capped_step(Cp, lower, n_p, lower_max_p, delta)              # Alg. 3, line 40
    delta_m = _capped_step(Cm, lower, n_m, lower_max_m, delta)              # Alg. 3, line 41
    gamma_p = lower_max_p + 0.5 * (delta + delta_p - delta_m)              # Alg. 3, line 42
    gamma_m = lower_max_m + 0.5 * (delta - delta_p + delta_m)
    gamma_out[0] = 0.5 * (gamma_p + gamma_m)                                # Alg. 3, line 43
    b_out[0] = 0.5 * (gamma_m - gamma_p)
    gp_out[0] = gamma_p
    gm_out[0] = gamma_m


def find_gamma(c, volume):
    """Water level gamma with ``sum_i max(0, gamma - c_i) = volume`` (Algorithm 2).

    Same as :func:`refsvm.sbp.find_gamma`.
    """
    C, volume = check_responses(c, volume)
    cdef double[::1] Cv = C
    cdef double v = volume
    cdef double g
    with nogil:
        g = _find_gamma(&Cv[0], Cv.shape[0], v)
    return float(g)


def find_gamma_weighted(c, s, volume):
    """Weighted water level; same as :func:`refsvm.sbp.find_gamma_weighted`."""
    C, S, volume = check_responses(c, volume, s=s)
    cdef double[::1] Cv = C
    cdef double[::1] Sv = S
    cdef double v = volume
    cdef double g
    with nogil:
        g = _find_gamma_weighted(&Cv[0], &Sv[0], Cv.shape[0], v)
    return float(g)


def find_gamma_and_bias(y, c, volume):
    """Water level gamma and bias b of two basins (Algorithm 3).

    Same as :func:`refsvm.sbp.find_gamma_and_bias`.
    """
    y, C, volume = check_responses(c, volume, y)
    Cp = np.ascontiguousarray(C[y == 1])
    Cm = np.ascontiguousarray(C[y == -1])
    cdef double[::1] Cpv = Cp
    cdef double[::1] Cmv = Cm
    cdef double v = volume
    cdef double g, b, gp, gm
    with nogil:
        _find_gamma_and_bias(&Cpv[0], Cpv.shape[0], &Cmv[0], Cmv.shape[0], v, &g, &b, &gp, &gm)
    return float(g), float(b)


# ----------------------------------------------------------------------------
# Algorithm 1
# ----------------------------------------------------------------------------

cdef struct Stats:
    long long t
    double r2
    long long kernel_evaluations
    long long hits
    long long misses
    long long mistakes
    bint interrupted       # Ctrl-C seen: the loop stopped early (the def raises KeyboardInterrupt)
    bint not_under_water   # line 6 found no response at or below the level (NaN responses): stopped early


cdef inline bint _under(double c_j, double level, bint strict, double tol) noexcept nogil:
    """c_j < level - tol (strict) or c_j <= level + tol (refsvm.sbp._under_water: the tie rule)."""
    return c_j < level - tol if strict else c_j <= level + tol


cdef inline Py_ssize_t _count_under(const double[::1] c, const int64_t[::1] y, double level_p, double level_m,
                                    bint strict, double tol) noexcept nogil:
    """The size of {j : c_j < level_{y_j} - tol} (strict) or {j : c_j <= level_{y_j} + tol}: the two
    thresholds computed once (the same numbers as :func:`_under`'s), one comparison per j."""
    cdef Py_ssize_t j, count = 0
    cdef double thr_p = level_p - tol if strict else level_p + tol
    cdef double thr_m = level_m - tol if strict else level_m + tol
    if strict:
        for j in range(c.shape[0]):
            count += c[j] < (thr_p if y[j] == 1 else thr_m)
    else:
        for j in range(c.shape[0]):
            count += c[j] <= (thr_p if y[j] == 1 else thr_m)
    return count


cdef inline Py_ssize_t _sample(const double[::1] c, const int64_t[::1] y, double level_p, double level_m,
                               double u_t, double tol, Py_ssize_t* count_out) noexcept nogil:
    """Alg. 1, line 6 (refsvm.sbp._sample): the floor(u_t * count)-th j, in index order, of
    {j : c_j < level_{y_j} - tol} (c_j + y_j b < gamma, see the reference), or of
    {j : c_j <= level_{y_j} + tol} when that set is empty; -1 when both are (NaN responses or level)."""
    cdef bint strict = True
    cdef Py_ssize_t j, k, count = _count_under(c, y, level_p, level_m, True, tol)
    if count == 0:
        strict = False
        count = _count_under(c, y, level_p, level_m, False, tol)
    count_out[0] = count
    if count == 0:
        return -1
    k = <Py_ssize_t> (u_t * <double> count)
    if k > count - 1:
        k = count - 1
    for j in range(c.shape[0]):
        if _under(c[j], level_p if y[j] == 1 else level_m, strict, tol):
            if k == 0:
                return j
            k -= 1
    return -1


cdef Py_ssize_t _sample_weighted(const double[::1] c, const double[::1] sw, double level, double u_t,
                                 double tol, Py_ssize_t* count_out) noexcept nogil:
    """Line 6 with weights (refsvm.sbp._sample_weighted): the first j of {s_j > 0, c_j < level - tol}
    (c_j <= level + tol when empty), in index order, whose running weight sum exceeds u_t times the
    set's total; -1 when both sets are empty."""
    cdef Py_ssize_t n = c.shape[0], j, count = 0, last = 0
    cdef double total = 0.0, target, cum = 0.0
    cdef bint strict = True
    for j in range(n):
        if sw[j] > 0.0 and _under(c[j], level, True, tol):
            total += sw[j]
            count += 1
    if count == 0:
        strict = False
        for j in range(n):
            if sw[j] > 0.0 and _under(c[j], level, False, tol):
                total += sw[j]
                count += 1
    count_out[0] = count
    if count == 0:                          # NaN responses or level (refsvm.sbp._not_under_water)
        return -1
    target = u_t * total
    for j in range(n):
        if sw[j] > 0.0 and _under(c[j], level, strict, tol):
            cum += sw[j]
            last = j
            if cum > target:
                return j
    return last


cdef void _optimize_loop(const Rows* X, const Store* S, Py_ssize_t n, const int64_t[::1] y,
                         const double[::1] u,
                         int kernel, double gamma, double degree, double coef0,
                         double volume, double eta_0, double tie_a, double tie_b, double tie_c,
                         double ball_p, double ball_q, bint fit_bias, bint weighted, const double[::1] sw,
                         double[::1] alpha, double[::1] c, double[::1] alpha_sum, double[::1] c_sum,
                         double[::1] work, double[::1] work2, double[::1] row_buf,
                         double[:, ::1] cache, int64_t[::1] slot_of, int64_t[::1] owner,
                         int64_t[::1] stamp, Py_ssize_t capacity,
                         int64_t[::1] sampled, double[::1] water_level, double[::1] bias_t,
                         int64_t[::1] n_violating, int8_t[::1] projected,
                         const double* x_sq, int32_t* x_ind, double* x_val, Stats* st) noexcept nogil:
    """The run; ``x_sq``: ``seq_sq`` of every dense row of X, ``x_ind`` / ``x_val``: room for ``d``
    (dense Gaussian kernel rows, ``kernel_row_into``); ``tie_a``, ``tie_b``, ``tie_c``: line 6's
    tolerance ``tie_a t + tie_b sqrt(t) + tie_c`` (refsvm.sbp._tie_terms); ``ball_p``, ``ball_q``: line
    11's, ``r2 > 1 + (ball_p sqrt(t) + ball_q) t`` (refsvm.sbp._ball_terms, _outside_ball)."""
    cdef Py_ssize_t d = X.d, T = u.shape[0]
    cdef Py_ssize_t step, j, i, count, n_p, n_m, slot, used = 0, s
    cdef long long t = st.t, clock = 0
    cdef double r2 = st.r2, eta_t, level, b, ey, scale, ci, level_p, level_m, tol
    cdef double* row
    for step in range(T):                                                  # Alg. 1, line 3
        if (step & 7) == 7:                               # an iteration is O(n): let Ctrl-C through
            with gil:
                if _check_signals() != 0:
                    _clear_error()
                    st.interrupted = True
                    st.t = t
                    return
        t += 1
        eta_t = eta_0 / sqrt(<double> t)                                   # Alg. 1, line 4
        if fit_bias:                                                       # line 5 (Alg. 3)
            n_p = 0
            n_m = 0
            for j in range(n):
                if y[j] == 1:
                    work[n_p] = c[j]
                    n_p += 1
                else:
                    work2[n_m] = c[j]
                    n_m += 1
            _find_gamma_and_bias(&work[0], n_p, &work2[0], n_m, volume, &level, &b, &level_p, &level_m)
        elif weighted:                                                     # line 5, weighted
            n_p = 0
            for j in range(n):
                if sw[j] > 0.0:
                    work[n_p] = c[j]
                    work2[n_p] = sw[j]
                    n_p += 1
            level = _find_gamma_weighted(&work[0], &work2[0], n_p, volume)
            b = 0.0
            level_p = level
            level_m = level
        else:                                                              # Alg. 1, line 5
            for j in range(n):
                work[j] = c[j]
            level = _find_gamma(&work[0], n, volume)
            b = 0.0
            level_p = level
            level_m = level
        tol = tie_a * <double> t + tie_b * sqrt(<double> t) + tie_c       # refsvm.sbp._tie_tolerance
        if weighted:                                                       # line 6, weighted
            i = _sample_weighted(c, sw, level, u[step], tol, &count)
        else:                                                              # Alg. 1, line 6
            i = _sample(c, y, level_p, level_m, u[step], tol, &count)
        if i < 0:                           # no response at or below the level (NaN responses)
            st.not_under_water = True
            st.t = t
            st.r2 = r2
            return
        if c[i] + <double> y[i] * b <= 0.0:                                # w^(t-1) misclassifies x_i
            st.mistakes += 1
        alpha[i] += eta_t                                                  # Alg. 1, line 7
        clock += 1                                                         # kernel row K(x_i, .)
        slot = slot_of[i] if capacity > 0 else -1
        if slot >= 0:
            st.hits += 1
            stamp[slot] = clock
            row = &cache[slot, 0]
        else:
            st.misses += 1
            if capacity > 0:
                if used < capacity:
                    slot = used
                    used += 1
                else:
                    slot = 0                                               # least recently used
                    for s in range(1, capacity):
                        if stamp[s] < stamp[slot]:
                            slot = s
                    slot_of[owner[slot]] = -1
                slot_of[i] = slot
                owner[slot] = i
                stamp[slot] = clock
                row = &cache[slot, 0]
            else:
                row = &row_buf[0]
            if X.sparse:                                                   # sparse rows: X as SV slots
                store_kernel_row(S, n, X, i, kernel, gamma, degree, coef0, row)
            else:
                kernel_row_into(kernel, X.dense, n, d, X.dense + i * d, gamma, degree, coef0, row,
                                x_sq, x_ind, x_val)
            st.kernel_evaluations += n
        ci = c[i]
        r2 = r2 + 2.0 * eta_t * ci + eta_t * eta_t * row[i]               # Alg. 1, line 8
        ey = eta_t * <double> y[i]
        for j in range(n):                                                 # Alg. 1, lines 9-10
            c[j] += (ey * <double> y[j]) * row[j]
        if r2 > 1.0 + (ball_p * sqrt(<double> t) + ball_q) * <double> t:   # Alg. 1, line 11 (_outside_ball)
            scale = 1.0 / sqrt(r2)
            for j in range(n):                                             # Alg. 1, line 12
                alpha[j] *= scale
                c[j] *= scale
            r2 = 1.0
            projected[step] = 1
        for j in range(n):                                                 # for line 13
            alpha_sum[j] += alpha[j]
            c_sum[j] += c[j]
        sampled[step] = i
        water_level[step] = level
        bias_t[step] = b
        n_violating[step] = count
    st.t = t
    st.r2 = r2


def optimize(X, y, u, *, nu, kernel, gamma, degree, coef0, fit_bias=False, cache_rows=0,
             state=None, sample_weight=None):
    """``len(u)`` iterations of Algorithm 1 (SBP) on ``(X, y)``.

    Same parameters and result as :func:`refsvm.sbp.optimize` (see there): the options
    (:class:`refsvm.sbp.SBPOptions`), line 2, lines 13-14 and the trace
    (:class:`refsvm.sbp.SBPRecorder`) are the reference's; lines 1 and 3-12 run here.
    """
    X, y, u, opts = SBPOptions.resolve(X, y, u, nu=nu, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0,
                                       fit_bias=fit_bias, cache_rows=cache_rows, state=state,
                                       sample_weight=sample_weight)
    cdef int kcode = kernel_code(opts.kernel.kind)
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1], j
    cdef Rows R
    rows_init(&R, X)
    cdef double volume = opts.volume
    cdef const double[::1] swv = opts.weights
    cdef double gm = opts.kernel.gamma, dg = opts.kernel.degree, c0 = opts.kernel.coef0
    cdef double kmax = -INFINITY, kv
    for j in range(n):                                                     # Alg. 1, line 1
        kv = rows_self(&R, j, kcode, gm, dg, c0)
        if kv > kmax:
            kmax = kv
    cdef double eta_0 = _eta_0(kmax)
    cdef double tie_a, tie_b, tie_c
    tie_a, tie_b, tie_c = _tie_terms(eta_0, X, opts)                     # line 6's tolerance
    cdef double ball_p, ball_q
    ball_p, ball_q = _ball_terms(eta_0, X, opts)                         # line 11's tolerance
    alpha, c, alpha_sum, c_sum, r2, t = _initial_iterate(state, n)        # Alg. 1, line 2
    cdef Py_ssize_t T = u.shape[0]
    cdef Py_ssize_t capacity = opts.cache_rows
    sampled = np.zeros(T, dtype=np.int64)
    water_level = np.zeros(T)
    bias_t = np.zeros(T)
    n_violating = np.zeros(T, dtype=np.int64)
    projected = np.zeros(T, dtype=np.int8)
    work = np.zeros(n)
    work2 = np.zeros(n)
    row_buf = np.zeros(n)
    cache = np.zeros((int(capacity), int(n)) if capacity > 0 else (1, 1))
    slot_of = np.full(n, -1, dtype=np.int64)
    owner = np.full(max(capacity, 1), -1, dtype=np.int64)
    stamp = np.zeros(max(capacity, 1), dtype=np.int64)

    cdef Stats st
    st.t = t
    st.r2 = r2
    st.kernel_evaluations = 0
    st.hits = 0
    st.misses = 0
    st.mistakes = 0
    st.interrupted = False
    st.not_under_water = False
    cdef bint fb = opts.fit_bias, weighted = opts.weighted
    cdef const int64_t[::1] yv = y
    cdef const double[::1] uv = u
    cdef double[::1] av = alpha, cv = c, asv = alpha_sum, csv = c_sum
    cdef double[::1] wv = work, w2v = work2, rv = row_buf
    cdef double[:, ::1] cachev = cache
    cdef int64_t[::1] slotv = slot_of, ownerv = owner, stampv = stamp
    cdef int64_t[::1] sv = sampled, nvv = n_violating
    cdef double[::1] wlv = water_level, btv = bias_t
    cdef int8_t[::1] pv = projected
    cdef RbfRows xw = RbfRows(np.zeros((0, d)) if R.sparse else X)   # dense rows: norms, room for x
    cdef Store S
    if R.sparse:
        store_init(&S, None, max(n, 1), d, True)
    else:
        store_dense(&S, cachev)                          # not read: dense rows come from X itself
    try:
        if R.sparse:
            store_fill(&S, X)
        with nogil:
            _optimize_loop(&R, &S, n, yv, uv, kcode, gm, dg, c0, volume, eta_0, tie_a, tie_b, tie_c, ball_p, ball_q, fb,
                           weighted, swv, av, cv, asv, csv, wv, w2v, rv, cachev, slotv, ownerv, stampv, capacity,
                           sv, wlv, btv, nvv, pv, &xw.sq[0], &xw.ind[0], &xw.val[0], &st)
    finally:
        if R.sparse:
            store_free(&S)
    if st.interrupted:
        raise KeyboardInterrupt
    if st.not_under_water:
        raise _not_under_water()

    t = st.t
    alpha_bar, c_bar = _averages(alpha_sum, c_sum, t)                      # Alg. 1, line 13
    if opts.fit_bias:
        level_bar, b_bar = find_gamma_and_bias(y, c_bar, volume)
    elif weighted:
        positive = opts.weights > 0.0
        level_bar, b_bar = find_gamma_weighted(c_bar[positive], opts.weights[positive], volume), 0.0
    else:
        level_bar, b_bar = find_gamma(c_bar, volume), 0.0
    coef, bias = _divide_by_level(y, alpha_bar, b_bar, level_bar)          # Alg. 1, line 14
    rec = SBPRecorder.from_loop(sampled, water_level, bias_t, n_violating, projected, mistakes=st.mistakes,
                                kernel_evaluations=st.kernel_evaluations, cache_hits=st.hits, cache_misses=st.misses)
    new_state = SBPState(alpha=alpha, c=c, alpha_sum=alpha_sum, c_sum=c_sum, r2=float(st.r2), t=int(t))
    return SBPResult(coef=coef, bias=bias, water_level=float(level_bar), state=new_state,
                     trace=rec.sbp_trace(level_bar, b_bar))
