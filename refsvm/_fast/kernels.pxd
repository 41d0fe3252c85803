# cython: language_level=3
"""C-level kernel helpers shared by the compiled modules (``cimport``-ed by
:mod:`refsvm._fast.budget` and :mod:`refsvm._fast.bsgd`).

Summation order.  ``numpy.sum`` (also along ``axis=1`` of a C-contiguous
array) uses numpy's pairwise summation: fewer than 8 terms are added
sequentially starting from 0; up to 128 terms use 8 interleaved accumulators
combined as ``((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7))`` followed by the remainder;
longer runs are split in two (the first half a multiple of 8) and summed
recursively.  :func:`pw_dot` reproduces that order exactly for the linear /
poly kernels' dot products of dense rows.

Gaussian kernel rows and values go through the squared norms, ``||s||^2 +
||x||^2 - 2 s.x`` clamped at 0, every sum in index order from 0
(:func:`seq_sq`, :func:`seq_dot`; ``refsvm.kernels.seq_sum`` in the reference):
:func:`rbf_row_gather` visits only x's nonzeros (adding an exact zero changes
no partial sum), so dense rows and sparse rows give bitwise the same numbers.
Merging's distance between two SVs is the same number
(``refsvm.kernels.sq_dist``; ``store_log_kappa_row`` in sparse.pyx).
``exp`` may still differ from numpy's by one ulp (numpy uses its own SIMD
``exp``; :func:`kernel_row_into` uses the vectorised ``exp`` of fastmath.h
(``exp_row``), :func:`kernel_value` libm's, and so does everything whose result
decides a tie: the merging objective).

Dot products over the classes (the merging objective, its weight
degradation) are plain sequential sums from 0 in both paths:
:func:`seq_dot` here, ``refsvm.budget.class_dot`` in the reference (not
``numpy.dot``, whose BLAS kernel, with or without fused multiply-add, depends
on the machine).  setup.py compiles with ``-ffp-contract=off`` so the C
compiler never fuses ``s + a * b`` either.

``x ** 2`` in Python calls libm's ``pow``, which does not always round like
``x * x``; :func:`libm_pow` calls libm's ``pow`` through a volatile pointer so
that the C compiler cannot replace ``pow(x, 2.0)`` by ``x * x``, and
:func:`py_square` returns ``pow(u, 2.0)``'s value, calling ``pow`` only in the
rare cases where it can differ from ``u * u`` (see the C comment in fastmath.h).
"""

from libc.math cimport exp
from libc.stdint cimport int32_t
from libc.string cimport memcpy

cdef enum:
    KERNEL_RBF = 0
    KERNEL_LINEAR = 1
    KERNEL_POLY = 2

# The C of these four (and all the project's hand-written C) is in fastmath.h, with its comments.
cdef extern from "fastmath.h":
    double libm_pow "refsvm_libm_pow" (double x, double y) noexcept nogil
    double py_square "refsvm_py_square" (double u) noexcept nogil
    void exp_row "refsvm_exp_row" (double* out, Py_ssize_t n) noexcept nogil
    void dots_by_feature "refsvm_dots_by_feature" (const double* T, Py_ssize_t stride, Py_ssize_t b,
                                                   const int32_t* ind, const double* val, Py_ssize_t n,
                                                   double* out) noexcept nogil


cdef inline int code_of(object value, tuple names, str what) except -1:
    """The position of ``value`` in ``names`` (a choice's names in the order of its C enum, e.g.
    ``KERNELS``); ValueError otherwise, worded as the reference's."""
    cdef Py_ssize_t k
    for k in range(len(names)):
        if value == names[k]:
            return <int> k
    raise ValueError(f"{what} must be one of {names}, got {value!r}")


cdef inline int kernel_code(object kernel) except -1:
    """``"rbf"`` / ``"linear"`` / ``"poly"`` -> KERNEL_*; ValueError otherwise (as the reference)."""
    return code_of(kernel, ("rbf", "linear", "poly"), "kernel")


