#!/usr/bin/env python
"""IDSVM (refsvm.idsvm, Cauwenberghs & Poggio 2000): the compiled path against the reference, and one pass at the
sizes Wang et al.'s Table 3 stopped its IDSVM runs at.

* ``paths``: one pass of both paths over the same problem (``--rows`` rows of wang2012-table3-all's Gauss, its
  test split's first rows left out, C = 1, gamma = 1/(4d)): the seconds of each, their ratio, and whether the
  two models are bitwise equal (they should be: the twin computes the reference's numbers).
* ``sizes``: the compiled path alone, one pass over the first ``m`` examples of ``default_rng(0).permutation(n)``
  of a wang2012-table3-all data set at that table's LIBSVM settings (C = 1, gamma from its B = 500 CV):
  seconds, bookkeeping steps, support and margin vectors, the KKT certificate and the kernel matrix's bytes
  (``8 m^2``).  The paper's IDSVM learned 8.3K Adult and 33K IJCNN examples before its 10,000 s stop; Adult runs
  at 8,300, IJCNN at ``--ijcnn-rows`` (its 33,000 need an 8.7 GB kernel matrix).

One run each (the sizes' seconds are what wang2012-table3-idsvm's note quotes); not a timing benchmark: the
machine and its load are printed.
"""

import argparse
import time

import numpy as np
from _common import print_run_header, write_json, write_output

MODULES = ["benchmarks/bench_idsvm.py", "refsvm.idsvm", "refsvm._fast.idsvm", "refsvm.reproduce.driver",
           "refsvm.reproduce.tables_wang3", "refsvm.io.datasets"]


def _data(label):
    from refsvm.reproduce.driver import load_dataset, tables

    ds = next(d for d in tables()["wang2012-table3-all"].datasets if d.label == label)
    X, y, _, _ = load_dataset(ds, 0, False)
    return X, y


def paths(rows):
    from refsvm import idsvm as reference
    from refsvm._fast import idsvm as fast

    X, y = _data("Gauss")
    X, y = X[:rows], y[:rows]
    order = np.random.default_rng(0).permutation(rows)
    kw = dict(C=1.0, gamma=0.25 / X.shape[1])
    out = {}
    for name, module in (("python", reference), ("fast", fast)):
        start = time.perf_counter()
        res = module.idsvm(X, y, order, **kw)
        out[name] = (time.perf_counter() - start, res)
    (tp, rp), (tf, rf) = out["python"], out["fast"]
    bitwise = bool(np.array_equal(rp.alpha_all, rf.alpha_all) and rp.bias == rf.bias
                   and np.array_equal(rp.gradients, rf.gradients)
                   and np.array_equal(rp.trace["event_kind"], rf.trace["event_kind"]))
    return dict(rows=rows, python_seconds=tp, fast_seconds=tf, ratio=tp / tf, bitwise_equal=bitwise,
                events=int(rf.trace["events"]))


def size(label, m):
    from refsvm._fast.idsvm import idsvm
    from refsvm.reproduce.tables_wang3 import TABLE3_ALL_GAMMA

    X, y = _data(label)
    order = np.random.default_rng(0).permutation(X.shape[0])[:m]
    gamma_scale = TABLE3_ALL_GAMMA[500][label]
    start = time.perf_counter()
    res = idsvm(X, y, order, C=1.0, gamma=gamma_scale / X.shape[1])
    seconds = time.perf_counter() - start
    return dict(data=label, n=int(X.shape[0]), examples=m, gamma_scale=gamma_scale, C=1.0, seconds=seconds,
                events=int(res.trace["events"]), n_sv=int(res.support.size),
                margin_vectors=int(res.trace["n_margin"]), kkt_violation=float(res.trace["kkt_violation"]),
                kernel_matrix_bytes=8 * m * m)


def render(result):
    p = result["paths"]
    lines = [f"paths (Gauss, {p['rows']:,} rows, {p['events']:,} bookkeeping steps): reference {p['python_seconds']:.2f} s, "
             f"compiled {p['fast_seconds']:.3f} s, ratio {p['ratio']:.1f}x; models bitwise equal: {p['bitwise_equal']}",
             "",
             f"{'data':<8} {'examples':>9} {'of n':>7} {'seconds':>9} {'steps':>8} {'SVs':>6} {'margin':>7} "
             f"{'KKT':>9} {'K bytes':>9}"]
    for s in result["sizes"]:
        lines.append(f"{s['data']:<8} {s['examples']:>9,} {s['n']:>7,} {s['seconds']:>9.1f} {s['events']:>8,} "
                     f"{s['n_sv']:>6,} {s['margin_vectors']:>7,} {s['kkt_violation']:>9.2g} "
                     f"{s['kernel_matrix_bytes'] / 2**30:>7.2f} GB")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1500, help="rows of the two paths' comparison")
    ap.add_argument("--adult-rows", type=int, default=8300, help="Adult examples (the paper's IDSVM: 8.3K)")
    ap.add_argument("--ijcnn-rows", type=int, default=8300, help="IJCNN examples (the paper's IDSVM: 33K)")
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    print_run_header("benchmarks/bench_idsvm.py", argv)
    result = dict(paths=paths(args.rows), sizes=[size("Adult", args.adult_rows), size("IJCNN", args.ijcnn_rows)])
    text = render(result)
    print(text)
    write_output(args.output, "benchmarks/bench_idsvm.py", argv, text)
    write_json(args.json, result, MODULES, note="one run each on a named machine; the ratio and the sizes' seconds "
               "are measurements of this machine and load")


if __name__ == "__main__":
    main()
