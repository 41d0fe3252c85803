"""Renderers of the numbers in docs/lookup.rst from ``benchmarks/bench_lookup.py``'s results (registered in
``benchmarks/docnumbers.py``'s registry; see its docstring).

Values ``lk.<tag>.<data>.B<budget>.<solver>.<field>`` (one row of a run), ``lk.<tag>.<data>.<solver>.<field>``
(span over the budgets), ``lk.<tag>.<solver>.<field>`` (span over every row), ``lk.<tag>.machine``;
``<tag>`` one of :data:`RUNS` (``pruned``: refsvm as it runs, dense input; ``plain``: ``--no-pruning``, the
paper's comparison; ``csr``: CSR input), ``<field>`` one of :data:`FIELDS` (``save-total`` / ``save-merge``:
(T_gss - T) / T_gss of the total and the merging time, percent; ``over-block``: the epoch over one numpy n x B
kernel block; ``merge-s``: merging seconds).
"""

from _docgen import load, register_machine, span, value

RUNS = {"pruned": "bench_lookup", "plain": "bench_lookup_plain_gss", "csr": "bench_lookup_csr"}
SOLVERS = ("gss", "gss-precise", "lookup-h", "lookup-wd")
FIELDS = {
    "save-total": (lambda s: 100.0 * s["saving_total"], "{:.1f}", " %"),
    "save-merge": (lambda s: 100.0 * s["saving_merge"], "{:.1f}", " %"),
    "over-block": (lambda s: s["over_block"], "{:.2f}", "x"),
    "merge-s": (lambda s: s["merge_seconds"], "{:.3f}", " s"),
}
#: data sets of a run (fixed here, so that the names exist without reading the results at import)
DATASETS = {"pruned": ("ijcnn1", "a9a", "phishing", "skin_nonskin", "w8a"),
            "plain": ("ijcnn1", "a9a", "phishing", "skin_nonskin", "w8a"), "csr": ("ijcnn1", "a9a", "w8a")}


def _cells(tag, solver, datasets=None, budget=None):
    return [r["solvers"][solver] for r in load(RUNS[tag])["results"]
            if (datasets is None or r["dataset"] in datasets) and budget in (None, r["budget"])]


def _signed(values, fmt, unit):
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    if min(values) < 0 <= max(values):
        return f"{lo}{unit} to +{hi}{unit}"
    return span(values, fmt, unit)


def _register(name, tag, solver, field, datasets=None, budget=None):
    fn, fmt, unit = FIELDS[field]
    value(name)(lambda: _signed([fn(s) for s in _cells(tag, solver, datasets, budget)], fmt, unit))


for _tag, _sets in DATASETS.items():
    for _solver in SOLVERS:
        for _field in FIELDS:
            _register(f"lk.{_tag}.{_solver}.{_field}", _tag, _solver, _field)
            for _ds in _sets:
                _register(f"lk.{_tag}.{_ds}.{_solver}.{_field}", _tag, _solver, _field, (_ds,))
                for _b in (100, 500):
                    _register(f"lk.{_tag}.{_ds}.B{_b}.{_solver}.{_field}", _tag, _solver, _field, (_ds,), _b)
_register("lk.pruned.near.lookup-wd.save-total", "pruned", "lookup-wd", "save-total", ("ijcnn1", "w8a", "phishing"))


for _tag in RUNS:
    register_machine(f"lk.{_tag}.machine", RUNS[_tag], "git_head")


@value("lk.gss-pruning.a9a.B500.merge-ratio")
def _gss_pruning_ratio():
    """GSS's merging seconds without pruning over with it, a9a at B = 500 (two runs, their machines named)."""
    plain = _cells("plain", "gss", ("a9a",), 500)[0]["merge_seconds"]
    pruned = _cells("pruned", "gss", ("a9a",), 500)[0]["merge_seconds"]
    return f"{plain / pruned:.0f}x"
