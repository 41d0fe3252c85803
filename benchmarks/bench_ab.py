"""A/B timing of the fast path: two source trees (each built in place), timed in one run.

For a change that must not move the fast path's speed (a refactoring), this times the same
fits with the code before and after, interleaved (A, B, A, B, ...) in fresh processes so that
the machine's drift hits both alike, and prints the median of each and their ratio.

    python setup.py build_ext --inplace                   # in both trees
    REFSVM_DATA=... python benchmarks/bench_ab.py --before /path/old-tree --after . \
        [--rounds 5] [--json benchmarks/results/history/bench_ab_NAME.json]

A comparison of two named trees records that change's effect, not today's speed: its JSON names
both commits (``before``, ``after``) and lives in ``benchmarks/results/history/``, which
``benchmarks/stale.py`` does not check.

Workloads (fast backend, one epoch unless said; fixed seeds): BSGD (BPegasos + merging,
GSS and Lookup-WD; projection; removal on a9a; BMP + merging, U = sqrt(n), on ijcnn1) on ijcnn1 / a9a /
w8a at B = 500 (projection B = 100), BSCA
(merging, B = 500) on ijcnn1 / a9a, BSGD with ``refit_bias`` True and "scaled" on a9a (B = 500,
C = 32, gamma 2^-7: the epoch plus the refit), FOGD (D = 400) and NOGD (B = 100) on ijcnn1 / a9a / w8a,
SBP (one epoch on 3,000 rows of a9a), the online baselines (RBP, Forgetron, Projectron++,
BPA-S, BOGD; B = 100, ijcnn1), the Projectrons of lu2016-table5 (both, both variants, B = 100,
gamma 1/128, eta 0.1 for the paper's; a9a / ijcnn1 / w8a), RBP, the Forgetron and BPA-S in the same
setting (``lu5-*``), and BSCA one-vs-rest on mnist5k with n_jobs = 2 (B = 200).
Each workload's time is the fit's wall-clock time, data loading excluded.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap

from _common import print_run_header
from refsvm._provenance import cpu_extensions, cpu_model

WORKLOADS = {
    "bsgd-merge-gss ijcnn1": "BudgetedSVC(budget=500, lam=1/(10*n), gamma=1.0, random_state=0)",
    "bsgd-merge-gss a9a": "BudgetedSVC(budget=500, lam=1/(10*n), gamma=1/d, random_state=0)",
    "bsgd-merge-gss w8a": "BudgetedSVC(budget=500, lam=1/(10*n), gamma=1/d, random_state=0)",
    "bsgd-refit a9a": "BudgetedSVC(budget=500, lam=1/(32*n), gamma=1/128, refit_bias=True, random_state=0)",
    "bsgd-refit-scaled a9a": "BudgetedSVC(budget=500, lam=1/(32*n), gamma=1/128, refit_bias='scaled', random_state=0)",
    "bsgd-merge-lookup-wd ijcnn1": "BudgetedSVC(budget=500, lam=1/(10*n), gamma=1.0, merge_solver='lookup-wd', random_state=0)",
    "bsgd-merge-gss-precise ijcnn1": "BudgetedSVC(budget=500, lam=1/(10*n), gamma=1.0, merge_solver='gss-precise', random_state=0)",
    "bsgd-projection ijcnn1": "BudgetedSVC(budget=100, lam=1/(10*n), gamma=1.0, maintenance='projection', random_state=0)",
    "bsgd-removal a9a": "BudgetedSVC(budget=500, lam=1/(10*n), gamma=1/d, maintenance='removal', random_state=0)",
    "bmp-merge ijcnn1": "BudgetedSVC(budget=500, lam=1/n, gamma=1.0, learning_rate='perceptron', eta=1.0, random_state=0)",
    "bsca-merge ijcnn1": "BSCAClassifier(budget=500, C=10.0, gamma=1.0, random_state=0)",
    "bsca-merge a9a": "BSCAClassifier(budget=500, C=10.0, gamma=1/d, random_state=0)",
    "bsca-projection ijcnn1": "BSCAClassifier(budget=100, C=10.0, gamma=1.0, maintenance='projection', random_state=0)",
    "fogd ijcnn1": "FOGDClassifier(n_components=400, gamma=1.0, eta=0.002, random_state=0)",
    "fogd a9a": "FOGDClassifier(n_components=400, gamma=1/d, eta=0.002, random_state=0)",
    "fogd w8a": "FOGDClassifier(n_components=400, gamma=1/d, eta=0.002, random_state=0)",
    "nogd ijcnn1": "NOGDClassifier(budget=100, gamma=1.0, eta=0.2, random_state=0)",
    "nogd a9a": "NOGDClassifier(budget=100, gamma=1/d, eta=0.2, random_state=0)",
    "nogd w8a": "NOGDClassifier(budget=100, gamma=1/d, eta=0.2, random_state=0)",
    "sbp a9a[:3000]": "SBPClassifier(nu=0.01, gamma=1/d, epochs=1, random_state=0)",
    "rbp ijcnn1": "OnlineKernelClassifier(algorithm='rbp', budget=100, gamma=1.0, random_state=0)",
    "forgetron ijcnn1": "OnlineKernelClassifier(algorithm='forgetron', budget=100, gamma=1.0, random_state=0)",
    "projectron++ ijcnn1": "OnlineKernelClassifier(algorithm='projectron++', budget=100, gamma=1.0, random_state=0)",
    **{f"{a}-{v} {data}": (f"OnlineKernelClassifier(algorithm='{a}', budget=100, gamma=1/128, "
                           f"zero_prediction='positive', {'variant=' + repr(v) + ', eta=0.0' if v == 'authors' else 'eta=0.1'}, "
                           f"random_state=0)")
       for a in ("projectron", "projectron++") for v in ("paper", "authors") for data in ("a9a", "ijcnn1", "w8a")},
    "bpas ijcnn1": "OnlineKernelClassifier(algorithm='bpas', budget=100, gamma=1.0, random_state=0)",
    **{f"lu5-{a} {data}": (f"OnlineKernelClassifier(algorithm='{a}', budget=100, gamma=1/128, "
                           f"zero_prediction='positive', random_state=0)")
       for a in ("rbp", "forgetron", "bpas") for data in ("a9a", "ijcnn1", "w8a")},
    "bogd ijcnn1": "OnlineKernelClassifier(algorithm='bogd', budget=100, gamma=1.0, eta=0.1, lam=0.01, random_state=0)",
    "bsca-ovr n_jobs=2 mnist5k": "BSCAClassifier(budget=200, C=1.0, gamma=0.02, n_jobs=2, random_state=0)",
}

SNIPPET = """
import sys, time, warnings
sys.path.insert(0, {tree!r})
import numpy as np
import refsvm
assert refsvm.__path__[0].startswith({tree!r}), refsvm.__path__
from refsvm import *
from refsvm.datasets import load_libsvm
name = {name!r}
data = name.split()[-1]
if data.startswith("a9a["):
    X, y, _, _ = load_libsvm("a9a", standardize=False); X, y = X[:3000], y[:3000]
