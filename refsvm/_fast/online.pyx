# cython: language_level=3
"""Classic online kernel learners (compiled mirror of :mod:`refsvm.online`).

Same functions, same signatures, same :class:`refsvm.online.OnlineResult` and
trace as the reference; the papers' updates are written out (with citations)
in the reference module.  Each ``def`` validates its arguments through the
shared :func:`refsvm.validation.check_online_arguments`, allocates every
buffer once and runs the pass in :func:`_pass`, one ``nogil`` loop without
Python objects that branches on the learner.  How (not what) differs:

* kernel rows come from :func:`refsvm._fast.kernels.kernel_row_into` (the
  squared distances bitwise equal to numpy's, ``exp`` within one ulp);
* ``f_t(x_t)`` is summed in numpy's pairwise order (``pw_dot``, as the
  reference's ``np.sum(k * alpha)``), the Projectron's triangular solves with
  the Cholesky factor ``L`` in plain column-oriented loops multiplying by the
  kept ``1 / L[j, j]`` (numpy: BLAS trsv), so coefficients
  agree to rounding, not always bitwise;
  a decision can flip only at an exact tie (``y f = 0``, ``beta = 0`` or equal
  BPA-S objectives) perturbed by those roundings or by the 1-ulp ``exp``
  differences of the kernel rows;
* the Projectron's factor ``L`` of ``K = L L'`` lives in a square buffer with
  ``L'`` mirrored into its upper triangle (``_factor_buffer``: both solves read
  contiguous rows; row ``b`` holds the step's ``z = L^{-1} k_t``, the row an
  added SV keeps, mirrored into column ``b``) that doubles when the
  SV set outgrows it (the loop returns to Python to reallocate, then resumes);
* ``sample_weight`` (every learner; see the reference module): the loop reads
  ``s_t`` from :func:`refsvm.validation.weights_as_data`, an array of ones when
  no weights are given (``y_t * 1.0`` and ``eta * 1.0`` are exact, so
  unweighted runs are unchanged).

The glue is the reference's: the storage size (``refsvm.online.common.capacity_for``)
and the trace, filled as C counters and arrays and assembled once per call by
``refsvm.online.OnlineRecorder.assemble`` (same keys and dtypes on both paths).
"""

import numpy as np
import scipy.sparse as sp

from refsvm.kernels import Kernel
from refsvm.online import ALGORITHMS, OnlineResult, projectron_U
from refsvm.online.projection import SPAN_SAFETY, factor_of_matrix
from refsvm.online.perceptrons import FORGETRON_Q_CANCELLATION
from refsvm.online.passive_aggressive import gram_of_rows
from refsvm.online.common import OnlineRecorder, capacity_for, kernel_error_over_rows
from refsvm.constants import UNIT_ROUNDOFF

cdef double U_ROUND = UNIT_ROUNDOFF
cdef double SPAN_SAFETY_C = SPAN_SAFETY
cdef double FORGETRON_Q_CANCELLATION_C = FORGETRON_Q_CANCELLATION
from refsvm.sparse import n_rows
from refsvm.validation import check_online_arguments, weights_as_data
from refsvm.recorder import add_step_records, step_record_arrays

from libc.math cimport fabs, isfinite, pow, sqrt, INFINITY
from libc.stdint cimport int8_t, int64_t

from refsvm._fast.kernels cimport KERNEL_LINEAR, KERNEL_RBF, kernel_code, pw_dot
from refsvm._fast.step_records cimport StepOut, record_margin, records_off, step_out_on
from refsvm._fast.tolerance cimport (EXP_OVERFLOW_ARGUMENT, EXP_UNDERFLOW_ARGUMENT, TINY_KERNEL_ERROR,
                                     kernel_relative_error_at, margin_tolerance)
from refsvm._fast.sparse cimport (Rows, Store, rows_init, rows_self, store_export, store_fill, store_free,
                                  store_init, store_kernel_row, store_kernel_row_slot, store_move, store_self,
                                  store_set_row)

cdef enum:
    ALG_PERCEPTRON = 0
    ALG_OGD = 1
    ALG_RBP = 2
    ALG_FORGETRON = 3
    ALG_PROJECTRON = 4
    ALG_BPAS = 5
    ALG_BOGD = 6
    ALG_BPANN = 7


