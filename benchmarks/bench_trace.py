#!/usr/bin/env python
"""The cost of the oracle's trace export: one pass of BSGD over a9a, fast path, traced against untraced.

The target: trace export costs at most 1.5x the untraced run on the fast path for one pass of
a9a at B = 500.  Measured here, after one untimed warm-up run, each as the least CPU time
(``time.process_time``) of ``--repeats`` runs in this process, all on the same visiting order (``numpy.random.default_rng(seed).permutation``):

* ``untraced``: :func:`refsvm._fast.bsgd.bsgd`, one pass (what an estimator's epoch runs);
* ``recorded``: the same call inside :func:`refsvm.recorder.recording_steps` (the per-step records:
  scores and merged coefficients written from the C loop);
* ``tables``: :func:`refsvm.oracle.trace_tables` (the recorded run plus the trace in columns);
* ``export_npz``: :func:`refsvm.oracle.export_trace` to the compact form (a ``.npz`` of the columns);
* ``records``: :func:`refsvm.oracle.trace_records` (the recorded run plus the records as dicts);
* ``export``: :func:`refsvm.oracle.export_trace` to JSON Lines (the records, one line each).

Files are written to a temporary directory.

Each traced run's model is checked to be bitwise the untraced one's.  Settings as
benchmarks/bench_bsgd.py's a9a (C = 32, gamma = 2^-7, lambda = 1 / (n C), merging, GSS).  The
ratios are what the 1.5x bound is about; on the shared development machine the absolute times are
inflated (``--note``), the ratios less so (each run is a single thread of the same length).

Usage::

    python benchmarks/bench_trace.py --repeats 3 --json benchmarks/results/bench_trace.json \\
        | tee benchmarks/results/bench_trace.txt
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402

MODULES = ["refsvm.oracle", "refsvm.recorder", "refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.budget"]
SETTINGS = {"a9a": dict(C=32.0, gamma=2.0 ** -7)}


def least_cpu_seconds(fn, repeats):
    """The least CPU seconds (``time.process_time``) of ``repeats`` calls of ``fn()``, and the last result."""
    best, out = float("inf"), None
    for _ in range(repeats):
        start = time.process_time()
        out = fn()
        best = min(best, time.process_time() - start)
    return best, out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="a9a", choices=sorted(SETTINGS))
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--n-train", type=int, default=0, help="first rows only (0: all)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json")
    parser.add_argument("--note", default=SHARED_NOTE)
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.budget < 1 or args.n_train < 0:
        parser.error("--repeats and --budget must be >= 1, --n-train >= 0")
    print_run_header("benchmarks/bench_trace.py", argv)

    from refsvm import oracle
    from refsvm._fast.bsgd import bsgd
    from refsvm.datasets import load_libsvm
    from refsvm.recorder import recording_steps

    X, y, _, _ = load_libsvm(args.dataset)
    if args.n_train:
        X, y = X[:args.n_train], y[:args.n_train]
    X = np.ascontiguousarray(X, dtype=np.float64)
    yb = np.where(y == np.max(y), 1, -1).astype(np.int64)
    s = SETTINGS[args.dataset]
    params = dict(budget=args.budget, lam=1.0 / (X.shape[0] * s["C"]), gamma=s["gamma"], maintenance="merge",
                  merge_solver="gss")
    kw = {**oracle.SOLVERS["bsgd"].defaults, **params}
    order = np.random.default_rng(args.seed).permutation(X.shape[0]).astype(np.int64)

    def untraced():
        return bsgd(X, yb, order, **kw)

    def recorded():
        with recording_steps():
            return bsgd(X, yb, order, **kw)

    tmp = tempfile.mkdtemp()

    def tables():
        return oracle.trace_tables("bsgd", X, yb, order=[order], params=params, backend="fast")[2][0]

    def export_npz():
        return oracle.export_trace("bsgd", X, yb, path=Path(tmp) / "trace.npz", order=[order], params=params,
                                   backend="fast")[0]

    def records():
        return oracle.trace_records("bsgd", X, yb, order=[order], params=params, backend="fast")[1][0]

    def export():
        return oracle.export_trace("bsgd", X, yb, path=Path(tmp) / "trace.jsonl", order=[order], params=params,
                                   backend="fast")[0]

    untraced()                                       # warm-up (page faults, kernel tables), not counted
    rows, base = [], None
    for name, fn in (("untraced", untraced), ("recorded", recorded), ("tables", tables), ("export_npz", export_npz),
                     ("records", records), ("export", export)):
        seconds, res = least_cpu_seconds(fn, args.repeats)
        if base is None:
            base, model = seconds, res
        bitwise = all(getattr(res, k).tobytes() == getattr(model, k).tobytes() for k in ("sv", "alpha", "bias"))
        row = dict(case=name, cpu_seconds=seconds, ratio=seconds / base, bitwise_model=bitwise,
                   n_sv=int(res.sv.shape[0]), n_events=int(len(res.trace["maint_step"])))
        rows.append(row)
        print(f"{name:10s} cpu {seconds:8.3f} s  ratio {row['ratio']:5.3f}  model bitwise the untraced: {bitwise}",
              flush=True)
    size = (Path(tmp) / "trace.jsonl").stat().st_size
    npz = (Path(tmp) / "trace.npz").stat().st_size
    print(f"trace files: JSON Lines {size / 1e6:.1f} MB, compact {npz / 1e6:.1f} MB for {X.shape[0]} steps; "
          f"least of {args.repeats} runs each; {args.note}")
    write_json(args.json, dict(dataset=args.dataset, n_train=int(X.shape[0]), budget=args.budget,
                               repeats=args.repeats, seed=args.seed, settings=s, trace_bytes=size, compact_bytes=npz,
                               rows=rows),
               MODULES, note=args.note)
    return 0 if all(r["bitwise_model"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
