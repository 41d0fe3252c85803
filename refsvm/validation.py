"""Input checks shared by the estimators and the command line.

Every check raises an exception whose message starts with (or contains) the
name of the offending parameter, so that a user knows which argument to fix.

* Wrong *values* raise :class:`ValueError`.
* Wrong *types* raise :class:`ParameterTypeError`, which is both a
  :class:`ValueError` and a :class:`TypeError` (as scikit-learn's
  ``InvalidParameterError``): callers that catch either see it.

Sparse input is accepted and densified (``X.toarray()``): the algorithms in
refsvm work on a C-contiguous ``(n_samples, n_features)`` float64 array (see
DESIGN.md).  Densifying a very wide sparse matrix costs memory; that is the
price of one simple data layout for both backends.
"""

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import type_of_target

__all__ = [
    "ParameterTypeError",
    "check_X",
    "check_X_y",
    "check_classification_targets",
    "check_budget",
    "check_positive",
    "check_int",
    "check_option",
]


class ParameterTypeError(ValueError, TypeError):
    """A parameter has the wrong type (catchable as ValueError or TypeError)."""


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
    if not np.isfinite(arr).all():
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


def check_int(value, name, minimum):
    """Return ``value`` as an ``int`` after checking ``value >= minimum``.

    Python and numpy integers are accepted; bools and floats are not.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ParameterTypeError(
            f"{name} must be an integer >= {minimum}; got {value!r} of type {type(value).__name__}"
        )
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value}")
    return int(value)


def check_budget(budget):
    """Return the budget (maximal number of support vectors), an int >= 2."""
    return check_int(budget, "budget", 2)


def check_positive(value, name, *, allow_zero=False):
    """Return ``value`` as a finite ``float`` that is > 0 (>= 0 with ``allow_zero``).

    Use for ``gamma``, ``eta``, ``radius``, and ``lam`` where the method
    needs a positive regulariser (``allow_zero=True`` where ``lam = 0`` is
    meaningful, e.g. the margin perceptron).
    """
    bound = ">= 0" if allow_zero else "> 0"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ParameterTypeError(
            f"{name} must be a real number {bound}; got {value!r} of type {type(value).__name__}"
        )
    value = float(value)
    if not np.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name} must be a finite number {bound}; got {value!r}")
    return value


def check_option(value, name, allowed):
    """Return ``value`` if it is one of ``allowed``; the error lists the allowed values."""
    allowed = tuple(allowed)
    if not isinstance(value, str) or value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {choices}; got {value!r}")
    return value
