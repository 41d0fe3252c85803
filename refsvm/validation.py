"""Input checks shared by the estimators and the command line.

Every check raises an exception whose message starts with (or contains) the
name of the offending parameter, so that a user knows which argument to fix.

* Wrong *values* raise :class:`ValueError`.
* Wrong *types* raise :class:`ParameterTypeError`, which is both a
  :class:`ValueError` and a :class:`TypeError` (as scikit-learn's
  ``InvalidParameterError``): callers that catch either see it.

:func:`check_X` densifies sparse input (``X.toarray()``) for callers that need
a dense array; the algorithms read sparse input as canonical CSR without a
dense copy (:func:`check_sparse_rows`, :mod:`refsvm.sparse`).
"""

import numbers

import os

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
    "check_merge_eps",
    "check_nu",
    "check_int",
    "check_option",
    "check_gamma",
    "check_sample_weight",
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


#: The largest integer parameter (budgets, ranks, epochs, ...): the compiled path holds them in 64 bits.
MAX_INT = 2 ** 63 - 1


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
    if value > MAX_INT:
        raise ValueError(f"{name} must be an integer from {minimum} to 2**63 - 1 (the compiled path's "
                         f"integers); got {value}")
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


def check_merge_eps(value, name="merge_eps"):
    """Return ``merge_eps`` as a float in (0, 1): the final bracket width of the golden-section search
    for the merged point's coefficient h, which lies in [0, 1]; a width of 1 or more would end the search
    before it starts (a wider bracket than the interval), and 0 would never end it."""
    value = check_positive(value, name)
    if value >= 1.0:
        raise ValueError(f"{name} must be a number in (0, 1) (the golden-section search's final bracket width "
                         f"on h in [0, 1]); got {value!r}")
    return value


#: The largest SBP ``nu`` (slack per example) accepted.  The paper's values lie in 6.4e-11 .. 1.1e-2
#: (Cotter et al. 2012, Table 2); with a kernel bounded by 1 (Gaussian) and ||w|| <= 1 the responses lie in
#: [-1, 1], so a slack of 1 per example already lifts the average response to the largest margin reachable.
MAX_NU = 1.0


def check_nu(value, name="nu"):
    """Return SBP's ``nu`` as a float in [0, :data:`MAX_NU`] (the slack per example; total ``n nu``)."""
    value = check_positive(value, name, allow_zero=True)
    if value > MAX_NU:
        raise ValueError(f"{name} must be a number in [0, {MAX_NU:g}] (the average slack per example; the paper "
                         f"uses 1e-10 .. 1e-2); got {value!r}")
    return value


def check_bool(value, name):
    """``value`` if it is True or False (also numpy's), else ValueError naming ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}")
    return value


def check_finite_real(value, name):
    """``value`` if it is a finite real number (not a bool), else ValueError naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) \
            or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite real number; got {value!r}")
    return value


def check_option(value, name, allowed):
    """Return ``value`` if it is one of ``allowed``; the error lists the allowed values."""
    allowed = tuple(allowed)
    if not isinstance(value, str) or value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {choices}; got {value!r}")
    return value


def check_gamma(value):
    """Return ``"scale"``, ``"auto"`` or ``gamma`` as a finite float > 0.

    ``"scale"`` and ``"auto"`` have scikit-learn's meaning and are resolved
    from the training data when an estimator is fitted
    (:meth:`refsvm.estimators._base.BudgetedClassifierBase._resolve_gamma`).
    """
    if isinstance(value, str):
        if value in ("scale", "auto"):
            return value
        raise ValueError(f"gamma must be 'scale', 'auto' or a number > 0; got {value!r}")
    return check_positive(value, "gamma")


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
    from .sparse import canonical_csr  # the algorithm layer; validation is imported by it
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


def _check_kernel_parameters(kernel, gamma, degree, coef0):
    """The parameters ``kernel`` uses: gamma > 0 (rbf, poly), degree >= 1 and a finite coef0 (poly)."""
    if kernel in ("rbf", "poly"):
        check_positive(gamma, "gamma")
    if kernel == "poly":
        check_int(degree, "degree", 1)
        if not (isinstance(coef0, numbers.Real) and np.isfinite(coef0)):
            raise ValueError(f"coef0 must be a finite number; got {coef0!r}")


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


