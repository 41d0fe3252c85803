"""refsvm reproduce: Wang, Crammer & Vucetic (2012) Table 6 and Figure 6 on Checkerboard streams (and Figure 2, accuracy against the budget) -- E-bar and the
split pass against the plain-Python reference run as one call, the log-log and budget fits against known
power laws, the paper's printed Table 6 against its text, and a --quick run of each registered name."""

import os
import re
from pathlib import Path

import numpy as np
import pytest

from refsvm.bsgd import bsgd as reference_bsgd
from refsvm.io.datasets import checkerboard
from refsvm.reproduce import driver
from refsvm.reproduce.report import format_table
from refsvm.reproduce.wang_stream import (budget_exponents, checkpointed_pass, loglog_slope, recomputation_cost,
                                         run_stream, without_recomputations)

PAPER = Path(os.environ.get("REFSVM_PAPERS", "/work/shared/papers")) / "bsgd-wang-crammer-vucetic-2012.txt"


def _board(n=900, seed=0):
    X, y = checkerboard(n + 300, random_state=seed)
    return X[:n], y[:n], X[n:], y[n:]


@pytest.mark.parametrize("maintenance", ["removal", "merge"])
def test_ebar_and_split_pass_equal_one_reference_call(maintenance):
    """E-bar = (1/N) sum ||Delta_t|| / eta_t with eta_t = 1/(lam t), from the reference's own event table (one
    call over the whole order), and the final model of the pass split at checkpoints equals that call's."""
    X, y, Xt, yt = _board()
    lam, gamma, B = 1e-3, 128.0, 12
    out = run_stream(X, y, Xt, yt, 3, lam=lam, gamma=gamma, budget=B, maintenance=maintenance,
                     checkpoints=(100, 250, 600))
    order = np.random.default_rng(3).permutation(len(y)).astype(np.int64)
    ref = reference_bsgd(X, y, order, n_classes=2, budget=B, lam=lam, learning_rate="pegasos", eta=1.0,
                         radius=np.inf, maintenance=maintenance, kernel="rbf", gamma=gamma, degree=3, coef0=0.0,
                         merge_eps=0.01, projection_ridge=1e-10, fit_bias=False)
    steps = np.asarray(ref.trace["maint_step"]) + 1                      # t of each event (steps count from 1)
    ebar = np.sum(np.sqrt(ref.trace["weight_degradation"]) * lam * steps) / len(y)
    assert len(steps) > 50                                                # maintenance ran often
    assert out["extra"]["E-bar"] == pytest.approx(ebar, rel=1e-6)
    if maintenance == "removal":                                          # ||E_t|| = 1 per event (docs/bsgd.rst)
        assert out["extra"]["E-bar"] == pytest.approx(len(steps) / len(y), rel=1e-9)
    assert [s[0] for s in out["stream"]] == [100, 250, 600, len(y)]
    f = np.exp(-gamma * ((Xt[:, None, :] - ref.sv[None]) ** 2).sum(-1)) @ ref.alpha[:, 0]
    assert out["error"] == pytest.approx(100.0 * np.mean(yt * f <= 0))
    assert out["n_stream"] == len(y) and out["n_sv"] == B


@pytest.mark.parametrize("maintenance", ["merge", "projection"])
def test_isolated_overheads_keep_the_pass(maintenance):
    """Figure 6's timing mode (an untimed warm-up call, each call handed only its own rows) runs the same pass:
    the final model and the E-bar sum are bitwise those of the calls over the whole X."""
    X, y, _, _ = _board(1200, seed=4)
    order = np.random.default_rng(5).permutation(len(y)).astype(np.int64)
    runs = [checkpointed_pass(X, y, order, (150, 400, 800), lambda *a: None, isolate_overheads=iso, n_classes=2,
                              budget=15, lam=1e-3, maintenance=maintenance, gamma=64.0) for iso in (False, True)]
    (sv0, a0, _, _, g0, s0), (sv1, a1, _, _, g1, s1) = runs
    assert np.array_equal(sv0, sv1) and np.array_equal(a0, a1) and g0 == g1
    assert [r[0] for r in s0] == [r[0] for r in s1] == [150, 400, 800, 1200]


