#!/usr/bin/env python
"""Lu et al. (2016), Table 7's Projectron++ rows: the authors' K^-1 on rows already in the span.

The authors' released ``multiclass/proplus.m`` (jingcoco/Online-Kernel-Learning, read, not copied) keeps the
inverse kernel matrix of its SVs, ``K^-1``, and grows it by the rank-one formula on every mistake while it holds
fewer than B SVs: ``d = K^-1 k``, ``delta^2 = k(x, x) - k'd`` and ``K^-1 <- [[K^-1, 0], [0, 0]] + [d; -1][d; -1]'
/ delta^2``, whatever ``delta^2`` is.  A row whose copy is already an SV (dna.scale repeats 86 of its 2,000 rows)
has ``delta^2 = 0`` in exact arithmetic and rounding noise on computed numbers, so ``K^-1`` gains entries of
~1e13-1e16 and every later projection ``d`` is noise; whether a permutation meets such a row while the budget is
not full decides the run.  This script runs that reading (:func:`proplus_pass`, numpy, written here from the
.m file's steps: the first mistake starts ``K^-1 = 1 / k(x, x)``; a mistake adds the row while fewer than B
SVs are held, else moves the true class by ``+d`` and the rival by ``-d``; a margin error (``0 < l``, no
mistake) moves them by ``+-tau d``, ``tau = min(l / (k'd), 1)``, when ``tau (2 l - tau k'd - 2 U delta) >= 0``
with ``U = 1/4 sqrt((B + 1) / ln(B + 1))`` (a negative ``delta^2`` counts as 0 there: MATLAB's
``sqrt`` of it is imaginary and ``>=`` compares real parts); prediction and rival: the lowest index among equal scores),
``rule="code"``, and the same with a row added only when ``delta^2 > 1e-8`` (else it takes the projection
step), ``rule="guarded"``, over the permutations ``default_rng(seed).permutation(n)``, and reports per seed
the online mistake rate, the additions at ``delta^2 <= 1e-8`` and the largest ``|K^-1|`` entry.

Data and settings as lu2016-table7 (dna.scale as read, shuttle min-max onto [-1, 1]; gamma = 1/128; B = 200
dna, 100 shuttle; one pass over the training file).  Accuracy only.
"""

import argparse
import os
import shlex
import sys

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance); the learner is this script's.
MODULES = ["refsvm.io.datasets"]
#: lu2016-table7's data: file, min-max range (None: as read), budget B
DATA = {"dna": ("dna.scale", None, 200), "shuttle": ("shuttle", (-1.0, 1.0), 100)}
GAMMA = 1.0 / 128
#: rule "guarded": a mistake adds its row only when delta^2 exceeds this (else the projection step)
GUARD = 1e-8
RULES = ("code", "guarded")


def proplus_pass(X, y, order, budget, gamma, rule="code"):
    """One pass of the authors' multi-class Projectron++ reading (module docstring) over ``X[order]``;
    ``y``: labels 0..c-1.  Returns (mistake rate %, additions at delta^2 <= GUARD, max |K^-1|)."""
    c = int(y.max()) + 1
    U = 0.25 * np.sqrt((budget + 1) / np.log(budget + 1))
    sv, alpha, Kinv = [], np.zeros((c, 0)), None
    mistakes, noise_additions, largest = 0, 0, 0.0
    for i in order:
        k = np.exp(-gamma * ((X[sv] - X[i]) ** 2).sum(axis=1)) if sv else np.zeros(0)
        V = alpha @ k if sv else np.zeros(c)
        others = V.copy()
        others[y[i]] = -np.inf
        s = int(np.argmax(others))
        loss = max(0.0, 1.0 - (V[y[i]] - V[s]))
        wrong = int(np.argmax(V)) != y[i]
        mistakes += wrong
        if not sv:
            if wrong:
                sv.append(i)
                alpha = np.zeros((c, 1))
                alpha[y[i], 0], alpha[s, 0] = 1.0, -1.0
                Kinv = np.array([[1.0]])                 # 1 / k(x, x), the Gaussian kernel's 1
            continue
        if not wrong and loss <= 0.0:
            continue
        d = Kinv @ k
        delta2 = 1.0 - k @ d
        if wrong:
            if len(sv) < budget and (rule == "code" or delta2 > GUARD):
                noise_additions += delta2 <= GUARD
                n = len(sv)
                sv.append(i)
                col = np.zeros((c, 1))
                col[y[i], 0], col[s, 0] = 1.0, -1.0
                alpha = np.hstack([alpha, col])
                grown = np.zeros((n + 1, n + 1))
                grown[:n, :n] = Kinv
                dt = np.append(d, -1.0)
                Kinv = grown + np.outer(dt, dt) / delta2
                largest = max(largest, float(np.abs(Kinv).max()))
            else:
                alpha[y[i]] += d
                alpha[s] -= d
            continue
        P = k @ d
        tau = min(loss / P, 1.0)
        # MATLAB's sqrt of a negative delta^2 is imaginary and >= compares real parts: the real part is used
        beta = tau * (2.0 * loss - tau * P - 2.0 * U * np.sqrt(max(delta2, 0.0)))
        if beta >= 0.0:
            alpha[y[i]] += tau * d
            alpha[s] -= tau * d
    return 100.0 * mistakes / len(order), int(noise_additions), largest


