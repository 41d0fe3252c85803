#!/usr/bin/env python
"""Training and prediction on a local Dask cluster: refsvm.fit_dask and refsvm.predict_dask.

The data, ``--rows`` checkerboard rows (2 features, :func:`refsvm.io.datasets.checkerboard`, 4 x 4
cells, block ``i`` drawn with the seed ``(--seed, i)``), are made on the workers in blocks of
``--block-rows`` (``from_delayed``) and kept there (``persist``); the client never holds them whole.

1. **Fit**: on a ``LocalCluster`` of two worker processes (one thread each, 127.0.0.1),
   ``fit_dask`` with BSGD (``--budget`` SVs, merging, gamma ``--gamma``, fast path, random_state 0)
   visits the blocks in order, the estimator travelling from worker to worker.  Then, in this
   process, the same blocks made again one at a time and ``partial_fit`` on each, in memory: the
   two models must be bitwise equal (support vectors, coefficients, bias, step counter).
2. **Prediction**: ``predict_dask`` (and ``decision_function``), block-parallel, reduced on the
   workers to the accuracy (only a number comes back), best of ``--repeats``, on a cluster of one
   worker process and on one of two (the same data made anew on each); the speed-up is the ratio.
   Distributed's workers run BLAS single-threaded (OMP / OPENBLAS / MKL_NUM_THREADS = 1), so the
   worker processes are the only parallelism.

The machine's load average is recorded before and after: on a shared machine the speed-up of two
workers over one says little (two cores shared with other jobs).

    python benchmarks/bench_dask.py [--rows 4000000 --block-rows 100000 --budget 200 --gamma 30
        --seed 0 --repeats 3] [--json benchmarks/results/bench_dask.json --output ...txt]
"""

import argparse
import os
import sys
import time

import numpy as np
from _common import SHARED_NOTE, add_options, write_json

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.dask", "refsvm.stream", "refsvm.estimators", "refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.budget",
           "refsvm._fast.budget", "refsvm.kernels", "refsvm.model", "refsvm.io.datasets"]


def _data(rows, block_rows, seed):
    """The checkerboard as two Dask arrays, each block made where its task runs (on a worker)."""
    from refsvm.dask import checkerboard_array

    X, y = checkerboard_array(rows, block_rows=block_rows, random_state=seed)
    return X, y, X.chunks[0]


def _estimator(args):
    from refsvm import BudgetedSVC

    return BudgetedSVC(budget=args.budget, gamma=args.gamma, maintenance="merge", backend="fast", random_state=0)


def _cluster(n_workers):
    """A local cluster of ``n_workers`` processes, each having imported what the runs use (not timed)."""
    import importlib

    import distributed

    cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    client = distributed.Client(cluster)
    client.wait_for_workers(n_workers)
    for module in ("refsvm.estimators", "refsvm.dask", "refsvm._fast.bsgd", "refsvm._fast.budget", "refsvm.model"):
        client.run(importlib.import_module, module)
    return cluster, client


def _load():
    return round(os.getloadavg()[0], 2)


def fit_case(args, log):
    """Fit on two workers and in memory; whether the models are bitwise equal."""
    import distributed

    from refsvm.dask import fit_dask
    from refsvm.io.datasets import checkerboard

    cluster, client = _cluster(2)
    try:
        X, y, sizes = _data(args.rows, args.block_rows, args.seed)
        X, y = client.persist([X, y])
        distributed.wait([X, y])
        start = time.perf_counter()
        remote = fit_dask(_estimator(args), X, y, classes=[-1, 1])
        fit_s = time.perf_counter() - start
    finally:
        client.close()
        cluster.close()
    log(f"fit_dask on 2 workers: {fit_s:.1f} s; now the same blocks in memory")
    local = _estimator(args)
    start = time.perf_counter()
    for i, n in enumerate(sizes):
        Xi, yi = checkerboard(n, random_state=(args.seed, i))
        local.partial_fit(Xi, yi, classes=[-1, 1])
    local_s = time.perf_counter() - start
    same = (np.array_equal(remote.support_vectors_, local.support_vectors_)
            and np.array_equal(remote.alpha_, local.alpha_) and np.array_equal(remote.bias_, local.bias_)
            and remote.t_ == local.t_)
    return dict(blocks=len(sizes), fit_dask_s=fit_s, in_memory_partial_fit_s=local_s, bitwise_equal=bool(same),
                support_vectors=int(remote.support_vectors_.shape[0]), t=int(remote.t_)), remote


