"""The long agreement run: N generated configurations, both paths compared on each.

The configurations, the data and the comparison are those of the property-based
test (tests/agreement/_generate.py, used by tests/agreement/test_properties.py):
configuration ``seed`` for seed in ``--start`` .. ``--start + --n - 1``.  For each
one: the reference path on the dense data, the compiled path on the dense data
and (CSR cases) on the CSR data; every discrete trace entry must be equal and
the decision values within the documented tolerance (1e-9 of their scale, 1e-6
under a rank-deficient allowance).

Output: a table per solver regime (configurations, agreeing, refused alike by
both paths, disagreeing by kind, the largest relative difference among the
agreeing runs) and per data feature, then one line per failing configuration:
its seed, status, regime and where it parts.  ``--json PATH`` writes the
summary and every failing configuration as a full JSON record (the
configuration dict and the measured differences); reproduce one with::

    python benchmarks/bench_agreement.py --seed SEED        # prints its record
    # or, in Python (tests/ on sys.path): check(draw_config(SEED))

Usage::

    python benchmarks/bench_agreement.py --n 20000 [--start 0] [--json PATH] [--regime SUBSTR]
"""

import argparse
import collections
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from _common import print_run_header, write_json  # noqa: E402
from agreement._generate import check, draw_config, regime  # noqa: E402


def tree_state():
    """``clean`` or the number of modified tracked files (the result may include uncommitted edits)."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                             text=True, check=False, cwd=HERE.parent).stdout
    except OSError:
        return "?"
    files = [line[3:] for line in out.splitlines() if line.strip()]
    return "clean" if not files else f"{len(files)} modified tracked files: {', '.join(files)}"


def summarise(results):
    """Rows per solver regime and per data / kernel / budget tag."""
    def table(key):
        rows = collections.OrderedDict()
        for r in results:
            for tag in key(r):
                row = rows.setdefault(tag, collections.Counter())
                row["configs"] += 1
                row[r["status"]] += 1
                if r["status"] == "agree":
                    row["max_rel"] = max(row.get("max_rel", 0.0), r.get("rel_diff", 0.0),
                                         r.get("csr-rel_diff", 0.0))
        return rows
    return table(lambda r: [r["regime"][0]]), table(lambda r: r["regime"][1:])


STATUSES = ("agree", "refused", "outside-bound", "decision", "values", "predict", "csr-decision", "csr-values",
            "csr-predict", "error")


def print_table(title, rows):
    print(f"\n{title}")
    head = f"{'regime':<36}{'configs':>8}" + "".join(f"{s:>13}" for s in STATUSES) + f"{'max rel (agree)':>17}"
    print(head)
    print("-" * len(head))
    for tag in sorted(rows):
        row = rows[tag]
        print(f"{tag:<36}{row['configs']:>8}" + "".join(f"{row.get(s, 0):>13}" for s in STATUSES)
              + f"{row.get('max_rel', 0.0):>17.2e}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=500, help="number of configurations")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--seed", type=int, default=None, help="run only this configuration; print its record")
    parser.add_argument("--json", default=None, help="write the summary and the failing records here")
    parser.add_argument("--known", default=None, metavar="PATH",
                        help="write the seeds that did not agree (seed -> status) for the CI property test "
                             "(tests/agreement/known_disagreements.json)")
    parser.add_argument("--regime", default=None, metavar="SUBSTR",
                        help="check only the seeds whose solver regime (the table's first column) contains SUBSTR, "
                             "e.g. online-projectron; --n still counts the seeds scanned")
    args = parser.parse_args(argv)
    if args.seed is not None:
        config = draw_config(args.seed)
        print(json.dumps({"config": config, "result": check(config)}, indent=1, default=str))
        return 0
    print_run_header("benchmarks/bench_agreement.py", argv)
    tree = tree_state()                      # the code as it was when the run started
    print(f"tree: {tree}")
    start = time.perf_counter()
    results, failures = [], []
    for seed in range(args.start, args.start + args.n):
        config = draw_config(seed)
        if args.regime and args.regime not in regime(config)[0]:
            continue
        result = check(config)
        results.append(result)
        if not result["ok"]:
            failures.append({"config": config, "result": result})
    seconds = time.perf_counter() - start
    counts = collections.Counter(r["status"] for r in results)
    print(f"\n{len(results)} configurations (seeds {args.start}..{args.start + args.n - 1}"
          f"{', regime ' + args.regime if args.regime else ''}) in {seconds:.0f} s: "
          + ", ".join(f"{s} {counts.get(s, 0)}" for s in STATUSES))
    by_solver, by_tag = summarise(results)
    print_table("per solver regime", by_solver)
    print_table("per data feature, kernel and budget (a configuration counts under each of its tags)", by_tag)
    print(f"\nfailing configurations ({len(failures)}; reproduce: python benchmarks/bench_agreement.py --seed SEED)")
    for f in failures:
        r = f["result"]
        detail = r.get("where") or r.get("errors") or f"rel diff {r.get('rel_diff', r.get('csr-rel_diff'))}"
        print(f"  seed {r['seed']:>6}  {r['status']:<13} {' '.join(r['regime'])}  {detail}")
    csr = [r for r in results if "csr_bitwise" in r]
    if csr:
        print(f"\nCSR runs agreeing: {len(csr)}, of which the compiled CSR run is bitwise the compiled dense run: "
              f"{sum(r['csr_bitwise'] for r in csr)}")
    if args.known:
        known = {"n": args.start + args.n, "start": args.start, "tree": tree,
                 "seeds": {str(f["result"]["seed"]): f["result"]["status"] for f in failures}}
        with open(args.known, "w") as fh:
            json.dump(known, fh, indent=0, sort_keys=True)
    from refsvm._provenance import loaded_modules

    write_json(args.json, {"n": args.n, "start": args.start, "seconds": seconds, "tree": tree,
                           "counts": dict(counts),
                           "per_solver": {k: dict(v) for k, v in by_solver.items()},
                           "per_tag": {k: dict(v) for k, v in by_tag.items()},
                           "failures": failures},
               modules=loaded_modules() + ["tests/agreement/_generate.py"])   # provenance: the refsvm modules the
    return 0                                              # run imported, and the generator of its configurations


if __name__ == "__main__":
    sys.exit(main())
