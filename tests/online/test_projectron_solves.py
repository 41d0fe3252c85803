"""Projectron / Projectron++, compiled path: the triangular solves with the kept Cholesky factor
(``z = L^{-1} k_t``, ``d* = L^{-T} z``, ``||d*||_1``) go by blocks of four columns over a buffer holding
``L`` and ``L'``; each entry must get the same IEEE operations in the same order as the plain
one-column-at-a-time substitutions (so the compiled clones and block sizes never change a model), and
solve the systems to the backward error of a triangular solve."""

import numpy as np
import pytest
import scipy.linalg

fast = pytest.importorskip("refsvm._fast.online")
U = 2.0 ** -53


def factor(b, seed):
    """A random kernel matrix's Cholesky factor (RBF on Gaussian points: well and badly conditioned)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(b, 3)) * (0.3 if seed % 2 else 1.5)
    K = np.exp(-np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=2)) + 1e-8 * np.eye(b)
    return np.linalg.cholesky(K), rng.normal(size=b)


def plain_solves(L, k):
    """The column-oriented substitutions one column at a time in Python floats (multiplying by the
    reciprocal of the pivot), the order the compiled blocks must reproduce."""
    b = L.shape[0]
    dinv = [1.0 / float(L[j, j]) for j in range(b)]
    z = [float(v) for v in k]
    for j in range(b):
        z[j] = z[j] * dinv[j]
        for l in range(j + 1, b):
            z[l] = z[l] - float(L[l, j]) * z[j]
    d = list(z)
    l1 = 0.0
    for j in range(b - 1, -1, -1):
        d[j] = d[j] * dinv[j]
        l1 += abs(d[j])
        for l in range(j):
            d[l] = d[l] - float(L[j, l]) * d[j]
    return np.array(z), np.array(d), l1


@pytest.mark.parametrize("b", [0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 22, 33, 64, 101])
def test_blocked_solves_are_the_plain_substitutions(b):
    """Every size modulo the block (partial first and last blocks): bitwise the plain loops."""
    for seed in range(3):
        L, k = factor(b, seed)
        z, d, l1 = fast._triangular_solves(L, k)
        z0, d0, l10 = plain_solves(L, k)
        np.testing.assert_array_equal(z, z0)
        np.testing.assert_array_equal(d, d0)
        assert l1 == l10


@pytest.mark.parametrize("b", [5, 17, 60])
def test_solves_against_scipy(b):
    """``L z = k`` and ``L' d = z`` hold to a triangular solve's backward error (Higham Thm 8.5,
    one more rounding for the reciprocal): residuals within (b + 3) u |L| |x| per entry."""
    L, k = factor(b, 11)
    z, d, l1 = fast._triangular_solves(L, k)
    bound_z = (b + 3) * U * (np.abs(L) @ np.abs(z)) * 1.01
    assert np.all(np.abs(L @ z - k) <= bound_z + (b + 3) * U * np.abs(k))
    assert np.all(np.abs(L.T @ d - z) <= (b + 3) * U * (np.abs(L.T) @ np.abs(d)) * 1.01 + (b + 3) * U * np.abs(z))
    d_ref = scipy.linalg.solve_triangular(L, scipy.linalg.solve_triangular(L, k, lower=True), lower=True, trans="T")
    scale = np.max(np.abs(d_ref))
    assert np.max(np.abs(d - d_ref)) <= 1e-6 * scale            # cond(K) up to ~1e8 here
    assert l1 == pytest.approx(np.sum(np.abs(d)), rel=b * U)


def test_wrong_length_is_an_error():
    L, _ = factor(4, 0)
    with pytest.raises(ValueError, match="k must have 4 entries"):
        fast._triangular_solves(L, np.zeros(3))
