"""Error bounds of the online mistake counter that grow with the rows seen (BSGD, FOGD, NOGD).

The counter reads a margin within its error bound of 0 as 0 (DESIGN.md, "Discrete decisions on
computed numbers").  The kernel values' bound ``eps_K`` (:func:`refsvm.online.common.kernel_value_error_at`)
and the Fourier features' depend on the rows through ``M``, the largest squared norm; computing
``M`` over all of ``X`` before a pass would cost as much as a short pass, so both paths take it
step by step: the SVs given and the rows seen so far (a merged SV is a convex combination of such
rows, no larger).  The twin keeps the same running maximum in C (``refsvm._fast.tolerance``).
"""

import math

from .constants import UNIT_ROUNDOFF
from .online.common import _max_sq_norm, _sq_norm, kernel_value_error_at

SINCOS_ERROR = 4.5e-16
"""The compiled feature map's sin / cos against libm's, absolute, for phases up to 2^18 (fastmath.h;
libm itself beyond; tests/ogd/test_sincos.py)."""


class RowNormBound:
    """``M``: the largest squared norm of the SVs given (``sv``, None: none) and the rows seen."""

    def __init__(self, sv=None):
        self.M = _max_sq_norm(sv)

    def see(self, x):
        """Take row ``x``'s squared norm into ``M``; returns ``M``."""
        self.M = max(self.M, _sq_norm(x))
        return self.M


class KernelErrorBound(RowNormBound):
    """``eps_K`` of the kernel values between this step's row and the SVs, rows of ``d`` features."""

    def __init__(self, d, sv, kernel):
        super().__init__(sv)
        self.d, self.kernel = d, kernel

    def at(self, x):
        """``eps_K`` once row ``x`` is seen."""
        return kernel_value_error_at(self.d, self.see(x), self.kernel)


def feature_error(u_max, d, M, scale):
    """``eps_z``: a bound of the difference between the paths of one Fourier feature ``scale sin(u_i'x)``
    (or cos) for rows of ``d`` features and squared norms at most ``M``, ``u_max = max_i ||u_i||``.

    Error bound: the phase ``u_i'x`` (``d`` products, any order) is within ``(d + 1) u sum_k |U_ik x_k|
    <= (d + 1) u ||u_i|| ||x||`` of exact on each path, twice that between them; sin and cos are
    1-Lipschitz, the compiled ones within :data:`SINCOS_ERROR` of libm's, and ``scale`` adds one
    rounding (``2 u``, both paths).  The twin evaluates the same expression.
    """
    return scale * (SINCOS_ERROR + 2.0 * (d + 1) * UNIT_ROUNDOFF * u_max * math.sqrt(M) + 2.0 * UNIT_ROUNDOFF)
