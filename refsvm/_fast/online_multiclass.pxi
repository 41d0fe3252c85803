# Multi-class Perceptron, RBP, OGD, Forgetron, BOGD, BPA-S and the Projectrons on one shared SV set: the compiled
# mirror of refsvm.online.multiclass (included at the end of online.pyx; same functions, same
# signatures, same OnlineResult and trace; the rule and its sources are in the reference module).
#
# How (not what) differs: the coefficients live class-major, A[r, j] (m, capacity), so that each
# score f^r = pw_dot(k, A[r]) is summed in numpy's pairwise order over a contiguous row, as the
# reference's np.sum(k * alpha[:b, r]); the result hands back alpha = A[:, :b].T (n_sv, m).  The
# Projectrons keep the binary learner's factor buffer L (one for the shared set, grown the same way:
# the pass returns to Python to double it, then resumes) and its span helpers (_span_project, ...).

from refsvm.online.multiclass import check_multiclass_arguments


cdef inline Py_ssize_t _mc_rival(const double* f, Py_ssize_t m, Py_ssize_t y_t) noexcept nogil:
    """Eq. 9: the highest-scoring class other than y_t, lowest index on ties (refsvm.ogd.rival_class)."""
    cdef Py_ssize_t r, s = -1
    for r in range(m):
        if r != y_t and (s < 0 or f[r] > f[s]):
            s = r
    return s


cdef inline void _mc_remove(Store* SV, double[:, ::1] A, int64_t[::1] age, Counters* c, Py_ssize_t m,
                            Py_ssize_t r, Py_ssize_t step, int64_t[::1] rem_step,
                            int64_t[::1] rem_index) noexcept nogil:
    """remove(r) of the shared set: the last SV (all its classes, its age) moves into slot r."""
    cdef Py_ssize_t j, last = c.b - 1
    store_move(SV, r, last)
    for j in range(m):
        A[j, r] = A[j, last]
    age[r] = age[last]
    rem_step[c.n_removals] = step
    rem_index[c.n_removals] = r
    c.n_removals += 1
    c.b = last


cdef inline Py_ssize_t _mc_oldest(const int64_t[::1] age, Py_ssize_t b) noexcept nogil:
    """The slot of the smallest age (lowest slot on ties, as np.argmin)."""
    cdef Py_ssize_t j, r = 0
    for j in range(1, b):
        if age[j] < age[r]:
            r = j
    return r


cdef void _mc_forgetron_shrink(Params* P, Counters* c, Py_ssize_t m, Store* SV, double[:, ::1] A,
                               double[::1] k, Py_ssize_t r) noexcept nogil:
    """sigma, mu of slot r (refsvm.online.multiclass.forgetron_margin), then phi, Q and f'' = phi f'."""
    cdef Py_ssize_t i, j, y_r = 0, s_r = 0
    cdef double sigma, mu, phi, psi, fy, fs
    for j in range(1, m):                                    # argmax / argmin, lowest index on ties
        if A[j, r] > A[y_r, r]:
            y_r = j
        if A[j, r] < A[s_r, r]:
            s_r = j
    store_kernel_row_slot(SV, c.b, r, P.kernel, P.gamma, P.degree, P.coef0, &k[0])
    c.kernel_evaluations += c.b
    fy = pw_dot(&k[0], &A[y_r, 0], c.b)                      # f'^{y_r}(x_r)
    fs = pw_dot(&k[0], &A[s_r, 0], c.b)
    if P.authors:                                            # forgetron.m: the true class's score
        sigma = fabs(A[y_r, r])
        mu = fy
    else:                                                    # the margin between its two classes, halved
        sigma = 0.5 * (A[y_r, r] - A[s_r, r])
        mu = 0.5 * (fy - fs)
    c_forgetron_shrink(sigma, mu, c.Q, <double> c.M, P.authors, &phi, &psi)
    c.Q = c_forgetron_next_Q(c.Q, psi, phi, <double> c.M)
    for j in range(m):
        for i in range(c.b):
            A[j, i] *= phi                                   # f''_t = phi_t f'_t


