"""BSCA vs BSGD: the figures 1-3 of Qaadan, Schüler & Glasmachers (2019) in one command.

For each data set (ijcnn1, a9a, covtype.first10000 as label 2 vs the rest),
budget (200, 500), solver (BSCA, BSGD with merging) and seed (0-19) it trains
``--epochs`` epochs with the fast backend and records after every epoch the
solver time (monitoring excluded), the primal objective
``P = 1/2 ||w||^2 + C sum hinge`` of the budgeted model (both solvers, the same
C = 1/(lambda n)), the dual objective (BSCA; exact up to ``--dual-max``
non-zero dual variables, above that the unbiased estimate of
``refsvm.bsca.dual_objective``) and the test accuracy.  It prints a table of
the last epoch (mean, sd, median and range over seeds), writes everything to JSON and
plots the curves (mean and min-max band over seeds) to a PNG.

Both solvers visit the examples as the authors' code does (src/solver.cpp of
Qaadan et al.): a fresh random permutation every epoch (``BSCAClassifier(
sampling="permutation")``; ``BudgetedSVC`` always does).  The paper's Table 2
numbers are single runs; one pass of either solver on a9a scatters by several
points over visiting orders (see docs/bsca.rst), so compare medians.

Speed targets, measured separately (min over repeats):

* the fast path >= 50x the Python one (same state, same ``--python-steps`` steps);
* a BSCA epoch <= 1.3x a BSGD epoch at the same B (first epoch, same data);
* the fast BSCA epoch on ijcnn1 at B = 500 within 2x of one n x B Gaussian
  kernel block computed with numpy.

Data: parameters of the paper's Table 1 (C = 2^5, gamma = 2 for ijcnn1,
gamma = 2^-7 for a9a; covtype C = 2^7, gamma = 2^3).  covtype.first10000 has no
test split: a fixed random 80 / 20 split (seed 0), labels 2 vs rest, features
scaled to [0, 1] with the training split's minimum and maximum (LIBSVM's
``scale`` convention, as covtype.binary.scale).

Usage::

    python benchmarks/bench_bsca.py [--quick] [--json PATH] [--png PATH] [--output PATH]
"""

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bsgd import load_average, machine_info  # noqa: E402
from _common import SHARED_NOTE, kernel_block_seconds, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.bsca", "refsvm._fast.bsca", "refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.budget", "refsvm.lookup",
           "refsvm.lookup_tables", "refsvm.kernels", "refsvm.io.datasets", "refsvm.io.libsvm"]

from refsvm import BSCAClassifier, BudgetedSVC  # noqa: E402
from refsvm.datasets import load_libsvm  # noqa: E402

PARAMS = {"ijcnn1": (32.0, 2.0), "a9a": (32.0, 2.0 ** -7), "covtype": (128.0, 8.0)}
PAPER_TABLE2 = {"ijcnn1": (0.9727, 0.9668), "a9a": (0.8318, 0.8074)}   # BSCA, BSGD at B = 500


def load(name):
    if name != "covtype":
        X, y, Xt, yt = load_libsvm(name)
        return X, np.where(y > 0, 1, -1), Xt, np.where(yt > 0, 1, -1)
    X, y, _, _ = load_libsvm("covtype.first10000")
    y = np.where(y == 2, 1, -1)
    perm = np.random.default_rng(0).permutation(len(y))
    tr, te = perm[: int(0.8 * len(y))], perm[int(0.8 * len(y)):]
    lo, hi = X[tr].min(axis=0), X[tr].max(axis=0)
    scale = np.where(hi > lo, hi - lo, 1.0)
    Xs = np.clip((X - lo) / scale, 0.0, 1.0)     # test values outside the training range clipped
    return (np.ascontiguousarray(Xs[tr]), y[tr], np.ascontiguousarray(Xs[te]), y[te])


