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
