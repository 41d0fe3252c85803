# The list operations every strategy shares, the selection rule and removal, included by budget.pyx: the
# compiled mirror of refsvm.budget.removal (same functions, same signatures, same list operations).
#
# Contents: the C cores (remove(p), the selection of the smallest SV, with BSCA's tie rule, and the
# removal step that bsgd.pyx calls directly), then the Python-level functions.

# ----------------------------------------------------------------------------
# C cores: list operations shared by all strategies
# ----------------------------------------------------------------------------

cdef Py_ssize_t c_remove_sv(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv,
                            Py_ssize_t p) noexcept nogil:
    """remove(p): the last SV moves into slot ``p``.  Returns ``n_sv - 1``."""
    cdef Py_ssize_t last = n_sv - 1, k
    if p != last:
        store_move(SV, p, last)
        for k in range(alpha.shape[1]):
            alpha[p, k] = alpha[last, k]
    return last


cdef Py_ssize_t _smallest_square(const double[:, ::1] alpha, Py_ssize_t n_sv) noexcept nogil:
    """The first ``j`` of least ``alpha[j, 0]^2`` (-1 if a square is NaN: the caller's plain loop
    decides).  Four running minima with their first indices (selects, no branch) break the loop's
    chain of dependent comparisons; the least of the four, lowest index among equals, is the answer."""
    cdef double v0 = INFINITY, v1 = INFINITY, v2 = INFINITY, v3 = INFINITY, v, low
    cdef Py_ssize_t j, n4 = n_sv - n_sv % 4, i0 = -1, i1 = -1, i2 = -1, i3 = -1, best
    cdef bint nan = False
    for j in range(0, n4, 4):
        v = alpha[j, 0] * alpha[j, 0]
        nan |= v != v
        i0 = j if v < v0 else i0
        v0 = v if v < v0 else v0
        v = alpha[j + 1, 0] * alpha[j + 1, 0]
        nan |= v != v
        i1 = j + 1 if v < v1 else i1
        v1 = v if v < v1 else v1
        v = alpha[j + 2, 0] * alpha[j + 2, 0]
        nan |= v != v
        i2 = j + 2 if v < v2 else i2
        v2 = v if v < v2 else v2
        v = alpha[j + 3, 0] * alpha[j + 3, 0]
        nan |= v != v
        i3 = j + 3 if v < v3 else i3
        v3 = v if v < v3 else v3
    for j in range(n4, n_sv):
        v = alpha[j, 0] * alpha[j, 0]
        nan |= v != v
        i0 = j if v < v0 else i0
        v0 = v if v < v0 else v0
    if nan:
        return -1
    low, best = v0, i0
    if v1 < low or (v1 == low and i1 >= 0 and (best < 0 or i1 < best)):
        low, best = v1, i1
    if v2 < low or (v2 == low and i2 >= 0 and (best < 0 or i2 < best)):
        low, best = v2, i2
    if v3 < low or (v3 == low and i3 >= 0 and (best < 0 or i3 < best)):
        low, best = v3, i3
    return best if best >= 0 else 0                                  # all inf: the plain loop's 0


cdef Py_ssize_t c_select_smallest(const Store* SV, const double[:, ::1] alpha,
                                  Py_ssize_t n_sv, int kernel, double gamma, double degree,
                                  double coef0, double* norm_min) noexcept nogil:
    """``p = argmin_j ||alpha_j||^2 k(x_j, x_j)`` (sec. 6.1); first index on ties."""
    cdef Py_ssize_t j, best = 0, c = alpha.shape[1]
    cdef double v, best_v = INFINITY
    if c == 1 and kernel == KERNEL_RBF and n_sv > 0:                 # alpha_j^2 (k = 1): see _smallest_square
        best = _smallest_square(alpha, n_sv)
        if best >= 0:
            norm_min[0] = (alpha[best, 0] * alpha[best, 0]) * 1.0
            return best
        best = 0
    for j in range(n_sv):
        v = pw_sq_sum(&alpha[j, 0], c) * store_self(SV, j, kernel, gamma, degree, coef0)
        if j == 0 or v < best_v:
            best = j
            best_v = v
    norm_min[0] = best_v
    return best


