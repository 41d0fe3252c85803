#!/usr/bin/env python
"""The examples the README and the getting-started guide quote, measured so that their numbers are
generated (``benchmarks/docnumbers.py``), not typed.

Parts:

- ``demo``: ``refsvm demo`` (its defaults) as a subprocess; its standard output as printed.
- ``gamma``: the getting-started "Kernel width" example: standardised ``usps``, the first 2,000
  training rows, ``BudgetedSVC(random_state=0)`` with the default ``gamma="scale"`` against
  ``gamma=1.0``, test accuracy on the whole test split.
- ``progress``: the progress lines of ``BudgetedSVC(budget=100, random_state=0, verbose=1)`` on
  ijcnn1 (standard error, as printed).

    REFSVM_DATA=../shared/data python benchmarks/bench_docs_examples.py [--parts demo,gamma,progress]
        [--json benchmarks/results/bench_docs_examples.json]
"""

import argparse
import contextlib
import io
import subprocess
import sys

from _common import SHARED_NOTE, print_run_header, write_json

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.cli.demo", "refsvm.estimators", "refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.budget",
           "refsvm.kernels", "refsvm.io.datasets", "refsvm.io.libsvm", "refsvm.validation"]


def demo():
    """``refsvm demo``'s output lines."""
    out = subprocess.run([sys.executable, "-m", "refsvm.cli", "demo"], capture_output=True, text=True, check=True)
    return {"command": "refsvm demo", "stdout": out.stdout}


def gamma(n=2000):
    """Test accuracy on standardised usps, first ``n`` training rows, gamma "scale" against 1.0."""
    from refsvm import BudgetedSVC
    from refsvm.datasets import load_libsvm

    X, y, Xt, yt = load_libsvm("usps", standardize=True)
    out = {"dataset": "usps", "n_train": n, "n_test": int(Xt.shape[0]), "estimator": "BudgetedSVC(random_state=0)"}
    for label, kw in (("scale", {}), ("1.0", {"gamma": 1.0})):
        clf = BudgetedSVC(random_state=0, **kw).fit(X[:n], y[:n])
        out[f"accuracy_gamma_{label}"] = float(clf.score(Xt, yt))
        out[f"gamma_{label}"] = float(clf.gamma_)
    return out


def progress():
    """The progress lines of one verbose BSGD pass on ijcnn1."""
    from refsvm import BudgetedSVC
    from refsvm.datasets import load_libsvm

    X, y, _, _ = load_libsvm("ijcnn1")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        BudgetedSVC(budget=100, random_state=0, verbose=1).fit(X, y)
    return {"estimator": "BudgetedSVC(budget=100, random_state=0, verbose=1)", "dataset": "ijcnn1",
            "stderr": err.getvalue()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parts", default="demo,gamma,progress")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    print_run_header("benchmarks/bench_docs_examples.py", argv)
    results = {}
    for part in args.parts.split(","):
        results[part] = {"demo": demo, "gamma": gamma, "progress": progress}[part]()
        print(part, results[part])
    write_json(args.json, results, MODULES, note=SHARED_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
