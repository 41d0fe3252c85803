"""Lookup merging wired into BSGD: accuracy, comparison mode, real data.

Bitwise agreement of the two backends for every ``merge_solver`` is in
``tests/lookup/test_agreement.py``; this file checks what the solvers *do*.

Comparison mode -- what is provable
-----------------------------------
On one merge event all solvers see the same fixed ``m`` and the same
candidate set.  Write ``WD*(n) = min_h WD(n, h)`` for candidate ``n``.

* GSS-precise against itself: same partner, factor exactly 1 (by definition).
* Every other solver ``S`` merges some candidate ``n_S`` with some ``h_S``, and
  its *actual* degradation (recomputed exactly) is
  ``WD(n_S, h_S) >= WD*(n_S) >= min_n WD*(n) ~= WD_precise``, the last step
  because GSS-precise returns, for every candidate, the maximiser of the
  objective to 1e-10 in h (the half-interval rule picks the dominant mode,
  Lemma 1; brute-force oracles in tests/budget/test_oracles.py / tests/lookup/test_tables.py), so
  its WD is within ~1e-20 relative of ``WD*`` (WD is stationary in h).  Hence
  ``factor >= 1`` up to the rounding of the WD formula, which cancels terms of
  size ``(alpha_m + alpha_n)^2``: ``WD_S >= WD_precise - c eps_mach (alpha_m + alpha_n)^2``.
  That is what is tested (per event where the coefficients are known, and as
  ``factor >= 1 - 1e-9`` on whole runs, where WD / (alpha_m + alpha_n)^2 is far
  above 1e-7).
* Nothing is provable about how *often* the others agree with GSS-precise (a
  near-tie between two candidates can go either way); that fraction is
  reported by the benchmark, not tested beyond "most of the time" on the
  checkerboard.

Real data
---------
ijcnn1 (gamma 2) and a9a (gamma 2^-7), C = 32, ``lam = 1/(n C)``, B = 100,
one pass of Pegasos, ``fit_bias=True`` (the lookup paper's BSGD has a bias),
seeds 0, 1, 2 of ``random_state``, fast backend.  For each solver the mean
test accuracy over the seeds; the test requires

    max_solver |mean_solver - mean_gss| <= max(std_gss, 0.5 percentage points)

with ``std_gss`` the sample standard deviation (ddof=1) of GSS's three
accuracies -- "within one standard deviation of the seed-to-seed spread", the
paper's own criterion (section 4, Table 2).  The floor: a standard deviation
from three seeds is itself uncertain by a factor of ~2 either way (chi with
2 degrees of freedom: s/sigma in [0.23, 1.73] with 90 % probability), so a
lucky small ``std_gss`` must not make the test fail; 0.5 pp is the lower end
of the spreads the paper reports at B = 100 (ijcnn1 0.32-0.37, adult
0.70-0.99) and larger than the binomial resolution of the a9a test set
(sqrt(0.16 * 0.84 / 16281) = 0.29 pp).
Measured while writing the test (mean over seeds 0-2, std): ijcnn1 gss 91.24
(1.28), gss-precise 91.51, lookup-h 92.24, lookup-wd 92.24 -- with the bias,
seeds 0 and 2 collapse to the majority class (90.50 %) for *every* solver (the
bias takes the unshrunk Pegasos steps ``n C / t``, see tests/bsgd/test_real_data.py), so
on ijcnn1 the comparison is mostly about seed 1; a9a gss 83.95 (0.97),
gss-precise 83.96, lookup-h 83.85, lookup-wd 83.65.  Cases without the bias
(ijcnn1, a9a: the protocol of tests/bsgd/test_real_data.py) compare the solvers where no
seed collapses.
"""

import numpy as np
import pytest

import refsvm._fast.bsgd as fast_bsgd
import refsvm._fast.budget as fast_budget
import refsvm.bsgd as ref_bsgd
import refsvm.budget as ref_budget
from refsvm.datasets import checkerboard
from refsvm.estimators import BudgetedSVC
from refsvm.lookup import get_tables

