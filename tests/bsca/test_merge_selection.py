"""BSCA merging: the choice of m (the SV to merge) reads the coefficients' error bounds, as removal does.

Merging fixes ``m = argmin_j ||alpha_j||^2`` (Alg. 2, merging, line 1).  Repeated rows take identical
Newton steps in exact arithmetic, so their coefficients tie exactly; where ``g = 1 - y f`` cancels the
steps are tiny (1.7e-9) and carry a relative error of ~1e-4 (``refsvm.bsca.step_error``), so the
computed norms differ in their last digits, differently on the two paths, and an exact argmin sent the
paths to different slots.  Each slot now carries its bound ``e_j`` in merging runs too (merge(m, n):
``e_z = e_m + e_n``; remove: the last slot's bound moves) and m is chosen with the selection's tie rule
(``selection_tie_unit`` and ``solve_error_margin``: the lowest index within the band of the least).
Checked here:

* tied exact coefficients, computed within their bounds: both paths choose the lowest tied slot, whose
  exact norm (50 digits) is the exact least; the exact argmin of the computed norms did not;
* ``E`` follows merge(m, n) alike on both paths, and a continued run carries it (bitwise one call);
* the generated configuration of the long agreement run that parted in this choice now agrees;
* BSGD (no bounds) keeps the exact argmin.
"""

import mpmath
import numpy as np
import pytest
from agreement._generate import check, draw_config

import refsvm._fast.bsca as fast_bsca
import refsvm._fast.budget as fast_budget
from refsvm import bsca as ref_bsca
from refsvm import budget as ref_budget
from refsvm.budget import selection_tie_unit, solve_error_margin
from refsvm.kernels import Kernel

MERGES = {"python": ref_budget.merge_smallest, "fast": fast_budget.merge_smallest}
RUNS = {"python": ref_bsca.bsca, "fast": fast_bsca.bsca}
mpmath.mp.dps = 50

TIED = (2, 4, 5, 7)          # slots holding the same row with the same exact coefficient


def _tied_model(rng, a=1.665541038420315e-09, rel_error=2e-4):
    """8 SVs on 3 features: the slots ``TIED`` hold one row and the exact coefficient ``a`` (signs
    mixed), computed as ``a + d_j`` with ``|d_j| <= e_j = rel_error |a|`` (as 8729's Newton steps);
    the other slots hold other rows and larger coefficients, exact (``e_j = 0``).  Returns
    ``(SV, alpha, errors, exact)``, ``exact`` the exact coefficients."""
    SV = rng.normal(size=(9, 3))
    SV[list(TIED)] = SV[TIED[0]]
    exact = rng.uniform(1e-8, 1e-7, size=9) * rng.choice([-1.0, 1.0], size=9)
    errors = np.zeros(9)
    for j in TIED:
        exact[j] = a * (1.0 if j % 3 else -1.0)
        errors[j] = rel_error * a
    alpha = exact + rng.uniform(-1.0, 1.0, size=9) * errors
    return SV, alpha.reshape(-1, 1), errors, exact


@pytest.mark.parametrize("path", sorted(MERGES))
def test_tied_slots_choose_the_lowest_within_the_exact_band(path):
    """Both paths choose the lowest of the exactly tied slots whatever their rounding; its exact norm
    is the exact least (50 digits) and within the computed band of it; the exact argmin of the computed
    norms (the rule before) chose another slot in most draws."""
    rng = np.random.default_rng(29)
    unit = selection_tie_unit(Kernel("rbf", 1.0), 3)
    old_other = 0
    for _ in range(40):
        SV, alpha, errors, exact = _tied_model(rng)
        n_sv = 8                                                     # slot 8 unused (capacity B + 1)
        N_exact = [mpmath.mpf(float(v)) ** 2 for v in exact[:n_sv]]
        least = min(N_exact)
        t = unit * alpha[:n_sv, 0] ** 2 + solve_error_margin(alpha[:n_sv], errors[:n_sv], np.ones(n_sv))
        old_other += int(np.argmin(alpha[:n_sv, 0] ** 2)) != TIED[0]
        _, m, _, _ = MERGES[path](SV.copy(), alpha.copy(), n_sv, 1.0, 1e-3, "gss", None, None, unit, errors)
        assert m == TIED[0], (m, alpha[list(TIED), 0])
        assert N_exact[m] == least
        assert N_exact[m] - least <= t[m] + t[int(np.argmin(alpha[:n_sv, 0] ** 2))]
    assert old_other >= 20, old_other


