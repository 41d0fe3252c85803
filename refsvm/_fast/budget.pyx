# cython: language_level=3
"""Budget maintenance: removal, projection and merging (compiled mirror of :mod:`refsvm.budget`).

Same public functions, same signatures, same in-place list operations as the
reference (section 6 and Algorithm 2 of Wang, Crammer, Vucetic 2012; the
choices where the paper is silent are documented in :mod:`refsvm.budget`):

* remove(p): the last SV moves into slot ``p``;
* merge(m, n): ``z`` is written into slot ``m``, then remove(n);
* argmin ties go to the lowest index.

Each ``def`` converts / validates its arguments and runs a ``cdef ... nogil``
core (declared in ``budget.pxd``) that :mod:`refsvm._fast.bsgd` calls directly.

Floating-point fidelity to the reference (what makes the discrete decisions
agree): sums over features and classes follow numpy's pairwise order,
dot products over the classes are sequential sums (``seq_dot`` = the reference's ``class_dot``),
``(1 - h)^2`` is ``(1 - h) * (1 - h)`` in both paths, and every ``kappa``
power is ``exp(a * log_kappa)`` with libm's ``exp`` (as ``math.exp``).  The
golden-section search makes exactly the reference's comparisons, so ``h`` and
the merged SVs are bitwise equal to the reference's on the same inputs.

One module, one file per family (``include``-d, so the bounds stay inline C in the merge's scan loop
and every call stays direct), as the reference's modules: ``budget_removal.pxi`` (list operations,
selection, removal), ``budget_projection.pxi``, ``budget_merging.pxi`` and ``budget_compare.pxi``
mirror :mod:`refsvm.budget.removal`, ``.projection``, ``.merging`` and ``.compare``; this file holds
the constants, the Python-level helpers and the checked entries, as :mod:`refsvm.budget` does.
``pruning.pxi`` holds the partner pruning that exists only here (for binary models
:func:`c_maintain_merge` skips the candidates whose lower bound on the weight degradation exceeds the
best WD found so far; the partner, h and the merged SV are the plain scan's bitwise: docs/lookup.rst,
"Partner pruning"; tests/budget/test_merge_pruning.py); ``linalg.pxi`` the dense linear algebra of
projection.

Projection.  :func:`maintain_projection` has no state and solves
``(K_p + ridge I) x = k_p`` from scratch by LU with partial pivoting (linalg.pxi).  Inside BSGD the
compiled path instead keeps the inverse of ``K + ridge I`` of the current SVs up
to date in O(B^2) per step (:func:`kinv_append`,
:func:`c_maintain_projection_inverse`), see those functions.

The constants, the dispatcher :func:`maintain` (over this module's steps) and the Python-level
:func:`golden_section_search` are the reference's (imported, not redefined); the C search of
merging, :func:`_gss_merge`, makes the same comparisons.
"""

import numpy as np

from refsvm.sparse import SparseRows

from libc.math cimport exp, expm1, fabs, sqrt, INFINITY, NAN
from libc.float cimport DBL_EPSILON, DBL_MAX
from libc.string cimport memcpy

from refsvm._fast.kernels cimport (KERNEL_RBF, seq_dot, kernel_code, kernel_self,
                                   kernel_value, pw_dot, pw_sq_sum)
from refsvm._fast.sparse cimport (Store, store_export, store_fill, store_free, store_init, store_kernel,
                                  store_log_kappa_row, store_merge, store_move, store_self,
                                  store_sq_dist)
from refsvm._fast.lookup cimport (SOLVER_LOOKUP_H, bilinear_ptr, lookup_h_c, merge_pair_lookup_c,
                                  merge_wd_lookup_c, relative_weight)

from refsvm.budget import (COMPARE_SOLVERS, GOLDEN_RATIO, LOOKUP_SOLVERS, MAINTENANCE,  # noqa: F401
                           MERGE_EPS, MERGE_EPS_PRECISE, MERGE_NEAR_LOG_KAPPA, MERGE_POLISH_STEPS,
                           MERGE_POLISH_WIDTH, MERGE_SOLVERS,
                           PROJECTION_RIDGE, SOLVE_ERROR_CAP, SOLVE_ERROR_SAFETY, MaintenanceOptions,
                           check_merge_solver, golden_section_search, maintain_with, merge_solver_eps,
                           wd_tie_unit)
from refsvm.kernels import Kernel

# C copies of the reference's constants, read once at import
cdef double GR = GOLDEN_RATIO
cdef double SOLVE_SAFETY = SOLVE_ERROR_SAFETY                   # selection's solve-error margin (BSCA)
cdef double SOLVE_CAP = SOLVE_ERROR_CAP                         # where a slot's carried bound saturates (BSCA)
cdef double EPS_PRECISE = MERGE_EPS_PRECISE
cdef double POLISH_WIDTH = MERGE_POLISH_WIDTH                   # GSS-precise: search width, Newton steps
cdef int POLISH_STEPS = MERGE_POLISH_STEPS
cdef double NEAR_LOG_KAPPA = MERGE_NEAR_LOG_KAPPA               # near duplicates: the h-search compares G
cdef double TIE_UNIT_LOOKUP_WD = wd_tie_unit("lookup-wd", 1)   # tie tolerances (refsvm.budget.least_wd_partner):
cdef double TIE_UNIT_BASE = wd_tie_unit("gss", 0)              # (64 + 8 c) u = BASE + c PER_CLASS
cdef double TIE_UNIT_PER_CLASS = wd_tie_unit("gss", 1) - wd_tie_unit("gss", 0)


include "budget_removal.pxi"
include "linalg.pxi"
include "budget_projection.pxi"
include "pruning.pxi"
include "budget_merging.pxi"
include "budget_compare.pxi"


