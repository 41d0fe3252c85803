#!/usr/bin/env python
"""Lookup merging vs golden-section search in BSGD (Glasmachers & Qaadan, Tables 2-3).

For every data set and budget B, on the fast (Cython) backend, one pass (or
``--epochs``) of BPegasos with merging, the same visiting order for every
solver:

* total training time and merging time (``trace["merge_seconds"]``: partner
  search, h / WD evaluation and the merge) of ``gss`` (eps 0.01),
  ``gss-precise`` (eps 1e-10), ``lookup-h`` and ``lookup-wd``: the median of
  ``--repeats`` runs (identical runs: same order, same decisions);
* the relative saving of each solver against ``gss``, of the total and of the
  merging time: ``(T_gss - T_solver) / T_gss``;
* the merging frequency (merge events / steps, Table 3);
* from a separate run of ``gss`` in comparison mode (``merge_compare=True``):
  per solver, the fraction of merge events where it picks the same partner as
  GSS-precise, and the mean factor ``WD_solver / WD_gss-precise`` of the actual
  (exactly recomputed) weight degradation of its choice (Table 3's "equal
  merging decisions" and "factor" columns; the paper compares against GSS,
  we compare every solver against GSS-precise), and the ratio of the summed
  WDs ``sum WD_solver / sum WD_gss-precise`` ("WD sum"), which is not dominated
  by events where GSS-precise's WD is nearly 0 (near-duplicate points) and a
  tiny absolute excess makes a huge factor;
* the bound: one n x B Gaussian kernel block of the dense X in numpy (squared
  norms, one BLAS product, exp; ``_common.kernel_block_seconds``), the least
  of ``--repeats``, and each solver's epoch over it (``/block``).

Partner pruning (the compiled merge skips candidates whose lower bound on WD
exceeds the best WD so far; docs/lookup.rst) is on, as in every refsvm run;
``--no-pruning`` switches it off, which times the paper's GSS, a search for
every candidate (the decisions are the same either way).

``--sparse`` gives the solvers X as a CSR matrix (the bound stays the dense
numpy block): kernel rows then read the example's nonzeros only, and the
merge distances stay the dense ones bitwise (docs/sparse.rst).

Hyper-parameters: Glasmachers & Qaadan, Table 1 (C, gamma); their kernel is
``exp(-gamma ||x - x'||^2)``, the same convention as refsvm, so gamma is used
as printed.  ``lam = 1 / (n C)``, n = training-set size.  ijcnn1, a9a and w8a
are used as distributed (already scaled); phishing and skin_nonskin are not
scaled and are standardised here (training mean / std,
``load_libsvm(standardize=True)``).  Labels: the larger label is +1 (skin_nonskin's
labels are 1 = skin, 2 = non-skin: non-skin becomes +1).  No bias
(``--fit-bias`` to switch it on).  Table 1 has no a9a / w8a rows: a9a is
ADULT, w8a is WEB in the paper's naming.  The paper trains 20 passes; we
default to one.

Data from ``$REFSVM_DATA`` (:func:`refsvm.datasets.load_libsvm`).  Run
``python benchmarks/bench_lookup.py --help``.
"""

import argparse
import datetime
import os
import platform
import shlex
import subprocess
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from _common import SHARED_NOTE, cpu_model, kernel_block_seconds, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.budget", "refsvm.lookup", "refsvm.lookup_tables",
           "refsvm.kernels", "refsvm.io.datasets", "refsvm.io.libsvm"]

#: (C, gamma, standardise): Glasmachers & Qaadan, Table 1.
PARAMS = {
    "ijcnn1": dict(C=2.0 ** 5, gamma=2.0 ** 1, standardize=False),
    "a9a": dict(C=2.0 ** 5, gamma=2.0 ** -7, standardize=False),        # ADULT
    "phishing": dict(C=2.0 ** 3, gamma=2.0 ** 3, standardize=True),
    "skin_nonskin": dict(C=2.0 ** 5, gamma=2.0 ** -7, standardize=True),  # SKIN
    "w8a": dict(C=2.0 ** 3, gamma=2.0 ** -5, standardize=False),          # WEB
}
SOLVERS = ("gss", "gss-precise", "lookup-h", "lookup-wd")


def machine():
    cpu = cpu_model()
    try:
        import refsvm
        version = refsvm.__version__
    except Exception:  # pragma: no cover
        version = "?"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except OSError:
        commit = ""
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "platform": platform.platform(), "refsvm": version,
            "git_head": commit, "loadavg": os.getloadavg(),
            "date": datetime.datetime.now().isoformat(timespec="seconds")}


def load(name):
    from refsvm.datasets import load_libsvm

    X, y, _, _ = load_libsvm(name, standardize=PARAMS[name]["standardize"])
    labels = np.unique(y)
    if labels.size != 2:
        raise ValueError(f"{name}: expected 2 labels, got {labels}")
    return np.ascontiguousarray(X), np.where(y == labels[-1], 1, -1).astype(np.int64)


