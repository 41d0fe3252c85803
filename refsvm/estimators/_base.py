"""Shared machinery of refsvm's classifiers (one place for every solver).

Every classifier of refsvm returns the same kind of model, a kernel expansion
over support vectors (:class:`refsvm.model.BudgetedModel`), and shares with
the others:

* input validation (``X``, ``y``, ``classes``) with errors naming the
  parameter (:func:`_naming`), sparse input kept as canonical CSR (``_sparse_rows``);
* the mapping of user labels to the algorithms' labels ({-1, +1} for binary
  problems, 0..c-1 for multi-class) and back;
* the random generator made from ``random_state`` (the visiting order is drawn
  here, never inside an algorithm);
* ``fit`` (``epochs`` passes) and ``partial_fit`` (one pass, continuing the
  model, the step counter ``t_`` and the generator);
* prediction, decision values, save and load (with every hyper-parameter,
  the class name and the library version);
* ``gamma="scale"`` / ``"auto"`` resolved into ``gamma_`` (:meth:`_resolve_gamma`);
* progress lines for ``verbose >= 1`` (:meth:`_run_pass`, :mod:`refsvm.estimators._progress`);
* ``sample_weight`` / ``class_weight`` (:meth:`_sample_weights`) for algorithms
  that take weights (``_supports_sample_weight = True``);
* ``refit_bias`` / ``refit_rows`` (estimators that have these parameters): the
  bias replaced after the last pass by the hinge-loss minimiser
  (:meth:`_refit_bias_after_training`, :mod:`refsvm.refit`).

See "How a new estimator gets these features" in DESIGN.md.

Where the parts live: this module holds ``fit`` / ``partial_fit``, labels, ``gamma_`` and
prediction; the other parts are bases of :class:`BudgetedClassifierBase`, one module each:
checks of ``X``, ``y`` and the weights (:mod:`refsvm.estimators._inputs`), the pass in chunks
(:mod:`refsvm.estimators._passes`), the bias refit (:mod:`refsvm.estimators._bias_refit`) and
save / load (:mod:`refsvm.estimators._saving`).  The feature-scale warning
(:mod:`refsvm.estimators._feature_scale`) and the pieces the solver estimators share
(:mod:`refsvm.estimators._shared`) are importable from here too.

A solver's estimator subclasses :class:`BudgetedClassifierBase` and supplies
``_algorithm_params()`` (validated keyword arguments of its algorithm
function), ``_one_pass(X, y, params, state)`` (one call of the algorithm,
storing model and trace) and, if needed, ``_check_solver_classes`` and
``_initial_state``.
"""

import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import column_or_1d
from sklearn.utils.validation import check_is_fitted

from ..model import BudgetedModel
from ..validation import check_gamma
from ._bias_refit import BiasRefit
from ._checkpoint import run_epochs
from ._feature_scale import (FEATURE_CHECK_ROWS, FEATURE_SHARE_WARNING, FeatureScaleWarning,  # noqa: F401
                             _feature_variances, warn_feature_scale)
from ._inputs import InputChecks, _naming
from ._passes import PassRunner
from ._saving import SaveLoad
from ._shared import REFIT_AND_N_JOBS_DOC, kernel_and_maintenance_params, map_machines, shared_doc  # noqa: F401

__all__ = ["BudgetedClassifierBase"]


#: ``gamma="scale"`` on sparse X: up to this dense size the variance is computed on a temporary dense
#: copy, so it is bitwise the dense input's (the same model from CSR and dense input); wider data:
#: ``mean(x^2) - mean(x)^2`` from the nonzeros, equal to rounding
SPARSE_VARIANCE_DENSE_BYTES = 2 ** 28


