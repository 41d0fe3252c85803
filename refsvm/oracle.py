"""The oracle interface: a solver's step trace as JSON Lines, and the first step where two traces part.

:func:`export_trace` runs one solver on either path (``backend="python"`` or ``"fast"``)
for one or more epochs and writes what its trace dict records (the keys listed in
DESIGN.md per algorithm, assembled by :mod:`refsvm.recorder`) as records of the schema
``refsvm-trace`` version :data:`SCHEMA_VERSION` (docs/oracle.rst):

* one ``header`` record: schema and version, solver, parameters, the data's
  fingerprint (sha256 of X as row-major float64 and of y as float64, shapes), the
  visiting order's fingerprint (sha256 of the int64 indices of all epochs, and of
  the uniforms drawn for RBP / BOGD / SBP), refsvm's version, the backend, and the
  fields this solver does not record;
* per step a ``step`` record (``step`` counts from 0 over all epochs, ``epoch``,
  ``index`` = the example visited, ``update`` = the update taken, and what else the
  solver's trace holds for the step: ``violated``, ``n_sv``, SBP's ``n_violating``,
  ``water_level`` and ``bias``, and the ``margin``: the scores before the step, from the per-step
  records; SBP: the score of the iterate at the sampled example);
* per maintenance event a ``maintenance`` record after its step's record (``kind``,
  ``index`` = slot removed / projected / merged, ``partner``, ``weight_degradation``, and for a
  merge ``h`` and ``new_coefficient`` from the per-step records);
* per epoch an ``epoch`` record after its last step (``n_sv``, ``mistakes``, and the
  objective where one is defined: BSCA's primal and dual objectives, SBP's averaged
  water level and bias).

The run is the untraced run: the algorithm function is called exactly as without
export, with the per-step records switched on (:func:`refsvm.recorder.recording_steps`:
copies of the scores, of merged coefficients and of the merges' h, where a solver keeps them), and its trace
is only read, so the model is bitwise the same.

:func:`compare_traces` matches two traces record by record (key: record kind, step,
event number within the step) and reports the first step whose discrete decision
differs and the first step whose continuous values leave ``rtol`` / ``atol``.
"""

__all__ = ["SCHEMA", "SCHEMA_VERSION", "SOLVERS", "export_trace", "trace_records", "trace_tables", "records_of",
           "write_trace", "write_compact", "read_trace", "compare_traces", "TraceComparison", "Divergence", "visiting_plan", "fingerprint"]

import hashlib
import math
from dataclasses import dataclass, field

import numpy as np

from ._version import __version__
from .backend import get_module
from .oracle_compare import (CONTINUOUS_FIELDS, DISCRETE_FIELDS, SCHEMA_VERSIONS_READ, Divergence,  # noqa: F401
                             TraceComparison, compare_traces, values_agree)
from .oracle_files import SCHEMA, SCHEMA_VERSION, read_trace, records_of, write_compact, write_trace
from .recorder import recording_steps


_KERNEL = dict(kernel="rbf", gamma=1.0, degree=3, coef0=0.0)
_ONLINE_STATE = ("sv", "alpha", "t0", "state")


@dataclass(frozen=True)
class SolverSpec:
    """How one solver is called: module and function, default parameters, whether it takes
    ``uniforms`` (drawn per epoch after the order), how a call continues the previous one, and
    what of the schema its trace does not record."""

    module: str
    function: str
    defaults: dict
    uniforms: bool = False
    not_recorded: tuple = ()
    extra: dict = field(default_factory=dict)
    multiclass: bool = False    #: labels 0 .. c-1 (sorted); ``n_classes`` None: the number of labels in y
    one_pass: bool = False      #: one epoch only (IDSVM: a second pass would add every example again)


_NO_MARGIN = ("step.margin", "maintenance.h", "maintenance.new_coefficient")
_ONLINE_MISSING = ("maintenance.h", "maintenance.new_coefficient", "step.violated", "maintenance.partner",
                   "maintenance.weight_degradation", "epoch.objective")

