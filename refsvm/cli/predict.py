"""``refsvm predict``: predict a LIBSVM file (or a data set name) with a saved model."""

from pathlib import Path

import numpy as np

from ._common import _accuracy, _apply_standardization, _check_writable, _FileError, _HelpFormatter, _add_file_options, \
    _label_text, _model_path, _print_sparse_note, _read_data, _report_predictions, _UsageError


def _estimator_class(path, default):
    """The estimator class named in a model file (``default`` for files without a name)."""
    from .. import estimators
    from ..model import BudgetedModel

    name = getattr(BudgetedModel.load(path), "estimator", None)
    return getattr(estimators, name, default) if isinstance(name, str) else default


def _cmd_predict(args):
    from ..estimators import BudgetedSVC

    path = args.model
    if Path(path).is_dir():
        raise _FileError(f"{args.model}: is a directory, not a model file (give the .npz file refsvm train wrote)")
    if not Path(path).is_file() and Path(_model_path(path)).is_file():
        path = _model_path(path)
    if not Path(path).is_file():
        raise _UsageError(f"{args.model}: no such model file")
    if args.output is not None:
        _check_writable(args.output, "predictions")
    from ._ogd import model_kind, predict_ogd  # FOGD / NOGD model files
    from ..io.model_file import read_standardization

    scaling = read_standardization(path)       # a model trained with --standardize
    kind = model_kind(path)
    if kind is not None:
        def read(arg, **kw):
            X, y = _read_data(arg, args, **kw)
            _print_sparse_note(args)
            return _apply_standardization(X, scaling), y

        if getattr(args, "stream", False):
            from ._ogd import load_ogd
            from ._stream import predict_stream

            model, d = load_ogd(path, kind)
            return predict_stream(args, lambda X: model.predict(_apply_standardization(X, scaling), backend="fast"),
                                  d, path, model.task == "regression")
        return predict_ogd(path, kind, read, args.data, args.output)
    try:
        est = _estimator_class(path, BudgetedSVC).load(path)
    except ValueError as exc:  # every model-file problem names the file: one line, status 1
        raise _FileError(str(exc)) from None
    from sklearn.base import is_regressor

    regression = is_regressor(est)                       # OnlineKernelRegressor
    if getattr(args, "stream", False):
        from ._stream import predict_stream

        n_sv = (est.sv_ if regression else est.support_vectors_).shape[0]
        return predict_stream(args, lambda X: est.predict(_apply_standardization(X, scaling)), est.n_features_in_,
                              path, regression, f", {n_sv} support vectors")
    X, y = _read_data(args.data, args, n_features=est.n_features_in_,
                      n_features_of=f"the model ({path})")
    _print_sparse_note(args)
    pred = est.predict(_apply_standardization(X, scaling))
    if regression:
        return _report_predictions(args.output, [f"{v:.17g}" for v in pred],
                                   f"mean squared error: {np.mean((pred - y) ** 2):.6g} ({X.shape[0]} examples, "
                                   f"{est.sv_.shape[0]} support vectors)")
    text = _label_text(pred)
    return _report_predictions(args.output, text,
                               f"accuracy: {_accuracy(pred, y, text):.4f} ({X.shape[0]} examples, "
                               f"{est.support_vectors_.shape[0]} support vectors)")


def add_parser(sub):
    """Add the ``predict`` sub-command to ``sub`` (the ``refsvm`` parser's sub-parsers)."""
    predict = sub.add_parser("predict", help="predict a LIBSVM file with a saved model",
                             description="Predict DATA with MODEL and print the accuracy.",
                             formatter_class=_HelpFormatter)
    predict.add_argument("model", metavar="MODEL", help="model file written by refsvm train")
    predict.add_argument("data", metavar="DATA", help="LIBSVM file (or data set name)")
    predict.add_argument("--output", metavar="FILE", default=None,
                         help="write the predicted labels, one per line")
    _add_file_options(predict, pad="DATA with fewer features than the model")
    from ._stream import add_stream_arguments

    add_stream_arguments(predict, train=False)  # --stream, --chunk-rows
    predict.set_defaults(func=_cmd_predict, subparser=predict)
    return predict