cdef inline double _solve_error_margin(const double[:, ::1] alpha, Py_ssize_t j, double e, double k_jj) noexcept nogil:
    """``s_j`` of :func:`refsvm.budget.solve_error_margin`: ``SOLVE_ERROR_SAFETY (2 ||alpha_j||_1 e_j + c e_j^2) k_jj``."""
    cdef Py_ssize_t r, c = alpha.shape[1]
    cdef double l1 = 0.0
    for r in range(c):
        l1 += fabs(alpha[j, r])
    return SOLVE_SAFETY * (2.0 * l1 * e + c * e * e) * k_jj


#: slots :func:`_select_smallest_tie_rbf1` keeps before it leaves the choice to the two passes
cdef enum:
    _TIE_KEPT = 32


cdef Py_ssize_t _select_smallest_tie_rbf1(const double[:, ::1] alpha, Py_ssize_t n_sv, double tie_unit,
                                          const double* errors, double* norm_p) noexcept nogil:
    """:func:`c_select_smallest_tie` for one column and the Gaussian kernel (``k_jj = 1``: BSCA's binary
    merging and removal), the same numbers in one pass: a slot whose lower end ``N_j - t_j`` lies at or
    below the running minimum of the upper ends is kept (in index order); the final ``U`` is at most
    that running minimum, so every slot of the final band was kept, and the first kept slot within
    ``U`` is the answer.  Returns -1 when more than ``_TIE_KEPT`` slots were kept or none qualifies
    (NaN norms): the caller then runs the two passes."""
    cdef Py_ssize_t j, k, n_kept = 0
    cdef Py_ssize_t kept[_TIE_KEPT]
    cdef double lows[_TIE_KEPT]
    cdef double vals[_TIE_KEPT]
    cdef double a, v, e, lo, hi, s = 0.0, upper = INFINITY
    for j in range(n_sv):
        a = alpha[j, 0]
        v = (a * a) * 1.0                                    # pw_sq_sum of one term, times k_jj = 1
        if errors != NULL:
            e = errors[j]
            s = SOLVE_SAFETY * (2.0 * fabs(a) * e + 1.0 * e * e) * 1.0   # _solve_error_margin, c = 1
        hi = v * (1.0 + tie_unit) + s
        if hi < upper:
            upper = hi
        lo = v * (1.0 - tie_unit) - s
        if lo <= upper:
            if n_kept == _TIE_KEPT:
                return -1
            kept[n_kept] = j
            lows[n_kept] = lo
            vals[n_kept] = v
            n_kept += 1
    for k in range(n_kept):
        if lows[k] <= upper:
            norm_p[0] = vals[k]
            return kept[k]
    return -1


cdef Py_ssize_t c_select_smallest_tie(const Store* SV, const double[:, ::1] alpha, Py_ssize_t n_sv, int kernel,
                                      double gamma, double degree, double coef0, double tie_unit,
                                      const double* errors, double* norm_p) noexcept nogil:
    """:func:`refsvm.budget.select_smallest` with ``tie_unit`` (BSCA): ``t_j = tie_unit N_j + s_j``,
    ``U = min_j (N_j + t_j)``, the lowest ``j`` with ``N_j - t_j <= U``; ``s_j`` from ``errors`` (BSCA's
    coefficient bounds: Newton steps and projection solves, :func:`_solve_error_margin`; NULL: 0,
    bitwise the rule without them);
    ``tie_unit <= 0`` without ``errors``: :func:`c_select_smallest`; with them (BSGD projection) the
    band of ``s_j`` alone (the exact argmin where every ``e_j`` is 0)."""
    cdef Py_ssize_t j, c = alpha.shape[1]
    cdef double v, k_jj, s = 0.0, upper = INFINITY
    if (tie_unit <= 0.0 and errors == NULL) or n_sv == 0:
        return c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, norm_p)
    if c == 1 and kernel == KERNEL_RBF:                      # one pass (the same choice)
        j = _select_smallest_tie_rbf1(alpha, n_sv, tie_unit, errors, norm_p)
        if j >= 0:
            return j
    for j in range(n_sv):
        k_jj = store_self(SV, j, kernel, gamma, degree, coef0)
        v = pw_sq_sum(&alpha[j, 0], c) * k_jj
        if errors != NULL:
            s = _solve_error_margin(alpha, j, errors[j], k_jj)
        if v * (1.0 + tie_unit) + s < upper:
            upper = v * (1.0 + tie_unit) + s
    for j in range(n_sv):
        k_jj = store_self(SV, j, kernel, gamma, degree, coef0)
        v = pw_sq_sum(&alpha[j, 0], c) * k_jj
        if errors != NULL:
            s = _solve_error_margin(alpha, j, errors[j], k_jj)
        if v * (1.0 - tie_unit) - s <= upper:
            norm_p[0] = v
            return j
    return c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, norm_p)   # NaN norms

