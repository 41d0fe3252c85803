"""Renderers of the numbers in docs/baselines.rst and docs/gaps.rst from ``refsvm reproduce --json`` results
(``benchmarks/results/reproduce_*.json``) and ``bench_online``'s (registered in ``benchmarks/docnumbers.py``'s
registry; see its docstring).

Values ``rp.<file>.<row>.<data>.<field>`` for the rows listed in :data:`ROWS` (``<file>``: a short name of
:data:`FILES`; ``<field>``: ``mean`` (our mean error), ``minority`` (the data's minority share), ``eta-<value>``
(the mean error at that grid point), ``chosen`` (the chosen eta), ``seconds`` (mean train seconds),
``paper-seconds``); ``rp.<file>.minutes`` (the run's wall time); the Lu et al. Table 3 time ratios
``rp.lu3.time-ratio``; blocks ``repro-cotter-checkpoints`` (Cotter et al.'s curves at 1/4, 1 and 10 epochs)
and ``online-speed`` (bench_online: both paths per learner).
"""

import numpy as np

from _docgen import load, renderer, span, table, value

#: short name -> results file stem
FILES = {
    "lu5small": "reproduce_lu2016-table5_small",
    "lu5budget": "reproduce_lu2016-table5_budgeted_large",
    "lu5ogd": "reproduce_lu2016-table5_fogd_nogd_large",
    "lu5large": "reproduce_lu2016-table5_large",
    "lu5unb": "reproduce_lu2016-table5-unbudgeted",
    "lu3": "reproduce_lu2016-table3",
    "cotter": "reproduce_cotter2012-figure2",
}

#: value name (after "rp.") -> (file, row label, data-set label, field)
ROWS = {
    "lu5small.perceptron.spambase.mean": ("lu5small", "Perceptron", "spambase", "mean"),
    "lu5small.ogd.spambase.mean": ("lu5small", "OGD", "spambase", "mean"),
    "lu5small.rbp.spambase.mean": ("lu5small", "RBP", "spambase", "mean"),
    "lu5small.nogd.spambase.mean": ("lu5small", "NOGD", "spambase", "mean"),
    "lu5small.forgetron.spambase.mean": ("lu5small", "Forgetron", "spambase", "mean"),
    "lu5budget.forgetron-code.a9a.mean": ("lu5budget", "Forgetron [code]", "a9a", "mean"),
    "lu5budget.forgetron.a9a.mean": ("lu5budget", "Forgetron", "a9a", "mean"),
    "lu5budget.projectronpp-code.a9a.mean": ("lu5budget", "Projectron++ [code]", "a9a", "mean"),
    "lu5budget.projectronpp.a9a.mean": ("lu5budget", "Projectron++", "a9a", "mean"),
    "lu5budget.projectronpp-code.ijcnn1.mean": ("lu5budget", "Projectron++ [code]", "ijcnn1", "mean"),
    "lu5budget.bogd-code.a9a.eta-0.2": ("lu5budget", "BOGD [code]", "a9a", "eta-0.2"),
    "lu5budget.bogd-code.ijcnn1.eta-0.2": ("lu5budget", "BOGD [code]", "ijcnn1", "eta-0.2"),
    "lu5budget.bogd.a9a.eta-0.2": ("lu5budget", "BOGD", "a9a", "eta-0.2"),
    "lu5budget.bogd.a9a.minority": ("lu5budget", "BOGD", "a9a", "minority"),
    "lu5budget.bogd.ijcnn1.minority": ("lu5budget", "BOGD", "ijcnn1", "minority"),
    "lu5ogd.nogd.w8a.eta-0.2": ("lu5ogd", "NOGD", "w8a", "eta-0.2"),
    "lu5ogd.nogd.ijcnn1.eta-0.2": ("lu5ogd", "NOGD", "ijcnn1", "eta-0.2"),
    "lu5ogd.nogd.w8a.minority": ("lu5ogd", "NOGD", "w8a", "minority"),
    "lu5ogd.nogd.ijcnn1.minority": ("lu5ogd", "NOGD", "ijcnn1", "minority"),
    "lu5ogd.nogd.w8a.mean": ("lu5ogd", "NOGD", "w8a", "mean"),
    "lu5ogd.nogd.ijcnn1.mean": ("lu5ogd", "NOGD", "ijcnn1", "mean"),
    "lu5ogd.nogd.w8a.chosen": ("lu5ogd", "NOGD", "w8a", "chosen"),
    "lu5ogd.nogd.ijcnn1.chosen": ("lu5ogd", "NOGD", "ijcnn1", "chosen"),
    "lu5unb.perceptron.w8a-50.mean": ("lu5unb", "Perceptron", "w8a 50%", "mean"),
    "lu5unb.perceptron.w8a-77.mean": ("lu5unb", "Perceptron", "w8a 77%", "mean"),
    "lu5unb.perceptron.w8a.mean": ("lu5unb", "Perceptron", "w8a", "mean"),
    "lu5unb.ogd-code.w8a.mean": ("lu5unb", "OGD eta=0.2", "w8a", "mean"),
    "lu5unb.ogd-code.ijcnn1.mean": ("lu5unb", "OGD eta=0.2", "ijcnn1", "mean"),
    "lu3.bsgd-m.a9a.seconds": ("lu3", "BSGD-M", "a9a", "seconds"),
    "lu3.bsgd-m.a9a.paper-seconds": ("lu3", "BSGD-M", "a9a", "paper-seconds"),
}


def _row(file, algorithm, dataset):
    for r in load(FILES[file])["rows"]:
        if r["algorithm"] == algorithm and r["dataset"] == dataset:
            return r
    raise KeyError(f"no row {algorithm!r} / {dataset!r} in {FILES[file]}.json")


