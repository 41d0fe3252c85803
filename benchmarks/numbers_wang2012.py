"""Renderers of Wang, Crammer & Vucetic (2012)'s reproduced tables (``benchmarks/results/
reproduce_wang2012-table4.json``) for docs/gaps.rst (registered in ``benchmarks/docnumbers.py``'s registry;
see its docstring).

Block ``repro-wang2012-table4``: per data set and row refsvm runs, our mean test error +- sd over the seeds,
the paper's, the difference, the gamma the cross-validation chose and the gap's reason (blank: not flagged).
"""

from _docgen import load, renderer, table


@renderer("repro-wang2012-table4")
def _wang_table4(fmt):
    """Wang et al.'s Table 4 as run: ours beside the paper's (errors in percent)."""
    data = load("reproduce_wang2012-table4")
    rows = []
    for r in data["rows"]:
        if not r.get("available"):
            continue
        p = r["paper"]
        rows.append([r["dataset"], r["algorithm"], f"{r['error_mean']:.2f} ± {r['error_std']:.2f}",
                     f"{p['mean']:.2f} ± {p['std']:.2f}", f"{r['error_mean'] - p['mean']:+.2f}",
                     f"{r['chosen']['gamma_scale']:g}/d", r.get("gap_reason", "")])
    return table(["data", "row", f"ours ({data['seeds']} seeds)", "paper", "diff", "gamma", "gap"], rows, fmt)
