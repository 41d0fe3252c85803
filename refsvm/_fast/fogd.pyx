# cython: language_level=3
"""FOGD: Fourier online gradient descent (compiled mirror of :mod:`refsvm.fogd`).

Algorithms 1, 3 and 5 of Lu, Hoi, Wang, Zhao and Liu (2016).  Same function,
same signature, same :class:`refsvm.ogd.OGDResult` and trace as the
reference; see the reference module for the reading of the pseudo-code.

The ``def fogd`` resolves the options and checks the data with the reference's
:class:`refsvm.fogd.FOGDOptions` and :func:`refsvm.fogd.check_fogd_data`, allocates
once and runs the pass in :func:`_fogd_pass`, a ``nogil`` loop; the trace is
assembled by the reference's :class:`refsvm.fogd.FOGDRecorder` from the counts.
Per step: ``p = U x_t`` (C loops over the nonzero inputs with ``U'`` stored
row by row, see :mod:`refsvm._fast.ogd_core`), the D ``sin``/``cos`` pairs
by ``sincos_block`` (branch-free, vectorised by the compiler; absolute error
below 4.5e-16 against libm for ``|p| <= 2^18``, libm beyond), ``f = W'z`` and
the update of a column of the row-major ``W`` (and, with ``average=True``,
the sum of the weights after each update: the averaged variant).  The reference's BLAS sums in
another order and numpy's sin/cos are libm's, so weights agree with the
reference to rounding, not bitwise.
"""

import numpy as np
import scipy.sparse as sp

from refsvm.fogd import FOGDOptions, FOGDRecorder, WeightDrift, check_fogd_data
from refsvm.ogd import OGDResult, check_average_state, check_weights
from refsvm.validation import check_sparse_rows, weights_as_data
from refsvm.recorder import add_step_records, step_record_arrays

from libc.float cimport DBL_EPSILON
from libc.math cimport fabs, sqrt
from libc.stdint cimport int8_t, int64_t

from refsvm._fast.ogd_core cimport TASK_REGRESSION, feature_map_row, scores, ogd_step, sincos_block, task_code
from refsvm._fast.kernels cimport KERNEL_LINEAR
from refsvm._fast.tolerance cimport feature_error, weight_drift
from refsvm._fast.sparse cimport Rows, rows_init, rows_self
from refsvm._fast.step_records cimport StepOut, record_margin, records_off, step_out_on

cdef void _fogd_pass(const Rows* X, const double[::1] yv, const int64_t[::1] order,
                     int task, const double[:, ::1] UT, double eta, double epsilon, double scale,
                     double[:, ::1] W, double[::1] p, double[::1] z, double[::1] f,
                     int8_t[::1] updated, int64_t* mistakes, double* loss_sum,
                     const double[::1] sw, Py_ssize_t[::1] nz, double* W_sum, double u_max,
                     double z_max, double w0_max, double step_sum, long long n_moves, double w_l1,
                     const StepOut* records) noexcept nogil:
    """The pass; ``u_max``, ``z_max``, ``w0_max``, ``step_sum`` (G), ``n_moves`` (m): the mistake
    counter's drift bound (refsvm.fogd.WeightDrift), G, m and ``M`` (the rows' largest squared
    norm) updated here.  ``w_l1 = sum |W|`` at the start: ``sum |W| <= w_l1 + 2 G n_rows z_max`` (each
    move adds ``a z`` to at most two columns, growth by rounding within the factor ``1 + 1e-6``)
    bounds the tolerance (``screen``), so a clear margin skips its sums.  ``records``: the per-step
    records (NULL pointers: off; ``ogd_step`` leaves ``f`` the scores before its update)."""
    cdef Py_ssize_t step, i, k
    cdef Py_ssize_t D = UT.shape[1], c = W.shape[1], n_rows = W.shape[0]
    cdef double M = 0.0, s, eps_z, drift, screen
    for step in range(order.shape[0]):                        # Alg. 1, line 4
        i = order[step]
        feature_map_row(&UT[0, 0], D, X, i, scale, &p[0], &z[0], &nz[0])     # Alg. 1, line 6
        s = rows_self(X, i, KERNEL_LINEAR, 0.0, 0.0, 0.0)     # ||x_t||^2 into M (WeightDrift.tolerance)
        if s > M:
            M = s
        eps_z = feature_error(u_max, X.d, M, scale)
        drift = weight_drift(step_sum, n_moves, eps_z, z_max, w0_max, n_rows)
        screen = (2.0 * ((n_rows + 2) * (0.5 * DBL_EPSILON) * z_max + eps_z)
                  * (w_l1 + 2.0 * step_sum * n_rows * z_max) + drift) * (1.0 + 1e-6)
        updated[step] = <int8_t>ogd_step(task, &W[0, 0], n_rows, c, &z[0], &f[0], yv[i],
                                         eta * sw[i], epsilon, mistakes, loss_sum, eps_z,   # step eta s_t
                                         drift, screen)
        record_margin(records, step, &f[0])                   # per-step records (opt-in): w_t' z(x_t)
        if updated[step]:
            step_sum += fabs(eta * sw[i]) if task != TASK_REGRESSION else 0.0
            n_moves += 1
        if W_sum != NULL and updated[step]:
            for k in range(n_rows * c):                       # averaged variant: sum of w_{t+1} (KOL)
                W_sum[k] += (&W[0, 0])[k]


