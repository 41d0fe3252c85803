"""BSCA projection: the selection's tie rule carries a bound of the projection solves' error.

After a projection solve on near duplicates or a rank-deficient ``K_p`` the coefficients of repeated
rows differ between the two paths by the solve's error (~1e-7 relative, up to ``u / ridge``), far
above a rounding tie unit, so the paths picked different SVs to project.  Each slot now carries a
bound ``e_j`` of what the solves put into its coefficient (``refsvm.budget.projection_solve_error``),
and the selection takes the candidates within ``t_j = tie_unit N_j + s_j`` of the least as ties (lowest
index).  Checked here:

* the bound holds against a 60-digit solve whose kernel values are computed in 60 digits too (so
  both the solve's rounding and the kernel values' rounding are inside), on near-singular and
  rank-deficient sets, for both paths;
* generated configurations of the long agreement run that parted in this selection now agree;
* the bound holds when ``alpha_p``'s own bound exceeds ``|alpha_p|`` by far and ``x_j`` is noise (exact
  duplicates), where it now reads ``max(|x_j|, delta_j) + delta_j`` (the two paths' ``|x_j|`` differed
  300-fold there and moved a slot across the band edge: seed 15079);
* a run continued through ``sv_error`` (as the estimator chains its epochs) is bitwise one call;
* ``sv_error`` of the wrong shape is refused naming it.
"""

import numpy as np
import pytest
from agreement._generate import check, draw_config
from budget.test_projection_ridge import _mp_kernel, _sets

from refsvm import bsca as ref_bsca
from refsvm import budget as ref
from refsvm.kernels import Kernel
from refsvm.kernels import kernel_value_error

fast = pytest.importorskip("refsvm._fast.budget")
fast_bsca = pytest.importorskip("refsvm._fast.bsca")
mpmath = pytest.importorskip("mpmath")
EPS = np.finfo(float).eps
RIDGE = 1e-10


def _near_singular_sets():
    rng = np.random.default_rng(29)
    base = rng.normal(size=(6, 3))
    near = np.r_[base, base[:3] * (1 + 1e-9), base[3:4]]                          # 1e-9 near + exact duplicates
    low = np.r_[base[:, :2], base[:4, :2] * 2.0]                                    # linear: 10 SVs in 2-d
    return [("rbf-near-1e-9", near, "rbf", 0.7, 3, 0.0), ("linear-rank-2", low, "linear", 1.0, 3, 0.0),
            ("poly2-rank", low, "poly", 0.5, 2, 1.0)] + _sets()


SETS = _near_singular_sets()


def _mp_projection_solve(X, others, p, kernel, gamma, degree, coef0):
    """``(K_p + r I)^-1 k_p`` in 60 digits from 60-digit kernel values of the data (``r`` the relative ridge)."""
    mpmath.mp.dps = 60
    m = len(others)
    diag = np.array([float(_mp_kernel(X[j], X[j], kernel, gamma, degree, coef0)) for j in others])
    r = mpmath.mpf(ref.relative_ridge(RIDGE, diag))
    Kp, kp = mpmath.matrix(m, m), mpmath.matrix(m, 1)
    for a, ja in enumerate(others):                                      # exact kernel values of the data
        kp[a] = _mp_kernel(X[ja], X[p], kernel, gamma, degree, coef0)
        for b, jb in enumerate(others):
            Kp[a, b] = _mp_kernel(X[ja], X[jb], kernel, gamma, degree, coef0) + (r if a == b else 0)
    return mpmath.lu_solve(Kp, kp)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("case", SETS, ids=[s[0] for s in SETS])
def test_solve_error_bound_against_mpmath(module, case):
    _, X, kernel, gamma, degree, coef0 = case
    mpmath.mp.dps = 60
    n = len(X)
    rng = np.random.default_rng(n)
    A = rng.uniform(0.5, 1.5, size=(n, 1)) * rng.choice([-1.0, 1.0], size=(n, 1))
    E0 = rng.uniform(0.0, 1e-12, size=n)                                  # bounds from earlier solves
    SV, alpha, E = X.copy(), A.copy(), E0.copy()
    eps_k = kernel_value_error(X, Kernel.of(kernel, gamma, degree, coef0))
    tie_unit = ref.selection_tie_unit(Kernel.of(kernel, gamma, degree, coef0), X.shape[1])
    n_new, p, _, _ = module.maintain_projection(SV, alpha, n, kernel, gamma, degree, coef0, RIDGE, tie_unit, E, eps_k)
    assert n_new == n - 1 and E[n - 1] == 0.0                             # the free slot holds 0
    others = [j for j in range(n) if j != p]
    x = _mp_projection_solve(X, others, p, kernel, gamma, degree, coef0)
    exact = np.array([float(mpmath.mpf(float(A[ja, 0])) + x[a] * mpmath.mpf(float(A[p, 0])))
                      for a, ja in enumerate(others)])
    slot = [ja if ja < n - 1 else p for ja in others]                    # swap-remove: last -> p
    got, bound = alpha[slot, 0], E[slot]
    # the inputs' own error (E0) reaches the result only through alpha_p (|x_j| e_p, inside the bound);
    # alpha_j's E0[j] is carried unchanged; the add itself rounds by an ulp
    assert np.all(bound >= E0[others] + np.abs([float(v) for v in x]) * E0[p] * (1 - 1e-12))
    err = np.abs(got - exact)
    assert np.all(err <= (bound - E0[others]) + 2 * EPS * np.abs(exact)), err / (bound - E0[others])


