# cython: language_level=3
"""BSGD: budgeted stochastic gradient descent (compiled mirror of :mod:`refsvm.bsgd`).

Algorithm 1 of Wang, Crammer, Vucetic (2012) with the learning rates of its
Table 2, Crammer–Singer multi-class (section 5) and the budget maintenance of
section 6 (:mod:`refsvm._fast.budget`).  Same function, same signature, same
:class:`refsvm.bsgd.BSGDResult` and trace as the reference; the reference
module quotes Algorithm 1 and gives the reading of the pseudo-code, and the
loop of :func:`_bsgd_pass` carries the same line tags.

The ``def bsgd`` validates and converts its arguments (strings to int codes,
arrays to C-contiguous float64 / int64), allocates every buffer once (room for
min(B, n_sv + len(order)) + 1 SVs) and runs the whole pass in :func:`_bsgd_pass`, a ``nogil`` loop
without Python objects.  Differences in *how* (not *what*) is computed:

* Projection keeps ``Kinv = (K + ridge I)^{-1}`` of the current SVs up to
  date: a bordered-inverse update on every append (the new row of K is the
  kernel row already computed for the margin), the identity
  ``(K_p + ridge I)^{-1} k_p = -Kinv[-p, p] / Kinv[p, p]`` plus one step of
  iterative refinement, and the rank-one downdate when SV ``p`` leaves (see
  :mod:`refsvm._fast.budget`).  The inverse is recomputed from scratch
  (Cholesky in plain loops, no BLAS threads) every ``B`` appends and whenever
  an append loses accuracy (the error bound of the Schur complement above
  1e-6 of it, :func:`kinv_append`, which happens when a near-duplicate of an
  SV arrives), i.e. amortised O(B^2) per step.
  The time spent keeping the inverse up to date on appends is counted in
  ``maintenance_seconds`` (it is part of the cost of projection).
  ``_last_stats`` holds the number of recomputations of the last call.
  The ``kept="factor"`` variant (``_projection_options(kept="factor")``, not
  the default) keeps the Cholesky factor of ``K + ridge I`` instead: one
  forward substitution per append, a rank-one update when an SV leaves, two
  triangular solves per event; O(B^2) per step without recomputations
  (:func:`c_maintain_projection_factor`; DESIGN.md, "Kept Cholesky factor").
  A call whose model ``(sv, alpha, t0)`` equals one an earlier call returned
  (by content: the same arrays, a copy, the canonical CSR copy, a saved and
  loaded model; same kernel, ridge and budget) keeps that call's K,
  inverse and append counter instead of recomputing them, so a pass split
  into several calls (epochs, progress reports) gives the same model as one
  call; any other model to continue gets them recomputed (``_continuations``).
* Projection with a kernel whose diagonal is not constant (linear, poly)
  solves ``K_p + ridge_eff I`` afresh at every event, as the reference
  (:func:`refsvm.budget.relative_ridge`: the ridge scales with max diag K_p,
  which changes as SVs come and go, so no inverse can be kept).
* The Margin Perceptron's ``||w||^2 = sum alpha' K alpha`` uses a kernel
  matrix of the SVs kept up to date (append: the margin's kernel row;
  remove: swap-remove; merge: one new row for ``z``) and is evaluated only
  when ``w`` may have changed (a step that added an SV, and the first step);
  on other steps ``w`` is unchanged (lambda = 0) and its norm was already
  at most U.
* ``maintenance_seconds`` is measured with ``clock_gettime(CLOCK_MONOTONIC)``.
* Invalid ``learning_rate`` / ``maintenance`` / ``kernel`` strings (and merge
  with a non-Gaussian kernel) raise the reference's ``ValueError`` before the
  pass starts instead of at the first step / first maintenance event.
"""

import hashlib
import weakref

import numpy as np
import scipy.sparse as sp

from refsvm.bsgd import LEARNING_RATES, BSGDResult, resolve_options  # noqa: F401 (LEARNING_RATES re-exported)
from refsvm.sparse import canonical_csr, n_rows
from refsvm.validation import check_sample_weight
from refsvm.budget import BSGD_MAINTENANCE, LOOKUP_SOLVERS, merge_solver_eps
from refsvm._fast.budget import _SOLVER_CODES
from refsvm.online.common import _max_sq_norm as max_sq_norm
from refsvm.recorder import add_step_records, merge_h_array, step_record_arrays