cdef struct Params:
    int alg
    int kernel
    bint plusplus
    Py_ssize_t n_steps
    Py_ssize_t d
    Py_ssize_t budget          # -1: none
    double gamma, degree, coef0
    double eta, lam, C, max_coef
    long long t0
    bint zero_positive         # zero_prediction="positive": sign(0) = +1
    bint authors               # variant="authors" (Lu et al.'s code)
    double U                   # Projectron++ (authors): 1/4 sqrt((B+1)/ln(B+1))
    double eps_K               # one kernel value's error bound (refsvm.online.common.kernel_error_over_rows)
    double rel_K               # its relative bound (KernelError.rel: the Gaussian kernel; INFINITY otherwise)


cdef struct Counters:
    Py_ssize_t b               # SVs in use
    long long mistakes
    long long updates
    long long kernel_evaluations
    Py_ssize_t n_removals
    double Q                   # Forgetron
    double diag_max            # Projectron: max_j k(x_j, x_j) of the SVs
    long long M                # Forgetron


cdef void c_forgetron_shrink(double sigma, double mu, double Q, double M, bint authors,
                             double* phi_out, double* psi_out) noexcept nogil:
    """``phi_t`` and ``Psi(sigma phi, phi mu)`` (see :func:`refsvm.online.forgetron_shrink`)."""
    cdef double bound = 15.0 / 32.0 * M
    cdef double psi1 = sigma * sigma + 2.0 * sigma - 2.0 * sigma * mu
    cdef double a, b, c, disc, den, phi, lam
    if Q + psi1 <= bound:
        phi_out[0] = 1.0
        psi_out[0] = psi1
        return
    a = sigma * sigma - 2.0 * sigma * mu
    b = 2.0 * sigma
    c = bound - Q
    if c < 0.0:
        c = 0.0
    disc = b * b + 4.0 * a * c
    if disc < 0.0:
        disc = 0.0
    den = b + sqrt(disc)
    if authors and a < 0.0:
        phi = den / (-2.0 * a)                              # the larger root (> 1), as forgetron.m
    elif den <= 0.0:
        phi = 0.0
    else:
        phi = 2.0 * c / den
        if phi < 0.0:
            phi = 0.0
        if phi > 1.0:
            phi = 1.0
    lam = sigma * phi
    phi_out[0] = phi
    psi_out[0] = lam * lam + 2.0 * lam - 2.0 * lam * (phi * mu)


cdef inline double c_forgetron_next_Q(double Q, double psi, double phi, double M) noexcept nogil:
    """:func:`refsvm.online.perceptrons.forgetron_next_Q`: ``(15/32) M`` (exact) after a root ``phi`` when
    ``Q + psi`` cancels more than 9 bits, else ``Q + psi``."""
    cdef double bound = 15.0 / 32.0 * M
    if phi > 0.0 and phi != 1.0 and fabs(Q) + fabs(psi) > FORGETRON_Q_CANCELLATION_C * bound:
        return bound
    return Q + psi


def forgetron_shrink(sigma, mu, Q, M, variant="paper"):
    """Same as :func:`refsvm.online.forgetron_shrink`; returns ``(phi, psi)``."""
    cdef double phi, psi
    c_forgetron_shrink(sigma, mu, Q, M, variant == "authors", &phi, &psi)
    return float(phi), float(psi)


include "online_common.pxi"                            # the error bounds and tie tolerances


include "online_projection.pxi"                        # the Projectron's factor L and its step
include "online_passive_aggressive.pxi"                # BPA-NN's neighbours and replacement


cdef inline void _swap_remove(Store* SV, double[::1] A, int64_t[::1] age, Py_ssize_t p,
                              Py_ssize_t last, Py_ssize_t d) noexcept nogil:
    store_move(SV, p, last)
    A[p] = A[last]
    age[p] = age[last]


