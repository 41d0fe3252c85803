# cython: language_level=3
"""NOGD: Nystrom online gradient descent (compiled mirror of :mod:`refsvm.nogd`).

Algorithms 2, 4 and 6 of Lu, Hoi, Wang, Zhao and Liu (2016).  Same function,
same signature, same :class:`refsvm.ogd.OGDResult` and trace as the
reference; see the reference module for the reading of the pseudo-code.

The ``def nogd`` resolves the options and checks the data and state with the
reference's :class:`refsvm.nogd.NOGDOptions`, :func:`refsvm.ogd.check_ogd_data` and
:func:`refsvm.nogd.check_nogd_state`, then runs up to three pieces:

1. the kernel phase (Alg. 2, lines 3-9) in the ``nogil`` loop
   :func:`_kernel_phase`, which stops right after the step whose SV
   completes the budget;
2. the switch (lines 10-12): the B x B kernel matrix in C, then the same
   :func:`refsvm.nogd.nystrom_map` (numpy's ``eigh``) and
   :func:`refsvm.nogd.initial_weights` for the initial ``W`` as the reference --
   one O(B^3) event per run, not worth a second eigen-solver;
3. the linear phase (lines 14-19) in the ``nogil`` loop :func:`_linear_phase`.
   Its kernel rows come from the SV store, which keeps the SVs also by
   feature (``refsvm._fast.sparse.BY_FEATURE_ENTRIES``: vector adds of rows
   at x's nonzeros).  The features ``z = P k`` are summed the same way over
   ``P``'s columns (``P'`` stored row by row; fastmath.h ``refsvm_phases``,
   FOGD's ``U x``); the reference's BLAS product sums in another order, so
   ``W`` agrees with it to rounding.

The loops count in C; the trace and the result are assembled once per call by the
reference's :class:`refsvm.nogd.NOGDRecorder` and :func:`refsvm.nogd.nogd_result`.
A chunk that ends in the kernel phase returns its state; the next call
continues it, so chunked calls equal one call whether or not the switch falls
inside a chunk.
"""

import numpy as np
import scipy.sparse as sp

from refsvm.nogd import (EIG_TOL, NOGDOptions, NOGDRecorder, check_nogd_state, initial_weights, nogd_result,
                         nystrom_map)
from refsvm.online.common import _max_sq_norm as max_sq_norm
from refsvm.ogd import check_average_state, check_ogd_data
from refsvm.validation import weights_as_data
from refsvm.recorder import add_step_records, step_record_arrays

from libc.math cimport INFINITY
from libc.stdint cimport int8_t, int64_t

from refsvm._fast.kernels cimport KERNEL_LINEAR, KERNEL_RBF
from refsvm._fast.tolerance cimport kernel_relative_error_at, kernel_value_error_at, nystrom_feature_error
from refsvm._fast.sparse cimport (Rows, Store, rows_init, rows_self, store_export, store_fill, store_free, store_init,
                                  store_kernel_row, store_set_row)
from refsvm._fast.step_records cimport StepOut, record_margin, records_off, step_out_on
from refsvm._fast.ogd_core cimport (TASK_BINARY, TASK_BINARY_POSITIVE, TASK_MULTI, counted_mistake,
                                    refsvm_phases, rival_class, scores, task_code)


cdef inline double _kernel_error(const Rows* X, Py_ssize_t i, double gamma, double* M) noexcept nogil:
    """``M <- max(M, ||x_i||^2)``, then ``eps_K`` (:class:`refsvm.tolerance.KernelErrorBound`, Gaussian)."""
    cdef double s = rows_self(X, i, KERNEL_LINEAR, 0.0, 0.0, 0.0)
    if s > M[0]:
        M[0] = s
    return kernel_value_error_at(KERNEL_RBF, X.d, gamma, 3.0, 0.0, M[0])


