"""Package: certified number-preserving changes (benchmarks/refactors.json) and how stale.py reads them.

A split of a module by family or a literal given a name changes the files a result's fingerprint
holds without changing what it measured; ``benchmarks/certify.py`` records such a change (the
digests of the changed files before and after), and ``benchmarks/stale.py`` reads a result measured
before it as measured after it.  Here: the logic on a made-up tree (a split, a later real change
caught, a record that does not apply), and every committed record against git (its digests are the
named commits' files; the model fingerprints did not change across it).
"""

import hashlib
import json
import shutil
import subprocess

import pytest

from _helpers import REPO_ROOT as ROOT
from _helpers import benchmark_module as _module


def _digest(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_a_certified_split_leaves_a_result_current_and_later_changes_are_caught(tmp_path, monkeypatch):
    from refsvm._provenance import with_provenance

    stale = _module("stale")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "big.py").write_text("def a(): return 1\ndef b(): return 2\n")
    (tmp_path / "pkg" / "other.py").write_text("c = 3\n")
    result = tmp_path / "r.json"
    result.write_text(json.dumps(with_provenance({"rows": [1]}, ["pkg/big.py", "pkg/other.py"], command="t",
                                                 root=tmp_path)))
    monkeypatch.setattr(stale, "ROOT", tmp_path)
    # the split: big.py keeps a(), b() moves to part.py
    (tmp_path / "pkg" / "big.py").write_text("from .part import b\ndef a(): return 1\n")
    (tmp_path / "pkg" / "part.py").write_text("def b(): return 2\n")
    assert stale.status(result)["status"] == "stale"            # no record yet: stale
    record = {"base": "x", "commit": "y", "what": "split", "evidence": ["t"],
              "before": {"pkg/big.py": _digest("def a(): return 1\ndef b(): return 2\n"), "pkg/part.py": "missing"},
              "after": {"pkg/big.py": _digest("from .part import b\ndef a(): return 1\n"),
                        "pkg/part.py": _digest("def b(): return 2\n")}}
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "refactors.json").write_text(json.dumps({"refactors": [record]}))
    assert stale.status(result)["status"] in ("current", "dirty")
    # a later change to the file the split created is caught
    (tmp_path / "pkg" / "part.py").write_text("def b(): return 3\n")
    got = stale.status(result)
    assert got["status"] == "stale" and got["changed"] == ["pkg/part.py"]
    # and so is a change to a file the record does not cover
    (tmp_path / "pkg" / "part.py").write_text("def b(): return 2\n")
    (tmp_path / "pkg" / "other.py").write_text("c = 4\n")
    assert stale.status(result)["changed"] == ["pkg/other.py"]


def test_a_record_applies_only_to_results_measured_on_its_before_files():
    stale = _module("stale")
    record = {"before": {"m.py": "a" * 16, "n.py": "missing"}, "after": {"m.py": "b" * 16, "n.py": "c" * 16}}
    assert stale.certified({"m.py": "a" * 16, "z.py": "d" * 16}, [record]) == \
        {"m.py": "b" * 16, "n.py": "c" * 16, "z.py": "d" * 16}
    # measured on another version of m.py: the record says nothing about it
    assert stale.certified({"m.py": "e" * 16}, [record]) == {"m.py": "e" * 16}
    # a result that never held m.py does not gain n.py
    assert stale.certified({"z.py": "d" * 16}, [record]) == {"z.py": "d" * 16}
    # a file the change removed leaves the result's files
    gone = {"before": {"m.py": "a" * 16}, "after": {"m.py": "missing"}}
    assert stale.certified({"m.py": "a" * 16}, [gone]) == {}


def test_a_scoped_record_applies_only_to_the_results_it_names():
    stale = _module("stale")
    record = {"before": {"m.py": "a" * 16}, "after": {"m.py": "b" * 16},
              "results": ["benchmarks/results/untouched.json"]}
    measured = {"m.py": "a" * 16}
    assert stale.certified(measured, [record], result="benchmarks/results/untouched.json") == {"m.py": "b" * 16}
    # a result the record does not name: the change counts (its run may reach the new behaviour)
    assert stale.certified(measured, [record], result="benchmarks/results/other.json") == measured
    assert stale.certified(measured, [record]) == measured
    # an unscoped record applies to every result measured on its before files
    del record["results"]
    assert stale.certified(measured, [record], result="benchmarks/results/other.json") == {"m.py": "b" * 16}


def test_certify_refuses_a_scope_that_is_not_a_results_file():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the records name commits")
    certify = _module("certify")
    with pytest.raises(SystemExit, match="--only"):
        certify.record("HEAD", "HEAD", "w", ["e"], only=["benchmarks/results/no-such-result.json"])


def _records():
    path = ROOT / "benchmarks" / "refactors.json"
    return json.loads(path.read_text())["refactors"] if path.exists() else []


@pytest.mark.parametrize("index", range(len(_records())))
def test_every_committed_record_matches_git(index):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the records name commits")
    certify = _module("certify")
    rec = _records()[index]
    assert set(rec["before"]) == set(rec["after"]) == set(certify.changed_sources(rec["base"], rec["commit"]))
    for f in rec["before"]:
        assert certify.digest_at(rec["base"], f) == rec["before"][f], f
        assert certify.digest_at(rec["commit"], f) == rec["after"][f], f
    hashes = subprocess.run(["git", "diff", "--name-only", rec["base"], rec["commit"], "--",
                             "tests/package/model_hashes.json"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert hashes.stdout.strip() == "", "a certified change may not change the model fingerprints"
    assert rec["what"] and rec["evidence"]
    for path in rec.get("results", ()):
        assert path.startswith("benchmarks/results/") and (ROOT / path).is_file(), path