def check_bsgd_arguments(X, y, order, *, n_classes, budget, lam, learning_rate, eta, radius,
                         maintenance, kernel, gamma, degree, coef0, merge_eps, projection_ridge,
                         merge_solver, sv, alpha, bias, t0, merge_compare=False):
    """Check the arguments of ``bsgd`` (both backends call this before any work).

    The function layer is public API, so it refuses what the estimator
    refuses, with an error naming the parameter, instead of looping forever
    (``merge_eps = 0``) or returning a meaningless model (``gamma <= 0``,
    ``budget < 2``).  ``merge_solver`` is checked here, once per call (a lookup
    solver needs a binary model when merging), and so is ``merge_compare``
    (merging, binary).  Returns ``(X, y, order)`` as C-contiguous float64 /
    int64 arrays.
    """
    X, y, order = _check_budgeted_arguments(
        X, y, order, n_classes=n_classes, budget=check_budget(budget), maintenance=maintenance, kernel=kernel,
        gamma=gamma, degree=degree, coef0=coef0, merge_eps=merge_eps, projection_ridge=projection_ridge,
        merge_solver=merge_solver, merge_compare=merge_compare, sv=sv, alpha=alpha, t0=t0)
    check_option(learning_rate, "learning_rate", ("pegasos", "norma", "perceptron"))
    if learning_rate in ("pegasos", "norma"):
        check_positive(lam, "lam")
    if learning_rate in ("norma", "perceptron"):
        check_positive(eta, "eta")
    if learning_rate == "perceptron" and not (isinstance(radius, numbers.Real) and radius > 0):
        raise ValueError(f"radius must be a number > 0 (inf switches the projection off); got {radius!r}")
    c = 1 if n_classes == 2 else n_classes
    if bias is not None and np.shape(bias) != (c,):
        raise ValueError(f"bias must have shape ({c},); got {np.shape(bias)}")
    return X, y, order


def _check_budgeted_arguments(X, y, order, *, n_classes, budget, maintenance, kernel, gamma, degree, coef0,
                              merge_eps, projection_ridge, merge_solver, merge_compare, sv, alpha, t0):
    """What ``bsgd`` and ``bsca`` check alike: data and labels, budget maintenance (its parameters
    only when there is a budget: ``budget=None`` never maintains), kernel, warm start, ``t0``."""
    from .budget import MAINTENANCE, check_merge_solver  # the algorithm layer; validation is imported by it
    X, y = _check_X_y(X, y)
    if y.size and not np.all(np.asarray(y, dtype=np.float64) == np.round(np.asarray(y, dtype=np.float64))):
        raise ValueError("y must hold integer labels")
    y = np.ascontiguousarray(y, dtype=np.int64)
    order = _check_order(order, X.shape[0])
    n_classes = check_int(n_classes, "n_classes", 2)
    used = y[order] if order.size else y[:0]
    if n_classes == 2:
        if used.size and not np.all(np.abs(used) == 1):
            raise ValueError("y must hold labels -1 and +1 for a binary problem (n_classes=2)")
    elif used.size and (used.min() < 0 or used.max() >= n_classes):
        raise ValueError(f"y must hold labels 0..{n_classes - 1} for n_classes={n_classes}")
    check_option(maintenance, "maintenance", MAINTENANCE)
    check_option(kernel, "kernel", ("rbf", "linear", "poly"))
    check_merge_solver(merge_solver, n_classes == 2 or maintenance != "merge")
    _check_kernel_parameters(kernel, gamma, degree, coef0)
    if kernel == "rbf":
        check_gaussian_rows(X)
        if sv is not None and budget is not None:
            check_gaussian_rows(sv, "sv")
    if maintenance == "merge" and budget is not None:
        if kernel != "rbf":
            raise ValueError("maintenance='merge' requires kernel='rbf' (merging relies on the Gaussian kernel)")
        check_merge_eps(merge_eps)
    if maintenance == "projection" and budget is not None:
        check_positive(projection_ridge, "projection_ridge", allow_zero=True)
    if merge_compare and (maintenance != "merge" or n_classes != 2):
        raise ValueError("merge_compare=True needs maintenance='merge' and a binary model")
    check_int(t0, "t0", 0)
    c = 1 if n_classes == 2 else n_classes
    if sv is not None and (sv.shape[0] if sp.issparse(sv) else len(sv)) > 0:
        _check_warm_start(sv, alpha, X.shape[1], c, budget)
    return X, y, order


