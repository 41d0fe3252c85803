"""wang2012-table4-usps-libsvm: Table 4's USPS column on LIBSVM's pixels (refsvm.io.usps), standardised on the
training rows by the runner; the spec changes nothing but the pixels, and the runner hands on what it says."""

import sys
import types

import numpy as np
import pytest

from refsvm.io.usps import libsvm_usps_pixels
from refsvm.reproduce import tables
from refsvm.reproduce.runners_usps import run_on_libsvm_usps


def test_the_table_reads_usps_as_is_and_keeps_the_papers_column():
    t4, t = tables()["wang2012-table4"], tables()["wang2012-table4-usps-libsvm"]
    (ds,) = t.datasets
    base_ds = next(d for d in t4.datasets if d.label == "USPS")
    assert (ds.label, ds.file, ds.protocol, ds.multiclass) == ("USPS", base_ds.file, base_ds.protocol, True)
    assert base_ds.standardize and not ds.standardize            # the runner standardises, after the blur
    assert t.paper == {k: v for k, v in t4.paper.items() if k[1] == "USPS"}


@pytest.mark.parametrize("name, base", [("wang2012-table4-usps-libsvm", "wang2012-table4"),
                                        ("wang2012-table4-mp-usps-libsvm", "wang2012-table4-mp"),
                                        ("wang2012-libsvm-cv-usps-libsvm", "wang2012-libsvm-cv")])
def test_each_row_is_its_base_row_behind_the_wrapper(name, base):
    """Every row refsvm runs of the base table, in order, its runner and parameters handed on to the wrapper, its
    grid and selection unchanged, on the same data set."""
    table, base_table = tables()[name], tables()[base]
    assert table.datasets == tables()["wang2012-table4-usps-libsvm"].datasets
    by = {e.label: e for e in base_table.entries if e.runner is not None}
    assert [e.label for e in table.entries] == list(by)
    for e in table.entries:
        b = by[e.label]
        assert e.runner == "refsvm.reproduce.runners_usps:run_on_libsvm_usps"
        assert e.params == {**b.params, "runner": b.runner, "standardize": True}
        assert (e.grid, e.select, e.tuned_by, e.per_dataset) == (b.grid, b.select, b.tuned_by, b.per_dataset)


def test_the_wrapper_blurs_then_standardises_on_the_training_rows(monkeypatch):
    seen = {}
    fake = types.ModuleType("fake_usps_runner")

    def spy(X, y, X_test, y_test, seed, **params):
        seen.update(X=X, X_test=X_test, y=y, seed=seed, params=params)
        return {"error": 0.0}

    fake.spy = spy
    monkeypatch.setitem(sys.modules, "fake_usps_runner", fake)
    rng = np.random.default_rng(3)
    X, X_test = np.round(rng.uniform(-1, 1, (6, 256)), 3), np.round(rng.uniform(-1, 1, (2, 256)), 3)
    for r in range(4):                                 # background around the top-left corner in every image: its
        X[:, 16 * r:16 * r + 4] = -1.0                 # blurred pixel is -1 in all, a constant column
    out = run_on_libsvm_usps(X, np.arange(6), X_test, np.arange(2), 4, runner="fake_usps_runner:spy",
                             standardize=True, C=2.0)
    assert out == {"error": 0.0} and seen["seed"] == 4 and seen["params"] == {"C": 2.0}
    B, Bt = libsvm_usps_pixels(X), libsvm_usps_pixels(X_test)
    mean, std = B.mean(axis=0), B.std(axis=0)
    assert std[0] == 0.0
    std = np.where(std > 0, std, 1.0)                  # a constant column is only centred
    np.testing.assert_allclose(seen["X"], (B - mean) / std, rtol=0, atol=1e-12)
    np.testing.assert_allclose(seen["X_test"], (Bt - mean) / std, rtol=0, atol=1e-12)
    np.testing.assert_allclose(seen["X"].mean(axis=0), 0.0, atol=1e-9)
    run_on_libsvm_usps(X, np.arange(6), None, None, 0, runner="fake_usps_runner:spy")
    np.testing.assert_array_equal(seen["X"], B)         # standardize=False: the blurred pixels as they are
    assert seen["X_test"] is None


