"""Oracle per-step records of the online baselines (binary and multi-class), FOGD and NOGD: a recorded
run's model is bitwise the unrecorded one on both paths, the recorded scores are the model before the
step (brute force on a prefix run, independent of refsvm's kernels and feature maps), both paths' scores
agree within the oracle's rtol, and compare-traces finds an altered score or decision of a multi-class
learner at its step on both paths' traces."""

import math

import numpy as np
import pytest

from refsvm import oracle
from refsvm.backend import get_module
from refsvm.recorder import recording_steps

GAMMA = 0.7
KERNEL = dict(kernel="rbf", gamma=GAMMA, degree=3, coef0=0.0)
BINARY = {
    "perceptron": ({}, False),
    "ogd": (dict(eta=0.3), False),
    "rbp": (dict(budget=5), True),
    "forgetron": (dict(budget=5), False),
    "projectron": (dict(eta=0.3, budget=5, plusplus=False), False),
    "projectron++": (dict(eta=0.3, budget=5, plusplus=True), False),
    "bpas": (dict(budget=5, C=1.0), False),
    "bogd": (dict(budget=5, eta=0.3, lam=0.01, max_coef=1.0), True),
}
MULTICLASS = [f"multiclass_{name}" for name in BINARY]


def data(n=40, seed=3, classes=2):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    if classes == 2:
        return X, np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1, -1).astype(np.int64)
    return X, np.argmax(X[:, :classes] + 0.3 * rng.standard_normal((n, classes)), axis=1).astype(np.int64)


def rbf(A, B):
    """Brute-force Gaussian kernel matrix (independent of refsvm.kernels)."""
    return np.array([[math.exp(-GAMMA * float(np.sum((a - b) ** 2))) for b in B] for a in A]).reshape(len(A), len(B))


def online_call(name, backend, classes=2):
    """``fn(order) -> result`` of an online learner on ``data(classes=classes)``."""
    base = name.replace("multiclass_", "")
    kw, uniforms = BINARY[base]
    fn = getattr(get_module("online", backend), ("multiclass_" if classes > 2 else "") + base.rstrip("+"))
    X, y = data(classes=classes)
    u = np.random.default_rng(8).random(len(y))
    extra = dict(n_classes=classes) if classes > 2 else {}

    def call(order):
        args = (X, y, order, u[:len(order)]) if uniforms else (X, y, order)
        return fn(*args, **kw, **KERNEL, **extra)
    return call, X, y


def assert_bitwise(plain, rec):
    for name in ("sv", "alpha", "W", "projection"):
        if getattr(plain, name, None) is not None:
            assert np.asarray(getattr(rec, name)).tobytes() == np.asarray(getattr(plain, name)).tobytes(), name
    assert "margin" not in plain.trace
    for key, value in plain.trace.items():
        assert np.array_equal(np.asarray(rec.trace[key]), np.asarray(value)), key


@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("name", list(BINARY))
def test_online_recorded_run_is_bitwise_and_scores_are_the_model_before_the_step(name, classes):
    order = np.random.default_rng(1).permutation(40)
    scores = {}
    for backend in ("python", "fast"):
        call, X, y = online_call(name, backend, classes)
        plain = call(order)
        with recording_steps():
            rec = call(order)
        assert_bitwise(plain, rec)
        assert rec.trace["margin"].shape == (len(order), 1 if classes == 2 else classes)
        scores[backend] = rec.trace["margin"]
    np.testing.assert_allclose(scores["python"], scores["fast"], rtol=1e-9, atol=1e-12)
    call, X, y = online_call(name, "python", classes)
    np.testing.assert_array_equal(scores["python"][0], 0.0)          # the empty model
    for k in (1, 13, 39):
        prev = call(order[:k])
        expected = rbf(X[order[k]][None], prev.sv) @ prev.alpha.reshape(len(prev.sv), -1)
        for backend in scores:
            np.testing.assert_allclose(scores[backend][k], expected[0], rtol=1e-9, atol=1e-12)


def fourier(U, x):
    p = U @ x
    z = np.empty(2 * len(p))
    z[0::2], z[1::2] = np.sin(p), np.cos(p)
    return z