def test_bound_without_solves_is_the_steps():
    """A run without a budget tracks nothing (None; merging runs track the steps' bounds:
    tests/bsca/test_merge_selection.py); a projection run without a solve carries the Newton steps'
    bounds only (``refsvm.bsca.step_error``), those of a removal run without an event."""
    X = np.random.default_rng(3).normal(size=(12, 3))
    y = np.where(X[:, 0] > 0, 1, -1).astype(np.int64)
    order = np.arange(12, dtype=np.int64)
    for mod in (ref_bsca, fast_bsca):
        assert mod.bsca(X, y, order, budget=None, C=1.0, maintenance="projection").sv_error is None
        big = mod.bsca(X, y, order, budget=50, C=1.0, maintenance="projection")
        alone = mod.bsca(X, y, order, budget=50, C=1.0, maintenance="removal")
        assert np.all(big.sv_error > 0)
        np.testing.assert_array_equal(big.sv_error, alone.sv_error)


#: Generated configurations whose paths parted in the projection's selection before the bound
#: (benchmarks/results/bench_agreement.txt): rbf accumulate on 1e-9 near duplicates, linear with
#: duplicates, rbf append with duplicates, linear rank-deficient accumulate; rbf append with exact
#: duplicates whose split ``x_j`` is noise (15079: the bound's ``|x_j| e_p`` term, 18-fold apart).
PARTED = [8163, 14495, 15276, 9180, 15079]


@pytest.mark.parametrize("seed", PARTED)
def test_parted_configurations_agree(seed):
    result = check(draw_config(seed))
    assert result["status"] == "agree", result


@pytest.mark.parametrize("module", [ref_bsca, fast_bsca], ids=["python", "fast"])
def test_continued_run_is_one_call(module):
    """``sv_error`` handed on (as BSCAClassifier chains epochs): two calls give one call's model bitwise."""
    rng = np.random.default_rng(11)
    base = rng.normal(size=(10, 3))
    X = np.r_[base, base[:6] * (1 + 1e-9), base[:4]]
    y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1).astype(np.int64)
    order = rng.integers(0, len(X), size=120).astype(np.int64)
    kw = dict(budget=6, C=1.0, maintenance="projection", kernel="rbf", gamma=0.8)
    one = module.bsca(X, y, order, **kw)
    first = module.bsca(X, y, order[:50], **kw)
    assert np.any(first.sv_error > 0)
    two = module.bsca(X, y, order[50:], **kw, sv=first.sv, alpha=first.alpha, dual=first.dual,
                      sv_source=first.sv_source, t0=first.t, sv_error=first.sv_error)
    np.testing.assert_array_equal(one.alpha, two.alpha)
    np.testing.assert_array_equal(one.sv_error, two.sv_error)
    np.testing.assert_array_equal(one.trace["maint_index"][-len(two.trace["maint_index"]):], two.trace["maint_index"])


@pytest.mark.parametrize("module", [ref_bsca, fast_bsca], ids=["python", "fast"])
def test_sv_error_checked(module):
    X = np.random.default_rng(5).normal(size=(8, 2))
    y = np.where(X[:, 0] > 0, 1, -1).astype(np.int64)
    res = module.bsca(X, y, np.arange(8, dtype=np.int64), budget=3, C=1.0, maintenance="projection")
    for bad in (np.zeros(len(res.alpha) + 1), -np.ones(len(res.alpha)), np.full(len(res.alpha), np.nan)):
        with pytest.raises(ValueError, match="sv_error"):
            module.bsca(X, y, np.arange(8, dtype=np.int64), budget=3, C=1.0, maintenance="projection",
                        sv=res.sv, alpha=res.alpha, dual=res.dual, sv_source=res.sv_source, t0=res.t,
                        sv_error=bad)


