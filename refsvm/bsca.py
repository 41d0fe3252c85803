"""BSCA: budgeted stochastic coordinate ascent on the SVM dual (reference implementation).

Algorithm 2 of Qaadan, Schüler, Glasmachers (2019), "Dual SVM training on a
budget", ICPRAM 2019, with the truncated Newton step of its eq. (3) and the
budget maintenance of :mod:`refsvm.budget` (the same removal / projection /
merging as BSGD, all four merge solvers).  The compiled mirror is
:mod:`refsvm._fast.bsca`, same functions, same signatures.

The problem is the dual of the SVM without bias,

    max_alpha  D(alpha) = sum_i alpha_i - 1/2 alpha' Q alpha,   0 <= alpha_i <= C,

``Q_ij = y_i y_j k(x_i, x_j)``, ``C = 1 / (lambda n)`` (the paper's Table 1
gives C).  The weight vector ``w = sum_i alpha_i y_i phi(x_i)`` is replaced by
a budgeted model ``M`` of at most B tuples ``(beta, x~)``.

Algorithm 2 (line numbers used in the comments)::

     1: Input: data (x_1, y_1), ..., (x_n, y_n), kernel k, C > 0, budget B
     2: alpha <- 0, M <- {}
     3: while not happy do
     4:   select index i in {1, ..., n} uniformly at random
     5:   f~(x_i) = sum_{(beta, x~) in M} beta k(x_i, x~)
     6:   delta = [alpha_i + (1 - y_i f~(x_i)) / Q_ii]_0^C - alpha_i     // eq. (3)
     7:   if delta != 0 then
     8:     alpha_i <- alpha_i + delta
     9:     M <- M u {(delta y_i, x_i)}         // erratum: printed (delta, x_i)
    10:     if |M| > B then
    11:       trigger budget maintenance (merge two SVs)
    12:     end if
    13:   end if
    14: end while
    15: return M

Reading of the pseudo-code, errata and choices (``docs/bsca.rst``):

* **Erratum, line 9.**  The model represents ``w = sum_i alpha_i y_i phi(x_i)``,
  so the coefficient added for a step ``delta`` on ``alpha_i`` is
  ``delta * y_i``; the printed ``(delta, x_i)`` would add the wrong sign for
  every negative example.
* **Line 4.**  The visiting order is drawn by the caller (``order``): uniform
  with replacement as printed, or a permutation per epoch (the estimator
  offers both).  ``t`` counts every step, ``t0 + 1, t0 + 2, ...``.
* **Line 6** with ``Q_ii = k(x_i, x_i)`` (``y_i^2 = 1``).  If ``Q_ii = 0``
  (linear or polynomial kernel at a zero vector) the one-dimensional problem
  is linear: ``alpha_i`` goes to C if ``1 - y_i f~ > 0``, to 0 if it is
  ``< 0``, and stays otherwise.
* **Line 9, example already in M** (``sv_update``).  ``"accumulate"``
  (default): if ``x_i`` still occupies a slot of M as an unmerged point, add
  ``delta y_i`` to that slot's coefficient; ``M`` then represents exactly the
  same function as after appending a second copy, but keeps one slot, so
  no maintenance event is triggered.  ``"append"``: always append a new
  tuple, as printed.  A map slot -> example (``sv_source``, -1 for merged
  points and points of an initial model) follows every list operation of
  DESIGN.md (append, swap-remove, merge); so does the inverse map
  example -> slot (with ``"append"`` an example may hold several slots; the
  inverse map then points at one of them or is -1, never at a slot that does
  not hold the example).
* **Line 10.**  With ``budget=None`` there is no maintenance at all: the
  algorithm is plain kernel stochastic dual coordinate ascent (with
  ``"accumulate"`` M then holds each example at most once and equals
  ``w(alpha)`` exactly).  With ``"accumulate"`` a budget ``B >= n`` never
  triggers maintenance either.
* **Steps with delta == 0** change nothing; they are counted
  (``n_zero_steps``).  Revisiting a free variable whose margin was just set
  to 1 (nothing else changed in between) gives ``g = 1 - y_i f~(x_i)`` of the
  order of the rounding error of ``f~``, i.e. a "step" of ~1e-16 that would
  append a noise SV (and, with a full budget, trigger a maintenance event),
  and whose sign depends on the summation order.  We take ``g = 0`` when
  ``|g| <= 1e-12 (1 + sum_j |beta_j k(x_j, x_i)|)`` (a bound on that rounding
  error; the dual gain such a step could make is below 1e-24).  Both paths
  apply the same rule, so their discrete decisions agree.
* No bias (the paper has none); ``bias`` is returned as zeros for the
  common model type.
* **Example weights** (``sample_weight``, not in the paper).  A weight
  ``s_i >= 0`` scales example i's hinge loss in the primal,
  ``1/2 ||w||^2 + C sum_i s_i max(0, 1 - y_i f(x_i))``, whose dual has the box
  ``0 <= alpha_i <= C s_i``.  The weight changes **line 6 only**: the truncated
  Newton step clips at ``C s_i`` instead of ``C``
  (``delta = [alpha_i + g / Q_ii]_0^{C s_i} - alpha_i``); ``n_at_bound`` counts
  ``alpha_i in {0, C s_i}``.  ``s_i = 0`` fixes ``alpha_i = 0`` (the example is
  never added).  ``s_i = 1`` computes ``C * 1.0 == C``: bitwise the unweighted run.
"""