cdef inline int loss_step(int task, const double* f, Py_ssize_t c, double yv, double eta,
                          double epsilon, int64_t* mistakes, double* loss_sum,
                          double* beta, const double* k, const double* A, Py_ssize_t n,
                          double eps, double rel) noexcept nogil:
    """Online counters; returns 1 if the loss is "nonzero" and sets ``beta = -eta grad``.

    ``eta`` is the example's step ``eta s_t``; 0 (weight 0): never "nonzero".  ``f = k'A`` (``n``
    terms, each ``k_j`` within ``eps`` and within ``rel k_j`` (Gaussian kernel values; INFINITY for
    features): the mistake counter's tolerance (``counted_mistake``)."""
    cdef Py_ssize_t y_t, s_t, r
    cdef double loss
    if task == TASK_BINARY or task == TASK_BINARY_POSITIVE:
        if counted_mistake(task, f, c, yv, -1, k, A, n, eps, rel, 0.0, INFINITY):
            mistakes[0] += 1
        beta[0] = eta * yv
        return yv * f[0] < 1.0 and eta != 0.0                 # hinge loss > 0
    if task == TASK_MULTI:
        y_t = <Py_ssize_t>yv
        s_t = rival_class(f, c, y_t)                          # eq. 9
        if counted_mistake(task, f, c, yv, s_t, k, A, n, eps, rel, 0.0, INFINITY):
            mistakes[0] += 1
        for r in range(c):
            beta[r] = 0.0
        beta[y_t] = eta                                       # eq. 10 / 12
        beta[s_t] = -eta                                      # eq. 11 / 13
        return 1.0 - f[y_t] + f[s_t] > 0.0 and eta != 0.0
    loss = (f[0] - yv) * (f[0] - yv)                          # Alg. 6: squared loss
    loss_sum[0] += loss
    beta[0] = -eta * 2.0 * (f[0] - yv)
    return loss > epsilon and eta != 0.0


cdef Py_ssize_t _kernel_phase(const Rows* X, const double[::1] yv, const int64_t[::1] order,
                              Py_ssize_t start, int task, Py_ssize_t budget, double gamma, double eta,
                              double epsilon, Store* SV, double[:, ::1] A, Py_ssize_t* b,
                              double[::1] krow, double[::1] f, double[::1] beta,
                              int8_t[::1] updated, int8_t[::1] added, int64_t* mistakes,
                              double* loss_sum, int64_t* kernel_evaluations,
                              const double[::1] sw, double* M, const StepOut* records) noexcept nogil:
    """Alg. 2, lines 3-9 from ``order[start]``; returns the step that completed the budget or -1
    (``M``: the largest squared norm of the SVs given and the rows seen, the mistake counter's;
    ``records``: the per-step records, NULL pointers: off)."""
    cdef Py_ssize_t step, i, r, c = A.shape[1]
    cdef double eps
    for step in range(start, order.shape[0]):
        i = order[step]
        store_kernel_row(SV, b[0], X, i, KERNEL_RBF, gamma, 3.0, 0.0, &krow[0])
        kernel_evaluations[0] += b[0]
        scores(&A[0, 0], b[0], c, &krow[0], &f[0])            # Alg. 2, line 5: f_t(x_t)
        record_margin(records, step, &f[0])                   # per-step records (opt-in)
        eps = _kernel_error(X, i, gamma, M)                   # M updated first, then the relative bound
        if not loss_step(task, &f[0], c, yv[i], eta * sw[i], epsilon, mistakes, loss_sum, &beta[0],
                         &krow[0], &A[0, 0], b[0], eps, kernel_relative_error_at(KERNEL_RBF, X.d, gamma, M[0])):
            continue
        updated[step] = 1
        if store_set_row(SV, b[0], X, i) != 0:                # Alg. 2, lines 6-7
            SV.failed = True
            return -1
        for r in range(c):
            A[b[0], r] = beta[r]
        b[0] += 1
        added[step] = 1
        if b[0] == budget:                                    # Alg. 2, line 3
            return step
    return -1


