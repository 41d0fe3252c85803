"""The regression baselines of Lu et al. (2016, section 7.4) as one scikit-learn regressor.

:class:`OnlineKernelRegressor` is a thin layer over :func:`refsvm.online.regression_ogd`,
:func:`~refsvm.online.regression_perceptron`, :func:`~refsvm.online.regression_rbp`,
:func:`~refsvm.online.regression_forgetron`, :func:`~refsvm.online.regression_projectron`,
:func:`~refsvm.online.regression_bogd` and :func:`~refsvm.online.regression_norma` (or their compiled
mirror in :mod:`refsvm._fast.online`): it validates the input, resolves ``gamma``, draws the visiting
order and the uniforms of the random removals, and calls the learner once per epoch.  The updates are
documented in :mod:`refsvm.online.regression`.
"""

import dataclasses

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ..backend import BACKENDS, get_module
from ..model import BudgetedModel
from ..online.regression import REGRESSION_ALGORITHMS
from ..validation import check_budget, check_int, check_option, check_positive
from ._base import BudgetedClassifierBase
from .ogd import _check_bool, _RegressorBase

__all__ = ["OnlineKernelRegressor"]


class OnlineKernelRegressor(_RegressorBase):
    """Kernel regressor trained by a regression baseline of Lu et al. (2016, Table 9).

    ================  ==============================================================  ========================
    ``algorithm``     update when ``|y_t - f_t(x_t)| > epsilon``                      parameters used
    ================  ==============================================================  ========================
    ``"ogd"``         add ``x_t`` with ``eta (y_t - f_t)``, no budget                 ``eta``, ``epsilon``
    ``"perceptron"``  add ``x_t`` with ``eta sign(y - f)``, no budget                 ``eta``, ``epsilon``
    ``"rbp"``         random removal at B SVs, add ``x_t`` with ``eta sign(y - f)``   ``budget``, ``eta``
    ``"forgetron"``   add ``x_t`` with ``eta sign(y - f)``; above B SVs shrink and    ``budget``, ``eta``,
                      remove the oldest (the self-tuned Forgetron)                    ``variant``
    ``"projectron"``  add ``x_t`` with ``eta sign(y - f)`` below B SVs; at B          ``budget``, ``eta``
                      project it onto the SVs' span
    ``"bogd"``        shrink; uniform removal with rescaling at B; ``eta (y - f)``    ``budget``, ``eta``,
                                                                                      ``lam``, ``max_coef``,
                                                                                      ``variant``
    ``"norma"``       shrink; add ``x_t`` with ``eta sign(y - f)``; adaptive tube     ``eta``, ``lam``,
                      (``epsilon`` the initial one)                                   ``nu``, ``epsilon``
    ================  ==============================================================  ========================

    Defaults follow Lu et al.'s section 7.4.1: ``budget=30``, ``epsilon=0.1``, ``eta=0.1`` (their
    validated step, "about 0.1").  ``nu=0.5`` is our choice (the paper does not give Norma's ``nu``).
    ``variant`` (Forgetron): ``"paper"`` keeps the shrink in (0, 1], ``"authors"`` takes the larger root
    as Lu et al.'s ``forgetron.m`` (:func:`refsvm.online.forgetron_shrink`); (BOGD): ``"paper"`` is Zhao et
    al.'s uniform removal with rescaling, ``"authors"`` Lu et al.'s ``regression/BOGD.m``, which removes the
    oldest SV and only shrinks (``max_coef`` unused).  The rules and their sources:
    :mod:`refsvm.online.regression`.  ``sample_weight`` scales the step of each example.  ``backend``:
    ``"fast"`` (compiled) or ``"python"`` (reference); both give the same model.  Fitted attributes:
    ``sv_``, ``alpha_`` (n_sv, 1), ``gamma_``, ``t_``, ``trace_`` (one trace per pass).
    """

    _sparse_rows = True                                   # CSR rows go to the learner as they are

    def __init__(self, algorithm="ogd", budget=30, gamma="scale", kernel="rbf", degree=3, coef0=0.0, eta=0.1,
                 epsilon=0.1, lam=0.0, max_coef=10.0, nu=0.5, variant="paper", epochs=1, shuffle=True, backend="fast",
                 random_state=None, verbose=0):
        self.algorithm = algorithm
        self.budget = budget
        self.gamma = gamma
        self.kernel = kernel
        self.degree = degree
        self.coef0 = coef0
        self.eta = eta
        self.epsilon = epsilon
        self.lam = lam
        self.max_coef = max_coef
        self.nu = nu
        self.variant = variant
        self.epochs = epochs
        self.shuffle = shuffle
        self.backend = backend
        self.random_state = random_state
        self.verbose = verbose

    def _algorithm_params(self):
        """The learner's keyword arguments, checked once (before any data is read)."""
        check_option(self.algorithm, "algorithm", REGRESSION_ALGORITHMS)
        check_option(self.backend, "backend", BACKENDS)
        check_option(self.kernel, "kernel", ("rbf", "linear", "poly"))
        check_int(self.epochs, "epochs", 1)
        _check_bool(self.shuffle, "shuffle")
        params = {"eta": check_positive(self.eta, "eta"), "epsilon": check_positive(self.epsilon, "epsilon",
                                                                                     allow_zero=True),
                  "kernel": self.kernel, "gamma": self.gamma, "degree": check_int(self.degree, "degree", 1),
                  "coef0": float(self.coef0)}
        if self.algorithm in ("rbp", "bogd", "forgetron", "projectron"):
            params["budget"] = check_budget(self.budget)
        if self.algorithm in ("forgetron", "bogd"):
            params["variant"] = check_option(self.variant, "variant", ("paper", "authors"))
        if self.algorithm in ("bogd", "norma"):
            params["lam"] = check_positive(self.lam, "lam", allow_zero=True)
        if self.algorithm == "bogd":
            params["max_coef"] = check_positive(self.max_coef, "max_coef")
        if self.algorithm == "norma":
            params["nu"] = check_positive(self.nu, "nu", allow_zero=True)
        return params

    def _initial_state(self):
        return None, None, None

    def _current_state(self):
        return self.sv_, self.alpha_, self.state_

    def _one_pass(self, X, y, params, state):
        """One pass over ``(X, y)`` in a shuffled (or the given) order, continuing from ``state``."""
        n = X.shape[0]
        order = self._rng.permutation(n).astype(np.int64) if self.shuffle else np.arange(n, dtype=np.int64)
        learner = getattr(get_module("online", self.backend), f"regression_{self.algorithm}")
        args = (self._rng.random(n),) if self.algorithm in ("rbp", "bogd") else ()
        sv, alpha, learner_state = state
        result = learner(X, y, order, *args, sv=sv, alpha=alpha, t0=self.t_, state=learner_state, **params)
        self.sv_, self.alpha_, self.state_ = result.sv, result.alpha, result.state
        self.model_ = BudgetedModel(support_vectors=result.sv, coef=result.alpha, kernel=self.kernel,
                                    gamma=float(self.gamma_), degree=int(self.degree), coef0=float(self.coef0))
        self.t_ = result.t
        self.trace_.append(result.trace)

    def fit(self, X, y, sample_weight=None):
        """Train from scratch: ``epochs`` passes over ``(X, y)``."""
        params = self._algorithm_params()
        X, y = self._check_X_y(X, y, reset=True)
        weights = self._weights(X, sample_weight)
        self.gamma_ = self._resolve_gamma(X)
        params = self._with_fitted_params(params)
        params["sample_weight"] = weights
        self._rng = self._make_rng()
        self.t_ = 0
        self.trace_ = []
        state = self._initial_state()
        for _ in range(self.epochs):
            self._one_pass(X, y, params, state)
            state = self._current_state()
        return self

    def predict(self, X):
        """``f(x) = sum_j alpha_j k(x_j, x)`` for the rows of ``X``."""
        check_is_fitted(self, "sv_")
        X = self._check_X(X, reset=False)
        if self.sv_.shape[0] == 0:
            return np.zeros(X.shape[0])
        return self.model_.decision_function(X, backend=self.backend)   # the binary model's f(x)

    def save(self, path):
        """Write the fitted model and ``get_params()`` to ``path`` (``.npz``), as
        :meth:`refsvm.BudgetedSVC.save` does (the file names ``OnlineKernelRegressor``, so
        :func:`refsvm.load` and ``refsvm predict`` read it as a regressor; the training state is not
        stored)."""
        check_is_fitted(self, "sv_")
        params = self.get_params(deep=False)
        if params.get("random_state") is not None and not isinstance(params["random_state"], (int, np.integer)):
            params["random_state"] = None                  # a Generator cannot be stored (as BudgetedSVC)
        dataclasses.replace(self.model_, params=params, estimator=type(self).__name__).save(path)

    @classmethod
    def load(cls, path, backend=None):
        """A fitted estimator predicting exactly as the one that wrote ``path`` (:meth:`save`); the saved
        parameters are checked as in ``fit`` (an invalid one raises ValueError naming it and the file).
        ``t_`` is None: :meth:`partial_fit` refuses to continue it (:meth:`fit` trains anew)."""
        model = BudgetedModel.load(path)
        params = BudgetedClassifierBase._checked_saved_params.__func__(cls, model, path)   # the same checks
        if backend is not None:
            params["backend"] = backend
        est = cls(**params)
        try:
            est._algorithm_params()
        except ValueError as exc:
            raise ValueError(f"{path}: invalid parameter in the model file: {exc}") from exc
        est.n_features_in_ = model.support_vectors.shape[1]
        est.model_, est.sv_, est.alpha_, est.gamma_ = model, model.support_vectors, model.coef, float(model.gamma)
        est.state_, est.t_, est.trace_ = None, None, []
        return est

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # The budgeted learners (RBP's, the Forgetron's and the Projectron's fixed-size steps at a budget
        # of B SVs, BOGD's removals) do not reach R^2 > 0.5 on scikit-learn's noisy 200-example set (its
        # check_regressors_train); OGD, the perceptron and Norma do.
        tags.regressor_tags.poor_score = self.algorithm in ("rbp", "bogd", "forgetron", "projectron")
        return tags
