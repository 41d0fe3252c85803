"""Oracle tests of BSGD (:func:`refsvm.bsgd.bsgd`, reference path).

With a budget that is never exceeded, BSGD is the plain (non-budget) SGD
method of its learning rate.  Each is re-implemented here in a form that shares
no code and no data layout with :mod:`refsvm.bsgd`:

* Pegasos in the form of Shalev-Shwartz et al. (2011), kernelised Pegasos:
  integer counts ``alpha[j]`` over the *training examples* and
  ``w_{t+1} = 1/(lambda t) sum_j alpha_{t+1}[j] y_j phi(x_j)``; the margin
  test at step t uses ``w_t`` (the predictor before the step), i.e. the factor
  ``1/(lambda (t-1))`` (``w_1 = 0``).  Multi-class: integer count matrix,
  +1 for the true class, -1 for the highest-scoring wrong class.
* Norma through the closed form of eq. (5) of Wang et al. (2012):
  ``alpha_j = beta_j prod_{k=j+1}^{t} (1 - eta_k lambda)``, evaluated as an
  explicit product for every pair (no running rescaling).
* Margin Perceptron with projection onto the ball of radius U: coefficients
  over the training examples and ``||w||`` from the full kernel matrix of the
  whole training set.

Also the trace: E-bar's numerator, the bookkeeping of ``added`` and the
maintenance events, and (through a spy on the maintenance call) that every
recorded weight degradation is the squared RKHS norm of the actual change of
``w`` at that step.
"""

import math

import numpy as np
import pytest

from refsvm import bsgd as bsgd_module
from refsvm import budget as budget_module
from refsvm.model import BudgetedModel
from _helpers import kern


def make_data(seed, n, n_test, d, n_classes):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n + n_test, d))
    if n_classes == 2:
        score = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 - 0.8 + 0.3 * rng.normal(size=len(X))
        y = np.where(score > 0, 1, -1).astype(np.int64)
    else:
        W = rng.normal(size=(d, n_classes))
        y = np.argmax(X @ W + 0.5 * rng.normal(size=(len(X), n_classes)), axis=1).astype(np.int64)
    return X[:n], y[:n], X[n:], y[n:]


def eta_at(learning_rate, t, lam, eta):
    """Table 2 of Wang et al. (2012)."""
    if learning_rate == "pegasos":
        return 1.0 / (lam * t)
    if learning_rate == "norma":
        return eta / math.sqrt(t)
    assert learning_rate == "perceptron"
    return eta


def wrong_class(f, y):
    """Highest-scoring class other than y (lowest index on ties)."""
    best, best_val = -1, -np.inf
    for i, v in enumerate(f):
        if i != y and v > best_val:
            best, best_val = i, v
    return best


# ---------------------------------------------------------------------------
# independent non-budget oracles
# ---------------------------------------------------------------------------

def pegasos_oracle(X, y, order, n_classes, lam, kp, fit_bias, X_test):
    """Kernelised Pegasos with integer counts (Shalev-Shwartz et al.)."""
    K = kern(X, X, **kp)
    binary = n_classes == 2
    counts = np.zeros(len(X)) if binary else np.zeros((len(X), n_classes))
    bias = 0.0 if binary else np.zeros(n_classes)
    added, mistakes = [], 0
    for t, i in enumerate(order, start=1):
        scale = 0.0 if t == 1 else 1.0 / (lam * (t - 1))        # w_t = 1/(lam (t-1)) sum ...
        if binary:
            f = scale * np.sum(counts * y * K[:, i]) + bias
            mistakes += y[i] * f <= 0
            violated = y[i] * f < 1
            if violated:
                counts[i] += 1
                if fit_bias:
                    bias += y[i] / (lam * t)
        else:
            f = scale * (K[:, i] @ counts) + bias
            r = wrong_class(f, y[i])
            mistakes += f[r] >= f[y[i]]
            violated = 1 + f[r] - f[y[i]] > 0
            if violated:
                counts[i, y[i]] += 1
                counts[i, r] -= 1
                if fit_bias:
                    bias[y[i]] += 1 / (lam * t)
                    bias[r] -= 1 / (lam * t)
        added.append(int(violated))
    T = len(order)
    Kt = kern(X_test, X, **kp)
    F = (Kt @ (counts * y) if binary else Kt @ counts) / (lam * T) + bias
    return F, np.array(added), mistakes


