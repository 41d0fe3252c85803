"""FOGD and NOGD estimators (Lu, Hoi, Wang, Zhao and Liu, 2016).

:class:`FOGDClassifier`, :class:`NOGDClassifier`, :class:`FOGDRegressor` and
:class:`NOGDRegressor` are thin layers over :func:`refsvm.fogd.fogd` and
:func:`refsvm.nogd.nogd` (or their compiled twins).  The classifiers subclass
:class:`refsvm.estimators._base.BudgetedClassifierBase` (input validation,
labels, random generator, ``fit`` / ``partial_fit``, prediction) and replace
what differs: the state handed from pass to pass and the model, which is a
:class:`refsvm.approx_model.FourierModel` or
:class:`refsvm.approx_model.NystromModel` instead of a kernel expansion.  The
regressors share the same pieces through :class:`_RegressorBase`.

Streaming.  ``partial_fit`` continues the state (FOGD: the weights; NOGD: the
kernel-phase SVs and coefficients, or, after the switch, the projection and
weights; the switch may fall inside any call).  With ``shuffle=False`` the
examples are visited in the order given, so ``partial_fit`` over chunks gives
the same model as ``fit`` over their concatenation (the same
``random_state``, and a numeric ``gamma``: ``"scale"`` / ``"auto"`` are
resolved from the data of ``fit``, or of the first ``partial_fit`` call).  With ``shuffle=True`` (default) every pass visits its data
in a random order drawn from ``random_state``.

Randomness: ``rng = numpy.random.default_rng(random_state)`` draws, in this
order, FOGD's directions ``U`` (at the first call) and the visiting order of
each pass (``shuffle=True`` only).
"""

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils import assert_all_finite, column_or_1d
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from ..approx_model import FourierModel, NystromModel
from ..backend import BACKENDS, get_module
from ..nogd import EIG_TOL
from ..ogd import fourier_directions
from ..validation import ZERO_PREDICTIONS, check_memory, check_gamma, check_int, check_option, check_positive
from ._base import BudgetedClassifierBase, _naming
from ._checkpoint import run_epochs

__all__ = ["FOGDClassifier", "NOGDClassifier", "FOGDRegressor", "NOGDRegressor"]


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


class _OGDClassifierBase(BudgetedClassifierBase):
    """The classifier layer: everything of :class:`BudgetedClassifierBase` except the model."""

    _supports_sample_weight = True  # fogd / nogd take sample_weight (step eta s_t)

    def _task(self):
        return "binary" if self.classes_.size == 2 else "multiclass"

    def fit(self, X, y, sample_weight=None, checkpoint=None, checkpoint_every="epoch", resume=False):
        """Train from scratch: ``epochs`` passes over ``(X, y)`` (see the module notes).

        ``sample_weight`` (times ``class_weight``): example t's step is
        ``eta s_t`` (the gradient of its weighted loss); ``None``: all 1.
        ``checkpoint``, ``checkpoint_every``, ``resume``: checkpoints at epoch
        boundaries (see :meth:`refsvm.BudgetedSVC.fit`).
        """
        return super().fit(X, y, sample_weight=sample_weight, checkpoint=checkpoint,
                           checkpoint_every=checkpoint_every, resume=resume)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One pass over ``(X, y)``, continuing the current state (see the module notes)."""
        return super().partial_fit(X, y, classes=classes, sample_weight=sample_weight)


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


_SHARED_DOC = """
    gamma : float, "scale" or "auto", default="scale"
        Gaussian kernel ``exp(-gamma ||x - x'||^2)`` (> 0).  The paper writes
        ``exp(-||x - x'||^2 / (2 sigma^2))``: ``gamma = 1 / (2 sigma^2)``.
        ``"scale"``: ``1 / (n_features X.var())``, ``"auto"``: ``1 / n_features``,
        resolved into ``gamma_`` by ``fit`` (or the first ``partial_fit``).
    eta : float
        Constant step size (> 0).
    shuffle : bool, default=True
        Visit each pass's examples in a random order (``False``: as given).
    epochs : int, default=1
        Passes over the data in :meth:`fit` (the paper: one).
    backend : {"fast", "python"}, default="fast"
        Compiled twin or reference implementation (same model to rounding).
    random_state : int, numpy.random.Generator or None, default=None
        Seed of everything random (see the module notes).
"""

_FOGD_DOC = """
    Parameters
    ----------
    n_components : int, default=400
        D, the number of random Fourier directions (the map has 2D coordinates).
    normalize : bool, default=False
        ``False``: the paper's map ``(sin(u_1'x), cos(u_1'x), ...)`` with
        ``||z||^2 = D``.  ``True``: divided by ``sqrt(D)``, so that step
        sizes known from scikit-learn's ``RBFSampler`` transfer (``eta`` on the
        printed map equals ``eta * D`` on the normalised one).
    average : bool, default=False
        ``False``: the model is the last iterate ``w_{T+1}`` (the paper,
        Algorithms 1, 3 and 5).  ``True``: the mean of the weights after each
        update (every update of every pass and ``partial_fit`` call), as the
        authors' released code LIBOL/KOL predicts; it scatters less over
        visiting orders than the last iterate at a constant step
        (``docs/ogd.rst``, "The authors' code").  The updates are the same.
""" + _SHARED_DOC + """
    Attributes
    ----------
    directions_ : ndarray (D, n_features)   the random directions u_j
    coef_ : ndarray (2D, c)                 the model's linear weights: W (``average=True``: the mean of W
                                            after each update; the last W if there was none)
    n_averaged_ : int                       ``average=True``: the number of updates averaged (else 0)
    model_ : refsvm.approx_model.FourierModel
    t_ : int or None                        examples visited so far
    trace_ : list of dict                   one trace of :func:`refsvm.fogd.fogd` per pass, plus
                                            ``online_error_rate`` / ``online_mse``
