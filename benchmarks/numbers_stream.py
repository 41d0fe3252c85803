"""Renderers of the streamed-order comparison in docs/big-data.rst from ``benchmarks/bench_stream_shuffle.py``'s
results (``bench_stream_shuffle``; registered in ``benchmarks/docnumbers.py``'s registry; see its docstring).

Block ``stream-shuffle-table``: per data set and visiting order, the test accuracy over the seeds (median,
mean and standard deviation, range, percent), the difference of its median from the in-memory median and
the median over the seeds of (streamed - in-memory) accuracy (same seed), in points.  Values
``stream-shuffle.<data>.<variant>.diff`` (the difference of the medians, signed, in points) and
``stream-shuffle.<data>.<variant>.median`` (the median accuracy, percent).
"""

from _docgen import load, renderer, table, value

#: how the table names each variant of the benchmark
_ORDERS = {
    "in-memory": "in memory: permutation of all rows",
    "stream-none-1000": "file order, 1000-row chunks",
    "stream-chunks-1000": "chunk order shuffled, 1000-row chunks",
    "stream-buffer-1000": "shuffle buffer of 1000 rows, 1000-row chunks",
    "stream-both-1000": "both, 1000-row chunks and buffer",
    "stream-both-10000": "both, 10000-row chunks and buffer (defaults)",
    "stream-buffer-1000-own-seed": "buffer of 1000 rows, a seed of its own (control)",
}


def _rows():
    return load("bench_stream_shuffle")["rows"]


def _row(dataset, variant):
    for r in _rows():
        if r["dataset"] == dataset and r["variant"] == variant:
            return r
    raise KeyError(f"no {variant} run on {dataset} in bench_stream_shuffle")


@renderer("stream-shuffle-table")
def _table(fmt):
    rows = []
    for r in _rows():
        rows.append([r["dataset"], _ORDERS.get(r["variant"], r["variant"]), f"{r['median']:.2f}",
                     f"{r['mean']:.2f} +- {r['std']:.2f}", f"{r['min']:.2f}-{r['max']:.2f}",
                     "" if r["variant"] == "in-memory" else f"{r['median_of_medians_diff_points']:+.2f}",
                     "" if r["variant"] == "in-memory" else f"{r['median_diff_points']:+.2f}"])
    n = len(_rows()[0]["accuracies"])
    return table(["data", "order", f"median acc. % ({n} seeds)", "mean +- std", "range",
                  "diff. of medians", "median of paired diffs"], rows, fmt)


def _register(dataset, variant):
    value(f"stream-shuffle.{dataset}.{variant}.diff")(
        lambda: f"{_row(dataset, variant)['median_of_medians_diff_points']:+.2f}")
    value(f"stream-shuffle.{dataset}.{variant}.median")(lambda: f"{_row(dataset, variant)['median']:.2f} %")


for _ds in ("a9a", "ijcnn1"):
    for _variant in _ORDERS:
        _register(_ds, _variant)
