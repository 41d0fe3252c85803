"""refsvm reproduce: the registry, the joblib runs (1 worker == 2 workers), --quick end to end, and
the online mistake rates of Lu et al. (2016), Table 5, on german and spambase."""

import io
import json
import os

import numpy as np
import pytest

from refsvm.cli import main
from refsvm.reproduce import Entry, reproduce, tables


def _need_data():
    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set; the reproduction runs need the shared data")


def test_registry_names_and_placeholders(capsys):
    names = set(tables())
    assert {"lu2016-table5", "qaadan2019-table2", "wang2012-table3", "glasmachers-lookup-table2",
            "cotter2012-figure2", "lu2016-table3"} <= names
    assert main(["reproduce", "--list"]) == 0
    listing = capsys.readouterr().out
    assert "lu2016-table5" in listing and "[not yet available]" in listing
    for name in ("cotter2012-figure2", "lu2016-table3"):
        assert main(["reproduce", name]) == 2
        assert "not yet available" in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"\bname\b"):
        reproduce("no-such-table")
    # every row of Lu et al.'s Table 5 has its solver now (FOGD / NOGD through run_estimator)
    lu = tables()["lu2016-table5"]
    assert [e.label for e in lu.entries if e.runner is None] == []
    assert {e.label for e in lu.entries} >= {"FOGD", "NOGD"}


def test_two_workers_give_the_numbers_of_one(monkeypatch):
    _need_data()
    runs = [reproduce("lu2016-table5", quick=True, n_jobs=n, datasets=["german"], out=io.StringIO())
            for n in (1, 2)]
    for a, b in zip(runs[0]["rows"], runs[1]["rows"]):
        assert a["algorithm"] == b["algorithm"]
        if not a["available"]:
            continue
        assert a["chosen"] == b["chosen"]
        assert a["grid"] == b["grid"]
        assert [s["error"] for s in a["per_seed"]] == [s["error"] for s in b["per_seed"]]
        assert a["error_mean"] == b["error_mean"]


def test_one_line_registration(monkeypatch):
    """A new row joins a table with one Entry; its runner gets data-set and entry parameters."""
    _need_data()
    table = tables()["lu2016-table5"]
    monkeypatch.setattr(table, "entries", list(table.entries))
    table.add(Entry("Kernel OGD eta=0.2", "refsvm.reproduce:run_online", dict(algorithm="ogd", gamma=1 / 128, eta=0.2)))
    table.add(Entry("via estimator", "refsvm.reproduce:run_estimator",
                    dict(estimator="refsvm.OnlineKernelClassifier", algorithm="forgetron", gamma=1 / 128, budget=100)))
    res = reproduce("lu2016-table5", quick=True, datasets=["german"],
                    entries=["Kernel OGD eta=0.2", "OGD", "via estimator", "Forgetron"], out=io.StringIO())
    by = {r["algorithm"]: r for r in res["rows"]}
    # the estimator draws the order and uniforms from default_rng(seed) as run_online does
    assert [s["error"] for s in by["via estimator"]["per_seed"]] == \
        pytest.approx([s["error"] for s in by["Forgetron"]["per_seed"]], rel=1e-12)
    assert by["Kernel OGD eta=0.2"]["available"] and by["Kernel OGD eta=0.2"]["params"]["eta"] == 0.2
    # the same runs as the eta = 0.2 column of OGD's grid (same seeds, same parameters)
    assert by["Kernel OGD eta=0.2"]["error_mean"] == pytest.approx(by["OGD"]["grid"][str({"eta": 0.2})])


def test_quick_cli_end_to_end(tmp_path, capsys):
    _need_data()
    js, png = tmp_path / "out.json", tmp_path / "out.png"
    try:
        import matplotlib  # noqa: F401  (optional: the "plot" extra)
        plot = ["--png", str(png)]
    except ImportError:
        plot = []
    assert main(["reproduce", "lu2016-table5", "--quick", "--n-jobs", "2", "--json", str(js)] + plot) == 0
    text = capsys.readouterr().out
    assert "QUICK" in text and "spambase" in text
    result = json.loads(js.read_text())
    assert result["quick"] and result["seeds"] == 2
    assert {r["dataset"] for r in result["rows"]} == {"german", "spambase", "w8a", "a9a", "ijcnn1"}
    available = [r for r in result["rows"] if r["available"]]
    assert len(available) == 5 * 10
    assert all(r["n"] <= 600 and 0 <= r["error_mean"] <= 100 and len(r["per_seed"]) == 2 for r in available)
    if plot:
        assert png.stat().st_size > 10_000


# ----------------------------------------------------------------------------- Lu et al. Table 5 rates

LEARNERS = ["Perceptron", "OGD", "RBP", "Forgetron", "Projectron", "Projectron++", "BPA-S", "BOGD"]
#: (learner, data set) pairs measured outside the 2-point band (strict xfail: a fix turns them into failures)
MISSES = {
    ("RBP", "spambase"): "measured 36.24 +- 0.68 % over 20 permutations vs 33.3 +- 0.4 % in Table 5 "
                         "(all spambase rates run 0.2-2.9 points above the paper's; the paper's copy of "
                         "spambase is not the shared file)",
}


@pytest.fixture(scope="module")
def lu_small():
    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set; the reproduction runs need the shared data")
    res = reproduce("lu2016-table5", datasets=["german", "spambase"], entries=LEARNERS, n_jobs=2,
                    out=io.StringIO())
    return {(r["algorithm"], r["dataset"]): r for r in res["rows"]}


@pytest.mark.parametrize("dataset", ["german", "spambase"])
@pytest.mark.parametrize("learner", LEARNERS)
def test_lu2016_table5_mistake_rates_within_two_points(lu_small, learner, dataset, request):
    """B = 100, sigma = 8 (gamma = 1/128), mean over 20 permutations, eta from the paper's grid."""
    if (learner, dataset) in MISSES:
        request.applymarker(pytest.mark.xfail(strict=True, reason=MISSES[(learner, dataset)]))
    row = lu_small[(learner, dataset)]
    assert len(row["per_seed"]) == 20
    assert np.isclose(row["error_mean"], np.mean([s["error"] for s in row["per_seed"]]))
    assert abs(row["error_mean"] - row["paper"]["mean"]) <= 2.0, (row["error_mean"], row["paper"])
