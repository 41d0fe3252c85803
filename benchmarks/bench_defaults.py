#!/usr/bin/env python
"""Do the defaults learn?  Every solver with its default parameters on every shipped data set.

For each data set of :data:`refsvm.datasets.DATASETS` (read as a new user reads
it: ``load_libsvm(name)``, raw features, no scaling) and each solver of the
command line's registry (``refsvm.estimators.registry.SOLVERS``; BSGD also with
``learning_rate="norma"`` and ``"perceptron"``; the eight online baselines on the
binary sets only: they are binary learners), the estimator is built with
nothing but ``random_state=0`` and the solver's fixed algorithm and fitted on the
training split; the table reports the held-out score:

- classifiers: accuracy, the majority share of the test labels (what the
  constant classifier scores) and the majority share of the predictions; a
  row *learns* when it predicts more than one class and its error is at most
  0.9 times the constant classifier's (it removes at least a tenth of the
  majority vote's errors: on w8a, 2.88 % errors, that is 0.29 points; on a9a
  2.4 points); ``CONSTANT`` when it predicts one class on at least 99.9 % of
  the test rows, ``weak`` otherwise;
- regressors: R^2 on the test split (*learns*: R^2 >= 0.1).

Sets without a test split are split once (a permutation with seed 0; the last
25% is the test split).  The training split is cut to ``--max-train`` rows (default
60,000: every set but skin_nonskin is used whole) for every solver, and to
``--max-train-quadratic`` (default 2,000) for the solvers whose epoch costs n^2
kernel evaluations (SBP, the unbudgeted Perceptron and OGD); a cut keeps a
fixed random subset (seed 0; some files are sorted by label); the table states
the rows used.

A set on which ``fit`` warns that one feature holds more than half the variance
(:class:`refsvm.FeatureScaleWarning`: cadata, cpusmall, space_ga, spambase,
svmguide1, shuttle, covtype, abalone_scale) is run twice: with raw features
(``raw``, what the warning is about) and standardised with the training split's
mean and standard deviation (``std``, what the warning tells the user to do);
its verdict is the standardised run's.

    REFSVM_DATA=/path/to/data python benchmarks/bench_defaults.py [--datasets a9a,ijcnn1]
        [--solvers bsgd,nogd] [--json FILE]
"""

import argparse
import sys
import time
import warnings

import numpy as np

from _common import SHARED_NOTE, print_run_header, write_json

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.estimators", "refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.bsca", "refsvm._fast.bsca",
           "refsvm.sbp", "refsvm.sbp_water", "refsvm.sbp_tolerance", "refsvm._fast.sbp", "refsvm.fogd",
           "refsvm._fast.fogd", "refsvm.nogd",
           "refsvm._fast.nogd", "refsvm.online", "refsvm._fast.online", "refsvm.budget", "refsvm.kernels",
           "refsvm.validation", "refsvm.io.datasets", "refsvm.io.libsvm"]

QUADRATIC = ("sbp", "perceptron", "ogd")


def _cases(solvers):
    """(label, registry name, extra parameters) of every solver setting measured."""
    from refsvm.estimators.registry import SOLVERS

    out = []
    for name in SOLVERS:
        if solvers and name not in solvers:
            continue
        out.append((name, name, {}))
        if name == "bsgd":
            out.append(("bsgd norma", name, {"learning_rate": "norma"}))
            out.append(("bsgd perceptron", name, {"learning_rate": "perceptron"}))
    return out


def _split(name, max_train):
    from refsvm.datasets import load_libsvm

    X, y, Xt, yt = load_libsvm(name)
    if Xt is None:
        perm = np.random.default_rng(0).permutation(len(y))
        cut = len(y) - len(y) // 4
        X, y, Xt, yt = X[perm[:cut]], y[perm[:cut]], X[perm[cut:]], y[perm[cut:]]
    return X, y, Xt, yt


def _subset(n, cap):
    """All rows, or a fixed random subset of ``cap`` rows (seed 0, in file order): some files are sorted by
    label, so their first rows can hold one class."""
    if n <= cap:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).choice(n, size=cap, replace=False))


def _scale_warns(X):
    import warnings as _w

    from refsvm import FeatureScaleWarning
    from refsvm.estimators._base import warn_feature_scale

    with _w.catch_warnings(record=True) as caught:
        _w.simplefilter("always")
        warn_feature_scale(X, "X")
    return any(issubclass(w.category, FeatureScaleWarning) for w in caught)


