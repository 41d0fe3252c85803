# Multi-class Perceptron, RBP and OGD on one shared SV set: the compiled mirror of
# refsvm.online.multiclass (included at the end of online.pyx; same functions, same signatures,
# same OnlineResult and trace; the rule and its sources are in the reference module).
#
# How (not what) differs: the coefficients live class-major, A[r, j] (m, capacity), so that each
# score f^r = pw_dot(k, A[r]) is summed in numpy's pairwise order over a contiguous row, as the
# reference's np.sum(k * alpha[:b, r]); the result hands back alpha = A[:, :b].T (n_sv, m).

from refsvm.online.multiclass import check_multiclass_arguments


cdef inline Py_ssize_t _mc_rival(const double* f, Py_ssize_t m, Py_ssize_t y_t) noexcept nogil:
    """Eq. 9: the highest-scoring class other than y_t, lowest index on ties (refsvm.ogd.rival_class)."""
    cdef Py_ssize_t r, s = -1
    for r in range(m):
        if r != y_t and (s < 0 or f[r] > f[s]):
            s = r
    return s


cdef void _mc_pass(Params* P, Counters* c, Py_ssize_t m, const Rows* X, const int64_t[::1] y,
                   const int64_t[::1] order, const double[::1] u, Store* SV, double[:, ::1] A, double[::1] k,
                   double[::1] f, int8_t[::1] update_kind, int64_t[::1] n_sv, int64_t[::1] rem_step,
                   int64_t[::1] rem_index, const double[::1] sw) noexcept nogil:
    """The pass of the multi-class learners (refsvm.online.multiclass, line by line)."""
    cdef Py_ssize_t step, i, r, s, j, b, last, y_t
    cdef double w_t, step_coef
    cdef bint mistake, step_taken
    for step in range(P.n_steps):
        i = order[step]
        y_t = <Py_ssize_t> y[i]
        w_t = sw[i]                                          # example weight (1: unweighted)
        b = c.b
        if b > 0:
            store_kernel_row(SV, b, X, i, P.kernel, P.gamma, P.degree, P.coef0, &k[0])
        c.kernel_evaluations += b
        for r in range(m):                                   # eq. 8: the m scores
            f[r] = pw_dot(&k[0], &A[r, 0], b) if b > 0 else 0.0
        s = _mc_rival(&f[0], m, y_t)                         # eq. 9: the rival s_t
        if P.zero_positive:                                  # lowest-index argmax (the authors' code)
            mistake = f[s] > f[y_t] or (f[s] == f[y_t] and s < y_t)
        else:
            mistake = f[s] >= f[y_t]
        if mistake:
            c.mistakes += 1
        if P.alg == ALG_OGD:
            step_taken = 1.0 - f[y_t] + f[s] > 0.0            # eq. 9: hinge loss > 0
            step_coef = P.eta * w_t
        else:
            step_taken = mistake
            step_coef = w_t
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
            for j in range(m):
                A[j, b] = 0.0
            A[y_t, b] = step_coef                            # f^y += c k(x_t, .)
            A[s, b] = -step_coef                             # f^s -= c k(x_t, .)
            b += 1
            c.updates += 1
            update_kind[step] = 1
        c.b = b
        n_sv[step] = b


def _run_multiclass(int alg, X, y, order, uniforms, n_classes, budget, kernel, gamma, degree, coef0, eta, sv,
                    alpha, t0, sample_weight, zero_prediction):
    cdef Params P
    cdef Rows R
    cdef Store S
    P.alg = alg
    P.zero_positive = zero_prediction == "positive"
    P.authors = False
    P.U = 0.0
    P.kernel = kernel_code(kernel)
    P.plusplus = False
    P.n_steps = order.shape[0]
    P.d = X.shape[1]
    P.budget = -1 if budget is None else int(budget)
    P.gamma = gamma
    P.degree = degree
    P.coef0 = coef0
    P.eta = eta
    P.lam = 0.0
    P.C = 1.0
    P.max_coef = 1.0
    P.t0 = t0
    n0 = 0 if sv is None else n_rows(sv)
    cap = capacity_for(n0, P.n_steps, budget)
    sparse = sp.issparse(X)                               # sparse X: sparse SV slots (sparse.pxd)
    SV = None if sparse else np.zeros((cap, P.d))
    rows_init(&R, X)
    store_init(&S, SV, cap, P.d, sparse)
    try:
        return _mc_prepared(&P, &R, &S, SV, int(n_classes), sv, alpha, n0, cap, uniforms, sample_weight, y,
                            order, t0)
    finally:
        store_free(&S)


cdef object _mc_prepared(Params* P, const Rows* R, Store* S, object SV, Py_ssize_t m, object sv, object alpha,
                         Py_ssize_t n0, Py_ssize_t cap, object uniforms, object sample_weight, object y,
                         object order, object t0):
    """The pass of :func:`_run_multiclass` over the prepared buffers (the caller frees the store)."""
    cdef Counters c
    A = np.zeros((m, cap))
    if n0:
        store_fill(S, sv)
        A[:, :n0] = np.asarray(alpha, dtype=np.float64).reshape(n0, m).T
    c.b = n0
    c.mistakes = c.updates = c.kernel_evaluations = 0
    c.n_removals = 0
    c.Q = 0.0
    c.M = 0
    k = np.zeros(cap)
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
    with nogil:
        _mc_pass(P, &c, m, R, yv, ov, uv, S, Av, kv, fv, ukv, nsv, rsv, riv, swv)
    b = c.b
    trace = OnlineRecorder.assemble(c.mistakes, P.n_steps, c.updates, c.kernel_evaluations, update_kind, n_sv,
                                    rem_step[:c.n_removals].copy(), rem_index[:c.n_removals].copy())
    if S.failed:
        raise MemoryError("could not allocate a sparse support vector")
    return OnlineResult(sv=store_export(S, b) if S.sparse else SV[:b].copy(), alpha=np.ascontiguousarray(A[:, :b].T),
                        bias=np.zeros(1), t=int(t0 + P.n_steps), state={}, trace=trace)


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
