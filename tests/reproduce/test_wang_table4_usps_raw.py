"""Wang et al.'s Table 4, its USPS column on the pixels as distributed (wang2012-table4-usps-raw): the quick run, and
the reasons of wang2012-table4's flagged USPS rows against the committed evidence."""

from _helpers import quick_reproduce

from refsvm.reproduce.driver import tables

RAW = "wang2012-table4-usps-raw"


def test_quick_run(tmp_path):
    """--quick on 2 jobs in under 2 minutes: every runnable row of wang2012-table4 with its parameters, and LIBSVM with a
    CV of its own (wang2012-libsvm-cv's grid), on USPS only, the features not standardised."""
    rows = quick_reproduce(RAW, tmp_path)
    main = tables()["wang2012-table4"]
    runnable = {e.label: e for e in main.entries if e.runner is not None}
    assert set(rows) == {(label, "USPS") for label in runnable} | {("LIBSVM [own CV]", "USPS")}
    assert tables()[RAW].entries[:-1] == list(runnable.values())
    assert all(r["chosen"]["gamma_scale"] in (0.25, 1.0, 4.0, 16.0) for k, r in rows.items() if k[0] != "LIBSVM [own CV]")
    own = rows[("LIBSVM [own CV]", "USPS")]
    assert own["chosen"]["gamma_scale"] in (0.25, 1.0, 4.0, 16.0, 64.0) and own["chosen"]["C"] in (1.0, 10.0, 100.0)
    (usps,) = tables()[RAW].datasets
    assert usps.file == "usps" and not usps.standardize
    assert [d for d in main.datasets if d.label == "USPS"][0].standardize