@pytest.mark.parametrize("maintenance", ["merge", "projection"])
def test_segments_count_what_one_call_over_the_order_does(maintenance):
    """Figure 6's per-segment counts (count_segments): their sums equal one compiled call over the whole order (its
    events and its recomputations of the kept inverse), and for merging the plain-Python reference's events."""
    from refsvm._fast import bsgd as fast

    X, y, Xt, yt = _board(1500, seed=6)
    lam, gamma, B = 1e-3, 64.0, 25
    out = run_stream(X, y, Xt, yt, 2, lam=lam, gamma=gamma, budget=B, maintenance=maintenance,
                     checkpoints=(200, 500, 1000), count_segments=True)
    seg = out["segments"]
    assert [s["N"] for s in seg] == [200, 500, 1000, 1500] and [s["rows"] for s in seg] == [200, 300, 500, 500]
    assert sum(s["seconds"] for s in seg) == pytest.approx(out["seconds"])
    order = np.random.default_rng(2).permutation(len(y)).astype(np.int64)
    opts = dict(n_classes=2, budget=B, lam=lam, learning_rate="pegasos", eta=1.0, radius=np.inf,
                maintenance=maintenance, kernel="rbf", gamma=gamma, degree=3, coef0=0.0, merge_eps=0.01,
                projection_ridge=1e-10, fit_bias=False)
    one = fast.bsgd(X, y, order, **opts)
    assert sum(s["events"] for s in seg) == len(one.trace["maint_step"]) > 100
    assert sum(s["kinv_refreshes"] for s in seg) == fast._last_stats["kinv_refreshes"]
    assert sum(s["kinv_append_failures"] for s in seg) == fast._last_stats["kinv_append_failures"]
    if maintenance == "merge":
        assert sum(s["events"] for s in seg) == len(reference_bsgd(X, y, order, **opts).trace["maint_step"])
        assert not any(s["kinv_refreshes"] for s in seg) and "recomputation ms" not in out["extra"]
    else:
        assert sum(s["kinv_refreshes"] for s in seg) > 0


