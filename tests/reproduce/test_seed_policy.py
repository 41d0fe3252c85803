"""refsvm reproduce: the seed policy (refsvm.reproduce.seed_policy) holds for every table and every committed
result, and its lists of exceptions are exact (an entry that no longer applies fails too)."""

import functools
import json
import re
from pathlib import Path

import pytest

from refsvm.reproduce.driver import tables
from refsvm.reproduce.seed_policy import MIN_SEEDS, NOT_YET, RUNS_BELOW, TABLE_EXCEPTIONS

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def _committed():
    if not RESULTS.is_dir():
        pytest.skip("benchmarks/ is not part of this tree (installed package)")
    return _read_committed()


@functools.lru_cache(maxsize=1)
def _read_committed():
    """stem -> the fields the policy reads (table, seeds, quick) of every committed reproduce result."""
    out = {}
    for path in sorted(RESULTS.glob("reproduce_*.json")):
        data = json.loads(path.read_text())
        out[path.stem[len("reproduce_"):]] = {k: data.get(k) for k in ("table", "seeds", "quick")}
    return out


def test_every_table_defaults_to_the_policy_or_says_why():
    below = {name: t.seeds for name, t in tables().items() if t.seeds < MIN_SEEDS}
    assert set(below) == set(TABLE_EXCEPTIONS), (
        "tables below the policy without a reason: " + ", ".join(sorted(set(below) - set(TABLE_EXCEPTIONS)))
        + "; reasons for tables that meet it: " + ", ".join(sorted(set(TABLE_EXCEPTIONS) - set(below))))
    for name, reason in TABLE_EXCEPTIONS.items():
        assert len(reason) > 40 and reason == reason.strip(), name


def test_every_committed_run_meets_the_policy_or_says_why():
    """A run counts as below the policy when it has fewer than MIN_SEEDS seeds and fewer than its table's
    default (a table with a stated exception may run at its default); quick runs are not results."""
    t = tables()
    below = set()
    for stem, data in _committed().items():
        assert not data.get("quick"), f"{stem}: a --quick run committed as a result"
        seeds, default = data["seeds"], t[data["table"]].seeds
        if seeds < MIN_SEEDS and seeds < default:
            below.add(stem)
    assert below == set(RUNS_BELOW), (
        "runs below the policy without a reason: " + ", ".join(sorted(below - set(RUNS_BELOW)))
        + "; reasons for runs that meet it: " + ", ".join(sorted(set(RUNS_BELOW) - below)))


def test_a_run_below_the_policy_is_a_debt_and_the_results_say_so():
    """Every run of RUNS_BELOW is a debt (its reason starts with NOT_YET), and its seed count is the one the
    reason states."""
    committed = _committed()
    for stem, reason in RUNS_BELOW.items():
        assert reason.startswith(NOT_YET), stem
        n = committed[stem]["seeds"]
        assert re.search(rf"\b{n} seeds?\b", reason), (stem, n)


def test_a_run_does_not_import_the_policy_lists():
    """The lists are documentation and test data: a reproduce run does not import seed_policy (so editing a list
    leaves every result's fingerprint as it is), and the policy's number is the tables' default."""
    import subprocess
    import sys

    code = ("import sys; from refsvm.reproduce import driver, tables, runners, report, gaps; "
            "print('refsvm.reproduce.seed_policy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
    from refsvm.reproduce import seed_policy, spec
    assert seed_policy.MIN_SEEDS == spec.MIN_SEEDS == spec.Table.__dataclass_fields__["seeds"].default
