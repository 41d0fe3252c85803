"""The projection step's regularised solve on near-singular and rank-deficient kernel matrices.

``maintain_projection`` (both paths) solves ``(K_p + r I) x = k_p`` with the relative ridge
``r = projection_ridge * max diag K_p`` (``refsvm.budget.relative_ridge``).  Checked here:

* the ridge is the absolute one for rbf (diagonal exactly 1) and scales with the diagonal otherwise;
* on sets with exact duplicates, linear dependencies and 1e-6 near-duplicates, at feature scales
  1e-3..1e3 (diagonals up to ~1e7), both paths' coefficients after the event equal a 60-digit mpmath
  solve of the same system within the forward-error bound of a backward-stable solve,
  ``10 m eps cond(K_p + r I) ||x|| ||alpha_p|| + 4 eps ||alpha||``, and ``cond(K_p + r I) <= 1 + m / ridge``;
* no ``LinAlgError`` where the absolute ridge (1e-10) fell below one ulp of the diagonal.
"""

import numpy as np
import pytest

from refsvm import budget as ref
from refsvm.budget import relative_ridge

fast = pytest.importorskip("refsvm._fast.budget")
mpmath = pytest.importorskip("mpmath")
EPS = np.finfo(float).eps
RIDGE = 1e-10


def test_relative_ridge_rule():
    assert relative_ridge(RIDGE, np.ones(7)) == RIDGE                 # rbf: bitwise the old ridge
    assert relative_ridge(RIDGE, np.array([2.0, 6e6, 3.0])) == RIDGE * 6e6
    assert relative_ridge(RIDGE, np.zeros(3)) == RIDGE                # all-zero rows (linear kernel)
    assert relative_ridge(RIDGE, np.array([])) == RIDGE


def _mp_kernel(a, b, kernel, gamma, degree, coef0):
    a = [mpmath.mpf(float(v)) for v in a]
    b = [mpmath.mpf(float(v)) for v in b]
    if kernel == "rbf":
        return mpmath.exp(-mpmath.mpf(gamma) * mpmath.fsum((u - v) ** 2 for u, v in zip(a, b)))
    dot = mpmath.fsum(u * v for u, v in zip(a, b))
    if kernel == "linear":
        return dot
    return (mpmath.mpf(gamma) * dot + mpmath.mpf(coef0)) ** degree


def _sets():
    rng = np.random.default_rng(7)
    out = []
    for scale in (1e-3, 1.0, 1e3):
        base = rng.normal(size=(6, 4)) * scale
        X = np.r_[base, base[:2], [base[0] + base[1]], base[2:4] * (1 + 1e-6)]       # duplicates, dependency
        X = np.c_[X, np.zeros(len(X))]                                           # a zero column
        out.append((f"linear-dup-{scale:g}", X, "linear", 1.0, 3, 0.0))
        out.append((f"poly2-dup-{scale:g}", X / scale, "poly", 0.5, 2, 1.0))
    near = rng.normal(size=(8, 3))
    out.append(("rbf-near-1e-6", np.r_[near, near[:5] + 1e-6 * rng.normal(size=(5, 3))], "rbf", 0.5, 3, 0.0))
    from sklearn.datasets import load_breast_cancer
    Xb = load_breast_cancer().data[:13]
    out.append(("linear-breast-cancer", Xb, "linear", 1.0, 3, 0.0))
    return out


SETS = _sets()


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("case", SETS, ids=[s[0] for s in SETS])
def test_projection_against_mpmath(module, case):
    _, X, kernel, gamma, degree, coef0 = case
    mpmath.mp.dps = 60
    n = len(X)
    rng = np.random.default_rng(n)
    A = rng.uniform(0.5, 1.5, size=(n, 1)) * rng.choice([-1.0, 1.0], size=(n, 1))
    SV, alpha = X.copy(), A.copy()
    n_new, p, _, _ = module.maintain_projection(SV, alpha, n, kernel, gamma, degree, coef0, RIDGE)
    assert n_new == n - 1
    others = [j for j in range(n) if j != p]
    m = len(others)
    diag = np.array([float(_mp_kernel(X[j], X[j], kernel, gamma, degree, coef0)) for j in others])
    r = mpmath.mpf(relative_ridge(RIDGE, diag))
    Kp = mpmath.matrix(m, m)
    kp = mpmath.matrix(m, 1)
    for a, ja in enumerate(others):
        kp[a] = _mp_kernel(X[ja], X[p], kernel, gamma, degree, coef0)
        for b, jb in enumerate(others):
            Kp[a, b] = _mp_kernel(X[ja], X[jb], kernel, gamma, degree, coef0) + (r if a == b else 0)
    x = mpmath.lu_solve(Kp, kp)
    expected = [float(mpmath.mpf(float(A[ja, 0])) + x[a] * mpmath.mpf(float(A[p, 0]))) for a, ja in enumerate(others)]
    expected = np.array(expected)
    got = np.array([alpha[ja if ja < n - 1 else p, 0] for ja in others])     # swap-remove: last -> p
    cond = np.linalg.cond(np.array(Kp.tolist(), dtype=float))   # 2-norm
    assert cond <= 1.01 * (1 + m / RIDGE)                      # the relative ridge bounds the conditioning
    xnorm = float(mpmath.norm(x, mpmath.inf))
    bound = 10 * m * EPS * cond * xnorm * abs(A[p, 0]) + 4 * EPS * np.max(np.abs(expected))
    err = np.max(np.abs(got - expected))
    assert err <= bound, (err, bound, cond)