elif data == "mnist5k":
    X, y, _, _ = load_libsvm("mnist5k"); X = X / 255.0
else:
    X, y, _, _ = load_libsvm(data, standardize=data == "ijcnn1")
n, d = X.shape
est = {make}
warnings.simplefilter("ignore")
start = time.perf_counter()
est.fit(X, y)
print(time.perf_counter() - start)
"""


def time_once(tree, name):
    code = SNIPPET.format(tree=os.path.abspath(tree), name=name, make=WORKLOADS[name])
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=os.path.abspath(tree))
    if out.returncode:
        raise RuntimeError(f"{name} in {tree}:\n{out.stderr[-2000:]}")
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="source tree A (built in place)")
    parser.add_argument("--after", required=True, help="source tree B (built in place)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="*", help="workload names (substring match)")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    names = [w for w in WORKLOADS if not args.only or any(s in w for s in args.only)]
    print_run_header("benchmarks/bench_ab.py", argv)
    trees = {}
    for label, tree in (("before", args.before), ("after", args.after)):
        commit = subprocess.run(["git", "-C", tree, "log", "-1", "--format=%h %s"], capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", tree, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        trees[label] = commit.split(" ")[0] + ("-dirty" if dirty else "")
        print(f"{label}: {os.path.abspath(tree)} at {commit[:90]}{' (+ uncommitted changes)' if dirty else ''}")
    rows = []
    print(f"{'workload':<30} {'before s':>9} {'after s':>9} {'after/before':>13}")
    for name in names:
        a, b = [], []
        for _ in range(args.rounds):
            a.append(time_once(args.before, name))
            b.append(time_once(args.after, name))
        ma, mb = statistics.median(a), statistics.median(b)
        rows.append({"workload": name, "before": a, "after": b, "median_before": ma, "median_after": mb,
                     "ratio": mb / ma})
        print(f"{name:<30} {ma:9.3f} {mb:9.3f} {mb / ma:13.3f}", flush=True)
    if args.json:      # a comparison of two named trees: it belongs in benchmarks/results/history/
        with open(args.json, "w") as f:
            json.dump({"kind": "ab", **trees, "machine": {"cpu": cpu_model(), "extensions": cpu_extensions()},
                       "rows": rows, "argv": sys.argv}, f, indent=1)


if __name__ == "__main__":
    main()