def curves(solver, X, y, Xt, yt, budget, C, gamma, seed, epochs, dual_max):
    """Per epoch: cumulative solver seconds, primal, dual (BSCA), test accuracy."""
    from refsvm._fast.bsca import primal_objective
    if solver == "bsca":
        est = BSCAClassifier(budget=budget, C=C, gamma=gamma, monitor_every="epoch", sampling="permutation",
                             monitor_dual_max=dual_max, epochs=epochs, random_state=seed)
        est.fit(X, y, eval_set=(Xt, yt))
        m = est.monitor_
        return dict(seconds=m["seconds"], primal=m["primal"], dual=m["dual"],
                    accuracy=m["test_accuracy"], dual_exact=m["dual_exact"],
                    maintenance_fraction=[tr["maintenance_fraction"] for tr in est.trace_])
    est = BudgetedSVC(budget=budget, lam=1.0 / (C * len(y)), gamma=gamma, random_state=seed)
    out = dict(seconds=[], primal=[], dual=None, accuracy=[], maintenance_fraction=[])
    total = 0.0
    for _ in range(epochs):
        start = time.perf_counter()
        est.partial_fit(X, y, classes=[-1, 1])
        total += time.perf_counter() - start
        out["seconds"].append(total)
        out["primal"].append(primal_objective(X, y, est.support_vectors_, est.alpha_, C=C,
                                              kernel="rbf", gamma=gamma, degree=3, coef0=0.0))
        out["accuracy"].append(float(est.score(Xt, yt)))
        tr = est.trace_[-1]
        out["maintenance_fraction"].append(tr["n_maintenance"] / tr["n_steps"])
    return out


SCHEMES = ("uniform", "permutation")


def speed(X, y, budget, C, gamma, python_steps, repeats, merge_solver="gss"):
    """Seconds per epoch of fast BSCA / BSGD on the same visiting order, for each visiting scheme
    (``uniform``: n draws with replacement, Algorithm 2 as printed and BSCAClassifier's default;
    ``permutation``: one permutation, BSGD's scheme), and the Python/fast ratio on the same steps."""
    from refsvm import bsca as py_bsca
    from refsvm._fast import bsca as fast_bsca
    from refsvm._fast import bsgd as fast_bsgd
    n = len(y)
    rng = np.random.default_rng(0)
    orders = dict(uniform=rng.integers(0, n, n), permutation=rng.permutation(n))
    kw = dict(budget=budget, C=C, gamma=gamma, merge_solver=merge_solver)
    bkw = dict(n_classes=2, budget=budget, lam=1.0 / (C * n), learning_rate="pegasos", eta=1.0,
               radius=1.0, maintenance="merge", kernel="rbf", gamma=gamma, degree=3, coef0=0.0,
               merge_eps=0.01, projection_ridge=1e-10, fit_bias=False, merge_solver=merge_solver)
    schemes = {}
    for scheme in SCHEMES:
        order = orders[scheme]
        t_bsca, t_bsgd = [], []
        for _ in range(repeats):
            start = time.perf_counter()
            res = fast_bsca.bsca(X, y, order, **kw)
            t_bsca.append(time.perf_counter() - start)
            start = time.perf_counter()
            fast_bsgd.bsgd(X, y, order, **bkw)
            t_bsgd.append(time.perf_counter() - start)
        schemes[scheme] = dict(bsca_epoch=min(t_bsca), bsgd_epoch=min(t_bsgd),
                               bsca_maintenance_seconds=res.trace["maintenance_seconds"],
                               bsca_events=len(res.trace["maint_step"]))
        if scheme == "uniform":
            last = res
    # Python vs fast on the same steps from the same (full-budget) state
    state = dict(sv=last.sv, alpha=last.alpha, dual=last.dual, sv_source=last.sv_source, t0=last.t)
    steps = rng.integers(0, n, python_steps)
    start = time.perf_counter()
    py_bsca.bsca(X, y, steps, **state, **kw)
    t_py = time.perf_counter() - start
    t_fa = []
    for _ in range(repeats):
        start = time.perf_counter()
        fast_bsca.bsca(X, y, steps, **state, **kw)
        t_fa.append(time.perf_counter() - start)
    return dict(merge_solver=merge_solver, schemes=schemes, python_steps=python_steps,
                python_seconds=t_py, fast_seconds=min(t_fa), speedup=t_py / min(t_fa))


