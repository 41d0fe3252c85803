"""Budget maintenance: removal, projection and merging of support vectors.

Reference implementation of section 6 and Algorithm 2 of
Wang, Crammer, Vucetic (2012), "Breaking the curse of kernelization: budgeted
stochastic gradient descent for large-scale SVM training", JMLR 13.
BSGD (:mod:`refsvm.bsgd`) and BSCA both call these functions; the compiled
mirror is :mod:`refsvm._fast.budget`.

The algorithms resolve their maintenance options once per call
(:class:`MaintenanceOptions`: strategy, kernel, merge solver, lookup tables
loaded once) and run each event through :func:`maintenance_event` (Alg. 1,
lines 10-11 / Alg. 2, line 11: the step of :func:`maintain_with`, timed, with
the comparison diagnostics and the count of merge candidates), recorded by a
:class:`MaintenanceRecorder`; nothing is checked per event.  The public
functions :func:`maintain`, :func:`maintain_merge` and :func:`merge_compare`
check their arguments, then call the same unchecked functions.

Layout: one module per family, every name importable from ``refsvm.budget``.
:mod:`.removal` holds the list operations every strategy shares, the selection
rule and removal; :mod:`.projection` projection; :mod:`.merging` the merging
coefficient h, the partner search and its tie rule; :mod:`.compare` the
comparison mode of the merge solvers; this module the checked entries
(:func:`maintain`, :func:`maintain_merge`, :func:`merge_compare`), the options
and the maintenance event.  The compiled mirror includes one ``.pxi`` per family
(``refsvm/_fast/budget_removal.pxi``, ...).

The model is held in two arrays with room for ``B + 1`` support vectors (SVs),
``SV`` (capacity, d) and ``alpha`` (capacity, c), of which the first ``n_sv``
rows are in use.  ``c = 1`` for binary models (signed coefficients) and
``c`` = number of classes for multi-class models (Crammer–Singer).  The
functions below change these arrays **in place** and return what they did;
list operations are fixed so that both backends break ties identically:

* remove(p): the last SV moves into slot ``p``;
* merge(m, n): the merged point ``z`` is written into slot ``m``, then remove(n);
* argmin ties go to the lowest index.

Selection of the SV to remove / project / merge (section 6.1, and the
simplification of sections 6.2 and 6.3): ``p = argmin_j ||alpha_j||^2 k(x_j, x_j)``.

BSGD also runs the two removal baselines of section 7.3, which choose ``p`` without
the norm (:data:`BSGD_MAINTENANCE`): ``"random-removal"`` (MP+random: the slot
:func:`random_slot` of a uniform draw the caller makes) and ``"stop"`` (MP+stop: the SV
just added), both through :func:`maintain_removal_at`.

Choices where the paper is silent or wrong (documented in ``docs/bsgd.rst``)
------------------------------------------------------------------------------

*Multi-class merging.*  Eq. (16)–(18) normalise ``alpha_m^(i) + alpha_n^(i)``
per class, which is undefined when the sum vanishes and points the wrong way
when it is negative.  We instead maximise the exact objective behind eq. (19),
``g(h) = sum_i (alpha_m^(i) kappa^((1-h)^2) + alpha_n^(i) kappa^(h^2))^2``,
the squared norm of the merged coefficient; maximising it minimises the weight
degradation ``||Delta||^2`` for ``z = h x_m + (1-h) x_n``.  For a binary pair
of equal sign ``g = (alpha_m + alpha_n)^2 s(h)^2`` with the paper's
``s(h) = m kappa^((1-h)^2) + (1-m) kappa^(h^2)``, ``m = alpha_m/(alpha_m + alpha_n)``
(the weight of ``x_m``, the point ``h`` multiplies), so the maximiser is the
paper's.  ``h`` is searched on the segment ``[0, 1]`` only (``z`` is never
extrapolated beyond ``x_m`` or ``x_n``).

*Which half of the segment.*  For ``kappa < e^-2`` the objective can have two
modes (Glasmachers & Qaadan, Lemma 1) and a golden-section search over
``[0, 1]`` may return the smaller one.  We search ``[1/2, 1]`` when
``g(1) >= g(0)`` and ``[0, 1/2]`` otherwise; for a binary pair this is the rule
"``m >= 1/2``", which picks the dominant mode.

*Binary partners.*  As in Glasmachers & Qaadan, a binary SV is merged only
with SVs of the same sign (``alpha_m alpha_n >= 0``), so ``m`` lies in
``[0, 1]``.  If there is none, the SV is removed instead.

*Projection.*  ``K_p`` is regularised, ``K_p + ridge * max(diag K_p) * I`` with a small named
relative ``ridge`` (``projection_ridge``, default ``1e-10``; :func:`relative_ridge`), so that duplicate SVs
(frequent in data sets with binary features) do not make it singular, whatever the kernel's scale.
"""

