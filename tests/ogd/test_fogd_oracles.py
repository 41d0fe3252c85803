"""FOGD (Algorithms 1, 3, 5 of Lu et al. 2016) against independent computations.

Both backends are tested (``module`` fixture); the oracles are written out in
this file from the paper's definitions, not taken from refsvm.
"""

import numpy as np
import pytest

from refsvm import fogd as fogd_py
from refsvm._fast import fogd as fogd_c
from refsvm.ogd import fourier_directions, fourier_features

from _helpers import kern

MODULES = pytest.mark.parametrize("module", [fogd_py, fogd_c], ids=["python", "fast"])


def features(U, x):
    """The printed map, written out coordinate by coordinate."""
    z = []
    for u in U:
        a = float(np.dot(u, x))
        z += [np.sin(a), np.cos(a)]
    return np.array(z)


def test_fourier_inner_products_approximate_the_gaussian_kernel():
    """z(x)'z(x') / D is a mean of D i.i.d. terms cos(u'(x - x')) in [-1, 1] with
    expectation exp(-gamma ||x - x'||^2) when u ~ N(0, 2 gamma I).  Hoeffding:
    P(|mean - k| > eps) <= 2 exp(-D eps^2 / 2); D = 20000, eps = 0.035 gives
    9.8e-6 per pair, < 2e-3 over the 190 pairs below (union bound).  The
    normalised map gives the same numbers without the 1/D."""
    rng = np.random.default_rng(0)
    gamma = 0.3
    X = rng.normal(size=(20, 5))
    U = fourier_directions(rng, 20000, 5, gamma)
    K = kern(X, X, "rbf", gamma)
    Z = fourier_features(U, X)
    approx = Z @ Z.T / U.shape[0]
    iu = np.triu_indices(len(X), 1)
    assert np.max(np.abs(approx - K)[iu]) < 0.035
    np.testing.assert_allclose(np.diag(Z @ Z.T), U.shape[0])          # ||z||^2 = D exactly
    Zn = fourier_features(U, X, normalize=True)
    assert np.max(np.abs(Zn @ Zn.T - K)[iu]) < 0.035
    # the draw matches the kernel's width: a wrong variance (gamma instead of 2 gamma) fails
    Zw = fourier_features(fourier_directions(rng, 20000, 5, gamma / 2), X)
    assert np.max(np.abs(Zw @ Zw.T / 20000 - K)[iu]) > 0.1


def test_fourier_features_layout():
    rng = np.random.default_rng(1)
    U = rng.normal(size=(3, 4))
    x = rng.normal(size=4)
    np.testing.assert_allclose(fourier_features(U, x[None])[0], features(U, x), rtol=1e-14)


@MODULES
def test_binary_oracle(module):
    """Alg. 1 written out: hinge subgradient step where y w'z < 1."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(120, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 2] ** 2 > 0.4, 1, -1)
    U = fourier_directions(rng, 25, 3, 0.7)
    order = rng.permutation(120)
    eta = 0.02
    w = np.zeros(50)
    mistakes = updates = 0
    for i in order:
        z = features(U, X[i])
        f = w @ z
        mistakes += y[i] * f <= 0
        if max(0.0, 1.0 - y[i] * f) > 0:
            w = w + eta * y[i] * z
            updates += 1
    r = module.fogd(X, y, order, task="binary", n_classes=2, U=U, eta=eta)
    np.testing.assert_allclose(r.W[:, 0], w, rtol=1e-9, atol=1e-12)
    assert (r.trace["mistakes"], r.trace["n_updates"]) == (mistakes, updates)
    assert r.trace["kernel_evaluations"] == 0 and r.trace["feature_map_evaluations"] == 120


@MODULES
def test_multiclass_oracle(module):
    """Alg. 3: s = highest-scoring wrong class, w_y += eta z, w_s -= eta z when 1 - f_y + f_s > 0."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 2))
    y = np.digitize(X[:, 0] + X[:, 1], [-1.0, 0.0, 1.0])
    U = fourier_directions(rng, 20, 2, 1.0)
    order = rng.permutation(150)
    eta = 0.03
    W = np.zeros((4, 40))
    mistakes = 0
    for i in order:
        z = features(U, X[i])
        f = W @ z
        s = max((r for r in range(4) if r != y[i]), key=lambda r: (f[r], -r))
        mistakes += f[s] >= f[y[i]]
        if 1 - f[y[i]] + f[s] > 0:
            W[y[i]] += eta * z
            W[s] -= eta * z
    r = module.fogd(X, y, order, task="multiclass", n_classes=4, U=U, eta=eta)
    np.testing.assert_allclose(r.W.T, W, rtol=1e-9, atol=1e-12)
    assert r.trace["mistakes"] == mistakes


