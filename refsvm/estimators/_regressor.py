"""The regression layer of the estimators: :class:`_RegressorBase`, the regression counterpart of
:class:`refsvm.estimators._base.BudgetedClassifierBase` (its input checks, generator, passes and
``gamma`` resolution; real-valued targets, ``fit`` / ``partial_fit`` / ``predict``), shared by the
FOGD / NOGD regressors (:mod:`refsvm.estimators.ogd`) and :class:`refsvm.OnlineKernelRegressor`."""

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils import assert_all_finite, column_or_1d
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from ._base import BudgetedClassifierBase, _naming
from ._checkpoint import run_epochs


class _RegressorBase(RegressorMixin, BaseEstimator):
    """Regression counterpart of :class:`BudgetedClassifierBase`, reusing its input checks and rng."""

    _make_rng = BudgetedClassifierBase._make_rng
    _run_pass = BudgetedClassifierBase._run_pass
    _check_verbose = BudgetedClassifierBase._check_verbose
    _check_X = BudgetedClassifierBase._check_X
    _resolve_gamma = BudgetedClassifierBase._resolve_gamma
    _with_fitted_params = BudgetedClassifierBase._with_fitted_params

    def _task(self):
        return "regression"

    def _check_X_y(self, X, y, reset):
        if y is None:
            raise ValueError(f"This {type(self).__name__} estimator requires y to be passed, "
                             "but the target y is None.")
        X = self._check_X(X, reset)
        with _naming("y"):
            y = np.asarray(column_or_1d(y, warn=True), dtype=np.float64)
            assert_all_finite(y, input_name="y")
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X and y have inconsistent numbers of samples: X has {X.shape[0]} rows, "
                             f"y has {y.shape[0]} entries")
        return X, y

    def _weights(self, X, sample_weight):
        """Validated ``sample_weight`` (float64, >= 0) or None."""
        if sample_weight is None:
            return None
        with _naming("sample_weight"):
            return _check_sample_weight(sample_weight, X, dtype=np.float64,
                                        ensure_non_negative=True).copy()

    def fit(self, X, y, sample_weight=None, checkpoint=None, checkpoint_every="epoch", resume=False):
        """Train from scratch: ``epochs`` passes over ``(X, y)``.

        ``sample_weight``: example t's step is ``eta s_t`` (the gradient of
        its weighted squared loss); ``None``: all 1.  ``checkpoint``,
        ``checkpoint_every``, ``resume``: checkpoints at epoch boundaries (see
        :meth:`refsvm.BudgetedSVC.fit`).
        """
        params = self._algorithm_params()
        self._check_verbose()
        X, y = self._check_X_y(X, y, reset=True)
        weights = self._weights(X, sample_weight)
        self.gamma_ = self._resolve_gamma(X)
        params = self._with_fitted_params(params)
        if weights is not None:
            params["sample_weight"] = weights
        self._rng = self._make_rng()
        self.t_ = 0
        self.trace_ = []
        run_epochs(self, X, y, params, self._initial_state(), checkpoint, checkpoint_every, resume)
        return self

    def partial_fit(self, X, y, sample_weight=None):
        """One pass over ``(X, y)``, continuing the current model (see the module notes)."""
        params = self._algorithm_params()
        self._check_verbose()
        first = not hasattr(self, "model_")
        if not first and self.t_ is None:
            raise ValueError(f"this estimator was made by {type(self).__name__}.load; the file holds "
                             "the model but not the training state (t_), so partial_fit cannot "
                             "continue it. Call fit instead.")
        X, y = self._check_X_y(X, y, reset=first)
        if first:
            self.gamma_ = self._resolve_gamma(X)
            self._rng = self._make_rng()
            self.t_ = 0
            self.trace_ = []
            state = self._initial_state()
        else:
            state = self._current_state()
        params = self._with_fitted_params(params)
        weights = self._weights(X, sample_weight)
        if weights is not None:
            params["sample_weight"] = weights
        self._progress_label = f"partial_fit (pass {len(self.trace_) + 1})"
        self._one_pass(X, y, params, state)
        return self

    def predict(self, X):
        """Predictions ``f(x)`` for the rows of ``X``."""
        check_is_fitted(self)
        X = self._check_X(X, reset=False)
        return self.model_.decision_function(X, backend=self.backend)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