from libc.math cimport INFINITY, sqrt
from refsvm._fast.step_records cimport (StepOut, merge_h_on, merge_h_slot, record_margin, record_new_coefficient,
                                        records_off, step_out_on)
from libc.string cimport memset
from libc.stdint cimport int8_t, int64_t
from refsvm._fast.common cimport (ERR_INTERRUPTED, ERR_NONE, ERR_SINGULAR, MAINT_MERGE, MAINT_PROJECTION,
                                  MAINT_RANDOM_REMOVAL, MAINT_REMOVAL, MAINT_STOP, _now, interrupted)

from refsvm._fast.tolerance cimport kernel_relative_error_at, kernel_value_error_at, margin_tolerance
from refsvm._fast.kernels cimport (KERNEL_LINEAR, KERNEL_RBF, code_of, kernel_code, kernel_row_into, kernel_self,
                                   kernel_value, pw_dot)
from refsvm._fast.sparse cimport (ERR_NOMEM, Rows, Store, rows_init, rows_self, store_export, store_fill,
                                  store_find_row, store_free, store_init, store_kernel, store_kernel_row,
                                  store_self, store_set_row)
from refsvm._fast.budget cimport (MergeTables, c_maintain_merge, c_maintain_projection_inverse, c_maintain_removal,
                                  c_maintain_removal_at, c_random_slot,
                                  c_maintain_projection_solve, c_remove_sv, c_merge_compare, c_select_smallest, kinv_append, kinv_refresh,
                                  open_merge_tables, sym_swap_remove, twins_append, twins_count, twins_remove,
                                  c_maintain_projection_factor, chol_append, chol_refresh)


cdef enum:                 # in the order of refsvm.bsgd.LEARNING_RATES
    LR_PEGASOS = 0
    LR_NORMA = 1
    LR_PERCEPTRON = 2



include "bsgd_continuation.pxi"                       # projection knobs, continuation state
include "bsgd_decisions.pxi"                          # line 6 within the scores' error bound


cdef inline double c_learning_rate(int lr, long long t, double lam, double eta) noexcept nogil:
    """``eta_t`` of Table 2."""
    if lr == LR_PEGASOS:
        return 1.0 / (lam * <double> t)
    if lr == LR_NORMA:
        return eta / sqrt(<double> t)
    return eta


cdef int _lr_code(learning_rate) except -1:
    """LR_* of a learning rate (the enum follows ``LEARNING_RATES``)."""
    return code_of(learning_rate, LEARNING_RATES, "learning_rate")


def learning_rate_at(learning_rate, t, lam, eta):
    """``eta_t`` of Table 2: pegasos ``1/(lambda t)``, norma ``eta/sqrt(t)``, perceptron ``eta``."""
    cdef int lr = _lr_code(learning_rate)
    if lr == LR_PEGASOS and lam * t == 0:
        raise ZeroDivisionError("float division by zero")
    if lr == LR_NORMA and t < 0:
        raise ValueError("math domain error")
    if lr == LR_NORMA and t == 0:
        raise ZeroDivisionError("float division by zero")
    return float(c_learning_rate(lr, t, lam, eta))


cdef struct Params:
    Py_ssize_t n_steps
    Py_ssize_t d
    Py_ssize_t c
    Py_ssize_t budget
    bint binary
    bint fit_bias
    bint keep_K            # kernel matrix of the SVs (projection, the perceptron's ball)
    bint keep_Kinv         # (K + ridge I)^{-1} (projection), or its Cholesky factor (kept_factor)
    bint kept_factor       # projection keeps the Cholesky factor of K + ridge I in the Kinv buffer (kept="factor")
    int* fslot             # kept_factor: the slot of each factor row
    int* fidx              # kept_factor: the factor row of each slot
    double* fwork          # kept_factor: 3 (B + 1) doubles of scratch per event
    int lr
    int maint
    int kernel
    double lam
    double eta
    double radius
    double gamma
    double degree
    double coef0
    double merge_eps       # GSS precision of the solver (resolved from merge_solver)
    double compare_eps     # merge_eps as passed (the gss column of the comparison mode)
    int merge_solver       # MERGE_* code of refsvm._fast.budget
    bint compare           # comparison mode
    MergeTables tables     # the tables merging reads (refsvm._fast.budget.open_merge_tables)
    double ridge
    Py_ssize_t refresh_every   # projection: recompute Kinv from scratch every this many appends
    int refine_steps           # projection: iterative-refinement steps per event
    const double* sample_weight  # weight of X[i] (NULL: all 1)
    const double* uniforms # u_t of step t, read by random removal (NULL: the other strategies)
    double sq_max          # max ||sv||^2 of the SVs given (the mistake counter's, refsvm.tolerance.KernelErrorBound)
    double* errors         # projection: room for the selection's per-slot bounds e_j (refsvm.bsgd.selection_errors)
    double kernel_error    # projection: one kernel value's error over X and the SVs given (the bounds' eps_K)
    int* twins             # projection with the kept inverse: near duplicates per slot (budget.twins_count)
    StepOut steps          # per-step records (refsvm.recorder.recording_steps; NULL pointers: off)


