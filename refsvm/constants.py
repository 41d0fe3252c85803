"""Numeric constants shared by the algorithm modules (merging: :mod:`refsvm.budget` and :mod:`refsvm.lookup`).

A module of their own, so that the lookup tables (which are computed with the
same golden-section search as :mod:`refsvm.budget`) and budget maintenance
(which reads the tables) do not import each other.
"""

import math

#: ``(sqrt(5) - 1) / 2``, the golden-section ratio.
GOLDEN_RATIO = (math.sqrt(5.0) - 1.0) / 2.0

#: Precision of "precise" merging (Glasmachers & Qaadan's tables use 1e-10).
MERGE_EPS_PRECISE = 1e-10

#: ``u = 2^-53``, the unit roundoff of float64: the error bounds behind the tie tolerances
#: (merging's weight degradations in :mod:`refsvm.budget`, SBP's water level in :mod:`refsvm.sbp`).
UNIT_ROUNDOFF = 2.0 ** -53

#: The Gaussian kernel's relative error bound (:func:`refsvm.online.common.gaussian_relative_error`,
#: in C ``kernel_relative_error_at`` in ``refsvm/_fast/tolerance.pxd``, which reads the same names):
#: ``exp(-x)`` is 0 for ``x > 745.14`` (minus the log of the smallest subnormal), so a kernel value
#: above 0 has ``x <= 746`` and the product ``gamma d^2`` errs by at most ``746 u``.
EXP_UNDERFLOW_ARGUMENT = 746.0

#: ``exp(z)`` is finite for ``z < 709.78`` (the log of the largest double): a relative bound
#: ``expm1(z)`` with ``z`` at or above this cut-off is no bound (``math.inf``).
EXP_OVERFLOW_ARGUMENT = 709.0

#: Four of the smallest subnormal: the absolute error of a Gaussian kernel value that underflows
#: (exp's result below the normal range has an absolute, not relative, error of a few of these).
TINY_KERNEL_ERROR = 4.0 * 5e-324
