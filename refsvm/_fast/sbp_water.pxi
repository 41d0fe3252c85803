# SBP's water filling, included by sbp.pyx: the compiled mirror of refsvm/sbp_water.py (Algorithms 2
# and 3 of Cotter, Shalev-Shwartz & Srebro 2012, Appendix B: find_gamma, find_gamma_weighted,
# find_gamma_and_bias, with the three-way partition and the quickselect they share).  One extension
# with sbp.pyx (``include``): the C cores are inline functions of Algorithm 1's nogil loop.
#
# Contents: the partition and selection (C), Algorithms 2 and 3 (C), then their Python entry points.

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
