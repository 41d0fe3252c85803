"""The budgeted kernel model every algorithm of refsvm returns.

A model is the kernel expansion ``f^(i)(x) = sum_j alpha_j^(i) k(x_j, x) + b^(i)``
over at most B support vectors.  Binary models have one coefficient column
(``c = 1``, the sign of ``f`` is the prediction); multi-class models have one
column per class and predict ``argmax_i f^(i)(x)``.

Models are saved as ``.npz`` files read back with ``allow_pickle=False``: loading
a model never runs code.  The file carries a format version.
"""

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
    """

    support_vectors: np.ndarray
    coef: np.ndarray
    kernel: str = "rbf"
    gamma: float = 1.0
    degree: int = 3
    coef0: float = 0.0
    bias: np.ndarray = None
    classes: np.ndarray = field(default_factory=lambda: np.array([-1, 1]))

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
        """Write the model to ``path`` (``.npz``, no pickled objects)."""
        classes = np.asarray(self.classes)
        if classes.dtype.kind == "O":
            classes = classes.astype(str)
        np.savez(
            path,
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
        """Read a model written by :meth:`save`; refuses unknown format versions."""
        with np.load(path, allow_pickle=False) as data:
            version = int(data["format_version"])
            if version != FORMAT_VERSION:
                raise ValueError(f"unsupported model format_version {version} (this refsvm reads {FORMAT_VERSION})")
            return cls(
                support_vectors=data["support_vectors"],
                coef=data["coef"],
                kernel=str(data["kernel"]),
                gamma=float(data["gamma"]),
                degree=int(data["degree"]),
                coef0=float(data["coef0"]),
                bias=data["bias"],
                classes=data["classes"],
            )
