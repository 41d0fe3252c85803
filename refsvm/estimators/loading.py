"""``refsvm.load(path)``: the fitted estimator any refsvm model file holds."""

from ..io.model_file import KINDS, ModelFileError, file_kind, reading

__all__ = ["load"]


def load(path, backend=None):
    """The fitted estimator a model file holds (any kind refsvm writes), ready to predict.

    Reads the file's header (``kind``, ``estimator``) and calls that
    estimator's ``load``: ``BudgetedSVC``, ``BSCAClassifier``,
    ``SBPClassifier``, ``OnlineKernelClassifier``, ``FOGDClassifier`` /
    ``FOGDRegressor``, ``NOGDClassifier`` / ``NOGDRegressor``.  A file written
    by a model's own ``save`` (no estimator named) gives the default estimator
    of its kind (a regression model: the regressor).  ``backend`` as in the
    estimators' ``load``.  A model trained on standardised features
    (``refsvm train --standardize``) comes as a ``Pipeline`` of a fitted
    ``StandardScaler`` (the file's statistics) and the estimator, so it
    predicts raw features as ``refsvm predict`` does.

    Raises
    ------
    FileNotFoundError, ModelFileError
        As the estimators' ``load``; the message names the file.
    """
    with reading(path, _ALL_VERSIONS) as data:
        kind = file_kind(data)
        name = str(data["estimator"]) if "estimator" in data else None
        task = str(data["task"]) if "task" in data else None
    if kind not in KINDS:
        raise ModelFileError(f"{path}: unknown model kind {kind!r} (known: {', '.join(KINDS)})")
    if name is None:
        name = KINDS[kind]
        if task == "regression":
            name = name.replace("Classifier", "Regressor")
    cls = _estimator_class(name)
    if cls is None:
        raise ModelFileError(
            f"{path}: the file's 'estimator' entry names {name!r}, which is not an estimator class this "
            f"refsvm can load (known: {', '.join(_loadable_names())})")
    est = cls.load(path, backend=backend)
    return _with_standardization(path, est)


def _with_standardization(path, est):
    """``est``, or for a model trained on standardised features (``refsvm train --standardize``) a
    scikit-learn ``Pipeline`` of a ``StandardScaler`` holding the file's statistics and ``est``."""
    from ..io.model_file import read_standardization

    scaling = read_standardization(path)
    if scaling is None:
        return est
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler()
    scaler.mean_, scaler.scale_ = scaling
    scaler.var_ = scaling[1] ** 2
    scaler.n_features_in_ = scaling[0].shape[0]
    scaler.n_samples_seen_ = 0
    return make_pipeline(scaler, est)


def _loadable_names():
    """The estimator classes a file's ``estimator`` entry may name: the public, concrete classes of
    :mod:`refsvm.estimators` with their own ``load`` (not the abstract base, not this loader)."""
    from .. import estimators

    names = []
    for name in estimators.__all__:
        cls = getattr(estimators, name, None)
        if isinstance(cls, type) and not name.endswith("Base") and callable(getattr(cls, "load", None)):
            names.append(name)
    return names


def _estimator_class(name):
    """The class named ``name`` if a model file may name it (:func:`_loadable_names`), else None.

    Only class names are looked up: an entry naming a module or a function (e.g. ``"loading"``, this
    loader's own module, whose ``load`` is :func:`load` and would call itself without end) is refused.
    """
    from .. import estimators

    return getattr(estimators, name) if name in _loadable_names() else None


#: every format_version any model kind uses (each kind's load checks its own)
_ALL_VERSIONS = (1, 2)
