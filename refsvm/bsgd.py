"""BSGD: budgeted stochastic gradient descent (reference implementation).

Algorithm 1 of Wang, Crammer, Vucetic (2012), "Breaking the curse of
kernelization: budgeted stochastic gradient descent for large-scale SVM
training", JMLR 13, 3103-3131, with the learning rates of its Table 2, the
multi-class extension of its section 5 (Crammer–Singer) and the budget
maintenance strategies of its section 6 (:mod:`refsvm.budget`).
The compiled mirror is :mod:`refsvm._fast.bsgd`, same function, same signature.

Algorithm 1 (binary; multi-class replaces ``beta_t`` by a row vector)::

     1: Input: data S, kernel k, regularization parameter lambda, budget B
     2: Initialize: b = 0, w_1 = 0
     3: for t = 1, 2, ... do
     4:   receive (x_t, y_t)
     5:   w_{t+1} <- (1 - eta_t lambda) w_t
     6:   if l(w_t; (x_t, y_t)) > 0 then
     7:     w_{t+1} <- w_{t+1} + Phi(x_t) beta_t        // add an SV
     8:     b <- b + 1
     9:     if b > B then
    10:       w_{t+1} <- w_{t+1} - Delta_t             // budget maintenance
    11:       b <- b - 1
    12:     end if
    13:   end if
    14: end for
    15: Output: f_{t+1}(x)

Notes on the reading of the pseudo-code:

* Line 3 prints ``for i = t, 2, ...``; it means ``t = 1, 2, ...``.  ``t`` counts
  every example visited (not only SV additions) and continues across epochs.
* Line 6 uses ``w_t`` (before the scaling of line 5).
* ``beta_t = eta_t y_t`` (binary, eq. 4); multi-class: ``+eta_t`` for the true
  class ``y_t``, ``-eta_t`` for the highest-scoring wrong class ``r_t`` (sec. 5).
* Margin Perceptron (lambda = 0) is followed by the projection onto the ball of
  radius U, ``w <- min(1, U/||w||) w``, after line 12 (section 4, Theorem 3).
* The bias term is zero in the paper (footnote 2).  With ``fit_bias=True`` an
  unregularised bias takes the subgradient step ``b <- b + beta_t`` and is never
  scaled (an extension, off by default).
* The learning rate of Pegasos at ``t = 1`` is ``1/lambda``, so line 5 scales
  the (empty) model by zero, exactly as printed.
"""

import math
from dataclasses import dataclass, field, replace

import numpy as np

from .budget import (MaintenanceOptions, MaintenanceRecorder, conditioning_errors, find_duplicate, maintenance_event,
                     new_model)
from .kernels import Kernel, kernel_value_error_over
from .sparse import is_sparse, n_rows
from .online.common import margin_tolerance
from .recorder import StepRecords
from .tolerance import KernelErrorBound
from .validation import check_bsgd_arguments, check_removal_draws, weights_as_data

LEARNING_RATES = ("pegasos", "norma", "perceptron")


@dataclass
class BSGDResult:
    """What one pass of :func:`bsgd` returns (both backends)."""

    sv: np.ndarray        #: support vectors, shape (n_sv, d)
    alpha: np.ndarray     #: coefficients, shape (n_sv, c)
    bias: np.ndarray      #: bias, shape (c,)
    t: int                #: index of the last step taken
    trace: dict = field(default_factory=dict)  #: diagnostics, see DESIGN.md


def learning_rate_at(learning_rate, t, lam, eta):
    """``eta_t`` of Table 2: pegasos ``1/(lambda t)``, norma ``eta/sqrt(t)``, perceptron ``eta``."""
    if learning_rate == "pegasos":
        return 1.0 / (lam * t)
    if learning_rate == "norma":
        return eta / math.sqrt(t)
    if learning_rate == "perceptron":
        return eta
    raise ValueError(f"learning_rate must be one of {LEARNING_RATES}, got {learning_rate!r}")


