"""Gaussian kernel rows through the squared norms (refsvm/kernels.py, docs/sparse.rst).

``||s - x||^2 = ||s||^2 + ||x||^2 - 2 s.x`` clamped at 0, every sum in index order.  Checked here:

* a dense row and its CSR copy give bitwise the same kernel values, on both paths and for rows of
  every length (the pairwise sums of numpy change their shape above 8 and 128 entries; these sums
  do not), with negative values and signed zeros;
* the reference and the compiled rows have bitwise the same squared distances (``exp`` may differ
  by one ulp: DESIGN.md, Tolerances);
* the documented price, the cancellation of the expansion, stays within its bound against exact
  rational arithmetic (``fractions``) and a 50-digit ``exp`` (``decimal``);
* ``k(x, x) = 1`` exactly, however large ``x``.
"""

from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm.backend import get_module

BACKENDS = ("python", "fast")
U = 2.0 ** -53                     # unit roundoff of float64


def _rows(n, d, seed, density=0.3, scale=1.0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, d)) * scale
    A[rng.random((n, d)) > density] = 0.0
    A[0, : min(d, 3)] = -0.0                        # signed zeros: exact zero products of either sign
    return A


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("d", [1, 7, 8, 22, 123, 129, 300, 784])
def test_dense_and_csr_rows_are_bitwise_equal(backend, d):
    K = get_module("kernels", backend)
    SV = _rows(41, d, seed=d)                      # 41 rows: five blocks of eight and a rest
    for i in range(5):
        x = _rows(1, d, seed=1000 + d + i)[0]
        dense = K.kernel_row(SV, x, "rbf", 0.7, 3, 0.0)
        csr = K.kernel_row(sp.csr_matrix(SV), sp.csr_matrix(x), "rbf", 0.7, 3, 0.0)
        np.testing.assert_array_equal(dense, csr)
    A = _rows(9, d, seed=7 * d)
    np.testing.assert_array_equal(K.kernel_matrix(A, SV, "rbf", 0.7, 3, 0.0),
                                  K.kernel_matrix(sp.csr_matrix(A), sp.csr_matrix(SV), "rbf", 0.7, 3, 0.0))


@pytest.mark.parametrize("d", [5, 123, 300])
def test_paths_compute_the_same_squared_distances(d):
    """The same squared distances on both paths: the kernel values differ at most by exp's one ulp
    (numpy's exp against the vectorised exp of kernels.pxd), never by a distance's rounding."""
    SV = _rows(30, d, seed=d, scale=0.2)
    x = _rows(1, d, seed=d + 1, scale=0.2)[0]
    ref = get_module("kernels", "python").kernel_row(SV, x, "rbf", 1.0, 3, 0.0)
    fast = get_module("kernels", "fast").kernel_row(SV, x, "rbf", 1.0, 3, 0.0)
    assert np.all(np.abs(ref - fast) <= np.spacing(ref))


def _exact_sq(s, x):
    return sum((Fraction(a) - Fraction(b)) ** 2 for a, b in zip(s.tolist(), x.tolist()))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", ["random", "near", "far-from-origin"])
def test_gaussian_values_within_the_documented_error_bound(backend, case):
    """The computed kernel value against exp(-gamma * exact squared distance) (50 digits).

    Bound: each of the three sums of d terms is off by at most (d - 1) u times the sum of its
    absolute terms (sequential summation), ``|s.x|``'s terms sum to at most (||s||^2 + ||x||^2) / 2,
    and the two final operations add 2 u; so the squared distance is off by at most
    ``delta = (d + 2) u (||s||^2 + ||x||^2)`` (to first order), the kernel value relatively by
    ``gamma delta`` plus exp's own one ulp."""
    getcontext().prec = 50
    d, gamma = 60, 0.5
    rng = np.random.default_rng(3)
    SV = rng.standard_normal((12, d))
    if case == "near":                              # the cancellation case: x within 1e-6 of every SV
        x = SV[0] + 1e-6 * rng.standard_normal(d)
        SV = x + 1e-6 * rng.standard_normal((12, d))
    elif case == "far-from-origin":                 # large norms, unit distances: delta grows with them
        SV = SV * 0.1 + 30.0
        x = SV[3] + 0.1 * rng.standard_normal(d)
    else:
        x = rng.standard_normal(d)
    k = get_module("kernels", backend).kernel_row(SV, x, "rbf", gamma, 3, 0.0)
    worst = 0.0
    for j in range(len(SV)):
        exact_sq = _exact_sq(SV[j], x)
        exact_k = float((Decimal(-gamma) * Decimal(exact_sq.numerator) / Decimal(exact_sq.denominator)).exp())
        norms = float(np.dot(SV[j], SV[j]) + np.dot(x, x))
        delta = 1.01 * (d + 2) * U * norms
        assert abs(k[j] - exact_k) <= exact_k * (gamma * delta + 4 * U), (j, k[j], exact_k)
        worst = max(worst, abs(k[j] - exact_k) / exact_k)
    assert worst > 0.0 or case == "near"            # not trivially exact (a rounding did happen)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("scale", [1.0, 1e3, 1e150])