def fogd(X, y, order, *, task, n_classes, U, eta, epsilon=0.0, normalize=False, W=None, t0=0,
         sample_weight=None, zero_prediction="mistake", average=False, W_sum=None):
    """One pass of FOGD over ``X[order]``; see :func:`refsvm.fogd.fogd`."""
    o = FOGDOptions.of(task=task, n_classes=n_classes, eta=eta, epsilon=epsilon, normalize=normalize,
                       zero_prediction=zero_prediction, average=average)
    X, y, order, U = check_fogd_data(X, y, order, U, t0, o)
    sw = weights_as_data(sample_weight, X.shape[0])              # eta * 1.0 == eta
    D = U.shape[0]
    c = o.c
    W = np.zeros((2 * D, c)) if W is None else check_weights(W, (2 * D, c))
    W_sum = check_average_state(o.average, W_sum, W)
    cdef double[:, ::1] Ws = W_sum
    cdef int code = task_code(o)
    cdef double scale = 1.0 / sqrt(D) if o.normalize else 1.0
    cdef int64_t mistakes = 0
    cdef double loss_sum = 0.0
    yv = np.ascontiguousarray(y, dtype=np.float64)
    updated = np.zeros(order.shape[0], dtype=np.int8)
    p = np.empty(D)                                              # the phases u_j'x
    z = np.empty(2 * D)
    f = np.empty(c)
    drift = WeightDrift.of(U, X, W, o, sw, t0)                   # the mistake counter's bound, as the reference
    cdef Rows R
    cdef StepOut steps = records_off(c)    # per-step records: off unless switched on
    margins, new_coefs = step_record_arrays(order.shape[0], 0, c)
    if margins is not None:
        step_out_on(&steps, margins, new_coefs)
    rows_init(&R, X)
    if X.shape[0] > 0 and order.shape[0] > 0:
        _fogd_pass(&R, yv, order, code, np.ascontiguousarray(U.T), o.eta, o.epsilon, scale, W, p, z, f,
                   updated, &mistakes, &loss_sum, sw, np.empty(max(X.shape[1], 1), dtype=np.intp),
                   NULL if W_sum is None else &Ws[0, 0], drift.u_max, drift.z_max, drift.w0_max,
                   drift.step_sum, drift.n_moves, float(np.sum(np.abs(W))), &steps)
    rec = FOGDRecorder.from_counts(order.shape[0], o.task, flags={"updated": updated}, mistakes=mistakes,
                                   squared_loss_sum=loss_sum)
    trace = rec.trace()
    add_step_records(trace, margins, new_coefs, 0)              # the reference's StepRecords keys
    return OGDResult(W=W, t=int(t0) + int(order.shape[0]), trace=trace, W_sum=W_sum)


cdef void _decision_values(const Rows* X, Py_ssize_t n, const double[:, ::1] UT, double scale,
                           const double[:, ::1] W, double[::1] p, double[::1] z,
                           double[:, ::1] F, Py_ssize_t[::1] nz) noexcept nogil:
    cdef Py_ssize_t i, D = UT.shape[1]
    for i in range(n):
        feature_map_row(&UT[0, 0], D, X, i, scale, &p[0], &z[0], &nz[0])
        scores(&W[0, 0], W.shape[0], W.shape[1], &z[0], &F[i, 0])


def _sincos_block(p, scale=1.0):
    """``(sin p, cos p) * scale`` interleaved, by the compiled feature map's ``sincos_block`` (for tests)."""
    cdef double[::1] ph = np.array(p, dtype=np.float64, copy=True)
    z = np.empty(2 * len(p))
    cdef double[::1] zv = z
    if len(p):
        sincos_block(&ph[0], len(p), scale, &zv[0])
    return z


def decision_values(X, U, W, normalize=False):
    """``F = z(X) W``, shape (n, c); see :func:`refsvm.fogd.decision_values` (row by row, no BLAS)."""
    X = check_sparse_rows(X) if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    U = np.ascontiguousarray(U, dtype=np.float64)
    W = np.ascontiguousarray(W, dtype=np.float64)
    if X.ndim != 2 or U.ndim != 2 or X.shape[1] != U.shape[1] or W.shape[0] != 2 * U.shape[0]:
        raise ValueError(f"X (n, d), U (D, d) and W (2D, c) do not match: {X.shape}, {U.shape}, {W.shape}")
    F = np.zeros((X.shape[0], W.shape[1]))
    cdef Rows R
    rows_init(&R, X)
    if X.shape[0]:
        _decision_values(&R, X.shape[0], np.ascontiguousarray(U.T), 1.0 / sqrt(U.shape[0]) if normalize else 1.0, W,
                         np.empty(U.shape[0]), np.empty(2 * U.shape[0]), F,
                         np.empty(max(X.shape[1], 1), dtype=np.intp))
    return F
