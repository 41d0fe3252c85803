# cython: language_level=3
"""C-level pieces shared by :mod:`refsvm._fast.fogd` and :mod:`refsvm._fast.nogd`.

Task codes, the Fourier feature map (Alg. 1, line 6), the scores ``f = W'z``
and one linear online-gradient step (loss, online counters, update) for the
three tasks: binary hinge (Alg. 1 / 2), multi-class hinge against the
highest-scoring wrong class (Alg. 3 / 4, eq. 9-11) and squared loss with the
threshold epsilon (Alg. 5 / 6).

Plain C loops, no BLAS: BLAS's threads make a per-example matrix-vector
product 20x slower on a loaded machine (measured: 3.3 ms instead of 0.13 ms
for D = 4000, d = 123 with two busy cores), and one example at a time is
what an online learner does.  Dot products use :func:`pw_dot` (numpy's
pairwise order with eight accumulators); the feature map skips zero inputs.
"""

from libc.math cimport INFINITY, fabs

cdef extern from "math.h" nogil:
    void sincos(double x, double* s, double* c)     # glibc (GNU extension; Python.h sets _GNU_SOURCE)
from libc.stdint cimport int64_t

from refsvm._fast.kernels cimport pw_dot

cdef enum:
    TASK_BINARY = 0
    TASK_MULTI = 1
    TASK_BINARY_POSITIVE = 3     # binary, zero_prediction="positive": sign(0) = +1
    TASK_REGRESSION = 2


# --------------------------------------------------------------------------- sin and cos of a block
#
# The D sin/cos pairs of a Fourier feature map are most of FOGD's step (glibc's sincos costs
# 15-20 ns a pair, D = 400 pairs a step).  sincos_block computes them with branch-free double
# arithmetic that the compiler vectorises: Cody-Waite reduction x = k pi/2 + r with pi/2 in three
# parts (fdlibm's pio2_1 / pio2_2 / pio2_2t: the first part has 33 significant bits, so k pio2_1 is
# exact for |k| < 2^20), then fdlibm's minimax polynomials for sin and cos on |r| <= pi/4
# (__kernel_sin / __kernel_cos of Sun's fdlibm 5.3, polynomial error < 2^-58), the quadrant k mod 4
# chosen by multiplying with exact 0/1 factors.  Rounding to the nearest integer uses the
# 1.5 * 2^52 addition (exact for |x| < 2^50; the compiler keeps it: no -ffast-math).  For
# |x| <= SINCOS_LIMIT = 2^18 the absolute error of each value is below 4.5e-16 (two units in the
# last place of 1), measured against glibc on 10^7 points (tests/test_fogd_sincos.py); a block with
# a larger |x| (or a NaN) is computed by libm's sincos instead.

cdef enum:
    SINCOS_LIMIT = 262144          # 2^18: |x| above it (or NaN) goes to libm


cdef inline void sincos_block(double* p, Py_ssize_t D, double scale, double* z) noexcept nogil:
    """``z[2j], z[2j+1] = scale sin(p[j]), scale cos(p[j])`` for j < D; ``p`` is scratch of length 2D
    (its first D entries are the phases, overwritten).  See the block comment above."""
    cdef Py_ssize_t j
    cdef double m = 0.0, a, x, k, fl, q, h, odd, r, rr, ss, cc, w, hz, sv, cv
    cdef double _MAGIC = 6755399441055744.0                 # 1.5 * 2^52
    cdef double _TWO_OVER_PI = 6.36619772367581382433e-01
    cdef double _PIO2_1 = 1.57079632673412561417e+00        # first 33 bits of pi/2
    cdef double _PIO2_2 = 6.07710050630396597660e-11        # next 33 bits
    cdef double _PIO2_2T = 2.02226624879595063154e-21       # pi/2 - (pio2_1 + pio2_2)
    cdef double _S1 = -1.66666666666666324348e-01, _S2 = 8.33333333332248946124e-03
    cdef double _S3 = -1.98412698298579493134e-04, _S4 = 2.75573137070700676789e-06
    cdef double _S5 = -2.50507602534068634195e-08, _S6 = 1.58969099521155010221e-10
    cdef double _C1 = 4.16666666666666019037e-02, _C2 = -1.38888888888741095749e-03
    cdef double _C3 = 2.48015872894767294178e-05, _C4 = -2.75573143513906633035e-07
    cdef double _C5 = 2.08757232129817482790e-09, _C6 = -1.13596475577881948265e-11
    for j in range(D):
        a = fabs(p[j])
        m = a if a > m else m
    if not (m <= <double> SINCOS_LIMIT):                           # large or NaN: libm
        for j in range(D):
            sincos(p[j], &z[2 * j], &z[2 * j + 1])
            z[2 * j] *= scale
            z[2 * j + 1] *= scale
        return
    for j in range(D):                                    # vectorised: no branch, no call
        x = p[j]
        k = (x * _TWO_OVER_PI + _MAGIC) - _MAGIC          # nearest integer to x 2/pi
        r = ((x - k * _PIO2_1) - k * _PIO2_2) - k * _PIO2_2T
        fl = ((k * 0.25 - 0.375) + _MAGIC) - _MAGIC       # floor(k / 4)
        q = k - 4.0 * fl                                  # k mod 4 in {0, 1, 2, 3}
        h = ((q * 0.5 - 0.25) + _MAGIC) - _MAGIC          # floor(q / 2): 0 0 1 1
        odd = q - 2.0 * h                                 # q mod 2:      0 1 0 1
        rr = r * r
        ss = r + (r * rr) * (_S1 + rr * (_S2 + rr * (_S3 + rr * (_S4 + rr * (_S5 + rr * _S6)))))
        hz = 0.5 * rr
        w = 1.0 - hz
        cc = w + (((1.0 - w) - hz) + (rr * rr) * (_C1 + rr * (_C2 + rr * (_C3 + rr * (_C4 + rr * (_C5 + rr * _C6))))))
        sv = (1.0 - odd) * ss + odd * cc                  # exact selection (0/1 factors)
        cv = (1.0 - odd) * cc + odd * ss
        p[j] = (1.0 - 2.0 * h) * sv                       # sin x: +s, +c, -s, -c by quadrant
        p[D + j] = (1.0 - 2.0 * (h + odd - 2.0 * h * odd)) * cv   # cos x: +c, -s, -c, +s
    for j in range(D):
        z[2 * j] = p[j] * scale
        z[2 * j + 1] = p[D + j] * scale


