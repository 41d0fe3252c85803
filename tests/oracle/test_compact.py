"""Oracle compact trace form (.npz): for every solver it reads back as exactly the records of the JSON
Lines file, compare-traces reads it, and an altered column is found at its step."""

import json

import numpy as np
import pytest
from _helpers import two_passes

from refsvm import oracle
from refsvm.oracle_files import _json_value, read_compact

SOLVERS = list(oracle.SOLVERS)


def data(n=40, seed=2):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    return X, np.where(X[:, 0] + 0.4 * rng.standard_normal(n) > 0, 1, -1)


def small(solver):
    params = {"budget": 5} if "budget" in oracle.SOLVERS[solver].defaults else {}
    return {**params, "rank": 3} if solver == "nogd" else params


@pytest.mark.parametrize("solver", SOLVERS)
def test_compact_reads_back_as_the_json_lines_records(solver, tmp_path):
    X, y = data()
    kw = dict(two_passes(solver, len(y), 3), params=small(solver), backend="fast")
    oracle.export_trace(solver, X, y, path=tmp_path / "t.npz", **kw)
    oracle.export_trace(solver, X, y, path=tmp_path / "t.jsonl", **kw)
    from_npz, from_json = oracle.read_trace(tmp_path / "t.npz"), oracle.read_trace(tmp_path / "t.jsonl")
    assert from_npz == from_json
    # the JSON Lines writer's lines are the plain encoder's of the records (json.dumps, NaN as a string)
    records, _ = oracle.trace_records(solver, X, y, **kw)
    lines = (tmp_path / "t.jsonl").read_text().splitlines()
    assert lines == [json.dumps(_json_value(r), allow_nan=False) for r in records]
    assert oracle.compare_traces(tmp_path / "t.npz", tmp_path / "t.jsonl").agree


def test_altered_compact_column_found_at_its_step(tmp_path):
    X, y = data()
    oracle.export_trace("bsgd", X, y, path=tmp_path / "a.npz", seed=1, params={"budget": 5})
    header, tables = read_compact(tmp_path / "a.npz")
    assert tables["step"]["margin"].shape == (len(y),) and tables["step"]["index"].dtype == np.int64
    tables["step"]["violated"][17] = ~tables["step"]["violated"][17]
    tables["maintenance"]["weight_degradation"][3] *= 1 + 1e-6
    oracle.write_compact(header, tables, tmp_path / "b.npz")
    result = oracle.compare_traces(tmp_path / "a.npz", tmp_path / "b.npz")
    assert (result.first_discrete.step, result.first_discrete.field) == (17, "violated")
    assert result.first_continuous.step == int(tables["maintenance"]["step"][3])
    assert result.first_continuous.field == "weight_degradation"


def test_not_a_compact_trace(tmp_path):
    np.savez(tmp_path / "x.npz", a=np.zeros(2))
    with pytest.raises(ValueError, match="not a compact refsvm trace"):
        oracle.read_trace(tmp_path / "x.npz")
