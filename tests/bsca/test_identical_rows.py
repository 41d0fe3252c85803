"""BSCA merging among identical rows: both paths take the same decisions and build the same model.

Data with many identical rows (one class is a single repeated row, the other has exact
duplicates): merge candidates holding the same row have weight degradation exactly 0, and
the computed values are rounding noise.  The compiled path's margin uses a kernel row one
ulp away from the reference's (vectorised exp), so the coefficients differ in their last
bits; an exact argmin over the noise then picks a different slot, and with
``sv_update="accumulate"`` the slot <-> example bookkeeping (which example keeps its own
slot) parts and the models drift.  The merge compares WDs with a tolerance from their error
bound and takes the lowest index among ties (:func:`refsvm.budget.least_wd_partner`).

Checked over 20 seeds, dense and CSR, both ``sv_update`` rules, four epochs continuing the
state: the discrete decisions (``changed``, ``added``, ``maint_index``, ``maint_partner``)
and the slot -> example map are equal, and the decision values agree within 1e-9 of their
scale.  The decisions are compared, not only ``maint_index`` (which matched even when the
models had drifted apart).
"""

import numpy as np
import pytest
import scipy.sparse as sp

import refsvm._fast.bsca as fast_bsca
import refsvm.bsca as ref_bsca
from refsvm.kernels import kernel_matrix
from _helpers import run_bsca_passes

GAMMA = 0.5
DECISIONS = ("changed", "added", "maint_index", "maint_partner", "maint_step")


def identical_rows(seed, n=60, d=3):
    """A positive class with exact duplicates (a sixth of its rows twice) and a negative class that
    is one row repeated; returns ``(X, y)``."""
    rng = np.random.default_rng(seed)
    pos = rng.normal(size=(n // 2, d))
    pos = np.vstack([pos, pos[:n // 6]])
    neg = np.tile(rng.normal(size=(1, d)), (n // 2, 1))
    X = np.vstack([pos, neg])
    y = np.r_[np.ones(len(pos)), -np.ones(len(neg))].astype(np.int64)
    return X, y


def _decision(X, res):
    sv = res.sv.toarray() if sp.issparse(res.sv) else np.asarray(res.sv)
    return kernel_matrix(X, sv, "rbf", GAMMA, 3, 0.0) @ res.alpha[:, 0]


def _compare(seed, sv_update, sparse, merge_solver="gss", budget=8, epochs=4, rtol=1e-9):
    X, y = identical_rows(seed)
    Xin = sp.csr_matrix(X) if sparse else X
    rng = np.random.default_rng(seed + 100)
    orders = [rng.permutation(len(y)) for _ in range(epochs)]
    kw = dict(budget=budget, C=10.0, maintenance="merge", kernel="rbf", gamma=GAMMA,
              merge_solver=merge_solver, sv_update=sv_update)
    ref = run_bsca_passes(ref_bsca, Xin, y, orders, **kw)
    fast = run_bsca_passes(fast_bsca, Xin, y, orders, **kw)
    events = 0
    for k, (f, r) in enumerate(zip(fast, ref)):
        where = f"seed {seed}, epoch {k + 1}"
        for key in DECISIONS:
            np.testing.assert_array_equal(f.trace[key], r.trace[key], err_msg=f"{where}: {key}")
        np.testing.assert_array_equal(f.sv_source, r.sv_source, err_msg=f"{where}: sv_source")
        F, R = _decision(X, f), _decision(X, r)
        scale = float(np.max(np.abs(R)))
        assert np.max(np.abs(F - R)) <= rtol * scale, f"{where}: decision values"
        events += len(r.trace["maint_partner"])
    return events, sum(int(np.sum(r.trace["maint_partner"] >= 0)) for r in ref)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("sv_update", ["accumulate", "append"])
def test_identical_rows_same_decisions_and_model(sv_update, sparse):
    merges = 0
    for seed in range(20):
        _, m = _compare(seed, sv_update, sparse)
        merges += m
    assert merges > 500                         # the runs merge (not vacuous)


@pytest.mark.parametrize("merge_solver", ["lookup-h", "lookup-wd"])
@pytest.mark.parametrize("sv_update", ["accumulate", "append"])
def test_identical_rows_other_solvers(merge_solver, sv_update):
    """The same with the lookup solvers.  (GSS-precise is left out: its h is searched to 1e-10 where
    the objective is flat to below rounding, so its models carry the ~1e-8 of the run's scale that
    tests/bsca/test_agreement.py documents, on any data; on these data that drift changes a step's
    ``changed`` decision once in 5 seeds x 4 epochs.)"""
    for seed in range(5):
        _compare(seed, sv_update, False, merge_solver)


def test_merges_of_identical_rows_happen():
    """The events the test is about: merges of two slots holding the same row (WD 0 up to rounding)."""
    X, y = identical_rows(0)
    rng = np.random.default_rng(100)
    res = ref_bsca.bsca(X, y, rng.permutation(len(y)), budget=8, C=10.0, maintenance="merge", kernel="rbf",
                        gamma=GAMMA, sv_update="accumulate")
    assert np.count_nonzero(res.trace["weight_degradation"] <= 1e-12) >= 5
