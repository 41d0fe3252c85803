"""Shared pieces of the ``refsvm`` sub-commands: reading data, checking paths, report lines, option types."""

import argparse
import contextlib
import os
import re
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..estimators.registry import SOLVERS
from ..io.libsvm import DEFAULT_MAX_MEMORY, LibsvmFileError, format_bytes, parse_memory_size


class _UsageError(Exception):
    """A bad argument value; reported like an argparse error (exit status 2)."""


class _FileError(Exception):
    """A file cannot be read or written; reported in one line (exit status 1)."""


def _registry_width(name):
    """The number of features the data-set registry lists for ``name`` or for the set whose test
    split ``name`` is (e.g. ``mnist.t`` of ``mnist5k``); None for other names."""
    from ..io.datasets import DATASETS

    if name in DATASETS:
        return DATASETS[name]["n_features"]
    for info in DATASETS.values():
        if info["test"] == name:
            return info["n_features"]
    return None


def _read_named(arg, args):
    """``(X, y, test)`` of the data set ``arg``: ``$REFSVM_DATA`` or the cache (downloading a set with a
    recorded checksum unless ``REFSVM_NO_DOWNLOAD=1``); ``test`` is its test split, if it has one."""
    from ..io.datasets import load_libsvm

    try:
        X, y, Xt, yt = load_libsvm(arg, zero_based=args.zero_based, max_memory=args.max_memory,
                                   sparse=getattr(args, "sparse", False))
    except (FileNotFoundError, RuntimeError) as exc:
        where = "REFSVM_DATA or the data cache" if os.environ.get("REFSVM_DATA") else "the data cache"
        raise _FileError(f"{arg}: no such file, and not a data set in {where}: {exc}") from exc
    width = _registry_width(arg)
    if width is not None and X.shape[1] < width:      # a test split that does not use its last features
        X = _pad_columns(X, width)
    return X, y, (None if Xt is None else (Xt, yt))


def _read_data(arg, args, n_features=None, n_features_of=None, with_test=False):
    """Dense ``(X, y)`` from a LIBSVM file, or from a data set name (``$REFSVM_DATA`` / the cache).

    ``n_features``: the number of features the data must have (the model's or
    the training data's); a mismatch is an error unless ``--pad-features``
    allows zero-padding a file with fewer (a data set name is padded to the
    registry's count by itself).  ``with_test``: return ``(X, y, test)``, where
    ``test`` is the known test split of a data set name (None for files).
    """
    pad = getattr(args, "pad_features", False)
    path = Path(arg)
    if path.is_dir():
        raise _FileError(f"{arg}: is a directory, not a LIBSVM data file")
    if path.is_file():
        from ..io.libsvm import read_libsvm

        _check_not_empty(path, arg)
        X, y = _sparse_if_too_wide(arg, args, lambda: read_libsvm(
            path, n_features=n_features, zero_based=args.zero_based, pad_features=pad,
            max_memory=args.max_memory, n_features_of=n_features_of or "n_features",
            sparse=getattr(args, "sparse", False)))
        return (X, y, None) if with_test else (X, y)
    X, y, test = _sparse_if_too_wide(arg, args, lambda: _read_named(arg, args))
    if n_features is not None and X.shape[1] != n_features:
        if X.shape[1] > n_features or not (pad or _registry_width(arg) == n_features):
            raise LibsvmFileError(
                f"{arg}: has {X.shape[1]} features, but {n_features_of} has {n_features}"
                + ("" if X.shape[1] > n_features else "; --pad-features allows zero-padding")
            )
        X = _pad_columns(X, n_features)
    return (X, y, test) if with_test else (X, y)


def _check_not_empty(path, arg):
    """A data file with no examples (empty, or only blank and comment lines) is named as such, before a
    reader reports it as a file with 0 features; reads at most the first 64 KiB (decompressed)."""
    from ..io.libsvm import _open_binary

    try:
        with _open_binary(path) as fh:
            head = fh.read(1 << 16)
    except (OSError, EOFError, ValueError):
        return                                  # unreadable or damaged: the reader names the problem
    if len(head) < (1 << 16) and not any(line.split(b"#", 1)[0].strip() for line in head.splitlines()):
        raise _FileError(f"{arg}: the file is empty (no examples)")


def _sparse_if_too_wide(arg, args, read):
    """``read()``; when its dense matrix would exceed ``--max-memory``, read the data as a sparse matrix
    instead (as ``--sparse`` does, which then applies to the rest of the command: the test file and
    the memory check of the run) and say so on standard error."""
    from ..io.libsvm import DenseMemoryError

    try:
        return read()
    except DenseMemoryError as exc:
        if getattr(args, "sparse", True) or not hasattr(args, "sparse"):
            raise
        args.sparse = True
        args.sparse_note = f"refsvm: {exc}; read it as a sparse matrix instead (--sparse)"
        return read()


