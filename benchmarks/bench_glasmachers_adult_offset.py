#!/usr/bin/env python
"""Glasmachers & Qaadan's Table 2 on ADULT: are the seeds that err far above the paper bad models, or good models
with a shifted offset?

``glasmachers-lookup-table2`` trains BSGD (merging, 20 passes, the paper's C = 2^5 and gamma = 2^-7 on a9a) on 20
seeds per row.  On ADULT one or two seeds per row end with a test error of 25-48 %, where the paper prints
15.7-16.3 % (5 runs).  With gamma = 2^-7 every a9a kernel value lies in [0.80, 1], so each step moves the
decision function nearly like a bias, and the last iterate's offset can end far from the best one.  This script
reruns every seed of the committed table whose test error exceeds ``--above`` (the same passes:
``refsvm.reproduce.runners.bsgd_passes``, the model ``run_bsgd`` tests; the compiled path),
checks that it reproduces the table's test error, and reports the *best-offset* test error of that model:
the least test error over all thresholds ``f(x) >= c`` (every cut between two distinct test values, and
the two ends).  It is a diagnostic that looks at the test labels, not a result: it says whether the
direction of the model is as good as the paper's, the offset aside.

Accuracy only (no timings).
"""

import argparse
import json
import os
import sys
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import print_run_header, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["benchmarks/bench_glasmachers_adult_offset.py", "refsvm._fast.bsgd", "refsvm.bsgd", "refsvm.budget",
           "refsvm.io.datasets", "refsvm.reproduce.driver", "refsvm.reproduce.tables_core",
           "refsvm.reproduce.runners"]
TABLE = "glasmachers-lookup-table2"
TABLE_JSON = Path(__file__).resolve().parent / "results" / f"reproduce_{TABLE}.json"
SOLVERS = {"GSS-precise": "gss-precise", "GSS-standard": "gss", "Lookup-h": "lookup-h", "Lookup-WD": "lookup-wd"}


def best_offset_error(f, y):
    """Least test error (%) of ``sign(f - c)`` over every threshold ``c`` (``f >= c`` predicts +1): the cuts
    between distinct sorted values of ``f`` and the two ends (everything +1, everything -1)."""
    order = np.argsort(f, kind="stable")
    fs, ys = f[order], y[order]
    neg_at_or_above = np.concatenate([[0], np.cumsum((ys < 0)[::-1])])[::-1]   # k: #neg among fs[k:]
    pos_below = np.concatenate([[0], np.cumsum(ys > 0)])                        # k: #pos among fs[:k]
    errors = neg_at_or_above + pos_below                                        # cut before index k
    cuts = np.concatenate([[True], fs[1:] != fs[:-1], [True]])                  # never split equal values
    return 100.0 * float(errors[cuts].min()) / len(y)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--above", type=float, default=25.0, help="rerun the seeds whose test error exceeds this (%%)")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    print_run_header("benchmarks/bench_glasmachers_adult_offset.py", argv)
    from refsvm.reproduce.driver import load_dataset
    from refsvm.reproduce.runners import bsgd_passes, decision_values
    from refsvm.reproduce.tables_core import GLASMACHERS_EPOCHS, GLASMACHERS_LOOKUP_TABLE2

    table = json.loads(TABLE_JSON.read_text())
    ds = next(d for d in GLASMACHERS_LOOKUP_TABLE2.datasets if d.label == "ADULT")
    X, y, Xt, yt = load_dataset(ds, None, False)
    X, Xt = (np.ascontiguousarray(A.toarray() if hasattr(A, "toarray") else A, dtype=np.float64) for A in (X, Xt))
    y = np.asarray(y, dtype=np.int64)
    C, gamma = ds.params["C"], ds.params["gamma"]
    runs = []
    for r in table["rows"]:
        if r["dataset"] != "ADULT" or not r.get("available"):
            continue
        label, budget = r["algorithm"].rsplit(" B=", 1)
        for s in r["per_seed"]:
            if s["error"] <= args.above:
                continue
            res = bsgd_passes(X, y, s["seed"], C=C, gamma=gamma, budget=int(budget), maintenance="merge",
                              merge_solver=SOLVERS[label], epochs=GLASMACHERS_EPOCHS)
            f = decision_values(res.sv, res.alpha, res.bias, gamma, Xt)
            error = 100.0 * float(np.mean(yt * f <= 0))                 # run_bsgd's count (f = 0: a mistake)
            runs.append(dict(row=r["algorithm"], seed=int(s["seed"]), table_error=float(s["error"]), error=error,
                             best_offset_error=best_offset_error(f, np.asarray(yt)),
                             seeds_in_row=len(r["per_seed"]), paper=r["paper"]["mean"]))
            print(f"{r['algorithm']:<20} seed {s['seed']:>2}: test error {error:6.2f} % (table {s['error']:6.2f}), "
                  f"best-offset error {runs[-1]['best_offset_error']:6.2f} % (paper {r['paper']['mean']:.2f})",
                  flush=True)
    best = [x["best_offset_error"] for x in runs]
    paper = [r["paper"]["mean"] for r in table["rows"] if r["dataset"] == "ADULT" and r.get("paper")]
    summary = (f"{len(runs)} seed-rows above {args.above:g} %: best-offset test error "
               f"{min(best):.2f}-{max(best):.2f} % (the paper's rows: {min(paper):.2f}-{max(paper):.2f} %)"
               if runs else "none")
    print(summary)
    result = dict(table=TABLE, above=args.above, runs=runs, summary=summary)
    write_json(args.json, result, MODULES)
    return 0 if all(abs(x["error"] - x["table_error"]) < 1e-9 for x in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
