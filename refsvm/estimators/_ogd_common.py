"""What the FOGD and NOGD estimators share (:mod:`refsvm.estimators.ogd`): :class:`_OGDCommon`
(parameters, the pass in chunks, save and load) and one mixin per algorithm, :class:`_FOGDMixin` and
:class:`_NOGDMixin` (the state handed from pass to pass and the model: a
:class:`refsvm.approx_model.FourierModel` or :class:`refsvm.approx_model.NystromModel`), used by the
classifiers and the regressors alike."""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ..approx_model import FourierModel, NystromModel
from ..backend import BACKENDS, get_module
from ..ogd import fourier_directions
from ..validation import ZERO_PREDICTIONS, check_memory, check_gamma, check_int, check_option, check_positive
from ._regressor import _RegressorBase


def _check_bool(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}")
    return bool(value)


class _OGDCommon:
    """What the four estimators share: parameters, state, passes, model, load."""

    _mid_epoch_checkpoints = True   # _one_pass hands its in-pass state to _run_pass ("<k>steps" checkpoints)

    def _order(self, n):
        return self._rng.permutation(n).astype(np.int64) if self.shuffle else np.arange(n, dtype=np.int64)

    def _common_params(self):
        check_option(self.backend, "backend", BACKENDS)
        check_int(self.epochs, "epochs", 1)
        _check_bool(self.shuffle, "shuffle")
        params = dict(gamma=check_gamma(self.gamma), eta=check_positive(self.eta, "eta"))
        params["epsilon"] = check_positive(getattr(self, "epsilon", 0.0), "epsilon", allow_zero=True)
        if hasattr(self, "zero_prediction"):          # the classifiers
            params["zero_prediction"] = check_option(self.zero_prediction, "zero_prediction", ZERO_PREDICTIONS)
        return params

    def _n_classes(self):
        return 2 if self._task() != "multiclass" else self.classes_.size

    def _one_pass(self, X, y, params, state):
        """One pass; with ``verbose >= 1`` in chunks with progress lines.

        The functions continue their state exactly, so chunking changes nothing
        but the printed progress (the trace is merged back; ``switch_step`` is
        recomputed as an index into the whole pass).
        """
        order = self._order(X.shape[0])
        box = {"state": state, "result": None, "done": 0, "switch": -1}

        def run_chunk(sub):
            result = self._run(X, y, sub, params, box["state"])
            if result.W is not None and not np.all(np.isfinite(result.W)):
                raise ValueError(
                    f"eta={self.eta!r} is too large: the weights diverged to infinity or NaN. Lower eta "
                    "(squared loss with the printed Fourier map needs eta < 1 / n_components"
                    + ("; with sample_weight the step is eta * s_t: eta * max(s_t) must stay below that" if
                       params.get("sample_weight") is not None else "") + ")")
            if result.trace.get("switch_step", -1) >= 0:
                box["switch"] = box["done"] + result.trace["switch_step"]
            box["done"] += len(sub)
            box["state"], box["result"] = self._state_of(result, box["state"]), result
            self.t_ = int(result.t)
            return dict(result.trace), (None if result.sv is None else result.sv.shape[0])   # FOGD: no SVs

        trace = dict(self._run_pass(order, run_chunk, carry=box))
        result = box["result"]
        if "switch_step" in trace:
            trace["switch_step"] = box["switch"]
            trace["rank_used"] = result.trace["rank_used"]
        n = trace["n_steps"]
        if "mistakes" in trace:
            trace["online_error_rate"] = trace["mistakes"] / n if n else 0.0
        else:
            trace["online_mse"] = trace["squared_loss_sum"] / n if n else 0.0
        self.trace_.append(trace)
        self._store(result, box["state"])
        return self._current_state()

    def _classes_for_model(self):
        return self.classes_ if self._task() != "regression" else np.zeros(0)

    def save(self, path):
        """Write the fitted model and every hyper-parameter to ``path`` (``.npz``, no pickle).

        The file holds the model (:mod:`refsvm.approx_model`), the class name
        and ``get_params()`` as JSON; a ``Generator`` random_state is saved as
        ``None``.  The training state (``t_``, the generator) is not stored.
        """
        check_is_fitted(self)
        params = self.get_params(deep=False)
        if params.get("random_state") is not None and not isinstance(params["random_state"], (int, np.integer)):
            params["random_state"] = None
        self.model_.params, self.model_.estimator = params, type(self).__name__
        self.model_.save(path)

    @classmethod
    def load(cls, path, backend=None):
        """A fitted estimator predicting exactly as the one that wrote ``path`` (:meth:`save`).

        The saved hyper-parameters are restored and checked as in ``fit``;
        ``backend`` (None: the saved one) replaces the saved backend.  ``t_``
        is ``None``, so :meth:`partial_fit` refuses to continue the model.
        """
        model = (FourierModel if issubclass(cls, _FOGDMixin) else NystromModel).load(path)
        if model.estimator is not None and model.estimator != cls.__name__:
            raise ValueError(f"{path}: the file holds a {model.estimator} model; load it with "
                             f"{model.estimator}.load, not {cls.__name__}.load")
        if (model.task == "regression") != issubclass(cls, _RegressorBase):
            raise ValueError(f"{path} holds a {model.task} model; {cls.__name__} cannot use it")
        params = dict(model.params or {})
        if backend is not None or "backend" not in params:
            params["backend"] = backend or "fast"
        unknown = sorted(set(params) - set(cls._get_param_names()))
        if unknown:
            raise ValueError(f"{path}: parameters {unknown} of the file are unknown to {cls.__name__}")
        est = cls(**params)
        try:
            est._algorithm_params()
        except ValueError as exc:
            raise ValueError(f"{path}: invalid parameter in the model file: {exc}") from exc
        est._use_model(model)
        est.gamma_ = float(model.gamma)
        est.n_features_in_ = (model.directions if hasattr(model, "directions") else model.support_vectors).shape[1]
        if model.task != "regression":
            est.classes_ = np.asarray(model.classes)
        est.t_ = None
        est.trace_ = []
        return est