def check_responses(c, volume, y=None, *, s=None):
    """Check the arguments of ``find_gamma`` / ``find_gamma_and_bias`` / ``find_gamma_weighted`` (both backends).

    Returns ``(c, volume)`` (or ``(y, c, volume)`` when ``y`` is given, ``(c, s, volume)`` when
    ``s`` is given) with ``c`` a fresh C-contiguous float64 copy (the water-level routines
    partition their own copy), ``y`` int64 and ``s`` a fresh float64 copy (the weighted routine
    swaps it along with ``c``).  ``y`` must hold both labels -1 and +1: with one class only, the
    bias of Algorithm 3 is unbounded.  ``s`` must hold one finite weight > 0 per response.
    """
    c = np.array(c, dtype=np.float64, copy=True, order="C")
    if c.ndim != 1 or c.size == 0:
        raise ValueError(f"c must be a non-empty 1-D array of responses; got shape {c.shape}")
    if not np.all(np.isfinite(c)):
        raise ValueError("c contains NaN or infinity")
    if isinstance(volume, (bool, np.bool_)) or not isinstance(volume, numbers.Real) \
            or not np.isfinite(volume) or volume < 0:
        raise ValueError(f"volume must be a finite number >= 0 (n nu); got {volume!r}")
    if s is not None:
        s = np.array(s, dtype=np.float64, copy=True, order="C")
        if s.shape != c.shape or not np.all(np.isfinite(s)) or not np.all(s > 0.0):
            raise ValueError(f"s must hold one finite weight > 0 per response, shape {c.shape}")
        return c, s, float(volume)
    if y is None:
        return c, float(volume)
    y = np.asarray(y)
    if y.shape != c.shape:
        raise ValueError(f"y must have the shape of c, {c.shape}; got {y.shape}")
    if not np.all((y == 1) | (y == -1)):
        raise ValueError("y must hold labels -1 and +1")
    if not (np.any(y == 1) and np.any(y == -1)):
        raise ValueError("y must hold both labels -1 and +1 (with one class the bias is unbounded)")
    return np.ascontiguousarray(y, dtype=np.int64), c, float(volume)


def check_sbp_arguments(X, y, u, *, nu, kernel, gamma, degree, coef0, fit_bias, cache_rows, state,
                        sample_weight=None):
    """Check the arguments of ``sbp.optimize`` (both backends call this before any work).

    Returns ``(X, y, u)`` as C-contiguous float64 / int64 / float64 arrays.
    """
    X, y = _check_X_y(X, y, non_empty=True)
    if not np.all((y == 1) | (y == -1)):
        raise ValueError("y must hold labels -1 and +1")
    y = np.ascontiguousarray(y, dtype=np.int64)
    u = np.ascontiguousarray(u, dtype=np.float64)
    if u.ndim != 1:
        raise ValueError(f"u must be a 1-D array of uniform numbers (one per iteration); got shape {u.shape}")
    if u.size and not (np.all(u >= 0.0) and np.all(u < 1.0)):
        raise ValueError("u must hold numbers in [0, 1)")
    check_nu(nu)
    check_option(kernel, "kernel", ("rbf", "linear", "poly"))
    _check_kernel_parameters(kernel, gamma, degree, coef0)
    if kernel == "rbf":
        check_gaussian_rows(X)
    check_bool(fit_bias, "fit_bias")
    if fit_bias and not (np.any(y == 1) and np.any(y == -1)):
        raise ValueError("y must hold both labels -1 and +1 when fit_bias=True (the bias is unbounded otherwise)")
    check_int(cache_rows, "cache_rows", 0)
    if state is not None:
        n = X.shape[0]
        for name in ("alpha", "c", "alpha_sum", "c_sum"):
            if np.shape(getattr(state, name)) != (n,):
                raise ValueError(f"state.{name} must have shape ({n},); got {np.shape(getattr(state, name))}")
        check_int(state.t, "state.t", 0)
    if sample_weight is not None:
        if fit_bias:
            raise ValueError("sample_weight: weighted SBP is implemented without a bias (fit_bias=False); the "
                             "two-basin water level of Algorithm 3 has no weighted form here")
        if not np.any(np.asarray(sample_weight) > 0):
            raise ValueError("sample_weight: at least one weight must be > 0 (the water level needs a basin)")
    return X, y, u


