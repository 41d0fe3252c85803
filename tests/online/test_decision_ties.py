"""Online learners: decisions on computed numbers at exact ties (repeated rows), both paths.

BPA-S's argmin of Q_r over the candidates, the PA step's loss at y f = 1, and the perceptron,
RBP and Forgetron mistake test y f <= 0 compare numbers that are equal in exact arithmetic on
repeated rows; the computed values are rounding noise.  Both paths read them with a tolerance from
the computation's error bound and break ties by the lowest slot (DESIGN.md, "Discrete decisions on
computed numbers"); the traces must then be equal and the values agree to 1e-9 of their scale.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from _helpers import mpmath_60

import refsvm._fast.online as fast
import refsvm.online as ref
from refsvm.kernels import Kernel
from refsvm.online.passive_aggressive import bpas_tie_tolerance, least_objective

DISCRETE = ("mistakes", "updates", "update_kind", "removal_step", "removal_index", "n_sv")


def _data(seed, near, n=24, d=3):
    """Rows drawn from 4 distinct rows (every row repeated), optionally perturbed by ``near``
    (relative); labels at random, so opposite labels share a row and margins cancel."""
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(4, d))
    if seed % 3 == 0:
        base[:, 0] = 3.7                                   # a constant column
    X = base[rng.integers(0, 4, n)]
    X = X * (1.0 + near * rng.normal(size=X.shape))
    y = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int64)
    return np.ascontiguousarray(X), y


def _run(module, algorithm, X, y, order, kernel):
    kw = dict(kernel=kernel, gamma=0.7, degree=2, coef0=1.0)
    if algorithm == "perceptron":
        return module.perceptron(X, y, order, **kw)
    if algorithm == "rbp":
        return module.rbp(X, y, order, np.linspace(0.0, 0.99, len(order)), budget=5, **kw)
    if algorithm == "forgetron":
        return module.forgetron(X, y, order, budget=5, **kw)
    return module.bpas(X, y, order, budget=5, C=1.0, **kw)


# (learner, kernel, seed, near): each parted between the paths before the tie rules
CASES = [("perceptron", "rbf", 20, 0.0), ("perceptron", "linear", 2, 0.0), ("perceptron", "linear", 11, 0.0),
         ("perceptron", "poly", 22, 0.0), ("rbp", "poly", 31, 0.0), ("forgetron", "poly", 31, 0.0),
         ("bpas", "rbf", 1, 1e-13), ("bpas", "rbf", 2, 1e-13), ("bpas", "linear", 0, 1e-13),
         ("bpas", "linear", 3, 1e-13), ("bpas", "poly", 1, 1e-13), ("bpas", "poly", 4, 1e-13)]


@pytest.mark.parametrize("algorithm, kernel, seed, near", CASES)
def test_paths_agree_on_repeated_rows(algorithm, kernel, seed, near):
    X, y = _data(seed, near)
    order = np.tile(np.arange(X.shape[0]), 3).astype(np.int64)
    a = _run(ref, algorithm, X, y, order, kernel)
    Xt = X[:6]
    K = Kernel(kernel, 0.7, 2, 1.0)
    va = K.matrix(Xt, a.sv) @ a.alpha
    scale = max(float(np.max(np.abs(va))), 1e-300)
    for Xb in (X, sp.csr_matrix(X)):
        b = _run(fast, algorithm, Xb, y, order, kernel)
        for key in DISCRETE:
            assert np.array_equal(np.asarray(a.trace[key]), np.asarray(b.trace[key])), key
        sv_b = b.sv.toarray() if sp.issparse(b.sv) else b.sv
        vb = K.matrix(Xt, sv_b) @ b.alpha
        assert np.max(np.abs(va - vb)) <= 1e-9 * scale


def test_least_objective_ties_go_to_the_lowest_slot():
    Q = np.array([3.0, 1.0 + 1e-16, 1.0, 2.0, 1.0 - 1e-16])
    tol = np.full(5, 1e-15)
    assert least_objective(Q, tol) == 1                    # 1, 2 and 4 tie: the lowest slot
    assert least_objective(Q, np.zeros(5)) == 4            # no tolerance: the exact argmin
    assert least_objective(np.array([np.nan, 2.0, 1.0, np.inf]), np.zeros(4)) == 2   # never a non-finite Q
    assert least_objective(np.array([np.nan, np.nan]), np.zeros(2)) == 0
    assert least_objective(np.array([1.0, 1.5]), np.array([0.3, 0.3])) == 0


def test_bpas_tie_tolerance_bounds_the_rounding_error():
    """The computed Q_r (the reference's expression) is within half the tolerance of Q_r computed
    from the same float inputs in 60-digit arithmetic (eps_K = 0: exact kernel values)."""
    mpmath = mpmath_60()
    rng = np.random.default_rng(5)
    worst = 0.0
    for _ in range(300):
        b = int(rng.integers(1, 8))
        a = rng.normal(size=b) * 10.0 ** rng.uniform(-3, 3)
        k_tt = float(10.0 ** rng.uniform(-2, 2))
        k = k_tt * rng.uniform(-1, 1, size=b)
        if rng.random() < 0.5:
            k[0] = k_tt                                    # x_r = x_t: Q_r cancels
        k_rr = np.maximum(np.abs(k) * rng.uniform(1, 3, size=b), k_tt if rng.random() < 0.5 else 0.0)
        f_t, y_t, C_t = float(np.sum(a * k)), int(rng.choice([-1, 1])), float(10.0 ** rng.uniform(-2, 2))
        tau = min(C_t, max(0.0, 1.0 - y_t * f_t) / k_tt)
        beta = a * k / k_tt + y_t * tau
        dist = a * a * k_rr + beta * beta * k_tt - 2.0 * a * beta * k
        f_r = f_t - a * k + beta * k_tt
        Q = 0.5 * dist + C_t * np.maximum(0.0, 1.0 - y_t * f_r)
        f_err = 2.0 * (b + 2) * 2.0 ** -53 * float(np.sum(np.abs(a * k)))
        tol = bpas_tie_tolerance(a, k, k_rr, k_tt, beta, f_t, Q, tau, C_t, f_err, 0.0)
        mf = mpmath.mpf
        f_exact = sum(mf(ai) * mf(ki) for ai, ki in zip(a, k))
        for r in range(b):
            be = mf(a[r]) * mf(k[r]) / mf(k_tt) + y_t * mf(tau)
            de = mf(a[r]) ** 2 * mf(k_rr[r]) + be * be * mf(k_tt) - 2 * mf(a[r]) * be * mf(k[r])
            fe = f_exact - mf(a[r]) * mf(k[r]) + be * mf(k_tt)
            qe = de / 2 + mf(C_t) * max(mf(0), 1 - y_t * fe)
            err = abs(mf(Q[r]) - qe)
            assert err <= mf(tol[r]) / 2
            worst = max(worst, float(err / (mf(tol[r]) / 2))) if tol[r] > 0 else worst
    assert worst > 1e-4                                    # the bound is not vacuous
