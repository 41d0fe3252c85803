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
from refsvm.recorder import add_step_records, step_record_arrays

from libc.math cimport INFINITY, sqrt
from libc.stdint cimport int8_t, int32_t, int64_t

from refsvm._fast.kernels cimport RbfRows, kernel_code, kernel_row_into
from refsvm._fast.sparse cimport (Rows, Store, rows_init, rows_self, store_dense, store_fill, store_free, store_init,
                                  store_kernel_row)
from refsvm._fast.common cimport _check_signals, _clear_error
from refsvm._fast.step_records cimport StepOut, record_margin, records_off, step_out_on

__all__ = ["find_gamma", "find_gamma_weighted", "find_gamma_and_bias", "optimize"]


include "sbp_water.pxi"                          # Algorithms 2 and 3 (refsvm/sbp_water.py)


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
                         const double* x_sq, int32_t* x_ind, double* x_val, Stats* st,
                         const StepOut* records) noexcept nogil:
    """The run; ``x_sq``: ``seq_sq`` of every dense row of X, ``x_ind`` / ``x_val``: room for ``d``
    (dense Gaussian kernel rows, ``kernel_row_into``); ``tie_a``, ``tie_b``, ``tie_c``: line 6's
    tolerance ``tie_a t + tie_b sqrt(t) + tie_c`` (refsvm.sbp._tie_terms); ``ball_p``, ``ball_q``: line
    11's, ``r2 > 1 + (ball_p sqrt(t) + ball_q) t`` (refsvm.sbp._ball_terms, _outside_ball); ``records``:
    the per-step records (NULL pointers: off)."""
    cdef Py_ssize_t d = X.d, T = u.shape[0]
    cdef Py_ssize_t step, j, i, count, n_p, n_m, slot, used = 0, s
    cdef long long t = st.t, clock = 0
    cdef double r2 = st.r2, eta_t, level, b, ey, scale, ci, level_p, level_m, tol, score
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
        if records.margin != NULL:                        # per-step records (opt-in): the score y_i (c_i + y_i b)
            score = <double> y[i] * (c[i] + <double> y[i] * b)
            record_margin(records, step, &score)
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
    cdef StepOut steps = records_off(1)    # per-step records: off unless switched on
    margins, new_coefs = step_record_arrays(T, 0, 1)
    if margins is not None:
        step_out_on(&steps, margins, new_coefs)
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
                           sv, wlv, btv, nvv, pv, &xw.sq[0], &xw.ind[0], &xw.val[0], &st, &steps)
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
    trace = rec.sbp_trace(level_bar, b_bar)
    add_step_records(trace, margins, new_coefs, 0)        # the reference's StepRecords keys
    return SBPResult(coef=coef, bias=bias, water_level=float(level_bar), state=new_state, trace=trace)