cdef struct State:
    Py_ssize_t b           # number of SVs in use
    long long t            # step counter, continues across passes
    Py_ssize_t n_events
    long long mistakes
    double gradient_error_sum
    double maintenance_seconds
    double merge_seconds
    long long kinv_refreshes
    long long kinv_append_failures
    long long kernel_evaluations   # k(x, x') of x != x' (DESIGN.md)
    long long duplicate_additions  # projection: x_t equal to an SV (DESIGN.md)
    long long kernel_entries       # entries the margins' kernel rows read (sparse: SV nonzeros + x_t's)
    Py_ssize_t appends_since_refresh   # projection: appends since Kinv was last recomputed
    bint factor_ok         # kept_factor: L is the factor of the current SVs (else fresh solves until a refresh works)


cdef void _set_kernel_row(const Params* P, const Store* SV, double[:, ::1] K,
                          Py_ssize_t b, Py_ssize_t s) noexcept nogil:
    """K[s, j] = K[j, s] = k(SV[j], SV[s]) for j < b."""
    cdef Py_ssize_t j
    cdef double v
    for j in range(b):
        v = store_kernel(SV, j, s, P.kernel, P.gamma, P.degree, P.coef0)
        K[s, j] = v
        K[j, s] = v


cdef inline double _k_times_alpha(const double[:, ::1] K, const double[:, ::1] A, Py_ssize_t b,
                                  Py_ssize_t j, Py_ssize_t r) noexcept nogil:
    """``(K @ A)[j, r]``."""
    cdef double s = 0.0
    cdef Py_ssize_t i
    if A.shape[1] == 1:
        return pw_dot(&K[j, 0], &A[0, 0], b)
    for i in range(b):
        s += K[j, i] * A[i, r]
    return s


