"""Online regression, BOGD's ``variant="authors"`` (Lu et al.'s ``regression/BOGD.m``): one step and a whole
pass match a brute-force transcription of the code's rule (an ordered list, oldest SV first: shrink every
step; outside the tube drop the first SV at the budget and append ``eta s_t delta_t``; never rescale or clip),
on both paths; the paper's variant stays the default; the estimator and its checks take the option."""

import numpy as np
import pytest

from refsvm import OnlineKernelRegressor
from refsvm._fast import online as fast
from refsvm.online import regression as ref

GAMMA = 0.5


def _rbf(a, b):
    return float(np.exp(-GAMMA * np.sum((a - b) ** 2)))


def _code_bogd(svs, alphas, X, y, order, w, *, budget, eta, lam, epsilon):
    """regression/BOGD.m on Python lists (oldest first), weights scaling the new coefficient; returns
    ``(svs, alphas, squared_loss)``.  Shares nothing with the module."""
    svs, alphas, loss = list(svs), list(alphas), 0.0
    for i in order:
        f = sum(a * _rbf(v, X[i]) for v, a in zip(svs, alphas))
        delta = y[i] - f
        loss += delta * delta
        alphas = [(1.0 - eta * lam) * a for a in alphas]     # shrink, in and outside the tube
        if abs(delta) > epsilon and w[i] > 0.0:
            if len(svs) >= budget:
                svs, alphas = svs[1:], alphas[1:]             # subset = 2:B, the oldest leaves
            svs, alphas = svs + [X[i]], alphas + [eta * w[i] * delta]
    return svs, alphas, loss


def _by_age(res):
    """The result's SVs and coefficients in the order of their ages (oldest first)."""
    rank = np.argsort(res.state["age"], kind="stable")
    return res.sv[rank], res.alpha[rank, 0]


KW = dict(eta=0.2, lam=0.05, max_coef=1.0, epsilon=0.1, kernel="rbf", gamma=GAMMA, degree=3, coef0=0.0)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("y_t", [2.5, -2.5, 0.0, 0.4])   # 0.4: inside the tube here
def test_one_step_matches_the_code(module, y_t):
    """A full model of B = 3 SVs whose oldest is in slot 1 (ages 5, 2, 9), one more example."""
    rng = np.random.default_rng(3)
    sv = rng.normal(size=(3, 2))
    alpha = np.array([0.7, -0.4, 1.3])
    ages = np.array([5, 2, 9])
    x = rng.normal(size=2)
    X = np.vstack([sv, x])
    y = np.array([0.0, 0.0, 0.0, y_t])
    w = np.array([1.0, 1.0, 1.0, 1.5])
    res = module.regression_bogd(X, y, np.array([3]), np.array([0.99]), budget=3, sv=sv, alpha=alpha, t0=10,
                                 state={"age": ages}, sample_weight=w, variant="authors", **KW)
    rank = np.argsort(ages)
    svs, alphas, _ = _code_bogd(list(sv[rank]), list(alpha[rank]), X, y, [3], w, budget=3, eta=0.2, lam=0.05,
                                epsilon=0.1)
    got_sv, got_alpha = _by_age(res)
    np.testing.assert_array_equal(got_sv, np.vstack(svs))
    np.testing.assert_allclose(got_alpha, alphas, rtol=1e-13, atol=1e-15)
    if abs(y_t) > 1.0:                                        # outside: slot 1 (age 2) left, x_t entered with age 11
        assert not any(np.array_equal(r, sv[1]) for r in res.sv) and 11 in res.state["age"]


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_a_pass_matches_the_code(module):
    """Two passes over 60 examples at B = 5 (about a hundred removals), weights with a zero: the model (in age
    order) and the online squared loss of the transcription."""
    rng = np.random.default_rng(5)
    X = rng.random((60, 3))
    y = np.sin(3 * X[:, 0]) + X[:, 1]
    w = rng.uniform(0.5, 1.5, size=60)
    w[3] = 0.0
    order = np.concatenate([rng.permutation(60), rng.permutation(60)]).astype(np.int64)
    res = module.regression_bogd(X, y, order, rng.random(order.size), budget=5, sample_weight=w,
                                 variant="authors", **KW)
    svs, alphas, loss = _code_bogd([], [], X, y, order, w, budget=5, eta=0.2, lam=0.05, epsilon=0.1)
    got_sv, got_alpha = _by_age(res)
    assert res.trace["removals"] > 50
    np.testing.assert_array_equal(got_sv, np.vstack(svs))
    np.testing.assert_allclose(got_alpha, alphas, rtol=1e-12, atol=1e-14)
    assert res.trace["squared_loss"] == pytest.approx(loss, rel=1e-12)


def test_default_is_the_paper_variant():
    """No ``variant``: Zhao et al.'s rule (uniform removal with rescaling), not the code's; no ``age`` state."""
    rng = np.random.default_rng(6)
    X = rng.random((80, 3))
    y = np.sin(3 * X[:, 0]) + X[:, 1]
    order = rng.permutation(80).astype(np.int64)
    u = rng.random(80)
    default = fast.regression_bogd(X, y, order, u, budget=5, **KW)
    paper = fast.regression_bogd(X, y, order, u, budget=5, variant="paper", **KW)
    authors = fast.regression_bogd(X, y, order, u, budget=5, variant="authors", **KW)
    np.testing.assert_array_equal(default.alpha, paper.alpha)
    assert default.state == {} and not np.allclose(default.trace["squared_loss"], authors.trace["squared_loss"])


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_estimator_variant(backend):
    rng = np.random.default_rng(7)
    X = rng.random((60, 3))
    y = X[:, 0] - X[:, 1]
    est = OnlineKernelRegressor(algorithm="bogd", budget=5, variant="authors", backend=backend, random_state=1,
                                epochs=2).fit(X, y)
    assert est.sv_.shape[0] == 5 and len(est.state_["age"]) == 5
    with pytest.raises(ValueError, match="variant"):
        OnlineKernelRegressor(algorithm="bogd", variant="code").fit(X, y)
