"""refsvm reproduce: Lu et al. (2016) Table 3's BSGD-R with random removal (``lu2016-table3-random``), the runner's
draws for it (:func:`refsvm.reproduce.runners.pass_draws`), and a --quick run end to end."""

import numpy as np
import pytest
from _helpers import committed_result, quick_reproduce

from refsvm import BudgetedSVC
from refsvm.reproduce import tables
from refsvm.reproduce.runners import bsgd_passes, pass_draws, pass_orders
from refsvm.reproduce.seed_policy import MIN_SEEDS

NAME = "lu2016-table3-random"
ROW = "BSGD-R [random]"


def test_other_strategies_keep_pass_orders():
    """Every strategy but random removal draws exactly :func:`pass_orders` (no uniforms): their results unchanged."""
    for m in ("removal", "projection", "merge", "stop"):
        draws = pass_draws(500, 7, 3, m)
        assert all(u is None for _, u in draws)
        np.testing.assert_array_equal(np.concatenate([o for o, _ in draws]), pass_orders(500, 7, 3))


def test_random_removal_draws_as_the_estimator():
    """Per pass the order, then one uniform per step, from default_rng(seed): bsgd_passes gives BudgetedSVC's model
    (same lambda, gamma, budget, two epochs), event for event."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    events = []
    res = bsgd_passes(X, y, 5, C=2.0, gamma=0.5, budget=20, maintenance="random-removal", epochs=2,
                      each_pass=lambda r: events.append(r.trace["maint_index"]))
    est = BudgetedSVC(budget=20, lam=1.0 / (300 * 2.0), gamma=0.5, maintenance="random-removal", epochs=2,
                      random_state=5).fit(X, y)
    for mine, theirs in zip(events, est.trace_):
        np.testing.assert_array_equal(mine, theirs["maint_index"])
    np.testing.assert_array_equal(res.alpha, est.alpha_)
    draws = pass_draws(300, 5, 2, "random-removal")
    check = np.random.default_rng(5)
    for order, u in draws:
        np.testing.assert_array_equal(order, check.permutation(300))
        np.testing.assert_array_equal(u, check.random(300))


def test_spec_is_lu2016_table3s_bsgd_r_with_random_removal():
    table, base = tables()[NAME], tables()["lu2016-table3"]
    assert table.datasets is base.datasets and table.seeds == MIN_SEEDS
    (entry,) = table.entries
    ref = next(e for e in base.entries if e.label == "BSGD-R")
    assert entry.label == ROW and entry.runner == ref.runner and entry.select == "cv5"
    assert entry.grid == ref.grid and entry.per_dataset == ref.per_dataset
    assert entry.params == dict(ref.params, maintenance="random-removal")
    assert table.paper == {(ROW, ds): base.paper[("BSGD-R", ds)] for ds in ("w8a", "a9a")}
    assert 100.0 - table.paper[(ROW, "a9a")][0] == pytest.approx(81.96)          # the paper's Table 3


def test_quick_end_to_end(tmp_path, parsed_once):
    rows = quick_reproduce(NAME, tmp_path)
    assert set(rows) == {(ROW, "w8a"), (ROW, "a9a")}
    for r in rows.values():
        assert r["params"]["maintenance"] == "random-removal" and r["chosen"]["C"] in (0.125, 0.5, 2.0, 8.0, 32.0)
        assert len(r["cv"]["errors"]) == 5


def test_committed_run_and_the_quoted_numbers():
    """The committed run is the full table on the present spec; every number the gap texts quote (the companion's
    w8a row, lu2016-table3's BSGD-R a9a row) is the committed run's."""
    from refsvm.reproduce.gaps import EXPLAINED, gap_reason
    from refsvm.reproduce.spec import spec_digest

    data = committed_result(f"reproduce_{NAME}")
    assert not data["quick"] and data["seeds"] == MIN_SEEDS
    assert data["provenance"]["table_spec"]["sha256"] == spec_digest(tables()[NAME])
    rows = {r["dataset"]: r for r in data["rows"]}
    a9a, w8a = rows["a9a"], rows["w8a"]
    errors = [s["error"] for s in a9a["per_seed"]]
    assert a9a["chosen"] == {"C": 0.5} and gap_reason(NAME, a9a) is None          # within the gap rule
    text = EXPLAINED[("lu2016-table3", "BSGD-R", "a9a")][1]
    assert f"{a9a['error_mean']:.2f} ± {a9a['error_std']:.2f}" in text
    assert f"range {min(errors):.2f}-{max(errors):.2f}" in text
    from refsvm.reproduce.runners import CONSTANT_SHARE

    constant = [i for i, s in enumerate(a9a["per_seed"]) if s["majority_share"] >= CONSTANT_SHARE]
    assert constant == [0, 8, 15] and "seeds 0, 8 and 15 end at the constant classifier" in text
    reason, text = gap_reason(NAME, w8a)
    assert reason == "authors-code" and w8a["chosen"] == {"C": 8.0}
    errors = [s["error"] for s in w8a["per_seed"]]
    worst = int(np.argmax(errors))
    rest = sorted(errors[:worst] + errors[worst + 1:])
    assert f"seed {worst} ends at {errors[worst]:.2f} %" in text
    assert f"{rest[0]:.2f}-{rest[-1]:.2f} %" in text and f"median {np.median(errors):.2f}" in text
    share = w8a["per_seed"][worst]["majority_share"]
    assert f"one class on {100 * share:.0f} % of the test rows" in text
    assert f"{w8a['minority_share']:.1f} % of them" in text and errors[worst] > 100 * (1 - share) - 5
