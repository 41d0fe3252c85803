"""Renderers of the multi-class baselines' speed (``benchmarks/bench_multiclass_online.py``'s results
``bench_multiclass_online_dna`` and ``bench_multiclass_online_satimage``; registered in
``benchmarks/docnumbers.py``'s registry; see its docstring).

Block ``multiclass-online-speed``: per data set, learner and variant, the multi-class time per example, the
binary one-vs-rest runs' mean, the multi-class time over the sum of the binary runs' (one-vs-rest trains one
binary learner per class: the target, at most 1.5x, read per class of the problem, the verdict), the stricter
ratio over one binary run (the mean over the classes), the control (the multi-class code on two classes over
the binary code: the bookkeeping alone), and the workload beside them: the updates of the multi-class run over
the binary runs' mean, and the time per update, multi-class over binary (below 1: an update costs no more than
the binary one's).
"""

from _docgen import load, renderer, table

STEMS = (("dna", "bench_multiclass_online_dna"), ("satimage", "bench_multiclass_online_satimage"))


def _row(data, r):
    binary = r["binary"]
    us_bin = sum(b["us"] for b in binary) / len(binary)
    upd_bin = sum(b["updates"] for b in binary) / len(binary)
    per_update_bin = sum(b["us_per_update"] for b in binary if b["us_per_update"]) / len(binary)
    ovr = r["us_multiclass"] / sum(b["us"] for b in binary)
    return [data, r["learner"], r["variant"], f"{r['us_multiclass']:.2f}", f"{us_bin:.2f}",
            f"{ovr:.2f}x ({'meets' if ovr <= 1.5 else 'above'})",
            f"{r['ratio_mean']:.2f}x ({'within' if r['ratio_mean'] <= 1.5 else 'above'} 1.5x)",
            f"{r['ratio_control']:.2f}x", f"{r['updates'] / upd_bin:.2f}x", f"{r['us_per_update'] / per_update_bin:.2f}x"]


@renderer("multiclass-online-speed")
def _speed(fmt):
    rows = []
    for data, stem in STEMS:
        for r in load(stem)["rows"]:
            rows.append(_row(data, r))
    headers = ["data", "learner", "variant", "us/ex multi", "us/ex binary", "multi / one-vs-rest (<= 1.5x)",
               "multi / one binary run", "control", "updates multi/binary", "us/update multi/binary"]
    return table(headers, rows, fmt)
