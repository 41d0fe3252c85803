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
  paths (skipped until refsvm._fast.idsvm is built).

The reference promises never to return a wrong model silently: ``trace["kkt_violation"]`` certifies
the model, and a violation above ``refsvm.idsvm.KKT_WARN`` comes with a RuntimeWarning.  Here a
RuntimeWarning is an error (``pytestmark``) except in the tests of that contract.  Small, well-scaled
problems on which the model misses the KKT conditions by more than this file's tolerance are kept as
strict xfails (``test_known_inaccuracy_kkt``): they fail the day the accuracy is fixed, so that the
marker is removed.
"""

import itertools
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from sklearn.svm import SVC

from refsvm.backend import get_module
from refsvm.idsvm import ERROR, KKT_WARN, MARGIN, RESERVE, IDSVMResult

from _helpers import kern

EPS = float(np.finfo(np.float64).eps)            # 2^-52
#: libsvm keeps the kernel matrix in single precision (``typedef float Qfloat`` in svm.cpp): SVC
#: solves the dual of Q rounded to float32, each entry off by at most 2^-24 relatively.
FLOAT32_U = 2.0 ** -24

KERNELS = {"rbf": dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0),
           "linear": dict(kernel="linear", gamma=1.0, degree=3, coef0=0.0),
           "poly": dict(kernel="poly", gamma=0.5, degree=2, coef0=1.0)}

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

#: KKT tolerances, in units of ``m * eps * scale`` (m examples, ``scale = 1 + |b| + max_i sum_j
#: alpha_j |K_ij|``: the magnitude of the terms of one g_i; for sum_i y_i alpha_i and the boxes the
#: unit is ``m * eps * max C_i``).  A fresh g_i errs by at most (m + 2) u scale (numpy's sum; checked
#: against mpmath below).  The returned alpha and b carry the error accumulated over the bookkeeping:
#: each of the O(m) steps per example moves alpha_S along beta = -Rinv [y_c; Q_Sc], whose error is
#: about cond(R) u, so the residual grows like m * cond(R) * u * scale.  On well-conditioned problems
#: (normal features, gamma >= 0.5, C <= 100, no near-duplicates) cond(R) stays small and a factor 1e3
#: leaves room (worst seen ~1e2).  A larger C scales alpha, hence ``scale``, and cond(R) grows with it.
WELL = 1e3
#: On ill-conditioned draws (integer features and exact ties, duplicate rows, low-rank kernels, C up to
#: 1e4) R is near singular in some intermediate steps: the reference admits margin sets up to
#: cond(R) ~ 1e10 (refsvm.idsvm.SCHUR_RTOL), i.e. solves to about 1e10 u ~ 1e-6, and keeps the error
#: once S is well conditioned again.  The tolerance is then 1e6 units or 1e-6 margin units (1e-6 C for
#: the coefficients), whichever is larger: the method's stated accuracy ("solves to about six digits"),
#: still far below the O(1e-3..1) violations of a wrong step.
ILL = 1e6
ILL_ABS = 1e-6


def _kw(kernel, **over):
    kw = dict(KERNELS[kernel])
    kw.update(over)
    return kw


@pytest.fixture(params=["python", "fast"])
def backend(request):
    """The backend under test; "fast" skips only while refsvm._fast.idsvm cannot be imported."""
    if request.param == "fast":
        pytest.importorskip("refsvm._fast.idsvm")
    return request.param


@pytest.fixture
def idsvm(backend):
    return get_module("idsvm", backend).idsvm


# ---- independent computations -------------------------------------------------------------------

def _boxes(n, order, C, sample_weight):
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    return C * w[np.asarray(order)]


def _fresh(X, y, order, res, kw):
    """Fresh ``g_i = y_i (sum_j y_j alpha_j K_ij + b) - 1`` of every example of the pass, the examples'
    labels and kernel matrix, and ``scale`` (see the tolerance note above)."""
    Xo, yo = X[np.asarray(order)], np.asarray(y)[np.asarray(order)].astype(np.float64)
    K = kern(Xo, Xo, **kw)
    a = np.asarray(res.alpha_all, dtype=np.float64)
    g = yo * (K @ (yo * a) + res.bias) - 1.0
    scale = 1.0 + abs(res.bias) + float(np.max(np.abs(K) @ np.abs(a), initial=0.0))
    return g, yo, K, scale


def _structure(X, y, order, res, C_box):
    """The result's own consistency: shapes, sets, the SVs as the examples with alpha > 0."""
    m = len(order)
    assert res.alpha_all.shape == res.sets.shape == res.gradients.shape == (m,)
    assert set(np.unique(res.sets)) <= {MARGIN, ERROR, RESERVE}
    pos = np.flatnonzero(res.alpha_all > 0.0)
    np.testing.assert_array_equal(res.support, np.asarray(order)[pos])
    np.testing.assert_array_equal(res.sv, X[res.support].reshape(len(pos), X.shape[1]))
    assert res.alpha.shape == (len(pos), 1)
    np.testing.assert_array_equal(res.alpha[:, 0], np.asarray(y)[res.support] * res.alpha_all[pos])
    # the bound sets hold their bound exactly (the reference sets them so); weight-0 examples stay at 0
    np.testing.assert_array_equal(res.alpha_all[res.sets == ERROR], C_box[res.sets == ERROR])
    np.testing.assert_array_equal(res.alpha_all[res.sets == RESERVE], 0.0)
    assert res.trace["n_steps"] == m


