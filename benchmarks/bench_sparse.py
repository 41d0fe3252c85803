#!/usr/bin/env python
"""Sparse, wide data: CSR in, sparse SVs, no densifying.

Part ``synthetic``: :func:`refsvm.datasets.text_like` (Zipf columns, L2-normalised rows, labels from
a hidden linear rule; rerun it with the same arguments to get the same data), ``--n`` training rows
plus ``--n-test`` held-out rows, ``--d`` columns, ``--nnz`` nonzeros a row.  Every solver named in
the issue (BudgetedSVC, BSCAClassifier, NOGDClassifier, OnlineKernelClassifier) at budget ``--budget``
runs in its own process (so its peak resident memory is its own: ``ru_maxrss`` of that process,
the data included); the table gives time, peak RSS, held-out accuracy next to the majority vote's,
or the error the estimator raised.  Defaults otherwise (OnlineKernelClassifier: Projectron, as
the issue's budgeted baseline).

Part ``real``: a9a and w8a from ``$REFSVM_DATA``, one BSGD epoch (fast path, merging, the same
visiting order) from the dense matrix and from CSR: seconds per epoch (median of ``--repeats``),
test accuracy, the largest coefficient difference between the two runs, and the entries the
margins' kernel rows read (trace ``kernel_entries``: sum over steps of the SVs' nonzeros plus the
example's; dense: ``b d``), with nanoseconds per entry.  The bound column is the time of the kernel
block of the epoch's examples against the final SVs through scipy's sparse product (``X @ SV.T``,
norms, exp), the work a run cannot avoid.  With ``--budgetedsvm DIR`` the authors' BudgetedSVM
(built outside this repository) trains on the same file in the same order (``bench_peers.py``'s
conventions: ``-g 2 gamma``, ``-L 2 lambda``); its CPU time includes parsing its file.

    REFSVM_DATA=../shared/data python benchmarks/bench_sparse.py [--parts synthetic,real]
        [--n 30000 --d 1000000 --nnz 60 --budget 200] [--budgetedsvm DIR] [--json FILE]
"""

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from _common import SHARED_NOTE, add_options, parse_or_run_case, write_json

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.io.datasets", "refsvm.sparse", "refsvm._fast.sparse", "refsvm.estimators", "refsvm.bsgd",
           "refsvm._fast.bsgd", "refsvm.bsca", "refsvm._fast.bsca", "refsvm.nogd", "refsvm._fast.nogd",
           "refsvm.online", "refsvm._fast.online", "refsvm.budget", "refsvm.kernels", "refsvm.model"]

SOLVERS = ("BudgetedSVC", "BSCAClassifier", "NOGDClassifier", "OnlineKernelClassifier")
#: (C, gamma) of the real sets: a9a as bench_bsgd.py / bench_peers.py (Glasmachers & Qaadan, Table 1);
#: w8a: C = 32 and gamma = 2^-3 (chosen here: no paper table lists w8a for BSGD)
REAL = {"a9a": dict(C=32.0, gamma=2.0 ** -7), "w8a": dict(C=32.0, gamma=2.0 ** -3)}


def _make(name, budget):
    import refsvm

    if name == "OnlineKernelClassifier":
        return refsvm.OnlineKernelClassifier(algorithm="projectron", budget=budget, random_state=0)
    return getattr(refsvm, name)(budget=budget, random_state=0)


def run_case(args):
    """One solver on the synthetic set, in this process; prints one JSON line."""
    from refsvm.datasets import text_like

    t0 = time.perf_counter()
    X, y = text_like(args.n + args.n_test, args.d, args.nnz, random_state=args.seed)
    Xtr, ytr, Xte, yte = X[:args.n], y[:args.n], X[args.n:], y[args.n:]
    gen = time.perf_counter() - t0
    out = dict(solver=args.case, generate_s=gen)
    try:
        est = _make(args.case, args.budget)
        t0 = time.perf_counter()
        est.fit(Xtr, ytr)
        out["fit_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        out["accuracy"] = float(est.score(Xte, yte))
        out["predict_s"] = time.perf_counter() - t0
        sv = getattr(est, "support_vectors_", None)
        if sv is not None and hasattr(sv, "nnz"):
            out["sv_nnz"] = int(sv.nnz)
    except (ValueError, MemoryError) as exc:
        out["error"] = str(exc).split("\n")[0][:200]
    out["majority"] = float(max(np.mean(yte == 1), np.mean(yte == -1)))
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps(out))


