"""``refsvm train --stream`` and ``refsvm predict --stream``: a LIBSVM file read in chunks
(:mod:`refsvm.stream`, :func:`refsvm.io.stream.iter_libsvm`), in memory proportional to a chunk."""

import time
from pathlib import Path

import numpy as np

from ..stream import SHUFFLES
from ._common import _FileError, _model_path, _report_predictions, _UsageError


#: Why a solver has no ``partial_fit`` (the end of the ``--stream`` refusal).
_NO_PARTIAL_FIT = {"sbp": ": SBP's iterate is a vector over the whole training set, one entry per example, and "
                          "each iteration looks at all of it"}


class _Shape:
    """What the report functions read of the training matrix: its shape (the file's, from the scan)."""

    def __init__(self, n_rows, n_features):
        self.shape = (n_rows, n_features)


def _file(arg):
    if not Path(arg).is_file():
        raise _FileError(f"{arg}: no such file (--stream reads a LIBSVM file, not a data set name)")
    return arg


def add_stream_arguments(parser, train=True):
    """``--stream`` and ``--chunk-rows`` (and, for ``train``, ``--shuffle-buffer`` and ``--shuffle``)."""
    parser.add_argument("--stream", action="store_true",
                        help="read DATA in chunks of --chunk-rows examples, in memory proportional to a chunk "
                             + ("(training: partial_fit chunk by chunk, after one pre-pass over the file for "
                                "its classes, number of features and gamma='scale')" if train else ""))
    parser.add_argument("--chunk-rows", type=int, default=10000, help="--stream: examples per chunk")
    if train:
        parser.add_argument("--shuffle-buffer", type=int, default=None, metavar="M",
                            help="--stream: shuffle the examples through a buffer of M rows (seeded by "
                                 "--random-state); default: the file's order")
        parser.add_argument("--shuffle", choices=SHUFFLES, default=None,
                            help="--stream: the visiting order (refsvm.stream; buffer of --shuffle-buffer rows, "
                                 "default --chunk-rows); 'interleave' (plain files): chunks made of pieces of "
                                 "--chunk-rows / 100 rows read at random places, then the buffer; default: "
                                 "'buffer' with --shuffle-buffer, else 'none' (the file's order)")


def streamed_score(est, path, args, chunk_rows, summary=None, n_features=None, n_features_of="n_features",
                   regression=False):
    """``(accuracy, n_rows)`` of ``est`` on the LIBSVM file ``path``, predicted chunk by chunk (``regression``:
    the mean squared error instead of the accuracy)."""
    from ..io.stream import iter_libsvm

    score = total = 0
    for X, y in iter_libsvm(path, chunk_rows=chunk_rows, zero_based=args.zero_based, summary=summary,
                            n_features=n_features, pad_features=getattr(args, "pad_features", False),
                            n_features_of=n_features_of, sparse=True):
        pred = est.predict(X)
        score += float(np.sum((pred - y) ** 2)) if regression else int(np.sum(pred == y))
        total += X.shape[0]
    return score / max(total, 1), total