SOLVERS = ("gss", "gss-precise", "lookup-h", "lookup-wd")
EPS_MACH = np.finfo(float).eps


# ----------------------------------------------------------------------------
# accuracy on the checkerboard
# ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def board():
    X, y = checkerboard(3000, random_state=0)
    Xt, yt = checkerboard(3000, random_state=1)
    return X, y, Xt, yt


def _fit(X, y, solver, backend="fast", seed=0, **kw):
    params = dict(budget=40, gamma=30.0, lam=1e-4, epochs=2, merge_solver=solver,
                  backend=backend, random_state=seed)
    params.update(kw)
    return BudgetedSVC(**params).fit(X, y)


def test_lookup_accuracy_close_to_gss_on_checkerboard(board):
    X, y, Xt, yt = board
    acc = {}
    for solver in SOLVERS:
        acc[solver] = np.mean([np.mean(_fit(X, y, solver, seed=s).predict(Xt) == yt) for s in range(3)])
    assert acc["gss"] > 0.85, acc
    for solver in SOLVERS:
        assert abs(acc[solver] - acc["gss"]) <= 0.03, acc


@pytest.mark.parametrize("solver", SOLVERS)
def test_estimator_backends_agree_and_trace(board, solver):
    X, y, Xt, yt = board
    X, y = X[:600], y[:600]
    fast = _fit(X, y, solver, "fast", budget=20)
    ref = _fit(X, y, solver, "python", budget=20)
    np.testing.assert_allclose(fast.alpha_, ref.alpha_, rtol=1e-9, atol=1e-14)
    np.testing.assert_allclose(fast.support_vectors_, ref.support_vectors_, rtol=1e-9, atol=1e-14)
    for clf in (fast, ref):
        for tr in clf.trace_:
            assert tr["n_merges"] == np.count_nonzero(tr["maint_partner"] >= 0) > 0
            assert tr["merging_frequency"] == tr["n_merges"] / tr["n_steps"]
            assert 0.0 <= tr["merge_seconds"] <= tr["maintenance_seconds"] + 1e-12
    assert [t["n_merges"] for t in fast.trace_] == [t["n_merges"] for t in ref.trace_]


# ----------------------------------------------------------------------------
# comparison mode
# ----------------------------------------------------------------------------

def _random_model(n_sv, seed, gamma_scale=1.0):
    rng = np.random.default_rng(seed)
    SV = np.zeros((n_sv + 1, 3))
    alpha = np.zeros((n_sv + 1, 1))
    SV[:n_sv] = gamma_scale * rng.standard_normal((n_sv, 3))
    alpha[:n_sv, 0] = rng.uniform(0.01, 3.0, size=n_sv) * rng.choice([-1.0, 1.0], size=n_sv)
    return SV, alpha


@pytest.mark.parametrize("module", [ref_budget, fast_budget], ids=["python", "fast"])
@pytest.mark.parametrize("gamma", [0.1, 1.0, 5.0, 50.0])
def test_compare_event_wd_never_below_gss_precise(module, gamma):
    tables = get_tables()
    for seed in range(40):
        SV, alpha = _random_model(12, seed)
        same, factor, wd = module.merge_compare(SV, alpha, 12, gamma, 0.01, tables)
        assert same[1] and factor[1] == 1.0
        m = int(np.argmin(alpha[:12, 0] ** 2))
        scale = (abs(alpha[m, 0]) + np.max(np.abs(alpha[:12, 0]))) ** 2
        assert np.all(wd >= wd[1] - 16 * EPS_MACH * scale), (seed, wd)


