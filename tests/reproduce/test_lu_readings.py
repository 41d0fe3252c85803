"""refsvm reproduce: the readings of Lu et al. (2016)'s Tables 7 and 9 that explain their gaps: the authors'
released step sizes (lu2016-table7-code-options, lu2016-table9-eta), usps on LIBSVM's pixels, the paper's file
(lu2016-table7-usps-libsvm), and the kernel widths of the shared usps tried before it (lu2016-table7-usps-width,
-usps-row-widths): the specs say what they run, every reason that cites one of these runs quotes the committed
number of a row that lies within the gap rule there, and the --quick runs end to end."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from refsvm.reproduce import tables
from refsvm.reproduce.driver import run_table
from refsvm.reproduce.gaps import EXPLAINED, gap_reason

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
#: companion run -> the table whose gaps it explains
RUNS = {"lu2016-table7-code-options": "lu2016-table7", "lu2016-table7-usps-libsvm": "lu2016-table7",
        "lu2016-table7-fogd-step": "lu2016-table7", "lu2016-table7-readings": "lu2016-table7",
        "lu2016-table9-eta": "lu2016-table9"}


def _cited(run):
    """The reasons of ``RUNS[run]`` citing ``run``: {(row, data set): (reason, text)}."""
    return {(k[1], k[2]): v for k, v in EXPLAINED.items() if k[0] == RUNS[run] and f"({run}, " in v[1]}


def test_the_code_options_table_runs_the_authors_experiment_options():
    t = tables()["lu2016-table7-code-options"]
    by = {e.label: e for e in t.entries}
    assert set(by) == {"OGD", "BOGD", "BOGD [code]", "FOGD", "NOGD"}
    assert all(not e.grid for e in t.entries)                       # one setting, no tuning
    assert by["OGD"].params["eta"] == by["NOGD"].params["eta"] == by["BOGD"].params["eta"] == 0.5
    assert by["FOGD"].params["eta"] == 0.005
    assert by["BOGD [code]"].params["lam"] == 1e-5 and by["BOGD [code]"].params["variant"] == "authors"
    # gamma = inf: the clip at eta * max_coef is never reached (|alpha| <= eta per update, at most n updates)
    assert by["BOGD"].params["eta"] * by["BOGD"].params["max_coef"] > 0.5 * 43_500
    assert by["NOGD"].per_dataset["mnist"] == {"budget": 200, "rank": 40}     # lu2016-table7-mnist200's B
    assert by["NOGD"].per_dataset["shuttle"] == {"budget": 100, "rank": 20}


def test_the_usps_width_table_changes_only_gamma():
    t7, t = tables()["lu2016-table7"], tables()["lu2016-table7-usps-width"]
    assert [d.label for d in t.datasets] == ["usps"]
    for e in t.entries:
        usps = e.per_dataset["usps"]
        if e.label.startswith("Perceptron gamma x"):
            assert usps["gamma"] == pytest.approx(float(e.label.rsplit("x", 1)[1]) / 128)
            continue
        assert usps["gamma"] == pytest.approx(0.65 / 128)
        base = {x.label: x for x in t7.entries}.get(e.label)
        if base is not None:                    # a Table 7 row: everything else as lu2016-table7
            assert e.params == base.params and e.grid == base.grid
            assert {k: v for k, v in usps.items() if k != "gamma"} == base.per_dataset.get("usps", {})


def test_the_table9_eta_table_tunes_only_the_step_of_ogd_and_bogd():
    t9, t = tables()["lu2016-table9"], tables()["lu2016-table9-eta"]
    base = {e.label: e for e in t9.entries}
    assert {e.label for e in t.entries} == {"OGD", "BOGD", "BOGD [code]"}
    for e in t.entries:
        assert e.params == base[e.label].params and base[e.label].params["eta"] == 0.1
        assert 0.1 in e.grid["eta"] and set(e.grid) == {"eta"}


@pytest.mark.parametrize("run", sorted(RUNS))
def test_reasons_citing_a_reading_quote_its_committed_rows(run):
    """Every reason citing ``run`` names the row it quotes (or quotes the same row), that row lies within the
    gap rule in the committed run (still outside it for an 'unexplained' row's evidence, and for the readings a text
    lists after "readings tried before", which its reason does not rest on), and the numbers quoted are the ones
    measured and the paper's."""
    cited = _cited(run)
    assert cited, run
    data = json.loads((RESULTS / f"reproduce_{run}.json").read_text())
    assert data["table"] == run and not data["quick"]
    rows = {(r["algorithm"], r["dataset"]): r for r in data["rows"]}
    fmt = ".5f" if run.startswith("lu2016-table9") else ".2f"
    cite = re.compile(r"the row (?:'([^']+)' )?gives ([0-9.]+) where the paper has ([0-9.]+) \(" + re.escape(run) + ", ")
    for (algorithm, dataset), (reason, text) in cited.items():
        assert reason in ("parameters", "data", "degenerate", "unexplained", "authors-code-agrees")
        resting, _, tried = text.partition("readings tried before")
        quotes = [(q, True) for q in cite.findall(resting)] + [(q, False) for q in cite.findall(tried)]
        assert quotes, (algorithm, dataset)
        for (quoted, ours, paper), rests in quotes:  # every row of this run the text quotes
            r = rows[(quoted or algorithm, dataset)]
            # a reason that explains the gap quotes a row within the rule; "unexplained" quotes one still flagged,
            # and so does a reading tried and ruled out before the explanation was found
            within = gap_reason(run, r) is None
            assert within == (rests and reason != "unexplained"), (algorithm, dataset, r["error_mean"])
            assert ours == format(r["error_mean"], fmt) and paper == f"{r['paper']['mean']:g}", (algorithm, dataset)