def test_the_removal_ties_bench_reads_the_same_data_as_the_table(monkeypatch):
    """bench_wang_removal_ties --source wang2012-table4-usps-libsvm: its cells see what the table's runner hands on
    (both take runners_usps.libsvm_usps_rows)."""
    import inspect

    from _helpers import benchmark_module
    from refsvm.reproduce.runners_usps import libsvm_usps_rows

    bench = benchmark_module("bench_wang_removal_ties")
    assert "wang2012-table4-usps-libsvm" in bench.SOURCES
    assert "libsvm_usps_rows(X, Xt, standardize=True)" in inspect.getsource(bench.main)
    seen = {}
    fake = types.ModuleType("fake_usps_runner2")
    fake.spy = lambda X, y, X_test, y_test, seed, **params: seen.update(X=X, X_test=X_test) or {}
    monkeypatch.setitem(sys.modules, "fake_usps_runner2", fake)
    rng = np.random.default_rng(5)
    X, Xt = np.round(rng.uniform(-1, 1, (5, 256)), 3), np.round(rng.uniform(-1, 1, (3, 256)), 3)
    run_on_libsvm_usps(X, None, Xt, None, 0, runner="fake_usps_runner2:spy", standardize=True)
    B, Bt = libsvm_usps_rows(X, Xt, standardize=True)
    np.testing.assert_array_equal(B, seen["X"])
    np.testing.assert_array_equal(Bt, seen["X_test"])


def test_reasons_quoting_the_libsvm_pixel_run_quote_its_committed_rows():
    """Every reason that cites wang2012-table4-usps-libsvm quotes a row's committed mean ± sd and the paper's, and
    that row lies within the gap rule there (a 'data' reason: LIBSVM's pixels close the gap)."""
    import json
    import re
    from pathlib import Path

    from refsvm.reproduce.gaps import EXPLAINED, gap_reason

    run = "wang2012-table4-usps-libsvm"
    data = json.loads((Path(__file__).resolve().parents[2] / "benchmarks" / "results" / f"reproduce_{run}.json")
                      .read_text())
    assert data["table"] == run and not data["quick"] and data["seeds"] == 20
    rows = {r["algorithm"]: r for r in data["rows"]}
    cite = re.compile(r"the row gives ([0-9.]+) ± ([0-9.]+) where the paper has ([0-9.]+) ± ([0-9.]+) \("
                      + re.escape(run) + ", ")
    quoting = {k: v for k, v in EXPLAINED.items() if f"({run}, " in v[1]}
    assert {(k[0], k[1]) for k in quoting} >= {("wang2012-table4", r) for r in (
        "BPegasos+project B=500", "BPegasos+merge B=500", "BMP+merge B=500", "Pegasos")}
    for (table, row, ds), (reason, text) in quoting.items():
        assert ds == "USPS" and reason == "data", (table, row)
        (mean, sd, paper, paper_sd), = cite.findall(text)
        r = rows[row]
        assert (mean, sd) == (f"{r['error_mean']:.2f}", f"{r['error_std']:.2f}"), (table, row)
        assert (paper, paper_sd) == (f"{r['paper']['mean']:.2f}", f"{r['paper']['std']:.2f}"), (table, row)
        assert gap_reason(run, r) is None, (table, row)