def _standardised(X, Xt):
    mean, std = X.mean(axis=0), X.std(axis=0)
    std[std == 0.0] = 1.0
    return (X - mean) / std, (Xt - mean) / std


def _verdict(task, score, majority, pred_majority):
    if task == "regression":
        return "learns" if score >= 0.1 else "NO"
    if pred_majority >= 0.999:
        return "CONSTANT"
    return "learns" if 1.0 - score <= 0.9 * (1.0 - majority) else "weak"


def run_one(label, name, extra, task, X, y, Xt, yt):
    from refsvm.estimators.registry import make_estimator, SOLVERS

    regression = task == "regression"
    if regression and SOLVERS[name].regression is None:
        return None                                   # a classifier only
    if not regression and SOLVERS[name].estimator.endswith("Regressor"):
        return None                                   # a regression learner only (norma)
    est = make_estimator(name, regression=regression, random_state=0, **extra)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(X, y)
    seconds = time.perf_counter() - start
    pred = est.predict(Xt)
    if regression:
        score = 1.0 - np.sum((yt - pred) ** 2) / np.sum((yt - yt.mean()) ** 2)
        majority = pred_majority = float("nan")
    else:
        score = float(np.mean(pred == yt))
        majority = float(np.max(np.unique(yt, return_counts=True)[1]) / len(yt))
        pred_majority = float(np.max(np.unique(pred, return_counts=True)[1]) / len(pred))
    warned = sorted({w.category.__name__ for w in caught if issubclass(w.category, UserWarning)})
    return dict(solver=label, task=task, rows=len(y), score=float(score), majority=majority,
                pred_majority=pred_majority, seconds=seconds, warnings=warned,
                verdict=_verdict(task, score, majority, pred_majority))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default=None, help="comma-separated names (default: every set)")
    ap.add_argument("--solvers", default=None, help="comma-separated registry names (default: every solver)")
    ap.add_argument("--max-train", type=int, default=60000)
    ap.add_argument("--max-train-quadratic", type=int, default=2000)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    from refsvm.datasets import DATASETS

    print_run_header("benchmarks/bench_defaults.py", argv)
    names = args.datasets.split(",") if args.datasets else list(DATASETS)
    unknown = [n for n in names if n not in DATASETS]
    if unknown:
        ap.error(f"--datasets: unknown {unknown}; valid: {', '.join(DATASETS)}")
    cases = _cases(args.solvers.split(",") if args.solvers else None)
    rows = []
    print(f"{'data set':<20}{'X':<5}{'solver':<17}{'rows':>7}{'score':>8}{'majority':>9}{'pred maj':>9}"
          f"{'fit s':>8}  verdict")
    for data in names:
        task = DATASETS[data]["task"]
        X, y, Xt, yt = _split(data, args.max_train)
        versions = [("raw", X, Xt)]
        if _scale_warns(X):
            versions.append(("std",) + _standardised(X, Xt))
        for features, Xf, Xtf in versions:
            for label, name, extra in cases:
                cap = args.max_train_quadratic if name in QUADRATIC else args.max_train
                rows_used = _subset(len(y), cap)
                row = run_one(label, name, extra, task, Xf[rows_used], y[rows_used], Xtf, yt)
                if row is None:
                    continue
                row.update(dataset=data, features=features, judged=features == versions[-1][0])
                rows.append(row)
                maj = "" if task == "regression" else f"{100 * row['majority']:.2f}"
                pmaj = "" if task == "regression" else f"{100 * row['pred_majority']:.2f}"
                score = f"{row['score']:.3f}" if task == "regression" else f"{100 * row['score']:.2f}"
                verdict = row["verdict"] if row["judged"] else f"({row['verdict']}: standardise, see the std row)"
                print(f"{data:<20}{features:<5}{label:<17}{row['rows']:>7}{score:>8}{maj:>9}{pmaj:>9}"
                      f"{row['seconds']:>8.2f}  {verdict}", flush=True)
    judged = [r for r in rows if r["judged"]]
    bad = [r for r in judged if r["verdict"] != "learns"]
    print(f"\n{len(judged) - len(bad)} of {len(judged)} judged rows learn (sets that warn FeatureScaleWarning are "
          f"judged standardised); classification score = test accuracy (%), regression score = test R^2")
    for r in bad:
        print(f"  {r['verdict']}: {r['dataset']} ({r['features']}) / {r['solver']}")
    write_json(args.json, rows, MODULES, note=SHARED_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
