"""Renderers of the LIBSVM rows' companion benchmarks (``benchmarks/results/bench_banana_splits.json``,
``bench_libsvm_wider_grid.json``, ``bench_letter_splits.json``) for docs/gaps.rst (registered in
``benchmarks/docnumbers.py``'s registry; see its docstring).

Block ``bench-banana-splits``: LIBSVM on Banana over random training / test splits, per rerun row its error on the
tables' split, its mean +- sd, median and range over the splits, the paper's number and whether the range holds it.
Block ``bench-letter-splits``: LIBSVM on Letter at the paper's training size, per split its test error beside the
paper's.
Block ``bench-libsvm-wider-grid``: per data set the lowest test error over wang2012-libsvm-cv's grid and over the
wider grid, where each lies, and the paper's number.
"""

from _docgen import load, renderer, table


@renderer("bench-banana-splits")
def _banana_splits(fmt):
    data = load("bench_banana_splits")
    rows = []
    for label, r in data["rows"].items():
        s = r["summary"]
        rows.append([label, r["setting"], f"{r['tables_split']:.2f}", f"{s['mean']:.2f} ± {s['std']:.2f}",
                     f"{s['median']:.2f}", f"{s['min']:.2f}-{s['max']:.2f}", f"{data['paper']:.2f}",
                     "yes" if r["paper_in_range"] else "no"])
    return table(["row", "setting", "tables' split", f"{data['splits']} splits", "median", "range", "paper",
                  "paper in range"], rows, fmt)


@renderer("bench-libsvm-wider-grid")
def _libsvm_wider_grid(fmt):
    data = load("bench_libsvm_wider_grid")
    return table(["data", "old grid: bound", "at", "wider grid: bound", "at", "paper", "reaches the paper"],
                 [[r["dataset"], f"{r['old_best']:.2f}", r["old_point"], f"{r['best']:.2f}", r["point"],
                   f"{r['paper']:.2f}", "yes" if r["reaches_paper"] else "no"] for r in data["rows"]], fmt)


@renderer("bench-letter-splits")
def _letter_splits(fmt):
    data = load("bench_letter_splits")
    s = data["summary"]
    return table(["split", "test rows", "LIBSVM test error %", "paper"],
                 [["shared 15,000 / 5,000", "5,000", f"{data['shared']:.2f}", f"{data['paper']:.2f}"],
                  ["UCI order 16,000 / 4,000", f"{data['n_test']:,}", f"{data['uci_order']:.2f}", f"{data['paper']:.2f}"],
                  [f"{data['splits']} random 16,000 / 4,000", f"{data['n_test']:,}",
                   f"{s['mean']:.2f} ± {s['std']:.2f} (range {s['min']:.2f}-{s['max']:.2f})", f"{data['paper']:.2f}"]],
                 fmt)