import math
from dataclasses import dataclass, field, replace

import numpy as np
import scipy.sparse as sp

from .budget import (MaintenanceEvent, MaintenanceOptions, MaintenanceRecorder, maintenance_event, new_model, remove_sv,
                     select_smallest, selection_tie_unit)
from .constants import UNIT_ROUNDOFF
from .kernels import Kernel, kernel_diag, kernel_matrix, kernel_value_error_over
from .recorder import StepRecords
from .validation import check_bsca_arguments, check_dual_sample, weights_as_data

SV_UPDATES = ("accumulate", "append")

#: ``g = 1 - y_i f~(x_i)`` with ``|g| <= ZERO_GRADIENT_TOL (1 + sum_j |beta_j k(x_j, x_i)|)``
#: is rounding noise of a margin that is exactly 1 and is taken as 0 (see the module docstring).
ZERO_GRADIENT_TOL = 1e-12
#: The relative test above is only evaluated when ``|g| < ZERO_GRADIENT_PREFILTER`` (it costs O(B)).
ZERO_GRADIENT_PREFILTER = 1e-6


@dataclass
class BSCAResult:
    """What one call of :func:`bsca` returns (both backends).

    The fields ``sv``, ``alpha``, ``bias``, ``t`` and ``trace`` mean what they
    mean for :class:`refsvm.bsgd.BSGDResult` (``alpha`` holds the model's
    coefficients beta); ``dual`` is the n-vector of dual variables and
    ``sv_source`` the example each SV slot holds (-1: merged point or a point
    of the initial model).
    """

    sv: np.ndarray          #: support vectors, shape (n_sv, d)
    alpha: np.ndarray       #: model coefficients beta, shape (n_sv, 1)
    bias: np.ndarray        #: zeros, shape (1,)
    t: int                  #: index of the last step taken
    trace: dict = field(default_factory=dict)  #: diagnostics, see DESIGN.md
    dual: np.ndarray = None       #: dual variables alpha, shape (n,)
    sv_source: np.ndarray = None  #: int64 (n_sv,), example held by each slot or -1
    sv_error: np.ndarray = None   #: with a budget: (n_sv,) bounds of each coefficient's error, else None