import math  # noqa: F401  (the names below are those refsvm.budget held before its split)
from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from ..constants import GOLDEN_RATIO, MERGE_EPS_PRECISE, UNIT_ROUNDOFF  # noqa: F401
from ..kernels import Kernel, kernel_diag, kernel_matrix, kernel_row, sq_dist  # noqa: F401
from ..recorder import Recorder
from ..sparse import SparseRows, n_rows, new_sv_storage, rows_equal  # noqa: F401
from .compare import COMPARE_SOLVERS, _exact_wd, compare_solvers  # noqa: F401
from .merging import (LOOKUP_SOLVERS, MERGE_EPS, MERGE_NEAR_LOG_KAPPA, MERGE_POLISH_STEPS,  # noqa: F401
                      MERGE_POLISH_WIDTH, MERGE_SOLVERS, _lookup, check_merge_solver, class_dot,
                      golden_section_search, least_wd_partner, merge_gain, merge_h, merge_objective, merge_pair,
                      merge_search_objective, merge_smallest, merge_solver_eps, polish_merge_h, wd_tie_unit)
from .projection import (PROJECTION_RIDGE, SOLVE_ERROR_CAP, conditioning_errors, maintain_projection,  # noqa: F401
                         projection_solve_error, relative_ridge)
from .removal import (SOLVE_ERROR_SAFETY, find_duplicate, maintain_removal, maintain_removal_at,  # noqa: F401
                      new_model, random_slot, remove_sv, removal_norm, select_smallest, selection_tie_unit,
                      solve_error_margin)

#: The strategies of section 6 (BSGD and BSCA; the public :func:`maintain` dispatches these).
MAINTENANCE = ("removal", "projection", "merge")
#: BSGD's strategies: section 6's and the two removal baselines of section 7.3 that choose the SV without the
#: norm, ``"random-removal"`` (MP+random: a uniformly drawn SV, the draw ``u_t`` made by the caller) and
#: ``"stop"`` (MP+stop: the SV just added is removed, so the model stops growing at the budget).
BSGD_MAINTENANCE = MAINTENANCE + ("random-removal", "stop")


# ----------------------------------------------------------------------------
# the checked entries: dispatch, merging, comparison mode
# ----------------------------------------------------------------------------

def maintain(strategy, SV, alpha, n_sv, kernel, gamma, degree, coef0, merge_eps, projection_ridge,
             merge_solver="gss", tables=None):
    """Dispatch one budget-maintenance step (Alg. 1, line 10).  Returns ``(n_sv, p, n, WD)``.

    ``merge_solver`` and ``tables`` are passed to :func:`maintain_merge` (ignored by
    removal and projection, but validated).  Validates its arguments
    (:meth:`MaintenanceOptions.resolve`), then :func:`maintain_with`.
    """
    opts = MaintenanceOptions.resolve(strategy, Kernel.of(kernel, gamma, degree, coef0), merge_eps,
                                      projection_ridge, merge_solver, binary=alpha.shape[1] == 1, tables=tables)
    return maintain_with(opts, SV, alpha, n_sv)


