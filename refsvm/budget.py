"""Budget maintenance: removal, projection and merging of support vectors.

Reference implementation of section 6 and Algorithm 2 of
Wang, Crammer, Vucetic (2012), "Breaking the curse of kernelization: budgeted
stochastic gradient descent for large-scale SVM training", JMLR 13.
BSGD (:mod:`refsvm.bsgd`) and BSCA both call these functions; the compiled
mirror is :mod:`refsvm._fast.budget`.

The model is held in two arrays with room for ``B + 1`` support vectors (SVs),
``SV`` (capacity, d) and ``alpha`` (capacity, c), of which the first ``n_sv``
rows are in use.  ``c = 1`` for binary models (signed coefficients) and
``c`` = number of classes for multi-class models (Crammer–Singer).  The
functions below change these arrays **in place** and return what they did;
list operations are fixed so that both backends break ties identically:

* remove(p): the last SV moves into slot ``p``;
* merge(m, n): the merged point ``z`` is written into slot ``m``, then remove(n);
* argmin ties go to the lowest index.

Selection of the SV to remove / project / merge (section 6.1, and the
simplification of sections 6.2 and 6.3): ``p = argmin_j ||alpha_j||^2 k(x_j, x_j)``.

Choices where the paper is silent or wrong (documented in ``docs/bsgd.rst``)
------------------------------------------------------------------------------

*Multi-class merging.*  Eq. (16)–(18) normalise ``alpha_m^(i) + alpha_n^(i)``
per class, which is undefined when the sum vanishes and points the wrong way
when it is negative.  We instead maximise the exact objective behind eq. (19),
``g(h) = sum_i (alpha_m^(i) kappa^((1-h)^2) + alpha_n^(i) kappa^(h^2))^2``,
the squared norm of the merged coefficient; maximising it minimises the weight
degradation ``||Delta||^2`` for ``z = h x_m + (1-h) x_n``.  For a binary pair
of equal sign ``g = (alpha_m + alpha_n)^2 s(h)^2`` with the paper's
``s(h) = m kappa^((1-h)^2) + (1-m) kappa^(h^2)``, ``m = alpha_m/(alpha_m + alpha_n)``
(the weight of ``x_m``, the point ``h`` multiplies), so the maximiser is the
paper's.  ``h`` is searched on the segment ``[0, 1]`` only (``z`` is never
extrapolated beyond ``x_m`` or ``x_n``).

*Which half of the segment.*  For ``kappa < e^-2`` the objective can have two
modes (Glasmachers & Qaadan, Lemma 1) and a golden-section search over
``[0, 1]`` may return the smaller one.  We search ``[1/2, 1]`` when
``g(1) >= g(0)`` and ``[0, 1/2]`` otherwise; for a binary pair this is the rule
"``m >= 1/2``", which picks the dominant mode.

*Binary partners.*  As in Glasmachers & Qaadan, a binary SV is merged only
with SVs of the same sign (``alpha_m alpha_n >= 0``), so ``m`` lies in
``[0, 1]``.  If there is none, the SV is removed instead.

*Projection.*  ``K_p`` is regularised, ``K_p + ridge * I`` with a small named
``ridge`` (``projection_ridge``, default ``1e-10``), so that duplicate SVs
(frequent in data sets with binary features) do not make it singular.
"""

import math

import numpy as np

from .kernels import kernel_diag, kernel_matrix, kernel_row

#: ``(sqrt(5) - 1) / 2``, the golden-section ratio.
GOLDEN_RATIO = (math.sqrt(5.0) - 1.0) / 2.0

#: Default precision of the golden-section search (Wang et al. use 0.01).
MERGE_EPS = 0.01
#: Precision of "precise" merging (Glasmachers & Qaadan's tables use 1e-10).
MERGE_EPS_PRECISE = 1e-10
#: Default ridge added to the kernel matrix of the projection step.
PROJECTION_RIDGE = 1e-10

MAINTENANCE = ("removal", "projection", "merge")


# ----------------------------------------------------------------------------
# list operations shared by all strategies
# ----------------------------------------------------------------------------

def remove_sv(SV, alpha, n_sv, p):
    """Remove SV ``p``: the last SV moves into slot ``p``.  Returns ``n_sv - 1``."""
    last = n_sv - 1
    SV[p] = SV[last]
    alpha[p] = alpha[last]
    return last


