"""Agreement of refsvm._fast.kernels / refsvm._fast.budget with the reference modules.

Every public function of :mod:`refsvm.kernels` and :mod:`refsvm.budget` is
called on both backends with identical, seeded random inputs.

Tolerances: discrete outputs (selected index, merge partner, new ``n_sv``)
must be equal, and so must the in-place list operations (which rows moved
where).  Floating-point outputs of a single call are compared to
``rtol = 1e-12``: the compiled path reproduces numpy's pairwise summation
and the sequential class sums of ``budget.class_dot``, so most agree bitwise; the Gaussian
kernel's ``exp`` (numpy's SIMD ``exp`` versus the compiled path's vectorised
one, each within an ulp of the exact value) and linear-algebra kernels
(BLAS/LAPACK versus the compiled loops) may differ by a few ulps.
The projection fixtures are well-conditioned (``cond(K_p)`` below ~1e3), so
the two LU solves agree far below 1e-12 relative.  ``golden_section_search``
and the merge coefficient ``h`` make the same comparisons on the same values:
they are compared exactly.

The compiled modules are imported directly: a missing extension is an error,
never a skip.
"""

import math

import numpy as np
import pytest

import refsvm._fast.budget as fast_budget
import refsvm._fast.kernels as fast_kernels
import refsvm.budget as ref_budget
import refsvm.kernels as ref_kernels

RTOL = 1e-12

KERNEL_PARAMS = [
    ("rbf", 0.7, 3, 1.0),
    ("rbf", 5.0, 3, 1.0),
    ("linear", 1.0, 3, 0.0),
    ("poly", 0.5, 3, 1.0),
    ("poly", 0.2, 2, 0.5),
]


def model(n_sv=12, d=3, c=1, capacity=None, seed=0, signs="mixed"):
    """Random SV set with room for ``capacity`` rows (the unused rows are garbage)."""
    rng = np.random.default_rng(seed)
    capacity = capacity or n_sv + 2
    SV = rng.standard_normal((capacity, d))
    alpha = rng.standard_normal((capacity, c)) * rng.uniform(0.1, 3.0, size=(capacity, 1))
    if signs == "positive":
        alpha = np.abs(alpha)
    return SV, alpha


def both(fn_name, ref_mod, fast_mod, *args):
    """Call a function on copies of the arguments on both backends."""
    ref_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    fast_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    r = getattr(ref_mod, fn_name)(*ref_args)
    f = getattr(fast_mod, fn_name)(*fast_args)
    return r, f, ref_args, fast_args


def assert_model_equal(ref_args, fast_args, n_sv, rtol=RTOL):
    """SV (args[0]) and alpha (args[1]) agree after an in-place call, rows beyond n_sv included."""
    for k, name in ((0, "SV"), (1, "alpha")):
        scale = np.max(np.abs(ref_args[k][:n_sv]), initial=0.0)
        np.testing.assert_allclose(fast_args[k], ref_args[k], rtol=rtol, atol=rtol * scale, err_msg=name)


# ----------------------------------------------------------------------------
# kernels
# ----------------------------------------------------------------------------

def test_kernel_constants():
    assert fast_kernels.KERNELS == ref_kernels.KERNELS


@pytest.mark.parametrize("kernel,gamma,degree,coef0", KERNEL_PARAMS)
@pytest.mark.parametrize("d", [1, 2, 7, 8, 22, 123, 300])
def test_kernel_functions(kernel, gamma, degree, coef0, d):
    rng = np.random.default_rng(d)
    A = rng.standard_normal((9, d)) / math.sqrt(d)
    B = rng.standard_normal((13, d)) / math.sqrt(d)
    args = (kernel, gamma, degree, coef0)
    for i in range(A.shape[0]):
        np.testing.assert_allclose(fast_kernels.kernel_row(B, A[i], *args),
                                   ref_kernels.kernel_row(B, A[i], *args), rtol=RTOL)
    np.testing.assert_allclose(fast_kernels.kernel_diag(B, *args),
                               ref_kernels.kernel_diag(B, *args), rtol=RTOL)
    K_ref = ref_kernels.kernel_matrix(A, B, *args)
    K_fast = fast_kernels.kernel_matrix(A, B, *args)
    assert K_fast.shape == K_ref.shape == (9, 13) and K_fast.dtype == np.float64
    np.testing.assert_allclose(K_fast, K_ref, rtol=RTOL)


