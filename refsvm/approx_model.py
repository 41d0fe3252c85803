"""Models of the kernel-approximation learners FOGD and NOGD (Lu et al. 2016).

Neither is a plain kernel expansion (:class:`refsvm.model.BudgetedModel`):

* :class:`FourierModel` (FOGD): random Fourier directions ``U`` (D, d), linear
  weights ``W`` (2D, c) on ``z(x) = (sin(u_1'x), cos(u_1'x), ...)``
  (divided by ``sqrt(D)`` when ``normalize``): ``f(x) = W' z(x)``.
* :class:`NystromModel` (NOGD): support vectors (B, d) and either the
  kernel-phase coefficients ``alpha`` (``f(x) = alpha' k_x``, before the budget
  is reached) or the projection ``P = D_k^{-1/2} V_k'`` (r, B) and weights ``W``
  (r, c): ``f(x) = W' P k_x``, with ``k_x = (k(x, x^_1), ..., k(x, x^_B))``.

Conventions are those of :mod:`refsvm.model`: ``c = 1`` (binary: the sign of
``f`` predicts, ``classes[0]`` for -1 and ``classes[1]`` for +1; regression:
``f`` is the prediction), ``c`` = number of classes for multi-class models
(``argmax``); ``.npz`` files read back with ``allow_pickle=False`` (loading a
model never runs code), with a format version and a ``kind`` field.
"""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .io.model_file import ModelFileError, check_kind, reading, write_model  # noqa: F401 (ModelFileError: public here)
from .backend import get_module
from .model import params_from_json, params_to_json, read_support_vectors, support_vector_arrays
from .ogd import TASKS, fourier_features
from .validation import check_gaussian_rows, check_sparse_rows

#: Version of the on-disk format written by the ``save`` methods of this module.
FORMAT_VERSION = 1


def _classes_for_save(classes):
    classes = np.asarray(classes)
    return classes.astype(str) if classes.dtype.kind == "O" else classes


def _finish(F, task, classes):
    return F[:, 0] if F.shape[1] == 1 else F


def _predict(F, task, classes):
    if task == "regression":
        return F
    if F.ndim == 1:
        return classes[(F > 0).astype(np.intp)]
    return classes[np.argmax(F, axis=1)]


def _check_task(model):
    """Refuse a ``task`` not in TASKS; make ``classes`` an array (both models' ``__post_init__``)."""
    if model.task not in TASKS:
        raise ValueError(f"task must be one of {TASKS}, got {model.task!r}")
    model.classes = np.asarray(model.classes)


def _meta(model):
    """The optional arrays recording the estimator: library version, class name, get_params() as JSON."""
    from ._version import __version__
    extra = {"refsvm_version": np.array(__version__)}
    if model.params is not None:
        extra["params_json"] = np.array(params_to_json(model.params))
        extra["estimator"] = np.array(str(model.estimator))
    return extra


def _meta_back(data):
    return dict(params=params_from_json(str(data["params_json"])) if "params_json" in data else None,
                estimator=str(data["estimator"]) if "estimator" in data else None,
                version=str(data["refsvm_version"]) if "refsvm_version" in data else None)


def _check_kind(data, path, kind):
    check_kind(data, path, kind, f"{kind}.load")


@dataclass(kw_only=True)
class _Labelled:
    """What both models hold besides their arrays (keyword-only, after each model's own fields): the task, the
    user's labels and who trained the model."""

    task: str = "binary"
    classes: np.ndarray = field(default_factory=lambda: np.array([-1, 1]))
    params: dict = None       #: hyper-parameters of the estimator that trained it (or None)
    estimator: str = None     #: its class name
    version: str = None       #: refsvm version that wrote the file


@dataclass
class FourierModel(_Labelled):
    """FOGD's model: ``f(x) = W' z(x)`` on random Fourier features.

    Attributes
    ----------
    directions : ndarray of shape (D, d)
        The ``u_j`` (rows), ``u_j ~ N(0, 2 gamma I)``.
    weights : ndarray of shape (2D, c)
        ``W``, rows in the order of ``z``.
    gamma : float
        Kernel parameter the directions were drawn for.
    normalize : bool
        ``z`` divided by ``sqrt(D)``.
    task : {"binary", "multiclass", "regression"}
    classes : ndarray
        The user's labels (empty for regression).
    """

    directions: np.ndarray
    weights: np.ndarray
    gamma: float = 1.0
    normalize: bool = False

    def __post_init__(self):
        self.directions = np.ascontiguousarray(self.directions, dtype=np.float64)
        self.weights = np.asarray(self.weights, dtype=np.float64).reshape(2 * self.directions.shape[0], -1)
        _check_task(self)

    @property
    def n_components(self):
        """D, the number of Fourier directions (the map has 2D coordinates)."""
        return self.directions.shape[0]

    def transform(self, X):
        """``z(x)`` for every row of X, shape (n, 2D)."""
        return fourier_features(self.directions, X, self.normalize)

    def decision_function(self, X, backend="python"):
        """``f(x)`` for every row of X: shape (n,) (binary, regression) or (n, c).

        ``decision_values`` of :mod:`refsvm.fogd` (numpy, 1024 rows at a
        time) or of :mod:`refsvm._fast.fogd` (``backend="fast"``: row by row,
        skipping zero inputs).
        """
        fogd = get_module("fogd", backend)
        F = fogd.decision_values(X, self.directions, self.weights, self.normalize)
        return _finish(F, self.task, self.classes)

    def predict(self, X, backend="python"):
        """Labels from ``classes`` (classification) or real predictions (regression)."""
        return _predict(self.decision_function(X, backend=backend), self.task, self.classes)

    def save(self, path):
        """Write the model to ``path`` (``.npz``, no pickled objects)."""
        write_model(path, dict(format_version=np.array(FORMAT_VERSION), kind=np.array("FourierModel"),
                               directions=self.directions, weights=self.weights, gamma=np.array(float(self.gamma)),
                               normalize=np.array(bool(self.normalize)), task=np.array(self.task),
                               classes=_classes_for_save(self.classes), **_meta(self)))

    @classmethod
    def load(cls, path):
        """Read a model written by :meth:`save`; refuses other versions and kinds."""
        with reading(path, FORMAT_VERSION) as data:        # any damage: ModelFileError naming the file
            _check_kind(data, path, "FourierModel")
            return cls(directions=data["directions"], weights=data["weights"],
                       gamma=float(data["gamma"]), normalize=bool(data["normalize"]),
                       task=str(data["task"]), classes=data["classes"], **_meta_back(data))


