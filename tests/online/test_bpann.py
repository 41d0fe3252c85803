"""BPA-NN (refsvm.online.bpann): the budgeted passive-aggressive learner that projects the removed SV
onto ``x_t`` and the removed SV's nearest neighbour (Wang & Vucetic 2010).

Every expected value is computed here from the definitions, not from the code under test:

* one full-budget step against a numerical solution of the paper's problem
  ``min_r min_beta Q_r = 1/2 ||f_r - f_t||^2 + C max(0, 1 - y_t f_r(x_t))`` (explicit kernel matrix,
  scipy.optimize on the convex piecewise-quadratic ``Q_r``);
* a whole pass against a plain-loop pass written from the docstring (kernel values recomputed
  every step);
* repeated rows (the ``V = {t}`` branch equals BPA-S's replacement), exact ties (lowest slot);
* continuation through ``state``, argument errors, the estimator, the two paths
  (``refsvm._fast.online.bpann``, same signature) and the zero row under the linear kernel.
"""

import inspect
import math

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize, minimize_scalar
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV

import refsvm.online as ref
from refsvm import OnlineKernelClassifier
from refsvm._fast import online as fast_online

from _helpers import checkerboard, duplicate_rows_problem, kern

KERNELS = {"rbf": dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0),
           "linear": dict(kernel="linear", gamma=1.0, degree=3, coef0=0.0),
           "poly": dict(kernel="poly", gamma=0.5, degree=2, coef0=1.0)}


def _kern(A, B, kw):
    return kern(A, B, kw["kernel"], kw["gamma"], kw["degree"], kw["coef0"])


def _one_step(module, sv, alpha, x, y, C, kw, budget=None):
    """One step of ``module.bpann`` on the example ``(x, y)`` from the model ``(sv, alpha)``."""
    return getattr(module, "bpann")(np.atleast_2d(x), np.array([y]), np.array([0]), sv=sv,
                                    alpha=np.reshape(alpha, (-1, 1)), budget=budget or len(sv), C=C, **kw)


# ---- 1. one full-budget step against the optimisation problem -------------------------------------

def _min_over_beta(K, a, r, n, y, C):
    """``(min Q_r, beta_t, beta_n)`` over ``beta``, numerically.  ``K``: the kernel matrix of
    ``(SVs, x_t)`` (``x_t`` last), ``a`` the coefficients (0 for ``x_t``).  ``Q_r`` is convex and
    piecewise quadratic: its minimiser is the best of the minimisers of the piece with the hinge
    off, the piece with the hinge on, and of ``Q_r`` restricted to the kink."""
    t = K.shape[0] - 1
    f_t = a @ K[:, t]

    def w(beta):                                           # coefficients of f_r - f_t over (SVs, x_t)
        v = np.zeros(t + 1)
        v[r] -= a[r]
        v[t] += beta[0]
        v[n] += beta[1]
        return v

    half_dist = lambda beta: 0.5 * w(beta) @ K @ w(beta)
    slack = lambda beta: 1.0 - y * (f_t + w(beta) @ K[:, t])
    Q = lambda beta: half_dist(beta) + C * max(0.0, slack(beta))
    idx = [t, n]
    candidates = []
    for on in (0.0, 1.0):
        res = minimize(lambda b: half_dist(b) + on * C * slack(b), np.zeros(2),
                       jac=lambda b: (K @ w(b))[idx] - on * C * y * K[idx, t],
                       hess=lambda b: K[np.ix_(idx, idx)], method="trust-exact", options=dict(gtol=1e-13))
        candidates.append(res.x)
    kink = lambda bn: np.array([(y - f_t - bn * K[n, t] + a[r] * K[r, t]) / K[t, t], bn])   # slack = 0
    candidates.append(kink(minimize_scalar(lambda bn: half_dist(kink(bn)), bracket=(-1.0, 1.0), tol=1e-14).x))
    best = min(candidates, key=Q)
    return Q(best), best[0], best[1]


