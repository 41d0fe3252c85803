"""Agreement of the online mistake counter of BSGD, FOGD and NOGD at a margin of exactly 0.

The counter reads a margin within its error bound of 0 as 0 (``y f <= tol``; multi-class
``f_r >= f_y - tol``) on both paths: ``tol`` is refsvm.online.common.margin_tolerance of the score's
terms (BSGD, NOGD's kernel phase; the bias one more term) plus, for FOGD's summed weights,
refsvm.fogd.weight_drift.  Checked here: the long run's configurations whose counters parted on
the last bits of a margin of rounding noise (the exact model is 0) now count alike on the
reference, the compiled dense and the compiled CSR paths; a margin that is exactly representable
and clearly negative (or clearly positive, however small) still counts as before; the error bounds
hold against 60-digit mpmath evaluations.
"""


import mpmath
import numpy as np
import pytest
from agreement._generate import fit_on_paths

import refsvm.bsgd as ref_bsgd
import refsvm.fogd as ref_fogd
from refsvm._fast import bsgd as fast_bsgd
from refsvm._fast import fogd as fast_fogd
from refsvm.constants import UNIT_ROUNDOFF
from refsvm.kernels import Kernel
from refsvm.online.common import kernel_error_over_rows, margin_tolerance
from refsvm.tolerance import feature_error

# seeds of benchmarks/bench_agreement.py whose mistakes counter parted (issue 29): FOGD, NOGD, NOGD
PARTED_SEEDS = (12582, 3792, 17367)


def _mistakes(est):
    traces = est.trace_ if isinstance(est.trace_, list) else [est.trace_]
    return [int(t["mistakes"]) for t in traces]


@pytest.mark.parametrize("seed", PARTED_SEEDS)
def test_parted_seeds_count_alike(seed):
    """Every epoch's counter is equal on the reference, compiled dense and compiled CSR paths."""
    counts = {name: _mistakes(est) for name, est in fit_on_paths(seed).items()}
    assert counts["fast"] == counts["python"], counts
    assert counts["fast-csr"] == counts["python"], counts