def _newton_step(alpha_i, g, q_ii, C, e_f=0.0, e_k=0.0):
    """Alg. 2, line 6 (eq. 3): ``delta = [alpha_i + g / Q_ii]_0^C - alpha_i``, ``g = 1 - y_i f~(x_i)``.

    Returns ``(delta, alpha_i')`` with ``alpha_i'`` the dual after line 8: ``alpha_i + delta``, except
    that a step to the bound C lands on C exactly.  (``alpha_i + (C - alpha_i)`` is within ``2 u C``
    of C but may round to an ulp above it (the dual leaves the box; a continued run then refuses it)
    or below it (``n_at_bound`` misses it), and which one depends on the last bits of ``alpha_i``,
    which differ between the paths.  A step to 0 lands on 0 exactly anyway.)

    The bound tests: the target ``t = alpha_i + g / Q_ii`` is taken as C when ``t >= C - tol`` and as
    0 when ``t <= tol`` (:func:`_target_tolerance`, ``tol = 0`` without ``e_f``, ``e_k``): a repeated
    row (or a linear kernel on a constant column) takes the step to the bound in exact arithmetic,
    and the computed t is then an ulp on either side of it, differently on the two paths.
    """
    if q_ii > 0.0:
        target = alpha_i + g / q_ii
        tol = _target_tolerance(alpha_i, g, q_ii, e_f, e_k)
        target = C if target >= C - tol else (0.0 if target <= tol else target)
    elif g > 0.0:                                   # Q_ii = 0: D is linear in alpha_i
        target = C
    elif g < 0.0:
        target = 0.0
    else:
        target = alpha_i
    delta = target - alpha_i
    return delta, (C if target == C else alpha_i + delta)


def margin_error(k_i, beta, kernel_error):
    """``(S, E_f)``: ``S = sum_j |beta_j k(x_j, x_i)|`` and a bound ``E_f`` of the rounding error of the
    margin ``f~(x_i) = sum_j beta_j k(x_j, x_i)`` on either path.

    Each kernel value errs by at most ``kernel_error`` (:func:`refsvm.kernels.kernel_value_error_over` over
    the rows and the initial SVs: merged Gaussian points are convex combinations, so their norms stay
    below that maximum), which adds ``kernel_error ||beta||_1``; the ``b``-term dot product (BLAS or
    pairwise) adds at most ``(b + 2) u S``.  ``E_f`` is twice their sum, so that coefficients a few
    ulps apart between the paths stay inside.  Where f is 0 or 1 in exact arithmetic (a repeated row
    whose coefficients cancel, a linear kernel on a constant column) the computed value is noise
    within ``E_f`` whose sign differs between the paths.
    """
    s_abs = float(np.abs(k_i) @ np.abs(beta))
    e_f = 2.0 * (kernel_error * float(np.sum(np.abs(beta))) + (len(beta) + 2) * UNIT_ROUNDOFF * s_abs)
    return s_abs, e_f


def _target_tolerance(alpha_i, g, q_ii, e_f, e_k):
    """A bound of the rounding error of the Newton target ``alpha_i + g / Q_ii`` (``Q_ii > 0``), doubled
    (the two paths' states are a few ulps apart): ``g = 1 - y_i f`` errs by ``e_g = e_f + u (2 + |g|)``
    (:func:`margin_error`; the subtraction), ``Q_ii`` by ``e_k`` (one kernel value), the quotient by
    ``u``, the sum by ``u |alpha_i|``: ``e_t = e_g / Q_ii + |g / Q_ii| (3 u + e_k / Q_ii) + u |alpha_i|``."""
    u = UNIT_ROUNDOFF
    e_g = e_f + u * (2.0 + abs(g))
    return 2.0 * (e_g / q_ii + abs(g / q_ii) * (3.0 * u + e_k / q_ii) + u * abs(alpha_i))