def select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0):
    """``p = argmin_j ||alpha_j||^2 k(x_j, x_j)`` over the first ``n_sv`` SVs (sec. 6.1)."""
    norms = np.sum(alpha[:n_sv] ** 2, axis=1) * kernel_diag(SV[:n_sv], kernel, gamma, degree, coef0)
    return int(np.argmin(norms)), float(norms.min())


# ----------------------------------------------------------------------------
# removal (Algorithm 2, "Removal")
# ----------------------------------------------------------------------------

def maintain_removal(SV, alpha, n_sv, kernel, gamma, degree, coef0):
    """Remove the smallest SV.  Returns ``(n_sv, p, -1, WD)``."""
    p, wd = select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0)  # Alg. 2, removal, line 1
    n_sv = remove_sv(SV, alpha, n_sv, p)                                      # Alg. 2, removal, line 2
    return n_sv, p, -1, wd


# ----------------------------------------------------------------------------
# projection (Algorithm 2, "Projection", eq. 13-15)
# ----------------------------------------------------------------------------

def maintain_projection(SV, alpha, n_sv, kernel, gamma, degree, coef0, ridge):
    """Project the smallest SV onto the others (eq. 14) and remove it.

    Returns ``(n_sv, p, -1, WD)`` with ``WD = ||alpha_p||^2 (k_pp - k_p' K_p^{-1} k_p)`` (eq. 15).
    """
    p, _ = select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0)   # Alg. 2, projection, line 1
    others = np.array([j for j in range(n_sv) if j != p], dtype=np.intp)
    K_p = kernel_matrix(SV[others], SV[others], kernel, gamma, degree, coef0)
    K_p[np.diag_indices_from(K_p)] += ridge
    k_p = kernel_row(SV[others], SV[p], kernel, gamma, degree, coef0)
    k_pp = kernel_diag(SV[p:p + 1], kernel, gamma, degree, coef0)[0]
    K_inv_k = np.linalg.solve(K_p, k_p)                                      # K_p^{-1} k_p
    alpha[others] += np.outer(K_inv_k, alpha[p])                             # eq. 14: Delta alpha^(i) = alpha_p^(i) K_p^{-1} k_p
    wd = float(np.sum(alpha[p] ** 2) * (k_pp - k_p @ K_inv_k))              # eq. 15
    n_sv = remove_sv(SV, alpha, n_sv, p)                                     # Alg. 2, projection, line 2
    return n_sv, p, -1, max(wd, 0.0)


# ----------------------------------------------------------------------------
# merging (Algorithm 2, "Merging", eq. 16-19)
# ----------------------------------------------------------------------------

def golden_section_search(f, lo, hi, eps):
    """Maximise a unimodal ``f`` on ``[lo, hi]`` until the bracket is narrower than ``eps``.

    Returns the midpoint of the final bracket.  The compiled mirror performs
    exactly the same comparisons in the same order.
    """
    a, b = lo, hi
    c = b - GOLDEN_RATIO * (b - a)
    d = a + GOLDEN_RATIO * (b - a)
    fc, fd = f(c), f(d)
    while b - a > eps:
        if fc >= fd:          # the maximum lies in [a, d]
            b, d, fd = d, c, fc
            c = b - GOLDEN_RATIO * (b - a)
            fc = f(c)
        else:                 # the maximum lies in [c, b]
            a, c, fc = c, d, fd
            d = a + GOLDEN_RATIO * (b - a)
            fd = f(d)
    return 0.5 * (a + b)


def merge_objective(h, alpha_m, alpha_n, log_kappa):
    """``g(h) = ||alpha_m kappa^((1-h)^2) + alpha_n kappa^(h^2)||^2`` = ``||alpha_z(h)||^2``."""
    alpha_z = alpha_m * math.exp((1.0 - h) ** 2 * log_kappa) + alpha_n * math.exp(h * h * log_kappa)
    return float(np.dot(alpha_z, alpha_z))