def test_usps_width_is_what_moves_the_perceptron():
    """The Perceptron has no parameter to tune: at lu2016-table7's width (x1) it is flagged against the paper's
    10.0, at the fitted 0.65 it is not, and its error falls monotonically with the width factor."""
    data = json.loads((RESULTS / "reproduce_lu2016-table7-usps-width.json").read_text())
    rows = {r["algorithm"]: r for r in data["rows"]}
    assert gap_reason("lu2016-table7-usps-width", rows["Perceptron"]) is None
    assert abs(rows["Perceptron gamma x1"]["error_mean"] - 10.0) > 1.0
    ladder = [rows[f"Perceptron gamma x{f}"]["error_mean"] for f in ("0.5",)] + [rows["Perceptron"]["error_mean"]] \
        + [rows[f"Perceptron gamma x{f}"]["error_mean"] for f in ("0.8", "1")]
    assert ladder == sorted(ladder, reverse=True)


def test_no_one_usps_width_gives_the_perceptron_bpas_and_the_code_forgetron():
    """On the shared (ESL) pixels BPA-S and Forgetron [code] reach the paper's usps numbers at widths (x1.5, x0.8)
    where the Perceptron does not: no width of the shared file stands in for LIBSVM's pixels (a blur, not a
    scaling: refsvm.io.usps), so Table 7's usps rows are explained by the run on LIBSVM's pixels instead."""
    data = json.loads((RESULTS / "reproduce_lu2016-table7-usps-row-widths.json").read_text())
    rows = {r["algorithm"]: r for r in data["rows"]}
    for row, f in (("BPA-S", "1.5"), ("Forgetron [code]", "0.8")):
        assert gap_reason("lu2016-table7-usps-row-widths", rows[f"{row} gamma x{f}"]) is None
        assert gap_reason("lu2016-table7-usps-row-widths", rows[f"Perceptron gamma x{f}"]) is not None
        reason, text = EXPLAINED[("lu2016-table7", row, "usps")]
        assert reason == "data" and "(lu2016-table7-usps-libsvm, " in text


