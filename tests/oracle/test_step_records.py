"""Oracle per-step records (refsvm.recorder.recording_steps) of BSGD: off by default, a recorded run's
model bitwise the unrecorded one on both paths (every maintenance and merge solver), the recorded
scores equal a brute-force evaluation of the model before the step, a merge's recorded coefficient
satisfies eq. 19 on the model before the event, and compare-traces finds an altered score or
coefficient at its step on both paths' traces."""

import math

import numpy as np
import pytest

from refsvm import oracle
from refsvm.backend import get_module
from refsvm.recorder import merged_slot, recording_steps, steps_recorded

GAMMA, LAM = 0.7, 0.01
CONFIGS = [("merge", s) for s in ("gss", "gss-precise", "lookup-h", "lookup-wd")] + [("removal", "gss"),
                                                                                     ("projection", "gss")]


def data(n=70, seed=3, classes=2):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    if classes == 2:
        return X, np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1, -1).astype(np.int64)
    return X, (np.argmax(X[:, :classes] + 0.3 * rng.standard_normal((n, classes)), axis=1)).astype(np.int64)


def kwargs(maintenance, solver, classes=2, fit_bias=False):
    return dict(n_classes=classes, budget=5, lam=LAM, learning_rate="pegasos", eta=1.0, radius=1.0,
                maintenance=maintenance, kernel="rbf", gamma=GAMMA, degree=3, coef0=0.0, merge_eps=0.01,
                projection_ridge=1e-10, fit_bias=fit_bias, merge_solver=solver)


def rbf(A, B):
    """Brute-force Gaussian kernel matrix (independent of refsvm.kernels)."""
    return np.array([[math.exp(-GAMMA * float(np.sum((a - b) ** 2))) for b in B] for a in A])


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("maintenance,solver", CONFIGS)
def test_recorded_run_is_bitwise_the_plain_one(backend, maintenance, solver):
    X, y = data()
    fn = get_module("bsgd", backend).bsgd
    order = np.random.default_rng(0).permutation(len(y))
    plain = fn(X, y, order, **kwargs(maintenance, solver))
    assert not steps_recorded() and "margin" not in plain.trace and "maint_new_coefficient" not in plain.trace
    with recording_steps():
        assert steps_recorded()
        rec = fn(X, y, order, **kwargs(maintenance, solver))
    assert not steps_recorded()
    for name in ("sv", "alpha", "bias"):
        assert getattr(rec, name).tobytes() == getattr(plain, name).tobytes(), name
    for key, value in plain.trace.items():
        if not key.endswith("seconds"):
            assert np.array_equal(np.asarray(rec.trace[key]), np.asarray(value)), key
    assert rec.trace["margin"].shape == (len(order), 1)
    assert rec.trace["maint_new_coefficient"].shape == (len(rec.trace["maint_step"]), 1)
    merged = rec.trace["maint_partner"] >= 0
    assert np.isfinite(rec.trace["maint_new_coefficient"][merged]).all()
    assert np.isnan(rec.trace["maint_new_coefficient"][~merged]).all()
    assert merged.any() == (maintenance == "merge")


