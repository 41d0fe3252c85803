#!/usr/bin/env python
"""Wang, Crammer & Vucetic (2012), Table 6: the flagged BPegasos rows on Checkerboard rerun by the authors' toolbox
on the table's own streams.

For a row of ``wang2012-table6`` (1M examples) or ``wang2012-table6-10m`` (the paper's 10M) and each seed, this
script builds the stream exactly as the table's runner visits it -- 1M: the table's generated rows in the order
``default_rng(seed).permutation(n)`` (:func:`refsvm.reproduce.wang_stream.run_stream`); 10M: those rows, then the
generated chunks of :func:`refsvm.reproduce.wang_chunked.run_chunked_stream` (``generate_chunks("checkerboard",
..., random_state=[CHUNK_SEED, seed])``) -- and runs

* ``refsvm``: the table's own runner with the row's parameters (its per-seed test error; the JSON records whether it
  equals the table's committed run, seed for seed), and refsvm's compiled pass in one call over the very rows
  written for the peer (``same stream``: its error equals the runner's, so the peer's file is the table's stream);
* ``peer``: BudgetedSVM's ``budgetedsvm-train -A 4`` (the authors' group's toolbox, djurikom/BudgetedSVM commit
  cce05ffc, built OUTSIDE this repository with its Makefile; nothing of it is shipped here) over that file in file
  order (``-r 0``), one epoch (``-e 1``), ``-B`` the row's budget, ``-L 2 lambda`` and ``-g 2 gamma`` (its two-column
  binary model follows binary Pegasos at lambda = L/2, and its kernel is ``exp(-g/2 d^2)``: benchmarks/
  bench_peers.py), no bias (``-b 0``), ``-m 1`` merging (its golden-section search to 1e-4) or ``-m 0`` removal;
  its test error on the table's 100K test rows (``budgetedsvm-predict``).

If the toolbox gives refsvm's number on the same stream and not the paper's, the paper's row is not what the
released code measures on this stream (reason ``authors-code-agrees`` in refsvm.reproduce.gaps).  The toolbox has
no projection, so projection rows cannot be run.  Accuracy only: the times are not the result (the peer's merging
costs about 0.3 ms per example at B = 100 here: a 1M-example pass about 5 minutes, a 10M one about 50).
"""

import argparse
import json
import os
import tempfile
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, print_run_header, write_json, write_output  # noqa: E402
from bench_wang_peer_cells import binary_error  # noqa: E402
from bench_wang_removal_ties import PEER_COMMIT, peer_error, summary  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["benchmarks/bench_wang_table6_peer.py", "benchmarks/bench_wang_peer_cells.py",
           "benchmarks/bench_wang_removal_ties.py", "refsvm._fast.bsgd", "refsvm.io.datasets",
           "refsvm.reproduce.driver", "refsvm.reproduce.wang_stream", "refsvm.reproduce.wang_chunked",
           "refsvm.reproduce.tables_wang"]
RESULTS = Path(__file__).resolve().parent / "results"
DEFAULT_PEER = "/tmp/wd2_bsvm/bin"
#: refsvm's maintenance name -> the toolbox's -m code (it has removal and merging only)
PEER_MAINTENANCE = {"merge": 1, "removal": 0}


def row_setting(table, row):
    """``(X, y, Xt, yt, runner, params, paper, committed)`` of a Table 6 row: the table's generated data (labels
    +-1), its runner and resolved parameters, the paper's ``(mean, std)`` error and the committed per-seed errors."""
    from refsvm.reproduce.driver import _resolve, load_dataset, tables

    t = tables()[table]
    ds = t.datasets[0]
    entry = next(e for e in t.entries if e.label == row)
    if entry.runner is None or entry.params.get("maintenance") not in PEER_MAINTENANCE:
        raise ValueError(f"row must be a run removal or merging row of {table}; got {row!r}")
    X, y, Xt, yt = load_dataset(ds, t.quick_rows, False)
    params = _resolve(ds, entry, {}, X.shape[0])
    committed = next(r for r in json.loads((RESULTS / f"reproduce_{table}.json").read_text())["rows"]
                     if r["algorithm"] == row and r["dataset"] == ds.label)
    paper = t.paper[(row, ds.label)]
    return (X, y, Xt, yt, entry.runner, params, dict(mean=paper[0], std=paper[1]),
            [s["error"] for s in committed["per_seed"]])


def stream_rows(X, y, seed, params):
    """The rows of seed ``seed``'s stream in the order the table's runner visits them (see the module docstring)."""
    from refsvm.io.datasets import generate_chunks
    from refsvm.reproduce.wang_chunked import CHUNK_SEED

    n = X.shape[0] if params.get("max_rows") is None else min(int(params["max_rows"]), X.shape[0])
    order = np.random.default_rng(seed).permutation(n)
    parts = [(X[order], y[order])]
    n_stream = int(params.get("n_stream", n))
    if n_stream > n:
        parts += list(generate_chunks("checkerboard", n_stream - n, chunk_size=params["chunk"],
                                      random_state=[CHUNK_SEED, seed]))
    elif n_stream < n:
        raise ValueError("a stream shorter than the table's rows is not a Table 6 row")
    return np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts]).astype(np.int64)