def maintain_merge(SV, alpha, n_sv, gamma, eps, merge_solver="gss", tables=None):
    """Merge the smallest SV ``m`` with the partner ``n`` of least weight degradation.

    Gaussian kernel only (``k(x, x) = 1``).  Returns ``(n_sv, m, n, WD)``; ``n``
    is -1 when a binary model has no partner of equal sign and ``m`` was removed.

    ``merge_solver`` (:data:`MERGE_SOLVERS`) selects how each candidate pair is
    solved: ``"gss"`` (golden-section search to bracket width ``eps``),
    ``"gss-precise"`` (width ``MERGE_EPS_PRECISE``, ``eps`` ignored),
    ``"lookup-h"`` (h from the table, then ``alpha_z`` and WD exactly as in
    :func:`merge_pair`) or ``"lookup-wd"`` (candidates ranked by
    ``(alpha_m + alpha_n)^2 WD-table(m, kappa)``; h looked up only for the
    chosen partner).  Lookup solvers need a binary model and read
    ``tables = (h_table, wd_table)`` (``None``: :func:`refsvm.lookup.get_tables`).
    The WD returned is always the exact degradation of the merge performed.

    Every candidate is solved here, as Algorithm 2 reads.  The compiled twin
    skips (binary models, all solvers but Lookup-WD) the candidates whose lower
    bound on WD exceeds the best WD found so far; it picks the same partner
    (docs/lookup.rst, "Partner pruning").

    Validates ``merge_solver`` and loads the tables if needed, then runs
    :func:`merge_smallest` (the algorithm's lines; the algorithms call it through
    :func:`maintain_with` with options resolved once per call).
    """
    opts = MaintenanceOptions.resolve("merge", Kernel("rbf", gamma), eps, merge_solver=merge_solver,
                                      binary=alpha.shape[1] == 1, tables=tables)
    return merge_smallest(SV, alpha, n_sv, gamma, merge_solver_eps(merge_solver, eps), merge_solver, opts.tables)


def merge_compare(SV, alpha, n_sv, gamma, merge_eps, tables=None):
    """Comparison mode: the decisions of all four merge solvers on one merge event (nothing changes).

    With ``m`` fixed as in :func:`maintain_merge` and the same candidate set,
    each solver of :data:`COMPARE_SOLVERS` (``gss`` at ``merge_eps``,
    ``gss-precise``, ``lookup-h``, ``lookup-wd``) picks its partner by its own
    criterion; the *actual* weight degradation of its merge (h as that solver
    would set it, WD recomputed exactly) is then compared with GSS-precise's.
    Binary models only.

    Returns ``(same, factor, wd)``, arrays of shape (4,): ``same[k]`` whether
    solver k picks GSS-precise's partner, ``wd[k]`` the exact WD of solver k's
    merge, ``factor[k] = wd[k] / wd[1]`` (1 when both are 0, inf when only
    ``wd[1]`` is).  Without a partner of equal sign every solver removes ``m``:
    all same, factors 1.
    """
    if alpha.shape[1] != 1:
        raise ValueError("merge_compare needs a binary model (the lookup solvers do not apply to multi-class)")
    tables = MaintenanceOptions.resolve("merge", Kernel("rbf", gamma), merge_eps, compare=True, tables=tables).tables
    return compare_solvers(SV, alpha, n_sv, gamma, merge_eps, tables)