def merge_h(alpha_m, alpha_n, log_kappa, eps):
    """The merging coefficient ``h`` of eq. (18): ``z = h x_m + (1-h) x_n``.

    ``log_kappa = log k(x_m, x_n) = -gamma ||x_m - x_n||^2``.  Searches the half
    of ``[0, 1]`` whose end point is better (see the module docstring).
    """
    g = lambda h: merge_objective(h, alpha_m, alpha_n, log_kappa)  # noqa: E731
    if g(1.0) >= g(0.0):
        return golden_section_search(g, 0.5, 1.0, eps)
    return golden_section_search(g, 0.0, 0.5, eps)


def merge_pair(alpha_m, alpha_n, log_kappa, eps):
    """Merge ``alpha_m phi(x_m) + alpha_n phi(x_n)`` into ``alpha_z phi(z)``.

    Returns ``(h, alpha_z, WD)`` with ``alpha_z = alpha_m k(x_m,z) + alpha_n k(x_n,z)``
    (the solution of eq. 19), ``k(x_m, z) = kappa^((1-h)^2)``, ``k(x_n, z) = kappa^(h^2)``
    and ``WD = ||alpha_m||^2 + ||alpha_n||^2 + 2 kappa alpha_m.alpha_n - ||alpha_z||^2``.
    """
    h = merge_h(alpha_m, alpha_n, log_kappa, eps)
    alpha_z = alpha_m * math.exp((1.0 - h) ** 2 * log_kappa) + alpha_n * math.exp(h * h * log_kappa)
    kappa = math.exp(log_kappa)
    wd = (np.dot(alpha_m, alpha_m) + np.dot(alpha_n, alpha_n)
          + 2.0 * kappa * np.dot(alpha_m, alpha_n) - np.dot(alpha_z, alpha_z))
    return h, alpha_z, max(float(wd), 0.0)


def maintain_merge(SV, alpha, n_sv, gamma, eps):
    """Merge the smallest SV ``m`` with the partner ``n`` of least weight degradation.

    Gaussian kernel only (``k(x, x) = 1``).  Returns ``(n_sv, m, n, WD)``; ``n``
    is -1 when a binary model has no partner of equal sign and ``m`` was removed.
    """
    binary = alpha.shape[1] == 1
    m, wd_removal = select_smallest(SV, alpha, n_sv, "rbf", gamma, 0, 0.0)  # Alg. 2, merging, line 1: fix m
    best_n, best_wd, best_h, best_alpha_z = -1, math.inf, 0.0, None
    for n in range(n_sv):                                                   # Alg. 2, merging, line 1: choose n
        if n == m or (binary and alpha[m, 0] * alpha[n, 0] < 0.0):
            continue
        log_kappa = -gamma * float(np.sum((SV[m] - SV[n]) ** 2))
        h, alpha_z, wd = merge_pair(alpha[m], alpha[n], log_kappa, eps)     # eq. 18, 19
        if wd < best_wd:
            best_n, best_wd, best_h, best_alpha_z = n, wd, h, alpha_z
    if best_n < 0:                                   # no partner of equal sign: remove m
        return remove_sv(SV, alpha, n_sv, m), m, -1, wd_removal
    SV[m] = best_h * SV[m] + (1.0 - best_h) * SV[best_n]                   # eq. 18: z = h x_m + (1-h) x_n
    alpha[m] = best_alpha_z                                                 # eq. 19
    n_sv = remove_sv(SV, alpha, n_sv, best_n)                               # Alg. 2, merging, line 2
    return n_sv, m, best_n, best_wd


def maintain(strategy, SV, alpha, n_sv, kernel, gamma, degree, coef0, merge_eps, projection_ridge):
    """Dispatch one budget-maintenance step (Alg. 1, line 10).  Returns ``(n_sv, p, n, WD)``."""
    if strategy == "removal":
        return maintain_removal(SV, alpha, n_sv, kernel, gamma, degree, coef0)
    if strategy == "projection":
        return maintain_projection(SV, alpha, n_sv, kernel, gamma, degree, coef0, projection_ridge)
    if strategy == "merge":
        if kernel != "rbf":
            raise ValueError("maintenance='merge' requires kernel='rbf' (merging relies on the Gaussian kernel)")
        return maintain_merge(SV, alpha, n_sv, gamma, merge_eps)
    raise ValueError(f"maintenance must be one of {MAINTENANCE}, got {strategy!r}")