class _FOGDMixin(_OGDCommon):
    _sparse_rows = True            # CSR rows: u'x over the nonzeros (the d x D directions stay dense)

    def _algorithm_params(self):
        params = self._common_params()
        params["n_components"] = check_int(self.n_components, "n_components", 1)
        params["normalize"] = _check_bool(self.normalize, "normalize")
        params["average"] = _check_bool(self.average, "average")
        return params

    # The state: (U, the last iterate W, the sum of W after each update or None, the number of updates
    # in that sum).  average=False keeps no sum; coef_ is then the last iterate.
    def _initial_state(self):
        return (None, None, None, 0)                          # U drawn at the first pass

    def _current_state(self):
        return (self.directions_, self._coef_last, self._coef_sum, self.n_averaged_)

    def _state_of(self, result, state):
        averaged = result.trace["n_updates"] if result.W_sum is not None else 0
        return (self.directions_, result.W, result.W_sum, state[3] + averaged)

    def _run(self, X, y, order, params, state):
        U, W, W_sum, _ = state
        if U is None:                                         # Alg. 1, line 3 (outside the algorithm)
            D, d = params["n_components"], X.shape[1]
            check_memory(8 * D * (d + 2 * max(self._n_classes(), 1)), "n_components",
                         f"the {D} x {d} random directions and the {2 * D}-long weights")
            U = fourier_directions(self._rng, params["n_components"], X.shape[1], params["gamma"])
        self.directions_ = U
        fogd = get_module("fogd", self.backend).fogd
        return fogd(X, y, order, task=self._task(), n_classes=self._n_classes(), U=U, eta=params["eta"],
                    epsilon=params["epsilon"], normalize=params["normalize"], W=W, t0=self.t_,
                    sample_weight=params.get("sample_weight"),
                    zero_prediction=params.get("zero_prediction", "mistake"), average=params["average"],
                    W_sum=W_sum if params["average"] else None)

    def _store(self, result, state):
        _, self._coef_last, self._coef_sum, self.n_averaged_ = state
        if result.W_sum is None:                              # the paper: the last iterate
            self.coef_ = result.W
        elif self.n_averaged_ > 0:                            # KOL's code: the mean of w_{t+1} over updates
            self.coef_ = result.W_sum / self.n_averaged_
        else:                                                 # no update yet: the last iterate (KOL: 0 / 0)
            self.coef_ = result.W.copy()
        self.model_ = FourierModel(directions=self.directions_, weights=self.coef_, gamma=float(self.gamma_),
                                   normalize=bool(self.normalize), task=self._task(),
                                   classes=self._classes_for_model())

    def _use_model(self, model):
        self.model_ = model
        self.directions_, self.coef_ = model.directions, model.weights
        self._coef_last, self._coef_sum, self.n_averaged_ = None, None, 0   # t_ = None: no continuation
        if model.params is None:                      # a file without hyper-parameters
            self.gamma, self.n_components, self.normalize = model.gamma, model.n_components, model.normalize


