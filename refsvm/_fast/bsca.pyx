# cython: language_level=3
"""BSCA: budgeted stochastic coordinate ascent (compiled mirror of :mod:`refsvm.bsca`).

Algorithm 2 of Qaadan, Schüler, Glasmachers (2019) with the truncated Newton
step of eq. (3) and the budget maintenance of :mod:`refsvm._fast.budget`
(the same nogil cores BSGD uses).  Same functions, same signatures, same
:class:`refsvm.bsca.BSCAResult` and trace as the reference; see the reference
module for the reading of the pseudo-code and the errata.  Algorithm 2::

     4:   select index i in {1, ..., n} uniformly at random
     5:   f~(x_i) = sum_{(beta, x~) in M} beta k(x_i, x~)
     6:   delta = [alpha_i + (1 - y_i f~(x_i)) / Q_ii]_0^C - alpha_i
     7:   if delta != 0 then
     8:     alpha_i <- alpha_i + delta
     9:     M <- M u {(delta y_i, x_i)}
    10:     if |M| > B then
    11:       trigger budget maintenance

``sample_weight`` (not in the paper) changes line 6 only: the box of example
i is ``[0, C s_i]`` (see the reference module).

The ``def bsca`` validates its arguments with the reference's shared check,
allocates every buffer once and runs all steps in :func:`_bsca_pass`, a
``nogil`` loop without Python objects.  Projection solves ``K_p + ridge I``
from scratch per event (LU, as the reference; BSCA adds an SV only on
non-zero steps that are not absorbed by an existing slot, so events are
rarer than in BSGD).  ``maintenance_seconds`` is measured with
``clock_gettime(CLOCK_MONOTONIC)``.
"""

import numpy as np
import scipy.sparse as sp

from refsvm.bsca import (BSCAResult, SV_UPDATES, ZERO_GRADIENT_PREFILTER,  # noqa: F401 (SV_UPDATES re-exported)
                         ZERO_GRADIENT_TOL as _ZERO_GRADIENT_TOL, initial_errors, resolve_options)
from refsvm.budget import LOOKUP_SOLVERS, merge_solver_eps
from refsvm.constants import UNIT_ROUNDOFF as _UNIT_ROUNDOFF
from refsvm.validation import check_dual_sample, check_sample_weight, check_sparse_rows
from refsvm._fast.budget import _SOLVER_CODES
from refsvm.recorder import add_step_records, merge_h_array, step_record_arrays

from libc.math cimport fabs
from libc.string cimport memset
from refsvm._fast.step_records cimport (StepOut, merge_h_on, merge_h_slot, record_margin, record_new_coefficient,
                                        records_off, step_out_on)
from libc.stdint cimport int8_t, int64_t
from refsvm._fast.common cimport (ERR_INTERRUPTED, ERR_NONE, ERR_SINGULAR, MAINT_MERGE, MAINT_PROJECTION,
                                  MAINT_REMOVAL, _now, interrupted)

from refsvm._fast.kernels cimport RbfRows, kernel_code, kernel_row_into, kernel_self, kernel_value, pw_dot
from refsvm._fast.sparse cimport (ERR_NOMEM, Rows, Store, rows_init, rows_self, store_export, store_fill,
                                  store_free, store_init, store_kernel_row, store_kernel_row_pre,
                                  store_set_row)
from refsvm._fast.budget cimport (MergeTables, c_maintain_merge_tie, c_project_sv, c_projection_solve_error, c_remove_sv,
                                  c_select_smallest_tie,
                                  open_merge_tables)

# the reference's constants, read once (one definition for both paths)
cdef double ZERO_GRADIENT_TOL = _ZERO_GRADIENT_TOL
cdef double UNIT_ROUNDOFF = _UNIT_ROUNDOFF
cdef double ZERO_GRADIENT_CUT = ZERO_GRADIENT_PREFILTER



cdef struct Params:
    Py_ssize_t n_steps
    Py_ssize_t d
    Py_ssize_t budget      # -1: no budget
    bint accumulate
    int maint
    int kernel
    double C
    double gamma
    double degree
    double coef0
    double merge_eps
    int merge_solver
    MergeTables tables     # the tables merging reads (refsvm._fast.budget.open_merge_tables)
    bint merge_hint        # merging reuses the step's kernel row when the new SV is merged (speed only)
    double ridge
    double kernel_error    # a bound of one kernel value's rounding error (refsvm.bsca.margin_error)
    double tie_unit        # the selection's tie tolerance (removal, projection, merging's m: refsvm.budget.selection_tie_unit)
    const double* sample_weight  # weight of X[i] (NULL: all 1)
    StepOut steps          # per-step records (refsvm.recorder.recording_steps; NULL pointers: off)


