"""refsvm reproduce: constant detection judges the predictions the metric counted (online predictions for
an online mistake rate, test predictions for a test error); a quick run is a smoke run (no gap verdicts);
--png without matplotlib fails before the run."""

import sys

import numpy as np
import pytest

from refsvm.cli import main
from refsvm.reproduce import driver
from refsvm.reproduce.driver import choose_point, is_constant, render
from refsvm.reproduce.report import format_table, write_json
from refsvm.reproduce.runners import majority_share, run_online


def _stream(n=600, positive=0.3, seed=0):
    """Two Gaussian blobs, ``positive`` of the rows labelled +1 (the minority)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < positive, 1, -1)
    X = rng.normal(size=(n, 4)) + 1.5 * y[:, None]
    return np.ascontiguousarray(X), y.astype(np.int64)


def test_online_pass_with_varied_predictions_is_not_constant_though_its_last_model_is():
    """BOGD with B = 2 (seed 1): its final model gives one class to every row (constant), but its online
    predictions were varied: 20.5 % mistakes where the constant classifier makes 26.67 % (the minority)."""
    X, y = _stream()
    minority = 100.0 * np.mean(y == 1)
    runs = [run_online(X, y, None, None, 1, algorithm="bogd", budget=2, eta=0.2, lam=1e-6, max_coef=10.0,
                       gamma=gamma) for gamma in (0.5, 2.0)]
    assert all(r["majority_share"] == 1.0 for r in runs)              # the last models are constant ...
    assert abs(np.mean([r["error"] for r in runs]) - minority) > 1.0   # ... the online predictions were not
    assert not is_constant(runs, minority)


def test_online_pass_that_predicted_the_majority_class_is_constant():
    """The constant classifier's own online count: error = minority share exactly (independent of any
    final model), and a near-constant pass (within 1 point, last model constant)."""
    X, y = _stream()
    minority = 100.0 * np.mean(y == 1)
    exact = dict(error=100.0 * np.mean(y != -1), majority_share=0.5, online=True)
    assert exact["error"] == pytest.approx(minority)
    assert is_constant([exact], minority)
    near = dict(error=minority + 0.02, majority_share=1.0, online=True)
    assert is_constant([near], minority)
    # a test error with constant test predictions stays constant (those are what the metric counted)
    assert is_constant([dict(error=minority + 5.0, majority_share=1.0)], minority)


def test_grid_reports_the_learning_eta_not_the_constant_one():
    """Lu et al.'s BOGD [code] on a9a (2 seeds, benchmarks/results): eta = 0.2 makes 28.1 % online mistakes
    with a constant last model, eta = 0.002 is the constant classifier (23.93 %, the minority share).
    Shapes of the runners' results; the choice must be eta = 0.2."""
    minority = 23.93
    runs = {(("eta", 0.2),): [dict(error=e, majority_share=1.0, online=True) for e in (28.09, 28.18)],
            (("eta", 0.02),): [dict(error=e, majority_share=1.0, online=True) for e in (23.95, 23.96)],
            (("eta", 0.002),): [dict(error=minority, majority_share=1.0, online=True)] * 2}
    mean = {p: np.mean([r["error"] for r in v]) for p, v in runs.items()}
    constant = {p: is_constant(v, minority) for p, v in runs.items()}
    assert constant == {(("eta", 0.2),): False, (("eta", 0.02),): True, (("eta", 0.002),): True}
    assert choose_point(mean, constant) == (("eta", 0.2),)


def test_w8a_bogd_code_reason_quotes_the_committed_20_seed_run():
    """Table 5's w8a 'BOGD [code]' reason ('degenerate'): its quoted numbers are the committed run's (20 seeds):
    eta = 0.2 errs 3.44 where the paper has 3.43 and counts as constant (final models constant, within a point
    of the minority share), eta <= 0.02 is the minority share itself, and the chosen eta = 2 errs 4.91."""
    import json
    from pathlib import Path

    from refsvm.reproduce.gaps import EXPLAINED

    path = Path(__file__).parents[2] / "benchmarks" / "results" / "reproduce_lu2016-table5_large.json"
    if not path.exists():
        pytest.skip("benchmarks/ is not part of this tree (installed package)")
    row = next(r for r in json.loads(path.read_text())["rows"]
               if r["dataset"] == "w8a" and r["algorithm"] == "BOGD [code]")
    reason, text = EXPLAINED[("lu2016-table5", "BOGD [code]", "w8a")]
    grid = {k: v for k, v in row["grid"].items()}
    assert reason == "degenerate" and len(row["per_seed"]) == 20 and "20 seeds" in text
    assert f"errs {grid[str({'eta': 0.2})]:.2f} (mean over 20 seeds), the paper's {row['paper']['mean']:.2f}" in text
    assert str({"eta": 0.2}) in row["constant_points"] and row["chosen"] == {"eta": 2.0}
    assert all(abs(grid[str({"eta": e})] - row["minority_share"]) < 0.01 for e in (0.02, 0.002, 0.0002))
    assert f"minority share ({row['minority_share']:.2f})" in text and f"eta = 2 ({row['error_mean']:.2f})" in text