cdef Py_ssize_t _pass(Params* P, Counters* c, const Rows* X, const int64_t[::1] y,
                      const int64_t[::1] order, const double[::1] u, Store* SV, double[::1] A,
                      int64_t[::1] age, double[:, ::1] L, double[::1] dinv, double[::1] k, double[::1] aux,
                      double[::1] E, int8_t[::1] update_kind, int64_t[::1] n_sv, int64_t[::1] rem_step,
                      int64_t[::1] rem_index, Py_ssize_t start, const double[::1] sw,
                      const StepOut* records, double[:, ::1] W, int64_t[::1] nn) noexcept nogil:
    """Steps ``start ..`` of the pass; returns the step index where it stopped
    (``n_steps``, or a Projectron step that needs a larger ``L``).  ``records``: the per-step records (NULL
    pointers: off).  ``E``: the Projectron's coefficient error weights (the others: unused).  BPA-NN:
    ``L`` holds the SVs' kernel matrix ``G``, ``W`` (5 x cap) and ``nn`` its scratch and neighbour table."""
    cdef Py_ssize_t step, i, j, l, r, b, last, d = P.d
    cdef long long t
    cdef int y_t
    cdef double f, margin, k_tt, loss, tau, beta, sigma, mu
    cdef double phi, psi, y_r, scale, bound, shrink, q, bj, dist, fr, s, s_t, top, C_t, tol_f, eps_K
    cdef double best, a_max, k_max, krr_max, q_max, c_t, c_n
    cdef Py_ssize_t n
    cdef double sq_max = 0.0                                # max ||x||^2 over the SVs held so far
    for j in range(c.b):
        if SV.sq[j] > sq_max:
            sq_max = SV.sq[j]
    cdef double sum_a = 0.0, sum_e = 0.0                    # Projectron: sum_j |alpha_j|, sum_j e_j
    if P.alg == ALG_PROJECTRON:
        for j in range(c.b):
            sum_a += fabs(A[j])
            sum_e += E[j]
    cdef bint mistake, step_taken
    cdef SpanStep span                                      # the Projectron's step (refsvm.online.projection.Span)
    cdef Neighbours nbrs                                    # BPA-NN's neighbour table (W's rows 1-5, nn)
    nbrs.valid = False
    nbrs.eps = 0.0
    nbrs.diag_max = 0.0
    nbrs.nn = &nn[0]
    nbrs.U = &W[1, 0]
    nbrs.diag = &W[2, 0]
    nbrs.D = &W[3, 0]
    nbrs.tol = &W[4, 0]
    shrink = 1.0 - P.eta * P.lam
    bound = P.eta * P.max_coef
    for step in range(start, P.n_steps):
        t = P.t0 + step + 1
        i = order[step]                                     # x_t = X[i]
        y_t = <int> y[i]
        s_t = sw[i]                                         # example weight (1: unweighted)
        b = c.b
        # f_t(x_t) = sum_j alpha_j k(x_j, x_t)
        if b > 0:
            store_kernel_row(SV, b, X, i, P.kernel, P.gamma, P.degree, P.coef0, &k[0])
        c.kernel_evaluations += b
        f = pw_dot(&k[0], &A[0], b) if b > 0 else 0.0      # numpy's pairwise order, as the reference
        record_margin(records, step, &f)                        # per-step records (opt-in): f_t(x_t)
        margin = y_t * f
        tol_f = 0.0                                         # f within rounding of 0 reads as 0
        eps_K = P.eps_K
        if b > 0 and (P.alg == ALG_PERCEPTRON or P.alg == ALG_RBP or P.alg == ALG_FORGETRON or P.alg == ALG_BPAS
                      or P.alg == ALG_BPANN):
            s = rows_self(X, i, KERNEL_LINEAR, 0.0, 0.0, 0.0)   # ||x_t||^2: eps_K of this step's kernel row
            eps_K = _kernel_value_error(P, s if s > sq_max else sq_max)
            tol_f = _margin_tolerance(&k[0], &A[0], b, eps_K, _kernel_relative_error(P, s if s > sq_max else sq_max))
        elif P.alg == ALG_BPAS or P.alg == ALG_BPANN:       # the empty model: eps_K for the zero-row test
            s = rows_self(X, i, KERNEL_LINEAR, 0.0, 0.0, 0.0)
            eps_K = _kernel_value_error(P, s if s > sq_max else sq_max)
        elif b > 0 and P.alg == ALG_PROJECTRON:           # projectron_margin_tolerance: the coefficients' error too
            tol_f = _projectron_tolerance_cap(P, b, sum_a, sum_e)   # >= tol_f: a margin clear of it decides alike
            if not (margin > tol_f and (not P.plusplus or margin >= 1.0 or margin < 1.0 - tol_f)):
                tol_f = _projectron_tolerance(&k[0], &A[0], &E[0], b, P.eps_K, P.rel_K)
        if P.zero_positive:                                 # sign(0) = +1 (refsvm.online.is_mistake)
            mistake = (f < -tol_f) if y_t > 0 else (f >= -tol_f)
        else:
            mistake = margin <= tol_f
        if mistake:
            c.mistakes += 1

        if P.alg == ALG_PERCEPTRON or P.alg == ALG_RBP or P.alg == ALG_FORGETRON:
            if P.alg == ALG_FORGETRON:
                step_taken = margin <= tol_f                # the Forgetron updates on y f <= 0
                if mistake:
                    c.M += 1                                # M counts the mistakes of the reading
            else:
                step_taken = mistake
            if step_taken and s_t != 0.0:                   # s_t = 0: weighted loss 0, no step
                if P.alg == ALG_RBP and b == P.budget:       # discard a random SV
                    r = <Py_ssize_t> (u[step] * b)
                    if r > b - 1:
                        r = b - 1
                    _swap_remove(SV, A, age, r, b - 1, d)
                    rem_step[c.n_removals] = step
                    rem_index[c.n_removals] = r
                    c.n_removals += 1
                    b -= 1
                if store_set_row(SV, b, X, i) != 0:                          # append (x_t, s_t y_t)
                    SV.failed = True
                if SV.sq[b] > sq_max:
                    sq_max = SV.sq[b]
                A[b] = y_t * s_t
                age[b] = t
                b += 1
                c.updates += 1
                update_kind[step] = 1
                if P.alg == ALG_FORGETRON and b > P.budget:
                    r = 0                                   # the oldest SV
                    for j in range(1, b):
                        if age[j] < age[r]:
                            r = j
                    sigma = fabs(A[r])
                    y_r = 1.0 if A[r] >= 0.0 else -1.0
                    store_kernel_row_slot(SV, b, r, P.kernel, P.gamma, P.degree, P.coef0, &k[0])
                    c.kernel_evaluations += b
                    mu = y_r * pw_dot(&k[0], &A[0], b)      # y_r f'_t(x_r)
                    c_forgetron_shrink(sigma, mu, c.Q, <double> c.M, P.authors, &phi, &psi)
                    c.Q = c_forgetron_next_Q(c.Q, psi, phi, <double> c.M)
                    for j in range(b):
                        A[j] *= phi                         # f''_t = phi_t f'_t
                    _swap_remove(SV, A, age, r, b - 1, d)
                    rem_step[c.n_removals] = step
                    rem_index[c.n_removals] = r
                    c.n_removals += 1
                    b -= 1

        elif P.alg == ALG_OGD:
            if margin < 1.0 and s_t != 0.0:
                if store_set_row(SV, b, X, i) != 0:
                    SV.failed = True
                A[b] = P.eta * s_t * y_t                    # weighted step eta s_t
                b += 1
                c.updates += 1
                update_kind[step] = 1

        elif P.alg == ALG_PROJECTRON:                       # L: the Cholesky factor of K
            step_taken = mistake or (P.plusplus and margin > tol_f and margin < 1.0 - tol_f)   # ++: margin error
            if s_t != 0.0 and step_taken:
                if b + 1 > L.shape[0]:
                    if mistake:
                        c.mistakes -= 1                     # redo this step after growing L
                    c.kernel_evaluations -= b
                    return step
                _span_project(P, c, X, i, L, dinv, &k[0], &aux[0], b, &span)   # d* into aux
                if mistake:
                    if _projects_mistake(P, &span, b):
                        _project_coefficients(&A[0], &E[0], y_t * s_t, &aux[0], b, &sum_a, &sum_e)   # f += s_t y_t P k
                        update_kind[step] = 2
                    else:
                        _factor_grow(L, dinv, c, b, &span)  # L grows by the row [z', delta_t]
                        if store_set_row(SV, b, X, i) != 0:
                            SV.failed = True
                        A[b] = y_t * s_t
                        E[b] = 0.0
                        sum_a += fabs(A[b])
                        b += 1
                        update_kind[step] = 1
                    c.updates += 1
                elif _margin_step(P, &span, b, 1.0 - margin, s_t, &tau):   # Projectron++ margin error
                    _project_coefficients(&A[0], &E[0], y_t * tau, &aux[0], b, &sum_a, &sum_e)
                    c.updates += 1
                    update_kind[step] = 2

        elif P.alg == ALG_BPAS:
            loss = 1.0 - margin
            C_t = P.C * s_t                                 # PA-I on the weighted loss
            if loss > tol_f and C_t != 0.0:                # a loss within rounding of 0 is 0
                k_tt = rows_self(X, i, P.kernel, P.gamma, P.degree, P.coef0)
                c.kernel_evaluations += 1
                tau = loss / k_tt
                if tau > C_t:
                    tau = C_t
                if not k_tt > eps_K:                        # k(x_t, .) may be the zero function: no step
                    step_taken = False
                elif b < P.budget:
                    c.updates += 1
                    update_kind[step] = 1
                    if store_set_row(SV, b, X, i) != 0:
                        SV.failed = True
                    if SV.sq[b] > sq_max:
                        sq_max = SV.sq[b]
                    A[b] = y_t * tau
                    b += 1
                else:
                    c.updates += 1
                    update_kind[step] = 1
                    c.kernel_evaluations += b
                    best = INFINITY                         # the least finite Q_r
                    a_max = k_max = krr_max = q_max = 0.0   # magnitudes bounding every tol_r
                    for j in range(b):
                        bj = A[j] * k[j] / k_tt + y_t * tau
                        s = store_self(SV, j, P.kernel, P.gamma, P.degree, P.coef0)
                        dist = A[j] * A[j] * s + bj * bj * k_tt - 2.0 * A[j] * bj * k[j]
                        fr = f - A[j] * k[j] + bj * k_tt
                        q = 1.0 - y_t * fr
                        if q < 0.0:
                            q = 0.0
                        q = 0.5 * dist + C_t * q
                        aux[j] = q if isfinite(q) else INFINITY
                        if aux[j] < best:
                            best = q
                        if fabs(A[j]) > a_max:
                            a_max = fabs(A[j])
                        if fabs(k[j]) > k_max:
                            k_max = fabs(k[j])
                        if s > krr_max:
                            krr_max = s
                        if aux[j] < INFINITY and fabs(q) > q_max:
                            q_max = fabs(q)
                    r = _least_objective(P, SV, A, k, aux, b, best, a_max, k_max, krr_max, q_max, k_tt, y_t,
                                         tau, f, C_t, tol_f, eps_K)
                    beta = A[r] * k[r] / k_tt + y_t * tau
                    rem_step[c.n_removals] = step
                    rem_index[c.n_removals] = r
                    c.n_removals += 1
                    if store_set_row(SV, r, X, i) != 0:
                        SV.failed = True
                    if SV.sq[r] > sq_max:
                        sq_max = SV.sq[r]
                    A[r] = beta

        elif P.alg == ALG_BPANN:                            # L: the SVs' kernel matrix G
            loss = 1.0 - margin
            C_t = P.C * s_t                                 # PA-I on the weighted loss
            if loss > tol_f and C_t != 0.0:                # a loss within rounding of 0 is 0
                k_tt = rows_self(X, i, P.kernel, P.gamma, P.degree, P.coef0)
                c.kernel_evaluations += 1
                if k_tt > eps_K:                            # else k(x_t, .) may be the zero function: no step
                    tau = loss / k_tt
                    if tau > C_t:
                        tau = C_t
                    c.updates += 1
                    update_kind[step] = 1
                    if b < P.budget:
                        r = b                               # append x_t with y_t tau
                        A[r] = y_t * tau
                        b += 1
                        for j in range(b):                  # G's row and column r: k_t (k_rr = k_tt)
                            L[r, j] = k[j]
                            L[j, r] = k[j]
                        L[r, r] = k_tt
                        nbrs.valid = False                  # the table is built at the first full step
                    else:
                        r = _bpann_replacement(L, &A[0], &k[0], b, k_tt, eps_K, &aux[0], &W[0, 0], &nbrs, &n,
                                               &c_t, &c_n)
                        A[n] += A[r] * c_n                  # beta_n = alpha_r c_n
                        A[r] = A[r] * c_t + y_t * tau       # beta_t = alpha_r c_t + y_t tau
                        rem_step[c.n_removals] = step
                        rem_index[c.n_removals] = r
                        c.n_removals += 1
                        _nn_replaced(L, b, r, &k[0], k_tt, &nbrs)   # G's row and column r, the table
                    if store_set_row(SV, r, X, i) != 0:
                        SV.failed = True
                    if SV.sq[r] > sq_max:
                        sq_max = SV.sq[r]

        else:  # ALG_BOGD
            if (margin <= 1.0 if P.authors else margin < 1.0) and s_t != 0.0:
                c.updates += 1
                update_kind[step] = 1
                step_taken = b >= P.budget                  # full: remove, rescale (and bound)
                if not step_taken:
                    for j in range(b):
                        A[j] *= shrink
                else:
                    r = <Py_ssize_t> (u[step] * b)
                    if r > b - 1:
                        r = b - 1
                    scale = b * shrink / (b - 1)
                    _swap_remove(SV, A, age, r, b - 1, d)
                    rem_step[c.n_removals] = step
                    rem_index[c.n_removals] = r
                    c.n_removals += 1
                    b -= 1
                    if P.authors:                           # scale, append, bound the whole vector
                        for j in range(b):
                            A[j] = scale * A[j]
                    else:
                        for j in range(b):
                            s = scale * fabs(A[j])
                            if s > bound:
                                s = bound
                            if A[j] > 0.0:
                                A[j] = s
                            elif A[j] < 0.0:
                                A[j] = -s
                            else:
                                A[j] = 0.0
                if store_set_row(SV, b, X, i) != 0:
                    SV.failed = True
                A[b] = P.eta * s_t * y_t                    # weighted step eta s_t
                b += 1
                if P.authors and step_taken:
                    top = 0.0
                    for j in range(b):
                        if fabs(A[j]) > top:
                            top = fabs(A[j])
                    if top > bound:                         # alpha <- alpha min(1, eta max_coef / max|alpha|)
                        for j in range(b):
                            A[j] *= bound / top
            else:
                for j in range(b):
                    A[j] *= shrink
        c.b = b
        n_sv[step] = b
    return P.n_steps