def _violation(g, yo, res, C_box):
    """The KKT violation in margin units, written out here: |g| on S, max(0, g) on E, max(0, -g) on R
    (boxes of 0 excepted) and |sum y alpha| / max C_i."""
    s, live = res.sets, C_box > 0.0
    parts = [np.abs(g[(s == MARGIN) & live]), np.maximum(g[(s == ERROR) & live], 0.0),
             np.maximum(-g[(s == RESERVE) & live], 0.0), [abs(float(yo @ res.alpha_all)) / max(np.max(C_box), 1e-300)]]
    return float(max(np.max(p, initial=0.0) for p in parts))


def _tolerances(m, scale, C_max, factor):
    """(tol on g, tol on alpha and sum y alpha) for the tier ``factor`` (WELL or ILL, see above)."""
    tol_g, tol_a = factor * m * EPS * scale, factor * m * EPS * max(C_max, 1e-300)
    if factor == ILL:
        tol_g, tol_a = max(tol_g, ILL_ABS), max(tol_a, ILL_ABS * C_max)
    return tol_g, tol_a


def assert_kkt(X, y, order, res, C, kw, *, sample_weight=None, factor=WELL):
    """The KKT conditions of the dual of the examples of ``order`` (boxes ``C s_i``), from fresh g_i:
    S: |g| <= tol, 0 <= alpha <= C_i; E: alpha = C_i, g <= tol; R: alpha = 0, g >= -tol;
    sum_i y_i alpha_i = 0; the reported gradients equal the fresh ones, and the trace's certificate
    ``kkt_violation`` is the violation computed here."""
    order = np.asarray(order)
    m = len(order)
    C_box = _boxes(X.shape[0], order, C, sample_weight)
    _structure(X, y, order, res, C_box)
    g, yo, _, scale = _fresh(X, y, order, res, kw)
    tol, tol_a = _tolerances(m, scale, float(np.max(C_box, initial=0.0)), factor)
    a, s = res.alpha_all, res.sets
    live = C_box > 0.0                  # an example of box 0 satisfies KKT whatever its g
    assert np.all(np.abs(g[(s == MARGIN) & live]) <= tol), (np.max(np.abs(g[s == MARGIN])), tol)
    assert np.all(g[(s == ERROR) & live] <= tol), (np.max(g[s == ERROR]), tol)
    assert np.all(g[(s == RESERVE) & live] >= -tol), (np.min(g[s == RESERVE]), tol)
    # coefficients: alpha moves by sums of |S| terms of size <= C per step; the same m * eps units
    assert np.all(a >= -tol_a) and np.all(a <= C_box + tol_a), (a.min(), np.max(a - C_box), tol_a)
    assert abs(float(yo @ a)) <= tol_a, (float(yo @ a), tol_a)
    # the kept gradients: a row the reference finds dependent on S (kappa <= SCHUR_RTOL = 1e-10 of its
    # terms: a row within ~1e-5 of a margin vector of the other label) keeps g = 0 and drifts by its gamma
    # (~ the distance, <= 1e-5 per unit step) while S stays: up to ~1e-5 scale on ill-conditioned draws
    tol_kept = tol if factor == WELL else max(tol, 1e-5 * scale)
    assert np.all(np.abs(res.gradients[live] - g[live]) <= tol_kept), np.max(np.abs(res.gradients - g))
    # the certificate: the same violation, up to the rounding of either computation (relative to scale)
    tol_cert = tol + tol_a / max(float(np.max(C_box)), 1e-300)
    assert res.trace["kkt_violation"] == pytest.approx(_violation(g, yo, res, C_box), abs=tol_cert)


