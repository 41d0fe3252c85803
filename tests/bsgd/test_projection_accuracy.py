"""BSGD projection on ill-conditioned and rank-deficient kernel matrices, and its continuation.

* The kept inverse of the compiled path (``kinv_append``) takes a bordered update only when the
  error bound of the Schur complement allows it (1e-6 of it), otherwise it recomputes the inverse:
  on spiral data with 30 % of the rows re-added with 1e-6 noise (rbf, margin perceptron, budget 20)
  the two paths' decision values agree after one epoch; before, they were 63 % of the scale apart.
* The ridge is relative to the kernel's scale (``ridge * max diag K_p``) on both paths; a kernel
  whose diagonal is not constant (linear, poly) solves afresh at every event.  After the first
  projection event on unscaled breast cancer (linear kernel, budget 12, norma) both paths'
  coefficients are checked against a 60-digit mpmath solve of the same regularised system.
* The compiled continuation is keyed by the model's content, not by the identity of its arrays:
  dense and CSR runs of 3 epochs give bitwise the same model (rbf), and a model saved and loaded
  (or deep-copied) mid-run continues bitwise as the uninterrupted run.
"""

import copy
import io
import pickle

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm import BudgetedSVC
from refsvm import bsgd as ref
from refsvm.budget import relative_ridge
from refsvm.kernels import kernel_matrix

fast = pytest.importorskip("refsvm._fast.bsgd")
EPS = np.finfo(float).eps


def spiral(n=120, seed=0, noisy=0.3):
    """Two interleaved spirals; a fraction ``noisy`` of the rows re-added with 1e-6 noise."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0.5, 3 * np.pi, n // 2)
    a = np.c_[t * np.cos(t), t * np.sin(t)] / 5
    X = np.r_[a, -a]
    y = np.r_[np.ones(n // 2), -np.ones(n // 2)].astype(np.int64)
    idx = rng.choice(len(X), int(noisy * len(X)), replace=False)
    X = np.r_[X, X[idx] + 1e-6 * rng.standard_normal((len(idx), 2))]
    return X, np.r_[y, y[idx]]


def decision(res, X, kernel="rbf", gamma=1.0):
    sv = res.sv.toarray() if sp.issparse(res.sv) else res.sv
    return kernel_matrix(X, sv, kernel, gamma, 3, 0.0) @ res.alpha[:, 0] + res.bias[0]


def kw_of(**over):
    kw = dict(n_classes=2, budget=20, lam=1e-3, learning_rate="perceptron", eta=0.5, radius=10.0,
              maintenance="projection", kernel="rbf", gamma=1.0, degree=3, coef0=0.0, merge_eps=0.01,
              projection_ridge=1e-10, fit_bias=False)
    kw.update(over)
    return kw


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_spiral_near_duplicates_paths_agree(seed):
    """Both paths' decision values within 5e-8 of their scale after one epoch (rbf, ridge 1e-10).

    The floor is the conditioning of K_p + 1e-10 I (cond ~ 1e11 with 1e-6 duplicates): the
    reference's own LU solve has a forward error ~ eps * cond; recomputing the compiled inverse at
    every append (refresh_every=1) gave 7e-9 on seed 0, the bounded updates 5e-9.  The old
    acceptance rule (s >= ridge / 2) gave 63 % of the scale on this set.  Since the selection reads
    the near duplicates' bounds (tests/bsgd/test_projection_selection.py) the lowest slot among the
    candidates within them is projected, which keeps other twins: measured 1.1e-8, 1.9e-9, 1.4e-10
    on seeds 0-2 (the documented allowance for projection runs is u / projection_ridge = 1.1e-6)."""
    X, y = spiral(seed=seed)
    order = np.random.default_rng(seed + 1).permutation(len(X)).astype(np.int64)
    r = ref.bsgd(X, y, order, **kw_of())
    f = fast.bsgd(X, y, order, **kw_of())
    assert len(r.trace["maint_index"]) > 50
    np.testing.assert_array_equal(r.trace["maint_index"], f.trace["maint_index"])
    dr, df = decision(r, X), decision(f, X)
    assert np.max(np.abs(dr - df)) <= 5e-8 * np.max(np.abs(dr))
    assert fast._last_stats["kinv_append_failures"] > 0        # the bound did reject near-duplicates


def _mp_projection(SV, alpha, p, kernel, ridge, dps=60):
    """alpha after projecting SV p onto the others (eq. 14) and the swap-remove, in ``dps`` digits."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = dps
    n = SV.shape[0]
    others = [j for j in range(n) if j != p]
    rows = [[mpmath.mpf(float(v)) for v in SV[j]] for j in range(n)]
    assert kernel == "linear"
    k = lambda a, b: mpmath.fsum(u * v for u, v in zip(rows[a], rows[b]))   # noqa: E731
    diag = np.array([float(k(j, j)) for j in others])
    r_eff = mpmath.mpf(relative_ridge(ridge, diag))
    m = len(others)
    Kp = mpmath.matrix(m, m)
    kp = mpmath.matrix(m, 1)
    for a, ja in enumerate(others):
        kp[a] = k(ja, p)
        for b, jb in enumerate(others):
            Kp[a, b] = k(ja, jb) + (r_eff if a == b else 0)
    x = mpmath.lu_solve(Kp, kp)
    out = alpha.astype(object).copy()
    for a, ja in enumerate(others):
        for c in range(alpha.shape[1]):
            out[ja, c] = mpmath.mpf(float(alpha[ja, c])) + x[a] * mpmath.mpf(float(alpha[p, c]))
    out[p] = out[n - 1]
    cond = np.linalg.cond(np.array(Kp.tolist(), dtype=float))
    return np.array(out[:n - 1].tolist(), dtype=float), float(mpmath.norm(x, mpmath.inf)), cond


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_first_projection_event_against_mpmath_linear_unscaled(module, seed):
    """Unscaled breast cancer, linear kernel (diagonal ~ 1e5..6e6), budget 12, norma: after the first
    projection event, alpha's error against a 60-digit solve of (K_p + ridge max(diag) I) x = k_p is
    within the forward-error bound of a backward-stable solve, 10 m eps cond(K_p + r I) |x| |alpha_p|.
    (The compiled path's kept inverse had errors 5e3 (seed 1) and 1.5e4 (seed 2) times that bound
    here; it now solves afresh.)"""
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_breast_cancer(return_X_y=True)
    y = np.where(y == 1, 1, -1).astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(X)).astype(np.int64)
    kw = kw_of(budget=12, learning_rate="norma", kernel="linear", eta=1e-5, radius=np.inf)
    full = module.bsgd(X, y, order, **kw)
    step = int(full.trace["maint_step"][0])
    pre = module.bsgd(X, y, order[:step + 1], **dict(kw, budget=len(X)))    # the state before line 9
    post = module.bsgd(X, y, order[:step + 1], **kw)
    assert pre.sv.shape[0] == 13 and post.sv.shape[0] == 12
    p = int(post.trace["maint_index"][0])
    expected, xnorm, cond = _mp_projection(pre.sv, pre.alpha, p, "linear", 1e-10)
    err = np.max(np.abs(post.alpha - expected))
    bound = 10 * 12 * EPS * cond * xnorm * np.max(np.abs(pre.alpha[p])) + 4 * EPS * np.max(np.abs(expected))
    assert cond > 1e6                                           # an ill-conditioned system
    assert err <= bound, (err, bound)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("maintenance", ["projection"])