def norma_oracle(X, y, order, n_classes, lam, eta, kp, fit_bias, X_test):
    """Norma through eq. (5): alpha_j = beta_j prod_{k=j+1}^{t} (1 - eta_k lambda)."""
    c = 1 if n_classes == 2 else n_classes
    shrink = {}                                      # k -> 1 - eta_k lambda
    visits = []                                      # (tau, example index, beta row)
    bias = np.zeros(c)
    added, mistakes = [], 0

    def f_at(x, t_now):
        """f_t(x): every beta_tau (tau < t_now) times prod_{k=tau+1}^{t_now-1} (1 - eta_k lambda)."""
        out = bias.copy()
        for tau, j, beta in visits:
            factor = 1.0
            for k in range(tau + 1, t_now):
                factor *= shrink[k]
            out = out + beta * factor * kern(X[j], x, **kp)[0, 0]
        return out

    for t, i in enumerate(order, start=1):
        eta_t = eta / math.sqrt(t)
        shrink[t] = 1.0 - eta_t * lam
        f = f_at(X[i], t)
        if n_classes == 2:
            mistakes += y[i] * f[0] <= 0
            violated = y[i] * f[0] < 1
            beta = np.array([eta_t * y[i]])
        else:
            r = wrong_class(f, y[i])
            mistakes += f[r] >= f[y[i]]
            violated = 1 + f[r] - f[y[i]] > 0
            beta = np.zeros(c)
            beta[y[i]], beta[r] = eta_t, -eta_t
        if violated:
            visits.append((t, i, beta))
            if fit_bias:
                bias += beta
        added.append(int(violated))
    T = len(order)
    F = np.array([f_at(x, T + 1) for x in X_test])
    return (F[:, 0] if n_classes == 2 else F), np.array(added), mistakes


def perceptron_oracle(X, y, order, n_classes, eta, radius, kp, X_test):
    """Margin Perceptron + projection onto the ball of radius U; ||w|| from the full K."""
    c = 1 if n_classes == 2 else n_classes
    K = kern(X, X, **kp)
    C = np.zeros((len(X), c))                         # w = sum_j C_j phi(x_j) over training examples
    added, mistakes, projections = [], 0, 0
    for i in order:
        f = K[i] @ C
        if n_classes == 2:
            mistakes += y[i] * f[0] <= 0
            violated = y[i] * f[0] < 1
            if violated:
                C[i, 0] += eta * y[i]
        else:
            r = wrong_class(f, y[i])
            mistakes += f[r] >= f[y[i]]
            violated = 1 + f[r] - f[y[i]] > 0
            if violated:
                C[i, y[i]] += eta
                C[i, r] -= eta
        norm = math.sqrt(max(float(np.einsum("ji,jk,ki->", C, K, C)), 0.0))
        if norm > radius:
            C *= radius / norm
            projections += 1
        added.append(int(violated))
    F = kern(X_test, X, **kp) @ C
    return (F[:, 0] if n_classes == 2 else F), np.array(added), mistakes, projections


# ---------------------------------------------------------------------------
# helpers for running refsvm
# ---------------------------------------------------------------------------

def run_bsgd(X, y, order, n_classes, *, budget, lam, learning_rate, eta=0.5, radius=1.0,
             maintenance="removal", kp, merge_eps=0.01, ridge=1e-10, fit_bias=False,
             sv=None, alpha=None, bias=None, t0=0):
    kp = dict(kp)
    return bsgd_module.bsgd(
        X, y, order, n_classes=n_classes, budget=budget, lam=lam, learning_rate=learning_rate,
        eta=eta, radius=radius, maintenance=maintenance, kernel=kp.pop("kernel"),
        gamma=kp.get("gamma", 1.0), degree=kp.get("degree", 3), coef0=kp.get("coef0", 0.0),
        merge_eps=merge_eps, projection_ridge=ridge, fit_bias=fit_bias,
        sv=sv, alpha=alpha, bias=bias, t0=t0)


def two_passes(X, y, n_classes, seed, **kw):
    """Two passes (the second continues from the first with t0), as a caller would run epochs."""
    rng = np.random.default_rng(seed)
    o1, o2 = rng.permutation(len(X)), rng.permutation(len(X))
    r1 = run_bsgd(X, y, o1, n_classes, **kw)
    r2 = run_bsgd(X, y, o2, n_classes, sv=r1.sv, alpha=r1.alpha, bias=r1.bias, t0=r1.t, **kw)
    return np.concatenate([o1, o2]), r1, r2


def decision(res, X_test, kp, n_classes):
    F = kern(X_test, res.sv, **kp) @ res.alpha + res.bias
    return F[:, 0] if n_classes == 2 else F


def assert_same_function(F_code, F_oracle):
    np.testing.assert_allclose(F_code, F_oracle, rtol=1e-9, atol=1e-9 * np.abs(F_oracle).max())