SOLVERS = {
    "bsgd": SolverSpec("bsgd", "bsgd", dict(n_classes=2, budget=50, lam=0.01, learning_rate="pegasos", eta=1.0,
                                            radius=1.0, maintenance="merge", merge_eps=0.01,
                                            projection_ridge=1e-10, fit_bias=False, merge_solver="gss", **_KERNEL),
                       not_recorded=("epoch.objective",)),
    "bsca": SolverSpec("bsca", "bsca", dict(budget=50, C=1.0, maintenance="merge", merge_eps=0.01,
                                            projection_ridge=1e-10, merge_solver="gss", **_KERNEL),
                       not_recorded=("step.violated",)),
    "sbp": SolverSpec("sbp", "optimize", dict(nu=0.1, fit_bias=False, **_KERNEL), uniforms=True,
                      not_recorded=("step.violated", "step.n_sv", "maintenance (no budget "
                                    "maintenance)", "epoch.objective")),
    "fogd": SolverSpec("fogd", "fogd", dict(task="binary", n_classes=2, eta=0.1, gamma=1.0, D=100),
                       not_recorded=("step.n_sv", "maintenance (none)", "epoch.objective")),
    "nogd": SolverSpec("nogd", "nogd", dict(task="binary", n_classes=2, budget=50, rank=20, gamma=1.0, eta=0.1),
                       not_recorded=("step.n_sv", "maintenance (the switch only: "
                                     "trace switch_step)", "epoch.objective")),
    "perceptron": SolverSpec("online", "perceptron", dict(_KERNEL), not_recorded=_ONLINE_MISSING),
    "ogd": SolverSpec("online", "ogd", dict(eta=0.1, **_KERNEL), not_recorded=_ONLINE_MISSING),
    "rbp": SolverSpec("online", "rbp", dict(budget=50, **_KERNEL), uniforms=True, not_recorded=_ONLINE_MISSING),
    "forgetron": SolverSpec("online", "forgetron", dict(budget=50, **_KERNEL), not_recorded=_ONLINE_MISSING),
    "projectron": SolverSpec("online", "projectron", dict(eta=0.1, budget=50, **_KERNEL),
                             not_recorded=_ONLINE_MISSING, extra=dict(plusplus=False)),
    "projectron++": SolverSpec("online", "projectron", dict(eta=0.1, budget=50, **_KERNEL),
                               not_recorded=_ONLINE_MISSING, extra=dict(plusplus=True)),
    "bpas": SolverSpec("online", "bpas", dict(budget=50, C=1.0, **_KERNEL), not_recorded=_ONLINE_MISSING),
    "bpann": SolverSpec("online", "bpann", dict(budget=50, C=1.0, **_KERNEL), not_recorded=_ONLINE_MISSING),
    "bogd": SolverSpec("online", "bogd", dict(budget=50, eta=0.1, lam=0.01, max_coef=1.0, **_KERNEL),
                       uniforms=True, not_recorded=_ONLINE_MISSING),
}
#: The multi-class online learners (:mod:`refsvm.online.multiclass`, one shared SV set; ``margin``: the
#: classes' scores), as ``multiclass_<learner>`` with the binary learner's defaults plus ``n_classes``.
SOLVERS.update({
    f"multiclass_{name}": SolverSpec("online", f"multiclass_{name.rstrip('+')}", dict(SOLVERS[name].defaults,
                                     n_classes=None), uniforms=SOLVERS[name].uniforms,
                                     not_recorded=_ONLINE_MISSING, extra=SOLVERS[name].extra, multiclass=True)
    for name in ("perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd")})

#: IDSVM (Cauwenberghs & Poggio 2000, :mod:`refsvm.idsvm`): the exact SVM of the examples seen.  A step is
#: ``add`` when the example's ``alpha_c`` grew (its gradient was violated); its bookkeeping events (eq. 11's
#: migrations between the margin, error and reserve sets) are its ``maintenance`` records, ``index`` the example
#: that moved (a position in the visiting order), ``kind`` one of :data:`IDSVM_EVENTS`.  The epoch record's
#: ``dual_objective`` is ``sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j k(x_i, x_j)`` (BSCA's
#: convention), computed from the model by :func:`refsvm.kernels.kernel_matrix` on either path.
SOLVERS["idsvm"] = SolverSpec("idsvm", "idsvm", dict(C=1.0, **_KERNEL), one_pass=True,
                              not_recorded=("step.margin", "step.n_sv", "maintenance.weight_degradation",
                                            "maintenance.h", "maintenance.new_coefficient", "epoch.objective"))

_UPDATE_NAMES = {0: "none", 1: "add", 2: "project"}


