#!/usr/bin/env python
"""Wang, Crammer & Vucetic (2012), Figure 6 (training time against the stream length, Checkerboard) with
refsvm's compiled path beside BudgetedSVM (the authors' C++ toolbox, built by the user OUTSIDE this
repository; nothing of it is shipped here) on the same stream.

Stream: ``refsvm.io.datasets.checkerboard(max_n, random_state=--seed)`` (4 x 4 board on [0, 1]^2); the
run for N uses its first N rows IN FILE ORDER on both sides.  The rows are written as a LIBSVM file under
a temporary directory (never in the repository) with 17 significant digits, so the peer parses exactly the
doubles refsvm trains on (:func:`write_libsvm`).  Test sample: ``checkerboard(--n-test,
random_state=--seed + 1)``, fresh rows.

Setting: the one of ``refsvm reproduce wang2012-figure6`` (:mod:`refsvm.reproduce.tables_wang`): BPegasos,
one pass, lambda = 1e-4, gamma = 128 (sigma = 0.0625 on the unit square), no bias; refsvm runs
:func:`refsvm.reproduce.wang_stream.checkpointed_pass` (the compiled ``bsgd`` with wang_stream's options,
merge tolerance 0.01) over ``arange(N)``.  The peer runs ``budgetedsvm-train -A 4 -B B -L 2 lambda -g
2 gamma -b 0 -e 1 -r 0 -m M`` (``-r 0``: file order; the factors 2: benchmarks/bench_peers.py's
docstring), M = 1 merging (its golden-section search to 1e-4), M = 0 removal (of the smallest SV).  The
toolbox has no projection, so no projection rows are run.

Measured per (maintenance, B, N):

* refsvm: CPU time (``time.process_time``) of the training call on arrays in memory, and its wall time (after
  one untimed warm-up call: the first call of a process pays one-time costs);
* peer: its own "Training completed in X seconds" (``clock()`` around the training loop: CPU time,
  parsing excluded) and the wall time of the whole ``budgetedsvm-train`` process (parsing included);
* test accuracy of both (the peer's model through ``budgetedsvm-predict`` on the padded model file:
  bench_peers.pad_model);
* per configuration, the log-log slope of time on N over the points N >= 100K
  (:func:`refsvm.reproduce.wang_stream.loglog_slope`; Figure 6: linear time is slope 1).

The paper's Matlab times: Figure 6 is a plot; the paper's text prints no number of it (only that the time
of merging and projection grows linearly in N), so the table says "not printed in the text".

The machine is shared; the load average is printed at start and end and recorded in the JSON.
"""

import argparse
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402
from bench_bsgd import accuracy, load_average  # noqa: E402
from bench_peers import find_checkout, git_head, peer_bsgd  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["benchmarks/bench_bsgd.py", "benchmarks/bench_peers.py", "refsvm._fast.bsgd", "refsvm.reproduce.wang_stream",
           "refsvm.reproduce.tables_wang", "refsvm.io.datasets"]

#: Stream lengths of the figure (the paper's stream: 10M)
NS = (10_000, 30_000, 100_000, 300_000, 1_000_000)
BUDGETS = (100, 500)
#: refsvm's maintenance name -> the peer's -m code (the toolbox has removal and merging only)
PEER_MAINTENANCE = {"merge": 1, "removal": 0}
PAPER_TIMES = "not printed in the text"
DEFAULT_PEER = "/tmp/wd2_bsvm/bin"
#: The peer's longest stream by default: its merging costs about 0.2 ms (B = 100) to 0.8 ms (B = 500) per example
#: on this machine, so 1M rows at B = 500 alone would take ~15 minutes; 300K keeps two points from 100K for the slope
PEER_MAX_N = 300_000
#: djurikom/BudgetedSVM commit of the build at DEFAULT_PEER (its directory holds no .git; built with its Makefile)
PEER_COMMIT = "cce05ffc"


def write_libsvm(path, X, y):
    """Write the rows of dense ``X`` (n, d) with labels ``y`` as a LIBSVM file, in row order, every value with
    17 significant digits (parsed back as the same double)."""
    with open(path, "w") as fh:
        for xi, yi in zip(X, y):
            fh.write(f"{int(yi):d} " + " ".join(f"{j + 1}:{v:.17g}" for j, v in enumerate(xi)) + "\n")