def _print_sparse_note(args):
    """The note of :func:`_sparse_if_too_wide`, once the run goes ahead (standard error)."""
    note = getattr(args, "sparse_note", None)
    if note:
        print(note, file=sys.stderr)
        args.sparse_note = None


def _pad_columns(X, d):
    """``X`` with zero columns appended up to ``d`` (a CSR matrix stays sparse)."""
    if sp.issparse(X):
        return sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], d))
    return np.hstack([X, np.zeros((X.shape[0], d - X.shape[1]))])


def _check_sparse_memory(X, args):
    """``--sparse``: ``--max-memory`` applies to what the run stores instead of a dense copy of DATA:
    the nonzeros (12 bytes each) and, at worst, B + 1 support vectors with every feature
    (12 bytes an entry; merging makes an SV the union of rows, and the union is at most d wide).
    The worst case is far above a typical run (docs/sparse.rst) and is checked before training."""
    if not sp.issparse(X) or args.max_memory is None:
        return
    budget = getattr(args, "budget", None)
    slots = (budget + 1 if budget is not None else X.shape[0]) * X.shape[1]
    need = 12 * X.nnz + 12 * min(slots, X.shape[0] * X.shape[1])
    if need > args.max_memory:
        how = "read as a sparse matrix (its dense matrix exceeds --max-memory)" \
            if getattr(args, "sparse_note", None) else "--sparse"
        raise LibsvmFileError(
            f"{args.data}: {how}: {X.nnz} nonzeros and, at worst, "
            f"{'budget + 1' if budget is not None else 'every example as an'} support vectors with all "
            f"{X.shape[1]} features need {format_bytes(need)}, more than --max-memory "
            f"{format_bytes(args.max_memory)}; raise --max-memory (a typical run stores far less) or "
            "lower --budget")


def _check_usable(X, y, arg, *, classification):
    """One line naming the file when its contents cannot train a model (empty, no features, one class)."""
    if X.shape[0] == 0:
        raise _FileError(f"{arg}: holds no examples")
    if X.shape[1] == 0:
        raise _FileError(f"{arg}: holds labels but no features")
    if classification:
        labels = np.unique(y)
        if labels.size < 2:
            raise _FileError(f"{arg}: every example has the label {labels[0]:g}; a classifier needs at least "
                             "two classes")
        _refuse_regression_target(arg, labels, X.shape[0])


#: A classification target with more distinct labels than this (or than half the rows, past 10) is
#: taken for a regression target: cadata's integer house values once trained a 3,842-class model.
MAX_CLASSES = 100


def _refuse_regression_target(arg, labels, n):
    """Refuse a regression data set, or a target that looks like one, given to a classifier."""
    from ..io.datasets import DATASETS

    advice = "use --solver fogd or --solver nogd with --regression"
    name = Path(str(arg)).name.removesuffix(".bz2")
    if DATASETS.get(name, {}).get("task") == "regression":
        raise _FileError(f"{arg}: a regression data set (its target is a real number); the classifiers "
                          f"would train one class per value: {advice}")
    if labels.size > MAX_CLASSES or (labels.size > 10 and labels.size > n / 2):
        kind = "integer" if np.all(labels == np.round(labels)) else "non-integer"
        raise _FileError(f"{arg}: {labels.size} distinct {kind} labels in {n} examples look like a regression "
                          f"target, not classes; {advice}")


def _binary_only():
    """``refsvm train --solver`` values that train binary classifiers only: the online baselines without a
    multi-class version (:data:`refsvm.online.MULTICLASS_ALGORITHMS` lists those with one); ``--help`` says so."""
    from ..online import MULTICLASS_ALGORITHMS
    return tuple(name for name, solver in SOLVERS.items() if solver.estimator == "OnlineKernelClassifier"
                 and solver.params.get("algorithm") not in MULTICLASS_ALGORITHMS)


BINARY_ONLY = _binary_only()


def _check_binary(y, args):
    """A target with more than two classes given to a binary-only solver: one line, exit status 1."""
    k = np.unique(y).size
    if k > 2:
        others = ", ".join(name for name in SOLVERS if name not in BINARY_ONLY)
        raise _FileError(f"{args.data}: {k} classes, but --solver {args.solver} is a binary classifier (it has no "
                         f"multi-class version yet); for {k} classes use --solver {others}")


