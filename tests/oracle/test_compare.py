"""Oracle trace comparison: an injected divergence (a changed decision, a value beyond rtol, a missing
event) is found at exactly its step for every solver; values within rtol agree; a partial trace
(fields or record kinds on one side only, a shorter trace) is compared on what both hold."""

import copy

import numpy as np
import pytest
from _helpers import two_passes

from refsvm import oracle

SOLVERS = list(oracle.SOLVERS)
_CONTINUOUS = ("weight_degradation", "water_level", "objective")


def data(n=40, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    y = np.where(X[:, 1] + 0.5 * rng.standard_normal(n) > 0, 1, -1)
    return X, y


_CACHE = {}


def trace(solver):
    if solver not in _CACHE:
        params = {"budget": 5} if "budget" in oracle.SOLVERS[solver].defaults else {}
        if solver == "nogd":
            params["rank"] = 3
        X, y = data()
        _CACHE[solver] = oracle.trace_records(solver, X, y, **two_passes(solver, len(y), 9), params=params)[0]
    return copy.deepcopy(_CACHE[solver])


def step_record(records, k, kind="step"):
    return next(r for r in records if r["record"] == kind and r["step"] == k)


@pytest.mark.parametrize("k", [0, 17, 79])
@pytest.mark.parametrize("solver", SOLVERS)
def test_changed_decision_found_at_its_step(solver, k):
    a, b = trace(solver), trace(solver)
    r = step_record(b, k)
    r["update"] = "none" if r["update"] != "none" else "add"
    result = oracle.compare_traces(a, b)
    assert not result.agree
    assert (result.first_discrete.step, result.first_discrete.field) == (k, "update")
    assert result.first_continuous is None
    assert any(c["step"] == k for c in result.first_discrete.context_b)


@pytest.mark.parametrize("k", [3, 41])
@pytest.mark.parametrize("solver", SOLVERS)
def test_value_beyond_rtol_found_at_its_step(solver, k):
    a, b = trace(solver), trace(solver)
    for records in (a, b):                       # a peer's margins, present in both traces
        for r in records:
            if r["record"] == "step":
                r["margin"] = 0.25 * r["step"] - 3.0
    step_record(b, k)["margin"] *= 1 + 1e-7
    result = oracle.compare_traces(a, b, rtol=1e-9)
    assert result.first_discrete is None
    assert (result.first_continuous.step, result.first_continuous.field) == (k, "margin")
    assert oracle.compare_traces(a, b, rtol=1e-6).agree


@pytest.mark.parametrize("solver", [s for s in SOLVERS if s in ("bsgd", "bsca", "sbp")])
def test_recorded_continuous_value_beyond_rtol(solver):
    a, b = trace(solver), trace(solver)
    target = next(r for r in b[1:] if r["record"] != "step" and any(f in r for f in _CONTINUOUS)
                  and r["step"] >= 10) if solver != "sbp" else step_record(b, 10)
    name = next(f for f in _CONTINUOUS if f in target)
    target[name] = target[name] * (1 + 1e-6) + 1e-300
    result = oracle.compare_traces(a, b)
    assert result.first_discrete is None
    assert (result.first_continuous.step, result.first_continuous.field) == (target["step"], name)
    assert oracle.compare_traces(a, b, rtol=1e-5).agree


@pytest.mark.parametrize("solver", ["bsgd", "bsca", "rbp", "bpas"])
def test_missing_maintenance_event_found_at_its_step(solver):
    a, b = trace(solver), trace(solver)
    event = next(r for r in b if r["record"] == "maintenance" and r["step"] >= 20)
    b.remove(event)
    result = oracle.compare_traces(a, b)
    assert (result.first_discrete.step, result.first_discrete.field) == (event["step"], "record present")


def test_partial_trace_fields_and_kinds_skipped_and_named():
    a, b = trace("rbp"), trace("rbp")
    b = [r for r in b if r["record"] != "maintenance"]
    for r in b:
        r.pop("n_sv", None)
    result = oracle.compare_traces(a, b)
    assert result.agree, result.report()
    assert "maintenance records (only in a)" in result.skipped
    assert "step.n_sv (only in a)" in result.skipped
    assert "skipped" in result.report()


def test_shorter_trace_compared_up_to_its_end():
    a, b = trace("bsgd"), trace("bsgd")
    b = [r for r in b if r["record"] == "header" or r["step"] <= 30]
    result = oracle.compare_traces(a, b)
    assert result.agree and "step 30" in result.truncated
    b[5]["index"] = -1
    assert oracle.compare_traces(a, b).first_discrete.step == b[5]["step"]


def test_header_differences_named_and_values_rule():
    a, b = trace("perceptron"), trace("perceptron")
    b[0]["data"]["X_sha256"] = "0" * 64
    assert any("X_sha256" in d for d in oracle.compare_traces(a, b).header_differences)
    assert oracle.values_agree(1.0, 1.0 + 1e-10, 1e-9, 0.0)
    assert not oracle.values_agree(1.0, 1.0 + 1e-8, 1e-9, 0.0)
    assert oracle.values_agree("NaN", float("nan"), 1e-9, 0.0)
    assert not oracle.values_agree("Infinity", 1e308, 1e-9, 0.0)
    assert oracle.values_agree(0.0, 1e-13, 1e-9, 1e-12)
    with pytest.raises(ValueError, match="rtol"):
        oracle.compare_traces(a, b, rtol=-1)


def test_round_trip_through_a_file(tmp_path):
    a = trace("sbp")
    oracle.write_trace(a, tmp_path / "a.jsonl")
    back = oracle.read_trace(tmp_path / "a.jsonl")
    assert back == a                               # floats in shortest round-trip form
    (tmp_path / "bad.jsonl").write_text('{"record": "header"}\nnot json\n')
    with pytest.raises(ValueError, match="line 2"):
        oracle.read_trace(tmp_path / "bad.jsonl")
