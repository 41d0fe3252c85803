#!/usr/bin/env python
"""LIBSVM on Letter at the paper's training size: the paper's 16,000 / 4,000 split against the shared 15,000 / 5,000.

Wang et al.'s Table 4 heads Letter with 16K training rows; the shared ``letter`` / ``letter.t`` (LIBSVM's copy)
split UCI's 20,000 rows 15,000 / 5,000, and ``wang2012-table4`` and ``wang2012-libsvm-cv`` test on those 5,000.
LIBSVM on a fixed split is deterministic, so a different split moves its number by chance alone.  This script
reruns ``wang2012-libsvm-cv``'s LIBSVM row on Letter (the same runner, :func:`refsvm.reproduce.runners.run_svc`,
one against the rest, at the (C, gamma) that row's CV chose on the shared split) on:

* ``shared``: the shared 15,000 / 5,000 split (the row as committed: a check);
* ``UCI order``: the shared training rows and the first 1,000 test rows for training, the last 4,000 for testing:
  UCI's own 16,000 / 4,000 split if LIBSVM's files keep UCI's row order (not documented; one split among the
  others);
* ``random``: ``--splits`` random 16,000 / 4,000 splits of the 20,000 rows (``default_rng(k)``, k = 0, 1, ...).

Features are standardised on each split's training rows, as the tables do.  It prints each split's error and the
random splits' mean, sd and range beside the paper's number.  Deterministic; the times are not the result.
"""

import argparse

import numpy as np
from _common import print_run_header, write_json, write_output

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["benchmarks/bench_letter_splits.py", "refsvm.reproduce.runners", "refsvm.reproduce.tables_wang_libsvm",
           "refsvm.io.datasets", "refsvm.io.model_file"]
SOURCE = "wang2012-libsvm-cv"
N_TRAIN = 16_000


def _fit(X, y, Xt, yt, point):
    """run_svc on ``X`` standardised by its own rows (and ``Xt`` by the same)."""
    from refsvm.io.model_file import standardization
    from refsvm.reproduce.runners import run_svc

    mean, scale = standardization(X)
    return run_svc((X - mean) / scale, y, (Xt - mean) / scale, yt, 0, **point)["error"]


def main(argv=None):
    import json
    import pathlib

    from refsvm.io.datasets import load_libsvm

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--splits", type=int, default=20)
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    if args.splits < 2:
        ap.error("--splits must be at least 2")
    print_run_header("benchmarks/bench_letter_splits.py", argv)
    committed = json.loads((pathlib.Path(__file__).parent / "results" / f"reproduce_{SOURCE}.json").read_text())
    row, = [r for r in committed["rows"] if r["algorithm"] == "LIBSVM" and r["dataset"] == "Letter"]
    point = dict(C=float(row["chosen"]["C"]), gamma_scale=float(row["chosen"]["gamma_scale"]))
    paper = float(row["paper"]["mean"])
    X, y, Xt, yt = load_libsvm("letter")
    shared = _fit(X, y, Xt, yt, point)
    extra = N_TRAIN - X.shape[0]
    uci = _fit(np.vstack([X, Xt[:extra]]), np.concatenate([y, yt[:extra]]), Xt[extra:], yt[extra:], point)
    Xa, ya = np.vstack([X, Xt]), np.concatenate([y, yt])
    errors = []
    for k in range(args.splits):
        perm = np.random.default_rng(k).permutation(Xa.shape[0])
        tr, te = perm[:N_TRAIN], perm[N_TRAIN:]
        errors.append(_fit(Xa[tr], ya[tr], Xa[te], ya[te], point))
    e = np.array(errors)
    result = dict(point=point, paper=paper, committed=float(row["error_mean"]), shared=shared, uci_order=uci,
                  n_train=N_TRAIN, n_test=int(Xa.shape[0] - N_TRAIN), splits=args.splits, errors=errors,
                  summary=dict(mean=float(e.mean()), std=float(e.std(ddof=1)), median=float(np.median(e)),
                               min=float(e.min()), max=float(e.max())),
                  paper_in_range=bool(e.min() <= paper <= e.max()))
    s = result["summary"]
    text = "\n".join([
        f"LIBSVM on Letter at C = {point['C']:g}, gamma = {point['gamma_scale']:g}/d (wang2012-libsvm-cv's CV choice); "
        f"test error %",
        f"shared 15,000 / 5,000 split   {shared:.2f}   (committed row: {result['committed']:.2f})",
        f"UCI order 16,000 / 4,000      {uci:.2f}",
        f"{args.splits} random 16,000 / 4,000    {s['mean']:.2f} +- {s['std']:.2f}, median {s['median']:.2f}, "
        f"range {s['min']:.2f}-{s['max']:.2f}",
        f"paper                         {paper:.2f}   (in the random splits' range: "
        f"{'yes' if result['paper_in_range'] else 'no'})"])
    print(text)
    write_output(args.output, "benchmarks/bench_letter_splits.py", argv, text)
    write_json(args.json, result, MODULES, note="deterministic; times are not the result")


if __name__ == "__main__":
    main()
