#!/usr/bin/env python
"""refsvm's readers and writers of peer model files against the peers' own predictors.

Peers (built by the user OUTSIDE this repository; nothing of theirs is shipped here), each with its own
Makefile: ``--budgetedsvm DIR`` holding ``budgetedsvm-train`` / ``budgetedsvm-predict`` of
djurikom/BudgetedSVM (Djuric, Lan, Vucetic & Wang); ``--libsvm DIR`` holding ``svm-train`` /
``svm-predict`` of cjlin1/libsvm.  ``--budgetedsvm-commit`` / ``--libsvm-commit`` record which commits
were built (the results file keeps them).  Every comparison covers every row of the test split.

BudgetedSVM, binary (a9a, first ``--n-train`` training rows) and multi-class (dna.scale, 3 classes):

1. *reading*: the toolbox trains BSGD (``-A 4 -m 1 -r 0 -b 0 -e 1``, Gaussian kernel ``-g 2 gamma``,
   ``-L 2 lambda``; see benchmarks/bench_peers.py for why); refsvm reads its model file
   (:func:`refsvm.io.read_budgetedsvm_model`) and predicts; ``budgetedsvm-predict -o 1`` predicts from
   the same file (given the blank line its loader needs after ``MODEL:``, see
   :mod:`refsvm.io.peer_models`).  Its score (the winning class's score minus the runner-up's: ``|f|``
   for two classes) is compared with refsvm's;
2. *writing*: refsvm's :class:`~refsvm.BudgetedSVC` trained on the same rows, written with
   :func:`refsvm.io.write_budgetedsvm_model`, predicted by the toolbox and by refsvm;
3. *re-writing*: the toolbox's model read by refsvm and written back, predicted by the toolbox.

LIBSVM, binary (a9a), whose ``svm-predict`` prints labels only:

4. *reading*: ``svm-train -s 0`` with the Gaussian and the polynomial kernel; refsvm reads the model
   (:func:`refsvm.io.read_libsvm_model`) and predicts, ``svm-predict`` predicts;
5. *writing*: a refsvm model with a bias (``BudgetedSVC(refit_bias=True)``) written with
   :func:`refsvm.io.write_libsvm_model`, predicted by ``svm-predict`` and by refsvm;
6. a multi-class LIBSVM model (dna.scale) is refused by refsvm's reader (the message is recorded).

Rows whose labels differ are counted (the toolbox keeps support vectors, coefficients and gamma as
32-bit floats, LIBSVM writes support vectors with 8 digits; refsvm reads doubles).
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
GAMMA = {"a9a": 2.0 ** -7, "dna.scale": 2.0 ** -6}


def data_files(name, n, tmp):
    """``(X, y, Xt, yt, train file, test file)``: the first ``n`` training rows and the whole test split,
    as arrays and as LIBSVM files with integer labels (lines as in the shared data files)."""
    from refsvm.datasets import load_libsvm
    from refsvm.io.fetch import data_homes

    X, y, Xt, yt = load_libsvm(name)
    home = next(Path(h) for h in data_homes() if (Path(h) / f"{name}.bz2").exists())
    train, test = Path(tmp) / f"{name}.train", Path(tmp) / f"{name}.test"
    write_lines(train, int_labels(read_lines(home / f"{name}.bz2")[:n]))
    write_lines(test, int_labels(read_lines(home / f"{name}.t.bz2")))
    return X[:n], y[:n], Xt, yt, train, test


def run(*cmd):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, check=True)


def toolbox_predict(bindir, test_file, model_file, tmp):
    """Labels and scores of ``budgetedsvm-predict -o 1``."""
    out = Path(tmp) / "pred.txt"
    run(Path(bindir) / "budgetedsvm-predict", "-o", "1", test_file, model_file, out)
    rows = np.loadtxt(out, ndmin=2)
    return rows[:, 0].astype(int), rows[:, 1]


def libsvm_predict(bindir, test_file, model_file, tmp):
    out = Path(tmp) / "pred.txt"
    run(Path(bindir) / "svm-predict", test_file, model_file, out)
    return np.loadtxt(out).astype(int)


def compare(check, model, labels, Xt, scores=None):
    """One result row: refsvm's predictions (and margins) against the peer's on every test row."""
    F = model.decision_function(Xt, backend="fast")
    pred = model.predict(Xt, backend="fast")
    margin = np.abs(F) if F.ndim == 1 else np.diff(np.sort(F, axis=1)[:, -2:], axis=1)[:, 0]
    differ = np.flatnonzero(pred != labels)
    row = dict(check=check, rows=len(Xt), classes=len(model.classes), n_support=int(model.n_support),
               labels_differ=int(differ.size),
               min_margin_where_differ=float(np.min(margin[differ])) if differ.size else None)
    if scores is not None:
        diff = np.abs(margin - scores)
        row.update(max_score_abs_diff=float(diff.max()), max_margin=float(margin.max()),
                   median_score_rel_diff=float(np.median(diff / np.maximum(margin, 1e-300))))
    return row


def budgetedsvm_part(bindir, name, n, budget, tmp):
    from refsvm import BudgetedSVC
    from refsvm.io import read_budgetedsvm_model, write_budgetedsvm_model

    X, y, Xt, yt, train, test = data_files(name, n, tmp)
    gamma, lam = GAMMA[name], 1.0 / (len(X) * 32.0)
    raw = Path(tmp) / "toolbox.model"
    run(Path(bindir) / "budgetedsvm-train", "-A", "4", "-B", budget, "-L", repr(2.0 * lam), "-b", "0", "-e", "1",
        "-K", "0", "-g", repr(2.0 * gamma), "-m", "1", "-r", "0", "-D", X.shape[1], train, raw)
    padded = Path(tmp) / "toolbox.padded.model"
    padded.write_text(pad_model(raw.read_text()))
    theirs = read_budgetedsvm_model(raw, n_features=X.shape[1])
    labels, scores = toolbox_predict(bindir, test, padded, tmp)
    rows = [compare(f"BudgetedSVM {name}: toolbox model, refsvm's reader vs budgetedsvm-predict", theirs, labels,
                    Xt, scores)]
    est = BudgetedSVC(budget=budget, lam=lam, gamma=gamma, random_state=0).fit(X, y)
    ours = write_budgetedsvm_model(est, Path(tmp) / "refsvm.model")
    labels2, scores2 = toolbox_predict(bindir, test, ours, tmp)
    rows.append(compare(f"BudgetedSVM {name}: refsvm model written, budgetedsvm-predict vs refsvm", est.model_,
                        labels2, Xt, scores2))
    again = write_budgetedsvm_model(theirs, Path(tmp) / "again.model")
    labels3, scores3 = toolbox_predict(bindir, test, again, tmp)
    rows.append(dict(compare(f"BudgetedSVM {name}: toolbox model re-written by refsvm, budgetedsvm-predict",
                             theirs, labels3, Xt, scores3),
                     toolbox_labels_differ_from_its_original=int(np.sum(labels3 != labels))))
    return rows


def libsvm_part(bindir, n, tmp):
    from refsvm import BudgetedSVC
    from refsvm.io import read_libsvm_model, write_libsvm_model

    X, y, Xt, yt, train, test = data_files("a9a", n, tmp)
    rows, model = [], Path(tmp) / "libsvm.model"
    for kernel, opts in (("rbf", ["-t", "2", "-g", repr(GAMMA["a9a"])]),
                         ("poly", ["-t", "1", "-d", "2", "-g", "0.05", "-r", "1"])):
        run(Path(bindir) / "svm-train", "-s", "0", "-c", "1", *opts, train, model)
        theirs = read_libsvm_model(model, n_features=X.shape[1])
        rows.append(compare(f"LIBSVM a9a {kernel}: svm-train model, refsvm's reader vs svm-predict", theirs,
                            libsvm_predict(bindir, test, model, tmp), Xt))
    est = BudgetedSVC(budget=100, lam=1.0 / (len(X) * 32.0), gamma=GAMMA["a9a"], refit_bias=True,
                      random_state=0).fit(X, y)
    ours = write_libsvm_model(est, Path(tmp) / "refsvm.libsvm")
    rows.append(dict(compare("LIBSVM a9a: refsvm model with bias written, svm-predict vs refsvm", est.model_,
                             libsvm_predict(bindir, test, ours, tmp), Xt), bias=float(est.model_.bias[0])))
    Xd, _, _, _, dna_train, _ = data_files("dna.scale", 2000, tmp)
    run(Path(bindir) / "svm-train", "-s", "0", "-t", "2", "-g", repr(GAMMA["dna.scale"]), dna_train, model)
    try:
        read_libsvm_model(model, n_features=Xd.shape[1])
        refused = None
    except ValueError as exc:
        refused = str(exc).replace(str(model), "<model>")
    rows.append(dict(check="LIBSVM dna.scale (3 classes, one-vs-one): refsvm's reader refuses", refused=refused))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgetedsvm", metavar="DIR", help="directory of BudgetedSVM's binaries")
    parser.add_argument("--budgetedsvm-commit", default=None, help="the BudgetedSVM commit built (recorded)")
    parser.add_argument("--libsvm", metavar="DIR", help="directory of LIBSVM's svm-train and svm-predict")
    parser.add_argument("--libsvm-commit", default=None, help="the LIBSVM commit built (recorded)")
    parser.add_argument("--n-train", type=int, default=3000, help="a9a training rows used")
    parser.add_argument("--budget", type=int, default=100)
    parser.add_argument("--json", metavar="PATH", default=None)
    args = parser.parse_args(argv)
    if not (args.budgetedsvm or args.libsvm):
        parser.error("give --budgetedsvm DIR and/or --libsvm DIR")
    print_run_header("benchmarks/bench_peer_models.py", argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.budgetedsvm:
            rows += budgetedsvm_part(args.budgetedsvm, "a9a", args.n_train, args.budget, tmp)
            rows += budgetedsvm_part(args.budgetedsvm, "dna.scale", 2000, args.budget, tmp)
        if args.libsvm:
            rows += libsvm_part(args.libsvm, args.n_train, tmp)
    for row in rows:
        text = ", ".join(f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items() if k != "check")
        print(f"{row['check']}: {text}")
    write_json(args.json, rows, modules=MODULES, command=" ".join(["benchmarks/bench_peer_models.py", *sys.argv[1:]]),
               note=f"a9a: first {args.n_train} training rows, gamma 2^-7; dna.scale: gamma 2^-6; BudgetedSVM budget "
                    f"{args.budget}, C 32; BudgetedSVM commit {args.budgetedsvm_commit or 'not given'}, LIBSVM commit "
                    f"{args.libsvm_commit or 'not given'}, each built in /tmp with its own Makefile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