def synthetic(args, log):
    rows = []
    for name in args.solvers:
        cmd = [sys.executable, __file__, "--case", name, "--n", str(args.n), "--n-test", str(args.n_test),
               "--d", str(args.d), "--nnz", str(args.nnz), "--budget", str(args.budget), "--seed", str(args.seed)]
        res = subprocess.run(cmd, capture_output=True, text=True)
        lines = [s for s in res.stdout.splitlines() if s.startswith("{")]
        row = json.loads(lines[-1]) if lines else dict(solver=name, error=res.stderr.strip().splitlines()[-1:])
        rows.append(row)
        log(f"  {name}: {row}")
    return rows


def render_synthetic(rows, args):
    out = [f"text_like(n={args.n} + {args.n_test} held out, d={args.d}, nnz={args.nnz}, seed={args.seed}), "
           f"budget {args.budget}, fast path, defaults otherwise",
           f"{'solver':24s} {'fit s':>8s} {'peak RSS MiB':>13s} {'held-out acc':>13s} {'majority':>9s}  note"]
    for r in rows:
        if "error" in r:
            out.append(f"{r['solver']:24s} {'-':>8s} {r.get('peak_rss_mib', float('nan')):13.0f} {'-':>13s} "
                       f"{r.get('majority', float('nan')):9.4f}  refused: {r['error']}")
        else:
            out.append(f"{r['solver']:24s} {r['fit_s']:8.2f} {r['peak_rss_mib']:13.0f} {r['accuracy']:13.4f} "
                       f"{r['majority']:9.4f}  SV nonzeros {r.get('sv_nnz', '-')}; data generation "
                       f"{r['generate_s']:.1f} s (in the RSS, not in fit)")
    return out


def _kernel_block_seconds(X, sv, gamma, repeats):
    """The bound: K(X, SV) by scipy's sparse product with the norms, exp (the rows an epoch reads)."""
    import scipy.sparse as sp

    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        S = sp.csr_matrix(sv)
        G = (sp.csr_matrix(X) @ S.T).toarray()
        xs = np.asarray(sp.csr_matrix(X).multiply(X).sum(axis=1)).ravel()
        ss = np.asarray(S.multiply(S).sum(axis=1)).ravel()
        np.exp(-gamma * np.maximum(xs[:, None] + ss[None, :] - 2.0 * G, 0.0))
        best = min(best, time.perf_counter() - t0)
    return best


def real(args, log):
    import scipy.sparse as sp

    from refsvm._fast import bsgd as fast
    from refsvm.datasets import data_dir, load_libsvm
    from refsvm.model import BudgetedModel

    rows = []
    for name in args.datasets:
        p = REAL[name]
        X, y, Xt, yt = load_libsvm(name)
        Xs, _, Xts, _ = load_libsvm(name, sparse=True)
        split = None
        if Xt is None:                                    # no test split (w8a here): the last 25 % of a
            perm = np.random.default_rng(0).permutation(len(y))   # seed-0 permutation, as bench_defaults
            cut = len(y) - len(y) // 4
            tr, te = np.sort(perm[:cut]), np.sort(perm[cut:])
            X, Xt, Xs, Xts, y, yt = X[tr], X[te], Xs[tr], Xs[te], y[tr], y[te]
            split = (tr, te)
        y = np.where(y > 0, 1, -1).astype(np.int64)
        yt = np.where(yt > 0, 1, -1).astype(np.int64)
        n = len(y)
        lam = 1.0 / (n * p["C"])
        order = np.random.default_rng(0).permutation(n).astype(np.int64)
        kw = dict(n_classes=2, budget=args.real_budget, lam=lam, learning_rate="pegasos", eta=0.1,
                  radius=np.inf, maintenance="merge", kernel="rbf", gamma=p["gamma"], degree=3, coef0=0.0,
                  merge_eps=0.01, projection_ridge=1e-10, fit_bias=False)
        row = dict(dataset=name, n=n, d=X.shape[1], density=Xs.nnz / (n * X.shape[1]), budget=args.real_budget,
                   C=p["C"], gamma=p["gamma"])
        res = {}
        for label, data in (("dense", X), ("csr", Xs)):
            times = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                r = fast.bsgd(data, y, order, **kw)
                times.append(time.perf_counter() - t0)
            model = BudgetedModel(support_vectors=r.sv, coef=r.alpha, gamma=p["gamma"], bias=r.bias)
            acc = float(np.mean(np.where(model.decision_function(Xt if label == "dense" else Xts, "fast") > 0,
                                         1, -1) == yt))
            entries = r.trace["kernel_entries"]
            res[label] = r
            row[label] = dict(seconds=float(np.median(times)), accuracy=acc, kernel_entries=int(entries),
                              ns_per_entry=1e9 * float(np.median(times)) / max(entries, 1),
                              maintenance=int(len(r.trace["maint_step"])))
        row["max_alpha_diff"] = float(np.max(np.abs(res["dense"].alpha - res["csr"].alpha)))
        row["bound_csr_s"] = _kernel_block_seconds(Xs, res["csr"].sv, p["gamma"], args.repeats)
        row["bound_dense_s"] = _kernel_block_dense(X, res["dense"].sv, p["gamma"], args.repeats)
        if args.budgetedsvm:
            row["peer"] = _peer(name, args, order, Xt, yt, lam, p["gamma"], X.shape[1], data_dir(), split)
        rows.append(row)
        log(f"  {name}: {row}")
    return rows