@pytest.mark.parametrize("d", [2, 7, 8, 22, 123, 129, 300])
def test_sums_follow_numpys_pairwise_order(d):
    """``kernel_diag`` for the linear kernel is ``np.sum(SV * SV, axis=1)``: bitwise equal."""
    rng = np.random.default_rng(d)
    SV = rng.standard_normal((50, d))
    np.testing.assert_array_equal(fast_kernels.kernel_diag(SV, "linear", 1.0, 3, 0.0),
                                  ref_kernels.kernel_diag(SV, "linear", 1.0, 3, 0.0))


def test_kernel_edge_cases():
    SV = np.zeros((0, 4))
    x = np.ones(4)
    for mod in (ref_kernels, fast_kernels):
        assert mod.kernel_row(SV, x, "rbf", 1.0, 3, 0.0).shape == (0,)
        assert mod.kernel_diag(SV, "linear", 1.0, 3, 0.0).shape == (0,)
        assert mod.kernel_matrix(SV, np.ones((3, 4)), "poly", 1.0, 3, 0.0).shape == (0, 3)
    # non-contiguous / non-float64 input is converted
    M = np.arange(24, dtype=np.int32).reshape(4, 6)[:, ::2]
    np.testing.assert_allclose(fast_kernels.kernel_matrix(M, M, "rbf", 0.01, 3, 0.0),
                               ref_kernels.kernel_matrix(M, M, "rbf", 0.01, 3, 0.0), rtol=RTOL)
    for mod in (ref_kernels, fast_kernels):
        with pytest.raises(ValueError, match="kernel must be one of"):
            mod.kernel_row(np.ones((2, 2)), np.ones(2), "sigmoid", 1.0, 3, 0.0)
        with pytest.raises(ValueError, match="kernel must be one of"):
            mod.kernel_diag(np.ones((2, 2)), "sigmoid", 1.0, 3, 0.0)


# ----------------------------------------------------------------------------
# budget: constants and list operations
# ----------------------------------------------------------------------------

def test_budget_constants():
    assert fast_budget.GOLDEN_RATIO == ref_budget.GOLDEN_RATIO
    assert fast_budget.MERGE_EPS == ref_budget.MERGE_EPS
    assert fast_budget.MERGE_EPS_PRECISE == ref_budget.MERGE_EPS_PRECISE
    assert fast_budget.PROJECTION_RIDGE == ref_budget.PROJECTION_RIDGE
    assert fast_budget.MAINTENANCE == ref_budget.MAINTENANCE


@pytest.mark.parametrize("p", [0, 4, 9])
@pytest.mark.parametrize("c", [1, 3])
def test_remove_sv(p, c):
    SV, alpha = model(n_sv=10, c=c, seed=p)
    r, f, ra, fa = both("remove_sv", ref_budget, fast_budget, SV, alpha, 10, p)
    assert r == f == 9
    np.testing.assert_array_equal(fa[0], ra[0])
    np.testing.assert_array_equal(fa[1], ra[1])


@pytest.mark.parametrize("kernel,gamma,degree,coef0", KERNEL_PARAMS)
@pytest.mark.parametrize("c", [1, 3, 4])
def test_select_smallest(kernel, gamma, degree, coef0, c):
    for seed in range(5):
        SV, alpha = model(n_sv=15, c=c, seed=seed)
        r, f, _, _ = both("select_smallest", ref_budget, fast_budget, SV, alpha, 15, kernel, gamma, degree, coef0)
        assert f[0] == r[0] and type(f[0]) is int
        assert isinstance(f[1], float)
        np.testing.assert_allclose(f[1], r[1], rtol=RTOL)


