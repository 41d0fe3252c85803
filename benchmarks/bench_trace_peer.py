#!/usr/bin/env python
"""Where BudgetedSVM's own BSGD run first leaves the paper's algorithm (refsvm's trace), step by step.

BudgetedSVM (djurikom/BudgetedSVM, built by the user OUTSIDE this repository, ``--budgetedsvm DIR``
holding ``budgetedsvm-train``) writes no trace; what can be observed is its model after N steps: it is
trained with ``-A 4 -m 1 -r 0 -b 0 -e 1`` (BSGD, merging, the file's order, no bias, one epoch) on the
first N lines of the training file, for N = 1, 2, ..., ``--steps``, and each model is read with
:func:`refsvm.io.read_budgetedsvm_model`.  refsvm's reference path runs the same steps (the rows in
file order, ``lambda`` and ``gamma`` translated as benchmarks/bench_peers.py explains: ``-L 2 lambda``,
``-g 2 gamma``, its merge's golden-section search to 1e-4) with the per-step records on.  After every
step both models are compared: the number of SVs (a discrete decision: an SV added, a merge), and the
scores of both models on ``--probe`` training rows (relative to the largest score; the toolbox writes
its coefficients and support vectors as 32-bit floats, so 1e-5 is its resolution).

Printed: the first step whose SV count differs, the first step whose scores differ beyond
``--rtol``, and the steps around them; the JSON keeps every step's numbers.

Usage::

    python benchmarks/bench_trace_peer.py --budgetedsvm /tmp/wd2_bsvm/bin --steps 300 --budget 20 \\
        --json benchmarks/results/bench_trace_peer.json | tee benchmarks/results/bench_trace_peer.txt
"""

import argparse
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402
from bench_peers import int_labels, pad_model, read_lines, write_lines  # noqa: E402

MODULES = ["refsvm.bsgd", "refsvm.budget", "refsvm.io.peer_models", "refsvm.recorder"]
SETTINGS = {"a9a": dict(C=32.0, gamma=2.0 ** -7, n=32561)}


def peer_model(bindir, lines, n, budget, lam, gamma, tmp):
    """The toolbox's model after the first ``n`` lines (read by refsvm) and the sign that orients its
    score as refsvm's (``f > 0``: label +1; the file's score is class 2's minus class 1's, in the order
    of ``LABELS``)."""
    from refsvm.io import read_budgetedsvm_model

    data, model = Path(tmp) / "prefix.txt", Path(tmp) / "prefix.model"
    write_lines(data, lines[:n])
    subprocess.run([str(Path(bindir) / "budgetedsvm-train"), "-A", "4", "-m", "1", "-r", "0", "-b", "0", "-e", "1",
                    "-B", str(budget), "-L", repr(2 * lam), "-g", repr(2 * gamma), "-D", "123", str(data),
                    str(model)], capture_output=True, text=True, check=True)
    text = model.read_text()
    labels = [int(v) for v in next(s for s in text.splitlines() if s.startswith("LABELS:")).split()[1:]]
    model.write_text(pad_model(text))
    return read_budgetedsvm_model(model, n_features=123), 1.0 if labels[-1] == 1 else -1.0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgetedsvm", required=True, help="directory holding budgetedsvm-train")
    parser.add_argument("--dataset", default="a9a", choices=sorted(SETTINGS))
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--budget", type=int, default=20)
    parser.add_argument("--probe", type=int, default=200)
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    if args.steps < 1 or args.budget < 1 or args.probe < 1:
        parser.error("--steps, --budget and --probe must be >= 1")
    print_run_header("benchmarks/bench_trace_peer.py", argv)

    from refsvm.bsgd import bsgd
    from refsvm.datasets import load_libsvm
    from refsvm.io.fetch import data_homes

    s = SETTINGS[args.dataset]
    lam, gamma = 1.0 / (s["n"] * s["C"]), s["gamma"]
    X, y, _, _ = load_libsvm(args.dataset)
    X = np.ascontiguousarray(X[:max(args.steps, args.probe)], dtype=np.float64)
    yb = np.where(y[:X.shape[0]] > 0, 1, -1).astype(np.int64)
    home = next(Path(h) for h in data_homes() if (Path(h) / f"{args.dataset}.bz2").exists())
    lines = int_labels(read_lines(home / f"{args.dataset}.bz2")[:args.steps])
    probe = X[:args.probe]
    kw = dict(n_classes=2, budget=args.budget, lam=lam, learning_rate="pegasos", eta=1.0, radius=1.0,
              maintenance="merge", kernel="rbf", gamma=gamma, degree=3, coef0=0.0, merge_eps=1e-4,
              projection_ridge=1e-10, fit_bias=False)
    rows, first_count, first_score = [], None, None
    with tempfile.TemporaryDirectory() as tmp:
        start = int(np.flatnonzero(yb != yb[0])[0]) + 1        # the toolbox needs both classes in the file
        for n in range(start, args.steps + 1):
            ours = bsgd(X, yb, np.arange(n), **kw)
            theirs, sign = peer_model(args.budgetedsvm, lines, n, args.budget, lam, gamma, tmp)
            K = np.exp(-gamma * ((probe[:, None, :] - ours.sv[None, :, :]) ** 2).sum(-1))
            f_ours = K @ ours.alpha[:, 0]
            f_theirs = sign * np.asarray(theirs.decision_function(probe)).reshape(-1)
            scale = max(float(np.max(np.abs(f_ours))), 1e-300)
            err = float(np.max(np.abs(f_ours - f_theirs))) / scale
            row = dict(step=n - 1, n_sv=int(ours.sv.shape[0]), peer_n_sv=int(theirs.n_support),
                       score_error=err, events=int(len(ours.trace["maint_step"])))
            rows.append(row)
            if first_count is None and row["n_sv"] != row["peer_n_sv"]:
                first_count = n - 1
            if first_score is None and not err <= args.rtol:
                first_score = n - 1
    print("step  n_sv  peer_n_sv  score_error (relative to max |f|)")
    marks = {r for f in (first_count, first_score) if f is not None for r in range(f - 3, f + 4)}
    for r in rows:
        if r["step"] in marks or r["step"] < 3 or r["step"] == rows[-1]["step"]:
            print(f"{r['step']:5d} {r['n_sv']:5d} {r['peer_n_sv']:10d}  {r['score_error']:.3e}")
    print(f"first SV count difference at step {first_count}; first score difference beyond rtol {args.rtol:g} "
          f"at step {first_score} (steps count from 0; budget {args.budget})")
    write_json(args.json, dict(dataset=args.dataset, budget=args.budget, steps=args.steps, lam=lam, gamma=gamma,
                               rtol=args.rtol, first_count_difference=first_count,
                               first_score_difference=first_score, rows=rows), MODULES, note=SHARED_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
