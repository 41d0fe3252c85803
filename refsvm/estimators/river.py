"""River adapters: every refsvm learner with ``partial_fit`` as a river classifier or regressor.

``pip install "refsvm[river]"``, then::

    from river import evaluate, metrics, preprocessing
    from refsvm import BudgetedSVC
    from refsvm.estimators.river import RiverClassifier

    model = preprocessing.StandardScaler() | RiverClassifier(
        BudgetedSVC(budget=100, gamma=0.1, lam=1e-3), classes=[False, True])
    evaluate.progressive_val_score(stream, model, metrics.Accuracy())

:class:`RiverClassifier` wraps :class:`~refsvm.BudgetedSVC`,
:class:`~refsvm.BSCAClassifier`, :class:`~refsvm.OnlineKernelClassifier`
(the eight baselines), :class:`~refsvm.FOGDClassifier` and
:class:`~refsvm.NOGDClassifier`; :class:`RiverRegressor` wraps
:class:`~refsvm.FOGDRegressor`, :class:`~refsvm.NOGDRegressor` and
:class:`~refsvm.OnlineKernelRegressor` (the seven regression baselines).
(:class:`~refsvm.SBPClassifier` is a batch method without ``partial_fit``.)

What a step is.  ``learn_one(x, y)`` is one call of the estimator's own
``partial_fit`` on a one-row matrix: the compiled (or reference) step of the
algorithm, exactly as ``partial_fit`` runs it, with no per-example Python
re-implementation.  So a stream fed through ``learn_one`` gives the model
that ``partial_fit`` called once per example, in the same order, gives
(tested).  The price is ``partial_fit``'s per-call overhead (input checks and
the model's bookkeeping), about a millisecond per example, three orders of
magnitude above the algorithm's own microsecond step:
``benchmarks/bench_river.py`` measures it (``benchmarks/results/bench_river.txt``
gives the numbers and the machine).
For throughput, call ``partial_fit`` on blocks.

Conventions (chosen where river and scikit-learn differ):

* **classes** are given up front, as for river's own scikit-learn adapter
  (``river.compat.SKL2RiverClassifier``): the models' shapes (one column
  per class, one machine per class) are fixed by the classes.  Until the
  first ``learn_one``, ``predict_one`` answers ``classes[0]`` (regressor: 0).
* **features**: the feature names of the first learned example fix the
  columns (in sorted order, so that the dict's order never matters).  A feature missing from a later ``x`` is 0 (the sparse reading
  of LIBSVM data), so disappearing features work; a feature never seen
  before raises ``ValueError`` naming it (the models' support vectors have a
  fixed width).  river's ``check_emerging_features`` is therefore skipped,
  as river skips it for its own scikit-learn adapter.
* **gamma** must be a number: ``gamma="scale"`` / ``"auto"`` would be
  computed from the first example alone.  Standardise the features (e.g.
  ``river.preprocessing.StandardScaler``) and choose gamma, e.g.
  ``1 / n_features``.
* **no probabilities**: ``predict_proba_one`` raises ``NotImplementedError``
  (the refsvm estimators have no ``predict_proba``; river's checks allow it).
* **memory**: the wrapped estimator's ``trace_`` keeps only the last call's
  trace, so the adapter's memory is the model's (bounded by the budget).  The
  Perceptron and kernel OGD baselines have no budget and keep every mistake
  (that is their algorithm): river's bounded-memory check is skipped for them.
"""

import numbers

import numpy as np
from river import base
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

__all__ = ["RiverClassifier", "RiverRegressor"]

#: OnlineKernelClassifier / OnlineKernelRegressor algorithms without a budget: memory grows with the
#: mistakes (the updates) by definition.
_UNBUDGETED = ("perceptron", "ogd", "norma")


def _canonical_order(names):
    """Feature names in an order that does not depend on the dict's order (FOGD's random directions
    are drawn column by column, so the columns must not follow the order a stream lists them in)."""
    names = list(names)
    try:
        return sorted(names)
    except TypeError:                      # names of mixed types
        return sorted(names, key=lambda k: (type(k).__name__, repr(k)))


