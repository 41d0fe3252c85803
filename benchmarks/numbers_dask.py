"""Renderer of the Dask numbers in docs/big-data.rst from ``benchmarks/bench_dask.py``'s results (registered in
``benchmarks/docnumbers.py``'s registry; see its docstring).

Block ``dask-table``: fit_dask on two worker processes against in-memory ``partial_fit`` over the same
blocks (seconds, bitwise equal or not), and block-parallel ``predict`` / ``decision_function`` on one and
two workers (best seconds, speed-up), with the load average of the machine during each run.
"""

from _docgen import load, renderer, table

STEM = "bench_dask"


@renderer("dask-table")
def _dask_table(fmt):
    data = load(STEM)
    s, fit = data["settings"], data["fit"]
    one, two = sorted(data["predict"], key=lambda r: r["workers"])
    rows = [[f"fit_dask, 2 workers ({s['rows']:,} rows, {fit['blocks']} blocks)", f"{fit['fit_dask_s']:.1f}", "",
             f"bitwise equal to in-memory: {fit['bitwise_equal']}"],
            ["partial_fit in memory, the same blocks", f"{fit['in_memory_partial_fit_s']:.1f}", "", ""]]
    for method in ("predict", "decision_function"):
        for row in (one, two):
            rows.append([f"{method}, {row['workers']} worker{'s' if row['workers'] > 1 else ''}",
                         f"{row[f'{method}_s']:.2f}",
                         f"{one[f'{method}_s'] / row[f'{method}_s']:.2f}x",
                         f"load average {row['load_before']:.1f} -> {row['load_after']:.1f}"])
    return table(["run", "seconds", "speed-up", "note"], rows, fmt)
