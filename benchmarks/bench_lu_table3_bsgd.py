#!/usr/bin/env python
"""Lu et al. (2016), Table 3's BSGD rows: refsvm over the whole C grid, and the toolbox the paper ran, at the same setting.

Lu, Hoi, Wang, Zhao & Liu's Table 3 prints BSGD-M (BPegasos with merging) and BSGD-R (with removal) at B = 1000 on
w8a and a9a; section 7.1.1 says lambda and sigma were chosen by 5-fold CV (values not printed) and that "the codes
can be downloaded from ... [the] Budgeted SVM website" (footnote 3): the rows are BudgetedSVM's.  refsvm's table
(``refsvm reproduce lu2016-table3``) takes gamma from Glasmachers & Qaadan's Table 1 and C by its own 5-fold CV
over {2^-3, ..., 2^5}.  This script asks, per cell (data set, maintenance), with the data exactly as the table
loads them (:func:`refsvm.reproduce.driver.load_dataset`) and lambda = 1/(n C):

* ``refsvm``: the table's runner (:func:`refsvm.reproduce.runners.run_bsgd`: compiled BPegasos, one pass over
  ``default_rng(seed).permutation(n)``, no bias) at EVERY C of the table's grid, seeds 0..S-1.  At the C the
  table's CV chose these are the table's per-seed errors (tests/reproduce/test_lu_table3_bsgd.py checks it);
  the other C show which lambda gives the paper's number; removal cells also with the rule "remove the SV just
  added" (``newest``; every SV's norm ties in exact arithmetic, bench_wang_removal_ties.py), refsvm's pass over
  the prefix of the order before the first maintenance step;
* ``peer`` (``--budgetedsvm DIR``): BudgetedSVM's ``budgetedsvm-train -A 4 -m 0|1`` (djurikom/BudgetedSVM commit
  cce05ffc, built OUTSIDE this repository with its Makefile; nothing of it is in this repository) on the same
  rows in the same order (the shared file's own lines, ``-r 0``), one epoch (``-e 1``), ``-L 2 lambda`` and
  ``-g 2 gamma`` (its binary model is its two-column multi-class one: bench_peers.py), at the table's chosen C
  with ``-b 0`` (refsvm's setting) and ``-b 1`` (the toolbox's default, which the paper may have kept), and at
  the grid C whose refsvm mean is nearest the paper's with ``-b 0``; seeds 0..P-1 (the paper: 5 permutations).

Accuracy only: the times are not the result (shared machine).
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402
from bench_peers import check_rows, peer_bsgd, read_lines, write_lines  # noqa: E402
from bench_wang_removal_ties import PEER_COMMIT, summary  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["benchmarks/bench_lu_table3_bsgd.py", "benchmarks/bench_peers.py", "benchmarks/bench_wang_removal_ties.py",
           "refsvm._fast.bsgd", "refsvm.bsgd", "refsvm.budget", "refsvm.io.datasets", "refsvm.reproduce.driver",
           "refsvm.reproduce.runners"]
TABLE = "lu2016-table3"
TABLE_JSON = Path(__file__).resolve().parent / "results" / f"reproduce_{TABLE}.json"
DEFAULT_PEER = "/tmp/wd2_bsvm/bin"
ROWS = {"merge": "BSGD-M", "removal": "BSGD-R"}
#: (data set, maintenance) cells; the peer runs on the flagged ones by default
CELLS = (("w8a", "merge"), ("a9a", "removal"), ("w8a", "removal"), ("a9a", "merge"))
PEER_CELLS = (("w8a", "merge"), ("a9a", "removal"))


def table_setting(dataset, maintenance):
    """``(X, y, Xt, yt, row indices of the shared file for X and Xt, gamma, C grid, chosen C, paper (mean, std),
    committed per-seed errors)`` of one cell of lu2016-table3."""
    from refsvm.datasets import data_dir
    from refsvm.reproduce.driver import load_dataset, tables

    t = tables()[TABLE]
    ds = next(d for d in t.datasets if d.label == dataset)
    entry = next(e for e in t.entries if e.label == ROWS[maintenance])
    X, y, Xt, yt = load_dataset(ds, t.quick_rows, False)
    if not (Path(data_dir()) / f"{ds.file}.t.bz2").exists():         # w8a: the table's fixed random split
        n_all = X.shape[0] + Xt.shape[0]                                # (as refsvm.reproduce.driver.load_dataset)
        perm = np.random.default_rng(ds.split_seed).permutation(n_all)
        cut = (3 * n_all) // 4 if ds.split_train == 0.75 else int(ds.split_train * n_all)
        rows = ("train", perm[:cut]), ("train", perm[cut:])
    else:                                                               # a9a: LIBSVM's split, file order
        rows = ("train", np.arange(X.shape[0])), ("test", np.arange(Xt.shape[0]))
    committed = next(r for r in json.loads(TABLE_JSON.read_text())["rows"]
                     if r["algorithm"] == ROWS[maintenance] and r["dataset"] == dataset)
    paper = t.paper[(ROWS[maintenance], dataset)]
    return dict(X=X, y=y, Xt=Xt, yt=yt, rows=rows, file=ds.file, gamma=entry.per_dataset[dataset]["gamma"],
                grid=tuple(entry.grid["C"]), chosen=committed["chosen"]["C"], paper=dict(mean=paper[0], std=paper[1]),
                committed=[s["error"] for s in committed["per_seed"]])


def refsvm_errors(s, maintenance, C, seeds):
    """The table's runner at ``C`` on each seed: test errors (%)."""
    from refsvm.reproduce.runners import run_bsgd

    return [run_bsgd(s["X"], s["y"], s["Xt"], s["yt"], seed, C=C, gamma=s["gamma"], budget=1000,
                     maintenance=maintenance)["error"] for seed in seeds]


