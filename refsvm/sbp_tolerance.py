"""SBP's tolerances: the error bounds that decide line 6's ties and line 11's ``r_t > 1`` (both paths).

Algorithm 1 of Cotter, Shalev-Shwartz & Srebro (2012) (:mod:`refsvm.sbp`, which re-exports these
names) decides two things on computed numbers: whether a response lies under the water level
(line 6, :func:`_tie_terms`, :func:`_tie_tolerance`) and whether the iterate left the unit ball
(line 11, :func:`_ball_terms`, :func:`_outside_ball`).  Each is decided to a bound on the rounding
error of the numbers compared, stated in the helper's docstring; :func:`refsvm.kernels.kernel_value_error`
bounds the error of one kernel value (shared with :mod:`refsvm.bsgd`, :mod:`refsvm.bsca` and :mod:`refsvm.online`).  The
compiled loop (:mod:`refsvm._fast.sbp`) evaluates the same expressions with the terms computed here.
"""

import math


from .constants import UNIT_ROUNDOFF
from .kernels import kernel_value_error

_UNIT_ROUNDOFF = UNIT_ROUNDOFF        # u = 2^-53 (refsvm.constants): the error bounds of line 6's tolerance


def _tie_terms(eta_0, X, opts):
    """The three coefficients ``(a, b, c)`` of :func:`_tie_tolerance`, ``tol_t = a t + b sqrt(t) + c``.

    Error bound (relative to ``sqrt(k_max) = 1 / eta_0``, the largest possible response:
    ``|c_j| = |<w, y_j Phi(x_j)>| <= ||w|| sqrt(K_jj)`` and ``||w|| = r_t <= 1`` after line 12,
    ``<= 2`` before it).  One iteration adds to the error of every ``c_j`` at most the rounding
    of the addition of line 10 (``2 u sqrt(k_max)``), of the term ``eta_t y_i y_j K_ij``
    (``u sqrt(k_max)``), of the rescaling of line 12 (``u sqrt(k_max)``; it shrinks the older
    error) and the kernel value's own error times ``eta_t`` (:func:`refsvm.kernels.kernel_value_error`,
    ``eps_K``).  After ``t`` iterations (``t`` counts from the start of the run):
    ``E_c <= 4 t u sqrt(k_max) + 2 sqrt(t) eta_0 eps_K`` (``sum_s eta_s <= 2 eta_0 sqrt(t)``).
    The water level of Algorithms 2-3 moves by at most ``4 E_c`` when the responses move by
    ``E_c`` (line 42: ``lower_max`` by ``E_c``, ``delta``, ``delta_p``, ``delta_m`` by
    ``2 E_c`` each), and its own rounding (gap sums of at most ``n`` terms adding up to at most
    the volume ``V``, levels at most ``2 sqrt(k_max) + V``) is at most
    ``2 u ((n + 4) V + 4 sqrt(k_max))``.  So ``|computed (c_j - level) - exact| <= 5 E_c +`` that.
    Not finite (a kernel value overflowed, ``eta_0 = 0``): no tolerance (line 6 then raises).
    """
    u = _UNIT_ROUNDOFF
    root_k = 1.0 / eta_0 if eta_0 > 0.0 else math.inf
    terms = (5.0 * 4.0 * u * root_k, 5.0 * 2.0 * eta_0 * kernel_value_error(X, opts.kernel),
             2.0 * u * ((X.shape[0] + 4) * opts.volume + 4.0 * root_k))
    return terms if all(math.isfinite(v) for v in terms) else (0.0, 0.0, 0.0)


def _tie_tolerance(t, terms):
    """``tol_t = a t + b sqrt(t) + c`` (:func:`_tie_terms`): the tolerance of line 6's membership
    test after ``t`` iterations (the compiled loop evaluates the same expression)."""
    a, b, c = terms
    return a * t + b * math.sqrt(t) + c


def _ball_terms(eta_0, X, opts):
    """The coefficients ``(p, q)`` of line 11's tolerance ``tol_r(t) = p t sqrt(t) + q t`` (:func:`_outside_ball`).

    Error bound of the computed ``r_t^2`` (line 8, ``r2 + 2 eta_t c_i + eta_t^2 K_ii``, a running
    sum that line 12 resets to 1): each iteration adds ``2 eta_t`` times the error of ``c_i``
    (``E_c(t) <= 4 t u sqrt(k_max) + 2 sqrt(t) eta_0 eps_K``, :func:`_tie_terms`), ``eta_t^2 eps_K``
    and the rounding of the three operations, ``3 u (r2 + 2 eta_t |c_i| + eta_t^2 K_ii) <= 21 u``
    (``r2 <= 2``, ``eta_t |c_i| <= ||w|| <= 2``, ``eta_t^2 K_ii <= 1``).  With ``sum_s eta_s <= 2 eta_0
    sqrt(t)`` and ``1 + ln t <= 2 t``: ``E_r(t) <= 16 u t^1.5 + (21 u + 10 eta_0^2 eps_K) t``.
    Not finite (an overflowing kernel value): ``(0, 0)``, the plain ``r2 > 1``.
    """
    terms = (16.0 * _UNIT_ROUNDOFF, 21.0 * _UNIT_ROUNDOFF + 10.0 * eta_0 * eta_0 * kernel_value_error(X, opts.kernel))
    return terms if all(math.isfinite(v) for v in terms) else (0.0, 0.0)


def _outside_ball(r2, t, terms):
    """Line 11's ``r_t > 1``, decided to the error bound ``tol_r(t)`` of ``r_t^2`` (:func:`_ball_terms`):
    ``r2 > 1 + tol_r(t)``.  Tie rule: ``r_t^2`` within ``tol_r`` of 1 is ``r_t = 1`` (no rescaling;
    line 12 would divide by 1).  That case is exact at the first step (``r_1^2 = eta_0^2 K_ii = 1``
    for the row of the largest diagonal entry), where the two paths' kernel values one ulp apart
    used to rescale on one path only.  The compiled loop evaluates the same expression."""
    p, q = terms
    return r2 > 1.0 + (p * math.sqrt(t) + q) * t
