"""Running a table, one function per job: :func:`select` (which table, data sets and rows), :func:`plan`
(the tasks; :func:`cross_validate` first where a row's grid point is chosen by CV), :func:`run_tasks`
(through the joblib backend), :func:`summarise` (the rows beside the paper: chosen grid point, constant
classifiers, gaps) and :func:`~refsvm.reproduce.report.emit` (text, JSON, PNG).  :func:`run_table` calls
the first four in that order; :func:`reproduce` is :func:`run_table` then :func:`emit`."""

import importlib
import json
import os
import platform
import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .gaps import gap_reason
from .report import emit, format_table, plot_table, require_matplotlib
from .runners import CONSTANT_SHARE, _labels_pm1

__all__ = ["reproduce", "run_table", "render", "tables", "select", "Selection", "Backend", "Task", "load_dataset",
           "plan", "plan_cross_validation", "cross_validate", "run_tasks", "summarise", "summarise_row", "is_constant",
           "choose_point", "minority_share", "cv_folds", "grid_points", "machine_info", "format_table",
           "plot_table", "emit"]

#: a grid point whose mean error is the data's minority share within this many points is the constant classifier
CONSTANT_POINTS = 0.01
CV_FOLDS = 5
BACKENDS = ("loky", "dask", "ray")


def tables():
    """The registry: table name -> :class:`Table` (defined in :mod:`refsvm.reproduce.tables`)."""
    from .tables import TABLES

    return TABLES


# ---------------------------------------------------------------------------------------------- the run


def reproduce(name, *, quick=False, n_jobs=1, backend="loky", scheduler=None, seeds=None, datasets=None,
              entries=None, json_path=None, png_path=None, out=None):
    """Run table ``name``; print it beside the paper; return the result dict (also written as JSON / PNG).

    ``datasets`` / ``entries``: optional subsets (labels or file stems / entry labels).  ``seeds``: None =
    the table's (2 with ``quick``).  :func:`run_table` and :func:`~refsvm.reproduce.report.emit`, in turn.
    A ``png_path`` without matplotlib fails before the run.
    """
    if png_path:
        require_matplotlib()
    result = run_table(name, quick=quick, seeds=seeds, datasets=datasets, entries=entries,
                       backend=Backend(n_jobs=n_jobs, name=backend, scheduler=scheduler))
    emit(result, out=out, json_path=json_path, png_path=png_path, plot=tables()[name].plot)
    return result


def run_table(name, *, quick=False, seeds=None, datasets=None, entries=None, backend=None, command=None):
    """Select, plan, run and summarise table ``name``: the result dict that :func:`reproduce` prints.

    ``backend``: a :class:`Backend` (None: one local worker).  ``command``: the command line recorded in
    the result (the CLI passes its own; None otherwise).
    """
    backend = Backend() if backend is None else backend
    selection = select(name, datasets=datasets, entries=entries)
    n_seeds = seeds if seeds is not None else (2 if quick else selection.table.seeds)
    data = {d.label: load_dataset(d, selection.table.quick_rows, quick) for d in selection.datasets}
    start = time.perf_counter()
    cv = cross_validate(selection, data, backend)
    tasks = plan(selection, data, n_seeds, cv)
    results = run_tasks(tasks, backend)
    wall = time.perf_counter() - start
    return dict(
        table=selection.table.name, title=selection.table.title, metric=selection.table.metric, quick=bool(quick),
        seeds=n_seeds, n_jobs=backend.n_jobs, backend=backend.name, wall_seconds=wall, machine=machine_info(),
        command=command, note=selection.table.note, errata=list(selection.table.errata), rows=summarise(selection, data, tasks, results, cv, quick=quick),
    )


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
                _, y, _, yt = load_dataset(by_label[row["dataset"]], table.quick_rows, result.get("quick", False))
                shares[row["dataset"]] = minority_share(y, yt)
            row["minority_share"] = shares[row["dataset"]]
        row.pop("gap_reason", None)
        row.pop("gap_text", None)
        _add_gap_reason(table.name, row, result.get("quick", False))
    result["errata"] = list(table.errata)               # the paper's known errors as known today
    emit(result, out=out)
    return result


# ---------------------------------------------------------------------------------------------- select


