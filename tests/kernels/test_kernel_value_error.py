"""refsvm.kernels.kernel_value_error: one kernel value's rounding bound, shared by SBP, BSGD, BSCA and
the online learners, checked against values computed in extended precision."""

import mpmath
import numpy as np
import pytest
import scipy.sparse as sp

from refsvm.kernels import Kernel, kernel_value_error, kernel_value_error_over


def _exact(kind, a, b, gamma, degree, coef0):
    mpmath.mp.dps = 50
    dot = mpmath.fsum(mpmath.mpf(float(u)) * mpmath.mpf(float(v)) for u, v in zip(a, b))
    if kind == "linear":
        return dot
    if kind == "poly":
        return (mpmath.mpf(gamma) * dot + mpmath.mpf(coef0)) ** degree
    sq = mpmath.fsum((mpmath.mpf(float(u)) - mpmath.mpf(float(v))) ** 2 for u, v in zip(a, b))
    return mpmath.exp(-mpmath.mpf(gamma) * sq)


@pytest.mark.parametrize("kind", ["linear", "rbf", "poly"])
def test_bound_holds_against_extended_precision(kind):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((12, 7)) * np.logspace(-2, 2, 7)
    X[5] = X[4] * (1 + 1e-9)                                  # a near duplicate: the rbf cancellation
    k = Kernel.of(kind, 0.01, 3, 1.0)
    bound = kernel_value_error(X, k)
    K = k.matrix(X, X)
    worst = max(abs(K[i, j] - float(_exact(kind, X[i], X[j], 0.01, 3, 1.0)))
                for i in range(len(X)) for j in range(len(X)))
    assert worst <= bound
    assert bound < 1e-6 * max(1.0, float(np.max(np.abs(K))))   # and it is a rounding bound, not a blanket


def test_over_several_row_sets_takes_the_largest_and_skips_empty_ones():
    k = Kernel.of("linear")
    small, large = np.ones((3, 4)), 10 * np.ones((2, 4))
    assert kernel_value_error_over(k, small, large) == kernel_value_error(large, k)
    assert kernel_value_error_over(k, small, None, np.empty((0, 4))) == kernel_value_error(small, k)
    assert kernel_value_error_over(k, None) == 0.0
    assert kernel_value_error_over(k, sp.csr_matrix(large)) == kernel_value_error(large, k)
