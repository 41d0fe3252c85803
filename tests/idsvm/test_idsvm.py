"""IDSVM (refsvm.idsvm; its compiled twin refsvm._fast.idsvm): the incremental SVM of Cauwenberghs &
Poggio (2000), whose model after a pass is *the* SVM (hinge loss, box C_i = C s_i, bias) of the
examples seen.

Every expected value here is computed independently of the code under test:

* the KKT conditions of the dual, from a fresh computation of every ``g_i = y_i f(x_i) - 1`` (numpy
  with tests/_helpers.kern, and on a small case in 50-digit mpmath);
* scikit-learn's SVC (libsvm, tol 1e-12): decision values on fresh points and the support set, within
  a first-order bound of libsvm's single-precision kernel cache;
* the dual optimum of tiny problems by exact enumeration of the active sets (n <= 8) and by SLSQP
  (n <= 12);
* the optimum's independence of the visiting order; the regimes (duplicate, repeated and
  near-duplicate rows, one example, one class first, tiny and huge C, weights) against the equivalent
  weighted or deduplicated problems;
* a hypothesis property test of the KKT conditions, the argument errors, and the agreement of the two
  paths (test_idsvm_robustness.py, with the hypothesis tests and the known inaccuracies).

The reference promises never to return a wrong model silently: ``trace["kkt_violation"]`` certifies
the model, and a violation above ``refsvm.idsvm.KKT_WARN`` comes with a RuntimeWarning.  Here a
RuntimeWarning is an error (``pytestmark``) except in the tests of that contract.  Small, well-scaled
problems on which the model misses the KKT conditions by more than this file's tolerance are kept as
strict xfails (``test_known_inaccuracy_kkt``): they fail the day the accuracy is fixed, so that the
marker is removed.
"""


import itertools

import numpy as np
import pytest
from scipy.optimize import minimize

from refsvm.idsvm import ERROR, MARGIN, RESERVE

from _helpers import kern

from idsvm._idsvm_common import (EPS, ILL, ILL_ABS, KERNELS, WELL, _aggregate, _decision, _dual, _free, _fresh,
                                  _kw, _problem, assert_decision_matches_svc, assert_dual_matches_svc, assert_kkt)

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


# ---- 1. exactness: the KKT conditions -------------------------------------------------------------

@pytest.mark.parametrize("C", [0.1, 1.0, 10.0, 100.0])
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_kkt_after_the_pass(idsvm, kernel, C):
    kw = _kw(kernel)
    for seed in range(3):
        X, y, rng = _problem([seed, int(C * 10), len(kernel)], 50)
        order = rng.permutation(50)
        res = idsvm(X, y, order, C=C, **kw)
        assert_kkt(X, y, order, res, C, kw)
        assert isinstance(res.bias, float)


def test_kkt_in_50_digits(idsvm):
    """The returned (alpha, b) taken exactly (binary values) and every g_i in 50-digit arithmetic: the KKT
    conditions hold to far below the tolerance, and numpy's fresh g_i (used everywhere else here) is
    within its rounding bound (m + 2) u scale of the exact one."""
    mp = pytest.importorskip("mpmath")
    X, y, rng = _problem(7, 12, d=2)
    order = rng.permutation(12)
    kw = _kw("rbf", gamma=0.7)
    res = idsvm(X, y, order, C=3.0, **kw)
    g_np, yo, _, scale = _fresh(X, y, order, res, kw)
    Xo = X[order]
    with mp.workdps(50):
        f = mp.mpf
        a = [f(float(v)) for v in res.alpha_all]
        g_mp = []
        for i in range(12):
            s = f(float(res.bias))
            for j in range(12):
                d2 = sum((f(float(Xo[i, k])) - f(float(Xo[j, k]))) ** 2 for k in range(2))
                s += int(yo[j]) * a[j] * mp.exp(-f(0.7) * d2)
            g_mp.append(int(yo[i]) * s - 1)
        h = sum(int(yo[j]) * a[j] for j in range(12))
        g_exact = np.array([float(v) for v in g_mp])
        h = float(h)
    m = 12
    # numpy's g: m + 2 roundings of terms bounded by scale, plus the kernel values' errors: kern takes
    # exp(-gamma sum_k (x_ik - x_jk)^2), the squared distance D to (d + 1) u relatively, so the value to
    # (d + 1) u gamma D exp(-gamma D) + u <= ((d + 1) / e + 1) u < 2.2 u for d = 2 (4 u here)
    assert np.all(np.abs(g_np - g_exact) <= (m + 2) * 2 ** -53 * scale + 4 * 2 ** -53 * np.sum(res.alpha_all) + 1e-300)
    tol = WELL * m * EPS * scale
    s = res.sets
    assert np.all(np.abs(g_exact[s == MARGIN]) <= tol)
    assert np.all(g_exact[s == ERROR] <= tol)
    assert np.all(g_exact[s == RESERVE] >= -tol)
    assert abs(h) <= WELL * m * EPS * 3.0
    assert np.any(s == MARGIN) and np.any(s == ERROR)        # the case exercises both bounds


