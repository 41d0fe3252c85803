"""refsvm reproduce: Wang, Crammer & Vucetic (2012) Table 3's BPA rows (``wang2012-table3-bpa``, companion of
``wang2012-table3-all``): the paper's numbers, the protocol (BPA-NN through the estimator, gamma and C by a CV of each
row), the base table's pointer to it, a --quick run end to end, and the committed run."""

import pytest
from _helpers import committed_result, quick_reproduce

from refsvm.reproduce import tables
from refsvm.reproduce.seed_policy import MIN_SEEDS

NAME, BASE = "wang2012-table3-bpa", "wang2012-table3-all"
ROWS = ("BPA B=100", "BPA B=500")


def test_paper_numbers_are_the_base_tables_bpa_rows():
    table, base = tables()[NAME], tables()[BASE]
    assert set(table.paper) == {k for k in base.paper if k[0] in ROWS} and {k[0] for k in table.paper} == set(ROWS)
    for key, value in table.paper.items():
        assert value == base.paper[key], key


def test_spot_checks_from_the_papers_text():
    """Cells typed from the paper's Table 3 (accuracy % +- sd; the B = 100 line above the B = 500 line)."""
    paper = tables()[NAME].paper
    assert 100.0 - paper[("BPA B=100", "Adult")][0] == pytest.approx(83.38)
    assert paper[("BPA B=100", "Adult")][1] == pytest.approx(0.56)
    assert 100.0 - paper[("BPA B=500", "IJCNN")][0] == pytest.approx(96.20)
    assert 100.0 - paper[("BPA B=500", "Banana")][0] == pytest.approx(91.30)
    assert 100.0 - paper[("BPA B=100", "Checkerboard")][0] == pytest.approx(99.01)


def test_protocol_is_bpann_with_a_cv_of_each_rows_own():
    """The base table's data sets (one definition); every row BPA-NN at its budget with its own 5-fold CV over the base
    table's gamma grid and three values of C; the policy's 20 seeds."""
    table, base = tables()[NAME], tables()[BASE]
    assert table.datasets is base.datasets and table.seeds == MIN_SEEDS
    base_grid = next(e.grid for e in base.entries if e.label == "BPegasos+merge B=100")
    assert [e.label for e in table.entries] == list(ROWS)
    for e in table.entries:
        assert e.runner == "refsvm.reproduce.runners:run_online_scaled"
        assert e.params == dict(algorithm="bpann", budget=int(e.label.split("B=")[1]))
        assert e.select == "cv5" and e.tuned_by is None and not e.per_dataset
        assert e.grid["gamma_scale"] == base_grid["gamma_scale"] and e.grid["C"] == (0.1, 1.0, 10.0)


def test_base_table_names_the_companion():
    base = tables()[BASE]
    notes = {e.label: e.note for e in base.entries if e.runner is None}
    assert "wang2012-table3-bpa" in notes["BPA B=100"] and "refsvm.online.bpann" in notes["BPA B=100"]
    assert notes["BPA B=500"] == "as B=100"


