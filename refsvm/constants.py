"""Numeric constants of merging shared by :mod:`refsvm.budget` and :mod:`refsvm.lookup`.

A module of their own, so that the lookup tables (which are computed with the
same golden-section search as :mod:`refsvm.budget`) and budget maintenance
(which reads the tables) do not import each other.
"""

import math

#: ``(sqrt(5) - 1) / 2``, the golden-section ratio.
GOLDEN_RATIO = (math.sqrt(5.0) - 1.0) / 2.0

#: Precision of "precise" merging (Glasmachers & Qaadan's tables use 1e-10).
MERGE_EPS_PRECISE = 1e-10