def _settings_text(settings):
    """The report's settings, ``"eta 0.2, variant authors"``: numbers as ``%g``, text as given."""
    return ", ".join(f"{k} {v}" if isinstance(v, str) else f"{k} {v:g}" for k, v in settings.items())


def _check_model_path(arg):
    """Fail now (before training) if the model cannot be written to ``arg``: a directory or a
    device as given (numpy would silently append ``.npz``), or an unwritable ``<arg>.npz``."""
    given = Path(arg)
    if given.is_dir():
        raise _FileError(f"{given}: is a directory; give a file name for the model (e.g. {given / 'model.npz'})")
    if given.exists() and not given.is_file():
        raise _FileError(f"{given}: not a regular file (a device or a pipe?); give a file name for the model")
    _check_writable(_model_path(arg), "model")


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


def _read_train_test(args):
    """``(X, y, test)``: DATA and, with ``--test``, the test file read with DATA's number of features."""
    X, y, test = _read_data(args.data, args, with_test=True)   # a data set name brings its test split
    _check_usable(X, y, args.data, classification=not getattr(args, "regression", False))
    if getattr(args, "binary_only", False):
        _check_binary(y, args)
    if args.test is not None:
        test = _read_data(args.test, args, n_features=X.shape[1],
                          n_features_of=f"the training data ({args.data})")
    return X, y, test


def _accuracy_lines(est, X, y, test):
    """The report's training (and test) accuracy lines, and for a classifier whose last accuracy is no
    better than always predicting the majority class of those rows, a line saying so with that share
    (a constant classifier, or a learner's last iterate no better than one, looks like a result)."""
    accuracy = est.score(X, y)
    yield f"training accuracy: {accuracy:.4f}"
    labels, which = y, "training"
    if test is not None:
        accuracy, labels, which = est.score(*test), test[1], "test"
        yield f"test accuracy:     {accuracy:.4f} ({test[0].shape[0]} examples)"
    if hasattr(est, "classes_") and len(labels):
        share = float(np.max(np.unique(np.asarray(labels), return_counts=True)[1])) / len(labels)
        if accuracy <= share:
            yield (f"majority class:    {share:.4f} of the {which} examples: the model does no better than "
                   "always predicting it")


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
    trace = est.trace_[-1] if est.trace_ else {}
    if "refit_bias" in trace:
        fmt = lambda v: " ".join(f"{x:.6g}" for x in np.ravel(v))  # noqa: E731
        yield (f"bias refit:        {fmt(trace['refit_bias_before'])} -> {fmt(trace['refit_bias'])} "
               f"(training hinge loss {fmt(trace['refit_hinge_before'])} -> {fmt(trace['refit_hinge_after'])} "
               f"on {trace['refit_rows']} rows"
               + (f"; scaled refit, scale {fmt(trace['refit_scale'])}" if "refit_scale" in trace else "") + ")")


#: ``refsvm train`` states the expected cost up front (with progress on) for runs of at least this many
#: kernel evaluations (about a second of a compiled solver; SBP on a9a: 1e9 per epoch, minutes).
COST_LINE_MIN = 10 ** 8


def _kernel_rate(X, backend="fast", seconds=0.1, rows=4096):
    """Kernel evaluations per second on this machine: Gaussian kernel rows of the backend's
    ``kernels.kernel_row`` (the row loop the solvers share) against ``rows`` rows of ``X``, for about
    ``seconds``.  The cost line's time estimate divides the run's evaluation count by it: a guide (the
    solvers add their own work and caches), labelled as such."""
    from ..backend import get_module

    kernel_row = get_module("kernels", backend).kernel_row
    S = X[:rows]
    done, i, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        x = X[i % S.shape[0]]
        kernel_row(S, x if sp.issparse(X) else np.asarray(x), "rbf", 1.0 / max(X.shape[1], 1), 3, 0.0)
        done, i = done + S.shape[0], i + 1
    return done / (time.perf_counter() - start)


