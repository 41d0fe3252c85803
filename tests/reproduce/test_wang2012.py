"""refsvm reproduce: Wang, Crammer & Vucetic (2012) -- Table 4 (multi-class BSGD) end to end in --quick
mode, its printed numbers against the paper's text, rows tuned by another row's cross-validation, and the
known error of the paper's Table 3 printed with the wang2012-table3 artefact."""

import io
import json
import os
import re
import time
from pathlib import Path

import numpy as np
import pytest

from refsvm.cli import main
from refsvm.reproduce import Dataset, Entry, Table, tables
from refsvm.reproduce.driver import load_dataset, plan, plan_cross_validation, render, select
from refsvm.reproduce.report import format_table
from refsvm.reproduce.runners import run_bsgd_multiclass

PAPER = Path(os.environ.get("REFSVM_PAPERS", "/work/shared/papers")) / "bsgd-wang-crammer-vucetic-2012.txt"
T4 = "wang2012-table4"
DATA = ("DNA", "Satimage", "USPS", "Pendigits", "Letter")


def _need_data():
    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set; the reproduction runs need the shared data")


def _paper_table(start, end, n_data):
    """A table read from the paper's text: row name -> [(B=100 values), (B=500 values)] or [(values)]."""
    if not PAPER.is_file():
        pytest.skip(f"{PAPER} not present")
    text = PAPER.read_text()
    block = text[text.index(start):text.index(end)]
    rows, name = {}, None
    for line in block.splitlines():
        values = re.findall(r"(\d+\.\d+)±(\d+\.\d+)", line)
        if len(values) != n_data:
            continue
        head = line.split(values[0][0])[0].strip()
        if head:
            name = re.sub(r"\s+", "", head).replace("Projection++", "Projectron++").replace("LIBSVMAcc:", "LIBSVM")
            rows[name] = []
        rows[name].append(tuple((float(a), float(s)) for a, s in values))
    return rows


DATA5 = ("Shuttle", "Phoneme", "Covertype", "Waveform")
DATA3 = ("Banana", "Gauss", "Adult", "IJCNN", "Checkerboard")


@pytest.mark.parametrize("name, start, end, data", [
    (T4, "Algorithms/Data DNA", "Table 4:", DATA), ("wang2012-table5", "Algorithms/Data Shuttle", "Table 5:", DATA5),
    ("wang2012-table3-all", "Algorithms/Data Banana", "Table 3:", DATA3)])
def test_table_numbers_are_the_papers(name, start, end, data):
    """Every number of the table's ``paper`` dict is the paper's accuracy (100 - error) and sd, read here
    independently from the paper's text; every row of the paper is in the table."""
    parsed = _paper_table(start, end, len(data))
    table = tables()[name]
    expected = {}
    for row, lines in parsed.items():
        labels = [row] if len(lines) == 1 else [f"{row} B=100", f"{row} B=500"]
        for label, values in zip(labels, lines):
            for ds, (acc, sd) in zip(data, values):
                expected[label, ds] = (acc, sd)
    assert set(expected) == set(table.paper)
    for key, (acc, sd) in expected.items():
        err, std, _ = table.paper[key]
        assert 100.0 - err == pytest.approx(acc, abs=1e-9) and std == sd, key
    assert {e.label for e in table.entries} == {k[0] for k in expected}


def test_table4_quick_end_to_end_under_two_minutes(tmp_path, capsys):
    _need_data()
    js = tmp_path / "w4.json"
    start = time.perf_counter()
    assert main(["reproduce", T4, "--quick", "--n-jobs", "2", "--json", str(js)]) == 0
    assert time.perf_counter() - start < 120
    text = capsys.readouterr().out
    assert "QUICK" in text and "5-fold CV of BPegasos+merge B=500" in text
    result = json.loads(js.read_text())
    rows = {(r["algorithm"], r["dataset"]): r for r in result["rows"]}
    table = tables()[T4]
    assert set(rows) == {(e.label, d) for e in table.entries for d in DATA}
    for (alg, ds), r in rows.items():
        assert r["paper"]["mean"] > 0
        if not r["available"]:
            assert r["note"]
            continue
        assert len(r["per_seed"]) == 2 and 0 <= r["error_mean"] <= 100
        budget = r["params"].get("budget")
        tuner = rows[(f"BPegasos+merge B={budget if alg.endswith(f'B={budget}') else 500}", ds)]
        assert r["chosen"] == tuner["chosen"] and r["cv"]["row"] == tuner["algorithm"]
    for ds in DATA:
        assert rows[("Pegasos", ds)]["params"]["budget"] == 300 + 1 and rows[("LIBSVM", ds)]["error_std"] == 0.0
        assert rows[("BMP+merge B=500", ds)]["params"]["learning_rate"] == "perceptron"
        assert rows[("BPegasos+project B=100", ds)]["params"]["maintenance"] == "projection"