cdef struct State:
    Py_ssize_t b
    long long t
    Py_ssize_t n_events
    long long n_at_bound
    long long mistakes
    long long kernel_evaluations
    double maintenance_seconds
    double merge_seconds


cdef inline double _newton_step(double alpha_i, double g, double q_ii, double C, double e_f, double e_k,
                                double* dual_i) noexcept nogil:
    """Alg. 2, line 6 (eq. 3); ``Q_ii = 0``: D is linear in alpha_i.  Returns delta; ``*dual_i`` is the
    dual after line 8, ``alpha_i + delta`` but C exactly for a step to C; a target within ``tol`` of a
    bound is on it (refsvm.bsca._newton_step, _target_tolerance)."""
    cdef double target, delta, tol, e_g
    if q_ii > 0.0:
        target = alpha_i + g / q_ii
        e_g = e_f + UNIT_ROUNDOFF * (2.0 + fabs(g))
        tol = 2.0 * (e_g / q_ii + fabs(g / q_ii) * (3.0 * UNIT_ROUNDOFF + e_k / q_ii) + UNIT_ROUNDOFF * fabs(alpha_i))
        if target >= C - tol:
            target = C
        elif target <= tol:
            target = 0.0
    elif g > 0.0:
        target = C
    elif g < 0.0:
        target = 0.0
    else:
        target = alpha_i
    delta = target - alpha_i
    dual_i[0] = C if target == C else alpha_i + delta
    return delta


cdef inline double _step_error(double alpha_i, double g, double q_ii, double e_f, double e_k,
                               double delta) noexcept nogil:
    """refsvm.bsca.step_error: the target's bound (as _newton_step's tol) plus ``u |delta|``."""
    cdef double tol = 0.0, e_g
    if q_ii > 0.0:
        e_g = e_f + UNIT_ROUNDOFF * (2.0 + fabs(g))
        tol = 2.0 * (e_g / q_ii + fabs(g / q_ii) * (3.0 * UNIT_ROUNDOFF + e_k / q_ii) + UNIT_ROUNDOFF * fabs(alpha_i))
    return tol + UNIT_ROUNDOFF * fabs(delta)


cdef inline double _margin_error(const double* k, const double* a, Py_ssize_t b, double kernel_error,
                                 double* s_abs) noexcept nogil:
    """``E_f`` of :func:`refsvm.bsca.margin_error` (``*s_abs`` = S); four partial sums each (the order does
    not matter for a tolerance, and the dependency chain of one sum would cost ~10 % of a step)."""
    cdef double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, l0 = 0.0, l1 = 0.0, l2 = 0.0, l3 = 0.0
    cdef Py_ssize_t r = 0
    while r + 4 <= b:
        s0 += fabs(k[r]) * fabs(a[r])
        s1 += fabs(k[r + 1]) * fabs(a[r + 1])
        s2 += fabs(k[r + 2]) * fabs(a[r + 2])
        s3 += fabs(k[r + 3]) * fabs(a[r + 3])
        l0 += fabs(a[r])
        l1 += fabs(a[r + 1])
        l2 += fabs(a[r + 2])
        l3 += fabs(a[r + 3])
        r += 4
    while r < b:
        s0 += fabs(k[r]) * fabs(a[r])
        l0 += fabs(a[r])
        r += 1
    s_abs[0] = (s0 + s1) + (s2 + s3)
    return 2.0 * (kernel_error * ((l0 + l1) + (l2 + l3)) + (b + 2) * UNIT_ROUNDOFF * s_abs[0])