def _same_rows(sv, mask, X, used):
    """``sv[mask]`` equals ``X[used]`` row for row (dense or sparse, in any combination)."""
    if sp.issparse(sv) or sp.issparse(X):
        a, b = sp.csr_matrix(sp.csr_matrix(sv)[np.flatnonzero(mask)]), sp.csr_matrix(X[used])
        return a.shape == b.shape and (a != b).nnz == 0
    return np.array_equal(np.asarray(sv, dtype=np.float64)[mask], X[used])


def check_bsca_arguments(X, y, order, *, budget, C, maintenance, kernel, gamma, degree, coef0,
                         merge_eps, projection_ridge, merge_solver, sv_update, sv, alpha, dual,
                         sv_source, t0, sample_weight=None):
    """Check the arguments of ``bsca`` (both backends call this before any work).

    Returns ``(X, y, order, dual, sv_source)``: C-contiguous float64 / int64
    arrays; ``dual`` is a fresh float64 copy (zeros when ``None``) and
    ``sv_source`` an int64 array of length ``len(sv)`` (all -1 when ``None``).
    """
    X, y, order = _check_budgeted_arguments(
        X, y, order, n_classes=2, budget=None if budget is None else check_budget(budget),
        maintenance=maintenance, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, merge_eps=merge_eps,
        projection_ridge=projection_ridge, merge_solver=merge_solver, merge_compare=False, sv=sv, alpha=alpha,
        t0=t0)
    C = check_positive(C, "C")
    check_option(sv_update, "sv_update", ("accumulate", "append"))
    n = X.shape[0]
    n_sv = 0 if sv is None else (sv.shape[0] if sp.issparse(sv) else len(sv))
    if dual is None:
        dual = np.zeros(n)
    else:
        dual = np.array(dual, dtype=np.float64, copy=True, order="C")
        if dual.shape != (n,):
            raise ValueError(f"dual must have shape ({n},) to match X; got {dual.shape}")
        w = check_sample_weight(sample_weight, n)
        if not np.all((dual >= 0.0) & (dual <= (C if w is None else C * w))):
            raise ValueError(f"dual must lie in the box [0, C] = [0, {C}]"
                             + ("" if w is None else " (times sample_weight)"))
    if sv_source is None:
        sv_source = np.full(n_sv, -1, dtype=np.int64)
    else:
        sv_source = np.array(sv_source, dtype=np.int64, copy=True, order="C")
        if sv_source.shape != (n_sv,):
            raise ValueError(f"sv_source must have shape ({n_sv},) (one entry per SV); got {sv_source.shape}")
        used = sv_source[sv_source >= 0]
        if np.any(sv_source < -1) or np.any(used >= n):
            raise ValueError(f"sv_source must hold indices in 0..{n - 1} or -1")
        if used.size and not _same_rows(sv, sv_source >= 0, X, used):
            raise ValueError("sv_source must point at examples equal to their SVs (sv[s] == X[sv_source[s]])")
    return X, y, order, dual, sv_source


def check_dual_sample(dual, sample):
    """Check ``sample`` of ``dual_objective``: distinct indices of non-zero dual variables, at least 2."""
    S = np.asarray(sample)
    if S.ndim != 1 or S.size < 2 or S.dtype.kind not in "iu":
        raise ValueError("sample must be a 1-D integer array of at least 2 indices")
    if S.min() < 0 or S.max() >= len(dual) or len(np.unique(S)) != S.size or np.any(dual[S] == 0.0):
        raise ValueError("sample must hold distinct indices of non-zero dual variables")
    return np.ascontiguousarray(S, dtype=np.int64)


#: The online learners of :mod:`refsvm.online` (``refsvm.online.ALGORITHMS`` is this tuple)
ONLINE_ALGORITHMS = ("perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd")
#: The online learners that take a budget B (the Projectrons take one optionally)
ONLINE_BUDGETED = ("rbp", "forgetron", "bpas", "bogd")


#: ``zero_prediction`` of the online learners: how a decision value of exactly 0 is read
ZERO_PREDICTIONS = ("mistake", "positive")
#: ``variant`` of the online learners: the papers' updates or Lu et al.'s released code
ONLINE_VARIANTS = ("paper", "authors")