def bsgd(X, y, order, *, n_classes, budget, lam, learning_rate, eta, radius,
         maintenance, kernel, gamma, degree, coef0, merge_eps, projection_ridge,
         fit_bias, sv=None, alpha=None, bias=None, t0=0, merge_solver="gss", merge_compare=False,
         sample_weight=None, uniforms=None):
    """One pass of BSGD (Algorithm 1) over the examples ``X[order]``.

    Parameters
    ----------
    X : ndarray of shape (n, d), float64, or scipy sparse matrix
        A sparse X is read as CSR without a dense copy and gives sparse SVs
        (:mod:`refsvm.sparse`); ``result.sv`` is then a CSR matrix.
    y : ndarray of shape (n,), int64
        Binary problems (``n_classes == 2``): labels in {-1, +1}.
        Multi-class problems: labels in ``0 .. n_classes - 1``.
    order : ndarray of int64
        Visiting order (indices into X), drawn by the caller.
    n_classes : int
        2 for a binary model (one coefficient column), c >= 3 for Crammer–Singer.
    budget : int
        B, the maximal number of SVs after each step.
    lam : float
        lambda of eq. (1); ignored (taken as 0) for the perceptron.
    learning_rate : {"pegasos", "norma", "perceptron"}
        Table 2.
    eta : float
        The constant eta of Norma and Margin Perceptron.
    radius : float
        U, the radius of the ball the perceptron's w is projected onto (BMP, section 4);
        ``inf``: the margin perceptron without the ball (MP, MP+stop, MP+random of
        section 7.3), which then keeps no kernel matrix of its SVs.
    maintenance : {"removal", "projection", "merge", "random-removal", "stop"}
        Budget maintenance of Algorithm 2 (:mod:`refsvm.budget`), or one of the two removal
        baselines of section 7.3 (:data:`refsvm.budget.BSGD_MAINTENANCE`): ``"random-removal"``
        removes the SV in slot ``floor(u_t (B + 1))`` (MP+random), ``"stop"`` the SV just added
        (MP+stop: the model stops growing at the budget; with Pegasos' scaling it still shrinks).
    kernel, gamma, degree, coef0
        See :mod:`refsvm.kernels`.
    merge_eps : float
        Precision of the golden-section search of merging with
        ``merge_solver="gss"`` (and of the ``gss`` column of the comparison mode).
    projection_ridge : float
        Ridge added to ``K_p`` in projection.
    fit_bias : bool
        Learn an unregularised bias (extension; the paper has none).
    sv, alpha, bias, t0
        Model to continue from (``None`` = empty model, ``t0 = 0``).
    merge_solver : {"gss", "gss-precise", "lookup-h", "lookup-wd"}
        How merging solves each candidate pair (:func:`refsvm.budget.maintain_merge`):
        golden-section search to ``merge_eps`` or to ``1e-10``, or the lookup
        tables of :mod:`refsvm.lookup` (binary only; ValueError otherwise).
    merge_compare : bool
        Comparison mode (binary merging only): on every maintenance event also
        evaluate the decisions of all four solvers on the same candidate set
        (:func:`refsvm.budget.merge_compare`, before the merge; the run itself is
        unchanged and the time is not counted) and add ``compare_same_decision``,
        ``compare_wd_factor`` and ``compare_wd`` (n_events x 4, columns
        gss, gss-precise, lookup-h, lookup-wd) to the trace.
    sample_weight : ndarray of shape (n,), float64, or None
        Weight ``s_i >= 0`` of example ``X[i]`` (``None``: all 1).  The
        weighted loss ``s_i l(w; (x_i, y_i))`` scales the subgradient, so
        Alg. 1, line 7 adds the SV with ``beta_t = s_i eta_t y_t`` (binary;
        multi-class ``+-s_i eta_t``; the bias step likewise); an example with
        ``s_i = 0`` has zero loss and adds nothing (line 6).  Line 5 (the
        regulariser) and the online mistake count are unchanged.
    uniforms : ndarray of shape (len(order),), float64, or None
        ``u_t`` in [0, 1), one per step, drawn by the caller: read by
        ``maintenance="random-removal"`` (required there, refused by every other strategy).

    Returns
    -------
    BSGDResult
    """
    X, y, order, s, u, o = resolve_options(
        X, y, order, n_classes=n_classes, budget=budget, lam=lam, learning_rate=learning_rate, eta=eta,
        radius=radius, maintenance=maintenance, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0,
        merge_eps=merge_eps, projection_ridge=projection_ridge, fit_bias=fit_bias, sv=sv, alpha=alpha,
        bias=bias, t0=t0, merge_solver=merge_solver, merge_compare=merge_compare, sample_weight=sample_weight,
        uniforms=uniforms)
    SV, A, b = new_model(o.capacity(sv, len(order)), X, o.c, sv, alpha)   # Alg. 1, line 2: b = 0, w_1 = 0
    w0 = np.zeros(o.c) if bias is None else np.array(bias, dtype=np.float64)
    rec = BSGDRecorder(len(order), X, o)
    kernel_error = KernelErrorBound(X.shape[1], sv, o.kernel)   # the kernel values' (the mistake counter's)
    t = t0
    for step, i in enumerate(order):                          # Alg. 1, line 3
        t += 1
        x_t, y_t, s_t = X[i], int(y[i]), float(s[i])          # Alg. 1, line 4 (s_t: the example's weight)
        eta_t = learning_rate_at(o.learning_rate, t, o.lam, o.eta)
        k_t = o.kernel.row(SV[:b], x_t)                       # k(x_j, x_t) for the SVs
        f = k_t @ A[:b] + w0                                  # f_t(x_t) = sum_j alpha_j k(x_j, x_t) (+ bias), with w_t
        violates, mistake, r_t = hinge_loss_positive(f, y_t, score_tolerance(k_t, A[:b], w0, kernel_error.at(x_t)))
        rec.margin(SV, b, x_t, mistake, f)
        A[:b] *= 1.0 - eta_t * o.lam                          # Alg. 1, line 5
        if violates and s_t > 0.0:                            # Alg. 1, line 6 (weighted: s_t l > 0)
            beta_t = coefficient(eta_t, y_t, s_t, r_t, o.c)   # eq. 4 (scaled by the weight s_t)
            j_dup = find_duplicate(SV, b, x_t) if o.maintenance.strategy == "projection" else -1
            rec.addition(step, j_dup >= 0)
            if o.fit_bias:                                    # unregularised bias (extension)
                w0 += beta_t
            if j_dup >= 0:                                    # Alg. 1, line 7 for x_t = x_j: the same w_{t+1}
                A[j_dup] += beta_t                            # as appending, with no duplicate SV (DESIGN.md)
            else:
                SV[b], A[b] = x_t, beta_t                     # Alg. 1, line 7: add an SV
                b += 1                                        # Alg. 1, line 8
                if b > o.budget:                              # Alg. 1, line 9
                    b, event = maintenance_event(o.maintenance, SV, A, b, rec,    # Alg. 1, lines 10-11
                                                 selection_errors(o.maintenance, SV, A, b),
                                                 None if u is None else u[step])   # u_t: random removal
                    rec.maintenance(step, event, eta_t, A)
        if o.learning_rate == "perceptron" and o.radius < math.inf and b > 0:   # after line 12: w <- min(1, U/||w||) w
            project_onto_ball(o.kernel, SV, A, b, o.radius)   # (BMP, sec. 4; U = inf: MP, the ball never binds)
    return BSGDResult(sv=SV[:b].copy(), alpha=A[:b].copy(), bias=w0, t=t, trace=rec.trace())