def test_recomputation_cost_is_the_least_squares_share_of_the_maintenance_time():
    events, refreshes = np.array([400, 600, 700, 720, 735]), np.array([13, 41, 69, 112, 161])
    seg = [dict(events=e, kinv_refreshes=r, maintenance_seconds=2e-5 * e + 1.5e-3 * r)
           for e, r in zip(events, refreshes)]
    assert recomputation_cost(seg) == pytest.approx(1.5e-3, rel=1e-9)
    assert recomputation_cost([dict(s, kinv_refreshes=0) for s in seg]) is None          # nothing recomputed
    assert recomputation_cost([dict(s, kinv_refreshes=s["events"] // 10 * 2, events=s["events"] // 10 * 10)
                               for s in seg]) is None                                  # counts proportional
    assert recomputation_cost([dict(s, maintenance_seconds=2e-5 * s["events"] - 1e-4 * s["kinv_refreshes"])
                               for s in seg]) is None                                  # a negative share


def test_slope_without_recomputations_takes_out_work_that_grows_along_the_stream():
    """A pass whose per-example time is constant except for recomputations whose rate grows (R ~ N^1.5): the slope of
    the raw times is above 1.1 after 100K, the slope of the times less cost x recomputations is 1."""
    ns = np.array([1e4, 5e4, 1e5, 2e5, 5e5, 1e6])
    done = np.round(0.02 * ns ** 1.5)
    cost = 2e-3
    stream = [[n, 3e-6 * n + cost * r, 0.0] for n, r in zip(ns, done)]
    seg = [dict(kinv_refreshes=r) for r in np.diff(np.concatenate([[0], done]))]
    assert loglog_slope(ns, [s[1] for s in stream]) > 1.1
    adjusted = without_recomputations(stream, seg, cost)
    assert loglog_slope([a[0] for a in adjusted], [a[1] for a in adjusted]) == pytest.approx(1.0, abs=1e-9)


def test_projection_recomputes_the_inverse_more_often_as_the_svs_crowd():
    """The reason Figure 6's projection time grows faster than N early in the stream (DESIGN.md, BSGD projection):
    on the board the bordered update of the kept inverse fails its accuracy check more and more often as new rows
    fall near kept SVs, and each failure recomputes the inverse from scratch (O(B^3)).  B = 50 at gamma = 32 has the
    SV spacing relative to the kernel width of Figure 6's B = 200 at gamma = 128."""
    X, y, Xt, yt = _board(20_000, seed=0)
    out = run_stream(X, y, Xt, yt, 0, lam=1e-4, gamma=32.0, budget=50, maintenance="projection",
                     checkpoints=(2000, 5000, 10_000), count_segments=True)
    rate = [s["kinv_refreshes"] / s["rows"] for s in out["segments"]]
    fails = [s["kinv_append_failures"] / s["rows"] for s in out["segments"]]
    assert rate[-1] > 2 * rate[0] and fails[-1] > 5 * fails[0] and fails[-1] > 0.5 * rate[-1]
    # the recomputations' cost is estimated from measured seconds (recomputation_cost): a timing, which a test
    # on a loaded CI machine must not assert (it failed there once, the fit's cost coming out <= 0); the
    # estimator itself is tested above on constructed segments, and Figure 6's run reports it


def test_the_kept_factor_makes_the_same_events_without_recomputations():
    """Figure 6's rows "(kept factor)": on the crowding setting above, the pass with the kept Cholesky factor
    (checkpointed_pass(kept="factor")) makes the same maintenance events at the same steps as the kept inverse's
    and the plain-Python reference's, recomputes nothing, ends with the same test error, and leaves the compiled
    path's default (the kept inverse) set after it."""
    from refsvm._fast import bsgd as fast

    X, y, Xt, yt = _board(6000, seed=0)
    kw = dict(lam=1e-4, gamma=32.0, budget=50, maintenance="projection", checkpoints=(2000, 4000),
              count_segments=True)
    inverse = run_stream(X, y, Xt, yt, 0, **kw)
    factor = run_stream(X, y, Xt, yt, 0, kept="factor", **kw)
    assert fast._projection_options()[2] == "inverse"
    assert sum(s["kinv_refreshes"] for s in inverse["segments"]) > 0
    assert not any(s["kinv_refreshes"] or s["kinv_append_failures"] for s in factor["segments"])
    assert [s["events"] for s in factor["segments"]] == [s["events"] for s in inverse["segments"]]
    assert factor["error"] == inverse["error"] and factor["extra"]["E-bar"] == pytest.approx(inverse["extra"]["E-bar"])
    order = np.random.default_rng(0).permutation(len(y)).astype(np.int64)
    opts = dict(n_classes=2, budget=50, lam=1e-4, learning_rate="pegasos", eta=1.0, radius=np.inf,
                maintenance="projection", kernel="rbf", gamma=32.0, degree=3, coef0=0.0, merge_eps=0.01,
                projection_ridge=1e-10, fit_bias=False)
    ref = reference_bsgd(X, y, order, **opts)
    previous = fast._projection_options(kept="factor")
    try:
        one = fast.bsgd(X, y, order, **opts)
    finally:
        fast._projection_options(*previous)
    np.testing.assert_array_equal(one.trace["maint_step"], ref.trace["maint_step"])
    np.testing.assert_array_equal(one.trace["maint_index"], ref.trace["maint_index"])


def test_max_rows_takes_the_first_rows():
    X, y, Xt, yt = _board(400)
    out = run_stream(X, y, Xt, yt, 0, lam=1e-3, gamma=128.0, budget=10, maintenance="merge", max_rows=150)
    assert out["n_stream"] == 150 and out["stream"][-1][0] == 150


def test_loglog_slope_recovers_a_power_law_after_100k():
    ns = np.array([1e4, 3e4, 1e5, 3e5, 1e6, 3e6])
    sec = np.where(ns < 1e5, 50.0, 2e-6 * ns ** 1.07)                   # a flat start that the fit must ignore
    assert loglog_slope(ns, sec) == pytest.approx(1.07, abs=1e-9)
    assert loglog_slope([1e4, 1e5], [1.0, 2.0]) is None                 # one point from 100K on


def test_budget_exponents_fit_time_per_example_against_b():
    def row(m, B, per):
        return dict(available=True, params=dict(maintenance=m, budget=B),
                    per_seed=[dict(seconds=per * 1000, n_stream=1000)])
    rows = [row("merge", B, 3e-8 * B) for B in (50, 100, 500)] + [row("projection", B, 1e-9 * B ** 2)
                                                                   for B in (25, 50, 100)]
    rows += [dict(row("projection", B, 1e-8 * B ** 1.5), params=dict(maintenance="projection", budget=B,
                                                                         kept="factor")) for B in (25, 100, 500)]
    fits = budget_exponents(dict(rows=rows))
    assert fits["merge"][0] == pytest.approx(1.0) and fits["merge"][1] == [50, 100, 500]
    assert fits["projection"][0] == pytest.approx(2.0) and fits["projection"][1] == [25, 50, 100]
    assert fits["projection (kept factor)"] == (pytest.approx(1.5), [25, 100, 500])


def test_table6_paper_values_are_the_papers_text():
    if not PAPER.exists():
        pytest.skip("the paper's text is not available")
    from refsvm.reproduce.tables_wang import TABLE6_PAPER_ACC, TABLE6_PAPER_EBAR  # not at collection: importing the
    # submodule refsvm.reproduce.tables first would rebind the package's name ``tables`` (the registry function)

    text = PAPER.read_text()
    block = text[text.index("BPegasos+remove 1.402"):text.index("Table 6: Comparison")]
    for label in ("remove", "project", "merge"):
        line = next(ln for ln in block.splitlines() if ln.startswith(f"BPegasos+{label} "))
        nums = [float(v) for v in re.findall(r"\d+\.\d+", line)]        # E, sd, acc, sd at B=100, then B=500
        for j, B in enumerate((100, 500)):
            key = f"BPegasos+{label} B={B}"
            assert TABLE6_PAPER_EBAR[key] == tuple(nums[4 * j:4 * j + 2])
            assert TABLE6_PAPER_ACC[key] == tuple(nums[4 * j + 2:4 * j + 4])


@pytest.mark.parametrize("name", ["wang2012-table6", "wang2012-table6-10m", "wang2012-table6-10m-factor",
                                  "wang2012-figure6"])   # figure5:
# test_wang_evolution.py
def test_quick_run_prints_ebar_and_draws(name, tmp_path):
    pytest.importorskip("matplotlib")
    result = driver.run_table(name, quick=True, seeds=1)
    rows = [r for r in result["rows"] if r["available"]]
    assert len(rows) == sum(e.runner is not None for e in driver.tables()[name].entries)
    assert all(0.0 <= r["error_mean"] <= 100.0 and "E-bar" in r["per_seed"][0]["extra"] for r in rows)
    assert "E-bar = " in format_table(result)
    if name == "wang2012-figure6":                                      # the counts along the stream
        assert "along the stream" in format_table(result) and all("segments" in r["per_seed"][0] for r in rows)
    png = tmp_path / "f.png"
    driver.emit(result, out=open(os.devnull, "w"), png_path=str(png), plot=driver.tables()[name].plot)
    assert png.stat().st_size > 1000


def test_figure2_rows_share_the_tuned_gamma_and_the_unbudgeted_row_never_maintains():
    """Every row of a panel runs the gamma scale of that panel; 'Pegasos (no budget)' has a budget above the
    training rows, so it equals BPegasos+merge at any budget that is never reached (checked on a quick run)."""
    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set")
    result = driver.run_table("wang2012-figure2", quick=True, seeds=1)
    rows = {(r["algorithm"], r["dataset"]): r for r in result["rows"]}
    assert {r["params"]["gamma_scale"] for r in result["rows"] if r["dataset"] == "Letter"} == {4.0}
    assert {r["params"]["gamma_scale"] for r in result["rows"] if r["dataset"] == "Covertype"} == {16.0}
    for ds in ("Letter", "Covertype"):
        assert rows[("Pegasos (no budget)", ds)]["params"]["budget"] > rows[("Pegasos (no budget)", ds)]["n"]
        assert rows[("Pegasos (no budget)", ds)]["error_mean"] == rows[("BPegasos+merge B=2000", ds)]["error_mean"]


def test_figure3_runs_one_and_five_passes_at_the_tuned_gamma():
    from refsvm.reproduce.driver import plan, select

    sel = select("wang2012-figure3", datasets=["Letter"])
    data = {"Letter": (np.zeros((40, 16)), np.zeros(40, dtype=np.int64), None, None)}
    tasks = plan(sel, data, 1, {})
    assert sorted(t.params["epochs"] for t in tasks) == [1, 5]
    assert {t.params["gamma_scale"] for t in tasks} == {4.0} and {t.params["budget"] for t in tasks} == {500}


def test_figure7_runner_keeps_b_svs_with_their_classes_and_draws(tmp_path):
    pytest.importorskip("matplotlib")
    from refsvm.reproduce.wang_stream import plot_svs, run_budget_svs

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 300)
    X = rng.normal(size=(300, 256)) + 2.0 * y[:, None] * (np.arange(256) % 3 == 0)
    out = run_budget_svs(X[:200], y[:200], X[200:], y[200:], 0, budget=5, maintenance="merge", gamma_scale=1.0)
    assert np.shape(out["svs"]) == (5, 256) and set(out["sv_classes"]) <= {0.0, 1.0, 2.0}
    assert 0.0 <= out["error"] < 50.0                                   # the classes are separable
    result = dict(table="wang2012-figure7", quick=True, rows=[dict(algorithm="merge", available=True,
                                                                   per_seed=[dict(seed=0, **out)])])
    plot_svs(result, tmp_path / "svs.png")
    assert (tmp_path / "svs.png").stat().st_size > 1000


@pytest.mark.parametrize("name, datasets", [("wang2012-figure3", ["DNA"])])
def test_quick_runs_of_the_multiclass_figures_draw(name, datasets, tmp_path):
    """(wang2012-figure7's runner and plot are tested on synthetic data above: parsing usps costs most of its
    quick run)"""
    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set")
    pytest.importorskip("matplotlib")
    result = driver.run_table(name, quick=True, seeds=1, datasets=datasets)
    assert all(r["available"] and 0.0 <= r["error_mean"] <= 100.0 for r in result["rows"])
    png = tmp_path / "f.png"
    driver.emit(result, out=open(os.devnull, "w"), png_path=str(png), plot=driver.tables()[name].plot)
    assert png.stat().st_size > 1000
