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

The checks live in three modules by family, all re-exported here:
:mod:`refsvm.validation.arrays` (arrays and targets), :mod:`refsvm.validation.parameters`
(scalar parameters and options) and :mod:`refsvm.validation.arguments` (the argument sets of the
algorithm functions).
"""

from .arguments import (ONLINE_ALGORITHMS, ONLINE_BUDGETED, ONLINE_VARIANTS, ZERO_PREDICTIONS,  # noqa: F401
                        _check_budgeted_arguments, _check_uniforms, _same_rows, check_binary_data, check_bsca_arguments,
                        check_bsgd_arguments, check_dual_sample, check_online_arguments, check_removal_draws,
                        check_responses, check_sbp_arguments)
from .arrays import (MAX_GAUSSIAN_SQ_NORM, _all_finite, _check_order, _check_warm_start, _check_X_y,  # noqa: F401
                     check_classification_targets, check_gaussian_rows, check_sample_weight, check_sparse_rows,
                     check_X, check_X_y, weights_as_data)
from .parameters import (MAX_INT, MAX_NU, ParameterTypeError, _check_kernel_parameters, check_bool,  # noqa: F401
                         check_budget, check_finite_real, check_gamma, check_int, check_memory, check_merge_eps,
                         check_nu, check_option, check_positive, physical_memory)

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
