"""NOGD (Algorithms 2, 4, 6 of Lu et al. 2016) against independent computations.

Both backends are tested; oracles (kernel OGD, the Nystrom map, the
pseudo-inverse initialisation) are written out here from the paper's
definitions with ``_helpers.kern`` and ``numpy.linalg.eigh``.
"""

import numpy as np
import pytest

from refsvm import nogd as nogd_py
from refsvm._fast import nogd as nogd_c

from _helpers import kern

MODULES = pytest.mark.parametrize("module", [nogd_py, nogd_c], ids=["python", "fast"])


def xor(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, np.where(X[:, 0] * X[:, 1] > 0, 1, -1).astype(np.int64)


@MODULES
def test_kernel_phase_is_kernel_ogd(module):
    """Before the budget is reached: f += eta y k(x_t, .) on every hinge violation."""
    X, y = xor(60, 0)
    order = np.random.default_rng(1).permutation(60)
    eta, gamma = 0.3, 0.8
    S, a = [], []
    mistakes = 0
    for i in order:
        f = sum(aj * kern(sj, X[i], "rbf", gamma)[0, 0] for sj, aj in zip(S, a))
        mistakes += y[i] * f <= 0
        if y[i] * f < 1:
            S.append(X[i])
            a.append(eta * y[i])
    r = module.nogd(X, y, order, task="binary", n_classes=2, budget=500, rank=10, gamma=gamma, eta=eta)
    assert r.projection is None and r.trace["switch_step"] == -1
    np.testing.assert_allclose(r.sv, np.array(S), rtol=0, atol=0)
    np.testing.assert_allclose(r.alpha[:, 0], a, rtol=1e-12)
    assert r.trace["mistakes"] == mistakes


@MODULES
@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_full_rank_reproduces_the_kernel_model_at_the_switch(module, task):
    """k = B: V_k V_k' = I, so w'z(x) = alpha'k_x exactly (to rounding) everywhere,
    in particular on the training points, right after the switch."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(200, 3))
    y = {"binary": np.where(X[:, 0] > 0, 1, -1), "multiclass": np.digitize(X[:, 0], [-0.5, 0.5]),
         "regression": np.cos(X[:, 0])}[task]
    B = 25
    kw = dict(task=task, n_classes=3, budget=B, rank=B, gamma=0.5, eta=0.2, epsilon=0.0)
    order = rng.permutation(200)
    s = module.nogd(X, y, order, **kw).trace["switch_step"]
    assert s >= 0
    r = module.nogd(X, y, order[:s + 1], **kw)               # stop right after the switch
    assert r.trace["rank_used"] == B and r.projection.shape == (B, B)
    K = kern(X, r.sv, "rbf", 0.5)
    before = K @ r.alpha                                      # kernel model (alpha' k_x)
    after = (K @ r.projection.T) @ r.W                        # linear model (w' z(x))
    np.testing.assert_allclose(after, before, rtol=1e-8, atol=1e-10 * np.max(np.abs(before)))


@MODULES
def test_low_rank_map_and_pseudo_inverse_initialisation(module):
    """z(x) = D_k^{-1/2} V_k' k_x and w = D_k^{1/2} V_k' alpha, i.e.
    w'z(x) = alpha' V_k V_k' k_x, checked against an independent eigh."""
    X, y = xor(300, 3)
    order = np.random.default_rng(4).permutation(300)
    B, k = 30, 6
    kw = dict(task="binary", n_classes=2, budget=B, rank=k, gamma=0.4, eta=0.5)
    s = module.nogd(X, y, order, **kw).trace["switch_step"]
    r = module.nogd(X, y, order[:s + 1], **kw)
    lam, V = np.linalg.eigh(kern(r.sv, r.sv, "rbf", 0.4))
    lam, V = lam[::-1][:k], V[:, ::-1][:, :k]
    np.testing.assert_allclose(r.trace["eigenvalues"], lam, rtol=1e-10)
    Kx = kern(X, r.sv, "rbf", 0.4)
    Z_oracle = Kx @ V / np.sqrt(lam)                          # rows z(x)' up to eigenvector signs
    Z = Kx @ r.projection.T
    np.testing.assert_allclose(np.abs(Z), np.abs(Z_oracle), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(Z @ r.W, Kx @ V @ V.T @ r.alpha, rtol=1e-8, atol=1e-10)
    # the sign convention: every eigenvector's largest-magnitude entry is positive
    P = r.projection
    assert np.all(P[np.arange(k), np.argmax(np.abs(P), axis=1)] > 0)


@MODULES
@pytest.mark.parametrize("case", ["duplicates", "tiny_gamma"])
def test_rank_deficient_kernel_matrix_never_nan(module, case):
    """Duplicates (two distinct points repeated) or gamma -> 0 make the B x B kernel
    matrix (numerically) singular: eigenvalues <= eig_tol * lambda_max are dropped,
    rank_used < rank, and nothing is NaN."""
    rng = np.random.default_rng(5)
    if case == "duplicates":
        X = np.repeat(rng.normal(size=(2, 3)), 40, axis=0)
        y = np.tile([1, -1], 40)
        gamma = 1.0
    else:
        X = rng.normal(size=(80, 3))
        y = np.where(X[:, 0] > 0, 1, -1)
        gamma = 1e-9
    y = np.where(np.arange(80) < 40, 1, -1) if case == "duplicates" else y
    r = module.nogd(X, y, rng.permutation(80), task="binary", n_classes=2, budget=20, rank=10,
                    gamma=gamma, eta=0.1)
    assert r.trace["switch_step"] >= 0
    assert 1 <= r.trace["rank_used"] <= 2
    assert np.all(np.isfinite(r.W)) and np.all(np.isfinite(r.projection))
    lam_max = r.trace["eigenvalues"][0]
    assert np.all(r.trace["eigenvalues"] > 1e-8 * lam_max)


@MODULES
def test_kernel_evaluation_count(module):
    X, y = xor(100, 6)
    order = np.arange(100)
    B = 10
    r = module.nogd(X, y, order, task="binary", n_classes=2, budget=B, rank=2, gamma=1.0, eta=0.5)
    s = r.trace["switch_step"]
    n_sv_before = np.concatenate([[0], np.cumsum(r.trace["added"])[:-1]])
    expected = int(n_sv_before[:s + 1].sum()) + B * B + B * (100 - s - 1)
    assert r.trace["kernel_evaluations"] == expected


@MODULES
@pytest.mark.parametrize("kwargs, name", [
    (dict(budget=0), "budget"),
    (dict(rank=0), "rank"),
    (dict(rank=11), "rank"),
    (dict(gamma=0.0), "gamma"),
    (dict(eig_tol=-1.0), "eig_tol"),
    (dict(eta=float("nan")), "eta"),
    (dict(task="multiclass", n_classes=1), "n_classes"),
    (dict(sv=np.ones((2, 4)), alpha=np.ones((2, 1))), "sv"),
    (dict(sv=np.ones((2, 3)), alpha=np.ones((3, 1))), "alpha"),
    (dict(sv=np.ones((10, 3)), projection=np.ones((2, 9)), W=np.ones((2, 1))), "projection"),
    (dict(sv=np.ones((10, 3)), projection=np.ones((2, 10)), W=np.ones((3, 1))), "W"),
    (dict(sv=np.ones((2, 3)), alpha=np.ones((2, 1)), W=np.ones((2, 1))), "W"),
    (dict(average="yes"), "average"),
    (dict(W_sum=np.ones((2, 1))), "W_sum"),                                  # without average=True
    (dict(average=True, W_sum=np.ones((2, 1))), "W_sum"),                    # in the kernel phase
    (dict(average=True, sv=np.ones((10, 3)), projection=np.ones((2, 10)), W=np.ones((2, 1)),
          W_sum=np.ones((3, 1))), "W_sum"),                                   # wrong shape
])
def test_validation_names_the_parameter(module, kwargs, name):
    X = np.arange(15.0).reshape(5, 3)
    args = dict(task="binary", n_classes=2, budget=10, rank=2, gamma=1.0, eta=0.1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        module.nogd(X, np.array([1, -1, 1, -1, 1]), np.arange(5), **args)


@MODULES
@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_averaged_variant_sums_the_linear_phase_weights(module, task):
    """average=True (KOL's code): W_sum is the sum of W after each linear-phase update, written out
    by replaying the pass one example at a time without it; the switch falls inside the pass, the
    kernel-phase updates are not summed, and the last iterate is the plain run's."""
    rng = np.random.default_rng(21)
    X = rng.normal(size=(160, 3))
    if task == "binary":
        y, c = np.where(X[:, 0] * X[:, 1] > 0, 1, -1).astype(np.int64), 2
    elif task == "multiclass":
        y, c = ((X[:, 0] > 0).astype(int) + 2 * (X[:, 1] > 0.3)).astype(np.int64), 4
    else:
        y, c = np.sin(X[:, 0]), 2
    order = rng.permutation(160)
    kw = dict(task=task, n_classes=c, budget=20, rank=5, gamma=0.6, eta=0.1, epsilon=0.01)
    run = module.nogd(X, y, order, average=True, **kw)
    plain = module.nogd(X, y, order, **kw)
    assert 0 <= run.trace["switch_step"] < 100
    np.testing.assert_array_equal(run.W, plain.W)
    np.testing.assert_array_equal(run.trace["updated"], plain.trace["updated"])
    state, total, n_linear = {}, None, 0
    for i in order:                                          # one example per call, state passed on
        r = module.nogd(X, y, np.array([i]), **kw, **state)
        state = dict(sv=r.sv, alpha=r.alpha, projection=r.projection, W=r.W)
        if r.trace["updated"][0] and not r.trace["added"][0]:   # an update of the linear phase
            total = r.W.copy() if total is None else total + r.W
            n_linear += 1
    assert n_linear == int(run.trace["updated"].sum() - run.trace["added"].sum()) > 10
    np.testing.assert_allclose(run.W_sum, total, rtol=1e-9, atol=1e-12)
    assert plain.W_sum is None


@MODULES
def test_averaged_sum_continues_across_calls(module):
    """Two calls (the switch in the first), the sum passed on, equal one call."""
    X, y = xor(200, 5)
    order = np.random.default_rng(6).permutation(200)
    kw = dict(task="binary", n_classes=2, budget=25, rank=5, gamma=0.5, eta=0.2, average=True)
    whole = module.nogd(X, y, order, **kw)
    first = module.nogd(X, y, order[:90], **kw)
    assert first.trace["switch_step"] >= 0 and first.W_sum is not None
    second = module.nogd(X, y, order[90:], sv=first.sv, alpha=first.alpha, projection=first.projection,
                         W=first.W, W_sum=first.W_sum, **kw)
    np.testing.assert_allclose(second.W_sum, whole.W_sum, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(second.W, whole.W, rtol=1e-12, atol=1e-14)
