"""The budgeted kernel model every algorithm of refsvm returns.

A model is the kernel expansion ``f^(i)(x) = sum_j alpha_j^(i) k(x_j, x) + b^(i)``
over at most B support vectors.  Binary models have one coefficient column
(``c = 1``, the sign of ``f`` is the prediction); multi-class models have one
column per class and predict ``argmax_i f^(i)(x)``.

Models are saved as ``.npz`` files read back with ``allow_pickle=False``: loading
a model never runs code.  The file carries a format version.
"""

import json
import numbers
from dataclasses import dataclass, field

import numpy as np

from .backend import get_module
from .kernels import KERNELS

#: Version of the on-disk format written by :meth:`BudgetedModel.save`.
FORMAT_VERSION = 1


@dataclass
class BudgetedModel:
    """Support vectors, coefficients, kernel parameters and bias.

    Attributes
    ----------
    support_vectors : ndarray of shape (B, d)
    coef : ndarray of shape (B, c)
        ``c = 1`` for binary models, the number of classes otherwise.
    kernel : str
        ``"rbf"``, ``"linear"`` or ``"poly"`` (:mod:`refsvm.kernels`).
    gamma, degree, coef0 : float, int, float
        Kernel parameters.
    bias : ndarray of shape (c,)
    classes : ndarray of shape (n_classes,)
        The user's labels; internal label ``j`` (or -1/+1 for binary) maps to
        ``classes[j]`` (``classes[0]`` for -1, ``classes[1]`` for +1).
    params : dict or None
        The hyper-parameters of the estimator that trained the model
        (``get_params()``; stored as a JSON string, see :meth:`save`), or
        ``None`` (a model made by the function layer, or an older file).
    estimator : str or None
        Class name of that estimator (e.g. ``"BudgetedSVC"``).
    version : str or None
        ``refsvm.__version__`` of the library that wrote the file (``None``
        for files written before it was recorded, and for unsaved models).
    """

    support_vectors: np.ndarray
    coef: np.ndarray
    kernel: str = "rbf"
    gamma: float = 1.0
    degree: int = 3
    coef0: float = 0.0
    bias: np.ndarray = None
    classes: np.ndarray = field(default_factory=lambda: np.array([-1, 1]))
    params: dict = None
    estimator: str = None
    version: str = None

    def __post_init__(self):
        self.support_vectors = np.ascontiguousarray(self.support_vectors, dtype=np.float64)
        self.coef = np.asarray(self.coef, dtype=np.float64).reshape(len(self.support_vectors), -1)
        if self.bias is None:
            self.bias = np.zeros(self.coef.shape[1])
        self.bias = np.asarray(self.bias, dtype=np.float64).reshape(-1)
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {KERNELS}, got {self.kernel!r}")

    @property
    def n_support(self):
        """Number of support vectors."""
        return self.support_vectors.shape[0]

    def decision_function(self, X, backend="python"):
        """``f(x)`` for every row of X: shape (n,) for binary, (n, c) for multi-class.

        ``backend="fast"`` computes the kernel matrix with
        :mod:`refsvm._fast.kernels` (same values to rounding, much faster).
        """
        X = np.ascontiguousarray(X, dtype=np.float64)
        if self.n_support == 0:
            F = np.zeros((X.shape[0], self.coef.shape[1])) + self.bias
        else:
            kernels = get_module("kernels", backend)
            K = kernels.kernel_matrix(X, self.support_vectors, self.kernel, self.gamma, self.degree, self.coef0)
            F = K @ self.coef + self.bias
        return F[:, 0] if self.coef.shape[1] == 1 else F

    def predict(self, X, backend="python"):
        """Predicted labels, in the user's label set ``classes``."""
        F = self.decision_function(X, backend=backend)
        if F.ndim == 1:
            return self.classes[(F > 0).astype(np.intp)]
        return self.classes[np.argmax(F, axis=1)]

    def save(self, path):
        """Write the model to ``path`` (``.npz``, no pickled objects).

        Besides the arrays, the file records ``refsvm_version`` (the library
        that wrote it) and, when the model carries them, ``params_json``
        (``params`` as a JSON string: numbers, strings, booleans, ``None``,
        infinities as ``Infinity``; dictionaries as lists of key/value pairs
        so that integer keys survive) and ``estimator`` (the class name).
        """
        from . import __version__

        classes = np.asarray(self.classes)
        if classes.dtype.kind == "O":
            classes = classes.astype(str)
        extra = {"refsvm_version": np.array(__version__)}
        if self.params is not None:
            extra["params_json"] = np.array(params_to_json(self.params))
            extra["estimator"] = np.array(str(self.estimator))
        np.savez(
            path,
            **extra,
            format_version=np.array(FORMAT_VERSION),
            support_vectors=self.support_vectors,
            coef=self.coef,
            kernel=np.array(self.kernel),
            gamma=np.array(float(self.gamma)),
            degree=np.array(int(self.degree)),
            coef0=np.array(float(self.coef0)),
            bias=self.bias,
            classes=classes,
        )

    @classmethod
    def load(cls, path):
        """Read a model written by :meth:`save`; refuses unknown format versions.

        Files without ``params_json`` / ``refsvm_version`` (written before
        they were recorded) load with ``params``, ``estimator`` and
        ``version`` set to ``None``.
        """
        with np.load(path, allow_pickle=False) as data:
            version = int(data["format_version"])
            if version != FORMAT_VERSION:
                raise ValueError(f"unsupported model format_version {version} (this refsvm reads {FORMAT_VERSION})")
            files = set(data.files)
            meta = dict(
                params=params_from_json(str(data["params_json"])) if "params_json" in files else None,
                estimator=str(data["estimator"]) if "estimator" in files else None,
                version=str(data["refsvm_version"]) if "refsvm_version" in files else None,
            )
            return cls(
                **meta,
                support_vectors=data["support_vectors"],
                coef=data["coef"],
                kernel=str(data["kernel"]),
                gamma=float(data["gamma"]),
                degree=int(data["degree"]),
                coef0=float(data["coef0"]),
                bias=data["bias"],
                classes=data["classes"],
            )


# ------------------------------------------------------------ parameters as JSON


def _to_json_value(value, name):
    if value is None or isinstance(value, (bool, np.bool_, str)):
        return value.item() if isinstance(value, np.bool_) else value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, dict):
        return {"__dict__": [[_to_json_value(k, name), _to_json_value(v, name)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [_to_json_value(v, name) for v in value]
    raise ValueError(
        f"parameter {name}={value!r} cannot be stored in a model file (only numbers, strings, "
        "booleans, None, lists and dicts of those)"
    )


def _from_json_value(value):
    if isinstance(value, dict) and set(value) == {"__dict__"}:
        return {_from_json_value(k): _from_json_value(v) for k, v in value["__dict__"]}
    if isinstance(value, list):
        return [_from_json_value(v) for v in value]
    return value


def params_to_json(params):
    """``params`` (a ``get_params()`` dict) as the JSON text stored in model files."""
    return json.dumps({k: _to_json_value(v, k) for k, v in params.items()}, sort_keys=True)


def params_from_json(text):
    """Inverse of :func:`params_to_json`."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"params_json is not valid JSON: {exc}") from exc
    if not isinstance(raw, dict):
        raise ValueError("params_json must hold a JSON object (parameter name -> value)")
    return {k: _from_json_value(v) for k, v in raw.items()}