IDSVM_EVENTS_CONSTANTS = ("C_TO_MARGIN", "C_TO_ERROR", "MARGIN_TO_RESERVE", "MARGIN_TO_ERROR", "ERROR_TO_MARGIN",
                          "RESERVE_TO_MARGIN", "DEPENDENT")
#: The ``kind`` of IDSVM's maintenance records: the new example c joins the margin set S or the error set E; a
#: margin vector leaves for R or E; an error or reserve vector joins S; a row meant for S is linearly dependent
#: on S (its Schur complement within tolerance of 0) and stays out.
IDSVM_EVENTS = tuple(name.lower() for name in IDSVM_EVENTS_CONSTANTS)


def _idsvm_events():
    """``{code: name}`` of IDSVM's bookkeeping events (the constants of :mod:`refsvm.idsvm`)."""
    from . import idsvm
    return {getattr(idsvm, name): name.lower() for name in IDSVM_EVENTS_CONSTANTS}


# -- fingerprints and the visiting order

def fingerprint(array, dtype):
    """sha256 (hex) of ``array`` as a C-contiguous little-endian array of ``dtype``."""
    a = np.ascontiguousarray(np.asarray(array, dtype=np.dtype(dtype).newbyteorder("<")))
    return hashlib.sha256(a.tobytes()).hexdigest()


def visiting_plan(n, *, epochs=1, seed=None, order=None, uniforms=False):
    """Per epoch ``(order, uniforms)``: ``order`` (a list of int index arrays, one per epoch) when
    given, else ``numpy.random.default_rng(seed).permutation(n)`` per epoch; uniforms (SBP / RBP /
    BOGD) ``rng.random(len(order))`` drawn after each epoch's order (as the estimators draw them)."""
    rng = np.random.default_rng(seed)
    if order is not None:
        orders = [np.asarray(o, dtype=np.int64) for o in order]
        if not orders or any(o.ndim != 1 or o.size == 0 for o in orders):
            raise ValueError("order: expected a non-empty list of non-empty 1-D index arrays (one per epoch)")
        if any(o.min() < 0 or o.max() >= n for o in orders):
            raise ValueError(f"order: indices must lie in 0..{n - 1}")
    else:
        if not isinstance(epochs, (int, np.integer)) or epochs < 1:
            raise ValueError(f"epochs: expected an integer >= 1, got {epochs!r}")
        orders = []
    plan = []
    for e in range(len(orders) if orders else epochs):
        o = orders[e] if orders else rng.permutation(n).astype(np.int64)
        plan.append((o, rng.random(o.size) if uniforms else None))
    return plan


def _labels(y, p, multiclass=False):
    """The labels as the solver takes them: binary {-1, +1} (:func:`_binary_labels`); a multi-class BSGD
    (``n_classes > 2``) and the multi-class online learners (``multiclass``) 0 .. c-1 in the order of the
    sorted labels; FOGD / NOGD's other tasks unchanged."""
    if p.get("task", "binary") != "binary":
        return np.asarray(y)
    c = p.get("n_classes", 2)
    if c == 2 and not multiclass:
        return _binary_labels(y)
    labels, codes = np.unique(np.asarray(y), return_inverse=True)
    if labels.size != c:
        raise ValueError(f"y: n_classes is {c}, but y has {labels.size} classes")
    return codes.astype(np.int64).reshape(-1)


def _binary_labels(y):
    """y as float64 in {-1, +1} (the solvers' binary encoding): the smaller label is -1."""
    y = np.asarray(y)
    labels = np.unique(y)
    if labels.size != 2:
        raise ValueError(f"y: a binary problem has 2 classes, got {labels.size} (BSGD traces a multi-class "
                         "problem with params n_classes)")
    return np.where(y == labels[1], 1, -1).astype(np.int64)


# -- running a solver

def _class_count(spec, params, y):
    """``params`` with a multi-class online learner's ``n_classes`` (None or absent) set to the number of
    labels in ``y``; unchanged for the other solvers."""
    if spec.multiclass and (params or {}).get("n_classes") is None:
        return dict(params or {}, n_classes=int(np.unique(np.asarray(y)).size))
    return params


def _resolve(solver, params):
    if solver not in SOLVERS:
        raise ValueError(f"solver: expected one of {', '.join(SOLVERS)}, got {solver!r}")
    spec = SOLVERS[solver]
    params = dict(params or {})
    unknown = sorted(set(params) - set(spec.defaults))
    if unknown:
        raise ValueError(f"params: {', '.join(unknown)} not a parameter of {solver} "
                         f"(known: {', '.join(sorted(spec.defaults))})")
    return spec, {**spec.defaults, **params}


