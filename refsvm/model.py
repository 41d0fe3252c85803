"""The budgeted kernel model every algorithm of refsvm returns.

A model is the kernel expansion ``f^(i)(x) = sum_j alpha_j^(i) k(x_j, x) + b^(i)``
over at most B support vectors.  Binary models have one coefficient column
(``c = 1``, the sign of ``f`` is the prediction); multi-class models have one
column per class and predict ``argmax_i f^(i)(x)``.

Models are saved as ``.npz`` files read back with ``allow_pickle=False``: loading
a model never runs code.  The file carries a format version.  A damaged or
invalid file raises :class:`ModelFileError` (a ``ValueError``) naming the file.
"""

import json
import numbers
import threading
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .io.model_file import ModelFileError, check_kind, reading, write_model  # noqa: F401 (ModelFileError: public here)
from ._threads import check_n_jobs, map_threads
from .backend import get_module
from .kernels import KERNELS
from .validation import check_gaussian_rows, check_int, check_option, check_positive

#: Versions of the on-disk format :meth:`BudgetedModel.load` reads: 1 (dense support vectors),
#: 2 (sparse support vectors as CSR arrays ``sv_data``, ``sv_indices``, ``sv_indptr``, ``sv_shape``).
#: :meth:`BudgetedModel.save` writes 1 for a dense model, so older refsvm versions still read it.
FORMAT_VERSIONS = (1, 2)
FORMAT_VERSION = 2


