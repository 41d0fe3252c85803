"""refsvm reproduce: Glasmachers & Qaadan's Table 2 under the paper's protocol (20 passes, PHISHING at unit
length), the ADULT seeds whose offset drifts (benchmarks/bench_glasmachers_adult_offset.py), and the gap reasons
of Wang et al.'s Table 3 IJCNN rows that quote wang2012-table3-all: checked against brute force and against the
committed results."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from refsvm.reproduce.gaps import EXPLAINED, gap_reason

from _helpers import benchmark_module

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def test_best_offset_error_is_the_least_error_over_every_threshold():
    """Brute force: every threshold c in the sorted values, between them, and beyond both ends; ties in f must
    not be split (one threshold gives both tied rows the same class)."""
    bench = benchmark_module("bench_glasmachers_adult_offset")
    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 50, 301):
        f = np.round(rng.normal(size=n), 1)                 # many exact ties
        y = np.where(rng.random(n) < 0.4, 1, -1)
        cands = np.concatenate([[-np.inf, np.inf], f, f + 1e-9])
        brute = min(100.0 * np.mean(np.where(f >= c, 1, -1) != y) for c in cands)
        assert bench.best_offset_error(f, y) == pytest.approx(brute, abs=1e-12)


def _load(name):
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text())


def test_table2_rows_of_ijcnn_and_phishing_are_within_the_gap_rule():
    """The committed run at the paper's protocol: no IJCNN or PHISHING row is flagged (one epoch on standardised
    PHISHING rows flagged all 16), WEB's carry the data reason, ADULT's the protocol reason."""
    data = _load("reproduce_glasmachers-lookup-table2")
    assert data["seeds"] == 20 and not data["quick"]
    for r in data["rows"]:
        reason = gap_reason("glasmachers-lookup-table2", r)
        if r["dataset"] in ("IJCNN", "PHISHING"):
            assert reason is None, (r["algorithm"], r["dataset"])
        elif reason is not None:
            assert reason[0] == {"WEB": "data", "ADULT": "protocol"}[r["dataset"]], (r["algorithm"], r["dataset"])


def test_adult_outliers_are_models_with_a_shifted_offset():
    """Every ADULT seed above the threshold was rerun, reproduces the table's error, and its best-offset error is
    within a point of the paper's rows; the ADULT reasons quote that range."""
    data = _load("reproduce_glasmachers-lookup-table2")
    bench = _load("bench_glasmachers_adult_offset")
    above = bench["above"]
    expected = {(r["algorithm"], s["seed"]) for r in data["rows"] if r["dataset"] == "ADULT"
                for s in r["per_seed"] if s["error"] > above}
    assert {(x["row"], x["seed"]) for x in bench["runs"]} == expected and expected
    paper = [r["paper"]["mean"] for r in data["rows"] if r["dataset"] == "ADULT"]
    best = [x["best_offset_error"] for x in bench["runs"]]
    for x in bench["runs"]:
        assert x["error"] == pytest.approx(x["table_error"], abs=1e-9)
    assert min(paper) - 1.0 <= min(best) and max(best) <= max(paper) + 1.0
    assert {x["seed"] for x in bench["runs"]} == {15, 17}                     # the text names the two orders
    errors = [x["error"] for x in bench["runs"]]
    quoted_errors = f"test errors of {min(errors):.0f}-{max(errors):.0f} %"
    quoted = f"{min(best):.2f}-{max(best):.2f}"
    for r in data["rows"]:
        if r["dataset"] == "ADULT":
            reason, text = EXPLAINED[("glasmachers-lookup-table2", r["algorithm"], "ADULT")]
            assert reason == "protocol" and quoted in text and quoted_errors in text


@pytest.mark.parametrize("row", ["BPegasos+remove B=100", "BPegasos+project B=100", "BPegasos+remove B=500"])
def test_wang_table3_ijcnn_reasons_quote_table3_all(row):
    """The IJCNN reasons quote wang2012-table3-all's committed row (Table 4's protocol) and the paper's number;
    an explaining reason quotes a row within the gap rule there, 'unexplained' one still flagged, unless it quotes
    the row's own CV of gamma and C (wang2012-table3-all-own-cv), within the rule where table3-all's is flagged."""
    reason, text = EXPLAINED[("wang2012-table3", row, "IJCNN")]
    rows = {(r["algorithm"], r["dataset"]): r for r in _load("reproduce_wang2012-table3-all")["rows"]}
    r = rows[(row, "IJCNN")]
    m = re.search(r"the row gives ([0-9.]+) where the paper has ([0-9.]+) \(wang2012-table3-all, ", text)
    assert m and m.group(1) == format(r["error_mean"], ".2f") and m.group(2) == f"{r['paper']['mean']:g}"
    if "wang2012-table3-all-own-cv," in text:   # explained by the row's own CV there (test_wang_table3_own_cv.py)
        assert reason == "parameters" and gap_reason("wang2012-table3-all", r) is not None
    else:
        assert (gap_reason("wang2012-table3-all", r) is None) == (reason != "unexplained")


