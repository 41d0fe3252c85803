"""Agreement at tiny margins: the Gaussian kernel's relative error bound keeps the sign of a margin of distant rows.

A Gaussian kernel value between rows far apart (unscaled data) is tiny but known to a few ulps of
itself: ``|k - k_exact| <= rel k + tiny`` (refsvm.online.common.KernelError.rel), where the absolute
bound ``eps_K`` (about ``2 (d + 2) u gamma M``) would swamp it.  ``margin_tolerance`` takes the
smaller of the two bounds, so a margin of such values keeps its sign instead of being read as 0
(which, under ``zero_prediction="positive"``, counted it as +1).  Checked against 60-digit mpmath:
the relative bound holds for the kernel values of both paths, the tolerance covers the computed
margin's error, and it is far below the absolute bound where the values are tiny.
"""

import math

import mpmath
import numpy as np
import pytest

from refsvm._fast.kernels import kernel_matrix
from refsvm.kernels import Kernel
from refsvm.online.common import TINY_KERNEL_ERROR, gaussian_relative_error, kernel_value_error_at, margin_tolerance

mpmath.mp.dps = 60


def _exact_rbf(x, z, gamma):
    return mpmath.exp(-mpmath.mpf(gamma) * mpmath.fsum((mpmath.mpf(a) - mpmath.mpf(b)) ** 2 for a, b in zip(x, z)))


def _far_rows(seed, n, d, scale):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)) * scale * rng.uniform(0.1, 1.0, size=(n, 1))


@pytest.mark.parametrize("seed", range(4))
def test_the_relative_bound_holds_on_both_paths(seed):
    X = _far_rows(seed, 12, 7, scale=30.0)
    gamma = 0.05
    M = float(np.max(np.einsum("ij,ij->i", X, X)))
    rel = gaussian_relative_error(X.shape[1], M, gamma)
    K_ref = Kernel("rbf", gamma).matrix(X, X)
    K_fast = kernel_matrix(X, X, "rbf", gamma, 3, 0.0)
    small = 0
    for i in range(X.shape[0]):
        for j in range(X.shape[0]):
            exact = _exact_rbf(X[i], X[j], gamma)
            for K in (K_ref, K_fast):
                assert abs(mpmath.mpf(K[i, j]) - exact) <= rel * K[i, j] + TINY_KERNEL_ERROR, (i, j, K[i, j])
            small += 0 < K_ref[i, j] < 1e-30
    assert small > 20                                    # the regime the bound is for


def test_a_tiny_margin_keeps_its_sign():
    rng = np.random.default_rng(7)
    X = _far_rows(7, 30, 5, scale=25.0)
    x = X[0]
    gamma = 300.0 / float(np.min(np.sum((X[1:] - x) ** 2, axis=1)))   # every value below e^-300
    sv, a = X[1:], rng.normal(size=(X.shape[0] - 1, 1))
    k = Kernel("rbf", gamma).matrix(sv, x[None, :])       # (b, 1): values between distant rows
    f = float(k[:, 0] @ a[:, 0])
    exact = mpmath.fsum(mpmath.mpf(a[j, 0]) * _exact_rbf(sv[j], x, gamma) for j in range(sv.shape[0]))
    M = float(np.max(np.einsum("ij,ij->i", X, X)))
    eps_K = kernel_value_error_at(X.shape[1], M, Kernel("rbf", gamma))
    tol = margin_tolerance(k, a, eps_K)
    absolute = margin_tolerance(k, a, float(eps_K))         # a plain float: the absolute bound only
    assert abs(mpmath.mpf(f) - exact) <= tol / 2           # the bound covers the computed margin
    assert abs(f) > tol and math.copysign(1, f) == (1 if exact > 0 else -1)   # its sign is kept
    assert absolute > abs(f)                               # the absolute bound alone would read it as 0
    assert tol < 1e-6 * absolute


def test_no_relative_bound_for_other_kernels_or_huge_exponents():
    assert math.isinf(getattr(kernel_value_error_at(3, 10.0, Kernel("linear")), "rel"))
    assert math.isinf(gaussian_relative_error(3, 1e300, 1.0))       # no overflow: no relative bound
    eps = kernel_value_error_at(3, 10.0, Kernel("rbf", 0.5))
    assert 0 < eps.rel < 1e-12 and float(eps) > 0


def test_both_backends_read_the_same_named_error_bound_constants():
    """The compiled bounds' constants (``tolerance.pxd``) are the values named in refsvm.constants,
    and each has the meaning its name states (independent checks, not the module's own numbers)."""
    import math
    import sys

    from refsvm import constants
    from refsvm._fast.online import error_bound_constants

    compiled = error_bound_constants()
    for name, value in compiled.items():
        assert getattr(constants, name) == value, name
    smallest_subnormal = math.ulp(0.0)
    assert math.exp(-constants.EXP_UNDERFLOW_ARGUMENT) == 0.0          # beyond it exp underflows to 0
    assert -math.log(smallest_subnormal) < constants.EXP_UNDERFLOW_ARGUMENT
    assert constants.EXP_OVERFLOW_ARGUMENT < math.log(sys.float_info.max)   # expm1 below it is finite
    assert math.isfinite(math.expm1(constants.EXP_OVERFLOW_ARGUMENT))
    assert constants.TINY_KERNEL_ERROR == 4 * smallest_subnormal