class _RiverAdapter:
    """Shared part: feature columns, the one-row matrix, partial_fit, bounded trace."""

    def __init__(self, estimator):
        self.estimator = estimator
        self._features = None      # name -> column, fixed by the first learned example

    def _check_estimator(self):
        if not hasattr(self.estimator, "partial_fit"):
            raise ValueError(f"estimator: {type(self.estimator).__name__} has no partial_fit; "
                             "only online learners can be river models")
        gamma = getattr(self.estimator, "gamma", None)
        if gamma is not None and not isinstance(gamma, numbers.Real):
            raise ValueError(f"estimator: gamma={gamma!r} would be computed from the first example alone; "
                             "give a number (standardise the features and use e.g. 1 / n_features)")

    def _row(self, x, learning):
        if self._features is None:
            if not learning:
                return None
            self._features = {name: j for j, name in enumerate(_canonical_order(x))}
        unknown = [name for name in x if name not in self._features]
        if unknown:
            raise ValueError(f"x: feature(s) {unknown!r} were not in the first learned example; the columns of "
                             f"this model are {list(self._features)!r}")
        row = np.zeros((1, len(self._features)))
        for name, value in x.items():
            row[0, self._features[name]] = value
        return row

    def _fitted(self):
        try:
            check_is_fitted(self.estimator)
        except NotFittedError:
            return False
        return True

    def _learn(self, x, y, **kwargs):
        self._check_estimator()
        self.estimator.partial_fit(self._row(x, learning=True), [y], **kwargs)
        trace = getattr(self.estimator, "trace_", None)
        if isinstance(trace, list) and len(trace) > 1:
            del trace[:-1]   # keep the last call's trace only (bounded memory)

    def _unit_test_skips(self):
        skips = {"check_emerging_features"}
        if getattr(self.estimator, "algorithm", None) in _UNBUDGETED:
            skips.add("check_bounded_memory_growth")
        return skips


class RiverClassifier(_RiverAdapter, base.Classifier):
    """A refsvm classifier with ``partial_fit`` as a river classifier.

    Parameters
    ----------
    estimator
        An unfitted refsvm classifier with ``partial_fit`` and a numeric
        ``gamma`` (:class:`~refsvm.BudgetedSVC`, :class:`~refsvm.BSCAClassifier`,
        :class:`~refsvm.OnlineKernelClassifier`, :class:`~refsvm.FOGDClassifier`,
        :class:`~refsvm.NOGDClassifier`).
    classes
        Every label that can occur (at least two).

    Examples
    --------
    >>> from river import datasets, evaluate, metrics, preprocessing
    >>> from refsvm import BudgetedSVC
    >>> model = preprocessing.StandardScaler() | RiverClassifier(
    ...     BudgetedSVC(budget=50, gamma=0.1, lam=1e-3, random_state=0), classes=[False, True])
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.Accuracy())
    Accuracy: ...
    """

    def __init__(self, estimator, classes):
        super().__init__(estimator)
        self.classes = classes

    @property
    def _multiclass(self):
        return len(self.classes) > 2

    def learn_one(self, x, y):
        self._learn(x, y, classes=list(self.classes))

    def predict_one(self, x, **kwargs):
        if not self._fitted():
            return self.classes[0]
        label = self.estimator.predict(self._row(x, learning=False))[0]
        for c in self.classes:            # the caller's object (e.g. bool, str), not a numpy scalar
            if c == label:
                return c
        return label

    def predict_proba_one(self, x, **kwargs):
        raise NotImplementedError("refsvm's kernel machines give no probabilities (see the estimators' Notes)")

    @classmethod
    def _unit_test_params(cls):
        from .bsgd import BudgetedSVC

        yield {"estimator": BudgetedSVC(budget=20, gamma=0.1, lam=1e-3, random_state=0), "classes": [False, True]}


class RiverRegressor(_RiverAdapter, base.Regressor):
    """A refsvm regressor with ``partial_fit`` as a river regressor.

    Parameters
    ----------
    estimator
        An unfitted :class:`~refsvm.FOGDRegressor`, :class:`~refsvm.NOGDRegressor` or
        :class:`~refsvm.OnlineKernelRegressor` (every regression baseline of Lu et al. 2016) with a
        numeric ``gamma``.

    Examples
    --------
    >>> from river import datasets, evaluate, metrics, preprocessing
    >>> from refsvm import NOGDRegressor
    >>> model = preprocessing.StandardScaler() | RiverRegressor(NOGDRegressor(budget=50, gamma=0.1, random_state=0))
    >>> evaluate.progressive_val_score(datasets.TrumpApproval(), model, metrics.MAE())
    MAE: ...
    """

    def __init__(self, estimator):
        super().__init__(estimator)

    def learn_one(self, x, y):
        self._learn(x, float(y))

    def predict_one(self, x, **kwargs):
        if not self._fitted():
            return 0.0
        return float(self.estimator.predict(self._row(x, learning=False))[0])

    @classmethod
    def _unit_test_params(cls):
        from .ogd import NOGDRegressor

        yield {"estimator": NOGDRegressor(budget=20, gamma=0.1, random_state=0)}