def _run(int alg, X, y, order, uniforms, budget, kernel, gamma, degree, coef0, eta, lam, C, max_coef,
         plusplus, sv, alpha, t0, state, sample_weight=None, zero_prediction="mistake", variant="paper"):
    cdef Params P
    cdef Counters c
    P.alg = alg
    P.zero_positive = zero_prediction == "positive"
    P.authors = variant == "authors"
    P.U = projectron_U(budget) if (P.authors and budget is not None) else 0.0
    P.kernel = kernel_code(kernel)
    P.plusplus = bool(plusplus)
    P.n_steps = order.shape[0]
    P.d = X.shape[1]
    P.budget = -1 if budget is None else int(budget)
    P.gamma = gamma
    P.degree = degree
    P.coef0 = coef0
    _kernel_errors_once(&P, X, sv, kernel, gamma, degree, coef0, alg == ALG_PROJECTRON)   # the Projectron's
    P.eta = eta
    P.lam = lam
    P.C = C
    P.max_coef = max_coef
    P.t0 = t0
    n0 = 0 if sv is None else n_rows(sv)
    cap = capacity_for(n0, P.n_steps, budget)
    sparse = sp.issparse(X)                               # sparse X: sparse SV slots (sparse.pxd)
    SV = None if sparse else np.zeros((cap, P.d))
    A = np.zeros(cap)
    age = np.zeros(cap, dtype=np.int64)
    state = state or {}
    cdef Rows R
    cdef Store S
    rows_init(&R, X)
    store_init(&S, SV, cap, P.d, sparse)
    try:
        return _run_prepared(&P, &c, &R, &S, SV, A, age, state, sv, alpha, n0, cap, alg, kernel, gamma, degree, coef0,
                    uniforms, sample_weight, y, order, t0)
    finally:
        store_free(&S)