def dual_gradient(y_i, f, s_abs, e_f):
    """``g = 1 - y_i f~(x_i)``, ``dD/dalpha_i`` of the budgeted model, taken as 0 when it is rounding
    noise of a margin that is exactly 1: ``|g| <= ZERO_GRADIENT_TOL (1 + S) + E_f``
    (:func:`margin_error`: ``S = sum_j |beta_j k(x_j, x_i)|``, ``E_f`` the kernel values' error,
    which the first term misses when k's terms cancel (linear / poly kernels);
    module docstring; only when ``|g| < ZERO_GRADIENT_PREFILTER``)."""
    g = 1.0 - y_i * f
    if abs(g) < ZERO_GRADIENT_PREFILTER and abs(g) <= ZERO_GRADIENT_TOL * (1.0 + s_abs) + e_f:
        return 0.0                                  # margin 1 up to rounding: a zero step
    return g


def _follow_list_operation(src, where, b_old, p, n):
    """Update the maps slot -> example (``src``) and example -> slot (``where``) after
    remove(p) (``n < 0``) or merge(p, n) (z -> slot p, then remove(n)) on ``b_old`` SVs."""
    last = b_old - 1
    gone = [src[p]] if n < 0 else [src[p], src[n]]
    for e in gone:
        if e >= 0:
            where[e] = -1
    if n < 0:
        src[p] = src[last]                          # remove(p): last -> p
        moved = p
    else:
        src[p] = -1                                 # z is no training example
        src[n] = src[last]                          # remove(n): last -> n
        moved = n
    if moved != last and src[moved] >= 0:
        where[src[moved]] = moved


