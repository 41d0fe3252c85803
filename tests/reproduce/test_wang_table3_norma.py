"""refsvm reproduce: Wang, Crammer & Vucetic (2012) Table 3's Norma and BNorma+merge rows
(``wang2012-table3-norma``, the companion of ``wang2012-table3-all``): the paper's numbers, the protocol shared
with table3-all (its data sets and its CV-chosen gamma), section 7.3's eta grid, and a --quick run end to end."""

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest
from _helpers import quick_reproduce

from refsvm.reproduce import tables
from refsvm.reproduce.driver import cv_folds
from refsvm.reproduce.seed_policy import MIN_SEEDS
from refsvm.reproduce.tables_wang3 import NORMA_ETAS, TABLE3_ALL_GAMMA

NAME = "wang2012-table3-norma"
ROWS = ("BNorma+merge B=100", "BNorma+merge B=500", "Norma")
DATA3 = ("Banana", "Gauss", "Adult", "IJCNN", "Checkerboard")
RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def _budget_of(label):
    """The budget whose tuning a row takes: its own, Norma (no budget) B = 500's as table3-all's Pegasos."""
    return 100 if label.endswith("B=100") else 500


def test_paper_numbers_are_table3_alls_and_so_the_papers():
    """Every paper cell of the companion is table3-all's (whose numbers test_wang2012.py reads from the
    paper's text), for all three rows and five columns."""
    table, all3 = tables()[NAME], tables()["wang2012-table3-all"]
    assert set(table.paper) == {(r, d) for r in ROWS for d in DATA3}
    for key, value in table.paper.items():
        assert value == all3.paper[key], key
    assert 100.0 - table.paper[("Norma", "IJCNN")][0] == pytest.approx(93.41)    # a spot check, from the paper


def test_protocol_is_table3_alls_with_its_cv_gamma():
    """The same data sets (one definition); table3-all runs the paper's 5 seeds, this table the policy's 20
    (refsvm.reproduce.seed_policy); each row's fixed gamma_scale is the one table3-all's
    5-fold CV of BPegasos+merge chose for the row's budget in the committed run (Norma: B = 500's)."""
    table, all3 = tables()[NAME], tables()["wang2012-table3-all"]
    assert table.datasets is all3.datasets and all3.seeds == table.seeds == MIN_SEEDS
    committed = {(r["algorithm"], r["dataset"]): r
                 for r in json.loads((RESULTS / "reproduce_wang2012-table3-all.json").read_text())["rows"]}
    for B in (100, 500):
        for ds in DATA3:
            assert committed[(f"BPegasos+merge B={B}", ds)]["chosen"] == {"gamma_scale": TABLE3_ALL_GAMMA[B][ds]}
    for e in table.entries:
        assert e.label in ROWS and e.select == "cv5" and e.tuned_by is None
        assert e.params["learning_rate"] == "norma" and e.params["C"] == 1.0 and e.params["maintenance"] == "merge"
        assert e.grid == {"eta": NORMA_ETAS}
        for ds in DATA3:
            assert e.per_dataset[ds] == {"gamma_scale": TABLE3_ALL_GAMMA[_budget_of(e.label)][ds]}
    budgets = {e.label: e.params["budget"] for e in table.entries}
    assert budgets["BNorma+merge B=100"] == 100 and budgets["BNorma+merge B=500"] == 500
    assert budgets["Norma"](32561) == 32562                                  # above every training set: no budget


def test_eta_grid_is_section_73s_two_values():
    """eta in {1, 1/sqrt(2)}: the second is the N -> inf limit of 0.5 (2 + 0.5 N^-0.5)^0.5, within 0.0016 of
    it for the training rows of every pass of the full run (the committed table3-all run's n, and its CV
    folds' training rows)."""
    assert NORMA_ETAS[0] == 1.0 and NORMA_ETAS[1] == pytest.approx(math.sqrt(0.5), abs=1e-15)
    committed = json.loads((RESULTS / "reproduce_wang2012-table3-all.json").read_text())["rows"]
    sizes = {r["dataset"]: r["n"] for r in committed}
    assert set(sizes) == set(DATA3)
    for n in sizes.values():
        for N in (n, n - max(len(f) for f in cv_folds(n))):
            paper = 0.5 * math.sqrt(2.0 + 0.5 / math.sqrt(N))
            assert 0.0 < paper - NORMA_ETAS[1] < 0.0016, (n, N)


def test_table3_all_points_to_the_companion():
    """table3-all's Norma and BNorma+merge rows stay unrun there and name this table, which runs them."""
    all3 = {e.label: e for e in tables()["wang2012-table3-all"].entries}
    for label in ("Norma", "BNorma+merge B=100"):
        assert all3[label].runner is None and NAME in all3[label].note
    assert all3["BNorma+merge B=500"].runner is None
    assert {e.label for e in tables()[NAME].entries} == set(ROWS)


