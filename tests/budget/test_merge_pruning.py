"""Partner pruning of the compiled merge (refsvm/_fast/budget.pyx, ``c_maintain_merge``).

The compiled path skips a merge candidate whose lower bound on the weight
degradation (WD) exceeds the best WD found so far; the reference scans every
candidate.  Pruning is speed only: it must never skip the partner the reference
chooses.  Checked here:

* the bound: below the WD that GSS (eps 0.01 and 1e-10) and Lookup-h compute,
  for random pairs over the whole range of ``m`` and ``kappa``, on and next to
  the bound table's nodes, and for equal coefficients;
* the two properties the bound rests on, by brute force on a grid four times
  finer than the bound table's: normalised WD does not decrease in
  ``m = a / (a + b)`` on ``[0, 1/2]`` and does not increase in ``kappa``;
* whole runs: BSGD and BSCA with pruning give bitwise the results of the plain
  scan (pruning switched off) and the reference's decisions, with duplicate
  rows (exact WD ties between candidates), several passes, sparse input;
* single events with exact ties: the lowest index wins, as in the reference;
* the exact solvers' cut on log kappa (``c_exact_cut``): never cuts a candidate whose WD could
  reach the best, coefficients far apart included; not vacuous;
* Lookup-WD's cut on log kappa (``_wd_cut_table``, ``c_wd_cut``): no candidate is ever cut by its
  own interpolated WD, the table's bound against a brute-force scan of the interpolation, the cut
  prunes (not vacuous), and tables of the user's (writable, arbitrary) give the plain scan's result.
"""

import math

import numpy as np
import pytest
import scipy.sparse as sp

import refsvm._fast.bsca as fast_bsca
import refsvm._fast.bsgd as fast_bsgd
import refsvm._fast.budget as fast_budget
import refsvm.bsgd as ref_bsgd
import refsvm.budget as ref_budget
from refsvm.lookup import compute_tables, get_tables
from refsvm.lookup import bilinear_array, merge_pair_lookup, merge_wd_lookup
from _helpers import checkerboard, run_bsca_passes, run_passes

G = fast_budget._MERGE_BOUND_GRID




