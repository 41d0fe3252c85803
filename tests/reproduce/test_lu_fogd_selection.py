"""refsvm reproduce: Table 7's FOGD row and the choice of its step on the permutations it is scored on
(benchmarks/bench_lu_fogd_selection.py): the held-out computation on a case with optimism, and the committed run's
finding that the step chosen on either half of the permutations is the one lu2016-table7 reports."""

import json
from pathlib import Path

import pytest
from _helpers import benchmark_module

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def test_held_out_scores_each_half_with_the_other_halfs_choice():
    bench = benchmark_module("bench_lu_fogd_selection")
    # a wins on the first two permutations, b on the last two: in-sample 1, held out 3
    best, first, second, held, own = bench.held_out({"a": [1, 1, 3, 3], "b": [3, 3, 1, 1], "c": [2, 2, 2, 2]})
    assert (first, second) == ("a", "b") and best in ("a", "b")
    assert held == pytest.approx(3.0) and own == pytest.approx(1.0)


def test_the_committed_run_chooses_table7s_step_on_either_half():
    data = json.loads((RESULTS / "bench_lu_fogd_selection.json").read_text())
    t7 = {r["dataset"]: r for r in json.loads((RESULTS / "reproduce_lu2016-table7.json").read_text())["rows"]
          if r["algorithm"] == "FOGD"}
    assert data["seeds"] == 20 and {c["dataset"] for c in data["cells"]} == set(t7)
    for c in data["cells"]:
        row = t7[c["dataset"]]
        assert c["chosen_all"] == c["chosen_first"] == c["chosen_second"] == f"eta={row['chosen']['eta']:g}"
        assert c["held_out"] == pytest.approx(c["in_sample"])
        chosen = c["errors"][c["chosen_all"]]
        assert sum(chosen) / len(chosen) == pytest.approx(row["error_mean"])       # the table's runs, repeated