@pytest.mark.parametrize("task,classes", [("binary", 2), ("multiclass", 3), ("regression", 2)])
def test_fogd_recorded_scores(task, classes):
    X, y = data(classes=classes)
    y = X[:, 1].copy() if task == "regression" else y
    U = np.random.default_rng(2).standard_normal((20, 3))
    order = np.random.default_rng(4).permutation(len(y))
    kw = dict(task=task, n_classes=classes if task == "multiclass" else 2, U=U, eta=0.2)
    scores = {}
    for backend in ("python", "fast"):
        fn = get_module("fogd", backend).fogd
        plain = fn(X, y, order, **kw)
        with recording_steps():
            rec = fn(X, y, order, **kw)
        assert_bitwise(plain, rec)
        scores[backend] = rec.trace["margin"]
    np.testing.assert_allclose(scores["python"], scores["fast"], rtol=1e-9, atol=1e-12)
    for k in (0, 11, 39):
        W = get_module("fogd", "python").fogd(X, y, order[:k], **kw).W if k else np.zeros((40, scores["fast"].shape[1]))
        np.testing.assert_allclose(scores["fast"][k], fourier(U, X[order[k]]) @ W, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("classes", [2, 3])
def test_nogd_recorded_scores_both_phases(classes):
    X, y = data(classes=classes)
    order = np.random.default_rng(5).permutation(len(y))
    kw = dict(task="binary" if classes == 2 else "multiclass", n_classes=classes, budget=6, rank=4, gamma=GAMMA,
              eta=0.2)
    scores = {}
    for backend in ("python", "fast"):
        fn = get_module("nogd", backend).nogd
        plain = fn(X, y, order, **kw)
        with recording_steps():
            rec = fn(X, y, order, **kw)
        assert_bitwise(plain, rec)
        switch = rec.trace["switch_step"]
        assert 0 < switch < 30
        scores[backend] = rec.trace["margin"]
    np.testing.assert_allclose(scores["python"], scores["fast"], rtol=1e-9, atol=1e-12)
    fn = get_module("nogd", "python").nogd
    for k in (switch // 2, switch + 3, 39):                     # the kernel phase, then the linear one
        prev = fn(X, y, order[:k], **kw)
        k_t = rbf(X[order[k]][None], prev.sv)[0]
        expected = k_t @ prev.alpha if prev.projection is None else (prev.projection @ k_t) @ prev.W
        np.testing.assert_allclose(scores["fast"][k], expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("solver", MULTICLASS)
def test_multiclass_divergence_found_at_its_step(solver, backend):
    X, y = data(classes=3)
    params = {"budget": 5} if "budget" in oracle.SOLVERS[solver].defaults else {}
    ours, _ = oracle.trace_records(solver, X, y + 1, epochs=2, seed=6, params=params, backend=backend)
    other = "fast" if backend == "python" else "python"
    theirs, _ = oracle.trace_records(solver, X, y + 1, epochs=2, seed=6, params=params, backend=other)
    result = oracle.compare_traces(ours, theirs)
    assert result.agree and result.header_differences == [], result.report()
    assert ours[0]["params"]["n_classes"] == 3 and "step.margin" not in ours[0]["not_recorded"]
    steps = [i for i, r in enumerate(theirs) if r["record"] == "step"]
    i, j = steps[57], steps[23]
    assert len(theirs[i]["margin"]) == 3
    theirs[i] = dict(theirs[i], margin=[theirs[i]["margin"][0], theirs[i]["margin"][1] * (1 + 1e-6) + 1e-9,
                                        theirs[i]["margin"][2]])
    theirs[j] = dict(theirs[j], update="none" if theirs[j]["update"] != "none" else "add")
    result = oracle.compare_traces(ours, theirs)
    assert (result.first_continuous.step, result.first_continuous.field) == (57, "margin")
    assert (result.first_discrete.step, result.first_discrete.field) == (23, "update")


def test_multiclass_class_count_from_the_labels_or_checked():
    X, y = data(classes=3)
    with pytest.raises(ValueError, match="n_classes"):
        oracle.trace_records("multiclass_perceptron", X, y, params={"n_classes": 4})
    records, results = oracle.trace_records("multiclass_perceptron", X, y, seed=1)
    assert results[0].alpha.shape[1] == 3 and len(records[1]["margin"]) == 3


@pytest.mark.parametrize("fit_bias", [False, True])
def test_sbp_recorded_scores(fit_bias):
    """SBP (both paths): the recorded run is bitwise the plain one; step k's score is the iterate
    ``w^(t-1)`` at the sampled example, ``sum_j alpha_j y_j K(x_j, x_i) + b`` with the state of a run
    over the first k uniforms (brute-force kernel) and the bias b of its line 5 (the step's record)."""
    X, y = data()
    u = np.random.default_rng(7).random(30)
    kw = dict(nu=0.2, fit_bias=fit_bias, **KERNEL)
    out = {}
    for backend in ("python", "fast"):
        fn = get_module("sbp", backend).optimize
        plain = fn(X, y, u, **kw)
        with recording_steps():
            rec = fn(X, y, u, **kw)
        for name in ("coef", "bias"):
            assert np.asarray(getattr(rec, name)).tobytes() == np.asarray(getattr(plain, name)).tobytes(), name
        assert_bitwise(plain, rec)
        out[backend] = rec.trace
    np.testing.assert_allclose(out["python"]["margin"], out["fast"]["margin"], rtol=1e-9, atol=1e-12)
    fn = get_module("sbp", "python").optimize
    K = rbf(X, X)
    for k in (0, 9, 29):
        alpha = fn(X, y, u[:k], **kw).state.alpha if k else np.zeros(len(y))
        i, b = out["python"]["sampled"][k], out["python"]["bias"][k]
        np.testing.assert_allclose(out["fast"]["margin"][k, 0], (alpha * y) @ K[:, i] + b, rtol=1e-9, atol=1e-12)
    records, _ = oracle.trace_records("sbp", X, y, seed=2)
    assert "step.margin" not in records[0]["not_recorded"] and all("margin" in r for r in records if r["record"] == "step")
