"""Validation of the inputs of ``fit`` / ``partial_fit`` / ``predict``: ``X`` (dense, or canonical CSR
for the solvers that read sparse rows), ``y``, and the example weights ``sample_weight`` /
``class_weight``; errors name the parameter (:func:`_naming`).  :class:`InputChecks` is a base of
:class:`refsvm.estimators._base.BudgetedClassifierBase`."""

import numbers
import re
from contextlib import contextmanager

import numpy as np
import scipy.sparse as sp
from sklearn.utils import assert_all_finite, column_or_1d
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.validation import _check_sample_weight, validate_data

from ..validation import check_memory, check_sparse_rows


@contextmanager
def _naming(name):
    """Re-raise a ValueError whose message does not mention ``name`` with it prepended.

    scikit-learn's input checks say e.g. "Expected 2D array, got 1D array
    instead"; every error of refsvm names the offending parameter.
    """
    try:
        yield
    except ValueError as exc:
        message = str(exc)
        if re.search(rf"\b{re.escape(name)}\b", message):
            raise
        raise ValueError(f"Invalid {name}: {message}") from exc


class InputChecks:
    """Checks of ``X``, ``y`` and the example weights (methods of :class:`BudgetedClassifierBase`)."""

    def _check_X(self, X, reset):
        """Validated dense C-contiguous float64 X; sets or checks the feature count/names."""
        with _naming("X"):
            X = validate_data(
                self, X, reset=reset, accept_sparse=True, dtype=np.float64, order="C"
            )
        if sp.issparse(X):
            with _naming("X"):
                if getattr(self, "_sparse_rows", False):   # the solver reads CSR rows, sparse SVs (refsvm.sparse)
                    return check_sparse_rows(X)
                check_memory(8 * X.shape[0] * X.shape[1], "X",
                             f"{type(self).__name__} densifies sparse input: the dense copy of X "
                             f"({X.shape[0]} x {X.shape[1]})")
                X = np.ascontiguousarray(X.toarray())
                assert_all_finite(X, input_name="X")
        return X

    def _check_X_y(self, X, y, reset):
        if y is None:
            raise ValueError(
                f"This {type(self).__name__} estimator requires y to be passed, "
                "but the target y is None."
            )
        X = self._check_X(X, reset)
        with _naming("y"):
            y = column_or_1d(y, warn=True)
            assert_all_finite(y, input_name="y")
            check_classification_targets(y)
        if y.shape[0] != X.shape[0]:
            raise ValueError(
                f"X and y have inconsistent numbers of samples: X has {X.shape[0]} rows, "
                f"y has {y.shape[0]} entries"
            )
        return X, y

    # ------------------------------------------------------------------ weights

    #: Whether the algorithm function takes ``sample_weight`` (set True in subclasses whose
    #: algorithm does; weights are then handed to ``_one_pass`` as ``params["sample_weight"]``).
    _supports_sample_weight = False
    #: the solver reads scipy CSR rows and keeps sparse SVs (refsvm.sparse); otherwise a sparse X is
    #: densified, after a check that the dense copy fits in memory
    _sparse_rows = False

    def _sample_weights(self, X, y, sample_weight, partial):
        """Per-example weights ``sample_weight * class_weight[y]`` (float64), or None for none."""
        class_weight = getattr(self, "class_weight", None)
        if sample_weight is None and class_weight is None:
            return None
        if not self._supports_sample_weight:
            raise ValueError(
                f"{type(self).__name__} does not support sample_weight / class_weight"
            )
        weights = np.ones(X.shape[0])
        if sample_weight is not None:
            with _naming("sample_weight"):
                weights = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                               ensure_non_negative=True).copy()
        if class_weight is not None:
            if isinstance(class_weight, str) and class_weight == "balanced" and partial:
                raise ValueError(
                    "class_weight='balanced' is not supported by partial_fit (one batch does "
                    "not give the class frequencies); pass a dict, e.g. from "
                    "sklearn.utils.class_weight.compute_class_weight on all the labels"
                )
            if not (class_weight == "balanced" if isinstance(class_weight, str)
                    else isinstance(class_weight, dict)):
                raise ValueError(
                    f"class_weight must be None, 'balanced' or a dict {{class: weight}}; "
                    f"got {class_weight!r}"
                )
            if isinstance(class_weight, dict):
                for label, value in class_weight.items():
                    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) \
                            or not np.isfinite(value) or value < 0:
                        raise ValueError(
                            f"class_weight[{label!r}] must be a finite number >= 0; got {value!r}"
                        )
            with _naming("class_weight"):
                per_class = compute_class_weight(class_weight, classes=self.classes_, y=y)
            weights *= per_class[np.searchsorted(self.classes_, y)]
        return weights
