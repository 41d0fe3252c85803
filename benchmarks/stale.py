"""List the committed results whose code changed since they were measured.

    python benchmarks/stale.py [--json] [--all] [PATH ...]

Every ``benchmarks/results/*.json`` (or the PATHs given) is read; a result is

- ``stale`` when the SHA-256 over the files of its ``provenance.fingerprint`` (recomputed from
  today's tree by :func:`refsvm._provenance.fingerprint`) differs from the recorded one in a file
  that computes numbers (a changed presentation module, ``refsvm._provenance.PRESENTATION_MODULES``:
  gap reasons, report text, the command line, does not count): the code
  it measured changed (the changed files are listed);
- ``dirty`` when it was measured with uncommitted changes in those files (commit ``...-dirty``),
  is not stale, and those files still differ from HEAD: no commit reproduces it yet (once they
  are committed as measured, it is current);
- ``unprovenanced`` when it has no ``provenance`` object (written before the numbers contract);
- for a ``refsvm reproduce`` result (a ``"table"`` entry), the table modules
  (``refsvm/reproduce/tables*.py`` and ``spec.py``, ``refsvm._provenance.SPEC_MODULES``) count by the run
  specification of the rows and data sets the result holds (:func:`refsvm.reproduce.spec.spec_digest`:
  data sets, runners, parameters, grids; not the paper's numbers or notes): against the digest the run
  recorded (``provenance.table_spec``), or, for a result written before that record, against the
  digest of the table modules as committed at its ``commit`` (when the recorded file digests show
  that those ran), evaluated with today's ``spec_digest``;
- ``current`` otherwise (listed only with ``--all``).

A change certified number-preserving (``benchmarks/refactors.json``, written by
``benchmarks/certify.py``: a split of a module by family, a literal given a name) does not make a
result stale: a result whose fingerprint holds a certified change's ``before`` digests is read as
measured on its ``after`` files, in the records' order, and from then on also checked against the
files that change created.  A record scoped to named results (``certify.py --only``: a change of
behaviour reached only in settings those results' runs never use) applies to those results alone.

Exit status 1 when any result is stale, dirty or unprovenanced, else 0.  ``--json`` prints the
list as JSON (one record per file: path, status, commit, changed files).  A ``.txt`` results file
beside a JSON of the same stem shares its status; a ``.txt`` without a JSON is not checked (only
JSON files carry a fingerprint).
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load_provenance():
    """refsvm/_provenance.py of this tree, loaded by path (it imports nothing from refsvm), so that
    the check needs no build of the package and never shadows an installed one."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_refsvm_provenance", ROOT / "refsvm" / "_provenance.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_PROVENANCE = _load_provenance()
fingerprint = _PROVENANCE.fingerprint
presentation_file = _PROVENANCE.presentation_file
spec_file = _PROVENANCE.spec_file
_TABLES = {}       # directory -> (spec module, TABLES) of the table modules loaded from it


def _tables_in(directory):
    """``(spec module, TABLES)`` of the ``refsvm/reproduce`` sources in ``directory``, loaded as a
    package of their own (its ``__init__`` is not run, nothing else of refsvm is imported); None when
    they do not load so (e.g. a table module importing from outside ``refsvm/reproduce``)."""
    import importlib
    import types

    directory = str(directory)
    if directory not in _TABLES:
        name = f"_refsvm_tables_{__import__('uuid').uuid4().hex}"   # a fresh package name per load
        package = types.ModuleType(name)
        package.__path__ = [directory]
        sys.modules[name] = package
        try:
            _TABLES[directory] = (importlib.import_module(name + ".spec"),
                                  importlib.import_module(name + ".tables").TABLES)
        except Exception:                        # an old layout: cannot tell, counted as changed
            _TABLES[directory] = None
    return _TABLES[directory]


def _spec_now(table, algorithms, datasets):
    """Today's :func:`spec_digest` of ``table``'s ``algorithms`` x ``datasets`` (None: no such table)."""
    loaded = _tables_in(ROOT / "refsvm" / "reproduce")
    if loaded is None or table not in loaded[1]:
        return None
    return loaded[0].spec_digest(loaded[1][table], algorithms, datasets)