def _variance(X, rows=None):
    """``X.var()`` (all entries) without a temporary copy of ``X``: blocks of rows (a sparse ``X``:
    ``mean(x^2) - mean(x)^2`` over all entries, as scikit-learn's ``SVC``)."""
    if sp.issparse(X):
        size = X.shape[0] * X.shape[1]
        if 8 * size <= SPARSE_VARIANCE_DENSE_BYTES:      # the dense number, bitwise (a temporary copy)
            return _variance(np.ascontiguousarray(X.toarray()), rows)
        mean = float(X.sum()) / size                      # wider: from the nonzeros (equal to rounding)
        return max(float(np.dot(X.data, X.data)) / size - mean * mean, 0.0)
    if X.size == 0:
        return 0.0
    rows = rows or max(1, 2 ** 20 // max(X.shape[1], 1))
    mean = float(X.mean())
    total = 0.0
    for start in range(0, X.shape[0], rows):
        block = X[start:start + rows] - mean
        total += float(np.einsum("ij,ij->", block, block))
    return total / X.size


class ConstantModelWarning(UserWarning):
    """A fitted classifier predicts one class on its training data."""



class BudgetedClassifierBase(InputChecks, PassRunner, BiasRefit, SaveLoad, ClassifierMixin, BaseEstimator):
    """Base class of the classifiers whose model is a :class:`~refsvm.model.BudgetedModel`.

    Not an estimator by itself: subclasses define ``__init__`` (with at least
    ``kernel``, ``gamma``, ``degree``, ``coef0``, ``epochs``, ``backend`` and
    ``random_state``), ``_algorithm_params`` and ``_one_pass``.
    """

    # ------------------------------------------------------------ subclass API

    def _algorithm_params(self):  # pragma: no cover - abstract
        """Validate the hyper-parameters; return the keyword arguments of the algorithm."""
        raise NotImplementedError

    def _one_pass(self, X, y, params, state):  # pragma: no cover - abstract
        """Run the algorithm once over ``(X, y)``; store model and trace; return the new state."""
        raise NotImplementedError

    def _check_solver_classes(self, params, classes):
        """Refuse class sets the solver cannot handle (default: all are fine)."""

    def _initial_state(self):
        """The state handed to the first ``_one_pass`` (default: empty model)."""
        return (None, None, None)

    def _current_state(self):
        """The state that continues the fitted model (``partial_fit``; the bias the
        algorithm returned, not a refit one)."""
        return (self.support_vectors_, self.alpha_, getattr(self, "_trained_bias", self.bias_))

    # ------------------------------------------------------------------ checks

    def _make_rng(self):
        state = self.random_state
        if state is None or isinstance(state, np.random.Generator) or (
            isinstance(state, (int, np.integer)) and not isinstance(state, (bool, np.bool_))
        ):
            try:
                return np.random.default_rng(state)
            except ValueError as exc:  # negative seeds
                raise ValueError(f"random_state: {exc}") from exc
        raise ValueError(
            "random_state must be None, a non-negative int or a numpy.random.Generator; "
            f"got {state!r}"
        )

    def _start_training(self):
        """A fresh start (fit, first partial_fit): the generator from random_state, t_ = 0,
        an empty trace_; returns the solver's initial state."""
        self._rng = self._make_rng()
        self.__dict__.pop("_refit_seed", None)
        self.t_ = 0
        self.trace_ = []
        return self._initial_state()

    # ----------------------------------------------------------------- training

    def fit(self, X, y, sample_weight=None, checkpoint=None, checkpoint_every="epoch", resume=False):
        """Train from scratch: ``epochs`` passes over ``(X, y)`` in random order.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training examples (sparse input is read as CSR, never densified).
        y : array-like of shape (n_samples,)
            Class labels (at least two distinct values; any sortable type).
        sample_weight : array-like of shape (n_samples,), default=None
            Weights (>= 0) of the examples, multiplied by the ``class_weight``
            of their class: a weight scales the example's loss, hence its
            step (see the estimator's ``class_weight``).  ``None``: all 1.
        checkpoint : str or path-like, default=None
            Write the training state to this file at epoch boundaries
            (atomically; :mod:`refsvm.estimators._checkpoint`).
        checkpoint_every : "epoch", int or str, default="epoch"
            Every epoch, every k-th epoch, or ``"<s>s"``: at the first epoch
            boundary ``s`` seconds after the previous checkpoint.
        resume : bool, default=False
            Continue from the ``checkpoint`` file: bit for bit the model of
            the uninterrupted run; a checkpoint of other data or parameters
            is refused, naming which.

        Returns
        -------
        self : estimator
            The fitted estimator.
        """
        params = self._algorithm_params()
        self._check_verbose()
        self._check_refit()
        X, y = self._check_X_y(X, y, reset=True)
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(
                f"y has only one class ({classes[0]!r}); a classifier needs at least 2 classes"
            )
        self._check_solver_classes(params, classes)
        self.classes_ = classes
        self.gamma_ = self._resolve_gamma(X)
        params = self._with_fitted_params(params)
        weights = self._sample_weights(X, y, sample_weight, partial=False)
        if weights is not None:
            params["sample_weight"] = weights
        y_internal = self._internal_labels(y)
        state = self._start_training()
        run_epochs(self, X, y_internal, params, state, checkpoint, checkpoint_every, resume)
        self._refit_bias_after_training(X, y_internal, weights)
        self._warn_if_constant(X)
        return self

    #: rows of the training data ``fit`` predicts to detect a model that learned a single class
    CONSTANT_CHECK_ROWS = 2000
    #: of those, the rows predicted first: the rest only when these all get one class
    CONSTANT_CHECK_FIRST = 200

    def _warn_if_constant(self, X):
        """Warn when the fitted classifier predicts one class on (a subsample of) its training data.

        A model that predicts the majority class everywhere reaches the majority's share as its
        accuracy and looks like a result; the check costs one prediction of at most
        :attr:`CONSTANT_CHECK_ROWS` rows (a fixed, evenly spaced subsample: no random draw), of which
        the first :attr:`CONSTANT_CHECK_FIRST` are predicted first (two classes there settle it)."""
        n = X.shape[0]
        rows = X if n <= self.CONSTANT_CHECK_ROWS else X[np.linspace(0, n - 1, self.CONSTANT_CHECK_ROWS).astype(int)]
        head = min(rows.shape[0], self.CONSTANT_CHECK_FIRST)
        pred = self.predict(rows[:head])                 # two classes among the first rows settle it
        if np.unique(pred).size == 1 and head < rows.shape[0]:
            pred = np.concatenate([pred, self.predict(rows[head:])])
        if np.unique(pred).size == 1 and self.classes_.size > 1:
            warnings.warn(
                f"{type(self).__name__} predicts the single class {pred[0]!r} on its training data: the model "
                "has learned nothing but a constant (check gamma, the step size / C, the number of epochs"
                + self._constant_refit_advice() + ")", ConstantModelWarning, stacklevel=3)

    def _constant_refit_advice(self):
        """The constant-model warning's word on the bias refit: offered only by estimators that have
        ``refit_bias`` and did not use it (the bias alone: the scaled refit picks a constant when the
        ranking is no better than one); after a refit, that the ranking itself is the problem."""
        if not hasattr(self, "refit_bias"):
            return ""
        if self.refit_bias is False:
            return ", or refit the threshold after training with refit_bias (the bias alone)"
        return "; the refit threshold refit_bias chose is constant: the ranking learned is no better"

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One pass over ``(X, y)`` in random order, continuing the current model.

        The step counter ``t_`` and the random generator continue from the
        previous call (or from :meth:`fit`), so that ``k`` calls of
        ``partial_fit`` on the same data give the same model as ``fit`` with
        ``epochs=k`` (and the same ``random_state``).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training examples (sparse input is read as CSR, never densified).
        y : array-like of shape (n_samples,)
            Class labels, all of them in ``classes``.
        classes : array-like of shape (n_classes,), default=None
            All the classes that can occur.  Required on the first call (the
            number of classes fixes the model's shape); optional afterwards,
            where it must agree with ``classes_``.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the examples (see :meth:`fit`); ``class_weight="balanced"``
            is refused here (the class frequencies of one batch are not those
            of the data: pass a dict).

        Returns
        -------
        self : estimator
            The updated estimator.
        """
        params = self._algorithm_params()
        self._check_verbose()
        self._check_refit()
        first = not hasattr(self, "model_")  # (a failed fit may have set classes_ only)
        if first:
            if classes is None:
                raise ValueError(
                    "classes must be passed on the first call to partial_fit "
                    "(all the labels that can occur)"
                )
            with _naming("classes"):
                classes = np.unique(column_or_1d(classes))
            if classes.size < 2:
                raise ValueError(f"classes must hold at least 2 labels; got {classes!r}")
        else:
            if self.t_ is None:
                raise ValueError(
                    f"this estimator was made by {type(self).__name__}.load; the file holds the model "
                    "but not the training state (step counter t_), so partial_fit cannot "
                    "continue it. Call fit instead."
                )
            if classes is not None and not np.array_equal(np.unique(classes), self.classes_):
                raise ValueError(
                    f"classes={classes!r} differs from classes_={self.classes_!r} "
                    "of the previous calls"
                )
            classes = self.classes_
        self._check_solver_classes(params, classes)
        X, y = self._check_X_y(X, y, reset=first)
        unknown = ~np.isin(y, classes)
        if unknown.any():
            raise ValueError(
                f"y contains labels not in classes: {np.unique(y[unknown])!r} "
                f"(classes={classes!r})"
            )
        if first:
            self.classes_ = classes
            self.gamma_ = self._resolve_gamma(X)
            state = self._start_training()
        else:
            state = self._current_state()
        params = self._with_fitted_params(params)
        self._progress_label = f"partial_fit (pass {len(self.trace_) + 1})"
        weights = self._sample_weights(X, y, sample_weight, partial=True)
        if weights is not None:
            params["sample_weight"] = weights
        y_internal = self._internal_labels(y)
        self._one_pass(X, y_internal, params, state)
        self._refit_bias_after_training(X, y_internal, weights)
        return self

    # ------------------------------------------------------------ kernel width

    def _resolve_gamma(self, X):
        """The numeric kernel width ``gamma_`` for the training matrix ``X`` (dense).

        ``gamma="scale"``: ``1 / (n_features * X.var())`` (``X.var()`` over
        all entries of the training matrix (zeros of a sparse one included), as scikit-learn's
        ``SVC``; 1.0 when ``X.var() == 0``); ``"auto"``: ``1 / n_features``;
        a number: itself.  Resolved once, by :meth:`fit` or the first
        :meth:`partial_fit`; later ``partial_fit`` calls keep it.
        """
        gamma = check_gamma(self.gamma)
        if getattr(self, "kernel", "rbf") == "rbf":
            warn_feature_scale(X, type(self).__name__)
        if gamma == "scale":
            var = _variance(X)
            value = 1.0 / (X.shape[1] * var) if var != 0.0 else 1.0
            if not (np.isfinite(value) and value > 0.0):
                raise ValueError(
                    f"gamma='scale' could not be computed from this data: 1 / (n_features * X.var()) = "
                    f"1 / ({X.shape[1]} * {var!r}) = {value!r} (the feature values are too large for "
                    "float64: scale the features, e.g. with sklearn.preprocessing.StandardScaler, or give "
                    "gamma a number > 0)")
            return value
        if gamma == "auto":
            return 1.0 / X.shape[1]
        return gamma

    def _with_fitted_params(self, params):
        """The algorithm's keyword arguments with the fitted values (``gamma`` -> ``gamma_``)."""
        params = dict(params)
        if "gamma" in params:
            params["gamma"] = self.gamma_
        return params

    # ----------------------------------------------------------------- labels

    def _internal_labels(self, y):
        """Labels for the algorithm: {-1, +1} (binary) or 0..c-1 (multi-class), int64."""
        index = np.searchsorted(self.classes_, y).astype(np.int64)
        if self.classes_.size == 2:
            return np.where(index == 1, 1, -1).astype(np.int64)
        return index


    def _set_model(self, sv, alpha, bias):
        self.model_ = BudgetedModel(
            support_vectors=sv, coef=alpha, kernel=self.kernel, gamma=float(self.gamma_),
            degree=int(self.degree), coef0=float(self.coef0), bias=bias, classes=self.classes_,
        )
        self.support_vectors_ = self.model_.support_vectors
        self.alpha_ = self.model_.coef
        self.bias_ = self.model_.bias

    # --------------------------------------------------------------- prediction

    def decision_function(self, X):
        """Values of the decision function(s) for the rows of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Examples (dense or sparse).

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Binary: ``f(x)``; a positive value predicts ``classes_[1]``.
            Multi-class: ``f^(i)(x)`` for every class ``classes_[i]``.
        """
        check_is_fitted(self)
        X = self._check_X(X, reset=False)
        n_jobs = getattr(self, "n_jobs", None)          # estimators with one-vs-rest machines (BudgetedModel)
        if n_jobs is None:
            return self.model_.decision_function(X, backend=self.backend)
        return self.model_.decision_function(X, backend=self.backend, n_jobs=n_jobs)

    def predict(self, X):
        """Predicted class labels (from ``classes_``) for the rows of ``X``.

        Binary: ``classes_[1]`` where the decision value is > 0, ``classes_[0]``
        otherwise (an estimator with ``zero_prediction="positive"``: ``>= 0``,
        i.e. ``sign(0) = +1``).  Multi-class: the class with the largest
        decision value (the first one on ties).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The rows to label, dense or sparse (as for :meth:`decision_function`).

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        F = self.decision_function(X)
        if F.ndim == 1:
            positive = F >= 0 if getattr(self, "zero_prediction", "mistake") == "positive" else F > 0
            return self.classes_[positive.astype(np.intp)]
        return self.classes_[np.argmax(F, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
