"""refsvm reproduce: Wang, Crammer & Vucetic (2012) Table 4 at B = 500 -- the companion runs behind the gap reasons
of its USPS and Letter rows (wang2012-table4-fine-grid: gamma by a CV grid twice as fine; the LIBSVM rows' own CV is
wang2012-libsvm-cv's, tests/reproduce/test_wang_libsvm_cv.py), their specification against wang2012-table4's, a quick run of each, and
the reasons' claims against the committed results."""

import json
import math
import re
import time
from pathlib import Path

import pytest

from refsvm.cli import main
from refsvm.reproduce.driver import tables
from refsvm.reproduce.gaps import EXPLAINED, gap_reason, is_flagged

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
T4, FINE = "wang2012-table4", "wang2012-table4-fine-grid"
RADIUS, PEGASOS_CV = "wang2012-table4-bmp-radius", "wang2012-table4-pegasos-cv"


def _need_data():
    from refsvm.io.fetch import data_homes

    if not any((Path(h) / "usps.bz2").exists() and (Path(h) / "letter.bz2").exists() for h in data_homes()):
        pytest.skip("usps / letter not in the shared data")


def test_fine_grid_is_table4_but_for_a_grid_twice_as_fine():
    """Rows, data, runner, parameters and paper column of wang2012-table4; the CV grid holds table 4's and steps
    gamma by a factor 2 where table 4 steps by 4; the tuner is cross-validated, the others run at its choice."""
    t = tables()
    t4, fine = t[T4], t[FINE]
    rows4 = {e.label: e for e in t4.entries}
    assert {d.label for d in fine.datasets} == {"USPS", "Letter"}
    assert all(d in t4.datasets for d in fine.datasets)
    for e in fine.entries:
        e4 = rows4[e.label]
        assert e.runner == e4.runner and e.params == e4.params and e.select == "cv5"
        assert set(e4.grid["gamma_scale"]) < set(e.grid["gamma_scale"])
        s = sorted(e.grid["gamma_scale"])
        assert all(math.isclose(b / a, 2.0) for a, b in zip(s, s[1:]))
        assert e.tuned_by == (None if e.label == "BPegasos+merge B=500" else "BPegasos+merge B=500")
        for d in fine.datasets:
            assert fine.paper[(e.label, d.label)] == t4.paper[(e.label, d.label)]
    assert fine.seeds == t4.seeds


def test_quick_runs_under_two_minutes(tmp_path):
    """The companion runs end to end with --quick: every row on every data set, the tuned rows at the tuner's
    point, LIBSVM's and Pegasos' points chosen from their own grids, the radius rows at their fixed C."""
    _need_data()
    start = time.perf_counter()
    for name in (FINE, RADIUS, PEGASOS_CV):
        js = tmp_path / f"{name}.json"
        assert main(["reproduce", name, "--quick", "--n-jobs", "2", "--json", str(js)]) == 0
        result = json.loads(js.read_text())
        rows = {(r["algorithm"], r["dataset"]): r for r in result["rows"]}
        table = tables()[name]
        assert set(rows) == {(e.label, d.label) for e in table.entries for d in table.datasets}
        for (alg, ds), r in rows.items():
            assert 0 <= r["error_mean"] <= 100 and len(r["per_seed"]) == 2
            if name == FINE:
                assert r["chosen"] == rows[("BPegasos+merge B=500", ds)]["chosen"]
                assert r["cv"]["row"] == "BPegasos+merge B=500"
            elif name == PEGASOS_CV:
                assert r["cv"]["row"] == "Pegasos" and r["params"]["budget"] == 301
            else:
                assert r["params"]["C"] == float(alg.rpartition("C=")[2]) and r["params"]["learning_rate"] == "perceptron"
    assert time.perf_counter() - start < 120


def test_bmp_radius_is_table4_bmp_at_other_radii():
    """wang2012-table4's BMP+merge B=500 on Letter (runner, eta, gamma = its CV's 4/d, paper value) at C other than
    table 4's C = 1 (U = sqrt(n C)), one below and one above."""
    t = tables()
    t4, radius = t[T4], t[RADIUS]
    e4 = next(e for e in t4.entries if e.label == "BMP+merge B=500")
    cs = sorted(e.params["C"] for e in radius.entries)
    assert cs[0] < 1.0 < cs[-1] and [d.label for d in radius.datasets] == ["Letter"]
    for e in radius.entries:
        assert e.runner == e4.runner and e.params["gamma_scale"] == 4.0
        assert {k: v for k, v in e.params.items() if k not in ("C", "gamma_scale")} == \
            {k: v for k, v in e4.params.items() if k != "C"}
        assert radius.paper[(e.label, "Letter")] == t4.paper[("BMP+merge B=500", "Letter")]


def _committed(name):
    data = json.loads((RESULTS / f"reproduce_{name}.json").read_text())
    return data, {(r["algorithm"], r["dataset"]): r for r in data["rows"]}


