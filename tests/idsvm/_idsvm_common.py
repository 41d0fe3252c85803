"""Shared pieces of tests/idsvm/test_idsvm.py and test_idsvm_robustness.py: the independent computations (fresh
KKT conditions, SVC's dual and decision values with a first-order bound of libsvm's float32 kernel cache), the
tolerances and their derivation, and the backend fixture."""


import numpy as np
import pytest
from sklearn.svm import SVC

from refsvm.idsvm import ERROR, MARGIN, RESERVE

from _helpers import kern

EPS = float(np.finfo(np.float64).eps)            # 2^-52
#: libsvm keeps the kernel matrix in single precision (``typedef float Qfloat`` in svm.cpp): SVC
#: solves the dual of Q rounded to float32, each entry off by at most 2^-24 relatively.
FLOAT32_U = 2.0 ** -24

KERNELS = {"rbf": dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0),
           "linear": dict(kernel="linear", gamma=1.0, degree=3, coef0=0.0),
           "poly": dict(kernel="poly", gamma=0.5, degree=2, coef0=1.0)}

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


def _problem(seed, n, d=2, noise=0.5):
    """Normal rows, labels from a noisy linear rule (both classes present)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + noise * rng.normal(size=n) > 0.0, 1, -1)
    y[:2] = (1, -1)
    return X, y.astype(np.int64), rng