def slopes(rows, key, from_n=None):
    """``{(maintenance, budget): slope}`` of log(``row[key]``) on log(N) over each configuration's rows
    (:func:`refsvm.reproduce.wang_stream.loglog_slope`, from ``from_n``; None: its default, 100K)."""
    from refsvm.reproduce.wang_stream import SLOPE_FROM, loglog_slope

    groups = {}
    for r in rows:
        if r.get(key) is not None:
            groups.setdefault((r["maintenance"], r["budget"]), []).append((r["n"], r[key]))
    return {k: loglog_slope(*zip(*v), from_n=SLOPE_FROM if from_n is None else from_n) for k, v in groups.items()}


def refsvm_run(X, y, Xt, yt, n, *, budget, maintenance, lam, gamma):
    """One pass of refsvm's compiled BPegasos over the first ``n`` rows in order: CPU and wall seconds,
    test accuracy, number of SVs."""
    from refsvm.reproduce.wang_stream import checkpointed_pass

    c0 = time.process_time()
    sv, alpha, bias, wall, _, _ = checkpointed_pass(X, y, np.arange(n, dtype=np.int64), (), lambda *a: None,
                                                    n_classes=2, budget=budget, lam=lam, maintenance=maintenance,
                                                    gamma=gamma)
    cpu = time.process_time() - c0
    return dict(cpu=cpu, wall=wall, accuracy=accuracy(sv, alpha, bias, gamma, Xt, yt), n_sv=len(sv))


def peer_run(bindir, train_file, test_file, Xt, yt, *, budget, maintenance, lam, gamma, tmp):
    """One ``budgetedsvm-train`` pass in file order, then ``budgetedsvm-predict`` on the test file
    (:func:`bench_peers.peer_bsgd` with the peer's code of ``maintenance``)."""
    out = peer_bsgd(bindir, train_file, test_file, Xt, yt, budget=budget, lam=lam, gamma=gamma, dim=Xt.shape[1],
                    tmp=tmp, maintenance=PEER_MAINTENANCE[maintenance])
    return dict(out, cpu=None if out["cpu"] != out["cpu"] else out["cpu"])


def _us(seconds, n):
    return "-" if seconds is None else f"{1e6 * seconds / n:.2f}"


def render(result):
    """The table: per configuration and N, microseconds per example and accuracy of both; then the slopes."""
    lines = [f"{'maint.':8s} {'B':>4s} {'N':>9s} | {'refsvm CPU us/ex':>16s} {'peer CPU us/ex':>14s} "
             f"{'peer wall us/ex':>15s} {'peer/ours':>9s} | {'refsvm acc %':>12s} {'peer acc %':>10s} | paper (Matlab)"]
    for r in result["rows"]:
        p = r.get("peer") or {}
        ratio = f"{p['cpu'] / r['refsvm']['cpu']:8.1f}x" if p.get("cpu") and r["refsvm"]["cpu"] > 0 else "-"
        lines.append(f"{r['maintenance']:8s} {r['budget']:4d} {r['n']:9,d} | {_us(r['refsvm']['cpu'], r['n']):>16s} "
                     f"{_us(p.get('cpu'), r['n']):>14s} {_us(p.get('wall'), r['n']):>15s} {ratio:>9s} | "
                     f"{100 * r['refsvm']['accuracy']:12.2f} "
                     f"{'-' if 'accuracy' not in p else format(100 * p['accuracy'], '10.2f'):>10s} | {PAPER_TIMES}")
    lines.append("")
    lines.append("log-log slope of training time on N from N = 100K (1: linear in N; Figure 6's text: linear for "
                 "merging and projection):")
    for (m, b), s in result["slopes"]["refsvm_cpu"].items():
        peer = result["slopes"]["peer_cpu"].get((m, b))
        lines.append(f"  {m:8s} B = {b:3d}: refsvm {'-' if s is None else format(s, '.3f')}, "
                     f"peer {'-' if peer is None else format(peer, '.3f')}")
    return "\n".join(lines)