# ----------------------------------------------------------------------------
# Python-level functions (same names and signatures as refsvm.budget)
# ----------------------------------------------------------------------------

def _inplace(arr, name):
    """A C-contiguous float64 2-D array to work on; copied (and written back later) if needed.
    Sparse SV slots (:class:`refsvm.sparse.SparseRows`) are worked on as they are."""
    if isinstance(arr, SparseRows):
        return arr, False
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name} must be a numpy array (it is modified in place), got {type(arr).__name__}")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {arr.shape}")
    if arr.dtype == np.float64 and arr.flags.c_contiguous and arr.flags.writeable:
        return arr, False
    return np.ascontiguousarray(arr, dtype=np.float64), True


def _writeback(arr, work, copied):
    if copied:
        arr[...] = work


cdef int _open_store(Store* St, object S, Py_ssize_t n) except -1:
    """A C store over the SVs: the dense array itself, or the first ``n`` sparse slots copied."""
    if isinstance(S, SparseRows):
        store_init(St, None, max(len(S), 1), S.d, True)
        if n > 0:
            store_fill(St, S[:n])
    else:
        store_init(St, S, S.shape[0], S.shape[1], False)
    return 0


cdef int _close_store(Store* St, object S, Py_ssize_t n) except -1:
    """Write the first ``n`` slots back into sparse SV slots (a dense store worked in place); free."""
    failed = St.failed
    if St.sparse and not failed and n > 0:          # sparse rows: copied in, copied back
        S[:n] = store_export(St, n)
    store_free(St)
    if failed:
        raise MemoryError("could not allocate a sparse SV")
    return 0


def _check_model(SV, alpha, n_sv):
    n_sv = int(n_sv)
    if n_sv < 0 or n_sv > SV.shape[0] or n_sv > alpha.shape[0]:
        raise ValueError(f"n_sv={n_sv} out of range for arrays of {min(SV.shape[0], alpha.shape[0])} rows")
    return n_sv


def _working_model(SV, alpha, n_sv):
    """``(S, copied, A, copied, n)``: the arrays a maintenance step works on in place (:func:`_inplace`)
    and the number of SVs; ValueError when there is none to choose from."""
    S, cs = _inplace(SV, "SV")
    A, ca = _inplace(alpha, "alpha")
    n = _check_model(S, A, n_sv)
    if n == 0:
        raise ValueError("attempt to get argmin of an empty sequence")
    return S, cs, A, ca, n


def maintain_merge(SV, alpha, n_sv, gamma, eps, merge_solver="gss", tables=None):
    """Merge the smallest SV ``m`` with the partner ``n`` of least weight degradation.

    Gaussian kernel only (``k(x, x) = 1``).  Returns ``(n_sv, m, n, WD)``; ``n``
    is -1 when a binary model has no partner of equal sign and ``m`` was removed.
    ``merge_solver`` and ``tables``: see :func:`refsvm.budget.maintain_merge`.
    Checks its arguments, then :func:`merge_smallest`.
    """
    _check_eps(eps)
    S, cs = _inplace(SV, "SV")
    A, ca = _inplace(alpha, "alpha")
    check_merge_solver(merge_solver, A.shape[1] == 1)
    out = merge_smallest(S, A, n_sv, gamma, merge_solver_eps(merge_solver, eps), merge_solver, tables)
    _writeback(SV, S, cs)
    _writeback(alpha, A, ca)
    return out


def merge_compare(SV, alpha, n_sv, gamma, merge_eps, tables=None):
    """Comparison mode: the decisions of all four merge solvers on one merge event (nothing changes).

    Returns ``(same, factor, wd)``; see :func:`refsvm.budget.merge_compare`.
    """
    _check_eps(merge_eps)
    S = SV if isinstance(SV, SparseRows) else np.ascontiguousarray(SV, dtype=np.float64)
    A = np.ascontiguousarray(alpha, dtype=np.float64)
    if len(S.shape) != 2 or A.ndim != 2:
        raise ValueError("SV and alpha must be 2-D arrays")
    if A.shape[1] != 1:
        raise ValueError("merge_compare needs a binary model (the lookup solvers do not apply to multi-class)")
    cdef Py_ssize_t n = _check_model(S, A, n_sv)
    if n == 0:
        raise ValueError("attempt to get argmin of an empty sequence")
    cdef MergeTables T
    keep = open_merge_tables(&T, tables, "gss", True, False)
    cdef Store St
    _open_store(&St, S, n)
    cdef const double[:, ::1] Av = A
    same = np.zeros(4, dtype=np.uint8)
    factor = np.zeros(4)
    wd = np.zeros(4)
    cdef unsigned char[::1] sv_ = same
    cdef double[::1] fv = factor
    cdef double[::1] wv = wd
    cdef double g = gamma, e = merge_eps
    with nogil:
        c_merge_compare(&St, Av, n, g, e, &T, &sv_[0], &fv[0], &wv[0])
    _close_store(&St, S, 0)
    return same.astype(bool), factor, wd


def maintain(strategy, SV, alpha, n_sv, kernel, gamma, degree, coef0, merge_eps, projection_ridge,
             merge_solver="gss", tables=None):
    """Dispatch one budget-maintenance step (Alg. 1, line 10).  Returns ``(n_sv, p, n, WD)``.

    The reference's checks (:meth:`refsvm.budget.MaintenanceOptions.resolve`) and dispatcher
    (:func:`refsvm.budget.maintain_with`), run with this module's steps.
    """
    opts = MaintenanceOptions.resolve(strategy, Kernel.of(kernel, gamma, degree, coef0), merge_eps,
                                      projection_ridge, merge_solver, binary=alpha.shape[1] == 1, tables=tables)
    return maintain_with(opts, SV, alpha, n_sv, (maintain_removal, maintain_projection, merge_smallest))