def test_a_point_has_kernel_one_with_itself(backend, scale):
    """``||x||^2 + ||x||^2 - 2 x.x`` is exactly 0: the three sums are the same sum."""
    K = get_module("kernels", backend)
    SV = _rows(20, 123, seed=5, scale=scale)
    for j in range(20):
        assert K.kernel_row(SV, SV[j], "rbf", 0.3, 3, 0.0)[j] == 1.0
        assert K.kernel_row(sp.csr_matrix(SV), sp.csr_matrix(SV[j]), "rbf", 0.3, 3, 0.0)[j] == 1.0


@pytest.mark.parametrize("d", [3, 123, 300])
def test_merge_distance_is_the_same_for_dense_and_sparse_rows(d):
    """Merging's ``||x_m - x_n||^2`` (refsvm.kernels.sq_dist): one number for a dense pair and its CSR
    copy, 0 for a point and itself, and within the expansion's error bound of the exact value."""
    from refsvm.kernels import sq_dist

    A = _rows(6, d, seed=d + 50)
    for i in range(5):
        a, b = A[i], A[i + 1]
        dense = sq_dist(a, b)
        assert dense == sq_dist(sp.csr_matrix(a), sp.csr_matrix(b))
        assert sq_dist(a, a) == 0.0 == sq_dist(sp.csr_matrix(a), sp.csr_matrix(a))
        exact = float(_exact_sq(a, b))
        assert abs(dense - exact) <= 1.01 * (d + 2) * U * float(a @ a + b @ b)


def _estimators():
    from refsvm import BSCAClassifier, BudgetedSVC, NOGDClassifier, OnlineKernelClassifier, SBPClassifier

    return [BudgetedSVC(budget=10, gamma=1e-300), BSCAClassifier(budget=10, gamma=1e-300),
            SBPClassifier(gamma=1e-300), NOGDClassifier(budget=10, rank=5, gamma=1e-300),
            OnlineKernelClassifier(algorithm="forgetron", budget=10, gamma=1e-300)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("index", range(5))
def test_rows_too_large_for_the_expansion_are_refused(backend, sparse, index):
    """Entries near 1e160: ``||x||^2`` overflows, ``inf - inf`` would give a NaN (reference) or a kernel
    value of 1 (clamped, compiled) for distinct points.  Every Gaussian solver refuses such X, naming
    it, on both paths; the same data scaled down to 1e100 trains."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    est = _estimators()[index].set_params(backend=backend)
    big = X * 1e160
    with pytest.raises(ValueError, match="X has rows too large for the Gaussian kernel"):
        est.fit(sp.csr_matrix(big) if sparse else big, y)
    ok = X * 1e100
    est.fit(sp.csr_matrix(ok) if sparse else ok, y)
    with pytest.raises(ValueError, match="X has rows too large for the Gaussian kernel"):
        est.decision_function(sp.csr_matrix(big) if sparse else big)


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_other_kernels_are_not_refused_for_large_rows(backend):
    """Large rows are not refused for the linear kernel: rows of norm 1e150 (squared norms near
    1e300, finite dot products) train a finite linear model that separates the separable labels.
    (This test once fitted rows of norm 1e160, whose dot products overflow, and checked only that
    nothing raised: the model was infinite and never examined.)"""
    from refsvm import BudgetedSVC

    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 3)) * 1e150
    y = np.where(X[:, 0] > 0, 1, -1)
    est = BudgetedSVC(budget=8, kernel="linear", maintenance="removal", epochs=5, random_state=0,
                      backend=backend).fit(X, y)
    assert np.all(np.isfinite(est.model_.coef)) and np.all(np.isfinite(est.decision_function(X)))
    assert est.score(X, y) >= 0.9


@pytest.mark.parametrize("n, m, d", [(2, 1, 1), (7, 5, 3), (17, 13, 8), (100, 100, 123), (3000, 50, 300), (9, 1000, 2)])
def test_dense_rbf_matrix_is_kernel_row_by_row_bitwise(n, m, d):
    """kernel_matrix forms the dense Gaussian matrix a block of rows at a time (the Projectrons'
    solves afresh build K with it): every entry is bitwise the kernel_row value."""
    from refsvm.kernels import kernel_matrix, kernel_row
    rng = np.random.default_rng(n * m + d)
    A = rng.normal(size=(n, d)) * 10.0 ** rng.uniform(-2, 2, size=d)
    B = np.vstack([A[: min(n, m)], rng.normal(size=(max(0, m - n), d))])[:m]
    K = kernel_matrix(A, B, "rbf", 0.37, 3, 0.0)
    rows = np.array([kernel_row(B, a, "rbf", 0.37, 3, 0.0) for a in A])
    assert K.shape == (n, m) and np.array_equal(K, rows)
