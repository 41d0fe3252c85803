"""Fast prediction: BLAS blocks (norms + one matrix product per block, clipped at zero).

Tolerance: the fast path expands ``||x - x_j||^2 = ||x||^2 + ||x_j||^2 - 2 x.x_j``,
which cancels when ``x`` is near ``x_j``; its error is relative to the size of the
terms, so decision values are compared with ``atol = 1e-9 * sum_j |coef_j| k(x_j, x)``
(the scale of the sum), not relative to ``f(x)`` itself (which can be ~0).
"""

import tracemalloc

import numpy as np
import pytest

from refsvm import BudgetedModel, BudgetedSVC
from refsvm.model import decision_blocks

from _helpers import blobs, checkerboard, kern


def _model(kernel, c, n_sv=40, d=6, seed=0, gamma=0.3):
    rng = np.random.default_rng(seed)
    return BudgetedModel(
        support_vectors=rng.normal(size=(n_sv, d)), coef=rng.normal(size=(n_sv, c)),
        kernel=kernel, gamma=gamma, degree=3, coef0=0.5, bias=rng.normal(size=c),
        classes=np.arange(max(c, 2)),
    )


def _check(model, X, F):
    K = kern(X, model.support_vectors, model.kernel, model.gamma, model.degree, model.coef0)
    expected = K @ model.coef + model.bias
    scale = np.abs(K) @ np.abs(model.coef) + np.abs(model.bias)
    F = F.reshape(expected.shape)
    assert np.all(np.abs(F - expected) <= 1e-9 * scale + 1e-300)


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("c", [1, 4])
def test_fast_agrees_with_reference_and_brute_force(kernel, c):
    model = _model(kernel, c)
    rng = np.random.default_rng(1)
    # ordinary points, points equal to / next to SVs (cancellation), far points
    X = np.vstack([rng.normal(size=(500, 6)), model.support_vectors,
                   model.support_vectors + 1e-9, 30.0 + rng.normal(size=(10, 6))])
    fast = model.decision_function(X, backend="fast")
    ref = model.decision_function(X, backend="python")
    assert fast.shape == ref.shape == ((len(X),) if c == 1 else (len(X), c))
    _check(model, X, fast)
    _check(model, X, ref)
    if kernel == "rbf":  # x = x_j: clipped at 0, k = 1 to rounding
        K = kern(model.support_vectors, model.support_vectors, "rbf", model.gamma)
        G = decision_blocks(model.support_vectors, model.support_vectors, np.eye(40), np.zeros(40),
                            "rbf", model.gamma, 3, 0.0)
        assert np.all(G <= 1.0) and np.all(np.diag(G) > 1.0 - 1e-13)
        np.testing.assert_allclose(G, K, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("block", [1, 7, 64, 5000])
def test_block_boundaries_do_not_matter(block):
    model = _model("rbf", 3)
    X = np.random.default_rng(2).normal(size=(300, 6))
    one = decision_blocks(X, model.support_vectors, model.coef, model.bias, "rbf", 0.3, 3, 0.0,
                          block=300)
    F = decision_blocks(X, model.support_vectors, model.coef, model.bias, "rbf", 0.3, 3, 0.0,
                        block=block)
    np.testing.assert_allclose(F, one, rtol=1e-13, atol=1e-13)


def test_memory_is_bounded_by_one_block():
    """n x B = 40000 x 400 doubles would be 128 MB; one block is at most 16 MB."""
    model = _model("rbf", 1, n_sv=400, d=10)
    X = np.random.default_rng(3).normal(size=(40000, 10))
    tracemalloc.start()
    try:
        F = model.decision_function(X, backend="fast")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 24e6, peak
    _check(model, X[:2000], F[:2000])


def test_block_rows_shrink_for_large_models(monkeypatch):
    import refsvm.model as model_module

    monkeypatch.setattr(model_module, "PREDICT_BLOCK_ENTRIES", 1000)
    model = _model("rbf", 3, n_sv=300)
    X = np.random.default_rng(4).normal(size=(50, 6))
    _check(model, X, model.decision_function(X, backend="fast"))  # blocks of 3 rows


def test_empty_model_predicts_the_bias():
    model = BudgetedModel(np.zeros((0, 3)), np.zeros((0, 1)), bias=np.array([0.25]))
    X = np.ones((5, 3))
    np.testing.assert_array_equal(model.decision_function(X, backend="fast"), np.full(5, 0.25))
    np.testing.assert_array_equal(model.decision_function(X, backend="python"), np.full(5, 0.25))


def test_bad_backend_is_refused():
    with pytest.raises(ValueError, match="backend"):
        _model("rbf", 1).decision_function(np.ones((2, 6)), backend="gpu")


@pytest.mark.parametrize("problem", ["binary", "multiclass"])
def test_estimator_predicts_through_the_fast_path(problem):
    X, y = checkerboard(400) if problem == "binary" else blobs(400)
    est = BudgetedSVC(budget=30, gamma=5.0, random_state=0).fit(X, y)
    _check(est.model_, X, est.decision_function(X))
    # no decision value is within rounding of a tie here: the labels are equal
    np.testing.assert_array_equal(est.predict(X), est.model_.predict(X, backend="python"))