def load(name):
    from refsvm.io.datasets import load_libsvm

    file, minmax, budget = DATA[name]
    X, y, _, _ = load_libsvm(file)
    X = np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=float)
    if minmax is not None:                               # svm-scale over the file's rows
        lo, hi = minmax
        zmin, zmax = X.min(axis=0), X.max(axis=0)
        X = lo + (hi - lo) * (X - zmin) / np.where(zmax > zmin, zmax - zmin, 1.0)
    return X, np.searchsorted(np.unique(y), y), budget


def summary(values):
    v = np.asarray(values, dtype=float)
    return dict(mean=float(v.mean()), std=float(v.std(ddof=1)) if len(v) > 1 else 0.0, min=float(v.min()),
                max=float(v.max()))


def main(argv=None):
    from refsvm.reproduce import tables

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", nargs="+", default=list(DATA), choices=list(DATA))
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    if args.seeds < 2:
        ap.error("--seeds must be at least 2")
    print_run_header("benchmarks/bench_lu_projectron_numerics.py", argv)
    paper = tables()["lu2016-table7"].paper
    cells = []
    for name in args.datasets:
        X, y, budget = load(name)
        runs = {rule: [proplus_pass(X, y, np.random.default_rng(seed).permutation(len(y)), budget, GAMMA, rule)
                       for seed in range(args.seeds)] for rule in RULES}
        cell = dict(dataset=name, n=len(y), budget=budget, gamma=GAMMA, duplicate_rows=int(len(y) - len(
            np.unique(X, axis=0))), paper=dict(zip(("mean", "std"), paper[("Projectron++", name)][:2])))
        for rule, rs in runs.items():
            cell[rule] = dict(per_seed=[dict(error=e, noise_additions=a, max_kinv=m) for e, a, m in rs],
                              summary=summary([e for e, _, _ in rs]))
        cells.append(cell)
    lines = []
    for c in cells:
        lines.append(f"{c['dataset']} (n = {c['n']}, {c['duplicate_rows']} repeated rows, B = {c['budget']}): paper "
                     f"{c['paper']['mean']:g} +- {c['paper']['std']:g}")
        for rule in RULES:
            s = c[rule]["summary"]
            noisy = sum(r["noise_additions"] > 0 for r in c[rule]["per_seed"])
            lines.append(f"  {rule:8s} {s['mean']:6.2f} +- {s['std']:5.2f}  range [{s['min']:.2f}, {s['max']:.2f}]"
                         f"  seeds adding a row at delta^2 <= {GUARD:g}: {noisy} of {args.seeds}")
    text = "\n".join(lines)
    print(text)
    result = dict(seeds=args.seeds, guard=GUARD, rules=list(RULES), cells=cells)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("command: python benchmarks/bench_lu_projectron_numerics.py "
                     + shlex.join(sys.argv[1:] if argv is None else argv) + f"\n{SHARED_NOTE}\n\n{text}\n")
    write_json(args.json, result, MODULES, note=SHARED_NOTE)


if __name__ == "__main__":
    main()