cdef inline void _mc_term_errors(double a, double k, double k_rr, double k_tt, double beta, double f_t, double tau,
                                 double f_err, double eps_K, double* e_dist, double* e_fr) noexcept nogil:
    """:func:`refsvm.online.passive_aggressive.bpas_term_errors` of one class of one candidate."""
    cdef double u = U_ROUND
    cdef double P = fabs(a), B = fabs(beta), kk = fabs(k)
    cdef double d_b = 3.0 * u * (P * kk / k_tt + tau) + eps_K * P * (1.0 + kk / k_tt) / k_tt
    e_dist[0] = (5.0 * u * (P * P * k_rr + B * B * k_tt + 2.0 * P * B * kk) + eps_K * (P + B) * (P + B)
                 + 2.0 * (B * k_tt + P * kk) * d_b)
    e_fr[0] = f_err + 3.0 * u * (fabs(f_t) + P * kk + B * k_tt) + eps_K * (P + B) + k_tt * d_b


cdef Py_ssize_t _mc_bpas_replacement(Params* P, Store* SV, double[:, ::1] A, double[::1] k, double[::1] f,
                                     double[::1] ferr, double[:, ::1] work, Py_ssize_t m, Py_ssize_t b,
                                     Py_ssize_t y_t, Py_ssize_t s_t, double k_tt, double tau, double C_t,
                                     double eps_K) noexcept nogil:
    """refsvm.online.multiclass.bpas_replacement: Q_r (work[0]) and its bound (work[1]) per candidate,
    then the lowest r within its bound of min (Q_r + tol_r) (passive_aggressive.least_objective)."""
    cdef Py_ssize_t j, r
    cdef double k_rr, a, bt, stepc, term, dist = 0.0, esum = 0.0, fr, fy = 0.0, fr_max, e_max, e_y = 0.0
    cdef double e_dist, e_fr, loss, q, upper = INFINITY
    for r in range(b):
        k_rr = store_self(SV, r, P.kernel, P.gamma, P.degree, P.coef0)
        fr_max = -INFINITY
        e_max = -INFINITY
        for j in range(m):                                   # class order, as the reference sums
            a = A[j, r]
            stepc = tau if j == y_t else (-tau if j == s_t else 0.0)
            bt = a * k[r] / k_tt + stepc                     # x_r's projection onto x_t, plus the step
            term = a * a * k_rr + bt * bt * k_tt - 2.0 * a * bt * k[r]
            _mc_term_errors(a, k[r], k_rr, k_tt, bt, f[j], tau, ferr[j], eps_K, &e_dist, &e_fr)
            dist = term if j == 0 else dist + term
            esum = e_dist if j == 0 else esum + e_dist
            fr = f[j] - a * k[r] + bt * k_tt                 # f_r^j(x_t)
            if j == y_t:
                fy = fr
                e_y = e_fr
            else:
                if fr > fr_max:
                    fr_max = fr
                if e_fr > e_max:
                    e_max = e_fr
        loss = 1.0 - fy + fr_max
        if loss < 0.0:
            loss = 0.0
        q = 0.5 * dist + C_t * loss
        work[0, r] = q if isfinite(q) else INFINITY
        work[1, r] = 2.0 * (0.5 * esum + C_t * (e_y + e_max) + 2.0 * U_ROUND * (fabs(q) + C_t))
    for r in range(b):
        if work[0, r] < INFINITY and work[0, r] + work[1, r] < upper:
            upper = work[0, r] + work[1, r]
    for r in range(b):
        if work[0, r] < INFINITY and work[0, r] - work[1, r] <= upper:
            return r
    return 0