# ----------------------------------------------------------------------------
# the lines of Algorithm 1 that are helpers, and the options
# ----------------------------------------------------------------------------

def hinge_loss_positive(f, y_t, tol=0.0):
    """Alg. 1, line 6: ``l(w_t; (x_t, y_t)) > 0`` from the scores ``f = f_t(x_t)``, read within ``tol``.

    Returns ``(loss > 0, mistake, r_t)``: binary (one score) the hinge loss of eq. (1),
    multi-class the loss of eq. (11) with ``r_t = argmax_{i != y_t} f^(i)(x_t)``
    (:func:`rival_class_within`; -1 for binary); ``mistake`` is the online error (diagnostics, not a paper line):
    ``y_t f <= tol``, multi-class ``max_{i != y} f_i >= f_y - tol``, ``tol`` the scores' error bound
    (:func:`score_tolerance`; a margin within rounding of 0 is 0).  The loss is positive unless the
    margin reaches 1 within ``tol`` (:func:`hinge_loss_within`).
    """
    if f.shape[0] == 1:
        q = y_t * f[0]
        return hinge_loss_within(q < 1.0, q, tol), q <= tol, -1   # hinge loss l(w_t; (x_t, y_t)) > 0
    r_t, top = rival_class_within(f, y_t, tol)                # r_t = argmax_{i != y_t} f^(i)(x_t), eq. 11
    loss = hinge_loss_within(1.0 + f[r_t] - f[y_t] > 0.0, f[y_t] - f[r_t], tol)   # multi-class hinge loss (11) > 0
    return loss, top >= f[y_t] - tol, r_t