def test_select_smallest_ties_go_to_the_lowest_index():
    SV, alpha = model(n_sv=8, c=3, seed=1)
    alpha[:] = [1.0, -2.0, 0.5]
    alpha[[3, 6]] = [0.5, 0.5, 0.5]          # equal smallest norms at 3 and 6
    for mod in (ref_budget, fast_budget):
        assert mod.select_smallest(SV, alpha, 8, "rbf", 1.0, 3, 0.0)[0] == 3
    alpha[:] = 1.0                            # all equal
    for mod in (ref_budget, fast_budget):
        assert mod.select_smallest(SV, alpha, 8, "rbf", 1.0, 3, 0.0)[0] == 0


def test_select_smallest_binary_gaussian():
    """The compiled binary Gaussian case (four running minima, then the first index holding the
    minimum): every length (the loop's tails), ties across its lanes, signs, zeros and inf."""
    rng = np.random.default_rng(11)
    for n in range(1, 14):
        for trial in range(30):
            SV = rng.standard_normal((n, 2))
            alpha = rng.choice([-3.0, -1.0, -0.5, 0.5, 1.0, 2.0], size=(n, 1))
            if trial % 3 == 0:
                alpha[rng.integers(0, n)] = 0.0
            if trial % 5 == 0:
                alpha[rng.integers(0, n, 2)] = np.inf
            if trial % 7 == 0:
                alpha[:] = -np.inf
            expected = int(np.argmin(alpha[:, 0] ** 2))
            r = ref_budget.select_smallest(SV, alpha, n, "rbf", 1.0, 3, 0.0)
            f = fast_budget.select_smallest(SV, alpha, n, "rbf", 1.0, 3, 0.0)
            assert r[0] == f[0] == expected, (n, trial, alpha.ravel())
            assert f[1] == r[1]


# ----------------------------------------------------------------------------
# budget: the three strategies
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("kernel,gamma,degree,coef0", KERNEL_PARAMS)
@pytest.mark.parametrize("c", [1, 3])
def test_maintain_removal(kernel, gamma, degree, coef0, c):
    for seed in range(4):
        SV, alpha = model(n_sv=12, c=c, seed=seed)
        r, f, ra, fa = both("maintain_removal", ref_budget, fast_budget, SV, alpha, 12, kernel, gamma, degree, coef0)
        assert f[:3] == r[:3] and all(type(v) is int for v in f[:3])
        np.testing.assert_allclose(f[3], r[3], rtol=RTOL)
        assert_model_equal(ra, fa, 11)


@pytest.mark.parametrize("kernel,gamma,degree,coef0",
                         [("rbf", 2.0, 3, 1.0), ("rbf", 5.0, 3, 1.0), ("linear", 1.0, 3, 0.0),
                          ("poly", 0.5, 3, 1.0)])
@pytest.mark.parametrize("c", [1, 3])
@pytest.mark.parametrize("ridge", [1e-10, 1e-4])
def test_maintain_projection(kernel, gamma, degree, coef0, c, ridge):
    d = 3 if kernel == "rbf" else 20        # linear / poly: enough dimensions for a regular K_p
    for seed in range(4):
        SV, alpha = model(n_sv=12, d=d, c=c, seed=seed)
        args = (SV, alpha, 12, kernel, gamma, degree, coef0, ridge)
        r, f, ra, fa = both("maintain_projection", ref_budget, fast_budget, *args)
        assert f[:3] == r[:3]
        np.testing.assert_allclose(f[3], r[3], rtol=1e-9, atol=1e-12 * np.sum(alpha[r[1]] ** 2))
        assert_model_equal(ra, fa, 11, rtol=1e-10)


