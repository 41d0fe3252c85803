"""sample_weight / class_weight for BSCA (function layer, both paths, and BSCAClassifier).

A weight s_i scales example i's hinge loss; the dual box becomes [0, C s_i]
and the truncated Newton step of Alg. 2, line 6 clips there.  Oracle: the
weighted box QP solved by L-BFGS-B here (no budget, run to convergence).
"""

import numpy as np
import pytest
from scipy.optimize import minimize

from refsvm import BSCAClassifier
from refsvm.backend import get_module

from _helpers import checkerboard, kern

BACKENDS = ["python", "fast"]


def _kw(**extra):
    kw = dict(budget=15, C=2.0, maintenance="merge", kernel="rbf", gamma=2.0, degree=3, coef0=0.0,
              merge_eps=0.01, projection_ridge=1e-10, merge_solver="gss", sv_update="accumulate")
    kw.update(extra)
    return kw


def _weights(n, seed=0):
    return np.random.default_rng(seed).choice([0.0, 0.5, 1.0, 2.0, 3.0], size=n)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("maintenance", ["merge", "removal", "projection"])
def test_weight_one_is_bitwise_unweighted(backend, maintenance):
    X, y = checkerboard(150, seed=1)
    order = np.random.default_rng(0).integers(0, 150, 300)
    mod = get_module("bsca", backend)
    a = mod.bsca(X, y, order, **_kw(maintenance=maintenance))
    b = mod.bsca(X, y, order, sample_weight=np.ones(150), **_kw(maintenance=maintenance))
    assert len(a.trace["maint_step"]) > 0
    assert np.array_equal(a.sv, b.sv) and np.array_equal(a.alpha, b.alpha)
    assert np.array_equal(a.dual, b.dual)
    assert a.trace["n_at_bound"] == b.trace["n_at_bound"]


@pytest.mark.parametrize("maintenance", ["merge", "removal", "projection"])
def test_weighted_paths_agree(maintenance):
    X, y = checkerboard(150, seed=2)
    w = _weights(150, 1)
    order = np.random.default_rng(1).integers(0, 150, 450)
    py = get_module("bsca", "python").bsca(X, y, order, sample_weight=w, **_kw(maintenance=maintenance))
    fa = get_module("bsca", "fast").bsca(X, y, order, sample_weight=w, **_kw(maintenance=maintenance))
    for key in ("changed", "added", "maint_step", "maint_index", "maint_partner"):
        assert np.array_equal(py.trace[key], fa.trace[key]), key
    assert py.trace["n_at_bound"] == fa.trace["n_at_bound"]
    np.testing.assert_allclose(fa.alpha, py.alpha, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fa.sv, py.sv, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fa.dual, py.dual, rtol=1e-9, atol=1e-12)
    assert np.all(py.dual <= 2.0 * w) and np.all(py.dual[w == 0] == 0.0)
    src = py.sv_source[py.sv_source >= 0]
    assert np.all(w[src] > 0)                      # a zero-weight example is never added