def _duration(seconds):
    """``seconds`` as a rough duration: ``40 s``, ``12 min``, ``3.1 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _standardize_train(X, test, args):
    """``--standardize``: ``(X, test, (mean, scale))`` with every feature of the training data scaled to
    mean 0 and standard deviation 1 (the test file with the training data's statistics)."""
    from ..io.model_file import standardization

    if sp.issparse(X):
        raise _FileError(f"{args.data}: --standardize centres every feature, which makes sparse data dense; "
                         "drop --standardize or --sparse (or raise --max-memory)")
    mean, scale = standardization(X)
    if test is not None:
        test = (_apply_standardization(test[0], (mean, scale)), test[1])
    return (X - mean) / scale, test, (mean, scale)


def _apply_standardization(X, scaling):
    """``(X - mean) / scale`` for a model trained with ``--standardize`` (``scaling`` None: ``X``)."""
    if scaling is None:
        return X
    X = X.toarray() if sp.issparse(X) else X
    return (X - scaling[0]) / scaling[1]


def _train_and_report(args, build, report, scores=_accuracy_lines):
    """Every solver of ``refsvm train``: read the data, fit ``build(X)`` (timed), save it, print.

    ``report(est, X, seconds)`` yields the solver's lines before the scores,
    ``scores(est, X, y, test)`` the score lines; then the model file is named.
    """
    X, y, test = _read_train_test(args)
    _check_sparse_memory(X, args)
    _print_sparse_note(args)
    scaling = None
    if getattr(args, "standardize", False):
        X, test, scaling = _standardize_train(X, test, args)
    est = build(X)
    from ..estimators.registry import cost_per_epoch

    count, what = cost_per_epoch(args.solver, X.shape[0], getattr(args, "budget", None),
                                 getattr(args, "n_components", None), len(np.unique(y)))
    if getattr(args, "verbose", 0) and count * args.epochs >= COST_LINE_MIN:   # a run that may take a while
        estimate = ""
        if what.startswith("kernel evaluations"):
            rate = _kernel_rate(X, getattr(args, "backend", "fast"))
            estimate = (f"; estimate {_duration(count * args.epochs / rate)} at {rate:,.3g} evaluations/s "
                        "(a Gaussian kernel row timed on this machine just now; the solver's own rate differs)")
        print(f"refsvm train: {args.solver} on {X.shape[0]} examples: about {count:,} {what} per epoch, "
              f"{args.epochs} epoch(s){estimate}", file=sys.stderr)
    start = time.perf_counter()
    est.fit(X, y, **getattr(args, "fit_options", {}))     # refsvm train --checkpoint / --resume
    seconds = time.perf_counter() - start
    est.save(args.model)
    if scaling is not None:
        from ..io.model_file import add_standardization

        add_standardization(args.model, *scaling)
    for line in report(est, X, seconds):
        print(line)
    for line in scores(est, X, y, test):
        print(line)
    print(f"model saved to {_model_path(args.model)}")
    return 0


def _accuracy(pred, y, text):
    """The fraction of predictions ``pred`` (as strings: ``text``) equal to the labels ``y``."""
    # Labels read from a LIBSVM file are floats; a model may hold string labels.
    return np.mean(pred == y) if pred.dtype.kind in "biuf" else np.mean(text == _label_text(y))


def _write_atomically(path, text, what):
    """Write ``text`` (a string, or an iterable of strings written as they come) to ``path`` through a
    temporary file in the same folder and a rename: a full disk leaves no partial file and an existing
    one unchanged; the error names the path."""
    from .._files import atomic_temp

    path = Path(path)
    if path.exists() and not path.is_file():            # /dev/stdout, a pipe: nothing to replace
        try:
            with open(path, "w") as fh:
                fh.writelines([text] if isinstance(text, str) else text)
        except OSError as exc:
            raise _FileError(f"{path}: cannot write the {what} ({exc.strerror or exc})") from None
        return
    try:
        fd, tmp = atomic_temp(path.parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as exc:
        raise _FileError(f"{path}: cannot write the {what} ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "w") as fh:
            fh.writelines([text] if isinstance(text, str) else text)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise _FileError(f"{path}: cannot write the {what} ({exc.strerror or exc})") from None
    except BaseException:                               # an error while the pieces were made (a bad line)
        Path(tmp).unlink(missing_ok=True)
        raise


def _report_predictions(output, text, summary):
    """``refsvm predict``'s end: write ``text`` (a line each) to ``output`` if given, print ``summary``."""
    if output is not None:
        _write_atomically(output, "".join(f"{label}\n" for label in text), "predictions")
    print(summary)
    if output is not None:
        print(f"predictions written to {output}")
    return 0


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


def _add_file_options(parser, *, pad, standardize=False):
    """Options of how LIBSVM files are read (train and predict); ``standardize``: also ``--standardize``
    (train: the statistics go into the model file, which predict reads)."""
    parser.add_argument("--zero-based", action="store_true",
                        help="feature indices in the files start at 0; without it they start "
                             "at 1 (LIBSVM's convention) and an index 0 is an error")
    parser.add_argument("--max-memory", type=_memory_size, default=DEFAULT_MAX_MEMORY,
                        metavar="SIZE",
                        help="refuse a file whose dense matrix (rows x features x 8 bytes) would "
                             "need more, e.g. 512M, 16G or none (with --sparse: its nonzeros plus "
                             "budget + 1 support vectors of every feature, 12 bytes an entry)")
    parser.add_argument("--sparse", action="store_true",
                        help="read the data as a sparse (CSR) matrix and never densify it (every "
                             "solver keeps sparse support vectors); without it a file whose dense "
                             "matrix would exceed --max-memory is read this way, with a note")
    if standardize:
        parser.add_argument("--standardize", action="store_true",
                            help="scale every feature to mean 0 and standard deviation 1 with the training "
                                 "data's statistics (stored in the model file; refsvm predict and "
                                 "refsvm.load apply them)")
    if pad:
        parser.add_argument("--pad-features", action="store_true",
                            help=f"allow {pad} (the missing "
                                 "trailing features are zeros); without it a feature-count "
                                 "mismatch is an error")


def _one_line(exc):
    return " ".join(str(exc).split())


#: Python parameter names whose command-line option is not ``--`` + the name with dashes.
_OPTION_OF_PARAMETER = {"fit_intercept": "--fit-bias", "lam": "--lam", "C": "--C", "nu": "--nu"}

#: Advice meant for Python users, and what a command-line user can do instead: with ``--standardize``
#: (refsvm train), and in a command without it (refsvm reproduce: the table fixes the data's scaling).
_CLI_ADVICE = (
    (re.compile(r"standardi[sz]e X \(e\.g\. make_pipeline\(StandardScaler\(\), estimator\)\)"),
     "standardise the features (refsvm train --standardize)",
     "standardise the features (refsvm train --standardize; a reproduced table keeps the paper's scaling)"),
    (re.compile(r"scale the features, e\.g\. with sklearn\.preprocessing\.StandardScaler"),
     "scale the features (refsvm train --standardize)", "scale the features (refsvm train --standardize)"),
)
#: numpy's scalar repr (``np.int64(-1)``, numpy >= 2) as the plain number
_NUMPY_SCALAR = re.compile(r"\bnp\.(?:u?int|float|bool_?|str_)\w*\(([^()]*)\)")


def _cli_text(text, parser):
    """``text`` (an error or warning message) in the command line's words: a Python parameter name
    (``merge_eps``, ``refit_rows``, ``n_components``) becomes its option (``--merge-eps``) when ``parser``
    has that option, and advice written for Python users names the option that follows it."""
    options = {a.dest: max(a.option_strings, key=len) for a in getattr(parser, "_actions", ())
               if a.option_strings and a.dest not in ("help", "version")}
    options.update({k: v for k, v in _OPTION_OF_PARAMETER.items() if v in options.values()})

    def option(match):
        name = match.group(1)
        return options.get(name, name) + match.group(2)

    # a name with an underscore anywhere; any other name only where it starts the message ("nu must be ...")
    names = "|".join(sorted((re.escape(n) for n in options if "_" in n), key=len, reverse=True))
    if names:
        text = re.sub(rf"(?<![\w-])({names})(?![\w(])()", option, text)
    text = re.sub(r"^([A-Za-z]\w*)((?: must| should|:|=| is))",
                  lambda m: option(m) if m.group(1) in options else m.group(0), text)
    has_option = "--standardize" in options.values()
    for pattern, advice, elsewhere in _CLI_ADVICE:
        text = pattern.sub(advice if has_option else elsewhere, text)
    return _NUMPY_SCALAR.sub(r"\1", text)


@contextlib.contextmanager
def collapsed_warnings(prefix, parser=None, stream=None):
    """Python warnings raised inside the block, printed when it ends as one line per kind (category and
    message): ``<prefix>: warning: <message>``, or ``<prefix>: warning (x70): <message>`` for a kind
    raised 70 times; in the command line's words (:func:`_cli_text`), without file:line or source line.
    Used by every ``refsvm`` sub-command (:func:`refsvm.cli.main`)."""
    counts = {}

    def record(message, category, filename, lineno, file=None, line=None):
        key = (category.__name__, " ".join(str(message).split()))
        counts[key] = counts.get(key, 0) + 1

    with warnings.catch_warnings():
        if not sys.warnoptions:                # -W / PYTHONWARNINGS given: the user's filters stand
            warnings.simplefilter("always")    # every repeat reaches record(), to be counted
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.filterwarnings("ignore", category=category)     # ignored as Python's defaults do
        warnings.showwarning = record
        try:
            yield counts
        finally:
            out = stream or sys.stderr
            for (_, text), n in counts.items():
                print(f"{prefix}: warning{f' (x{n})' if n > 1 else ''}: {_cli_text(text, parser)}", file=out)