def bsca(X, y, order, *, budget, C, maintenance="merge", kernel="rbf", gamma=1.0, degree=3,
         coef0=0.0, merge_eps=0.01, projection_ridge=1e-10, merge_solver="gss",
         sv_update="accumulate", sv=None, alpha=None, dual=None, sv_source=None, t0=0,
         sample_weight=None, sv_error=None):
    """Steps of BSCA (Algorithm 2) on the coordinates ``order`` (binary, labels -1/+1).

    Parameters
    ----------
    X : ndarray of shape (n, d), float64
    y : ndarray of shape (n,), int64, labels in {-1, +1}
    order : ndarray of int64
        Coordinates to visit (indices into X), drawn by the caller.
    budget : int or None
        B, the maximal number of SVs (>= 2); ``None``: no budget maintenance.
    C : float
        Upper bound of the dual box, ``C = 1 / (lambda n)``.
    maintenance : {"removal", "projection", "merge"}
        Budget maintenance (:func:`refsvm.budget.maintain`).
    kernel, gamma, degree, coef0
        See :mod:`refsvm.kernels`.
    merge_eps, projection_ridge, merge_solver
        As for :func:`refsvm.bsgd.bsgd`.
    sv_update : {"accumulate", "append"}
        What line 9 does when ``x_i`` already holds an unmerged slot of M
        (see the module docstring).
    sv, alpha, dual, sv_source, t0
        State to continue from: model (``sv`` (n_sv, d), coefficients
        ``alpha`` (n_sv, 1)), dual variables (n,), slot -> example map
        (n_sv,) and step counter.  ``None`` = empty model, ``alpha = 0``.
    sv_error : ndarray of shape (n_sv,) or None
        With a budget: the bounds ``e_j`` of the error that earlier steps and solves put into each coefficient
        (``BSCAResult.sv_error`` of the call continued; :func:`initial_errors`), so that a
        continued run takes the selection's ties as one call does.  ``None``: zeros.
    sample_weight : ndarray of shape (n,), float64, or None
        Weight ``s_i >= 0`` of example ``X[i]`` (indexed like ``y``): its box
        is ``[0, C s_i]`` (line 6; module docstring).  ``None``: all 1.

    Returns
    -------
    BSCAResult
        Trace keys (DESIGN.md): ``n_steps``, ``mistakes`` (online errors,
        ``y_i f~(x_i) <= 0`` before the step), ``n_zero_steps``, ``n_at_bound``,
        ``changed`` and ``added`` (int8 per step), ``maint_step``,
        ``maint_index``, ``maint_partner``, ``weight_degradation``,
        ``maintenance_fraction``, ``kernel_evaluations``,
        ``maintenance_seconds``, ``merge_seconds``.
    """
    X, y, order, s, dual, src0, o = resolve_options(
        X, y, order, budget=budget, C=C, maintenance=maintenance, kernel=kernel, gamma=gamma, degree=degree,
        coef0=coef0, merge_eps=merge_eps, projection_ridge=projection_ridge, merge_solver=merge_solver,
        sv_update=sv_update, sv=sv, alpha=alpha, dual=dual, sv_source=sv_source, t0=t0,
        sample_weight=sample_weight)
    # Alg. 2, line 2: alpha <- 0 (dual), M <- {} (or the state to continue from)
    SV, A, b = new_model(o.capacity(len(src0), len(order), X.shape[0]), X, 1, sv, alpha)
    E = initial_errors(sv_error, b, len(A), budget is not None)   # coefficients' bounds
    src, where = slot_maps(src0, len(A), X.shape[0])
    rec = BSCARecorder(len(order))
    t = t0
    for step, i in enumerate(order):                          # Alg. 2, lines 3-4
        t += 1
        x_i, y_i, C_i = X[i], int(y[i]), o.C * float(s[i])    # C_i = C s_i: the box of a weighted example
        k_i = o.kernel.row(SV[:b], x_i)
        f = float(k_i @ A[:b, 0]) if b > 0 else 0.0          # Alg. 2, line 5: f~(x_i), O(B)
        s_abs, e_f = margin_error(k_i, A[:b, 0], o.kernel_error)   # f's rounding error bound
        rec.margin(b, y_i * f <= e_f, f)                      # online error, f = 0 up to rounding included
        q_ii = float(o.kernel.diag(X[i:i + 1])[0])           # Q_ii = k(x_i, x_i)
        g = dual_gradient(y_i, f, s_abs, e_f)                 # 1 - y_i f~(x_i) = dD/dalpha_i (budgeted)
        delta, dual_i = _newton_step(dual[i], g, q_ii, C_i, e_f, o.kernel_error)   # Alg. 2, line 6 (eq. 3)
        if delta != 0.0:                                      # Alg. 2, line 7
            e_s = 0.0 if E is None else step_error(dual[i], g, q_ii, e_f, o.kernel_error, delta)   # delta's bound
            dual[i] = dual_i                                  # Alg. 2, line 8: alpha_i + delta (C exactly at C)
            rec.mark("changed", step)
            if o.accumulate and where[i] >= 0:                # Alg. 2, line 9, x_i already in M
                A[where[i], 0] += delta * y_i
                _slot_error(E, where[i], e_s, fresh=False)
            else:
                SV[b], A[b, 0] = x_i, delta * y_i             # Alg. 2, line 9: M <- M u {(delta y_i, x_i)}
                src[b], where[i] = i, b                       # the maps slot <-> example
                _slot_error(E, b, e_s, fresh=True)
                b += 1
                rec.mark("added", step)
                if b > o.budget:                              # Alg. 2, line 10
                    b, event = _maintenance_event(o.maintenance, SV, A, b, rec, E)   # Alg. 2, line 11
                    _follow_list_operation(src, where, event.b_before, event.p, event.n)
                    rec.maintenance(step, event, A)
        rec.count("n_at_bound", dual[i] == 0.0 or dual[i] == C_i)
    return BSCAResult(sv=SV[:b].copy(), alpha=A[:b].copy(), bias=np.zeros(1), t=t, trace=rec.trace(),
                      dual=dual, sv_source=src[:b].copy(), sv_error=None if E is None else E[:b].copy())


def step_error(alpha_i, g, q_ii, e_f, e_k, delta):
    """A bound of the error of the coefficient ``delta y_i`` a Newton step writes into a slot (runs with a
    budget, whose selection reads it: :func:`initial_errors`): the target's bound
    ``_target_tolerance`` (already doubled for the other path) plus the subtraction's ``u |delta|``.

    Where ``g = 1 - y_i f`` cancels (a margin near 1), ``E_f / Q_ii`` is the whole size of a small step:
    a coefficient of 5e-10 carries a relative error of 1e-4 (poly kernel, near duplicates), far above
    the selection's relative tie unit, and the two paths then order two such slots differently.
    ``Q_ii = 0`` or a step to a bound: the target is exact (the bound), the term is ``u |delta|``."""
    tol = _target_tolerance(alpha_i, g, q_ii, e_f, e_k) if q_ii > 0.0 else 0.0
    return tol + UNIT_ROUNDOFF * abs(delta)