def _twin_sets():
    """The projected SV (slot 0) close to an exactly duplicated row: the exact solve splits its
    coefficient evenly between the twins, the computed one by rounding (``x_j`` off by ~1e-7 of
    itself), so one twin's computed ``|x_j|`` lies below the exact one."""
    rng = np.random.default_rng(15079)
    out = []
    for k, (gamma, offset) in enumerate(((0.5, 1e-2), (2.0, 1e-3), (0.7, 1e-1))):
        base = rng.normal(size=(5, 3))
        X = np.r_[base[:1] + offset * rng.normal(size=(1, 3)), base[:1], base[:1], base[1:]]
        out.append((f"rbf-twins-{k}", X, "rbf", gamma, 3, 0.0))
    return out


TWIN_SETS = _twin_sets() + SETS


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("case", TWIN_SETS, ids=[s[0] for s in TWIN_SETS])
def test_solve_error_bound_with_large_input_bound(module, case):
    """The bound holds when ``alpha_p``'s own bound ``e_p`` exceeds ``|alpha_p|`` (carried bounds of
    repeated rows reach 1e5 x the coefficient: seed 15079 of the agreement run): the exact
    ``Delta alpha_j = x_j (alpha_p + d)``, ``|d| <= e_p``, against the computed ``x~_j alpha_p`` errs by
    ``|x~_j - x_j| |alpha_p| + |x_j| e_p``, and ``|x_j|`` may exceed the computed ``|x~_j|`` by the solve's
    error: the bound carries ``(||alpha_p|| + e_p) ||A^-1[j, :]||_1 rho + |x~_j| e_p``.  Exact ``x`` from a
    60-digit solve on 60-digit kernel values."""
    _, X, kernel, gamma, degree, coef0 = case
    mpmath.mp.dps = 60
    n = len(X)
    rng = np.random.default_rng(n + 1)
    A = rng.uniform(0.5, 1.5, size=(n, 1)) * rng.choice([-1.0, 1.0], size=(n, 1))
    E0 = rng.uniform(0.5e6, 1.5e6, size=n)                                 # vacuous carried bounds: p = 0
    SV, alpha, E = X.copy(), A.copy(), E0.copy()
    k = Kernel.of(kernel, gamma, degree, coef0)
    eps_k = kernel_value_error(X, k)
    _, p, _, _ = module.maintain_projection(SV, alpha, n, kernel, gamma, degree, coef0, RIDGE,
                                            ref.selection_tie_unit(k, X.shape[1]), E, eps_k)
    others = [j for j in range(n) if j != p]
    x = _mp_projection_solve(X, others, p, kernel, gamma, degree, coef0)
    a_p = mpmath.mpf(float(A[p, 0]))
    slot = [ja if ja < n - 1 else p for ja in others]                    # swap-remove: last -> p
    got, added = alpha[slot, 0], E[slot] - E0[others]
    worst = np.array([float(abs(mpmath.mpf(float(got[a])) - mpmath.mpf(float(A[ja, 0])) - x[a] * a_p)
                            + abs(x[a]) * mpmath.mpf(float(E0[p]))) for a, ja in enumerate(others)])
    # ``E[slot] - E0`` rounds by an ulp of E (1e6), the update of alpha by an ulp of it
    assert np.all(worst <= added * (1 + 1e-12) + 2 * EPS * (E[slot] + np.abs(got))), worst / added


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_carried_bounds_saturate(module):
    """A slot's bound saturates at ``SOLVE_ERROR_CAP`` (finite), the same on both paths: bounds of near
    duplicates compound by more than 1 per solve and reached infinity, which a continued run refuses."""
    _, X, kernel, gamma, degree, coef0 = TWIN_SETS[0]
    n = len(X)
    alpha = np.random.default_rng(2).uniform(0.5, 1.5, size=(n, 1))
    E = np.full(n, ref.SOLVE_ERROR_CAP)
    module.maintain_projection(X.copy(), alpha, n, kernel, gamma, degree, coef0, RIDGE,
                               ref.selection_tie_unit(Kernel.of(kernel, gamma, degree, coef0), X.shape[1]), E,
                               kernel_value_error(X, Kernel.of(kernel, gamma, degree, coef0)))
    np.testing.assert_array_equal(E[:n - 1], ref.SOLVE_ERROR_CAP)
    assert E[n - 1] == 0.0


#: Configurations whose carried bounds overflowed to infinity without the cap (the estimator's next
#: epoch then refused its own ``sv_error``).
@pytest.mark.parametrize("seed", [2657])
def test_compounding_bounds_stay_finite(seed):
    assert check(draw_config(seed))["status"] == "agree"