def test_the_usps_libsvm_table_changes_only_the_pixels():
    """lu2016-table7-usps-libsvm: every lu2016-table7 row on usps with the same parameters, grid and usps settings,
    through the runner that blurs the shared pixels into LIBSVM's; beside them the authors' scripts' steps."""
    from refsvm.io.usps import libsvm_usps_pixels
    from refsvm.reproduce import runners_usps

    t7, t = tables()["lu2016-table7"], tables()["lu2016-table7-usps-libsvm"]
    assert [d.label for d in t.datasets] == ["usps"] and t.datasets[0].file == "usps" and not t.datasets[0].params
    by = {e.label: e for e in t.entries}
    for base in t7.entries:
        e = by[base.label]
        assert e.runner == "refsvm.reproduce.runners_usps:run_estimator_libsvm_usps"
        assert e.params == base.params and e.grid == base.grid
        assert e.per_dataset == {"usps": base.per_dataset.get("usps", {})}
    extra = {k: e.params["eta"] for k, e in by.items() if k not in {b.label for b in t7.entries}}
    assert extra == {"OGD eta=0.5": 0.5, "BOGD [code] eta=0.5": 0.5, "FOGD eta=0.005": 0.005, "NOGD eta=0.5": 0.5,
                     "FOGD eta=0.5": 0.5, "FOGD eta=0.001": 0.001}
    # the runner hands the blurred rows on, nothing else changed
    seen = {}

    def spy(X, y, X_test, y_test, seed, **params):
        seen.update(X=X, params=params, seed=seed)
        return {}

    X = np.full((3, 256), -1.0)
    X[1, 100] = 1.0
    original = runners_usps.run_estimator_scaled
    runners_usps.run_estimator_scaled = spy
    try:
        runners_usps.run_estimator_libsvm_usps(X, np.arange(3), None, None, 7, estimator="e", gamma=0.5)
    finally:
        runners_usps.run_estimator_scaled = original
    np.testing.assert_array_equal(seen["X"], libsvm_usps_pixels(X))
    assert seen["params"] == {"estimator": "e", "gamma": 0.5} and seen["seed"] == 7


def test_the_usps_libsvm_tables_own_reasons_quote_its_rows():
    """Its flagged rows take Table 7's reasons elsewhere (the authors' Projectron++ and BOGD, FOGD's step), each
    quoting a row of the same committed run that lies within the gap rule."""
    run = "lu2016-table7-usps-libsvm"
    data = json.loads((RESULTS / f"reproduce_{run}.json").read_text())
    assert data["table"] == run and not data["quick"] and data["seeds"] == 20
    rows = {r["algorithm"]: r for r in data["rows"]}
    flagged = [r for r in data["rows"] if gap_reason(run, r) is not None]
    assert {r["algorithm"] for r in flagged} == {"Projectron++", "BOGD", "FOGD", "FOGD eta=0.005", "FOGD eta=0.001"}
    cite = re.compile(r"the row '([^']+)' gives ([0-9.]+) where the paper has ([0-9.]+) \(" + re.escape(run) + ", ")
    for r in flagged:
        reason, text = gap_reason(run, r)
        assert reason in ("authors-code", "parameters", "protocol"), r["algorithm"]
        for quoted, ours, paper in cite.findall(text):
            assert gap_reason(run, rows[quoted]) is None
            assert ours == f"{rows[quoted]['error_mean']:.2f}" and paper == f"{rows[quoted]['paper']['mean']:g}"
    # the rows with no parameter of their own (the Perceptron) or the authors' settings match the paper
    for row in ("Perceptron", "RBP", "BPA-S", "Forgetron [code]", "Projectron++ [code]", "OGD eta=0.5", "FOGD eta=0.5"):
        assert abs(rows[row]["error_mean"] - rows[row]["paper"]["mean"]) < 0.4, row