def test_removal_at_b100_meets_the_paper_with_ties_to_the_newest_on_libsvm_pixels():
    """bench_wang_removal_ties --source wang2012-table4-usps-libsvm: the computed choice is the table's row seed for
    seed, ties broken towards the SV just added bring USPS's B = 100 cell within the gap rule, and the 'ties' reason
    quotes every reading as committed."""
    import json
    from pathlib import Path

    from refsvm.reproduce.gaps import EXPLAINED, GAP_POINTS
    from refsvm.reproduce.gaps.wang import _W4_TIES_LIBSVM_ROWS, _W4_TIES_LIBSVM_SHARE

    results = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
    bench = json.loads((results / "bench_wang_removal_ties_usps_libsvm.json").read_text())
    assert bench["source"] == "wang2012-table4-usps-libsvm"
    (c,) = bench["cells"]
    assert (c["dataset"], c["budget"], len(c["errors"]["computed"])) == ("USPS", 100, 20)
    rows = {r["algorithm"]: r for r in json.loads((results / "reproduce_wang2012-table4-usps-libsvm.json")
                                                  .read_text())["rows"]}
    assert c["gamma_scale"] == rows["BPegasos+remove B=100"]["chosen"]["gamma_scale"]
    assert [s["error"] for s in rows["BPegasos+remove B=100"]["per_seed"]] == pytest.approx(c["errors"]["computed"])
    summary = c["summary"]
    for rule, quoted in _W4_TIES_LIBSVM_ROWS.items():
        m = summary[rule]
        assert quoted in (f"{m['mean']:.2f}", f"{m['mean']:.2f} ± {m['std']:.2f}"), rule
    assert abs(summary["newest"]["mean"] - c["paper"]["mean"]) <= GAP_POINTS
    assert all(abs(summary[r]["mean"] - c["paper"]["mean"]) > GAP_POINTS for r in ("computed", "oldest", "random"))
    shares = [100 * v for v in c["newest_share"]]
    assert _W4_TIES_LIBSVM_SHARE == f"{min(shares):.0f}-{max(shares):.0f}"
    for table in ("wang2012-table4", "wang2012-table4-usps-raw", "wang2012-table4-usps-libsvm", "wang2012-table4-own-cv"):
        reason, text = EXPLAINED[(table, "BPegasos+remove B=100", "USPS")]
        assert reason == "ties" and "bench_wang_removal_ties_usps_libsvm.json" in text and "still flagged" not in text


def test_libsvm_own_cv_on_libsvm_pixels_is_quoted_as_committed():
    """wang2012-libsvm-cv-usps-libsvm: the CV's point, its error and the grid's lowest test error as the reasons quote
    them; within 2 points of the paper's 4.73 (a deterministic row)."""
    import json
    from pathlib import Path

    from refsvm.reproduce.gaps import EXPLAINED, GAP_POINTS
    from refsvm.reproduce.gaps.wang import _LIBSVM_CV_USPS_LIBSVM_ROW

    data = json.loads((Path(__file__).resolve().parents[2] / "benchmarks" / "results"
                       / "reproduce_wang2012-libsvm-cv-usps-libsvm.json").read_text())
    assert data["table"] == "wang2012-libsvm-cv-usps-libsvm" and not data["quick"]
    rows = {r["algorithm"]: r for r in data["rows"]}
    cv, best = rows["LIBSVM"], rows["LIBSVM [best on test]"]
    s, c, ours, bound, paper = _LIBSVM_CV_USPS_LIBSVM_ROW
    assert cv["chosen"] == {"gamma_scale": s, "C": c}
    assert (ours, bound, paper) == (f"{cv['error_mean']:.2f}", f"{best['error_mean']:.2f}", f"{cv['paper']['mean']:.2f}")
    assert abs(cv["error_mean"] - cv["paper"]["mean"]) <= GAP_POINTS
    for table in ("wang2012-table4", "wang2012-libsvm-cv", "wang2012-table4-usps-libsvm", "wang2012-libsvm-cv-usps-libsvm"):
        reason, text = EXPLAINED[(table, "LIBSVM", "USPS")]
        assert reason in ("data", "parameters") and f"the row gives {ours} where the paper has {paper}" in text
