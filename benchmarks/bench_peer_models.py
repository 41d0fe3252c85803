#!/usr/bin/env python
"""refsvm's reader and writer of BudgetedSVM model files against the toolbox's own predictor.

Peer (built by the user OUTSIDE this repository; nothing of it is shipped here): ``--budgetedsvm DIR``,
the directory holding ``budgetedsvm-train`` and ``budgetedsvm-predict`` of djurikom/BudgetedSVM
(Djuric, Lan, Vucetic & Wang), built with its own Makefile.  ``--commit`` records which commit was
built (the results file keeps it).

What is checked, on every row of a9a's test set:

1. *reading*: the toolbox trains BSGD (``-A 4 -m 1 -r 0 -b 0 -e 1``, Gaussian kernel ``-g 2 gamma``,
   ``-L 2 lambda``; see benchmarks/bench_peers.py for why) on the first ``--n-train`` rows of a9a;
   refsvm reads its model file (:func:`refsvm.io.read_budgetedsvm_model`) and predicts; the
   toolbox's ``budgetedsvm-predict`` predicts from the same file (given with the blank line its
   loader needs after ``MODEL:``, see :mod:`refsvm.io.peer_models`).  Also compared: the toolbox's
   score (``-o 1``: the winning class's score minus the runner-up's, i.e. ``|f|`` for two classes)
   with refsvm's ``|f|``;
2. *writing*: refsvm's :class:`~refsvm.BudgetedSVC` trained on the same rows is written with
   :func:`refsvm.io.write_budgetedsvm_model` and predicted by ``budgetedsvm-predict`` and by refsvm;
3. *re-writing*: the toolbox's model read by refsvm and written back, predicted by the toolbox.

Rows where the labels differ are counted (the toolbox holds support vectors, coefficients and gamma
as 32-bit floats, refsvm as doubles, so a row with ``|f|`` below about 1e-6 relative may differ).
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import print_run_header, write_json  # noqa: E402
from bench_peers import int_labels, pad_model, read_lines, write_lines  # noqa: E402

#: What the results depend on: the file format code and the model's prediction (the trainers only supply models).
MODULES = ["refsvm.io.peer_models", "refsvm.model"]


def toolbox_predict(bindir, test_file, model_file, tmp):
    """Labels and scores of ``budgetedsvm-predict -o 1``."""
    out = Path(tmp) / "pred.txt"
    subprocess.run([str(Path(bindir) / "budgetedsvm-predict"), "-o", "1", str(test_file), str(model_file),
                    str(out)], capture_output=True, text=True, check=True)
    rows = np.loadtxt(out, ndmin=2)
    return rows[:, 0].astype(int), rows[:, 1]


def compare(check, refsvm_model, labels, scores, Xt):
    """One result row: refsvm's predictions and |f| against the toolbox's on every test row."""
    f = refsvm_model.decision_function(Xt, backend="fast")
    pred = refsvm_model.predict(Xt, backend="fast")
    differ = np.flatnonzero(pred != labels)
    rel = np.abs(np.abs(f) - scores) / np.maximum(np.abs(f), 1e-300)
    return dict(check=check, rows=len(Xt), labels_differ=int(differ.size),
                min_abs_f_where_differ=float(np.min(np.abs(f[differ]))) if differ.size else None,
                max_score_rel_diff=float(np.max(rel)), median_score_rel_diff=float(np.median(rel)),
                max_score_abs_diff=float(np.max(np.abs(np.abs(f) - scores))), max_abs_f=float(np.max(np.abs(f))),
                n_support=int(refsvm_model.n_support))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgetedsvm", required=True, metavar="DIR", help="directory of the toolbox's binaries")
    parser.add_argument("--commit", default=None, help="the toolbox commit that was built (recorded)")
    parser.add_argument("--n-train", type=int, default=3000)
    parser.add_argument("--budget", type=int, default=100)
    parser.add_argument("--json", metavar="PATH", default=None)
    args = parser.parse_args(argv)
    print_run_header("benchmarks/bench_peer_models.py", argv)

    from refsvm import BudgetedSVC
    from refsvm.datasets import load_libsvm
    from refsvm.io import read_budgetedsvm_model, write_budgetedsvm_model
    from refsvm.io.fetch import data_homes

    X, y, Xt, yt = load_libsvm("a9a")
    home = next(h for h in data_homes() if (Path(h) / "a9a.bz2").exists())
    n, d, gamma, C = args.n_train, X.shape[1], 2.0 ** -7, 32.0
    lam = 1.0 / (n * C)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        train_file, test_file = Path(tmp) / "train.txt", Path(tmp) / "test.txt"
        write_lines(train_file, int_labels(read_lines(Path(home) / "a9a.bz2")[:n]))
        write_lines(test_file, int_labels(read_lines(Path(home) / "a9a.t.bz2")))
        raw = Path(tmp) / "toolbox.model"
        subprocess.run([str(Path(args.budgetedsvm) / "budgetedsvm-train"), "-A", "4", "-B", str(args.budget),
                        "-L", repr(2.0 * lam), "-b", "0", "-e", "1", "-K", "0", "-g", repr(2.0 * gamma), "-m", "1",
                        "-r", "0", "-D", str(d), str(train_file), str(raw)], capture_output=True, text=True,
                       check=True)
        padded = Path(tmp) / "toolbox.padded.model"
        padded.write_text(pad_model(raw.read_text()))
        theirs = read_budgetedsvm_model(raw, n_features=d)
        labels, scores = toolbox_predict(args.budgetedsvm, test_file, padded, tmp)
        rows.append(compare("toolbox model: refsvm's reader vs budgetedsvm-predict", theirs, labels, scores, Xt))

        est = BudgetedSVC(budget=args.budget, lam=lam, gamma=gamma, random_state=0).fit(X[:n], y[:n])
        ours = write_budgetedsvm_model(est, Path(tmp) / "refsvm.model")
        labels2, scores2 = toolbox_predict(args.budgetedsvm, test_file, ours, tmp)
        rows.append(compare("refsvm model: write_budgetedsvm_model, budgetedsvm-predict vs refsvm", est.model_,
                            labels2, scores2, Xt))

        again = write_budgetedsvm_model(theirs, Path(tmp) / "again.model")
        labels3, scores3 = toolbox_predict(args.budgetedsvm, test_file, again, tmp)
        rows.append(dict(compare("toolbox model read and re-written by refsvm, budgetedsvm-predict", theirs,
                                 labels3, scores3, Xt),
                         toolbox_labels_differ_from_its_original=int(np.sum(labels3 != labels))))
    for row in rows:
        print(f"{row['check']}: {row['rows']} rows, labels differ on {row['labels_differ']}, |f| vs toolbox score: "
              f"max rel diff {row['max_score_rel_diff']:.2e} (median {row['median_score_rel_diff']:.2e}), max abs "
              f"diff {row['max_score_abs_diff']:.2e} (max |f| {row['max_abs_f']:.3g})")
    write_json(args.json, rows, modules=MODULES, command=" ".join(["benchmarks/bench_peer_models.py", *sys.argv[1:]]),
               note=f"a9a, first {n} training rows, budget {args.budget}, gamma 2^-7, C 32; BudgetedSVM commit "
                    f"{args.commit or 'not given'} built in /tmp with its Makefile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
