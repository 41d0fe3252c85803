# Regression OGD, Perceptron, RBP, Forgetron, Projectron, BOGD and Norma (Lu et al. 2016, section 7.4): the
# compiled mirror of refsvm.online.regression (included at the end of online.pyx; same functions, same signatures, same
# OnlineResult and trace; the rules and their sources are in the reference module).  Same list
# operations as the reference (append, remove(p) = the last SV moves into slot p), f summed in numpy's
# pairwise order (pw_dot), the tube decision |y - f| > epsilon with the reference's tolerance.

from refsvm.online.regression import check_regression_arguments

cdef enum:
    REG_OGD = 0
    REG_RBP = 1
    REG_BOGD = 2
    REG_NORMA = 3
    REG_PERCEPTRON = 4
    REG_FORGETRON = 5
    REG_PROJECTRON = 6


cdef Py_ssize_t _reg_pass(Params* P, Counters* c, int alg, double* eps_io, double nu, const Rows* X, const double[::1] y,
                          const int64_t[::1] order, const double[::1] u, Store* SV, double[::1] A,
                          int64_t[::1] age, double[::1] k, int8_t[::1] update_kind, int64_t[::1] n_sv,
                          int64_t[::1] rem_step, int64_t[::1] rem_index, const double[::1] sw,
                          double* loss_sum, double[:, ::1] L, double[::1] dinv, double[::1] aux) noexcept nogil:
    """The pass of refsvm.online.regression (one loop for the seven learners; ``L``, ``dinv``, ``aux``:
    the Projectron's factor buffer of :func:`_factor_buffer`, B + 1 rows, and its d*)."""
    cdef Py_ssize_t step, i, j, r, b, d = P.d
    cdef double f, y_t, s_t, delta, tol, x2, eps_K, s, scale, step_coef, epsilon = eps_io[0]
    cdef double sigma, mu, phi, psi
    cdef SpanStep span
    cdef double shrink = 1.0 - P.eta * P.lam, bound = P.eta * P.max_coef
    cdef double sq_max = 0.0                                 # max ||x||^2 over the SVs held so far
    cdef bint outside
    for j in range(c.b):
        if SV.sq[j] > sq_max:
            sq_max = SV.sq[j]
    for step in range(P.n_steps):
        i = order[step]
        y_t = y[i]
        s_t = sw[i]
        b = c.b
        if b > 0:
            store_kernel_row(SV, b, X, i, P.kernel, P.gamma, P.degree, P.coef0, &k[0])
        c.kernel_evaluations += b
        f = pw_dot(&k[0], &A[0], b) if b > 0 else 0.0       # f_t(x_t), numpy's pairwise order
        delta = y_t - f
        loss_sum[0] += delta * delta                          # squared loss, before the update
        tol = 0.0
        if b > 0:                                             # refsvm.online.regression.residual_tolerance
            x2 = rows_self(X, i, KERNEL_LINEAR, 0.0, 0.0, 0.0)
            eps_K = _kernel_value_error(P, x2 if x2 > sq_max else sq_max)
            tol = (_margin_tolerance(&k[0], &A[0], b, eps_K, _kernel_relative_error(P, x2 if x2 > sq_max else sq_max))
                   + 2.0 * U_ROUND * (fabs(y_t) + fabs(f)))
        outside = fabs(delta) > epsilon + tol                 # |delta_t| > epsilon
        if outside:
            c.mistakes += 1
        if alg == REG_NORMA:
            for j in range(b):
                A[j] *= shrink                                # (1 - eta lam) f_t, every step
            epsilon += P.eta * (s_t - nu) if outside else -(P.eta * nu)   # the tube's gradient step
        if alg == REG_FORGETRON and outside:
            c.M += 1                                          # M_t: the steps outside the tube
        if outside and s_t > 0.0 and alg == REG_PROJECTRON:
            c.updates += 1
            step_coef = P.eta * s_t * (1.0 if delta > 0.0 else -1.0)
            _span_project(P, c, X, i, L, dinv, &k[0], &aux[0], b, &span)   # d* = K^{-1} k_t into aux
            if _projects_mistake(P, &span, b):                # in the span, or B SVs held (authors' rule)
                for j in range(b):
                    A[j] += step_coef * aux[j]                # f += c P k(x_t, .)
                update_kind[step] = 2
            else:
                _factor_grow(L, dinv, c, b, &span)            # L grows by the row [z', delta_t]
                if store_set_row(SV, b, X, i) != 0:
                    SV.failed = True
                if SV.sq[b] > sq_max:
                    sq_max = SV.sq[b]
                A[b] = step_coef
                b += 1
                update_kind[step] = 1
        elif outside and s_t > 0.0:
            c.updates += 1
            update_kind[step] = 1
            if alg == REG_RBP or alg == REG_NORMA or alg == REG_PERCEPTRON or alg == REG_FORGETRON:
                step_coef = P.eta * s_t * (1.0 if delta > 0.0 else -1.0)
            else:
                step_coef = P.eta * s_t * delta
            if alg == REG_RBP and b == P.budget:              # discard a random SV
                r = <Py_ssize_t> (u[step] * b)
                if r > b - 1:
                    r = b - 1
                _swap_remove(SV, A, age, r, b - 1, d)
                rem_step[c.n_removals] = step
                rem_index[c.n_removals] = r
                c.n_removals += 1
                b -= 1
            elif alg == REG_BOGD and b < P.budget:
                for j in range(b):
                    A[j] *= shrink                            # (1 - eta lam) f_t
            elif alg == REG_BOGD and P.authors:               # BOGD.m: drop the oldest SV, shrink, no rescaling
                r = _mc_oldest(age, b)
                _swap_remove(SV, A, age, r, b - 1, d)
                rem_step[c.n_removals] = step
                rem_index[c.n_removals] = r
                c.n_removals += 1
                b -= 1
                for j in range(b):
                    A[j] *= shrink                            # (1 - eta lam) f_t
            elif alg == REG_BOGD:
                r = <Py_ssize_t> (u[step] * b)                # uniform sampling
                if r > b - 1:
                    r = b - 1
                scale = b * shrink / (b - 1)                  # unbiased rescaling, with the shrink
                _swap_remove(SV, A, age, r, b - 1, d)
                rem_step[c.n_removals] = step
                rem_index[c.n_removals] = r
                c.n_removals += 1
                b -= 1
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
            if store_set_row(SV, b, X, i) != 0:               # append (x_t, step_coef)
                SV.failed = True
            if SV.sq[b] > sq_max:
                sq_max = SV.sq[b]
            A[b] = step_coef
            age[b] = P.t0 + step + 1                          # the age (Forgetron, BOGD authors): t
            b += 1
            if alg == REG_FORGETRON and b > P.budget:
                r = 0                                         # the oldest SV
                for j in range(1, b):
                    if age[j] < age[r]:
                        r = j
                sigma = fabs(A[r])
                store_kernel_row_slot(SV, b, r, P.kernel, P.gamma, P.degree, P.coef0, &k[0])
                c.kernel_evaluations += b
                mu = fabs(pw_dot(&k[0], &A[0], b))            # |f'_t(x_r)|
                c_forgetron_shrink(sigma, mu, c.Q, <double> c.M, P.authors, &phi, &psi)
                c.Q = c_forgetron_next_Q(c.Q, psi, phi, <double> c.M)
                for j in range(b):
                    A[j] *= phi                               # f''_t = phi_t f'_t
                _swap_remove(SV, A, age, r, b - 1, d)
                rem_step[c.n_removals] = step
                rem_index[c.n_removals] = r
                c.n_removals += 1
                b -= 1
        elif alg == REG_BOGD:
            for j in range(b):
                A[j] *= shrink
        c.b = b
        n_sv[step] = b
    eps_io[0] = epsilon
    return P.n_steps