@dataclass(frozen=True)
class Selection:
    """What :func:`select` chose: the table and the data sets and rows of it to run (in the table's order)."""

    table: object
    datasets: tuple
    entries: tuple


def select(name, *, datasets=None, entries=None):
    """Table ``name`` and the chosen data sets (labels or file stems) and rows (labels); None = all of them.

    Raises ValueError naming what is known when a name is not, NotImplementedError for a placeholder table.
    """
    known = tables()
    if name not in known:
        raise ValueError(f"name must be one of {', '.join(sorted(known))}; got {name!r}")
    table = known[name]
    if not table.available:
        raise NotImplementedError(f"{name}: not yet available. {table.note}")
    known_ds = [d.label for d in table.datasets] + [d.file for d in table.datasets]
    unknown = [x for x in (datasets or ()) if x not in known_ds]
    if unknown:
        raise ValueError(f"datasets: {', '.join(map(repr, unknown))} not in table {name}; its data sets are "
                         f"{', '.join(d.label + ' (' + d.file + ')' for d in table.datasets)}")
    unknown = [x for x in (entries or ()) if x not in [e.label for e in table.entries]]
    if unknown:
        raise ValueError(f"entries: {', '.join(map(repr, unknown))} not in table {name}; its rows are "
                         f"{', '.join(repr(e.label) for e in table.entries)}")
    return Selection(
        table=table,
        datasets=tuple(d for d in table.datasets if datasets is None or d.label in datasets or d.file in datasets),
        entries=tuple(e for e in table.entries if entries is None or e.label in entries))


# ---------------------------------------------------------------------------------------------- data


def load_dataset(ds, quick_rows, quick):
    """Data set ``ds`` as the table uses it: ``(X, y, X_test, y_test)``, labels +-1 (the file's own with
    ``ds.multiclass``; ``X_test`` None: a stream; ``protocol="train-stream"``: the training file's rows only).

    Split, scaled, relabelled and subsampled as ``ds`` says; ``quick``: at most ``quick_rows`` rows of each split.
    """
    from ..io.datasets import load_libsvm

    X, y, Xt, yt = _generate(ds) if ds.generated else load_libsvm(ds.file, standardize=ds.standardize)
    if ds.protocol == "stream" and Xt is not None:
        X, y, Xt, yt = np.vstack([X, Xt]), np.concatenate([y, yt]), None, None
    if ds.protocol == "train-stream":                   # one online pass over the training file only
        Xt = yt = None
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
    if not ds.multiclass:
        y = _labels_pm1(y)
        yt = None if yt is None else _labels_pm1(yt)
    if quick:
        keep = np.random.default_rng(0).permutation(X.shape[0])[:quick_rows]
        X, y = X[np.sort(keep)], y[np.sort(keep)]
        if Xt is not None:
            keep = np.random.default_rng(1).permutation(Xt.shape[0])[:quick_rows]
            Xt, yt = Xt[np.sort(keep)], yt[np.sort(keep)]
    X = np.ascontiguousarray(X)
    Xt = None if Xt is None else np.ascontiguousarray(Xt)
    return X, y, Xt, yt


def _generate(ds):
    """The synthetic set ``ds.generated`` names, as ``(X, y, X_test, y_test)``: one call of the generator for
    ``n + n_test`` rows, the first ``n`` for training; standardised on them (as ``load_libsvm``) with
    ``ds.standardize``."""
    from ..io import datasets
    from ..io.model_file import standardization

    g = ds.generated
    X, y = getattr(datasets, g["name"])(g["n"] + g["n_test"], random_state=g.get("random_state"))
    X, y, Xt, yt = X[:g["n"]], y[:g["n"]], X[g["n"]:], y[g["n"]:]
    if ds.standardize:
        mean, std = standardization(X)
        X, Xt = (X - mean) / std, (Xt - mean) / std
    return X, y, Xt, yt


def minority_share(y, y_test):
    """Percent of the evaluated labels (the test split, or the stream) in the rarer class (binary tables)."""
    labels = y if y_test is None else y_test
    _, counts = np.unique(labels, return_counts=True)
    return float(100.0 * counts.min() / counts.sum()) if len(counts) == 2 else None


# ---------------------------------------------------------------------------------------------- plan


