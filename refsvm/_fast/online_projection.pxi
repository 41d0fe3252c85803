# The Projectron's factor ``K = L L'`` on the compiled path, binary and multi-class (included by online.pyx
# before the passes that use it): the span tolerance, the two triangular solves (fastmath.h), the factor
# buffer, and one step's projection (SpanStep: refsvm.online.projection.Span), its decisions and the
# factor's growth, each the mirror of the reference's function named in its docstring.


cdef inline double _span_tolerance(Py_ssize_t b, double k_tt, double diag_max, double d_l1,
                                   double eps_K) noexcept nogil:
    """:func:`refsvm.online.projection.span_tolerance` (the same expression)."""
    cdef double R = sqrt(k_tt if k_tt > 0.0 else 0.0) + sqrt(diag_max) * d_l1
    return SPAN_SAFETY_C * ((b + 2) * U_ROUND * R * R + eps_K * (1.0 + d_l1) * (1.0 + d_l1))


cdef inline double _projectron_tolerance(const double* k, const double* a, const double* E, Py_ssize_t b,
                                         double eps_K, double rel_K) noexcept nogil:
    """:func:`refsvm.online.projection.projectron_margin_tolerance` (``b > 0``): the margin tolerance of
    ``alpha`` plus ``2 u sum_j e_j |k_j|`` (the coefficients' own error; summed in slot order)."""
    cdef double s = 0.0
    cdef Py_ssize_t j
    for j in range(b):
        s += E[j] * fabs(k[j])
    return _margin_tolerance(k, a, b, eps_K, rel_K) + 2.0 * U_ROUND * s


cdef inline double _projectron_tolerance_cap(const Params* P, Py_ssize_t b, double sum_a, double sum_e) noexcept nogil:
    """An upper bound of :func:`_projectron_tolerance` from ``S_a = sum_j |alpha_j|`` and ``S_e = sum_j e_j``
    alone (O(1)): the Gaussian kernel's values are at most 1, so ``S_ak <= S_a`` and ``sum_j e_j |k_j| <= S_e``:
    ``2 ((b + 2) u S_a + eps_K S_a + u S_e)``, enlarged by 1e-6 for the sums' and the kernel values'
    rounding; INFINITY for the other kernels.  A filter of the compiled path only: a margin clear of it
    (``y f`` above it, and for Projectron++ at least 1 or below 1 minus it) is decided as with the exact
    ``tol_f``, so the O(b) sums are skipped there (the reference computes them at every step)."""
    if P.kernel != KERNEL_RBF:
        return INFINITY
    return 2.0 * ((b + 2) * U_ROUND * sum_a + P.eps_K * sum_a + U_ROUND * sum_e) * (1.0 + 1e-6)


cdef inline void _project_coefficients(double* A, double* E, double c, const double* d, Py_ssize_t b,
                                       double* sum_a, double* sum_e) noexcept nogil:
    """:func:`refsvm.online.projection.project_coefficients`: ``alpha += c d*`` and ``e_j += |alpha_j| +
    (b + 3) |c d*_j|`` (the same operations: ``e`` bitwise equal to the reference's for equal inputs);
    ``sum_a`` / ``sum_e`` become ``sum_j |alpha_j|`` / ``sum_j e_j`` (:func:`_projectron_tolerance_cap`)."""
    cdef Py_ssize_t j
    cdef double step, sa = 0.0, se = 0.0
    for j in range(b):
        step = c * d[j]
        A[j] += step
        E[j] += fabs(A[j]) + (b + 3) * fabs(step)
        sa += fabs(A[j])
        se += E[j]
    sum_a[0] = sa
    sum_e[0] = se


cdef extern from "fastmath.h" nogil:
    void refsvm_forward_solve(const double* M, Py_ssize_t ld, const double* dinv, double* z, Py_ssize_t b)
    double refsvm_backward_solve(const double* M, Py_ssize_t ld, const double* dinv, double* d, Py_ssize_t b)


cdef inline void _forward_solve(const double[:, ::1] M, const double* dinv, double* z,
                                Py_ssize_t b) noexcept nogil:
    """``z <- L^{-1} z`` (forward substitution, column-oriented: column ``j`` of ``L`` is read
    contiguously from row ``j`` of ``M``'s upper triangle, see :func:`_factor_buffer`; multiplied
    by ``dinv[j] = 1 / L[j, j]``; fastmath.h ``refsvm_forward_solve``, four columns per sweep);
    backward stable (Higham Thm 8.5, one more rounding per entry for the reciprocal: within the
    span tolerance's ``(b + 2) u``)."""
    refsvm_forward_solve(&M[0, 0], M.shape[1], dinv, z, b)