def _kernel_block_dense(X, sv, gamma, repeats):
    from refsvm.model import decision_blocks

    best = np.inf
    coef = np.ones((sv.shape[0], 1))
    for _ in range(repeats):
        t0 = time.perf_counter()
        decision_blocks(X, sv, coef, np.zeros(1), "rbf", gamma, 3, 0.0)
        best = min(best, time.perf_counter() - t0)
    return best


def _peer(name, args, order, Xt, yt, lam, gamma, dim, home, split):
    """BudgetedSVM on the same training rows in the same order (``split``: row indices of our own
    train / test split of a set without a test file)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_peers import peer_bsgd, read_lines, write_lines

    lines = read_lines(Path(home) / f"{name}.bz2")
    if split is None:
        test_lines = read_lines(Path(home) / f"{name}.t.bz2")
    else:
        test_lines = [lines[i] for i in split[1]]
        lines = [lines[i] for i in split[0]]
    with tempfile.TemporaryDirectory(prefix="refsvm_sparse_") as tmp:
        train_file = Path(tmp) / f"{name}.ordered"
        write_lines(train_file, lines, order)
        test_file = Path(tmp) / f"{name}.t"
        write_lines(test_file, test_lines)
        return peer_bsgd(args.budgetedsvm, train_file, test_file, Xt, yt, budget=args.real_budget, lam=lam,
                         gamma=gamma, dim=dim, tmp=tmp)


def render_real(rows):
    out = ["One BSGD epoch (fast path, Pegasos, merging with GSS eps 0.01, visiting order seed 0), "
           "dense matrix vs CSR; seconds are medians; bound = kernel block of the epoch's rows against the "
           "final SVs (dense: refsvm.model.decision_blocks, BLAS; CSR: scipy's sparse product)",
           f"{'set':6s} {'density':>8s} {'B':>4s} {'dense s':>8s} {'CSR s':>8s} {'CSR/dense':>9s} "
           f"{'acc dense':>9s} {'acc CSR':>8s} {'max|da|':>9s} {'ns/entry CSR':>12s} {'bound CSR s':>11s} "
           f"{'CSR/bound':>9s} {'BudgetedSVM cpu s':>17s} {'its acc':>8s}"]
    for r in rows:
        d, s = r["dense"], r["csr"]
        peer = r.get("peer") or {}
        out.append(f"{r['dataset']:6s} {r['density']:8.3f} {r['budget']:4d} {d['seconds']:8.3f} {s['seconds']:8.3f} "
                   f"{s['seconds'] / d['seconds']:9.2f} {d['accuracy']:9.4f} {s['accuracy']:8.4f} "
                   f"{r['max_alpha_diff']:9.1e} {s['ns_per_entry']:12.2f} {r['bound_csr_s']:11.3f} "
                   f"{s['seconds'] / r['bound_csr_s']:9.2f} {peer.get('cpu', float('nan')):17.2f} "
                   f"{peer.get('accuracy', float('nan')):8.4f}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parts", default="synthetic,real")
    add_options(ap, int, n=30000, n_test=5000, d=1_000_000, nnz=60, budget=200, seed=0)
    ap.add_argument("--solvers", nargs="+", default=list(SOLVERS), choices=SOLVERS)
    ap.add_argument("--datasets", nargs="+", default=list(REAL), choices=sorted(REAL))
    add_options(ap, int, real_budget=100, repeats=3)
    ap.add_argument("--budgetedsvm", help="directory with budgetedsvm-train / budgetedsvm-predict")
    args = parse_or_run_case(ap, argv, SOLVERS, run_case, "benchmarks/bench_sparse.py")
    if args is None:
        return 0
    if args.budgetedsvm:
        print(f"peer: BudgetedSVM (djurikom/BudgetedSVM) built outside the repository in {args.budgetedsvm}")
    parts = set(args.parts.split(","))
    results = dict(parts=sorted(parts))
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    if "synthetic" in parts:
        results["synthetic"] = synthetic(args, log)
        print("\n".join(render_synthetic(results["synthetic"], args)))
        print()
    if "real" in parts:
        results["real"] = real(args, log)
        print("\n".join(render_real(results["real"])))
    if args.json:
        write_json(args.json, results, MODULES, note=SHARED_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