def _spec_at(commit, files, recorded, table, algorithms, datasets):
    """:func:`spec_digest` (today's function) of ``table`` as committed at ``commit``, if the table
    modules among ``files`` ran as committed there (their ``recorded`` digests match); else None."""
    import hashlib
    import subprocess
    import tarfile
    import tempfile
    import io

    try:
        for rel in files:
            blob = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=ROOT, capture_output=True, check=True).stdout
            if hashlib.sha256(blob).hexdigest()[:16] != recorded.get(rel):
                return None                      # a dirty run: what ran is in no commit
        archive = subprocess.run(["git", "archive", commit, "refsvm/reproduce"], cwd=ROOT, capture_output=True,
                                 check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    tmp = Path(tempfile.mkdtemp(prefix="refsvm-stale-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tmp, filter="data")
    old = _tables_in(tmp / "refsvm" / "reproduce")
    now = _tables_in(ROOT / "refsvm" / "reproduce")
    if old is None or now is None or table not in old[1]:
        return None
    return now[0].spec_digest(old[1][table], algorithms, datasets)


def _table_spec_changed(data, prov, spec_changed):
    """Whether a reproduce result's rows and data sets are specified differently today (see the
    module docstring); ``spec_changed``: the table modules whose files differ from the fingerprint."""
    rows = data.get("rows") or []
    algorithms = sorted({r["algorithm"] for r in rows})
    datasets = sorted({r["dataset"] for r in rows})
    now = _spec_now(data["table"], algorithms, datasets)
    if "table_spec" in prov:
        return now is None or now != prov["table_spec"]["sha256"]
    if not spec_changed:
        return False
    commit = str(prov.get("commit", "")).removesuffix("-dirty")
    per_file = prov["fingerprint"].get("per_file") or {}
    spec_files = [f for f in prov["fingerprint"]["files"] if spec_file(f)]
    before = _spec_at(commit, spec_files, per_file, data["table"], algorithms, datasets)
    return before is None or now is None or before != now


def refactor_records():
    """The certified number-preserving changes (``benchmarks/refactors.json``), oldest first."""
    path = ROOT / "benchmarks" / "refactors.json"
    return json.loads(path.read_text())["refactors"] if path.exists() else []


def certified(per_file, records=None, result=None):
    """``per_file`` (file -> recorded digest) after every certified change it was measured before:
    a record applies when the result holds some of its ``before`` files, each at the ``before``
    digest; those files then count at their ``after`` digest, and the files the change created
    (``before`` missing) join the result's files.  A file that no longer exists is dropped once a
    record says it went missing.  A *scoped* record (``results``: the result files, relative to the
    repository, whose runs never reach the changed behaviour) applies only to ``result`` when it is
    one of them; for every other result that change counts as a change."""
    current = dict(per_file)
    for rec in refactor_records() if records is None else records:
        if "results" in rec and result not in rec["results"]:
            continue                             # a change of behaviour this result's run may reach
        touched = [f for f in rec["before"] if f in current]
        if not touched or any(current[f] != rec["before"][f][:16] for f in touched):
            continue                             # measured on other code than this change started from
        for f, digest in rec["after"].items():
            if f in current or rec["before"].get(f) == "missing":
                current[f] = digest[:16]
    return {f: d for f, d in current.items() if d != "missing"}


def status(path):
    """``{"path", "status", "commit", "changed"}`` of one results JSON."""
    rel = str(Path(path).resolve().relative_to(ROOT)) if Path(path).resolve().is_relative_to(ROOT) else str(path)
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        return {"path": rel, "status": "unreadable", "commit": None, "changed": [], "error": str(exc)}
    prov = data.get("provenance") if isinstance(data, dict) else None
    if not prov or "fingerprint" not in prov:
        return {"path": rel, "status": "unprovenanced", "commit": None, "changed": []}
    recorded = prov["fingerprint"]
    now = fingerprint(recorded["files"], ROOT)
    changed, files = [], recorded["files"]
    if now["sha256"] != recorded["sha256"]:
        before = recorded.get("per_file")
        if before:
            before = certified(before, result=rel)
            files = sorted(before)
            now = fingerprint(files, ROOT)
        changed = ([f for f in files if now["per_file"][f] != before.get(f)] if before else
                   _changed_files(recorded["files"], prov.get("commit", "").removesuffix("-dirty")))
        # a changed presentation module (gap reasons, report text) leaves the numbers as they were
        changed = [f for f in changed if not presentation_file(f)]
    if isinstance(data, dict) and "table" in data:   # a reproduce result: its table by specification
        spec_changed = [f for f in changed if spec_file(f)]
        changed = [f for f in changed if not spec_file(f)]
        if _table_spec_changed(data, prov, spec_changed):
            changed.append(f"table spec of {data['table']}")
    if changed:
        state = "stale"
    elif str(prov.get("commit", "")).endswith("-dirty") and _uncommitted(files):
        state = "dirty"                           # (a -dirty run whose files are committed since: current)
    else:
        state = "current"
    return {"path": rel, "status": state, "commit": prov.get("commit"), "changed": changed}


def _uncommitted(files):
    """Whether one of ``files`` differs from HEAD in the working tree (True when git cannot tell)."""
    import subprocess

    try:
        return bool(subprocess.run(["git", "status", "--porcelain", "--", *files], cwd=ROOT, capture_output=True,
                                   text=True, check=True).stdout.strip())
    except (OSError, subprocess.CalledProcessError):
        return True


def _changed_files(files, commit):
    """The files among ``files`` that differ from ``commit`` (all of them when git cannot tell)."""
    import subprocess

    try:
        out = subprocess.run(["git", "diff", "--name-only", commit, "--", *files], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
        return out or list(files)
    except (OSError, subprocess.CalledProcessError):
        return list(files)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="results JSON files (default: benchmarks/results/*.json)")
    ap.add_argument("--json", action="store_true", help="print the records as JSON")
    ap.add_argument("--all", action="store_true", help="also list the current results")
    args = ap.parse_args(argv)
    paths = args.paths or sorted((ROOT / "benchmarks" / "results").glob("*.json"))
    records = [status(p) for p in paths]
    shown = [r for r in records if args.all or r["status"] != "current"]
    if args.json:
        print(json.dumps(shown, indent=1))
    else:
        for r in shown:
            extra = f" (measured at {r['commit']})" if r["commit"] else ""
            changed = f"; changed: {', '.join(r['changed'])}" if r["changed"] else ""
            print(f"{r['status']:<14} {r['path']}{extra}{changed}")
        bad = sum(r["status"] != "current" for r in records)
        print(f"{bad} of {len(records)} results stale, dirty or without provenance", file=sys.stderr)
    return 1 if any(r["status"] != "current" for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