def _dual(X, y, order, alpha, kw):
    """``W(alpha) = 1/2 alpha' Q alpha - sum(alpha)`` of the examples of ``order``."""
    order = np.asarray(order)
    Xo, yo = X[order], np.asarray(y)[order].astype(np.float64)
    v = yo * np.asarray(alpha, dtype=np.float64)
    return 0.5 * float(v @ kern(Xo, Xo, **kw) @ v) - float(np.sum(alpha))


def _decision(res, Xt, kw):
    """``f(x) - b`` and ``b`` of a result, from the definitions."""
    if res.sv.shape[0] == 0:
        return np.zeros(len(Xt)), res.bias
    return kern(Xt, res.sv, **kw) @ res.alpha[:, 0], res.bias


def _free(res, C_box, rel=1e-6):
    """Examples whose alpha is clearly inside (0, C_i): b is then unique (complementary slackness)."""
    a = res.alpha_all
    return (a > rel * C_box) & (a < (1.0 - rel) * C_box)


def _svc(X, y, C, kw, sample_weight=None):
    return SVC(C=C, tol=1e-12, cache_size=200, shrinking=False, **kw).fit(X, y, sample_weight=sample_weight)


def _svc_dual(X, y, svc, kw):
    """W of SVC's solution, evaluated here in double precision."""
    alpha = np.zeros(X.shape[0])
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    return _dual(X, y, np.arange(X.shape[0]), alpha, kw), alpha


def assert_dual_matches_svc(X, y, order, res, C, kw, *, sample_weight=None, factor=WELL, alpha=None, bias=None):
    """W(alpha_ours) against W(alpha_SVC) on the same examples (SVC fitted on X[order]; ``alpha`` and
    ``bias``, if given, replace the result's): alpha_SVC is feasible, so W(alpha_SVC) - W(alpha_ours) >=
    grad W(alpha_ours)'(alpha_SVC - alpha_ours) = sum_i g_i (a_SVC,i - a_i) + b sum_i y_i a_i, which the
    KKT tolerances (tier ``factor``) bound below by -tol_g (sum a_SVC + sum a) - tol_a |b|, less the
    rounding of the two W; and SVC is optimal for Q' = Q rounded to float32,
    so W(alpha_SVC) - W(alpha_ours) <= 1/2 a_SVC'(Q - Q')a_SVC + 1/2 a'(Q' - Q)a
    <= 2^-24 / 2 (|a_SVC|'|Q||a_SVC| + |a|'|Q||a|), plus SVC's stopping slack (1e-9 relative)."""
    order = np.asarray(order)
    a = res.alpha_all if alpha is None else alpha
    b = res.bias if bias is None else bias
    Xo, yo = X[order], np.asarray(y)[order]
    sw = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)[order]
    svc = _svc(Xo, yo, C, kw, sw)
    w_svc, a_svc = _svc_dual(Xo, yo, svc, kw)
    w_ours = _dual(X, y, order, a, kw)
    absK = np.abs(kern(Xo, Xo, **kw))
    quad = float(a @ absK @ a + a_svc @ absK @ a_svc)
    upper = FLOAT32_U * quad / 2.0 + 1e-9 * (1.0 + abs(w_ours))
    C_max = C * (1.0 if sw is None else float(np.max(sw)))
    scale = 1.0 + abs(b) + float(np.max(absK @ a))            # as in _fresh
    tol_g, tol_a = _tolerances(len(order), scale, C_max, factor)
    lower = tol_g * float(np.sum(a) + np.sum(a_svc)) + tol_a * abs(b) + len(order) * EPS * (quad + np.sum(a) + 1.0)
    assert -lower <= w_svc - w_ours <= upper, (w_svc, w_ours, lower, upper)
    return svc


