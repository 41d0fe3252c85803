"""``refsvm train --solver fogd|nogd`` and ``refsvm predict`` for their models.

Kept out of :mod:`refsvm.cli` so that the command's BSGD part stays as it is:
:mod:`refsvm.cli` calls :func:`add_ogd_arguments` when it builds the ``train``
parser, :func:`train_ogd` when ``--solver`` is not ``bsgd`` and
:func:`predict_ogd` when the model file holds a FOGD / NOGD model.

Options: ``--solver fogd|nogd`` (the command's option), ``--regression`` (real targets: FOGD-R / NOGD-R),
``--n-components`` (D), ``--rank`` (k, default 0.2 B), ``--epsilon``,
``--normalize``, ``--average``; shared with BSGD: ``--budget`` (B), ``--gamma``, ``--eta``
(default 0.1 for BSGD; for FOGD / NOGD the estimator's default), ``--epochs``,
``--backend``, ``--random-state``, ``--test``, ``--verbose`` / ``--quiet``
(classifiers only; the regressors print no progress).
"""


import numpy as np

def add_ogd_arguments(train):
    """Add the FOGD / NOGD options to the ``train`` sub-parser (``--solver`` is the command's)."""
    group = train.add_argument_group("FOGD / NOGD (Lu et al. 2016)")
    group.add_argument("--regression", action="store_true",
                       help="real-valued targets (FOGD-R / NOGD-R, squared loss; the online baselines' "
                            "regression versions, refsvm.cli._regression; --solver norma is regression only)")
    group.add_argument("--n-components", type=int, default=400, help="FOGD: D, the number of random Fourier directions")
    group.add_argument("--rank", type=int, default=None, help="NOGD: rank k (None: 0.2 * budget)")
    group.add_argument("--epsilon", type=float, default=0.1,
                       help="regression: FOGD / NOGD update only when the squared loss exceeds it, the "
                            "online baselines when |y - f(x)| does")
    group.add_argument("--normalize", action="store_true", help="FOGD: divide the feature map by sqrt(D)")
    group.add_argument("--average", action="store_true",
                       help="predict with the mean of the (NOGD: linear-phase) weights after each update "
                            "(LIBOL/KOL's code) instead of the last iterate (the paper)")
    train.set_defaults(eta=None)          # None: each solver's own default step size
    train._option_string_actions["--eta"].help = (
        "BSGD: eta of norma / perceptron (None: norma 1/sqrt(lambda), perceptron 0.1); FOGD / NOGD: the constant step size "
        "(None: the estimator's default)")


def make_estimator(args):
    from ..estimators.ogd import FOGDClassifier, FOGDRegressor, NOGDClassifier, NOGDRegressor

    common = dict(gamma=args.gamma, epochs=args.epochs, backend=args.backend, random_state=args.random_state,
                  verbose=getattr(args, "verbose", 0))      # progress lines
    if args.eta is not None:
        common["eta"] = args.eta
    if args.regression:
        common["epsilon"] = args.epsilon
    if args.solver == "fogd":
        cls = FOGDRegressor if args.regression else FOGDClassifier
        return cls(n_components=args.n_components, normalize=args.normalize, average=args.average, **common)
    cls = NOGDRegressor if args.regression else NOGDClassifier
    return cls(budget=args.budget, rank=args.rank, average=args.average, **common)


def train_ogd(args):
    """``refsvm train --solver fogd|nogd``: fit, save, report (accuracy or mean squared error).

    Reads, fits and saves through the command's shared :func:`refsvm.cli._train_and_report`.
    """
    from ._common import _accuracy_lines, _train_and_report

    def report(est, X, seconds):
        yield (f"trained {args.solver.upper()}{'-R' if args.regression else ''} ({args.backend}) on "
               f"{X.shape[0]} examples with {X.shape[1]} features")
        yield f"training time:     {seconds:.3f} s"

    def scores(est, X, y, test):
        trace = est.trace_[-1]
        if args.regression:
            yield f"online mean squared loss (last pass): {trace['online_mse']:.6g}"
            yield f"training MSE:      {np.mean((est.predict(X) - y) ** 2):.6g}"
            if test is not None:
                yield (f"test MSE:          {np.mean((est.predict(test[0]) - test[1]) ** 2):.6g} "
                       f"({test[0].shape[0]} examples)")
        else:
            yield f"online mistake rate (last pass): {trace['online_error_rate']:.4f}"
            yield from _accuracy_lines(est, X, y, test)

    return _train_and_report(args, lambda X: make_estimator(args), report, scores)


def model_kind(path):
    """``"FourierModel"`` / ``"NystromModel"`` for a FOGD / NOGD file, ``None`` otherwise."""
    try:
        with np.load(path, allow_pickle=False) as data:
            kind = str(data["kind"]) if "kind" in data.files else None
            return kind if kind in ("FourierModel", "NystromModel") else None
    except Exception:   # damaged or not an npz file: the BSGD loader reports it (one line, status 1)
        return None


def load_ogd(path, kind):
    """``(model, n_features)`` of a FOGD / NOGD model file (``kind``: :func:`model_kind`'s)."""
    from ..approx_model import FourierModel, NystromModel

    model = (FourierModel if kind == "FourierModel" else NystromModel).load(path)
    return model, (model.directions.shape[1] if kind == "FourierModel" else model.support_vectors.shape[1])


def predict_ogd(path, kind, read_data, data, output):
    """``refsvm predict`` for a FOGD / NOGD model file."""
    from ._common import _accuracy, _label_text, _report_predictions

    model, d = load_ogd(path, kind)
    X, y = read_data(data, n_features=d, n_features_of=f"the model ({path})")
    pred = model.predict(X, backend="fast")
    if model.task == "regression":
        text = np.array([f"{v:.17g}" for v in pred])
        summary = f"mean squared error: {np.mean((pred - y) ** 2):.6g} ({X.shape[0]} examples)"
    else:
        text = _label_text(pred)
        summary = f"accuracy: {_accuracy(pred, y, text):.4f} ({X.shape[0]} examples)"
    return _report_predictions(output, text, summary)
