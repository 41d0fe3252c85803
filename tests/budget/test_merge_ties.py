"""Ties of merging's weight degradations (``least_wd_partner`` of refsvm/budget.py, the compiled scan).

Merge candidates whose weight degradations (WD) are within rounding of the least are ties;
the partner is the lowest index among them, on both paths (refsvm.budget.least_wd_partner).
Checked here:

* the error bound the tolerance rests on: the WD that GSS and Lookup-h compute (both paths)
  is within ``(32 + 4 c) u (||alpha_m||^2 + ||alpha_n||^2)`` of the same formula evaluated in
  60-digit arithmetic (mpmath) on the same inputs, duplicates (kappa = 1, WD exactly 0) and
  near-duplicates included; the tolerance is twice that bound;
* candidates holding the same row as m: the lowest index wins on both paths, with pruning on
  and off, for every solver, binary and multi-class, and stays the winner when coefficients
  move by an ulp (the paths' coefficients differ by that much in BSCA);
* without a near-tie the rule is the exact argmin (models unchanged where no tie exists);
* near-duplicates (1e-7 .. 1e-14 apart) and exact duplicates mixed: the pruned scan, the plain
  scan and the reference choose the same partner and build bitwise the same model;
* the comparison mode (``merge_compare``) applies each solver's rule, ties included: on
  duplicates of m every solver picks the lowest copy, on both paths;
* BSGD (the other caller of the merge) on data with identical rows: both paths choose the same
  partners (the perceptron's equal coefficients made the exact argmin part the paths before).
"""

import math

import mpmath
import numpy as np
import pytest

import refsvm._fast.bsgd as fast_bsgd
import refsvm._fast.budget as fast_budget
import refsvm.bsgd as ref_bsgd
import refsvm.budget as ref_budget
from refsvm.lookup import get_tables, merge_pair_lookup
from _helpers import run_passes

SOLVERS = ("gss", "gss-precise", "lookup-h", "lookup-wd")
U = 2.0 ** -53




def _exact_wd(a_m, a_n, h, log_kappa):
    """``||a_m||^2 + ||a_n||^2 + 2 kappa a_m.a_n - ||a_m kappa^((1-h)^2) + a_n kappa^(h^2)||^2`` in 60 digits."""
    with mpmath.workdps(60):
        lk = mpmath.mpf(log_kappa)
        h = mpmath.mpf(h)
        k_mz, k_nz, kappa = mpmath.exp((1 - h) ** 2 * lk), mpmath.exp(h * h * lk), mpmath.exp(lk)
        am = [mpmath.mpf(v) for v in a_m]
        an = [mpmath.mpf(v) for v in a_n]
        az = [x * k_mz + y * k_nz for x, y in zip(am, an)]
        return (sum(x * x for x in am) + sum(y * y for y in an) + 2 * kappa * sum(x * y for x, y in zip(am, an))
                - sum(z * z for z in az))


@pytest.mark.parametrize("c", [1, 3])
def test_wd_within_the_stated_error_bound(c):
    rng = np.random.default_rng(10 + c)
    tables = get_tables()
    worst = 0.0
    for trial in range(300):
        a_m = rng.uniform(-3.0, 3.0, c) * 10.0 ** rng.uniform(-3, 3)
        a_n = rng.uniform(-3.0, 3.0, c) * 10.0 ** rng.uniform(-3, 3)
        if c == 1:
            a_n = np.abs(a_n) * np.sign(a_m)                 # a binary pair is of equal sign
        kind = trial % 3
        log_kappa = 0.0 if kind == 0 else (-(10.0 ** rng.uniform(-30, -8)) if kind == 1 else -rng.exponential(2.0))
        computed = []
        for mod in (ref_budget, fast_budget):
            for eps in (0.01, 1e-10):
                h, _, wd = mod.merge_pair(a_m.copy(), a_n.copy(), log_kappa, eps)
                computed.append((h, wd))
        if c == 1:
            h, _, wd = merge_pair_lookup(float(a_m[0]), float(a_n[0]), log_kappa, "lookup-h", tables)
            computed.append((h, wd))
        bound = (32 + 4 * c) * U * (float(a_m @ a_m) + float(a_n @ a_n))
        for h, wd in computed:
            exact = _exact_wd(a_m, a_n, h, log_kappa)
            err = abs(mpmath.mpf(wd) - max(exact, 0))
            assert err <= bound, (trial, a_m, a_n, log_kappa, h, wd, exact)
            worst = max(worst, float(err / bound))
    assert worst > 1e-3                                      # the bound is not vacuous by orders of magnitude


