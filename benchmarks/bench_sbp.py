#!/usr/bin/env python
"""SBP against other kernel SVM solvers per kernel evaluation, and SBP's speed.

Part ``curves`` (the spirit of Figure 2 of Cotter, Shalev-Shwartz, Srebro
2012): test error against the number of kernel evaluations, for

* **SBP** (:func:`refsvm._fast.sbp.optimize`, no bias, the paper's nu), ten
  epochs of n iterations; the predictor is the averaged iterate of line 13,
  evaluated at 1/8, 1/4, 1/2, 1, 2, ..., 10 epochs (continuing the state);
* **Pegasos without budget**: BSGD (:func:`refsvm._fast.bsgd.bsgd`) with a
  budget larger than n (maintenance never happens), lambda = 1/n as in the
  paper's Table 2, ten epochs, last iterate, same checkpoints;
* the **kernel Perceptron** (a small loop here: add y_t Phi(x_t) when
  y_t f(x_t) <= 0), ten epochs, last iterate, same checkpoints;
* non-budget **dual coordinate ascent** (BSCA without budget): not run here;
  ``refsvm reproduce cotter2012-figure2`` runs it beside the other three.

The curve functions are :mod:`refsvm.reproduce.curves` (shared with
``refsvm reproduce cotter2012-figure2``).

Kernel evaluations are each solver's own count (``trace["kernel_evaluations"]``
for SBP and BSGD: n per SBP iteration, one per stored SV per Pegasos step; the
Perceptron counts its SVs per example).  Data: a9a (Adult; gamma = 1/(2*10),
nu = 1.10e-2) and mnist "8 vs rest" (mnist5k, pixels / 255, gamma = 1/(2*25),
nu = 2.21e-4), Table 2 of the paper without bias; training sets are random
subsamples (``--a9a-n``, ``--mnist-n``; the paper's nu was derived for the
full sets), test errors on a random subsample of the test file (``--n-test``).
Mean and spread (min-max) over ``--seeds`` seeds.

Part ``speed``: at n = 5,000 (a9a subsample), seconds per SBP iteration of the
Python reference and of the compiled path (no cache), and numpy's time for the
same work done the fastest numpy way: one Gaussian kernel row of length n
(``exp(-g (|x_j|^2 + |x_i|^2 - 2 X x_i))``, one BLAS matrix-vector product)
plus an O(n log n) sort-based water level.  Targets: compiled >= 50x Python
per iteration; one compiled iteration within 2x of the numpy row + level.

Run ``python benchmarks/bench_sbp.py --json out.json --png out.png``; data from
``$REFSVM_DATA`` through :func:`refsvm.datasets.load_libsvm`.
"""

import argparse
import json
import os
import shlex
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from _common import SHARED_NOTE, add_options, cpu_model, run_times, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.sbp", "refsvm.sbp_water", "refsvm.sbp_tolerance", "refsvm.sbp_nu", "refsvm._fast.sbp",
           "refsvm.estimators", "refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.online", "refsvm._fast.online",
           "refsvm.io.datasets", "refsvm.io.libsvm"]

# the solvers' curves live in the library (shared with ``refsvm reproduce cotter2012-figure2``)
from refsvm.reproduce.curves import CHECKPOINTS, test_error  # noqa: E402,F401
from refsvm.reproduce.curves import pegasos_curve as run_pegasos  # noqa: E402
from refsvm.reproduce.curves import perceptron_curve as run_perceptron  # noqa: E402
from refsvm.reproduce.curves import sbp_curve as run_sbp  # noqa: E402


