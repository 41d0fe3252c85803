"""Running a table: tasks through joblib, the result beside the paper's numbers, JSON and PNG output."""

import importlib
import json
import os
import platform
import shlex
import sys
import time
import numpy as np

from .gaps import gap_reason
from .runners import CONSTANT_SHARE, _labels_pm1

#: a grid point whose mean error is the data's minority share within this many points is the constant classifier
CONSTANT_POINTS = 0.01


def tables():
    """The registry: table name -> :class:`Table` (defined in :mod:`refsvm.reproduce.tables`)."""
    from .tables import TABLES

    return TABLES


def _call(runner, X, y, X_test, y_test, seed, params):
    """One task (runs in a worker)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    module, _, func = runner.partition(":")
    return getattr(importlib.import_module(module), func)(X, y, X_test, y_test, seed, **params)


def _load(ds, quick_rows, quick):
    from ..io.datasets import load_libsvm

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


def minority_share(y, y_test):
    """Percent of the evaluated labels (the test split, or the stream) in the rarer class (binary tables)."""
    labels = y if y_test is None else y_test
    _, counts = np.unique(labels, return_counts=True)
    return float(100.0 * counts.min() / counts.sum()) if len(counts) == 2 else None


CV_FOLDS = 5


def cv_folds(n, folds=CV_FOLDS, seed=0):
    """Validation index sets of ``folds``-fold cross-validation: ``default_rng(seed).permutation(n)`` in equal parts."""
    return np.array_split(np.random.default_rng(seed).permutation(n), folds)


def _cross_validate(datasets, entries, data, n_jobs, backend, scheduler):
    """Grid points of ``select="cv5"`` entries chosen by 5-fold CV on the training split (seed 0 for every run).

    Returns ``{(entry, data set): {"chosen": point items, "errors": {point: mean validation error}}}``; a point
    whose validation runs predict (almost) one class is never chosen, as in the grid of reported runs.
    """
    tasks, keys = [], []
    for d in datasets:
        X, y, Xt, _ = data[d.label]
        for e in entries:
            if e.runner is None or e.select != "cv5" or not e.grid:
                continue
            if Xt is None:
                raise ValueError(f"entry {e.label!r}: select='cv5' needs a data set with a test split "
                                 f"({d.label} uses protocol {d.protocol!r})")
            for point in _grid_points(e.grid):
                merged = {**d.params, **e.params, **e.per_dataset.get(d.label, {}), **point}
                for fold in cv_folds(X.shape[0]):
                    train = np.setdiff1d(np.arange(X.shape[0]), fold)
                    params = {k: (v(len(train)) if callable(v) else v) for k, v in merged.items()}
                    tasks.append((e.runner, X[train], y[train], X[fold], y[fold], 0, params))
                    keys.append((e.label, d.label, tuple(sorted(point.items()))))
    if not tasks:
        return {}
    by = {}
    for key, res in zip(keys, _run_tasks(tasks, n_jobs, backend, scheduler)):
        by.setdefault(key[:2], {}).setdefault(key[2], []).append(res)
    out = {}
    for key, points in by.items():
        mean = {p: float(np.mean([r["error"] for r in v])) for p, v in points.items()}
        constant = {p for p, v in points.items()
                    if np.mean([r.get("majority_share", 0.0) for r in v]) >= CONSTANT_SHARE}
        eligible = [p for p in points if p not in constant] or list(points)
        out[key] = dict(chosen=min(eligible, key=mean.get), errors={str(dict(p)): e for p, e in mean.items()},
                        folds=CV_FOLDS)
    return out


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
    known_ds = [d.label for d in table.datasets] + [d.file for d in table.datasets]
    unknown = [x for x in (datasets or ()) if x not in known_ds]
    if unknown:
        raise ValueError(f"datasets: {', '.join(map(repr, unknown))} not in table {name}; its data sets are "
                         f"{', '.join(d.label + ' (' + d.file + ')' for d in table.datasets)}")
    unknown = [x for x in (entries or ()) if x not in [e.label for e in table.entries]]
    if unknown:
        raise ValueError(f"entries: {', '.join(map(repr, unknown))} not in table {name}; its rows are "
                         f"{', '.join(repr(e.label) for e in table.entries)}")
    chosen_ds = [d for d in table.datasets if datasets is None or d.label in datasets or d.file in datasets]
    chosen_en = [e for e in table.entries if entries is None or e.label in entries]

    data = {d.label: _load(d, table.quick_rows, quick) for d in chosen_ds}
    start = time.perf_counter()
    cv = _cross_validate(chosen_ds, chosen_en, data, n_jobs, backend, scheduler)
    tasks, keys = [], []
    for d in chosen_ds:
        X, y, Xt, yt = data[d.label]
        for e in chosen_en:
            if e.runner is None:
                continue
            points = [dict(cv[e.label, d.label]["chosen"])] if (e.label, d.label) in cv else _grid_points(e.grid)
            for point in points:
                merged = {**d.params, **e.params, **e.per_dataset.get(d.label, {}), **point}
                params = {k: (v(X.shape[0]) if callable(v) else v) for k, v in merged.items()}
                for seed in range(n_seeds):
                    tasks.append((e.runner, X, y, Xt, yt, seed, params))
                    keys.append((e.label, d.label, tuple(sorted(point.items())), seed, params))

    results = _run_tasks(tasks, n_jobs, backend, scheduler)
    wall = time.perf_counter() - start

    rows = []
    for d in chosen_ds:
        for e in chosen_en:
            paper = table.paper.get((e.label, d.label))
            row = dict(algorithm=e.label, dataset=d.label, file=d.file, n=int(data[d.label][0].shape[0]),
                       paper=None if paper is None else dict(zip(("mean", "std", "seconds", "test_seconds"), paper)),
                       minority_share=minority_share(data[d.label][1], data[d.label][3]))
            if e.runner is None:
                row.update(available=False, note=e.note or "not yet available in refsvm")
                rows.append(row)
                continue
            by_point = {}
            for key, res in zip(keys, results):
                if key[0] == e.label and key[1] == d.label:
                    by_point.setdefault(key[2], []).append((key[3], key[4], res))
            # A grid point whose runs predict (almost) one class is a constant classifier: its error is
            # the minority share, which can look "better than the paper".  Never select it.  Two signs:
            # the final models give one class to >= 99 % of the evaluated rows, or the mean error equals
            # the minority share within 0.01 points (every prediction, online or on the test split, was
            # the majority class: the final model may still be mixed).
            minority = row["minority_share"]
            constant = {p: np.mean([r.get("majority_share", 0.0) for _, _, r in v]) >= CONSTANT_SHARE
                        or (minority is not None
                            and abs(np.mean([r["error"] for _, _, r in v]) - minority) <= CONSTANT_POINTS)
                        for p, v in by_point.items()}
            eligible = [p for p in by_point if not constant[p]] or list(by_point)
            best = min(eligible, key=lambda p: np.mean([r["error"] for _, _, r in by_point[p]]))
            runs = sorted(by_point[best], key=lambda s: s[0])
            errors = np.array([r["error"] for _, _, r in runs])
            row.update(
                available=True, params=runs[0][1], chosen=dict(best),
                grid={str(dict(p)): float(np.mean([r["error"] for _, _, r in v])) for p, v in by_point.items()} if e.grid else {},
                error_mean=float(errors.mean()), error_std=float(errors.std(ddof=1)) if len(errors) > 1 else 0.0,
                error_median=float(np.median(errors)), error_min=float(errors.min()),
                error_max=float(errors.max()),
                seconds_mean=float(np.mean([r["seconds"] for _, _, r in runs])),
                **({"test_seconds_mean": float(np.mean([r["test_seconds"] for _, _, r in runs]))}
                   if all("test_seconds" in r for _, _, r in runs) else {}),
                per_seed=[dict(seed=s, **{k: v for k, v in r.items()}) for s, _, r in runs],
                **({"cv": cv[e.label, d.label]} if (e.label, d.label) in cv else {}),
                constant=bool(constant[best]),
                constant_points=[str(dict(p)) for p in by_point if constant[p]],
            )
            reason = gap_reason(table.name, row)
            if reason is not None:
                row["gap_reason"], row["gap_text"] = reason
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


def render(json_path, out=None):
    """Print a stored result (the JSON ``reproduce`` wrote) again, with today's gap reasons.

    Rows of results written before the minority share was recorded get it from the table's data
    (``REFSVM_DATA``), so that a paper run that predicted one class is recognised.
    """
    with open(json_path) as f:
        result = json.load(f)
    table = tables().get(result["table"])
    if table is None:
        raise ValueError(f"json_path: {json_path} is a result of table {result['table']!r}, which refsvm does not "
                         f"know; its tables are {', '.join(sorted(tables()))}")
    by_label = {d.label: d for d in table.datasets}
    shares = {}
    for row in result["rows"]:
        if "minority_share" not in row and row["dataset"] in by_label:
            if row["dataset"] not in shares:
                _, y, _, yt = _load(by_label[row["dataset"]], table.quick_rows, result.get("quick", False))
                shares[row["dataset"]] = minority_share(y, yt)
            row["minority_share"] = shares[row["dataset"]]
        row.pop("gap_reason", None)
        row.pop("gap_text", None)
        reason = gap_reason(table.name, row)
        if reason is not None:
            row["gap_reason"], row["gap_text"] = reason
    print(format_table(result), file=sys.stdout if out is None else out)
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
        lines.append(f"  {'algorithm':<24}{'ours':>16}{'median [range]':>24}{'paper':>16}{'diff':>8}{'ours s':>10}"
                     f"{'paper s':>10}"
                     + (f"{'test s':>9}{'paper':>9}" if test_t else "") + "  chosen")
        for r in rows:
            p = r["paper"] or {}
            paper = "" if p.get("mean") is None else (f"{p['mean']:.2f}" + (f" ± {p['std']:.2f}" if p.get("std") is not None else ""))
            psec = "" if p.get("seconds") is None else f"{p['seconds']:.3g}"
            ptest = "" if p.get("test_seconds") is None else f"{p['test_seconds']:.3g}"
            if not r["available"]:
                lines.append(f"  {r['algorithm']:<24}{'n/a':>16}{'':>24}{paper:>16}{'':>8}{'':>10}{psec:>10}"
                             + (f"{'':>9}{ptest:>9}" if test_t else "") + f"  {r['note']}")
                continue
            ours = f"{r['error_mean']:.2f} ± {r['error_std']:.2f}"
            spread = (f"{r['error_median']:.2f} [{r['error_min']:.2f}, {r['error_max']:.2f}]"
                      if "error_median" in r else "")
            diff = "" if p.get("mean") is None else f"{r['error_mean'] - p['mean']:+.2f}"
            chosen = ", ".join(f"{k}={v:g}" for k, v in r["chosen"].items())
            if r.get("cv"):
                chosen += f" ({r['cv']['folds']}-fold CV on the training split)"
            if r.get("constant"):
                chosen = "CONSTANT: predicts one class (every grid point does)  " + chosen
            elif r.get("constant_points"):
                chosen += f"  (constant, not chosen: {len(r['constant_points'])} grid point(s))"
            if r["per_seed"] and "curve" in r["per_seed"][0]:       # curve tables: where the curve went
                curves = np.array([s["curve"] for s in r["per_seed"]])
                chosen = "; ".join(f"{cp:g} ep: {e:.2f} % @ {ev:.3g} k.e." for cp, ev, e in
                                   zip(curves[0, :, 0], curves[:, :, 1].mean(0), curves[:, :, 2].mean(0))
                                   if cp in (0.25, 1, 10))
            otest = f"{r['test_seconds_mean']:.3g}" if "test_seconds_mean" in r else ""
            lines.append(f"  {r['algorithm']:<24}{ours:>16}{spread:>24}{paper:>16}{diff:>8}{r['seconds_mean']:>10.3g}{psec:>10}"
                         + (f"{otest:>9}{ptest:>9}" if test_t else "") + f"  {chosen}")
        gaps = [r for r in rows if r.get("gap_reason")]
        if gaps:
            lines.append("  gap to the paper (> 2 points or > 2 sd; reasons: refsvm.reproduce.gaps.REASONS):")
            for r in gaps:
                lines.append(f"    {r['algorithm']}: {r['gap_reason']}: {r['gap_text']}")
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