cdef int _bsgd_pass(const Params* P, State* st,
                    const Rows* X, const int64_t[::1] y, const int64_t[::1] order,
                    Store* SV, double[:, ::1] A, double[::1] w0,
                    double[::1] k_t, double[::1] f, double[::1] beta,
                    double[:, ::1] K, double[:, ::1] Kinv, double[:, ::1] W,
                    double[::1] v1, double[::1] v2, int[::1] ipiv, double[::1] mwork, double[::1] kp_buf,
                    int8_t[::1] added, int64_t[::1] maint_step, int64_t[::1] maint_index,
                    int64_t[::1] maint_partner, double[::1] weight_degradation,
                    unsigned char[:, ::1] cmp_same, double[:, ::1] cmp_factor,
                    double[:, ::1] cmp_wd) noexcept nogil:
    """One pass of Algorithm 1 over ``X[order]``; returns ERR_NONE, ERR_SINGULAR, ERR_INTERRUPTED or
    ERR_NOMEM (a sparse SV could not be allocated)."""
    cdef Py_ssize_t d = P.d, c = P.c, budget = P.budget
    cdef Py_ssize_t step, i, j, r, r_t, p, partner, b_old, zslot, j_dup
    cdef Py_ssize_t b = st.b
    cdef Py_ssize_t appends_since_refresh = st.appends_since_refresh
    cdef long long t = st.t
    cdef int64_t y_t
    cdef double eta_t, yf, factor, best, wd, start, elapsed, s, norm_w, s_t, s_ak, s_a, row, tol
    cdef bint violates, refresh, need_norm = True
    cdef double M = P.sq_max, eps_K, rel_K                    # the mistake counter's (refsvm.tolerance)

    for step in range(P.n_steps):                             # Alg. 1, line 3
        if interrupted(step):                                 # let Ctrl-C through on long passes
            st.b = b
            st.t = t
            st.appends_since_refresh = appends_since_refresh
            return ERR_INTERRUPTED
        t += 1
        i = order[step]                                       # Alg. 1, line 4: x_t = X[i]
        y_t = y[i]
        s_t = P.sample_weight[i] if P.sample_weight != NULL else 1.0   # example weight (1: unweighted)
        eta_t = c_learning_rate(P.lr, t, P.lam, P.eta)

        # f_t(x_t) = sum_j alpha_j k(x_j, x_t) (+ bias), computed with w_t
        if b > 0:
            store_kernel_row(SV, b, X, i, P.kernel, P.gamma, P.degree, P.coef0, &k_t[0])
            st.kernel_evaluations += b                        # the margin's kernel row
            if SV.sparse:                                     # the entries it reads (trace, DESIGN.md)
                for j in range(b):
                    st.kernel_entries += SV.nnz[j]
                st.kernel_entries += X.indptr[i + 1] - X.indptr[i]
            else:
                st.kernel_entries += b * d
        s = rows_self(X, i, KERNEL_LINEAR, 0.0, 0.0, 0.0)     # ||x_t||^2 into M, then eps_K (KernelErrorBound.at)
        if s > M:
            M = s
        eps_K = kernel_value_error_at(P.kernel, d, P.gamma, P.degree, P.coef0, M)
        rel_K = kernel_relative_error_at(P.kernel, d, P.gamma, M)
        s_ak = 0.0                                            # sum_j |a_j k_j|, sum_j |a_j|: the scores'
        s_a = 0.0                                             # error bound (score_tolerance), same loop
        if P.binary:
            f[0] = (pw_dot_abs(&k_t[0], &A[0, 0], b, &s_ak, &s_a) if b > 0 else 0.0) + w0[0]
            tol = bias_tolerance(b, 1, s_ak, s_a, &w0[0], eps_K, rel_K)
            yf = <double> y_t * f[0]
            st.mistakes += yf <= tol                          # online error within the bound
            violates = hinge_loss_within(yf < 1.0, yf, tol) and s_t > 0.0   # l(w_t; (x_t, y_t)) > 0, weighted: s_t l > 0
            beta[0] = eta_t * <double> y_t * s_t              # eq. 4, scaled by the weight
        else:
            for r in range(c):
                f[r] = 0.0
            for j in range(b):
                s = k_t[j]
                row = 0.0
                for r in range(c):
                    f[r] += s * A[j, r]
                    row += fabs(A[j, r])
                s_ak += fabs(s) * row
                s_a += row
            for r in range(c):
                f[r] += w0[r]
            tol = bias_tolerance(b, c, s_ak, s_a, &w0[0], eps_K, rel_K)
            r_t = rival_class_within(&f[0], c, y_t, tol, &best)   # r_t = argmax_{i != y_t} f^(i)(x_t), eq. 11
            st.mistakes += best >= f[y_t] - tol               # online error within the bound
            violates = hinge_loss_within((1.0 + f[r_t]) - f[y_t] > 0.0, f[y_t] - f[r_t], tol) and s_t > 0.0   # (11) > 0
            for r in range(c):
                beta[r] = 0.0
            beta[y_t] = eta_t * s_t                           # beta^(i) = +eta_t s_t for i = y_t
            beta[r_t] = -(eta_t * s_t)                        #            -eta_t s_t for i = r_t

        record_margin(&P.steps, step, &f[0])                  # per-step records (opt-in): f_t(x_t)
        factor = 1.0 - eta_t * P.lam                          # Alg. 1, line 5
        if factor != 1.0:
            for j in range(b):
                for r in range(c):
                    A[j, r] *= factor
        j_dup = store_find_row(SV, b, X, i) if violates and P.maint == MAINT_PROJECTION else -1
        if j_dup >= 0:                                        # Alg. 1, line 7 for x_t = x_j: the same w_{t+1}
            for r in range(c):                                # as appending, with no duplicate SV (DESIGN.md)
                A[j_dup, r] += beta[r]
            added[step] = 1
            need_norm = True
            st.duplicate_additions += 1
            if P.fit_bias:
                for r in range(c):
                    w0[r] += beta[r]
        elif violates:                                        # Alg. 1, line 6
            if store_set_row(SV, b, X, i) != 0:               # Alg. 1, line 7: add an SV
                st.b = b
                st.t = t
                return ERR_NOMEM
            for r in range(c):
                A[b, r] = beta[r]
            if P.keep_K:                                      # K grows by the margin's kernel row
                for j in range(b):
                    K[b, j] = k_t[j]
                    K[j, b] = k_t[j]
                K[b, b] = rows_self(X, i, P.kernel, P.gamma, P.degree, P.coef0)
                if P.twins != NULL:                           # the selection's near duplicates (projection)
                    twins_append(K, b, P.ridge, P.twins)
            if P.kept_factor:                                 # the factor grows by one row (O(b^2))
                start = _now()
                if st.factor_ok and chol_append(K, Kinv, b, b, P.ridge, P.fslot, P.fidx) != 0:
                    st.kinv_append_failures += 1              # numerically dependent: fresh solves until a refresh
                    st.factor_ok = False
                st.maintenance_seconds += _now() - start
            elif P.keep_Kinv:                                 # Kinv grows by a bordered-inverse update
                start = _now()
                appends_since_refresh += 1
                refresh = appends_since_refresh >= P.refresh_every
                if not refresh and kinv_append(K, Kinv, b, P.ridge, v1) != 0:
                    st.kinv_append_failures += 1
                    refresh = True
                if refresh:
                    st.kinv_refreshes += 1
                    if kinv_refresh(K, Kinv, b + 1, P.ridge, W, ipiv, v2) != 0:
                        st.b = b + 1
                        st.t = t
                        return ERR_SINGULAR
                    appends_since_refresh = 0
                st.maintenance_seconds += _now() - start
            b += 1                                            # Alg. 1, line 8
            added[step] = 1
            need_norm = True
            if P.fit_bias:
                for r in range(c):
                    w0[r] += beta[r]
            if b > budget:                                    # Alg. 1, line 9
                if P.compare:                                 # diagnostics only, not timed
                    c_merge_compare(SV, A, b, P.gamma, P.compare_eps, &P.tables,
                                    &cmp_same[st.n_events, 0], &cmp_factor[st.n_events, 0],
                                    &cmp_wd[st.n_events, 0])
                if P.maint == MAINT_MERGE:                    # k(x_m, x_n) of every candidate partner n
                    if P.binary:                              # m as the merge selects it
                        p = c_select_smallest(SV, A, b, KERNEL_RBF, P.gamma, 0.0, 0.0, &wd)
                        for j in range(b):
                            if j != p and A[p, 0] * A[j, 0] >= 0.0:
                                st.kernel_evaluations += 1
                    else:
                        st.kernel_evaluations += b - 1
                start = _now()
                b_old = b
                partner = -1
                if P.maint == MAINT_REMOVAL:                  # Alg. 1, lines 10-11
                    b = c_maintain_removal(SV, A, b, P.kernel, P.gamma, P.degree, P.coef0, &p, &wd)
                    if P.keep_K:
                        sym_swap_remove(K, b_old, p)
                elif P.maint == MAINT_RANDOM_REMOVAL or P.maint == MAINT_STOP:   # sec. 7.3: MP+random, MP+stop
                    p = c_random_slot(P.uniforms[step], b) if P.maint == MAINT_RANDOM_REMOVAL else b - 1
                    b = c_maintain_removal_at(SV, A, b, p, P.kernel, P.gamma, P.degree, P.coef0, &wd)
                    if P.keep_K:
                        sym_swap_remove(K, b_old, p)
                elif P.maint == MAINT_PROJECTION and P.kept_factor and st.factor_ok:
                    b = c_maintain_projection_factor(SV, A, b, P.kernel, P.gamma, P.degree, P.coef0, P.ridge, K, Kinv,
                                                     P.fslot, P.fidx, P.fwork, P.refine_steps, &p, &wd,
                                                     P.errors, P.kernel_error, P.twins)
                elif P.maint == MAINT_PROJECTION and (not P.keep_Kinv or P.kept_factor):   # fresh solve: a kernel
                    if c_maintain_projection_solve(SV, A, b, P.kernel, P.gamma, P.degree, P.coef0, P.ridge,   # without a
                                                   kp_buf, v2, ipiv, &p, &wd, P.errors, P.kernel_error) != 0:   # constant
                        st.b = b                              # diagonal, or a kept factor that failed
                        st.t = t
                        return ERR_SINGULAR
                    if P.kept_factor:
                        twins_remove(K, b_old, p, P.ridge, P.twins)
                    b = c_remove_sv(SV, A, b, p)              # Alg. 2, projection, line 2
                    if P.keep_K:
                        sym_swap_remove(K, b_old, p)
                    if P.kept_factor:                         # factor the SVs that stay from scratch
                        st.kinv_refreshes += 1
                        st.factor_ok = chol_refresh(K, Kinv, b, P.ridge, P.fslot, P.fidx) == 0
                elif P.maint == MAINT_PROJECTION:
                    b = c_maintain_projection_inverse(SV, A, b, P.kernel, P.gamma, P.degree, P.coef0,
                                                      P.ridge, K, Kinv, v1, v2, P.refine_steps, &p, &wd,
                                                      P.errors, P.kernel_error, P.twins)
                else:
                    b = c_maintain_merge(SV, A, b, P.gamma, P.merge_eps, P.merge_solver, &P.tables, mwork,
                                         &p, &partner, &wd, NULL, NULL, NULL,
                                         merge_h_slot(&P.steps, st.n_events))   # records on: the merge's h
                    if P.keep_K:
                        if partner < 0:
                            sym_swap_remove(K, b_old, p)
                        else:
                            sym_swap_remove(K, b_old, partner)
                            zslot = partner if p == b_old - 1 else p   # where z ended up
                            _set_kernel_row(P, SV, K, b, zslot)
                            st.kernel_evaluations += b - 1    # the new row of K for z
                elapsed = _now() - start
                st.maintenance_seconds += elapsed
                if P.maint == MAINT_MERGE:
                    st.merge_seconds += elapsed
                maint_step[st.n_events] = step
                maint_index[st.n_events] = p
                maint_partner[st.n_events] = partner
                weight_degradation[st.n_events] = wd
                st.n_events += 1
                if SV.failed:                                 # a merged sparse SV could not be allocated
                    st.b = b
                    st.t = t
                    return ERR_NOMEM
                record_new_coefficient(&P.steps, A, P.maint == MAINT_MERGE, b_old, p, partner, st.n_events - 1)
                st.gradient_error_sum += sqrt(wd) / eta_t     # ||E_t|| = ||Delta_t|| / eta_t (Theorem 1)

        if P.lr == LR_PERCEPTRON and P.radius < INFINITY and b > 0 and need_norm:   # the ball of radius U (sec. 4)
            s = 0.0
            for j in range(b):
                for r in range(c):
                    s += A[j, r] * _k_times_alpha(K, A, b, j, r)
            norm_w = sqrt(s if s > 0.0 else 0.0)
            if norm_w > P.radius:
                factor = P.radius / norm_w
                for j in range(b):
                    for r in range(c):
                        A[j, r] *= factor
            need_norm = False

    st.b = b
    st.t = t
    st.appends_since_refresh = appends_since_refresh
    return ERR_NONE


