"""The reading of a zero prediction (f = 0) and the authors' variants of the online learners, both paths.

Oracles: cases whose outcome follows from the definitions alone (a Gaussian
kernel that underflows to exactly 0 between distinct points, so every
decision value is 0), a small loop written here from the variant's
description (BOGD), and the shrinking quadratic itself (Forgetron).
"""

import math

import numpy as np
import pytest

from refsvm import FOGDClassifier, NOGDClassifier, OnlineKernelClassifier
from refsvm import online as ref
from refsvm._fast import online as fast
from refsvm.nogd import nogd as nogd_ref
from refsvm._fast.nogd import nogd as nogd_fast

KW = dict(kernel="rbf", degree=3, coef0=0.0)


def _far_apart(n=40, seed=0):
    """Distinct points so far apart that exp(-gamma d^2) underflows to exactly 0 (gamma = 1)."""
    rng = np.random.default_rng(seed)
    X = np.arange(n, dtype=float)[:, None] * 100.0 + rng.random((n, 2))
    y = np.where(rng.random(n) < 0.5, 1, -1)
    return X, y


def test_is_mistake_truth_table():
    for y_t, f, mistake, positive in [(1, 0.0, True, False), (-1, 0.0, True, True), (1, 0.5, False, False),
                                      (-1, 0.5, True, True), (1, -0.5, True, True), (-1, -0.5, False, False)]:
        assert ref.is_mistake(y_t, f, "mistake") is mistake
        assert ref.is_mistake(y_t, f, "positive") is positive


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_zero_predictions_on_an_underflowing_kernel(module):
    X, y = _far_apart()
    order = np.arange(len(y))
    negatives = int(np.sum(y == -1))
    res = module.perceptron(X, y, order, gamma=1.0, zero_prediction="mistake", **KW)
    assert res.trace["mistakes"] == len(y) and len(res.sv) == len(y)          # f = 0 is wrong for both labels
    res = module.perceptron(X, y, order, gamma=1.0, zero_prediction="positive", **KW)
    assert res.trace["mistakes"] == negatives and len(res.sv) == negatives    # sign(0) = +1
    res = module.rbp(X, y, order, np.zeros(len(y)), budget=5, gamma=1.0, zero_prediction="positive", **KW)
    assert res.trace["mistakes"] == negatives and res.trace["updates"] == negatives
    # the hinge learners update on y f = 0 < 1 under both readings; only the count moves
    for zero in ("mistake", "positive"):
        res = module.ogd(X, y, order, eta=0.5, gamma=1.0, zero_prediction=zero, **KW)
        assert res.trace["updates"] == len(y)
        assert res.trace["mistakes"] == (len(y) if zero == "mistake" else negatives)
    # the Forgetron updates on y f <= 0 under both, M counts the reading's mistakes
    res = module.forgetron(X, y, order, budget=5, gamma=1.0, zero_prediction="positive", **KW)
    assert res.trace["updates"] == len(y) and res.state["M"] == negatives
    # Projectron++: f = 0 with y = +1 is neither a mistake nor a margin error (0 < y f < 1)
    res = module.projectron(X, y, order, eta=0.1, budget=5, plusplus=True, gamma=1.0, zero_prediction="positive",
                            **KW)
    assert res.trace["updates"] == negatives


@pytest.mark.parametrize("zero", ["mistake", "positive"])
def test_nogd_zero_prediction_changes_only_the_count(zero):
    X, y = _far_apart(30)
    order = np.arange(len(y))
    kw = dict(task="binary", n_classes=2, budget=100, rank=20, gamma=1.0, eta=0.2)
    a = nogd_ref(X, y, order, zero_prediction=zero, **kw)
    b = nogd_fast(X, y, order, zero_prediction=zero, **kw)
    m = nogd_ref(X, y, order, **kw)
    assert a.trace["mistakes"] == b.trace["mistakes"]
    expected = len(y) if zero == "mistake" else int(np.sum(y == -1))
    assert a.trace["mistakes"] == expected
    np.testing.assert_array_equal(a.alpha, m.alpha)                          # same model
    np.testing.assert_array_equal(a.alpha, b.alpha)


def test_predict_reads_zero_as_positive_only_when_asked():
    X, y = _far_apart(10)
    far = X[-1:] + 1e4                                                        # every kernel value 0: f = 0
    for make in (lambda z: OnlineKernelClassifier("perceptron", gamma=1.0, zero_prediction=z, random_state=0),
                 lambda z: NOGDClassifier(gamma=1.0, zero_prediction=z, random_state=0)):
        assert make("mistake").fit(X, y).predict(far)[0] == -1
        assert make("positive").fit(X, y).predict(far)[0] == 1


def test_fogd_first_step_is_the_only_zero():
    X, y = _far_apart(20)
    y[:] = 1
    counts = {}
    for zero in ("mistake", "positive"):
        est = FOGDClassifier(n_components=20, gamma=1.0, zero_prediction=zero, shuffle=False, random_state=0)
        y2 = y.copy()
        y2[-1] = -1                                                            # two classes
        est.fit(X, y2)
        counts[zero] = est.trace_[0]["mistakes"]
    assert counts["mistake"] - counts["positive"] == 1                         # w_1 = 0: f = 0 at step 1