def predict_case(args, estimator, n_workers, log):
    """Best-of-repeats seconds of block-parallel accuracy (predict) and decision_function sum."""
    import distributed

    from refsvm.dask import predict_dask

    cluster, client = _cluster(n_workers)
    try:
        X, y, _ = _data(args.rows, args.block_rows, args.seed)
        X, y = client.persist([X, y])
        distributed.wait([X, y])
        row = dict(workers=n_workers, load_before=_load())
        for method in ("predict", "decision_function"):
            out = predict_dask(estimator, X, method)
            reduced = (out == y).mean() if method == "predict" else out.sum()
            times = []
            for _ in range(args.repeats + 1):            # the first not counted (caches, first transfers)
                start = time.perf_counter()
                value = float(reduced.compute())
                times.append(time.perf_counter() - start)
            row[f"{method}_s"] = min(times[1:])
            row[f"{method}_value"] = value
            log(f"{method} on {n_workers} worker(s): best {min(times[1:]):.2f} s of {args.repeats} "
                f"({', '.join(f'{t:.2f}' for t in times)}; the first not counted)")
        row["load_after"] = _load()
    finally:
        client.close()
        cluster.close()
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_options(ap, int, rows=4_000_000, block_rows=100_000, budget=200, seed=0, repeats=3)
    ap.add_argument("--gamma", type=float, default=30.0)
    ap.add_argument("--json")
    ap.add_argument("--output", help="also write the printed report to this file")
    args = ap.parse_args(argv)
    lines = []

    def log(text):
        print(text, file=sys.stderr, flush=True)

    command = "python benchmarks/bench_dask.py " + " ".join(sys.argv[1:] if argv is None else argv)
    load_start = _load()
    fit, estimator = fit_case(args, log)
    predict = [predict_case(args, estimator, n, log) for n in (1, 2)]
    speedup = {m: predict[0][f"{m}_s"] / predict[1][f"{m}_s"] for m in ("predict", "decision_function")}
    lines.append(f"# {command}")
    lines.append(f"# {args.rows} checkerboard rows (2 features) in blocks of {args.block_rows}, made on the workers; "
                 f"BSGD B={args.budget} merging, gamma={args.gamma:g}, fast path")
    lines.append(f"# {SHARED_NOTE}; load average {load_start} at the start, {_load()} at the end ({os.cpu_count()} cores)")
    lines.append(f"fit_dask on 2 workers  {fit['fit_dask_s']:8.1f} s   in-memory partial_fit over the same blocks "
                 f"{fit['in_memory_partial_fit_s']:8.1f} s   bitwise equal: {fit['bitwise_equal']}   "
                 f"({fit['blocks']} blocks, {fit['support_vectors']} SVs, t = {fit['t']})")
    for row in predict:
        lines.append(f"{row['workers']} worker(s): predict (accuracy {row['predict_value']:.4f}) "
                     f"{row['predict_s']:7.2f} s   decision_function {row['decision_function_s']:7.2f} s   "
                     f"load average {row['load_before']} -> {row['load_after']}")
    lines.append(f"speed-up of 2 workers over 1: predict {speedup['predict']:.2f}x, "
                 f"decision_function {speedup['decision_function']:.2f}x (expected >= 1.7 on an idle machine)")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.output:
        with open(args.output, "w") as fh:
            fh.write(text)
    settings = dict(rows=args.rows, block_rows=args.block_rows, budget=args.budget, gamma=args.gamma, seed=args.seed,
                    repeats=args.repeats)
    write_json(args.json, dict(settings=settings, fit=fit, predict=predict, speedup=speedup,
                               load_average=dict(start=load_start, end=_load())),
               MODULES, note=SHARED_NOTE + "; the 1- vs 2-worker speed-up is not meaningful under this load",
               command=command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
