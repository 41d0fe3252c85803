"""Renderers of the speed numbers in docs/bsca.rst from ``benchmarks/bench_bsca.py --speed-only``'s results
(registered in ``benchmarks/docnumbers.py``'s registry; see its docstring).

Values ``bsca.<tag>.<data>.<measure>`` and ``bsca.<tag>.<measure>`` (all data sets), ``<tag>`` one of
:data:`SPEED` (``gss``: golden-section merging with partner pruning; ``gss-plain``: without pruning; ``wd``:
Lookup-WD), ``<measure>``: ``vs-bsgd`` (BSCA epoch / BSGD epoch), ``vs-block`` (BSCA epoch / one numpy n x B
kernel block), ``B<budget>.vs-block``, ``speedup`` (Python / compiled on 500 steps), ``events`` (BSCA's
maintenance events per step, percent), ``machine`` (CPU and commit of the run).  Spans run over the budgets
and both visiting schemes (uniform draws, permutation) unless a budget is named.
"""

from _docgen import load, register_machine, renderer, span, table, value

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


for _tag in SPEED:
    register_machine(f"bsca.{_tag}.machine", SPEED[_tag], "git")


# --- bench_bsca's accuracy curves (docs/bsca.rst, "Benchmark") -------------------------------------------------

def _curves(dataset, solver, budget):
    """Per-seed curves (dicts with "accuracy", "maintenance_fraction" per epoch) of bench_bsca's run."""
    return load("bench_bsca")["results"][dataset]["curves"][f"{solver}-{budget}"]


def _acc(dataset, solver, budget, epoch):
    """Test accuracies (percent) over the seeds after ``epoch`` (1-based; -1: the last)."""
    return [100.0 * c["accuracy"][epoch - 1 if epoch > 0 else -1] for c in _curves(dataset, solver, budget)]


def _mean_sd(values):
    """"mean ± sd", the standard deviation over the seeds with divisor n (bench_bsca.txt's convention)."""
    import statistics
    return f"{statistics.mean(values):.2f} ± {statistics.pstdev(values):.2f}"


@renderer("bsca-accuracy-by-budget")
def _bsca_accuracy_by_budget(fmt):
    """Test accuracy (mean ± sd over the seeds) after one epoch and after the last; maintenance fractions."""
    rows = []
    for ds in DATASETS:
        for b in (200, 500):
            frac = [sum(c["maintenance_fraction"][-1] for c in _curves(ds, s, b)) / len(_curves(ds, s, b))
                    for s in ("bsca", "bsgd")]
            rows.append([ds, b, _mean_sd(_acc(ds, "bsca", b, 1)), _mean_sd(_acc(ds, "bsgd", b, 1)),
                         _mean_sd(_acc(ds, "bsca", b, -1)), _mean_sd(_acc(ds, "bsgd", b, -1)),
                         f"{frac[0]:.3f} / {frac[1]:.3f}"])
    return table(["data", "B", "BSCA, 1 epoch", "BSGD, 1 epoch", "BSCA, 10 epochs", "BSGD, 10 epochs",
                  "maintenance fraction BSCA / BSGD (epoch 10)"], rows, fmt)


def _register_acc(dataset, solver, budget, epoch, kind):
    suffix = {1: "epoch1", -1: "last"}[epoch]
    fn = {"mean-sd": _mean_sd, "range": lambda v: span(v, fmt="{:.1f}", unit=" %")}[kind]
    value(f"bsca.bench.{dataset}.{solver}.B{budget}.{suffix}.{kind}")(lambda: fn(_acc(dataset, solver, budget, epoch)))


for _ds in DATASETS:
    for _s in ("bsca", "bsgd"):
        for _b in (200, 500):
            for _e in (1, -1):
                for _k in ("mean-sd", "range"):
                    _register_acc(_ds, _s, _b, _e, _k)


@value("bsca.bench.machine")
def _bench_machine():
    m = load("bench_bsca")["machine"]
    return f"{m['cpu']}, commit {m['git']}"


def _q2(algorithm):
    """Accuracies (percent, 100 - error) over the seeds of a row of reproduce_qaadan2019-table2_bsca (ADULT)."""
    for r in load("reproduce_qaadan2019-table2_bsca")["rows"]:
        if r["algorithm"] == algorithm and r["dataset"] == "ADULT":
            return [100.0 - s["error"] for s in r["per_seed"]]
    raise KeyError(algorithm)


def _register_q2(algorithm):
    import statistics

    value(f"bsca.q2.{algorithm.lower()}.mean-sd")(      # refsvm reproduce's convention: divisor n - 1
        lambda: f"{statistics.mean(_q2(algorithm)):.2f} ± {statistics.stdev(_q2(algorithm)):.2f}")
    value(f"bsca.q2.{algorithm.lower()}.median")(lambda: f"{statistics.median(_q2(algorithm)):.2f} %")
    value(f"bsca.q2.{algorithm.lower()}.seeds")(lambda: str(len(_q2(algorithm))))


for _alg in ("BSCA", "BSGD"):
    _register_q2(_alg)