def _slot_error(E, slot, e, fresh):
    """Slot ``slot``'s bound after a step of bound ``e``: set (``fresh``: a new slot) or added (accumulate).
    Nothing when ``E`` is None (no budget: nothing is tracked)."""
    if E is not None:
        E[slot] = e if fresh else E[slot] + e


def _maintenance_event(opts, SV, A, n_sv, rec, E):
    """Alg. 2, line 11: :func:`refsvm.budget.maintenance_event`, except for removal with the bounds ``E``:
    the selection's ties then read them (:func:`refsvm.budget.select_smallest` with ``errors``, the rule
    projection uses) and ``E`` follows remove(p).  Merging reads them in its choice of m and ``E``
    follows merge(m, n) (:func:`merged_slot_errors`)."""
    if E is not None and opts.strategy == "merge":
        b, event = maintenance_event(opts, SV, A, n_sv, rec, E)
        merged_slot_errors(E, n_sv, event.p, event.n)
        return b, event
    if E is None or opts.strategy != "removal":
        return maintenance_event(opts, SV, A, n_sv, rec, E)
    with rec.maintenance_timer(False):
        p, wd = select_smallest(SV, A, n_sv, *opts.kernel.params, opts.selection_tie_unit, E)   # removal, line 1
        b = remove_sv(SV, A, n_sv, p)                                                           # removal, line 2
        E[p], E[b] = E[b], 0.0                                 # E follows remove(p); a free slot holds 0
    return b, MaintenanceEvent("removal", n_sv, b, p, -1, wd, 0)


def merged_slot_errors(E, n_sv, m, n):
    """``E`` after merge(m, n) on ``n_sv`` SVs (z -> slot m, then remove(n); ``n < 0``: remove(m)).

    z's coefficient ``alpha_z = alpha_m kappa^((1-h)^2) + alpha_n kappa^(h^2)`` (eq. 19) has kernel
    factors in [0, 1], so the errors its inputs carry add up to at most ``e_m + e_n`` (first order; its
    own rounding, a few ``u |alpha_z|``, is within the selection's relative ``tie_unit``)."""
    last = n_sv - 1
    if n < 0:
        E[m], E[last] = E[last], 0.0
        return
    E[m] += E[n]
    E[n], E[last] = E[last], 0.0


def initial_errors(sv_error, b0, capacity, tracked):
    """The per-slot bounds ``e_j`` of the coefficients' error, for a model of ``b0`` SVs: ``sv_error``
    (checked: shape (b0,), finite, >= 0) or zeros, in ``capacity`` slots (free slots hold 0).  Tracked
    (``tracked``) in runs with a budget, whose selection (removal, projection, merging's m) reads them:
    the Newton steps' bounds (:func:`step_error`) and projection's solves' bounds
    (:func:`refsvm.budget.projection_solve_error`).  None otherwise (no budget)."""
    if not tracked:
        return None
    E = np.zeros(capacity)
    if sv_error is not None:
        e = np.asarray(sv_error, dtype=np.float64)
        if e.shape != (b0,) or not np.all(np.isfinite(e)) or np.any(e < 0.0):
            raise ValueError(f"sv_error must hold one finite bound >= 0 per SV ({b0}), got shape {e.shape}")
        E[:b0] = e
    return E


def slot_maps(src0, capacity, n):
    """The maps slot -> example (``src``, -1: merged point or initial model) and example -> slot
    (``where``, -1: not in M) of a model whose first slots hold the examples ``src0``."""
    src = np.full(capacity, -1, dtype=np.int64)
    src[:len(src0)] = src0
    where = np.full(n, -1, dtype=np.int64)
    for slot in range(len(src0)):
        if src[slot] >= 0:
            where[src[slot]] = slot
    return src, where