@pytest.mark.parametrize("row, dataset, expected", [("Perceptron", "ADULT", "paper-run"), ("RBP", "IJCNN", "paper-run"),
                                                     ("BOGD", "IJCNN", None)])
def test_qaadan_table2_rows_a_two_seed_run_flagged(row, dataset, expected):
    """The rows the table's earlier 2-seed run flagged (their range missed the paper's single run), at the table's
    20 seeds: the paper's single run lies within the range over seeds ('paper-run', found from the numbers, never
    stated) or the row is within the gap rule."""
    data = _load("reproduce_qaadan2019-table2")
    assert data["seeds"] == 20 and not data["quick"]
    rows = {(r["algorithm"], r["dataset"]): r for r in data["rows"]}
    r = rows[(row, dataset)]
    errors = [s["error"] for s in r["per_seed"]]
    assert len(errors) == 20 and r["paper"]["std"] is None
    reason = gap_reason("qaadan2019-table2", r)
    assert (reason and reason[0]) == expected
    assert ("qaadan2019-table2", row, dataset) not in EXPLAINED


def test_qaadan_table2_ogd_ijcnn_reason_quotes_its_grid():
    """OGD on IJCNN: the chosen step and the two steps whose mean errors bracket the paper's number, as the 20-seed
    rerun measured them."""
    rows = {(r["algorithm"], r["dataset"]): r for r in _load("reproduce_qaadan2019-table2")["rows"]}
    r = rows[("OGD", "IJCNN")]
    reason, text = EXPLAINED[("qaadan2019-table2", "OGD", "IJCNN")]
    grid = {eval(k)["eta"]: v for k, v in r["grid"].items()}
    assert reason == "parameters" and r["chosen"] == {"eta": 2.0}
    assert f"eta = 2: {grid[2.0]:.2f} over 20 seeds" in text
    assert f"eta = 0.2 ({grid[0.2]:.2f}) and eta = 0.02 ({grid[0.02]:.2f})" in text
    assert grid[0.2] < r["paper"]["mean"] < grid[0.02]


@pytest.mark.parametrize("dataset", ["ADULT", "WEB"])
def test_table3_gss_factor_reason_quotes_the_ratio_of_summed_wds(dataset):
    """The GSS factor rows flagged by their mean of per-event factors quote the ratio of the summed WDs, the mean
    over the committed seeds of factor_sum['gss'], and the paper's printed factor."""
    from refsvm.reproduce.tables_lookup import _T3_PAPER

    data = _load("reproduce_glasmachers-lookup-table3")
    r = next(x for x in data["rows"] if x["dataset"] == dataset and x["algorithm"] == "factor GSS B=100")
    reason, text = gap_reason("glasmachers-lookup-table3", r)
    ratio = np.mean([s["factor_sum"]["gss"] for s in r["per_seed"]])
    assert reason == "convention" and len(r["per_seed"]) == data["seeds"] == 5
    assert f"WDs is {ratio:.4f} over the seeds" in text
    assert f"the paper has {_T3_PAPER[(dataset, 100)][4]:g}" in text


def test_table3_saving_reasons_quote_gss_share_of_the_training_time():
    """The savings rows' reason quotes GSS-standard's merging seconds (Figure 3) over its total training seconds
    (Table 3) per data set and budget, as the committed runs measured them (the same seeds, one process)."""
    from refsvm.reproduce.gaps.glasmachers_qaadan import _G3_GSS_SHARE

    fig = _load("reproduce_glasmachers-lookup-figure3")
    tab = _load("reproduce_glasmachers-lookup-table3")
    total = {(r["dataset"], r["algorithm"].rsplit("B=", 1)[1], s["seed"]): s["total_seconds"]["gss"]
             for r in tab["rows"] for s in r["per_seed"]}
    for r in fig["rows"]:
        if r["algorithm"].startswith("GSS-standard B="):
            b = r["algorithm"].rsplit("B=", 1)[1]
            share = 100 * np.mean([s["error"] / total[(r["dataset"], b, s["seed"])] for s in r["per_seed"]])
            assert f"{share:.1f}" == _G3_GSS_SHARE[r["dataset"]][("100", "500").index(b)], (r["dataset"], b)
    for r in tab["rows"]:
        reason = gap_reason("glasmachers-lookup-table3", r)
        if " vs GSS %" in r["algorithm"] and reason is not None:
            assert reason[0] == "protocol" and "% of it at B = 100" in reason[1]