def _svc_first_order_bound(Xo, yo, alpha, bias, kw, Xt, C_box):
    """First-order bound of |f_SVC(x) - f(x)| on the rows of Xt, f the SVM of (Xo, yo, boxes C_box) with
    coefficients ``alpha`` and bias ``bias``, when SVC solves the problem with Q rounded to float32
    (|dQ| <= 2^-24 |Q|) and the sets stay put: with S the free examples (0 < alpha < C_i),
    [db; dalpha_S] = -Rinv [0; dQ_S. alpha], so |d| <= |Rinv| [0; 2^-24 |Q_S.| alpha]; then
    |df(x)| <= |K(x, S)| |dalpha_S| + |db|.  Returns the bound and ``clear``: the sets' slack (alpha_S
    from its bounds, |g| off S) exceeds 10 times this worst-case change (non-degenerate: the support sets
    must then be equal); (None, False) when S is empty or R singular."""
    alpha = np.asarray(alpha, dtype=np.float64)
    S = np.flatnonzero((alpha > 1e-9 * C_box) & (alpha < (1.0 - 1e-9) * C_box))
    if S.size == 0:
        return None, False
    Q = yo[:, None] * yo[None, :] * kern(Xo, Xo, **kw)
    R = np.zeros((S.size + 1, S.size + 1))
    R[0, 1:] = R[1:, 0] = yo[S]
    R[1:, 1:] = Q[np.ix_(S, S)]
    if np.linalg.cond(R) > 1e10:
        return None, False
    d = np.abs(np.linalg.inv(R)) @ np.r_[0.0, FLOAT32_U * (np.abs(Q[S]) @ alpha)]
    df = np.abs(kern(Xt, Xo[S], **kw)) @ d[1:] + d[0]
    slack_a = np.minimum(alpha[S], C_box[S] - alpha[S])
    g = Q @ alpha + yo * bias - 1.0
    off = np.setdiff1d(np.arange(len(yo)), S)
    # g off S moves by at most |Q_iS| |dalpha_S| + |db| + the float32 change of its own row
    move_g = np.abs(Q[np.ix_(off, S)]) @ d[1:] + d[0] + FLOAT32_U * (np.abs(Q[off]) @ alpha)
    clear = bool(np.all(slack_a > 10 * d[1:]) and np.all(np.abs(g[off]) > 10 * move_g))
    return float(np.max(df)), clear


def assert_decision_matches_svc(svc, Xo, yo, alpha, bias, kw, Xt, C_box, wx_b):
    """SVC's decision values on Xt within 10 x the first-order bound (for its second-order terms and
    libsvm's own gradient updates) plus 1e-9 (1 + max C_i) (libsvm's stopping tolerance 1e-12 and the
    double-precision rounding of both predictions); returns ``clear`` (see the bound)."""
    bound, clear = _svc_first_order_bound(Xo, yo, alpha, bias, kw, Xt, C_box)
    assert bound is not None
    np.testing.assert_allclose(wx_b, svc.decision_function(Xt), rtol=0,
                               atol=10.0 * bound + 1e-9 * (1.0 + float(np.max(C_box))))
    return clear


def _aggregate(order, alpha, n):
    """The coefficients of the multiset's examples summed per row of X (the weighted problem's)."""
    return np.bincount(np.asarray(order), weights=alpha, minlength=n)


# ---- 1. exactness: the KKT conditions -------------------------------------------------------------

