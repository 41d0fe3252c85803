"""The last iterate's threshold and four remedies: refit_bias, fit_bias, suffix averaging, more epochs.

For each data set, solver (BSGD with merging, BSCA with the authors'
permutation sampling) and seed it trains one pass (fast path, B = ``--budget``)
and reports the test accuracy of

* ``last``: the last iterate, as the algorithm returns it (the paper's output);
* ``refit``: the same model with ``refit_bias=True`` (the bias replaced by the
  exact minimiser of the training hinge loss on at most 10,000 rows) -- the
  same run as ``last``: the kernel part is identical, only the bias differs;
* ``refit_scaled``: the same model with ``refit_bias="scaled"`` (the threshold
  of the scale and offset that jointly minimise the training hinge loss);
* ``fit_bias``: BSGD with the paper's SGD bias ``b <- b + beta_t`` (BSGD only;
  BSCA has no bias);
* ``suffix``: the average of the decision functions of ``--snapshots``
  snapshots of the model taken evenly over the last ``--suffix`` fraction of
  the pass (binary sets; the pass is run in pieces by the algorithm function,
  continuing exactly);
* ``epochs2``: two passes instead of one (last iterate).

Every row: mean, standard deviation, median, minimum and maximum of the test
accuracy (%) over the seeds, and the extra time relative to one epoch
(``refit``: the refit's own time; ``suffix``: the test-time cost of the
snapshot predictions; ``epochs2``: the second epoch).

Data and parameters: a9a (C = 2^5, gamma = 2^-7, the paper's Table 1 of
Qaadan et al. 2019), ijcnn1 (C = 2^5, gamma = 2), w8a (C = 2^3, gamma = 2^-5,
fixed random 75/25 split with seed 0, w8a has no test file), usps and
pendigits (multi-class; standardised pendigits; C = 2^5, gamma = "scale";
BSGD: Crammer-Singer, BSCA: one-vs-rest, no suffix averaging).
``lam = 1 / (n C)`` for BSGD.

Usage::

    python benchmarks/bench_refit.py [--data a9a ijcnn1] [--seeds 20] [--json PATH]
"""

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402

from refsvm import BSCAClassifier, BudgetedSVC  # noqa: E402
from refsvm.backend import get_module  # noqa: E402
from refsvm.datasets import load_libsvm  # noqa: E402
from refsvm.model import BudgetedModel  # noqa: E402

#: What a run exercises (its results' fingerprint, benchmarks/stale.py).
MODULES = ["refsvm.refit", "refsvm._fast.refit", "refsvm.estimators._base", "refsvm.estimators.bsgd",
           "refsvm.estimators._bias_refit", "refsvm.estimators._inputs", "refsvm.estimators._passes",
           "refsvm.estimators._saving", "refsvm.estimators._feature_scale", "refsvm.estimators._shared",
           "refsvm.estimators.bsca", "refsvm.model", "refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.bsca", "refsvm._fast.bsca",
           "refsvm.budget", "refsvm.kernels", "refsvm.io.datasets", "refsvm.io.libsvm"]

PARAMS = {
    "a9a": dict(C=2.0 ** 5, gamma=2.0 ** -7),
    "ijcnn1": dict(C=2.0 ** 5, gamma=2.0),
    "w8a": dict(C=2.0 ** 3, gamma=2.0 ** -5),
    "usps": dict(C=2.0 ** 5, gamma="scale"),
    "pendigits": dict(C=2.0 ** 5, gamma="scale", standardize=True),
}


def load(name):
    p = PARAMS[name]
    if name == "w8a":
        X, y, _, _ = load_libsvm("w8a")
        perm = np.random.default_rng(0).permutation(len(y))
        cut = int(0.75 * len(y))
        tr, te = perm[:cut], perm[cut:]
        return X[tr], y[tr], X[te], y[te]
    return load_libsvm(name, standardize=p.get("standardize", False))


def estimator(solver, name, n, budget, seed, **kw):
    p = PARAMS[name]
    if solver == "BSGD":
        return BudgetedSVC(budget=budget, lam=1.0 / (n * p["C"]), gamma=p["gamma"], random_state=seed, **kw)
    return BSCAClassifier(budget=budget, C=p["C"], gamma=p["gamma"], sampling="permutation",
                          random_state=seed, **kw)


