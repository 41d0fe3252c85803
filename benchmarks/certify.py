"""Record that a range of commits changed code without changing what any result measured.

    python benchmarks/certify.py BASE COMMIT --what "..." --evidence "..." [--evidence ...]

A results file is stale when a file of its fingerprint changed (``benchmarks/stale.py``).  Some
changes move code without changing a number or a timing: a module split by family, a literal given a
name.  For those, rerunning every result would say nothing new, so such a change is *certified*
instead: this script appends to ``benchmarks/refactors.json`` one record with

- ``base`` and ``commit`` (full hashes): the change is ``git diff BASE COMMIT``;
- ``before`` / ``after``: the first 16 hex digits of the SHA-256 of every changed source file at
  ``base`` and at ``commit`` (``missing`` where the file does not exist), as
  :func:`refsvm._provenance.fingerprint` records them;
- ``what`` (the change) and ``evidence`` (how it was shown to keep the numbers: the model-fingerprint
  test's 156 hashes, agreement suites, an A/B timing);
- with ``--only RESULT`` (repeatable), ``results``: the record is *scoped* to those results files.
  That is for a change of behaviour reached only in settings the named results' runs never use (a
  new tie rule of the BSCA projection, for a result that runs no projection): the evidence must say
  why each run cannot reach it (its specification, the branch's condition); every other result
  whose files changed stays stale and is rerun.

``stale.py`` then reads a result measured on the ``before`` files as measured on the ``after`` files
(and checks the files a split created from then on).  ``tests/package/test_refactor_records.py``
checks every record against git: the digests are those of the named commits, and the model
fingerprints (``tests/package/model_hashes.json``) did not change between ``base`` and ``commit``.
The script refuses a range that changes ``model_hashes.json`` or no source file.
"""

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "benchmarks" / "refactors.json"
SOURCE_SUFFIXES = (".py", ".pyx", ".pxd", ".pxi", ".h")
HASHES = "tests/package/model_hashes.json"


def _git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, check=True).stdout


def digest_at(commit, path):
    """First 16 hex digits of the SHA-256 of ``path`` at ``commit`` (``missing``: no such file)."""
    try:
        return hashlib.sha256(_git("show", f"{commit}:{path}")).hexdigest()[:16]
    except subprocess.CalledProcessError:
        return "missing"


def changed_sources(base, commit):
    """The source files under refsvm/ and benchmarks/ that differ between ``base`` and ``commit``."""
    names = _git("diff", "--name-only", "--no-renames", base, commit).decode().split()
    return sorted(n for n in names if n.endswith(SOURCE_SUFFIXES) and n.startswith(("refsvm/", "benchmarks/")))


def record(base, commit, what, evidence, only=None):
    base, commit = (_git("rev-parse", c).decode().strip() for c in (base, commit))
    for path in only or ():
        if not (ROOT / path).is_file() or not path.startswith("benchmarks/results/"):
            raise SystemExit(f"certify: --only {path}: not a results file under benchmarks/results/")
    if _git("diff", "--name-only", base, commit, "--", HASHES).strip():
        raise SystemExit(f"certify: {HASHES} changed between the commits: models changed, rerun instead")
    files = changed_sources(base, commit)
    if not files:
        raise SystemExit("certify: no source file changed between the commits")
    entry = {"base": base, "commit": commit, "what": what, "evidence": list(evidence),
             "before": {f: digest_at(base, f) for f in files}, "after": {f: digest_at(commit, f) for f in files}}
    if only:
        entry["results"] = sorted(set(only))
    return entry


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base")
    ap.add_argument("commit")
    ap.add_argument("--what", required=True, help="the change, in a sentence")
    ap.add_argument("--evidence", action="append", required=True, help="how it was shown to keep the numbers")
    ap.add_argument("--only", action="append", metavar="RESULT",
                    help="scope the record to this results file (repeatable): a change of behaviour its run never reaches")
    args = ap.parse_args(argv)
    entry = record(args.base, args.commit, args.what, args.evidence, args.only)
    data = json.loads(RECORDS.read_text()) if RECORDS.exists() else {"refactors": []}
    data["refactors"].append(entry)
    RECORDS.write_text(json.dumps(data, indent=1) + "\n")
    scope = f" for {len(entry['results'])} results" if "results" in entry else ""
    print(f"certified {len(entry['before'])} files{scope}, {entry['base'][:7]}..{entry['commit'][:7]}: {args.what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
