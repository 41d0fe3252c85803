"""Renderers of the agreement run's numbers in docs/oracle.rst (``benchmarks/bench_agreement.py``'s results
``bench_agreement``; registered in ``benchmarks/docnumbers.py``'s registry; see its docstring).

Block ``agreement-summary``: the run's size and its counts by status (agree, refused alike, outside the
derived rounding bounds, parting in a decision, parting in values), then the parting configurations
grouped by solver regime, with their seeds (each reproduced by ``python benchmarks/bench_agreement.py
--seed SEED``).
"""

from collections import defaultdict

from _docgen import load, renderer, table

STATUSES = (("agree", "agree"), ("refused", "refused alike by both paths"),
            ("outside-bound", "outside the derived rounding bounds"), ("decision", "part in a decision"),
            ("values", "part in values"))


@renderer("agreement-summary")
def _summary(fmt):
    data = load("bench_agreement")
    counts = data["counts"]
    rows = [[label, f"{counts.get(key, 0):,}"] for key, label in STATUSES]
    rows.insert(0, ["configurations (seeds 0 .. n - 1)", f"{data['n']:,}"])
    groups = defaultdict(list)
    for f in data["failures"]:
        groups[(f["result"]["regime"][0], f["result"]["status"])].append(f["result"]["seed"])
    parting = [[regime, status, str(len(seeds)), ", ".join(str(s) for s in sorted(seeds))]
               for (regime, status), seeds in sorted(groups.items())]
    if not parting:
        return table(["run", "configurations"], rows, fmt) + "\n\nNo configuration parts."
    return (table(["run", "configurations"], rows, fmt) + "\n\n"
            + table(["regime", "parts in", "runs", "seeds"], parting, fmt))