cdef inline void _follow_list_operation(int64_t[::1] src, int64_t[::1] where, Py_ssize_t b_old,
                                        Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    """Maps slot -> example and example -> slot after remove(p) (n < 0) or merge(p, n)."""
    cdef Py_ssize_t last = b_old - 1, moved
    if src[p] >= 0:
        where[src[p]] = -1
    if n >= 0 and src[n] >= 0:
        where[src[n]] = -1
    if n < 0:
        src[p] = src[last]
        moved = p
    else:
        src[p] = -1
        src[n] = src[last]
        moved = n
    if moved != last and src[moved] >= 0:
        where[src[moved]] = moved


cdef inline long long _maintenance_kernel_evaluations(int maint, long long b,
                                                     long long same_sign) noexcept nogil:
    """As refsvm.bsca._maintenance_kernel_evaluations."""
    if maint == MAINT_REMOVAL:
        return 0
    if maint == MAINT_MERGE:
        return same_sign - 1
    return (b - 1) * (b - 2) + (b - 1)


cdef inline void _merged_slot_errors(double* E, Py_ssize_t n_sv, Py_ssize_t m, Py_ssize_t n) noexcept nogil:
    """:func:`refsvm.bsca.merged_slot_errors`: ``E`` after merge(m, n) on ``n_sv`` SVs (``n < 0``: remove(m))."""
    cdef Py_ssize_t last = n_sv - 1
    if n < 0:
        E[m] = E[last]
        E[last] = 0.0
        return
    E[m] += E[n]
    E[n] = E[last]
    E[last] = 0.0


cdef int _bsca_pass(const Params* P, State* st,
                    const Rows* X, const int64_t[::1] y, const int64_t[::1] order,
                    double[::1] dual, Store* SV, double[:, ::1] A,
                    int64_t[::1] src, int64_t[::1] where, double[::1] k_i, double[::1] lk_i,
                    double[::1] Kp, double[::1] rhs, int[::1] ipiv, double[::1] mwork, double[::1] E,
                    int8_t[::1] changed, int8_t[::1] added, int64_t[::1] maint_step,
                    int64_t[::1] maint_index, int64_t[::1] maint_partner,
                    double[::1] weight_degradation) noexcept nogil:
    """All steps of Algorithm 2 over ``order``; returns ERR_NONE, ERR_SINGULAR, ERR_INTERRUPTED or
    ERR_NOMEM (a sparse SV could not be allocated)."""
    cdef Py_ssize_t d = P.d, step, i, r, b_old, p, partner, slot, n_same = 0
    cdef long long same_sign
    cdef Py_ssize_t b = st.b
    cdef long long t = st.t
    cdef double y_i, f, g, s_abs, e_f, q_ii, delta, dual_i, wd, start, elapsed, C_i, e_s = 0.0
    cdef int info
    cdef bint track = P.budget >= 0                               # with a budget: the bounds E
    cdef bint keep_lk = P.maint == MAINT_MERGE and P.merge_hint    # the step's exponents, for merging

    for step in range(P.n_steps):                             # Alg. 2, lines 3-4
        if interrupted(step):                                 # let Ctrl-C through on long runs
            st.b = b
            st.t = t
            return ERR_INTERRUPTED
        t += 1
        i = order[step]
        y_i = <double> y[i]                                   # x_i = X[i]
        f = 0.0
        if b > 0:                                             # Alg. 2, line 5: f~(x_i), O(B)
            store_kernel_row_pre(SV, b, X, i, P.kernel, P.gamma, P.degree, P.coef0, &k_i[0],
                                 &lk_i[0] if keep_lk else NULL)     # exponents kept for merging
            f = pw_dot(&k_i[0], &A[0, 0], b)
        e_f = _margin_error(&k_i[0], &A[0, 0], b, P.kernel_error, &s_abs)   # f's rounding error bound
        record_margin(&P.steps, step, &f)                     # per-step records (opt-in): f~(x_i)
        if y_i * f <= e_f:                                    # online error, f = 0 up to rounding included
            st.mistakes += 1
        q_ii = rows_self(X, i, P.kernel, P.gamma, P.degree, P.coef0)   # Q_ii = k(x_i, x_i)
        st.kernel_evaluations += b                            # the margin's kernel row (as BSGD)
        g = 1.0 - y_i * f                                     # 1 - y_i f~(x_i)
        if fabs(g) < ZERO_GRADIENT_CUT and fabs(g) <= ZERO_GRADIENT_TOL * (1.0 + s_abs) + e_f:
            g = 0.0                                           # margin 1 up to rounding: a zero step
        C_i = P.C * P.sample_weight[i] if P.sample_weight != NULL else P.C   # weighted box [0, C s_i]
        delta = _newton_step(dual[i], g, q_ii, C_i, e_f, P.kernel_error, &dual_i)  # Alg. 2, line 6 (eq. 3)
        if delta != 0.0:                                      # Alg. 2, line 7
            if track:                                         # delta's bound (refsvm.bsca.step_error)
                e_s = _step_error(dual[i], g, q_ii, e_f, P.kernel_error, delta)
            dual[i] = dual_i                                  # Alg. 2, line 8: alpha_i + delta (C exactly at C)
            changed[step] = 1
            slot = where[i]
            if P.accumulate and slot >= 0:                    # Alg. 2, line 9, x_i already in M
                A[slot, 0] += delta * y_i
                if track:
                    E[slot] += e_s
            else:                                             # Alg. 2, line 9: M <- M u {(delta y_i, x_i)}
                if store_set_row(SV, b, X, i) != 0:
                    st.b = b
                    st.t = t
                    return ERR_NOMEM
                A[b, 0] = delta * y_i
                if track:
                    E[b] = e_s
                src[b] = i
                where[i] = b
                b += 1
                added[step] = 1
                if P.budget >= 0 and b > P.budget:            # Alg. 2, line 10
                    start = _now()
                    b_old = b
                    partner = -1
                    same_sign = 0                             # (merging: counted by c_maintain_merge)
                    if P.maint == MAINT_REMOVAL:              # Alg. 2, line 11 (ties: selection_tie_unit)
                        p = c_select_smallest_tie(SV, A, b, P.kernel, P.gamma, P.degree, P.coef0, P.tie_unit,
                                                  &E[0], &wd)      # ties: the coefficients' bounds E too
                        E[p] = E[b - 1]                       # E follows remove(p); a free slot holds 0
                        E[b - 1] = 0.0
                        b = c_remove_sv(SV, A, b, p)
                    elif P.maint == MAINT_PROJECTION:
                        p = c_select_smallest_tie(SV, A, b, P.kernel, P.gamma, P.degree, P.coef0, P.tie_unit,
                                                  &E[0], &wd)      # ties: the solves' bounds E too
                        info = c_project_sv(SV, A, b, p, P.kernel, P.gamma, P.degree, P.coef0, P.ridge, Kp, rhs,
                                            ipiv, &wd, &Kp[(b - 1) * (b - 1)])
                        if info != 0:
                            st.b = b
                            st.t = t
                            return ERR_SINGULAR
                        c_projection_solve_error(&Kp[(b - 1) * (b - 1)], &Kp[0], &ipiv[0], &rhs[0], &rhs[b - 1], b - 1,
                                                 p, fabs(A[p, 0]), P.kernel_error, &E[0], &Kp[2 * (b - 1) * (b - 1)])
                        E[p] = E[b - 1]                       # E follows remove(p); a free slot holds 0
                        E[b - 1] = 0.0
                        b = c_remove_sv(SV, A, b, p)
                    else:
                        b = c_maintain_merge_tie(SV, A, b, P.gamma, P.merge_eps, P.merge_solver, &P.tables, mwork,
                                                 &p, &partner, &wd,
                                                 &lk_i[0] if keep_lk else NULL, &k_i[0],  # the new SV's row
                                                 &n_same, merge_h_slot(&P.steps, st.n_events),   # records on: h
                                                 P.tie_unit, &E[0])   # m's ties: the coefficients' bounds E too
                        _merged_slot_errors(&E[0], b_old, p, partner)   # E follows merge(p, partner)
                    elapsed = _now() - start
                    st.maintenance_seconds += elapsed
                    if P.maint == MAINT_MERGE:
                        st.merge_seconds += elapsed
                    _follow_list_operation(src, where, b_old, p, partner)
                    if P.maint == MAINT_MERGE:
                        same_sign = n_same
                    st.kernel_evaluations += _maintenance_kernel_evaluations(P.maint, b_old, same_sign)
                    maint_step[st.n_events] = step
                    maint_index[st.n_events] = p
                    maint_partner[st.n_events] = partner
                    weight_degradation[st.n_events] = wd
                    record_new_coefficient(&P.steps, A, P.maint == MAINT_MERGE, b_old, p, partner, st.n_events)
                    st.n_events += 1
        if dual[i] == 0.0 or dual[i] == C_i:
            st.n_at_bound += 1

    st.b = b
    st.t = t
    return ERR_NONE


_MERGE_HINT = [True]


def _set_merge_hint(on):
    """Switch off (a test hook) the reuse of the step's kernel row by merging when the SV to merge is
    the one this step added (c_maintain_merge's ``lk_hint``; the same numbers either way); returns the
    previous setting."""
    previous = _MERGE_HINT[0]
    _MERGE_HINT[0] = bool(on)
    return previous


def bsca(X, y, order, *, budget, C, maintenance="merge", kernel="rbf", gamma=1.0, degree=3,
         coef0=0.0, merge_eps=0.01, projection_ridge=1e-10, merge_solver="gss",
         sv_update="accumulate", sv=None, alpha=None, dual=None, sv_source=None, t0=0,
         sample_weight=None, sv_error=None):
    """Steps of BSCA (Algorithm 2) on the coordinates ``order``.

    Same parameters and result as :func:`refsvm.bsca.bsca` (see there).

    Returns
    -------
    refsvm.bsca.BSCAResult
    """
    X, y, order, _, dual, src0, opts = resolve_options(         # the reference's checks, once
        X, y, order, budget=budget, C=C, maintenance=maintenance, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, merge_eps=merge_eps, projection_ridge=projection_ridge,
        merge_solver=merge_solver, sv_update=sv_update, sv=sv, alpha=alpha, dual=dual,
        sv_source=sv_source, t0=t0, sample_weight=sample_weight)
    sample_weight = check_sample_weight(sample_weight, X.shape[0])   # None: no weights (P.sample_weight NULL)
    cdef Params P
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1], b0 = len(src0)
    P.n_steps = order.shape[0]
    P.d = d
    P.budget = -1 if budget is None else int(budget)
    P.accumulate = opts.accumulate
    P.maint = {"removal": MAINT_REMOVAL, "projection": MAINT_PROJECTION, "merge": MAINT_MERGE}[maintenance]
    P.kernel = kernel_code(kernel)
    P.C = C
    P.gamma = gamma
    P.degree = degree
    P.coef0 = coef0
    P.merge_solver = _SOLVER_CODES[merge_solver]
    P.merge_eps = merge_solver_eps(merge_solver, merge_eps)
    tables = None if opts.maintenance is None else opts.maintenance.tables   # loaded once, by the options
    merge_tables = open_merge_tables(&P.tables, tables, merge_solver,          # kept alive until the call ends
                                     P.maint == MAINT_MERGE and P.budget >= 0 and merge_solver in LOOKUP_SOLVERS,
                                     P.maint == MAINT_MERGE and P.budget >= 0)
    P.merge_hint = _MERGE_HINT[0]
    P.ridge = projection_ridge
    P.kernel_error = opts.kernel_error
    P.tie_unit = 0.0 if opts.maintenance is None else opts.maintenance.selection_tie_unit
    cdef const double[::1] swv
    P.sample_weight = NULL
    P.steps = records_off(1)                                # per-step records: set by _bsca_run if on
    if sample_weight is not None and sample_weight.shape[0] > 0:
        swv = sample_weight                                   # kept alive until the pass ends
        P.sample_weight = &swv[0]

    cdef Py_ssize_t cap
    arriving = min(P.n_steps, n) if P.accumulate else P.n_steps    # slots this call can add at most
    cap = (b0 + arriving if P.budget < 0 else min(P.budget, b0 + arriving)) + 1   # as refsvm.bsca
    sparse = sp.issparse(X)                                   # sparse X: sparse SV slots (sparse.pxd)
    SV = None if sparse else np.zeros((cap, d))               # Alg. 2, line 2 (or the state)
    A = np.zeros((cap, 1))
    cdef Rows R
    cdef Store S
    rows_init(&R, X)
    store_init(&S, SV, cap, d, sparse)
    try:
        if b0:
            store_fill(&S, sv)                             # dense rows: their norms too
            A[:b0] = alpha
        E = initial_errors(sv_error, b0, cap, P.budget >= 0)   # coefficients' bounds
        return _bsca_run(&P, &R, &S, SV, A, b0, src0, n, cap, y, order, dual, t0, E)
    finally:
        store_free(&S)