def _field(row, field):
    if field == "mean":
        return f"{row['error_mean']:.2f}"
    if field == "minority":
        return f"{row['minority_share']:.2f}"
    if field.startswith("eta-"):
        return f"{row['grid'][str({'eta': float(field[4:])})]:.2f}"
    if field == "chosen":
        return f"{row['chosen']['eta']:g}"
    if field == "seconds":
        return f"{row['seconds_mean']:.2g}"
    if field == "paper-seconds":
        return f"{row['paper']['seconds']:.0f}"
    raise KeyError(field)


def _register_row(name, spec):
    file, algorithm, dataset, field = spec
    value("rp." + name)(lambda: _field(_row(file, algorithm, dataset), field))


for _name, _spec in ROWS.items():
    _register_row(_name, _spec)


def _register_minutes(short):
    value(f"rp.{short}.minutes")(lambda: f"{load(FILES[short])['wall_seconds'] / 60:.1f}")


for _short in ("lu5large", "cotter", "lu3"):
    _register_minutes(_short)


def _lu3_trained():
    return [r for r in load(FILES["lu3"])["rows"] if r.get("available") and (r.get("paper") or {}).get("seconds")]


@value("rp.lu3.time-ratio")
def _lu3_time_ratio():
    """The paper's train seconds over ours, span over the rows refsvm runs."""
    return span([r["paper"]["seconds"] / r["seconds_mean"] for r in _lu3_trained()], fmt="{:.0f}", unit="x")


@value("rp.lu3.ogd-seconds")
def _lu3_ogd_seconds():
    """Our FOGD / NOGD train seconds, span over both data sets."""
    return span([r["seconds_mean"] for r in _lu3_trained() if r["algorithm"] in ("FOGD", "NOGD")],
                fmt="{:.1f}", unit=" s")


@value("rp.lu3.bsgd-seconds")
def _lu3_bsgd_seconds():
    """Our BSGD-M / BSGD-R train seconds, span over both data sets."""
    return span([r["seconds_mean"] for r in _lu3_trained() if r["algorithm"].startswith("BSGD")],
                fmt="{:.1f}", unit=" s")


@renderer("repro-cotter-checkpoints")
def _cotter_checkpoints(fmt):
    """Cotter et al.'s Figure 2 as run: mean test error and kernel evaluations at 1/4, 1 and 10 epochs."""
    rows = []
    for r in load(FILES["cotter"])["rows"]:
        curves = np.array([s["curve"] for s in r["per_seed"]], dtype=float)     # seed x checkpoint x (ep, k.e., err)
        cells = []
        for epoch in (0.25, 1.0, 10.0):
            j = int(np.flatnonzero(np.isclose(curves[0, :, 0], epoch))[0])
            cells.append(f"{curves[:, j, 2].mean():.2f} % @ {curves[:, j, 1].mean():.2g}")
        rows.append([r["dataset"], r["algorithm"], *cells])
    return table(["panel", "solver", "1/4 epoch", "1 epoch", "10 epochs"], rows, fmt)


@renderer("online-speed")
def _online_speed(fmt):
    """bench_online: microseconds per example of both paths, per learner, and their ratio."""
    rows = [[r["learner"], r["n_sv"], f"{r['us_python']:.1f}", f"{r['us_fast']:.2f}", f"{r['ratio']:.1f}x"]
            for r in load("bench_online")["rows"]]
    return table(["learner", "#SV", "Python µs/example", "compiled µs/example", "ratio"], rows, fmt)


@value("rp.online.passing")
def _online_passing():
    """The learners whose compiled path is at least 20x the reference (bench_online's target)."""
    names = [r["learner"] for r in load("bench_online")["rows"] if r["ratio"] >= 20.0]
    return ", ".join(names) if names else "none"


@value("rp.lu5ogd.fogd.max-gap")
def _fogd_max_gap():
    """The largest |ours - paper| of FOGD's rows on the large sets (points)."""
    rows = [r for r in load(FILES["lu5ogd"])["rows"] if r["algorithm"] == "FOGD" and r.get("paper")]
    return f"{max(abs(r['error_mean'] - r['paper']['mean']) for r in rows):.2f}"


@value("rp.lu3.ogd.max-gap")
def _lu3_ogd_max_gap():
    """The largest |ours - paper| of FOGD's and NOGD's rows of Lu et al.'s Table 3 (points)."""
    return f"{max(abs(r['error_mean'] - r['paper']['mean']) for r in _lu3_trained() if r['algorithm'] in ('FOGD', 'NOGD')):.1f}"


def _register_lu3_bsgd_diff(dataset):
    @value(f"rp.lu3.bsgd.{dataset}.diff")
    def _diff():
        """ours - paper (points) of BSGD-M and BSGD-R on ``dataset``, signed, as a span."""
        diffs = [r["error_mean"] - r["paper"]["mean"] for r in _lu3_trained()
                 if r["algorithm"].startswith("BSGD") and r["dataset"] == dataset]
        lo, hi = f"{min(diffs):+.1f}", f"{max(diffs):+.1f}"
        return lo if lo == hi else f"{lo} to {hi}"


for _ds in ("w8a", "a9a"):
    _register_lu3_bsgd_diff(_ds)


@value("rp.lu3.constant-rows")
def _lu3_constant_rows():
    """The rows of Lu et al.'s Table 3 whose reported runs predict one class on the test split ("none": none)."""
    rows = [f"{r['algorithm']} on {r['dataset']}" for r in load(FILES["lu3"])["rows"] if r.get("constant")]
    return ", ".join(rows) if rows else "none"
