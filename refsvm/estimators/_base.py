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

A solver's estimator subclasses :class:`BudgetedClassifierBase` and supplies
``_algorithm_params()`` (validated keyword arguments of its algorithm
function), ``_one_pass(X, y, params, state)`` (one call of the algorithm,
storing model and trace) and, if needed, ``_check_solver_classes`` and
``_initial_state``.
"""

import dataclasses
import numbers
import re
import time
import warnings
from contextlib import contextmanager

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import assert_all_finite, column_or_1d
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .._threads import map_threads
from ..backend import get_module
from ..model import BudgetedModel
from ..refit import hinge_loss, multiclass_hinge_loss
from ..budget import MERGE_SOLVERS
from ..validation import (check_bool, check_gamma, check_int, check_memory, check_merge_eps, check_option,
                          check_positive, check_sparse_rows)
from ._checkpoint import run_epochs
from ._progress import PassProgress, chunk_size, merge_traces

__all__ = ["BudgetedClassifierBase"]


#: The ``refit_bias``, ``refit_rows`` and ``n_jobs`` parameters of the one-vs-rest estimators (BSCA, SBP): their
#: docstrings hold the line ``{refit_and_n_jobs}`` where :func:`shared_doc` puts this text.
REFIT_AND_N_JOBS_DOC = """    refit_bias : bool or "scaled", default=False
        Replace the bias after the last pass by the minimiser of the
        (weighted) hinge loss of the final model on the training data (see
        :class:`refsvm.BudgetedSVC`, also for ``"scaled"``; :mod:`refsvm.refit`).  Multi-class: one offset
        per one-vs-rest machine.
    refit_rows : int, default=10000
        At most this many training rows for ``refit_bias`` (a random
        subsample when there are more).

    n_jobs : int or None, default=None
        Threads for the one-vs-rest machines (multi-class only), joblib's
        convention: ``None`` = 1, ``-1`` = all cores.  The machines are
        independent and the compiled solver releases the GIL for its whole
        pass, so they run in parallel without a copy of ``X``; the model is
        bitwise that of ``n_jobs=1`` (the random draws are made first, in
        class order).  The python backend gains nothing from threads.  With
        ``n_jobs > 1`` a Ctrl-C takes effect when the running machines end
        their pass.  Prediction (``decision_function``, ``predict``, ``score``;
        fast backend) computes its row blocks in as many threads, bitwise
        the values of one thread.
"""


def shared_doc(cls):
    """Class decorator: the docstring's ``{refit_and_n_jobs}`` line replaced by :data:`REFIT_AND_N_JOBS_DOC`."""
    cls.__doc__ = cls.__doc__.replace("    {refit_and_n_jobs}\n", REFIT_AND_N_JOBS_DOC)
    return cls


def kernel_and_maintenance_params(est, maintenance, kernel):
    """The kernel and budget-maintenance keyword arguments of ``bsgd`` and ``bsca``, validated in this order
    (``maintenance`` and ``kernel`` already are): gamma, degree, coef0, merge_eps, merge_solver, projection_ridge."""
    return dict(
        maintenance=maintenance,
        kernel=kernel,
        gamma=check_gamma(est.gamma),
        degree=check_int(est.degree, "degree", 1),
        coef0=float(est.coef0),
        merge_eps=check_merge_eps(est.merge_eps),
        merge_solver=check_option(est.merge_solver, "merge_solver", MERGE_SOLVERS),
        projection_ridge=check_positive(est.projection_ridge, "projection_ridge", allow_zero=True),
    )


@contextmanager
def _naming(name):
    """Re-raise a ValueError whose message does not mention ``name`` with it prepended.

    scikit-learn's input checks say e.g. "Expected 2D array, got 1D array
    instead"; every error of refsvm names the offending parameter.
    """
    try:
        yield
    except ValueError as exc:
        message = str(exc)
        if re.search(rf"\b{re.escape(name)}\b", message):
            raise
        raise ValueError(f"Invalid {name}: {message}") from exc


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