cdef inline double _backward_solve(const double[:, ::1] M, const double* dinv, double* d,
                                   Py_ssize_t b) noexcept nogil:
    """``d <- L^{-T} d`` (backward substitution, column-oriented for ``L'``: row ``j`` of ``L`` is
    column ``j`` of ``L'``, read contiguously from ``M``'s lower triangle; multiplied by
    ``dinv[j] = 1 / L[j, j]``; fastmath.h ``refsvm_backward_solve``); backward stable (Higham
    Thm 8.5).  Returns ``||d||_1`` of the result."""
    return refsvm_backward_solve(&M[0, 0], M.shape[1], dinv, d, b)


def _triangular_solves(L, k):
    """``(z, d, ||d||_1)`` with ``z = L^{-1} k`` and ``d = L^{-T} z`` as the Projectron's step computes
    them (the factor buffer of :func:`_factor_buffer` and the two solves; for the tests)."""
    L = np.asarray(L, dtype=np.float64)
    b = L.shape[0]
    M, dinv = _factor_buffer(L, b + 1, b + 1)
    z = np.array(k, dtype=np.float64)
    if z.shape != (b,):
        raise ValueError(f"k must have {b} entries, got shape {z.shape}")
    z = np.r_[z, 0.0]
    cdef double[:, ::1] Mv = M
    cdef double[::1] zv = z
    cdef double[::1] dv = dinv
    _forward_solve(Mv, &dv[0], &zv[0], b)
    d = z.copy()
    cdef double[::1] d_v = d
    l1 = _backward_solve(Mv, &dv[0], &d_v[0], b)
    return z[:b], d[:b], l1


def _factor_buffer(L, size, n_dinv):
    """The Projectron's factor buffer: ``size x size`` with ``L`` in its lower triangle (diagonal
    included) and ``L'`` in its strict upper triangle (row ``j`` holds row ``j`` of ``L`` left of
    the diagonal and column ``j`` of ``L`` right of it), so both substitutions read contiguous
    rows; and ``dinv``, the reciprocals of ``L``'s diagonal (``n_dinv >= size`` entries: the SV
    capacity, so it never grows)."""
    n = L.shape[0]
    M = np.zeros((size, size))
    M[:n, :n] = np.tril(L) + np.tril(L, -1).T
    dinv = np.zeros(max(n_dinv, 1))
    with np.errstate(divide="ignore"):
        dinv[:n] = 1.0 / np.diagonal(L)
    return M, dinv


cdef struct SpanStep:
    double k_tt                # k(x_t, x_t)
    double Pk_sq               # ||P k_t||^2 = z'z
    double delta_sq            # delta_t^2 = k_tt - z'z (computed)
    double tol                 # its error bound (_span_tolerance)
    double delta               # 0 in the span, else sqrt(delta_sq)
    bint in_span               # delta_sq <= tol


cdef inline void _span_project(const Params* P, Counters* c, const Rows* X, Py_ssize_t i, double[:, ::1] L,
                               double[::1] dinv, const double* k, double* d_star, Py_ssize_t b,
                               SpanStep* out) noexcept nogil:
    """:meth:`refsvm.online.projection.SpanFactor.project` (binary and multi-class Projectrons; needs
    ``b + 1 <= L.shape[0]``): ``z = L^{-1} k_t`` into row ``b`` of ``L`` (the row an added SV keeps),
    ``d* = L^{-T} z`` into ``d_star``, ``||P k_t||^2``, ``delta_t^2`` and the span test; ``k(x_t, x_t)``
    is one kernel value."""
    cdef Py_ssize_t j
    cdef double* zrow = &L[b, 0]
    cdef double d_l1
    out.k_tt = rows_self(X, i, P.kernel, P.gamma, P.degree, P.coef0)
    c.kernel_evaluations += 1
    for j in range(b):
        zrow[j] = k[j]
    _forward_solve(L, &dinv[0], zrow, b)
    out.Pk_sq = pw_dot(zrow, zrow, b)                       # ||P k_t||^2 = z'z
    for j in range(b):
        d_star[j] = zrow[j]
    d_l1 = _backward_solve(L, &dinv[0], d_star, b)          # d* = L^{-T} z; its 1-norm
    out.delta_sq = out.k_tt - out.Pk_sq
    out.tol = _span_tolerance(b, out.k_tt, c.diag_max, d_l1, P.eps_K)
    out.in_span = out.delta_sq <= out.tol                   # x_t in the span within rounding
    out.delta = 0.0 if out.in_span else sqrt(out.delta_sq)