cdef inline double pw_dot(const double* a, const double* b, Py_ssize_t n) noexcept nogil:
    """``sum(a * b)`` in numpy's pairwise order."""
    cdef double res, r0, r1, r2, r3, r4, r5, r6, r7
    cdef Py_ssize_t i, n2, nb
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i] * b[i]
        return res
    elif n <= 128:
        r0 = a[0] * b[0]
        r1 = a[1] * b[1]
        r2 = a[2] * b[2]
        r3 = a[3] * b[3]
        r4 = a[4] * b[4]
        r5 = a[5] * b[5]
        r6 = a[6] * b[6]
        r7 = a[7] * b[7]
        nb = n - n % 8
        i = 8
        while i < nb:
            r0 += a[i] * b[i]
            r1 += a[i + 1] * b[i + 1]
            r2 += a[i + 2] * b[i + 2]
            r3 += a[i + 3] * b[i + 3]
            r4 += a[i + 4] * b[i + 4]
            r5 += a[i + 5] * b[i + 5]
            r6 += a[i + 6] * b[i + 6]
            r7 += a[i + 7] * b[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[i] * b[i]
            i += 1
        return res
    else:
        n2 = n // 2
        n2 -= n2 % 8
        return pw_dot(a, b, n2) + pw_dot(a + n2, b + n2, n - n2)


cdef inline double pw_sq_sum(const double* a, Py_ssize_t n) noexcept nogil:
    """``np.sum(a ** 2)`` (pairwise order)."""
    return pw_dot(a, a, n)


cdef inline double seq_dot(const double* a, const double* b, Py_ssize_t n) noexcept nogil:
    """``sum a[i] * b[i]`` added in index order from 0 (``refsvm.budget.class_dot``)."""
    cdef double s = 0.0
    cdef Py_ssize_t i
    for i in range(n):
        s = s + a[i] * b[i]
    return s


cdef inline double seq_sq(const double* v, Py_ssize_t n) noexcept nogil:
    """``sum v[k]^2`` in index order from 0 (a squared norm; ``refsvm.kernels.seq_sum(v * v)``)."""
    cdef double s = 0.0
    cdef Py_ssize_t k
    for k in range(n):
        s += v[k] * v[k]
    return s


cdef inline double rbf_from_sq(double sq_a, double sq_b, double dot, double gamma) noexcept nogil:
    """``-gamma ||a - b||^2`` from the squared norms and ``a . b`` (clamped at 0; exp is the caller's)."""
    cdef double sq = sq_a + sq_b - 2.0 * dot
    return -gamma * (sq if sq > 0.0 else 0.0)


cdef inline Py_ssize_t dense_nonzeros(const double* x, Py_ssize_t d, int32_t* ind,
                                      double* val) noexcept nogil:
    """The nonzeros of the dense row ``x`` (d,) into ``ind`` / ``val`` (room for ``d``), in index
    order; returns their number."""
    cdef Py_ssize_t k, n = 0
    for k in range(d):
        if x[k] != 0.0:
            ind[n] = <int32_t> k
            val[n] = x[k]
            n += 1
    return n


cdef inline void gather_dots8(const double* rows, Py_ssize_t d, const int32_t* ind, const double* val,
                              Py_ssize_t n, double* out) noexcept nogil:
    """``out[q] = rows[q] . x`` for the eight rows ``rows + q d`` (dense, C-contiguous) and the
    sparse row ``x = (ind, val)``: each sum in x's index order from 0, as the one-row loop (bitwise
    the same numbers); eight independent sums keep the adder busy where one sum waits for the last
    add."""
    cdef double d0 = 0.0, d1 = 0.0, d2 = 0.0, d3 = 0.0, d4 = 0.0, d5 = 0.0, d6 = 0.0, d7 = 0.0, v
    cdef Py_ssize_t r, k
    for r in range(n):
        k = ind[r]
        v = val[r]
        d0 += rows[k] * v
        d1 += rows[d + k] * v
        d2 += rows[2 * d + k] * v
        d3 += rows[3 * d + k] * v
        d4 += rows[4 * d + k] * v
        d5 += rows[5 * d + k] * v
        d6 += rows[6 * d + k] * v
        d7 += rows[7 * d + k] * v
    out[0] = d0
    out[1] = d1
    out[2] = d2
    out[3] = d3
    out[4] = d4
    out[5] = d5
    out[6] = d6
    out[7] = d7


cdef inline void gather_dots(const double* SV, Py_ssize_t n_sv, Py_ssize_t d, const int32_t* ind,
                             const double* val, Py_ssize_t n, double* out) noexcept nogil:
    """``out[j] = SV[j] . x`` for the first ``n_sv`` rows of the C-contiguous ``SV`` (n_sv, d) and the
    sparse row ``x = (ind, val)`` (n nonzeros): sums in x's index order from 0."""
    cdef Py_ssize_t j = 0, r
    cdef double dot
    cdef const double* row
    while j + 8 <= n_sv:
        gather_dots8(SV + j * d, d, ind, val, n, out + j)
        j += 8
    while j < n_sv:
        row = SV + j * d
        dot = 0.0
        for r in range(n):
            dot += row[ind[r]] * val[r]
        out[j] = dot
        j += 1


cdef inline void rbf_from_dots(const double* sv_sq, double sq_x, Py_ssize_t n_sv, double gamma, double* out,
                               double* pre) noexcept nogil:
    """``out[j] = s_j . x`` in, ``exp(-gamma ||s_j - x||^2)`` out, from the squared norms (clamped at 0,
    then the vectorised exp); ``pre`` (or NULL) receives the exponents."""
    cdef Py_ssize_t j
    for j in range(n_sv):
        out[j] = rbf_from_sq(sv_sq[j], sq_x, out[j], gamma)
    if pre != NULL:
        memcpy(pre, out, n_sv * sizeof(double))
    exp_row(out, n_sv)


cdef inline void rbf_row_gather(const double* SV, Py_ssize_t n_sv, Py_ssize_t d, const double* sv_sq,
                                const int32_t* ind, const double* val, Py_ssize_t n, double gamma,
                                double* out, double* pre) noexcept nogil:
    """``out[j] = exp(-gamma ||SV[j] - x||^2)`` from the squared norms ``sv_sq`` of the rows and the
    sparse row ``x = (ind, val)``: ``||s_j||^2 + ||x||^2 - 2 s_j . x`` clamped at 0, every sum in index
    order (``refsvm.kernels.kernel_row``), then the vectorised exp.  ``pre`` (or NULL) receives the
    exponents ``-gamma ||SV[j] - x||^2``."""
    gather_dots(SV, n_sv, d, ind, val, n, out)                  # out[j] = s_j . x
    rbf_from_dots(sv_sq, seq_sq(val, n), n_sv, gamma, out, pre)


cdef inline void rbf_row_by_feature(const double* T, Py_ssize_t stride, Py_ssize_t n_sv, const double* sv_sq,
                                    const int32_t* ind, const double* val, Py_ssize_t n, double gamma,
                                    double* out, double* pre) noexcept nogil:
    """:func:`rbf_row_gather` with the rows kept by feature (``T``: d rows of length ``stride``):
    bitwise the same numbers, the dot products as vector adds (``refsvm_dots_by_feature``)."""
    dots_by_feature(T, stride, n_sv, ind, val, n, out)          # out[j] = s_j . x
    rbf_from_dots(sv_sq, seq_sq(val, n), n_sv, gamma, out, pre)


cdef class RbfRows:
    """What :func:`kernel_row_into` needs for Gaussian rows of a dense ``(n, d)`` array besides the
    rows: their squared norms ``sq`` (``seq_sq``; room for at least one) and room ``ind`` / ``val`` for
    the nonzeros of one x (``d`` entries, at least one).  Built by ``RbfRows(S)`` (kernels.pyx)."""
    cdef double[::1] sq
    cdef int32_t[::1] ind
    cdef double[::1] val


cdef inline double kernel_value(int kernel, const double* a, const double* b, Py_ssize_t d,
                                double gamma, double degree, double coef0) noexcept nogil:
    """``k(a, b)`` (rbf: through the squared norms, sums in index order; libm's exp)."""
    if kernel == KERNEL_RBF:
        return exp(rbf_from_sq(seq_sq(a, d), seq_sq(b, d), seq_dot(a, b, d), gamma))
    if kernel == KERNEL_LINEAR:
        return pw_dot(a, b, d)
    return libm_pow(gamma * pw_dot(a, b, d) + coef0, degree)


cdef inline double kernel_self(int kernel, const double* a, Py_ssize_t d,
                               double gamma, double degree, double coef0) noexcept nogil:
    """``k(a, a)`` as ``kernel_diag`` computes it (1 for the Gaussian kernel)."""
    if kernel == KERNEL_RBF:
        return 1.0
    if kernel == KERNEL_LINEAR:
        return pw_dot(a, a, d)
    return libm_pow(gamma * pw_dot(a, a, d) + coef0, degree)


cdef inline void kernel_row_into(int kernel, const double* SV, Py_ssize_t n_sv, Py_ssize_t d,
                                 const double* x, double gamma, double degree, double coef0,
                                 double* out, const double* sv_sq, int32_t* x_ind,
                                 double* x_val) noexcept nogil:
    """``out[j] = k(SV[j], x)`` for the first ``n_sv`` rows of the C-contiguous ``SV`` (n_sv, d).

    rbf needs ``sv_sq[j] = seq_sq(SV[j])`` and room for ``d`` entries in ``x_ind`` / ``x_val`` (x's
    nonzeros go there); linear and poly ignore the three (NULL is fine)."""
    cdef Py_ssize_t j, n
    if kernel == KERNEL_RBF:
        n = dense_nonzeros(x, d, x_ind, x_val)
        rbf_row_gather(SV, n_sv, d, sv_sq, x_ind, x_val, n, gamma, out, NULL)
    elif kernel == KERNEL_LINEAR:
        for j in range(n_sv):
            out[j] = pw_dot(SV + j * d, x, d)
    else:
        for j in range(n_sv):
            out[j] = libm_pow(gamma * pw_dot(SV + j * d, x, d) + coef0, degree)