def curves(args, log):
    from refsvm.datasets import load_libsvm
    tasks = []
    X, y, Xt, yt = load_libsvm("a9a")
    tasks.append(("a9a", X, y, Xt, yt, 1.0 / (2 * 10.0), 1.10e-2, args.a9a_n))
    X, y, Xt, yt = load_libsvm("mnist5k")
    tasks.append(("mnist8", X / 255.0, np.where(y == 8, 1, -1), Xt / 255.0, np.where(yt == 8, 1, -1),
                  1.0 / (2 * 25.0), 2.21e-4, args.mnist_n))
    out = {}
    for name, X, y, Xt, yt, gamma, nu, n in tasks:
        y, yt = y.astype(np.int64), yt.astype(np.int64)
        res = {"n_train": n, "n_test": min(args.n_test, len(yt)), "gamma": gamma, "nu": nu, "lam": 1.0 / n,
               "methods": {}}
        for method in ("SBP", "Pegasos (no budget)", "Perceptron", "dual CA (BSCA non-budget)"):
            res["methods"][method] = []
        for seed in range(args.seeds):
            rng = np.random.default_rng(1000 + seed)
            idx = rng.choice(len(y), n, replace=False)
            tidx = rng.choice(len(yt), res["n_test"], replace=False)
            Xs, ys, Xts, yts = X[idx], y[idx], Xt[tidx], yt[tidx]
            for method, fn in (("SBP", lambda: run_sbp(Xs, ys, Xts, yts, gamma, nu, seed)),
                               ("Pegasos (no budget)", lambda: run_pegasos(Xs, ys, Xts, yts, gamma, seed)),
                               ("Perceptron", lambda: run_perceptron(Xs, ys, Xts, yts, gamma, seed))):
                start = time.perf_counter()
                rows = fn()
                log(f"{name} seed {seed} {method}: final error {100 * rows[-1][2]:.2f} %, "
                    f"{rows[-1][1]:.3g} kernel evaluations, {time.perf_counter() - start:.1f} s")
                res["methods"][method].append(rows)
        res["methods"]["dual CA (BSCA non-budget)"] = "not run here: see refsvm reproduce cotter2012-figure2"
        out[name] = res
    return out


def water_level_numpy(c, volume):
    s = np.sort(c)
    levels = (volume + np.cumsum(s)) / np.arange(1, s.size + 1)
    ok = np.append(levels[:-1] <= s[1:], True)
    return levels[np.argmax(ok)]


def best_time(fn, repeat):
    times = run_times(fn, repeat)
    return min(times), float(np.median(times))


def speed(args, log):
    from refsvm import sbp as ref
    from refsvm._fast import sbp as fast
    from refsvm.datasets import load_libsvm
    X, y, _, _ = load_libsvm("a9a")
    idx = np.random.default_rng(0).choice(len(y), 5000, replace=False)
    X, y = np.ascontiguousarray(X[idx]), y[idx].astype(np.int64)
    n, gamma, nu = 5000, 0.05, 1.10e-2
    kw = dict(nu=nu, kernel="rbf", gamma=gamma, degree=3, coef0=0.0)
    warm = fast.optimize(X, y, np.random.default_rng(1).random(200), **kw).state   # mid-run responses
    u_py = np.random.default_rng(2).random(args.python_iterations)
    u_fast = np.random.default_rng(2).random(args.fast_iterations)
    py_min, py_med = best_time(lambda: ref.optimize(X, y, u_py, state=warm, **kw), 3)
    fa_min, fa_med = best_time(lambda: fast.optimize(X, y, u_fast, state=warm, **kw), 5)
    sqn = np.einsum("ij,ij->i", X, X)
    c = warm.c.copy()

    def numpy_iteration():
        i = 17
        row = np.exp(-gamma * (sqn + sqn[i] - 2.0 * (X @ X[i])))
        water_level_numpy(c, n * nu)
        return row

    np_min, np_med = best_time(lambda: [numpy_iteration() for _ in range(50)], 5)
    row_min, _ = best_time(lambda: [np.exp(-gamma * (sqn + sqn[17] - 2.0 * (X @ X[17]))) for _ in range(50)], 5)
    res = {
        "n": n, "d": X.shape[1],
        "python_s_per_iter": py_min / args.python_iterations,
        "fast_s_per_iter": fa_min / args.fast_iterations,
        "python_s_per_iter_median": py_med / args.python_iterations,
        "fast_s_per_iter_median": fa_med / args.fast_iterations,
        "numpy_row_plus_level_s": np_min / 50,
        "numpy_row_s": row_min / 50,
    }
    res["speedup_fast_vs_python"] = res["python_s_per_iter"] / res["fast_s_per_iter"]
    res["fast_over_numpy"] = res["fast_s_per_iter"] / res["numpy_row_plus_level_s"]
    log(f"speed: {res}")
    return res