def _problem(seed, n, d=2, noise=0.5):
    """Normal rows, labels from a noisy linear rule (both classes present)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + noise * rng.normal(size=n) > 0.0, 1, -1)
    y[:2] = (1, -1)
    return X, y.astype(np.int64), rng


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


# ---- 6. a hypothesis property test ------------------------------------------------------------------

@st.composite
def _small_problems(draw):
    n_total = draw(st.integers(2, 25))
    n_dup = draw(st.integers(0, n_total // 2))             # exact repeats of the first rows
    n = n_total - n_dup
    d = draw(st.integers(1, 3))
    integer = draw(st.booleans())
    if integer:                                           # small integers: exact ties and duplicates
        cell = st.integers(-2, 2).map(float)
    else:
        cell = st.floats(-3.0, 3.0, allow_nan=False, allow_infinity=False)
    X = np.array(draw(st.lists(st.lists(cell, min_size=d, max_size=d), min_size=n, max_size=n)))
    X = np.vstack([X, X[:n_dup]])
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=len(X), max_size=len(X))))
    order = np.array(draw(st.permutations(range(len(X)))))
    C = draw(st.sampled_from([1e-3, 0.1, 1.0, 10.0, 1e3]))
    return X, y, order, C


@settings(derandomize=True, max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problem=_small_problems(), gamma=st.sampled_from([0.5, 1.0, 3.0]))
def test_property_kkt_rbf(problem, gamma):
    """Any small problem under the Gaussian kernel (full rank on distinct rows): no exception, and the
    KKT conditions hold -- except for the known inaccuracy on rows closer than ~1e-5 but not equal
    (KNOWN_INACCURATE["gaussian near-duplicates"]), where only the certificate's contract is asked."""
    X, y, order, C = problem
    kw = _kw("rbf", gamma=gamma)
    dist = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    near = bool(np.any((dist > 0.0) & (dist <= 1e-4)))
    assert_certified(X, y, order, C, kw, get_module("idsvm", "python").idsvm, strict=not near)


