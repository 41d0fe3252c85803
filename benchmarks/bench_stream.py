#!/usr/bin/env python
"""Training from a LIBSVM file larger than memory: refsvm.fit_stream against in-memory.

Generates a LIBSVM file of about ``--size-mb`` MB in ``--dir`` (default /tmp; never committed; kept
and reused when it exists with the same size and seed): ``--d`` dense Gaussian features written
with 7 significant digits, labels from the XOR of the signs of the first two.  Its first
``--sample`` rows are also written as a sample file.  Then one BSGD pass (budget ``--budget``,
merging, fast path, gamma 1/d, random_state 0), each case in its own process, so that its peak
resident memory (``ru_maxrss``, the interpreter and libraries included) is its own:

``in-memory-sample``
    read_libsvm (dense) of the sample file, then one ``partial_fit`` over it.
``stream-sample``
    fit_stream over the sample file (dense chunks of ``--chunk-rows``, file order).
``stream-full``
    fit_stream over the whole file.

Per case: rows, file size, seconds of the pre-pass (scan_libsvm: classes, feature count, moments),
of reading (in-memory) and of training (streamed: reading included), microseconds per example, peak
RSS, and the accuracy on the sample rows (predicted chunk by chunk).  The default is 500 MB (the
issue suggests 5 GB; the 500 MB file already exceeds the memory a dense in-memory run would
need several times over: its matrix alone is ``rows x d x 8`` bytes).

    python benchmarks/bench_stream.py [--size-mb 500 --d 20 --budget 500 --sample 100000
        --chunk-rows 10000] [--json benchmarks/results/bench_stream.json]
"""

import argparse
import ast
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from _common import SHARED_NOTE, add_options, parse_or_run_case, write_json

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.io.libsvm", "refsvm.io.stream", "refsvm.stream", "refsvm.estimators", "refsvm.bsgd",
           "refsvm._fast.bsgd", "refsvm.budget", "refsvm._fast.budget", "refsvm.kernels"]

CASES = ("in-memory-sample", "stream-sample", "stream-full")


def generate(path, size_bytes, d, seed, sample_path, sample_rows):
    """Write rows until the file holds ``size_bytes``; the first ``sample_rows`` also to the sample."""
    rng = np.random.default_rng(seed)
    fmt = "%d " + " ".join(f"{j + 1}:%.7g" for j in range(d)) + "\n"
    written = rows = 0
    with open(path, "w") as fh, open(sample_path, "w") as sample:
        while written < size_bytes:
            X = rng.normal(size=(10_000, d))
            y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
            text = "".join(fmt % (label, *row) for label, row in zip(y, X))
            fh.write(text)
            if rows < sample_rows:
                lines = text.splitlines(keepends=True)[:sample_rows - rows]
                sample.write("".join(lines))
            written += len(text)
            rows += X.shape[0]
    return rows


def run_case(args):
    """One case, in this process; prints its JSON row."""
    from refsvm import BudgetedSVC
    from refsvm.io.libsvm import read_libsvm
    from refsvm.io.stream import iter_libsvm, scan_libsvm
    from refsvm.stream import fit_stream

    path = args.file if args.case == "stream-full" else args.sample_file
    est = BudgetedSVC(budget=args.budget, gamma=1.0 / args.d, maintenance="merge", backend="fast",
                      random_state=0, verbose=0)
    row = dict(case=args.case, file=os.path.basename(path), file_bytes=os.path.getsize(path))
    if args.case == "in-memory-sample":
        start = time.perf_counter()
        X, y = read_libsvm(path)
        row["read_s"] = time.perf_counter() - start
        start = time.perf_counter()
        est.partial_fit(X, y, classes=np.unique(y))
        row["train_s"] = time.perf_counter() - start
        row["rows"] = X.shape[0]
        del X, y
    else:
        start = time.perf_counter()
        summary = scan_libsvm(path, chunk_rows=args.chunk_rows)
        row["prepass_s"] = time.perf_counter() - start
        start = time.perf_counter()
        fit_stream(est, path, chunk_rows=args.chunk_rows, sparse=False, summary=summary)
        row["train_s"] = time.perf_counter() - start     # reading and parsing included
        row["rows"] = summary.n_rows
    row["us_per_example"] = 1e6 * (row["train_s"] + row.get("read_s", 0.0)) / row["rows"]
    row["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    correct = total = 0
    for X, y in iter_libsvm(args.sample_file, chunk_rows=args.chunk_rows, sparse=False):
        correct += int(np.sum(est.predict(X) == y))
        total += X.shape[0]
    row["sample_accuracy"] = correct / total
    row["support_vectors"] = int(est.support_vectors_.shape[0])
    print(json.dumps(row))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size-mb", type=float, default=500)
    add_options(ap, int, d=20, budget=500, sample=100_000, chunk_rows=10_000, seed=0)
    ap.add_argument("--dir", default="/tmp")
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    ap.add_argument("--sample-file", help=argparse.SUPPRESS)
    args = parse_or_run_case(ap, argv, CASES, run_case, "benchmarks/bench_stream.py")
    if args is None:
        return 0
    stem = os.path.join(args.dir, f"refsvm-stream-{args.size_mb:g}MB-d{args.d}-seed{args.seed}")
    path, sample_path, meta_path = stem + ".txt", stem + f"-first{args.sample}.txt", stem + ".meta"
    meta = (ast.literal_eval(Path(meta_path).read_text())
            if os.path.exists(meta_path) and os.path.exists(sample_path) else None)
    if meta is None:
        start = time.perf_counter()
        rows = generate(path, args.size_mb * 1e6, args.d, args.seed, sample_path, args.sample)
        meta = dict(rows=rows, generate_s=time.perf_counter() - start)
        Path(meta_path).write_text(repr(meta))   # a cache of the generated file (not a result: no provenance)
    print(f"data: {path} ({os.path.getsize(path) / 1e6:.0f} MB, {meta['rows']} rows x {args.d} features; "
          f"dense in memory: {meta['rows'] * args.d * 8 / 1e6:.0f} MB), sample {sample_path}", flush=True)
    rows = []
    for case in args.cases:
        cmd = [sys.executable, __file__, "--case", case, "--file", path, "--sample-file", sample_path,
               "--d", str(args.d), "--budget", str(args.budget), "--chunk-rows", str(args.chunk_rows)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        rows.append(row)
        print(f"{case:18s} {row['rows']:>9d} rows {row['file_bytes'] / 1e6:8.0f} MB  "
              f"prepass {row.get('prepass_s', 0):7.1f} s  read {row.get('read_s', 0):6.1f} s  "
              f"train {row['train_s']:7.1f} s  {row['us_per_example']:6.1f} us/example  "
              f"peak RSS {row['peak_rss_mb']:7.0f} MB  sample accuracy {row['sample_accuracy']:.4f}", flush=True)
    if args.json:
        write_json(args.json, dict(settings=dict(size_mb=args.size_mb, d=args.d, budget=args.budget,
                                                 sample=args.sample, chunk_rows=args.chunk_rows,
                                                 seed=args.seed, rows=meta["rows"]), cases=rows),
                   MODULES, note=SHARED_NOTE + "; generated data in /tmp, not committed; 500 MB, not the "
                   "issue's 5 GB", command="python benchmarks/bench_stream.py "
                   + " ".join(sys.argv[1:] if argv is None else argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
