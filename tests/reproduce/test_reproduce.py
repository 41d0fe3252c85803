"""refsvm reproduce: the registry, the joblib runs (1 worker == 2 workers), --quick end to end, and
the online mistake rates of Lu et al. (2016), Table 5, on german and spambase."""

import io
import json
import os

import numpy as np
import pytest

from refsvm.cli import main
from refsvm.reproduce import Entry, format_table, reproduce, tables


def _need_data():
    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set; the reproduction runs need the shared data")


def test_registry_names_and_entries(capsys):
    names = set(tables())
    assert {"lu2016-table5", "qaadan2019-table2", "wang2012-table3", "glasmachers-lookup-table2",
            "cotter2012-figure2", "lu2016-table3"} <= names
    assert main(["reproduce", "--list"]) == 0
    listing = capsys.readouterr().out
    assert "lu2016-table5" in listing and "cotter2012-figure2" in listing and "lu2016-table3" in listing
    assert "[not yet available]" not in listing                 # no placeholder table is left
    lines = listing.splitlines()
    assert [line.split("  ")[0] for line in lines] == sorted(names)   # every name, then two spaces, then its title
    assert len({line.index(tables()[line.split()[0]].title) for line in lines}) == 1   # one title column
    assert all(t.available for t in tables().values())
    with pytest.raises(ValueError, match=r"\bname\b"):
        reproduce("no-such-table")
    # every row of Lu et al.'s Table 5 has its solver now (FOGD / NOGD through run_estimator)
    lu = tables()["lu2016-table5"]
    assert [e.label for e in lu.entries if e.runner is None] == []
    assert {e.label for e in lu.entries} >= {"FOGD", "NOGD"}
    # Lu et al.'s Table 3: one entry per row of the paper; LIBSVM / LLSVM are not in refsvm
    lu3 = tables()["lu2016-table3"]
    assert [e.label for e in lu3.entries] == ["LIBSVM", "LLSVM", "BSGD-M", "BSGD-R", "FOGD", "NOGD"]
    assert [e.label for e in lu3.entries if e.runner is None] == ["LIBSVM", "LLSVM"]
    assert {d.label for d in lu3.datasets} == {"a9a", "w8a"}
    assert lu3.paper[("FOGD", "a9a")] == pytest.approx((100 - 84.93, 0.03, 9.35, 4.57))
    # Cotter et al.'s Figure 2: the four solvers of the figure (SMO is not in refsvm)
    cotter = tables()["cotter2012-figure2"]
    assert [e.label for e in cotter.entries] == ["SBP", "Pegasos (no budget)", "Dual CA (no budget)", "Perceptron"]
    assert all(e.runner == "refsvm.reproduce.curves:run_curve" for e in cotter.entries)


def test_unavailable_table_exits_with_code_2(monkeypatch, capsys):
    """The placeholder mechanism (no table uses it now) still answers "not yet available", exit code 2."""
    from refsvm.reproduce import Table

    monkeypatch.setitem(tables(), "placeholder-x", Table(name="placeholder-x", title="t", metric="",
                                                        available=False, note="why"))
    assert main(["reproduce", "placeholder-x"]) == 2
    assert "not yet available" in capsys.readouterr().err
    assert main(["reproduce", "--list"]) == 0
    assert "placeholder-x" in capsys.readouterr().out


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
    assert len(available) == 5 * 14      # ten learners and four '[code]' rows on five data sets
    assert all(r["n"] <= 600 and 0 <= r["error_mean"] <= 100 and len(r["per_seed"]) == 2 for r in available)
    if plot:
        assert png.stat().st_size > 10_000


