"""Agreement of the compiled merge solvers (refsvm._fast: GSS, GSS-precise, Lookup-h, Lookup-WD) with the reference.

Both paths run on identical inputs with every ``merge_solver``:

* ``maintain_merge`` / ``maintain`` (refsvm.budget vs refsvm._fast.budget):
  all four solvers on binary models (mixed and equal signs, several gamma),
  ``gss`` / ``gss-precise`` on 3- and 4-class models;
* ``merge_compare`` (the comparison mode of one event);
* ``bsgd`` (refsvm.bsgd vs refsvm._fast.bsgd): all four solvers x pegasos /
  norma / perceptron on the binary checkerboard, two passes continuing the
  model, with and without bias, and with ``merge_compare=True``;
  ``gss`` / ``gss-precise`` on 3-class blobs.

What must agree: every discrete decision exactly (``added``, ``maint_*``,
``compare_same_decision``), floats to rtol 1e-9 (DESIGN.md, "Tolerances").
In practice merging is bitwise equal: both paths square ``1 - h`` by a
product, use libm's ``exp`` and the same bilinear interpolation.

One exception: GSS-precise with the perceptron.  There the coefficients of the
two paths differ at rounding level (the perceptron's ``||w||`` is summed in a
different order), and a search to ``eps = 1e-10`` resolves ``h`` below the
precision at which the objective ``g`` can be compared at all: near its
maximum ``g(h) - g(h*) ~ g'' (h - h*)^2``, so a relative perturbation of
``1e-16`` in ``g`` moves the comparisons over a width of ``~1e-8`` in ``h``.
The merged SVs then agree to ~1e-8 only, and through the kernel values of
later steps so do the coefficients; that case uses rtol 1e-6 for all floats
(decisions still exactly equal).

Errors: lookup solvers on multi-class models raise ValueError naming
``merge_solver`` in both paths; unknown solver strings too.
"""

import numpy as np
import pytest

import refsvm._fast.bsgd as fast_bsgd
import refsvm._fast.budget as fast_budget
import refsvm.bsgd as ref_bsgd
import refsvm.budget as ref_budget
from refsvm.lookup import get_tables
from _helpers import blobs, checkerboard, run_passes

SOLVERS = ("gss", "gss-precise", "lookup-h", "lookup-wd")
RTOL = 1e-9
DISCRETE = ("added", "maint_step", "maint_index", "maint_partner")


def model(n_sv, c, seed, signs="mixed", d=3):
    rng = np.random.default_rng(seed)
    SV = np.zeros((n_sv + 1, d))
    alpha = np.zeros((n_sv + 1, c))
    SV[:n_sv] = rng.standard_normal((n_sv, d))
    a = rng.uniform(0.05, 2.0, size=(n_sv, c))
    if signs == "mixed":
        a *= rng.choice([-1.0, 1.0], size=(n_sv, c))
    alpha[:n_sv] = a
    return SV, alpha


def params(n_classes, learning_rate, merge_solver, **overrides):
    kw = dict(
        n_classes=n_classes, budget=25, lam=1e-3, learning_rate=learning_rate,
        eta=0.5, radius=5.0, maintenance="merge", kernel="rbf", gamma=2.0, degree=3, coef0=1.0,
        merge_eps=0.01, projection_ridge=1e-10, fit_bias=False, merge_solver=merge_solver,
    )
    kw.update(overrides)
    return kw


def assert_agree(fast, ref, rtol=RTOL):
    for f, r in zip(fast, ref):
        assert set(f.trace) == set(r.trace)
        for key in DISCRETE:
            np.testing.assert_array_equal(f.trace[key], r.trace[key], err_msg=key)
        assert f.trace["mistakes"] == r.trace["mistakes"] and f.t == r.t
        for name in ("sv", "alpha", "bias"):
            np.testing.assert_allclose(getattr(f, name), getattr(r, name), rtol=rtol, atol=1e-14, err_msg=name)
        wd = r.trace["weight_degradation"]
        scale = float(np.max(wd)) if wd.size else 0.0
        np.testing.assert_allclose(f.trace["weight_degradation"], wd, rtol=rtol, atol=1e-3 * rtol * scale + 1e-15)
        for key in ("maintenance_seconds", "merge_seconds"):
            assert isinstance(f.trace[key], float) and f.trace[key] >= 0.0
            assert isinstance(r.trace[key], float) and r.trace[key] >= 0.0
        assert f.trace["merge_seconds"] <= f.trace["maintenance_seconds"] + 1e-12
        if "compare_same_decision" in r.trace:
            np.testing.assert_array_equal(f.trace["compare_same_decision"], r.trace["compare_same_decision"])
            assert f.trace["compare_same_decision"].dtype == bool
            assert f.trace["compare_wd_factor"].shape == (len(r.trace["maint_step"]), 4)
            np.testing.assert_allclose(f.trace["compare_wd"], r.trace["compare_wd"], rtol=RTOL, atol=1e-15)
            np.testing.assert_allclose(f.trace["compare_wd_factor"], r.trace["compare_wd_factor"], rtol=1e-7)


