"""Comparison mode of merging: the decisions of all four merge solvers on one merge event.

Part of :mod:`refsvm.budget` (every name is importable from there; the checked entry is
:func:`refsvm.budget.merge_compare`); compiled mirror: ``refsvm/_fast/budget_compare.pxi``.
"""

import math

import numpy as np

from ..constants import MERGE_EPS_PRECISE
from ..kernels import sq_dist
from .merging import MERGE_SOLVERS, _lookup, least_wd_partner, merge_pair
from .removal import select_smallest


#: Column order of the comparison mode (:func:`merge_compare`).
COMPARE_SOLVERS = MERGE_SOLVERS


def _exact_wd(a_m, a_n, h, log_kappa):
    """Exact WD of merging a binary pair with coefficient ``h`` (scalars, as :func:`merge_pair`)."""
    k_mz = math.exp((1.0 - h) * (1.0 - h) * log_kappa)
    k_nz = math.exp(h * h * log_kappa)
    a_z = a_m * k_mz + a_n * k_nz
    wd = a_m * a_m + a_n * a_n + 2.0 * math.exp(log_kappa) * (a_m * a_n) - a_z * a_z
    return max(wd, 0.0)


def compare_solvers(SV, alpha, n_sv, gamma, merge_eps, tables):
    """:func:`merge_compare` with the tables given (no checks)."""
    lk = _lookup()
    h_table, wd_table = tables
    m, wd_removal = select_smallest(SV, alpha, n_sv, "rbf", gamma, 0, 0.0)
    a_m = float(alpha[m, 0])
    solved = {}                                      # n -> ((h, crit) per solver, log kappa)
    for n in range(n_sv):
        if n == m or a_m * alpha[n, 0] < 0.0:
            continue
        a_n = float(alpha[n, 0])
        log_kappa = -gamma * sq_dist(SV[m], SV[n])
        h0, _, wd0 = merge_pair(alpha[m], alpha[n], log_kappa, merge_eps)
        h1, _, wd1 = merge_pair(alpha[m], alpha[n], log_kappa, MERGE_EPS_PRECISE, polish=True)
        h2, _, wd2 = lk.merge_pair_lookup(a_m, a_n, log_kappa, "lookup-h", tables)
        wd3 = lk.merge_wd_lookup(a_m, a_n, log_kappa, wd_table)
        solved[n] = (((h0, wd0), (h1, wd1), (h2, wd2), (None, wd3)), log_kappa)
    best_n = [least_wd_partner({n: v[0][k][1] for n, v in solved.items()}, alpha, m, solver)  # each solver's
              for k, solver in enumerate(COMPARE_SOLVERS)]                                       # rule, ties too
    best_h = [solved[n][0][k][0] if n >= 0 else 0.0 for k, n in enumerate(best_n)]
    best_lk = [solved[n][1] if n >= 0 else 0.0 for n in best_n]
    same = np.ones(4, dtype=bool)
    factor = np.ones(4)
    wd = np.full(4, wd_removal)
    if best_n[1] < 0:
        return same, factor, wd
    for k in range(4):
        a_n = float(alpha[best_n[k], 0])
        h = best_h[k]
        if k == 3:                                   # Lookup-WD looks h up for its chosen partner only
            h = lk.lookup_h(lk._relative_weight(a_m, a_n), math.exp(best_lk[k]), h_table)
        wd[k] = _exact_wd(a_m, a_n, h, best_lk[k])
        same[k] = best_n[k] == best_n[1]
    for k in range(4):
        if wd[1] > 0.0:
            factor[k] = wd[k] / wd[1]
        else:
            factor[k] = 1.0 if wd[k] <= 0.0 else math.inf
    return same, factor, wd
