#!/usr/bin/env python
"""Glasmachers & Qaadan (lookup merging), Table 3's merging frequency: refsvm beside the authors' released
BSGD, on the same data and settings.

Why: ``refsvm reproduce glasmachers-lookup-table3`` merges at fewer steps than the paper prints on every data
set (IJCNN 3.6 % against 17 %, ADULT 24.8 % against 32 %, WEB 2.8 % against 6 %).  The paper's "merging
frequency" is "the fraction of SGD iterations in which merging occurs" (section 4).  This script asks whether
the authors' own code counts what the paper prints.

The peer: JUQad/BudgetedSdualSVM (Qaadan's C++, the BSCA paper's code; its merge routine,
``mergeHeuristicWD`` in src/budgetMaintenance.cpp, carries this paper's algorithm-line comments and its GSS /
Lookup-h / Lookup-WD switches, and its ``BSGD`` in src/solver.cpp counts the merges of each epoch,
``countMerges``), built by the user OUTSIDE this repository; nothing of it is shipped or committed here.  As
published it does not compile (six output streams are used undeclared, among them the one the merge count is
written to; ``main`` names solvers that do not exist) and its argument loop reads one element past the
arguments.  The build measured here declared those streams, dropped the missing solvers, bounded the loop,
and printed ``countMerges`` at the end of each epoch ("MERGES epoch k COUNT of N") instead of writing it to
an unopened stream; the training loop, the margin test (merge when ``1 - y f(x) > 0`` adds an SV beyond B),
the Pegasos steps and the merge are the published code, with its default GSS (bracket 0.01).  Its visiting
order is its own ``rand()`` (unseeded: one deterministic run per configuration).  Invocation: ``BSVM --method
0 --train F --test T --lookup L --C C --gamma g --B B --epochs 20`` (``--lookup``: a one-line file, which
GSS does not read).

refsvm: :func:`refsvm.reproduce.runners.bsgd_passes` (the Table 2 / 3 runs: BPegasos, ``lam = 1/(n C)``, no
bias, GSS, one fresh permutation per pass), ``--seeds`` visiting orders; merges per pass are the steps whose
maintenance found a partner (``trace["maint_partner"] >= 0``, as glasmachers-lookup-table3 counts).

Data: the training and test splits of ``glasmachers-lookup-table2`` (:func:`refsvm.reproduce.driver.load_dataset`;
PHISHING's rows at unit length), written as LIBSVM files with 17 significant digits under a temporary
directory (never in the repository), so both read the same doubles.  C and gamma: the paper's Table 1.

Printed per (data set, B): merges per step over the first pass and over all passes, refsvm (mean and range
over the seeds) beside the peer's one run and the paper's Table 3 (B = 100 only), and both test errors.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_run_header, write_json  # noqa: E402
from bench_wang_figure6_peer import write_libsvm  # noqa: E402

MODULES = ["refsvm/reproduce/runners.py", "refsvm/reproduce/driver.py", "refsvm/reproduce/tables_core.py",
           "refsvm/reproduce/tables_lookup.py", "refsvm/_fast/bsgd.pyx", "refsvm/_fast/budget.pyx", "refsvm/_fast/budget_merging.pxi"]
DEFAULT_PEER = "/tmp/peer-bsdual/bsvm"
PEER = "JUQad/BudgetedSdualSVM at 205254d (patched to build and to print its per-epoch merge count; see the docstring)"
_MERGES = re.compile(r"MERGES epoch (\d+) (\d+) of (\d+)")
_ACCURACY = re.compile(r"average performance : ([0-9.eE+-]+)")


def peer_run(binary, train_file, test_file, lookup, *, C, gamma, budget, epochs):
    """The peer's per-epoch merge counts, its test error (%) and wall seconds."""
    start = time.perf_counter()
    out = subprocess.run([binary, "--method", "0", "--train", train_file, "--test", test_file, "--lookup", lookup,
                          "--C", repr(C), "--gamma", repr(gamma), "--B", str(budget), "--epochs", str(epochs)],
                         capture_output=True, text=True, errors="replace", check=True).stdout
    wall = time.perf_counter() - start
    per_epoch = [(int(k), int(c), int(n)) for k, c, n in _MERGES.findall(out)]
    if len(per_epoch) != epochs:
        raise RuntimeError(f"the peer printed {len(per_epoch)} merge counts for {epochs} epochs")
    accuracy = float(_ACCURACY.findall(out)[-1])
    return dict(merges=[c for _, c, _ in per_epoch], steps=per_epoch[0][2], error=100.0 - accuracy, wall=wall)


