"""The ``refsvm`` command: train, predict, demo.

::

    refsvm train DATA MODEL [--budget B] [--lam L | --C C] [--gamma G] ... [--test TEST]
    refsvm predict MODEL DATA [--output FILE]
    refsvm demo [--n N] [--budget B] [--backend both|python|fast]

``DATA`` (and ``--test``) is a file in LIBSVM (svmlight) format, read with
:func:`refsvm.libsvm_io.read_libsvm` (``.gz`` and ``.bz2`` files are
decompressed): feature indices are 1-based unless ``--zero-based`` is given,
and the test file of ``train --test`` and the data of ``predict`` must have
the model's number of features (``--pad-features`` allows a file with fewer,
filling zeros).  A file that would need more than ``--max-memory`` as a dense
matrix (default 4G) is refused before it is made dense.  When no such file
exists and the environment variable ``REFSVM_DATA`` is set, ``DATA`` is taken
as the name of a data set there and read with
:func:`refsvm.datasets.load_libsvm` (its training split).

Models are ``.npz`` files (:meth:`refsvm.model.BudgetedModel.save`).  Invalid
values (e.g. ``--budget 1``) print the validation message and exit with status
2, as argparse does for unknown options.  A damaged or invalid data or model
file, an unwritable model path (checked before training) or a lack of memory
prints one line ``refsvm COMMAND: error: ...`` and exits with status 1;
Ctrl-C prints ``refsvm COMMAND: interrupted`` and exits with status 130.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from ._model_file import ModelFileError
from .libsvm_io import DEFAULT_MAX_MEMORY, LibsvmFileError, format_bytes, parse_memory_size
from .validation import check_positive

DEMO_GAMMA = 50.0
DEMO_LAM = 1e-4


class _UsageError(Exception):
    """A bad argument value; reported like an argparse error (exit status 2)."""


class _FileError(Exception):
    """A file cannot be read or written; reported in one line (exit status 1)."""


# ----------------------------------------------------------------- data files


def _read_data(arg, args, n_features=None, n_features_of=None):
    """Dense ``(X, y)`` from a LIBSVM file, or from a data set name under REFSVM_DATA.

    ``n_features``: the number of features the data must have (the model's or
    the training data's); a mismatch is an error unless ``--pad-features``
    allows zero-padding a file with fewer.
    """
    pad = getattr(args, "pad_features", False)
    path = Path(arg)
    if path.is_file():
        from .libsvm_io import read_libsvm

        return read_libsvm(path, n_features=n_features, zero_based=args.zero_based,
                           pad_features=pad, max_memory=args.max_memory,
                           n_features_of=n_features_of or "n_features")
    if os.environ.get("REFSVM_DATA"):
        from .datasets import load_libsvm

        try:
            X, y, _, _ = load_libsvm(arg, zero_based=args.zero_based, max_memory=args.max_memory)
        except (FileNotFoundError, RuntimeError) as exc:
            raise _UsageError(f"{arg}: no such file, and not a data set in REFSVM_DATA: {exc}") from exc
        if n_features is not None and X.shape[1] != n_features:
            if X.shape[1] > n_features or not pad:
                raise LibsvmFileError(
                    f"{arg}: has {X.shape[1]} features, but {n_features_of} has {n_features}"
                    + ("" if X.shape[1] > n_features else "; --pad-features allows zero-padding")
                )
            X = np.hstack([X, np.zeros((X.shape[0], n_features - X.shape[1]))])
        return X, y
    raise _UsageError(
        f"{arg}: no such file (REFSVM_DATA is not set, so it is not looked up as a data set name)"
    )


def _check_writable(path, what):
    """Fail now (before any work) if ``path`` cannot be written.

    Opens the file for appending (creating it, and removing it again, when it
    did not exist), so the check is the operating system's own.
    """
    path = Path(path)
    if path.is_dir():
        raise _FileError(f"{path}: is a directory; give a file name for the {what}")
    existed = path.exists()
    try:
        with open(path, "ab"):
            pass
    except OSError as exc:
        raise _FileError(f"{path}: cannot write the {what} ({exc.strerror or exc})") from None
    if not existed:
        path.unlink()


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


def _read_train_test(args):
    """``(X, y, test)``: DATA and, with ``--test``, the test file read with DATA's number of features."""
    X, y = _read_data(args.data, args)
    test = None
    if args.test is not None:
        test = _read_data(args.test, args, n_features=X.shape[1],
                          n_features_of=f"the training data ({args.data})")
    return X, y, test


def _accuracy_lines(est, X, y, test):
    """The report's training (and test) accuracy lines."""
    yield f"training accuracy: {est.score(X, y):.4f}"
    if test is not None:
        yield f"test accuracy:     {est.score(*test):.4f} ({test[0].shape[0]} examples)"


def _gamma_line(est, args):
    """The report's kernel-width line (with the rule's name when ``--gamma`` is scale / auto)."""
    return f"gamma:             {est.gamma_:.6g}" + (f" ({args.gamma})" if isinstance(args.gamma, str) else "")


def _classifier_report(est, X, seconds, args, trained, *, parameter=None, time_note="", sv_note=""):
    """The report lines of a kernel-expansion classifier (BSGD, BSCA, SBP): what was trained
    (``trained``: name and settings), ``parameter`` (a line, if any), gamma, time, SVs."""
    yield (f"trained {trained} on "
           f"{X.shape[0]} examples with {X.shape[1]} features, {len(est.classes_)} classes")
    if parameter is not None:
        yield parameter
    yield _gamma_line(est, args)
    yield f"training time:     {seconds:.3f} s{time_note}"
    yield f"support vectors:   {est.support_vectors_.shape[0]}{sv_note}"


def _train_and_report(args, build, report, scores=_accuracy_lines):
    """Every solver of ``refsvm train``: read the data, fit ``build(X)`` (timed), save it, print.

    ``report(est, X, seconds)`` yields the solver's lines before the scores,
    ``scores(est, X, y, test)`` the score lines; then the model file is named.
    """
    X, y, test = _read_train_test(args)
    est = build(X)
    start = time.perf_counter()
    est.fit(X, y)
    seconds = time.perf_counter() - start
    est.save(args.model)
    for line in report(est, X, seconds):
        print(line)
    for line in scores(est, X, y, test):
        print(line)
    print(f"model saved to {_model_path(args.model)}")
    return 0


def _cmd_train(args):
    if getattr(args, "solver", "bsgd") == "sbp":
        return _cmd_train_sbp(args)
    if getattr(args, "solver", "bsgd") == "bsca":
        return _cmd_train_bsca(args)
    from .estimators import BudgetedSVC

    _check_writable(_model_path(args.model), "model")  # before training, not after
    if args.solver != "bsgd":  # FOGD / NOGD (Lu et al. 2016), see refsvm/_cli_ogd.py
        from ._cli_ogd import train_ogd
        return train_ogd(args)
    args.eta = 0.1 if args.eta is None else args.eta

    def build(X):
        if args.C is not None:
            lam = 1.0 / (X.shape[0] * check_positive(args.C, "C"))
        else:
            lam = args.lam
        return BudgetedSVC(
            budget=args.budget, lam=lam, gamma=args.gamma, kernel=args.kernel,
            degree=args.degree, coef0=args.coef0, learning_rate=args.learning_rate,
            eta=args.eta, radius=args.radius, maintenance=args.maintenance,
            merge_eps=args.merge_eps, merge_solver=args.merge_solver, fit_bias=args.fit_bias, epochs=args.epochs,
            backend=args.backend, random_state=args.random_state, verbose=args.verbose,
        )

    def report(est, X, seconds):
        return _classifier_report(est, X, seconds, args,
                                  f"BSGD ({args.learning_rate}, {args.maintenance}, {args.backend})",
                                  parameter=f"lambda:            {est.lam:.6g}", sv_note=f" (budget {args.budget})")

    return _train_and_report(args, build, report)


def _cmd_train_bsca(args):
    """``refsvm train --solver bsca``: BSCAClassifier with C (``--C``, else C = 1 / (n lambda))."""
    from .estimators import BSCAClassifier

    _check_writable(_model_path(args.model), "model")  # before training, not after

    def build(X):
        C = args.C if args.C is not None else 1.0 / (X.shape[0] * check_positive(args.lam, "lam"))
        return BSCAClassifier(
            budget=args.budget, C=C, gamma=args.gamma, kernel=args.kernel, degree=args.degree,
            coef0=args.coef0, maintenance=args.maintenance, merge_eps=args.merge_eps,
            merge_solver=args.merge_solver, epochs=args.epochs, backend=args.backend,
            random_state=args.random_state, verbose=args.verbose,
        )

    def report(est, X, seconds):
        return _classifier_report(est, X, seconds, args, f"BSCA ({args.maintenance}, {args.backend})",
                                  parameter=f"C:                 {est.C:.6g}",
                                  sv_note=f" (budget {args.budget} per machine)")

    return _train_and_report(args, build, report)


def _cmd_train_sbp(args):
    """``refsvm train --solver sbp``: SBPClassifier (nu, gamma, kernel, epochs, --fit-bias)."""
    from .estimators import SBPClassifier

    _check_writable(_model_path(args.model), "model")  # before training, not after

    def build(X):
        return SBPClassifier(nu=args.nu, gamma=args.gamma, kernel=args.kernel, degree=args.degree,
                             coef0=args.coef0, epochs=args.epochs, fit_intercept=args.fit_bias,
                             backend=args.backend, random_state=args.random_state, verbose=args.verbose)

    def report(est, X, seconds):
        evaluations = sum(tr["kernel_evaluations"] for tr in est.trace_)
        return _classifier_report(est, X, seconds, args,
                                  f"SBP (nu {args.nu:g}, {'with' if args.fit_bias else 'no'} bias, {args.backend})",
                                  time_note=f" ({args.epochs} epochs, {evaluations} kernel evaluations)")

    return _train_and_report(args, build, report)


def _estimator_class(path, default):
    """The estimator class named in a model file (``default`` for files without a name)."""
    from . import estimators
    from .model import BudgetedModel

    name = getattr(BudgetedModel.load(path), "estimator", None)
    return getattr(estimators, name, default) if isinstance(name, str) else default


def _cmd_predict(args):
    from .estimators import BudgetedSVC

    path = args.model
    if not Path(path).is_file() and Path(_model_path(path)).is_file():
        path = _model_path(path)
    if not Path(path).is_file():
        raise _UsageError(f"{args.model}: no such model file")
    if args.output is not None:
        _check_writable(args.output, "predictions")
    from ._cli_ogd import model_kind, predict_ogd  # FOGD / NOGD model files
    kind = model_kind(path)
    if kind is not None:
        return predict_ogd(path, kind, lambda arg, **kw: _read_data(arg, args, **kw), args.data,
                           args.output)
    try:
        est = _estimator_class(path, BudgetedSVC).load(path)
    except ValueError as exc:  # every model-file problem names the file: one line, status 1
        raise _FileError(str(exc)) from None
    X, y = _read_data(args.data, args, n_features=est.n_features_in_,
                      n_features_of=f"the model ({path})")
    pred = est.predict(X)
    text = _label_text(pred)
    return _report_predictions(args.output, text,
                               f"accuracy: {_accuracy(pred, y, text):.4f} ({X.shape[0]} examples, "
                               f"{est.support_vectors_.shape[0]} support vectors)")


def _accuracy(pred, y, text):
    """The fraction of predictions ``pred`` (as strings: ``text``) equal to the labels ``y``."""
    # Labels read from a LIBSVM file are floats; a model may hold string labels.
    return np.mean(pred == y) if pred.dtype.kind in "biuf" else np.mean(text == _label_text(y))


def _report_predictions(output, text, summary):
    """``refsvm predict``'s end: write ``text`` (a line each) to ``output`` if given, print ``summary``."""
    if output is not None:
        with open(output, "w") as fh:
            fh.write("".join(f"{label}\n" for label in text))
    print(summary)
    if output is not None:
        print(f"predictions written to {output}")
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


def _gamma(text):
    """``--gamma``: ``scale``, ``auto`` or a number (checked by the estimator)."""
    if text in ("scale", "auto"):
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be 'scale', 'auto' or a number; got {text!r}") from None


def _optional_float(text):
    return None if text.lower() == "none" else float(text)


def _memory_size(text):
    try:
        return parse_memory_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows every option's default (also for options whose default is None or False)."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "%(default)" in text or "(default" in text or action.default is argparse.SUPPRESS \
                or not action.option_strings:
            return text  # no default, or the help states it in its own words
        default = action.default
        if action.dest == "max_memory" and isinstance(default, int):
            default = f"{format_bytes(default)}"
        return f"{text} (default: {default})"


def _add_file_options(parser, *, pad):
    """Options of how LIBSVM files are read (train and predict)."""
    parser.add_argument("--zero-based", action="store_true",
                        help="feature indices in the files start at 0; without it they start "
                             "at 1 (LIBSVM's convention) and an index 0 is an error")
    parser.add_argument("--max-memory", type=_memory_size, default=DEFAULT_MAX_MEMORY,
                        metavar="SIZE",
                        help="refuse a file whose dense matrix (rows x features x 8 bytes) would "
                             "need more, e.g. 512M, 16G or none")
    if pad:
        parser.add_argument("--pad-features", action="store_true",
                            help=f"allow {pad} (the missing "
                                 "trailing features are zeros); without it a feature-count "
                                 "mismatch is an error")


def build_parser():
    """The argument parser of the ``refsvm`` command."""
    parser = argparse.ArgumentParser(
        prog="refsvm", description="Budgeted kernel SVMs (BSGD of Wang, Crammer, Vucetic 2012).",
        formatter_class=_HelpFormatter,
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"refsvm {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    train = sub.add_parser("train", help="train a BudgetedSVC on a LIBSVM file, save the model",
                           description="Train BSGD on DATA and save the model to MODEL (.npz).",
                           formatter_class=_HelpFormatter)
    train.add_argument("data", metavar="DATA", help="LIBSVM file (or data set name, see REFSVM_DATA)")
    train.add_argument("model", metavar="MODEL", help="output model file (.npz)")
    train.add_argument("--budget", type=int, default=100, help="number of support vectors")
    reg = train.add_mutually_exclusive_group()
    reg.add_argument("--lam", type=float, default=1e-4, help="regularisation lambda")
    reg.add_argument("--C", type=float, default=None,
                     help="LIBSVM's C; uses lambda = 1 / (n C) instead of --lam")
    train.add_argument("--gamma", type=_gamma, default="scale",
                       help="kernel width: k(x,x') = exp(-gamma ||x-x'||^2); a number > 0, 'scale' "
                            "(1 / (n_features * X.var())) or 'auto' (1 / n_features)")
    train.add_argument("--kernel", choices=["rbf", "linear", "poly"], default="rbf",
                       help="kernel function")
    train.add_argument("--degree", type=int, default=3, help="polynomial kernel degree")
    train.add_argument("--coef0", type=float, default=0.0, help="polynomial kernel constant")
    train.add_argument("--learning-rate", choices=["pegasos", "norma", "perceptron"],
                       default="pegasos", help="learning-rate schedule (BSGD variant)")
    train.add_argument("--eta", type=float, default=0.1, help="eta of norma / perceptron")
    train.add_argument("--radius", type=_optional_float, default=None,
                       help="perceptron ball radius U (None: 1/sqrt(lambda))")
    train.add_argument("--maintenance", choices=["removal", "projection", "merge"],
                       default="merge", help="budget maintenance")
    train.add_argument("--merge-eps", type=float, default=0.01,
                       help="golden-section search precision of merging")
    train.add_argument("--merge-solver", choices=["gss", "gss-precise", "lookup-h", "lookup-wd"],
                       default="gss", help="how merging finds h: golden-section search or a table lookup "
                       "(Glasmachers & Qaadan; binary problems only)")
    train.add_argument("--fit-bias", action="store_true", help="learn an unregularised bias")
    train.add_argument("--epochs", type=int, default=1, help="passes over the data")
    train.add_argument("--backend", choices=["fast", "python"], default="fast",
                       help="compiled or pure-Python reference path")
    train.add_argument("--random-state", type=int, default=0,
                       help="seed of the visiting order")
    noise = train.add_mutually_exclusive_group()
    noise.add_argument("--verbose", dest="verbose", action="store_const", const=1, default=1,
                       help="progress lines on stderr during training: examples/s, SVs, maintenance "
                            "events, online error (default: on)")
    noise.add_argument("--quiet", dest="verbose", action="store_const", const=0,
                       help="no progress lines (default: off)")
    train.add_argument("--test", metavar="TESTFILE", default=None,
                       help="also report the accuracy on this LIBSVM file (read with the "
                            "training data's number of features)")
    _add_file_options(train, pad="a test file with fewer features than DATA")
    train.add_argument("--solver", choices=["bsgd", "sbp", "bsca", "fogd", "nogd"], default="bsgd",
                       help="bsgd; sbp: the stochastic batch perceptron of Cotter et al. (2012), "
                       "with --nu, --gamma, --kernel, --epochs, --fit-bias; the budget options do not apply; "
                       "or bsca: dual coordinate ascent on a budget (Qaadan et al. 2019), with --C (or "
                       "--lam: C = 1/(n lambda)) and the budget and merging options; "
                       "fogd / nogd: Lu et al. (2016), options below")
    train.add_argument("--nu", type=float, default=0.01, help="SBP: the margin-violation parameter nu (Cotter et al.; volume n nu)")
    train.set_defaults(func=_cmd_train, subparser=train)
    from ._cli_ogd import add_ogd_arguments
    add_ogd_arguments(train)  # --solver fogd|nogd, --regression, ...

    predict = sub.add_parser("predict", help="predict a LIBSVM file with a saved model",
                             description="Predict DATA with MODEL and print the accuracy.",
                             formatter_class=_HelpFormatter)
    predict.add_argument("model", metavar="MODEL", help="model file written by refsvm train")
    predict.add_argument("data", metavar="DATA", help="LIBSVM file (or data set name)")
    predict.add_argument("--output", metavar="FILE", default=None,
                         help="write the predicted labels, one per line")
    _add_file_options(predict, pad="DATA with fewer features than the model")
    predict.set_defaults(func=_cmd_predict, subparser=predict)

    demo = sub.add_parser("demo", help="BSGD on a synthetic checkerboard, both backends",
                          description="Train BSGD-merge (Pegasos) on a 4x4 checkerboard "
                                      "(no download) and print accuracy, time and #SV.",
                          formatter_class=_HelpFormatter)
    demo.add_argument("--n", type=int, default=10000, help="training points")
    demo.add_argument("--n-test", type=int, default=5000, help="test points")
    demo.add_argument("--budget", type=int, default=100, help="budget")
    demo.add_argument("--backend", choices=["both", "python", "fast"], default="both",
                      help="which paths to run")
    demo.add_argument("--random-state", type=int, default=0, help="seed")
    demo.set_defaults(func=_cmd_demo, subparser=demo)

    from .reproduce import add_parser as _add_reproduce  # refsvm reproduce (see refsvm/reproduce.py)
    _add_reproduce(sub)
    return parser


def _one_line(exc):
    return " ".join(str(exc).split())


def main(argv=None):
    """Run the ``refsvm`` command with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    Exit status: 0 on success, 2 for invalid arguments, 1 for files that
    cannot be read or written and other errors (one line on stderr, no
    traceback), 130 when interrupted (Ctrl-C).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(f"refsvm {args.command}: interrupted", file=sys.stderr)
        return 130
    except (_FileError, LibsvmFileError, ModelFileError) as exc:
        print(f"refsvm {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except (_UsageError, ValueError) as exc:
        args.subparser.error(_one_line(exc))  # prints usage and message, exits with status 2
    except MemoryError as exc:
        print(f"refsvm {args.command}: error: out of memory ({_one_line(exc)})", file=sys.stderr)
        return 1
    except (RuntimeError, OSError) as exc:  # e.g. compiled extension missing, unwritable file
        print(f"refsvm {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
