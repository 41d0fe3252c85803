#!/usr/bin/env python
"""Wang, Crammer & Vucetic (2012), Table 3's BPegasos+remove rows (binary sets): which SV removal takes when every
SV's norm ties, as ``bench_wang_removal_ties.py`` measures it for Table 4.

The paper ran its binary sets with its multi-class BPegasos (two classes): Table 6 prints E-bar = 1.40 for removal on
Checkerboard, sqrt(2) times the binary learner's 1 (docs/bsgd.rst, 'Gradient error').  In that learner, as in the
binary one, every SV's coefficients are ``+-1/(lambda t)`` after the scaling of Alg. 1, line 5, so removal's argmin
is a tie in exact arithmetic and rounding decides it.  Per cell of ``wang2012-table3-all`` (its data set, its
5-fold CV's gamma read from its committed JSON, lambda = 1/n, one pass, seeds 0..S-1 visiting
``default_rng(seed).permutation(n)``), the rules of ``bench_wang_removal_ties.run_cell`` on the two-class
multi-class learner:

* ``binary``: the table's row, refsvm's binary learner (``refsvm.reproduce.runners.run_bsgd_multiclass``, the
  table's runner and parameters) on every seed; on the table's own seeds it must repeat the committed per-seed
  errors (checked here; the run stops otherwise);
* ``computed``, ``newest`` (the model when the budget first fills: MP+stop's rule with Pegasos' steps),
  ``oldest`` and ``random``: ``bench_wang_removal_ties.removal_pass``, the independent multi-class pass, with two
  classes (refsvm's multi-class functions take two classes as the binary problem);
* ``peer``: BudgetedSVM cce05ffc, built outside this repository (``budgetedsvm-train -A 4 -m 0``, two classes),
  as in ``bench_wang_removal_ties.py``.

Accuracy only: the times are not the result (the load is recorded).
"""

import argparse
import json
import shlex
import sys
import tempfile
from pathlib import Path

import numpy as np
from _common import SHARED_NOTE, print_run_header, write_json
from bench_bsgd import load_average
from bench_wang_removal_ties import DEFAULT_PEER, PEER_COMMIT, RULES, peer_error, removal_pass, summary, test_error

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["benchmarks/bench_wang_removal_ties_binary.py", "benchmarks/bench_wang_removal_ties.py",
           "benchmarks/bench_peers.py", "benchmarks/bench_wang_figure6_peer.py", "refsvm._fast.bsgd", "refsvm.bsgd",
           "refsvm.budget", "refsvm.io.datasets", "refsvm.reproduce.driver", "refsvm.reproduce.tables_wang3"]
TABLE = "wang2012-table3-all"
TABLE_JSON = Path(__file__).resolve().parent / "results" / f"reproduce_{TABLE}.json"


BINARY_RULES = ("binary",) + RULES


def run_binary_cell(X, y, Xt, yt, labels, labels_test, *, budget, gamma_scale, seeds, peer, tmp):
    """Every rule of :data:`BINARY_RULES` on one (data set, budget) cell, per seed (``y``: classes 0/1;
    ``labels``: the table's +-1 labels)."""
    from refsvm.reproduce.runners import run_bsgd_multiclass

    n, d = X.shape
    lam, gamma = 1.0 / n, gamma_scale / d
    out, peer_cmd = {rule: [] for rule in BINARY_RULES}, None
    for seed in seeds:
        res = run_bsgd_multiclass(X, labels, Xt, labels_test, seed, budget=budget, C=1.0, maintenance="removal",
                                  gamma_scale=gamma_scale)
        out["binary"].append(res["error"])
        order = np.random.default_rng(seed).permutation(n).astype(np.int64)
        for rule in ("computed", "newest", "oldest", "random"):
            sv, alpha, _ = removal_pass(X, y, order, n_classes=2, budget=budget, lam=lam, gamma=gamma, rule=rule,
                                        rng=np.random.default_rng(1000 + seed))
            out[rule].append(test_error(sv, alpha, gamma, Xt, yt))
        if peer:
            err, peer_cmd = peer_error(peer, X, y, order, Xt, yt, budget=budget, lam=lam, gamma=gamma, tmp=tmp)
            out["peer"].append(err)
    return dict(errors={k: v for k, v in out.items() if v}, lam=lam, gamma=gamma, peer_command=peer_cmd)