def run(X, y, order, budget, solver, args, compare=False):
    if args.sparse:
        X = args.csr
    import refsvm._fast.bsgd as fast_bsgd

    p = PARAMS[args.current]
    kw = dict(n_classes=2, budget=budget, lam=1.0 / (len(y) * p["C"]), learning_rate="pegasos", eta=0.1,
              radius=np.inf, maintenance="merge", kernel="rbf", gamma=p["gamma"], degree=3, coef0=0.0,
              merge_eps=0.01, projection_ridge=1e-10, fit_bias=args.fit_bias, merge_solver=solver,
              merge_compare=compare)
    sv = alpha = bias = None
    t0 = 0
    total = merge = 0.0
    merges = steps = 0
    traces = []
    for _ in range(args.epochs):
        start = time.perf_counter()
        res = fast_bsgd.bsgd(X, y, order, sv=sv, alpha=alpha, bias=bias, t0=t0, **kw)
        total += time.perf_counter() - start
        sv, alpha, bias, t0 = res.sv, res.alpha, res.bias, res.t
        merge += res.trace["merge_seconds"]
        merges += int(np.count_nonzero(res.trace["maint_partner"] >= 0))
        steps += res.trace["n_steps"]
        traces.append(res.trace)
    return dict(total=total, merge=merge, merges=merges, steps=steps), traces


def bench(name, budget, X, y, args):
    args.current = name
    order = np.random.default_rng(args.seed).permutation(len(y)).astype(np.int64)
    out = {"dataset": name, "budget": budget, "n": len(y), "d": X.shape[1], **PARAMS[name], "solvers": {},
           "input": "csr" if args.sparse else "dense"}
    out["block_seconds"] = kernel_block_seconds(X, budget, PARAMS[name]["gamma"], args.repeats)
    runs = {s: [] for s in SOLVERS}
    for rep in range(args.repeats):              # interleaved, so that drifts hit all solvers alike
        for solver in SOLVERS:
            r, _ = run(X, y, order, budget, solver, args)
            runs[solver].append(r)
    for solver in SOLVERS:
        rs = runs[solver]
        out["solvers"][solver] = {
            "total_seconds": float(np.median([r["total"] for r in rs])),
            "merge_seconds": float(np.median([r["merge"] for r in rs])),
            "total_runs": [r["total"] for r in rs],
            "merge_runs": [r["merge"] for r in rs],
            "merging_frequency": rs[0]["merges"] / rs[0]["steps"],
        }
    g = out["solvers"]["gss"]
    for solver in SOLVERS:
        s = out["solvers"][solver]
        s["saving_total"] = (g["total_seconds"] - s["total_seconds"]) / g["total_seconds"]
        s["saving_merge"] = (g["merge_seconds"] - s["merge_seconds"]) / g["merge_seconds"] if g["merge_seconds"] else 0.0
        s["over_block"] = s["total_seconds"] / out["block_seconds"]
    if not args.no_compare:
        _, traces = run(X, y, order, budget, "gss", args, compare=True)
        same = np.concatenate([t["compare_same_decision"] for t in traces])
        wds = np.concatenate([t["compare_wd"] for t in traces])
        factor = np.concatenate([t["compare_wd_factor"] for t in traces])
        merged = np.concatenate([t["maint_partner"] >= 0 for t in traces])
        same, factor, wds = same[merged], factor[merged], wds[merged]
        finite = np.all(np.isfinite(factor), axis=1)
        for k, solver in enumerate(SOLVERS):
            out["solvers"][solver]["equal_decisions"] = float(same[:, k].mean()) if len(same) else float("nan")
            out["solvers"][solver]["mean_wd_factor"] = float(factor[finite, k].mean()) if finite.any() else float("nan")
            out["solvers"][solver]["wd_sum_ratio"] = float(wds[:, k].sum() / wds[:, 1].sum()) if len(wds) else float("nan")
        out["compare_events"] = int(len(same))
        out["compare_events_wd0"] = int((~finite).sum())
    return out


def table(results):
    lines = []
    head = (f"{'data set':13s} {'B':>4s} {'solver':12s} {'total s':>8s} {'merge s':>8s} {'save tot':>9s} "
            f"{'save mrg':>9s} {'merge freq':>10s} {'eq. dec.':>9s} {'WD factor':>10s} {'WD sum':>8s} "
            f"{'/block':>7s}")
    lines.append(head)
    lines.append("-" * len(head))
    for r in results:
        for solver in SOLVERS:
            s = r["solvers"][solver]
            eq = f"{100 * s['equal_decisions']:8.2f}%" if "equal_decisions" in s else f"{'-':>9s}"
            fa = f"{s['mean_wd_factor']:10.5f}" if "mean_wd_factor" in s else f"{'-':>10s}"
            fa += f" {s['wd_sum_ratio']:8.5f}" if "wd_sum_ratio" in s else f" {'-':>8s}"
            lines.append(f"{r['dataset']:13s} {r['budget']:4d} {solver:12s} {s['total_seconds']:8.3f} "
                         f"{s['merge_seconds']:8.3f} {100 * s['saving_total']:8.1f}% {100 * s['saving_merge']:8.1f}% "
                         f"{100 * s['merging_frequency']:9.2f}% {eq} {fa} {s['over_block']:7.2f}")
        lines.append(f"{'':13s} {'':4s} {'numpy block':12s} {r['block_seconds']:8.3f}  (n x B Gaussian kernel block, "
                     f"dense X; /block = total s over it)")
        lines.append("")
    return "\n".join(lines)