cdef bint _mc_bpas(Params* P, Counters* c, Py_ssize_t m, const Rows* X, Py_ssize_t i, Store* SV, double[:, ::1] A,
                   double[::1] k, double[::1] f, double[::1] ferr, double[:, ::1] work, Py_ssize_t y_t, Py_ssize_t s,
                   double w_t, Py_ssize_t step, double* sq_max, double* step_coef, int8_t[::1] update_kind,
                   int64_t[::1] rem_step, int64_t[::1] rem_index) noexcept nogil:
    """BPA-S's step (refsvm.online.multiclass.multiclass_bpas): True when x_t is to be appended with
    +-step_coef (below the budget); a full set's replacement is made here (then False)."""
    cdef Py_ssize_t j, r, b = c.b
    cdef double x2, eps_K, rel_K, loss, k_tt, tau, C_t = P.C * w_t    # PA-I on the weighted loss
    x2 = rows_self(X, i, KERNEL_LINEAR, 0.0, 0.0, 0.0)       # ||x_t||^2: eps_K of this step's kernel row
    eps_K = _kernel_value_error(P, x2 if x2 > sq_max[0] else sq_max[0])
    rel_K = _kernel_relative_error(P, x2 if x2 > sq_max[0] else sq_max[0])
    for j in range(m):
        ferr[j] = _margin_tolerance(&k[0], &A[j, 0], b, eps_K, rel_K) if b > 0 else 0.0
    loss = 1.0 - f[y_t] + f[s]
    if loss < 0.0:
        loss = 0.0
    if not (loss > ferr[y_t] + ferr[s] and C_t > 0.0):      # a loss within rounding of 0 is 0
        return False
    k_tt = rows_self(X, i, P.kernel, P.gamma, P.degree, P.coef0)
    c.kernel_evaluations += 1
    if not k_tt > eps_K:                                     # k(x_t, .) may be the zero function: no step
        return False
    tau = loss / (2.0 * k_tt)                                # multi-class PA-I step
    if tau > C_t:
        tau = C_t
    step_coef[0] = tau
    if b < P.budget:
        return True
    c.kernel_evaluations += b                                # the k_rr
    r = _mc_bpas_replacement(P, SV, A, k, f, ferr, work, m, b, y_t, s, k_tt, tau, C_t, eps_K)
    for j in range(m):
        A[j, r] = A[j, r] * k[r] / k_tt + (tau if j == y_t else (-tau if j == s else 0.0))
    if store_set_row(SV, r, X, i) != 0:
        SV.failed = True
    if SV.sq[r] > sq_max[0]:
        sq_max[0] = SV.sq[r]
    rem_step[c.n_removals] = step
    rem_index[c.n_removals] = r
    c.n_removals += 1
    c.updates += 1
    update_kind[step] = 1
    return False


cdef int _mc_projectron(Params* P, Counters* c, const Rows* X, Py_ssize_t i, double[:, ::1] A, double[::1] k,
                        double[::1] f, double[:, ::1] L, double[::1] dinv, double[::1] aux, Py_ssize_t y_t,
                        Py_ssize_t s, double w_t, bint mistake, Py_ssize_t step,
                        int8_t[::1] update_kind) noexcept nogil:
    """The Projectrons' step (refsvm.online.multiclass.multiclass_projectron): 1 when x_t is to be
    appended with +-w_t (L already grown by its row), 0 otherwise (a projection is made here), -1 when
    L has no row left for this step (the caller grows it and redoes the step)."""
    cdef Py_ssize_t j, b = c.b
    cdef double g = 0.0, tol, tau
    cdef bint margin_err = False
    cdef SpanStep span
    if P.plusplus and not mistake:                         # multiclass_margin_error
        g = f[y_t] - f[s] if P.authors else 0.5 * (f[y_t] - f[s])
        if g < 1.0 and (P.authors or g > 0.0):
            tol = _margin_tolerance(&k[0], &A[y_t, 0], b, P.eps_K, P.rel_K) + _margin_tolerance(&k[0], &A[s, 0], b, P.eps_K, P.rel_K)
            margin_err = g < 1.0 - (tol if P.authors else 0.5 * tol)
    if not (w_t > 0.0 and (mistake or margin_err)):
        return 0
    if b + 1 > L.shape[0]:
        return -1
    _span_project(P, c, X, i, L, dinv, &k[0], &aux[0], b, &span)   # d* into aux
    if mistake and not _projects_mistake(P, &span, b):
        _factor_grow(L, dinv, c, b, &span)                  # L grows by the row [z', delta_t]
        return 1
    if mistake:
        tau = w_t
    elif not _margin_step(P, &span, b, 1.0 - g, w_t, &tau):
        return 0
    for j in range(b):                                     # f^y += tau P k_t, f^s -= tau P k_t
        A[y_t, j] += tau * aux[j]
        A[s, j] -= tau * aux[j]
    c.updates += 1
    update_kind[step] = 2
    return 0


