#!/usr/bin/env python
"""Wang, Crammer & Vucetic (2012), Table 4's BPegasos+remove rows: which SV removal takes when every SV's norm ties.

Section 6.1 of the paper removes ``p = argmin_j ||alpha_j||^2 k(x_j, x_j)``.  In BPegasos every SV's
coefficients are ``+-1/(lambda t)`` after the scaling of Alg. 1, line 5 (an SV added at step ``s`` holds
``1/(lambda s) prod_{i=s+1}^t (1 - 1/i) = 1/(lambda t)``), and ``k(x, x) = 1`` for the Gaussian kernel: in exact
arithmetic ALL norms are equal, the rule does not decide, and the paper says so ("all removal strategies are
equivalent"; footnote 11: "arbitrary removal is equivalent to removing the smallest one").  On computed numbers
the argmin is decided by the rounding of the repeated scaling (a relative spread of a few 1e-15), and which SV
goes decides the accuracy.  This script measures, per Table 4 removal cell (the gamma wang2012-table4's
5-fold CV chose, read from its committed JSON; lambda = 1/n; one pass; seeds 0..S-1, the permutation
``default_rng(seed).permutation(n)`` that ``refsvm.BudgetedSVC(random_state=seed)`` visits):

* ``computed``: refsvm's removal (compiled path; the Python path takes the same decisions, DESIGN.md "Ties of the
  selection"), the row wang2012-table4 prints; and the share of its maintenance events that removed the SV
  just added (``maint_index == B``, the new SV's slot) and the largest relative spread of the computed norms;
* ``newest``: ties to the SV just added.  The model then never changes after the budget first fills (only its
  scale, which leaves the predicted class unchanged): it is the model of the prefix of the pass that ends before
  the (B+1)-th addition, computed here by refsvm's pass over that prefix.  This is the paper's MP+stop rule with
  Pegasos' steps, whose paper numbers are printed beside;
* ``oldest`` (Forgetron's rule) and ``random`` (a uniformly drawn SV, generator seeded with 1000 + seed): an
  independent multi-class BPegasos pass written here (:func:`removal_pass`), which with ``rule="computed"``
  reproduces refsvm's models bitwise (tests/reproduce/test_wang_removal_ties.py);
* ``peer``: BudgetedSVM's ``budgetedsvm-train -A 4 -m 0`` (the authors' toolbox, built OUTSIDE this repository,
  commit cce05ffc) on the same rows in the same order (``-r 0``), ``-L lambda`` (its multi-class step is
  ``+-1/(t L)``, as refsvm's), ``-g 2 gamma`` (its kernel ``exp(-g/2 d^2)``), ``-b 0``, ``-e 1``.  It computes the
  same argmin in long double on features stored as float; its choice is rounding noise too.

``--source wang2012-table4-usps-raw`` runs the cells on that table's data instead (USPS's pixels as distributed,
not standardised) at the gamma its committed JSON records; ``--source wang2012-table4-usps-libsvm`` on LIBSVM's
pixels (the paper's file, rebuilt from the shared one: :func:`refsvm.io.usps.libsvm_usps_pixels`), standardised on
the training split as that table's runner does; the paper's columns stay Table 4's.

Accuracy only: the times are not the result (shared machine; the load is recorded).
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402
from bench_bsgd import load_average  # noqa: E402
from bench_peers import pad_model  # noqa: E402
from bench_wang_figure6_peer import write_libsvm  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["benchmarks/bench_wang_removal_ties.py", "benchmarks/bench_peers.py",
           "benchmarks/bench_wang_figure6_peer.py", "refsvm._fast.bsgd", "refsvm.bsgd", "refsvm.budget",
           "refsvm.io.datasets", "refsvm.reproduce.tables_core", "refsvm.reproduce.tables_wang_libsvm"]
#: ... and with --source wang2012-table4-usps-libsvm (added to them in main)
LIBSVM_USPS_MODULES = ["refsvm.io.usps", "refsvm.io.model_file", "refsvm.reproduce.runners_usps"]
RULES = ("computed", "newest", "oldest", "random", "peer")
RESULTS = Path(__file__).resolve().parent / "results"
#: the tables whose data and CV-chosen gamma a run can take (--source): the table itself and its USPS column on the
#: pixels as distributed (not standardised)
SOURCES = ("wang2012-table4", "wang2012-table4-usps-raw", "wang2012-table4-usps-libsvm")
DEFAULT_PEER = "/tmp/wd2_bsvm/bin"
PEER_COMMIT = "cce05ffc"


def pass_arguments(n_classes, budget, lam, gamma):
    """The keyword arguments of one BPegasos pass with removal (refsvm.bsgd / refsvm._fast.bsgd)."""
    return dict(n_classes=n_classes, budget=budget, lam=lam, learning_rate="pegasos", eta=1.0, radius=1.0,
                maintenance="removal", kernel="rbf", gamma=gamma, degree=3, coef0=0.0, merge_eps=0.01,
                projection_ridge=1e-10, fit_bias=False)


def removal_pass(X, y, order, *, n_classes, budget, lam, gamma, rule, rng=None):
    """Multi-class BPegasos (Crammer-Singer, no bias, Gaussian kernel) with removal, written independently of
    refsvm's pass and removal (its kernel values only: :meth:`refsvm.kernels.Kernel.row`): returns ``(SV, A,
    removed_newest)`` (``removed_newest``: per maintenance event, whether the SV just
    added was removed).  ``rule``: ``"computed"`` (argmin of the computed ``||alpha_j||^2``, first index on exact
    ties; the last SV moves into the freed slot), ``"oldest"``, ``"newest"`` or ``"random"`` (``rng.integers``)."""
    from refsvm.kernels import Kernel

    kernel = Kernel.of("rbf", gamma)           # the kernel values only (refsvm's rounding of k(x_j, x_t))
    d = X.shape[1]
    SV = np.zeros((budget + 1, d))
    A = np.zeros((budget + 1, n_classes))
    born = np.zeros(budget + 1, dtype=np.int64)
    b, removed_newest = 0, []
    for t, i in enumerate(order, start=1):
        x = X[i]
        f = kernel.row(SV[:b], x) @ A[:b]
        wrong = np.where(np.arange(n_classes) == y[i], -np.inf, f)
        r = int(np.argmax(wrong))
        eta = 1.0 / (lam * t)
        A[:b] *= 1.0 - eta * lam                                   # (1 - eta_t lambda), as Alg. 1, line 5 prints it
        if 1.0 + f[r] - f[y[i]] > 0.0:
            SV[b], A[b], born[b] = x, 0.0, t
            A[b, y[i]], A[b, r] = eta, -eta
            b += 1
            if b > budget:
                if rule == "computed":
                    p = int(np.argmin(np.sum(A[:b] ** 2, axis=1)))
                elif rule in ("oldest", "newest"):
                    p = int(np.argmin(born[:b]) if rule == "oldest" else np.argmax(born[:b]))
                else:
                    p = int(rng.integers(b))
                removed_newest.append(p == b - 1)
                b -= 1
                SV[p], A[p], born[p] = SV[b], A[b], born[b]
    return SV[:b].copy(), A[:b].copy(), removed_newest


def test_error(sv, alpha, gamma, Xt, yt):
    """Test error (%) of the multi-class expansion (winning class; no bias)."""
    D = (Xt ** 2).sum(1)[:, None] + (sv ** 2).sum(1)[None, :] - 2.0 * Xt @ sv.T
    return 100.0 * float(np.mean((np.exp(-gamma * np.maximum(D, 0.0)) @ alpha).argmax(1) != yt))


def norm_spread(X, y, order, kw):
    """Largest relative spread ``(max - min) / min`` of the computed ``||alpha_j||^2`` over the maintenance events
    of the pass (refsvm's Python path, observed at each selection)."""
    import refsvm.budget.removal as removal
    from refsvm.bsgd import bsgd

    spreads, original = [], removal.select_smallest

    def observe(SV, alpha, n_sv, *args, **kwargs):
        norms = np.sum(alpha[:n_sv] ** 2, axis=1)
        spreads.append(float((norms.max() - norms.min()) / norms.min()))
        return original(SV, alpha, n_sv, *args, **kwargs)

    removal.select_smallest = observe
    try:
        bsgd(X, y, order, **kw)
    finally:
        removal.select_smallest = original
    return max(spreads) if spreads else 0.0


def peer_error(bindir, X, y, order, Xt, yt, *, budget, lam, gamma, tmp, maintenance=0):
    """Test error (%) of one ``budgetedsvm-train -m maintenance`` pass over ``X[order]`` in file order (0: removal,
    1: merging)."""
    tmp = Path(tmp)
    write_libsvm(tmp / "train", X[order], y[order] + 1)          # labels 1..c
    if not (tmp / "test").exists():
        write_libsvm(tmp / "test", Xt, yt + 1)
    cmd = [str(Path(bindir) / "budgetedsvm-train"), "-A", "4", "-B", str(budget), "-L", repr(lam), "-b", "0", "-e",
           "1", "-K", "0", "-g", repr(2.0 * gamma), "-m", str(maintenance), "-r", "0", "-D", str(X.shape[1]), str(tmp / "train"),
           str(tmp / "model")]
    subprocess.run(cmd, capture_output=True, text=True, check=True)
    (tmp / "padded").write_text(pad_model((tmp / "model").read_text()))
    subprocess.run([str(Path(bindir) / "budgetedsvm-predict"), str(tmp / "test"), str(tmp / "padded"),
                    str(tmp / "pred")], capture_output=True, text=True, check=True)
    return 100.0 * float(np.mean(np.loadtxt(tmp / "pred").astype(int) - 1 != yt)), shlex.join(cmd)


def run_cell(X, y, Xt, yt, *, budget, gamma_scale, seeds, peer, tmp, spread):
    """Every rule of :data:`RULES` on one (data set, budget) cell, per seed."""
    from refsvm._fast.bsgd import bsgd as fast_bsgd

    n, d = X.shape
    lam, gamma = 1.0 / n, gamma_scale / d
    kw = pass_arguments(int(y.max()) + 1, budget, lam, gamma)
    out = {rule: [] for rule in RULES}
    newest_share, spreads, peer_cmd = [], [], None
    for seed in seeds:
        order = np.random.default_rng(seed).permutation(n).astype(np.int64)
        res = fast_bsgd(X, y, order, **kw)
        out["computed"].append(test_error(res.sv, res.alpha, gamma, Xt, yt))
        events = np.asarray(res.trace["maint_index"])
        newest_share.append(float(np.mean(events == budget)) if events.size else None)
        if spread:
            spreads.append(norm_spread(X, y, order, kw))
        steps = np.asarray(res.trace["maint_step"])
        prefix = order[:steps[0]] if steps.size else order
        first = fast_bsgd(X, y, prefix, **kw)
        out["newest"].append(test_error(first.sv, first.alpha, gamma, Xt, yt))
        for rule in ("oldest", "random"):
            sv, alpha, _ = removal_pass(X, y, order, n_classes=kw["n_classes"], budget=budget, lam=lam, gamma=gamma,
                                        rule=rule, rng=np.random.default_rng(1000 + seed))
            out[rule].append(test_error(sv, alpha, gamma, Xt, yt))
        if peer:
            err, peer_cmd = peer_error(peer, X, y, order, Xt, yt, budget=budget, lam=lam, gamma=gamma, tmp=tmp)
            out["peer"].append(err)
    return dict(errors={k: v for k, v in out.items() if v}, newest_share=newest_share,
                norm_spread=max(spreads) if spreads else None, lam=lam, gamma=gamma, peer_command=peer_cmd)


def summary(values):
    v = np.asarray(values, dtype=float)
    return dict(mean=float(v.mean()), std=float(v.std(ddof=1)) if v.size > 1 else 0.0, min=float(v.min()),
                max=float(v.max()))


def render(result):
    lines = [f"{'data set':10s} {'B':>4s} {'s':>5s} | {'paper remove':>13s} {'paper MP+stop':>13s} | "
             + " ".join(f"{r:>13s}" for r in RULES) + " | newest share of refsvm's removals"]
    for c in result["cells"]:
        p, stop = c["paper"], c["paper_stop"]
        cells = []
        for rule in RULES:
            s = c["summary"].get(rule)
            cells.append(f"{s['mean']:6.2f} ± {s['std']:4.2f}" if s else f"{'-':>13s}")
        share = ", ".join("-" if v is None else f"{v:.2f}" for v in c["newest_share"])
        stop = "-" if stop is None else f"{stop['mean']:6.2f} ± {stop['std']:4.2f}"
        lines.append(f"{c['dataset']:10s} {c['budget']:4d} {c['gamma_scale']:5g} | "
                     f"{p['mean']:6.2f} ± {p['std']:4.2f} {stop:>13s} | "
                     + " ".join(f"{x:>13s}" for x in cells) + f" | {share}")
    spreads = [c["norm_spread"] for c in result["cells"] if c["norm_spread"] is not None]
    if spreads:
        lines.append(f"\nlargest relative spread of the computed ||alpha_j||^2 at a selection (all equal in exact "
                     f"arithmetic): {max(spreads):.2e}")
    source = result.get("source", "wang2012-table4")
    lines.append(f"test error (%), mean ± sd over the seeds; s: gamma = s / d, {source}'s CV choice"
                 + ("" if source == "wang2012-table4" else f" (its data: {source})"))
    return "\n".join(lines)


def main(argv=None):
    from refsvm.io.datasets import load_libsvm
    from refsvm.reproduce.runners_usps import libsvm_usps_rows
    from refsvm.reproduce import tables

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="+", default=["DNA", "Satimage", "USPS", "Pendigits", "Letter"])
    ap.add_argument("--budgets", type=int, nargs="+", default=[100, 500])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--budgetedsvm", default=DEFAULT_PEER, help="directory of budgetedsvm-train / -predict ('' to "
                    "skip the peer)")
    ap.add_argument("--no-spread", action="store_true", help="skip the norm spread (a pass of the Python path)")
    ap.add_argument("--source", choices=SOURCES, default=SOURCES[0], help="the table whose data sets (their scaling) "
                    "and CV-chosen gamma (its committed JSON) the cells take; the paper's numbers are Table 4's")
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    if args.seeds < 1 or any(b < 1 for b in args.budgets):
        ap.error("--seeds and --budgets must be positive")
    t4 = tables()["wang2012-table4"]
    known = {d.label: d for d in tables()[args.source].datasets}
    if not set(args.datasets) <= set(known):
        ap.error(f"--datasets: choose from {sorted(known)}")
    peer = args.budgetedsvm or None
    if peer and not (Path(peer) / "budgetedsvm-train").is_file():
        print(f"no budgetedsvm-train in {peer}: the peer column is skipped", flush=True)
        peer = None
    print_run_header("benchmarks/bench_wang_removal_ties.py", argv)
    chosen = {(r["algorithm"], r["dataset"]): r["chosen"]["gamma_scale"]
              for r in json.loads((RESULTS / f"reproduce_{args.source}.json").read_text())["rows"] if r.get("chosen")}
    cells, load_start = [], load_average()
    for label in args.datasets:
        X, y, Xt, yt = load_libsvm(known[label].file, standardize=known[label].standardize)
        if args.source == "wang2012-table4-usps-libsvm":            # LIBSVM's pixels, then standardised
            X, Xt = libsvm_usps_rows(X, Xt, standardize=True)
        classes = np.unique(y)
        y, yt = np.searchsorted(classes, y).astype(np.int64), np.searchsorted(classes, yt)
        for B in args.budgets:
            row = f"BPegasos+remove B={B}"
            s = chosen[(row, label)]
            with tempfile.TemporaryDirectory(prefix="wang_ties_") as tmp:
                c = run_cell(X, y, Xt, yt, budget=B, gamma_scale=s, seeds=range(args.seeds), peer=peer, tmp=tmp,
                             spread=not args.no_spread)
            paper = dict(zip(("mean", "std"), t4.paper[(row, label)][:2]))
            stop = t4.paper.get((f"MP+stop B={B}", label))
            stop = dict(zip(("mean", "std"), stop[:2])) if stop else None
            cells.append(dict(dataset=label, budget=B, gamma_scale=s, n=int(X.shape[0]), paper=paper,
                              paper_stop=stop, summary={k: summary(v) for k, v in c["errors"].items()}, **c))
            print(f"  {label} B={B}: " + ", ".join(f"{k} {v['mean']:.2f}" for k, v in cells[-1]["summary"].items()),
                  flush=True)
    result = dict(source=args.source, seeds=args.seeds, rules=list(RULES), load_start=load_start, load_end=load_average(),
                  peer=None if not peer else dict(binaries=str(Path(peer).resolve()), commit=PEER_COMMIT),
                  cells=cells)
    text = render(result)
    print(text)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("command: python benchmarks/bench_wang_removal_ties.py "
                     + shlex.join(sys.argv[1:] if argv is None else argv) + "\n")
            fh.write(f"load at start {result['load_start']}, at end {result['load_end']}; {SHARED_NOTE}\n")
            fh.write(f"peer: {result['peer']}\n\n{text}\n")
    modules = MODULES + (LIBSVM_USPS_MODULES if args.source == "wang2012-table4-usps-libsvm" else [])
    write_json(args.json, result, modules, note=SHARED_NOTE)


if __name__ == "__main__":
    main()
