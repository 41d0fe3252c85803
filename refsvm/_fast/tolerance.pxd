# cython: language_level=3
"""The online mistake counter's tie tolerance, in C (BSGD, FOGD, NOGD).

:func:`refsvm.online.common.margin_tolerance` of a score ``f = sum_j a_j k_j`` (``n`` terms):
``2 ((n + 2) u sum_j |a_j k_j| + min(eps sum_j |a_j|, rel sum_j |a_j k_j| + tiny sum_j |a_j|))``,
``eps`` a bound of the absolute error of one ``k_j`` (a kernel value, a feature), ``rel`` of its
relative error (the Gaussian kernel's; INFINITY: none).  For ``c`` score columns ``A`` (row-major, ``n x c``) the sums run over
all columns, which bounds the tolerances of any two scores added (a multi-class margin
``f_y - f_r``).  The counter reads a margin within the tolerance of 0 as 0 (DESIGN.md, "Discrete
decisions on computed numbers"); the tolerance is computed only when it can change the answer
(the rule is monotone in it), so a clear margin costs nothing.  The sums' order differs from numpy's
(``np.sum``), which moves the tolerance by rounding only.
"""

from libc.float cimport DBL_EPSILON
from libc.math cimport INFINITY, expm1, fabs, pow, sqrt

from refsvm._fast.kernels cimport KERNEL_LINEAR, KERNEL_RBF

cdef extern from *:
    """
    /* refsvm.constants: EXP_UNDERFLOW_ARGUMENT, EXP_OVERFLOW_ARGUMENT, TINY_KERNEL_ERROR (the same
       names and values; refsvm._fast.online.error_bound_constants() returns these, and
       tests/agreement/test_relative_kernel_error.py checks them against the Python module). */
    #define REFSVM_EXP_UNDERFLOW_ARGUMENT 746.0
    #define REFSVM_EXP_OVERFLOW_ARGUMENT 709.0
    #define REFSVM_TINY_KERNEL_ERROR (4.0 * 5e-324)
    """
    double EXP_UNDERFLOW_ARGUMENT "REFSVM_EXP_UNDERFLOW_ARGUMENT"
    double EXP_OVERFLOW_ARGUMENT "REFSVM_EXP_OVERFLOW_ARGUMENT"
    double TINY_KERNEL_ERROR "REFSVM_TINY_KERNEL_ERROR"

cdef inline double kernel_value_error_at(int kernel, Py_ssize_t d, double gamma, double degree, double coef0,
                                         double M) noexcept nogil:
    """``refsvm.kernels.kernel_value_error``'s expression (:func:`refsvm.online.common.kernel_value_error_at`)
    for rows of ``d`` features and squared norms at most ``M``."""
    cdef double u = 0.5 * DBL_EPSILON
    if kernel == KERNEL_LINEAR:
        return (d + 2) * u * M
    if kernel == KERNEL_RBF:
        return u * (2.5 + 2.0 * (d + 2) * gamma * M)
    return degree * (d + 3) * u * pow(fabs(gamma) * M + fabs(coef0), degree)


cdef inline double kernel_relative_error_at(int kernel, Py_ssize_t d, double gamma, double M) noexcept nogil:
    """:func:`refsvm.online.common.gaussian_relative_error` (``KernelError.rel``) for the Gaussian
    kernel; INFINITY (no relative bound) for the others."""
    cdef double u = 0.5 * DBL_EPSILON, z = gamma * 2.0 * (d + 2) * u * M + EXP_UNDERFLOW_ARGUMENT * u
    if kernel != KERNEL_RBF or not z < EXP_OVERFLOW_ARGUMENT:
        return INFINITY
    return (1.0 + 4.0 * u) * expm1(z) + 4.0 * u


cdef inline double feature_error(double u_max, Py_ssize_t d, double M, double scale) noexcept nogil:
    """:func:`refsvm.tolerance.feature_error` (the same expression; 4.5e-16: ``SINCOS_ERROR``)."""
    cdef double u = 0.5 * DBL_EPSILON
    return scale * (4.5e-16 + 2.0 * (d + 1) * u * u_max * sqrt(M) + 2.0 * u)


cdef inline double nystrom_feature_error(Py_ssize_t B, double eps_K, double p_max) noexcept nogil:
    """:func:`refsvm.nogd.feature_error` (the same expression; ``p_max = max_i sum_j |P_ij|``)."""
    return ((B + 2) * (0.5 * DBL_EPSILON) * (1.0 + eps_K) + eps_K) * p_max