cdef Py_ssize_t _mc_pass(Params* P, Counters* c, Py_ssize_t m, const Rows* X, const int64_t[::1] y,
                         const int64_t[::1] order, const double[::1] u, Store* SV, double[:, ::1] A, double[::1] k,
                         double[::1] f, int8_t[::1] update_kind, int64_t[::1] n_sv, int64_t[::1] rem_step,
                         int64_t[::1] rem_index, const double[::1] sw, int64_t[::1] age, double[::1] ferr,
                         double[:, ::1] work, double[:, ::1] L, double[::1] dinv, double[::1] aux,
                         Py_ssize_t start, const StepOut* records) noexcept nogil:
    """Steps ``start ..`` of the pass of the multi-class learners (refsvm.online.multiclass, line by
    line); returns where it stopped (``n_steps``, or a Projectron step that needs a larger ``L``).
    ``records``: the per-step records (NULL pointers: off)."""
    cdef Py_ssize_t step, i, r, s, j, b, last, y_t
    cdef double w_t, step_coef, scale, a, shrink = 1.0 - P.eta * P.lam, bound = P.eta * P.max_coef
    cdef double sq_max = 0.0                                 # max ||x||^2 over the SVs held so far
    cdef bint mistake, step_taken, full
    cdef int proj
    for j in range(c.b):
        if SV.sq[j] > sq_max:
            sq_max = SV.sq[j]
    for step in range(start, P.n_steps):
        full = False
        i = order[step]
        y_t = <Py_ssize_t> y[i]
        w_t = sw[i]                                          # example weight (1: unweighted)
        b = c.b
        if b > 0:
            store_kernel_row(SV, b, X, i, P.kernel, P.gamma, P.degree, P.coef0, &k[0])
        c.kernel_evaluations += b
        for r in range(m):                                   # eq. 8: the m scores
            f[r] = pw_dot(&k[0], &A[r, 0], b) if b > 0 else 0.0
        record_margin(records, step, &f[0])                  # per-step records (opt-in): the m scores
        s = _mc_rival(&f[0], m, y_t)                         # eq. 9: the rival s_t
        if P.zero_positive:                                  # lowest-index argmax (the authors' code)
            mistake = f[s] > f[y_t] or (f[s] == f[y_t] and s < y_t)
        else:
            mistake = f[s] >= f[y_t]
        if mistake:
            c.mistakes += 1
        if P.alg == ALG_FORGETRON and mistake:
            c.M += 1                                         # M_t: mistakes so far
        if P.alg == ALG_OGD or P.alg == ALG_BOGD:
            step_taken = 1.0 - f[y_t] + f[s] > 0.0            # eq. 9: hinge loss > 0
            step_coef = P.eta * w_t
        else:
            step_taken = mistake
            step_coef = w_t
        if P.alg == ALG_PROJECTRON:
            proj = _mc_projectron(P, c, X, i, A, k, f, L, dinv, aux, y_t, s, w_t, mistake, step, update_kind)
            if proj < 0:
                c.mistakes -= <long long> mistake            # redo this step after growing L
                c.kernel_evaluations -= b
                return step
            step_taken = proj == 1
        if P.alg == ALG_BPAS:
            step_taken = _mc_bpas(P, c, m, X, i, SV, A, k, f, ferr, work, y_t, s, w_t, step, &sq_max, &step_coef,
                                  update_kind, rem_step, rem_index)
        if P.alg == ALG_BOGD and not (step_taken and w_t > 0.0):
            for j in range(m):
                for r in range(b):
                    A[j, r] *= shrink                        # every step shrinks every class
        if P.alg == ALG_BOGD and step_taken and w_t > 0.0:
            full = b == P.budget
            if full:                                         # discard one shared SV
                r = _mc_oldest(age, b) if P.authors else min(<Py_ssize_t> (u[step] * b), b - 1)
                scale = b * shrink / (b - 1)                 # the paper's rescaling
                c.b = b
                _mc_remove(SV, A, age, c, m, r, step, rem_step, rem_index)
                b = c.b
            for j in range(m):
                for r in range(b):
                    if not full or P.authors:
                        A[j, r] *= shrink
                    else:                                    # rescale, |alpha| clipped at eta max_coef
                        a = scale * fabs(A[j, r])
                        if a > bound:
                            a = bound
                        A[j, r] = a if A[j, r] > 0.0 else (-a if A[j, r] < 0.0 else 0.0)
        if step_taken and w_t > 0.0:                         # weighted loss 0: no step, no discard
            if P.alg == ALG_RBP and b == P.budget:           # |S| = B: discard a random shared SV
                r = <Py_ssize_t> (u[step] * b)
                if r > b - 1:
                    r = b - 1
                last = b - 1
                store_move(SV, r, last)
                for j in range(m):
                    A[j, r] = A[j, last]
                rem_step[c.n_removals] = step
                rem_index[c.n_removals] = r
                c.n_removals += 1
                b -= 1
            if store_set_row(SV, b, X, i) != 0:
                SV.failed = True
            if SV.sq[b] > sq_max:
                sq_max = SV.sq[b]
            for j in range(m):
                A[j, b] = 0.0
            A[y_t, b] = step_coef                            # f^y += c k(x_t, .)
            A[s, b] = -step_coef                             # f^s -= c k(x_t, .)
            age[b] = P.t0 + step + 1                         # the new SV's age: t
            b += 1
            c.updates += 1
            update_kind[step] = 1
            if P.alg == ALG_BOGD and full and P.authors:     # BOGD.m: min(alpha, eta gamma)
                for j in range(m):
                    for r in range(b):
                        if A[j, r] > bound:
                            A[j, r] = bound
            if P.alg == ALG_FORGETRON and b > P.budget:
                c.b = b
                r = _mc_oldest(age, b)                       # r_t: the oldest shared SV
                _mc_forgetron_shrink(P, c, m, SV, A, k, r)
                _mc_remove(SV, A, age, c, m, r, step, rem_step, rem_index)
                b = c.b
        c.b = b
        n_sv[step] = b
    return P.n_steps