cdef object _run_prepared(Params* P, Counters* cp, const Rows* R, Store* S, object SV, object A, object age,
                          dict state, object sv, object alpha, Py_ssize_t n0, Py_ssize_t cap, int alg,
                          object kernel, object gamma, object degree, object coef0, object uniforms,
                          object sample_weight, object y, object order, object t0):
    """The pass of :func:`_run` over the prepared buffers (``_run`` frees the store)."""
    cdef Counters c = cp[0]
    if n0:
        store_fill(S, sv)                                  # dense rows: their norms too
        A[:n0] = np.asarray(alpha, dtype=np.float64).reshape(-1)
        age[:n0] = state.get("age", np.arange(-n0, 0))
    c.b = n0
    c.mistakes = c.updates = c.kernel_evaluations = 0
    c.n_removals = 0
    c.Q = float(state.get("Q", 0.0))
    c.M = int(state.get("M", 0))
    L, dinv, c.diag_max = _initial_factor(P, state, (sv if S.sparse else SV[:n0]) if n0 else None, cap,
                                          alg == ALG_PROJECTRON, kernel, gamma, degree, coef0)
    scratch = cap if alg == ALG_BPANN else 1
    W = np.zeros((5, scratch))                             # BPA-NN's scratch rows
    nn = np.zeros(scratch, dtype=np.int64)
    if alg == ALG_BPANN:                                   # L holds the SVs' kernel matrix G
        L = np.zeros((cap, cap))
        if n0 and state.get("gram") is not None:
            L[:n0, :n0] = np.asarray(state["gram"], dtype=np.float64)
        elif n0:                                           # the reference's row-by-row kernel matrix
            L[:n0, :n0] = gram_of_rows(sv if S.sparse else SV[:n0], Kernel(kernel, gamma, degree, coef0))
            c.kernel_evaluations += n0 * (n0 + 1) // 2
    k = np.zeros(cap)
    aux = np.zeros(cap)
    E = np.zeros(cap)                                      # the Projectron's coefficient error weights
    if n0 and alg == ALG_PROJECTRON and "coef_error" in state:
        E[:n0] = np.asarray(state["coef_error"], dtype=np.float64).reshape(-1)
    u = np.zeros(P.n_steps) if uniforms is None else uniforms
    cdef const double[::1] swv = sample_weight       # weights as data (ones when absent)
    update_kind = np.zeros(P.n_steps, dtype=np.int8)
    n_sv = np.zeros(P.n_steps, dtype=np.int64)
    rem_step = np.zeros(P.n_steps, dtype=np.int64)
    rem_index = np.zeros(P.n_steps, dtype=np.int64)
    cdef Py_ssize_t start = 0
    cdef const int64_t[::1] yv = y
    cdef const int64_t[::1] ov = order
    cdef const double[::1] uv = u
    cdef double[::1] Av = A
    cdef int64_t[::1] agev = age
    cdef double[:, ::1] Kv = L
    cdef double[::1] dv = dinv
    cdef double[::1] kv = k
    cdef double[::1] auxv = aux
    cdef double[::1] Ev = E
    cdef int8_t[::1] ukv = update_kind
    cdef int64_t[::1] nsv = n_sv
    cdef int64_t[::1] rsv = rem_step
    cdef int64_t[::1] riv = rem_index
    cdef double[:, ::1] Wv = W
    cdef int64_t[::1] nnv = nn
    cdef StepOut steps = records_off(1)
    margins, new_coefs = step_record_arrays(P.n_steps, 0, 1)   # per-step records (opt-in): None when off
    if margins is not None:
        step_out_on(&steps, margins, new_coefs)
    while True:
        with nogil:
            start = _pass(P, &c, R, yv, ov, uv, S, Av, agev, Kv, dv, kv, auxv, Ev, ukv, nsv, rsv, riv, start, swv,
                          &steps, Wv, nnv)
        if start >= P.n_steps:
            break
        L = _grown_factor(L, c.b, cap)
        Kv = L
    b = c.b
    if alg == ALG_FORGETRON:
        out_state = {"Q": float(c.Q), "M": int(c.M), "age": age[:b].copy()}
    elif alg == ALG_PROJECTRON:
        out_state = {"L": np.tril(L[:b, :b]), "diag_max": float(c.diag_max), "coef_error": E[:b].copy()}
    elif alg == ALG_BPANN:
        out_state = {"gram": L[:b, :b].copy()}
    else:
        out_state = {}
    trace = OnlineRecorder.assemble(c.mistakes, P.n_steps, c.updates, c.kernel_evaluations, update_kind, n_sv,
                                    rem_step[:c.n_removals].copy(), rem_index[:c.n_removals].copy())
    add_step_records(trace, margins, new_coefs, 0)        # the reference's StepRecords keys
    if S.failed:
        raise MemoryError("could not allocate a sparse support vector")
    return OnlineResult(sv=store_export(S, b) if S.sparse else SV[:b].copy(), alpha=A[:b].reshape(-1, 1).copy(),
                        bias=np.zeros(1),
                        t=int(t0 + P.n_steps), state=out_state, trace=trace)


