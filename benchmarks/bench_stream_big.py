#!/usr/bin/env python
"""A LIBSVM file of over 5 GiB trained in one streamed pass (issue 32): peak memory and time per example
against the in-memory run on a 1M-row sample of the same data.

Data: the 4 x 4 checkerboard on the unit square (Wang, Crammer & Vucetic 2012; the labels of
:func:`refsvm.io.datasets.checkerboard`), ``--rows`` rows (default 110,000,000) written in chunks of
``--gen-chunk`` rows to ``DIR/refsvm-checkerboard-<rows>-seed<seed>.txt`` (``--dir``, default /tmp;
never inside the repository).  Each coordinate is an integer ``k`` drawn uniformly in ``[0, 10^18)``
written as the 18-digit decimal ``0.kkk...``, the label computed from ``k`` exactly (the cell is
``k // (10^18 / 4)``), so every line is 49 bytes: 110M rows are 5.39 GB (5.02 GiB).  The first
``--sample`` rows (default 1,000,000) are also written to a sample file.  Both files are deleted at
the end unless ``--keep`` (a kept pair is reused by the next run with the same rows and seed).

Training: ``BudgetedSVC(budget=500, lam=1e-4, gamma=128, maintenance="merge", backend="fast",
random_state=0)`` (Wang et al.'s Checkerboard setting; ``bench_checkerboard_stream.py`` runs it
without files).  Each case runs in a process of its own; its peak resident memory is the child's
``ru_maxrss`` as the parent collects it (``os.wait4``: the interpreter, numpy, scipy and scikit-learn
included):

``in-memory-sample``
    ``read_libsvm`` (dense) of the sample file, then one ``partial_fit`` over it.
``stream-sample``
    ``refsvm.fit_stream`` over the sample file (dense chunks of ``--chunk-rows``, as the in-memory
    matrix, file order; CSR chunks of two features train about three times slower).
``stream-full``
    ``refsvm.fit_stream`` over the whole file.

Per case: rows, seconds of the pre-pass (``scan_libsvm``: classes, feature count, moments, chunk
offsets), of reading (in memory), of the pass (streamed: reading and parsing of each chunk included),
microseconds per example with and without the pre-pass, peak RSS and the accuracy on 100,000 fresh
checkerboard rows (seed ``--seed + 1``).  The target ratio (at most 1.3) is the streamed
full pass's time per example over the in-memory run's (reading included); the ratio with the pre-pass
counted is printed too.  Taken on a shared 2-core machine, the times are inflated and the ratio is
noisy: the load average is recorded (provenance) before and after each case.

    python benchmarks/bench_stream_big.py [--dir /tmp --rows 110000000 --sample 1000000
        --chunk-rows 10000 --seed 0 --keep] [--json benchmarks/results/bench_stream_big.json
        --output benchmarks/results/bench_stream_big.txt]

``--profile`` instead times, on the sample file, where a streamed example's time goes: splitting the
file into chunks of lines, parsing them (scikit-learn's compiled parser and the strict checks),
making the dense chunk, and training.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

from _common import SHARED_NOTE, add_options, print_run_header, write_json

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.io.libsvm", "refsvm.io.stream", "refsvm.stream", "refsvm.estimators", "refsvm.bsgd",
           "refsvm._fast.bsgd", "refsvm.budget", "refsvm._fast.budget", "refsvm.kernels", "refsvm.io.datasets"]
CASES = ("in-memory-sample", "stream-sample", "stream-full")
DIGITS = 18                       # decimal digits of each coordinate
SCALE = 10 ** DIGITS              # < 2**63: the integers fit int64
GRID = 4
ROW_BYTES = 3 + (4 + DIGITS) + (5 + DIGITS) + 1     # "+1 " "1:0.<18>" " 2:0.<18>" "\n"
SETTINGS = dict(budget=500, lam=1e-4, gamma=128.0, maintenance="merge", backend="fast", random_state=0)


def chunk_text(rng, n):
    """``n`` checkerboard rows as LIBSVM text (bytes, ``ROW_BYTES`` per row), drawn from ``rng``."""
    k = rng.integers(0, SCALE, size=(n, 2), dtype=np.int64)
    cell = k // (SCALE // GRID)                                   # exact: SCALE is a multiple of GRID
    out = np.empty((n, ROW_BYTES), dtype=np.uint8)
    out[:, 0] = np.where(cell.sum(axis=1) % 2 == 0, ord("+"), ord("-"))
    out[:, 1:3] = np.frombuffer(b"1 ", np.uint8)
    pos = 3
    for j, prefix in enumerate((b"1:0.", b" 2:0.")):
        out[:, pos:pos + len(prefix)] = np.frombuffer(prefix, np.uint8)
        pos += len(prefix)
        v = k[:, j].copy()
        for i in range(DIGITS - 1, -1, -1):
            out[:, pos + i] = 48 + v % 10
            v //= 10
        pos += DIGITS
    out[:, pos] = ord("\n")
    return out.tobytes()


def generate(path, sample_path, rows, sample_rows, chunk, seed):
    """Write ``rows`` rows to ``path`` (and the first ``sample_rows`` to ``sample_path``)."""
    rng = np.random.default_rng(seed)
    done = 0
    with open(path + ".part", "wb") as fh, open(sample_path + ".part", "wb") as sample:
        while done < rows:
            n = min(chunk, rows - done)
            text = chunk_text(rng, n)
            fh.write(text)
            if done < sample_rows:
                sample.write(text[:(min(sample_rows - done, n)) * ROW_BYTES])
            done += n
    os.replace(sample_path + ".part", sample_path)
    os.replace(path + ".part", path)


def _estimator():
    from refsvm import BudgetedSVC

    return BudgetedSVC(verbose=0, **SETTINGS)


def run_case(args):
    """One case, in this process; prints its JSON row (the parent adds the peak RSS)."""
    from refsvm.io.datasets import checkerboard
    from refsvm.io.libsvm import read_libsvm
    from refsvm.io.stream import scan_libsvm
    from refsvm.stream import fit_stream

    path = args.file if args.case == "stream-full" else args.sample_file
    est = _estimator()
    row = dict(case=args.case, file=os.path.basename(path), file_bytes=os.path.getsize(path),
               load_average_before=os.getloadavg())
    if args.case == "in-memory-sample":
        start = time.perf_counter()
        X, y = read_libsvm(path)
        row["read_s"] = time.perf_counter() - start
        start = time.perf_counter()
        est.partial_fit(X, y, classes=np.unique(y))
        row["pass_s"] = time.perf_counter() - start
        row["rows"] = X.shape[0]
        del X, y
    else:
        start = time.perf_counter()
        summary = scan_libsvm(path, chunk_rows=args.chunk_rows)
        row["prepass_s"] = time.perf_counter() - start
        start = time.perf_counter()
        fit_stream(est, path, chunk_rows=args.chunk_rows, summary=summary, sparse=False)
        row["pass_s"] = time.perf_counter() - start          # reading and parsing included
        row["rows"] = summary.n_rows
    row["us_per_example"] = 1e6 * (row["pass_s"] + row.get("read_s", 0.0)) / row["rows"]
    row["us_per_example_with_prepass"] = row["us_per_example"] + 1e6 * row.get("prepass_s", 0.0) / row["rows"]
    row["training_only_us_per_example"] = 1e6 * row["pass_s"] / row["rows"] if "read_s" in row else None
    Xt, yt = checkerboard(100_000, random_state=args.seed + 1)
    row["test_accuracy"] = float(np.mean(est.predict(Xt) == yt))
    row["support_vectors"] = int(est.support_vectors_.shape[0])
    row["load_average_after"] = os.getloadavg()
    print(json.dumps(row))


def run_profile(args, sample_path):
    """Where a streamed example's time goes, on the sample file (one process, this one)."""
    import io

    from refsvm.io.libsvm import _as_dense, _parse
    from refsvm.io.stream import _line_blocks, scan_libsvm

    times = dict(split_lines=0.0, parse=0.0, to_dense=0.0, train=0.0)
    est = _estimator()
    classes = np.array([-1.0, 1.0])
    summary = scan_libsvm(sample_path, chunk_rows=args.chunk_rows)
    rows = 0
    clock = time.perf_counter()
    for _, first, lines in _line_blocks(sample_path, args.chunk_rows):
        now = time.perf_counter()
        times["split_lines"] += now - clock
        S, y, _, _ = _parse(io.BytesIO(b"".join(lines)), sample_path, False, lines, first)
        clock, now = now, time.perf_counter()
        times["parse"] += now - clock
        X = _as_dense(S, summary.n_features)
        clock, now = now, time.perf_counter()
        times["to_dense"] += now - clock
        est.partial_fit(X, y, classes=classes)
        clock, now = now, time.perf_counter()
        times["train"] += now - clock
        rows += X.shape[0]
        clock = time.perf_counter()
    return dict(rows=rows, chunk_rows=args.chunk_rows,
                us_per_example={k: 1e6 * v / rows for k, v in times.items()})