@pytest.mark.parametrize("impl", [ref_bsgd.bsgd, fast_bsgd.bsgd], ids=["python", "fast"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_bsgd_exact_margins_still_count(impl, n_classes):
    """One row with alternating labels: step 1 has f = 0 exactly (no SV, no bias: a mistake),
    step 2 (the perceptron's constant eta = 1/4, lambda = 0, the ball far away) f = eta k(x, x) = eta
    (the Gaussian k(x, x) = 1): the margin is exactly -1/4 (binary) / the rival's score exceeds the
    true one by 1/2 (multi-class), clearly a mistake; step 3: two equal SVs with coefficients +-1/4,
    f = 0 exactly (a mistake, the exact zero)."""
    X = np.array([[0.5, -1.0]])
    y = np.array([1, -1, 1]) if n_classes == 2 else np.array([0, 1, 0])
    res = impl(np.repeat(X, 3, axis=0), y, np.arange(3, dtype=np.int64), n_classes=n_classes, budget=10,
               lam=0.0, learning_rate="perceptron", eta=0.25, radius=10.0, maintenance="removal", kernel="rbf",
               gamma=1.0, degree=3, coef0=0.0, merge_eps=1e-6, projection_ridge=1e-10, fit_bias=False)
    assert res.trace["mistakes"] == 3


@pytest.mark.parametrize("impl", [ref_fogd.fogd, fast_fogd.fogd], ids=["python", "fast"])
def test_fogd_small_clear_margins_unchanged(impl):
    """U = 0: z = (sin 0, cos 0) = (0, 1) exactly on both paths, f = W[1].  A margin of 1e-20 (or
    -1e-20) is far outside the tolerance (about 1e-35 here): counted by its sign, as the exact rule."""
    U = np.zeros((1, 2))
    X = np.zeros((4, 2))
    for w, y_t, expect in [(1e-20, 1, 0), (1e-20, -1, 1), (-1e-20, 1, 1), (-0.5, -1, 0), (0.0, 1, 1)]:
        W = np.array([[0.0], [w]])
        res = impl(X, np.array([y_t] * 4), np.array([0], dtype=np.int64), task="binary", n_classes=2, U=U,
                   eta=0.5, W=W)
        assert res.trace["mistakes"] == expect, (w, y_t)
    # sign(0) = +1: f = 0 predicts +1; a margin of 1e-20 for y = -1 is a mistake (f >= 0)
    res = impl(X, np.array([-1] * 4), np.array([0], dtype=np.int64), task="binary", n_classes=2, U=U, eta=0.5,
               W=np.array([[0.0], [-1e-20]]), zero_prediction="positive")
    assert res.trace["mistakes"] == 0


def test_margin_tolerance_bounds_mpmath():
    """|f - f_exact| <= tol / 2 for f = k' a summed by numpy from Gaussian kernel values of one path,
    f_exact from 60-digit kernel values and sums: scores with heavy cancellation (duplicate SVs with
    opposite coefficients), the BSGD form (bias as one more term)."""
    mpmath.mp.dps = 60
    rng = np.random.default_rng(7)
    kern = Kernel.of("rbf", 0.7, 3, 0.0)
    worst = 0.0
    for trial in range(60):
        b = int(rng.integers(1, 40))
        S = rng.normal(size=(b, 3)) * rng.choice([0.1, 1.0, 10.0])
        x = S[rng.integers(b)] if trial % 3 == 0 else rng.normal(size=3)
        a = rng.normal(size=b)
        if trial % 2 == 0:                              # pairs that cancel exactly
            S = np.vstack([S, S])
            a = np.concatenate([a, -a])
        w0 = np.array([rng.normal() if trial % 4 == 1 else 0.0])
        k = kern.row(S, x)
        f = float((k @ a[:, None] + w0)[0])
        eps_K = kernel_error_over_rows(np.vstack([S, x]), None, kern)
        tol = ref_bsgd.score_tolerance(k, a[:, None], w0, eps_K)
        exact = sum(mpmath.mpf(float(aj)) * mpmath.exp(-mpmath.mpf(0.7) * sum(
            (mpmath.mpf(float(s)) - mpmath.mpf(float(t))) ** 2 for s, t in zip(row, x)))
            for aj, row in zip(a, S)) + mpmath.mpf(float(w0[0]))
        err = abs(mpmath.mpf(f) - exact)
        assert err <= tol / 2, (trial, float(err), tol)
        worst = max(worst, float(err / (tol / 2)) if tol > 0 else 0.0)
    assert worst > 0.0                                  # the check compared something


@pytest.mark.parametrize("normalize", [False, True])
def test_fogd_feature_error_bounds_mpmath(normalize):
    """Each compiled and reference feature z_i(x) is within eps_z / 2 of its 60-digit value for
    phases up to a few hundred (dense rows), and the summed-weights drift bound is nonnegative and
    zero before any move."""
    mpmath.mp.dps = 60
    rng = np.random.default_rng(11)
    D, d = 16, 5
    U = rng.normal(size=(D, d)) * 3.0
    X = rng.normal(size=(20, d)) * 20.0
    scale = 1.0 / np.sqrt(D) if normalize else 1.0
    eps_z = feature_error(np.sqrt(np.max(np.sum(U * U, axis=1))), d, np.max(np.sum(X * X, axis=1)), scale)
    Z_fast = fast_fogd.decision_values(X, U, np.eye(2 * D), normalize)     # W = I: the features exactly
    z = np.empty(2 * D)
    for t in range(X.shape[0]):
        z_ref = ref_fogd.fourier_map(U, X[t], normalize, z).copy()
        for i in range(D):
            p = sum(mpmath.mpf(float(u)) * mpmath.mpf(float(v)) for u, v in zip(U[i], X[t]))
            for j, exact in ((2 * i, mpmath.sin(p)), (2 * i + 1, mpmath.cos(p))):
                exact = exact * (mpmath.mpf(1) / mpmath.sqrt(D) if normalize else 1)
                for got in (z_ref[j], Z_fast[t, j]):
                    assert abs(mpmath.mpf(float(got)) - exact) <= eps_z / 2, (t, j, float(got), eps_z)
    drift = ref_fogd.WeightDrift(1.0, d, scale, np.zeros((2 * D, 1)))
    assert drift.tolerance(z, np.zeros((2 * D, 1)), X[0]) == 0.0
    assert drift.z_max >= scale


def test_margin_tolerance_sums_all_columns():
    """Multi-class: the tolerance of the scores bounds tol_r + tol_y (the sums over all columns)."""
    k = np.array([0.5, 1.0, 0.25])
    A = np.array([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0], [4.0, 0.0, 0.0]])
    eps = 1e-15
    whole = margin_tolerance(k[:, None], A, eps)
    for r in range(3):
        for s in range(3):
            if r != s:
                assert margin_tolerance(k, A[:, r], eps) + margin_tolerance(k, A[:, s], eps) <= whole * (1 + 1e-12)
    assert whole == pytest.approx(2 * (5 * UNIT_ROUNDOFF * np.sum(np.abs(A * k[:, None])) + eps * np.sum(np.abs(A))))
