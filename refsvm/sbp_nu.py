"""nu for SBP from a reference SVM (Cotter, Shalev-Shwartz, Srebro 2012, section 5).

The paper compares SBP with solvers of the regularised problem by setting
``||w*|| nu = (1/n) sum_i max(0, 1 - y_i f*(x_i))`` for the optimum ``w*`` of the
regularised problem with ``lambda``.  These helpers compute that ``nu`` (they are not part
of Algorithms 1-3; :mod:`refsvm.sbp` re-exports them).
"""

import math

import numpy as np
import scipy.sparse as sp

__all__ = ["nu_from_solution", "nu_from_svc", "nu_without_bias"]


def nu_from_solution(K, y, coef, bias=0.0):
    """``nu = mean hinge loss of w* / ||w*||`` for a kernel expansion (section 5).

    The paper derives its ``nu`` from the regularised optimum ``w*`` for
    ``lambda``: ``||w*|| nu = (1/n) sum_i max(0, 1 - y_i f*(x_i))``.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Kernel matrix of the training points.
    y : ndarray of shape (n,)
        Labels -1 / +1.
    coef : ndarray of shape (n,)
        ``f*(x) = sum_j coef_j K(x_j, x) + bias`` (signed coefficients,
        e.g. LIBSVM's ``dual_coef_`` scattered to all n points).
    bias : float
        The bias of ``f*`` (0 without one).
    """
    K = np.asarray(K, dtype=np.float64)
    coef = np.asarray(coef, dtype=np.float64)
    f = K @ coef + bias
    hinge = float(np.mean(np.maximum(0.0, 1.0 - np.asarray(y) * f)))
    norm = math.sqrt(max(float(coef @ K @ coef), 0.0))
    if norm == 0.0:
        raise ValueError("coef describes w* = 0; nu = hinge / ||w*|| is undefined")
    return hinge / norm


def nu_from_svc(X, y, *, lam, kernel="rbf", gamma=1.0, degree=3, coef0=0.0, tol=1e-6):
    """``nu`` for SBP from ``lambda``, through scikit-learn's SVC as the reference optimum.

    Trains ``SVC(C = 1 / (lambda n))`` (LIBSVM, which always fits a bias: the
    result matches the paper's "with unregularised bias" column; for the
    objective without bias pass your own solution to :func:`nu_from_solution`)
    and returns :func:`nu_from_solution` of its solution.
    """
    from sklearn.svm import SVC

    from .kernels import kernel_matrix

    X = X.tocsr() if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y)
    n = X.shape[0]
    svc = SVC(C=1.0 / (lam * n), kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, tol=tol)
    svc.fit(X, y)
    coef = np.zeros(n)
    coef[svc.support_] = svc.dual_coef_[0]
    sign = np.where(y == svc.classes_[1], 1, -1)
    K = kernel_matrix(X, X, kernel, gamma, degree, coef0)
    return nu_from_solution(K, sign, coef, float(svc.intercept_[0]))


def nu_without_bias(X, y, *, lam, kernel="rbf", gamma=1.0, degree=3, coef0=0.0, tol=1e-6, max_iter=20000,
                    max_polish_steps=None):
    """``nu`` for SBP from ``lambda`` for the SVM *without* bias (the paper's Table 2, left columns).

    Solves the dual of ``min_w lambda/2 ||w||^2 + (1/n) sum_i max(0, 1 - y_i <w, phi(x_i)>)``,
    ``min_a 1/2 a' Q a - 1' a`` over the box ``0 <= a_i <= C = 1/(lambda n)`` (``Q_ij = y_i y_j K_ij``;
    no equality constraint, as there is no bias), with SciPy's L-BFGS-B on the full kernel matrix
    (``n^2`` memory: meant for the few thousand rows of a reproduced figure), and returns
    :func:`nu_from_solution` of ``w* = sum_i a_i y_i phi(x_i)``.  L-BFGS-B's own stop (a relative
    reduction of the objective) can leave the KKT violation above ``tol`` on a flat dual (Adult: 3.9e-6
    against 1e-6), so up to ``max_polish_steps`` (default ``50 n``) greedy coordinate steps
    (:func:`_polish_box_qp`) finish the solve.  Raises ``RuntimeError`` when the largest projected gradient (the KKT violation) still stays
    above ``tol``.
    """
    from scipy.optimize import minimize

    from .kernels import kernel_matrix

    X = X.tocsr() if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = X.shape[0]
    C = 1.0 / (lam * n)
    K = kernel_matrix(X, X, kernel, gamma, degree, coef0)
    Q = (y[:, None] * y[None, :]) * K

    def objective(a):
        Qa = Q @ a
        return 0.5 * (a @ Qa) - a.sum(), Qa - 1.0

    res = minimize(objective, np.zeros(n), jac=True, method="L-BFGS-B", bounds=[(0.0, C)] * n,
                   options=dict(maxiter=max_iter, ftol=1e-15, gtol=tol * 1e-3))
    a, steps = _polish_box_qp(Q, np.clip(res.x, 0.0, C), C, tol * max(1.0, C),
                              max_steps=50 * n if max_polish_steps is None else max_polish_steps)
    violation = _kkt_violation(a, Q @ a - 1.0, C)
    if violation > tol * max(1.0, C):
        raise RuntimeError(f"the dual solve did not reach the KKT tolerance {tol:g}: largest projected gradient "
                           f"{violation:.3g} after {res.nit} iterations ({res.message}) and {steps} "
                           f"coordinate steps")
    return nu_from_solution(K, y, a * y)


def _kkt_violation(a, g, C):
    """The largest projected gradient of ``1/2 a'Qa - 1'a`` over the box ``[0, C]^n`` at ``a`` (``g = Qa - 1``)."""
    projected = np.where(a <= 0.0, np.minimum(g, 0.0), np.where(a >= C, np.maximum(g, 0.0), g))
    return float(np.abs(projected).max())


def _polish_box_qp(Q, a, C, tol, max_steps):
    """Greedy exact coordinate descent on ``min 1/2 a'Qa - 1'a`` over ``[0, C]^n`` from ``a``, until the
    largest projected gradient is at most ``tol / 2`` (or ``max_steps``); returns ``(a, steps)``.

    L-BFGS-B stops on its relative reduction of the objective, which on a flat, ill-conditioned dual
    (Adult with a Gaussian kernel) can leave a KKT violation a few times above ``tol``; each step here
    takes the most violating coordinate to its exact box-constrained minimiser along that axis
    (``a_i - g_i / Q_ii``, clipped), so the objective never increases, and updates ``g`` with one column
    of ``Q`` (O(n) a step).  A coordinate with ``Q_ii <= 0`` is left alone (PSD kernels have
    ``Q_ii = K_ii > 0`` except on zero rows of a linear kernel)."""
    a = a.copy()
    g = Q @ a - 1.0
    diag = np.diag(Q).copy()
    for step in range(max_steps):
        projected = np.where(a <= 0.0, np.minimum(g, 0.0), np.where(a >= C, np.maximum(g, 0.0), g))
        projected[diag <= 0.0] = 0.0
        i = int(np.argmax(np.abs(projected)))
        if abs(projected[i]) <= tol / 2:
            return a, step
        new = min(max(a[i] - g[i] / diag[i], 0.0), C)
        g += (new - a[i]) * Q[:, i]
        a[i] = new
    return a, max_steps