def train_stream(args, build, report):
    """``refsvm train --stream``: :func:`refsvm.stream.fit_stream`, then the report, the streamed
    training (and ``--test``) accuracy (with ``--regression``: mean squared error), the model file."""
    from ..io.stream import scan_libsvm
    from ..stream import _interleave_pieces, fit_stream

    if getattr(args, "standardize", False):
        raise _UsageError("--standardize: not available with --stream (it needs the feature means and "
                          "deviations of the whole file)")
    for name in ("chunk_rows", "shuffle_buffer"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise _UsageError(f"--{name.replace('_', '-')} must be >= 1; got {value}")
    path = _file(args.data)
    shuffle = args.shuffle or ("buffer" if args.shuffle_buffer else "none")
    pieces = _interleave_pieces(path, shuffle, args.chunk_rows, None)      # None unless 'interleave'
    regression = bool(getattr(args, "regression", False))
    summary = scan_libsvm(path, chunk_rows=pieces or args.chunk_rows, zero_based=args.zero_based,
                          labels=not regression)
    labels = summary.labels
    if summary.n_rows == 0:
        raise _FileError(f"{args.data}: holds no examples")
    if regression:
        pass
    elif labels.size < 2:
        raise ValueError(f"{args.data}: has only one class ({labels[0]:g}); a classifier needs at least 2")
    if getattr(args, "binary_only", False) and labels.size != 2:
        raise ValueError(f"--solver {args.solver} is a binary classifier; {args.data} has {labels.size} classes")
    test_summary = None
    if args.test is not None:                 # its width checked before training, not after
        from ..io.libsvm import _checked_width

        test_summary = scan_libsvm(_file(args.test), chunk_rows=args.chunk_rows, zero_based=args.zero_based,
                                   labels=False)
        _checked_width(args.test, test_summary.n_features, test_summary.highest, summary.n_features,
                       getattr(args, "pad_features", False), f"the training data ({args.data})")
    shape = _Shape(summary.n_rows, summary.n_features)
    est = build(shape)
    if not callable(getattr(est, "partial_fit", None)):
        raise ValueError(f"--stream: not available for --solver {args.solver} ({type(est).__name__} has no "
                         "partial_fit to train chunk by chunk" + _NO_PARTIAL_FIT.get(args.solver, "") + ")")
    start = time.perf_counter()
    fit_stream(est, path, epochs=args.epochs, chunk_rows=args.chunk_rows,
               shuffle=shuffle, buffer_rows=args.shuffle_buffer, piece_rows=pieces,
               random_state=args.random_state, zero_based=args.zero_based, sparse=True, summary=summary,
               **getattr(args, "fit_options", {}))      # --checkpoint, --checkpoint-every, --resume
    seconds = time.perf_counter() - start
    est.save(args.model)
    for line in report(est, shape, seconds):
        print(line)
    name, form = ("MSE:     ", ".6g") if regression else ("accuracy:", ".4f")
    score, _ = streamed_score(est, path, args, summary.chunk_rows, summary=summary,   # pieces' size if interleaved
                              regression=regression)
    print(f"training {name} {score:{form}} (streamed)")
    if args.test is not None:
        score, rows = streamed_score(est, args.test, args, args.chunk_rows, summary=test_summary,
                                     n_features=summary.n_features, regression=regression,
                                     n_features_of=f"the training data ({args.data})")
        print(f"test {name}     {score:{form}} ({rows} examples, streamed)")
    print(f"model saved to {_model_path(args.model)}")
    return 0


def predict_stream(args, predict, n_features, path, regression, note=""):
    """``refsvm predict --stream``: ``predict(X_chunk)`` chunk by chunk (``n_features``: the model's), each
    chunk's predictions written to ``--output`` as they come (memory: one chunk); then the accuracy (the
    mean squared error if ``regression``), ``note`` added to its parenthesis."""
    from ..io.stream import iter_libsvm
    from ._common import _accuracy, _label_text, _write_atomically

    if args.chunk_rows < 1:
        raise _UsageError(f"--chunk-rows must be >= 1; got {args.chunk_rows}")
    seen = {"rows": 0, "score": 0.0}        # correct predictions, or the sum of squared errors

    def lines():
        for X, y in iter_libsvm(_file(args.data), chunk_rows=args.chunk_rows, zero_based=args.zero_based,
                                n_features=n_features, pad_features=args.pad_features,
                                n_features_of=f"the model ({path})", sparse=True):
            pred = predict(X)
            if regression:
                text = [f"{v:.17g}" for v in pred]
                seen["score"] += float(np.sum((pred - y) ** 2))
            else:
                text = _label_text(pred)
                seen["score"] += float(_accuracy(pred, y, text)) * X.shape[0]
            seen["rows"] += X.shape[0]
            yield "".join(f"{t}\n" for t in text)

    if args.output is not None:
        _write_atomically(args.output, lines(), "predictions")
    else:
        for _ in lines():
            pass
    rows = seen["rows"]
    value = (f"mean squared error: {seen['score'] / max(rows, 1):.6g}" if regression
             else f"accuracy: {seen['score'] / max(rows, 1):.4f}")
    print(f"{value} ({rows} examples{note}, streamed)")
    if args.output is not None:
        print(f"predictions written to {args.output}")
    return 0