# ----------------------------------------------------------------------------
# one maintenance event
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("signs", ["mixed", "positive"])
@pytest.mark.parametrize("gamma", [0.3, 2.0, 20.0])
def test_maintain_merge_binary(solver, signs, gamma):
    tables = get_tables()
    for seed in range(5):
        SV, alpha = model(n_sv=14, c=1, seed=seed, signs=signs)
        Sr, Ar, Sf, Af = SV.copy(), alpha.copy(), SV.copy(), alpha.copy()
        r = ref_budget.maintain_merge(Sr, Ar, 14, gamma, 0.01, solver, tables)
        f = fast_budget.maintain_merge(Sf, Af, 14, gamma, 0.01, solver, tables)
        assert f[:3] == r[:3] and all(type(v) is int for v in f[:3])
        np.testing.assert_allclose(f[3], r[3], rtol=RTOL, atol=1e-15)
        np.testing.assert_array_equal(Sf[:13], Sr[:13])
        np.testing.assert_array_equal(Af[:13], Ar[:13])
        # tables=None loads the cached tables: same result
        S2, A2 = SV.copy(), alpha.copy()
        assert fast_budget.maintain_merge(S2, A2, 14, gamma, 0.01, solver) == f
        # maintain() dispatches with the same arguments
        S3, A3 = SV.copy(), alpha.copy()
        assert ref_budget.maintain("merge", S3, A3, 14, "rbf", gamma, 3, 0.0, 0.01, 1e-10, solver) == r


@pytest.mark.parametrize("solver", ["gss", "gss-precise"])
@pytest.mark.parametrize("c", [3, 4])
def test_maintain_merge_multiclass(solver, c):
    for seed in range(4):
        SV, alpha = model(n_sv=14, c=c, seed=seed)
        Sr, Ar, Sf, Af = SV.copy(), alpha.copy(), SV.copy(), alpha.copy()
        r = ref_budget.maintain("merge", Sr, Ar, 14, "rbf", 2.0, 3, 0.0, 0.01, 1e-10, solver)
        f = fast_budget.maintain("merge", Sf, Af, 14, "rbf", 2.0, 3, 0.0, 0.01, 1e-10, solver)
        assert f[:3] == r[:3]
        np.testing.assert_allclose(f[3], r[3], rtol=RTOL, atol=1e-15)
        np.testing.assert_array_equal(Af[:13], Ar[:13])


def test_gss_precise_ignores_merge_eps_and_polishes_h():
    """GSS-precise: merge_eps ignored; h is the polished one (``merge_pair(..., polish=True)``: GSS to
    1e-3, then Newton on g'), not GSS at 1e-10, whose last comparisons are rounding noise."""
    SV, alpha = model(n_sv=14, c=1, seed=3)
    for module in (ref_budget, fast_budget):
        S1, A1, S2, A2 = SV.copy(), alpha.copy(), SV.copy(), alpha.copy()
        a = module.maintain_merge(S1, A1, 14, 2.0, 0.3, "gss-precise")
        b = module.maintain_merge(S2, A2, 14, 2.0, 0.01, "gss-precise")
        assert a == b
        np.testing.assert_array_equal(S1, S2)
        m, n = a[1], a[2]
        h, alpha_z, _ = module.merge_pair(alpha[m], alpha[n], -2.0 * float(np.sum((SV[m] - SV[n]) ** 2)), 1e-10,
                                          polish=True)
        np.testing.assert_array_equal(A1[m], alpha_z)


@pytest.mark.parametrize("module", [ref_budget, fast_budget], ids=["python", "fast"])
def test_merge_solver_errors(module):
    SV, alpha = model(n_sv=8, c=3, seed=0)
    for solver in ("lookup-h", "lookup-wd"):
        with pytest.raises(ValueError, match="merge_solver"):
            module.maintain_merge(SV.copy(), alpha.copy(), 8, 1.0, 0.01, solver)
    SV, alpha = model(n_sv=8, c=1, seed=0)
    with pytest.raises(ValueError, match="merge_solver"):
        module.maintain_merge(SV.copy(), alpha.copy(), 8, 1.0, 0.01, "golden")
    with pytest.raises(ValueError, match="merge_solver"):
        module.maintain("removal", SV.copy(), alpha.copy(), 8, "rbf", 1.0, 3, 0.0, 0.01, 1e-10, "nope")


