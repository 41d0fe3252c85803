"""``refsvm reproduce NAME``: rerun a paper's comparison table and print it beside the paper's numbers.

A *table* (:class:`Table`, registered in :mod:`refsvm.reproduce_tables`) is a
list of data sets and a list of *entries* (:class:`Entry`: one row of the
paper, i.e. one algorithm with its parameters).  Every entry x data set x seed
(x grid value, where the paper tuned a parameter on a grid) is one task; the
tasks run through :mod:`joblib`:

* ``--n-jobs N`` local worker processes (joblib's default ``loky`` backend);
* ``--backend dask --scheduler ADDRESS``: a ``dask.distributed.Client`` is
  connected to the scheduler and the same tasks run on the cluster through
  ``joblib.parallel_config(backend="dask")`` (needs ``pip install
  "dask[distributed]"``); ``--backend ray`` through Ray's joblib backend
  (``ray.util.joblib.register_ray``, needs ``pip install ray``; the address
  goes to ``ray.init``).  No scheduling is done here: joblib hands the tasks
  to the backend.

Each task depends only on (data, parameters, seed): the visiting order and all
random numbers come from ``numpy.random.default_rng(seed)``, so the numbers do
not depend on the number of workers or the backend (timings do).

Where a parameter was chosen from a grid in the paper, all grid values are
run on the same seeds and the one with the best mean is reported (the papers
tuned on the reported runs; so do we, and the chosen value is printed).

A new algorithm joins a table with one line in :mod:`refsvm.reproduce_tables`
(an :class:`Entry` naming its runner, a function
``run(X, y, X_test, y_test, seed, **params) -> dict`` returning ``error``
(percent) and ``seconds``).
"""

import importlib
import json
import os
import platform
import shlex
import sys
import time
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Entry", "Dataset", "Table", "tables", "reproduce", "run_online", "run_estimator", "run_batch", "run_bsgd"]


@dataclass
class Entry:
    """One row of a paper's table."""

    label: str                      #: name in the paper
    runner: str = None              #: "module:function"; None = not yet available in refsvm
    params: dict = field(default_factory=dict)   #: fixed keyword arguments (callables get the data size n)
    grid: dict = field(default_factory=dict)     #: parameter -> values tried (best mean reported)
    note: str = ""                  #: e.g. why it is not available
    per_dataset: dict = field(default_factory=dict)  #: data label -> parameters for that data set only


@dataclass
class Dataset:
    """A data set as a table uses it."""

    label: str                      #: name in the paper
    file: str                       #: stem for refsvm.datasets.load_libsvm
    protocol: str = "stream"        #: "stream": train+test concatenated, one online pass; "split": train / test
    standardize: bool = False
    params: dict = field(default_factory=dict)   #: per-data-set parameters (e.g. gamma, C)
    note: str = ""
    split_train: float = 0.75       #: "split" without a test file: fraction of default_rng(split_seed).permutation kept for training
    split_seed: int = 12345
    positive: float = None          #: one-vs-rest: this label -> +1, every other -> -1
    scale: float = None             #: divide the features by this (e.g. 255 for pixels)
    max_train: int = None           #: keep a fixed random subset (default_rng(2)) of the training rows
    max_test: int = None            #: ... and of the test rows (default_rng(3))


@dataclass
class Table:
    """A paper's comparison table."""

    name: str
    title: str
    metric: str                     #: what "error" means, e.g. "online mistake rate (%)"
    datasets: list = field(default_factory=list)
    entries: list = field(default_factory=list)
    paper: dict = field(default_factory=dict)    #: (entry label, data label) -> (mean, std or None, seconds or None)
    seeds: int = 20
    available: bool = True
    note: str = ""
    quick_rows: int = 600           #: --quick: rows kept per data set (and test rows)
    plot: str = None                #: "module:function" drawing --png; None = bar chart (plot_table)

    def add(self, entry):
        """Register one more row (e.g. ``TABLES["lu2016-table5"].add(Entry("FOGD", "refsvm.x:run", ...))``)."""
        self.entries = [e for e in self.entries if e.label != entry.label] + [entry]