@pytest.mark.parametrize("alg, ds", [("Perceptron", "w8a"), ("OGD", "w8a"), ("OGD", "ijcnn1")])
def test_table5_unbudgeted_reasons_quote_the_committed_20_seed_run(alg, ds):
    """Table 5's unbudgeted rows flagged on the large sets: the reason's mean +- sd and range are the committed
    run's over 20 permutations, the paper's mean lies outside that range, its sd below ours, and the chosen eta
    (OGD) is the grid's largest; what explains them (or not) is tested in test_lu_table5_unbudgeted.py."""
    import json
    from pathlib import Path

    from refsvm.reproduce.gaps import EXPLAINED, gap_reason

    path = Path(__file__).parents[2] / "benchmarks" / "results" / "reproduce_lu2016-table5_large.json"
    if not path.exists():
        pytest.skip("benchmarks/ is not part of this tree (installed package)")
    row = next(r for r in json.loads(path.read_text())["rows"] if r["dataset"] == ds and r["algorithm"] == alg)
    reason, text = EXPLAINED[("lu2016-table5", alg, ds)]
    assert gap_reason("lu2016-table5", row) == (reason, text)
    assert reason == {"Perceptron": "data", "OGD": "unexplained" if ds == "w8a" else "parameters"}[alg]
    assert ("still flagged" in text) == (reason == "unexplained")   # the evidence: test_lu_table5_unbudgeted.py
    assert len(row["per_seed"]) == 20
    assert (f"{row['error_mean']:.2f} ± {row['error_std']:.2f} (range {row['error_min']:.2f}-{row['error_max']:.2f})"
            in text)
    p = row["paper"]
    assert f"the paper's {p['mean']:.2f} ± {p['std']:.2f}" in text
    assert not row["error_min"] <= p["mean"] <= row["error_max"] and p["std"] < row["error_std"]
    if alg == "OGD":
        assert row["chosen"] == {"eta": 2.0} and "eta = 2 is the largest" in text


def _quick_result(tmp_path):
    """A stored quick result of lu2016-table5 with one row far from the paper (no reason recorded for it)."""
    row = dict(algorithm="RBP", dataset="a9a", file="a9a", n=600, available=True, minority_share=24.0,
               paper=dict(mean=27.9, std=0.2, seconds=None, test_seconds=None), params={}, chosen={},
               grid={}, error_mean=40.0, error_std=1.0, error_median=40.0, error_min=39.3, error_max=40.7,
               seconds_mean=0.1, per_seed=[dict(seed=0, error=39.3), dict(seed=1, error=40.7)],
               constant=False, constant_points=[])
    result = dict(table="lu2016-table5", title="t", metric="online mistake rate (%)", quick=True, seeds=2,
                  n_jobs=1, backend="loky", wall_seconds=1.0, machine={}, command=None, note="", rows=[row])
    path = tmp_path / "quick.json"
    write_json(result, path)
    return path


def test_quick_run_is_a_smoke_run_without_gap_verdicts(tmp_path, capsys):
    render(_quick_result(tmp_path))
    text = capsys.readouterr().out
    assert "smoke run" in text
    assert "unexplained" not in text and "gap to the paper" not in text
    # the same row in a full run is judged
    import json
    path = _quick_result(tmp_path)
    result = json.loads(path.read_text())
    result["quick"] = False
    write_json(result, path)
    render(path)
    text = capsys.readouterr().out
    assert "unexplained" in text and "smoke run" not in text


def test_png_without_matplotlib_fails_before_the_run(monkeypatch, tmp_path, capsys):
    ran = []
    monkeypatch.setitem(sys.modules, "matplotlib", None)               # import matplotlib -> ImportError
    monkeypatch.setattr("refsvm.cli.reproduce.run_table", lambda *a, **k: ran.append(1) or {})
    monkeypatch.setattr(driver, "run_table", lambda *a, **k: ran.append(1) or {})
    status = main(["reproduce", "lu2016-table5", "--quick", "--png", str(tmp_path / "x.png")])
    assert status != 0 and not ran
    err = capsys.readouterr().err
    assert "matplotlib" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(RuntimeError, match="matplotlib"):
        driver.reproduce("lu2016-table5", quick=True, png_path=str(tmp_path / "x.png"))
    assert not ran


def test_majority_share_of_constant_predictions():
    assert majority_share(np.ones(10)) == 1.0 and majority_share(np.r_[np.ones(7), -np.ones(3)]) == 0.7
    assert "smoke run" not in format_table(dict(table="t", title="t", metric="m", quick=False, seeds=1, n_jobs=1,
                                                backend="loky", wall_seconds=0.0, machine={}, rows=[]))


def test_table5_large_budgeted_rows_are_the_companion_runs_seed_for_seed():
    """docs/baselines.rst: the 20-permutation run of the whole table on the large sets repeats the budgeted rows'
    and FOGD / NOGD's own 20-permutation runs seed for seed (the same per-seed errors)."""
    import json
    from pathlib import Path

    results = Path(__file__).parents[2] / "benchmarks" / "results"
    if not results.exists():
        pytest.skip("benchmarks/ is not part of this tree (installed package)")
    whole = {(r["algorithm"], r["dataset"]): r
             for r in json.loads((results / "reproduce_lu2016-table5_large.json").read_text())["rows"]}
    n = 0
    for stem in ("reproduce_lu2016-table5_budgeted_large", "reproduce_lu2016-table5_fogd_nogd_large"):
        for r in json.loads((results / f"{stem}.json").read_text())["rows"]:
            assert [s["error"] for s in whole[(r["algorithm"], r["dataset"])]["per_seed"]] == \
                [s["error"] for s in r["per_seed"]], (stem, r["algorithm"], r["dataset"])
            n += 1
    assert n == 36
