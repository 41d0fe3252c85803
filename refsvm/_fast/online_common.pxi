# The online learners' error bounds and tie tolerances on the compiled path (included by online.pyx
# before the passes that use them): the mirror of refsvm/online/common.py's margin_tolerance,
# kernel-error bounds, and BPA-S's candidate tolerances (refsvm/online/passive_aggressive.py), each named in its docstring.


cdef inline double _margin_tolerance(const double* k, const double* a, Py_ssize_t b,
                                     double eps_K, double rel_K) noexcept nogil:
    """:func:`refsvm.online.common.margin_tolerance` (``b > 0``): ``2 ((b + 2) u S_ak + min(eps_K S_a,
    rel_K S_ak + tiny S_a))`` (``rel_K`` INFINITY: ``eps_K S_a``)."""
    cdef double s1a = 0.0, s1b = 0.0, s1c = 0.0, s1d = 0.0, s2a = 0.0, s2b = 0.0, s2c = 0.0, s2d = 0.0
    cdef Py_ssize_t j, m = b - b % 4
    for j in range(0, m, 4):                                # 4 accumulators each (not latency-bound)
        s1a += fabs(a[j] * k[j])
        s1b += fabs(a[j + 1] * k[j + 1])
        s1c += fabs(a[j + 2] * k[j + 2])
        s1d += fabs(a[j + 3] * k[j + 3])
        s2a += fabs(a[j])
        s2b += fabs(a[j + 1])
        s2c += fabs(a[j + 2])
        s2d += fabs(a[j + 3])
    for j in range(m, b):
        s1a += fabs(a[j] * k[j])
        s2a += fabs(a[j])
    return margin_tolerance(b, (s1a + s1b) + (s1c + s1d), (s2a + s2b) + (s2c + s2d), eps_K, rel_K)


def error_bound_constants():
    """The compiled kernel-error bounds' constants (``refsvm/_fast/tolerance.pxd``), by their names in
    :mod:`refsvm.constants`: the test that both backends use the same values reads them here."""
    return {"EXP_UNDERFLOW_ARGUMENT": EXP_UNDERFLOW_ARGUMENT, "EXP_OVERFLOW_ARGUMENT": EXP_OVERFLOW_ARGUMENT,
            "TINY_KERNEL_ERROR": TINY_KERNEL_ERROR, "UNIT_ROUNDOFF": U_ROUND}


cdef inline double _kernel_relative_error(const Params* P, double M) noexcept nogil:
    """:func:`refsvm.online.common.gaussian_relative_error` for the Gaussian kernel (INFINITY otherwise)."""
    return kernel_relative_error_at(P.kernel, P.d, P.gamma, M)


cdef void _kernel_errors_once(Params* P, X, sv, kernel, double gamma, double degree, double coef0, bint needed):
    """``P.eps_K`` and ``P.rel_K`` over ``X`` and ``sv`` (:func:`refsvm.online.common.kernel_error_over_rows`),
    once per call (the Projectrons'; 0 and INFINITY when ``needed`` is false)."""
    eps = kernel_error_over_rows(X, sv, Kernel(kernel, gamma, degree, coef0)) if needed else 0.0
    P.eps_K = eps
    P.rel_K = getattr(eps, "rel", INFINITY)


cdef inline double _kernel_value_error(const Params* P, double M) noexcept nogil:
    """:func:`refsvm.online.common.kernel_value_error_at` (``refsvm.kernels.kernel_value_error``'s
    expression) for rows of ``P.d`` features and squared norms at most ``M``."""
    cdef double u = U_ROUND
    if P.kernel == KERNEL_LINEAR:
        return (P.d + 2) * u * M
    if P.kernel == KERNEL_RBF:
        return u * (2.5 + 2.0 * (P.d + 2) * P.gamma * M)
    return P.degree * (P.d + 3) * u * pow(fabs(P.gamma) * M + fabs(P.coef0), P.degree)