class Task(NamedTuple):
    """One run of a row's runner: on which row, data set, grid point and seed, and the call's arguments."""

    entry: str          #: the row's label
    dataset: str        #: the data set's label
    point: tuple        #: the grid point, sorted (name, value) items
    seed: int
    params: dict        #: the runner's keyword arguments (data-set, row and grid-point parameters, resolved)
    args: tuple         #: (runner, X, y, X_test, y_test, seed, params): what :func:`_call` takes; a
    #: cross-validation task: (runner, X, y, train, fold, seed, params), what :func:`_call_fold` takes
    fold: bool = False  #: a cross-validation task (its rows sliced in the worker)


def grid_points(grid):
    """Every combination of the grid's values, as dicts (``{}``: one point, no grid)."""
    points = [{}]
    for name, values in grid.items():
        points = [dict(p, **{name: v}) for p in points for v in values]
    return points


def _resolve(d, e, point, n):
    """The runner's keyword arguments: data set's, row's, the row's for this data set, grid point; callables get n."""
    merged = {**d.params, **e.params, **e.per_dataset.get(d.label, {}), **point}
    return {k: (v(n) if callable(v) else v) for k, v in merged.items()}


def plan(selection, data, n_seeds, cv):
    """The tasks of the reported runs: every available row x data set x grid point x seed.

    A row chosen by cross-validation (``cv``, from :func:`cross_validate`) runs its chosen point only.
    """
    tasks = []
    for d in selection.datasets:
        X, y, Xt, yt = data[d.label]
        for e in selection.entries:
            if e.runner is None:
                continue
            key = (e.tuned_by or e.label, d.label)
            points = [dict(cv[key]["chosen"])] if key in cv else grid_points(e.grid)
            for point in points:
                params = _resolve(d, e, point, X.shape[0])
                for seed in range(n_seeds):
                    tasks.append(Task(e.label, d.label, tuple(sorted(point.items())), seed, params,
                                      (e.runner, X, y, Xt, yt, seed, params)))
    return tasks


def cv_folds(n, folds=CV_FOLDS, seed=0):
    """Validation index sets of ``folds``-fold cross-validation: ``default_rng(seed).permutation(n)`` in equal parts."""
    return np.array_split(np.random.default_rng(seed).permutation(n), folds)


def plan_cross_validation(selection, data):
    """The tasks of the ``select="cv5"`` rows' cross-validation: grid point x fold on the training split, seed 0.

    The rows cross-validated: the selected ``select="cv5"`` rows and the rows a selected row is ``tuned_by``.
    """
    tuners = {e.tuned_by for e in selection.entries if e.tuned_by}
    chosen = {e.label for e in selection.entries if not e.tuned_by} | tuners
    tasks = []
    for d in selection.datasets:
        X, y, Xt, _ = data[d.label]
        for e in selection.table.entries:
            if e.label not in chosen or e.runner is None or e.select != "cv5" or not e.grid:
                continue
            if Xt is None:
                raise ValueError(f"entry {e.label!r}: select='cv5' needs a data set with a test split "
                                 f"({d.label} uses protocol {d.protocol!r})")
            for point in grid_points(e.grid):
                for fold in cv_folds(X.shape[0]):
                    train = np.setdiff1d(np.arange(X.shape[0]), fold)
                    params = _resolve(d, e, point, len(train))
                    tasks.append(Task(e.label, d.label, tuple(sorted(point.items())), 0, params,
                                      (e.runner, X, y, train, fold, 0, params), fold=True))
    return tasks


def cross_validate(selection, data, backend):
    """Grid points of ``select="cv5"`` rows chosen by 5-fold CV on the training split (seed 0 for every run).

    Returns ``{(entry, data set): {"chosen": point items, "errors": {point: mean validation error},
    "constant": [point, ...]}}``; a point whose validation runs predict (almost) one class (listed in
    ``"constant"``) is never chosen, as in the grid of reported runs.
    """
    tasks = plan_cross_validation(selection, data)
    if not tasks:
        return {}
    by = _runs_by_point(tasks, run_tasks(tasks, backend))
    out = {}
    for key, points in by.items():
        errors = {p: [r for _, _, r in v] for p, v in points.items()}
        mean = {p: float(np.mean([r["error"] for r in v])) for p, v in errors.items()}
        constant = {p: is_constant(v, None) for p, v in errors.items()}
        out[key] = dict(chosen=choose_point(mean, constant), errors={str(dict(p)): e for p, e in mean.items()},
                        constant=[str(dict(p)) for p in mean if constant[p]], folds=CV_FOLDS, row=key[0])
    return out