def _duplicate_model(rng, c, n_sv=14, d=3):
    """A model whose smallest SV m has several exact copies among the others (WD exactly 0), plus
    distinct rows; binary models of one sign.  Returns ``(SV, alpha, m, copies)``."""
    SV = rng.normal(size=(n_sv, d))
    alpha = rng.uniform(0.5, 2.0, size=(n_sv, c)) * (1.0 if c == 1 else rng.choice([-1.0, 1.0], (n_sv, c)))
    m = int(rng.integers(n_sv))
    alpha[m] *= 0.1                                          # m is the smallest
    copies = np.sort(rng.choice([j for j in range(n_sv) if j != m], size=4, replace=False))
    SV[copies] = SV[m]
    return SV, alpha, m, copies


def _merge(mod, SV, alpha, solver, tables):
    S, A = SV.copy(), alpha.copy()
    out = mod.maintain_merge(S, A, len(S), 0.7, 0.01, solver, tables)
    return out, S[:out[0]], A[:out[0]]


@pytest.mark.parametrize("prune", [True, False], ids=["pruned", "plain"])
@pytest.mark.parametrize("solver", SOLVERS)
def test_duplicates_of_m_go_to_the_lowest_index(solver, prune, request):
    if not prune:
        request.getfixturevalue("no_pruning")
    rng = np.random.default_rng(3)
    tables = get_tables()
    for trial in range(60):
        c = 1 if solver in ("lookup-h", "lookup-wd") or trial % 2 else 3
        SV, alpha, m, copies = _duplicate_model(rng, c)
        winners = set()
        for nudge in range(4):                               # coefficients moved by an ulp: same partner
            A = alpha.copy()
            if nudge:
                j = rng.integers(len(A), size=3)
                A[j, 0] = np.nextafter(A[j, 0], np.inf if nudge % 2 else -np.inf)
            r, Sr, Ar = _merge(ref_budget, SV, A, solver, tables)
            f, Sf, Af = _merge(fast_budget, SV, A, solver, tables)
            assert f[:3] == r[:3], (trial, nudge)
            assert r[1] == m and r[2] == copies[0], (trial, nudge, r, copies)
            np.testing.assert_array_equal(Sf, Sr)
            np.testing.assert_array_equal(Af, Ar)
            winners.add(r[2])
        assert winners == {copies[0]}


def test_without_near_ties_the_rule_is_the_exact_argmin():
    """Distinct rows: the partner is the exact argmin of the WDs (lowest index on exact equality)."""
    rng = np.random.default_rng(4)
    for trial in range(100):
        c = 1 if trial % 2 else 3
        n_sv = 12
        SV = rng.normal(size=(n_sv, 3))
        alpha = rng.uniform(0.1, 2.0, size=(n_sv, c))
        m, _ = ref_budget.select_smallest(SV, alpha, n_sv, "rbf", 0.7, 0, 0.0)
        wds = [ref_budget.merge_pair(alpha[m], alpha[n], -0.7 * float(np.sum((SV[m] - SV[n]) ** 2)), 0.01)[2]
               if n != m else math.inf for n in range(n_sv)]
        out, _, _ = _merge(ref_budget, SV, alpha, "gss", None)
        assert out[2] == int(np.argmin(wds))