KERNEL_PARAMS = {
    "rbf": {"kernel": "rbf", "gamma": 0.7},
    "linear": {"kernel": "linear"},
    "poly": {"kernel": "poly", "gamma": 0.5, "degree": 3, "coef0": 1.0},
}


def _model_agrees(res, kp, X_test, F):
    c = res.alpha.shape[1]
    model = BudgetedModel(res.sv, res.alpha, kernel=kp["kernel"], gamma=kp.get("gamma", 1.0),
                          degree=kp.get("degree", 3), coef0=kp.get("coef0", 0.0), bias=res.bias,
                          classes=np.array([-1, 1]) if c == 1 else np.arange(c))
    assert_same_function(model.decision_function(X_test), F)


# ---------------------------------------------------------------------------
# 6. no maintenance: BSGD == non-budget Pegasos / Norma / Margin Perceptron
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("fit_bias", [False, True])
def test_pegasos_equals_kernel_pegasos(n_classes, kernel, fit_bias):
    X, y, X_test, _ = make_data(10 + n_classes, 40, 15, 3, n_classes)
    kp = KERNEL_PARAMS[kernel]
    lam = 0.05
    order, r1, r2 = two_passes(X, y, n_classes, 5, budget=2 * len(X), lam=lam,
                               learning_rate="pegasos", kp=kp, fit_bias=fit_bias)
    F_orc, added, mistakes = pegasos_oracle(X, y, order, n_classes, lam, kp, fit_bias, X_test)
    assert 0 < added.sum() < len(order)                   # non-trivial run
    assert r2.t == len(order)
    np.testing.assert_array_equal(np.concatenate([r1.trace["added"], r2.trace["added"]]), added)
    assert r1.trace["mistakes"] + r2.trace["mistakes"] == mistakes
    assert len(r1.trace["maint_step"]) == len(r2.trace["maint_step"]) == 0
    F = decision(r2, X_test, kp, n_classes)
    assert_same_function(F, F_orc)
    _model_agrees(r2, kp, X_test, F_orc)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("kernel", ["rbf", "poly"])
@pytest.mark.parametrize("fit_bias", [False, True])
def test_norma_equals_eq5_closed_form(n_classes, kernel, fit_bias):
    X, y, X_test, _ = make_data(20 + n_classes, 35, 12, 3, n_classes)
    kp = KERNEL_PARAMS[kernel]
    lam, eta = 0.05, 5.0
    order, r1, r2 = two_passes(X, y, n_classes, 6, budget=2 * len(X), lam=lam, eta=eta,
                               learning_rate="norma", kp=kp, fit_bias=fit_bias)
    F_orc, added, mistakes = norma_oracle(X, y, order, n_classes, lam, eta, kp, fit_bias, X_test)
    assert 0 < added.sum() < len(order)
    np.testing.assert_array_equal(np.concatenate([r1.trace["added"], r2.trace["added"]]), added)
    assert r1.trace["mistakes"] + r2.trace["mistakes"] == mistakes
    assert_same_function(decision(r2, X_test, kp, n_classes), F_orc)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_perceptron_equals_projected_margin_perceptron(n_classes, kernel):
    X, y, X_test, _ = make_data(30 + n_classes, 35, 12, 3, n_classes)
    kp = KERNEL_PARAMS[kernel]
    eta, radius = 1.0, 4.0
    # lam is documented as ignored (taken as 0) for the perceptron: pass a non-zero one
    order, r1, r2 = two_passes(X, y, n_classes, 7, budget=2 * len(X), lam=0.3, eta=eta,
                               radius=radius, learning_rate="perceptron", kp=kp)
    F_orc, added, mistakes, projections = perceptron_oracle(X, y, order, n_classes, eta, radius, kp, X_test)
    assert 0 < added.sum() < len(order) and projections > 0   # the ball constraint is active
    np.testing.assert_array_equal(np.concatenate([r1.trace["added"], r2.trace["added"]]), added)
    assert r1.trace["mistakes"] + r2.trace["mistakes"] == mistakes
    assert_same_function(decision(r2, X_test, kp, n_classes), F_orc)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_margin_exactly_one_is_not_a_violation(n_classes):
    """Alg. 1, line 6 adds an SV only if the hinge loss is > 0: a margin of exactly 1
    (representable here: linear kernel, x = 1, lambda = 1, Pegasos) adds nothing."""
    X = np.array([[1.0]])
    y = np.array([1 if n_classes == 2 else 0], dtype=np.int64)
    res = run_bsgd(X, y, np.array([0, 0]), n_classes, budget=5, lam=1.0,
                   learning_rate="pegasos", kp={"kernel": "linear"})
    # t = 1: f = 0, violation, beta = 1/(lambda*1) = 1.  t = 2: binary y f = 1;
    # multi-class f = (1, -1, 0), r = 2, loss 1 + 0 - 1 = 0.
    np.testing.assert_array_equal(res.trace["added"], [1, 0])
    assert res.trace["mistakes"] == 1