# ----------------------------------------------------------------------------
# options resolved once per call, and the maintenance event of BSGD and BSCA
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class MaintenanceOptions:
    """Budget maintenance as resolved once per call (:meth:`resolve` checks, nothing checks per event)."""

    strategy: str                       #: one of :data:`MAINTENANCE`
    kernel: Kernel                      #: the model's kernel (merging: Gaussian)
    merge_eps: float = MERGE_EPS        #: GSS precision of ``"gss"`` (and of the comparison's gss column)
    projection_ridge: float = PROJECTION_RIDGE
    merge_solver: str = "gss"           #: one of :data:`MERGE_SOLVERS`
    tables: tuple = None                #: ``(h_table, wd_table)`` when a lookup solver or the comparison reads them
    compare: bool = False               #: comparison mode (:func:`merge_compare` on every event)
    selection_tie_unit: float = 0.0     #: removal / projection's tie tolerance (BSCA; :func:`select_smallest`)
    kernel_error: float = 0.0           #: one kernel value's error, for the projection's solve bounds (BSCA)

    @classmethod
    def resolve(cls, strategy, kernel, merge_eps=MERGE_EPS, projection_ridge=PROJECTION_RIDGE, merge_solver="gss",
                *, binary=True, compare=False, tables=None):
        """Check the options (as :func:`refsvm.validation.check_bsgd_arguments` does for the
        algorithms), then :meth:`of`.  The public functions :func:`maintain`,
        :func:`maintain_merge` and :func:`merge_compare` call this, once per call."""
        check_merge_solver(merge_solver, binary or strategy != "merge")
        if strategy not in MAINTENANCE:
            raise ValueError(f"maintenance must be one of {MAINTENANCE}, got {strategy!r}")
        if strategy == "merge" and kernel.kind != "rbf":
            raise ValueError("maintenance='merge' requires kernel='rbf' (merging relies on the Gaussian kernel)")
        if compare and (strategy != "merge" or not binary):
            raise ValueError("merge_compare=True needs maintenance='merge' and a binary model")
        return cls.of(strategy, kernel, merge_eps, projection_ridge, merge_solver, compare=compare, tables=tables)

    @classmethod
    def of(cls, strategy, kernel, merge_eps=MERGE_EPS, projection_ridge=PROJECTION_RIDGE, merge_solver="gss",
           *, compare=False, tables=None):
        """Options already checked: loads the lookup tables if a lookup solver or the comparison
        reads them (``tables=None``), the one place that does."""
        if tables is None and strategy == "merge" and (compare or merge_solver in LOOKUP_SOLVERS):
            from ..lookup import get_tables  # lazy: refsvm.lookup imports this module
            tables = get_tables()
        return cls(strategy, kernel, merge_eps, projection_ridge, merge_solver, tables, bool(compare))


def maintain_with(opts, SV, alpha, n_sv, steps=None, h_out=None, errors=None, u=None):
    """One budget-maintenance step with resolved options (:class:`MaintenanceOptions`), no checks.

    Returns ``(n_sv, p, n, WD)`` as :func:`maintain`.  ``steps``: the functions that run the
    step, ``(maintain_removal, maintain_projection, merge_smallest)``, this module's when None;
    the compiled twin passes its own (one dispatcher serves both paths).  ``h_out``: a merge's h
    (:func:`merge_smallest`; untouched by removal and projection).  ``errors``: BSCA's per-slot bounds
    of the coefficients' error, read by projection (:func:`maintain_projection`) and by merging's
    choice of m (:func:`merge_smallest` with ``opts.selection_tie_unit``); None otherwise (BSGD).
    ``u``: the step's uniform draw in [0, 1), read by ``"random-removal"`` only (BSGD's baselines of
    :data:`BSGD_MAINTENANCE`, run by the reference's :func:`maintain_removal_at` on both paths' dispatch).
    """
    removal, projection, merge = steps or (maintain_removal, maintain_projection, merge_smallest)
    if opts.strategy == "random-removal":                      # MP+random (sec. 7.3): a uniformly drawn SV
        return maintain_removal_at(SV, alpha, n_sv, random_slot(u, n_sv), *opts.kernel.params)
    if opts.strategy == "stop":                                # MP+stop (sec. 7.3): the SV just added, slot n_sv - 1
        return maintain_removal_at(SV, alpha, n_sv, n_sv - 1, *opts.kernel.params)
    if opts.strategy == "removal":
        return removal(SV, alpha, n_sv, *opts.kernel.params, opts.selection_tie_unit)
    if opts.strategy == "projection":
        if errors is None:
            return projection(SV, alpha, n_sv, *opts.kernel.params, opts.projection_ridge, opts.selection_tie_unit)
        return projection(SV, alpha, n_sv, *opts.kernel.params, opts.projection_ridge, opts.selection_tie_unit,
                          errors, opts.kernel_error)
    if errors is None:
        return merge(SV, alpha, n_sv, opts.kernel.gamma, merge_solver_eps(opts.merge_solver, opts.merge_eps),
                     opts.merge_solver, opts.tables, h_out)
    return merge(SV, alpha, n_sv, opts.kernel.gamma, merge_solver_eps(opts.merge_solver, opts.merge_eps),
                 opts.merge_solver, opts.tables, h_out, opts.selection_tie_unit, errors)   # BSCA: m's ties


