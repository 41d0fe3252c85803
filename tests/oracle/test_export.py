"""Oracle trace export: both paths write equal traces for every solver, the traced run's model is
bitwise the untraced one, the header's fingerprints are recomputed independently, and the records
are read back from the trace dicts as DESIGN.md defines them."""

import hashlib
import json

import numpy as np
import pytest
from _helpers import two_passes

from refsvm import oracle
from refsvm.backend import get_module

SOLVERS = list(oracle.SOLVERS)


def data(n=50, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    y = np.where(X[:, 0] + 0.4 * rng.standard_normal(n) > 0, 1, -1)
    return X, y


def small(solver):
    params = {"budget": 6} if "budget" in oracle.SOLVERS[solver].defaults else {}
    if solver == "nogd":
        params["rank"] = 3
    return params


def records(solver, backend, **kw):
    X, y = data()
    return oracle.trace_records(solver, X, y, **two_passes(solver, len(y), 5), params=small(solver), backend=backend,
                                **kw)


@pytest.mark.parametrize("solver", SOLVERS)
def test_both_paths_traces_compare_equal(solver):
    ra, _ = records(solver, "python")
    rb, _ = records(solver, "fast")
    result = oracle.compare_traces(ra, rb)
    assert result.agree, result.report()
    assert result.header_differences == []
    assert result.n_compared == len(ra) - 1
    assert sum(r["record"] == "step" for r in ra) == 100
    assert [r["epoch"] for r in ra if r["record"] == "epoch"] == ([0] if oracle.SOLVERS[solver].one_pass else [0, 1])


def _model_arrays(res):
    return {k: np.asarray(v) for k, v in vars(res).items()
            if k not in ("trace", "state") and isinstance(v, np.ndarray)}


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("solver", SOLVERS)
def test_traced_model_is_bitwise_the_untraced(solver, backend, tmp_path):
    X, y = data()
    visits = two_passes(solver, len(y), 5)
    traced = oracle.export_trace(solver, X, y, path=tmp_path / "t.jsonl", **visits, params=small(solver),
                                 backend=backend)
    plan = oracle.visiting_plan(len(y), **visits, uniforms=oracle.SOLVERS[solver].uniforms)
    plain, _ = oracle.run_solver(solver, X, y, plan, params=small(solver), backend=backend, seed=5)
    for a, b in zip(traced, plain):
        ma, mb = _model_arrays(a), _model_arrays(b)
        assert ma.keys() == mb.keys() and ma
        for k in ma:
            assert ma[k].tobytes() == mb[k].tobytes(), k


def test_header_fingerprints_and_schema(tmp_path):
    X, y = data()
    path = tmp_path / "t.jsonl"
    oracle.export_trace("bsgd", X, y, path=path, epochs=2, seed=7, params={"budget": 6})
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["record"] == "header" and header["schema"] == "refsvm-trace" and header["schema_version"] == oracle.SCHEMA_VERSION == 2
    assert header["solver"] == "bsgd" and header["backend"] == "python" and header["params"]["budget"] == 6
    assert header["data"]["X_sha256"] == hashlib.sha256(X.astype("<f8").tobytes()).hexdigest()
    assert header["data"]["y_sha256"] == hashlib.sha256(y.astype("<f8").tobytes()).hexdigest()
    assert (header["data"]["n_samples"], header["data"]["n_features"]) == X.shape
    rng = np.random.default_rng(7)
    orders = np.concatenate([rng.permutation(len(y)), rng.permutation(len(y))]).astype("<i8")
    assert header["order"]["sha256"] == hashlib.sha256(orders.tobytes()).hexdigest()
    assert "maintenance.h" not in header["not_recorded"] and "step.margin" not in header["not_recorded"]
    kinds = {json.loads(line)["record"] for line in lines[1:]}
    assert kinds == {"step", "maintenance", "epoch"}


def test_records_follow_the_trace_dict():
    X, y = data()
    rec, results = oracle.trace_records("bsgd", X, y, seed=1, params={"budget": 6, "maintenance": "merge"})
    trace = results[0].trace
    order = np.random.default_rng(1).permutation(len(y))
    steps = [r for r in rec if r["record"] == "step"]
    assert [r["index"] for r in steps] == order.tolist()
    assert [r["update"] == "add" for r in steps] == trace["added"].astype(bool).tolist()
    maint = [r for r in rec if r["record"] == "maintenance"]
    assert [r["step"] for r in maint] == trace["maint_step"].tolist()
    assert [r["partner"] for r in maint] == trace["maint_partner"].tolist()   # merging: always a partner
    assert [r["weight_degradation"] for r in maint] == trace["weight_degradation"].tolist()
    # a maintenance record follows the record of its step
    pos = {(r["record"], r["step"], r.get("event", 0)): i for i, r in enumerate(rec) if r["record"] != "header"}
    assert all(pos[("maintenance", r["step"], r["event"])] > pos[("step", r["step"], 0)] for r in maint)


def test_bsca_epoch_objectives_are_the_modules():
    X, y = data()
    rec, results = oracle.trace_records("bsca", X, y, seed=2, params={"budget": 6, "C": 0.5})
    bsca = get_module("bsca", "python")
    epoch = rec[-1]
    res = results[0]
    kw = dict(kernel="rbf", gamma=1.0, degree=3, coef0=0.0)
    assert epoch["objective"] == bsca.primal_objective(X, y, res.sv, res.alpha, C=0.5, **kw)
    assert epoch["dual_objective"] == bsca.dual_objective(X, y, res.dual, **kw)


def test_given_order_and_bad_arguments():
    X, y = data(10)
    rec, _ = oracle.trace_records("perceptron", X, y, order=[[3, 1, 2], [0, 0]])
    assert [r["index"] for r in rec if r["record"] == "step"] == [3, 1, 2, 0, 0]
    with pytest.raises(ValueError, match="solver"):
        oracle.trace_records("svm", X, y)
    with pytest.raises(ValueError, match="params"):
        oracle.trace_records("bsgd", X, y, params={"budgt": 3})
    with pytest.raises(ValueError, match="order"):
        oracle.trace_records("bsgd", X, y, order=[[0, 10]])
    with pytest.raises(ValueError, match="epochs"):
        oracle.trace_records("bsgd", X, y, epochs=0)
    with pytest.raises(ValueError, match="y"):
        oracle.trace_records("bsgd", X, np.arange(10) % 3)