# ---------------------------------------------------------------------------
# 8. trace: E-bar numerator, bookkeeping, recorded WD == actual change of w
# ---------------------------------------------------------------------------

def _mapping_after_remove(n_sv, p):
    last = n_sv - 1
    mapping = {j: j for j in range(n_sv) if j != p}
    if p != last:
        mapping[last] = p
    return mapping


TRACE_CASES = [(maint, lr, n_classes)
               for maint in ("removal", "projection", "merge")
               for lr in ("pegasos", "norma", "perceptron")
               for n_classes in (2, 3)]


@pytest.mark.parametrize("maintenance,learning_rate,n_classes", TRACE_CASES)
def test_trace_and_weight_degradation(monkeypatch, maintenance, learning_rate, n_classes):
    X, y, _, _ = make_data(40 + n_classes, 60, 0, 2, n_classes)
    kp = {"kernel": "rbf", "gamma": 1.0} if maintenance == "merge" or learning_rate != "norma" \
        else {"kernel": "poly", "gamma": 0.5, "degree": 2, "coef0": 1.0}
    lam, eta, radius, budget, ridge = 0.02, 0.5, 3.0, 8, 1e-10

    events = []
    real = budget_module.maintain_with                   # every maintenance step of bsgd goes through it

    def spy(opts, SV, alpha, n_sv, **kw):
        before = (SV[:n_sv].copy(), alpha[:n_sv].copy())
        out = real(opts, SV, alpha, n_sv, **kw)
        events.append((before, (SV[:out[0]].copy(), alpha[:out[0]].copy()), out))
        return out

    monkeypatch.setattr(budget_module, "maintain_with", spy)
    rng = np.random.default_rng(99)
    o1, o2 = rng.permutation(len(X)), rng.permutation(len(X))
    common = dict(budget=budget, lam=lam, eta=eta, radius=radius, learning_rate=learning_rate,
                  maintenance=maintenance, kp=kp, ridge=ridge)
    r1 = run_bsgd(X, y, o1, n_classes, **common)
    n1 = len(events)
    r2 = run_bsgd(X, y, o2, n_classes, sv=r1.sv, alpha=r1.alpha, bias=r1.bias, t0=r1.t, **common)

    lam_eff = 0.0 if learning_rate == "perceptron" else lam
    for res, t0, start, evs in ((r1, 0, 0, events[:n1]), (r2, r1.t, len(r1.sv), events[n1:])):
        tr = res.trace
        steps = tr["maint_step"]
        assert len(evs) == len(steps) > 0                  # maintenance happened
        assert np.all(tr["added"][steps] == 1)             # only after an addition
        assert np.all(np.diff(steps) > 0)
        # SV count bookkeeping
        assert tr["added"].sum() - tr["duplicate_additions"] - len(steps) == len(res.sv) - start
        assert len(res.sv) <= budget
        # E-bar numerator from the trace and the learning-rate schedule
        etas = np.array([eta_at(learning_rate, t0 + s + 1, lam_eff, eta) for s in steps])
        expected = float(np.sum(np.sqrt(tr["weight_degradation"]) / etas))
        assert tr["gradient_error_sum"] == pytest.approx(expected, rel=1e-12)
        # each recorded WD is ||w_before - w_after||^2 (RKHS norm, brute force)
        for k, ((sv0, a0), (sv1, a1), out) in enumerate(evs):
            assert (out[1], out[2], out[3]) == (tr["maint_index"][k], tr["maint_partner"][k],
                                                tr["weight_degradation"][k])
            U = np.vstack([sv0, sv1])
            C = np.vstack([a0, -a1])
            K = kern(U, U, **kp)
            true_wd = float(np.einsum("ji,jk,ki->", C, K, C))
            scale = float(np.sum(np.linalg.norm(C, axis=1) * np.sqrt(np.diag(K)))) ** 2
            slack = 1e-12 * scale
            if maintenance == "projection":
                # eq. (15) on the regularised system exceeds the true change by
                # ridge ||Delta alpha||_F^2 (see test_oracles_budget)
                mapping = _mapping_after_remove(len(sv0), out[1])
                d_alpha = np.array([a1[mapping[j]] - a0[j] for j in mapping])
                diag = np.delete(np.diag(K)[:len(sv0)], out[1])     # the ridge is relative: ridge * max diag K_p
                slack += budget_module.relative_ridge(ridge, diag) * float(np.sum(d_alpha ** 2))
            assert abs(out[3] - true_wd) <= slack, (k, out, true_wd, slack)