def _fourier_directions(params, d, seed):
    """FOGD's directions U (D, d), rows N(0, 2 gamma I), from their own generator (seed, then 1)."""
    rng = np.random.default_rng([0 if seed is None else seed, 1])
    return rng.standard_normal((int(params["D"]), d)) * math.sqrt(2.0 * params["gamma"])


def _call(spec, fn, X, y, o, u, kw, carry):
    """One epoch of the solver; ``carry``: the previous call's continuation arguments."""
    if spec.module == "sbp":
        return fn(X, y, u, **kw, **carry)
    if spec.uniforms:
        return fn(X, y, o, u, **kw, **carry)
    return fn(X, y, o, **kw, **carry)


def _continuation(spec, res):
    """The arguments that make the next call continue ``res`` (as the estimators chain epochs)."""
    if spec.one_pass:                               # IDSVM: no next call
        return {}
    if spec.module == "bsgd":
        return dict(sv=res.sv, alpha=res.alpha, bias=res.bias, t0=res.t)
    if spec.module == "bsca":
        return dict(sv=res.sv, alpha=res.alpha, dual=res.dual, sv_source=res.sv_source, sv_error=res.sv_error,
                    t0=res.t)
    if spec.module == "sbp":
        return dict(state=res.state)
    if spec.module == "fogd":
        return dict(W=res.W, t0=res.t)
    if spec.module == "nogd":
        return dict(sv=res.sv, alpha=res.alpha, projection=res.projection, W=res.W, t0=res.t)
    return dict(sv=res.sv, alpha=res.alpha, t0=res.t, state=res.state)


def run_solver(solver, X, y, plan, *, params=None, backend="python", seed=None):
    """Run ``solver`` over the epochs of ``plan`` (:func:`visiting_plan`) on ``backend``; returns
    ``(results, kwargs)``: one result per epoch and the keyword arguments every call got."""
    spec, p = _resolve(solver, params)
    if spec.one_pass and len(plan) != 1:
        raise ValueError(f"epochs: {solver} makes one pass (its model after the pass is the exact SVM of the "
                         f"examples seen; a second pass would add every example again); got {len(plan)} epochs "
                         "(a longer order, repeats included, is one pass)")
    if spec.multiclass:                             # labels 0 .. c-1 and n_classes from them (as trace_tables)
        params = _class_count(spec, params, y)
        spec, p = _resolve(solver, params)
        y = _labels(y, p, True)
    module = get_module(spec.module, backend)
    fn = getattr(module, spec.function)
    kw = {k: v for k, v in p.items() if k != "D"}
    kw.update(spec.extra)
    if spec.module == "fogd":
        kw.pop("gamma")
        kw["U"] = _fourier_directions(p, X.shape[1], seed)
    carry, results = {}, []
    for o, u in plan:
        res = _call(spec, fn, X, y, o, u, kw, carry)
        results.append(res)
        carry = _continuation(spec, res)
    return results, kw


# -- records

def _step_columns(spec, trace, o):
    """What ``trace`` records about the steps of the call (besides step and epoch), as columns: one
    array per field, one entry (a row for multi-class scores) per step."""
    n = len(o)
    out = dict(index=np.asarray(o, dtype=np.int64))
    if spec.module == "sbp":
        out.update(index=trace["sampled"][:n], update=_names(trace["projected"][:n], "project", "none"),
                   n_violating=trace["n_violating"][:n], water_level=trace["water_level"][:n],
                   bias=trace["bias"][:n])
    elif spec.module == "bsgd":                       # Alg. 1 line 6: an SV is added iff s_t * loss > 0
        out.update(update=_names(trace["added"], "add", "none"), violated=trace["added"] != 0)
    elif spec.module == "bsca":
        out["update"] = np.where(trace["added"] != 0, "add", _names(trace["changed"], "change", "none"))
    elif spec.module == "idsvm":                    # alpha_c grows iff g_c < 0 (then it has its events)
        grew = np.isin(np.arange(n), trace["event_step"])
        out.update(update=_names(grew, "add", "none"), violated=grew)
    elif spec.module in ("fogd", "nogd"):           # the gradient step is taken iff the loss is positive
        added = trace["added"] != 0 if spec.module == "nogd" else np.zeros(n, dtype=bool)
        out.update(update=np.where(added, "add", _names(trace["updated"], "update", "none")),
                   violated=trace["updated"] != 0)
    else:
        out.update(update=np.array([_UPDATE_NAMES[u] for u in trace["update_kind"].tolist()]), n_sv=trace["n_sv"])
    if "margin" in trace:                           # the per-step records (recorder.recording_steps)
        out["margin"] = _scores(trace["margin"][:n])
    return out