@MODULES
def test_regression_oracle_and_threshold(module):
    """Alg. 5: update w -= eta 2 (f - y) z only when (f - y)^2 > epsilon."""
    rng = np.random.default_rng(4)
    X = rng.uniform(-2, 2, size=(100, 1))
    y = np.sin(2 * X[:, 0])
    U = fourier_directions(rng, 15, 1, 1.0)
    order = rng.permutation(100)
    eta, eps = 0.01, 0.05
    w = np.zeros(30)
    loss_sum, updates = 0.0, 0
    for i in order:
        z = features(U, X[i])
        loss = (w @ z - y[i]) ** 2
        loss_sum += loss
        if loss > eps:
            w = w - eta * 2 * (w @ z - y[i]) * z
            updates += 1
    r = module.fogd(X, y, order, task="regression", n_classes=2, U=U, eta=eta, epsilon=eps)
    np.testing.assert_allclose(r.W[:, 0], w, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(r.trace["squared_loss_sum"], loss_sum, rtol=1e-9)
    assert r.trace["n_updates"] == updates < 100                # the threshold skipped some


@MODULES
def test_normalised_map_with_eta_times_D_makes_the_same_decisions(module):
    """Printed map with step eta == normalised map with step eta D (same f, same updates)."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(200, 3))
    y = np.where(np.sin(X[:, 0]) * X[:, 1] > 0, 1, -1)
    U = fourier_directions(rng, 50, 3, 0.5)
    order = rng.permutation(200)
    a = module.fogd(X, y, order, task="binary", n_classes=2, U=U, eta=0.004)
    b = module.fogd(X, y, order, task="binary", n_classes=2, U=U, eta=0.004 * 50, normalize=True)
    np.testing.assert_array_equal(a.trace["updated"], b.trace["updated"])
    np.testing.assert_allclose(fourier_features(U, X) @ a.W,
                               fourier_features(U, X, normalize=True) @ b.W, rtol=1e-9, atol=1e-12)


@MODULES
def test_sine_regression_online_mse(module):
    """y = sin(x) + N(0, 0.1^2), x ~ U(-3, 3), 4000 examples, one pass, gamma = 1,
    D = 200, normalised map, eta = 0.1: the online mean squared loss must fall
    below 0.03 (noise variance 0.01; predicting 0 would give ~0.53)."""
    rng = np.random.default_rng(6)
    X = rng.uniform(-3, 3, size=(4000, 1))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=4000)
    U = fourier_directions(rng, 200, 1, 1.0)
    r = module.fogd(X, y, np.arange(4000), task="regression", n_classes=2, U=U, eta=0.1,
                    epsilon=0.0, normalize=True)
    assert r.trace["squared_loss_sum"] / 4000 < 0.03


@MODULES
def test_averaged_variant_sums_the_weights_after_each_update(module):
    """average=True (KOL's averaging): the given W_sum plus w_{t+1} after every update, written out;
    the last iterate and the decisions are those of a run without it."""
    rng = np.random.default_rng(12)
    X = rng.normal(size=(90, 3))
    y = np.where(X[:, 0] - X[:, 1] ** 2 > -0.5, 1, -1)
    U = fourier_directions(rng, 12, 3, 0.5)
    order = rng.permutation(90)
    start = rng.normal(size=(24, 1))
    start_before = start.copy()
    w, total, updates = np.zeros(24), start[:, 0].copy(), 0
    for i in order:
        z = features(U, X[i])
        if y[i] * (w @ z) < 1:
            w = w + 0.05 * y[i] * z
            total += w
            updates += 1
    r = module.fogd(X, y, order, task="binary", n_classes=2, U=U, eta=0.05, average=True, W_sum=start)
    plain = module.fogd(X, y, order, task="binary", n_classes=2, U=U, eta=0.05)
    np.testing.assert_allclose(r.W_sum[:, 0], total, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(r.W, plain.W)
    np.testing.assert_array_equal(r.trace["updated"], plain.trace["updated"])
    assert r.trace["n_updates"] == updates > 10 and plain.W_sum is None
    np.testing.assert_array_equal(start, start_before)         # the caller's array is not changed


@MODULES
@pytest.mark.parametrize("kwargs, name", [
    (dict(task="ranking"), "task"),
    (dict(eta=0.0), "eta"),
    (dict(eta=-1.0), "eta"),
    (dict(U=np.ones((4, 2))), "U"),
    (dict(W=np.ones((3, 1))), "W"),
    (dict(average=True, W_sum=np.ones((3, 1))), "W_sum"),
    (dict(average=True, W_sum=np.full((8, 1), np.nan)), "W_sum"),
    (dict(W_sum=np.zeros((8, 1))), "W_sum"),                                 # without average=True
    (dict(average=1), "average"),
    (dict(order=np.array([0, 99])), "order"),
    (dict(y=np.array([0, 1, 1, 0, 1])), "y"),
    (dict(task="multiclass", n_classes=2), "n_classes"),
    (dict(task="regression", epsilon=-0.1), "epsilon"),
    (dict(t0=-1), "t0"),
])
def test_validation_names_the_parameter(module, kwargs, name):
    X = np.arange(15.0).reshape(5, 3)
    args = dict(X=X, y=np.array([1, -1, 1, -1, 1]), order=np.arange(5), task="binary", n_classes=2,
                U=np.ones((4, 3)), eta=0.1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        module.fogd(args.pop("X"), args.pop("y"), args.pop("order"), **args)