def assert_certified(X, y, order, C, kw, run, *, strict):
    """The reference's contract on any problem: no exception; ``trace["kkt_violation"]`` is the KKT
    violation computed here (fresh gradients, margin units); a RuntimeWarning exactly when it exceeds
    KKT_WARN; without one, the violation is at most KKT_WARN (or the ILL tolerance, if larger).
    ``strict``: moreover the KKT conditions hold in the ILL tier (assert_kkt), warned or not."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = run(X, y, order, C=C, **kw)
    assert all(issubclass(w.category, RuntimeWarning) and "KKT" in str(w.message) for w in caught), \
        [str(w.message) for w in caught]
    assert len(caught) == (res.trace["kkt_violation"] > KKT_WARN)
    order = np.asarray(order)
    g, yo, _, scale = _fresh(X, y, order, res, kw)
    C_box = _boxes(X.shape[0], order, C, None)
    found = _violation(g, yo, res, C_box)
    tol_g = _tolerances(len(order), scale, C, ILL)[0]
    assert res.trace["kkt_violation"] == pytest.approx(found, rel=1e-3, abs=tol_g)
    if not caught:
        assert found <= max(KKT_WARN, tol_g)
    if strict:
        assert_kkt(X, y, order, res, C, kw, factor=ILL)
    return res


@settings(derandomize=True, max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problem=_small_problems(), kernel=st.sampled_from(["linear", "poly"]),
       gamma=st.sampled_from([0.5, 1.0]), degree=st.sampled_from([2, 3]), coef0=st.sampled_from([0.0, 1.0]))
def test_property_low_rank_kernels_never_silently_wrong(problem, kernel, gamma, degree, coef0):
    """The linear and polynomial kernels have rank <= their feature space's dimension, so S meets
    dependent rows: no exception, and the model is either right or flagged (the certificate's contract)."""
    X, y, order, C = problem
    kw = _kw(kernel, gamma=gamma, degree=degree, coef0=coef0)
    assert_certified(X, y, order, C, kw, get_module("idsvm", "python").idsvm, strict=False)


def test_certificate_on_a_survey(idsvm):
    """The same contract on 150 seeded draws that reach the ill-conditioned corners (gamma up to 10,
    C up to 1e4, rows 1e-12..1e-4 apart, repeats, weights)."""
    for seed in range(150):
        rng = np.random.default_rng([seed, 13])
        kernel = ("rbf", "linear", "poly")[seed % 3]
        kw = _kw(kernel, gamma=float(rng.choice([0.1, 1.0, 10.0])), degree=int(rng.choice([2, 3])),
                 coef0=float(rng.choice([0.0, 1.0])))
        C = float(rng.choice([1e-3, 0.1, 1.0, 10.0, 100.0, 1e4]))
        n, d = int(rng.integers(2, 26)), int(rng.integers(1, 4))
        X = rng.integers(-2, 3, size=(n, d)).astype(np.float64) if seed % 2 else rng.normal(size=(n, d))
        if rng.random() < 0.4:
            k = max(1, n // 3)
            X[-k:] = X[:k] + 10.0 ** rng.uniform(-12, -4) * rng.normal(size=(k, d))
        y = rng.choice([-1, 1], n)
        order = rng.permutation(n)
        if rng.random() < 0.3:
            order = np.r_[order, rng.integers(0, n, n // 2)]
        assert_certified(X, y, order, C, kw, idsvm, strict=False)


# ---- 7. errors --------------------------------------------------------------------------------------

def test_errors_name_the_parameter(idsvm):
    X, y = np.random.default_rng(0).normal(size=(6, 2)), np.array([1, -1, 1, -1, 1, -1])
    order = np.arange(6)
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"\bX\b"):
        idsvm(bad, y, order, C=1.0)
    for labels in ([0, 1, 0, 1, 0, 1], [-1, 1, 2, -1, 1, 2], [-1, 0, 1, -1, 0, 1]):     # 0/1, three classes
        with pytest.raises(ValueError, match=r"\by\b"):
            idsvm(X, np.array(labels), order, C=1.0)
    for C in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"\bC\b"):
            idsvm(X, y, order, C=C)
    for kernel in ("rbf", "poly"):
        for gamma in (0.0, -0.5):
            with pytest.raises(ValueError, match=r"\bgamma\b"):
                idsvm(X, y, order, C=1.0, kernel=kernel, gamma=gamma)
    for sparse in (sp.csr_matrix(X), sp.csc_matrix(X)):
        with pytest.raises(ValueError, match=r"\bX\b.*dense"):
            idsvm(sparse, y, order, C=1.0)
    for out in (np.array([0, 6]), np.array([-1, 2])):
        with pytest.raises(ValueError, match=r"\border\b"):
            idsvm(X, y, out, C=1.0)
    with pytest.raises(ValueError, match=r"\bkernel\b"):
        idsvm(X, y, order, C=1.0, kernel="sigmoid")
    with pytest.raises(ValueError, match=r"\bsample_weight\b"):
        idsvm(X, y, order, C=1.0, sample_weight=-np.ones(6))
    with pytest.raises(ValueError, match=r"\bsample_weight\b"):
        idsvm(X, y, order, C=1.0, sample_weight=np.ones(5))


# ---- 8. the two paths agree ------------------------------------------------------------------------

def _agreement_cases():
    """(name, X, y, order, C, kw, sample_weight): the regimes of point 5 under every kernel."""
    cases = []
    for kernel in KERNELS:
        kw = _kw(kernel)
        for seed in range(4):
            X, y, rng = _problem([seed, len(kernel), 3], 30)
            C = float(rng.choice([0.01, 1.0, 100.0]))
            cases.append(("random", X, y, rng.permutation(30), C, kw, None))
            rep = rng.choice(30, 8, replace=False)
            Xd, yd = np.vstack([X, X[rep]]), np.r_[y, y[rep] * rng.choice([-1, 1], 8)]
            cases.append(("duplicates", Xd, yd, rng.permutation(38), C, kw, None))
            cases.append(("near duplicates", np.vstack([X, X[rep] + 1e-9]), yd, rng.permutation(38), C, kw, None))
            cases.append(("repeats", X, y, np.r_[rng.permutation(30), rng.choice(30, 10)], C, kw, None))
            pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
            cases.append(("one class first", X, y, np.r_[pos, neg], C, kw, None))
            cases.append(("one example", X, y, np.array([seed]), C, kw, None))
            cases.append(("tiny C", X, y, rng.permutation(30), 1e-6, kw, None))
            cases.append(("huge C", X, y, rng.permutation(30), 1e4, kw, None))
            sw = rng.choice([0.0, 0.5, 1.0, 2.0], size=30)
            cases.append(("weights", X, y, rng.permutation(30), C, kw, sw))
            Xi = rng.integers(-2, 3, size=(30, 2)).astype(np.float64)
            cases.append(("integer ties", Xi, y, rng.permutation(30), C, kw, None))
    return cases


def _run_recording(run, *args, **kwargs):
    """``run(*args, **kwargs)`` -> (result or the FloatingPointError it raised, the warnings' messages)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = run(*args, **kwargs)
        except FloatingPointError as exc:            # the guard of both paths: compared, not hidden
            out = exc
    return out, [str(w.message) for w in caught]


def test_paths_agree():
    """The twin takes the reference's decisions on every regime of point 5 under every kernel: the same
    sets, SVs, events (kind, step, example), counts and warnings; coefficients, bias and gradients within
    rtol 1e-9 / atol 1e-12 max(C, 1)."""
    fast = pytest.importorskip("refsvm._fast.idsvm")
    ref = get_module("idsvm", "python")
    assert fast is get_module("idsvm", "fast")
    for i, (name, X, y, order, C, kw, sw) in enumerate(_agreement_cases()):
        where = f"case {i}: {name}, {kw['kernel']}, C={C}"
        a, warned_a = _run_recording(ref.idsvm, X, y, order, C=C, sample_weight=sw, **kw)
        b, warned_b = _run_recording(fast.idsvm, X, y, order, C=C, sample_weight=sw, **kw)
        assert len(warned_a) == len(warned_b), (where, warned_a, warned_b)
        if isinstance(a, FloatingPointError) or isinstance(b, FloatingPointError):
            assert type(a) is type(b), (where, a, b)
            continue
        assert isinstance(b, IDSVMResult), where
        np.testing.assert_array_equal(a.sets, b.sets, err_msg=where)
        np.testing.assert_array_equal(a.support, b.support, err_msg=where)
        np.testing.assert_array_equal(a.sv, b.sv, err_msg=where)
        assert set(a.trace) == set(b.trace), where
        for key in ("event_kind", "event_index", "event_step"):
            np.testing.assert_array_equal(a.trace[key], b.trace[key], err_msg=f"{where}: {key}")
        for key in ("n_steps", "mistakes", "events", "n_margin"):
            assert a.trace[key] == b.trace[key], f"{where}: {key}"
        scale = max(C, 1.0)
        np.testing.assert_allclose(b.alpha_all, a.alpha_all, rtol=1e-9, atol=1e-12 * scale, err_msg=where)
        np.testing.assert_allclose(b.alpha, a.alpha, rtol=1e-9, atol=1e-12 * scale, err_msg=where)
        np.testing.assert_allclose(b.gradients, a.gradients, rtol=1e-9, atol=1e-12 * scale, err_msg=where)
        assert b.bias == pytest.approx(a.bias, rel=1e-9, abs=1e-12 * scale), where
        assert b.trace["kkt_violation"] == pytest.approx(a.trace["kkt_violation"], rel=1e-6, abs=1e-12), where


# ---- low-rank kernels: former failures and known inaccuracies ---------------------------------

def test_rank_one_kernel():
    """(10 x x')^3 on 1-D rows has rank 1: S holds at most two examples.  (refsvm.idsvm at 048a323 stopped
    this well-posed problem with FloatingPointError: a dependent row joined S.)"""
    X = np.array([[-1.3506430288581706], [-0.39027615702860624], [0.5245939230967507], [-0.43464124371422247],
                  [-0.31695397383008717], [-2.669492316464959], [0.5214597076279609]])
    y, order, C = np.array([1, 1, -1, 1, -1, 1, 1]), np.array([5, 3, 0, 1, 4, 2, 6]), 0.1
    kw = dict(kernel="poly", gamma=10.0, degree=3, coef0=0.0)
    for backend in ("python", "fast"):
        if backend == "fast" and not _has_fast():
            continue
        res = get_module("idsvm", backend).idsvm(X, y, order, C=C, **kw)
        assert_kkt(X, y, order, res, C, kw, factor=ILL)
        assert_dual_matches_svc(X, y, order, res, C, kw, factor=ILL)


def test_linear_kernel_margin_set_at_its_rank():
    """Linear kernel, 1-D rows, with exact repeats of both labels (x = 0.9 with +1 and -1): S can hold two
    examples only.  (An intermediate version of refsvm.idsvm, between 048a323 and eb573e3, returned
    sum y alpha = -0.11 here.)"""
    X = np.array([[-0.1], [0.9], [0.8], [0.9], [0.9], [0.0]])
    y = np.array([1, -1, 1, 1, -1, -1])
    kw = _kw("linear")
    for C in (1.0, 10.0):
        res = get_module("idsvm", "python").idsvm(X, y, np.arange(6), C=C, **kw)
        assert_kkt(X, y, np.arange(6), res, C, kw, factor=ILL)
        assert_dual_matches_svc(X, y, np.arange(6), res, C, kw, factor=ILL)


def _has_fast():
    try:
        get_module("idsvm", "fast")
    except RuntimeError:             # not built yet
        return False
    return True


# Small, well-scaled problems on which the reference misses the KKT conditions by more than this file's
# ILL tolerance (shrunk from random surveys; its certificate reports the violation, with a warning only
# above KKT_WARN).
KNOWN_INACCURATE = {
    # (x x' + 1)^3 on 11 one-decimal 1-D rows (one row twice, with both labels), C = 100: KKT error 4.5e-3,
    # sum y alpha = 6.6e-5, decision values off SVC's by up to 5e-3.  The margin sets pass through
    # near-singular states (the repeat; the cubic feature space filled up) and the error stays once S is
    # well conditioned again (Rinv, alpha and g are never recomputed; the final R's condition is 46)
    "cubic": (np.array([[-0.7], [0.7], [-1.4], [0.1], [-1.1], [0.4], [-0.8], [0.9], [1.4], [0.4], [0.8]]),
              np.array([-1, 1, -1, -1, 1, -1, -1, -1, -1, 1, 1]), 100.0,
              dict(kernel="poly", gamma=1.0, degree=3, coef0=1.0)),
    # (x x' + 1)^2 on 11 one-decimal 1-D rows (repeats), C = 1: the optimum is f = 1 everywhere (every
    # positive example on its margin: a degenerate problem); KKT error 0.012, sum y alpha = 1.6e-4
    "quadratic": (np.array([[-2.3], [-2.3], [-1.5], [-1.5], [1.1], [-1.8], [0.4], [0.3], [-3.2], [0.4], [0.6]]),
                  np.array([1, 1, 1, -1, -1, -1, 1, 1, 1, 1, -1]), 1.0,
                  dict(kernel="poly", gamma=1.0, degree=2, coef0=1.0)),
    # the Gaussian kernel on three rows, two of them 1e-5 apart with the same label, C = 10: the second
    # row's Schur complement (~ the distance squared) is below SCHUR_RTOL times its terms, so it is
    # "dependent", stays in R with alpha = 0 and its g drifts to -1.5e-5: a KKT error of ~1.5 x the
    # distance for any distance up to ~1e-5 (the module docstring speaks of rows within about sqrt(u) of a
    # margin vector with the other label); SVC puts the whole alpha on one of the twins
    "gaussian near-duplicates": (np.array([[0.0, 0.0], [1e-5, 0.0], [1.0, 0.0]]), np.array([-1, -1, 1]), 10.0,
                                 dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0)),
}


@pytest.mark.parametrize("name", list(KNOWN_INACCURATE))
def test_known_inaccuracy_is_certified(idsvm, name):
    """Meanwhile the contract holds on them: the certificate is the true violation (flagged when above
    KKT_WARN)."""
    X, y, C, kw = KNOWN_INACCURATE[name]
    res = assert_certified(X, y, np.arange(len(y)), C, kw, idsvm, strict=False)
    assert res.trace["kkt_violation"] > ILL_ABS


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="refsvm/idsvm.py loses accuracy on margin sets that were near singular "
                          "(see KNOWN_INACCURATE)")
@pytest.mark.parametrize("name", list(KNOWN_INACCURATE))
def test_known_inaccuracy_kkt(name):
    X, y, C, kw = KNOWN_INACCURATE[name]
    order = np.arange(len(y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)          # the flag (test_known_inaccuracy_is_certified)
        res = get_module("idsvm", "python").idsvm(X, y, order, C=C, **kw)
    assert_kkt(X, y, order, res, C, kw, factor=ILL)