def test_lu2016_table3_quick_end_to_end(tmp_path, capsys):
    """Batch protocol: train and test seconds beside the paper's; per-data-set gamma; fixed w8a hold-out."""
    _need_data()
    js = tmp_path / "lu3.json"
    assert main(["reproduce", "lu2016-table3", "--quick", "--json", str(js)]) == 0
    text = capsys.readouterr().out
    assert "QUICK" in text and "test s" in text
    result = json.loads(js.read_text())
    assert result["quick"] and result["seeds"] == 2
    rows = {(r["algorithm"], r["dataset"]): r for r in result["rows"]}
    assert set(rows) == {(a, d) for a in ("LIBSVM", "LLSVM", "BSGD-M", "BSGD-R", "FOGD", "NOGD")
                         for d in ("a9a", "w8a")}
    for (alg, ds), r in rows.items():
        assert r["paper"]["test_seconds"] > 0
        if alg in ("LIBSVM", "LLSVM"):
            assert not r["available"]
            continue
        assert r["n"] <= 600 and len(r["per_seed"]) == 2 and 0 <= r["error_mean"] <= 100
        assert r["seconds_mean"] > 0 and r["test_seconds_mean"] > 0
    assert rows[("NOGD", "w8a")]["params"]["rank"] == 200 and rows[("FOGD", "w8a")]["params"]["n_components"] == 4000
    # BSGD's C, FOGD's and NOGD's (gamma, eta) by 5-fold CV on the training split (the paper's protocol): the chosen
    # point has the lowest mean validation error, the reported runs use it, and one point's CV error is recomputed
    # here fold by fold
    from refsvm.reproduce.driver import cv_folds, load_dataset
    from refsvm.reproduce.runners import run_bsgd

    for alg, keys, size in (("BSGD-M", ("C",), 5), ("BSGD-R", ("C",), 5), ("FOGD", ("gamma", "eta"), 20),
                            ("NOGD", ("gamma", "eta"), 20)):
        for ds in ("a9a", "w8a"):
            r = rows[(alg, ds)]
            errors = r["cv"]["errors"]
            assert len(errors) == size and r["cv"]["folds"] == 5
            eligible = [p for p in errors if p not in r["cv"]["constant"]] or list(errors)
            best = min(eligible, key=errors.get)
            assert r["chosen"] == {k: r["params"][k] for k in keys} and best == str(r["chosen"])
    table = tables()["lu2016-table3"]
    X, y, _, _ = load_dataset(next(d for d in table.datasets if d.label == "a9a"), table.quick_rows, True)
    fold_errors = []
    for fold in cv_folds(X.shape[0]):
        train = np.setdiff1d(np.arange(X.shape[0]), fold)
        fold_errors.append(run_bsgd(X[train], y[train], X[fold], y[fold], 0, C=0.125, gamma=2.0 ** -7, budget=1000,
                                    maintenance="merge")["error"])
    assert rows[("BSGD-M", "a9a")]["cv"]["errors"][str({"C": 0.125})] == pytest.approx(np.mean(fold_errors))


def test_lu2016_table3_w8a_holdout_is_the_documented_one():
    """w8a: default_rng(0).permutation(n), first 80% train, last 20% test (as tests/ogd/test_real_data.py)."""
    _need_data()
    from refsvm.datasets import load_libsvm
    from refsvm.reproduce.driver import load_dataset

    ds = next(d for d in tables()["lu2016-table3"].datasets if d.label == "w8a")
    X, y, Xt, yt = load_dataset(ds, 600, quick=False)
    Xa, ya, _, _ = load_libsvm("w8a")
    perm = np.random.default_rng(0).permutation(len(Xa))
    m = int(0.8 * len(Xa))
    assert X.shape[0] == m and Xt.shape[0] == len(Xa) - m == 9950
    np.testing.assert_array_equal(Xt, Xa[perm[m:]])
    np.testing.assert_array_equal(y == 1, ya[perm[:m]] == np.unique(ya)[1])


def test_cotter2012_figure2_quick_end_to_end(tmp_path, capsys):
    """Curves of the four solvers; kernel evaluations counted as the paper counts them."""
    _need_data()
    js, png = tmp_path / "c.json", tmp_path / "c.png"
    try:
        import matplotlib  # noqa: F401
        plot = ["--png", str(png)]
    except ImportError:
        plot = []
    assert main(["reproduce", "cotter2012-figure2", "--quick", "--json", str(js)] + plot) == 0
    assert "QUICK" in capsys.readouterr().out
    result = json.loads(js.read_text())
    from refsvm.reproduce.curves import CHECKPOINTS

    rows = {(r["algorithm"], r["dataset"]): r for r in result["rows"]}
    assert {d for _, d in rows} == {"Adult", "MNIST 8 vs rest"} and len(rows) == 8
    for (alg, ds), r in rows.items():
        assert r["available"] and len(r["per_seed"]) == 2 and r["n"] == 300
        for s in r["per_seed"]:
            curve = np.array(s["curve"])
            assert list(curve[:, 0]) == CHECKPOINTS
            assert np.all(np.diff(curve[:, 1]) >= 0) and np.all((curve[:, 2] >= 0) & (curve[:, 2] <= 100))
            assert s["error"] == curve[-1, 2]
            if alg == "SBP":        # one kernel row of length n per iteration: 10 n iterations -> 10 n^2
                assert curve[-1, 1] == 10 * r["n"] ** 2
        if alg == "SBP":            # nu derived for the rows actually used, the same for every seed
            nus = {s["nu"] for s in r["per_seed"]}
            assert len(nus) == 1 and 0.0 < nus.pop() < 1.0
    if plot:
        assert png.stat().st_size > 10_000


# ----------------------------------------------------------------------------- Lu et al. Table 5 rates