def _run_multiclass(int alg, X, y, order, uniforms, n_classes, budget, kernel, gamma, degree, coef0, eta, sv,
                    alpha, t0, sample_weight, zero_prediction, state=None, variant="paper", lam=0.0, max_coef=1.0,
                    C=1.0, plusplus=False):
    cdef Params P
    cdef Rows R
    cdef Store S
    P.alg = alg
    P.zero_positive = zero_prediction == "positive"
    P.authors = variant == "authors"
    P.U = projectron_U(budget) if (P.authors and alg == ALG_PROJECTRON) else 0.0
    P.kernel = kernel_code(kernel)
    P.plusplus = bool(plusplus)
    P.n_steps = order.shape[0]
    P.d = X.shape[1]
    P.budget = -1 if budget is None else int(budget)
    P.gamma = gamma
    P.degree = degree
    P.coef0 = coef0
    P.eta = eta
    P.lam = lam
    P.C = C
    P.max_coef = max_coef
    P.t0 = t0
    _kernel_errors_once(&P, X, sv, kernel, gamma, degree, coef0, alg == ALG_PROJECTRON)   # the Projectrons'
    n0 = 0 if sv is None else n_rows(sv)
    cap = capacity_for(n0, P.n_steps, budget)
    sparse = sp.issparse(X)                               # sparse X: sparse SV slots (sparse.pxd)
    SV = None if sparse else np.zeros((cap, P.d))
    rows_init(&R, X)
    store_init(&S, SV, cap, P.d, sparse)
    try:
        return _mc_prepared(&P, &R, &S, SV, int(n_classes), sv, alpha, n0, cap, uniforms, sample_weight, y,
                            order, t0, state or {}, (kernel, gamma, degree, coef0))
    finally:
        store_free(&S)