# ---- 2. against scikit-learn's SVC -----------------------------------------------------------------

SVC_CASES = [(k, C, g) for k in ("rbf", "poly") for C in (0.3, 3.0, 30.0) for g in (0.5, 2.0)] \
    + [("linear", C, 1.0) for C in (0.3, 3.0, 30.0)]


@pytest.mark.parametrize("kernel,C,gamma", SVC_CASES)
def test_against_svc(idsvm, kernel, C, gamma):
    kw = _kw(kernel, gamma=gamma)
    if kernel == "poly":
        kw["gamma"] = gamma / 2.0        # (gamma x.x' + 1)^2 of rows of norm ~1.4: values stay moderate
    checked = 0
    for seed in range(3):
        X, y, rng = _problem([seed, int(C * 10), int(gamma * 10), len(kernel)], 40)
        order = rng.permutation(40)
        res = idsvm(X, y, order, C=C, **kw)
        svc = assert_dual_matches_svc(X, y, order, res, C, kw)
        Xt = rng.normal(size=(25, 2))
        wx, b = _decision(res, Xt, kw)
        clear = assert_decision_matches_svc(svc, X[order], y[order].astype(np.float64), res.alpha_all, res.bias,
                                            kw, Xt, np.full(40, C), wx + b)
        if clear:
            np.testing.assert_array_equal(np.sort(res.support), np.sort(order[svc.support_]))
            checked += 1
    assert checked >= 1                                   # the support sets were compared


# ---- 3. against a brute-force QP on tiny problems --------------------------------------------------

def _qp_enumerate(Q, y, C_box):
    """The dual optimum by exact enumeration of the active sets: every (S, E, R) whose KKT system has a
    solution satisfying the KKT conditions gives the optimal value (S empty: b in an interval)."""
    n = len(y)
    values = []
    for assign in itertools.product((0, 1, 2), repeat=n):
        assign = np.array(assign)
        S, E = np.flatnonzero(assign == 0), np.flatnonzero(assign == 1)
        alpha = np.zeros(n)
        alpha[E] = C_box[E]
        if S.size == 0:
            if abs(y[E] @ alpha[E]) > 1e-12:
                continue
            f0 = Q @ alpha * y                     # sum_j y_j alpha_j K_ij
            # g_i = y_i (f0_i + b) - 1: E needs g <= 0, R needs g >= 0
            lo, hi = -np.inf, np.inf
            for i in range(n):
                bound = y[i] * (1.0 - y[i] * f0[i])        # y_i b vs 1 - y_i f0_i
                up = (assign[i] == 1)
                if (y[i] > 0) == up:
                    hi = min(hi, bound)
                else:
                    lo = max(lo, bound)
            if lo <= hi + 1e-12:
                values.append(0.5 * alpha @ Q @ alpha - alpha.sum())
            continue
        R = np.zeros((S.size + 1, S.size + 1))
        R[0, 1:] = R[1:, 0] = y[S]
        R[1:, 1:] = Q[np.ix_(S, S)]
        if np.linalg.cond(R) > 1e10:
            continue
        rhs = np.r_[-(y[E] @ alpha[E]), 1.0 - Q[np.ix_(S, E)] @ alpha[E]]
        sol = np.linalg.solve(R, rhs)
        b, alpha[S] = sol[0], sol[1:]
        if np.any(alpha[S] < -1e-10) or np.any(alpha[S] > C_box[S] + 1e-10):
            continue
        g = Q @ alpha + y * b - 1.0
        Rr = assign == 2
        if np.any(g[E] > 1e-10) or np.any(g[Rr] < -1e-10):
            continue
        values.append(0.5 * alpha @ Q @ alpha - alpha.sum())
    assert values
    return min(values), max(values)


