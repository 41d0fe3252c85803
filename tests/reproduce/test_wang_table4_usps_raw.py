"""Wang et al.'s Table 4, its USPS column on the pixels as distributed (wang2012-table4-usps-raw): the quick run, and
the reasons of wang2012-table4's flagged USPS rows against the committed evidence."""

from _helpers import quick_reproduce

from refsvm.reproduce.driver import tables

RAW = "wang2012-table4-usps-raw"


def test_quick_run(tmp_path):
    """--quick on 2 jobs in under 2 minutes: every runnable row of wang2012-table4 with its parameters, on USPS only,
    the features not standardised."""
    rows = quick_reproduce(RAW, tmp_path)
    main = tables()["wang2012-table4"]
    runnable = {e.label: e for e in main.entries if e.runner is not None}
    assert set(rows) == {(label, "USPS") for label in runnable}
    assert tables()[RAW].entries == list(runnable.values())
    assert all(r["chosen"]["gamma_scale"] in (0.25, 1.0, 4.0, 16.0) for r in rows.values())
    (usps,) = tables()[RAW].datasets
    assert usps.file == "usps" and not usps.standardize
    assert [d for d in main.datasets if d.label == "USPS"][0].standardize


def test_bound_quick_run(tmp_path):
    """wang2012-table4-usps-raw-bound --quick: LIBSVM's lowest test error over s in {1, 2, 4, 8} x C in {1, 10, 100}
    on the same pixels, one (deterministic) seed, its point among the grid's."""
    rows = quick_reproduce(RAW + "-bound", tmp_path)
    (r,) = rows.values()
    assert r["chosen"]["gamma_scale"] in (1.0, 2.0, 4.0, 8.0) and r["chosen"]["C"] in (1.0, 10.0, 100.0)
    assert tables()[RAW + "-bound"].seeds == 1 and len(r["grid"]) == 12
    assert tables()[RAW + "-bound"].datasets == tables()[RAW].datasets