@pytest.mark.parametrize("classes,fit_bias", [(2, False), (2, True), (3, False)])
def test_scores_are_the_model_before_the_step(classes, fit_bias):
    """Step k's score is f of the model after steps 0..k-1 (a run on the prefix) at x_{order[k]}, by brute force."""
    X, y = data(n=40, classes=classes)
    order = np.random.default_rng(1).permutation(len(y))
    fn = get_module("bsgd", "python").bsgd
    kw = kwargs("merge", "gss", classes, fit_bias)
    with recording_steps():
        scores = {p: get_module("bsgd", p).bsgd(X, y, order, **kw).trace["margin"] for p in ("python", "fast")}
    for k in (1, 7, 20, 39):
        prev = fn(X, y, order[:k], **kw)
        expected = rbf(X[order[k]][None], prev.sv) @ prev.alpha + prev.bias
        np.testing.assert_allclose(scores["python"][k], expected[0], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(scores["fast"][k], expected[0], rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(scores["python"][0], np.zeros(scores["python"].shape[1]))


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("solver", ["gss", "lookup-wd"])
def test_merged_coefficient_satisfies_eq_19(backend, solver):
    """alpha_z = alpha_m k(x_m, z) + alpha_n k(x_n, z) on the model just before the event (the prefix run's
    model, scaled by line 5 and with the step's SV appended), z read from the model after it."""
    X, y = data()
    order = np.random.default_rng(2).permutation(len(y))
    fn = get_module("bsgd", backend).bsgd
    kw = kwargs("merge", solver)
    with recording_steps():
        trace = fn(X, y, order, **kw).trace
    checked = 0
    for e, (s, m, n) in enumerate(zip(trace["maint_step"], trace["maint_index"], trace["maint_partner"])):
        if n < 0 or e % 3:
            continue
        before, after = fn(X, y, order[:s], **kw), fn(X, y, order[:s + 1], **kw)
        t = s + 1
        eta_t = 1.0 / (LAM * t)
        sv = np.vstack([before.sv, X[order[s]]])
        alpha = np.vstack([before.alpha * (1.0 - eta_t * LAM), [[eta_t * y[order[s]]]]])
        z_slot = n if m == len(sv) - 1 else m
        z = after.sv[z_slot]
        a_z = alpha[m, 0] * rbf([sv[m]], [z])[0, 0] + alpha[n, 0] * rbf([sv[n]], [z])[0, 0]
        assert z_slot == merged_slot(m, n, len(sv))
        assert trace["maint_new_coefficient"][e, 0] == after.alpha[z_slot, 0]
        np.testing.assert_allclose(trace["maint_new_coefficient"][e, 0], a_z, rtol=1e-12)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("field,record", [("margin", "step"), ("new_coefficient", "maintenance")])
def test_altered_score_or_coefficient_found_at_its_step(backend, field, record):
    X, y = data()
    ours, _ = oracle.trace_records("bsgd", X, y, seed=4, params={"budget": 5}, backend=backend)
    theirs, _ = oracle.trace_records("bsgd", X, y, seed=4, params={"budget": 5},
                                     backend="fast" if backend == "python" else "python")
    assert oracle.compare_traces(ours, theirs).agree
    targets = [i for i, r in enumerate(theirs) if r["record"] == record and field in r]
    assert len(targets) > 10
    i = targets[len(targets) // 2]
    theirs[i] = dict(theirs[i], **{field: theirs[i][field] * (1 + 1e-6) + 1e-9})
    result = oracle.compare_traces(ours, theirs)
    assert result.first_discrete is None
    assert (result.first_continuous.step, result.first_continuous.field) == (theirs[i]["step"], field)


def test_schema_versions_read():
    X, y = data()
    ours, _ = oracle.trace_records("bsgd", X, y, seed=4, params={"budget": 5})
    assert ours[0]["schema_version"] == 2 and any("margin" in r for r in ours)
    v1 = [dict(r, schema_version=1) if r["record"] == "header" else
          {k: v for k, v in r.items() if k not in ("margin", "new_coefficient")} for r in ours]
    result = oracle.compare_traces(ours, v1)
    assert result.agree and "step.margin (only in a)" in result.skipped
    with pytest.raises(ValueError, match="schema_version"):
        oracle.compare_traces(ours, [dict(ours[0], schema_version=3)] + ours[1:])


def test_multiclass_scores_agree_between_paths():
    X, y = data(classes=3)
    order = np.random.default_rng(5).permutation(len(y))
    with recording_steps():
        a, b = (get_module("bsgd", p).bsgd(X, y, order, **kwargs("merge", "gss", 3)) for p in ("python", "fast"))
    assert a.trace["margin"].shape == (len(y), 3)
    np.testing.assert_allclose(a.trace["margin"], b.trace["margin"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(a.trace["maint_new_coefficient"], b.trace["maint_new_coefficient"], rtol=1e-9)
    assert oracle.values_agree([1.0, 2.0], [1.0, 2.0 + 1e-12], 1e-9, 0.0)
    assert not oracle.values_agree([1.0, 2.0], [1.0, 2.1], 1e-9, 0.0)


def bsca_kwargs(maintenance, solver):
    return dict(budget=5, C=1.0, maintenance=maintenance, kernel="rbf", gamma=GAMMA, degree=3, coef0=0.0,
                merge_eps=0.01, projection_ridge=1e-10, merge_solver=solver)


@pytest.mark.parametrize("maintenance,solver", CONFIGS[::2] + CONFIGS[4:])
def test_bsca_recorded_run_is_bitwise_and_scores_are_the_model_before_the_step(maintenance, solver):
    """BSCA (both paths): the recorded run is bitwise the plain one; step k's score is f~ of the model after
    steps 0..k-1 (a prefix run) at x_{order[k]}, by brute force; a merge's coefficient is in the model."""
    X, y = data(n=40)
    order = np.random.default_rng(6).permutation(len(y))
    out = {}
    for backend in ("python", "fast"):
        fn = get_module("bsca", backend).bsca
        plain = fn(X, y, order, **bsca_kwargs(maintenance, solver))
        with recording_steps():
            rec = fn(X, y, order, **bsca_kwargs(maintenance, solver))
        assert "margin" not in plain.trace
        for name in ("sv", "alpha", "dual"):
            assert getattr(rec, name).tobytes() == getattr(plain, name).tobytes(), name
        out[backend] = rec.trace
    fn = get_module("bsca", "python").bsca
    for k in (1, 9, 30):
        prev = fn(X, y, order[:k], **bsca_kwargs(maintenance, solver))
        expected = (rbf(X[order[k]][None], prev.sv) @ prev.alpha)[0, 0]
        for backend in out:
            np.testing.assert_allclose(out[backend]["margin"][k, 0], expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(out["python"]["maint_new_coefficient"], out["fast"]["maint_new_coefficient"],
                               rtol=1e-9)
    merged = out["python"]["maint_partner"] >= 0
    assert merged.any() == (maintenance == "merge")
    for e in np.flatnonzero(merged)[::4]:
        s, m, n = (int(out["python"][key][e]) for key in ("maint_step", "maint_index", "maint_partner"))
        after = fn(X, y, order[:s + 1], **bsca_kwargs(maintenance, solver))
        b_before = after.sv.shape[0] + 1
        assert out["python"]["maint_new_coefficient"][e, 0] == after.alpha[merged_slot(m, n, b_before), 0]
