# cython: language_level=3
"""IDSVM, the incremental SVM of Cauwenberghs & Poggio (2000) (compiled mirror of :mod:`refsvm.idsvm`).

Same function, signature, result and decisions as the reference, whose module docstring holds the
equations (cited there by number), the choices and the tolerances.  The glue is the reference's
(argument checks, options, the result's assembly); the pass is one ``nogil`` loop.  How (not what)
differs:

* the numbers are the reference's bitwise: kernel values by
  :func:`refsvm._fast.kernels.kernel_value` (libm's ``exp`` and ``pow``, the reference's
  ``kernel_row_libm``), every sum sequential in the reference's order (``seq_sum`` there), every other
  operation the same IEEE operation on the same operands (a product by a label ``y = +-1`` is exact,
  so where it is applied does not matter), so both paths take the same decisions in every regime;
* ``gamma`` is accumulated margin vector by margin vector over contiguous rows of the (symmetric)
  kernel matrix (each ``gamma_i`` still a sequential sum over S in ``Rinv``'s order);
* the refinement after the pass is the reference's function (:func:`refsvm.idsvm.refine`, numpy, once
  per call) run on this state.
"""

import numpy as np

from refsvm.constants import UNIT_ROUNDOFF
from refsvm.idsvm import (IDSVMOptions, IDSVMResult, _result, check_idsvm_arguments, continued_rows,  # noqa: F401
                          refine,
                          ERROR, MARGIN, RESERVE, GROWING, C_TO_MARGIN, C_TO_ERROR, MARGIN_TO_RESERVE,
                          MARGIN_TO_ERROR, ERROR_TO_MARGIN, RESERVE_TO_MARGIN, DEPENDENT, SCHUR_RTOL, max_events)
from refsvm.validation import weights_as_data

from libc.math cimport fabs
from libc.stdint cimport int8_t, int64_t
from libc.stdlib cimport free, malloc, realloc

from refsvm._fast.kernels cimport kernel_code, kernel_value

cdef double U_ROUND = UNIT_ROUNDOFF
cdef double SCHUR_RTOL_C = SCHUR_RTOL
cdef int8_t S_MARGIN = MARGIN, S_ERROR = ERROR, S_RESERVE = RESERVE, S_GROWING = GROWING
cdef int E_C_MARGIN = C_TO_MARGIN, E_C_ERROR = C_TO_ERROR, E_M_RESERVE = MARGIN_TO_RESERVE
cdef int E_M_ERROR = MARGIN_TO_ERROR, E_E_MARGIN = ERROR_TO_MARGIN, E_R_MARGIN = RESERVE_TO_MARGIN
cdef int E_DEPENDENT = DEPENDENT


cdef struct Params:
    int kernel
    double gamma, degree, coef0, eps_K, k_max
    Py_ssize_t m, d, first       # examples in all, features, the first example to see (a state's count)


cdef struct State:
    # the examples seen: rows (visiting order), labels, boxes, kernel matrix (m x m)
    double* Xs
    double* y
    double* C_box
    double* K
    double* alpha
    double* g
    int8_t* sets
    int64_t* blocked
    int64_t version
    # the margin vectors (Rinv's order) and Rinv (leading dimension ld, doubled when S outgrows it)
    int64_t* S
    Py_ssize_t nS, ld
    double* Rinv
    double b, g_err, a_err
    # scratch: beta, the bordered column (ld each), gamma (m)
    double* beta
    double* v
    double* gam


cdef struct Cands:
    # the candidate steps of one bookkeeping step (room for 2 m + 2): Delta, its error, rank, kind, index
    double* delta
    double* err
    int* rank
    int* kind
    Py_ssize_t* index


cdef struct Events:
    # the bookkeeping events, (kind, c, index) triples, in a buffer that doubles when full
    int64_t* data
    Py_ssize_t n, cap


cdef int record_event(Events* ev, int kind, Py_ssize_t c, Py_ssize_t k) noexcept nogil:
    """Append one event; -1 when memory runs out."""
    cdef int64_t* grown
    if ev.n == ev.cap:
        grown = <int64_t*> realloc(ev.data, 6 * ev.cap * sizeof(int64_t))
        if grown == NULL:
            return -1
        ev.data = grown
        ev.cap *= 2
    ev.data[3 * ev.n] = kind
    ev.data[3 * ev.n + 1] = c
    ev.data[3 * ev.n + 2] = k
    ev.n += 1
    return 0


