"""Renderers of the speed numbers in docs/bsca.rst from ``benchmarks/bench_bsca.py --speed-only``'s results
(registered in ``benchmarks/docnumbers.py``'s registry; see its docstring).

Values ``bsca.<tag>.<data>.<measure>`` and ``bsca.<tag>.<measure>`` (all data sets), ``<tag>`` one of
:data:`SPEED` (``gss``: golden-section merging with partner pruning; ``gss-plain``: without pruning; ``wd``:
Lookup-WD), ``<measure>``: ``vs-bsgd`` (BSCA epoch / BSGD epoch), ``vs-block`` (BSCA epoch / one numpy n x B
kernel block), ``B<budget>.vs-block``, ``speedup`` (Python / compiled on 500 steps), ``events`` (BSCA's
maintenance events per step, percent), ``machine`` (CPU and commit of the run).  Spans run over the budgets
and both visiting schemes (uniform draws, permutation) unless a budget is named.
"""

from _docgen import load, span, value

SPEED = {"gss": "bench_bsca_speed_gss", "gss-plain": "bench_bsca_speed_gss_no_pruning",
         "wd": "bench_bsca_speed_lookup_wd"}
DATASETS = ("ijcnn1", "a9a", "covtype")


def _cells(tag, dataset=None, budget=None):
    """(data result, budget result, scheme result) of the speed runs of ``tag``."""
    out = []
    for ds, res in load(SPEED[tag])["results"].items():
        if dataset not in (None, ds):
            continue
        for b, sp in res["speed"].items():
            if budget not in (None, int(b)):
                continue
            out.extend((res, sp, sch) for sch in sp["schemes"].values())
    return out


_MEASURES = {
    "vs-bsgd": (lambda res, sp, sch: sch["bsca_epoch"] / sch["bsgd_epoch"], "{:.2f}", ""),
    "vs-block": (lambda res, sp, sch: sch["bsca_epoch"] / sp["kernel_block"], "{:.2f}", "x"),
    "speedup": (lambda res, sp, sch: sp["speedup"], "{:.0f}", "x"),
    "events": (lambda res, sp, sch: 100.0 * sch["bsca_events"] / res["n"], "{:.0f}", " %"),
}


def _register(tag, dataset, budget, measure):
    fn, fmt, unit = _MEASURES[measure]
    name = ".".join(["bsca", tag] + ([dataset] if dataset else []) + ([f"B{budget}"] if budget else []) + [measure])
    value(name)(lambda: span([fn(*c) for c in _cells(tag, dataset, budget)], fmt=fmt, unit=unit))


for _tag in SPEED:
    for _m in _MEASURES:
        _register(_tag, None, None, _m)
        for _ds in DATASETS:
            _register(_tag, _ds, None, _m)
            for _b in (200, 500):
                _register(_tag, _ds, _b, _m)


def _register_machine(tag):
    @value(f"bsca.{tag}.machine")
    def _machine():
        m = load(SPEED[tag])["machine"]
        return f"{m['cpu']}, commit {m['git']}"


for _tag in SPEED:
    _register_machine(_tag)
