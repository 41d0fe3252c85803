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
Matrix-vector products ``p = M' v`` go through fastmath.h's ``refsvm_phases``
(rows of ``M`` added at the nonzeros of ``v``, vectorised along the output):
FOGD's ``U x`` and NOGD's ``P k`` and kernel rows.
"""

from libc.math cimport INFINITY

from libc.stdint cimport int32_t, int64_t

from refsvm._fast.kernels cimport pw_dot
from refsvm._fast.tolerance cimport binary_mistake_within, rival_mistake_within

cdef enum:
    TASK_BINARY = 0
    TASK_MULTI = 1
    TASK_BINARY_POSITIVE = 3     # binary, zero_prediction="positive": sign(0) = +1
    TASK_REGRESSION = 2


cdef inline int task_code(options):
    """The task code of resolved options (:class:`refsvm.ogd.OGDOptions`: ``task``, ``zero_prediction``)."""
    if options.task == "binary":
        return TASK_BINARY_POSITIVE if options.zero_prediction == "positive" else TASK_BINARY
    return TASK_MULTI if options.task == "multiclass" else TASK_REGRESSION


# The D sin/cos pairs of a Fourier feature map are most of FOGD's step (glibc's sincos costs 15-20 ns
# a pair, D = 400 pairs a step): fastmath.h computes them with branch-free double arithmetic the
# compiler vectorises (absolute error below 4.5e-16 against libm for |x| <= 2^18, libm beyond; see
# the header), compiled for AVX2 and the SSE2 baseline with the same operations in the same order.
from refsvm._fast.sparse cimport Rows

cdef extern from "fastmath.h" nogil:
    void refsvm_sincos_block(double* p, Py_ssize_t D, double scale, double* z)
    void refsvm_axpy(Py_ssize_t n, double a, const double* x, double* y)
    void refsvm_phases(const double* UT, Py_ssize_t D, Py_ssize_t d, const double* x, double* p, Py_ssize_t* nz)
    void refsvm_phases_sparse(const double* UT, Py_ssize_t D, const int32_t* idx, const double* val,
                              Py_ssize_t m, double* p, Py_ssize_t* nz)


cdef inline void sincos_block(double* p, Py_ssize_t D, double scale, double* z) noexcept nogil:
    """``z[2j], z[2j+1] = scale sin(p[j]), scale cos(p[j])`` for the D phases ``p`` (fastmath.h)."""
    refsvm_sincos_block(p, D, scale, z)


cdef inline void feature_map(const double* UT, Py_ssize_t D, Py_ssize_t d, const double* x,
                             double scale, double* p, double* z, Py_ssize_t* nz) noexcept nogil:
    """``z = scale * (sin(u_1'x), cos(u_1'x), ...)`` (Alg. 1, line 6); p (D,) and nz (d,) are scratch.

    ``UT`` is ``U`` transposed, (d, D) C-contiguous: ``p = sum_k x_k UT[k]``
    over the nonzero ``x_k`` only (fastmath.h ``refsvm_phases``: axpy rows,
    four at a time; sparse inputs such as a9a or w8a, ~12 nonzeros out of
    123 / 300, cost nnz x D instead of d x D multiply-adds).
    """
    refsvm_phases(UT, D, d, x, p, nz)                    # p = U x_t
    sincos_block(p, D, scale, z)                          # sin / cos pairs


cdef inline void feature_map_row(const double* UT, Py_ssize_t D, const Rows* X, Py_ssize_t i,
                                 double scale, double* p, double* z, Py_ssize_t* nz) noexcept nogil:
    """:func:`feature_map` of row ``i`` of the examples, dense or sparse (a sparse row's nonzeros
    are the dense row's, in the same order: bitwise the same ``z``)."""
    if X.sparse:
        refsvm_phases_sparse(UT, D, X.indices + X.indptr[i], X.data + X.indptr[i],
                             X.indptr[i + 1] - X.indptr[i], p, nz)
        sincos_block(p, D, scale, z)
    else:
        feature_map(UT, D, X.d, X.dense + i * X.d, scale, p, z, nz)


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
    if c == 1:                                            # one column: contiguous, vectorised (same sums)
        refsvm_axpy(n_rows, a, z, W)
        return
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


cdef inline bint counted_mistake(int task, const double* f, Py_ssize_t c, double yv, Py_ssize_t s_t,
                                 const double* z, const double* W, Py_ssize_t n_rows, double eps,
                                 double rel, double extra, double screen) noexcept nogil:
    """The online mistake of the scores ``f = W'z`` (``n_rows`` terms, each ``z_i`` within ``eps``):
    binary ``y f <= tol`` (zero_prediction="mistake") or ``sign(f) != y`` with ``sign(0) = +1`` and ``f``
    within ``tol`` of 0 read as 0 ("positive"); multi-class ``f[s_t] >= f[y] - tol`` (the rival ``s_t``);
    ``tol``: :func:`refsvm._fast.tolerance.score_tolerance` (refsvm.online.common.margin_tolerance;
    ``rel``: the relative bound of each ``z_i``, INFINITY for features)
    ``+ extra`` (the weights' drift, :func:`refsvm._fast.tolerance.weight_drift`); ``screen``: an upper
    bound of ``tol`` (INFINITY: none), beyond which no sums are needed."""
    if task == TASK_MULTI:
        return rival_mistake_within(f[s_t], f[<Py_ssize_t>yv], z, W, n_rows, c, NULL, eps, rel, extra, screen)
    return binary_mistake_within(task == TASK_BINARY_POSITIVE, yv, f[0], z, W, n_rows, NULL, eps, rel,
                                 extra, screen)


cdef inline Py_ssize_t ogd_step(int task, double* W, Py_ssize_t n_rows, Py_ssize_t c, const double* z,
                         double* f, double yv, double eta, double epsilon,
                         int64_t* mistakes, double* loss_sum, double eps_z, double drift,
                         double screen) noexcept nogil:
    """Loss, online counters and the linear update for one step; returns 1 if updated.

    ``eta`` is the example's step ``eta s_t`` (weight ``s_t``); 0 (weight 0): no update.  ``eps_z``:
    a bound of each feature's error, ``drift`` the weights' (the mistake counter's tolerance,
    :func:`counted_mistake`, with ``screen`` an upper bound of it)."""
    cdef Py_ssize_t y_t, s_t
    cdef double loss
    scores(W, n_rows, c, z, f)                                # Alg. 1, line 7
    if task == TASK_BINARY or task == TASK_BINARY_POSITIVE:
        if counted_mistake(task, f, c, yv, -1, z, W, n_rows, eps_z, INFINITY, drift, screen):
            mistakes[0] += 1
        if yv * f[0] < 1.0 and eta != 0.0:                    # Alg. 1, line 9
            axpy_column(W, n_rows, c, 0, eta * yv, z)         # Alg. 1, line 10
            return 1
        return 0
    if task == TASK_MULTI:
        y_t = <Py_ssize_t>yv
        s_t = rival_class(f, c, y_t)                          # eq. 9
        if counted_mistake(task, f, c, yv, s_t, z, W, n_rows, eps_z, INFINITY, drift, screen):
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