#: What one maintenance event did: the strategy, the number of SVs before and after,
#: the SV ``p`` removed / projected / merged, its partner ``n`` (-1: none), the weight
#: degradation, the merge candidates ``n`` whose ``k(x_m, x_n)`` it computed, and the
#: merge's ``h`` (eq. 18, as the merge used it; NaN: no merge).
MaintenanceEvent = namedtuple("MaintenanceEvent", "strategy b_before b p n wd candidates h", defaults=(math.nan,))


def maintenance_event(opts, SV, alpha, n_sv, recorder, errors=None, u=None):
    """Alg. 1, lines 10-11 (Wang et al.) / Alg. 2, line 11 (Qaadan et al.), with its record.

    Runs :func:`maintain_with` on ``n_sv = B + 1`` SVs, timed by ``recorder`` (a
    :class:`MaintenanceRecorder`), after the comparison mode's diagnostics (not timed)
    when ``opts.compare``; ``errors`` and ``u``: as :func:`maintain_with`.  Returns ``(n_sv - 1, event)``, a
    :data:`MaintenanceEvent`; the caller hands ``event`` to ``recorder.maintenance``.
    """
    if opts.compare:                                           # diagnostics only, not timed
        recorder.merge_compare(*compare_solvers(SV, alpha, n_sv, opts.kernel.gamma, opts.merge_eps, opts.tables))
    merging = opts.strategy == "merge"
    signs = alpha[:n_sv, 0].copy() if merging and alpha.shape[1] == 1 else None   # for the count of candidates
    h = [math.nan]                                             # the merge's h (merge_smallest writes it)
    with recorder.maintenance_timer(merging):
        b, p, n, wd = maintain_with(opts, SV, alpha, n_sv, h_out=h, errors=errors, u=u)
    if not merging:
        candidates = 0
    elif signs is None:                                        # multi-class: every other SV
        candidates = n_sv - 1
    else:                                                      # binary: the other SVs of m's sign
        candidates = int(np.count_nonzero(signs * signs[p] >= 0.0)) - 1
    return b, MaintenanceEvent(opts.strategy, n_sv, b, p, n, wd, candidates, h[0])


class MaintenanceRecorder(Recorder):
    """What BSGD and BSCA write down about their maintenance events (the shared part).

    The event table (``maint_step``, ``maint_index``, ``maint_partner``,
    ``weight_degradation``), the timers ``maintenance_seconds`` and ``merge_seconds``,
    the kernel evaluations of an event (:meth:`maintenance_kernel_evaluations`, which
    the algorithm's subclass adapts) and the comparison mode's columns.  ``keys``: the
    trace's keys in the order the trace lists them.
    """

    events = {"maint_step": np.int64, "maint_index": np.int64, "maint_partner": np.int64,
              "weight_degradation": np.float64}
    timers = ("maintenance_seconds", "merge_seconds")
    keys = ()

    def __init__(self, n_steps, compare=False):
        super().__init__(n_steps)
        self.compared = ([], [], []) if compare else None

    def merge_compare(self, same, factor, wd):
        """One event of the comparison mode (:func:`merge_compare`)."""
        for column, value in zip(self.compared, (same, factor, wd)):
            column.append(value)

    def maintenance_timer(self, merging):
        """Times the maintenance step (a merge is also counted in ``merge_seconds``)."""
        return self.timer("maintenance_seconds", "merge_seconds") if merging else self.timer("maintenance_seconds")

    def maintenance(self, step, event):
        """The event of step ``step``: a row of the event table and its kernel evaluations."""
        self.append(maint_step=step, maint_index=event.p, maint_partner=event.n, weight_degradation=event.wd)
        self.count("kernel_evaluations", self.maintenance_kernel_evaluations(event))

    def maintenance_kernel_evaluations(self, event):
        """``k(x, x')`` of two different points the event computed: merging ``k(x_m, x_n)`` of every candidate."""
        return event.candidates

    def trace(self, **extra):
        out = super().trace(**extra)
        if self.compared is not None:
            for name, column, dtype in zip(("compare_same_decision", "compare_wd_factor", "compare_wd"),
                                           self.compared, (bool, np.float64, np.float64)):
                out[name] = np.array(column, dtype=dtype).reshape(-1, 4)
        return {**{key: out[key] for key in self.keys if key in out}, **out}
