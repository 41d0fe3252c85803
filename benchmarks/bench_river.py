#!/usr/bin/env python
"""Cost of one river step: ``learn_one`` + ``predict_one`` of the river adapters against the algorithm's own step.

For each learner, a stream of N examples (river's bundled Phishing data, standardised once
up front) is fed (a) through ``RiverClassifier.learn_one`` / ``predict_one`` (one
``partial_fit`` / ``predict`` call per example) and (b) to the estimator's ``partial_fit`` in
one call on the whole block (the same algorithm steps, no per-call overhead).  The table
shows microseconds per example for both and their ratio: the adapter's price is the
per-call overhead of ``partial_fit`` (input checks, bookkeeping), not the algorithm.

    python benchmarks/bench_river.py [--n 1000] [--json benchmarks/results/bench_river.json]
"""

import argparse
import os
import platform
import sys
import time

import numpy as np

from _common import SHARED_NOTE, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.estimators", "refsvm._fast.bsgd", "refsvm._fast.bsca", "refsvm._fast.online", "refsvm._fast.fogd",
           "refsvm._fast.nogd", "refsvm.validation"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1000, help="stream length")
    ap.add_argument("--json", default=None, help="also write the results as JSON")
    args = ap.parse_args(argv)

    from river import datasets
    from sklearn.base import clone

    from refsvm import (BSCAClassifier, BudgetedSVC, FOGDClassifier, NOGDClassifier,
                        OnlineKernelClassifier)
    from refsvm.estimators.river import RiverClassifier

    stream = list(datasets.Phishing().take(args.n))
    names = sorted(stream[0][0])
    X = np.array([[x[k] for k in names] for x, _ in stream])
    mu, sd = X.mean(0), X.std(0)
    sd[sd == 0] = 1
    X = (X - mu) / sd
    y = np.array([bool(t) for _, t in stream])
    rows = [dict(zip(names, r)) for r in X]
    learners = {
        "BSGD merge B=100": BudgetedSVC(budget=100, gamma=0.1, lam=1e-3, random_state=0),
        "BSCA merge B=100": BSCAClassifier(budget=100, gamma=0.1, C=1.0, random_state=0),
        "RBP B=100": OnlineKernelClassifier(algorithm="rbp", budget=100, gamma=0.1, random_state=0),
        "FOGD D=400": FOGDClassifier(n_components=400, gamma=0.1, random_state=0),
        "NOGD B=100 k=20": NOGDClassifier(budget=100, rank=20, gamma=0.1, random_state=0),
    }
    results = []
    print(f"{'learner':<18}{'river step (us)':>17}{'block step (us)':>17}{'ratio':>8}{'river acc':>11}")
    for label, est in learners.items():
        model = RiverClassifier(clone(est), classes=[False, True])
        correct = 0
        start = time.perf_counter()
        for x, t in zip(rows, y):
            correct += model.predict_one(x) == t
            model.learn_one(x, t)
        river_us = 1e6 * (time.perf_counter() - start) / len(rows)
        block = clone(est).set_params(shuffle=False) if "shuffle" in est.get_params() else clone(est)
        start = time.perf_counter()
        block.partial_fit(X, y, classes=[False, True])
        block_us = 1e6 * (time.perf_counter() - start) / len(rows)
        results.append(dict(learner=label, river_us=river_us, block_us=block_us,
                            progressive_accuracy=correct / len(rows)))
        print(f"{label:<18}{river_us:>17.1f}{block_us:>17.1f}{river_us / block_us:>8.1f}{correct / len(rows):>11.3f}")
    info = dict(command=" ".join([os.path.basename(sys.argv[0])] + (argv or sys.argv[1:])), n=args.n,
                machine=platform.platform(), cpus=os.cpu_count(), load_average=os.getloadavg(), results=results)
    print(f"\n{args.n} examples of river's Phishing stream (standardised), fast backend; "
          f"load average {info['load_average'][0]:.2f} on {info['cpus']} cores")
    write_json(args.json, info, MODULES, note=SHARED_NOTE)


if __name__ == "__main__":
    main()