@pytest.mark.parametrize("backend", BACKENDS)
def test_weighted_dual_converges_to_box_qp(backend):
    """No budget: BSCA's dual variables -> argmax of sum a - a'Qa/2 on 0 <= a_i <= C s_i."""
    X, y = checkerboard(60, seed=4)
    w = _weights(60, 2)
    C, gamma = 2.0, 2.0
    Q = (y[:, None] * y[None, :]) * kern(X, X, "rbf", gamma)
    res = minimize(lambda a: (0.5 * a @ Q @ a - a.sum(), Q @ a - 1.0), np.zeros(60), jac=True,
                   method="L-BFGS-B", bounds=[(0.0, C * s) for s in w],
                   options=dict(ftol=1e-15, gtol=1e-12, maxiter=10000))
    rng = np.random.default_rng(5)
    order = np.concatenate([rng.permutation(60) for _ in range(300)])
    out = get_module("bsca", backend).bsca(X, y, order, sample_weight=w, **_kw(budget=None, C=C))
    np.testing.assert_allclose(out.dual, res.x, atol=1e-5)
    assert not np.allclose(res.x, np.clip(res.x, 0, C))   # some box really is C s_i != C
    # the model is w(alpha): f(x) = sum_i alpha_i y_i k(x_i, x)
    f_model = kern(X, out.sv, "rbf", gamma) @ out.alpha[:, 0]
    f_qp = kern(X, X, "rbf", gamma) @ (res.x * y)
    np.testing.assert_allclose(f_model, f_qp, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bad", [-np.ones(50), np.ones(7), np.full(50, np.nan)])
def test_function_rejects_bad_sample_weight(backend, bad):
    X, y = checkerboard(50, seed=0)
    with pytest.raises(ValueError, match="sample_weight"):
        get_module("bsca", backend).bsca(X, y, np.arange(50), sample_weight=bad, **_kw())


@pytest.mark.parametrize("backend", BACKENDS)
def test_primal_objective_weights_the_hinge(backend):
    X, y = checkerboard(40, seed=3)
    w = _weights(40, 3)
    mod = get_module("bsca", backend)
    out = mod.bsca(X, y, np.arange(40), **_kw(budget=None))
    kw = dict(C=2.0, kernel="rbf", gamma=2.0, degree=3, coef0=0.0)
    f = kern(X, out.sv, "rbf", 2.0) @ out.alpha[:, 0]
    beta = out.alpha[:, 0]
    expect = 0.5 * beta @ kern(out.sv, out.sv, "rbf", 2.0) @ beta + 2.0 * np.sum(w * np.maximum(0, 1 - y * f))
    assert mod.primal_objective(X, y, out.sv, out.alpha, sample_weight=w, **kw) == pytest.approx(expect, rel=1e-10)


@pytest.mark.parametrize("backend", BACKENDS)
def test_estimator_class_weight_equals_sample_weight(backend):
    X, y = checkerboard(150, seed=5)
    labels = np.where(y > 0, "b", "a")
    kw = dict(budget=20, C=2.0, gamma=2.0, epochs=2, random_state=0, backend=backend)
    a = BSCAClassifier(class_weight={"b": 3.0, "a": 0.5}, **kw).fit(X, labels)
    b = BSCAClassifier(**kw).fit(X, labels, sample_weight=np.where(y > 0, 3.0, 0.5))
    assert np.array_equal(a.alpha_, b.alpha_) and np.array_equal(a.dual_, b.dual_)
    assert np.all(a.dual_ <= 2.0 * np.where(y > 0, 3.0, 0.5))
    c = BSCAClassifier(**kw).fit(X, labels, sample_weight=np.ones(150))
    d = BSCAClassifier(**kw).fit(X, labels)
    assert np.array_equal(c.alpha_, d.alpha_)


def test_estimator_weights_multiclass_and_monitor():
    from _helpers import blobs
    X, y = blobs(120, seed=1)
    w = _weights(120, 4)
    clf = BSCAClassifier(budget=15, C=1.0, gamma=1.0, epochs=2, random_state=0, monitor_every="epoch")
    clf.fit(X, y, sample_weight=w)
    assert clf.dual_.shape == (3, 120)
    assert np.all(clf.dual_ <= w[None, :]) and np.all(clf.dual_[:, w == 0] == 0.0)
    assert np.all(np.asarray(clf.monitor_["gap"]) > -1e-9)   # weak duality with weighted primal
    # partial_fit with other weights on the same data: new dual variables (other boxes)
    clf.partial_fit(X, y, sample_weight=np.ones(120))
    assert np.all(clf.dual_ <= 1.0)


def test_estimator_weights_in_chunks_and_partial_fit(capsys):
    """verbose=1 (chunks of 1000 steps) and partial_fit give the model of fit, with weights."""
    X, y = checkerboard(2100, seed=9)
    w = _weights(2100, 9)
    kw = dict(budget=20, C=1.0, gamma=2.0, epochs=2, random_state=0)
    a = BSCAClassifier(**kw).fit(X, y, sample_weight=w)
    b = BSCAClassifier(verbose=1, **kw).fit(X, y, sample_weight=w)
    assert "1000/2100" in capsys.readouterr().err
    np.testing.assert_array_equal(a.alpha_, b.alpha_)
    np.testing.assert_array_equal(a.dual_, b.dual_)
    c = BSCAClassifier(**dict(kw, epochs=1))
    c.partial_fit(X, y, classes=[-1, 1], sample_weight=w)
    c.partial_fit(X, y, sample_weight=w)                  # same data and weights: dual continues
    np.testing.assert_array_equal(a.alpha_, c.alpha_)
    np.testing.assert_array_equal(a.dual_, c.dual_)