cdef inline double margin_tolerance(Py_ssize_t n, double s_ak, double s_a, double eps, double rel) noexcept nogil:
    """``2 ((n + 2) u s_ak + min(eps s_a, rel s_ak + tiny s_a))`` (0 for ``n = 0``; ``u = DBL_EPSILON / 2
    = 2^-53``; ``rel`` INFINITY: ``eps s_a``; tiny: ``refsvm.constants.TINY_KERNEL_ERROR``)."""
    cdef double value_error = eps * s_a, rel_error
    if n == 0:
        return 0.0
    if rel < INFINITY:
        rel_error = rel * s_ak + TINY_KERNEL_ERROR * s_a
        if rel_error < value_error:
            value_error = rel_error
    return 2.0 * ((n + 2) * (0.5 * DBL_EPSILON) * s_ak + value_error)


cdef inline double score_tolerance(const double* k, const double* A, Py_ssize_t n, Py_ssize_t c,
                                   const double* w0, double eps, double rel) noexcept nogil:
    """:func:`margin_tolerance` of ``f = k' A (+ w0)``: ``A`` row-major ``(n, c)``, ``w0`` (``c``) a
    bias (one more term, kernel value 1) or NULL."""
    cdef double s1a = 0.0, s1b = 0.0, s2a = 0.0, s2b = 0.0, row
    cdef Py_ssize_t j, r, m = n - n % 2
    if c == 1:
        for j in range(0, m, 2):                          # two accumulators each
            s1a += fabs(A[j] * k[j])
            s1b += fabs(A[j + 1] * k[j + 1])
            s2a += fabs(A[j])
            s2b += fabs(A[j + 1])
        if m < n:
            s1a += fabs(A[m] * k[m])
            s2a += fabs(A[m])
    else:
        for j in range(n):
            row = 0.0
            for r in range(c):
                row += fabs(A[j * c + r])
            s1a += fabs(k[j]) * row
            s2a += row
    if w0 != NULL:
        for r in range(c):
            s1a += fabs(w0[r])
            s2a += fabs(w0[r])
        n += 1
    return margin_tolerance(n, s1a + s1b, s2a + s2b, eps, rel)


cdef inline bint binary_mistake_within(bint zero_positive, double yv, double f, const double* k,
                                       const double* A, Py_ssize_t n, const double* w0,
                                       double eps, double rel, double extra, double screen) noexcept nogil:
    """:func:`refsvm.online.common.is_mistake` of the score ``f = k' A (+ w0)`` (one column) with
    ``tol`` its :func:`score_tolerance` ``+ extra``: ``y f <= tol``; ``zero_positive`` (sign(0) = +1):
    ``f < -tol`` for ``y = +1``, ``f >= -tol`` (``y f <= tol``) for ``y = -1``.  ``screen``: an upper
    bound of ``tol`` (INFINITY: none); a margin beyond it is decided without the sums."""
    cdef double q = yv * f
    if zero_positive and yv > 0.0:
        return q < 0.0 and (q < -screen or q < -(score_tolerance(k, A, n, 1, w0, eps, rel) + extra))
    return q <= 0.0 or (q <= screen and q <= score_tolerance(k, A, n, 1, w0, eps, rel) + extra)


cdef inline bint rival_mistake_within(double f_r, double f_y, const double* k, const double* A,
                                      Py_ssize_t n, Py_ssize_t c, const double* w0, double eps,
                                      double rel, double extra, double screen) noexcept nogil:
    """Multi-class: the rival's score ``f_r`` reaches the true class's ``f_y`` within the
    :func:`score_tolerance` of the scores ``k' A (+ w0)`` ``+ extra``: ``f_r >= f_y - tol``
    (``screen`` as in :func:`binary_mistake_within`)."""
    return f_r >= f_y or (f_y - f_r <= screen and f_r >= f_y - (score_tolerance(k, A, n, c, w0, eps, rel) + extra))


cdef inline double weight_drift(double step_sum, long long n_moves, double eps_z, double z_max,
                                double w0_max, Py_ssize_t n_rows) noexcept nogil:
    """:func:`refsvm.fogd.weight_drift` (the same expression): the effect on a score of the drift of
    weights summed online from ``n_moves`` steps of total size ``step_sum``."""
    cdef double u = 0.5 * DBL_EPSILON
    cdef double drift = step_sum * (eps_z + u * z_max) + n_moves * u * (w0_max + step_sum * z_max)
    return 4.0 * n_rows * z_max * drift