@dataclass
class BudgetedModel:
    """Support vectors, coefficients, kernel parameters and bias.

    Attributes
    ----------
    support_vectors : ndarray of shape (B, d), or scipy CSR matrix
        Sparse for a model trained on sparse data (:mod:`refsvm.sparse`).
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
        if sp.issparse(self.support_vectors):
            from .validation import check_sparse_rows
            self.support_vectors = check_sparse_rows(self.support_vectors, "support_vectors")
        else:
            self.support_vectors = np.ascontiguousarray(self.support_vectors, dtype=np.float64)
        self.coef = np.asarray(self.coef, dtype=np.float64)
        if self.coef.ndim == 1 and self.coef.shape[0] == len(self.support_vectors):
            self.coef = self.coef.reshape(-1, 1)  # binary model given as a vector
        if self.bias is None:
            self.bias = np.zeros(self.coef.shape[1] if self.coef.ndim == 2 else 1)
        self.bias = np.asarray(self.bias, dtype=np.float64).reshape(-1)
        self.validate()

    def validate(self):
        """Check the model as the estimators check their parameters; raise ValueError naming the field.

        Called on construction and hence on :meth:`load`: a model file with,
        e.g., a NaN ``gamma`` is refused exactly as ``BudgetedSVC(gamma=nan)``
        is.  Checks: ``kernel`` in :data:`refsvm.kernels.KERNELS`; ``gamma``
        finite and > 0; ``degree`` an integer >= 1; ``coef0`` finite; at
        least 2 distinct ``classes``; ``coef`` of shape (B, 1) for 2 classes
        and (B, n_classes) otherwise, ``bias`` of shape (c,),
        ``support_vectors`` 2-D with B rows; every number finite.
        """
        check_option(self.kernel, "kernel", KERNELS)
        check_positive(self.gamma, "gamma")
        if isinstance(self.degree, np.integer):
            self.degree = int(self.degree)
        check_int(self.degree, "degree", 1)
        if isinstance(self.coef0, (bool, np.bool_)) or not isinstance(self.coef0, numbers.Real) \
                or not np.isfinite(self.coef0):
            raise ValueError(f"coef0 must be a finite real number; got {self.coef0!r}")
        classes = np.asarray(self.classes)
        if classes.ndim != 1 or np.unique(classes).size != classes.size or classes.size < 2:
            raise ValueError(
                f"classes must be a 1-D array of at least 2 distinct labels; got {classes!r}"
            )
        c = 1 if classes.size == 2 else classes.size
        sv = self.support_vectors
        if sv.ndim != 2:
            raise ValueError(f"support_vectors must be a 2-D array (B, d); got shape {sv.shape}")
        if self.coef.shape != (sv.shape[0], c):
            raise ValueError(
                f"coef must have shape ({sv.shape[0]}, {c}) for {sv.shape[0]} support vectors "
                f"and {classes.size} classes; got {self.coef.shape}"
            )
        if self.bias.shape != (c,):
            raise ValueError(f"bias must have shape ({c},); got {self.bias.shape}")
        for name in ("support_vectors", "coef", "bias"):
            value = getattr(self, name)
            if not np.isfinite(value.data if sp.issparse(value) else value).all():
                raise ValueError(f"{name} contains NaN or infinity")

    @property
    def n_support(self):
        """Number of support vectors."""
        return self.support_vectors.shape[0]

    def decision_function(self, X, backend="python", n_jobs=None):
        """``f(x)`` for every row of X: shape (n,) for binary, (n, c) for multi-class.

        ``backend="python"``: the reference, the kernel matrix row by row
        (:func:`refsvm.kernels.kernel_matrix`, squared distances from the
        norms with sums in index order), then ``K @ coef + bias``.  ``backend="fast"``:
        :func:`decision_blocks`, blocks of rows with BLAS (squared norms plus
        one matrix product per block, clipped at zero), in bounded memory.
        The two agree to about ``1e-12`` relative to the scale of the terms
        ``sum_j |coef_j| k(x_j, x)``; see :func:`decision_blocks`.
        ``n_jobs`` (``backend="fast"``; joblib's convention, None = 1): the
        blocks computed in that many threads, bitwise the values of one.
        """
        if not sp.issparse(X):
            X = np.ascontiguousarray(X, dtype=np.float64)
        check_n_jobs(n_jobs)
        if self.kernel == "rbf":
            check_gaussian_rows(X)
        if backend == "fast":
            F = decision_blocks(X, self.support_vectors, self.coef, self.bias, self.kernel,
                                self.gamma, self.degree, self.coef0, n_jobs=n_jobs)
        elif self.n_support == 0:
            get_module("kernels", backend)  # checks the backend name
            F = np.zeros((X.shape[0], self.coef.shape[1])) + self.bias
        else:
            kernels = get_module("kernels", backend)
            SV = self.support_vectors
            if sp.issparse(X) or sp.issparse(SV):             # sparse rows: both as CSR (refsvm.sparse)
                X, SV = sp.csr_matrix(X), sp.csr_matrix(SV)
            K = kernels.kernel_matrix(X, SV, self.kernel, self.gamma, self.degree, self.coef0)
            F = K @ self.coef + self.bias
        return F[:, 0] if self.coef.shape[1] == 1 else F

    def predict(self, X, backend="python", n_jobs=None):
        """Predicted labels, in the user's label set ``classes``."""
        F = self.decision_function(X, backend=backend, n_jobs=n_jobs)
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
        from ._version import __version__

        classes = np.asarray(self.classes)
        if classes.dtype.kind == "O":
            classes = classes.astype(str)
        extra = {"refsvm_version": np.array(__version__)}
        sv = self.support_vectors
        extra.update(support_vector_arrays(sv))
        if self.params is not None:
            extra["params_json"] = np.array(params_to_json(self.params))
            extra["estimator"] = np.array(str(self.estimator))
        write_model(                                   # atomic: a failure leaves an existing file intact
            path,
            dict(**extra,
            kind=np.array("BudgetedModel"),
            format_version=np.array(2 if sp.issparse(sv) else 1),
            coef=self.coef,
            kernel=np.array(self.kernel),
            gamma=np.array(float(self.gamma)),
            degree=np.array(int(self.degree)),
            coef0=np.array(float(self.coef0)),
            bias=self.bias,
            classes=classes),
        )

    @classmethod
    def load(cls, path):
        """Read a model written by :meth:`save`; the model is validated (:meth:`validate`).

        Files without ``params_json`` / ``refsvm_version`` (written before
        they were recorded) load with ``params``, ``estimator`` and
        ``version`` set to ``None``.

        Raises
        ------
        FileNotFoundError
            If ``path`` does not exist.
        refsvm.model.ModelFileError
            (a ``ValueError``) naming the file and what is wrong: not a model
            file, damaged or truncated, an entry missing, an unknown format
            version, an invalid value.
        """
        with reading(path, FORMAT_VERSIONS) as data:
            check_kind(data, path, "BudgetedModel", "BudgetedModel.load (kernel expansions)")
            meta = dict(
                params=params_from_json(data.scalar("params_json", str)) if "params_json" in data else None,
                estimator=data.scalar("estimator", str) if "estimator" in data else None,
                version=data.scalar("refsvm_version", str) if "refsvm_version" in data else None,
            )
            return cls(
                **meta,
                support_vectors=read_support_vectors(data),
                coef=data["coef"],
                kernel=data.scalar("kernel", str),
                gamma=data.scalar("gamma", float),
                degree=data.scalar("degree", int),
                coef0=data.scalar("coef0", float),
                bias=data["bias"],
                classes=data["classes"],
            )


def support_vector_arrays(sv):
    """The arrays a model file stores for its support vectors: ``support_vectors`` (dense, format 1)
    or the CSR arrays ``sv_data``, ``sv_indices``, ``sv_indptr``, ``sv_shape`` (sparse, format 2)."""
    if sp.issparse(sv):
        return dict(sv_data=sv.data, sv_indices=sv.indices, sv_indptr=sv.indptr,
                    sv_shape=np.array(sv.shape, dtype=np.int64))
    return dict(support_vectors=sv)


def read_support_vectors(data):
    """The support vectors of a model file: the dense array (format 1) or a CSR matrix (format 2)."""
    if "sv_indptr" not in data:
        return data["support_vectors"]
    shape = tuple(int(v) for v in np.asarray(data["sv_shape"]).tolist())
    if len(shape) != 2:
        raise ValueError(f"sv_shape must hold 2 numbers; got {shape}")
    return sp.csr_matrix((data["sv_data"], data["sv_indices"], data["sv_indptr"]), shape=shape)


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


# ------------------------------------------------------------ fast prediction

#: Rows per block of :func:`decision_blocks` (at most; see :data:`PREDICT_BLOCK_ENTRIES`).
PREDICT_BLOCK = 2048
#: Largest kernel block of :func:`decision_blocks`, in entries (2**21 doubles = 16 MB).
PREDICT_BLOCK_ENTRIES = 2 ** 21


def decision_blocks(X, SV, coef, bias, kernel, gamma, degree, coef0, block=None, n_jobs=None):
    """Decision values ``K(X, SV) @ coef + bias`` computed block by block with BLAS; shape (n, c).

    For every block of at most ``block`` rows (default :data:`PREDICT_BLOCK`,
    fewer when ``block * n_sv`` would exceed :data:`PREDICT_BLOCK_ENTRIES`),
    one matrix product ``G = X_b @ SV.T`` gives the kernel block:
    ``"rbf"``: ``exp(-gamma * max(||x||^2 + ||x_j||^2 - 2 G, 0))``;
    ``"linear"``: ``G``; ``"poly"``: ``(gamma G + coef0) ** degree``;
    then ``K_b @ coef``.  Memory: one block, never the n x B kernel matrix.

    Accuracy: the expansion ``||x||^2 + ||x_j||^2 - 2 x.x_j`` loses digits by
    cancellation when ``x`` is close to ``x_j`` (it can even come out
    slightly negative, hence the clip at 0); the error of each squared
    distance is about ``1e-16 * (||x||^2 + ||x_j||^2)``, so each kernel value
    is off by about ``gamma * 1e-16 * (||x||^2 + ||x_j||^2)`` relative.  The
    reference (``backend="python"``) and training use the same expansion with
    sums in index order (:mod:`refsvm.kernels`); BLAS adds in its own order.

    ``n_jobs`` (joblib's convention, None = 1): the blocks are computed in that
    many threads (BLAS and numpy release the GIL), each with its own block
    buffer (memory: ``n_jobs`` blocks).  The blocks are the same whatever
    ``n_jobs``, so the values are bitwise those of one thread.
    """
    X = X if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    SV = sp.csr_matrix(SV) if sp.issparse(SV) else np.ascontiguousarray(SV, dtype=np.float64)
    coef = np.ascontiguousarray(coef, dtype=np.float64)
    n, n_sv = X.shape[0], SV.shape[0]
    F = np.empty((n, coef.shape[1]))
    if n_sv == 0:
        F[:] = bias
        return F
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")
    if block is None:
        block = max(1, min(PREDICT_BLOCK, PREDICT_BLOCK_ENTRIES // n_sv))
    SVt = SV.T.tocsr() if sp.issparse(SV) else np.ascontiguousarray(SV.T)
    sv_sq = _row_sq(SV) if kernel == "rbf" else None
    buffers = {}

    def one_block(start):
        buf = buffers.get(threading.get_ident())
        if buf is None:
            buf = buffers[threading.get_ident()] = np.empty((min(block, n), n_sv))
        Xb = X[start:start + block]
        Gb = buf[:Xb.shape[0]]
        if sp.issparse(Xb) or sp.issparse(SV):                # x . x_j with a sparse operand
            Gb[...] = _dense(Xb @ SVt) if sp.issparse(Xb) else _dense(SV @ Xb.T).T
        else:
            np.matmul(Xb, SVt, out=Gb)                        # x . x_j
        if kernel == "rbf":
            Gb *= -2.0
            Gb += _row_sq(Xb)[:, None]
            Gb += sv_sq                                       # ||x - x_j||^2, up to cancellation
            np.maximum(Gb, 0.0, out=Gb)
            Gb *= -gamma
            np.exp(Gb, out=Gb)
        elif kernel == "poly":
            Gb *= gamma
            Gb += coef0
            np.power(Gb, degree, out=Gb)
        np.matmul(Gb, coef, out=F[start:start + block])

    map_threads(n_jobs, one_block, range(0, n, block))       # at most one thread per block
    F += bias
    return F


def _row_sq(M):
    """``||m_i||^2`` of every row (dense or sparse)."""
    if sp.issparse(M):
        return np.asarray(M.multiply(M).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", M, M)


def _dense(M):
    return M.toarray() if sp.issparse(M) else np.asarray(M)