@pytest.mark.parametrize("name, datasets, rows", [
    ("lu2016-table7-code-options", ["shuttle"], ["OGD", "BOGD [code]"]),
    ("lu2016-table9-eta", ["cpusmall"], ["BOGD [code]"]),
    ("lu2016-table7-usps-libsvm", ["usps"], ["Perceptron"]),
])
def test_quick_runs(name, datasets, rows):
    # (lu2016-table7-usps-width: parsing usps alone takes ~30 s on a loaded machine; its spec is tested above)
    result = run_table(name, quick=True, seeds=1, datasets=datasets, entries=rows)
    assert {r["algorithm"] for r in result["rows"]} == set(rows)
    assert all(r["error_mean"] is not None for r in result["rows"])


def test_the_readings_table_changes_one_setting_per_row():
    """lu2016-table7-readings: each row is a lu2016-table7 row with one change (the tie rule, the scaling, or
    usps's budget), on usps and shuttle only."""
    t7, t = tables()["lu2016-table7"], tables()["lu2016-table7-readings"]
    base = {e.label: e for e in t7.entries}
    assert [d.label for d in t.datasets] == ["usps", "shuttle"]
    for e in t.entries:
        row, change = e.label.rsplit(" ", 1)
        assert e.params == base[row].params and e.grid == base[row].grid == {}
        for ds in ("usps", "shuttle"):
            extra = {k: v for k, v in e.per_dataset[ds].items() if base[row].per_dataset.get(ds, {}).get(k) != v}
            expected = {"tie=lowest": {"zero_prediction": "positive"},
                        "rescaled": {"minmax": (-1.0, 1.0) if ds == "usps" else (0.0, 1.0)},
                        "B=100": {"budget": 100} if ds == "usps" else {}}[change]
            assert extra == expected, (e.label, ds)


def test_usps_at_b100_errs_far_above_the_paper():
    """Section 7.3.1 read in Table 7's column order (lu2016-table7-mnist200's reading) puts usps in 'the last 6',
    B = 100: there RBP, Forgetron and BPA-S err more than 4 points above the paper's numbers, at the width at which
    the Perceptron errs below the paper's (the shared file's width makes every row err less, lu2016-table7-usps-width),
    where lu2016-table7's B = 200 rows err below or near them."""
    readings = {r["algorithm"]: r for r in json.loads((RESULTS / "reproduce_lu2016-table7-readings.json")
                                                       .read_text())["rows"] if r["dataset"] == "usps"}
    t7 = {r["algorithm"]: r for r in json.loads((RESULTS / "reproduce_lu2016-table7.json").read_text())["rows"]
          if r["dataset"] == "usps"}
    assert t7["Perceptron"]["error_mean"] < t7["Perceptron"]["paper"]["mean"] - 1
    for row in ("RBP", "Forgetron", "BPA-S"):
        b100, b200 = readings[f"{row} B=100"], t7[row]
        assert b100["error_mean"] > b100["paper"]["mean"] + 4 and b200["error_mean"] < b200["paper"]["mean"] + 2.5


def test_table9_eta_bogd_on_abalone_quotes_its_code_row():
    """lu2016-table9-eta's BOGD on abalone (its CV chose eta = 0.5, so it is not table 9's run): the authors-code reason
    quotes the same table's 'BOGD [code]' row as committed, within the gap rule."""
    data = json.loads((RESULTS / "reproduce_lu2016-table9-eta.json").read_text())
    rows = {(r["algorithm"], r["dataset"]): r for r in data["rows"]}
    bogd, code = rows[("BOGD", "abalone")], rows[("BOGD [code]", "abalone")]
    assert bogd["chosen"]["eta"] != 0.1 and gap_reason("lu2016-table9-eta", code) is None
    reason, text = gap_reason("lu2016-table9-eta", bogd)
    assert reason == "authors-code"
    assert f"the row 'BOGD [code]' gives {code['error_mean']:.5f} where the paper has {code['paper']['mean']:g}" in text