# ----------------------------------------------------------------------------
# C cores: removal (Algorithm 2, "Removal")
# ----------------------------------------------------------------------------

cdef Py_ssize_t c_maintain_removal(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv,
                                   int kernel, double gamma, double degree, double coef0,
                                   Py_ssize_t* p_out, double* wd_out) noexcept nogil:
    cdef Py_ssize_t p = c_select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, wd_out)  # Alg. 2, removal, line 1
    p_out[0] = p
    return c_remove_sv(SV, alpha, n_sv, p)                                                         # Alg. 2, removal, line 2


# ----------------------------------------------------------------------------
# C cores: the removal baselines of section 7.3 (MP+random, MP+stop)
# ----------------------------------------------------------------------------

cdef Py_ssize_t c_random_slot(double u, Py_ssize_t n_sv) noexcept nogil:
    """``min(floor(u n_sv), n_sv - 1)`` (:func:`refsvm.budget.random_slot`: the same product, truncated)."""
    cdef Py_ssize_t p = <Py_ssize_t> (u * <double> n_sv)
    return p if p < n_sv - 1 else n_sv - 1


cdef inline double c_removal_norm(const Store* SV, const double[:, ::1] alpha, Py_ssize_t p, int kernel,
                                  double gamma, double degree, double coef0) noexcept nogil:
    """``||alpha_p||^2 k(x_p, x_p)`` as :func:`c_select_smallest` computes it per slot."""
    return pw_sq_sum(&alpha[p, 0], alpha.shape[1]) * store_self(SV, p, kernel, gamma, degree, coef0)


cdef Py_ssize_t c_maintain_removal_at(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv, Py_ssize_t p,
                                      int kernel, double gamma, double degree, double coef0,
                                      double* wd_out) noexcept nogil:
    """Remove SV ``p``, chosen by the caller (:func:`refsvm.budget.maintain_removal_at`)."""
    wd_out[0] = c_removal_norm(SV, alpha, p, kernel, gamma, degree, coef0)
    return c_remove_sv(SV, alpha, n_sv, p)                                                         # Alg. 2, removal, line 2

# ----------------------------------------------------------------------------
# Python-level functions (same names and signatures as refsvm.budget.removal)
# ----------------------------------------------------------------------------

def remove_sv(SV, alpha, n_sv, p):
    """Remove SV ``p``: the last SV moves into slot ``p``.  Returns ``n_sv - 1``."""
    S, cs = _inplace(SV, "SV")
    A, ca = _inplace(alpha, "alpha")
    cdef Py_ssize_t n = _check_model(S, A, n_sv)
    cdef Py_ssize_t pp = p
    if pp < 0:
        pp += n
    if not 0 <= pp < n:
        raise IndexError(f"p={p} out of range for n_sv={n}")
    cdef Store St
    _open_store(&St, S, n)
    cdef double[:, ::1] Av = A
    with nogil:
        n = c_remove_sv(&St, Av, n, pp)
    _close_store(&St, S, n)
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return n_sv - 1


