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
import json
import math
from dataclasses import dataclass, field

import numpy as np

from ._version import __version__
from .backend import get_module
from .oracle_files import read_trace, records_of, write_compact, write_trace
from .recorder import recording_steps

SCHEMA = "refsvm-trace"
SCHEMA_VERSION = 2
#: Versions :func:`compare_traces` reads.  Version 2 only adds fields (``step.margin``,
#: ``maintenance.h``, ``maintenance.new_coefficient`` from the per-step records); every v1 field keeps its meaning,
#: so a v1 reader reads a v2 trace by ignoring fields it does not know.
SCHEMA_VERSIONS_READ = (1, 2)

#: Fields compared exactly (decisions and integers); every other numeric field is continuous.
DISCRETE_FIELDS = ("index", "update", "violated", "n_sv", "n_violating", "kind", "partner", "mistakes",
                   "epoch", "step")
#: Continuous fields, compared to ``rtol`` / ``atol``.
CONTINUOUS_FIELDS = ("margin", "water_level", "bias", "weight_degradation", "h", "new_coefficient",
                     "objective", "dual_objective", "water_level_bar", "bias_bar")

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

_UPDATE_NAMES = {0: "none", 1: "add", 2: "project"}


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



# -- first divergence

_KIND_ORDER = {"step": 0, "maintenance": 1, "epoch": 2}
_HEADER_KEYS = (("solver",), ("schema_version",), ("data", "X_sha256"), ("data", "y_sha256"), ("order", "sha256"),
                ("order", "uniforms_sha256"), ("params",))


@dataclass
class Divergence:
    """Where two traces part: the record (kind, step, event number), the field, both values, and the
    records of both traces within ``context`` steps of ``step``."""

    step: int
    record: str
    event: int
    field: str
    a: object
    b: object
    context_a: list
    context_b: list

    def describe(self):
        where = f"step {self.step}" + (f", {self.record} record {self.event}" if self.record != "step" else "")
        return f"{where}: {self.field}: a = {self.a!r}, b = {self.b!r}"


@dataclass
class TraceComparison:
    """The result of :func:`compare_traces`; ``agree`` is False when either divergence was found."""

    first_discrete: Divergence = None
    first_continuous: Divergence = None
    skipped: list = field(default_factory=list)
    header_differences: list = field(default_factory=list)
    truncated: str = None
    n_compared: int = 0
    rtol: float = 1e-9
    atol: float = 0.0

    @property
    def agree(self):
        return self.first_discrete is None and self.first_continuous is None

    def report(self):
        """A human-readable summary (what ``refsvm compare-traces`` prints)."""
        lines = [f"compared {self.n_compared} records (rtol {self.rtol:g}, atol {self.atol:g})"]
        lines += [f"header differs: {d}" for d in self.header_differences]
        if self.skipped:
            lines.append("skipped (not in both traces): " + ", ".join(self.skipped))
        if self.truncated:
            lines.append(self.truncated)
        for name, div in (("discrete decision", self.first_discrete), ("continuous value", self.first_continuous)):
            if div is None:
                lines.append(f"first {name} divergence: none")
                continue
            lines.append(f"first {name} divergence at {div.describe()}")
            for side, ctx in (("a", div.context_a), ("b", div.context_b)):
                lines += [f"  {side}: {json.dumps(r)}" for r in ctx]
        lines.append("traces agree" if self.agree else "traces diverge")
        return "\n".join(lines)