def print_tables(result):
    lines = []
    for name, res in result.get("curves", {}).items():
        lines.append(f"\n{name}: n_train {res['n_train']}, n_test {res['n_test']}, gamma {res['gamma']:.4g}, "
                     f"nu {res['nu']:.3g}, lambda 1/n; test error % mean [min, max] over seeds "
                     f"@ kernel evaluations (mean over seeds)")
        lines.append(f"{'epochs':>7} | " + " | ".join(f"{m:>34}" for m in ("SBP", "Pegasos (no budget)", "Perceptron")))
        for k, cp in enumerate(CHECKPOINTS):
            cells = []
            for m in ("SBP", "Pegasos (no budget)", "Perceptron"):
                runs = res["methods"][m]
                err = np.array([r[k][2] for r in runs]) * 100
                ev = np.mean([r[k][1] for r in runs])
                cells.append(f"{err.mean():5.2f} [{err.min():5.2f},{err.max():5.2f}] @ {ev:9.3g}")
            lines.append(f"{cp:7.3g} | " + " | ".join(f"{c:>34}" for c in cells))
        lines.append(f"dual CA (BSCA non-budget): {res['methods']['dual CA (BSCA non-budget)']}")
    if "speed" in result:
        s = result["speed"]
        lines.append(f"\nspeed at n = {s['n']}, d = {s['d']} (a9a subsample), seconds per SBP iteration (best of runs):")
        lines.append(f"  python reference        {s['python_s_per_iter'] * 1e3:9.3f} ms")
        lines.append(f"  compiled                {s['fast_s_per_iter'] * 1e3:9.3f} ms   "
                     f"speed-up {s['speedup_fast_vs_python']:.1f}x (target >= 50x)")
        lines.append(f"  numpy row + water level {s['numpy_row_plus_level_s'] * 1e3:9.3f} ms   "
                     f"(row alone {s['numpy_row_s'] * 1e3:.3f} ms); compiled / numpy = "
                     f"{s['fast_over_numpy']:.2f} (target <= 2)")
    print("\n".join(lines))


def plot(result, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(result["curves"])
    fig, axes = plt.subplots(1, len(names), figsize=(5.5 * len(names), 4))
    for ax, name in zip(np.atleast_1d(axes), names):
        res = result["curves"][name]
        for m, style in (("SBP", "-o"), ("Pegasos (no budget)", "-s"), ("Perceptron", "-^")):
            runs = res["methods"][m]
            ev = np.mean([[r[k][1] for k in range(len(CHECKPOINTS))] for r in runs], axis=0)
            err = np.array([[r[k][2] for k in range(len(CHECKPOINTS))] for r in runs]) * 100
            ax.plot(ev, err.mean(axis=0), style, ms=3, label=m)
            ax.fill_between(ev, err.min(axis=0), err.max(axis=0), alpha=0.2)
        ax.set_xscale("log")
        ax.set_xlabel("kernel evaluations")
        ax.set_ylabel("test error (%)")
        ax.set_title(f"{name} (n = {res['n_train']})")
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=["curves", "speed", "all"], default="all")
    add_options(parser, int, a9a_n=4000, mnist_n=2000, n_test=4000, seeds=3, python_iterations=10,
                fast_iterations=200)
    parser.add_argument("--json", default=None)
    parser.add_argument("--png", default=None)
    parser.add_argument("--replot", metavar="JSON", default=None,
                        help="print the tables (and --png) of an earlier --json output; measure nothing")
    args = parser.parse_args(argv)
    if args.replot:
        with open(args.replot) as fh:
            result = json.load(fh)
        print(f"command: {result['command']}\ncpu: {result['cpu']}\nload average (1, 5, 15 min) at start "
              f"{result['load_average_start']}, at end {result['load_average_end']}")
        print_tables(result)
        if args.png:
            plot(result, args.png)
        return

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    result = {"command": "python benchmarks/bench_sbp.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])),
              "cpu": cpu_model(), "load_average_start": os.getloadavg()}
    if args.part in ("curves", "all"):
        result["curves"] = curves(args, log)
    if args.part in ("speed", "all"):
        result["speed"] = speed(args, log)
    result["load_average_end"] = os.getloadavg()
    print(f"command: {result['command']}\ncpu: {result['cpu']}\nload average (1, 5, 15 min) at start "
          f"{result['load_average_start']}, at end {result['load_average_end']}")
    print_tables(result)
    if args.json:
        write_json(args.json, result, MODULES, note=SHARED_NOTE)
    if args.png and "curves" in result:
        plot(result, args.png)


if __name__ == "__main__":
    main()