def perceptron(X, y, order, *, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0, state=None,
               sample_weight=None, zero_prediction="mistake"):
    """Kernel perceptron (see :func:`refsvm.online.perceptron`)."""
    X, y, order, _ = check_online_arguments(
        X, y, order, algorithm="perceptron", kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, sv=sv,
        alpha=alpha, t0=t0, zero_prediction=zero_prediction)
    sample_weight = weights_as_data(sample_weight, X.shape[0])
    return _run(ALG_PERCEPTRON, X, y, order, None, None, kernel, gamma, degree, coef0, 1.0, 0.0, 1.0,
                1.0, False, sv, alpha, t0, state, sample_weight, zero_prediction=zero_prediction)


def ogd(X, y, order, *, eta, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0, state=None,
        sample_weight=None, zero_prediction="mistake"):
    """Kernel OGD (see :func:`refsvm.online.ogd`)."""
    X, y, order, _ = check_online_arguments(
        X, y, order, algorithm="ogd", kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, sv=sv,
        alpha=alpha, t0=t0, zero_prediction=zero_prediction, eta=eta)
    sample_weight = weights_as_data(sample_weight, X.shape[0])
    return _run(ALG_OGD, X, y, order, None, None, kernel, gamma, degree, coef0, eta, 0.0, 1.0, 1.0,
                False, sv, alpha, t0, state, sample_weight, zero_prediction=zero_prediction)