def render(result):
    names = ("table",) + BINARY_RULES
    lines = [f"{'data set':10s} {'B':>4s} {'s':>5s} | {'paper remove':>13s} {'paper MP+stop':>13s} | "
             + " ".join(f"{r:>13s}" for r in names)]
    for c in result["cells"]:
        p, stop = c["paper"], c["paper_stop"]
        cells = []
        for rule in names:
            s = c["table"] if rule == "table" else c["summary"].get(rule)
            cells.append(f"{s['mean']:6.2f} ± {s['std']:4.2f}" if s else f"{'-':>13s}")
        lines.append(f"{c['dataset']:10s} {c['budget']:4d} {c['gamma_scale']:5g} | {p['mean']:6.2f} ± {p['std']:4.2f} "
                     f"{stop['mean']:6.2f} ± {stop['std']:4.2f} | " + " ".join(f"{x:>13s}" for x in cells))
    lines.append(f"test error (%), mean ± sd over {result['seeds']} seeds (table: the committed row's "
                 f"{result['table_seeds']} seeds; binary: the same learner on every seed); computed .. peer: the "
                 f"two-class multi-class BPegasos (the paper's reading); s: gamma = s / d, {TABLE}'s CV choice")
    return "\n".join(lines)


def main(argv=None):
    from refsvm.reproduce import tables
    from refsvm.reproduce.driver import load_dataset

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="+", default=["Gauss"])
    ap.add_argument("--budgets", type=int, nargs="+", default=[100, 500])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--budgetedsvm", default=DEFAULT_PEER, help="directory of budgetedsvm-train / -predict ('' to "
                    "skip the peer)")
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    if args.seeds < 1 or any(b < 2 for b in args.budgets):
        ap.error("--seeds must be positive and --budgets at least 2")
    table = tables()[TABLE]
    known = {d.label: d for d in table.datasets}
    if not set(args.datasets) <= set(known):
        ap.error(f"--datasets: choose from {sorted(known)}")
    peer = args.budgetedsvm or None
    if peer and not (Path(peer) / "budgetedsvm-train").is_file():
        print(f"no budgetedsvm-train in {peer}: the peer column is skipped", flush=True)
        peer = None
    print_run_header("benchmarks/bench_wang_removal_ties_binary.py", argv)
    rows = {(r["algorithm"], r["dataset"]): r for r in json.loads(TABLE_JSON.read_text())["rows"]}
    cells, load_start, table_seeds = [], load_average(), set()
    for label in args.datasets:
        X, labels, Xt, labels_test = load_dataset(known[label], table.quick_rows, False)
        classes = np.unique(labels)
        y, yt = np.searchsorted(classes, labels).astype(np.int64), np.searchsorted(classes, labels_test)
        for B in args.budgets:
            row = rows[(f"BPegasos+remove B={B}", label)]
            s = row["chosen"]["gamma_scale"]
            with tempfile.TemporaryDirectory(prefix="wang_ties_bin_") as tmp:
                c = run_binary_cell(X, y, Xt, yt, labels, labels_test, budget=B, gamma_scale=s,
                                    seeds=range(args.seeds), peer=peer, tmp=tmp)
            own = [r["error"] for r in row["per_seed"]]
            if c["errors"]["binary"][:len(own)] != own[:args.seeds]:
                raise SystemExit(f"{label} B={B}: the binary learner does not repeat {TABLE}'s per-seed errors "
                                 f"({c['errors']['binary'][:len(own)]} against {own})")
            table_seeds.add(len(own))
            paper = dict(zip(("mean", "std"), table.paper[(row["algorithm"], label)][:2]))
            stop = dict(zip(("mean", "std"), table.paper[(f"MP+stop B={B}", label)][:2]))
            cells.append(dict(dataset=label, budget=B, gamma_scale=s, n=int(X.shape[0]), paper=paper,
                              paper_stop=stop, table=summary(own), table_errors=own,
                              summary={k: summary(v) for k, v in c["errors"].items()}, **c))
            print(f"  {label} B={B}: " + ", ".join(f"{k} {v['mean']:.2f}" for k, v in cells[-1]["summary"].items()),
                  flush=True)
    result = dict(seeds=args.seeds, table_seeds=", ".join(map(str, sorted(table_seeds))), rules=list(BINARY_RULES),
                  load_start=load_start, load_end=load_average(),
                  peer=None if not peer else dict(binaries=str(Path(peer).resolve()), commit=PEER_COMMIT),
                  cells=cells)
    text = render(result)
    print(text)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("command: python benchmarks/bench_wang_removal_ties_binary.py "
                     + shlex.join(sys.argv[1:] if argv is None else argv) + "\n")
            fh.write(f"load at start {result['load_start']}, at end {result['load_end']}; {SHARED_NOTE}\n")
            fh.write(f"peer: {result['peer']}\n\n{text}\n")
    write_json(args.json, result, MODULES, note=SHARED_NOTE)


if __name__ == "__main__":
    main()