@dataclass(frozen=True)
class BSCAOptions:
    """The options of one :func:`bsca` call, checked and resolved once (mirrors the twin's ``Params``)."""

    budget: float                       #: B (``math.inf`` for ``budget=None``: no maintenance)
    C: float                            #: the dual box's bound
    kernel: Kernel                      #: the kernel
    accumulate: bool                    #: ``sv_update == "accumulate"``
    maintenance: MaintenanceOptions     #: budget maintenance (``None`` without a budget)
    kernel_error: float = 0.0           #: a bound of one kernel value's rounding error (:func:`margin_error`)

    def capacity(self, b0, n_steps, n):
        """Rows of storage for what the run can use: ``b0`` SVs plus the slots this call can add at
        most (a budget above it, e.g. 10**9, "no pressure", costs nothing), plus one."""
        arriving = min(n_steps, n) if self.accumulate else n_steps
        return min(self.budget, b0 + arriving) + 1


def resolve_options(X, y, order, *, budget, C, maintenance, kernel, gamma, degree, coef0, merge_eps,
                    projection_ridge, merge_solver, sv_update, sv, alpha, dual, sv_source, t0, sample_weight):
    """Check the arguments of :func:`bsca` and resolve its options, once per call.

    Returns ``(X, y, order, s, dual, sv_source, options)``: as :func:`check_bsca_arguments`
    returns them, the example weights ``s`` (ones without weights) and a :class:`BSCAOptions`.
    """
    X, y, order, dual, src0 = check_bsca_arguments(
        X, y, order, budget=budget, C=C, maintenance=maintenance, kernel=kernel, gamma=gamma,
        degree=degree, coef0=coef0, merge_eps=merge_eps, projection_ridge=projection_ridge,
        merge_solver=merge_solver, sv_update=sv_update, sv=sv, alpha=alpha, dual=dual,
        sv_source=sv_source, t0=t0, sample_weight=sample_weight)
    s = weights_as_data(sample_weight, X.shape[0])
    k = Kernel.of(kernel, gamma, degree, coef0)
    maint = None if budget is None else replace(MaintenanceOptions.of(
        maintenance, k, merge_eps, projection_ridge, merge_solver), selection_tie_unit=selection_tie_unit(k, X.shape[1]))
    kernel_error = kernel_value_error_over(k, X, sv)
    maint = maint if maint is None else replace(maint, kernel_error=kernel_error)
    options = BSCAOptions(math.inf if budget is None else budget, C, k, sv_update == "accumulate", maint,
                          kernel_error)
    return X, y, order, s, dual, src0, options


class BSCARecorder(MaintenanceRecorder):
    """The trace of one :func:`bsca` call (keys in DESIGN.md): counters, ``changed``, ``added``, events."""

    flags = ("changed", "added")
    counters = ("mistakes", "n_at_bound", "kernel_evaluations")
    keys = ("n_steps", "mistakes", "n_zero_steps", "n_at_bound", "changed", "added", "maint_step", "maint_index",
            "maint_partner", "weight_degradation", "maintenance_fraction", "kernel_evaluations",
            "maintenance_seconds", "merge_seconds")

    def __init__(self, n_steps):
        super().__init__(n_steps)
        self.steps = StepRecords.when_on(n_steps, 1)          # opt-in per-step records (recorder.py)

    def margin(self, b, mistake, f):
        """``f~(x_i)`` from ``b`` SVs (its kernel row, as BSGD) and the online error ``y_i f~(x_i) <= 0``;
        with per-step records ``f~(x_i)`` itself."""
        self.steps.margin(f)
        self.count("mistakes", mistake)
        self.count("kernel_evaluations", b)

    def maintenance_kernel_evaluations(self, event):
        """Kernel values ``k(x, x')`` of two different points one maintenance event on ``b`` SVs
        computes, counted as for BSGD (diagonal values ``k(x, x)`` are not counted): removal none;
        merging ``k(x_m, x_n)`` for every candidate partner (the SVs of m's sign other than m);
        projection ``(b - 1)^2`` (``K_p`` without its diagonal, both triangles, as both paths
        compute it from scratch, and ``k_p``)."""
        if event.strategy == "projection":
            b = event.b_before
            return (b - 1) * (b - 2) + (b - 1)
        return super().maintenance_kernel_evaluations(event)

    def maintenance(self, step, event, A):
        """The event table's row; with per-step records the merged SV's coefficient, read from ``A`` after it."""
        self.steps.maintenance(event, A)
        super().maintenance(step, event)

    def trace(self):
        n_events = len(self.columns["maint_step"])
        return super().trace(
            n_steps=self.n_steps, n_zero_steps=int(self.n_steps - int(self.step_flags["changed"].sum())),
            maintenance_fraction=n_events / self.n_steps if self.n_steps else 0.0, **self.steps.trace())