def rbp(X, y, order, uniforms, *, budget, kernel, gamma, degree, coef0, sv=None, alpha=None,
        t0=0, state=None, sample_weight=None, zero_prediction="mistake"):
    """Randomized budget perceptron (see :func:`refsvm.online.rbp`)."""
    X, y, order, uniforms = check_online_arguments(
        X, y, order, uniforms, algorithm="rbp", kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, sv=sv,
        alpha=alpha, t0=t0, zero_prediction=zero_prediction, budget=budget)
    sample_weight = weights_as_data(sample_weight, X.shape[0])
    return _run(ALG_RBP, X, y, order, uniforms, budget, kernel, gamma, degree, coef0, 1.0, 0.0, 1.0,
                1.0, False, sv, alpha, t0, state, sample_weight, zero_prediction=zero_prediction)


def forgetron(X, y, order, *, budget, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
              state=None, zero_prediction="mistake", variant="paper", sample_weight=None):
    """Self-tuned Forgetron (see :func:`refsvm.online.forgetron`)."""
    X, y, order, _ = check_online_arguments(
        X, y, order, algorithm="forgetron", kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, sv=sv,
        alpha=alpha, t0=t0, zero_prediction=zero_prediction, budget=budget, variant=variant)
    sample_weight = weights_as_data(sample_weight, X.shape[0])
    return _run(ALG_FORGETRON, X, y, order, None, budget, kernel, gamma, degree, coef0, 1.0, 0.0, 1.0,
                1.0, False, sv, alpha, t0, state, sample_weight, zero_prediction=zero_prediction, variant=variant)