def test_multiclass_dataset_keeps_its_labels():
    _need_data()
    d = next(d for d in tables()[T4].datasets if d.label == "Letter")
    X, y, Xt, yt = load_dataset(d, 600, quick=True)
    assert len(np.unique(y)) > 20 and set(np.unique(yt)) <= set(np.unique(y))
    assert abs(X.mean()) < 0.2                                    # standardised on the training split


def test_multiclass_runner_is_budgeted_svc_with_the_tables_conversion():
    """gamma = s / d and lambda = 1 / (n C): the runner's error is the estimator's, fitted here directly."""
    from refsvm import BudgetedSVC

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 300)
    X = rng.normal(size=(300, 5)) + y[:, None]
    res = run_bsgd_multiclass(X[:200], y[:200], X[200:], y[200:], 3, C=2.0, gamma_scale=0.5, budget=20,
                              maintenance="merge")
    est = BudgetedSVC(budget=20, lam=1 / 400, gamma=0.1, maintenance="merge", random_state=3).fit(X[:200], y[:200])
    assert res["error"] == pytest.approx(100 * np.mean(est.predict(X[200:]) != y[200:]))


def _toy_table():
    ds = Dataset("toy", "toy", protocol="split")
    grid = dict(C=(1.0, 2.0))
    return Table(name="toy", title="toy", metric="m", datasets=[ds], entries=[
        Entry("tuner", "x:y", grid=grid, select="cv5"),
        Entry("follower", "x:y", grid=grid, select="cv5", tuned_by="tuner")])


def test_tuned_row_runs_the_tuners_point_and_the_tuner_is_cross_validated_alone(monkeypatch):
    table = _toy_table()
    monkeypatch.setitem(tables(), "toy", table)
    rng = np.random.default_rng(0)
    data = {"toy": (rng.normal(size=(50, 2)), np.sign(rng.normal(size=50)), rng.normal(size=(10, 2)),
                    np.sign(rng.normal(size=10)))}
    sel = select("toy", entries=["follower"])                 # the tuner is not selected ...
    cv_tasks = plan_cross_validation(sel, data)
    assert {t.entry for t in cv_tasks} == {"tuner"} and len(cv_tasks) == 2 * 5   # ... but cross-validated
    # the plan holds the training split once: each task carries its rows' indices, sliced in the worker
    X, y = data["toy"][:2]
    assert all(t.fold and t.args[1] is X and t.args[2] is y for t in cv_tasks)
    for t in cv_tasks[:5]:                                    # the folds of one point partition the rows
        train, fold = t.args[3], t.args[4]
        assert np.array_equal(np.sort(np.concatenate([train, fold])), np.arange(len(y)))
    assert np.array_equal(np.sort(np.concatenate([t.args[4] for t in cv_tasks[:5]])), np.arange(len(y)))
    cv = {("tuner", "toy"): dict(chosen=(("C", 2.0),), errors={}, folds=5, row="tuner")}
    tasks = plan(sel, data, 3, cv)
    assert {t.entry for t in tasks} == {"follower"} and {t.params["C"] for t in tasks} == {2.0}


def test_table3_prints_the_papers_known_error(tmp_path):
    """Wang et al.'s Table 3: BPegasos+project on Checkerboard repeats IJCNN's BPegasos+merge numbers
    (97.27 +- 0.72 / 98.08 +- 0.27); Table 6 gives 99.25 / 99.66.  Checked against the paper's text, and
    printed by a run and by --render of the stored result."""
    if PAPER.is_file():
        text = PAPER.read_text()
        t3 = text[text.index("Algorithms/Data Banana"):text.index("Table 3:")]
        project = re.search(r"BPegasos\+project ([^\n]*)\n([^\n]*)", t3)
        merge = re.search(r"BPegasos\+merge ([^\n]*)\n([^\n]*)", t3)
        checker_project = (project.group(1).split()[4], project.group(2).split()[4])
        ijcnn_merge = (merge.group(1).split()[3], merge.group(2).split()[3])
        assert checker_project == ijcnn_merge == ("97.27±0.72", "98.08±0.27")
        t6 = text[text.index("Table 5:"):text.index("Table 6:")]
        assert re.search(r"BPegasos\+project .*99\.25±0\.06 .*99\.66±0\.10", t6)
    erratum = " ".join(tables()["wang2012-table3"].errata)
    for number in ("97.27 +- 0.72", "98.08 +- 0.27", "99.25", "99.66", "IJCNN", "Table 6"):
        assert number in erratum
    stored = Path(__file__).parents[2] / "benchmarks/results/reproduce_wang2012-table3.json"
    result = json.loads(stored.read_text())
    result.pop("errata", None)                                 # a result stored before the errata existed
    js = tmp_path / "w3.json"
    js.write_text(json.dumps(result))
    if os.environ.get("REFSVM_DATA") is None:
        for row in result["rows"]:
            row.setdefault("minority_share", 0.0)
        js.write_text(json.dumps(result))
    out = io.StringIO()
    render(str(js), out=out)
    assert "known in the paper: Table 3 prints BPegasos+project on Checkerboard" in out.getvalue()
    assert "known in the paper" in format_table(dict(result, errata=["x"]))