def tables():
    """The registry: table name -> :class:`Table` (defined in :mod:`refsvm.reproduce_tables`)."""
    from .reproduce_tables import TABLES

    return TABLES


# ----------------------------------------------------------------------------- runners


def _labels_pm1(y):
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"binary data expected, got classes {classes!r}")
    return np.where(y == classes[1], 1, -1).astype(np.int64)


def run_online(X, y, X_test, y_test, seed, *, algorithm, backend="fast", **params):
    """One pass of a learner of :mod:`refsvm.online` over ``rng.permutation(n)``.

    ``rng = default_rng(seed)``; the order first, then one uniform per step.
    Returns the online mistake rate (``error``, percent) and, with a test
    split, the test error of the final model (``test_error``); ``seconds`` is
    the time of the pass.
    """
    from .backend import get_module

    module = get_module("online", backend)
    rng = np.random.default_rng(seed)
    order = rng.permutation(X.shape[0]).astype(np.int64)
    uniforms = rng.random(X.shape[0])
    name = "projectron" if algorithm in ("projectron", "projectron++") else algorithm
    if name == "projectron":
        params = dict(params, plusplus=algorithm == "projectron++")
    kernel = dict(kernel="rbf", degree=3, coef0=0.0)
    start = time.perf_counter()
    if name in ("rbp", "bogd"):
        res = getattr(module, name)(X, y, order, uniforms, **kernel, **params)
    else:
        res = getattr(module, name)(X, y, order, **kernel, **params)
    seconds = time.perf_counter() - start
    out = dict(error=100.0 * res.trace["mistakes"] / len(order), seconds=seconds, n_sv=len(res.sv))
    if X_test is not None:
        out["error"] = _test_error(res.sv, res.alpha, res.bias, params["gamma"], X_test, y_test, backend)
        out["online_error"] = 100.0 * res.trace["mistakes"] / len(order)
    return out


def run_estimator(X, y, X_test, y_test, seed, *, estimator, **params):
    """Any refsvm estimator by dotted name (``"refsvm.OnlineKernelClassifier"``), ``random_state=seed``.

    ``error``: the test error with a test split, else the online mistake rate
    of the (first) pass, ``trace_[0]["online_error_rate"]``, in percent.
    """
    module, _, cls = estimator.rpartition(".")
    est = getattr(importlib.import_module(module), cls)(random_state=seed, **params)
    start = time.perf_counter()
    est.fit(X, y)
    seconds = time.perf_counter() - start
    if X_test is not None:
        error = 100.0 * float(np.mean(est.predict(X_test) != y_test))
    else:
        error = 100.0 * float(est.trace_[0]["online_error_rate"])
    return dict(error=error, seconds=seconds, n_sv=int(len(getattr(est, "support_vectors_", ()))))


def run_batch(X, y, X_test, y_test, seed, *, estimator, **params):
    """Batch protocol: ``fit`` on the training split, ``predict`` the test split; both timed.

    ``estimator`` is a dotted name as for :func:`run_estimator`; returns
    ``error`` (test error, percent), ``seconds`` (fit) and ``test_seconds``
    (predict).
    """
    from threadpoolctl import threadpool_limits

    module, _, cls = estimator.rpartition(".")
    est = getattr(importlib.import_module(module), cls)(random_state=seed, **params)
    with threadpool_limits(limits=1, user_api="blas"):      # spinning BLAS threads slow NOGD 10x on a busy machine
        start = time.perf_counter()
        est.fit(X, y)
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        pred = est.predict(X_test)
        test_seconds = time.perf_counter() - start
    return dict(error=100.0 * float(np.mean(pred != y_test)), seconds=seconds, test_seconds=test_seconds)