def ours_run(X, y, Xt, yt, seed, *, C, gamma, budget, epochs):
    """refsvm's merges per pass (:func:`refsvm.reproduce.runners.bsgd_passes`, GSS) and its test error (%)."""
    from refsvm.reproduce.runners import bsgd_passes, decision_values

    merges = []
    res = bsgd_passes(X, y, seed, C=C, gamma=gamma, budget=budget, maintenance="merge", merge_solver="gss",
                      epochs=epochs, each_pass=lambda r: merges.append(int(np.sum(r.trace["maint_partner"] >= 0))))
    f = decision_values(res.sv, res.alpha, res.bias, gamma, Xt)
    return dict(merges=merges, steps=X.shape[0], error=100.0 * float(np.mean(yt * f <= 0)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", default=DEFAULT_PEER, help="the peer's binary (built outside the repository)")
    ap.add_argument("--datasets", nargs="+", default=["IJCNN", "ADULT", "WEB", "PHISHING"])
    ap.add_argument("--budgets", nargs="+", type=int, default=[100, 500])
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seeds", type=int, default=5, help="refsvm's visiting orders per configuration")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    if args.epochs < 1 or args.seeds < 1:
        ap.error("--epochs and --seeds must be positive")
    if not os.access(args.peer, os.X_OK):
        ap.error(f"--peer {args.peer}: no executable there (build the peer outside the repository, see the docstring)")
    print_run_header("benchmarks/bench_glasmachers_merge_frequency_peer.py", argv)
    print(f"peer: {PEER}, binary {args.peer}")
    from refsvm.reproduce.driver import load_dataset
    from refsvm.reproduce.tables_core import GLASMACHERS_LOOKUP_TABLE2
    from refsvm.reproduce.tables_lookup import _T3_PAPER          # Table 3: merging frequency (%) at index 2

    rows = []
    print(f"{'data':<9} {'B':>4}  {'first pass: ours [range]':>26} {'peer':>6}  "
          f"{'all passes: ours [range]':>26} {'peer':>6} {'paper':>6}  {'error: ours':>11} {'peer':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        lookup = os.path.join(tmp, "lookup.txt")
        Path(lookup).write_text("0\n")
        for ds in GLASMACHERS_LOOKUP_TABLE2.datasets:
            if ds.label not in args.datasets:
                continue
            X, y, Xt, yt = load_dataset(ds, None, False)
            X, Xt = (np.ascontiguousarray(A.toarray() if hasattr(A, "toarray") else A, dtype=np.float64)
                     for A in (X, Xt))
            y, yt = np.asarray(y, dtype=np.int64), np.asarray(yt, dtype=np.int64)
            train_file, test_file = os.path.join(tmp, f"{ds.label}.train"), os.path.join(tmp, f"{ds.label}.test")
            write_libsvm(train_file, X, y)
            write_libsvm(test_file, Xt, yt)
            C, gamma = ds.params["C"], ds.params["gamma"]
            for budget in args.budgets:
                peer = peer_run(args.peer, train_file, test_file, lookup, C=C, gamma=gamma, budget=budget,
                                epochs=args.epochs)
                ours = [ours_run(X, y, Xt, yt, seed, C=C, gamma=gamma, budget=budget, epochs=args.epochs)
                        for seed in range(args.seeds)]
                first = [100.0 * o["merges"][0] / o["steps"] for o in ours]
                total = [100.0 * sum(o["merges"]) / (o["steps"] * args.epochs) for o in ours]
                peer_first = 100.0 * peer["merges"][0] / peer["steps"]
                peer_total = 100.0 * sum(peer["merges"]) / (peer["steps"] * args.epochs)
                printed = _T3_PAPER.get((ds.label, budget), ())
                paper = float(printed[2]) if len(printed) > 2 else None
                row = dict(dataset=ds.label, budget=budget, n=int(X.shape[0]), C=C, gamma=gamma, epochs=args.epochs,
                           ours_first=first, ours_total=total, ours_error=[o["error"] for o in ours],
                           ours_merges=[o["merges"] for o in ours], peer_first=peer_first, peer_total=peer_total,
                           peer_merges=peer["merges"], peer_error=peer["error"], peer_wall=peer["wall"],
                           paper=paper)
                rows.append(row)
                print(f"{ds.label:<9} {budget:>4}  {np.mean(first):8.2f} [{min(first):6.2f}, {max(first):6.2f}] "
                      f"{peer_first:6.2f}  {np.mean(total):8.2f} [{min(total):6.2f}, {max(total):6.2f}] "
                      f"{peer_total:6.2f} {'' if paper is None else f'{paper:6.2f}':>6}  "
                      f"{np.mean(row['ours_error']):11.2f} {peer['error']:6.2f}", flush=True)
    print("merges per step (%); ours: mean [range] over the seeds; peer: one run; paper: Table 3 (B = 100); "
          "error: test error (%) after the last pass (ours: mean over the seeds)")
    write_json(args.json, dict(peer=PEER, epochs=args.epochs, seeds=args.seeds, rows=rows), MODULES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
