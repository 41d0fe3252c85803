"""Checks of arrays and targets: ``X`` (dense or sparse), labels, example weights, the finiteness of
the data, the Gaussian kernel's row norms, ``order`` and a warm start's shapes (part of
:mod:`refsvm.validation`)."""

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import type_of_target

from .parameters import ParameterTypeError


def check_X(X, name="X"):
    """Return ``X`` as a C-contiguous 2-D float64 array.

    Accepts anything :func:`numpy.asarray` turns into a numeric 2-D array
    (lists, arrays, data frames) and scipy sparse matrices, which are
    densified.  No copy is made when ``X`` already is a C-contiguous float64
    array.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, has no rows or no columns, or contains NaN or
        infinity.
    ParameterTypeError
        If ``X`` is not numeric (strings, complex numbers, ragged lists).
    """
    if sp.issparse(X):
        X = X.toarray()
    try:
        raw = np.asarray(X)
    except ValueError as exc:  # ragged nested sequences
        raise ParameterTypeError(f"{name} must be a numeric 2-D array: {exc}") from exc
    if raw.dtype.kind in "USVMmc":
        raise ParameterTypeError(
            f"{name} must be a numeric (real-valued) array; got dtype {raw.dtype}"
        )
    try:
        arr = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterTypeError(f"{name} must be a numeric array: {exc}") from exc
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features); "
            f"got a {arr.ndim}-D array of shape {arr.shape}"
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty: shape {arr.shape}; need at least one row and one column")
    if not _all_finite(arr):
        raise ValueError(f"{name} contains NaN or infinity")
    return np.ascontiguousarray(arr)


def check_X_y(X, y):
    """Check ``X`` with :func:`check_X` and ``y`` against it.

    Returns ``(X, y)`` with ``X`` a C-contiguous float64 array and ``y`` a 1-D
    array of the caller's labels (dtype kept: class labels may be strings).
    ``y`` may not contain NaN or infinity.
    """
    X = check_X(X, "X")
    if sp.issparse(y):
        raise ParameterTypeError("y must be a 1-D array-like, not a sparse matrix")
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D array; got shape {y.shape}")
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"y has {y.shape[0]} entries but X has {X.shape[0]} rows; they must match"
        )
    if y.dtype.kind in "fc" and not np.isfinite(y).all():
        raise ValueError("y contains NaN or infinity")
    return X, y


def check_classification_targets(y):
    """Check that ``y`` holds class labels with at least two classes.

    Returns the sorted array of classes (``numpy.unique(y)``).
    """
    y = np.asarray(y)
    kind = type_of_target(y, input_name="y")
    if kind not in ("binary", "multiclass"):
        raise ValueError(
            f"y must hold discrete class labels (binary or multi-class); "
            f"its values look {kind!r}"
        )
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError(
            f"y has only one class ({classes[0]!r}); a classifier needs at least 2 classes"
        )
    return classes


def check_sample_weight(sample_weight, n):
    """``None`` or ``sample_weight`` as a C-contiguous float64 array of shape (n,), finite, >= 0.

    Used by the function layer (``bsgd(..., sample_weight=...)``, both paths):
    entry ``i`` weights example ``X[i]`` (indexed like ``y``, not like ``order``).
    """
    if sample_weight is None:
        return None
    w = np.ascontiguousarray(sample_weight, dtype=np.float64)
    if w.shape != (n,):
        raise ValueError(f"sample_weight must have shape ({n},) to match X; got {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("sample_weight must hold finite numbers >= 0")
    return w


def weights_as_data(sample_weight, n):
    """The example weights as an array before the loop: ``sample_weight`` checked, or ones.

    Every algorithm reads ``s_t = s[i]`` on its update line without a branch: a weight of 1
    multiplies exactly (``eta * 1.0 == eta``), so the unweighted run is bitwise the run with
    ``None`` (DESIGN.md, "Example weights per solver").
    """
    w = check_sample_weight(sample_weight, n)
    return np.ones(n) if w is None else w


def check_sparse_rows(X, name="X"):
    """A scipy sparse ``X`` as the canonical CSR matrix both paths read (float64 values, int32
    indices, sorted, no duplicate entries, no stored zeros; :func:`refsvm.sparse.canonical_csr`),
    with finite values.  No dense copy is made."""
    from ..sparse import canonical_csr  # the algorithm layer; validation is imported by it
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D matrix (n_samples, n_features); got shape {X.shape}")
    X = canonical_csr(X)
    if not _all_finite(X.data):
        raise ValueError(f"{name} contains NaN or infinity")
    if X.nnz >= 2 ** 31 or X.shape[1] >= 2 ** 31:
        raise ValueError(f"{name} has {X.nnz} stored entries and {X.shape[1]} columns; refsvm's sparse "
                         f"rows use 32-bit indices (at most 2^31 - 1 of each)")
    X.indices = X.indices.astype(np.int32, copy=False)
    X.indptr = X.indptr.astype(np.int64, copy=False)
    return X


def _all_finite(values):
    """Whether every entry of the float array ``values`` is finite, without a temporary array the size
    of ``values``: one pass when their sum is finite (a NaN or infinite entry makes it NaN or
    infinite), else by the least and largest entry (NaN propagates through both; decides the sums
    that overflow from finite entries)."""
    if values.size == 0:
        return True
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(np.sum(values)):
            return True
    return bool(np.isfinite(values.min()) and np.isfinite(values.max()))


def _check_X_y(X, y, *, non_empty=False):
    """``X`` as a finite C-contiguous float64 2-D array (a sparse X: canonical CSR,
    :func:`check_sparse_rows`), ``y`` (as given) one label per row."""
    if sp.issparse(X):
        X = check_sparse_rows(X)
        if non_empty and X.shape[0] == 0:
            raise ValueError(f"X must be a non-empty 2-D array (n_samples, n_features); got shape {X.shape}")
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"y must have shape ({X.shape[0]},) to match X; got {y.shape}")
        return X, y
    X = np.ascontiguousarray(X, dtype=np.float64)
    if non_empty:
        if X.ndim != 2 or X.shape[0] == 0:
            raise ValueError(f"X must be a non-empty 2-D array (n_samples, n_features); got shape {X.shape}")
    elif X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (n_samples, n_features); got shape {X.shape}")
    if not _all_finite(X):
        raise ValueError("X contains NaN or infinity")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must have shape ({X.shape[0]},) to match X; got {y.shape}")
    return X, y


