#!/usr/bin/env python
"""One-vs-rest machines in threads: n_jobs=1 against n_jobs=2 (and all cores), same model.

mnist5k (10 classes, 5,000 x 784, pixels / 255) with BSCAClassifier (B = 200, C = 1,
gamma = 0.02, one epoch) and SBPClassifier (nu = 0.05, gamma = 0.02, one epoch, 1,500
rows drawn at random with seed 0, all 10 classes); fast backend.  Prints the fit time of each setting (best of --repeats),
the speed-up against n_jobs=1 and whether the models are bitwise equal.  Then the
prediction of the BSCA model (decision_function on the 5,000 training rows, repeated
4 times: 20,000 rows) with n_jobs threads over its row blocks, and whether the values
are bitwise equal.  BLAS runs single-threaded (OPENBLAS_NUM_THREADS etc. = 1 unless set),
so the threads are the only parallelism.

    REFSVM_DATA=/path/to/data python benchmarks/bench_njobs.py [--repeats 3] [--json FILE]
"""

import argparse
import os
import platform
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.estimators", "refsvm.bsca", "refsvm._fast.bsca", "refsvm.sbp", "refsvm.sbp_water",
           "refsvm.sbp_tolerance", "refsvm._fast.sbp", "refsvm.model", "refsvm._threads", "refsvm.io.datasets",
           "refsvm.io.libsvm"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    from joblib import effective_n_jobs

    from refsvm import BSCAClassifier, SBPClassifier
    from refsvm.datasets import load_libsvm

    X, y, _, _ = load_libsvm("mnist5k")
    X = X / 255.0
    # SBP: 1,500 rows drawn at random (seed 0): mnist5k is sorted by class, so its first 1,500 rows
    # hold 3 classes only, 3 machines, which two threads can speed up by 1.5x at most
    sub = np.sort(np.random.default_rng(0).choice(X.shape[0], 1500, replace=False))
    cases = {
        "BSCA B=200 (5000 rows)": (lambda j: BSCAClassifier(budget=200, C=1.0, gamma=0.02, random_state=0,
                                                            n_jobs=j), X, y),
        "SBP (1500 rows)": (lambda j: SBPClassifier(nu=0.05, gamma=0.02, epochs=1, random_state=0, n_jobs=j),
                            X[sub], y[sub]),
    }
    settings = sorted({1, 2, effective_n_jobs(-1)})
    rows = []
    print(f"{'case':<24}{'n_jobs':>7}{'fit s':>9}{'speed-up':>10}  same model")
    for label, (make, Xc, yc) in cases.items():
        base, ref = None, None
        for j in settings:
            best = np.inf
            for _ in range(args.repeats):
                start = time.perf_counter()
                est = make(j).fit(Xc, yc)
                best = min(best, time.perf_counter() - start)
            if ref is None:
                base, ref = best, est
            same = bool(np.array_equal(est.alpha_, ref.alpha_) and np.array_equal(est.support_vectors_,
                                                                                   ref.support_vectors_))
            rows.append(dict(case=label, n_jobs=j, seconds=best, speedup=base / best, same_model=same))
            print(f"{label:<24}{j:>7}{best:>9.2f}{base / best:>10.2f}  {same}")
            if label.startswith("BSCA") and j == 1:
                predictor = est
    Xp = np.vstack([X] * 4)
    label = "predict BSCA (20000 rows)"
    base = ref = None
    for j in settings:
        predictor.set_params(n_jobs=j)
        best = np.inf
        for _ in range(args.repeats):
            start = time.perf_counter()
            F = predictor.decision_function(Xp)
            best = min(best, time.perf_counter() - start)
        if ref is None:
            base, ref = best, F
        same = bool(np.array_equal(F, ref))
        rows.append(dict(case=label, n_jobs=j, seconds=best, speedup=base / best, same_model=same))
        print(f"{label:<24}{j:>7}{best:>9.2f}{base / best:>10.2f}  {same}")
    info = dict(command=" ".join(["python", "benchmarks/bench_njobs.py"] + sys.argv[1:]), cpus=os.cpu_count(),
                machine=platform.platform(), load_average=os.getloadavg(), rows=rows)
    print(f"\n{os.cpu_count()} cores, load average {info['load_average'][0]:.2f} at the end")
    write_json(args.json, info, MODULES, note=SHARED_NOTE)


if __name__ == "__main__":
    main()