def exact_dual_blas(X, y, dual, gamma, block=4000):
    """D(alpha) exactly, the quadratic term in numpy blocks (BLAS distances, nnz^2 kernel values)."""
    nz = np.flatnonzero(dual)
    Z, v = X[nz], dual[nz] * y[nz]
    sq = (Z * Z).sum(1)
    quad = 0.0
    for a in range(0, len(nz), block):
        d2 = sq[a:a + block, None] + sq[None, :] - 2.0 * Z[a:a + block] @ Z.T
        quad += float(v[a:a + block] @ np.exp(-gamma * np.maximum(d2, 0.0)) @ v)
    return float(dual.sum() - 0.5 * quad), len(nz)


def exact_dual_curves(name, X, y, budget, C, gamma, epochs, log):
    """BSCA, seed 0: primal and the exact dual after every epoch (partial_fit = one more epoch)."""
    from refsvm._fast.bsca import primal_objective
    est = BSCAClassifier(budget=budget, C=C, gamma=gamma, random_state=0)
    out = dict(seconds=[], primal=[], dual=[], nnz=[])
    for _ in range(epochs):
        est.partial_fit(X, y, classes=[-1, 1])
        out["seconds"].append(est.solver_seconds_)
        out["primal"].append(primal_objective(X, y, est.support_vectors_, est.alpha_, C=C, kernel="rbf",
                                              gamma=gamma, degree=3, coef0=0.0))
        d, nnz = exact_dual_blas(X, y, est.dual_, gamma)
        out["dual"].append(d)
        out["nnz"].append(nnz)
    log(f"  {name} B={budget}: exact dual per epoch " + " ".join(f"{v:.4g}" for v in out["dual"]))
    log(f"  {name} B={budget}: primal per epoch     " + " ".join(f"{v:.4g}" for v in out["primal"]))
    log(f"  {name} B={budget}: nnz(alpha) per epoch " + " ".join(str(v) for v in out["nnz"]))
    return out


