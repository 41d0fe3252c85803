"""Glasmachers & Qaadan (lookup merging), Table 3 and Figure 3: training and merging time by merge solver.

:func:`run_lookup_timing` is the runner of both artefacts.  For one data set, seed and budget it trains BSGD
(BPegasos with merging, ``lam = 1 / (n C)``, ``epochs`` passes, each over a fresh permutation drawn from
``default_rng(seed)``: the settings and orders of :func:`refsvm.reproduce.runners.run_bsgd`, in one call of
``bsgd`` over the concatenated orders, the same model as one call per pass) once with each solver -- ``gss`` (GSS-standard,
eps 0.01), ``gss-precise``, ``lookup-h``, ``lookup-wd`` -- on the same order, ``repeats`` times interleaved
(drifts of a shared machine hit all solvers alike; the median is kept), then once more with ``gss`` in
comparison mode (``merge_compare=True``, :func:`refsvm.budget.merge_compare`), and reports one quantity,
``report``:

* ``"saving-lookup-h"`` / ``"saving-lookup-wd"``: the relative improvement of the total training time
  against GSS-standard, ``100 (T_gss - T) / T_gss`` (Table 3, columns 3-4);
* ``"merge-frequency"``: merge events per step (over all passes), percent (Table 3, column 5);
* ``"equal-decisions"``: percent of merge events where Lookup-WD picks GSS-precise's partner (the paper
  compares Lookup-WD with GSS; comparison mode compares every solver with GSS-precise);
* ``"factor-gss"`` / ``"factor-lookup-wd"``: the mean of ``WD_solver / WD_gss-precise`` over the merge events
  (events where GSS-precise's WD is 0 left out: the factor is undefined there) (Table 3, columns 7-8); the
  paper does not say whether its factor is this mean or the ratio of the summed WDs, so the results also hold
  ``factor_sum`` (per solver: ``sum WD_solver / sum WD_gss-precise`` over the same events): a mean of ratios
  is dominated by events whose least WD is nearly 0 (near-duplicate pairs), where a bracket of 0.01 costs a
  tiny absolute WD but a large factor;
* ``"merge-seconds-<solver>"``: the solver's merging time (``trace["merge_seconds"]``: partner search, h or
  WD, the merge), Figure 3.

The rows of one budget share one measurement: it is cached in the process by (data, seed, budget, C, gamma,
repeats, epochs), so a table's rows of a data set and budget run it once per worker process.
"""

import hashlib
import time

import numpy as np

from .runners import pass_orders

__all__ = ["SOLVERS", "REPORTS", "pass_orders", "measure", "run_lookup_timing"]

SOLVERS = ("gss", "gss-precise", "lookup-h", "lookup-wd")
REPORTS = ("saving-lookup-h", "saving-lookup-wd", "merge-frequency", "equal-decisions", "factor-gss",
           "factor-lookup-wd") + tuple(f"merge-seconds-{s}" for s in SOLVERS)
_CACHE = {}


def _train(X, y, order, budget, C, gamma, solver, compare=False):
    from .._fast.bsgd import bsgd

    start = time.perf_counter()
    res = bsgd(X, y, order, n_classes=2, budget=budget, lam=1.0 / (len(y) * C), learning_rate="pegasos", eta=1.0,
               radius=1.0, maintenance="merge", kernel="rbf", gamma=gamma, degree=3, coef0=0.0, merge_eps=0.01,
               projection_ridge=1e-10, fit_bias=False, merge_solver=solver, merge_compare=compare)
    return time.perf_counter() - start, res


def measure(X, y, seed, budget, C, gamma, repeats=1, epochs=1):
    """Every quantity of :data:`REPORTS` for one data set, seed and budget (cached; see the module docstring)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    key = (hashlib.sha1(X.tobytes() + y.tobytes()).hexdigest(), seed, budget, float(C), float(gamma), repeats,
           int(epochs))
    if key in _CACHE:
        return _CACHE[key]
    order = pass_orders(len(y), seed, epochs)
    total = {s: [] for s in SOLVERS}
    merge = {s: [] for s in SOLVERS}
    for _ in range(int(repeats)):
        for s in SOLVERS:
            seconds, res = _train(X, y, order, budget, C, gamma, s)
            total[s].append(seconds)
            merge[s].append(res.trace["merge_seconds"])
    _, res = _train(X, y, order, budget, C, gamma, "gss", compare=True)
    tr = res.trace
    merged = tr["maint_partner"] >= 0
    same, factor = tr["compare_same_decision"][merged], tr["compare_wd_factor"][merged]
    finite = np.all(np.isfinite(factor), axis=1)
    wd = tr["compare_wd"][merged][finite]                     # the events the mean factor reads
    precise = float(wd[:, 1].sum())
    t = {s: float(np.median(total[s])) for s in SOLVERS}
    out = {"saving-lookup-h": 100.0 * (t["gss"] - t["lookup-h"]) / t["gss"],
           "saving-lookup-wd": 100.0 * (t["gss"] - t["lookup-wd"]) / t["gss"],
           "merge-frequency": 100.0 * int(merged.sum()) / len(order),
           "equal-decisions": 100.0 * float(same[:, 3].mean()) if len(same) else float("nan"),
           "factor-gss": float(factor[finite, 0].mean()) if finite.any() else float("nan"),
           "factor-lookup-wd": float(factor[finite, 3].mean()) if finite.any() else float("nan"),
           **{f"merge-seconds-{s}": float(np.median(merge[s])) for s in SOLVERS},
           "total_seconds": t, "merge_events": int(merged.sum()),
           "factor_sum": {s: float(wd[:, j].sum()) / precise if precise > 0 else float("nan")
                          for j, s in enumerate(SOLVERS)}}
    _CACHE[key] = out
    return out


def run_lookup_timing(X, y, X_test, y_test, seed, *, C, gamma, budget, report, repeats=1, epochs=1):
    """``refsvm reproduce`` runner: ``error`` is the quantity ``report`` names (see the module docstring);
    ``seconds`` the median total training time of GSS-standard."""
    if report not in REPORTS:
        raise ValueError(f"report must be one of {', '.join(REPORTS)}; got {report!r}")
    m = measure(X, y, seed, budget, C, gamma, repeats, epochs)
    solver = report[len("merge-seconds-"):] if report.startswith("merge-seconds-") else "gss"
    return dict(error=m[report], seconds=m["total_seconds"][solver], merge_events=m["merge_events"],
                total_seconds=m["total_seconds"], factor_sum=m["factor_sum"], predicts=False)