def test_table4_reasons_quoting_the_fine_grid_hold_in_the_committed_runs():
    """Every wang2012-table4 reason resting on the fine grid's choice of gamma: the committed table 4 run chose s = 4
    from its coarse grid and flags the row, the fine grid's CV chose the gamma quoted, the numbers quoted are the
    fine-grid row's, and the row is within the gap rule there exactly when the reason is "parameters" (else it is
    flagged there too: "still flagged")."""
    _, rows4 = _committed(T4)
    fine, rows = _committed(FINE)
    quoting = {k: v for k, v in EXPLAINED.items() if k[0] == T4 and "with a grid twice as fine the same CV" in v[1]}
    assert {(a, d) for _, a, d in quoting} >= {("BPegasos+merge B=500", "USPS"), ("BMP+merge B=500", "USPS")}
    for (_, algorithm, ds), (reason, text) in quoting.items():
        r, r4 = rows[(algorithm, ds)], rows4[(algorithm, ds)]
        assert r4["chosen"]["gamma_scale"] == 4.0 and is_flagged(r4, T4)
        assert f"{r['error_mean']:.2f}" in text and f"{r['paper']['mean']:.2f}" in text
        assert re.search(r"gamma = (\d+)/d", text)[1] == f"{r['chosen']['gamma_scale']:g}" != "4"
        if gap_reason(fine["table"], r) is None:
            # USPS: LIBSVM's pixels close the gap too, and are quoted first (tests/reproduce/test_wang_usps_libsvm.py)
            assert reason == ("data" if ds == "USPS" else "parameters"), (algorithm, ds)
            assert ds != "USPS" or "(wang2012-table4-usps-libsvm, " in text
        else:       # flagged on the fine grid too; Pegasos on USPS: the pixels' scaling (test_wang_table4_usps_raw.py)
            assert is_flagged(r, FINE) and "still flagged" in text
            assert reason == ("data" if (algorithm, ds) == ("Pegasos", "USPS") else "unexplained")


def test_letter_bmp_reason_holds_in_the_committed_runs():
    """Letter's BMP+merge B=500 errs less than the paper's in table 4 (flagged); the fine grid keeps its gamma and
    its error (quoted); at a smaller radius (C = 1/4) the row is within the gap rule of the paper's value, and a
    larger one (C = 4) is table 4's run seed for seed (the ball of radius sqrt(n) never binds on Letter; a 3-seed
    run once made C = 4 look better than table 4's 5 seeds: compared seed for seed now)."""
    _, rows4 = _committed(T4)
    _, rows = _committed(FINE)
    radius, rrows = _committed(RADIUS)
    reason, text = EXPLAINED[(T4, "BMP+merge B=500", "Letter")]
    r4, rf = rows4[("BMP+merge B=500", "Letter")], rows[("BMP+merge B=500", "Letter")]
    assert is_flagged(r4, T4) and r4["error_mean"] < r4["paper"]["mean"]
    assert rf["chosen"] == r4["chosen"] and f"{rf['error_mean']:.2f}" in text
    small, large = rrows[("BMP+merge B=500 C=0.25", "Letter")], rrows[("BMP+merge B=500 C=4", "Letter")]
    assert reason == "parameters" and gap_reason(radius["table"], small) is None
    assert r4["error_mean"] < small["error_mean"]
    assert [s["error"] for s in large["per_seed"]] == [s["error"] for s in r4["per_seed"]]
    assert "never binds" in text and "seed for seed" in text
    for r in (small, large):
        assert f"{r['error_mean']:.2f}" in text and r["paper"] == r4["paper"]
    assert f"{r4['paper']['mean']:.2f}" in text


def test_pegasos_cv_is_table4_pegasos_with_a_grid_of_its_own():
    """wang2012-table4's Pegasos row (runner, parameters: a budget above the rows, paper column) choosing gamma by a
    CV of its own over a grid holding table 4's and wider kernels' and narrower kernels' points."""
    t = tables()
    (e,) = t[PEGASOS_CV].entries
    e4 = next(x for x in t[T4].entries if x.label == "Pegasos")
    assert e.runner == e4.runner and e.params == e4.params and e.select == "cv5" and e.tuned_by is None
    assert set(e4.grid["gamma_scale"]) < set(e.grid["gamma_scale"])
    assert min(e.grid["gamma_scale"]) <= 0.25 and max(e.grid["gamma_scale"]) >= 64
    for d in t[PEGASOS_CV].datasets:
        assert t[PEGASOS_CV].paper[("Pegasos", d.label)] == t[T4].paper[("Pegasos", d.label)]


def test_pegasos_reasons_hold_in_the_committed_runs():
    """Letter: table 4's Pegasos at the shared 4/d is flagged; its own CV chooses the gamma quoted and the row is then
    within the gap rule (numbers quoted).  USPS: its own CV chooses table 4's gamma (quoted), so the row stays
    flagged there; its reason is the pixels' scaling (test_wang_table4_usps_raw.py)."""
    _, rows4 = _committed(T4)
    peg, rows = _committed(PEGASOS_CV)
    reason, text = EXPLAINED[(T4, "Pegasos", "Letter")]
    r4, r = rows4[("Pegasos", "Letter")], rows[("Pegasos", "Letter")]
    assert is_flagged(r4, T4) and reason == "parameters" and gap_reason(peg["table"], r) is None
    assert r["chosen"]["gamma_scale"] != r4["chosen"]["gamma_scale"]
    assert f"gamma = {r['chosen']['gamma_scale']:g}/d" in text
    assert f"{r['error_mean']:.2f}" in text and f"{r['paper']['mean']:.2f}" in text
    reason, text = EXPLAINED[(T4, "Pegasos", "USPS")]
    r4, r = rows4[("Pegasos", "USPS")], rows[("Pegasos", "USPS")]
    assert r["chosen"] == r4["chosen"] and is_flagged(r, PEGASOS_CV) and reason == "data"   # the pixels' scaling
    assert (f"chooses the table's gamma = {r['chosen']['gamma_scale']:g}/d ({PEGASOS_CV}, "
            f"benchmarks/results/reproduce_{PEGASOS_CV}.txt); the shared usps is ESL's") in text