@pytest.mark.parametrize("path", sorted(MERGES))
def test_without_bounds_the_exact_argmin(path):
    """BSGD's call (no ``tie_unit``, no ``errors``): the exact argmin of the computed norms, as before."""
    rng = np.random.default_rng(7)
    for _ in range(10):
        SV, alpha, _, _ = _tied_model(rng)
        _, m, _, _ = MERGES[path](SV.copy(), alpha.copy(), 8, 1.0, 1e-3, "gss", None)
        assert m == int(np.argmin(alpha[:8, 0] ** 2))


def _merging_data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 4))
    X[10:20] = X[0]                                                  # a repeated row
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=30) > 0, 1, -1).astype(np.int64)
    y[10:20] = 1
    return X, y


@pytest.mark.parametrize("sv_update", ["append", "accumulate"])
def test_bounds_follow_merges_alike_and_continue(sv_update):
    """``sv_error`` after merging runs: the same bounds on both paths (computed from their own f, within
    1e-9 relative), set from the steps and moved by merge(m, n) as the model's slots move; two calls
    (the first's ``sv_error`` handed on) are bitwise one call."""
    X, y = _merging_data()
    order = np.random.default_rng(5).integers(0, len(X), 90).astype(np.int64)
    kw = dict(budget=6, C=2.0, maintenance="merge", kernel="rbf", gamma=0.5, sv_update=sv_update)
    res = {name: run(X, y, order, **kw) for name, run in RUNS.items()}
    assert len(res["python"].trace["maint_index"]) > 20
    assert np.array_equal(res["python"].trace["maint_index"], res["fast"].trace["maint_index"])
    e_ref, e_fast = res["python"].sv_error, res["fast"].sv_error
    assert e_ref.shape == (6,) and np.all(e_ref > 0)
    np.testing.assert_allclose(e_fast, e_ref, rtol=1e-9, atol=0)
    for name, run in RUNS.items():
        a = run(X, y, order[:40], **kw)
        b = run(X, y, order[40:], sv=a.sv, alpha=a.alpha, dual=a.dual, sv_source=a.sv_source,
                sv_error=a.sv_error, t0=a.t, **kw)
        assert np.array_equal(b.alpha, res[name].alpha) and np.array_equal(b.sv_error, res[name].sv_error)


def test_merged_slot_errors_moves_as_merge_moves_slots():
    """merge(m, n) writes z into slot m, then remove(n) moves the last slot into n (also when m is
    the last); remove(m) (no partner) moves the last slot into m; a freed slot holds 0."""
    for n_sv, m, n, want in ((5, 1, 3, [0, 1 + 3, 2, 4, 0]), (5, 4, 2, [0, 1, 4 + 2, 3, 0]),
                             (5, 2, 4, [0, 1, 2 + 4, 3, 0]), (5, 1, -1, [0, 4, 2, 3, 0])):
        E = np.arange(6, dtype=np.float64)
        ref_bsca.merged_slot_errors(E, n_sv, m, n)
        assert E[:5].tolist() == want, (n_sv, m, n, E)


def test_parted_configuration_agrees():
    """Agreement configuration 8729 (BSCA merging, append, rbf, a class of one repeated row, near
    duplicates at 1e-9): three slots of one row tied exactly, 1.3e-7 apart on the compiled path;
    the paths merged slot 35 and 38 at epoch 4's seventh event."""
    result = check(draw_config(8729))
    assert result["status"] == "agree", result