def _bogd_authors_oracle(X, y, order, u, budget, eta, lam, max_coef, gamma):
    """Lu et al.'s BOGD as described in refsvm.online.bogd (swap removal, as refsvm's storage)."""
    sv, a = [], []
    for step, i in enumerate(order):
        f = sum(a_j * math.exp(-gamma * float(np.sum((X[s] - X[i]) ** 2))) for s, a_j in zip(sv, a))
        if y[i] * f <= 1.0:
            if len(sv) < budget:
                a = [(1 - eta * lam) * a_j for a_j in a]
                sv.append(i)
                a.append(eta * y[i])
            else:
                B = len(sv)
                r = min(int(u[step] * B), B - 1)
                sv[r], a[r] = sv[-1], a[-1]
                sv.pop()
                a.pop()
                a = [B * (1 - eta * lam) / (B - 1) * a_j for a_j in a]
                sv.append(i)
                a.append(eta * y[i])
                top = max(abs(v) for v in a)
                if top > eta * max_coef:
                    a = [v * (eta * max_coef / top) for v in a]
        else:
            a = [(1 - eta * lam) * a_j for a_j in a]
    return X[sv], np.array(a)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_bogd_authors_variant_against_a_loop(module):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 3))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    order = rng.permutation(120)
    u = rng.random(120)
    kw = dict(budget=10, eta=0.3, lam=0.01, max_coef=1.5, gamma=0.7)
    sv, a = _bogd_authors_oracle(X, y, order, u, **kw)
    res = module.bogd(X, y, order, u, variant="authors", **kw, kernel="rbf", degree=3, coef0=0.0)
    np.testing.assert_array_equal(res.sv, sv)
    np.testing.assert_allclose(res.alpha[:, 0], a, rtol=1e-12, atol=1e-15)
    assert np.max(np.abs(res.alpha)) <= 0.3 * 1.5 * (1 + 1e-15)
    paper = module.bogd(X, y, order, u, **kw, kernel="rbf", degree=3, coef0=0.0)
    assert not np.array_equal(paper.alpha, res.alpha)                         # the two rules differ here


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_forgetron_authors_root_is_the_larger_one(module):
    sigma, mu, Q, M = 1.0, 0.8, 0.0, 1            # a = 1 - 1.6 < 0 and Psi(1) = 1.4 > 15/32: phi = 1 infeasible
    bound = 15.0 / 32.0 * M
    phi_p, psi_p = module.forgetron_shrink(sigma, mu, Q, M)
    phi_a, psi_a = module.forgetron_shrink(sigma, mu, Q, M, "authors")
    a, b, c = sigma ** 2 - 2 * sigma * mu, 2 * sigma, bound - Q
    small, large = sorted(np.roots([a, b, -c]).real)                           # a phi^2 + b phi - c = 0
    assert 0 < small < 1 < large
    assert phi_p == pytest.approx(small, rel=1e-12)                            # the paper: largest phi in (0, 1]
    assert phi_a == pytest.approx(large, rel=1e-12)                            # forgetron.m: the larger root
    for phi, psi in ((phi_p, psi_p), (phi_a, psi_a)):
        assert Q + psi == pytest.approx(bound, rel=1e-12)                      # both are roots of Q + Psi = bound


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_projectron_authors_fills_the_budget_first(module):
    rng = np.random.default_rng(4)
    X = rng.normal(scale=0.05, size=(200, 2))                                  # close points: delta small
    y = np.where(rng.random(200) < 0.5, 1, -1)
    order = np.arange(200)
    paper = module.projectron(X, y, order, eta=0.9, budget=8, plusplus=False, gamma=1.0, **KW)
    authors = module.projectron(X, y, order, eta=0.9, budget=8, plusplus=False, gamma=1.0, variant="authors", **KW)
    assert len(paper.sv) < 8 == len(authors.sv)                                # eta projects early; authors fill B
    assert ref.projectron_U(100) == pytest.approx(0.25 * math.sqrt(101 / math.log(101)))


@pytest.mark.parametrize("algorithm", ["forgetron", "projectron", "projectron++", "bogd", "rbp", "bpas"])
@pytest.mark.parametrize("variant", ["paper", "authors"])
@pytest.mark.parametrize("zero", ["mistake", "positive"])
def test_paths_agree_for_every_reading(algorithm, variant, zero):
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(size=(150, 3)), rng.normal(size=(30, 3)) * 40.0])   # far rows: f = 0 often
    X = np.vstack([X, X[:20]])                                                     # duplicate rows
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=len(X)) > 0, 1, -1)
    kw = dict(budget=12, eta=0.4, lam=0.01, max_coef=2.0, C=1.0)
    models = []
    for backend in ("python", "fast"):
        est = OnlineKernelClassifier(algorithm, gamma=2.0, epochs=3, random_state=1, backend=backend,
                                     zero_prediction=zero, variant=variant, **kw).fit(X, y)
        models.append(est)
    a, b = models
    assert [t["mistakes"] for t in a.trace_] == [t["mistakes"] for t in b.trace_]
    assert [t["updates"] for t in a.trace_] == [t["updates"] for t in b.trace_]
    np.testing.assert_array_equal(a.support_vectors_, b.support_vectors_)
    scale = max(1.0, float(np.max(np.abs(a.alpha_))))
    np.testing.assert_allclose(a.alpha_, b.alpha_, rtol=0, atol=1e-10 * scale)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))


def test_bad_options_name_the_parameter():
    X, y = _far_apart(10)
    with pytest.raises(ValueError, match="zero_prediction"):
        OnlineKernelClassifier(zero_prediction="sign").fit(X, y)
    with pytest.raises(ValueError, match="variant"):
        OnlineKernelClassifier("bogd", variant="code").fit(X, y)
    with pytest.raises(ValueError, match="budget"):
        OnlineKernelClassifier("projectron", budget=None, variant="authors").fit(X, y)
    with pytest.raises(ValueError, match="zero_prediction"):
        NOGDClassifier(zero_prediction=0).fit(X, y)