def _reg_factor(state, sv, n0, eps_K, kernel, gamma, degree, coef0):
    """The regression Projectron's starting ``(L, diag_max)``: ``state``'s, or the reference's row-by-row
    factorisation of the given SVs' kernel matrix (:func:`refsvm.online.projection.factor_of_matrix`)."""
    if "L" in state:
        return np.asarray(state["L"], dtype=np.float64), float(state["diag_max"])
    if n0 == 0:
        return np.zeros((0, 0)), 0.0
    from refsvm._fast.kernels import kernel_matrix
    S0 = sv if sp.issparse(sv) else np.asarray(sv, dtype=np.float64)
    return factor_of_matrix(kernel_matrix(S0, S0, kernel, gamma, degree, coef0), eps_K)


def _reg_run(int alg, X, y, order, uniforms, budget, kernel, gamma, degree, coef0, eta, lam, max_coef, epsilon,
             sv, alpha, t0, sample_weight, double nu=0.0, state=None, variant="paper"):
    cdef Params P
    cdef Counters c
    cdef double loss = 0.0
    cdef double eps = epsilon
    P.alg = -1
    P.zero_positive = False
    P.authors = variant == "authors"
    P.U = 0.0
    P.kernel = kernel_code(kernel)
    P.plusplus = False
    P.n_steps = order.shape[0]
    P.d = X.shape[1]
    P.budget = -1 if budget is None else int(budget)
    P.gamma = gamma
    P.degree = degree
    P.coef0 = coef0
    _kernel_errors_once(&P, X, sv, kernel, gamma, degree, coef0, alg == REG_PROJECTRON)   # the Projectron's
    P.eta = eta
    P.lam = lam
    P.C = 1.0
    P.max_coef = max_coef
    P.t0 = t0
    n0 = 0 if sv is None else n_rows(sv)
    cap = capacity_for(n0, P.n_steps, budget)
    sparse = sp.issparse(X)
    SV = None if sparse else np.zeros((cap, P.d))
    A = np.zeros(cap)
    age = np.zeros(cap, dtype=np.int64)
    k = np.zeros(cap)
    u = np.zeros(P.n_steps) if uniforms is None else uniforms
    update_kind = np.zeros(P.n_steps, dtype=np.int8)
    n_sv = np.zeros(P.n_steps, dtype=np.int64)
    rem_step = np.zeros(P.n_steps, dtype=np.int64)
    rem_index = np.zeros(P.n_steps, dtype=np.int64)
    state = state or {}
    L0, diag_max = (_reg_factor(state, sv, n0, P.eps_K, kernel, gamma, degree, coef0) if alg == REG_PROJECTRON
                    else (np.zeros((0, 0)), 0.0))
    size = P.budget + 1 if alg == REG_PROJECTRON else 1  # B SVs and row B for this step's z
    L, dinv = _factor_buffer(L0, size, size)
    aux = np.zeros(cap)
    cdef Rows R
    cdef Store S
    rows_init(&R, X)
    store_init(&S, SV, cap, P.d, sparse)
    try:
        if n0:
            store_fill(&S, sv)
            A[:n0] = np.asarray(alpha, dtype=np.float64).reshape(-1)
            age[:n0] = state.get("age", np.arange(-n0, 0))
        c.b = n0
        c.mistakes = c.updates = c.kernel_evaluations = 0
        c.n_removals = 0
        c.Q = float(state.get("Q", 0.0))
        c.M = int(state.get("M", 0))
        c.diag_max = diag_max
        _reg_pass(&P, &c, alg, &eps, nu, &R, y, order, u, &S, A, age, k, update_kind, n_sv, rem_step, rem_index,
                  sample_weight, &loss, L, dinv, aux)
        if S.failed:
            raise MemoryError("could not allocate a sparse support vector")
        b = c.b
        trace = OnlineRecorder.assemble(c.mistakes, P.n_steps, c.updates, c.kernel_evaluations, update_kind, n_sv,
                                        rem_step[:c.n_removals].copy(), rem_index[:c.n_removals].copy())
        trace["squared_loss"] = float(loss)
        return OnlineResult(sv=store_export(&S, b) if S.sparse else SV[:b].copy(),
                            alpha=A[:b].reshape(-1, 1).copy(), bias=np.zeros(1), t=int(t0 + P.n_steps),
                            state=_reg_state(alg, eps, c.Q, c.M, age[:b], L[:b, :b], c.diag_max, P.authors),
                            trace=trace)
    finally:
        store_free(&S)