@dataclass
class NystromModel(_Labelled):
    """NOGD's model: kernel expansion before the switch, ``W' P k_x`` after it.

    Attributes
    ----------
    support_vectors : ndarray of shape (n_sv, d)
        The SVs (B of them after the switch).
    gamma : float
        Gaussian kernel ``exp(-gamma ||x - x'||^2)``.
    alpha : ndarray of shape (n_sv, c) or None
        Kernel-phase coefficients (kept after the switch for diagnostics).
    projection : ndarray of shape (r, B) or None
        ``P = D_k^{-1/2} V_k'`` after the switch; None in the kernel phase.
    weights : ndarray of shape (r, c) or None
        Linear weights after the switch; None in the kernel phase.
    task : {"binary", "multiclass", "regression"}
    classes : ndarray
        The user's labels (empty for regression).
    """

    support_vectors: np.ndarray
    gamma: float = 1.0
    alpha: np.ndarray = None
    projection: np.ndarray = None
    weights: np.ndarray = None

    def __post_init__(self):
        if sp.issparse(self.support_vectors):         # a model trained on sparse rows (refsvm.sparse)
            self.support_vectors = check_sparse_rows(self.support_vectors, "support_vectors")
        else:
            self.support_vectors = np.ascontiguousarray(self.support_vectors, dtype=np.float64)
        _check_task(self)
        if (self.projection is None) != (self.weights is None):
            raise ValueError("projection and weights come together (linear phase) or not at all")
        if self.projection is None and self.alpha is None:
            raise ValueError("a kernel-phase NystromModel needs alpha")

    @property
    def linear(self):
        """True after the switch (the model is ``W' P k_x``)."""
        return self.projection is not None

    @property
    def n_columns(self):
        return (self.weights if self.linear else self.alpha).shape[1]

    def decision_function(self, X, backend="python"):
        """``f(x)`` for every row of X: shape (n,) (binary, regression) or (n, c).

        ``backend="fast"`` computes the kernel matrix with :mod:`refsvm._fast.kernels`.
        """
        SV = self.support_vectors
        if sp.issparse(X) or sp.issparse(SV):          # sparse rows: both as CSR
            X, SV = sp.csr_matrix(X), sp.csr_matrix(SV)
        else:
            X = np.ascontiguousarray(X, dtype=np.float64)
        check_gaussian_rows(X)
        if SV.shape[0] == 0:
            return _finish(np.zeros((X.shape[0], self.n_columns)), self.task, self.classes)
        kernels = get_module("kernels", backend)
        K = kernels.kernel_matrix(X, SV, "rbf", self.gamma, 3, 0.0)
        if self.linear:
            F = (K @ self.projection.T) @ self.weights
        else:
            F = K @ self.alpha
        return _finish(F, self.task, self.classes)

    def predict(self, X, backend="python"):
        """Labels from ``classes`` (classification) or real predictions (regression)."""
        return _predict(self.decision_function(X, backend=backend), self.task, self.classes)

    def save(self, path):
        """Write the model to ``path`` (``.npz``, no pickled objects; absent arrays are omitted)."""
        arrays = {}
        for name in ("alpha", "projection", "weights"):
            if getattr(self, name) is not None:
                arrays[name] = np.asarray(getattr(self, name), dtype=np.float64)
        sparse = sp.issparse(self.support_vectors)      # format 2: sparse SVs as CSR arrays
        write_model(path, dict(format_version=np.array(2 if sparse else FORMAT_VERSION),
                               kind=np.array("NystromModel"),
                               **support_vector_arrays(self.support_vectors), gamma=np.array(float(self.gamma)),
                               task=np.array(self.task), classes=_classes_for_save(self.classes), **arrays,
                               **_meta(self)))

    @classmethod
    def load(cls, path):
        """Read a model written by :meth:`save`; refuses other versions and kinds."""
        with reading(path, (FORMAT_VERSION, 2)) as data:   # any damage: ModelFileError naming the file
            _check_kind(data, path, "NystromModel")
            get = lambda name: data[name] if name in data else None  # noqa: E731
            return cls(support_vectors=read_support_vectors(data), gamma=float(data["gamma"]),
                       alpha=get("alpha"), projection=get("projection"), weights=get("weights"),
                       task=str(data["task"]), classes=data["classes"], **_meta_back(data))