def _names(flags, yes, no):
    return np.where(np.asarray(flags) != 0, yes, no)


def _scores(a):
    """Per-record scores: a column for a binary model (one value each), the rows of the classes' scores else."""
    return a[:, 0] if a.shape[1] == 1 else a


def _maintenance_columns(spec, trace, kw):
    """The call's maintenance events as columns (one entry per event, in order): ``step`` (of the call),
    ``event`` (0, 1, ... within the step), ``kind``, ``index``, ``partner`` (-1: none) and where recorded
    ``weight_degradation``, ``h`` and ``new_coefficient`` (NaN: the event merged nothing)."""
    if "maint_step" in trace:
        steps = np.asarray(trace["maint_step"], dtype=np.int64)
        out = dict(step=steps, event=None, kind=np.full(steps.size, kw.get("maintenance", "merge")),
                   index=trace["maint_index"], partner=trace["maint_partner"],
                   weight_degradation=trace["weight_degradation"])
        if "maint_h" in trace:                      # a merge: the h that placed z (eq. 18), the merge's own
            out["h"] = np.asarray(trace["maint_h"], dtype=np.float64)
        if "maint_new_coefficient" in trace:        # a merge: the merged SV's coefficient alpha_z (eq. 19)
            out["new_coefficient"] = _scores(trace["maint_new_coefficient"])
    elif "event_kind" in trace:                     # IDSVM: the bookkeeping events
        steps = np.asarray(trace["event_step"], dtype=np.int64)
        names = _idsvm_events()
        out = dict(step=steps, event=None, kind=np.array([names[k] for k in trace["event_kind"].tolist()],
                                                          dtype="<U17"),
                   index=np.asarray(trace["event_index"], dtype=np.int64),
                   partner=np.full(steps.size, -1, dtype=np.int64))
    elif "removal_step" in trace:
        steps = np.asarray(trace["removal_step"], dtype=np.int64)
        out = dict(step=steps, event=None, kind=np.full(steps.size, "removal"), index=trace["removal_index"],
                   partner=np.full(steps.size, -1, dtype=np.int64))
    else:
        steps = np.zeros(0, dtype=np.int64)
        out = dict(step=steps, event=None, kind=np.zeros(0, dtype="<U7"), index=steps, partner=steps)
    starts = np.flatnonzero(np.r_[True, np.diff(steps) != 0]) if steps.size else np.zeros(0, dtype=np.int64)
    out["event"] = np.arange(steps.size) - np.repeat(starts, np.diff(np.r_[starts, steps.size]).astype(np.int64))
    return out


def _epoch_fields(spec, module, res, X, y, kw):
    """The epoch record's values: n_sv, mistakes and the objective where one is defined."""
    trace = res.trace
    out = {"mistakes": int(trace["mistakes"])} if "mistakes" in trace else {}
    sv = getattr(res, "sv", None)
    if sv is not None:
        out["n_sv"] = int(sv.shape[0])
    if spec.module == "bsca":
        k = {n: kw[n] for n in ("kernel", "gamma", "degree", "coef0")}
        out["objective"] = float(module.primal_objective(X, y, res.sv, res.alpha, C=kw["C"], **k))
        out["dual_objective"] = float(module.dual_objective(X, y, res.dual, **k))
    elif spec.module == "sbp":
        out.update(water_level_bar=float(trace["water_level_bar"]), bias_bar=float(trace["bias_bar"]))
    elif spec.module == "idsvm":                    # D = sum alpha - 1/2 a' K a, a = y alpha (res.alpha)
        from .kernels import kernel_matrix
        a = res.alpha[:, 0]
        K = kernel_matrix(res.sv, res.sv, kw["kernel"], kw["gamma"], kw["degree"], kw["coef0"])
        out["dual_objective"] = float(np.sum(np.abs(a)) - 0.5 * a @ K @ a)
    return out