cdef object _mc_prepared(Params* P, const Rows* R, Store* S, object SV, Py_ssize_t m, object sv, object alpha,
                         Py_ssize_t n0, Py_ssize_t cap, object uniforms, object sample_weight, object y,
                         object order, object t0, dict state, tuple kernel_args):
    """The pass of :func:`_run_multiclass` over the prepared buffers (the caller frees the store)."""
    cdef Counters c
    A = np.zeros((m, cap))
    age = np.zeros(cap, dtype=np.int64)                   # Forgetron / BOGD (refsvm.online.forgetron_state)
    if n0:
        store_fill(S, sv)
        A[:, :n0] = np.asarray(alpha, dtype=np.float64).reshape(n0, m).T
        age[:n0] = state.get("age", np.arange(-n0, 0))
    c.b = n0
    c.mistakes = c.updates = c.kernel_evaluations = 0
    c.n_removals = 0
    c.Q = float(state.get("Q", 0.0))
    c.M = int(state.get("M", 0))
    L, dinv, c.diag_max = _initial_factor(P, state, (sv if S.sparse else SV[:n0]) if n0 else None, cap,
                                          P.alg == ALG_PROJECTRON, kernel_args[0], kernel_args[1], kernel_args[2],
                                          kernel_args[3])
    k = np.zeros(cap)
    aux = np.zeros(cap)                                   # the Projectrons' d*
    f = np.zeros(m)
    u = np.zeros(P.n_steps) if uniforms is None else uniforms
    update_kind = np.zeros(P.n_steps, dtype=np.int8)
    n_sv = np.zeros(P.n_steps, dtype=np.int64)
    rem_step = np.zeros(P.n_steps, dtype=np.int64)
    rem_index = np.zeros(P.n_steps, dtype=np.int64)
    cdef const double[::1] swv = sample_weight
    cdef const int64_t[::1] yv = y
    cdef const int64_t[::1] ov = order
    cdef const double[::1] uv = u
    cdef double[:, ::1] Av = A
    cdef double[::1] kv = k
    cdef double[::1] fv = f
    cdef int8_t[::1] ukv = update_kind
    cdef int64_t[::1] nsv = n_sv
    cdef int64_t[::1] rsv = rem_step
    cdef int64_t[::1] riv = rem_index
    cdef int64_t[::1] agev = age
    cdef double[::1] ferrv = np.zeros(m)                 # BPA-S: each score's error bound
    cdef double[:, ::1] workv = np.zeros((2, cap))       # BPA-S: Q_r and its bound per candidate
    cdef double[:, ::1] Lv = L
    cdef double[::1] dv = dinv
    cdef double[::1] auxv = aux
    cdef Py_ssize_t start = 0
    cdef StepOut steps = records_off(m)
    margins, new_coefs = step_record_arrays(P.n_steps, 0, m)   # per-step records (opt-in): None when off
    if margins is not None:
        step_out_on(&steps, margins, new_coefs)
    while True:
        with nogil:
            start = _mc_pass(P, &c, m, R, yv, ov, uv, S, Av, kv, fv, ukv, nsv, rsv, riv, swv, agev, ferrv, workv,
                             Lv, dv, auxv, start, &steps)
        if start >= P.n_steps:
            break
        L = _grown_factor(L, c.b, cap)
        Lv = L
    b = c.b
    trace = OnlineRecorder.assemble(c.mistakes, P.n_steps, c.updates, c.kernel_evaluations, update_kind, n_sv,
                                    rem_step[:c.n_removals].copy(), rem_index[:c.n_removals].copy())
    add_step_records(trace, margins, new_coefs, 0)        # the reference's StepRecords keys
    if S.failed:
        raise MemoryError("could not allocate a sparse support vector")
    return OnlineResult(sv=store_export(S, b) if S.sparse else SV[:b].copy(), alpha=np.ascontiguousarray(A[:, :b].T),
                        bias=np.zeros(1), t=int(t0 + P.n_steps),
                        state=_mc_state(P.alg, c, age[:b].copy(), L[:b, :b]), trace=trace)


cdef object _mc_state(int alg, Counters c, object age, object L):
    """The learner state the reference returns (Forgetron: Q, M, age; BOGD: age; Projectrons: L,
    diag_max; the others: none)."""
    if alg == ALG_FORGETRON:
        return {"Q": float(c.Q), "M": int(c.M), "age": age}
    if alg == ALG_PROJECTRON:
        return {"L": np.tril(L), "diag_max": float(c.diag_max)}
    return {"age": age} if alg == ALG_BOGD else {}


def multiclass_perceptron(X, y, order, *, n_classes, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                          state=None, sample_weight=None, zero_prediction="mistake"):
    """Multi-class kernel perceptron (see :func:`refsvm.online.multiclass_perceptron`)."""
    X, y, order, _ = check_multiclass_arguments(
        X, y, order, algorithm="perceptron", n_classes=n_classes, sv=sv, alpha=alpha, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, t0=t0, zero_prediction=zero_prediction)
    return _run_multiclass(ALG_PERCEPTRON, X, y, order, None, n_classes, None, kernel, gamma, degree, coef0, 1.0,
                           sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), zero_prediction)


def multiclass_rbp(X, y, order, uniforms, *, n_classes, budget, kernel, gamma, degree, coef0, sv=None,
                   alpha=None, t0=0, state=None, sample_weight=None, zero_prediction="mistake"):
    """Multi-class randomized budget perceptron (see :func:`refsvm.online.multiclass_rbp`)."""
    X, y, order, uniforms = check_multiclass_arguments(
        X, y, order, uniforms, algorithm="rbp", n_classes=n_classes, sv=sv, alpha=alpha, budget=budget,
        kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, t0=t0, zero_prediction=zero_prediction)
    return _run_multiclass(ALG_RBP, X, y, order, uniforms, n_classes, budget, kernel, gamma, degree, coef0, 1.0,
                           sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), zero_prediction)