def test_maintain_projection_small_sets():
    for n_sv in (1, 2):
        SV, alpha = model(n_sv=n_sv, c=2, seed=n_sv)
        r, f, ra, fa = both("maintain_projection", ref_budget, fast_budget, SV, alpha, n_sv, "rbf", 1.0, 3, 0.0, 1e-10)
        assert f[:3] == r[:3]
        np.testing.assert_allclose(f[3], r[3], rtol=RTOL)
        assert_model_equal(ra, fa, n_sv - 1)


@pytest.mark.parametrize("eps", [0.01, 1e-10])
@pytest.mark.parametrize("c,signs", [(1, "mixed"), (1, "positive"), (3, "mixed"), (4, "mixed")])
@pytest.mark.parametrize("gamma", [0.3, 2.0, 20.0])
def test_maintain_merge(eps, c, signs, gamma):
    for seed in range(4):
        SV, alpha = model(n_sv=14, c=c, seed=seed, signs=signs)
        r, f, ra, fa = both("maintain_merge", ref_budget, fast_budget, SV, alpha, 14, gamma, eps)
        assert f[:3] == r[:3] and all(type(v) is int for v in f[:3])
        assert isinstance(f[3], float)
        np.testing.assert_allclose(f[3], r[3], rtol=RTOL, atol=1e-15)
        assert_model_equal(ra, fa, 13)


def test_maintain_merge_without_partner_of_equal_sign_removes():
    SV, alpha = model(n_sv=6, c=1, seed=3)
    alpha[:6, 0] = [-2.0, -1.0, -3.0, 0.05, -2.0, -4.0]   # only slot 3 (the smallest) is positive
    r, f, ra, fa = both("maintain_merge", ref_budget, fast_budget, SV, alpha, 6, 1.0, 0.01)
    assert r[2] == -1 and f == r
    assert_model_equal(ra, fa, 5)


def test_maintain_dispatch_and_errors():
    SV, alpha = model(n_sv=10, c=3, seed=7)
    for strategy, kernel in (("removal", "poly"), ("projection", "rbf"), ("merge", "rbf")):
        args = (strategy, SV, alpha, 10, kernel, 1.5, 3, 1.0, 0.01, 1e-10)
        r, f, ra, fa = both("maintain", ref_budget, fast_budget, *args)
        assert f[:3] == r[:3]
        np.testing.assert_allclose(f[3], r[3], rtol=1e-10)
        np.testing.assert_allclose(fa[1][:9], ra[1][:9], rtol=1e-10)
        np.testing.assert_allclose(fa[2][:9], ra[2][:9], rtol=1e-10)
    for mod in (ref_budget, fast_budget):
        with pytest.raises(ValueError, match="maintenance must be one of"):
            mod.maintain("forget", SV.copy(), alpha.copy(), 10, "rbf", 1.0, 3, 0.0, 0.01, 1e-10)
        with pytest.raises(ValueError, match="requires kernel='rbf'"):
            mod.maintain("merge", SV.copy(), alpha.copy(), 10, "linear", 1.0, 3, 0.0, 0.01, 1e-10)


def test_in_place_on_non_contiguous_arrays():
    """Arrays that are not C-contiguous float64 are still modified in place."""
    SV, alpha = model(n_sv=10, c=3, seed=11)
    SV_f, alpha_f = np.asfortranarray(SV), np.asfortranarray(alpha)
    r = ref_budget.maintain_merge(SV, alpha, 10, 1.0, 0.01)
    f = fast_budget.maintain_merge(SV_f, alpha_f, 10, 1.0, 0.01)
    assert f == r
    np.testing.assert_array_equal(SV_f, SV)
    np.testing.assert_array_equal(alpha_f, alpha)


# ----------------------------------------------------------------------------
# budget: merging primitives
# ----------------------------------------------------------------------------