def select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit=0.0, errors=None):
    """``p = argmin_j ||alpha_j||^2 k(x_j, x_j)`` over the first ``n_sv`` SVs (sec. 6.1; ties and
    ``errors``: :func:`refsvm.budget.select_smallest`)."""
    S = SV if isinstance(SV, SparseRows) else np.ascontiguousarray(SV, dtype=np.float64)
    A = np.ascontiguousarray(alpha, dtype=np.float64)
    if len(S.shape) != 2 or A.ndim != 2:
        raise ValueError("SV and alpha must be 2-D arrays")
    cdef int code = kernel_code(kernel)
    cdef Py_ssize_t n = _check_model(S, A, n_sv), p
    if n == 0:
        raise ValueError("attempt to get argmin of an empty sequence")
    cdef Store St
    _open_store(&St, S, n)
    cdef const double[:, ::1] Av = A
    cdef double g = gamma, deg = degree, c0 = coef0, v, tu = tie_unit
    E = None if errors is None else np.ascontiguousarray(errors[:n], dtype=np.float64)
    cdef const double[::1] Ev = E if E is not None and n > 0 else None
    cdef const double* ep = &Ev[0] if Ev is not None else NULL
    with nogil:
        p = c_select_smallest_tie(&St, Av, n, code, g, deg, c0, tu, ep, &v)
    _close_store(&St, S, 0)
    return int(p), float(v)


def maintain_removal(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit=0.0):
    """Remove the smallest SV (ties: :func:`refsvm.budget.select_smallest`).  Returns ``(n_sv, p, -1, WD)``."""
    cdef int code = kernel_code(kernel)
    S, cs, A, ca, n_ = _working_model(SV, alpha, n_sv)
    cdef Py_ssize_t n = n_, p
    cdef Store St
    _open_store(&St, S, n)
    cdef double[:, ::1] Av = A
    cdef double g = gamma, deg = degree, c0 = coef0, wd, tu = tie_unit
    with nogil:
        p = c_select_smallest_tie(&St, Av, n, code, g, deg, c0, tu, NULL, &wd)   # Alg. 2, removal, line 1
        n = c_remove_sv(&St, Av, n, p)                                      # Alg. 2, removal, line 2
    _close_store(&St, S, n)
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return int(n), int(p), -1, float(wd)


def random_slot(u, n_sv):
    """The slot a uniform draw ``u`` in [0, 1) picks among ``n_sv`` SVs (:func:`refsvm.budget.random_slot`)."""
    if n_sv < 1:
        raise ValueError(f"n_sv must be >= 1; got {n_sv}")
    return int(c_random_slot(u, n_sv))


def _slot(p, n):
    """``p`` as an index into ``n`` SVs (negative from the end); IndexError out of range."""
    cdef Py_ssize_t pp = p
    if pp < 0:
        pp += n
    if not 0 <= pp < n:
        raise IndexError(f"p={p} out of range for n_sv={n}")
    return pp


def removal_norm(SV, alpha, p, kernel, gamma, degree, coef0):
    """``||alpha_p||^2 k(x_p, x_p)`` (:func:`refsvm.budget.removal_norm`)."""
    S = SV if isinstance(SV, SparseRows) else np.ascontiguousarray(SV, dtype=np.float64)
    A = np.ascontiguousarray(alpha, dtype=np.float64)
    cdef Py_ssize_t n = min(S.shape[0], A.shape[0])
    cdef Py_ssize_t pp = _slot(p, n)
    cdef int code = kernel_code(kernel)
    cdef Store St
    _open_store(&St, S, pp + 1)
    cdef const double[:, ::1] Av = A
    cdef double v, g = gamma, deg = degree, c0 = coef0
    with nogil:
        v = c_removal_norm(&St, Av, pp, code, g, deg, c0)
    _close_store(&St, S, 0)
    return float(v)


def maintain_removal_at(SV, alpha, n_sv, p, kernel, gamma, degree, coef0):
    """Remove SV ``p``, chosen by the caller (:func:`refsvm.budget.maintain_removal_at`).  Returns
    ``(n_sv, p, -1, WD)``."""
    cdef int code = kernel_code(kernel)
    S, cs, A, ca, n_ = _working_model(SV, alpha, n_sv)
    cdef Py_ssize_t n = n_
    cdef Py_ssize_t pp = _slot(p, n)
    cdef Store St
    _open_store(&St, S, n)
    cdef double[:, ::1] Av = A
    cdef double g = gamma, deg = degree, c0 = coef0, wd
    with nogil:
        n = c_maintain_removal_at(&St, Av, n, pp, code, g, deg, c0, &wd)
    _close_store(&St, S, n)
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return int(n), int(pp), -1, float(wd)