def run_bsgd(X, y, X_test, y_test, seed, *, C, gamma, budget, maintenance, merge_solver="gss",
             epochs=1, backend="fast"):
    """BSGD (BPegasos, ``lam = 1/(n C)``) for ``epochs`` passes; test error of the last model."""
    from .backend import get_module

    bsgd = get_module("bsgd", backend).bsgd
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    sv = alpha = bias = None
    t = 0
    start = time.perf_counter()
    for _ in range(epochs):
        order = rng.permutation(n).astype(np.int64)
        res = bsgd(X, y, order, n_classes=2, budget=budget, lam=1.0 / (n * C), learning_rate="pegasos",
                   eta=1.0, radius=1.0, maintenance=maintenance, kernel="rbf", gamma=gamma, degree=3,
                   coef0=0.0, merge_eps=0.01, projection_ridge=1e-10, fit_bias=False, sv=sv, alpha=alpha,
                   bias=bias, t0=t, merge_solver=merge_solver)
        sv, alpha, bias, t = res.sv, res.alpha, res.bias, res.t
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    error = _test_error(sv, alpha, bias, gamma, X_test, y_test, backend)
    return dict(error=error, seconds=seconds, test_seconds=time.perf_counter() - start, n_sv=len(sv))


def _test_error(sv, alpha, bias, gamma, X, y, backend, chunk=20000):
    from .backend import get_module

    kernels = get_module("kernels", backend)
    wrong = 0
    for s in range(0, X.shape[0], chunk):
        Xc = np.ascontiguousarray(X[s:s + chunk])
        f = (kernels.kernel_matrix(Xc, sv, "rbf", gamma, 3, 0.0) @ alpha[:, 0] + bias[0]) if len(sv) else np.zeros(len(Xc))
        wrong += int(np.sum(y[s:s + chunk] * f <= 0))
    return 100.0 * wrong / X.shape[0]