def suffix_average(solver, est, X, y, Xt, seed, fraction, snapshots):
    """Mean test decision function of ``snapshots`` models taken evenly over the last ``fraction``
    of one pass (the estimator's visiting order for ``seed``); returns (F, snapshot predict seconds)."""
    params = est._algorithm_params()
    gamma = est._resolve_gamma(X)
    params["gamma"] = gamma
    y_int = np.where(y == est.classes_[1], 1, -1).astype(np.int64)
    n = len(y)
    order = np.random.default_rng(seed).permutation(n).astype(np.int64)
    start = n - int(fraction * n)
    cuts = [0, start] + [start + (n - start) * (k + 1) // snapshots for k in range(snapshots)]
    module = get_module("bsgd" if solver == "BSGD" else "bsca", "fast")
    state = dict(sv=None, alpha=None)
    if solver == "BSGD":
        state["bias"] = None
    else:
        state.update(dual=None, sv_source=None)
    t = 0
    models = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        if solver == "BSGD":
            res = module.bsgd(X, y_int, order[a:b], n_classes=2, t0=t, **state, **params)
            state = dict(sv=res.sv, alpha=res.alpha, bias=res.bias)
            t = int(res.t)
        else:
            res = module.bsca(X, y_int, order[a:b], t0=t, **state, **params)
            state = dict(sv=res.sv, alpha=res.alpha, dual=res.dual, sv_source=res.sv_source)
            t += b - a
        if a >= start:
            bias = state.get("bias")
            models.append(BudgetedModel(support_vectors=res.sv, coef=res.alpha, kernel="rbf", gamma=float(gamma),
                                        bias=bias))
    clock = time.perf_counter()
    F = np.mean([m.decision_function(Xt, backend="fast") for m in models], axis=0)
    return F, time.perf_counter() - clock


def accuracy(est, model, Xt, yt):
    F = model.decision_function(Xt, backend="fast")
    pred = est.classes_[(F > 0).astype(int)] if F.ndim == 1 else est.classes_[np.argmax(F, axis=1)]
    return 100.0 * float(np.mean(pred == yt))


def run(name, solvers, seeds, budget, fraction, snapshots, skip):
    X, y, Xt, yt = load(name)
    n = len(y)
    binary = np.unique(y).size == 2
    records = []
    for solver in solvers:
        for seed in range(seeds):
            rec = dict(data=name, solver=solver, seed=seed)
            clock = time.perf_counter()
            est = estimator(solver, name, n, budget, seed, refit_bias=True).fit(X, y)
            total = time.perf_counter() - clock
            tr = est.trace_[-1]
            rec["epoch_seconds"] = total - tr["refit_seconds"]
            rec["refit_seconds"] = tr["refit_seconds"]
            last = dataclasses.replace(est.model_, bias=np.asarray(tr["refit_bias_before"]))
            rec["last"] = accuracy(est, last, Xt, yt)
            rec["refit"] = accuracy(est, est.model_, Xt, yt)
            rec["refit_bias"] = np.asarray(tr["refit_bias"]).tolist()
            if "refit_scaled" not in skip:               # the same model, the scaled refit (same rows)
                est._set_model(est.support_vectors_, est.alpha_, np.asarray(tr["refit_bias_before"]))
                est.refit_bias = "scaled"
                est._refit_bias_after_training(X, est._internal_labels(y), None)
                rec["refit_scaled"] = accuracy(est, est.model_, Xt, yt)
                rec["refit_scaled_seconds"] = est.trace_[-1]["refit_seconds"]
                rec["refit_scale"] = np.ravel(est.trace_[-1]["refit_scale"]).tolist()
            if solver == "BSGD" and "fit_bias" not in skip:
                clock = time.perf_counter()
                fb = estimator(solver, name, n, budget, seed, fit_bias=True).fit(X, y)
                rec["fit_bias_seconds"] = time.perf_counter() - clock
                rec["fit_bias"] = 100.0 * fb.score(Xt, yt)
            if binary and "suffix" not in skip:
                F, seconds = suffix_average(solver, est, X, y, Xt, seed, fraction, snapshots)
                rec["suffix"] = 100.0 * float(np.mean(est.classes_[(F > 0).astype(int)] == yt))
                rec["suffix_seconds"] = seconds
            if "epochs2" not in skip:
                clock = time.perf_counter()
                e2 = estimator(solver, name, n, budget, seed, epochs=2).fit(X, y)
                rec["epochs2_seconds"] = time.perf_counter() - clock
                rec["epochs2"] = 100.0 * e2.score(Xt, yt)
            records.append(rec)
            print(f"  {name} {solver} seed {seed}: last {rec['last']:.2f} refit {rec['refit']:.2f} "
                  + " ".join(f"{k} {rec[k]:.2f}" for k in ("refit_scaled", "fit_bias", "suffix", "epochs2")
                             if k in rec),
                  flush=True)
    return records


METHODS = ("last", "refit", "refit_scaled", "fit_bias", "suffix", "epochs2")


def summarise(records):
    rows = []
    keys = sorted({(r["data"], r["solver"]) for r in records}, key=lambda k: (k[0], k[1]))
    for data, solver in keys:
        recs = [r for r in records if r["data"] == data and r["solver"] == solver]
        epoch = float(np.median([r["epoch_seconds"] for r in recs]))
        for method in METHODS:
            values = np.array([r[method] for r in recs if method in r])
            if values.size == 0:
                continue
            if method in ("refit", "refit_scaled"):
                extra = float(np.median([r[method + "_seconds"] for r in recs])) / epoch
            elif method == "fit_bias":
                extra = float(np.median([r["fit_bias_seconds"] for r in recs])) / epoch - 1.0
            elif method == "suffix":
                extra = float(np.median([r["suffix_seconds"] for r in recs])) / epoch
            elif method == "epochs2":
                extra = float(np.median([r["epochs2_seconds"] for r in recs])) / epoch - 1.0
            else:
                extra = 0.0
            rows.append(dict(data=data, solver=solver, method=method, seeds=int(values.size),
                             mean=float(values.mean()), sd=float(values.std(ddof=1)) if values.size > 1 else 0.0,
                             median=float(np.median(values)), min=float(values.min()), max=float(values.max()),
                             extra_time_epochs=extra, epoch_seconds=epoch))
    return rows


def print_table(rows):
    print(f"{'data':10s} {'solver':6s} {'method':9s} {'seeds':>5s} {'mean':>7s} {'sd':>6s} {'median':>7s} "
          f"{'min':>7s} {'max':>7s} {'extra time (epochs)':>20s}")
    for r in rows:
        print(f"{r['data']:10s} {r['solver']:6s} {r['method']:9s} {r['seeds']:5d} {r['mean']:7.2f} {r['sd']:6.2f} "
              f"{r['median']:7.2f} {r['min']:7.2f} {r['max']:7.2f} {r['extra_time_epochs']:20.3f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", default=["a9a", "ijcnn1", "w8a", "usps", "pendigits"],
                    choices=sorted(PARAMS))
    ap.add_argument("--solvers", nargs="+", default=["BSGD", "BSCA"], choices=["BSGD", "BSCA"])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--budget", type=int, default=500)
    ap.add_argument("--suffix", type=float, default=0.2, help="fraction of the pass averaged (default 0.2)")
    ap.add_argument("--snapshots", type=int, default=10)
    ap.add_argument("--skip", nargs="*", default=[], choices=["refit_scaled", "fit_bias", "suffix", "epochs2"])
    ap.add_argument("--json", default=None, help="write the per-seed records and the summary here")
    args = ap.parse_args(argv)
    print_run_header("benchmarks/bench_refit.py", argv)
    records = []
    for name in args.data:
        records += run(name, args.solvers, args.seeds, args.budget, args.suffix, args.snapshots, args.skip)
    rows = summarise(records)
    print_table(rows)
    write_json(args.json, dict(summary=rows, records=records), MODULES, note=SHARED_NOTE)
    return rows


if __name__ == "__main__":
    main()
