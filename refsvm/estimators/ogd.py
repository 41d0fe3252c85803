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

from ..nogd import EIG_TOL
from ._base import BudgetedClassifierBase
from ._ogd_common import _check_bool, _FOGDMixin, _NOGDMixin  # noqa: F401  (_check_bool: re-exported)
from ._regressor import _RegressorBase

__all__ = ["FOGDClassifier", "NOGDClassifier", "FOGDRegressor", "NOGDRegressor"]


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