def _number(v):
    """A JSON value as a float (the strings NaN / Infinity / -Infinity included), else None."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(v) if isinstance(v, str) else None


def values_agree(a, b, rtol, atol):
    """Continuous values agree iff equal, both NaN, or ``|a - b| <= atol + rtol max(|a|, |b|)``.

    Error bound: the default rtol 1e-9 is DESIGN.md's agreement tolerance between the two paths
    (floating summation orders differ; 6 orders of magnitude above double rounding accumulated over a
    few hundred steps); a value that is not a number is compared exactly.
    """
    if isinstance(a, list) and isinstance(b, list):  # one value per class (multi-class scores)
        return len(a) == len(b) and all(values_agree(u, v, rtol, atol) for u, v in zip(a, b))
    x, y = _number(a), _number(b)
    if x is None or y is None:
        return a == b
    if x == y or (math.isnan(x) and math.isnan(y)):
        return True
    if not (math.isfinite(x) and math.isfinite(y)):
        return False
    return abs(x - y) <= atol + rtol * max(abs(x), abs(y))


def _body(records):
    """``{(kind, step, event): record}`` of the non-header records, and the header (or None)."""
    header, body = None, {}
    for r in records:
        kind = r.get("record")
        if kind == "header":
            header = header or r
            version = r.get("schema_version")
            if r.get("schema") == SCHEMA and isinstance(version, int) and version > max(SCHEMA_VERSIONS_READ):
                raise ValueError(f"schema_version: this refsvm reads {SCHEMA} versions "
                                 f"{', '.join(map(str, SCHEMA_VERSIONS_READ))}, got {version}")
        elif kind in _KIND_ORDER:
            body[(kind, int(r.get("step", -1)), int(r.get("event", r.get("epoch", 0) if kind == "epoch" else 0)))] = r
        else:
            raise ValueError(f"trace record without a known 'record' kind: {json.dumps(r)[:120]}")
    return header, body


def _header_differences(ha, hb):
    if ha is None or hb is None:
        return [] if ha is hb else ["only one trace has a header"]
    out = []
    for path in _HEADER_KEYS:
        va, vb = ha, hb
        for k in path:
            va = va.get(k) if isinstance(va, dict) else None
            vb = vb.get(k) if isinstance(vb, dict) else None
        if va is not None and vb is not None and va != vb:
            out.append(f"{'.'.join(path)}: {va!r} != {vb!r}")
    return out


def _context(body, step, width):
    return [r for (_, s, _), r in sorted(body.items(), key=_order) if abs(s - step) <= width]


def _order(item):
    (kind, step, event), _ = item
    return step, _KIND_ORDER[kind], event


def compare_traces(a, b, *, rtol=1e-9, atol=0.0, context=2):
    """Compare two traces (paths of JSON Lines files or lists of records) record by record.

    Records are matched by (kind, step, event); within the steps both traces reach, a record on one
    side only is a discrete divergence.  Fields in :data:`DISCRETE_FIELDS` (and every non-numeric
    field) must be equal; numeric fields otherwise (:data:`CONTINUOUS_FIELDS`) agree to
    :func:`values_agree`.  Record kinds or fields that only one trace has (a partial trace) are
    skipped and named in ``skipped``.  Returns a :class:`TraceComparison`.
    """
    if not (isinstance(rtol, (int, float)) and rtol >= 0 and isinstance(atol, (int, float)) and atol >= 0):
        raise ValueError(f"rtol, atol: expected numbers >= 0, got {rtol!r}, {atol!r}")
    ha, body_a = _body(read_trace(a) if not isinstance(a, list) else a)
    hb, body_b = _body(read_trace(b) if not isinstance(b, list) else b)
    out = TraceComparison(rtol=rtol, atol=atol, header_differences=_header_differences(ha, hb))
    kinds_a, kinds_b = {k[0] for k in body_a}, {k[0] for k in body_b}
    out.skipped += [f"{k} records (only in {'a' if k in kinds_a else 'b'})" for k in sorted(kinds_a ^ kinds_b)]
    last = min(max((k[1] for k in body_a), default=-1), max((k[1] for k in body_b), default=-1))
    if max((k[1] for k in body_a), default=-1) != max((k[1] for k in body_b), default=-1):
        out.truncated = f"compared up to step {last}, where the shorter trace ends"
    keys = sorted({k for k in (*body_a, *body_b) if k[0] in kinds_a & kinds_b and k[1] <= last},
                  key=lambda k: (k[1], _KIND_ORDER[k[0]], k[2]))
    skipped = set()
    for key in keys:
        ra, rb = body_a.get(key), body_b.get(key)
        if ra is None or rb is None:
            if out.first_discrete is None:
                out.first_discrete = Divergence(key[1], key[0], key[2], "record present", ra is not None,
                                                rb is not None, _context(body_a, key[1], context),
                                                _context(body_b, key[1], context))
            continue
        out.n_compared += 1
        for name in sorted(set(ra) | set(rb)):
            if name not in ra or name not in rb:
                skipped.add(f"{key[0]}.{name} (only in {'a' if name in ra else 'b'})")
                continue
            discrete = name in DISCRETE_FIELDS or name not in CONTINUOUS_FIELDS and (
                _number(ra[name]) is None or isinstance(ra[name], int))
            same = ra[name] == rb[name] if discrete else values_agree(ra[name], rb[name], rtol, atol)
            slot = "first_discrete" if discrete else "first_continuous"
            if not same and getattr(out, slot) is None:
                setattr(out, slot, Divergence(key[1], key[0], key[2], name, ra[name], rb[name],
                                              _context(body_a, key[1], context), _context(body_b, key[1], context)))
        if out.first_discrete is not None and out.first_continuous is not None:
            break
    out.skipped += sorted(skipped)
    return out
