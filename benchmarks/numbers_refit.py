"""Renderers of the numbers in docs/refit.rst (``refit_bias``), from ``benchmarks/bench_refit.py``'s results
(registered in ``benchmarks/docnumbers.py``'s registry; see its docstring).

Blocks ``refit-table-<data>`` (a9a, ijcnn1, w8a, usps, pendigits): one row per solver and method, from the
results files of :data:`SOURCES` (the first file holding a (data, solver, method) row gives it).  Values
``refit.<data>.<solver>.<method>.<stat>`` (solver ``bsgd`` / ``bsca``; method ``last``, ``refit``,
``refit_scaled``, ``fit_bias``, ``suffix``, ``epochs2``; stat one of :data:`STATS`) and
``refit.<data>.<solver>.scale`` / ``scale-range`` (median and range over the seeds of the optimal scale of
``refit_bias="scaled"``), ``refit.<data>.<solver>.<method>-minus-<method>.median`` (median difference in
points), ``refit.<data>.epoch-seconds.<solver>`` (median epoch time, the unit of the extra times).
"""

import statistics

from _docgen import load, machine, provenance_of, renderer, table, value

#: Results files per data set, in order of precedence (bench_refit.py's commands in docs/refit.rst).
SOURCES = {
    "a9a": ("bench_refit_a9a",),
    "ijcnn1": ("bench_refit_ijcnn1",),
    "w8a": ("bench_refit_scaled_w8a",),
    "usps": ("bench_refit_scaled_multiclass",),
    "pendigits": ("bench_refit_scaled_multiclass",),
}
SOLVERS = ("BSGD", "BSCA")
METHODS = {
    "last": "last iterate (paper)",
    "refit": "``refit_bias=True``",
    "refit_scaled": "``refit_bias=\"scaled\"``",
    "fit_bias": "``fit_bias=True``",
    "suffix": "suffix average (10 snapshots, last 20 %)",
    "epochs2": "two epochs",
}


def _row(data, solver, method):
    """The summary row of (data, solver, method) from the first source holding it, or None."""
    for stem in SOURCES[data]:
        for r in load(stem)["summary"]:
            if (r["data"], r["solver"], r["method"]) == (data, solver, method):
                return r
    return None


def _records(data, solver, key):
    """Per-seed records of (data, solver) that hold ``key``, from the first source holding any."""
    for stem in SOURCES[data]:
        recs = [r for r in load(stem)["records"] if r["data"] == data and r["solver"] == solver and key in r]
        if recs:
            return recs
    raise KeyError(f"no {key} records for {data} / {solver} in {SOURCES[data]}")


def _extra(r):
    if r["method"] == "last":
        return "—"
    if r["method"] == "fit_bias" and abs(r["extra_time_epochs"]) < 0.05:
        return "≈ 0"
    text = f"{r['extra_time_epochs']:.2f}"
    return text + " (at test time)" if r["method"] == "suffix" else text


STATS = {
    "mean-sd": lambda r: f"{r['mean']:.2f} ± {r['sd']:.2f} %",
    "sd": lambda r: f"{r['sd']:.2f}",
    "median": lambda r: f"{r['median']:.2f} %",
    "min": lambda r: f"{r['min']:.2f} %",
    "range": lambda r: f"{r['min']:.2f}–{r['max']:.2f} %",
    "extra": lambda r: f"{r['extra_time_epochs']:.2f}",
}


def _table(data, fmt):
    rows = []
    for solver in SOLVERS:
        for method, label in METHODS.items():
            r = _row(data, solver, method)
            if r is not None:
                rows.append([solver, label, f"{r['mean']:.2f} ± {r['sd']:.2f}", f"{r['median']:.2f}",
                             f"{r['min']:.2f}–{r['max']:.2f}", _extra(r)])
    return table(["solver", "method", "mean ± sd (%)", "median (%)", "range (%)", "extra time (epochs)"], rows, fmt)


def _register(data):
    renderer(f"refit-table-{data}")(lambda fmt: _table(data, fmt))
    for solver in SOLVERS:
        for method in METHODS:
            for stat, fn in STATS.items():
                value(f"refit.{data}.{solver.lower()}.{method}.{stat}")(
                    lambda data=data, solver=solver, method=method, fn=fn: fn(_row(data, solver, method)))
        value(f"refit.{data}.{solver.lower()}.scale")(
            lambda data=data, solver=solver: f"{statistics.median(_scales(data, solver)):.2g}")
        value(f"refit.{data}.{solver.lower()}.scale-range")(
            lambda data=data, solver=solver: f"{min(_scales(data, solver)):.2g}–{max(_scales(data, solver)):.2g}")
        value(f"refit.{data}.{solver.lower()}.refit_scaled-minus-refit.median")(
            lambda data=data, solver=solver: _median_gain(data, solver, "refit_scaled", "refit"))
        value(f"refit.{data}.{solver.lower()}.refit-minus-last.median")(
            lambda data=data, solver=solver: _median_gain(data, solver, "refit", "last"))
        value(f"refit.{data}.{solver.lower()}.refit_scaled-minus-last.median")(
            lambda data=data, solver=solver: _median_gain(data, solver, "refit_scaled", "last"))
        value(f"refit.{data}.epoch-seconds.{solver.lower()}")(
            lambda data=data, solver=solver: f"{_row(data, solver, 'last')['epoch_seconds']:.2f} s")


def _scales(data, solver):
    return [s for r in _records(data, solver, "refit_scale") for s in r["refit_scale"]]


def _median_gain(data, solver, a, b):
    """Median of ``a`` minus median of ``b``, in points, signed."""
    return f"{_row(data, solver, a)['median'] - _row(data, solver, b)['median']:+.2f}"


for _data in SOURCES:
    _register(_data)

BINARY = ("a9a", "ijcnn1", "w8a")


@value("refit.a9a.refit-range")
def _a9a_refit_range():
    """Lowest and highest test accuracy of ``refit_bias=True`` over the seeds of both solvers on a9a."""
    rows = [_row("a9a", solver, "refit") for solver in SOLVERS]
    return f"{min(r['min'] for r in rows):.1f}–{max(r['max'] for r in rows):.1f} %"


@value("refit.machine")
def _machine():
    """The CPU (and vector extensions) of the a9a measurement."""
    prov = provenance_of(SOURCES["a9a"][0])
    return machine(prov) if prov else "a machine not recorded (rerun bench_refit_a9a)"


@value("refit.binary.scaled-minus-last.worst")
def _scaled_worst():
    """The smallest median gain of ``refit_bias="scaled"`` over the last iterate, binary sets and solvers."""
    return min((_median_gain(d, s, "refit_scaled", "last") for d in BINARY for s in SOLVERS), key=float)


@value("refit.binary.scaled.max-extra")
def _scaled_max_extra():
    """The largest extra time (epochs) of ``refit_bias="scaled"``, binary sets and solvers."""
    return f"{max(_row(d, s, 'refit_scaled')['extra_time_epochs'] for d in BINARY for s in SOLVERS):.2f}"
