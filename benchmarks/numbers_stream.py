"""Renderers of the streamed-order comparison in docs/big-data.rst from ``benchmarks/bench_stream_shuffle.py``'s
results (``bench_stream_shuffle``; registered in ``benchmarks/docnumbers.py``'s registry; see its docstring),
and of the 5 GiB streamed run from ``benchmarks/bench_stream_big.py``'s (``bench_stream_big``, at the end).

Block ``stream-shuffle-table``: per data set and visiting order, the test accuracy over the seeds (median,
mean and standard deviation, range, percent), the difference of its median from the in-memory median (with
its 95 % bootstrap interval, when the results hold one) and the median over the seeds of (streamed -
in-memory) accuracy (same seed), in points.  Values
``stream-shuffle.<data>.<variant>.diff`` (the difference of the medians, signed, in points) and
``stream-shuffle.<data>.<variant>.median`` (the median accuracy, percent).  Block ``stream-shuffle-lam-table``
and values ``stream-shuffle-lam.<data>.<variant>.diff`` / ``.median``: the same from the run at the library's
default lambda (``bench_stream_shuffle_lam``: ``--lam 1e-4``, the documented orders only).
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
    "stream-interleave-10000": "interleave: 100-row pieces, 10000-row chunks and buffer",
    "permutation-10000": "noise floor: a permutation of all rows, 10000-row chunks",
}


def _rows(stem="bench_stream_shuffle"):
    return load(stem)["rows"]


def _row(dataset, variant, stem="bench_stream_shuffle"):
    for r in _rows(stem):
        if r["dataset"] == dataset and r["variant"] == variant:
            return r
    raise KeyError(f"no {variant} run on {dataset} in {stem}")


@renderer("stream-shuffle-table")
def _table(fmt, stem="bench_stream_shuffle"):
    rows = []
    for r in _rows(stem):
        rows.append([r["dataset"], _ORDERS.get(r["variant"], r["variant"]), f"{r['median']:.2f}",
                     f"{r['mean']:.2f} +- {r['std']:.2f}", f"{r['min']:.2f}-{r['max']:.2f}",
                     "" if r["variant"] == "in-memory" else f"{r['median_of_medians_diff_points']:+.2f}" + _interval(r),
                     "" if r["variant"] == "in-memory" else f"{r['median_diff_points']:+.2f}"])
    n = len(_rows(stem)[0]["accuracies"])
    return table(["data", "order", f"median acc. % ({n} seeds)", "mean +- std", "range",
                  "diff. of medians", "median of paired diffs"], rows, fmt)


def _interval(row):
    ci = row.get("median_of_medians_diff_ci95")
    return "" if ci is None else f" [{ci[0]:+.2f}, {ci[1]:+.2f}]"


renderer("stream-shuffle-lam-table")(lambda fmt: _table(fmt, "bench_stream_shuffle_lam"))


def _register(dataset, variant, stem, prefix):
    value(f"{prefix}.{dataset}.{variant}.diff")(
        lambda: f"{_row(dataset, variant, stem)['median_of_medians_diff_points']:+.2f}")
    value(f"{prefix}.{dataset}.{variant}.median")(lambda: f"{_row(dataset, variant, stem)['median']:.2f} %")
    value(f"{prefix}.{dataset}.{variant}.std")(lambda: f"{_row(dataset, variant, stem)['std']:.2f}")
    value(f"{prefix}.{dataset}.{variant}.blocks20")(lambda: _blocks(dataset, variant, stem))


def _blocks(dataset, variant, stem, size=20):
    """The difference of the medians (points) in each block of ``size`` consecutive seeds: what a run of
    ``size`` seeds would have reported."""
    import numpy as np

    acc, base = (100.0 * np.asarray(_row(dataset, v, stem)["accuracies"]) for v in (variant, "in-memory"))
    return ", ".join(f"{np.median(acc[i:i + size]) - np.median(base[i:i + size]):+.2f}"
                     for i in range(0, acc.size - size + 1, size))


for _ds in ("a9a", "ijcnn1"):
    for _variant in _ORDERS:
        _register(_ds, _variant, "bench_stream_shuffle", "stream-shuffle")
        _register(_ds, _variant, "bench_stream_shuffle_lam", "stream-shuffle-lam")


# ``benchmarks/bench_stream_big.py`` (``bench_stream_big``): block ``stream-big-table`` (per case: rows, file
# size, pre-pass, reading and pass seconds, microseconds per example without and with the pre-pass, peak
# RSS, test accuracy, load average) and the values ``stream-big.rss`` (the streamed full pass's peak RSS),
# ``stream-big.gib`` (its file's size), ``stream-big.ratio`` / ``stream-big.ratio-prepass`` (its time per
# example over the in-memory run's, without / with the pre-pass) and ``stream-big.sample-ratio``.
_BIG_CASES = {"in-memory-sample": "in memory, the first {sample:,} rows (read_libsvm, partial_fit)",
              "stream-sample": "fit_stream, the first {sample:,} rows",
              "stream-full": "fit_stream, the whole file"}


def _big(case):
    for r in load("bench_stream_big")["cases"]:
        if r["case"] == case:
            return r
    raise KeyError(f"no {case} case in bench_stream_big")


@renderer("stream-big-table")
def _big_table(fmt):
    rows, data = [], load("bench_stream_big")
    for r in data["cases"]:
        rows.append([_BIG_CASES.get(r["case"], r["case"]).format(**data["settings"]), f"{r['rows']:,}", f"{r['file_bytes'] / 2**30:.2f}",
                     f"{r['prepass_s']:.0f}" if "prepass_s" in r else "", f"{r['read_s']:.1f}" if "read_s" in r else "",
                     f"{r['pass_s']:.0f}", f"{r['us_per_example']:.2f}", f"{r['us_per_example_with_prepass']:.2f}",
                     f"{r['peak_rss_mb']:.0f}", f"{100 * r['test_accuracy']:.2f}",
                     f"{r['load_average_before'][0]:.1f} -> {r['load_average_after'][0]:.1f}"])
    return table(["run", "rows", "GiB", "pre-pass s", "read s", "pass s", "us/example", "with pre-pass",
                  "peak RSS MB", "test acc. %", "load average"], rows, fmt)


value("stream-big.rss")(lambda: f"{_big('stream-full')['peak_rss_mb']:.0f} MB")
value("stream-big.gib")(lambda: f"{_big('stream-full')['file_bytes'] / 2**30:.2f} GiB")
value("stream-big.ratio")(lambda: f"{load('bench_stream_big')['ratios']['stream-full']['pass_over_in_memory']:.2f}")
value("stream-big.ratio-prepass")(
    lambda: f"{load('bench_stream_big')['ratios']['stream-full']['with_prepass_over_in_memory']:.2f}")
value("stream-big.sample-ratio")(
    lambda: f"{load('bench_stream_big')['ratios']['stream-sample']['pass_over_in_memory']:.2f}")