def _objective(sv_new, a_new, sv, alpha, x, y, C, kw):
    """``Q = 1/2 ||f_new - f_t||^2 + C max(0, 1 - y f_new(x))`` from explicit kernel matrices."""
    Z, w = np.vstack([sv_new, sv]), np.r_[np.ravel(a_new), -np.ravel(alpha)]
    f_new = float(np.ravel(a_new) @ _kern(sv_new, x, kw)[:, 0])
    return 0.5 * float(w @ _kern(Z, Z, kw) @ w) + C * max(0.0, 1.0 - y * f_new)


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("B", [2, 3, 5, 8])
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_full_budget_step_solves_the_problem(kernel, B, C):
    kw = KERNELS[kernel]
    rng = np.random.default_rng([B, int(10 * C), list(KERNELS).index(kernel)])
    done = 0
    for _ in range(60):
        d = 3 if kernel == "rbf" else 5
        sv, alpha, x = rng.normal(size=(B, d)), rng.normal(size=B), rng.normal(size=(1, d))
        y = int(rng.choice([-1, 1]))
        Z = np.vstack([sv, x])
        K = _kern(Z, Z, kw)
        if 1.0 - y * float(alpha @ K[:B, B]) < 0.05:
            continue                                       # a positive hinge loss
        D = np.diag(K)[:B, None] + np.diag(K)[None, :B] - 2.0 * K[:B, :B]
        np.fill_diagonal(D, np.inf)
        nn = np.argmin(D, axis=1)
        sol = [_min_over_beta(K, np.r_[alpha, 0.0], r, nn[r], y, C) for r in range(B)]
        Q = np.array([s[0] for s in sol])
        d_sorted, q_sorted = np.sort(D, axis=1), np.sort(Q)
        if B > 2 and np.any(d_sorted[:, 1] - d_sorted[:, 0] < 1e-3):
            continue                                       # every nearest neighbour clear
        if q_sorted[1] - q_sorted[0] < 1e-3 * (1.0 + abs(q_sorted[0])):
            continue                                       # the least Q_r clear
        r = int(np.argmin(Q))
        res = _one_step(ref, sv, alpha, x, y, C, kw)
        expected_sv, expected_alpha = sv.copy(), alpha.copy()
        expected_sv[r] = x[0]
        expected_alpha[nn[r]] += sol[r][2]
        expected_alpha[r] = sol[r][1]
        np.testing.assert_array_equal(res.sv, expected_sv)
        np.testing.assert_allclose(res.alpha.ravel(), expected_alpha, rtol=1e-6, atol=1e-8)
        assert _objective(res.sv, res.alpha, sv, alpha, x, y, C, kw) == pytest.approx(Q[r], rel=1e-6, abs=1e-9)
        assert list(res.trace["removal_index"]) == [r]
        done += 1
        if done == 3:
            return
    pytest.fail(f"only {done} of 3 draws had a clear optimum")


# ---- 2. a whole pass against a plain-loop pass ------------------------------------------------------

def _k(u, v, gamma):
    return math.exp(-gamma * sum((a - b) ** 2 for a, b in zip(u, v)))


def _plain_pass(X, y, order, B, C, gamma):
    """BPA-NN from the docstring's words, Gaussian kernel, every kernel value recomputed."""
    S, A, mistakes = [], [], 0
    for i in order:
        x, y_t = tuple(float(v) for v in X[i]), int(y[i])
        f = sum(a * _k(s, x, gamma) for s, a in zip(S, A))
        mistakes += y_t * f <= 0.0
        loss = max(0.0, 1.0 - y_t * f)
        if loss == 0.0:
            continue
        k_tt = _k(x, x, gamma)
        tau = min(C, loss / k_tt)
        if len(S) < B:
            S.append(x)
            A.append(y_t * tau)
            continue
        best = None
        for r in range(B):
            n = min((j for j in range(B) if j != r),
                    key=lambda j: _k(S[r], S[r], gamma) + _k(S[j], S[j], gamma) - 2.0 * _k(S[r], S[j], gamma))
            k_tn, k_nn, k_tr, k_nr = _k(x, S[n], gamma), _k(S[n], S[n], gamma), _k(x, S[r], gamma), _k(S[n], S[r], gamma)
            det = k_tt * k_nn - k_tn * k_tn                # c = K_V^{-1} k_Vr, V = (t, n), Cramer's rule
            c_t, c_n = (k_tr * k_nn - k_tn * k_nr) / det, (k_tt * k_nr - k_tn * k_tr) / det
            beta_t, beta_n = A[r] * c_t + y_t * tau, A[r] * c_n
            pts, w = (S[r], x, S[n]), (-A[r], beta_t, beta_n)     # f_r - f_t
            norm2 = sum(w[p] * w[q] * _k(pts[p], pts[q], gamma) for p in range(3) for q in range(3))
            f_r = f + sum(w[p] * _k(pts[p], x, gamma) for p in range(3))
            Q = 0.5 * norm2 + C * max(0.0, 1.0 - y_t * f_r)
            if best is None or Q < best[0]:
                best = (Q, r, n, beta_t, beta_n)
        _, r, n, beta_t, beta_n = best
        A[n] += beta_n
        S[r], A[r] = x, beta_t
    return np.array(S), np.array(A), mistakes