def _call(runner, X, y, X_test, y_test, seed, params):
    """One task (runs in a worker)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    module, _, func = runner.partition(":")
    return getattr(importlib.import_module(module), func)(X, y, X_test, y_test, seed, **params)


# ----------------------------------------------------------------------------- data


def _load(ds, quick_rows, quick):
    from .datasets import load_libsvm

    X, y, Xt, yt = load_libsvm(ds.file, standardize=ds.standardize)
    if ds.protocol == "stream" and Xt is not None:
        X, y, Xt, yt = np.vstack([X, Xt]), np.concatenate([y, yt]), None, None
    if ds.protocol == "split" and Xt is None:           # fixed random split (default 75 / 25)
        perm = np.random.default_rng(ds.split_seed).permutation(X.shape[0])
        cut = (3 * X.shape[0]) // 4 if ds.split_train == 0.75 else int(ds.split_train * X.shape[0])
        X, y, Xt, yt = X[perm[:cut]], y[perm[:cut]], X[perm[cut:]], y[perm[cut:]]
    if ds.scale is not None:
        X = X / ds.scale
        Xt = None if Xt is None else Xt / ds.scale
    if ds.positive is not None:
        y = np.where(y == ds.positive, 1, -1)
        yt = None if yt is None else np.where(yt == ds.positive, 1, -1)
    if ds.max_train is not None and X.shape[0] > ds.max_train:
        keep = np.sort(np.random.default_rng(2).permutation(X.shape[0])[:ds.max_train])
        X, y = X[keep], y[keep]
    if ds.max_test is not None and Xt is not None and Xt.shape[0] > ds.max_test:
        keep = np.sort(np.random.default_rng(3).permutation(Xt.shape[0])[:ds.max_test])
        Xt, yt = Xt[keep], yt[keep]
    y = _labels_pm1(y)
    if yt is not None:
        yt = _labels_pm1(yt)
    if quick:
        keep = np.random.default_rng(0).permutation(X.shape[0])[:quick_rows]
        X, y = X[np.sort(keep)], y[np.sort(keep)]
        if Xt is not None:
            keep = np.random.default_rng(1).permutation(Xt.shape[0])[:quick_rows]
            Xt, yt = Xt[np.sort(keep)], yt[np.sort(keep)]
    X = np.ascontiguousarray(X)
    Xt = None if Xt is None else np.ascontiguousarray(Xt)
    return X, y, Xt, yt


def _grid_points(grid):
    points = [{}]
    for name, values in grid.items():
        points = [dict(p, **{name: v}) for p in points for v in values]
    return points


def _machine():
    info = dict(platform=platform.platform(), python=platform.python_version(), cpus=os.cpu_count())
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        info["cpu"] = platform.processor()
    try:
        info["load_average"] = os.getloadavg()
    except OSError:
        pass
    return info


# ----------------------------------------------------------------------------- main entry


def reproduce(name, *, quick=False, n_jobs=1, backend="loky", scheduler=None, seeds=None, datasets=None,
              entries=None, json_path=None, png_path=None, out=None):
    """Run table ``name``; print it beside the paper; return the result dict (also written as JSON / PNG).

    ``datasets`` / ``entries``: optional subsets (labels or file stems / entry labels).
    """
    _tables = tables()
    if name not in _tables:
        raise ValueError(f"name must be one of {', '.join(sorted(_tables))}; got {name!r}")
    table = _tables[name]
    if not table.available:
        raise NotImplementedError(f"{name}: not yet available. {table.note}")
    n_seeds = seeds if seeds is not None else (2 if quick else table.seeds)
    chosen_ds = [d for d in table.datasets if datasets is None or d.label in datasets or d.file in datasets]
    chosen_en = [e for e in table.entries if entries is None or e.label in entries]

    data = {d.label: _load(d, table.quick_rows, quick) for d in chosen_ds}
    tasks, keys = [], []
    for d in chosen_ds:
        X, y, Xt, yt = data[d.label]
        for e in chosen_en:
            if e.runner is None:
                continue
            for point in _grid_points(e.grid):
                merged = {**d.params, **e.params, **e.per_dataset.get(d.label, {}), **point}
                params = {k: (v(X.shape[0]) if callable(v) else v) for k, v in merged.items()}
                for seed in range(n_seeds):
                    tasks.append((e.runner, X, y, Xt, yt, seed, params))
                    keys.append((e.label, d.label, tuple(sorted(point.items())), seed, params))

    start = time.perf_counter()
    results = _run_tasks(tasks, n_jobs, backend, scheduler)
    wall = time.perf_counter() - start

    rows = []
    for d in chosen_ds:
        for e in chosen_en:
            paper = table.paper.get((e.label, d.label))
            row = dict(algorithm=e.label, dataset=d.label, file=d.file, n=int(data[d.label][0].shape[0]),
                       paper=None if paper is None else dict(zip(("mean", "std", "seconds", "test_seconds"), paper)))
            if e.runner is None:
                row.update(available=False, note=e.note or "not yet available in refsvm")
                rows.append(row)
                continue
            by_point = {}
            for key, res in zip(keys, results):
                if key[0] == e.label and key[1] == d.label:
                    by_point.setdefault(key[2], []).append((key[3], key[4], res))
            best = min(by_point, key=lambda p: np.mean([r["error"] for _, _, r in by_point[p]]))
            runs = sorted(by_point[best], key=lambda s: s[0])
            errors = np.array([r["error"] for _, _, r in runs])
            row.update(
                available=True, params=runs[0][1], chosen=dict(best),
                grid={str(dict(p)): float(np.mean([r["error"] for _, _, r in v])) for p, v in by_point.items()} if e.grid else {},
                error_mean=float(errors.mean()), error_std=float(errors.std(ddof=1)) if len(errors) > 1 else 0.0,
                seconds_mean=float(np.mean([r["seconds"] for _, _, r in runs])),
                **({"test_seconds_mean": float(np.mean([r["test_seconds"] for _, _, r in runs]))}
                   if all("test_seconds" in r for _, _, r in runs) else {}),
                per_seed=[dict(seed=s, **{k: v for k, v in r.items()}) for s, _, r in runs],
            )
            rows.append(row)
    result = dict(
        table=table.name, title=table.title, metric=table.metric, quick=bool(quick), seeds=n_seeds,
        n_jobs=n_jobs, backend=backend, wall_seconds=wall, machine=_machine(),
        command="refsvm reproduce " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if sys.argv[1:2] == ["reproduce"] else None,
        note=table.note, rows=rows,
    )
    print(format_table(result), file=sys.stdout if out is None else out)
    if json_path:
        with open(json_path, "w") as f:
            json.dump(result, f, indent=1, default=_json_default)
    if png_path:
        if table.plot:
            module, _, func = table.plot.partition(":")
            getattr(importlib.import_module(module), func)(result, png_path)
        else:
            plot_table(result, png_path)
    return result


def _json_default(o):
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(type(o))


def _run_tasks(tasks, n_jobs, backend, scheduler):
    from joblib import Parallel, delayed, parallel_config

    if backend not in ("loky", "dask", "ray"):
        raise ValueError(f"backend must be one of 'loky', 'dask', 'ray'; got {backend!r}")
    jobs = [delayed(_call)(*t) for t in tasks]
    if backend == "loky":
        return Parallel(n_jobs=n_jobs)(jobs)
    if backend == "dask":
        try:
            from dask.distributed import Client
        except ImportError as exc:
            raise RuntimeError('backend="dask" needs dask.distributed: pip install "dask[distributed]"') from exc
        client = Client(scheduler) if scheduler else Client()
        try:
            with parallel_config(backend="dask"):
                return Parallel(n_jobs=n_jobs)(jobs)
        finally:
            client.close()
    try:
        import ray
        from ray.util.joblib import register_ray
    except ImportError as exc:
        raise RuntimeError('backend="ray" needs ray: pip install ray') from exc
    ray.init(address=scheduler) if scheduler else ray.init()
    register_ray()
    with parallel_config(backend="ray"):
        return Parallel(n_jobs=n_jobs)(jobs)


def format_table(result):
    """Plain-text table: per data set, our mean +- std (seeds) beside the paper's, and times."""
    lines = [f"{result['table']}: {result['title']}",
             f"metric: {result['metric']}; {result['seeds']} seed(s){' (QUICK: subsampled data)' if result['quick'] else ''}; "
             f"{result['n_jobs']} job(s), backend {result['backend']}, wall {result['wall_seconds']:.1f} s"]
    if result.get("note"):
        lines.append(result["note"])
    for ds in dict.fromkeys(r["dataset"] for r in result["rows"]):
        rows = [r for r in result["rows"] if r["dataset"] == ds]
        test_t = any((r["paper"] or {}).get("test_seconds") is not None for r in rows)   # a train / test time table
        lines.append("")
        lines.append(f"{ds} (n = {rows[0]['n']})")
        lines.append(f"  {'algorithm':<24}{'ours':>16}{'paper':>16}{'diff':>8}{'ours s':>10}{'paper s':>10}"
                     + (f"{'test s':>9}{'paper':>9}" if test_t else "") + "  chosen")
        for r in rows:
            p = r["paper"] or {}
            paper = "" if p.get("mean") is None else (f"{p['mean']:.2f}" + (f" ± {p['std']:.2f}" if p.get("std") is not None else ""))
            psec = "" if p.get("seconds") is None else f"{p['seconds']:.3g}"
            ptest = "" if p.get("test_seconds") is None else f"{p['test_seconds']:.3g}"
            if not r["available"]:
                lines.append(f"  {r['algorithm']:<24}{'n/a':>16}{paper:>16}{'':>8}{'':>10}{psec:>10}"
                             + (f"{'':>9}{ptest:>9}" if test_t else "") + f"  {r['note']}")
                continue
            ours = f"{r['error_mean']:.2f} ± {r['error_std']:.2f}"
            diff = "" if p.get("mean") is None else f"{r['error_mean'] - p['mean']:+.2f}"
            chosen = ", ".join(f"{k}={v:g}" for k, v in r["chosen"].items())
            if r["per_seed"] and "curve" in r["per_seed"][0]:       # curve tables: where the curve went
                curves = np.array([s["curve"] for s in r["per_seed"]])
                chosen = "; ".join(f"{cp:g} ep: {e:.2f} % @ {ev:.3g} k.e." for cp, ev, e in
                                   zip(curves[0, :, 0], curves[:, :, 1].mean(0), curves[:, :, 2].mean(0))
                                   if cp in (0.25, 1, 10))
            otest = f"{r['test_seconds_mean']:.3g}" if "test_seconds_mean" in r else ""
            lines.append(f"  {r['algorithm']:<24}{ours:>16}{paper:>16}{diff:>8}{r['seconds_mean']:>10.3g}{psec:>10}"
                         + (f"{otest:>9}{ptest:>9}" if test_t else "") + f"  {chosen}")
    m = result["machine"]
    lines.append("")
    lines.append(f"machine: {m.get('cpu')} ({m.get('cpus')} cpus), load average {m.get('load_average')}, {m.get('platform')}")
    return "\n".join(lines)