cdef inline void feature_map(const double* UT, Py_ssize_t D, Py_ssize_t d, const double* x,
                             double scale, double* p, double* z) noexcept nogil:
    """``z = scale * (sin(u_1'x), cos(u_1'x), ...)`` (Alg. 1, line 6); p is scratch (2D,).

    ``UT`` is ``U`` transposed, (d, D) C-contiguous: ``p = sum_k x_k UT[k]``
    over the nonzero ``x_k`` only (axpy form: the inner loop vectorises, and
    sparse inputs such as a9a or w8a, ~12 nonzeros out of 123 / 300, cost
    nnz x D instead of d x D multiply-adds).
    """
    cdef Py_ssize_t j, k
    cdef double xk
    cdef const double* row
    for j in range(D):
        p[j] = 0.0
    for k in range(d):
        xk = x[k]
        if xk != 0.0:
            row = UT + k * D
            for j in range(D):
                p[j] += xk * row[j]
    sincos_block(p, D, scale, z)                          # sin / cos pairs


cdef inline void matvec(const double* M, Py_ssize_t n_rows, Py_ssize_t n_cols, const double* v,
                        double* out) noexcept nogil:
    """``out = M v`` for the row-major ``M`` (n_rows, n_cols)."""
    cdef Py_ssize_t j
    for j in range(n_rows):
        out[j] = pw_dot(M + j * n_cols, v, n_cols)


cdef inline void scores(const double* W, Py_ssize_t n_rows, Py_ssize_t c, const double* z,
                        double* f) noexcept nogil:
    """``f = W' z`` for the row-major ``W`` (n_rows, c)."""
    cdef Py_ssize_t i, r
    cdef double zi
    if c == 1:
        f[0] = pw_dot(W, z, n_rows)
        return
    for r in range(c):
        f[r] = 0.0
    for i in range(n_rows):
        zi = z[i]
        for r in range(c):
            f[r] += W[i * c + r] * zi


cdef inline void axpy_column(double* W, Py_ssize_t n_rows, Py_ssize_t c, Py_ssize_t col, double a,
                             const double* z) noexcept nogil:
    """``W[:, col] += a z``."""
    cdef Py_ssize_t i
    for i in range(n_rows):
        W[i * c + col] += a * z[i]


cdef inline Py_ssize_t rival_class(const double* f, Py_ssize_t c, Py_ssize_t y_t) noexcept nogil:
    """Eq. 9: the highest-scoring class other than ``y_t`` (the lowest index on ties)."""
    cdef Py_ssize_t r, s_t = -1
    cdef double best = -INFINITY
    for r in range(c):
        if r != y_t and (s_t < 0 or f[r] > best):
            best = f[r]
            s_t = r
    return s_t


cdef inline bint binary_mistake(int task, double yv, double f) noexcept nogil:
    """``y f <= 0`` (zero_prediction="mistake") or ``sign(f) != y`` with ``sign(0) = +1`` ("positive")."""
    if task == TASK_BINARY_POSITIVE:
        return f < 0.0 if yv > 0.0 else f >= 0.0
    return yv * f <= 0.0


cdef inline Py_ssize_t ogd_step(int task, double* W, Py_ssize_t n_rows, Py_ssize_t c, const double* z,
                         double* f, double yv, double eta, double epsilon,
                         int64_t* mistakes, double* loss_sum) noexcept nogil:
    """Loss, online counters and the linear update for one step; returns 1 if updated.

    ``eta`` is the example's step ``eta s_t`` (weight ``s_t``); 0 (weight 0): no update."""
    cdef Py_ssize_t y_t, s_t
    cdef double loss
    scores(W, n_rows, c, z, f)                                # Alg. 1, line 7
    if task == TASK_BINARY or task == TASK_BINARY_POSITIVE:
        if binary_mistake(task, yv, f[0]):
            mistakes[0] += 1
        if yv * f[0] < 1.0 and eta != 0.0:                    # Alg. 1, line 9
            axpy_column(W, n_rows, c, 0, eta * yv, z)         # Alg. 1, line 10
            return 1
        return 0
    if task == TASK_MULTI:
        y_t = <Py_ssize_t>yv
        s_t = rival_class(f, c, y_t)                          # eq. 9
        if f[s_t] >= f[y_t]:
            mistakes[0] += 1
        if 1.0 - f[y_t] + f[s_t] > 0.0 and eta != 0.0:
            axpy_column(W, n_rows, c, y_t, eta, z)            # eq. 10
            axpy_column(W, n_rows, c, s_t, -eta, z)           # eq. 11
            return 1
        return 0
    loss = (f[0] - yv) * (f[0] - yv)                          # Alg. 5
    loss_sum[0] += loss
    if loss > epsilon and eta != 0.0:
        axpy_column(W, n_rows, c, 0, -eta * 2.0 * (f[0] - yv), z)
        return 1
    return 0