@pytest.mark.parametrize("budget", [5, 10])
def test_pass_matches_plain_loops(budget):
    X, y = checkerboard(150, seed=budget)
    order = np.random.default_rng(budget).permutation(150)
    res = ref.bpann(X, y, order, budget=budget, C=1.0, kernel="rbf", gamma=2.0, degree=3, coef0=0.0)
    S, A, mistakes = _plain_pass(X, y, order, budget, 1.0, 2.0)
    assert res.trace["removals"] > 20
    np.testing.assert_array_equal(res.sv, S)
    np.testing.assert_allclose(res.alpha.ravel(), A, rtol=1e-9, atol=1e-12)
    assert res.trace["mistakes"] == mistakes


# ---- 3. repeated rows and exact ties -----------------------------------------------------------------

def _pa_tau(sv, alpha, x, y, C, kw):
    loss = 1.0 - y * float(np.ravel(alpha) @ _kern(sv, x, kw)[:, 0])
    assert loss > 0.0
    return min(C, loss / float(_kern(x, x, kw)[0, 0]))


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_repeated_row_takes_the_span_branch_as_bpas(kernel):
    """``x_t`` and the replaced SV's nearest neighbour are in ``span{x_t}`` (rbf: two copies of
    ``x_t``; linear: ``2 x_t`` and ``3 x_t``): the lowest of the two slots is replaced with
    ``beta_t = alpha_r k_rt / k_tt + y_t tau``, the neighbour keeps its coefficient, as BPA-S."""
    kw, rng = KERNELS[kernel], np.random.default_rng(7)
    x = rng.normal(size=(1, 3))
    far = 6.0 * rng.normal(size=(3, 3))
    copies = (x[0], x[0]) if kernel == "rbf" else (2.0 * x[0], 3.0 * x[0])
    sv = np.vstack([far[0], copies[0], far[1], copies[1], far[2]])
    alpha = np.array([0.7, -0.4, 0.9, 0.3, -0.8])
    D = np.diag(_kern(sv, sv, kw))[:, None] + np.diag(_kern(sv, sv, kw))[None, :] - 2.0 * _kern(sv, sv, kw)
    np.fill_diagonal(D, np.inf)
    assert np.argmin(D[1]) == 3                            # the construction: NN(1) = 3
    y = 1 if float(alpha @ _kern(sv, x, kw)[:, 0]) < 1.0 else -1
    tau = _pa_tau(sv, alpha, x, y, 1.0, kw)
    a = _one_step(ref, sv, alpha, x, y, 1.0, kw)
    b = ref.bpas(x, np.array([y]), np.array([0]), sv=sv, alpha=alpha.reshape(-1, 1), budget=5, C=1.0, **kw)
    assert np.all(np.isfinite(a.alpha))
    assert list(a.trace["removal_index"]) == list(b.trace["removal_index"]) == [1]
    expected = alpha.copy()
    expected[1] = alpha[1] * _kern(sv[1:2], x, kw)[0, 0] / _kern(x, x, kw)[0, 0] + y * tau
    np.testing.assert_allclose(a.alpha.ravel(), expected, rtol=1e-12, atol=1e-14)
    assert a.alpha[3, 0] == alpha[3]                       # V = {t}: the neighbour is not touched
    np.testing.assert_array_equal(a.sv, b.sv)
    np.testing.assert_allclose(a.alpha, b.alpha, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("near", [0.0, 1e-13])
def test_repeated_rows_keep_coefficients_finite(kernel, near):
    """A pass over 4 distinct rows (each repeated, optionally perturbed by ``near``) visited 3 times."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(4, 3))[rng.integers(0, 4, 30)]
    X = X * (1.0 + near * rng.normal(size=X.shape))
    y = np.where(rng.random(30) < 0.5, 1, -1)
    res = ref.bpann(X, y, np.tile(np.arange(30), 3), budget=3, C=1.0, **KERNELS[kernel])
    assert res.trace["removals"] > 0
    assert np.all(np.isfinite(res.alpha)) and np.max(np.abs(res.alpha)) < 1e3
    assert np.all(np.isfinite(res.state["gram"]))


@pytest.mark.parametrize("twins, other", [((1, 3), 1.0), ((1, 3), 3.0), ((2, 4), 1.0)])
def test_identical_svs_tie_goes_to_the_lowest_slot(twins, other):
    """Two copies of ``v`` (coefficients ``c`` and ``other * c``): each projects onto its twin with
    no loss (``WD = 0``, the least), the lower slot is replaced, its coefficient moves to the twin."""
    kw, rng = KERNELS["rbf"], np.random.default_rng(11)
    sv = 4.0 * rng.normal(size=(5, 3))
    lo, hi = twins
    sv[hi] = sv[lo]
    alpha = np.array([0.8, -0.6, 0.5, 0.9, -0.7])
    alpha[hi] = other * alpha[lo]
    x = sv[lo:lo + 1] + 0.3                                # near v, distinct from every SV
    y = -1 if float(alpha @ _kern(sv, x, kw)[:, 0]) > 0 else 1
    tau = _pa_tau(sv, alpha, x, y, 1.0, kw)
    res = _one_step(ref, sv, alpha, x, y, 1.0, kw)
    assert list(res.trace["removal_index"]) == [lo]
    expected = alpha.copy()
    expected[hi] = (1.0 + other) * alpha[lo]
    expected[lo] = y * tau                                 # c_t = 0: k(v, .) is kept by the twin
    np.testing.assert_allclose(res.alpha.ravel(), expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(res.sv[lo], x[0])


# ---- 4. state -----------------------------------------------------------------------------------------

def test_split_pass_with_state_is_bitwise_and_without_state_close():
    X, y = checkerboard(200, seed=4)
    order = np.random.default_rng(4).permutation(200)
    kw = dict(budget=10, C=1.0, kernel="rbf", gamma=2.0, degree=3, coef0=0.0)
    whole = ref.bpann(X, y, order, **kw)
    first = ref.bpann(X, y, order[:80], **kw)
    assert first.sv.shape[0] == 10                         # the split falls after the budget is full
    cont = dict(sv=first.sv, alpha=first.alpha, t0=first.t)
    second = ref.bpann(X, y, order[80:], state=first.state, **cont, **kw)
    np.testing.assert_array_equal(second.sv, whole.sv)
    np.testing.assert_array_equal(second.alpha, whole.alpha)
    np.testing.assert_array_equal(second.state["gram"], whole.state["gram"])
    assert second.t == whole.t == 200
    for key in ("mistakes", "kernel_evaluations"):         # the state saves recomputing the gram
        assert first.trace[key] + second.trace[key] == whole.trace[key], key
    np.testing.assert_array_equal(np.r_[first.trace["n_sv"], second.trace["n_sv"]], whole.trace["n_sv"])
    fresh = ref.bpann(X, y, order[80:], state=None, **cont, **kw)
    np.testing.assert_array_equal(fresh.sv, whole.sv)
    np.testing.assert_allclose(fresh.alpha, whole.alpha, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(fresh.state["gram"], whole.state["gram"], rtol=1e-12, atol=1e-14)
    assert fresh.trace["kernel_evaluations"] == second.trace["kernel_evaluations"] + 10 * 11 // 2


# ---- 5. errors ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("change, match", [
    (dict(budget=1), "budget"),
    (dict(C=0.0), "C must"),
    (dict(C=-1.0), "C must"),
    (dict(X="nan"), "X contains NaN"),
    (dict(y="01"), r"y must hold labels -1 and \+1"),
])
@pytest.mark.parametrize("module", [ref, fast_online], ids=["python", "fast"])
def test_errors_name_the_parameter(module, change, match):
    X, y = checkerboard(20, seed=0)
    kw, change = dict(budget=5, C=1.0, **KERNELS["rbf"]), dict(change)
    if change.pop("X", None):
        X[3, 1] = np.nan
    if change.pop("y", None):
        y = (y > 0).astype(np.int64)
    kw.update(change)
    with pytest.raises(ValueError, match=match):
        getattr(module, "bpann")(X, y, np.arange(20), **kw)


# ---- 6. the estimator -------------------------------------------------------------------------------------

def _blobs(n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.6, 1, -1)
    return rng.normal(size=(n, 2)) + 1.5 * y[:, None], y


def test_estimator_fits_predicts_and_beats_a_constant():
    X, y = _blobs()
    clf = OnlineKernelClassifier(algorithm="bpann", budget=15, C=1.0, gamma=0.5, backend="python",
                                 random_state=0).fit(X, y)
    assert clf.support_vectors_.shape[0] <= 15
    assert set(clf.predict(X)) <= {-1, 1}
    assert clf.score(X, y) > max(np.mean(y == 1), np.mean(y == -1)) + 0.2
    assert clf.trace_[0]["removals"] > 0


def test_estimator_clone_and_grid_search():
    X, y = _blobs(150, seed=1)
    clf = OnlineKernelClassifier(algorithm="bpann", budget=10, C=1.0, gamma=0.5, backend="python", random_state=0)
    assert clone(clf).get_params() == clf.get_params()
    grid = GridSearchCV(clf, {"C": [0.1, 1.0]}, cv=3).fit(X, y)
    assert grid.best_params_["C"] in (0.1, 1.0)
    assert grid.score(X, y) > 0.8


def test_estimator_rejects_three_classes():
    X, _ = _blobs(90)
    with pytest.raises(ValueError, match="bpann"):
        OnlineKernelClassifier(algorithm="bpann", budget=10, backend="python").fit(X, np.arange(90) % 3)


# ---- 7. the two paths ---------------------------------------------------------------------------------------

def test_fast_signature_matches():
    assert inspect.signature(getattr(fast_online, "bpann")) == inspect.signature(ref.bpann)


def _duplicated(seed=2):
    X, y, _ = duplicate_rows_problem(np.random.default_rng(seed))
    return X, np.where(y % 2 == 0, 1, -1).astype(np.int64)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_paths_agree_one_pass_and_continuation(kernel, sparse):
    X, y = _duplicated()
    Xs = sp.csr_matrix(X) if sparse else X
    order = np.random.default_rng(5).permutation(len(y))
    kw = dict(budget=8, C=1.0, **KERNELS[kernel])
    runs = []
    for module in (ref, fast_online):
        first = getattr(module, "bpann")(Xs, y, order, **kw)
        runs.append((first, getattr(module, "bpann")(Xs, y, order[::-1].copy(), sv=first.sv, alpha=first.alpha,
                                                     t0=first.t, state=first.state, **kw)))
    for a, b in zip(*runs):
        for key in ("mistakes", "updates", "removals", "kernel_evaluations"):
            assert a.trace[key] == b.trace[key], key
        for key in ("update_kind", "n_sv", "removal_step", "removal_index"):
            np.testing.assert_array_equal(a.trace[key], b.trace[key], err_msg=key)
        dense = (lambda m: m.toarray()) if sparse else np.asarray
        np.testing.assert_array_equal(dense(a.sv), dense(b.sv))
        np.testing.assert_allclose(a.alpha, b.alpha, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(a.state["gram"], b.state["gram"], rtol=1e-10, atol=1e-12)
    assert runs[0][0].trace["removals"] > 0


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_estimator_paths_agree_over_epochs(kernel, sparse):
    X, y = _duplicated(seed=6)
    Xs = sp.csr_matrix(X) if sparse else X
    kw = dict(algorithm="bpann", budget=10, C=1.0, epochs=3, random_state=3, **KERNELS[kernel])
    a = OnlineKernelClassifier(backend="python", **kw).fit(Xs, y)
    b = OnlineKernelClassifier(backend="fast", **kw).fit(Xs, y)
    dense = (lambda m: m.toarray() if sp.issparse(m) else np.asarray(m))
    np.testing.assert_array_equal(dense(a.support_vectors_), dense(b.support_vectors_))
    np.testing.assert_allclose(a.alpha_, b.alpha_, rtol=1e-10, atol=1e-12)
    assert len(a.trace_) == len(b.trace_) == 3
    for ta, tb in zip(a.trace_, b.trace_):
        assert ta["mistakes"] == tb["mistakes"]
        np.testing.assert_array_equal(ta["removal_index"], tb["removal_index"])
    assert a.trace_[0]["removals"] > 0


# ---- 8. the zero row under the linear kernel (BPA-S and BPA-NN, both paths) ------------------------------

@pytest.mark.parametrize("held", [0, 2, 3], ids=["empty", "below-budget", "full"])
@pytest.mark.parametrize("algorithm", ["bpas", "bpann"])
@pytest.mark.parametrize("module", [ref, fast_online], ids=["python", "fast"])
def test_zero_row_takes_no_step(module, algorithm, held):
    rng = np.random.default_rng(held)
    sv, alpha = (rng.normal(size=(held, 4)), rng.normal(size=(held, 1))) if held else (None, None)
    res = getattr(module, algorithm)(np.zeros((1, 4)), np.array([1]), np.array([0]), sv=sv, alpha=alpha,
                                     budget=3, C=1.0, **KERNELS["linear"])   # f = 0: loss 1, k_tt = 0
    assert res.trace["updates"] == 0 and res.trace["removals"] == 0
    assert res.trace["mistakes"] == 1
    assert res.sv.shape == (held, 4)
    if held:
        np.testing.assert_array_equal(res.sv, sv)
        np.testing.assert_array_equal(res.alpha, alpha)