def test_table3_merging_frequency_reason_quotes_the_authors_code():
    """The merging-frequency rows quote the authors' released BSGD beside refsvm on the same splits and settings
    (benchmarks/bench_glasmachers_merge_frequency_peer.json): the quoted numbers are that run's, refsvm's there
    agrees with this table's committed rows, and the authors' code lies within 1 point of refsvm on every data
    set and budget while the paper's number lies more than 2 points away from both."""
    from refsvm.reproduce.gaps.glasmachers_qaadan import _G3_PEER_FREQ
    from refsvm.reproduce.tables_lookup import _T3_PAPER

    bench = _load("bench_glasmachers_merge_frequency_peer")
    assert bench["epochs"] == 20 and "BudgetedSdualSVM" in bench["peer"]
    table = _load("reproduce_glasmachers-lookup-table3")
    seen = set()
    for r in bench["rows"]:
        key = (r["dataset"], r["budget"])
        ours, peer = np.mean(r["ours_total"]), r["peer_total"]
        assert _G3_PEER_FREQ[key] == (f"{ours:.2f}", f"{peer:.2f}", f"{np.mean(r['ours_first']):.2f}",
                                      f"{r['peer_first']:.2f}"), key
        assert abs(ours - peer) < 1.0, key
        row = next((x for x in table["rows"] if x["dataset"] == r["dataset"]
                    and x["algorithm"] == f"merging freq. % B={r['budget']}"), None)
        if row is not None:                      # the timing table's seeds: the same kind of run
            assert abs(row["error_mean"] - ours) < 0.5, key
        if r["budget"] == 100:
            paper = _T3_PAPER[key][2]
            assert abs(paper - ours) > 2 and abs(paper - peer) > 2, key
            reason, text = gap_reason("glasmachers-lookup-table3", row)
            assert reason == "authors-code-agrees" and f"{peer:.2f} % of its steps" in text
        seen.add(key)
    assert {("IJCNN", 100), ("ADULT", 100), ("WEB", 100), ("PHISHING", 100)} <= seen


def test_qaadan_table2_forgetron_ijcnn_is_a_single_run_within_200_orders():
    """Forgetron on IJCNN: the paper's single run lies just below the range of the table's 20 seeds (within 0.1 points
    of its least error) and within the range of qaadan2019-table2-seeds' 200 orders, whose first 20 are the table's
    seed for seed; the reason ('paper-run-seeds') quotes that run's range and count."""
    rows = {(r["algorithm"], r["dataset"]): r for r in _load("reproduce_qaadan2019-table2")["rows"]}
    r = rows[("Forgetron", "IJCNN")]
    errors = [s["error"] for s in r["per_seed"]]
    assert len(errors) == 20 and 0.0 < min(errors) - r["paper"]["mean"] < 0.1
    seeds = _load("reproduce_qaadan2019-table2-seeds")
    assert seeds["seeds"] == 200 and not seeds["quick"]
    for many in seeds["rows"]:
        assert [s["error"] for s in many["per_seed"]][:20] == [s["error"] for s in rows[(many["algorithm"], "IJCNN")]["per_seed"]]
        assert gap_reason("qaadan2019-table2-seeds", many)[0] == "paper-run"
    many = next(m for m in seeds["rows"] if m["algorithm"] == "Forgetron")
    e200 = [s["error"] for s in many["per_seed"]]
    paper = r["paper"]["mean"]
    reason, text = gap_reason("qaadan2019-table2", r)
    assert reason == "paper-run-seeds" and min(e200) <= paper <= max(e200)
    assert f"({min(errors):.2f}-{max(errors):.2f})" in text and f"{min(e200):.2f}-{max(e200):.2f}" in text
    assert f"{sum(e <= paper for e in e200)} of the 200 runs err at most {paper:g}" in text


@pytest.mark.parametrize("companion", ["reproduce_qaadan2019-table2_bsca", "reproduce_qaadan2019-table2_fogd_nogd"])
def test_qaadan_table2_companions_are_the_tables_rows_seed_for_seed(companion):
    """docs/baselines.rst: the rows first run on their own (BSCA beside BSGD, FOGD and NOGD) are the 20-seed table's
    rows seed for seed, with the same chosen step."""
    main = {(r["algorithm"], r["dataset"]): r for r in _load("reproduce_qaadan2019-table2")["rows"]}
    for r in _load(companion)["rows"]:
        m = main[(r["algorithm"], r["dataset"])]
        assert [s["error"] for s in r["per_seed"]] == [s["error"] for s in m["per_seed"]]
        assert r.get("chosen") == m.get("chosen") and len(r["per_seed"]) == 20


def test_qaadan_table2_seeds_quick_run(tmp_path):
    """qaadan2019-table2-seeds --quick on 2 jobs in under 2 minutes: Table 2's IJCNN RBP and Forgetron rows, the
    table's own entries (the same parameters)."""
    from _helpers import quick_reproduce

    from refsvm.reproduce import tables

    rows = quick_reproduce("qaadan2019-table2-seeds", tmp_path)
    assert set(rows) == {("RBP", "IJCNN"), ("Forgetron", "IJCNN")}
    main = {e.label: e for e in tables()["qaadan2019-table2"].entries}
    assert all(e == main[e.label] for e in tables()["qaadan2019-table2-seeds"].entries)
    assert tables()["qaadan2019-table2-seeds"].seeds == 200