@pytest.mark.parametrize("module", [ref_bsgd, fast_bsgd], ids=["python", "fast"])
@pytest.mark.parametrize("solver", SOLVERS)
def test_compare_mode_run(module, solver):
    X, y = checkerboard(800, random_state=3)
    y = np.where(y > 0, 1, -1).astype(np.int64)
    order = np.random.default_rng(0).permutation(len(y))
    res = module.bsgd(X, y, order, n_classes=2, budget=30, lam=1e-4, learning_rate="pegasos", eta=0.1,
                      radius=np.inf, maintenance="merge", kernel="rbf", gamma=30.0, degree=3, coef0=0.0,
                      merge_eps=0.01, projection_ridge=1e-10, fit_bias=False, merge_solver=solver,
                      merge_compare=True)
    same = res.trace["compare_same_decision"]
    factor = res.trace["compare_wd_factor"]
    n_events = len(res.trace["maint_step"])
    assert n_events > 100
    assert same.shape == factor.shape == res.trace["compare_wd"].shape == (n_events, 4)
    assert same[:, 1].all() and np.all(factor[:, 1] == 1.0)        # GSS-precise vs itself
    assert np.all(factor >= 1.0 - 1e-9)                              # nobody beats GSS-precise
    assert np.all(np.isfinite(factor))
    assert same.mean(axis=0).min() > 0.8                             # "most of the time" (measured >= 0.97)
    # the column of the solver that ran is the WD the run incurred
    col = SOLVERS.index(solver)
    merged = res.trace["maint_partner"] >= 0
    np.testing.assert_allclose(res.trace["compare_wd"][merged, col], res.trace["weight_degradation"][merged],
                               rtol=1e-12, atol=1e-300)


# ----------------------------------------------------------------------------
# estimator validation
# ----------------------------------------------------------------------------

def test_estimator_merge_solver_validation():
    X, y = checkerboard(200, random_state=0)
    with pytest.raises(ValueError, match="merge_solver"):
        BudgetedSVC(merge_solver="golden").fit(X, y)
    rng = np.random.default_rng(0)
    y3 = rng.integers(0, 3, size=len(y))
    for solver in ("lookup-h", "lookup-wd"):
        with pytest.raises(ValueError, match="merge_solver"):
            BudgetedSVC(merge_solver=solver, budget=10).fit(X, y3)
        with pytest.raises(ValueError, match="merge_solver"):
            BudgetedSVC(merge_solver=solver, budget=10).partial_fit(X, y3, classes=[0, 1, 2])
    for solver in ("gss", "gss-precise"):
        BudgetedSVC(merge_solver=solver, budget=10).fit(X, y3)
    # removal never merges: a lookup solver is harmless there
    BudgetedSVC(merge_solver="lookup-wd", maintenance="removal", budget=10).fit(X, y3)


# ----------------------------------------------------------------------------
# real data: accuracy of the four solvers within the seed-to-seed spread
# ----------------------------------------------------------------------------

REAL = [
    pytest.param("ijcnn1", 2.0, True, id="ijcnn1-bias"),
    pytest.param("a9a", 2.0 ** -7, True, id="a9a-bias"),
    pytest.param("ijcnn1", 2.0, False, id="ijcnn1-nobias"),
    pytest.param("a9a", 2.0 ** -7, False, id="a9a-nobias"),
]


@pytest.mark.parametrize("name, gamma, fit_bias", REAL)
def test_real_data_solvers_within_seed_spread(require_data, name, gamma, fit_bias):
    X, y, Xt, yt = require_data(name)
    C = 32.0
    acc = {}
    for solver in SOLVERS:
        acc[solver] = []
        for seed in range(3):
            clf = BudgetedSVC(budget=100, lam=1.0 / (len(y) * C), gamma=gamma, learning_rate="pegasos",
                              maintenance="merge", merge_solver=solver, fit_bias=fit_bias, epochs=1,
                              backend="fast", random_state=seed).fit(X, y)
            assert clf.trace_[0]["n_merges"] > 0
            acc[solver].append(100.0 * np.mean(clf.predict(Xt) == yt))
    means = {s: float(np.mean(a)) for s, a in acc.items()}
    band = max(float(np.std(acc["gss"], ddof=1)), 0.5)
    worst = max(abs(means[s] - means["gss"]) for s in SOLVERS)
    assert worst <= band, (acc, means, band)