def merge_cases():
    rng = np.random.default_rng(123)
    cases = []
    for c in (1, 2, 3, 4, 10):
        for _ in range(25):
            am = rng.standard_normal(c) * rng.uniform(0.01, 10.0)
            an = rng.standard_normal(c) * rng.uniform(0.01, 10.0)
            if c == 1 and rng.random() < 0.7:
                an = np.abs(an) * np.sign(am)          # mostly equal signs, as BSGD merges them
            log_kappa = -rng.uniform(0.0, 1.0) ** 2 * 12.0
            cases.append((am, an, log_kappa))
    cases.append((np.array([1.0]), np.array([1.0]), -0.5))     # symmetric: g(1) == g(0)
    cases.append((np.array([2.0]), np.array([1e-3]), -40.0))  # kappa ~ 4e-18
    cases.append((np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0.0))  # kappa = 1
    return cases


def test_merge_objective():
    for am, an, lk in merge_cases():
        for h in (0.0, 0.1, 0.5, 0.618, 0.99, 1.0):
            r = ref_budget.merge_objective(h, am, an, lk)
            f = fast_budget.merge_objective(h, am, an, lk)
            assert isinstance(f, float)
            np.testing.assert_allclose(f, r, rtol=RTOL)


@pytest.mark.parametrize("eps", [0.01, 1e-3, 1e-10])
def test_merge_h_and_pair(eps):
    for am, an, lk in merge_cases():
        h_ref = ref_budget.merge_h(am, an, lk, eps)
        h_fast = fast_budget.merge_h(am, an, lk, eps)
        assert h_fast == h_ref                              # same comparisons on the same values
        hr, azr, wdr = ref_budget.merge_pair(am, an, lk, eps)
        hf, azf, wdf = fast_budget.merge_pair(am, an, lk, eps)
        assert hf == hr
        assert azf.shape == azr.shape
        np.testing.assert_allclose(azf, azr, rtol=RTOL)
        np.testing.assert_allclose(wdf, wdr, rtol=RTOL, atol=1e-15 * (am @ am + an @ an))


def test_merge_pair_scalars():
    hr, azr, wdr = ref_budget.merge_pair(1.5, 0.5, -0.7, 0.01)
    hf, azf, wdf = fast_budget.merge_pair(1.5, 0.5, -0.7, 0.01)
    assert hf == hr and isinstance(azf, float)
    np.testing.assert_allclose([azf, wdf], [azr, wdr], rtol=RTOL)


def test_merge_objective_is_bitwise():
    """The merging objective uses libm's exp and CPython's ``(1 - h) ** 2`` (libm's pow):
    equal bit for bit, which is what keeps even merge_eps = 1e-10 decisions identical."""
    rng = np.random.default_rng(77)
    hs = np.concatenate([rng.random(20000), [0.0, 0.5, 1.0, 2.0 ** -30, 1.0 - 2.0 ** -40]])
    for k, h in enumerate(hs):
        am, an = rng.uniform(0.1, 5.0, size=2)
        lk = -rng.uniform(0.0, 20.0)
        c = 1 + k % 3
        a_m = np.full(c, am) * rng.uniform(0.5, 1.5, size=c)
        a_n = np.full(c, an) * rng.uniform(0.5, 1.5, size=c)
        assert fast_budget.merge_objective(h, a_m, a_n, lk) == ref_budget.merge_objective(h, a_m, a_n, lk)


def test_golden_section_search():
    funcs = [lambda h: -(h - 0.3) ** 2, lambda h: math.sin(3.0 * h), lambda h: 1.0,
             lambda h: -abs(h - 0.77), lambda h: math.exp(-((h - 0.5) ** 2) * 1e4)]
    for fn in funcs:
        for lo, hi in ((0.0, 1.0), (0.0, 0.5), (0.5, 1.0), (-3.0, 2.0)):
            for eps in (0.1, 0.01, 1e-6, 1e-10):
                assert fast_budget.golden_section_search(fn, lo, hi, eps) == \
                    ref_budget.golden_section_search(fn, lo, hi, eps)
