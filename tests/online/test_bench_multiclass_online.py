"""Online baselines, multi-class: the workload columns of benchmarks/bench_multiclass_online.py (the multi-class
Projectrons' time beside their binary one-vs-rest time) -- updates, microseconds per update and kernel evaluations
of one timed run, read from the run's trace and checked against the learner's own counters."""

import numpy as np
import pytest

from refsvm._fast import online as fast
from _helpers import benchmark_module


@pytest.fixture(scope="module")
def bench():
    return benchmark_module("bench_multiclass_online")


def _problem(seed=0, n=120, m=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, size=n).astype(np.int64)
    X = rng.normal(size=(n, 4)) + y[:, None]
    return X, y, rng.permutation(n).astype(np.int64)


@pytest.mark.parametrize("plusplus", [False, True])
def test_workload_counts_the_runs_updates(bench, plusplus):
    """``updates`` is the learner's own update counter (projections and added SVs both), the time per update is
    the run's time over it, the kernel evaluations are the trace's."""
    X, y, order = _problem()
    kw = dict(kernel="rbf", gamma=0.5, degree=1, coef0=0.0, eta=0.2, budget=8, plusplus=plusplus)
    res = fast.multiclass_projectron(X, y, order, n_classes=3, **kw)
    kinds = np.asarray(res.trace["update_kind"])
    assert (kinds == 2).any() and (kinds == 1).any()          # both kinds of update happen here
    w = bench.workload(0.003, res, len(order))
    assert w["updates"] == res.trace["updates"] > 0
    assert w["kernel_evaluations"] == res.trace["kernel_evaluations"]
    assert w["us"] == pytest.approx(3000.0 / len(order), rel=1e-12)
    assert w["us_per_update"] * w["updates"] == pytest.approx(3000.0, rel=1e-12)
    binary = fast.projectron(X, np.where(y == 0, 1, -1).astype(np.int64), order, **kw)
    assert bench.workload(0.001, binary, len(order))["updates"] == binary.trace["updates"]


def test_workload_without_updates_has_no_time_per_update(bench):
    """Every weight 0: no step changes the model, ``us_per_update`` is None (no division by zero)."""
    X, y, order = _problem(1)
    res = fast.multiclass_projectron(X, y, order, n_classes=3, kernel="rbf", gamma=0.5, degree=1, coef0=0.0, eta=0.2,
                                     budget=8, plusplus=False, sample_weight=np.zeros(len(y)))
    w = bench.workload(0.002, res, len(order))
    assert w["updates"] == 0 and w["us_per_update"] is None