def hinge_loss_within(positive, margin, tol):
    """Line 6's decision ``margin < 1`` (``margin = y f``, multi-class ``f_y - f_r``; ``positive`` its
    exact-comparison answer) read within ``tol``: a margin with ``|margin - 1| <= tol`` counts as 1,
    i.e. no loss (the side exact arithmetic takes at a margin of exactly 1; it keeps the 156 model
    hashes).  Error bound: ``tol`` (:func:`score_tolerance`) is twice the bound of the error of
    ``f_y - f_r`` (of ``f``, binary), so an exact margin of 1 lies in the band on both paths; outside
    it the exact comparison decides (its own rounding, ``u (1 + |f_r|)``, is below ``tol`` there)."""
    return bool(positive) and not abs(margin - 1.0) <= tol


def rival_class_within(f, y_t, tol):
    """Eq. 11's ``r_t = argmax_{i != y_t} f_i`` read within ``tol``: the lowest class ``i != y_t`` with
    ``f_i >= max_{j != y_t} f_j - tol``; returns ``(r_t, max_{j != y_t} f_j)``.  Error bound: ``tol``
    (:func:`score_tolerance`, over all columns) is twice the bound of the error of ``f_i - f_j``, so
    classes whose scores tie in exact arithmetic are all in the band on both paths (seed 9566: an
    exact tie computed as +-1.3e-15 by BLAS and as 0 by the compiled pairwise sums).  ``tol = 0``:
    the first maximum, as ``np.argmax``."""
    rivals = np.delete(np.arange(f.shape[0]), y_t)
    top = float(np.max(f[rivals]))
    return int(rivals[np.argmax(f[rivals] >= top - tol)]), top


def score_tolerance(k_t, A, w0, eps_K):
    """The mistake counter's tolerance of ``f = k_t' A + w0``: :func:`refsvm.online.common.margin_tolerance`
    with the bias one more term of kernel value 1, the sums over all columns (bounding the sum of two
    scores' tolerances, a multi-class margin); ``eps_K`` bounds one kernel value's error.  Both paths
    (the twin: ``refsvm._fast.tolerance.score_tolerance``)."""
    return margin_tolerance(np.append(k_t, 1.0)[:, None], np.vstack([A, w0]), eps_K)