def plot_exact(curves_, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = sorted({k.split("/")[0] for k in curves_})
    fig, axes = plt.subplots(1, len(names), figsize=(5 * len(names), 4), squeeze=False)
    for j, name in enumerate(names):
        ax = axes[0, j]
        for key, c in curves_.items():
            if not key.startswith(name + "/"):
                continue
            budget = key.split("/")[1]
            line, = ax.plot(c["seconds"], c["primal"], "-o", ms=3, label=f"primal B={budget}")
            ax.plot(c["seconds"], c["dual"], "--s", ms=3, color=line.get_color(), label=f"dual B={budget}")
        ax.set_yscale("symlog")
        ax.set_title(f"{name}: BSCA primal and exact dual (seed 0)")
        ax.set_xlabel("training time (s)")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(results)
    fig, axes = plt.subplots(3, len(names), figsize=(5 * len(names), 11), squeeze=False)
    colors = {("bsca", 200): "tab:blue", ("bsca", 500): "tab:cyan",
              ("bsgd", 200): "tab:red", ("bsgd", 500): "tab:orange"}
    for j, name in enumerate(names):
        for key, runs in results[name]["curves"].items():
            solver, budget = key.split("-")
            budget = int(budget)
            t = np.mean([r["seconds"] for r in runs], axis=0)
            for i, what in enumerate(("primal", "dual", "accuracy")):
                if runs[0][what] is None:
                    continue
                v = np.array([r[what] for r in runs], dtype=float)
                keep = np.ones(len(t), dtype=bool)
                if what == "dual":   # the sampled estimates are too noisy to plot: exact values only
                    keep = np.all([r["dual_exact"] for r in runs], axis=0)
                if not keep.any():
                    continue
                ax = axes[i, j]
                ax.plot(t[keep], v.mean(0)[keep], "-o", ms=3, color=colors[(solver, budget)],
                        label=f"{solver.upper()} B={budget}")
                ax.fill_between(t[keep], v.min(0)[keep], v.max(0)[keep], color=colors[(solver, budget)],
                                alpha=0.2)
        for i, what in enumerate(("primal objective", "dual objective (BSCA, exact values only)",
                                  "test accuracy")):
            axes[i, j].set_title(f"{name}: {what}")
            axes[i, j].set_xlabel("training time (s)")
            if i < 2:
                axes[i, j].set_yscale("symlog")
        axes[2, j].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["ijcnn1", "a9a", "covtype"], choices=sorted(PARAMS))
    parser.add_argument("--budgets", nargs="+", type=int, default=[200, 500])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--dual-max", type=int, default=3000,
                        help="exact dual up to this many non-zero alpha_i, unbiased estimate above")
    parser.add_argument("--python-steps", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true",
                        help="ijcnn1 and covtype, B = 200, 2 seeds, 3 epochs, 500 Python steps")
    parser.add_argument("--merge-solver", default="gss", choices=["gss", "gss-precise", "lookup-h", "lookup-wd"],
                        help="merge solver of both BSCA and BSGD in the speed measurement (default gss)")
    parser.add_argument("--speed-only", action="store_true", help="only the speed measurements, no curves")
    parser.add_argument("--no-pruning", action="store_true",
                        help="switch off the compiled merge's partner pruning (a search for every candidate, as "
                             "the papers; the same decisions)")
    parser.add_argument("--exact-dual", action="store_true",
                        help="only BSCA seed 0: primal and the exact dual (numpy blocks) after every epoch")
    parser.add_argument("--json", help="write all measurements to this JSON file")
    parser.add_argument("--png", help="plot the curves to this PNG file")
    parser.add_argument("--output", help="also write the printed report to this file")
    parser.add_argument("--replot", metavar="JSON", help="only redraw --png from a JSON file of an earlier run")
    args = parser.parse_args(argv)
    if args.replot:
        plot(json.loads(Path(args.replot).read_text())["results"], args.png)
        return None
    if args.quick:
        args.datasets = [d for d in args.datasets if d != "a9a"]
        args.budgets, args.seeds, args.epochs, args.python_steps, args.repeats = [200], 2, 3, 500, 1
    lines = []

    def log(text=""):
        print(text, flush=True)
        lines.append(text)

    started = datetime.datetime.now(datetime.timezone.utc)
    info = machine_info()
    log(f"command: python benchmarks/bench_bsca.py {' '.join(argv if argv is not None else sys.argv[1:])}")
    log(f"started {started.isoformat(timespec='seconds')}, load average {load_average()}")
    log(f"machine: {info['cpu']}, {info['usable_cpus']} usable CPUs (shared machine), git {info.get('git')}")
    import refsvm._fast.budget as fast_budget
    if args.no_pruning:
        fast_budget._set_merge_pruning(False)
    fast_budget._c_bound_table(True)                          # computed once, not timed
    log(f"partner pruning of the compiled merge: {'off' if args.no_pruning else 'on'}")
    results = {}
    if args.exact_dual:
        exact = {}
        for name in args.datasets:
            C, gamma = PARAMS[name]
            X, y, _, _ = load(name)
            for budget in args.budgets:
                exact[f"{name}/{budget}"] = exact_dual_curves(name, X, y, budget, C, gamma, args.epochs, log)
        if args.json:
            write_json(args.json, dict(machine=info, args=vars(args), exact=exact), MODULES, note=SHARED_NOTE)
        if args.png:
            plot_exact(exact, args.png)
        if args.output:
            Path(args.output).write_text("\n".join(lines) + "\n")
        return exact
    for name in args.datasets:
        C, gamma = PARAMS[name]
        X, y, Xt, yt = load(name)
        res = results[name] = dict(n=len(y), n_test=len(yt), C=C, gamma=gamma, curves={}, speed={})
        log(f"\n{name}: n = {len(y)}, test {len(yt)}, d = {X.shape[1]}, C = {C:g}, gamma = {gamma:g}")
        for budget in args.budgets:
            sp = res["speed"][budget] = speed(X, y, budget, C, gamma, args.python_steps, args.repeats,
                                              args.merge_solver)
            kb = sp["kernel_block"] = kernel_block_seconds(X, budget, gamma, args.repeats)
            if name == "ijcnn1" and budget == 500:
                res["kernel_block"] = kb
            log(f"  B={budget} ({args.merge_solver}), numpy n x B kernel block {kb:.3f} s; "
                f"Python / fast on {sp['python_steps']} steps: {sp['speedup']:.0f}x (target >= 50)")
            for scheme, sc in sp["schemes"].items():
                log(f"    {scheme:11} order, the same for both: fast epoch BSCA {sc['bsca_epoch']:.3f} s "
                    f"(maintenance {sc['bsca_maintenance_seconds']:.3f} s, {sc['bsca_events']} events), "
                    f"BSGD {sc['bsgd_epoch']:.3f} s; BSCA / BSGD {sc['bsca_epoch'] / sc['bsgd_epoch']:.2f} "
                    f"(target <= 1.3), BSCA / block {sc['bsca_epoch'] / kb:.2f} (target <= 2)")
            log(f"    load {load_average()}")
            for solver in () if args.speed_only else ("bsca", "bsgd"):
                runs = [curves(solver, X, y, Xt, yt, budget, C, gamma, seed, args.epochs, args.dual_max)
                        for seed in range(args.seeds)]
                res["curves"][f"{solver}-{budget}"] = runs
        if args.speed_only:
            continue
        log(f"\n  after epoch 1 and epoch {args.epochs} (mean ± sd over {args.seeds} seeds, median, min-max):")
        log("  solver  B    epoch  solver s   primal        dual          test acc. (median, min-max)         "
            "maint. frac.")
        for key, runs in res["curves"].items():
            solver, budget = key.split("-")
            for e in sorted({0, args.epochs - 1}):
                acc = np.array([r["accuracy"][e] for r in runs])
                prim = np.array([r["primal"][e] for r in runs])
                dual = "n/a" if runs[0]["dual"] is None else f"{np.mean([r['dual'][e] for r in runs]):.4g}"
                log(f"  {solver.upper():6}  {budget:4} {e + 1:5}  {np.mean([r['seconds'][e] for r in runs]):8.2f}"
                    f"   {prim.mean():.4g}   {dual:12}  {100 * acc.mean():.2f} ± {100 * acc.std():.2f} "
                    f"({100 * np.median(acc):.2f}, {100 * acc.min():.2f}-{100 * acc.max():.2f})   "
                    f"{np.mean([r['maintenance_fraction'][e] for r in runs]):.3f}")
        if name in PAPER_TABLE2:
            log(f"  paper's Table 2 (B = 500, one pass, a single run each): BSCA {100 * PAPER_TABLE2[name][0]:.2f}%, "
                f"BSGD {100 * PAPER_TABLE2[name][1]:.2f}%")
    finished = datetime.datetime.now(datetime.timezone.utc)
    log(f"\nfinished {finished.isoformat(timespec='seconds')} "
        f"({(finished - started).total_seconds():.0f} s), load average {load_average()}")
    if args.json:
        write_json(args.json, dict(machine=info, args=vars(args), results=results), MODULES, note=SHARED_NOTE)
    if args.png and not args.speed_only:
        plot(results, args.png)
    if args.output:
        Path(args.output).write_text("\n".join(lines) + "\n")
    return results


if __name__ == "__main__":
    main()