def _qp_slsqp(Q, y, C_box):
    n = len(y)
    res = minimize(lambda a: 0.5 * a @ Q @ a - a.sum(), np.zeros(n), jac=lambda a: Q @ a - 1.0,
                   bounds=[(0.0, c) for c in C_box],
                   constraints=[dict(type="eq", fun=lambda a: y @ a, jac=lambda a: y)],
                   method="SLSQP", options=dict(ftol=1e-15, maxiter=2000))
    a = np.clip(res.x, 0.0, C_box)
    assert abs(y @ a) < 1e-8
    return 0.5 * a @ Q @ a - a.sum()


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_dual_optimum_against_qp(idsvm, kernel):
    kw = _kw(kernel)
    for seed in range(6):
        rng = np.random.default_rng([seed, len(kernel)])
        n = int(rng.integers(3, 13))
        X = rng.normal(size=(n, 3))
        y = rng.choice([-1, 1], n)
        y[:2] = (1, -1)
        C = float(rng.choice([0.2, 1.0, 5.0]))
        order = rng.permutation(n)
        res = idsvm(X, y, order, C=C, **kw)
        assert_kkt(X, y, order, res, C, kw)
        Xo, yo = X[order], y[order].astype(np.float64)
        Q = yo[:, None] * yo[None, :] * kern(Xo, Xo, **kw)
        w = _dual(X, y, order, res.alpha_all, kw)
        if n <= 8:
            lo, hi = _qp_enumerate(Q, yo, np.full(n, C))
            assert hi - lo <= 1e-9 * (1.0 + abs(lo))              # one optimal value
            assert w == pytest.approx(lo, rel=1e-10, abs=1e-10)
        w_qp = _qp_slsqp(Q, yo, np.full(n, C))
        # SLSQP's point is feasible (clipped): never better than the optimum beyond its residual
        assert w <= w_qp + 1e-10 * (1.0 + abs(w))
        assert w_qp - w <= 1e-6 * (1.0 + abs(w))


# ---- 4. the order does not change the optimum ------------------------------------------------------

@pytest.mark.parametrize("kernel", list(KERNELS))
def test_order_does_not_change_the_optimum(idsvm, kernel):
    kw = _kw(kernel)
    X, y, rng = _problem(11 + len(kernel), 40)
    C = 2.0
    Xt = rng.normal(size=(30, 2))
    runs = []
    for _ in range(5):
        order = rng.permutation(40)
        res = idsvm(X, y, order, C=C, **kw)
        assert_kkt(X, y, order, res, C, kw)
        wx, b = _decision(res, Xt, kw)
        runs.append((wx, b, _dual(X, y, order, res.alpha_all, kw), bool(np.any(_free(res, np.full(40, C)))),
                     sorted(res.support.tolist())))
    scale = 1.0 + C * 40
    for wx, b, w, free, support in runs[1:]:
        # the same rows carry the model (a non-degenerate problem: the optimum is unique), so the runs'
        # differences are linear in their KKT residuals (~1e3 m eps scale, WELL): 1e-9 scale leaves room.
        # The decision function w.x is unique; b too when some alpha is free
        assert support == runs[0][4]
        np.testing.assert_allclose(wx, runs[0][0], rtol=0, atol=1e-9 * scale)
        if free and runs[0][3]:
            assert b == pytest.approx(runs[0][1], abs=1e-9 * scale)
        # W is second order in the coefficients' errors
        assert w == pytest.approx(runs[0][2], rel=1e-12, abs=1e-12 * scale)


