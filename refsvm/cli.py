"""The ``refsvm`` command: train, predict, demo.

::

    refsvm train DATA MODEL [--budget B] [--lam L | --C C] [--gamma G] ... [--test TEST]
    refsvm predict MODEL DATA [--output FILE]
    refsvm demo [--n N] [--budget B] [--backend both|python|fast]

``DATA`` (and ``--test``) is a file in LIBSVM (svmlight) format, read with
:func:`sklearn.datasets.load_svmlight_file` (``.gz`` and ``.bz2`` files are
decompressed).  When no such file exists and the environment variable
``REFSVM_DATA`` is set, ``DATA`` is taken as the name of a data set there and
read with :func:`refsvm.datasets.load_libsvm` (its training split).

Models are ``.npz`` files (:meth:`refsvm.model.BudgetedModel.save`).  Invalid
values (e.g. ``--budget 1``) print the validation message and exit with status
2, as argparse does for unknown options.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from .validation import check_positive

DEMO_GAMMA = 50.0
DEMO_LAM = 1e-4


class _UsageError(Exception):
    """A bad argument value; reported like an argparse error (exit status 2)."""


# ----------------------------------------------------------------- data files


def _read_data(arg):
    """Dense ``(X, y)`` from a LIBSVM file, or from a data set name under REFSVM_DATA."""
    path = Path(arg)
    if path.is_file():
        from sklearn.datasets import load_svmlight_file

        try:
            X, y = load_svmlight_file(str(path), dtype=np.float64)
        except ValueError as exc:
            raise _UsageError(f"{arg}: not a valid LIBSVM file: {exc}") from exc
        return np.ascontiguousarray(X.toarray()), y
    if os.environ.get("REFSVM_DATA"):
        from .datasets import load_libsvm

        try:
            X, y, _, _ = load_libsvm(arg)
        except (FileNotFoundError, RuntimeError) as exc:
            raise _UsageError(f"{arg}: no such file, and not a data set in REFSVM_DATA: {exc}") from exc
        return X, y
    raise _UsageError(
        f"{arg}: no such file (REFSVM_DATA is not set, so it is not looked up as a data set name)"
    )


def _with_features(X, d, what):
    """``X`` with exactly ``d`` columns: zero-pad, or drop trailing all-zero columns.

    LIBSVM files do not store the number of features; a file whose highest
    feature index is smaller than the model's simply has zeros there.
    """
    if X.shape[1] == d:
        return X
    if X.shape[1] < d:
        return np.hstack([X, np.zeros((X.shape[0], d - X.shape[1]))])
    if np.any(X[:, d:]):
        raise _UsageError(
            f"{what} has non-zero features beyond index {d}, the model's n_features"
        )
    return np.ascontiguousarray(X[:, :d])


def _label_text(labels):
    """Labels as strings, numbers without a trailing ``.0`` (``1``, ``-1``, ``0.5``)."""
    labels = np.asarray(labels)
    if labels.dtype.kind in "biuf":
        return np.array([f"{v:g}" for v in labels])
    return labels.astype(str)


def _model_path(arg):
    """The file ``numpy.savez`` writes for ``arg`` (it appends ``.npz`` when missing)."""
    return arg if str(arg).endswith(".npz") else f"{arg}.npz"


# -------------------------------------------------------------------- commands


def _cmd_train(args):
    from .estimators import BudgetedSVC

    X, y = _read_data(args.data)
    test = None
    if args.test is not None:
        Xt, yt = _read_data(args.test)
        d = max(X.shape[1], Xt.shape[1])
        X, Xt = _with_features(X, d, args.data), _with_features(Xt, d, args.test)
        test = (Xt, yt)
    if args.C is not None:
        lam = 1.0 / (X.shape[0] * check_positive(args.C, "C"))
    else:
        lam = args.lam
    est = BudgetedSVC(
        budget=args.budget, lam=lam, gamma=args.gamma, kernel=args.kernel,
        degree=args.degree, coef0=args.coef0, learning_rate=args.learning_rate,
        eta=args.eta, radius=args.radius, maintenance=args.maintenance,
        merge_eps=args.merge_eps, merge_solver=args.merge_solver, fit_bias=args.fit_bias, epochs=args.epochs,
        backend=args.backend, random_state=args.random_state,
    )
    start = time.perf_counter()
    est.fit(X, y)
    seconds = time.perf_counter() - start
    est.save(args.model)

    print(f"trained BSGD ({args.learning_rate}, {args.maintenance}, {args.backend}) on "
          f"{X.shape[0]} examples with {X.shape[1]} features, {len(est.classes_)} classes")
    print(f"lambda:            {lam:.6g}")
    print(f"training time:     {seconds:.3f} s")
    print(f"support vectors:   {est.support_vectors_.shape[0]} (budget {args.budget})")
    print(f"training accuracy: {est.score(X, y):.4f}")
    if test is not None:
        print(f"test accuracy:     {est.score(*test):.4f} ({test[0].shape[0]} examples)")
    print(f"model saved to {_model_path(args.model)}")
    return 0


def _cmd_predict(args):
    from .estimators import BudgetedSVC

    path = args.model
    if not Path(path).is_file() and Path(_model_path(path)).is_file():
        path = _model_path(path)
    if not Path(path).is_file():
        raise _UsageError(f"{args.model}: no such model file")
    est = BudgetedSVC.load(path)
    X, y = _read_data(args.data)
    X = _with_features(X, est.n_features_in_, args.data)
    pred = est.predict(X)
    text = _label_text(pred)
    if args.output is not None:
        with open(args.output, "w") as fh:
            fh.write("".join(f"{label}\n" for label in text))
    # Labels read from a LIBSVM file are floats; a model may hold string labels.
    accuracy = np.mean(pred == y) if pred.dtype.kind in "biuf" else np.mean(text == _label_text(y))
    print(f"accuracy: {accuracy:.4f} ({X.shape[0]} examples, "
          f"{est.support_vectors_.shape[0]} support vectors)")
    if args.output is not None:
        print(f"predictions written to {args.output}")
    return 0


def _cmd_demo(args):
    from .datasets import checkerboard
    from .estimators import BudgetedSVC

    from .validation import check_budget

    if args.n < 2 or args.n_test < 1:
        raise _UsageError("--n must be >= 2 and --n-test >= 1")
    check_budget(args.budget)
    backends = ["python", "fast"] if args.backend == "both" else [args.backend]
    X, y = checkerboard(args.n, random_state=args.random_state)
    Xt, yt = checkerboard(args.n_test, random_state=args.random_state + 1)
    print(f"BSGD (Pegasos learning rate, merging) on the 4x4 checkerboard of Wang, Crammer "
          f"and Vucetic (2012):\n{args.n} training / {args.n_test} test points in [0,1]^2, "
          f"budget {args.budget}, gamma {DEMO_GAMMA:g}, lambda {DEMO_LAM:g}, one pass.\n")
    rows = []
    models = {}
    for backend in backends:
        est = BudgetedSVC(budget=args.budget, lam=DEMO_LAM, gamma=DEMO_GAMMA,
                          maintenance="merge", learning_rate="pegasos", backend=backend,
                          random_state=args.random_state)
        start = time.perf_counter()
        est.fit(X, y)
        seconds = time.perf_counter() - start
        models[backend] = est
        rows.append((backend, f"{args.n}", f"{est.score(Xt, yt):.4f}", f"{seconds:.3f}",
                     f"{est.support_vectors_.shape[0]}"))
    header = ("backend", "n_train", "test accuracy", "train time (s)", "#SV")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    for r in (header, ["-" * w for w in widths], *rows):
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
    if len(models) == 2:
        py, fast = models["python"], models["fast"]
        diff = np.max(np.abs(py.alpha_ - fast.alpha_)) if py.alpha_.shape == fast.alpha_.shape \
            else float("nan")
        print(f"\nmax |alpha_python - alpha_fast| = {diff:.2e} (same data and visiting order)")
    return 0


# ---------------------------------------------------------------------- parser


def _optional_float(text):
    return None if text.lower() == "none" else float(text)


def build_parser():
    """The argument parser of the ``refsvm`` command."""
    parser = argparse.ArgumentParser(
        prog="refsvm", description="Budgeted kernel SVMs (BSGD of Wang, Crammer, Vucetic 2012)."
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"refsvm {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    train = sub.add_parser("train", help="train a BudgetedSVC on a LIBSVM file, save the model",
                           description="Train BSGD on DATA and save the model to MODEL (.npz).")
    train.add_argument("data", metavar="DATA", help="LIBSVM file (or data set name, see REFSVM_DATA)")
    train.add_argument("model", metavar="MODEL", help="output model file (.npz)")
    train.add_argument("--budget", type=int, default=100, help="number of support vectors (default 100)")
    reg = train.add_mutually_exclusive_group()
    reg.add_argument("--lam", type=float, default=1e-4, help="regularisation lambda (default 1e-4)")
    reg.add_argument("--C", type=float, default=None, help="LIBSVM's C; uses lambda = 1 / (n C)")
    train.add_argument("--gamma", type=float, default=1.0,
                       help="kernel width: k(x,x') = exp(-gamma ||x-x'||^2) (default 1.0)")
    train.add_argument("--kernel", choices=["rbf", "linear", "poly"], default="rbf")
    train.add_argument("--degree", type=int, default=3, help="polynomial kernel degree")
    train.add_argument("--coef0", type=float, default=0.0, help="polynomial kernel constant")
    train.add_argument("--learning-rate", choices=["pegasos", "norma", "perceptron"],
                       default="pegasos")
    train.add_argument("--eta", type=float, default=0.1, help="eta of norma / perceptron")
    train.add_argument("--radius", type=_optional_float, default=None,
                       help="perceptron ball radius U (default 1/sqrt(lambda))")
    train.add_argument("--maintenance", choices=["removal", "projection", "merge"],
                       default="merge")
    train.add_argument("--merge-eps", type=float, default=0.01,
                       help="golden-section search precision of merging")
    train.add_argument("--merge-solver", choices=["gss", "gss-precise", "lookup-h", "lookup-wd"],
                       default="gss", help="how merging finds h: golden-section search or a table lookup "
                       "(Glasmachers & Qaadan; binary problems only)")
    train.add_argument("--fit-bias", action="store_true", help="learn an unregularised bias")
    train.add_argument("--epochs", type=int, default=1, help="passes over the data (default 1)")
    train.add_argument("--backend", choices=["fast", "python"], default="fast")
    train.add_argument("--random-state", type=int, default=0,
                       help="seed of the visiting order (default 0)")
    train.add_argument("--test", metavar="TESTFILE", default=None,
                       help="also report the accuracy on this LIBSVM file")
    train.set_defaults(func=_cmd_train, subparser=train)

    predict = sub.add_parser("predict", help="predict a LIBSVM file with a saved model",
                             description="Predict DATA with MODEL and print the accuracy.")
    predict.add_argument("model", metavar="MODEL", help="model file written by refsvm train")
    predict.add_argument("data", metavar="DATA", help="LIBSVM file (or data set name)")
    predict.add_argument("--output", metavar="FILE", default=None,
                         help="write the predicted labels, one per line")
    predict.set_defaults(func=_cmd_predict, subparser=predict)

    demo = sub.add_parser("demo", help="BSGD on a synthetic checkerboard, both backends",
                          description="Train BSGD-merge (Pegasos) on a 4x4 checkerboard "
                                      "(no download) and print accuracy, time and #SV.")
    demo.add_argument("--n", type=int, default=10000, help="training points (default 10000)")
    demo.add_argument("--n-test", type=int, default=5000, help="test points (default 5000)")
    demo.add_argument("--budget", type=int, default=100, help="budget (default 100)")
    demo.add_argument("--backend", choices=["both", "python", "fast"], default="both")
    demo.add_argument("--random-state", type=int, default=0, help="seed (default 0)")
    demo.set_defaults(func=_cmd_demo, subparser=demo)

    from .reproduce import add_parser as _add_reproduce  # refsvm reproduce (see refsvm/reproduce.py)
    _add_reproduce(sub)
    return parser


def main(argv=None):
    """Run the ``refsvm`` command with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (_UsageError, ValueError) as exc:
        args.subparser.error(str(exc))  # prints usage and message, exits with status 2
    except (RuntimeError, OSError) as exc:  # e.g. compiled extension missing, unwritable file
        print(f"refsvm {args.command}: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