cdef int grow_rinv(State* st) noexcept nogil:
    """Double ``Rinv``'s leading dimension (and ``beta``'s, ``v``'s room), keeping its entries; -1 when
    memory runs out."""
    cdef Py_ssize_t ld = 2 * st.ld, r, q, n = st.nS + 1
    cdef double* R = <double*> malloc(ld * ld * sizeof(double))
    cdef double* bv = <double*> malloc(2 * ld * sizeof(double))
    if R == NULL or bv == NULL:
        free(R)
        free(bv)
        return -1
    for r in range(n):
        for q in range(n):
            R[r * ld + q] = st.Rinv[r * st.ld + q]
    free(st.Rinv)
    free(st.beta)
    st.Rinv, st.beta, st.v, st.ld = R, bv, bv + ld, ld
    return 0


cdef inline double Qv(const State* st, Py_ssize_t m, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    """``Q_ij = y_i y_j k(x_i, x_j)``."""
    return st.y[i] * st.y[j] * st.K[i * m + j]


cdef void see(const Params* p, State* st, Py_ssize_t c, double* f_c, double* tol_c) noexcept nogil:
    """Example ``c``: its kernel row against the seen rows (``K`` grows), ``f(x_c)``, ``g_c`` and its
    error bound (the reference's ``gradient_tolerance``)."""
    cdef Py_ssize_t j, m = p.m
    cdef double* row = st.K + c * m
    cdef double a, f = 0.0, mag = 0.0, sa = 0.0
    for j in range(c + 1):                   # libm's exp and pow, as the reference's kernel_row_libm
        row[j] = kernel_value(p.kernel, st.Xs + j * p.d, st.Xs + c * p.d, p.d, p.gamma, p.degree, p.coef0)
        st.K[j * m + c] = row[j]
    for j in range(c):
        a = st.y[j] * st.alpha[j]
        f += a * row[j]
        mag += fabs(a * row[j])
        sa += fabs(a)
    f += st.b
    st.g[c] = st.y[c] * f - 1.0
    f_c[0] = f
    tol_c[0] = 2.0 * ((c + 3) * U_ROUND * (mag + fabs(st.b) + 1.0) + p.eps_K * sa)


cdef void solve_beta(State* st, Py_ssize_t m, Py_ssize_t k) noexcept nogil:
    """``beta = -Rinv [y_k; Q_Sk]`` into ``st.beta`` (eq. 7-8)."""
    cdef Py_ssize_t r, q, n = st.nS + 1
    cdef double s
    st.v[0] = st.y[k]
    for q in range(st.nS):
        st.v[q + 1] = Qv(st, m, st.S[q], k)
    for r in range(n):
        s = 0.0
        for q in range(n):
            s += st.Rinv[r * st.ld + q] * st.v[q]
        st.beta[r] = -s


cdef double sensitivities(const Params* p, State* st, Py_ssize_t c, Py_ssize_t mm) noexcept nogil:
    """``beta`` and ``gamma`` of every seen example (eq. 7-10); returns their tolerance (the reference's
    ``sensitivity_tolerance``)."""
    cdef Py_ssize_t i, q, j, m = p.m
    cdef double w, s_abs = 0.0, resid = 0.0, bound
    cdef const double* Krow
    solve_beta(st, m, c)
    for i in range(mm):
        st.gam[i] = 0.0
    for q in range(st.nS):                   # sum_j Q_ij beta_j, margin vector by margin vector
        j = st.S[q]
        w = st.y[j] * st.beta[q + 1]
        Krow = st.K + j * m
        for i in range(mm):
            st.gam[i] += w * Krow[i]
    Krow = st.K + c * m
    for i in range(mm):
        st.gam[i] = st.y[i] * (st.y[c] * Krow[i] + st.gam[i]) + st.y[i] * st.beta[0]
    for q in range(st.nS):
        s_abs += fabs(st.beta[q + 1])
        if fabs(st.gam[st.S[q]]) > resid:
            resid = fabs(st.gam[st.S[q]])
    bound = (st.nS + 3) * U_ROUND * (p.k_max * (1.0 + s_abs) + fabs(st.beta[0])) + p.eps_K * (1.0 + s_abs)
    return 2.0 * (bound + resid)


cdef inline void ratio(double num, double den, double tol, double num_err, double* delta,
                       double* err) noexcept nogil:
    delta[0] = num / den
    if not delta[0] > 0.0:
        delta[0] = 0.0
    err[0] = (num_err + delta[0] * tol) / fabs(den)


cdef Py_ssize_t candidates(const Params* p, State* st, Py_ssize_t c, Py_ssize_t mm, double tol,
                           Cands* cs) noexcept nogil:
    """Every condition that can bind (eq. 11), in the reference's order; returns their number."""
    cdef Py_ssize_t n = 0, q, i, j
    cdef double* cd = cs.delta
    cdef double* ce = cs.err
    cdef int* cr = cs.rank
    cdef int* ck = cs.kind
    cdef Py_ssize_t* ci = cs.index
    cdef double bj
    if st.gam[c] > tol and st.blocked[c] != st.version:
        ratio(-st.g[c], st.gam[c], tol, st.g_err, &cd[n], &ce[n])
        cr[n] = 0; ck[n] = E_C_MARGIN; ci[n] = c; n += 1
    if st.nS > 0:
        cd[n] = st.C_box[c] - st.alpha[c]; ce[n] = st.a_err + U_ROUND * st.C_box[c]
        cr[n] = 0; ck[n] = E_C_ERROR; ci[n] = c; n += 1
    for q in range(st.nS):
        j = st.S[q]
        bj = st.beta[q + 1]
        if bj > tol:
            ratio(st.C_box[j] - st.alpha[j], bj, tol, st.a_err + U_ROUND * st.C_box[j], &cd[n], &ce[n])
            cr[n] = 1; ck[n] = E_M_ERROR; ci[n] = j; n += 1
        elif bj < -tol:
            ratio(-st.alpha[j], bj, tol, st.a_err + U_ROUND * st.C_box[j], &cd[n], &ce[n])
            cr[n] = 1; ck[n] = E_M_RESERVE; ci[n] = j; n += 1
    for i in range(mm):
        if i == c or st.sets[i] == S_MARGIN or st.blocked[i] == st.version or st.C_box[i] == 0.0:
            continue
        if st.sets[i] == S_ERROR and st.gam[i] > tol:
            ratio(-st.g[i], st.gam[i], tol, st.g_err, &cd[n], &ce[n])
            cr[n] = 1; ck[n] = E_E_MARGIN; ci[n] = i; n += 1
        elif st.sets[i] == S_RESERVE and st.gam[i] < -tol:
            ratio(-st.g[i], st.gam[i], tol, st.g_err, &cd[n], &ce[n])
            cr[n] = 1; ck[n] = E_R_MARGIN; ci[n] = i; n += 1
    return n


cdef Py_ssize_t least_step(Py_ssize_t n, const double* cd, const double* ce, const int* cr,
                           const Py_ssize_t* ci, double* delta) noexcept nogil:
    """The reference's ``least_step``: the step ``delta`` is the first least ``Delta``; candidates with
    ``Delta_k <= Delta_min + err_k`` tie, won by the lowest ``(rank, index)`` (the first such in order);
    returns the winner."""
    cdef Py_ssize_t k, best = 0, win = -1
    for k in range(1, n):
        if cd[k] < cd[best]:
            best = k
    delta[0] = cd[best]
    for k in range(n):
        if cd[k] <= cd[best] + ce[k]:
            if win < 0 or cr[k] < cr[win] or (cr[k] == cr[win] and ci[k] < ci[win]):
                win = k
    return win


cdef void move(State* st, Py_ssize_t c, Py_ssize_t mm, double delta, double tol) noexcept nogil:
    """The step along ``beta`` and ``gamma`` (the reference's ``IncrementalSVM.move``)."""
    cdef Py_ssize_t q, i
    cdef double g_max = 0.0, gam_max = 0.0, a_max = 0.0, b_max = 0.0
    if st.nS > 0:
        st.alpha[c] += delta
    for q in range(st.nS):
        if fabs(st.alpha[st.S[q]]) > a_max:
            a_max = fabs(st.alpha[st.S[q]])
        if fabs(st.beta[q + 1]) > b_max:
            b_max = fabs(st.beta[q + 1])
        st.alpha[st.S[q]] += st.beta[q + 1] * delta
    st.a_err += 4.0 * U_ROUND * (a_max + b_max * delta + delta) + 2.0 * tol * delta
    st.b += st.beta[0] * delta
    for i in range(mm):
        if fabs(st.g[i]) > g_max:
            g_max = fabs(st.g[i])
        if fabs(st.gam[i]) > gam_max:
            gam_max = fabs(st.gam[i])
        st.g[i] += st.gam[i] * delta
    for q in range(st.nS):
        st.g[st.S[q]] = 0.0
    st.g_err += delta * gam_max * 4.0 * U_ROUND + 2.0 * U_ROUND * g_max + 2.0 * tol * delta


cdef int add_margin(const Params* p, State* st, Py_ssize_t k) noexcept nogil:
    """Example ``k`` joins S (eq. 12); returns -1, with ``k`` blocked until S changes, on a Schur
    complement within its tolerance of 0 (the reference's ``add_margin``)."""
    cdef Py_ssize_t m = p.m, ld = st.ld, n = st.nS + 1, r, q
    cdef double kappa, s, t, bound
    if st.nS == 0:
        st.Rinv[0] = -Qv(st, m, k, k)
        st.Rinv[1] = st.y[k]
        st.Rinv[ld] = st.y[k]
        st.Rinv[ld + 1] = 0.0
    else:
        solve_beta(st, m, k)
        s = 0.0
        t = 0.0
        for q in range(st.nS):
            s += Qv(st, m, k, st.S[q]) * st.beta[q + 1]
            t += fabs(Qv(st, m, k, st.S[q]) * st.beta[q + 1])
        kappa = Qv(st, m, k, k) + s + st.y[k] * st.beta[0]
        t = Qv(st, m, k, k) + t + fabs(st.beta[0])
        s = 0.0
        for q in range(st.nS):
            s += fabs(st.beta[q + 1])
        bound = 2.0 * ((st.nS + 3) * U_ROUND * (p.k_max * (1.0 + s) + fabs(st.beta[0])) + p.eps_K * (1.0 + s))
        if SCHUR_RTOL_C * t > bound:
            bound = SCHUR_RTOL_C * t
        if not kappa > bound:
            st.blocked[k] = st.version
            st.g[k] = 0.0
            return -1
        st.beta[n] = 1.0
        for r in range(n + 1):
            st.Rinv[r * ld + n] = 0.0
            st.Rinv[n * ld + r] = 0.0
        for r in range(n + 1):
            for q in range(n + 1):
                st.Rinv[r * ld + q] = st.Rinv[r * ld + q] + st.beta[r] * st.beta[q] / kappa
    st.S[st.nS] = k
    st.nS += 1
    st.version += 1
    st.sets[k] = S_MARGIN
    st.g[k] = 0.0
    return 0


cdef void remove_margin(State* st, Py_ssize_t k, int8_t to) noexcept nogil:
    """Example ``k`` leaves S for ``to`` (eq. 13); the others keep their order."""
    cdef Py_ssize_t ld = st.ld, n = st.nS + 1, p = 0, r, q, rr, qq
    cdef double piv
    while st.S[p] != k:
        p += 1
    p += 1
    if st.nS == 1:
        st.Rinv[0] = 0.0
    else:
        piv = st.Rinv[p * ld + p]
        for r in range(n):                   # Rinv_rq - Rinv_rp Rinv_pq / Rinv_pp, in place
            if r == p:
                continue
            for q in range(n):
                if q != p:
                    st.Rinv[r * ld + q] = st.Rinv[r * ld + q] - st.Rinv[r * ld + p] * st.Rinv[p * ld + q] / piv
        rr = 0
        for r in range(n):                   # drop row and column p
            if r == p:
                continue
            qq = 0
            for q in range(n):
                if q != p:
                    st.Rinv[rr * ld + qq] = st.Rinv[r * ld + q]
                    qq += 1
            rr += 1
    for q in range(p - 1, st.nS - 1):
        st.S[q] = st.S[q + 1]
    st.nS -= 1
    st.version += 1
    st.sets[k] = to
    st.alpha[k] = st.C_box[k] if to == S_ERROR else 0.0


cdef Py_ssize_t run_pass(const Params* p, State* st, Cands* cs, Events* ev, Py_ssize_t* mistakes,
                         Py_ssize_t* fail) noexcept nogil:
    """The pass (the reference's loop in ``idsvm``); returns 0, or -2 (too many steps at example ``fail``)
    or -3 (no memory) or -4 (no candidate step; not seen)."""
    cdef Py_ssize_t c, mm, n, w, k, it, limit
    cdef double f_c, tol_c, tol, step
    cdef int kind
    for c in range(p.first, p.m):
        mm = c + 1
        see(p, st, c, &f_c, &tol_c)
        if st.y[c] * f_c <= 0.0:
            mistakes[0] += 1
        if st.g[c] >= -tol_c or st.C_box[c] == 0.0:
            st.sets[c] = S_RESERVE
            continue
        st.sets[c] = S_GROWING
        limit = 4 * mm + 8
        for it in range(limit + 1):
            if it == limit:
                fail[0] = c
                return -2
            if st.nS > 0:
                tol = sensitivities(p, st, c, mm)
            else:
                st.beta[0] = st.y[c]
                for k in range(mm):
                    st.gam[k] = st.y[k] * st.y[c]
                tol = 0.0
            n = candidates(p, st, c, mm, tol, cs)
            if n == 0:
                fail[0] = c
                return -4
            w = least_step(n, cs.delta, cs.err, cs.rank, cs.index, &step)
            kind = cs.kind[w]
            k = cs.index[w]
            move(st, c, mm, step, tol)
            if kind == E_C_MARGIN or kind == E_E_MARGIN or kind == E_R_MARGIN:
                if st.nS + 2 > st.ld and grow_rinv(st) < 0:
                    fail[0] = k
                    return -3
                if add_margin(p, st, k) < 0:          # a dependent row stays out
                    kind = E_DEPENDENT
            elif kind == E_C_ERROR:
                st.sets[c] = S_ERROR
                st.alpha[c] = st.C_box[c]
                if st.g[c] > 0.0:
                    st.g[c] = 0.0
            else:
                remove_margin(st, k, S_RESERVE if kind == E_M_RESERVE else S_ERROR)
            if record_event(ev, kind, c, k) < 0:
                fail[0] = c
                return -3
            if k == c and kind != E_DEPENDENT:
                break
    return 0


def idsvm(X, y, order, *, C, kernel="rbf", gamma=1.0, degree=3, coef0=0.0, sample_weight=None, state=None):
    """The incremental SVM (compiled; :func:`refsvm.idsvm.idsvm`, whose docstring this mirrors)."""
    X, y, order, sample_weight = check_idsvm_arguments(X, y, order, C=C, kernel=kernel, gamma=gamma,
                                                       degree=degree, coef0=coef0, sample_weight=sample_weight,
                                                       state=state)
    C_box_a = float(C) * weights_as_data(sample_weight, X.shape[0])[order]
    X, y, order, C_box_a = continued_rows(state, X, y, order, C_box_a)
    C_box_a = np.ascontiguousarray(C_box_a)
    o = IDSVMOptions.of(X, C=C, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
    cdef Py_ssize_t m = order.shape[0], d = X.shape[1], room = max(m, 1)
    cdef Py_ssize_t m0 = 0 if state is None else state.y.shape[0], nS0 = 0 if state is None else state.S.shape[0]
    cdef double[:, ::1] Xs = np.ascontiguousarray(X[order]).reshape(m, d) if m else np.zeros((1, max(d, 1)))
    cdef double[::1] yv = np.ascontiguousarray(y[order], dtype=np.float64) if m else np.zeros(1)
    cdef double[::1] C_box = C_box_a if m else np.zeros(1)
    cdef double[:, ::1] K = np.zeros((room, room))
    cdef double[::1] alpha = np.zeros(room), g = np.zeros(room), gam = np.zeros(room)
    cdef int8_t[::1] sets = np.full(room, RESERVE, dtype=np.int8)
    cdef int64_t[::1] blocked = np.full(room, -1, dtype=np.int64)
    cdef int64_t[::1] S = np.zeros(room + 1, dtype=np.int64)
    cdef double[::1] cand_delta = np.zeros(2 * room + 2), cand_err = np.zeros(2 * room + 2)
    cdef int[::1] cand_rank = np.zeros(2 * room + 2, dtype=np.intc), cand_kind = np.zeros(2 * room + 2, dtype=np.intc)
    cdef Py_ssize_t[::1] cand_index = np.zeros(2 * room + 2, dtype=np.intp)
    cdef double[:, ::1] Rinv0
    cdef Params p
    cdef State st
    cdef Cands cs
    cdef Events ev
    cdef Py_ssize_t mistakes = 0, fail = -1, rc, r, q
    p.kernel = kernel_code(kernel)
    p.gamma, p.degree, p.coef0 = o.kernel.gamma, o.kernel.degree, o.kernel.coef0
    p.eps_K, p.k_max, p.m, p.d, p.first = o.eps_K, o.k_max, m, d, m0
    st.Xs, st.y, st.C_box, st.K = &Xs[0, 0], &yv[0], &C_box[0], &K[0, 0]
    st.alpha, st.g, st.sets, st.S, st.gam, st.blocked = &alpha[0], &g[0], &sets[0], &S[0], &gam[0], &blocked[0]
    st.nS, st.b, st.g_err, st.a_err, st.ld, st.version = 0, 0.0, 0.0, 0.0, 16, 0
    if state is not None:                    # the reference's IncrementalSVM.resume
        np.asarray(K)[:m0, :m0] = state.K
        for name, view in (("alpha", alpha), ("g", g), ("sets", sets), ("blocked", blocked)):
            np.asarray(view)[:m0] = getattr(state, name)
        np.asarray(S)[:nS0] = state.S
        st.nS, st.b, st.g_err, st.a_err, st.version = nS0, state.b, state.g_err, state.a_err, state.version
        while st.ld < nS0 + 2:
            st.ld *= 2
    st.Rinv = <double*> malloc(st.ld * st.ld * sizeof(double))
    st.beta = <double*> malloc(2 * st.ld * sizeof(double))
    st.v = st.beta + st.ld
    cs.delta, cs.err, cs.rank = &cand_delta[0], &cand_err[0], &cand_rank[0]
    cs.kind, cs.index = &cand_kind[0], &cand_index[0]
    ev.cap, ev.n = 1024, 0
    ev.data = <int64_t*> malloc(3 * ev.cap * sizeof(int64_t))
    if st.Rinv == NULL or st.beta == NULL or ev.data == NULL:
        free(st.Rinv)
        free(st.beta)
        free(ev.data)
        raise MemoryError("idsvm: no memory for the bookkeeping buffers")
    st.Rinv[0] = 0.0
    if state is not None:
        Rinv0 = np.ascontiguousarray(state.Rinv, dtype=np.float64)
        for r in range(nS0 + 1):
            for q in range(nS0 + 1):
                st.Rinv[r * st.ld + q] = Rinv0[r, q]
    try:
        with nogil:
            rc = run_pass(&p, &st, &cs, &ev, &mistakes, &fail)
        events = [(int(ev.data[3 * k]), int(ev.data[3 * k + 1]), int(ev.data[3 * k + 2])) for k in range(ev.n)]
        Rinv = np.array([[st.Rinv[r * st.ld + q] for q in range(st.nS + 1)] for r in range(st.nS + 1)])
    finally:
        free(st.Rinv)
        free(st.beta)
        free(ev.data)
    if rc == -2:
        raise FloatingPointError(f"idsvm: example {fail} (row {order[fail]}) took more than {max_events(fail + 1)} "
                                 "bookkeeping steps (a cycle of zero-length steps)")
    if rc == -4:
        raise FloatingPointError("idsvm: no condition binds the step (a bookkeeping state without candidates)")
    if rc == -3:
        raise MemoryError("idsvm: no memory to grow the bookkeeping buffers")

    class _Run:
        pass
    run = _Run()
    run.m, run.alpha, run.sets, run.g = m, np.asarray(alpha), np.asarray(sets), np.asarray(g)
    run.S, run.X, run.order, run.y, run.b = list(np.asarray(S)[:st.nS]), X, order, np.asarray(yv), st.b
    run.K, run.C_box, run.Rinv = np.asarray(K), np.asarray(C_box), Rinv
    run.blocked, run.version, run.g_err, run.a_err = np.asarray(blocked), st.version, st.g_err, st.a_err
    run.o, run.first = o, m0
    refine(run)                              # the reference's function on this state (numpy, once per call)
    return _result(run, mistakes, events)