def coefficient(eta_t, y_t, s_t, r_t, c):
    """``beta_t`` of the new SV, scaled by the example's weight ``s_t``.

    Binary (``c = 1``): ``beta_t = eta_t y_t s_t`` (eq. 4).  Multi-class (sec. 5):
    ``beta^(i) = +eta_t s_t`` for ``i = y_t``, ``-eta_t s_t`` for ``i = r_t``, 0 otherwise.
    """
    if c == 1:
        return np.array([eta_t * y_t * s_t])                  # eq. 4, scaled by the weight
    beta_t = np.zeros(c)
    beta_t[y_t] = eta_t * s_t                                 # beta^(i) = +eta_t s_t for i = y_t
    beta_t[r_t] = -(eta_t * s_t)                              #            -eta_t s_t for i = r_t
    return beta_t


def project_onto_ball(kernel, SV, A, b, radius):
    """Margin Perceptron (sec. 4): ``w <- min(1, U/||w||) w``, ``||w||^2 = sum_i alpha^(i)' K alpha^(i)``."""
    K = kernel.matrix(SV[:b], SV[:b])
    norm_w = math.sqrt(max(float(np.sum(A[:b] * (K @ A[:b]))), 0.0))
    if norm_w > radius:                                       # projection onto the ball of radius U
        A[:b] *= radius / norm_w


def selection_errors(maintenance, SV, A, b):
    """Projection's per-slot bounds ``e_j`` read by the selection (Alg. 2, projection, line 1):
    :func:`refsvm.budget.conditioning_errors` of the ``b`` SVs before the event (None for removal and
    merging, whose selection keeps the exact rule).  Computed from the state at selection time, not
    carried from the earlier solves (DESIGN.md: carried bounds compound through ``|x_j| e_p`` and
    swallowed the selection on a9a)."""
    if maintenance.strategy != "projection":
        return None
    e = conditioning_errors(SV, A, b, *maintenance.kernel.params, maintenance.projection_ridge, maintenance.kernel_error)
    return e if e.any() else None                             # all 0: the exact rule, bitwise (no bound work)


@dataclass(frozen=True)
class BSGDOptions:
    """The options of one :func:`bsgd` call, checked and resolved once (mirrors the twin's ``Params``)."""

    n_classes: int                      #: 2: binary (one coefficient column); c >= 3: Crammer-Singer
    budget: int                         #: B
    learning_rate: str                  #: one of :data:`LEARNING_RATES`
    lam: float                          #: lambda; 0 for the perceptron (Table 2)
    eta: float                          #: eta of Norma and the perceptron
    radius: float                       #: U of the perceptron's ball
    fit_bias: bool                      #: unregularised bias (extension)
    kernel: Kernel                      #: the kernel
    maintenance: MaintenanceOptions     #: budget maintenance, merge solver and tables resolved

    @property
    def c(self):
        """Coefficient columns: 1 for a binary model, ``n_classes`` otherwise."""
        return 1 if self.n_classes == 2 else self.n_classes

    def capacity(self, sv, n_steps):
        """Rows of storage: ``min(B, n_sv + n_steps) + 1`` (b never exceeds ``n_sv + n_steps``,
        so a huge budget allocates nothing up front)."""
        return min(self.budget, (0 if sv is None else n_rows(sv)) + n_steps) + 1