def test_table5_quick_end_to_end_and_its_data(tmp_path, capsys):
    """Shuttle and the 10,000-row Covertype from files, Waveform generated (20,000 / 5,000 rows, standardised on
    the training rows, deterministic); Phoneme named as data not available with the file that would enable it."""
    _need_data()
    table = tables()["wang2012-table5"]
    assert "Phoneme: data not available" in table.note and "phoneme.bz2" in table.note
    assert "10,000" in table.title and "Phoneme: data not available" in table.title
    wave = next(d for d in table.datasets if d.label == "Waveform")
    X, y, Xt, yt = load_dataset(wave, 300, quick=False)
    assert X.shape == (20000, 21) and Xt.shape == (5000, 21) and set(np.unique(y)) == {0, 1, 2}
    assert np.allclose(X.mean(0), 0, atol=1e-12) and np.allclose(X.std(0), 1)
    again = load_dataset(wave, 300, quick=False)
    assert np.array_equal(again[0], X) and np.array_equal(again[3], yt)
    js = tmp_path / "w5.json"
    assert main(["reproduce", "wang2012-table5", "--quick", "--n-jobs", "2", "--json", str(js)]) == 0
    rows = {(r["algorithm"], r["dataset"]) for r in json.loads(js.read_text())["rows"]}
    assert rows == {(e.label, d) for e in table.entries for d in ("Shuttle", "Covertype", "Waveform")}


def test_table3_all_quick_end_to_end_every_column_and_row(tmp_path):
    """wang2012-table3-all: the five columns of the paper's Table 3 (Banana from the shared file, Gauss and
    Checkerboard generated), every runnable row run and tuned by BPegasos+merge's CV of its budget (Pegasos and
    LIBSVM: B = 500's), the non-budgeted rows never maintaining, the rest listed with a reason."""
    _need_data()
    table = tables()["wang2012-table3-all"]
    js = tmp_path / "w3all.json"
    start = time.perf_counter()
    assert main(["reproduce", "wang2012-table3-all", "--quick", "--n-jobs", "2", "--json", str(js)]) == 0
    assert time.perf_counter() - start < 120
    rows = {(r["algorithm"], r["dataset"]): r for r in json.loads(js.read_text())["rows"]}
    assert set(rows) == {(e.label, d) for e in table.entries for d in DATA3}
    run = {"Pegasos", "LIBSVM"} | {f"{r} B={B}" for r in ("BPegasos+remove", "BPegasos+project",
                                                                  "BPegasos+merge", "BMP+merge") for B in (100, 500)}
    for (alg, ds), r in rows.items():
        assert r["available"] == (alg in run), (alg, ds)
        if not r["available"]:
            assert r["note"]
            continue
        tuner = "BPegasos+merge B=500" if alg in ("Pegasos", "LIBSVM") else f"BPegasos+merge B={r['params']['budget']}"
        assert r["chosen"] == rows[(tuner, ds)]["chosen"]
    for ds in DATA3:
        assert rows[("Pegasos", ds)]["params"]["budget"] == 300 + 1       # above the (quick) training rows
        assert rows[("LIBSVM", ds)]["error_std"] == 0.0                     # a deterministic solver


def test_svc_runner_is_scikit_learns_svc_with_the_tables_gamma():
    from sklearn.svm import SVC

    from refsvm.reproduce.runners import run_svc

    rng = np.random.default_rng(1)
    y = np.sign(rng.normal(size=240))
    X = rng.normal(size=(240, 4)) + 0.8 * y[:, None]
    res = run_svc(X[:180], y[:180], X[180:], y[180:], 7, C=2.0, gamma_scale=0.5)
    pred = SVC(C=2.0, gamma=0.125).fit(X[:180], y[:180]).predict(X[180:])
    assert res["error"] == pytest.approx(100 * np.mean(pred != y[180:]))
    assert run_svc(X[:180], y[:180], X[180:], y[180:], 8, C=2.0, gamma_scale=0.5)["error"] == res["error"]


def test_table3_all_checkerboard_reason_data_holds_in_the_committed_runs():
    """The reason 'data' of wang2012-table3-all's Checkerboard rows: the same learner on the longer stream of
    wang2012-table6 (1M rows, gamma 128 on the unit square) errs less than on the table's 20,000 rows, as the
    reason says; both read from the committed runs."""
    from refsvm.reproduce.gaps import EXPLAINED

    results = Path(__file__).parents[2] / "benchmarks" / "results"
    t3 = {(r["algorithm"], r["dataset"]): r for r in json.loads((results / "reproduce_wang2012-table3-all.json")
                                                                .read_text())["rows"]}
    t6 = {r["algorithm"]: r for r in json.loads((results / "reproduce_wang2012-table6.json").read_text())["rows"]}
    for row in ("BPegasos+merge B=100", "BPegasos+merge B=500"):
        assert EXPLAINED[("wang2012-table3-all", row, "Checkerboard")][0] == "data"
        assert t6[row]["error_mean"] < t3[(row, "Checkerboard")]["error_mean"]
