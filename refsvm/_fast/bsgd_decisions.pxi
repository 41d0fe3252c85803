# Alg. 1, line 6 read within the scores' error bound (the twins of refsvm.bsgd.hinge_loss_within,
# rival_class_within and score_tolerance; DESIGN.md, "Discrete decisions on computed numbers"), and
# the scores with that bound's sums taken in the same loop (no second pass over the SVs).  Included
# by bsgd.pyx; same module.

from libc.math cimport fabs


cdef inline double pw_dot_abs(const double* k, const double* a, Py_ssize_t n, double* s_ak,
                              double* s_a) noexcept nogil:
    """``pw_dot(k, a, n)`` (the same products and sums in the same order: bitwise the same value)
    and, in the same loop, ``s_ak += sum_j |a_j k_j|``, ``s_a += sum_j |a_j|``."""
    cdef double r[8]
    cdef double p, res
    cdef Py_ssize_t i, q, n2, nb
    if n > 128:
        n2 = n // 2
        n2 -= n2 % 8
        res = pw_dot_abs(k, a, n2, s_ak, s_a)
        return res + pw_dot_abs(k + n2, a + n2, n - n2, s_ak, s_a)
    res = 0.0
    nb = 0
    if n >= 8:
        nb = n - n % 8
        for q in range(8):
            r[q] = 0.0
        for i in range(0, nb, 8):
            for q in range(8):
                p = k[i + q] * a[i + q]
                r[q] = p if i == 0 else r[q] + p          # pw_dot starts each accumulator at its first product
                s_ak[0] += fabs(p)
                s_a[0] += fabs(a[i + q])
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for i in range(nb, n):
        p = k[i] * a[i]
        res += p
        s_ak[0] += fabs(p)
        s_a[0] += fabs(a[i])
    return res


cdef inline double bias_tolerance(Py_ssize_t b, Py_ssize_t c, double s_ak, double s_a, const double* w0,
                                  double eps, double rel) noexcept nogil:
    """``score_tolerance`` (tolerance.pxd) from the sums over the ``b`` SVs already taken: the bias
    ``w0`` (``c`` columns) is one more term of kernel value 1 (``refsvm.bsgd.score_tolerance``)."""
    cdef Py_ssize_t r
    for r in range(c):
        s_ak += fabs(w0[r])
        s_a += fabs(w0[r])
    return margin_tolerance(b + 1, s_ak, s_a, eps, rel)


cdef inline bint hinge_loss_within(bint positive, double margin, double tol) noexcept nogil:
    """``refsvm.bsgd.hinge_loss_within``: the exact comparison's answer ``positive``, except that a
    margin within ``tol`` of 1 counts as 1 (no loss)."""
    return positive and not fabs(margin - 1.0) <= tol


cdef inline Py_ssize_t rival_class_within(const double* f, Py_ssize_t c, Py_ssize_t y_t, double tol,
                                          double* top) noexcept nogil:
    """``refsvm.bsgd.rival_class_within``: the lowest class ``r != y_t`` with ``f_r >= top - tol``,
    ``top = max_{i != y_t} f_i`` (returned in ``top``)."""
    cdef Py_ssize_t r, r_t = -1
    for r in range(c):
        if r != y_t and (r_t < 0 or f[r] > top[0]):
            r_t = r
            top[0] = f[r]
    for r in range(c):
        if r != y_t and f[r] >= top[0] - tol:
            return r
    return r_t