LEARNERS = ["Perceptron", "OGD", "RBP", "Forgetron", "Projectron", "Projectron++", "BPA-S", "BOGD"]
#: (learner, data set) pairs measured outside the 2-point band (strict xfail: a fix turns them into failures)
MISSES = {}
# BOGD on german was one (35.34 % at eta = 0.2 vs 31.6 +- 1.5) while a grid point was called constant when
# its final model was: eta = 0.02 has varied online predictions (31.14 %, 1.1 points above german's minority
# share) and is chosen since constancy is judged on the predictions the mistake rate counted.


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


def test_lu2016_table5_authors_readings_on_a9a(require_data):
    """The rows the audit found off by more than 2 points, run as the authors' code runs them (variant='authors',
    sign(0) = +1, the table's parameters): BOGD at eta = 0.2, Projectron++ and the Forgetron on a9a (train +
    test, 48,842 rows, 3 permutations) within 1.5 points of Table 5; BOGD's online predictions are not the
    constant classifier's (its error is not a9a's minority share, 23.93 %).  RBP on spambase (above) is within
    2 points since the table reads sign(0) = +1; before, 36.24 vs 33.3."""
    from refsvm.reproduce.runners import run_online
    from refsvm.reproduce.tables import TABLES

    X, y, Xt, yt = require_data("a9a")
    X, y = np.vstack([X, Xt]), np.where(np.concatenate([y, yt]) > 0, 1, -1)
    minority = 100.0 * np.mean(y == 1)
    entries = {e.label: e for e in TABLES["lu2016-table5"].entries}
    for label, extra in (("BOGD [code]", dict(eta=0.2)), ("Projectron++ [code]", {}), ("Forgetron [code]", {})):
        params = {k: (v(len(y)) if callable(v) else v) for k, v in entries[label].params.items()}
        assert params["zero_prediction"] == "positive" and params["variant"] == "authors"
        errors = [run_online(X, y, None, None, seed, **params, **extra)["error"] for seed in range(3)]
        paper = TABLES["lu2016-table5"].paper[(label, "a9a")][0]
        assert abs(np.mean(errors) - paper) <= 1.5, (label, errors, paper)
        assert abs(np.mean(errors) - minority) > 1.0, (label, errors)


def test_a_constant_classifier_is_never_chosen_from_a_grid():
    """BOGD on the quick subsets: at small eta its final model predicts one class, and its error is the
    minority share, lower than the learning runs' (it was picked: ijcnn1 eta = 0.2, 10.08 %).  The grid
    must skip constant points; a point whose final model is constant but whose online predictions (the
    metric's) were varied is not constant (a9a: it was printed CONSTANT at the minority share)."""
    _need_data()
    res = reproduce("lu2016-table5", quick=True, datasets=["ijcnn1", "a9a"], entries=["BOGD"], out=io.StringIO())
    by = {r["dataset"]: r for r in res["rows"]}
    ij = by["IJCNN"] if "IJCNN" in by else next(r for r in res["rows"] if r["file"] == "ijcnn1")
    grid = {eval(k)["eta"]: v for k, v in ij["grid"].items()}
    assert min(grid.values()) < ij["error_mean"]                     # the constant would have "won"
    assert not ij["constant"] and str({"eta": ij["chosen"]["eta"]}) not in ij["constant_points"]
    assert np.mean([s["majority_share"] for s in ij["per_seed"]]) < 0.99
    a9a = next(r for r in res["rows"] if r["file"] == "a9a")
    assert all(s["majority_share"] >= 0.99 for s in a9a["per_seed"])   # the last models are constant ...
    assert not a9a["constant"] and a9a["error_mean"] - a9a["minority_share"] > 1.0   # ... the pass was not
    assert a9a["constant_points"] and "CONSTANT" not in format_table(res)


def test_lu2016_table3_sigma8_quick_run(tmp_path):
    """lu2016-table3-sigma8 --quick on 2 jobs in under 2 minutes: Table 3's FOGD and NOGD rows at gamma = 1/128, eta
    by 5-fold CV over the paper's grid; the other parameters are lu2016-table3's."""
    from _helpers import quick_reproduce

    rows = quick_reproduce("lu2016-table3-sigma8", tmp_path)
    assert set(rows) == {(a, d) for a in ("FOGD", "NOGD") for d in ("a9a", "w8a")}
    main = {e.label: e for e in tables()["lu2016-table3"].entries}
    for (alg, ds), r in rows.items():
        assert r["params"]["gamma"] == 1 / 128 and len(r["cv"]["errors"]) == 5
        assert {k: v for k, v in r["params"].items() if k not in ("gamma", "eta")} == main[alg].params