"""

_NOGD_DOC = """
    Parameters
    ----------
    budget : int, default=400
        B, the number of support vectors collected by kernel online gradient
        descent before the switch to the Nystrom features.  400 (rank 80)
        rather than 100: with B = 100 the rank-20 features leave
        NOGDClassifier predicting the majority class on ijcnn1 (one pass, any
        eta in 0.02-2) and lose 5-14 points on usps, letter and mnist5k;
        B = 400 learns on every shipped data set and costs O(k B) = 32,000
        multiply-adds a step (``benchmarks/bench_defaults.py``).
    rank : int or None, default=None
        k, the rank of the approximation; ``None``: ``round(0.2 * budget)``
        (the paper's choice).
    eig_tol : float, default=1e-8
        Eigenvalues ``<= eig_tol * lambda_max`` of the B x B kernel matrix are
        dropped at the switch (rank-deficient matrices: duplicates, tiny gamma).
    average : bool, default=False
        ``False``: after the switch the model is the last iterate of the
        linear phase (the paper, Algorithms 2, 4 and 6).  ``True``: the mean
        of the linear-phase weights after each linear-phase update, as the
        authors' released code LIBOL/KOL tests (``docs/ogd.rst``, "The
        authors' code"); before the switch, and with no linear-phase update
        yet, the model is the same as with ``False``.  The updates are the same.
""" + _SHARED_DOC + """
    Attributes
    ----------
    support_vectors_ : ndarray (n_sv, n_features)
    alpha_ : ndarray (n_sv, c) or None      kernel-phase coefficients
    projection_ : ndarray (r, B) or None    ``D_k^{-1/2} V_k'`` after the switch
    coef_ : ndarray (r, c) or None          linear weights after the switch (``average=True``: their mean
                                            after each linear-phase update)
    n_averaged_ : int                       ``average=True``: the number of linear-phase updates averaged
    model_ : refsvm.approx_model.NystromModel
    t_ : int or None                        examples visited so far
    trace_ : list of dict                   one trace of :func:`refsvm.nogd.nogd` per pass, plus
                                            ``online_error_rate`` / ``online_mse``
"""


_VERBOSE_DOC = """    verbose : int, default=0
        ``>= 1``: progress lines on stderr during each pass (examples/s,
        online error or online mse; :mod:`refsvm.estimators._progress`); the model is unchanged.

"""

_CLASS_WEIGHT_DOC = """    zero_prediction : {"mistake", "positive"}, default="mistake"
        Binary problems: how a decision value of exactly 0 is read
        (:func:`refsvm.online.is_mistake`): ``"mistake"`` counts it as an
        online mistake for both labels (the paper's ``y w'z <= 0``),
        ``"positive"`` predicts ``sign(0) = +1`` as Lu et al.'s released code
        does (mistake count and :meth:`predict`; the update is the hinge
        loss's under both).
    class_weight : dict, "balanced" or None, default=None
        Weight of each class (``"balanced"``: ``n / (n_classes * count)``),
        multiplied into the ``sample_weight`` of ``fit`` / ``partial_fit``.  A
        weight ``s_t`` scales the example's loss, hence its gradient step:
        ``eta s_t`` instead of ``eta`` (weight 0: no step).

"""


_EPSILON_DOC = """    epsilon : float, default=0.1
        Update threshold on the squared loss (>= 0).
"""


def _with_parameters(doc, *entries):
    """``doc`` with the parameter ``entries`` (docstring text) inserted before its Attributes section."""
    return doc.replace("    Attributes", "".join(entries) + "    Attributes", 1)


class FOGDClassifier(_FOGDMixin, _OGDClassifierBase):
    __doc__ = """Fourier online gradient descent classifier (Lu et al. 2016, Algorithms 1 and 3).

    Binary problems use the hinge loss; three or more classes the multi-class
    hinge loss against the highest-scoring wrong class.
    """ + _with_parameters(_FOGD_DOC, _VERBOSE_DOC, _CLASS_WEIGHT_DOC)

    def __init__(self, n_components=400, gamma="scale", eta=0.002, normalize=False, shuffle=True, epochs=1,
                 backend="fast", random_state=None, verbose=0, class_weight=None, zero_prediction="mistake",
                 average=False):
        self.average = average
        self.zero_prediction = zero_prediction
        self.verbose = verbose
        self.class_weight = class_weight
        self.n_components = n_components
        self.gamma = gamma
        self.eta = eta
        self.normalize = normalize
        self.shuffle = shuffle
        self.epochs = epochs
        self.backend = backend
        self.random_state = random_state


class NOGDClassifier(_NOGDMixin, _OGDClassifierBase):
    __doc__ = """Nystrom online gradient descent classifier (Lu et al. 2016, Algorithms 2 and 4).
    """ + _with_parameters(_NOGD_DOC, _VERBOSE_DOC, _CLASS_WEIGHT_DOC)

    def __init__(self, budget=400, rank=None, gamma="scale", eta=0.2, eig_tol=EIG_TOL, shuffle=True, epochs=1,
                 backend="fast", random_state=None, verbose=0, class_weight=None, zero_prediction="mistake",
                 average=False):
        self.average = average
        self.zero_prediction = zero_prediction
        self.verbose = verbose
        self.class_weight = class_weight
        self.budget = budget
        self.rank = rank
        self.gamma = gamma
        self.eta = eta
        self.eig_tol = eig_tol
        self.shuffle = shuffle
        self.epochs = epochs
        self.backend = backend
        self.random_state = random_state


class FOGDRegressor(_FOGDMixin, _RegressorBase):
    __doc__ = """Fourier online gradient descent regressor (Lu et al. 2016, Algorithm 5).

    Squared loss; an example updates the model only when its loss exceeds
    ``epsilon`` (default 0.1, the paper's value).
    """ + _with_parameters(_FOGD_DOC, _EPSILON_DOC, _VERBOSE_DOC)

    def __init__(self, n_components=400, gamma="scale", eta=0.001, epsilon=0.1, normalize=False, shuffle=True,
                 epochs=1, backend="fast", random_state=None, verbose=0, average=False):
        self.average = average
        self.verbose = verbose
        self.n_components = n_components
        self.gamma = gamma
        self.eta = eta
        self.epsilon = epsilon
        self.normalize = normalize
        self.shuffle = shuffle
        self.epochs = epochs
        self.backend = backend
        self.random_state = random_state


class NOGDRegressor(_NOGDMixin, _RegressorBase):
    __doc__ = """Nystrom online gradient descent regressor (Lu et al. 2016, Algorithm 6).
    """ + _with_parameters(_NOGD_DOC, _EPSILON_DOC, _VERBOSE_DOC)

    def __init__(self, budget=400, rank=None, gamma="scale", eta=0.1, epsilon=0.1, eig_tol=EIG_TOL, shuffle=True,
                 epochs=1, backend="fast", random_state=None, verbose=0, average=False):
        self.average = average
        self.verbose = verbose
        self.budget = budget
        self.rank = rank
        self.gamma = gamma
        self.eta = eta
        self.epsilon = epsilon
        self.eig_tol = eig_tol
        self.shuffle = shuffle
        self.epochs = epochs
        self.backend = backend
        self.random_state = random_state