# ----------------------------------------------------------------------------
# objectives (monitoring; not part of the algorithm)
# ----------------------------------------------------------------------------

def primal_objective(X, y, sv, alpha, *, C, kernel, gamma, degree, coef0, sample_weight=None):
    """``P(w~) = 1/2 ||w~||^2 + C sum_i s_i max(0, 1 - y_i f~(x_i))`` of the budgeted model.

    ``s_i`` = ``sample_weight[i]`` (``None``: all 1).  Cost: ``n_sv^2 + n n_sv``
    kernel evaluations.
    """
    X = X.tocsr() if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    beta = np.asarray(alpha, dtype=np.float64).reshape(-1)
    s = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if beta.size == 0:
        return float(C * np.sum(s))
    if sp.issparse(X) or sp.issparse(sv):                    # sparse rows: both as CSR
        X, sv = sp.csr_matrix(X), sp.csr_matrix(sv)
    K_M = kernel_matrix(sv, sv, kernel, gamma, degree, coef0)
    f = kernel_matrix(X, sv, kernel, gamma, degree, coef0) @ beta
    hinge = s * np.maximum(0.0, 1.0 - np.asarray(y, dtype=np.float64) * f)
    return float(0.5 * (beta @ K_M @ beta) + C * np.sum(hinge))


def dual_objective(X, y, dual, *, kernel, gamma, degree, coef0, sample=None):
    """``D(alpha) = sum_i alpha_i - 1/2 alpha' Q alpha``.

    Exact: ``nnz(alpha)^2`` kernel evaluations (``nnz`` = number of non-zero
    ``alpha_i``).  For large ``nnz`` pass ``sample``, distinct indices of
    non-zero ``alpha_i`` drawn uniformly without replacement by the caller
    (``m = len(sample)``, at least 2): the diagonal of the quadratic term is
    computed exactly (``nnz`` evaluations) and the off-diagonal sum is
    estimated without bias by ``nnz (nnz - 1) / (m (m - 1))`` times the sample's
    off-diagonal sum (``m^2`` evaluations).
    """
    X = X.tocsr() if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    dual = np.asarray(dual, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    nz = np.flatnonzero(dual)
    v = dual[nz] * y[nz]
    diag = kernel_diag(X[nz], kernel, gamma, degree, coef0)
    if sample is None:
        quad = float(v @ kernel_matrix(X[nz], X[nz], kernel, gamma, degree, coef0) @ v)
    else:
        S = check_dual_sample(dual, sample)
        m, N = len(S), len(nz)
        vs = dual[S] * y[S]
        Q_S = kernel_matrix(X[S], X[S], kernel, gamma, degree, coef0)
        off = float(vs @ Q_S @ vs) - float(np.sum(vs * vs * np.diag(Q_S)))
        quad = float(np.sum(v * v * diag)) + off * (N * (N - 1)) / (m * (m - 1))
    return float(np.sum(dual) - 0.5 * quad)
