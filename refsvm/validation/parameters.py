"""Checks of scalar parameters and options: integers, positive reals, booleans, option strings, gamma,
the kernel's parameters, and the memory a run asks for (part of :mod:`refsvm.validation`)."""

import numbers
import os

import numpy as np


class ParameterTypeError(ValueError, TypeError):
    """A parameter has the wrong type (catchable as ValueError or TypeError)."""


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


def _check_kernel_parameters(kernel, gamma, degree, coef0):
    """The parameters ``kernel`` uses: gamma > 0 (rbf, poly), degree >= 1 and a finite coef0 (poly)."""
    if kernel in ("rbf", "poly"):
        check_positive(gamma, "gamma")
    if kernel == "poly":
        check_int(degree, "degree", 1)
        if not (isinstance(coef0, numbers.Real) and np.isfinite(coef0)):
            raise ValueError(f"coef0 must be a finite number; got {coef0!r}")


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