def newest_errors(s, C, seeds):
    """Removal that always takes the SV just added (a rule that breaks the exact tie of BPegasos' norms,
    bench_wang_removal_ties.py): the model never changes after the budget first overflows but for its scale, so
    it is refsvm's pass over the prefix of the order that ends before the first maintenance step; test errors."""
    from refsvm._fast.bsgd import bsgd
    from refsvm.reproduce.runners import _test_error, bsgd_passes

    out = []
    for seed in seeds:
        kw = dict(C=C, gamma=s["gamma"], budget=1000, maintenance="removal")
        steps = np.asarray(bsgd_passes(s["X"], s["y"], seed, **kw).trace["maint_step"])
        n = s["X"].shape[0]
        order = np.random.default_rng(seed).permutation(n).astype(np.int64)
        prefix = order[:steps[0]] if steps.size else order
        res = bsgd(s["X"], s["y"], prefix, n_classes=2, budget=1000, lam=1.0 / (n * C), learning_rate="pegasos",
                   eta=1.0, radius=1.0, maintenance="removal", kernel="rbf", gamma=s["gamma"], degree=3, coef0=0.0,
                   merge_eps=0.01, projection_ridge=1e-10, fit_bias=False)
        out.append(_test_error(res.sv, res.alpha, res.bias, s["gamma"], s["Xt"], s["yt"], "fast"))
    return out


def peer_errors(s, maintenance, C, bias, seeds, bindir, tmp, log):
    """BudgetedSVM's test errors (%) at ``C`` and ``-b bias`` on each seed's order, and its command."""
    from refsvm.datasets import data_dir

    data = Path(data_dir())
    lines = {"train": read_lines(data / f"{s['file']}.bz2")}
    if s["rows"][1][0] == "test":
        lines["test"] = read_lines(data / f"{s['file']}.t.bz2")
    (train_src, train_idx), (test_src, test_idx) = s["rows"]
    train_lines = [lines[train_src][i] for i in train_idx]
    check_rows(train_lines, s["y"])
    test_lines = [lines[test_src][i] for i in test_idx]
    check_rows(test_lines, s["yt"])
    test_file = Path(tmp) / "test"
    write_lines(test_file, test_lines)
    n = len(train_lines)
    lam = 1.0 / (n * C)
    out, cmd = [], None
    for seed in seeds:
        order = np.random.default_rng(seed).permutation(n)
        train_file = Path(tmp) / "train"
        write_lines(train_file, train_lines, order)
        rec = peer_bsgd(bindir, train_file, test_file, s["Xt"], s["yt"], budget=1000, lam=lam, gamma=s["gamma"],
                        dim=s["X"].shape[1], tmp=tmp, maintenance=1 if maintenance == "merge" else 0, bias=bias)
        out.append(100.0 * (1.0 - rec["accuracy"]))
        cmd = rec["command"]
        log(f"    peer C={C:g} -b {bias} seed {seed}: {out[-1]:.2f} %")
    return out, cmd