def _pairs(rng, n):
    """Random same-sign pairs (a_m, a_n, log kappa): m over [0, 1/2], kappa over [0, 1], both signs."""
    a = rng.uniform(1e-3, 5.0, size=n)
    ratio = np.concatenate([rng.uniform(0.0, 1.0, n // 2), rng.uniform(0.9, 1.0, n - n // 2)])
    b = a / np.maximum(ratio, 1e-6)                    # b >= a
    kappa = np.concatenate([rng.uniform(0.0, 1.0, n // 2), np.exp(-rng.exponential(3.0, n - n // 2))])
    kappa = np.clip(kappa, 1e-300, 1.0)
    sign = rng.choice([-1.0, 1.0], size=n)
    return sign * a, sign * b, np.log(kappa)


def test_bound_below_computed_wd():
    rng = np.random.default_rng(0)
    tables = get_tables()
    am, an, lk = _pairs(rng, 3000)
    # small relative weights (below the first node), over kappa
    for mrel in np.geomspace(1e-7, 2.0 / G, 30):
        for k in (1e-3, 0.1, 0.5, 0.9, 0.999):
            am = np.append(am, mrel)
            an = np.append(an, 1.0 - mrel)
            lk = np.append(lk, math.log(k))
    # on and next to the nodes of the bound table, equal coefficients
    nodes = np.arange(1, G) / G
    for k in nodes[::3]:
        for mrel in (k / 2, 0.5):
            for eps in (0.0, 1e-15, -1e-15):
                a = mrel
                am = np.append(am, a)
                an = np.append(an, 1.0 - a)
                lk = np.append(lk, math.log(k * (1.0 + eps)))
    checked = 0
    for a_m, a_n, log_kappa in zip(am, an, lk):
        bound = fast_budget._merge_wd_bound(a_m, a_n, log_kappa)
        scale = (abs(a_m) + abs(a_n)) ** 2
        for eps in (0.01, 1e-10):
            _, _, wd = ref_budget.merge_pair(np.array([a_m]), np.array([a_n]), log_kappa, eps)
            assert bound <= wd, (a_m, a_n, log_kappa, eps, bound, wd)
        # swapped roles (the merge fixes m as the smaller |alpha|, the bound must not care)
        assert fast_budget._merge_wd_bound(a_n, a_m, log_kappa) == bound
        _, _, wd_h = merge_pair_lookup(a_m, a_n, log_kappa, "lookup-h", tables)
        assert bound <= wd_h
        # and the bound is not vacuous: within 0.05 (a + b)^2 of the precise WD
        _, _, wd_p = ref_budget.merge_pair(np.array([a_m]), np.array([a_n]), log_kappa, 1e-10)
        assert wd_p - bound <= 0.05 * scale
        checked += 1
    assert checked > 3000


def test_wd_monotone_on_a_finer_grid():
    """Brute force of the properties the bound rests on (normalised WD, GSS-precise nodes)."""
    wd = compute_tables(4 * G)[1]
    half = wd[: 2 * G + 1]                              # m in [0, 1/2]
    assert np.all(np.diff(half, axis=0) >= 0.0)        # WD does not decrease in m
    assert np.all(np.diff(wd, axis=1) <= 0.0)          # nor increase in kappa
    m = np.arange(1, 2 * G + 1) / (4 * G)
    ratio = half[1:] / (m * m)[:, None]
    assert np.all(np.diff(ratio, axis=0) <= 1e-13 * ratio[1:])   # WD / m^2 does not increase in m
    # the same for small m, below the first node, with the reference's own GSS-precise
    kappas = np.linspace(0.0, 1.0, 41)[1:-1]
    small = np.geomspace(1e-6, 1.0 / (4 * G), 25)
    prev = None
    for mrel in small:
        r = np.array([ref_budget.merge_pair(np.array([mrel]), np.array([1 - mrel]), math.log(k), 1e-10)[2]
                      for k in kappas]) / mrel ** 2
        if prev is not None:
            assert np.all(r <= prev + 1e-14 / mrel ** 2)     # WD's rounding (~1e-16) over m^2
        prev = r
    # and the coarse table the bound reads is the fine one's subgrid
    np.testing.assert_array_equal(compute_tables(G)[1], wd[::4, ::4])


def test_bound_derivative_identity():
    """The proof of the kappa property (docs/lookup.rst): at the optimal h, dWD/dt = 2 m (1-m) (A B - kappa)
    with t = -log kappa, A = kappa^((1-h)^2), B = kappa^(h^2), and A B >= kappa for h in [0, 1]."""
    for mrel in (0.1, 0.3, 0.45):
        for t in (0.3, 1.5, 4.0):
            dt = 1e-6

            def wd(tt):
                return ref_budget.merge_pair(np.array([mrel]), np.array([1.0 - mrel]), -tt, 1e-12)[2]

            numeric = (wd(t + dt) - wd(t - dt)) / (2 * dt)
            h = ref_budget.merge_h(np.array([mrel]), np.array([1.0 - mrel]), -t, 1e-12)
            A, B = math.exp(-t * (1 - h) ** 2), math.exp(-t * h * h)
            assert A * B >= math.exp(-t)
            np.testing.assert_allclose(numeric, 2 * mrel * (1 - mrel) * (A * B - math.exp(-t)), rtol=1e-5, atol=1e-9)


def _data_with_duplicates(seed):
    X, y = checkerboard(n=240, seed=seed)
    X = np.vstack([X, X[:60]])                          # exact duplicates: equal WD for two candidates
    y = np.concatenate([y, y[:60]])
    return X, y


BSGD_KW = dict(n_classes=2, budget=20, lam=1e-3, eta=0.5, radius=5.0, maintenance="merge", kernel="rbf",
               gamma=2.0, degree=3, coef0=0.0, merge_eps=0.01, projection_ridge=1e-10, fit_bias=False)


def _same_results(a, b):
    for ra, rb in zip(a, b):
        for key in ("added", "maint_step", "maint_index", "maint_partner", "weight_degradation"):
            np.testing.assert_array_equal(ra.trace[key], rb.trace[key], err_msg=key)
        for name in ("alpha", "bias"):
            np.testing.assert_array_equal(getattr(ra, name), getattr(rb, name), err_msg=name)
        sa = ra.sv.toarray() if sp.issparse(ra.sv) else ra.sv
        sb = rb.sv.toarray() if sp.issparse(rb.sv) else rb.sv
        np.testing.assert_array_equal(sa, sb)


@pytest.mark.parametrize("solver", ["gss", "gss-precise", "lookup-h", "lookup-wd"])
@pytest.mark.parametrize("learning_rate", ["pegasos", "norma", "perceptron"])
@pytest.mark.parametrize("sparse", [False, True])
def test_bsgd_pruned_equals_plain_scan(solver, learning_rate, sparse, request):
    X, y = _data_with_duplicates(1)
    _bsgd_pruned_vs_plain(X, y, 2, sparse, dict(BSGD_KW, learning_rate=learning_rate, merge_solver=solver),
                          reference=not sparse and learning_rate == "pegasos")


def _bsgd_pruned_vs_plain(X, y, seed, sparse, kw, reference):
    """Three BSGD passes (random permutations from ``seed``), pruned and with the plain scan: bitwise
    the same results (over 100 merges); with ``reference``, also the reference's decisions."""
    Xin = sp.csr_matrix(X) if sparse else X
    rng = np.random.default_rng(seed)
    orders = [rng.permutation(len(y)).astype(np.int64) for _ in range(3)]
    pruned = run_passes(fast_bsgd, Xin, y, orders, kw)
    assert sum(int(np.count_nonzero(r.trace["maint_partner"] >= 0)) for r in pruned) > 100
    previous = fast_budget._set_merge_pruning(False)
    try:
        plain = run_passes(fast_bsgd, Xin, y, orders, kw)
    finally:
        fast_budget._set_merge_pruning(previous)
    _same_results(pruned, plain)
    if reference:
        ref = run_passes(ref_bsgd, X, y, orders, kw)
        for f, r in zip(pruned, ref):
            for key in ("added", "maint_step", "maint_index", "maint_partner"):
                np.testing.assert_array_equal(f.trace[key], r.trace[key], err_msg=key)


def _bsca_runs_bitwise_equal(runs_a, runs_b):
    """Two lists of BSCA results (one per pass): the same events, coefficients, SVs and duals, bitwise."""
    for a, b in zip(runs_a, runs_b):
        for key in ("maint_step", "maint_index", "maint_partner", "weight_degradation"):
            np.testing.assert_array_equal(a.trace[key], b.trace[key], err_msg=key)
        np.testing.assert_array_equal(a.alpha, b.alpha)
        np.testing.assert_array_equal(a.dual, b.dual)
        sv_a, sv_b = (a.sv.toarray(), b.sv.toarray()) if sp.issparse(a.sv) else (a.sv, b.sv)
        np.testing.assert_array_equal(sv_a, sv_b)


def _bsca_switched(X, y, seed, switch, **kw):
    """Compiled BSCA with merging on two passes of random orders, run as is and with the speed switch
    ``switch`` (a ``_set_merge_*`` hook) off; returns ``(as_is, switched_off)``, one result per pass."""
    rng = np.random.default_rng(seed)
    orders = [rng.integers(0, len(y), size=len(y)).astype(np.int64) for _ in range(2)]
    kw = dict(dict(budget=15, C=2.0, maintenance="merge", kernel="rbf", gamma=2.0), **kw)
    as_is = run_bsca_passes(fast_bsca, X, y, orders, **kw)
    previous = switch(False)
    try:
        off = run_bsca_passes(fast_bsca, X, y, orders, **kw)
    finally:
        switch(previous)
    return as_is, off


@pytest.mark.parametrize("solver", ["gss", "lookup-h", "lookup-wd"])
@pytest.mark.parametrize("sv_update", ["accumulate", "append"])
def test_bsca_pruned_equals_plain_scan(solver, sv_update):
    X, y = _data_with_duplicates(3)
    pruned, plain = _bsca_switched(X, y, 4, fast_budget._set_merge_pruning, merge_solver=solver,
                                   sv_update=sv_update)
    assert sum(len(r.trace["maint_step"]) for r in pruned) > 100
    _bsca_runs_bitwise_equal(pruned, plain)


@pytest.mark.parametrize("solver", ["gss", "gss-precise", "lookup-h", "lookup-wd"])
def test_exact_ties_go_to_the_lowest_index(solver):
    """Several identical candidates (same point, same coefficient): the lowest index wins, and a
    nearer candidate placed after them wins over all of them."""
    rng = np.random.default_rng(5)
    tables = get_tables()
    for trial in range(20):
        d = 3
        SV = np.zeros((12, d))
        alpha = np.zeros((12, 1))
        SV[:11] = 3.0 * rng.standard_normal((11, d))
        alpha[:11, 0] = rng.uniform(1.0, 2.0, 11)
        alpha[0, 0] = 0.5                                    # m = 0
        twin = rng.integers(1, 6)
        for j in (twin, twin + 3, twin + 5):                 # three equal candidates
            SV[j] = SV[0] + 0.1
            alpha[j, 0] = 1.5
        if trial % 2:                                       # a nearer one after them
            SV[10] = SV[0] + 0.03
            alpha[10, 0] = 1.5
        Sr, Ar, Sf, Af = SV.copy(), alpha.copy(), SV.copy(), alpha.copy()
        r = ref_budget.maintain_merge(Sr, Ar, 11, 1.0, 0.01, solver, tables)
        f = fast_budget.maintain_merge(Sf, Af, 11, 1.0, 0.01, solver, tables)
        assert f[:3] == r[:3]
        assert f[2] == (10 if trial % 2 else twin)
        np.testing.assert_array_equal(Sf[:10], Sr[:10])
        np.testing.assert_array_equal(Af[:10], Ar[:10])


def test_pruning_switch(no_pruning):
    assert fast_budget._c_bound_table(True)[1] == 0           # off: no table, plain scan
    fast_budget._set_merge_pruning(True)
    table, grid = fast_budget._c_bound_table(True)
    assert grid == G and table.shape == (2 * G + 4, G + 1) and not table.flags.writeable
    assert fast_budget._c_bound_table(False)[1] == 0


@pytest.mark.parametrize("solver", ["gss", "lookup-wd"])
@pytest.mark.parametrize("scale,spread", [(1e150, 2.0), (0.8e154, 1.05), (1e160, 2.0), (1e300, 2.0)])
def test_overflowing_coefficients_make_the_plain_scan_decision(scale, spread, solver, no_pruning):
    """Coefficients so large that (a + b)^2 or WD overflows (inf / NaN): pruning on gives the plain
    scan's result.  At 0.8e154, (a + b)^2 overflows while a^2 + b^2 and the WD of a far partner do
    not: a candidate the bound cannot judge must still be evaluated."""
    rng = np.random.default_rng(7)
    for trial in range(10):
        SV = np.zeros((9, 3))
        alpha = np.zeros((9, 1))
        SV[:8] = 3.0 * rng.standard_normal((8, 3))
        alpha[:8, 0] = scale * rng.uniform(1.0, spread, 8)
        fast_budget._set_merge_pruning(False)
        Sp, Ap = SV.copy(), alpha.copy()
        plain = fast_budget.maintain_merge(Sp, Ap, 8, 1.0, 0.01, solver)
        fast_budget._set_merge_pruning(True)
        Sq, Aq = SV.copy(), alpha.copy()
        pruned = fast_budget.maintain_merge(Sq, Aq, 8, 1.0, 0.01, solver)
        assert pruned[:3] == plain[:3]
        np.testing.assert_array_equal(Sq, Sp)
        np.testing.assert_array_equal(Aq, Ap)


@pytest.mark.parametrize("solver", ["gss", "lookup-h", "lookup-wd"])
@pytest.mark.parametrize("sv_update", ["accumulate", "append"])
@pytest.mark.parametrize("sparse", [False, True])
def test_bsca_reusing_the_steps_kernel_row_changes_nothing(solver, sv_update, sparse):
    """BSCA's merge reads the log kappas of the SV it merges from the step's kernel row when that SV
    is the one the step added (most events: checked); bitwise the run that computes them afresh."""
    X, y = _data_with_duplicates(5)
    Xin = sp.csr_matrix(X) if sparse else X
    hinted, fresh = _bsca_switched(Xin, y, 6, fast_bsca._set_merge_hint, budget=15, merge_solver=solver,
                                   sv_update=sv_update)
    new_sv = np.concatenate([r.trace["maint_index"] for r in hinted]) == 15       # the new SV's slot
    assert new_sv.size > 100 and new_sv.mean() > 0.5
    _bsca_runs_bitwise_equal(hinted, fresh)


# ----------------------------------------------------------------------------
# Lookup-WD: the cut on log kappa
# ----------------------------------------------------------------------------

def test_lookup_wd_cut_never_cuts_a_candidate_by_its_own_wd():
    """For every pair, the cut computed from the pair's own interpolated WD lies at or below its log
    kappa: the cut only ever skips candidates whose WD exceeds the best so far (the cut rises as the
    best WD falls).  Random pairs over m and kappa, tiny m, m = 1/2, kappa on and next to the table's
    nodes, kappa below the first node."""
    rng = np.random.default_rng(12)
    tables = get_tables()
    wd_table = tables[1]
    Gt = wd_table.shape[0] - 1
    am, an, lk = _pairs(rng, 4000)
    extra = []
    for k in list(np.arange(0, Gt + 1, 7) / Gt) + [1e-300, 1e-9, 0.3 / Gt, 1.0]:
        for eps in (0.0, 1e-15, -1e-15):
            for mrel in (1e-7, 0.3 / Gt, 0.1, 0.37, 0.5):
                kk = min(max(k * (1.0 + eps), 1e-300), 1.0)
                extra.append((mrel, 1.0 - mrel, math.log(kk)))
    am = np.concatenate([am, [e[0] for e in extra]])
    an = np.concatenate([an, [e[1] for e in extra]])
    lk = np.concatenate([lk, [e[2] for e in extra]])
    cut_some = 0
    for a_m, a_n, log_kappa in zip(am, an, lk):
        wd = merge_wd_lookup(a_m, a_n, log_kappa, wd_table)
        assert fast_budget._lookup_wd_cut(a_m, wd) <= log_kappa, (a_m, a_n, log_kappa, wd)
        # a better candidate elsewhere: the cut may now reach this one, and then its WD is larger
        for better in (0.999 * wd, 0.9 * wd, 0.5 * wd):
            if fast_budget._lookup_wd_cut(a_m, better) > log_kappa:
                assert wd > better
                cut_some += 1
    assert cut_some > 1000                              # the check above was exercised


def test_lookup_wd_cut_table_against_brute_force():
    """P[J], the bound of interpolated WD / m^2 over m <= 1/2 and the kappa cells <= J, against a scan
    of the interpolation on a grid that includes the table's nodes (where it is attained)."""
    _, wd_table = get_tables()
    Gt = wd_table.shape[0] - 1
    cut = fast_budget._wd_cut_table(wd_table)
    assert cut.shape == (2, Gt)
    assert np.all(np.diff(cut[0]) <= 0.0)
    np.testing.assert_allclose(cut[1], np.log(np.arange(1, Gt + 1) / Gt) - 1e-9, rtol=0, atol=1e-15)
    nodes = np.arange(Gt + 1) / Gt
    m = np.unique(np.concatenate([nodes[1:Gt // 2 + 1], np.geomspace(1e-9, 0.5, 200),
                                  np.linspace(1e-6, 0.5, 301)]))
    for J in (0, 1, 5, 40, 133, Gt // 2, Gt - 2, Gt - 1):
        kappa = np.unique(np.concatenate([nodes[:J + 2], np.linspace(0.0, (J + 1) / Gt, 97)]))
        M, K = np.meshgrid(m, kappa, indexing="ij")         # the closed cells: kappa <= (J + 1) / G
        ratio = bilinear_array(M, K, wd_table) / (M * M)
        assert ratio.min() >= cut[0, J] * (1.0 - 1e-12), J
        assert ratio.min() <= cut[0, J] * (1.0 + 1e-12), J     # attained at a node: the bound is tight


def test_lookup_wd_cut_prunes():
    """Not vacuous: with the best WD at half of a_m^2, every candidate with kappa below ~0.24 is cut;
    at 0.9999 a_m^2 (a far partner: WD -> a_m^2 as kappa -> 0), those below the first cell; with a best
    WD of a_m^2 (removal's) nothing is cut."""
    assert fast_budget._lookup_wd_cut(2.0, 0.5 * 4.0) > math.log(0.2)
    assert fast_budget._lookup_wd_cut(-2.0, 0.5 * 4.0) == fast_budget._lookup_wd_cut(2.0, 2.0)
    assert fast_budget._lookup_wd_cut(2.0, 0.9999 * 4.0) > math.log(0.002)
    assert fast_budget._lookup_wd_cut(2.0, 4.0) == -math.inf
    assert fast_budget._lookup_wd_cut(2.0, math.inf) == -math.inf
    assert fast_budget._lookup_wd_cut(2.0, math.nan) == -math.inf
    assert fast_budget._lookup_wd_cut(1e200, 1.0) == -math.inf       # a_m^2 overflows: no cut


def test_lookup_wd_with_the_users_tables_makes_the_plain_scan_decision(no_pruning):
    """A writable table of the user's (arbitrary nonnegative values: the cut assumes nothing else of
    it; and with a negative entry: no cut) gives the plain scan's partner, every time (its cut table is
    computed afresh, never taken from the shared tables' cache)."""
    rng = np.random.default_rng(13)
    h_table, wd_table = get_tables()
    for variant in range(3):
        w = np.array(wd_table) * rng.uniform(0.2, 3.0, size=wd_table.shape)
        if variant == 1:
            w = np.array(wd_table)[:, ::-1].copy()            # WD growing in kappa
        if variant == 2:
            w[5, 7] = -1.0
        tables = (np.array(h_table), w)
        for trial in range(40):
            n = 30
            SV = rng.standard_normal((n, 3))
            SV[1:6] = SV[0] + 0.05 * rng.standard_normal((5, 3))
            alpha = rng.uniform(0.2, 2.0, size=(n, 1)) * rng.choice([-1.0, 1.0], size=(n, 1))
            alpha[0, 0] = 0.1 * np.sign(alpha[0, 0])
            fast_budget._set_merge_pruning(False)
            Sp, Ap = SV.copy(), alpha.copy()
            plain = fast_budget.maintain_merge(Sp, Ap, n, 0.7, 0.01, "lookup-wd", tables)
            fast_budget._set_merge_pruning(True)
            Sq, Aq = SV.copy(), alpha.copy()
            pruned = fast_budget.maintain_merge(Sq, Aq, n, 0.7, 0.01, "lookup-wd", tables)
            assert pruned == plain
            np.testing.assert_array_equal(Sq, Sp)
            np.testing.assert_array_equal(Aq, Ap)
            r = ref_budget.maintain_merge(SV.copy(), alpha.copy(), n, 0.7, 0.01, "lookup-wd", tables)
            assert r[:3] == plain[:3]


# ----------------------------------------------------------------------------
# The exact solvers: the cut on log kappa before the per-candidate bound
# ----------------------------------------------------------------------------

def test_exact_cut_never_cuts_a_candidate_that_could_win():
    """A candidate below the cut with |alpha_n| <= a_max has a WD (GSS at eps 0.01 and 1e-10,
    Lookup-h) strictly above the best WD the cut was computed from: checked with the candidate's own
    WD as the best (it must never be cut by it) and with better ones; random pairs over m and kappa,
    tiny m, m = 1/2, kappa on and next to the bound table's nodes, and coefficients far apart
    (a_n up to 1e9 a_m, where the rounding margin and not the bound decides)."""
    rng = np.random.default_rng(14)
    tables = get_tables()
    am, an, lk = _pairs(rng, 3000)
    extra = []
    for k in list(np.arange(0, G + 1) / G) + [1e-300, 1e-9]:
        for eps in (0.0, 1e-15, -1e-15):
            for mrel in (1e-7, 0.3 / G, 0.1, 0.5):
                extra.append((mrel, 1.0 - mrel, math.log(min(max(k * (1.0 + eps), 1e-300), 1.0))))
    for ratio in (1e3, 1e5, 1e7, 1e9):
        for k in (1e-6, 0.01, 0.2):
            extra.append((1.0, ratio, math.log(k)))
    am = np.concatenate([am, [e[0] for e in extra]])
    an = np.concatenate([an, [e[1] for e in extra]])
    lk = np.concatenate([lk, [e[2] for e in extra]])
    cut_some = 0
    for a_m, a_n, log_kappa in zip(am, an, lk):
        wds = [ref_budget.merge_pair(np.array([a_m]), np.array([a_n]), log_kappa, eps)[2] for eps in (0.01, 1e-10)]
        wds.append(merge_pair_lookup(a_m, a_n, log_kappa, "lookup-h", tables)[2])
        wd = min(wds)
        for best in (wd, 0.999 * wd, 0.9 * wd, 0.5 * wd):
            cut, a_max = fast_budget._exact_cut(a_m, best)
            if log_kappa < cut and abs(a_n) <= a_max:
                assert wd > best, (a_m, a_n, log_kappa, best, wd)
                cut_some += 1
    assert cut_some > 1000                              # the check above was exercised


def test_exact_cut_prunes():
    """Not vacuous: with the best WD at half of a_m^2, candidates with kappa below ~0.23 and
    |alpha_n| up to ~1e5 |alpha_m| are cut; at a_m^2 (removal's WD) nothing is."""
    cut, a_max = fast_budget._exact_cut(2.0, 0.5 * 4.0)
    assert cut > math.log(0.2) and a_max > 1e5
    assert fast_budget._exact_cut(-2.0, 2.0) == (cut, a_max)
    assert fast_budget._exact_cut(2.0, 4.0)[0] < -1e308
    assert fast_budget._exact_cut(2.0, math.inf)[0] < -1e308
    assert fast_budget._exact_cut(2.0, math.nan)[0] < -1e308


# ----------------------------------------------------------------------------
# GSS: the bound from the search's own end points (c_gss_h_min, c_gss_wd_bound)
# ----------------------------------------------------------------------------

GSS_EPS = (1e-5, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.7, 2.0)


def _far_pairs(rng, n):
    """Same-sign pairs over many magnitudes: |a_n / a_m| from 1e-4 to 1e4, kappa from ~1 down to
    1e-300 (points far apart, where GSS's end points and not the best h decide the WD)."""
    a = rng.uniform(1e-3, 5.0, n) * 10.0 ** rng.uniform(-6, 0, n)
    b = a * 10.0 ** rng.uniform(0, 4, n)
    lk = -(10.0 ** rng.uniform(-4, math.log10(690.0), n))
    sign = rng.choice([-1.0, 1.0], size=n)
    swap = rng.random(n) < 0.5
    return np.where(swap, b, a) * sign, np.where(swap, a, b) * sign, lk


def test_gss_h_min_bounds_the_searchs_h():
    """Every h that GSS returns (compiled and reference) lies in [h_min, 1 - h_min]; h_min is tight:
    far-apart pairs reach it to 1e-4 (but for eps = 0.5, where the margin takes one more step)."""
    rng = np.random.default_rng(21)
    for eps in GSS_EPS:
        h_min = fast_budget._gss_h_min(eps)
        assert 0.0 < h_min <= 0.25
        am, an, lk = _far_pairs(rng, 400)
        seen = 1.0
        for a_m, a_n, log_kappa in zip(am, an, lk):
            h = fast_budget.merge_h(np.array([a_m]), np.array([a_n]), log_kappa, eps)
            h_ref = ref_budget.merge_pair(np.array([a_m]), np.array([a_n]), log_kappa, eps)[0]
            for value in (h, h_ref):
                assert h_min <= min(value, 1.0 - value), (eps, a_m, a_n, log_kappa, value, h_min)
            seen = min(seen, h, 1.0 - h)
        if eps != 0.5:
            assert seen <= h_min * (1.0 + 1e-4), (eps, seen, h_min)
    assert fast_budget._gss_h_min(1e-7) == 0.0                 # below GSS_BOUND_MIN_EPS: no bound
    assert fast_budget._gss_wd_bound(1.0, 3.0, math.log(1e-9), 1e-7) == 0.0


def test_gss_bound_below_computed_wd():
    """The bound never exceeds the WD that GSS of the same eps computes, compiled or reference: random
    pairs near and far apart, coefficients up to 1e4 apart, both orders and signs, duplicates
    (kappa = 1), equal coefficients; and it is not vacuous (above the exact bound in many cases)."""
    rng = np.random.default_rng(22)
    above_exact = 0
    checked = 0
    for eps in GSS_EPS:
        am, an, lk = _far_pairs(rng, 600)
        am2, an2, lk2 = _pairs(rng, 200)
        am = np.concatenate([am, am2, [1.0, 2.0, 1.0, 1e-8]])
        an = np.concatenate([an, an2, [1.0, 2.0, 5.0, 1.0]])
        lk = np.concatenate([lk, lk2, [0.0, math.log(1e-300), -700.0, math.log(0.5)]])
        for a_m, a_n, log_kappa in zip(am, an, lk):
            bound = fast_budget._gss_wd_bound(a_m, a_n, log_kappa, eps)
            pair = (np.array([a_m]), np.array([a_n]), log_kappa, eps)
            wd = fast_budget.merge_pair(*pair)[2]
            wd_ref = ref_budget.merge_pair(*pair)[2]
            assert bound <= wd and bound <= wd_ref, (eps, a_m, a_n, log_kappa, bound, wd, wd_ref)
            assert fast_budget._gss_wd_bound(a_n, a_m, log_kappa, eps) == bound
            assert fast_budget._gss_wd_bound(-a_m, -a_n, log_kappa, eps) == bound
            above_exact += bound > fast_budget._merge_wd_bound(a_m, a_n, log_kappa)
            checked += 1
    assert checked > 6000 and above_exact > 1000


def test_gss_bound_prunes_where_the_exact_bound_cannot():
    """Far-apart points (kappa = 1e-9), a_n = 3 a_m: the best h costs little more than removing m, so
    the exact bound stays below a_m^2; GSS stops at h >= h_min ~ 0.0033, and its bound lies above
    a_m^2 and within 5% of GSS's excess over a_m^2."""
    a_m, a_n, log_kappa = 1.0, 3.0, math.log(1e-9)
    wd = fast_budget.merge_pair(np.array([a_m]), np.array([a_n]), log_kappa, 0.01)[2]
    exact = fast_budget._merge_wd_bound(a_m, a_n, log_kappa)
    gss = fast_budget._gss_wd_bound(a_m, a_n, log_kappa, 0.01)
    assert exact < a_m ** 2 < gss <= wd
    assert wd - gss < 0.05 * (wd - a_m ** 2)


def _far_apart_data(seed):
    """Points far apart for gamma = 300 (kappa mostly below 1e-9), duplicates included."""
    X, y = checkerboard(n=200, seed=seed)
    X = np.vstack([X, X[:40]])
    return X, np.concatenate([y, y[:40]])


@pytest.mark.parametrize("learning_rate", ["pegasos", "norma", "perceptron"])
@pytest.mark.parametrize("sparse", [False, True])
def test_far_apart_bsgd_pruned_equals_plain_scan(learning_rate, sparse):
    """Where GSS's own bound does most of the pruning: bitwise the plain scan's results, and the
    reference's decisions."""
    X, y = _far_apart_data(6)
    kw = dict(BSGD_KW, learning_rate=learning_rate, merge_solver="gss", gamma=300.0, lam=1e-4)
    _bsgd_pruned_vs_plain(X, y, 7, sparse, kw, reference=not sparse)


@pytest.mark.parametrize("sv_update", ["accumulate", "append"])
def test_far_apart_bsca_pruned_equals_plain_scan(sv_update):
    X, y = _far_apart_data(8)
    pruned, plain = _bsca_switched(X, y, 9, fast_budget._set_merge_pruning, merge_solver="gss",
                                   sv_update=sv_update, gamma=300.0, C=50.0)
    assert sum(len(r.trace["maint_step"]) for r in pruned) > 100
    _bsca_runs_bitwise_equal(pruned, plain)


def test_sign_flags_against_numpy():
    """The vectorised sign flags and same-sign count of the pruned scans: zeros, signed zeros, inf,
    NaN coefficients and log kappas of -inf, against numpy (any length, so every clone's tail runs)."""
    rng = np.random.default_rng(23)
    pool = np.array([0.0, -0.0, 1.5, -2.0, math.inf, -math.inf, math.nan, 1e-300, -1e-300])
    for n in list(range(0, 12)) + [37, 64, 101]:
        a = np.where(rng.random(n) < 0.5, rng.choice(pool, n), rng.normal(size=n))
        lk = np.where(rng.random(n) < 0.2, -math.inf, -rng.exponential(3.0, n))
        for am0 in (1.0, -0.5, 0.0, -0.0, math.inf, 1e-300):
            flags, same = fast_budget._sign_flags(a, lk, am0)
            with np.errstate(invalid="ignore"):
                p = am0 * a
                np.testing.assert_array_equal(flags, (~(p < 0.0)) & (lk > -math.inf))
                assert same == int(np.count_nonzero(p >= 0.0))