cdef void _linear_phase(const Rows* X, const double[::1] yv, const int64_t[::1] order,
                        Py_ssize_t start, int task, double gamma, double eta, double epsilon,
                        const Store* SV, Py_ssize_t B, const double[:, ::1] P, double[:, ::1] W,
                        double[::1] krow, double[::1] z, double[::1] f, double[::1] beta,
                        int8_t[::1] updated, int64_t* mistakes, double* loss_sum,
                        int64_t* kernel_evaluations, const double[::1] sw,
                        const double[:, ::1] PT, Py_ssize_t* nz, double* W_sum, double* M,
                        double p_max, const StepOut* records) noexcept nogil:
    """Alg. 2, lines 14-19 from ``order[start]``.  ``PT`` (B, k): the projection transposed;
    ``W_sum`` (k, c) or NULL: the averaged variant's sum; ``M`` as in :func:`_kernel_phase`,
    ``p_max = max_i sum_j |P_ij|`` (the features' error bound, :func:`refsvm.nogd.feature_error`)."""
    cdef Py_ssize_t step, i, j, r, c = W.shape[1]
    cdef Py_ssize_t k = P.shape[0]
    for step in range(start, order.shape[0]):
        i = order[step]
        store_kernel_row(SV, B, X, i, KERNEL_RBF, gamma, 3.0, 0.0, &krow[0])
        kernel_evaluations[0] += B
        refsvm_phases(&PT[0, 0], k, B, &krow[0], &z[0], nz)    # Alg. 2, line 16: z(x_t) = sum_j k_j P[:, j]
        scores(&W[0, 0], k, c, &z[0], &f[0])                  # Alg. 2, line 17
        record_margin(records, step, &f[0])                   # per-step records (opt-in)
        if not loss_step(task, &f[0], c, yv[i], eta * sw[i], epsilon, mistakes, loss_sum, &beta[0],
                         &z[0], &W[0, 0], k, nystrom_feature_error(B, _kernel_error(X, i, gamma, M), p_max),
                         INFINITY):
            continue
        updated[step] = 1
        for j in range(k):                                    # Alg. 2, line 18
            for r in range(c):
                W[j, r] += z[j] * beta[r]
        if W_sum != NULL:
            for j in range(k * c):                            # averaged variant: sum of w_{t+1} (KOL)
                W_sum[j] += (&W[0, 0])[j]