def main(argv=None):
    from refsvm.io.datasets import checkerboard
    from refsvm.reproduce.tables_wang import GAMMA, LAM

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-n", type=int, default=NS[-1], help="longest stream (the Ns of the figure up to it)")
    ap.add_argument("--budgets", type=int, nargs="+", default=list(BUDGETS))
    ap.add_argument("--maintenance", nargs="+", default=list(PEER_MAINTENANCE), choices=list(PEER_MAINTENANCE))
    ap.add_argument("--budgetedsvm", default=DEFAULT_PEER, help="directory of budgetedsvm-train / -predict "
                    "('' to run refsvm only)")
    ap.add_argument("--peer-max-n", type=int, default=PEER_MAX_N, help="longest stream the peer runs (its "
                    "merging costs about 0.2-0.8 ms per example here)")
    ap.add_argument("--peer-commit", default=PEER_COMMIT, help="the peer's commit, recorded when its build directory "
                    "is not a git checkout")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--n-test", type=int, default=20_000)
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    if args.max_n < 1 or args.n_test < 1:
        ap.error("--max-n and --n-test must be positive")
    if any(b < 1 for b in args.budgets):
        ap.error("--budgets must be positive")
    ns = [n for n in NS if n <= args.max_n] or [args.max_n]
    peer = args.budgetedsvm or None
    if peer and not (Path(peer) / "budgetedsvm-train").is_file():
        ap.error(f"--budgetedsvm: no budgetedsvm-train in {peer}")
    print_run_header("benchmarks/bench_wang_figure6_peer.py", argv)
    X, y = checkerboard(ns[-1], random_state=args.seed)
    Xt, yt = checkerboard(args.n_test, random_state=args.seed + 1)
    checkout = find_checkout(peer) if peer else None
    header = dict(lam=LAM, gamma=GAMMA, seed=args.seed, n_test=args.n_test, ns=ns, peer_max_n=args.peer_max_n,
                  budgets=args.budgets,
                  maintenance=args.maintenance, paper_times=PAPER_TIMES, load_start=load_average(),
                  peer=None if not peer else dict(binaries=str(Path(peer).resolve()),
                                                    checkout=str(checkout) if checkout else None,
                                                    commit=git_head(checkout) if checkout else args.peer_commit,
                                                    build="its own Makefile: -g -Wall -Wconversion -O3"))
    print(f"lambda = {LAM:g}, gamma = {GAMMA:g} (peer -L {2 * LAM:g} -g {2 * GAMMA:g}); Ns {ns}; "
          f"peer {header['peer']}; load at start {header['load_start']}", flush=True)
    # one untimed call first: the first call of a process pays one-time costs (imports, first allocations)
    refsvm_run(X, y, Xt[:100], yt[:100], min(ns[0], 1000), budget=args.budgets[0], maintenance=args.maintenance[0],
               lam=LAM, gamma=GAMMA)
    rows = []
    with tempfile.TemporaryDirectory(prefix="wang_f6_") as tmp:
        test_file = Path(tmp) / "test.libsvm"
        write_libsvm(test_file, Xt, yt)
        for n in ns:
            train_file = Path(tmp) / f"train{n}.libsvm"
            on_peer = bool(peer) and n <= args.peer_max_n
            if on_peer:
                write_libsvm(train_file, X[:n], y[:n])
            for m in args.maintenance:
                for b in args.budgets:
                    row = dict(maintenance=m, budget=b, n=n,
                               refsvm=refsvm_run(X, y, Xt, yt, n, budget=b, maintenance=m, lam=LAM, gamma=GAMMA))
                    if on_peer:
                        row["peer"] = peer_run(peer, train_file, test_file, Xt, yt, budget=b, maintenance=m, lam=LAM,
                                               gamma=GAMMA, tmp=tmp)
                    rows.append(row)
                    print(f"  {m} B={b} N={n}: refsvm cpu {row['refsvm']['cpu']:.3f} s acc "
                          f"{row['refsvm']['accuracy']:.4f}; peer cpu {row.get('peer', {}).get('cpu')} s acc "
                          f"{row.get('peer', {}).get('accuracy')}", flush=True)
            if on_peer:
                train_file.unlink()
    flat = [dict(maintenance=r["maintenance"], budget=r["budget"], n=r["n"], refsvm_cpu=r["refsvm"]["cpu"],
                 peer_cpu=(r.get("peer") or {}).get("cpu"), peer_wall=(r.get("peer") or {}).get("wall")) for r in rows]
    result = dict(header, rows=rows, load_end=load_average(),
                  slopes={k: slopes(flat, k) for k in ("refsvm_cpu", "peer_cpu", "peer_wall")})
    text = render(result)
    print(text)
    print(f"load at end {result['load_end']}")
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("command: python benchmarks/bench_wang_figure6_peer.py "
                     + shlex.join(sys.argv[1:] if argv is None else argv) + "\n")
            fh.write(f"load at start {result['load_start']}, at end {result['load_end']}; {SHARED_NOTE}\n")
            fh.write(f"peer: {header['peer']}\n\n{text}\n")
    result["slopes"] = {k: [dict(maintenance=m, budget=b, slope=s) for (m, b), s in v.items()]
                        for k, v in result["slopes"].items()}
    write_json(args.json, result, MODULES, note=SHARED_NOTE)


if __name__ == "__main__":
    main()