def regression_ogd(X, y, order, *, eta, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                   state=None, sample_weight=None):
    """Regression OGD (see :func:`refsvm.online.regression.regression_ogd`)."""
    X, y, order, _ = check_regression_arguments(
        X, y, order, algorithm="ogd", epsilon=epsilon, eta=eta, sv=sv, alpha=alpha, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, t0=t0)
    return _reg_run(REG_OGD, X, y, order, None, None, kernel, gamma, degree, coef0, eta, 0.0, 1.0, epsilon, sv,
                    alpha, t0, weights_as_data(sample_weight, X.shape[0]))


def regression_rbp(X, y, order, uniforms, *, budget, eta, epsilon, kernel, gamma, degree, coef0, sv=None,
                   alpha=None, t0=0, state=None, sample_weight=None):
    """Regression RBP (see :func:`refsvm.online.regression.regression_rbp`)."""
    X, y, order, uniforms = check_regression_arguments(
        X, y, order, uniforms, algorithm="rbp", epsilon=epsilon, eta=eta, sv=sv, alpha=alpha, budget=budget,
        kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, t0=t0)
    return _reg_run(REG_RBP, X, y, order, uniforms, budget, kernel, gamma, degree, coef0, eta, 0.0, 1.0, epsilon,
                    sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]))