def projectron(X, y, order, *, eta, budget, plusplus, kernel, gamma, degree, coef0, sv=None,
               alpha=None, t0=0, state=None, zero_prediction="mistake", variant="paper", sample_weight=None):
    """Projectron / Projectron++ (see :func:`refsvm.online.projectron`)."""
    algorithm = "projectron++" if plusplus else "projectron"
    X, y, order, _ = check_online_arguments(
        X, y, order, algorithm=algorithm, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, sv=sv,
        alpha=alpha, t0=t0, zero_prediction=zero_prediction, budget=budget, variant=variant, eta=eta)
    sample_weight = weights_as_data(sample_weight, X.shape[0])
    return _run(ALG_PROJECTRON, X, y, order, None, budget, kernel, gamma, degree, coef0, eta, 0.0, 1.0,
                1.0, plusplus, sv, alpha, t0, state, sample_weight, zero_prediction=zero_prediction,
                variant=variant)


def bpas(X, y, order, *, budget, C, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
         state=None, zero_prediction="mistake", sample_weight=None):
    """BPA-S (see :func:`refsvm.online.bpas`)."""
    X, y, order, _ = check_online_arguments(
        X, y, order, algorithm="bpas", kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, sv=sv,
        alpha=alpha, t0=t0, zero_prediction=zero_prediction, budget=budget, C=C)
    sample_weight = weights_as_data(sample_weight, X.shape[0])
    return _run(ALG_BPAS, X, y, order, None, budget, kernel, gamma, degree, coef0, 1.0, 0.0, C, 1.0,
                False, sv, alpha, t0, state, sample_weight, zero_prediction=zero_prediction)


def bpann(X, y, order, *, budget, C, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
          state=None, zero_prediction="mistake", sample_weight=None):
    """BPA-NN (see :func:`refsvm.online.bpann`)."""
    X, y, order, _ = check_online_arguments(
        X, y, order, algorithm="bpann", kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, sv=sv,
        alpha=alpha, t0=t0, zero_prediction=zero_prediction, budget=budget, C=C)
    sample_weight = weights_as_data(sample_weight, X.shape[0])
    return _run(ALG_BPANN, X, y, order, None, budget, kernel, gamma, degree, coef0, 1.0, 0.0, C, 1.0,
                False, sv, alpha, t0, state, sample_weight, zero_prediction=zero_prediction)


def bogd(X, y, order, uniforms, *, budget, eta, lam, max_coef, kernel, gamma, degree, coef0,
         sv=None, alpha=None, t0=0, state=None, sample_weight=None, zero_prediction="mistake", variant="paper"):
    """BOGD with uniform sampling (see :func:`refsvm.online.bogd`)."""
    X, y, order, uniforms = check_online_arguments(
        X, y, order, uniforms, algorithm="bogd", kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, sv=sv,
        alpha=alpha, t0=t0, zero_prediction=zero_prediction, budget=budget, variant=variant, eta=eta, lam=lam,
        max_coef=max_coef)
    sample_weight = weights_as_data(sample_weight, X.shape[0])
    return _run(ALG_BOGD, X, y, order, uniforms, budget, kernel, gamma, degree, coef0, eta, lam, 1.0,
                max_coef, False, sv, alpha, t0, state, sample_weight, zero_prediction=zero_prediction, variant=variant)


include "online_multiclass.pxi"
include "online_regression.pxi"