# ---- 5. regimes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kernel", list(KERNELS))
def test_exact_duplicates_same_label_equal_a_weight_of_two(idsvm, kernel):
    """Rows repeated with the same label: the SVM of the multiset equals that of the distinct rows with
    weight 2 for the repeated ones (their alphas only appear summed, in a box of 2C)."""
    kw = _kw(kernel)
    X0, y0, rng = _problem(21 + len(kernel), 25)
    rep = rng.choice(25, 10, replace=False)
    X, y = np.vstack([X0, X0[rep]]), np.r_[y0, y0[rep]]
    order = rng.permutation(35)
    C = 1.5
    res = idsvm(X, y, order, C=C, **kw)
    assert_kkt(X, y, order, res, C, kw, factor=ILL)
    w = np.ones(25)
    w[rep] = 2.0
    # the weighted problem's optimum is the multiset's, its coefficients the copies' sums
    summed = _aggregate(np.r_[np.arange(25), rep][order], res.alpha_all, 25)
    svc = assert_dual_matches_svc(X0, y0, np.arange(25), None, C, kw, sample_weight=w, factor=ILL, alpha=summed,
                                  bias=res.bias)
    Xt = rng.normal(size=(20, 2))
    wx, b = _decision(res, Xt, kw)
    assert_decision_matches_svc(svc, X0, y0.astype(np.float64), summed, res.bias, kw, Xt, C * w, wx + b)


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_exact_duplicates_opposite_labels(idsvm, kernel):
    kw = _kw(kernel)
    X0, y0, rng = _problem(31 + len(kernel), 20)
    rep = rng.choice(20, 6, replace=False)
    X, y = np.vstack([X0, X0[rep]]), np.r_[y0, -y0[rep]]
    order = rng.permutation(26)
    for C in (0.5, 5.0):
        res = idsvm(X, y, order, C=C, **kw)
        assert_kkt(X, y, order, res, C, kw, factor=ILL)
        assert_dual_matches_svc(X, y, order, res, C, kw, factor=ILL)
        # a row with both labels: where |f(x)| < 1 both copies violate their margin (both alpha = C);
        # where |f(x)| > 1 the copy on the wrong side does (alpha = C) and the other is in R (alpha = 0)
        f = kern(X0[rep], res.sv, **kw) @ res.alpha[:, 0] + res.bias
        pos = {int(r): p for p, r in enumerate(order)}
        first, second = [pos[int(r)] for r in rep], [pos[20 + i] for i in range(6)]
        a1, a2 = res.alpha_all[first], res.alpha_all[second]
        inside, outside = np.abs(f) < 1.0 - 1e-6, np.abs(f) > 1.0 + 1e-6
        assert np.all(a1[inside] == C) and np.all(a2[inside] == C)
        assert np.all(np.minimum(a1, a2)[outside] == 0.0) and np.all(np.maximum(a1, a2)[outside] == C)
        assert np.any(inside) or np.any(outside)