cdef inline bint _projects_mistake(const Params* P, const SpanStep* sp, Py_ssize_t b) noexcept nogil:
    """:func:`refsvm.online.projection.projects_mistake`."""
    return sp.in_span or (b > 0 and ((not P.authors and sp.delta_sq <= P.eta * P.eta + sp.tol)
                                     or (P.budget >= 0 and b == P.budget)))


cdef inline void _factor_grow(double[:, ::1] L, double[::1] dinv, Counters* c, Py_ssize_t b,
                              const SpanStep* sp) noexcept nogil:
    """:meth:`refsvm.online.projection.SpanFactor.append` (outside the span): ``L[b, b] = delta_t``
    beside the ``z`` :func:`_span_project` left in row ``b``, mirrored into column ``b``."""
    cdef Py_ssize_t j
    L[b, b] = sqrt(sp.delta_sq)
    dinv[b] = 1.0 / L[b, b]
    for j in range(b):
        L[j, b] = L[b, j]                                   # L' by the column (upper triangle)
    if sp.k_tt > c.diag_max:
        c.diag_max = sp.k_tt


cdef inline bint _margin_step(const Params* P, const SpanStep* sp, Py_ssize_t b, double loss, double cap,
                              double* tau_out) noexcept nogil:
    """Projectron++'s margin-error step: ``tau = min(loss / ||P k_t||^2, cap)`` and whether ``beta =
    tau (2 loss - tau ||P k_t||^2 - penalty) >= 0`` (:func:`refsvm.online.projection.margin_step`);
    False when ``b = 0`` or ``||P k_t||^2 = 0``."""
    cdef double tau, penalty
    if not (b > 0 and sp.Pk_sq > 0.0):
        return False
    tau = loss / sp.Pk_sq
    if tau > cap:                                           # step cap: the mistake step s_t
        tau = cap
    if P.authors:
        penalty = 2.0 * P.U * sp.delta                      # Lu et al.'s code: U in place of 1 / eta
    elif P.eta > 0.0:
        penalty = 2.0 * sp.delta / P.eta
    else:
        penalty = 0.0 if sp.delta == 0.0 else INFINITY
    tau_out[0] = tau
    return tau * (2.0 * loss - tau * sp.Pk_sq - penalty) >= 0.0


cdef object _initial_factor(Params* P, dict state, object S0, Py_ssize_t cap, bint projectron, object kernel,
                           object gamma, object degree, object coef0):
    """``(L, dinv, diag_max)`` a Projectron's pass starts from (binary and multi-class): the factor buffer
    (:func:`_factor_buffer`, room for ``min(cap, max(64, 2 n0))`` SVs) of ``state["L"]``, or of the
    reference's row-by-row factorisation of the SVs ``S0`` (None: none); the other learners get a
    1 x 1 buffer."""
    n0 = 0 if S0 is None else n_rows(S0)
    if not projectron:
        L, dinv = _factor_buffer(np.zeros((0, 0)), 1, 1)
        return L, dinv, 0.0
    L0, diag_max = np.zeros((0, 0)), 0.0                  # the Projectron's Cholesky factor L of K
    if n0 and "L" in state:
        L0, diag_max = np.asarray(state["L"], dtype=np.float64), float(state["diag_max"])
    elif n0:                                               # the reference's factorisation, row by row
        from refsvm._fast.kernels import kernel_matrix
        L0, diag_max = factor_of_matrix(kernel_matrix(S0, S0, kernel, gamma, degree, coef0), P.eps_K)
    L, dinv = _factor_buffer(L0, min(cap, max(64, 2 * n0)), cap)   # L and L', 1 / L[j, j]
    return L, dinv, diag_max


def _grown_factor(L, b, cap):
    """The factor buffer doubled (at most ``cap``), the first ``b`` rows and columns kept."""
    size = min(cap, 2 * L.shape[0])
    grown = np.zeros((size, size))
    grown[:b, :b] = L[:b, :b]
    return grown