@pytest.mark.parametrize("signs", ["mixed", "positive"])
@pytest.mark.parametrize("gamma", [0.3, 2.0, 20.0])
def test_merge_compare_one_event(signs, gamma):
    tables = get_tables()
    for seed in range(5):
        SV, alpha = model(n_sv=14, c=1, seed=seed, signs=signs)
        before = (SV.copy(), alpha.copy())
        r = ref_budget.merge_compare(SV, alpha, 14, gamma, 0.01, tables)
        f = fast_budget.merge_compare(SV, alpha, 14, gamma, 0.01, tables)
        np.testing.assert_array_equal(SV, before[0])          # nothing changes
        np.testing.assert_array_equal(alpha, before[1])
        np.testing.assert_array_equal(f[0], r[0])
        np.testing.assert_allclose(f[1], r[1], rtol=1e-12)
        np.testing.assert_allclose(f[2], r[2], rtol=RTOL, atol=1e-15)
        assert r[0][1] and r[1][1] == 1.0
        # each column's decision is the decision of maintain_merge with that solver
        for k, solver in enumerate(SOLVERS):
            n_sv, m, partner, wd = ref_budget.maintain_merge(SV.copy(), alpha.copy(), 14, gamma, 0.01, solver, tables)
            assert np.isclose(wd, r[2][k], rtol=1e-12, atol=1e-15)


# ----------------------------------------------------------------------------
# whole passes
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("learning_rate", ["pegasos", "norma", "perceptron"])
@pytest.mark.parametrize("fit_bias", [False, True])
def test_bsgd_binary(solver, learning_rate, fit_bias):
    X, y = checkerboard(seed=1)
    kw = params(2, learning_rate, solver, fit_bias=fit_bias)
    rng = np.random.default_rng(2)
    orders = [rng.permutation(len(y)), rng.permutation(len(y))]
    ref = run_passes(ref_bsgd, X, y, orders, kw)
    fast = run_passes(fast_bsgd, X, y, orders, kw)
    assert_agree(fast, ref, rtol=RTOL)
    assert len(ref[0].trace["maint_step"]) > 50
    assert "compare_same_decision" not in ref[0].trace


@pytest.mark.parametrize("solver", SOLVERS)
def test_bsgd_compare_mode(solver):
    X, y = checkerboard(seed=3)
    kw = params(2, "pegasos", solver, merge_compare=True)
    rng = np.random.default_rng(4)
    orders = [rng.permutation(len(y)), rng.permutation(len(y))]
    ref = run_passes(ref_bsgd, X, y, orders, kw)
    fast = run_passes(fast_bsgd, X, y, orders, kw)
    assert_agree(fast, ref)
    # the comparison mode does not change the run
    plain = run_passes(fast_bsgd, X, y, orders, params(2, "pegasos", solver))
    for a, b in zip(fast, plain):
        np.testing.assert_array_equal(a.alpha, b.alpha)
        np.testing.assert_array_equal(a.trace["maint_partner"], b.trace["maint_partner"])


@pytest.mark.parametrize("solver", ["gss", "gss-precise"])
@pytest.mark.parametrize("n_classes", [3, 4])
def test_bsgd_multiclass(solver, n_classes):
    X, y = blobs(n_classes=n_classes, seed=5)
    kw = params(n_classes, "pegasos", solver)
    rng = np.random.default_rng(6)
    orders = [rng.permutation(len(y)), rng.permutation(len(y))]
    assert_agree(run_passes(fast_bsgd, X, y, orders, kw), run_passes(ref_bsgd, X, y, orders, kw))


@pytest.mark.parametrize("module", [ref_bsgd, fast_bsgd], ids=["python", "fast"])
def test_bsgd_errors(module):
    X, y = blobs(n_classes=3, seed=0)
    order = np.arange(len(y))
    for solver in ("lookup-h", "lookup-wd"):
        with pytest.raises(ValueError, match="merge_solver"):
            module.bsgd(X, y, order, **params(3, "pegasos", solver))
    with pytest.raises(ValueError, match="merge_compare"):
        module.bsgd(X, y, order, **params(3, "pegasos", "gss", merge_compare=True))
    Xb, yb = checkerboard()
    with pytest.raises(ValueError, match="merge_solver"):
        module.bsgd(Xb, yb, order, **params(2, "pegasos", "GSS"))
    with pytest.raises(ValueError, match="merge_compare"):
        module.bsgd(Xb, yb, order, **params(2, "pegasos", "gss", maintenance="removal", merge_compare=True))
    # lookup solvers with removal on a multi-class model: merging never happens, allowed
    res = module.bsgd(X, y, order, **params(3, "pegasos", "lookup-wd", maintenance="removal"))
    assert res.trace["merge_seconds"] == 0.0