def multiclass_ogd(X, y, order, *, n_classes, eta, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                   state=None, sample_weight=None, zero_prediction="mistake"):
    """Multi-class kernel OGD (see :func:`refsvm.online.multiclass_ogd`)."""
    X, y, order, _ = check_multiclass_arguments(
        X, y, order, algorithm="ogd", n_classes=n_classes, sv=sv, alpha=alpha, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, t0=t0, zero_prediction=zero_prediction, eta=eta)
    return _run_multiclass(ALG_OGD, X, y, order, None, n_classes, None, kernel, gamma, degree, coef0, eta,
                           sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), zero_prediction)


def multiclass_forgetron(X, y, order, *, n_classes, budget, kernel, gamma, degree, coef0, sv=None, alpha=None,
                         t0=0, state=None, sample_weight=None, zero_prediction="mistake", variant="paper"):
    """Multi-class self-tuned Forgetron (see :func:`refsvm.online.multiclass_forgetron`)."""
    X, y, order, _ = check_multiclass_arguments(
        X, y, order, algorithm="forgetron", n_classes=n_classes, sv=sv, alpha=alpha, budget=budget, kernel=kernel,
        gamma=gamma, degree=degree, coef0=coef0, t0=t0, zero_prediction=zero_prediction, variant=variant)
    return _run_multiclass(ALG_FORGETRON, X, y, order, None, n_classes, budget, kernel, gamma, degree, coef0, 1.0,
                           sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), zero_prediction, state,
                           variant)


def multiclass_bogd(X, y, order, uniforms, *, n_classes, budget, eta, lam, max_coef, kernel, gamma, degree, coef0,
                    sv=None, alpha=None, t0=0, state=None, sample_weight=None, zero_prediction="mistake",
                    variant="paper"):
    """Multi-class BOGD (see :func:`refsvm.online.multiclass_bogd`)."""
    X, y, order, uniforms = check_multiclass_arguments(
        X, y, order, uniforms, algorithm="bogd", n_classes=n_classes, sv=sv, alpha=alpha, budget=budget,
        kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, t0=t0, zero_prediction=zero_prediction,
        variant=variant, eta=eta, lam=lam, max_coef=max_coef)
    return _run_multiclass(ALG_BOGD, X, y, order, uniforms, n_classes, budget, kernel, gamma, degree, coef0, eta,
                           sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), zero_prediction, state,
                           variant, lam, max_coef)


def multiclass_bpas(X, y, order, *, n_classes, budget, C, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                    state=None, sample_weight=None, zero_prediction="mistake"):
    """Multi-class BPA-S (see :func:`refsvm.online.multiclass_bpas`)."""
    X, y, order, _ = check_multiclass_arguments(
        X, y, order, algorithm="bpas", n_classes=n_classes, sv=sv, alpha=alpha, budget=budget, kernel=kernel,
        gamma=gamma, degree=degree, coef0=coef0, t0=t0, zero_prediction=zero_prediction, C=C)
    return _run_multiclass(ALG_BPAS, X, y, order, None, n_classes, budget, kernel, gamma, degree, coef0, 1.0,
                           sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), zero_prediction, state,
                           "paper", 0.0, 1.0, C)


def multiclass_projectron(X, y, order, *, n_classes, eta, budget, plusplus, kernel, gamma, degree, coef0, sv=None,
                          alpha=None, t0=0, state=None, sample_weight=None, zero_prediction="mistake",
                          variant="paper"):
    """Multi-class Projectron / Projectron++ (see :func:`refsvm.online.multiclass_projectron`)."""
    X, y, order, _ = check_multiclass_arguments(
        X, y, order, algorithm="projectron++" if plusplus else "projectron", n_classes=n_classes, sv=sv,
        alpha=alpha, budget=budget, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, t0=t0,
        zero_prediction=zero_prediction, variant=variant, eta=eta)
    return _run_multiclass(ALG_PROJECTRON, X, y, order, None, n_classes, budget, kernel, gamma, degree, coef0, eta,
                           sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), zero_prediction, state,
                           variant, plusplus=plusplus)