def _same_svs(kept, sv):
    """True when the SVs given to continue equal the copy kept with the inverse (dense or CSR)."""
    if sp.issparse(kept):
        if not sp.issparse(sv) or kept.shape != sv.shape:
            return False
        sv = sp.csr_matrix(sv)
        return (np.array_equal(kept.indptr, sv.indptr) and np.array_equal(kept.indices, sv.indices)
                and np.array_equal(kept.data, sv.data))
    if sp.issparse(sv):
        return False
    return np.array_equal(kept, np.asarray(sv, dtype=np.float64))


def bsgd(X, y, order, *, n_classes, budget, lam, learning_rate, eta, radius,
         maintenance, kernel, gamma, degree, coef0, merge_eps, projection_ridge,
         fit_bias, sv=None, alpha=None, bias=None, t0=0, merge_solver="gss", merge_compare=False,
         sample_weight=None, uniforms=None):
    """One pass of BSGD (Algorithm 1) over the examples ``X[order]``.

    Same parameters and result as :func:`refsvm.bsgd.bsgd` (see there).

    Returns
    -------
    refsvm.bsgd.BSGDResult
    """
    X, y, order, _, uniforms, opts = resolve_options(         # the reference's checks, once
        X, y, order, n_classes=n_classes, budget=budget, lam=lam, learning_rate=learning_rate,
        eta=eta, radius=radius, maintenance=maintenance, kernel=kernel, gamma=gamma, degree=degree,
        coef0=coef0, merge_eps=merge_eps, projection_ridge=projection_ridge, fit_bias=fit_bias, sv=sv,
        alpha=alpha, bias=bias, t0=t0, merge_solver=merge_solver, merge_compare=merge_compare,
        sample_weight=sample_weight, uniforms=uniforms)
    sample_weight = check_sample_weight(sample_weight, X.shape[0])   # None: no weights (P.sample_weight NULL)
    order = np.array(order, dtype=np.int64, copy=True, order="C")
    sparse = sp.issparse(X)

    cdef Params P
    cdef State st
    P.lr = _lr_code(learning_rate)
    P.kernel = kernel_code(kernel)
    P.maint = code_of(maintenance, BSGD_MAINTENANCE, "maintenance")
    P.binary = n_classes == 2
    P.c = 1 if P.binary else int(n_classes)
    P.budget = int(budget)
    P.n_steps = order.shape[0]
    P.d = X.shape[1]
    P.fit_bias = bool(fit_bias)
    P.lam = opts.lam                                          # Table 2: the perceptron has lambda = 0
    P.eta = eta
    P.radius = radius
    P.gamma = gamma
    P.degree = degree
    P.coef0 = coef0
    P.merge_solver = _SOLVER_CODES[merge_solver]
    P.compare = bool(merge_compare)
    P.merge_eps = merge_solver_eps(merge_solver, merge_eps)
    P.compare_eps = merge_eps
    merge_tables = open_merge_tables(&P.tables, opts.maintenance.tables, merge_solver,   # alive until the pass ends
                                     P.maint == MAINT_MERGE and (P.compare or merge_solver in LOOKUP_SOLVERS),
                                     P.maint == MAINT_MERGE and P.binary)
    P.ridge = projection_ridge
    P.keep_Kinv = P.maint == MAINT_PROJECTION and P.kernel == KERNEL_RBF   # projection_keeps_inverse()
    P.kept_factor = P.keep_Kinv and _kept == KEPT_FACTOR      # the variant of _projection_options(kept=...)
    P.refresh_every = _refresh_every if _refresh_every > 0 else max(P.budget, 1)
    P.refine_steps = _refine_steps
    P.keep_K = P.keep_Kinv or (P.lr == LR_PERCEPTRON and P.radius < INFINITY)   # the ball's K (U = inf: no ball)
    P.sq_max = max_sq_norm(sv)                                # the mistake counter's, as refsvm.bsgd
    P.kernel_error = opts.maintenance.kernel_error            # projection's solve bounds (refsvm.bsgd.resolve_options)
    P.errors = NULL                                           # set by _bsgd_run (projection)
    P.twins = NULL
    P.steps = records_off(P.c)                                # per-step records: set by _bsgd_run if on
    cdef const double[::1] swv
    P.sample_weight = NULL
    if sample_weight is not None and sample_weight.shape[0] > 0:
        swv = sample_weight                                   # kept alive until the pass ends
        P.sample_weight = &swv[0]
    cdef const double[::1] uv
    P.uniforms = NULL
    if uniforms is not None and uniforms.shape[0] > 0:        # random removal's draws (checked: one per step)
        uv = uniforms                                         # kept alive until the pass ends
        P.uniforms = &uv[0]

    # The model M: room for min(B, n_sv + n_steps) + 1 SVs (b can never exceed n_sv + n_steps,
    # so a huge budget costs nothing up front); the first b rows are in use.
    # Sparse X: sparse SV slots (refsvm/_fast/sparse.pxd), the same list operations.
    cdef Py_ssize_t n_sv0 = n_rows(sv) if sv is not None else 0
    cdef Py_ssize_t cap = min(P.budget, n_sv0 + P.n_steps) + 1, d = P.d, c = P.c
    SV = None if sparse else np.zeros((cap, d))
    A = np.zeros((cap, c))
    cdef Rows R
    cdef Store S
    rows_init(&R, X)
    store_init(&S, SV, cap, d, sparse)
    try:
        st.b = 0                                              # Alg. 1, line 2: b = 0, w_1 = 0
        if n_sv0 > 0:
            st.b = n_sv0
            store_fill(&S, sv)                             # dense rows: their norms too
            A[:st.b] = alpha
        return _bsgd_run(&P, &st, &R, &S, SV, A, y, order, sv, bias, t0)
    finally:
        store_free(&S)


include "bsgd_run.pxi"                                # buffers, continuation, trace of a pass