def test_dense_and_csr_three_epochs_bitwise(maintenance):
    """BudgetedSVC (fast path, rbf): the CSR run's next epoch starts from the canonical CSR copy of the
    SVs; the continuation is found by content, so it is bitwise the dense run."""
    X, y = spiral(seed=3)
    X = np.c_[X, np.zeros((len(X), 2))]                         # zero columns: CSR drops them
    kw = dict(budget=20, lam=1e-3, gamma=1.0, learning_rate="perceptron", eta=0.5, radius=10.0,
              maintenance=maintenance, epochs=3, random_state=0, backend="fast")
    dense = BudgetedSVC(**kw).fit(X, y)
    csr = BudgetedSVC(**kw).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(dense.alpha_, csr.alpha_)          # the model, bitwise
    np.testing.assert_array_equal(dense.support_vectors_, csr.support_vectors_.toarray())
    np.testing.assert_array_equal([len(t["maint_step"]) for t in dense.trace_],
                                  [len(t["maint_step"]) for t in csr.trace_])


@pytest.mark.parametrize("how", ["saved", "deepcopy"])
def test_continuation_of_a_copied_model_is_bitwise(how):
    """A model saved and loaded (or an estimator deep-copied) mid-run continues as the uninterrupted run."""
    X, y = spiral(seed=4)
    kw = kw_of()
    rng = np.random.default_rng(0)
    orders = [rng.permutation(len(X)).astype(np.int64) for _ in range(3)]
    if how == "saved":
        a = fast.bsgd(X, y, orders[0], **kw)
        buf = io.BytesIO()
        np.savez(buf, sv=a.sv, alpha=a.alpha, bias=a.bias)
        buf.seek(0)
        z = np.load(buf)
        b = fast.bsgd(X, y, orders[1], sv=z["sv"], alpha=z["alpha"], bias=z["bias"], t0=a.t, **kw)
        b_uninterrupted = fast.bsgd(X, y, orders[1], sv=a.sv, alpha=a.alpha, bias=a.bias, t0=a.t, **kw)
        np.testing.assert_array_equal(b.alpha, b_uninterrupted.alpha)
        np.testing.assert_array_equal(b.sv, b_uninterrupted.sv)
        return
    est = BudgetedSVC(budget=20, lam=1e-3, gamma=1.0, learning_rate="perceptron", eta=0.5, radius=10.0,
                      maintenance="projection", epochs=1, random_state=0, backend="fast").fit(X, y)
    twin = pickle.loads(pickle.dumps(copy.deepcopy(est)))
    for _ in range(2):
        est.partial_fit(X, y)
        twin.partial_fit(X, y)
    np.testing.assert_array_equal(est.alpha_, twin.alpha_)


def test_saved_model_hit_needs_equal_content():
    """A different model of the same shape (alpha changed by one ulp) does not continue a kept state."""
    X, y = spiral(seed=5)
    a = fast.bsgd(X, y, np.arange(len(X), dtype=np.int64), **kw_of())
    settings_hit = fast._continuation_of(a.sv, a.alpha, a.t, _settings(a))
    assert settings_hit is not None
    alpha2 = a.alpha.copy()
    alpha2[0, 0] = np.nextafter(alpha2[0, 0], np.inf)
    assert fast._continuation_of(a.sv, alpha2, a.t, _settings(a)) is None
    assert fast._continuation_of(a.sv, a.alpha, a.t + 1, _settings(a)) is None


def _settings(res):
    key = next(k for k, e in fast._continuations.items() if e[0]() is res.sv)
    return fast._continuations[key][7]
