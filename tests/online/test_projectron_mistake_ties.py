"""Online learners: the Projectrons' mistake test at an exact 0 that projection steps compute as noise.

A repeated row projected back onto itself has the exact coefficient 0 (``alpha + y d*`` with ``d* =
1``); the computed ``d*`` is ``1 +- u`` on one path and 1 on the other, so ``f`` is 0 or rounding noise
and the mistake counter ``y f <= 0`` parted (generated seeds 6984: Projectron, linear kernel, budget 2;
5089: Projectron++ authors, poly).  Both paths now read ``f`` within ``tol_f`` of 0 as 0, where
``tol_f`` (refsvm.online.projection.projectron_margin_tolerance) also counts the coefficients' own
rounding through the error weights ``e_j`` the learners carry in their state (``coef_error``).
Checked: the parted seeds count alike on the reference, compiled dense and compiled CSR paths; the
bound covers the computed ``f`` against exact rational arithmetic; an exact, clearly signed margin
still counts as before; ``coef_error`` continues a run on both paths.
"""

from fractions import Fraction

import numpy as np
import pytest
from agreement._generate import fit_on_paths

import refsvm._fast.online as fast
import refsvm.online as ref
from refsvm.online.projection import projectron_margin_tolerance

PARTED_SEEDS = (6984, 5089)
DISCRETE = ("mistakes", "updates", "update_kind", "n_sv")


@pytest.mark.parametrize("seed", PARTED_SEEDS)
def test_parted_seeds_count_alike(seed):
    """Every epoch's discrete trace is equal on the reference, compiled dense and compiled CSR paths."""
    traces = {name: [[np.asarray(t[key]).tolist() for key in DISCRETE] for t in est.trace_]
              for name, est in fit_on_paths(seed).items()}
    assert traces["fast"] == traces["python"]
    assert traces["fast-csr"] == traces["python"]


def _repeated_row(n=12):
    """One row (3.7, 0) with alternating labels: the linear kernel value is 13.69 (not a power of 2,
    so 1 / 3.7 rounds)."""
    X = np.tile([[3.7, 0.0]], (n, 1))
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    return X, y


@pytest.mark.parametrize("impl", [ref.projectron, fast.projectron], ids=["python", "fast"])
@pytest.mark.parametrize("plusplus", [False, True])
def test_cancelled_coefficient_reads_as_zero(impl, plusplus):
    """Step 0 adds x (alpha = 1), step 1 (y = -1, f = 13.69: a mistake, x in the span) projects:
    exactly alpha = 1 - 1 = 0, so every later f is exactly 0: a mistake at every step (the paper's
    ``y f <= 0``) on both paths, whatever noise the computed alpha holds."""
    X, y = _repeated_row()
    out = impl(X, y, np.arange(len(y)), eta=0.1, budget=2, plusplus=plusplus, kernel="linear", gamma=1.0,
               degree=2, coef0=0.0)
    assert out.trace["mistakes"] == len(y)
    assert abs(float(out.alpha[0, 0])) <= 1e-15              # 0, or the noise of 1 - (1 +- u)
    assert out.state["coef_error"].shape == (1,) and out.state["coef_error"][0] > 0


def _exact_f(sv, alpha, x):
    return sum(Fraction(float(a)) * sum(Fraction(float(p)) * Fraction(float(q)) for p, q in zip(s, x))
               for s, a in zip(sv, alpha))


@pytest.mark.parametrize("impl", [ref.projectron, fast.projectron], ids=["python", "fast"])
def test_the_tolerance_covers_the_computed_f(impl):
    """The computed f of the fitted model lies within ``tol_f`` of the exact f of the *exact* run
    (0: the cancelled coefficient), and within it of the model's own rational value."""
    X, y = _repeated_row()
    out = impl(X, y, np.arange(len(y)), eta=0.1, budget=2, plusplus=False, kernel="linear", gamma=1.0,
               degree=2, coef0=0.0)
    run = ref.common.begin("projectron", X, y, np.arange(1), "linear", 1.0, 2, 0.0, sv=out.sv, alpha=out.alpha,
                           t0=0, sample_weight=None, zero_prediction="mistake", budget=2, eta=0.1)[0]
    f, k = run.f(X[0])
    errors = np.zeros(run.A.shape[0])
    errors[:run.b] = out.state["coef_error"]
    tol = projectron_margin_tolerance(run, k, errors)
    assert abs(f - 0.0) <= tol                                # the exact run's f is 0
    assert abs(Fraction(f) - _exact_f(out.sv, out.alpha.ravel(), X[0])) <= Fraction(tol)
    assert tol < 1e-12                                        # rounding, not a model-sized allowance


@pytest.mark.parametrize("impl", [ref.projectron, fast.projectron], ids=["python", "fast"])
@pytest.mark.parametrize("label", [1, -1])
def test_tiny_but_signed_margins_still_count(impl, label):
    """Two distant rows, rbf: the second row's f is k(x0, x1) = exp(-400) ~ 1e-174, tiny but exact to a
    few ulps of itself (the Gaussian kernel's relative bound), so its sign decides: label +1 is no
    mistake, -1 is one (the exact test's reading), on both paths."""
    X = np.array([[0.0, 0.0], [20.0, 0.0]])
    y = np.array([1, label])
    out = impl(X, y, np.arange(2), eta=0.1, budget=None, plusplus=False, kernel="rbf", gamma=1.0, degree=2,
               coef0=0.0)
    assert out.trace["mistakes"] == (1 if label > 0 else 2)


def test_coef_error_continues_the_run():
    """Two halves with the state handed over give the one-call run (both paths), and the weights agree
    between the paths."""
    X, y = _repeated_row(16)
    X = X + np.linspace(0.0, 1.0, 16)[:, None] * np.array([[0.0, 1.0]])   # distinct rows, a 2-d span
    kw = dict(eta=0.5, budget=3, plusplus=True, kernel="linear", gamma=1.0, degree=2, coef0=0.0)
    results = {}
    for name, impl in (("python", ref.projectron), ("fast", fast.projectron)):
        whole = impl(X, y, np.arange(16), **kw)
        first = impl(X, y, np.arange(8), **kw)
        second = impl(X, y, np.arange(8, 16), sv=first.sv, alpha=first.alpha, t0=first.t, state=first.state, **kw)
        np.testing.assert_array_equal(second.alpha, whole.alpha)
        np.testing.assert_array_equal(second.state["coef_error"], whole.state["coef_error"])
        results[name] = whole
    np.testing.assert_allclose(results["fast"].state["coef_error"], results["python"].state["coef_error"],
                               rtol=1e-12)
