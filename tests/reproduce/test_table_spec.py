"""Reproduce: a result is fingerprinted by its table's run specification, not by the table modules' files.

``refsvm.reproduce.spec.spec_digest`` covers what decides a table's numbers (data sets, runners,
parameters, grids) and leaves out what explains them (the paper's numbers, titles, notes);
``benchmarks/stale.py`` compares it with the digest a run recorded, or, for an older result, with
the digest of the table as committed when it ran.
"""

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from refsvm.reproduce.spec import Dataset, Entry, Table, spec_digest

ROOT = Path(__file__).resolve().parents[2]


def _table(**changes):
    params = dict(algorithm="perceptron", eta=changes.pop("eta", 0.5), lam=changes.pop("lam", lambda n: 1.0 / n))
    table = Table("t", "Title", "error (%)",
                  datasets=[Dataset("A", "a9a", note="n"), Dataset("B", "w8a", max_train=changes.pop("max_train", None))],
                  entries=[Entry("P", "m:f", params=params, note="row note"),
                           Entry("Q", "m:f", params=dict(budget=changes.pop("budget", 10)))],
                  paper={("P", "A"): changes.pop("paper", (1.0, 0.1, None))}, note=changes.pop("note", "x"))
    assert not changes
    return table


def test_the_digest_follows_the_run_and_ignores_the_explanation():
    base = spec_digest(_table())
    assert spec_digest(_table()) == base                       # deterministic, lambdas included
    assert spec_digest(_table(paper=(2.0, 0.1, None)), ) == base  # the paper's column
    assert spec_digest(_table(note="another note")) == base
    assert spec_digest(_table(eta=0.25)) != base               # a row's parameter
    assert spec_digest(_table(lam=lambda n: 2.0 / n)) != base  # a callable parameter's code
    assert spec_digest(_table(max_train=100)) != base          # a data set's field
    # restricted to the rows / data sets a result holds: another row's change does not count
    assert spec_digest(_table(budget=20), ["P"], ["A"]) == spec_digest(_table(), ["P"], ["A"])
    assert spec_digest(_table(budget=20), ["Q"], ["A"]) != spec_digest(_table(), ["Q"], ["A"])


def test_every_registered_table_has_a_digest_per_stored_result():
    from refsvm.reproduce.report import table_spec
    from refsvm.reproduce.tables import TABLES

    for path in sorted((ROOT / "benchmarks" / "results").glob("reproduce_*.json")):
        data = json.loads(path.read_text())
        assert data["table"] in TABLES, path.name
        record = table_spec(data)
        assert len(record["sha256"]) == 64 and record["algorithms"] and record["datasets"]


def _stale():
    if not (ROOT / "benchmarks" / "stale.py").is_file():
        pytest.skip("benchmarks/ is not part of this tree (installed package)")
    spec = importlib.util.spec_from_file_location("_test_stale_spec", ROOT / "benchmarks" / "stale.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_TABLES_PY = '''from .spec import Dataset, Entry, Table
TABLES = {{"t": Table("t", "Title", "error", datasets=[Dataset("A", "a9a")],
                      entries=[Entry("P", "m:f", params=dict(eta={eta}))], paper={{("P", "A"): ({paper}, None, None)}})}}
'''


def _tree(tmp_path, eta=0.5, paper=1.0):
    (tmp_path / "refsvm" / "reproduce").mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "refsvm" / "reproduce" / "spec.py", tmp_path / "refsvm" / "reproduce" / "spec.py")
    (tmp_path / "refsvm" / "reproduce" / "tables.py").write_text(_TABLES_PY.format(eta=eta, paper=paper))


def _result(tmp_path, prov):
    path = tmp_path / "reproduce_t.json"
    path.write_text(json.dumps({"provenance": prov, "table": "t", "rows": [{"algorithm": "P", "dataset": "A"}]}))
    return path


def test_stale_compares_the_recorded_table_spec(tmp_path, monkeypatch):
    from refsvm._provenance import with_provenance

    stale = _stale()
    monkeypatch.setattr(stale, "ROOT", tmp_path)
    _tree(tmp_path)
    loaded = stale._tables_in(tmp_path / "refsvm" / "reproduce")
    prov = with_provenance({}, [], command="t", root=tmp_path)["provenance"]
    prov["table_spec"] = {"sha256": loaded[0].spec_digest(loaded[1]["t"], ["P"], ["A"])}
    path = _result(tmp_path, prov)
    assert stale.status(path)["status"] == "current"
    monkeypatch.setattr(stale, "_TABLES", {})
    _tree(tmp_path, paper=9.0)                                # the paper's number: still current
    assert stale.status(path)["status"] == "current"
    monkeypatch.setattr(stale, "_TABLES", {})
    _tree(tmp_path, eta=0.25)                                 # the row's parameter: stale
    record = stale.status(path)
    assert record["status"] == "stale" and record["changed"] == ["table spec of t"]


def test_stale_reads_an_older_result_s_table_at_its_commit(tmp_path, monkeypatch):
    from refsvm._provenance import with_provenance

    stale = _stale()
    monkeypatch.setattr(stale, "ROOT", tmp_path)
    _tree(tmp_path)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path)]
    subprocess.run(git[:5] + ["init", "-q", str(tmp_path)], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "c"], check=True)
    # written before table_spec existed: the table module is in the file fingerprint
    body = with_provenance({}, ["refsvm/reproduce/tables.py", "refsvm/reproduce/spec.py"], command="t",
                           root=tmp_path)
    path = _result(tmp_path, body["provenance"])
    _tree(tmp_path, paper=9.0)                                # only the paper's column moved
    assert stale.status(path)["status"] == "current"
    monkeypatch.setattr(stale, "_TABLES", {})
    _tree(tmp_path, eta=0.25)
    assert stale.status(path)["status"] == "stale"


def test_the_table_modules_load_as_data():
    # stale.py reads the table modules on their own (today's and an older commit's), without refsvm's
    # compiled parts: they import nothing but spec and the registry
    stale = _stale()
    loaded = stale._tables_in(ROOT / "refsvm" / "reproduce")
    from refsvm.reproduce.tables import TABLES

    assert loaded is not None and sorted(loaded[1]) == sorted(TABLES)


def test_the_registry_function_survives_the_registry_module():
    # refsvm.reproduce.tables is the function returning the registry; importing the submodule of the
    # same name once rebound the package attribute to the module (a second call then failed)
    import importlib

    import refsvm.reproduce as reproduce

    importlib.import_module("refsvm.reproduce.tables")
    assert callable(reproduce.tables) and "lu2016-table5" in reproduce.tables()
    assert callable(reproduce.tables) and "lu2016-table5" in reproduce.tables()