def plot_table(result, path):
    """Bar chart, one panel per data set: ours (mean, spread over seeds) beside the paper."""
    try:
        import matplotlib
    except ImportError as exc:
        raise RuntimeError('--png needs matplotlib: pip install "refsvm[plot]"') from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    datasets = list(dict.fromkeys(r["dataset"] for r in result["rows"]))
    fig, axes = plt.subplots(1, len(datasets), figsize=(4.2 * len(datasets), 4), squeeze=False)
    for ax, ds in zip(axes[0], datasets):
        rows = [r for r in result["rows"] if r["dataset"] == ds]
        idx = np.arange(len(rows))
        ours = [r["error_mean"] if r["available"] else np.nan for r in rows]
        spread = [r["error_std"] if r["available"] else 0 for r in rows]
        paper = [(r["paper"] or {}).get("mean", np.nan) for r in rows]
        paper = [np.nan if v is None else v for v in paper]
        ax.bar(idx - 0.2, ours, 0.4, yerr=spread, label="refsvm")
        ax.bar(idx + 0.2, paper, 0.4, label="paper")
        ax.set_xticks(idx)
        ax.set_xticklabels([r["algorithm"] for r in rows], rotation=60, ha="right", fontsize=8)
        ax.set_title(ds)
        ax.set_ylabel(result["metric"])
    axes[0][0].legend()
    fig.suptitle(f"{result['table']}{' (quick)' if result['quick'] else ''}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ----------------------------------------------------------------------------- command line


def add_parser(sub):
    """Add the ``reproduce`` subcommand to ``refsvm``'s argument parser (called by :mod:`refsvm.cli`)."""
    names = ", ".join(sorted(tables()))
    p = sub.add_parser(
        "reproduce", help="rerun a paper's comparison table and print it beside the paper's numbers",
        description=f"Rerun a paper's table (every algorithm x data set x seed) on $REFSVM_DATA. Tables: {names}.")
    p.add_argument("name", metavar="NAME", nargs="?", help="table to run (omit with --list)")
    p.add_argument("--list", action="store_true", help="list the tables and exit (default: False)")
    p.add_argument("--quick", action="store_true", help=f"subsampled data (at most {Table.quick_rows} rows "
                   "per set) and 2 seeds: a smoke run in well under 2 minutes (default: False)")
    p.add_argument("--seeds", type=int, default=None, help="number of seeds; None = the paper's (2 with --quick) (default: None)")
    p.add_argument("--n-jobs", type=int, default=1, help="parallel joblib workers; -1 = all cores (default: 1)")
    p.add_argument("--backend", choices=["loky", "dask", "ray"], default="loky",
                   help="joblib backend: local processes (loky), a Dask cluster, or Ray (default: loky)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="Dask scheduler address (e.g. tcp://host:8786) or Ray address (default: None)")
    p.add_argument("--datasets", nargs="+", default=None, help="only these data sets, paper labels or file stems (default: None)")
    p.add_argument("--algorithms", nargs="+", default=None, help="only these rows, paper labels (default: None)")
    p.add_argument("--json", metavar="PATH", default=None, help="write the results as JSON (default: None)")
    p.add_argument("--png", metavar="PATH", default=None, help="write a bar chart, ours beside the paper; needs "
                   "matplotlib (default: None)")
    p.set_defaults(func=_cmd_reproduce, subparser=p)
    return p


def _cmd_reproduce(args):
    if args.list or args.name is None:
        for name, table in sorted(tables().items()):
            state = "" if table.available else "  [not yet available]"
            print(f"{name:<28}{table.title}{state}")
        return 0
    if args.seeds is not None and args.seeds < 1:
        raise ValueError(f"--seeds must be >= 1; got {args.seeds}")
    try:
        reproduce(args.name, quick=args.quick, n_jobs=args.n_jobs, backend=args.backend,
                  scheduler=args.scheduler, seeds=args.seeds, datasets=args.datasets,
                  entries=args.algorithms, json_path=args.json, png_path=args.png)
    except NotImplementedError as exc:
        print(f"refsvm reproduce: {exc}", file=sys.stderr)
        return 2
    return 0