def test_quick_end_to_end_every_column_and_row(tmp_path, parsed_once):
    """--quick on 2 jobs: every row on every column runs (well under 2 minutes), eta chosen by its own 5-fold CV
    over both values, gamma table3-all's, Norma's budget above the (quick) training rows."""
    rows = quick_reproduce(NAME, tmp_path)
    assert set(rows) == {(r, d) for r in ROWS for d in DATA3}
    for (alg, ds), r in rows.items():
        assert r["available"] and r["chosen"]["eta"] in NORMA_ETAS, (alg, ds)
        assert r["cv"]["row"] == alg and len(r["cv"]["errors"]) == len(NORMA_ETAS)
        assert r["params"]["gamma_scale"] == TABLE3_ALL_GAMMA[_budget_of(alg)][ds]
        assert r["params"]["learning_rate"] == "norma" and r["params"]["eta"] == r["chosen"]["eta"]
        assert r["paper"]["mean"] == pytest.approx(tables()[NAME].paper[(alg, ds)][0])
        assert "gap_reason" not in r                                          # a quick run judges no gap
    for ds in DATA3:
        assert rows[("Norma", ds)]["params"]["budget"] == 300 + 1


def test_committed_run_is_the_full_table_and_ijcnn_is_constant():
    """The committed run (benchmarks/results/reproduce_wang2012-table3-norma.json) is the whole table, not a quick
    run, on the policy's 20 seeds and the table's present specification; docs/gaps.rst's claim holds in it: on IJCNN every
    row's reported runs end as the constant classifier, no other cell's do."""
    from refsvm.reproduce.spec import spec_digest

    data = json.loads((RESULTS / f"reproduce_{NAME}.json").read_text())
    assert data["table"] == NAME and not data["quick"] and data["seeds"] == MIN_SEEDS
    assert data["provenance"]["table_spec"]["sha256"] == spec_digest(tables()[NAME])
    rows = {(r["algorithm"], r["dataset"]): r for r in data["rows"]}
    assert set(rows) == {(r, d) for r in ROWS for d in DATA3}
    for (alg, ds), r in rows.items():
        assert len(r["per_seed"]) == MIN_SEEDS and r["chosen"]["eta"] in NORMA_ETAS
        assert r["params"]["gamma_scale"] == TABLE3_ALL_GAMMA[_budget_of(alg)][ds]
        assert r["constant"] == (ds == "IJCNN"), (alg, ds)


def test_ijcnn_reason_degenerate_holds_in_the_committed_run_and_at_both_etas():
    """The reason 'degenerate' of the IJCNN rows: the committed runs' final models give the majority class to the
    share of test rows the text quotes (every seed >= 99 %: constant); a pass at the grid's other eta, 1/sqrt(2),
    ends constant too (seed 0, the full training split, run here); the shrinkage 2 eta lambda sqrt(n) < 0.01."""
    from refsvm.reproduce.driver import load_dataset
    from refsvm.reproduce.gaps import EXPLAINED, gap_reason
    from refsvm.reproduce.runners import CONSTANT_SHARE, run_bsgd_multiclass

    data = json.loads((RESULTS / f"reproduce_{NAME}.json").read_text())
    rows = {r["algorithm"]: r for r in data["rows"] if r["dataset"] == "IJCNN"}
    for alg, r in rows.items():
        reason, text = gap_reason(NAME, r)
        assert (reason, text) == EXPLAINED[(NAME, alg, "IJCNN")] and reason == "degenerate"
        shares = [100.0 * s["majority_share"] for s in r["per_seed"]]
        assert min(shares) >= 100.0 * CONSTANT_SHARE and r["chosen"] == {"eta": 1.0}
        assert f"{min(shares):.2f}-{max(shares):.2f} %" in text, alg
        assert 2.0 * 1.0 * (1.0 / r["n"]) * r["n"] ** 0.5 < 0.01
    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set; the pass at the other eta needs the shared data")
    ijcnn = {d.label: d for d in tables()[NAME].datasets}["IJCNN"]
    X, y, Xt, yt = load_dataset(ijcnn, 300, False)
    check = np.linspace(0, Xt.shape[0] - 1, 2000).astype(int)    # the rows the runner's majority share reads
    Xt, yt = np.ascontiguousarray(Xt[check]), yt[check]
    for e in tables()[NAME].entries:
        params = dict(e.params, **e.per_dataset["IJCNN"], eta=NORMA_ETAS[1])
        params["budget"] = params["budget"](X.shape[0]) if callable(params["budget"]) else params["budget"]
        assert run_bsgd_multiclass(X, y, Xt, yt, 0, **params)["majority_share"] >= CONSTANT_SHARE, e.label