def verdicts(results, pruning=True):
    """The targets: lookup-wd never slower than gss; >= 25 % total saving on ijcnn1, B = 500; the
    lookup-wd epoch at most 1.2x the numpy kernel block on ijcnn1 and a9a."""
    lines = []
    for r in results:
        s = r["solvers"]["lookup-wd"]
        ok = s["total_seconds"] <= r["solvers"]["gss"]["total_seconds"]
        vs = " (vs refsvm's pruned gss)" if pruning else " (vs gss without pruning, the paper's)"
        lines.append(f"lookup-wd not slower than gss on {r['dataset']} B={r['budget']}{vs}: {'PASS' if ok else 'FAIL'} "
                     f"({100 * s['saving_total']:+.1f}%)")
        if r["dataset"] == "ijcnn1" and r["budget"] == 500:
            ok = s["saving_total"] >= 0.25
            lines.append(f"lookup-wd saves >= 25% of total time on ijcnn1 B=500{vs}: {'PASS' if ok else 'FAIL'} "
                         f"({100 * s['saving_total']:.1f}%)")
        if r["dataset"] in ("ijcnn1", "a9a"):
            ok = s["over_block"] <= 1.2
            lines.append(f"lookup-wd epoch <= 1.2x the numpy kernel block on {r['dataset']} B={r['budget']} "
                         f"({r['input']} input): {'PASS' if ok else 'FAIL'} ({s['over_block']:.2f}x)")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=list(PARAMS), choices=list(PARAMS))
    parser.add_argument("--budgets", nargs="+", type=int, default=[100, 500])
    parser.add_argument("--epochs", type=int, default=1, help="passes over the data (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per solver, median reported (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the visiting order")
    parser.add_argument("--fit-bias", action="store_true", help="learn an unregularised bias")
    parser.add_argument("--no-compare", action="store_true", help="skip the comparison-mode run")
    parser.add_argument("--no-pruning", action="store_true",
                        help="switch off the compiled merge's partner pruning: every candidate's h is searched "
                             "(the paper's GSS; the decisions are the same)")
    parser.add_argument("--sparse", action="store_true",
                        help="give the solvers X as a CSR matrix (the bound stays the dense numpy block)")
    parser.add_argument("--json", metavar="FILE", help="write all measurements as JSON")
    parser.add_argument("--output", metavar="FILE", help="also write the printed report to FILE")
    args = parser.parse_args(argv)

    from refsvm.lookup import get_tables

    import refsvm._fast.budget as fast_budget

    get_tables()                                   # computed / loaded once, not timed
    if args.no_pruning:
        fast_budget._set_merge_pruning(False)
    fast_budget._c_bound_table(True)               # the pruning bound table: computed once, not timed
    info = machine()
    header = [f"command: {' '.join(shlex.quote(a) for a in [sys.executable.split('/')[-1]] + sys.argv)}",
              f"machine: {info['cpu']} ({info['cores']} logical cores), {info['platform']}, python {info['python']}, "
              f"numpy {info['numpy']}, refsvm {info['refsvm']} (git {info['git_head']}), {info['date']}, "
              f"loadavg {', '.join(f'{v:.2f}' for v in info['loadavg'])}",
              f"settings: fast backend, BPegasos, one order (seed {args.seed}), {args.epochs} epoch(s), "
              f"median of {args.repeats} runs, fit_bias={args.fit_bias}, {'CSR' if args.sparse else 'dense'} input, "
              f"partner pruning {'off' if args.no_pruning else 'on'}; "
              f"'save' = (T_gss - T)/T_gss; "
              f"'eq. dec.' / 'WD factor' vs GSS-precise, from one comparison-mode run of gss", ""]
    print("\n".join(header), flush=True)
    results = []
    for name in args.datasets:
        start = time.perf_counter()
        X, y = load(name)
        args.csr = sp.csr_matrix(X) if args.sparse else None
        print(f"[{name}: n={len(y)}, d={X.shape[1]}, loaded in {time.perf_counter() - start:.1f} s]",
              file=sys.stderr, flush=True)
        for budget in args.budgets:
            start = time.perf_counter()
            results.append(bench(name, budget, X, y, args))
            print(f"[{name} B={budget}: {time.perf_counter() - start:.1f} s]", file=sys.stderr, flush=True)
    report = "\n".join(header) + "\n" + table(results) + "\n" + verdicts(results, not args.no_pruning) + "\n"
    print(table(results))
    print(verdicts(results, not args.no_pruning))
    if args.output:
        with open(args.output, "w") as f:
            f.write(report)
    if args.json:
        write_json(args.json, {"machine": info, "args": {k: v for k, v in vars(args).items() if k != "csr"},
                               "results": results}, MODULES, note=SHARED_NOTE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