@pytest.mark.parametrize("solver", SOLVERS)
def test_near_duplicates_pruned_plain_and_reference_agree(solver):
    """Copies of m moved by 1e-7 .. 1e-14 (WDs of order 1e-14 .. 1e-28, within or beyond the
    tolerance) and exact copies: the three scans make the same choice and the same model."""
    rng = np.random.default_rng(6)
    tables = get_tables()
    for trial in range(80):
        SV, alpha, m, copies = _duplicate_model(rng, 1)
        for j in copies[rng.random(len(copies)) < 0.6]:
            SV[j] = SV[m] + 10.0 ** -rng.uniform(7, 14) * rng.normal(size=SV.shape[1])
        alpha[copies, 0] = np.round(alpha[copies, 0], int(rng.integers(0, 3)))   # equal coefficients at times
        r, Sr, Ar = _merge(ref_budget, SV, alpha, solver, tables)
        f, Sf, Af = _merge(fast_budget, SV, alpha, solver, tables)
        previous = fast_budget._set_merge_pruning(False)
        try:
            p, Sp, Ap = _merge(fast_budget, SV, alpha, solver, tables)
        finally:
            fast_budget._set_merge_pruning(previous)
        assert f[:3] == r[:3] == p[:3], (trial, r, f, p)
        for S, A in ((Sf, Af), (Sp, Ap)):
            np.testing.assert_array_equal(S, Sr)
            np.testing.assert_array_equal(A, Ar)


def test_comparison_mode_applies_the_tie_rule():
    rng = np.random.default_rng(8)
    tables = get_tables()
    for trial in range(60):
        SV, alpha, m, copies = _duplicate_model(rng, 1)
        if trial % 2:
            j = rng.integers(len(alpha), size=3)
            alpha[j, 0] = np.nextafter(alpha[j, 0], np.inf)
        r = ref_budget.merge_compare(SV.copy(), alpha.copy(), len(SV), 0.7, 0.01, tables)
        f = fast_budget.merge_compare(SV.copy(), alpha.copy(), len(SV), 0.7, 0.01, tables)
        np.testing.assert_array_equal(r[0], np.ones(4, dtype=bool), err_msg=f"trial {trial}")
        np.testing.assert_array_equal(f[0], r[0])
        np.testing.assert_array_equal(f[1], r[1])
        np.testing.assert_array_equal(f[2], r[2])


def _identical_rows(seed, n=60, d=3):
    """A positive class with exact duplicates and a negative class that is one row repeated."""
    rng = np.random.default_rng(seed)
    pos = rng.normal(size=(n // 2, d))
    pos = np.vstack([pos, pos[:n // 6]])
    neg = np.tile(rng.normal(size=(1, d)), (n // 2, 1))
    y = np.r_[np.ones(len(pos)), -np.ones(len(neg))].astype(np.int64)
    return np.vstack([pos, neg]), y


@pytest.mark.parametrize("learning_rate", ["perceptron", "pegasos"])
def test_bsgd_identical_rows_same_partners(learning_rate):
    kw = dict(n_classes=2, budget=8, lam=1e-2, learning_rate=learning_rate, eta=0.5, radius=5.0,
              maintenance="merge", kernel="rbf", gamma=0.5, degree=3, coef0=1.0, merge_eps=0.01,
              projection_ridge=1e-10, fit_bias=False, merge_solver="gss")
    for seed in range(20):
        X, y = _identical_rows(seed)
        rng = np.random.default_rng(seed + 100)
        orders = [rng.permutation(len(y)) for _ in range(4)]
        ref = run_passes(ref_bsgd, X, y, orders, kw)
        fast = run_passes(fast_bsgd, X, y, orders, kw)
        for k, (f, r) in enumerate(zip(fast, ref)):
            for key in ("maint_step", "maint_index", "maint_partner"):
                np.testing.assert_array_equal(f.trace[key], r.trace[key], err_msg=f"seed {seed}, pass {k + 1}: {key}")
            np.testing.assert_allclose(f.alpha, r.alpha, rtol=1e-9, atol=1e-12 * float(np.max(np.abs(r.alpha))))