def test_runner_is_the_estimator_at_gamma_scale_over_d():
    """run_online_scaled: OnlineKernelClassifier at gamma = s/d, the labels as the estimator maps them (0/1 here)."""
    import numpy as np

    from refsvm import OnlineKernelClassifier
    from refsvm.reproduce.runners import run_online_scaled

    rng = np.random.default_rng(3)
    X = rng.normal(size=(240, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    out = run_online_scaled(X[:200], y[:200], X[200:], y[200:], 5, gamma_scale=2.0, algorithm="bpann", budget=20,
                            C=1.0)
    est = OnlineKernelClassifier(algorithm="bpann", budget=20, C=1.0, gamma=0.5, random_state=5).fit(X[:200], y[:200])
    assert out["error"] == pytest.approx(100.0 * np.mean(est.predict(X[200:]) != y[200:]))
    assert est.support_vectors_.shape[0] == 20 and 0.0 < out["error"] < 40.0


def test_quick_run_end_to_end(tmp_path, parsed_once):
    rows = quick_reproduce(NAME, tmp_path)
    table = tables()[NAME]
    assert set(rows) == {(r, d.label) for r in ROWS for d in table.datasets}
    for (row, ds), r in rows.items():
        assert r["available"] and r["chosen"]["gamma_scale"] in table.entries[0].grid["gamma_scale"], (row, ds)
        assert r["chosen"]["C"] in (0.1, 1.0, 10.0) and r["cv"]["row"] == row
        assert r["paper"]["mean"] == pytest.approx(table.paper[(row, ds)][0])


def _committed(name):
    data = committed_result(f"reproduce_{name}")
    return data, {(r["algorithm"], r["dataset"]): r for r in data["rows"]}


def test_committed_run_is_the_full_table():
    from refsvm.reproduce.spec import spec_digest

    data, rows = _committed(NAME)
    table = tables()[NAME]
    assert not data["quick"] and data["seeds"] == MIN_SEEDS
    assert data["provenance"]["table_spec"]["sha256"] == spec_digest(table)
    assert set(rows) == {(r, d.label) for r in ROWS for d in table.datasets}
    assert all(len(r["per_seed"]) == MIN_SEEDS for r in rows.values())


def test_stream_table_runs_the_committed_cv_choices():
    """wang2012-table3-bpa-stream's (gamma scale, C) per budget are the 20K table's CV choices on Checkerboard."""
    from refsvm.reproduce.tables_wang_bpa import BPA_STREAM_CHOICE

    _, rows = _committed(NAME)
    for B, choice in BPA_STREAM_CHOICE.items():
        assert rows[(f"BPA B={B}", "Checkerboard")]["chosen"] == choice
    stream = tables()["wang2012-table3-bpa-stream"]
    for e in stream.entries:
        B = e.params["budget"]
        assert e.params == dict(algorithm="bpann", budget=B, **BPA_STREAM_CHOICE[B])


def test_gauss_b500_is_within_the_rule_less_the_draws_excess():
    """The Gauss B = 500 row is flagged as it stands and within the gap rule less the test draw's excess over the
    Bayes floor (the reason's claim, with the floor's committed numbers)."""
    from refsvm.reproduce.gaps import gap_reason, is_flagged

    floor = committed_result("bench_bayes_floor")
    gauss = next(e for e in floor["sets"] if e["generator"] == "gauss_mixture")
    _, rows = _committed(NAME)
    r = rows[("BPA B=500", "Gauss")]
    reason, text = gap_reason(NAME, r)
    excess = 100.0 * gauss["minus_population"]
    assert reason == "data" and f"excess of {excess:.2f} points" in text
    assert is_flagged(r, NAME) and not is_flagged(dict(r, error_mean=r["error_mean"] - excess), NAME)


def test_checkerboard_reasons_quote_the_stream():
    """The Checkerboard rows take 'data': the numbers the text quotes are the committed runs' (20K: wang2012-table3-bpa;
    100K to 10M: the stream table), the error falls along the stream, and at 10M, the paper's stream, both rows are
    within the gap rule."""
    from refsvm.reproduce.gaps import gap_reason, is_flagged
    from refsvm.reproduce.gaps.wang_bpa import BPA_STREAM

    stream_name = "wang2012-table3-bpa-stream"
    _, base = _committed(NAME)
    data, stream = _committed(stream_name)
    assert not data["quick"] and data["seeds"] == MIN_SEEDS
    for B, quoted in BPA_STREAM.items():
        row = f"BPA B={B}"
        runs = {"20K": base[(row, "Checkerboard")]}
        runs.update({rows: stream[(row, f"Checkerboard {rows}")] for rows in ("100K", "200K", "1M", "10M")})
        assert {k: f"{r['error_mean']:.2f} ± {r['error_std']:.2f}" for k, r in runs.items()} == quoted
        means = [runs[k]["error_mean"] for k in ("20K", "100K", "200K", "1M", "10M")]
        assert means == sorted(means, reverse=True)
        assert not is_flagged(runs["10M"], stream_name)
        for rows, r in runs.items():
            if rows == "10M":
                continue
            table = NAME if rows == "20K" else stream_name
            reason, text = gap_reason(table, r)
            assert reason == "data" and quoted["10M"] in text and quoted["20K"] in text


def test_stream_quick_run_end_to_end(tmp_path, parsed_once):
    rows = quick_reproduce("wang2012-table3-bpa-stream", tmp_path)
    labels = [d.label for d in tables()["wang2012-table3-bpa-stream"].datasets]
    assert labels == ["Checkerboard 100K", "Checkerboard 200K", "Checkerboard 1M", "Checkerboard 10M"]
    assert set(rows) == {(r, ds) for r in ROWS for ds in labels}
    assert all(r["available"] and r["params"]["algorithm"] == "bpann" for r in rows.values())