def run_seed(seed, data, runner, params, peer):
    """One seed: the table's runner, refsvm's one-call pass over the written rows, and the toolbox's pass."""
    import importlib

    from refsvm.reproduce.wang_stream import checkpointed_pass

    X, y, Xt, yt = data
    module, func = runner.split(":")
    table_run = getattr(importlib.import_module(module), func)(X, y, Xt, yt, seed, **params)
    Xs, ys = stream_rows(X, y, seed, params)
    sv, alpha, _, _, _, _ = checkpointed_pass(Xs, ys, np.arange(len(ys), dtype=np.int64), (), lambda *a: None,
                                              n_classes=2, budget=params["budget"], lam=params["lam"],
                                              maintenance=params["maintenance"], gamma=params["gamma"])
    one_call = binary_error(sv, alpha, params["gamma"], Xt, yt)
    out = dict(seed=seed, refsvm=table_run["error"], one_call=one_call, n_stream=int(len(ys)))
    if peer:
        with tempfile.TemporaryDirectory(prefix=f"wang_t6_{seed}_") as tmp:
            out["peer"], out["peer_command"] = peer_error(
                peer, Xs, ys, np.arange(len(ys)), Xt, yt, budget=params["budget"], lam=2.0 * params["lam"],
                gamma=params["gamma"], tmp=tmp, maintenance=PEER_MAINTENANCE[params["maintenance"]])
    print(f"    seed {seed}: refsvm {out['refsvm']:.3f} (one call {one_call:.3f}), peer {out.get('peer')}", flush=True)
    return out


def render(result):
    lines = [f"{'table':20s} {'row':22s} {'N':>11s} | {'paper':>13s} | {'refsvm':>13s} {'peer':>13s} | "
             f"refsvm = table's run, same stream"]
    for r in result["rows"]:
        s = {k: f"{v['mean']:6.2f} ± {v['std']:4.2f}" for k, v in r["summary"].items()}
        lines.append(f"{r['table']:20s} {r['row']:22s} {r['n_stream']:11,d} | {r['paper']['mean']:6.2f} ± "
                     f"{r['paper']['std']:4.2f} | {s['refsvm']:>13s} {s.get('peer', '-'):>13s} | "
                     f"{r['refsvm_is_table']}, {r['same_stream']}")
        for name in ("refsvm", "peer"):
            if name in r["summary"]:
                v = r["summary"][name]
                lines.append(f"{'':20s}   {name} per seed: " + ", ".join(f"{e:.2f}" for e in r["errors"][name])
                             + f"  (median {v['median']:.2f}, range {v['min']:.2f}-{v['max']:.2f})")
    lines.append(f"test error (%) on the table's 100K test rows, mean ± sd over seeds {result['seeds']}; "
                 "peer: BudgetedSVM " + (result["peer"] or {}).get("commit", "-"))
    return "\n".join(lines)


def main(argv=None):
    from joblib import Parallel, delayed

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", nargs="+", metavar="TABLE:ROW",
                    default=["wang2012-table6:BPegasos+merge B=100"])
    ap.add_argument("--seeds", type=int, nargs="+", default=list(range(8)), help="the seeds (the table's: 0..)")
    ap.add_argument("--n-jobs", type=int, default=2, help="seeds run in parallel")
    ap.add_argument("--budgetedsvm", default=DEFAULT_PEER, help="directory of budgetedsvm-train / -predict ('' to "
                    "skip the peer)")
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    if any(s < 0 for s in args.seeds) or args.n_jobs < 1:
        ap.error("--seeds must be >= 0 and --n-jobs positive")
    rows = [tuple(r.split(":", 1)) for r in args.rows]
    if any(len(r) != 2 or not r[0].startswith("wang2012-table6") for r in rows):
        ap.error("--rows: each is TABLE:ROW of wang2012-table6 or wang2012-table6-10m")
    peer = args.budgetedsvm or None
    if peer and not (Path(peer) / "budgetedsvm-train").is_file():
        ap.error(f"--budgetedsvm: no budgetedsvm-train in {peer}")
    print_run_header("benchmarks/bench_wang_table6_peer.py", argv)
    out = []
    for table, row in rows:
        X, y, Xt, yt, runner, params, paper, committed = row_setting(table, row)
        print(f"  {table} {row}: {params}", flush=True)
        runs = Parallel(n_jobs=args.n_jobs)(delayed(run_seed)(s, (X, y, Xt, yt), runner, params, peer)
                                            for s in args.seeds)
        errors = {"refsvm": [r["refsvm"] for r in runs]}
        if peer:
            errors["peer"] = [r["peer"] for r in runs]
        out.append(dict(table=table, row=row, params={k: v for k, v in params.items()}, paper=paper,
                        n_stream=runs[0]["n_stream"], errors=errors, per_seed=runs,
                        refsvm_is_table=all(s < len(committed) and r["refsvm"] == committed[s]
                                            for s, r in zip(args.seeds, runs)),
                        same_stream=all(abs(r["one_call"] - r["refsvm"]) < 1e-9 for r in runs),
                        summary={k: dict(summary(v), median=float(np.median(v))) for k, v in errors.items()}))
    result = dict(seeds=args.seeds, peer=None if not peer else dict(binaries=str(Path(peer).resolve()),
                                                                      commit=PEER_COMMIT), rows=out)
    text = render(result)
    print(text)
    write_output(args.output, "benchmarks/bench_wang_table6_peer.py", argv, SHARED_NOTE + "\n\n" + text)
    write_json(args.json, result, MODULES, note=SHARED_NOTE)


if __name__ == "__main__":
    main()