def regression_bogd(X, y, order, uniforms, *, budget, eta, lam, max_coef, epsilon, kernel, gamma, degree, coef0,
                    sv=None, alpha=None, t0=0, state=None, sample_weight=None, variant="paper"):
    """Regression BOGD (see :func:`refsvm.online.regression.regression_bogd`)."""
    X, y, order, uniforms = check_regression_arguments(
        X, y, order, uniforms, algorithm="bogd", epsilon=epsilon, eta=eta, sv=sv, alpha=alpha, budget=budget,
        kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, t0=t0, lam=lam, max_coef=max_coef, variant=variant)
    return _reg_run(REG_BOGD, X, y, order, uniforms, budget, kernel, gamma, degree, coef0, eta, lam, max_coef,
                    epsilon, sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), state=state, variant=variant)


def regression_norma(X, y, order, *, eta, lam, nu, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None,
                     t0=0, state=None, sample_weight=None):
    """Norma with an adaptive tube (see :func:`refsvm.online.regression.regression_norma`)."""
    X, y, order, _ = check_regression_arguments(
        X, y, order, algorithm="norma", epsilon=epsilon, eta=eta, sv=sv, alpha=alpha, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, t0=t0, lam=lam, nu=nu)
    return _reg_run(REG_NORMA, X, y, order, None, None, kernel, gamma, degree, coef0, eta, lam, 1.0,
                    float((state or {}).get("epsilon", epsilon)), sv, alpha, t0,
                    weights_as_data(sample_weight, X.shape[0]), nu)


def _reg_state(alg, eps, Q, M, age, L, diag_max, authors):
    """The state that continues a regression run (the reference's keys)."""
    if alg == REG_BOGD and authors:
        return {"age": age.copy()}
    if alg == REG_NORMA:
        return {"epsilon": eps}
    if alg == REG_FORGETRON:
        return {"Q": float(Q), "M": int(M), "age": age.copy()}
    if alg == REG_PROJECTRON:
        return {"L": np.tril(L), "diag_max": float(diag_max)}
    return {}


def regression_perceptron(X, y, order, *, eta, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None, t0=0,
                          state=None, sample_weight=None):
    """Regression perceptron (see :func:`refsvm.online.regression.regression_perceptron`)."""
    X, y, order, _ = check_regression_arguments(
        X, y, order, algorithm="perceptron", epsilon=epsilon, eta=eta, sv=sv, alpha=alpha, kernel=kernel,
        gamma=gamma, degree=degree, coef0=coef0, t0=t0)
    return _reg_run(REG_PERCEPTRON, X, y, order, None, None, kernel, gamma, degree, coef0, eta, 0.0, 1.0, epsilon,
                    sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]))


def regression_forgetron(X, y, order, *, budget, eta, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None,
                         t0=0, state=None, sample_weight=None, variant="paper"):
    """Regression Forgetron (see :func:`refsvm.online.regression.regression_forgetron`)."""
    X, y, order, _ = check_regression_arguments(
        X, y, order, algorithm="forgetron", epsilon=epsilon, eta=eta, sv=sv, alpha=alpha, budget=budget,
        kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, t0=t0, variant=variant)
    return _reg_run(REG_FORGETRON, X, y, order, None, budget, kernel, gamma, degree, coef0, eta, 0.0, 1.0, epsilon,
                    sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), state=state, variant=variant)


def regression_projectron(X, y, order, *, budget, eta, epsilon, kernel, gamma, degree, coef0, sv=None, alpha=None,
                          t0=0, state=None, sample_weight=None):
    """Regression Projectron (see :func:`refsvm.online.regression.regression_projectron`)."""
    X, y, order, _ = check_regression_arguments(
        X, y, order, algorithm="projectron", epsilon=epsilon, eta=eta, sv=sv, alpha=alpha, budget=budget,
        kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, t0=t0, variant="authors")
    return _reg_run(REG_PROJECTRON, X, y, order, None, budget, kernel, gamma, degree, coef0, eta, 0.0, 1.0, epsilon,
                    sv, alpha, t0, weights_as_data(sample_weight, X.shape[0]), state=state, variant="authors")