#: Largest squared row norm the Gaussian kernel accepts: a quarter of the largest double, so that
#: ``||x||^2 + ||x'||^2 - 2 x.x'`` (refsvm.kernels) and every partial sum of it stay finite.
MAX_GAUSSIAN_SQ_NORM = float(np.finfo(np.float64).max) / 4.0


def check_gaussian_rows(M, name="X"):
    """ValueError naming ``name`` when a row of ``M`` (finite, dense or CSR) has a squared norm of at
    least :data:`MAX_GAUSSIAN_SQ_NORM`: the Gaussian kernel's expansion would overflow (inf - inf) and
    give a meaningless kernel value."""
    if sp.issparse(M):
        values = M.data
    else:
        values = np.asarray(M, dtype=np.float64)
    if values.size == 0:
        return
    biggest = max(float(values.max()), -float(values.min()))         # (no temporary |values|)
    if not np.isfinite(biggest) or biggest * biggest * M.shape[-1] < MAX_GAUSSIAN_SQ_NORM:
        return                                        # non-finite: the finiteness checks say so
    with np.errstate(over="ignore"):
        if sp.issparse(M):
            sq = np.asarray(abs(M).power(2).sum(axis=1)).ravel()
        else:
            sq = np.einsum("ij,ij->i", values.reshape(-1, M.shape[-1]), values.reshape(-1, M.shape[-1]))
    worst = float(np.max(sq))
    if not worst < MAX_GAUSSIAN_SQ_NORM:
        raise ValueError(f"{name} has rows too large for the Gaussian kernel: a squared row norm reaches "
                         f"{worst:.3g} (largest entry {biggest:.3g}); kernel rows are computed as "
                         f"||x||^2 + ||x'||^2 - 2 x.x', which overflows above {MAX_GAUSSIAN_SQ_NORM:.3g}. "
                         f"Scale the data.")


def _check_order(order, n):
    """``order`` as a C-contiguous int64 1-D array of indices into ``n`` examples."""
    order = np.ascontiguousarray(order, dtype=np.int64)
    if order.ndim != 1:
        raise ValueError(f"order must be a 1-D array of indices into X; got shape {order.shape}")
    if order.size and (order.min() < 0 or order.max() >= n):
        raise ValueError(f"order must hold indices in 0..{n - 1}")
    return order


def _check_warm_start(sv, alpha, n_features, c, budget, *, flat_alpha=False):
    """A warm start: ``sv`` of shape (n_sv, n_features), ``alpha`` (n_sv, c) (also (n_sv,) with
    ``flat_alpha``), at most ``budget`` support vectors (``None``: no bound)."""
    sv_shape, alpha_shape = (sv.shape if sp.issparse(sv) else np.shape(sv)), np.shape(alpha)
    if len(sv_shape) != 2 or sv_shape[1] != n_features:
        raise ValueError(f"sv must have shape (n_sv, {n_features}); got {sv_shape}")
    if alpha_shape != (sv_shape[0], c) and not (flat_alpha and alpha_shape == (sv_shape[0],)):
        raise ValueError(f"alpha must have shape ({sv_shape[0]}, {c}); got {alpha_shape}")
    if budget is not None and sv_shape[0] > budget:
        raise ValueError(f"sv holds {sv_shape[0]} support vectors, more than budget={budget}")