cdef inline double _bpas_tie_tolerance(double a, double k, double k_rr, double k_tt, double beta, double f_t,
                                       double Q, double tau, double C_t, double f_err,
                                       double eps_K) noexcept nogil:
    """:func:`refsvm.online.passive_aggressive.bpas_tie_tolerance` of one candidate (the same expression)."""
    cdef double u = U_ROUND
    cdef double P = fabs(a), B = fabs(beta), kk = fabs(k)
    cdef double d_b = 3.0 * u * (P * kk / k_tt + tau) + eps_K * P * (1.0 + kk / k_tt) / k_tt
    cdef double e_dist = (5.0 * u * (P * P * k_rr + B * B * k_tt + 2.0 * P * B * kk) + eps_K * (P + B) * (P + B)
                          + 2.0 * (B * k_tt + P * kk) * d_b)
    cdef double e_fr = f_err + 3.0 * u * (fabs(f_t) + P * kk + B * k_tt) + eps_K * (P + B) + k_tt * d_b
    return 2.0 * (0.5 * e_dist + C_t * e_fr + 2.0 * u * (fabs(Q) + C_t))


cdef Py_ssize_t _least_objective(const Params* P, const Store* SV, const double[::1] A, const double[::1] k,
                                 const double[::1] Q, Py_ssize_t b, double best, double a_max, double k_max,
                                 double krr_max, double q_max, double k_tt, int y_t, double tau, double f,
                                 double C_t, double f_err, double eps_K) noexcept nogil:
    """:func:`refsvm.online.passive_aggressive.least_objective` over the candidates' ``Q`` (INFINITY:
    not finite): the lowest ``r`` with ``Q_r - tol_r <= U = min (Q_r + tol_r)``, 0 if none is finite.
    ``tol_r`` (:func:`_bpas_tie_tolerance`) increases with ``|a_r|``, ``|k_rt|``, ``k_rr``, ``|beta_r|
    <= |a_r| |k_rt| / k_tt + tau`` and ``|Q_r|``, so ``T``, its value at their maxima, bounds every
    ``tol_r``; a candidate with ``Q_r > best + 2 T`` neither sets ``U`` (``U <= best + T``) nor ties,
    and only the others get their ``tol_r`` (the same choice as evaluating every ``tol_r``)."""
    cdef double bj, s, tol, upper = INFINITY
    cdef double T = _bpas_tie_tolerance(a_max, k_max, krr_max, k_tt, (a_max * k_max / k_tt + tau) * (1.0 + 8.0 * U_ROUND),
                                        f, q_max, tau, C_t, f_err, eps_K) * (1.0 + 16.0 * U_ROUND)
    cdef double screen = best + 2.0 * T if isfinite(T) else INFINITY
    cdef Py_ssize_t j
    if not best < INFINITY:
        return 0
    for j in range(b):
        if Q[j] <= screen:
            tol = _candidate_tolerance(P, SV, A, k, Q, j, k_tt, y_t, tau, f, C_t, f_err, eps_K)
            if Q[j] + tol < upper:
                upper = Q[j] + tol
    for j in range(b):
        if Q[j] <= screen and Q[j] - _candidate_tolerance(P, SV, A, k, Q, j, k_tt, y_t, tau, f, C_t, f_err,
                                                            eps_K) <= upper:
            return j
    return 0


cdef inline double _candidate_tolerance(const Params* P, const Store* SV, const double[::1] A, const double[::1] k,
                                        const double[::1] Q, Py_ssize_t j, double k_tt, int y_t, double tau,
                                        double f, double C_t, double f_err, double eps_K) noexcept nogil:
    """``tol_j`` of candidate ``j`` (its ``beta_j`` and ``k_jj`` as the first pass computed them)."""
    cdef double bj = A[j] * k[j] / k_tt + y_t * tau
    cdef double s = store_self(SV, j, P.kernel, P.gamma, P.degree, P.coef0)
    return _bpas_tie_tolerance(A[j], k[j], s, k_tt, bj, f, Q[j], tau, C_t, f_err, eps_K)