class _NOGDMixin(_OGDCommon):
    _sparse_rows = True            # CSR rows, sparse SVs (refsvm.sparse)

    def _algorithm_params(self):
        params = self._common_params()
        params["budget"] = check_int(self.budget, "budget", 1)
        if self.rank is None:
            params["rank"] = max(1, int(round(0.2 * params["budget"])))   # k = 0.2 B (section 7)
        else:
            params["rank"] = check_int(self.rank, "rank", 1)
            if params["rank"] > params["budget"]:
                raise ValueError(f"rank must be at most budget={params['budget']}; got {self.rank}")
        params["eig_tol"] = check_positive(self.eig_tol, "eig_tol", allow_zero=True)
        params["average"] = _check_bool(self.average, "average")
        return params

    # The state: (sv, alpha, projection, the last iterate W, the averaged variant's sum of W after each
    # linear-phase update or None, the number of those updates).
    def _initial_state(self):
        return (None, None, None, None, None, 0)

    def _current_state(self):
        return (self.support_vectors_, self.alpha_, self.projection_, self._coef_last, self._coef_sum,
                self.n_averaged_)

    def _state_of(self, result, state):
        linear_updates = int(result.trace["updated"].sum()) - int(result.trace["added"].sum())
        averaged = linear_updates if result.W_sum is not None else 0
        return (result.sv, result.alpha, result.projection, result.W, result.W_sum, state[5] + averaged)

    def _run(self, X, y, order, params, state):
        sv, alpha, projection, W, W_sum, _ = state
        if not params["average"] or W is None:                # no sum kept, or none yet (kernel phase)
            W_sum = None
        nogd = get_module("nogd", self.backend).nogd
        return nogd(X, y, order, task=self._task(), n_classes=self._n_classes(), budget=params["budget"],
                    rank=params["rank"], gamma=params["gamma"], eta=params["eta"],
                    epsilon=params["epsilon"], eig_tol=params["eig_tol"], sv=sv, alpha=alpha,
                    projection=projection, W=W, t0=self.t_, sample_weight=params.get("sample_weight"),
                    zero_prediction=params.get("zero_prediction", "mistake"), average=params["average"],
                    W_sum=W_sum)

    def _store(self, result, state):
        c = self._n_classes() if self._task() == "multiclass" else 1
        sv = result.sv if result.sv is not None else np.zeros((0, self.n_features_in_))
        alpha = result.alpha
        if alpha is None and result.projection is None:
            alpha = np.zeros((0, c))
        self.support_vectors_, self.alpha_ = sv, alpha
        _, _, _, self._coef_last, self._coef_sum, self.n_averaged_ = state
        self.projection_, self.coef_ = result.projection, result.W
        if result.W_sum is not None and self.n_averaged_ > 0:  # KOL's code: the mean of w_{t+1} over
            self.coef_ = result.W_sum / self.n_averaged_       # the linear-phase updates
        self.model_ = NystromModel(support_vectors=sv, gamma=float(self.gamma_), alpha=alpha,
                                   projection=result.projection, weights=self.coef_, task=self._task(),
                                   classes=self._classes_for_model())

    def _use_model(self, model):
        self.model_ = m = model
        self.support_vectors_, self.alpha_, self.projection_, self.coef_ = (
            m.support_vectors, m.alpha, m.projection, m.weights)
        self._coef_last, self._coef_sum, self.n_averaged_ = None, None, 0   # t_ = None: no continuation
        if m.params is None:                          # a file without hyper-parameters
            self.gamma = m.gamma
            if m.linear:
                self.budget = m.support_vectors.shape[0]
