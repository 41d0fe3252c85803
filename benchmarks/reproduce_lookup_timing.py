#!/usr/bin/env python
"""Runs ``refsvm reproduce glasmachers-lookup-table3`` then ``-figure3`` in one process: the figure's rows reuse
the table's cached measurements (:func:`refsvm.reproduce.lookup_timing.measure`), so the solvers are timed once.

    python benchmarks/reproduce_lookup_timing.py SEEDS

writes benchmarks/results/reproduce_<name>.{json,txt} and docs/_static/reproduce_<name>.png for both names
(run from the repository's root, REFSVM_DATA set)."""
import sys

from refsvm.reproduce.driver import Backend, run_table, tables
from refsvm.reproduce.report import emit

seeds = int(sys.argv[1])
for name in ("glasmachers-lookup-table3", "glasmachers-lookup-figure3"):
    cmd = f"python benchmarks/reproduce_lookup_timing.py {seeds}  (run_table({name!r}, seeds={seeds}))"
    result = run_table(name, seeds=seeds, backend=Backend(), command=cmd)
    with open(f"benchmarks/results/reproduce_{name}.txt", "w") as out:
        emit(result, out=out, json_path=f"benchmarks/results/reproduce_{name}.json",
             png_path=f"docs/_static/reproduce_{name}.png", plot=tables()[name].plot)
