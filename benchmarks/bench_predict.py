#!/usr/bin/env python
"""Prediction throughput of a budgeted model against the cost of its kernel block.

For each data set: a :class:`refsvm.BudgetedSVC` (fast backend, merging,
``gamma="scale"``, one epoch) with B support vectors, and the time to compute
the decision values of n rows with

* ``refsvm fast``: :meth:`refsvm.model.BudgetedModel.decision_function` with
  ``backend="fast"`` (:func:`refsvm.model.decision_blocks`: BLAS blocks of at
  most 2048 rows, norms + one matrix product per block, clipped at 0);
* ``direct``: the previous fast path, the compiled direct-formula kernel matrix
  (:func:`refsvm._fast.kernels.kernel_matrix`) followed by ``K @ coef``
  (the ``backend="python"`` reference computes the same formula row by row
  in Python and is far slower; not timed);
* ``numpy block``: the n x B Gaussian kernel block alone, written as a numpy
  user would (``exp(-gamma * max(||x||^2 + ||s||^2 - 2 X S^T, 0))`` on the
  whole matrix at once), and scikit-learn's ``rbf_kernel(X, S)`` (same block);
* ``SVC``: scikit-learn's ``SVC.decision_function`` (libsvm) with the same
  number of support vectors: an ``SVC(gamma=gamma_)`` is fitted on a random
  subsample whose size is adjusted until it has about B SVs; the budgeted
  model is then trained with exactly that many (``budget = SVC's n_SV``).

Target: ``refsvm fast`` at most the ``numpy block`` time (ratio <= 1).  Times
are the median of ``--repeats`` runs; BLAS is single-threaded
(``OPENBLAS_NUM_THREADS=1`` unless set) so that every column uses one core.
Data from ``$REFSVM_DATA``: w8a (all 49,749 rows predicted, its training set:
there is no test split) and the ijcnn1 test set (91,701 rows).
"""

import argparse
import os
import sys

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, print_run_header, run_times, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.model", "refsvm.kernels", "refsvm._fast.kernels", "refsvm.estimators", "refsvm._threads",
           "refsvm.io.datasets"]


def median_seconds(fn, repeats):
    return float(np.median(run_times(fn, repeats)))


def svc_with_about(X, y, gamma, target, seed=0):
    """An SVC(gamma) fitted on a subsample sized so that it has about ``target`` SVs."""
    from sklearn.svm import SVC

    rng = np.random.default_rng(seed)
    m = min(len(y), 4 * target)
    for _ in range(4):
        idx = rng.choice(len(y), m, replace=False)
        svc = SVC(C=1.0, gamma=gamma).fit(X[idx], y[idx])
        n_sv = int(svc.n_support_.sum())
        if abs(n_sv - target) <= 0.1 * target or m == len(y):
            break
        m = min(len(y), max(target, int(m * target / max(n_sv, 1))))
    return svc, n_sv


def numpy_block(X, S, gamma):
    xx = np.einsum("ij,ij->i", X, X)
    ss = np.einsum("ij,ij->i", S, S)
    return np.exp(-gamma * np.maximum(xx[:, None] + ss[None, :] - 2.0 * (X @ S.T), 0.0))


def run(name, budget, repeats):
    from sklearn.metrics.pairwise import rbf_kernel

    from refsvm import BudgetedSVC
    from refsvm._fast.kernels import kernel_matrix
    from refsvm.datasets import load_libsvm

    X, y, Xt, yt = load_libsvm(name)
    Xp = X if Xt is None else Xt  # rows to predict
    gamma = 1.0 / (X.shape[1] * X.var())  # gamma="scale", fixed for both libraries
    svc, n_sv = svc_with_about(X, y, gamma, budget)
    est = BudgetedSVC(budget=n_sv, lam=1.0 / (32.0 * len(y)), gamma=gamma,
                      random_state=0).fit(X, y)
    model = est.model_
    S, coef = model.support_vectors, model.coef
    assert S.shape[0] == n_sv, (S.shape, n_sv)

    F = model.decision_function(Xp, backend="fast")
    K_direct = kernel_matrix(Xp[:5000], S, "rbf", gamma, 3, 0.0)
    F_direct = K_direct @ coef[:, 0] + model.bias[0]
    scale = np.abs(K_direct) @ np.abs(coef[:, 0])
    err = float(np.max(np.abs(F[:5000] - F_direct) / scale))

    t_fast = median_seconds(lambda: model.decision_function(Xp, backend="fast"), repeats)
    t_direct = median_seconds(
        lambda: kernel_matrix(Xp, S, "rbf", gamma, 3, 0.0) @ coef + model.bias, max(1, repeats // 2))
    t_block = median_seconds(lambda: numpy_block(Xp, S, gamma), repeats)
    t_rbf = median_seconds(lambda: rbf_kernel(Xp, S, gamma=gamma), repeats)
    t_svc = median_seconds(lambda: svc.decision_function(Xp), repeats)
    return dict(dataset=name, n=int(Xp.shape[0]), d=int(Xp.shape[1]), B=n_sv, fast=t_fast,
                direct=t_direct, numpy_block=t_block, rbf_kernel=t_rbf, svc=t_svc,
                ratio_block=t_fast / t_block, ratio_svc=t_fast / t_svc,
                max_err_vs_direct=err, test_accuracy=float(est.score(Xp, yt if Xt is not None else y)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["w8a", "ijcnn1"])
    parser.add_argument("--budget", type=int, default=500, help="about this many SVs (default 500)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", metavar="PATH", default=None)
    args = parser.parse_args(argv)

    rows = [run(name, args.budget, args.repeats) for name in args.datasets]
    print_run_header("benchmarks/bench_predict.py", argv)
    print(f"settings: median of {args.repeats} runs, OPENBLAS_NUM_THREADS="
          f"{os.environ.get('OPENBLAS_NUM_THREADS')}; seconds to compute n decision values; "
          "ratio = refsvm fast / other")
    print()
    head = (f"{'data set':8} {'n':>6} {'d':>4} {'B':>4} {'fast s':>7} {'rows/s':>10} {'direct s':>8} "
            f"{'np block':>8} {'rbf_kern':>8} {'SVC s':>7} {'/block':>6} {'/SVC':>6} {'max rel err':>11}")
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r['dataset']:8} {r['n']:>6} {r['d']:>4} {r['B']:>4} {r['fast']:7.3f} "
              f"{r['n'] / r['fast']:10,.0f} {r['direct']:8.3f} {r['numpy_block']:8.3f} "
              f"{r['rbf_kernel']:8.3f} {r['svc']:7.3f} {r['ratio_block']:6.2f} {r['ratio_svc']:6.2f} "
              f"{r['max_err_vs_direct']:11.1e}")
    print()
    print("max rel err: max |F_fast - F_direct| / sum_j |coef_j| k(x_j, x) over the first 5000 rows")
    write_json(args.json, rows, MODULES, note=SHARED_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