cdef object _bsca_run(Params* P, const Rows* R, Store* S, object SV, object A, Py_ssize_t b0, object src0,
                      Py_ssize_t n, Py_ssize_t cap, object y, object order, object dual, object t0, object E):
    """The steps of :func:`bsca` over the prepared model and buffers (``bsca`` frees the store)."""
    cdef State st
    cdef Py_ssize_t s
    src = np.full(cap, -1, dtype=np.int64)
    src[:b0] = src0
    where = np.full(n, -1, dtype=np.int64)
    for s in range(b0):
        if src[s] >= 0:
            where[src[s]] = s
    m = max(cap - 1, 1) if P.maint == MAINT_PROJECTION and P.budget >= 0 else 1
    Kp = np.zeros(3 * m * m + m)                             # the LU, K_p + ridge I (for E), work
    rhs = np.zeros(2 * m)
    ipiv = np.zeros(m, dtype=np.intc)
    mwork = np.zeros(2 + 3 * cap)                              # c_maintain_merge: 2 c + 3 n_sv
    k_i = np.zeros(cap)
    lk_i = np.zeros(cap)                                      # its exponents (merging reuses them)
    changed = np.zeros(P.n_steps, dtype=np.int8)
    added = np.zeros(P.n_steps, dtype=np.int8)
    ne_cap = P.n_steps if P.budget >= 0 else 0
    maint_step = np.zeros(ne_cap, dtype=np.int64)
    maint_index = np.zeros(ne_cap, dtype=np.int64)
    maint_partner = np.zeros(ne_cap, dtype=np.int64)
    weight_degradation = np.zeros(ne_cap)

    memset(&st, 0, sizeof(State))                             # every counter and timer from 0
    st.b = b0
    st.t = int(t0)

    cdef int err
    cdef const int64_t[::1] yv = y
    cdef const int64_t[::1] ov = order
    cdef double[::1] dualv = dual
    cdef double[:, ::1] Av = A
    cdef int64_t[::1] srcv = src
    cdef int64_t[::1] wherev = where
    cdef double[::1] k_iv = k_i, lk_iv = lk_i
    cdef double[::1] Kpv = Kp
    cdef double[::1] rhsv = rhs
    cdef int[::1] ipivv = ipiv
    cdef double[::1] mworkv = mwork
    cdef double[::1] Ev = np.zeros(1) if E is None else E     # with a budget: bounds per slot
    cdef int8_t[::1] changedv = changed
    cdef int8_t[::1] addedv = added
    cdef int64_t[::1] msv = maint_step
    cdef int64_t[::1] miv = maint_index
    cdef int64_t[::1] mpv = maint_partner
    cdef double[::1] wdv = weight_degradation
    margins, new_coefs = step_record_arrays(P.n_steps, ne_cap, 1)   # per-step records (opt-in): None when off
    merge_hs = merge_h_array(ne_cap)
    if margins is not None:
        step_out_on(&P.steps, margins, new_coefs)
        merge_h_on(&P.steps, merge_hs)
    with nogil:
        err = _bsca_pass(P, &st, R, yv, ov, dualv, S, Av, srcv, wherev, k_iv, lk_iv, Kpv, rhsv, ipivv,
                         mworkv, Ev, changedv, addedv, msv, miv, mpv, wdv)
    if err == ERR_INTERRUPTED:
        raise KeyboardInterrupt
    if err == ERR_SINGULAR:
        raise np.linalg.LinAlgError("Singular matrix")
    if err == ERR_NOMEM or S.failed:
        raise MemoryError("could not allocate a sparse support vector")

    ne = st.n_events
    n_changed = int(changed.sum())
    trace = {
        "n_steps": int(P.n_steps),
        "mistakes": int(st.mistakes),
        "n_zero_steps": int(P.n_steps) - n_changed,
        "n_at_bound": int(st.n_at_bound),
        "changed": changed,
        "added": added,
        "maint_step": maint_step[:ne].copy(),
        "maint_index": maint_index[:ne].copy(),
        "maint_partner": maint_partner[:ne].copy(),
        "weight_degradation": weight_degradation[:ne].copy(),
        "maintenance_fraction": ne / P.n_steps if P.n_steps else 0.0,
        "kernel_evaluations": int(st.kernel_evaluations),
        "maintenance_seconds": float(st.maintenance_seconds),
        "merge_seconds": float(st.merge_seconds),
    }
    add_step_records(trace, margins, new_coefs, ne, merge_hs)   # the reference's StepRecords keys
    b = st.b
    return BSCAResult(sv=store_export(S, b) if S.sparse else SV[:b].copy(), alpha=A[:b].copy(),
                      bias=np.zeros(1), t=int(st.t), trace=trace, dual=dual, sv_source=src[:b].copy(),
                      sv_error=None if E is None else E[:b].copy())


include "bsca_objectives.pxi"