def test_repeated_visits_are_two_examples(idsvm):
    """A row visited twice in ``order`` is two examples: the result equals the pass over the duplicated
    rows, and the SVM of SVC with weight = number of visits."""
    kw = _kw("rbf")
    X, y, rng = _problem(41, 20)
    order = np.r_[rng.permutation(20), rng.choice(20, 8, replace=False)]
    C = 2.0
    res = idsvm(X, y, order, C=C, **kw)
    assert res.trace["n_steps"] == 28
    assert_kkt(X, y, order, res, C, kw, factor=ILL)
    counts = np.bincount(order, minlength=20).astype(np.float64)
    svc = assert_dual_matches_svc(X, y, np.arange(20), None, C, kw, sample_weight=counts, factor=ILL,
                                  alpha=_aggregate(order, res.alpha_all, 20), bias=res.bias)
    Xt = rng.normal(size=(20, 2))
    wx, b = _decision(res, Xt, kw)
    assert_decision_matches_svc(svc, X, y.astype(np.float64), _aggregate(order, res.alpha_all, 20), res.bias,
                                kw, Xt, C * counts, wx + b)
    # the same examples as distinct rows: the same optimum
    res2 = idsvm(X[order], y[order], np.arange(28), C=C, **kw)
    assert _dual(X[order], y[order], np.arange(28), res2.alpha_all, kw) == \
        pytest.approx(_dual(X, y, order, res.alpha_all, kw), rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_near_duplicate_rows(idsvm, kernel):
    """Rows 1e-9 apart (same or opposite label): the kernel matrix is singular to working precision;
    the run ends, the KKT conditions hold, and the optimum is that of exact duplicates within 1e-6."""
    kw = _kw(kernel)
    X0, y0, rng = _problem(51 + len(kernel), 20)
    rep = rng.choice(20, 8, replace=False)
    sign = np.where(np.arange(8) % 2 == 0, 1, -1)
    near = X0[rep] + 1e-9 * rng.normal(size=(8, 2))
    X, y = np.vstack([X0, near]), np.r_[y0, sign * y0[rep]]
    order = rng.permutation(28)
    C = 3.0
    res = idsvm(X, y, order, C=C, **kw)
    assert_kkt(X, y, order, res, C, kw, factor=ILL)
    Xd = np.vstack([X0, X0[rep]])
    exact = idsvm(Xd, y, order, C=C, **kw)
    assert_kkt(Xd, y, order, exact, C, kw, factor=ILL)
    assert_dual_matches_svc(Xd, y, order, exact, C, kw, factor=ILL)
    # the optimum moves with Q: W*(Q') <= W(a*; Q') = W*(Q) + 1/2 a*'(Q' - Q)a* and symmetrically, so
    # |W*_near - W*_exact| <= 1/2 max over both solutions of a'|dK|a (dK: the kernel values' change)
    o = np.asarray(order)
    dK = np.abs(kern(X[o], X[o], **kw) - kern(Xd[o], Xd[o], **kw))
    shift = 0.5 * max(res.alpha_all @ dK @ res.alpha_all, exact.alpha_all @ dK @ exact.alpha_all)
    w_near, w_exact = _dual(X, y, order, res.alpha_all, kw), _dual(Xd, y, order, exact.alpha_all, kw)
    assert abs(w_near - w_exact) <= shift + ILL_ABS * (1.0 + abs(w_exact))


def test_one_example(idsvm):
    """One example: alpha = 0 (sum y alpha = 0), b = y (g = 0, a margin vector); f = y everywhere."""
    for label in (-1, 1):
        res = idsvm(np.array([[0.3, -1.0]]), np.array([label]), np.array([0]), C=1.0)
        assert res.alpha_all.tolist() == [0.0]
        assert res.bias == float(label)
        assert res.sets.tolist() == [MARGIN]
        assert res.sv.shape == (0, 2) and res.alpha.shape == (0, 1) and res.support.size == 0
        assert res.trace["mistakes"] == 1                 # f = 0 before learning: y f <= 0


def test_empty_order(idsvm):
    res = idsvm(np.ones((3, 2)), np.array([1, -1, 1]), np.array([], dtype=np.int64), C=1.0)
    assert res.alpha_all.size == 0 and res.bias == 0.0 and res.sv.shape == (0, 2)


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_one_class_first(idsvm, kernel):
    """All positives first: while one class is seen, sum y alpha = 0 forces alpha = 0 and only b moves
    (every example has y f >= 1); then the pass ends at the SVM of all the examples."""
    kw = _kw(kernel)
    X, y, rng = _problem(61 + len(kernel), 30)
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
    order = np.r_[rng.permutation(pos), rng.permutation(neg)]
    C = 1.0
    first = idsvm(X, y, order[:len(pos)], C=C, **kw)
    np.testing.assert_array_equal(first.alpha_all, 0.0)
    assert first.bias >= 1.0 - 1e-12
    res = idsvm(X, y, order, C=C, **kw)
    assert_kkt(X, y, order, res, C, kw)
    assert_dual_matches_svc(X, y, order, res, C, kw)


def test_tiny_C_everything_bound(idsvm):
    """C = 1e-6: the hinge dominates; every alpha of the minority class is at C, and the optimum is SVC's."""
    kw = _kw("rbf")
    X, y, rng = _problem(71, 40, noise=2.0)
    order = rng.permutation(40)
    C = 1e-6
    res = idsvm(X, y, order, C=C, **kw)
    assert_kkt(X, y, order, res, C, kw)
    assert_dual_matches_svc(X, y, order, res, C, kw)
    minority = 1 if np.sum(y > 0) < np.sum(y < 0) else -1
    at_C = res.alpha_all[y[order] == minority]
    assert np.sum(at_C == C) >= len(at_C) - 1              # at most one minority example is free
    assert np.sum(res.alpha_all > 0) >= 2 * len(at_C) - 2


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_huge_C_hard_margin(idsvm, kernel):
    """C = 1e4 on separable data: the hard-margin SVM (no error vector, every y f(x) >= 1 within the
    tolerance), as SVC finds it."""
    kw = _kw(kernel)
    rng = np.random.default_rng(81 + len(kernel))
    X = rng.uniform(-1.0, 1.0, size=(40, 2))
    X[:, 0] += np.where(np.arange(40) % 2 == 0, 1.5, -1.5)     # a gap of 1 between the classes
    y = np.where(np.arange(40) % 2 == 0, 1, -1)
    order = rng.permutation(40)
    C = 1e4
    res = idsvm(X, y, order, C=C, **kw)
    assert_kkt(X, y, order, res, C, kw, factor=ILL)
    assert not np.any(res.sets == ERROR)
    assert np.all(res.alpha_all < C / 10)
    g, _, _, scale = _fresh(X, y, order, res, kw)
    assert np.all(g >= -ILL * 40 * EPS * scale)
    svc = assert_dual_matches_svc(X, y, order, res, C, kw, factor=ILL)
    Xt = rng.normal(size=(20, 2))
    wx, b = _decision(res, Xt, kw)
    assert_decision_matches_svc(svc, X[order], y[order].astype(np.float64), res.alpha_all, res.bias, kw, Xt,
                                np.full(40, C), wx + b)


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_zero_weight_example(idsvm, kernel):
    """An example of weight 0 has alpha = 0 and leaves the model as if it were not there."""
    kw = _kw(kernel)
    X, y, rng = _problem(91 + len(kernel), 30)
    order = rng.permutation(30)
    sw = np.ones(30)
    zero = order[[0, 7, 15]]                  # the first example of the pass among them
    sw[zero] = 0.0
    C = 2.0
    res = idsvm(X, y, order, C=C, sample_weight=sw, **kw)
    assert_kkt(X, y, order, res, C, kw, sample_weight=sw)
    assert np.all(res.alpha_all[np.isin(order, zero)] == 0.0)
    keep = order[~np.isin(order, zero)]
    ref = idsvm(X, y, keep, C=C, **kw)
    Xt = rng.normal(size=(20, 2))
    wx, b = _decision(res, Xt, kw)
    wx2, b2 = _decision(ref, Xt, kw)
    np.testing.assert_allclose(wx, wx2, rtol=0, atol=1e-9 * (1.0 + 30 * C))
    if np.any(_free(ref, np.full(len(keep), C))):
        assert b == pytest.approx(b2, abs=1e-9 * (1.0 + 30 * C))


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_weights_change_the_box(idsvm, kernel):
    """sample_weight s gives the box C s_i: the SVM of SVC with the same sample_weight (libsvm's C_i)."""
    kw = _kw(kernel)
    X, y, rng = _problem(101 + len(kernel), 40)
    sw = rng.choice([0.25, 1.0, 3.0], size=40)
    order = rng.permutation(40)
    C = 1.0
    res = idsvm(X, y, order, C=C, sample_weight=sw, **kw)
    assert_kkt(X, y, order, res, C, kw, sample_weight=sw)
    C_box = C * sw[order]
    assert np.all(res.alpha_all <= C_box)
    assert np.any(res.alpha_all == 3.0) or np.any(res.alpha_all == 0.25)     # the boxes bind
    svc = assert_dual_matches_svc(X, y, order, res, C, kw, sample_weight=sw)
    Xt = rng.normal(size=(20, 2))
    wx, b = _decision(res, Xt, kw)
    assert_decision_matches_svc(svc, X[order], y[order].astype(np.float64), res.alpha_all, res.bias, kw, Xt,
                                C_box, wx + b)