def run(args, log):
    seeds, peer_seeds = range(args.seeds), range(args.peer_seeds)
    cells = []
    for dataset, maintenance in args.cells:
        s = table_setting(dataset, maintenance)
        cell = dict(dataset=dataset, maintenance=maintenance, row=ROWS[maintenance], gamma=s["gamma"],
                    chosen_C=s["chosen"], paper=s["paper"], table_per_seed=s["committed"], refsvm={}, peer=[])
        for C in s["grid"]:
            errs = refsvm_errors(s, maintenance, C, seeds)
            cell["refsvm"][repr(C)] = dict(C=C, errors=errs, **summary(errs))
            log(f"  {dataset} {maintenance} C={C:g}: refsvm {np.mean(errs):.2f} ± {np.std(errs, ddof=1):.2f}")
            if maintenance == "removal":
                errs = newest_errors(s, C, seeds)
                cell.setdefault("newest", {})[repr(C)] = dict(C=C, errors=errs, **summary(errs))
        nearest = min(s["grid"], key=lambda C: abs(cell["refsvm"][repr(C)]["mean"] - s["paper"]["mean"]))
        cell["nearest_C"] = nearest
        if args.budgetedsvm and (dataset, maintenance) in args.peer_cells:
            runs = [(s["chosen"], 0), (s["chosen"], 1)] + ([(nearest, 0)] if nearest != s["chosen"] else [])
            with tempfile.TemporaryDirectory() as tmp:
                for C, bias in runs:
                    errs, cmd = peer_errors(s, maintenance, C, bias, peer_seeds, args.budgetedsvm, tmp, log)
                    cell["peer"].append(dict(C=C, bias=bias, errors=errs, command=cmd, **summary(errs)))
        cells.append(cell)
    return dict(cells=cells, seeds=args.seeds, peer_seeds=args.peer_seeds,
                peer=f"BudgetedSVM commit {PEER_COMMIT} ({args.budgetedsvm})" if args.budgetedsvm else None)


def render(result):
    lines = [f"{'data':5s} {'row':7s} {'paper':>13s} | refsvm test error (%) at C = "
             + ", ".join(f"{c['C']:g}" for c in next(iter(result['cells']))["refsvm"].values())
             + " | BudgetedSVM (C, -b): error"]
    for c in result["cells"]:
        p = c["paper"]
        ref = "  ".join(f"{r['mean']:5.2f} ± {r['std']:4.2f}{'*' if r['C'] == c['chosen_C'] else ' '}"
                        for r in c["refsvm"].values())
        peer = "; ".join(f"({r['C']:g}, {r['bias']}): {r['mean']:.2f} ± {r['std']:.2f}" for r in c["peer"]) or "-"
        lines.append(f"{c['dataset']:5s} {c['row']:7s} {p['mean']:6.2f} ± {p['std']:4.2f} | {ref} | {peer}")
        if c.get("newest"):
            newest = "  ".join(f"{r['mean']:5.2f} ± {r['std']:4.2f} " for r in c["newest"].values())
            lines.append(f"{'':5s} {'newest':7s} {'':>13s} | {newest} |")
    lines.append(f"* the C of the table's 5-fold CV; refsvm: {result['seeds']} seeds; BudgetedSVM: "
                 f"{result['peer_seeds']} seeds ({result['peer'] or 'not run'}); the paper: 5 permutations")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--peer-seeds", type=int, default=5)
    ap.add_argument("--budgetedsvm", default=None, help=f"BudgetedSVM's bin directory (e.g. {DEFAULT_PEER})")
    ap.add_argument("--cells", nargs="*", default=[f"{d}:{m}" for d, m in CELLS])
    ap.add_argument("--peer-cells", nargs="*", default=[f"{d}:{m}" for d, m in PEER_CELLS])
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    args.cells = [tuple(c.split(":")) for c in args.cells]
    args.peer_cells = [tuple(c.split(":")) for c in args.peer_cells]
    print_run_header("benchmarks/bench_lu_table3_bsgd.py", argv)
    print(f"# {SHARED_NOTE}")

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    result = run(args, log)
    print(render(result))
    write_json(args.json, result, modules=MODULES, note=SHARED_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
