#!/usr/bin/env python
"""Cost of progress reporting: ``BudgetedSVC.fit`` with ``verbose=0, 1, 2``.

``verbose >= 1`` computes a pass in chunks (about 10 resp. 100 calls of the
algorithm per pass, at least 1,000 steps each; :mod:`refsvm.estimators._progress`) and
prints a line after each.  This script measures what that costs: the fit time
(fast backend, one epoch, the same visiting order for every setting) with
``verbose=0`` (one call per pass), ``1`` and ``2``, the minimum of
``--repeats`` runs, and the overhead ``(T_v - T_0) / T_0``.  Progress lines
go to ``/dev/null``.  The models are identical (checked: the largest difference
of the decision values, relative to their maximum, is printed; 0 = bitwise).

Hyper-parameters: Glasmachers & Qaadan, Table 1 (ijcnn1 C = 32, gamma = 2;
a9a C = 32, gamma = 2^-7), lambda = 1 / (n C), merging (GSS 0.01) and
projection.  Data from ``$REFSVM_DATA``.
"""

import argparse
import contextlib
import os
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.estimators", "refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.budget", "refsvm.validation",
           "refsvm.io.datasets"]

PARAMS = {"ijcnn1": dict(C=32.0, gamma=2.0), "a9a": dict(C=32.0, gamma=2.0 ** -7)}
SETTINGS = [("merge", 100), ("merge", 500), ("projection", 100)]


def fit_seconds(X, y, verbose, maintenance, budget, lam, gamma):
    from refsvm import BudgetedSVC

    est = BudgetedSVC(budget=budget, lam=lam, gamma=gamma, maintenance=maintenance,
                      backend="fast", random_state=0, verbose=verbose)
    with open(os.devnull, "w") as sink, contextlib.redirect_stderr(sink):
        start = time.perf_counter()
        est.fit(X, y)
        return time.perf_counter() - start, est


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(PARAMS))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", metavar="PATH", default=None)
    args = parser.parse_args(argv)

    from refsvm.datasets import load_libsvm

    rows = []
    for name in args.datasets:
        X, y, _, _ = load_libsvm(name)
        lam = 1.0 / (len(y) * PARAMS[name]["C"])
        for maintenance, budget in SETTINGS:
            times = {v: [] for v in (0, 1, 2)}
            models = {}
            for _ in range(args.repeats):
                for v in (0, 1, 2):  # interleaved: load changes hit all three alike
                    sec, est = fit_seconds(X, y, v, maintenance, budget, lam, PARAMS[name]["gamma"])
                    times[v].append(sec)
                    models[v] = est
            F0 = models[0].decision_function(X[:2000])
            agree = max(float(np.max(np.abs(models[v].decision_function(X[:2000]) - F0)))
                        / float(np.max(np.abs(F0))) for v in (1, 2))
            med = {v: float(np.min(times[v])) for v in times}  # min: least disturbed by other load
            rows.append(dict(dataset=name, n=len(y), maintenance=maintenance, budget=budget,
                             seconds=med, overhead1=(med[1] - med[0]) / med[0],
                             overhead2=(med[2] - med[0]) / med[0], max_rel_diff=agree))

    print_run_header("benchmarks/bench_verbose.py", argv)
    print(f"settings: fast backend, BPegasos, 1 epoch, seed 0, minimum of {args.repeats} runs "
          "(interleaved), progress lines to /dev/null")
    print()
    head = (f"{'data set':10} {'n':>6} {'maintenance':11} {'B':>4} {'v=0 s':>8} {'v=1 s':>8} "
            f"{'v=2 s':>8} {'ovh v=1':>8} {'ovh v=2':>8} {'max rel diff F':>15}")
    print(head)
    print("-" * len(head))
    for r in rows:
        s = r["seconds"]
        print(f"{r['dataset']:10} {r['n']:>6} {r['maintenance']:11} {r['budget']:>4} {s[0]:8.3f} "
              f"{s[1]:8.3f} {s[2]:8.3f} {100 * r['overhead1']:7.1f}% {100 * r['overhead2']:7.1f}% "
              f"{r['max_rel_diff']:15.1e}")
    write_json(args.json, rows, MODULES, note=SHARED_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
