"""BPA-NN's tie tolerances (refsvm.online.passive_aggressive.bpann_tolerances and the neighbour rule of
nearest_neighbours) against 60-digit arithmetic: the computed numbers' rounding error, and the change a kernel value
error of at most eps_K makes, stay within the stated bounds (as tests/online/test_decision_ties.py does for BPA-S)."""

import numpy as np

from _helpers import mpmath_60

from refsvm.online.passive_aggressive import bpann_tolerances, nearest_neighbours

U = 2.0 ** -53


def _candidates(rng, b):
    """A kernel matrix of b SVs and x_t (Gaussian kernel on random rows, some near-duplicates), coefficients, and
    every candidate's neighbour n (any other slot)."""
    d = int(rng.integers(1, 5))
    Z = rng.normal(size=(b + 1, d)) * 10.0 ** rng.uniform(-1, 1)
    if rng.random() < 0.5:                                  # x_t near an SV: s and e cancel
        Z[int(rng.integers(0, b))] = Z[b] + 10.0 ** rng.uniform(-6, -2) * rng.normal(size=d)
    sq = ((Z[:, None, :] - Z[None, :, :]) ** 2).sum(-1)
    K = np.exp(-float(10.0 ** rng.uniform(-1, 0.5)) * sq)
    G, k, k_tt = K[:b, :b], K[b, :b].copy(), float(K[b, b])
    a = rng.normal(size=b) * 10.0 ** rng.uniform(-2, 2)
    n = np.array([(r + 1 + int(rng.integers(0, b - 1))) % b for r in range(b)])
    return G, k, k_tt, a, n


def _float_terms(G, k, k_tt, a, n):
    """The reference's expressions, in its order (nearest_neighbour_replacement)."""
    r_all = np.arange(G.shape[0])
    k_tr, k_tn, k_nr, k_rr, k_nn = k, k[n], G[n, r_all], np.diag(G), np.diag(G)[n]
    s = k_nn - k_tn * k_tn / k_tt
    m = k_nr - k_tn * k_tr / k_tt
    e = k_rr - k_tr * k_tr / k_tt
    return k_tr, k_tn, k_nr, k_rr, k_nn, s, m, e


def _exact_wd(mp, a, k_tr, k_tn, k_nr, k_rr, k_nn, k_tt, in_span):
    f = mp.mpf
    s = f(k_nn) - f(k_tn) ** 2 / f(k_tt)
    m = f(k_nr) - f(k_tn) * f(k_tr) / f(k_tt)
    e = f(k_rr) - f(k_tr) ** 2 / f(k_tt)
    resid = e if in_span else e - m * m / s
    return f(a) ** 2 * max(f(0), resid)


def _cases(seed, count, b_max, eps_of):
    """``count`` random candidate sets (:func:`_candidates`, b in [2, b_max)) with the reference's float terms and
    their tolerances at ``eps_K = eps_of(rng)``: yields ``(a, terms, k_tt, tol_s, tol_wd, in_span, eps_K, rng)``,
    ``terms`` = ``(k_tr, k_tn, k_nr, k_rr, k_nn, s, m, e)`` per candidate, ``rng`` for the caller's own draws."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        G, k, k_tt, a, n = _candidates(rng, int(rng.integers(2, b_max)))
        eps_K = eps_of(rng)
        terms = _float_terms(G, k, k_tt, a, n)
        tol_s, tol_wd, in_span = bpann_tolerances(a, *terms[:5], k_tt, *terms[5:], eps_K)
        yield a, terms, k_tt, tol_s, tol_wd, in_span, eps_K, rng


def test_weight_degradation_rounding_within_half_the_tolerance():
    """eps_K = 0 (exact kernel values): the computed WD_r errs by at most half its tol_wd, for every candidate whose
    span decision the exact s confirms (a candidate within its s bound is V = {t} on both)."""
    mp = mpmath_60()
    worst = 0.0
    for a, terms, k_tt, _, tol_wd, in_span, _, _ in _cases(21, 300, 9, lambda rng: 0.0):
        k_tr, k_tn, k_nr, k_rr, k_nn, s, m, e = terms
        resid = np.where(in_span, e, e - m * m / np.where(in_span, 1.0, s))
        wd = a * a * np.maximum(0.0, resid)
        for r in range(len(a)):
            exact = _exact_wd(mp, a[r], k_tr[r], k_tn[r], k_nr[r], k_rr[r], k_nn[r], k_tt, bool(in_span[r]))
            err = abs(mp.mpf(wd[r]) - exact)
            assert err <= mp.mpf(tol_wd[r]) / 2, (r, float(err), tol_wd[r])
            if tol_wd[r] > 0:
                worst = max(worst, float(err / (mp.mpf(tol_wd[r]) / 2)))
    assert worst > 1e-4                                     # the bound is not vacuous


def test_kernel_value_errors_within_the_tolerance():
    """Every kernel value moved by at most eps_K (random signs, the exact WD recomputed in 60 digits, not in the
    span): the exact WD_r moves by at most tol_wd, which holds twice the first-order bound (the two paths' inputs
    are both off)."""
    mp = mpmath_60()
    checked = 0
    for a, terms, k_tt, tol_s, tol_wd, in_span, eps_K, rng in _cases(
            22, 200, 7, lambda rng: float(10.0 ** rng.uniform(-13, -9))):
        s = terms[5]
        for r in range(len(a)):
            if in_span[r] or s[r] < 16.0 * tol_s[r]:        # first order: s well clear of its bound
                continue
            five = [t[r] for t in terms[:5]]
            base = _exact_wd(mp, a[r], *five, k_tt, False)
            moved = [v + eps_K * float(rng.uniform(-1, 1)) for v in five]
            shifted = _exact_wd(mp, a[r], *moved, k_tt + eps_K * float(rng.uniform(-1, 1)), False)
            assert abs(shifted - base) <= mp.mpf(tol_wd[r]), (r, float(abs(shifted - base)), tol_wd[r])
            checked += 1
    assert checked > 100


def test_neighbour_distance_rounding_and_ties():
    """D_rj = (G_rr + G_jj) - 2 G_rj errs by at most half of the rule's tolerance (eps_K = 0, 60 digits); two SVs at
    exactly the same distance from r tie and the lower slot wins; a distance one tolerance clear of the least does
    not tie."""
    mp = mpmath_60()
    rng = np.random.default_rng(23)
    for _ in range(100):
        b = int(rng.integers(2, 9))
        G, _, _, _, _ = _candidates(rng, b)
        diag = np.diag(G)
        D = (diag[:, None] + diag[None, :]) - 2.0 * G
        tol = 2.0 * (3.0 * U * ((diag[:, None] + diag[None, :]) + 2.0 * np.abs(G)))
        for r in range(b):
            for j in range(b):
                exact = (mp.mpf(G[r, r]) + mp.mpf(G[j, j])) - 2 * mp.mpf(G[r, j])
                assert abs(mp.mpf(D[r, j]) - exact) <= mp.mpf(tol[r, j]) / 2
    # twins: SVs 1 and 2 identical, SV 0's neighbour is slot 1 (the lower); SV 3 far away
    X = np.array([[0.0], [0.5], [0.5], [3.0]])
    G = np.exp(-((X - X.T) ** 2))
    assert nearest_neighbours(G, 0.0)[0] == 1 and nearest_neighbours(G, 0.0)[3] == 1
    assert nearest_neighbours(G, 0.0)[1] == 2 and nearest_neighbours(G, 0.0)[2] == 1
