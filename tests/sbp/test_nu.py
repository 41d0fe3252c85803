"""nu for SBP from the SVM without bias (refsvm.sbp.nu_without_bias) against an independent primal solve."""

import numpy as np
import pytest
from scipy.optimize import minimize

from refsvm.sbp import nu_without_bias


def _primal_nu(X, y, lam):
    """The primal without bias, min lam/2 ||w||^2 + mean(xi), xi >= 1 - y <w, x>, xi >= 0, by SLSQP on (w, xi)."""
    n, d = X.shape

    def objective(z):
        return 0.5 * lam * z[:d] @ z[:d] + z[d:].mean()

    constraints = [dict(type="ineq", fun=lambda z: y * (X @ z[:d]) - 1.0 + z[d:]),
                   dict(type="ineq", fun=lambda z: z[d:])]
    res = minimize(objective, np.zeros(d + n), method="SLSQP", constraints=constraints,
                   options=dict(maxiter=2000, ftol=1e-14))
    assert res.success, res.message
    w = res.x[:d]
    return np.maximum(0.0, 1.0 - y * (X @ w)).mean() / np.linalg.norm(w)


@pytest.mark.parametrize("seed", [0, 1])
def test_linear_kernel_matches_the_primal(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 3))
    y = np.where(X @ np.array([1.0, -2.0, 0.5]) + 0.8 * rng.normal(size=40) > 0, 1.0, -1.0)
    lam = 0.05
    assert nu_without_bias(X, y, lam=lam, kernel="linear") == pytest.approx(_primal_nu(X, y, lam), rel=1e-4)


def test_rbf_nu_is_the_hinge_over_the_norm_of_a_kkt_point():
    # Gaussian kernel: the returned nu equals hinge / ||w|| of the solution, and the solution is a KKT point
    # (checked inside; a too-small iteration budget must raise rather than return a wrong nu)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)
    nu = nu_without_bias(X, y, lam=1.0 / 60, gamma=0.5)
    assert 0.0 < nu < 1.0
    with pytest.raises(RuntimeError, match="KKT"):
        nu_without_bias(X, y, lam=1.0 / 60, gamma=0.5, max_iter=2)