def check_online_arguments(X, y, order, uniforms=None, *, algorithm, kernel, gamma, degree, coef0, sv, alpha, t0,
                           budget=None, eta=None, lam=None, C=None, max_coef=None, zero_prediction="mistake",
                           variant="paper"):
    """Check the arguments of the online learners of :mod:`refsvm.online` (both backends call this).

    Each learner passes the arguments it has and no others: ``budget`` (RBP,
    Forgetron, BPA-S, BOGD; optional for the Projectrons), ``eta`` (OGD, the
    Projectrons, BOGD), ``lam`` and ``max_coef`` (BOGD), ``C`` (BPA-S),
    ``uniforms`` (RBP, BOGD), ``variant`` (Forgetron, Projectrons, BOGD).
    Binary labels in {-1, +1}; ``budget`` an int >= 2 where the learner has
    one (``None`` allowed for the Projectrons); ``uniforms`` one number in
    [0, 1) per step.  Returns ``(X, y, order, uniforms)`` as C-contiguous
    float64 / int64 / float64 arrays (``uniforms`` may be None).
    """
    check_option(algorithm, "algorithm", ONLINE_ALGORITHMS)
    check_option(zero_prediction, "zero_prediction", ZERO_PREDICTIONS)
    check_option(variant, "variant", ONLINE_VARIANTS)
    if variant == "authors" and algorithm in ("projectron", "projectron++") and budget is None:
        raise ValueError(f"budget: variant='authors' of {algorithm} fills a budget B before it projects and "
                         "sets U from B; give an integer budget >= 2")
    X, y = _check_X_y(X, y)
    y = np.ascontiguousarray(y, dtype=np.int64)
    order = _check_order(order, X.shape[0])
    if order.size and not np.all(np.abs(y[order]) == 1):
        raise ValueError("y must hold labels -1 and +1 (binary learners)")
    if algorithm in ONLINE_BUDGETED or budget is not None:
        budget = check_budget(budget)
    check_option(kernel, "kernel", ("rbf", "linear", "poly"))
    _check_kernel_parameters(kernel, gamma, degree, coef0)
    if kernel == "rbf":
        check_gaussian_rows(X)
    if algorithm in ("ogd", "bogd"):
        check_positive(eta, "eta")
    if algorithm in ("projectron", "projectron++"):
        check_positive(eta, "eta", allow_zero=True)
    if algorithm == "bogd":
        check_positive(lam, "lam", allow_zero=True)
        if eta * lam >= 1.0:
            raise ValueError(f"lam must satisfy eta * lam < 1 (the shrink factor 1 - eta lam > 0); got eta={eta}, lam={lam}")
        check_positive(max_coef, "max_coef")
    if algorithm == "bpas":
        check_positive(C, "C")
    check_int(t0, "t0", 0)
    if algorithm in ("rbp", "bogd"):
        if uniforms is None:
            raise ValueError("uniforms must hold one number in [0, 1) per step (drawn by the caller)")
        uniforms = np.ascontiguousarray(uniforms, dtype=np.float64)
        if uniforms.shape != order.shape:
            raise ValueError(f"uniforms must have shape {order.shape} (one per step); got {uniforms.shape}")
        if uniforms.size and not (np.all(uniforms >= 0.0) and np.all(uniforms < 1.0)):
            raise ValueError("uniforms must lie in [0, 1)")
    if sv is not None and (sv.shape[0] if sp.issparse(sv) else len(sv)) > 0:
        _check_warm_start(sv, alpha, X.shape[1], 1, budget, flat_alpha=True)
    return X, y, order, uniforms


def physical_memory():
    """Bytes of physical memory of this machine (None where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def check_memory(nbytes, name, what):
    """Refuse, before any work, storage a run needs but this machine cannot give.

    ``nbytes``: the bytes ``what`` needs; ``name``: the parameter that asks for
    it.  The limit is the machine's physical memory (:func:`physical_memory`).
    """
    limit = physical_memory()
    if limit is not None and nbytes > limit:
        raise ValueError(f"{name}: {what} needs {nbytes / 2**30:.1f} GiB, more than this machine's "
                         f"{limit / 2**30:.1f} GiB of memory; choose a smaller {name}")
