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
- ``current`` otherwise (listed only with ``--all``).

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
    changed = []
    if now["sha256"] != recorded["sha256"]:
        before = recorded.get("per_file")
        changed = ([f for f in recorded["files"] if now["per_file"][f] != before.get(f)] if before else
                   _changed_files(recorded["files"], prov.get("commit", "").removesuffix("-dirty")))
        # a changed presentation module (gap reasons, report text) leaves the numbers as they were
        changed = [f for f in changed if not presentation_file(f)]
    if changed:
        state = "stale"
    elif str(prov.get("commit", "")).endswith("-dirty") and _uncommitted(recorded["files"]):
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