def map_machines(n_jobs, func, items):
    """``[func(item) for item in items]``, run in ``n_jobs`` threads (joblib's convention: None = 1,
    -1 = all cores).  The one-vs-rest machines are independent and each compiled solver releases the
    GIL for its whole pass, so threads run them in parallel without copying ``X``; the results come
    back in the order of ``items``, so the model is bitwise that of ``n_jobs=1``
    (:func:`refsvm._threads.map_threads`)."""
    return map_threads(n_jobs, func, items)

class ConstantModelWarning(UserWarning):
    """A fitted classifier predicts one class on its training data."""


class FeatureScaleWarning(UserWarning):
    """One feature holds most of the variance of ``X``: a Gaussian kernel of one width sees little else."""


def _feature_variances(X, rows=None):
    """Per-column variances of ``X`` in blocks of rows (no temporary copy of ``X``)."""
    if sp.issparse(X):
        mean = np.asarray(X.mean(axis=0)).ravel()
        return np.maximum(np.asarray(X.multiply(X).mean(axis=0)).ravel() - mean * mean, 0.0)
    rows = rows or max(1, 2 ** 20 // max(X.shape[1], 1))
    mean = X.mean(axis=0)
    total = np.zeros(X.shape[1])
    for start in range(0, X.shape[0], rows):
        block = X[start:start + rows] - mean
        total += np.einsum("ij,ij->j", block, block)
    return total / max(X.shape[0], 1)


#: share of the total variance of ``X`` above which one feature triggers :class:`FeatureScaleWarning`
FEATURE_SHARE_WARNING = 0.5
#: rows of ``X`` the feature-scale check reads at most (evenly spaced): a heuristic needs no more
FEATURE_CHECK_ROWS = 2000


def warn_feature_scale(X, estimator_name):
    """Warn (:class:`FeatureScaleWarning`) when one of at least 3 features holds more than half the variance.

    The Gaussian kernel ``exp(-gamma ||x - x'||^2)`` has one width for all features: when one feature's
    spread dwarfs the others', the kernel (and ``gamma="scale"``, which sets the width from the total
    variance) sees mostly that feature.  Raw LIBSVM sets such as cadata, cpusmall, space_ga, spambase,
    svmguide1, shuttle and covtype are like that; the defaults learn on them once X is standardised
    (``benchmarks/bench_defaults.py``).  With two features half the variance is the balanced case,
    hence at least 3."""
    if X.ndim != 2 or X.shape[1] < 3 or X.shape[0] < 2:
        return
    if X.shape[0] > FEATURE_CHECK_ROWS:                   # a fixed, evenly spaced subsample (no random draw)
        X = X[np.linspace(0, X.shape[0] - 1, FEATURE_CHECK_ROWS).astype(np.intp)]
    var = _feature_variances(X)
    total = float(var.sum())
    if not (total > 0.0 and np.isfinite(total)):
        return
    j = int(np.argmax(var))
    share = float(var[j]) / total
    if share > FEATURE_SHARE_WARNING:
        warnings.warn(
            f"{estimator_name}: feature {j} holds {100 * share:.0f}% of the variance of X (standard deviation "
            f"{np.sqrt(var[j]):.3g}; median over the features {np.sqrt(np.median(var)):.3g}), so a Gaussian "
            "kernel of one width sees mostly that feature; standardise X (e.g. "
            "make_pipeline(StandardScaler(), estimator)) unless that is intended", FeatureScaleWarning,
            stacklevel=4)


class BudgetedClassifierBase(ClassifierMixin, BaseEstimator):
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

    def _check_X(self, X, reset):
        """Validated dense C-contiguous float64 X; sets or checks the feature count/names."""
        with _naming("X"):
            X = validate_data(
                self, X, reset=reset, accept_sparse=True, dtype=np.float64, order="C"
            )
        if sp.issparse(X):
            with _naming("X"):
                if getattr(self, "_sparse_rows", False):   # the solver reads CSR rows, sparse SVs (refsvm.sparse)
                    return check_sparse_rows(X)
                check_memory(8 * X.shape[0] * X.shape[1], "X",
                             f"{type(self).__name__} densifies sparse input: the dense copy of X "
                             f"({X.shape[0]} x {X.shape[1]})")
                X = np.ascontiguousarray(X.toarray())
                assert_all_finite(X, input_name="X")
        return X

    def _check_X_y(self, X, y, reset):
        if y is None:
            raise ValueError(
                f"This {type(self).__name__} estimator requires y to be passed, "
                "but the target y is None."
            )
        X = self._check_X(X, reset)
        with _naming("y"):
            y = column_or_1d(y, warn=True)
            assert_all_finite(y, input_name="y")
            check_classification_targets(y)
        if y.shape[0] != X.shape[0]:
            raise ValueError(
                f"X and y have inconsistent numbers of samples: X has {X.shape[0]} rows, "
                f"y has {y.shape[0]} entries"
            )
        return X, y

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

    # ------------------------------------------------------------------ progress

    def _check_verbose(self):
        """``verbose`` (an int >= 0, or a bool as scikit-learn's estimators accept it: False = 0,
        True = 1; estimators without the parameter count as 0)."""
        verbose = getattr(self, "verbose", 0)
        if isinstance(verbose, (bool, np.bool_)):
            return int(verbose)
        return check_int(verbose, "verbose", 0)

    def _run_pass(self, order, run_chunk, label=None, carry=None):
        """Run one pass over ``order`` through ``run_chunk``; report progress if verbose.

        ``run_chunk(sub_order)`` calls the algorithm once on ``sub_order`` (a
        contiguous piece of ``order``), continuing from the model and step
        counter of the previous call, stores the new model, and returns
        ``(trace, n_sv)``: the algorithm's trace of that call (with at least
        ``n_steps`` and ``mistakes``; ``maint_step`` or ``n_maintenance`` for
        the maintenance count) and the number of support vectors after it.

        ``verbose=0``: one call with the whole ``order``.  ``verbose >= 1``:
        chunks of :func:`refsvm.estimators._progress.chunk_size` steps, a progress line
        after each (:class:`refsvm.estimators._progress.PassProgress`), and the chunks'
        traces merged by :func:`refsvm.estimators._progress.merge_traces`.  Returns the
        trace of the pass.  ``label``: what the progress lines call the pass (default: the epoch,
        ``self._progress_label``); e.g. a one-vs-rest machine adds its class.

        ``carry``: the dict of the solver's in-pass state that ``run_chunk`` continues from (lists
        are restored in place).  Handed over, the pass can also stop inside an epoch for a checkpoint
        (``fit(checkpoint=..., checkpoint_every="<k>steps")``: ``self._pass_checkpointer``, a
        :class:`refsvm.estimators._checkpoint._PassCheckpoints`), and a resumed pass starts at the
        position saved there, with the traces of the segments run before.
        """
        verbose = self._check_verbose()
        n = len(order)
        stops = getattr(self, "_pass_checkpointer", None) if carry is not None else None
        if verbose == 0 and stops is None:
            trace, _ = run_chunk(order)
            return trace
        progress = PassProgress(type(self).__name__, label or getattr(self, "_progress_label", "pass"), n,
                                error_label=getattr(self, "_error_label", "online error")) if verbose else None
        size = chunk_size(n, verbose)
        start, traces, offsets = stops.begin(n, carry) if stops is not None else (0, [], [])
        while True:
            stop = min(n, start + size, n if stops is None else stops.next_stop(start))
            trace, n_sv = run_chunk(order[start:stop])
            traces.append(trace)
            offsets.append(start)
            if progress is not None:
                progress.update(trace, n_sv)
            start = stop
            if start >= n:
                break
            if stops is not None:
                stops.after(start, traces, offsets, carry)
        if progress is not None:
            progress.finish()
        return merge_traces(traces, offsets)

    # ------------------------------------------------------------------ weights

    #: Whether the algorithm function takes ``sample_weight`` (set True in subclasses whose
    #: algorithm does; weights are then handed to ``_one_pass`` as ``params["sample_weight"]``).
    _supports_sample_weight = False
    #: the solver reads scipy CSR rows and keeps sparse SVs (refsvm.sparse); otherwise a sparse X is
    #: densified, after a check that the dense copy fits in memory
    _sparse_rows = False

    def _sample_weights(self, X, y, sample_weight, partial):
        """Per-example weights ``sample_weight * class_weight[y]`` (float64), or None for none."""
        class_weight = getattr(self, "class_weight", None)
        if sample_weight is None and class_weight is None:
            return None
        if not self._supports_sample_weight:
            raise ValueError(
                f"{type(self).__name__} does not support sample_weight / class_weight"
            )
        weights = np.ones(X.shape[0])
        if sample_weight is not None:
            with _naming("sample_weight"):
                weights = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                               ensure_non_negative=True).copy()
        if class_weight is not None:
            if isinstance(class_weight, str) and class_weight == "balanced" and partial:
                raise ValueError(
                    "class_weight='balanced' is not supported by partial_fit (one batch does "
                    "not give the class frequencies); pass a dict, e.g. from "
                    "sklearn.utils.class_weight.compute_class_weight on all the labels"
                )
            if not (class_weight == "balanced" if isinstance(class_weight, str)
                    else isinstance(class_weight, dict)):
                raise ValueError(
                    f"class_weight must be None, 'balanced' or a dict {{class: weight}}; "
                    f"got {class_weight!r}"
                )
            if isinstance(class_weight, dict):
                for label, value in class_weight.items():
                    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) \
                            or not np.isfinite(value) or value < 0:
                        raise ValueError(
                            f"class_weight[{label!r}] must be a finite number >= 0; got {value!r}"
                        )
            with _naming("class_weight"):
                per_class = compute_class_weight(class_weight, classes=self.classes_, y=y)
            weights *= per_class[np.searchsorted(self.classes_, y)]
        return weights

    # ------------------------------------------------------------ bias refit

    #: How a multi-class model's offsets are refit: ``"ovr"`` (one binary offset per
    #: one-vs-rest machine) or ``"crammer-singer"`` (the multi-class hinge loss).
    _refit_multiclass = "ovr"

    def _check_refit(self):
        """``(refit_bias, refit_rows)`` validated; ``(False, None)`` without these parameters."""
        if not hasattr(self, "refit_bias"):
            return False, None
        refit = self.refit_bias
        if not (isinstance(refit, str) and refit == "scaled"):
            if isinstance(refit, str):
                raise ValueError(f"refit_bias must be True, False or 'scaled'; got {refit!r}")
            check_bool(refit, "refit_bias")
        return refit, check_int(self.refit_rows, "refit_rows", 1)

    def _refit_subsample(self, n, rows):
        """Sorted indices of ``rows`` of ``n`` examples, or None for all of them.

        Drawn from a generator spawned once per training run from the
        estimator's generator (``random_state``): the visiting orders are not
        changed, and every refit of a run (each ``partial_fit`` call) draws
        from the same seed, so ``fit(epochs=k)`` and ``k`` calls of
        ``partial_fit`` refit on the same rows.
        """
        if n <= rows:
            return None
        if getattr(self, "_refit_seed", None) is None:
            seed_seq = getattr(self._rng.bit_generator, "seed_seq", None)
            self._refit_seed = (seed_seq.spawn(1)[0] if seed_seq is not None
                                else int(self._rng.integers(2 ** 63)))
        return np.sort(np.random.default_rng(self._refit_seed).choice(n, rows, replace=False))

    def _refit_bias_after_training(self, X, y, weights):
        """With ``refit_bias=True``: replace ``bias_`` by the hinge-loss minimiser (:mod:`refsvm.refit`).

        The kernel part of the model is kept; its decision values on the
        training rows (a subsample of ``refit_rows`` when there are more)
        give a one-dimensional convex piecewise-linear problem per offset,
        solved exactly.  Binary: one offset.  Multi-class: one offset per
        one-vs-rest machine (``_refit_multiclass = "ovr"``), or the per-class
        offsets of the Crammer-Singer hinge loss by exact coordinate steps
        (``"crammer-singer"``).  The trace of the last pass gets
        ``refit_bias`` (the chosen offsets), ``refit_bias_before`` (the
        algorithm's), ``refit_hinge_before`` / ``refit_hinge_after`` (weighted
        mean hinge loss on the refit rows; per machine for one-vs-rest),
        ``refit_rows`` and ``refit_seconds``; ``refit_bias="scaled"``: the threshold of the
        jointly optimal scale and offset (:func:`refsvm.refit.scaled_hinge_offset`), with
        ``refit_scale`` and ``refit_scaled_hinge`` (loss of the rescaled model) in the
        trace.  The algorithm's bias stays the
        training state (``partial_fit`` continues from it).  Off: nothing
        changes.
        """
        self.__dict__.pop("_trained_bias", None)
        refit, rows = self._check_refit()
        if not refit:
            return
        start = time.perf_counter()
        index = self._refit_subsample(X.shape[0], rows)
        if index is not None:
            X, y = X[index], y[index]
            weights = None if weights is None else weights[index]
        before = np.array(self.bias_, dtype=np.float64)
        kernel_part = dataclasses.replace(self.model_, bias=np.zeros_like(before))
        F = kernel_part.decision_function(X, backend=self.backend)
        module = get_module("refit", self.backend)
        scaled = isinstance(refit, str)
        extra = {}
        if F.ndim == 1:
            if scaled:
                offset, scale, extra["refit_scaled_hinge"] = module.scaled_hinge_offset(F, y, weights)
                extra["refit_scale"] = scale
            else:
                offset, _ = module.hinge_offset(F, y, weights)
            new = np.array([offset])
            loss_before, after = hinge_loss(F, y, before[0], weights), hinge_loss(F, y, offset, weights)
        elif self._refit_multiclass == "crammer-singer":
            if scaled:
                new, extra["refit_scale"], extra["refit_scaled_hinge"] = module.scaled_crammer_singer_offsets(
                    F, y, before, weights)
            else:
                new, _, _ = module.crammer_singer_offsets(F, y, before, weights)
            loss_before = multiclass_hinge_loss(F, y, before, weights)
            after = multiclass_hinge_loss(F, y, new, weights)
        else:
            c = F.shape[1]
            new, after, loss_before, scales = np.empty(c), np.empty(c), np.empty(c), np.empty(c)
            for r in range(c):
                yr = np.where(y == r, 1, -1)
                if scaled:
                    new[r], scales[r], _ = module.scaled_hinge_offset(F[:, r], yr, weights)
                else:
                    new[r], _ = module.hinge_offset(F[:, r], yr, weights)
                after[r] = hinge_loss(F[:, r], yr, new[r], weights)
                loss_before[r] = hinge_loss(F[:, r], yr, before[r], weights)
            if scaled:
                extra["refit_scale"] = scales
        self._trained_bias = self.bias_
        self._set_model(self.support_vectors_, self.alpha_, new)
        if self.trace_:
            self.trace_[-1].update(refit_bias=new.copy(), refit_bias_before=before,
                                   refit_hinge_before=loss_before, refit_hinge_after=after,
                                   refit_rows=int(X.shape[0]),
                                   refit_seconds=time.perf_counter() - start, **extra)

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

    # ---------------------------------------------------------------- save/load

    def save(self, path):
        """Write the fitted model and every hyper-parameter to ``path`` (``.npz``).

        The file holds the model (support vectors, coefficients, bias, kernel
        parameters with the fitted ``gamma_``, classes), the estimator's class
        name, ``get_params()`` as a JSON string (no pickle) and the version of
        refsvm (see :meth:`refsvm.model.BudgetedModel.save`).  A
        ``random_state`` that is a ``numpy.random.Generator`` cannot be
        stored: it is saved as ``None`` (with a warning).  The training state
        (``t_``, the generator) is not stored.

        Parameters
        ----------
        path : str or path-like
            Destination file (numpy appends ``.npz`` when missing).
        """
        check_is_fitted(self)
        params = self.get_params(deep=False)
        state = params.get("random_state")
        if state is not None and not isinstance(state, (numbers.Integral, np.integer)):
            warnings.warn(
                f"random_state={state!r} cannot be stored in a model file; it is saved as None",
                UserWarning, stacklevel=2,
            )
            params["random_state"] = None
        dataclasses.replace(self.model_, params=params, estimator=type(self).__name__).save(path)

    @classmethod
    def load(cls, path, backend=None):
        """Make a fitted estimator from a model file written by :meth:`save`.

        The estimator predicts exactly as the saved one and has the saved
        hyper-parameters, checked as on construction (the estimator's own
        validation runs: an invalid value in the file raises ValueError
        naming the parameter and the file).  :meth:`fit` on it trains with
        these parameters.  Files without parameters (written by
        :meth:`refsvm.model.BudgetedModel.save` or by refsvm before 0.1.0
        recorded them) give the defaults, with the model's kernel parameters
        (adjusted by the subclass's ``_params_from_model``).  ``t_`` is
        ``None``: :meth:`partial_fit` refuses to continue a loaded model
        (:meth:`fit` trains a new one).  Class labels of ``object`` dtype
        come back as strings.

        Parameters
        ----------
        path : str or path-like
            A ``.npz`` file written by :meth:`save` or
            :meth:`refsvm.model.BudgetedModel.save`.
        backend : {"fast", "python"} or None, default=None
            Backend of the returned estimator; ``None`` keeps the saved one
            (``"fast"`` for files without parameters).

        Returns
        -------
        estimator
            A fitted estimator.
        """
        model = BudgetedModel.load(path)
        if model.params is None:
            params = dict(cls._params_from_model(model), backend=backend or "fast")
        else:
            params = cls._checked_saved_params(model, path)
            if backend is not None:
                params["backend"] = backend
        est = cls(**params)
        try:
            est._algorithm_params()  # the estimator's own checks, as in fit
            est._check_refit()
        except ValueError as exc:
            raise ValueError(f"{path}: invalid parameter in the model file: {exc}") from exc
        est.classes_ = np.asarray(model.classes)
        est.n_features_in_ = model.support_vectors.shape[1]
        est.model_ = model
        est.support_vectors_ = model.support_vectors
        est.alpha_ = model.coef
        est.bias_ = model.bias
        est.gamma_ = float(model.gamma)
        est.t_ = None
        est.trace_ = []
        return est

    @classmethod
    def _checked_saved_params(cls, model, path):
        """The saved ``get_params()``: same estimator class, known names, kernel as the model's."""
        if model.estimator != cls.__name__:
            raise ValueError(
                f"{path}: the file holds a {model.estimator} model; load it with "
                f"{model.estimator}.load, not {cls.__name__}.load"
            )
        params = dict(model.params)
        unknown = sorted(set(params) - set(cls._get_param_names()))
        if unknown:
            raise ValueError(
                f"{path}: parameters {unknown} of the file are unknown to {cls.__name__} of this "
                f"refsvm (file written by refsvm {model.version})"
            )
        for name in ("kernel", "degree", "coef0"):
            if name in params and params[name] != getattr(model, name):
                raise ValueError(
                    f"{path}: parameter {name}={params[name]!r} disagrees with the model's "
                    f"{name}={getattr(model, name)!r}"
                )
        gamma = params.get("gamma")
        if gamma is not None and not isinstance(gamma, str) and gamma != model.gamma:
            raise ValueError(
                f"{path}: parameter gamma={gamma!r} disagrees with the model's gamma={model.gamma!r}"
            )
        return params

    @classmethod
    def _params_from_model(cls, model):
        """Constructor arguments recovered from a loaded model (its kernel parameters)."""
        return dict(kernel=model.kernel, gamma=model.gamma, degree=model.degree, coef0=model.coef0)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