def _child(args, case, path, sample_path):
    """Run ``case`` in a child process: its JSON row with its peak RSS (``os.wait4``)."""
    cmd = [sys.executable, __file__, "--case", case, "--file", path, "--sample-file", sample_path,
           "--chunk-rows", str(args.chunk_rows), "--seed", str(args.seed)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"case {case} failed (exit status {proc.returncode})")
    row = json.loads(out.strip().splitlines()[-1])
    row["peak_rss_mb"] = usage.ru_maxrss / 1024.0
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_options(ap, int, rows=110_000_000, sample=1_000_000, chunk_rows=10_000, gen_chunk=1_000_000, seed=0)
    ap.add_argument("--dir", default="/tmp", help="where the generated files go (not the repository)")
    ap.add_argument("--keep", action="store_true", help="keep the generated files (reused by the next run)")
    ap.add_argument("--profile", action="store_true", help="only the time per example by part, on the sample")
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES)
    ap.add_argument("--case", choices=CASES, help=argparse.SUPPRESS)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    ap.add_argument("--sample-file", help=argparse.SUPPRESS)
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    if args.case:
        run_case(args)
        return 0
    for name in ("rows", "sample", "chunk_rows", "gen_chunk"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be >= 1")
    repo = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
    if os.path.realpath(args.dir).startswith(repo + os.sep) or os.path.realpath(args.dir) == repo:
        ap.error(f"--dir {args.dir} is inside the repository; give a folder outside it")
    print_run_header("benchmarks/bench_stream_big.py", sys.argv[1:] if argv is None else argv)
    sample_rows = min(args.sample, args.rows)
    stem = os.path.join(args.dir, f"refsvm-checkerboard-{args.rows}-seed{args.seed}")
    path, sample_path = stem + ".txt", stem + f"-first{sample_rows}.txt"
    generate_s = None
    if not (os.path.exists(path) and os.path.getsize(path) == args.rows * ROW_BYTES
            and os.path.exists(sample_path) and os.path.getsize(sample_path) == sample_rows * ROW_BYTES):
        start = time.perf_counter()
        generate(path, sample_path, args.rows, sample_rows, args.gen_chunk, args.seed)
        generate_s = time.perf_counter() - start
    size = os.path.getsize(path)
    print(f"data: {path} ({size / 1e9:.2f} GB = {size / 2**30:.2f} GiB, {args.rows:,} rows x 2 features"
          + (f", written in {generate_s:.0f} s" if generate_s is not None else ", reused")
          + f"), sample {sample_path} ({sample_rows:,} rows)", flush=True)
    try:
        if args.profile:
            out = run_profile(args, sample_path)
            print("per example (us): " + ", ".join(f"{k} {v:.2f}" for k, v in out["us_per_example"].items()))
            write_json(args.json, dict(profile=out), MODULES, note=SHARED_NOTE,
                       command="python benchmarks/bench_stream_big.py "
                       + " ".join(sys.argv[1:] if argv is None else argv))
            return 0
        rows = []
        for case in args.cases:
            row = _child(args, case, path, sample_path)
            rows.append(row)
            print(f"{case:18s} {row['rows']:>11,d} rows {row['file_bytes'] / 1e9:7.2f} GB  "
                  f"prepass {row.get('prepass_s', 0):7.1f} s  read {row.get('read_s', 0):6.1f} s  "
                  f"pass {row['pass_s']:7.1f} s  {row['us_per_example']:5.2f} us/example "
                  f"({row['us_per_example_with_prepass']:5.2f} with pre-pass)  peak RSS {row['peak_rss_mb']:5.0f} MB  "
                  f"test accuracy {row['test_accuracy']:.4f}  load {row['load_average_before'][0]:.1f} -> "
                  f"{row['load_average_after'][0]:.1f}", flush=True)
    finally:
        if not args.keep:
            for name in (path, sample_path):
                if os.path.exists(name):
                    os.remove(name)
    by = {r["case"]: r for r in rows}
    ratios = {}
    if "in-memory-sample" in by:
        base = by["in-memory-sample"]["us_per_example"]
        for case in ("stream-sample", "stream-full"):
            if case in by:
                ratios[case] = dict(pass_over_in_memory=by[case]["us_per_example"] / base,
                                    with_prepass_over_in_memory=by[case]["us_per_example_with_prepass"] / base)
    lines = []
    if "stream-full" in by:
        full = by["stream-full"]
        lines.append(f"peak RSS of the streamed {full['file_bytes'] / 2**30:.2f} GiB pass: {full['peak_rss_mb']:.0f} MB "
                     f"(< 300 MB required: {'PASS' if full['peak_rss_mb'] < 300 else 'FAIL'})")
    if "stream-full" in ratios:
        r = ratios["stream-full"]
        lines.append(f"time per example, streamed pass / in-memory 1M-row run (reading included in both): "
                     f"{r['pass_over_in_memory']:.2f} (<= 1.3 required: "
                     f"{'PASS' if r['pass_over_in_memory'] <= 1.3 else 'FAIL'}); with the pre-pass counted: "
                     f"{r['with_prepass_over_in_memory']:.2f}; {SHARED_NOTE}")
    for line in lines:
        print(line)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    write_json(args.json, dict(settings=dict(rows=args.rows, sample=sample_rows, chunk_rows=args.chunk_rows,
                                             seed=args.seed, row_bytes=ROW_BYTES, file_bytes=args.rows * ROW_BYTES,
                                             generate_s=generate_s, **SETTINGS),
                               cases=rows, ratios=ratios),
               MODULES, note=SHARED_NOTE + "; generated data outside the repository, not committed",
               command="python benchmarks/bench_stream_big.py "
               + " ".join(sys.argv[1:] if argv is None else argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
