"""Agreement of the compiled FOGD / NOGD (refsvm._fast.fogd, refsvm._fast.nogd) with the references.

All six algorithms (FOGD and NOGD x binary / multi-class / regression) run on
identical inputs (data, visiting order, Fourier directions, state to continue
from).  Must agree: the discrete decisions exactly (``updated``, ``added``,
``switch_step``, ``rank_used``, ``mistakes``, ``kernel_evaluations``, ``t``),
the weights, projection and support vectors to ``rtol = 1e-9`` with
``atol = 1e-12 * max|reference|`` (the compiled path sums dot products in
numpy's pairwise order while the reference's ``U @ x`` and ``P @ k`` go
through BLAS; ``exp``/``sin``/``cos`` may differ by an ulp; measured
differences are ~1e-14 relative), and the online squared loss to rtol 1e-9.
NOGD's runs are sized so that the switch to the linear phase happens inside
the pass; the chunked runs put the switch inside a chunk.
"""

import inspect

import numpy as np
import pytest

from refsvm import fogd as fogd_py, nogd as nogd_py
from refsvm._fast import fogd as fogd_c, nogd as nogd_c
from refsvm.ogd import fourier_directions


def close(a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    assert a.shape == b.shape
    atol = 1e-12 * max(np.max(np.abs(a)), 1e-300) if a.size else 0.0
    np.testing.assert_allclose(b, a, rtol=1e-9, atol=atol)


def problem(task, n=400, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if task == "binary":
        y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
        return X, y.astype(np.int64), 2, 0.0
    if task == "multiclass":
        y = (X[:, 0] > 0).astype(int) + 2 * (X[:, 1] > 0.3)
        return X, y.astype(np.int64), 4, 0.0
    return X, np.sin(X[:, 0]) + 0.1 * rng.normal(size=n), 2, 0.01


def same_trace(a, b):
    for key in ("updated", "added"):
        if key in a:
            np.testing.assert_array_equal(a[key], b[key])
    for key in ("n_steps", "n_updates", "mistakes", "kernel_evaluations", "switch_step",
                "rank_used", "feature_map_evaluations"):
        if key in a:
            assert a[key] == b[key], key
    if "squared_loss_sum" in a:
        np.testing.assert_allclose(b["squared_loss_sum"], a["squared_loss_sum"], rtol=1e-9)
    if "eigenvalues" in a:
        close(a["eigenvalues"], b["eigenvalues"])


def test_same_signatures():
    assert inspect.signature(fogd_py.fogd) == inspect.signature(fogd_c.fogd)
    assert inspect.signature(nogd_py.nogd) == inspect.signature(nogd_c.nogd)


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_fogd_agrees(task, normalize):
    X, y, c, eps = problem(task)
    rng = np.random.default_rng(1)
    U = fourier_directions(rng, 64, X.shape[1], 0.5)
    kw = dict(task=task, n_classes=c, U=U, eta=0.3 if normalize else 0.01, epsilon=eps,
              normalize=normalize)
    W = None
    t = 0
    for _ in range(2):                                        # two passes, state continued
        order = rng.permutation(len(X))
        a = fogd_py.fogd(X, y, order, W=W, t0=t, **kw)
        b = fogd_c.fogd(X, y, order, W=W, t0=t, **kw)
        same_trace(a.trace, b.trace)
        assert a.t == b.t == t + len(X)
        close(a.W, b.W)
        assert a.trace["n_updates"] > 0
        W, t = a.W, a.t


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_fogd_averaged_sum_agrees(task, sparse):
    """The averaged variant's W_sum (sum of W after each update), continued over two passes, on
    dense and CSR rows (a third of the entries zero)."""
    import scipy.sparse as sps
    X, y, c, eps = problem(task)
    X = np.where(np.abs(X) < 0.45, 0.0, X)
    Xin = sps.csr_matrix(X) if sparse else X
    rng = np.random.default_rng(4)
    U = fourier_directions(rng, 32, X.shape[1], 0.5)
    kw = dict(task=task, n_classes=c, U=U, eta=0.01, epsilon=eps)
    W = W_sum = None
    for _ in range(2):
        order = rng.permutation(len(X))
        start = W_sum                                         # first pass None: the sum starts at zeros
        a = fogd_py.fogd(Xin, y, order, W=W, average=True, W_sum=start, **kw)
        b = fogd_c.fogd(Xin, y, order, W=W, average=True, W_sum=start, **kw)
        same_trace(a.trace, b.trace)
        close(a.W, b.W)
        close(a.W_sum, b.W_sum)
        assert a.trace["n_updates"] > 0 and np.any(a.W_sum != (0.0 if start is None else start))
        W, W_sum = a.W, a.W_sum


@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_nogd_agrees_through_the_switch(task):
    X, y, c, eps = problem(task)
    order = np.random.default_rng(2).permutation(len(X))
    kw = dict(task=task, n_classes=c, budget=40, rank=8, gamma=0.5, eta=0.2 if task != "regression" else 0.05,
              epsilon=eps)
    a = nogd_py.nogd(X, y, order, **kw)
    b = nogd_c.nogd(X, y, order, **kw)
    assert 0 <= a.trace["switch_step"] < len(order) - 100   # the switch falls inside the pass
    same_trace(a.trace, b.trace)
    for name in ("sv", "alpha", "projection", "W"):
        close(getattr(a, name), getattr(b, name))
    assert a.trace["rank_used"] == 8
    a_avg = nogd_py.nogd(X, y, order, average=True, **kw)    # the averaged variant's sum
    b_avg = nogd_c.nogd(X, y, order, average=True, **kw)
    same_trace(a_avg.trace, b_avg.trace)
    close(a_avg.W_sum, b_avg.W_sum)
    assert np.any(a_avg.W_sum != 0)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_nogd_linear_phase_svs_by_feature_change_no_bit(task, sparse, monkeypatch):
    """The compiled NOGD reads its SVs from the store's copy by feature (BY_FEATURE_ENTRIES): every
    kernel row, hence the weights, bitwise those of the row-by-row gather (limit 0), on dense and
    CSR rows with zeros, through the switch; both agree with the reference."""
    from refsvm._fast import sparse as fast_sparse
    import scipy.sparse as sps
    X, y, c, eps = problem(task, n=500, d=6)
    X = np.where(np.abs(X) < 0.5, 0.0, X)
    Xin = sps.csr_matrix(X) if sparse else X
    order = np.random.default_rng(7).permutation(len(X))
    kw = dict(task=task, n_classes=c, budget=30, rank=6, gamma=0.4, eta=0.1, epsilon=eps)
    by_feature = nogd_c.nogd(Xin, y, order, **kw)
    monkeypatch.setattr(fast_sparse, "BY_FEATURE_ENTRIES", 0)
    gathered = nogd_c.nogd(Xin, y, order, **kw)
    assert 0 <= by_feature.trace["switch_step"] < len(order) - 200
    np.testing.assert_array_equal(by_feature.W, gathered.W)
    np.testing.assert_array_equal(by_feature.trace["updated"], gathered.trace["updated"])
    ref = nogd_py.nogd(Xin, y, order, **kw)
    same_trace(ref.trace, by_feature.trace)
    close(ref.W, by_feature.W)
    close(nogd_py.nogd(Xin, y, order, average=True, **kw).W_sum,          # and the averaged sum
          nogd_c.nogd(Xin, y, order, average=True, **kw).W_sum)


@pytest.mark.parametrize("module", [nogd_py, nogd_c], ids=["python", "fast"])
@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_nogd_chunks_equal_one_call(module, task):
    """Chunks of 7 examples, the switch inside one of them, equal one call."""
    X, y, c, eps = problem(task, n=200)
    order = np.random.default_rng(3).permutation(len(X))
    kw = dict(task=task, n_classes=c, budget=30, rank=6, gamma=0.5, eta=0.2, epsilon=eps)
    whole = module.nogd(X, y, order, **kw)
    s = whole.trace["switch_step"]
    assert s >= 0 and (s + 1) % 7 != 0                       # not at a chunk boundary
    state = dict(sv=None, alpha=None, projection=None, W=None)
    t = 0
    updated, switch_chunks = [], []
    for k, chunk in enumerate(np.array_split(order, np.arange(7, len(order), 7))):
        r = module.nogd(X, y, chunk, t0=t, **kw, **state)
        state = dict(sv=r.sv, alpha=r.alpha, projection=r.projection, W=r.W)
        t = r.t
        updated.append(r.trace["updated"])
        if r.trace["switch_step"] >= 0:
            switch_chunks.append(k)
    assert switch_chunks == [s // 7]
    np.testing.assert_array_equal(np.concatenate(updated), whole.trace["updated"])
    assert t == whole.t
    for name in ("sv", "projection", "W"):
        close(getattr(whole, name), state[name])


@pytest.mark.parametrize("module", [fogd_py, fogd_c], ids=["python", "fast"])
def test_fogd_chunks_equal_one_call(module):
    X, y, c, _ = problem("multiclass", n=150)
    U = fourier_directions(np.random.default_rng(4), 32, X.shape[1], 0.5)
    order = np.random.default_rng(5).permutation(len(X))
    kw = dict(task="multiclass", n_classes=c, U=U, eta=0.05)
    whole = module.fogd(X, y, order, **kw)
    W, t = None, 0
    for chunk in np.array_split(order, 11):
        r = module.fogd(X, y, chunk, W=W, t0=t, **kw)
        W, t = r.W, r.t
    close(whole.W, W)
    assert t == whole.t == len(order)


@pytest.mark.parametrize("normalize", [False, True])
def test_fogd_decision_values_agree(normalize):
    """Prediction: numpy in chunks of 1024 rows (reference) vs row by row over nonzero inputs (fast)."""
    rng = np.random.default_rng(6)
    X = rng.normal(size=(2100, 5)) * (rng.random((2100, 5)) < 0.5)          # half the inputs zero
    U = fourier_directions(rng, 30, 5, 0.5)
    W = rng.normal(size=(60, 3))
    close(fogd_py.decision_values(X, U, W, normalize), fogd_c.decision_values(X, U, W, normalize))
    Z = np.array([[f(u @ x) for u in U for f in (np.sin, np.cos)] for x in X[:7]])
    scale = 1 / np.sqrt(30) if normalize else 1.0
    np.testing.assert_allclose(fogd_c.decision_values(X[:7], U, W, normalize), scale * Z @ W, rtol=1e-9)