def resolve_options(X, y, order, *, n_classes, budget, lam, learning_rate, eta, radius, maintenance, kernel,
                    gamma, degree, coef0, merge_eps, projection_ridge, fit_bias, sv, alpha, bias, t0,
                    merge_solver, merge_compare, sample_weight, uniforms=None):
    """Check the arguments of :func:`bsgd` and resolve its options, once per call.

    Returns ``(X, y, order, s, u, options)``: the arrays as :func:`check_bsgd_arguments`
    returns them, the example weights ``s`` (ones without weights), the draws ``u`` of
    ``"random-removal"`` (float64, one per step; None for the other strategies, which
    read none) and a :class:`BSGDOptions` (the lookup tables loaded if read).
    """
    X, y, order = check_bsgd_arguments(
        X, y, order, n_classes=n_classes, budget=budget, lam=lam, learning_rate=learning_rate,
        eta=eta, radius=radius, maintenance=maintenance, kernel=kernel, gamma=gamma, degree=degree,
        coef0=coef0, merge_eps=merge_eps, projection_ridge=projection_ridge, merge_solver=merge_solver,
        sv=sv, alpha=alpha, bias=bias, t0=t0, merge_compare=merge_compare)
    u = check_removal_draws(uniforms, maintenance, order.shape[0], budget)
    s = weights_as_data(sample_weight, X.shape[0])
    k = Kernel.of(kernel, gamma, degree, coef0)
    maint = MaintenanceOptions.of(maintenance, k, merge_eps, projection_ridge, merge_solver, compare=merge_compare)
    if maintenance == "projection":                           # one kernel value's error, for the solves' bounds
        maint = replace(maint, kernel_error=kernel_value_error_over(k, X, sv))
    lam = 0.0 if learning_rate == "perceptron" else lam      # Table 2: the perceptron has lambda = 0
    return X, y, order, s, u, BSGDOptions(n_classes, budget, learning_rate, lam, eta, radius, bool(fit_bias), k, maint)


class BSGDRecorder(MaintenanceRecorder):
    """The trace of one :func:`bsgd` pass (keys in DESIGN.md): counters, ``added``, the event table."""

    flags = ("added",)
    counters = ("mistakes", "kernel_evaluations", "duplicate_additions", "kernel_entries")
    keys = ("mistakes", "n_steps", "added", "maint_step", "maint_index", "maint_partner", "weight_degradation",
            "gradient_error_sum", "maintenance_seconds", "merge_seconds", "kernel_evaluations",
            "duplicate_additions", "kernel_entries")

    def __init__(self, n_steps, X, options):
        super().__init__(n_steps, options.maintenance.compare)
        self.sparse, self.d = is_sparse(X), X.shape[1]
        # the ball's K gets z's row after a merge (U = inf: no ball, no K)
        self.keeps_K = options.learning_rate == "perceptron" and options.radius < math.inf
        self.gradient_error_sum = 0.0
        self.steps = StepRecords.when_on(n_steps, options.c)   # opt-in per-step records (recorder.py)

    def margin(self, SV, b, x_t, mistake, f):
        """``f_t(x_t)`` from ``b`` SVs: its kernel row (``b`` evaluations, the entries it reads) and the online error;
        with per-step records the scores ``f`` themselves."""
        self.steps.margin(f)
        self.count("mistakes", mistake)
        self.count("kernel_evaluations", b)                   # k(x, x') of x != x' (DESIGN.md)
        if b > 0:
            self.count("kernel_entries", SV[:b].nnz + x_t.nnz if self.sparse else b * self.d)

    def addition(self, step, duplicate):
        """Alg. 1, line 7 at ``step`` (``duplicate``: x_t joined an equal SV, projection, DESIGN.md)."""
        self.mark("added", step)
        self.count("duplicate_additions", int(duplicate))

    def maintenance(self, step, event, eta_t, A):
        """The event table's row and ``||E_t|| = ||Delta_t|| / eta_t`` (Theorem 1); with per-step records the
        merged SV's coefficient, read from the model ``A`` after the event."""
        self.steps.maintenance(event, A)
        super().maintenance(step, event)
        self.gradient_error_sum += math.sqrt(event.wd) / eta_t   # ||E_t|| = ||Delta_t|| / eta_t (Theorem 1)

    def maintenance_kernel_evaluations(self, event):
        extra = event.b - 1 if event.strategy == "merge" and self.keeps_K and event.n >= 0 else 0
        return super().maintenance_kernel_evaluations(event) + extra   # + the new row of K for z

    def trace(self):
        return super().trace(n_steps=self.n_steps, gradient_error_sum=self.gradient_error_sum, **self.steps.trace())