def nogd(X, y, order, *, task, n_classes, budget, rank, gamma, eta, epsilon=0.0, eig_tol=EIG_TOL,
         sv=None, alpha=None, projection=None, W=None, t0=0, sample_weight=None, zero_prediction="mistake",
         average=False, W_sum=None):
    """One pass of NOGD over ``X[order]``, continuing a state; see :func:`refsvm.nogd.nogd`."""
    o = NOGDOptions.of(task=task, n_classes=n_classes, budget=budget, rank=rank, gamma=gamma, eta=eta,
                       epsilon=epsilon, eig_tol=eig_tol, zero_prediction=zero_prediction, average=average)
    X, y, order = check_ogd_data(X, y, order, t0, o)
    sv, alpha, projection, W = check_nogd_state(X, o, sv, alpha, projection, W)
    W_sum = check_average_state(o.average, W_sum, W)
    sw = weights_as_data(sample_weight, X.shape[0])           # eta * 1.0 == eta
    cdef double M = max_sq_norm(sv)                           # the mistake counter's, as refsvm.nogd
    cdef int code = task_code(o)
    cdef Py_ssize_t c = o.c, B = o.budget, d = X.shape[1], n_sv = 0
    cdef Py_ssize_t n = order.shape[0], switch = -1, j
    cdef int64_t mistakes = 0, kernel_evaluations = 0
    cdef double loss_sum = 0.0, g = o.kernel.gamma
    cdef double[::1] Krow
    cdef Py_ssize_t[::1] nzv
    cdef double[:, ::1] wsum
    cap = min(B, (0 if sv is None else sv.shape[0]) + n)     # the SVs this call can hold, as refsvm.nogd
    sparse = sp.issparse(X)                                  # sparse X: sparse SV slots (sparse.pxd)
    SV = None if sparse else np.zeros((cap, d))
    A = np.zeros((cap, c))
    cdef Rows R, RSV
    cdef Store S
    cdef StepOut steps = records_off(c)    # per-step records: off unless switched on
    margins, new_coefs = step_record_arrays(n, 0, c)
    if margins is not None:
        step_out_on(&steps, margins, new_coefs)
    rows_init(&R, X)
    store_init(&S, SV, max(cap, 1), d, sparse)
    try:
        if sv is not None:
            n_sv = sv.shape[0]
            store_fill(&S, sv)                             # dense rows: their norms too
            if alpha is not None:
                A[:n_sv] = alpha
        linear = projection is not None
        yv = np.ascontiguousarray(y, dtype=np.float64)
        updated = np.zeros(n, dtype=np.int8)
        added = np.zeros(n, dtype=np.int8)
        krow = np.zeros(max(cap, 1))                         # a kernel row over the stored SVs
        f = np.zeros(c)
        beta = np.zeros(c)
        eigenvalues = np.zeros(0)
        start = 0
        if not linear and n > 0:
            switch = _kernel_phase(&R, yv, order, 0, code, B, g, o.eta, o.epsilon,
                                   &S, A, &n_sv, krow, f, beta, updated, added, &mistakes, &loss_sum,
                                   &kernel_evaluations, sw, &M, &steps)
            if S.failed:
                raise MemoryError("could not allocate a sparse support vector")
            if switch >= 0:
                svm = store_export(&S, B) if sparse else SV      # Alg. 2, line 10: K of the B SVs,
                rows_init(&RSV, svm)                             # row j = k(sv_j, SV) from the store
                K = np.empty((B, B))
                for j in range(B):
                    Krow = K[j]
                    with nogil:
                        store_kernel_row(&S, B, &RSV, j, KERNEL_RBF, g, 3.0, 0.0, &Krow[0])
                kernel_evaluations += B * B
                projection, eigenvalues, V = nystrom_map(K, o.rank, o.eig_tol)   # Alg. 2, line 11
                W = initial_weights(eigenvalues, V, A)           # Alg. 2, line 12
                W_sum = np.zeros_like(W) if o.average else None  # the averaged variant's sum starts here
                linear = True
                start = switch + 1
        if linear and start < n:
            z = np.zeros(projection.shape[0])
            nz = np.empty(max(B, 1), dtype=np.intp)
            if W_sum is not None:
                wsum = W_sum
            nzv = nz
            _linear_phase(&R, yv, order, start, code, g, o.eta, o.epsilon,
                          &S, B, projection, W, krow, z, f, beta, updated, &mistakes, &loss_sum,
                          &kernel_evaluations, sw, np.ascontiguousarray(projection.T), &nzv[0],
                          NULL if W_sum is None else &wsum[0, 0], &M,
                          float(np.max(np.sum(np.abs(projection), axis=1))) if projection.size else 0.0, &steps)
        sv_out = (store_export(&S, n_sv) if sparse else SV[:n_sv].copy()) if n_sv else None
    finally:
        store_free(&S)
    rec = NOGDRecorder.from_counts(n, o.task, flags={"updated": updated, "added": added}, mistakes=mistakes,
                                   squared_loss_sum=loss_sum, kernel_evaluations=kernel_evaluations)
    if switch >= 0:
        rec.switch(switch, eigenvalues)
    result = nogd_result(rec, sv_out, A, n_sv, alpha, projection, W, W_sum, t0)
    add_step_records(result.trace, margins, new_coefs, 0)     # the reference's StepRecords keys
    return result