# ---------------------------------------------------------------------------------------------- run


@dataclass(frozen=True)
class Backend:
    """Where the tasks run: ``n_jobs`` joblib workers on ``name`` ("loky": local processes, "dask", "ray");
    ``scheduler``: the Dask scheduler or Ray address (None: a local one)."""

    n_jobs: int = 1
    name: str = "loky"
    scheduler: str = None

    def __post_init__(self):
        if self.name not in BACKENDS:
            raise ValueError(f"backend must be one of 'loky', 'dask', 'ray'; got {self.name!r}")


def _call(runner, X, y, X_test, y_test, seed, params):
    """One task (runs in a worker)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    module, _, func = runner.partition(":")
    return getattr(importlib.import_module(module), func)(X, y, X_test, y_test, seed, **params)


def _call_fold(runner, X, y, train, fold, seed, params):
    """One cross-validation task (runs in a worker): :func:`_call` on the training split's rows ``train``, validated
    on its rows ``fold``.  The rows are sliced here, so that the plan holds the training split once rather than a
    copy per grid point and fold (75 copies of Adult's per row of a 15-point grid: 12 GB)."""
    return _call(runner, X[train], y[train], X[fold], y[fold], seed, params)


def run_tasks(tasks, backend):
    """The tasks' results, in order, run through joblib on ``backend`` (a :class:`Backend`)."""
    from joblib import Parallel, delayed, parallel_config

    jobs = [delayed(_call_fold if t.fold else _call)(*t.args) for t in tasks]
    if backend.name == "loky":
        return Parallel(n_jobs=backend.n_jobs)(jobs)
    if backend.name == "dask":
        try:
            from dask.distributed import Client
        except ImportError as exc:
            raise RuntimeError('backend="dask" needs dask.distributed: pip install "refsvm[cluster]"') from exc
        client = Client(backend.scheduler) if backend.scheduler else Client()
        try:
            with parallel_config(backend="dask"):
                return Parallel(n_jobs=backend.n_jobs)(jobs)
        finally:
            client.close()
    try:
        import ray
        from ray.util.joblib import register_ray
    except ImportError as exc:
        raise RuntimeError('backend="ray" needs ray: pip install "refsvm[ray]"') from exc
    ray.init(address=backend.scheduler) if backend.scheduler else ray.init()
    register_ray()
    with parallel_config(backend="ray"):
        return Parallel(n_jobs=backend.n_jobs)(jobs)


# ---------------------------------------------------------------------------------------------- summarise


def _runs_by_point(tasks, results):
    """``{(entry, data set): {point: [(seed, params, result), ...]}}`` in task order."""
    by = {}
    for t, res in zip(tasks, results):
        by.setdefault((t.entry, t.dataset), {}).setdefault(t.point, []).append((t.seed, t.params, res))
    return by


def is_constant(results, minority):
    """Whether a grid point's runs are the constant classifier, judged on the predictions the metric counted.

    Test error (``"online"`` not set in the results): the final models give one class to >= 99 % of the
    evaluated test rows (``majority_share``, :data:`~refsvm.reproduce.runners.CONSTANT_SHARE`), or the mean
    error equals the minority share (percent; None: not known) within :data:`CONSTANT_POINTS`.

    Online mistake rate (``online=True``): the final model is not what the metric counted -- a pass whose
    online predictions were varied is not degenerate because its last model is.  The pass counts as constant
    only when its mean error equals the minority share within :data:`CONSTANT_POINTS` (every online
    prediction the majority class), or when the final models are constant *and* the mean error lies within
    ``100 (1 - CONSTANT_SHARE)`` = 1 point of the minority share.  Error bound of that band: if >= 99 % of
    the n online predictions are the majority class, at most n/100 of them differ from the constant
    classifier's, so the mistake rate differs from the minority share by at most 1 point; a rate outside the
    band proves the online predictions were varied.  With the minority share unknown (multi-class) an
    online pass is judged by its final models, the only sign left.

    A runner whose ``error`` is not a classifier's error (a timing table's saving in percent, a count) sets
    ``"predicts": False`` in its results: no prediction was counted, so nothing is constant (a saving of
    23.62 % once matched ADULT's minority share and was flagged).
    """
    if any(r.get("predicts", True) is False for r in results):
        return False
    mean_error = float(np.mean([r["error"] for r in results]))
    if minority is not None and abs(mean_error - minority) <= CONSTANT_POINTS:
        return True
    final_constant = np.mean([r.get("majority_share", 0.0) for r in results]) >= CONSTANT_SHARE
    if not all(r.get("online") for r in results) or minority is None:
        return bool(final_constant)
    return bool(final_constant and abs(mean_error - minority) <= 100.0 * (1.0 - CONSTANT_SHARE))


def choose_point(mean_error, constant):
    """The grid point of lowest mean error that is not constant (the lowest of all when every point is)."""
    eligible = [p for p in mean_error if not constant[p]] or list(mean_error)
    return min(eligible, key=mean_error.get)


def summarise(selection, data, tasks, results, cv, quick=False):
    """The table's rows, data set by data set, row by row (see :func:`summarise_row`)."""
    by = _runs_by_point(tasks, results)
    return [summarise_row(selection.table, e, d, data[d.label], by.get((e.label, d.label), {}),
                          cv.get((e.tuned_by or e.label, d.label)), quick)
            for d in selection.datasets for e in selection.entries]


def summarise_row(table, e, d, data, by_point, cv, quick=False):
    """Row ``e`` on data set ``d``: the paper's numbers and ours at the chosen grid point, and the gap's reason.

    A grid point whose runs predict (almost) one class (:func:`is_constant`) is a constant classifier: its
    error is the minority share, which can look "better than the paper".  It is never chosen.
    ``quick``: a smoke run on subsampled data, whose gaps to the paper are not judged (no gap reason).
    """
    paper = table.paper.get((e.label, d.label))
    row = dict(algorithm=e.label, dataset=d.label, file=d.file, n=int(data[0].shape[0]),
               paper=None if paper is None else dict(zip(("mean", "std", "seconds", "test_seconds"), paper)),
               minority_share=minority_share(data[1], data[3]))
    if e.runner is None:
        row.update(available=False, note=e.note or "not yet available in refsvm")
        return row
    point_results = {p: [r for _, _, r in v] for p, v in by_point.items()}
    mean = {p: np.mean([r["error"] for r in v]) for p, v in point_results.items()}
    constant = {p: is_constant(v, row["minority_share"]) for p, v in point_results.items()}
    best = choose_point(mean, constant)
    runs = sorted(by_point[best], key=lambda s: s[0])
    errors = np.array([r["error"] for _, _, r in runs])
    row.update(
        available=True, params=runs[0][1], chosen=dict(best),
        grid={str(dict(p)): float(m) for p, m in mean.items()} if e.grid else {},
        error_mean=float(errors.mean()), error_std=float(errors.std(ddof=1)) if len(errors) > 1 else 0.0,
        error_median=float(np.median(errors)), error_min=float(errors.min()),
        error_max=float(errors.max()),
        seconds_mean=float(np.mean([r["seconds"] for _, _, r in runs])),
        **({"test_seconds_mean": float(np.mean([r["test_seconds"] for _, _, r in runs]))}
           if all("test_seconds" in r for _, _, r in runs) else {}),
        per_seed=[dict(seed=s, **{k: v for k, v in r.items()}) for s, _, r in runs],
        **({"cv": cv} if cv is not None else {}),
        constant=bool(constant[best]),
        constant_points=[str(dict(p)) for p in by_point if constant[p]],
    )
    _add_gap_reason(table.name, row, quick)
    return row


def _add_gap_reason(table_name, row, quick=False):
    """``row["gap_reason"]`` and ``row["gap_text"]`` where the row's gap to the paper is flagged.

    A ``quick`` run's rows get none: their subsampled data are not the paper's, so a gap says nothing.
    """
    reason = None if quick else gap_reason(table_name, row)
    if reason is not None:
        row["gap_reason"], row["gap_text"] = reason


def machine_info():
    """Platform, Python, CPU count and model, load average: where the times were measured."""
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
