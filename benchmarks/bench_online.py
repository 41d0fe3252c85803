#!/usr/bin/env python
"""Per-example time of the online baselines, Python reference vs compiled path.

For every learner of :mod:`refsvm.online`, both backends run the identical
stream (same data, visiting order and uniforms; both make the same decisions,
see tests/online/test_agreement.py): the first ``--n`` examples of a random
permutation of a data set, B = ``--budget``, gamma = ``--gamma`` (Lu et al.'s
sigma = 8 is gamma = 1/128), eta = ``--eta``.  Reported: microseconds per
example of each path (the minimum over ``--repeats`` / ``--py-repeats`` runs:
on a shared, loaded machine the minimum is the least disturbed run),
the ratio, the number of SVs at the end, and the target fast >= 20x Python.

The authors' C++ library (LIBOL / KOL) was not built for this comparison.

Run ``python benchmarks/bench_online.py --help``; data from ``$REFSVM_DATA``.
"""

import argparse
import datetime
import os
import platform
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, cpu_model, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.online", "refsvm._fast.online", "refsvm.kernels", "refsvm.io.datasets", "refsvm.io.libsvm"]

LEARNERS = ["perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd", "bpann"]


def params(name, args, n):
    kw = dict(kernel="rbf", gamma=args.gamma, degree=3, coef0=0.0)
    if name == "ogd":
        kw["eta"] = args.eta
    if name in ("rbp", "forgetron", "bpas", "bogd", "projectron", "projectron++", "bpann"):
        kw["budget"] = args.budget
    if name in ("projectron", "projectron++"):
        kw.update(eta=args.eta, plusplus=name == "projectron++")
    if name in ("bpas", "bpann"):
        kw["C"] = 1.0
    if name == "bogd":
        kw.update(eta=args.eta, lam=1.0 / n ** 2, max_coef=10.0)
    return kw


def run(module, name, X, y, order, u, kw):
    f = getattr(module, "projectron" if name.startswith("projectron") else name)
    start = time.perf_counter()
    res = f(X, y, order, u, **kw) if name in ("rbp", "bogd") else f(X, y, order, **kw)
    return time.perf_counter() - start, res


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="spambase")
    parser.add_argument("--n", type=int, default=3000, help="examples streamed (default 3000)")
    parser.add_argument("--budget", type=int, default=100)
    parser.add_argument("--gamma", type=float, default=1 / 128)
    parser.add_argument("--eta", type=float, default=0.2)
    parser.add_argument("--repeats", type=int, default=20, help="fast-path runs (minimum taken)")
    parser.add_argument("--py-repeats", type=int, default=3, help="Python-path runs (minimum taken)")
    parser.add_argument("--learners", nargs="+", default=LEARNERS, choices=LEARNERS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="PATH", default=None)
    args = parser.parse_args(argv)

    import refsvm.online as ref
    import refsvm._fast.online as fast
    from refsvm.datasets import load_libsvm

    X, y, Xt, yt = load_libsvm(args.dataset)
    if Xt is not None:
        X, y = np.vstack([X, Xt]), np.concatenate([y, yt])
    y = np.where(y == np.unique(y)[1], 1, -1).astype(np.int64)
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(y))[: args.n].astype(np.int64)
    u = rng.random(len(order))
    loads = [os.getloadavg()[0]]
    rows = []
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    for name in args.learners:
        kw = params(name, args, len(y))
        py_times = []
        for _ in range(args.py_repeats):
            t, r_py = run(ref, name, X, y, order, u, kw)
            py_times.append(t)
        t_py = min(py_times)
        times = []
        for _ in range(args.repeats):
            t, r_fast = run(fast, name, X, y, order, u, kw)
            times.append(t)
        t_fast = min(times)
        same = int(np.count_nonzero(r_fast.trace["update_kind"] != r_py.trace["update_kind"]))
        loads.append(os.getloadavg()[0])
        rows.append(dict(learner=name, n=len(order), us_python=1e6 * t_py / len(order),
                         us_fast=1e6 * t_fast / len(order), ratio=t_py / t_fast, n_sv=len(r_fast.sv),
                         mistake_rate=r_fast.trace["mistakes"] / len(order),
                         mistakes_python=r_py.trace["mistakes"], steps_deciding_differently=same))
    lines = [
        "refsvm online baselines: microseconds per example, Python reference vs compiled path",
        f"command : python benchmarks/bench_online.py {' '.join(sys.argv[1:] if argv is None else argv)}",
        f"date    : {started}",
        f"machine : {cpu_model()}, {os.cpu_count()} logical CPUs; {platform.platform()}",
        f"load    : 1-min load average between {min(loads):.2f} and {max(loads):.2f} (shared machine)",
        f"data    : {args.dataset}, first {len(order)} examples of a random permutation; B = {args.budget}, "
        f"gamma = {args.gamma:g}, eta = {args.eta:g}",
        "C++     : the authors' LIBOL / KOL library was not built; no comparison with it",
        "",
        f"{'learner':<14}{'#SV':>6}{'mistakes %':>12}{'diff steps':>11}{'python us/ex':>14}{'fast us/ex':>12}{'ratio':>9}"
        "  target >= 20x",
    ]
    for r in rows:
        ok = "PASS" if r["ratio"] >= 20 else "FAIL"
        lines.append(f"{r['learner']:<14}{r['n_sv']:>6}{100 * r['mistake_rate']:>12.2f}"
                     f"{r['steps_deciding_differently']:>11}{r['us_python']:>14.1f}"
                     f"{r['us_fast']:>12.2f}{r['ratio']:>8.1f}x  {ok}")
    lines += ["", "diff steps: steps where the two paths updated differently (0 = identical decisions; real data can",
              "hold exact ties that rounding breaks differently, see refsvm/_fast/online.pyx)"]
    print("\n".join(lines))
    write_json(args.json, dict(args=vars(args), rows=rows, loads=loads, started=started), MODULES, note=SHARED_NOTE)


if __name__ == "__main__":
    main()
