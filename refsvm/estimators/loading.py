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
    estimators' ``load``.

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
    from .. import estimators

    cls = getattr(estimators, name, None)
    if cls is None or not hasattr(cls, "load"):
        raise ModelFileError(f"{path}: the file names the estimator {name!r}, which this refsvm does not have")
    return cls.load(path, backend=backend)


#: every format_version any model kind uses (each kind's load checks its own)
_ALL_VERSIONS = (1, 2)