def trace_tables(solver, X, y, *, epochs=1, seed=None, order=None, params=None, backend="python"):
    """``(header, tables, results)``: the trace in columns and the solver's per-epoch results (the
    models, bitwise those of the untraced run).  ``tables``: ``"step"`` and ``"maintenance"`` (a dict of
    arrays each, steps counted over all epochs) and ``"epoch"`` (a list of epoch records)."""
    spec, p = _resolve(solver, params)
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X: expected a non-empty 2-D array, got shape {X.shape}")
    params = _class_count(spec, params, y)
    spec, p = _resolve(solver, params)
    yb = _labels(y, p, spec.multiclass)
    if yb.shape != (X.shape[0],):
        raise ValueError(f"y: expected shape ({X.shape[0]},), got {yb.shape}")
    plan = visiting_plan(X.shape[0], epochs=epochs, seed=seed, order=order, uniforms=spec.uniforms)
    with recording_steps():                         # per-step records: copies, the model is unchanged
        results, kw = run_solver(solver, X, yb, plan, params=params, backend=backend, seed=seed)
    module = get_module(spec.module, backend)
    steps, events, epoch_records, offset = [], [], [], 0
    for e, ((o, _), res) in enumerate(zip(plan, results)):
        steps.append(dict(step=offset + np.arange(o.size), epoch=np.full(o.size, e),
                          **_step_columns(spec, res.trace, o)))
        ev = _maintenance_columns(spec, res.trace, kw)
        ev["step"] = ev["step"] + offset
        events.append(ev)
        offset += o.size
        epoch_records.append(dict(record="epoch", step=offset - 1, epoch=e,
                                  **_epoch_fields(spec, module, res, X, yb, kw)))
    tables = {"step": _concatenate(steps), "maintenance": _concatenate(events), "epoch": epoch_records}
    return _header(solver, spec, p, X, yb, plan, kw, backend, seed), tables, results


def _concatenate(parts):
    return {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}


def trace_records(solver, X, y, *, epochs=1, seed=None, order=None, params=None, backend="python"):
    """``(records, results)``: the trace as a list of dicts (header first) and the solver's
    per-epoch results (the models, bitwise those of the untraced run)."""
    header, tables, results = trace_tables(solver, X, y, epochs=epochs, seed=seed, order=order, params=params,
                                           backend=backend)
    return records_of(header, tables), results


def _header(solver, spec, p, X, y, plan, kw, backend, seed):
    orders = np.concatenate([o for o, _ in plan])
    header = dict(record="header", schema=SCHEMA, schema_version=SCHEMA_VERSION, solver=solver,
                  params={k: v for k, v in p.items()},
                  data=dict(X_sha256=fingerprint(X, np.float64), y_sha256=fingerprint(y, np.float64),
                            n_samples=int(X.shape[0]), n_features=int(X.shape[1])),
                  order=dict(sha256=fingerprint(orders, np.int64), epochs=len(plan),
                             lengths=[int(o.size) for o, _ in plan], seed=seed),
                  refsvm_version=__version__, backend=backend, not_recorded=list(spec.not_recorded))
    if spec.uniforms:
        header["order"]["uniforms_sha256"] = fingerprint(np.concatenate([u for _, u in plan]), np.float64)
    if "U" in kw:
        header["params"]["U_sha256"] = fingerprint(kw["U"], np.float64)
    return header


def export_trace(solver, X, y, *, path, epochs=1, seed=None, order=None, params=None, backend="python"):
    """Run ``solver`` (a key of :data:`SOLVERS`) on ``backend`` and write its trace to ``path``.

    ``order``: a list of index arrays, one per epoch (else ``seed`` draws a permutation per
    epoch, see :func:`visiting_plan`); ``params``: the solver's parameters (defaults in
    :data:`SOLVERS`).  ``path`` ending in ``.npz``: the compact form (:func:`refsvm.oracle_files.write_compact`),
    else JSON Lines.  Returns the per-epoch results (the models are bitwise the untraced run's).
    """
    header, tables, results = trace_tables(solver, X, y, epochs=epochs, seed=seed, order=order, params=params,
                                           backend=backend)
    if str(path).endswith(".npz"):                  # the compact form: the columns as they are
        write_compact(header, tables, path)
    else:
        write_trace(records_of(header, tables), path)
    return results
