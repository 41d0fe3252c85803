"""Budget maintenance: removal, projection and merging of support vectors.

Reference implementation of section 6 and Algorithm 2 of
Wang, Crammer, Vucetic (2012), "Breaking the curse of kernelization: budgeted
stochastic gradient descent for large-scale SVM training", JMLR 13.
BSGD (:mod:`refsvm.bsgd`) and BSCA both call these functions; the compiled
mirror is :mod:`refsvm._fast.budget`.

The algorithms resolve their maintenance options once per call
(:class:`MaintenanceOptions`: strategy, kernel, merge solver, lookup tables
loaded once) and run each event through :func:`maintenance_event` (Alg. 1,
lines 10-11 / Alg. 2, line 11: the step of :func:`maintain_with`, timed, with
the comparison diagnostics and the count of merge candidates), recorded by a
:class:`MaintenanceRecorder`; nothing is checked per event.  The public
functions :func:`maintain`, :func:`maintain_merge` and :func:`merge_compare`
check their arguments, then call the same unchecked functions.

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

*Projection.*  ``K_p`` is regularised, ``K_p + ridge * max(diag K_p) * I`` with a small named
relative ``ridge`` (``projection_ridge``, default ``1e-10``; :func:`relative_ridge`), so that duplicate SVs
(frequent in data sets with binary features) do not make it singular, whatever the kernel's scale.
"""

import math
from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from .constants import GOLDEN_RATIO, MERGE_EPS_PRECISE, UNIT_ROUNDOFF
from .kernels import Kernel, kernel_diag, kernel_matrix, kernel_row, sq_dist
from .recorder import Recorder
from .sparse import SparseRows, n_rows, new_sv_storage, rows_equal

#: Default precision of the golden-section search (Wang et al. use 0.01).
MERGE_EPS = 0.01
#: Default ridge added to the kernel matrix of the projection step.
PROJECTION_RIDGE = 1e-10

MAINTENANCE = ("removal", "projection", "merge")

#: How merging places z (``merge_solver``): golden-section search at the
#: precision ``merge_eps`` (``"gss"``, default 0.01, Wang et al.'s standard) or at
#: ``MERGE_EPS_PRECISE`` (``"gss-precise"``, ``merge_eps`` ignored), or table
#: lookup (Glasmachers & Qaadan; binary models only, ``merge_eps`` ignored).
MERGE_SOLVERS = ("gss", "gss-precise", "lookup-h", "lookup-wd")
#: The solvers that read the precomputed tables of :mod:`refsvm.lookup`.
LOOKUP_SOLVERS = ("lookup-h", "lookup-wd")
#: GSS-precise (:func:`merge_h` with ``polish=True``): the golden-section search stops at this
#: bracket width, where its comparisons of the objective are still decided by the objective and
#: not by rounding, and :func:`polish_merge_h` takes ``MERGE_POLISH_STEPS`` Newton steps on g'.
MERGE_POLISH_WIDTH = 1e-3
MERGE_POLISH_STEPS = 4


# ----------------------------------------------------------------------------
# list operations shared by all strategies
# ----------------------------------------------------------------------------

def remove_sv(SV, alpha, n_sv, p):
    """Remove SV ``p``: the last SV moves into slot ``p``.  Returns ``n_sv - 1``."""
    last = n_sv - 1
    SV[p] = SV[last]
    alpha[p] = alpha[last]
    return last


def new_model(capacity, X, c, sv=None, alpha=None):
    """The model's storage: ``SV`` with room for ``capacity`` rows like ``X`` (sparse X: sparse
    slots, :func:`refsvm.sparse.new_sv_storage`) and ``A`` (capacity, c), holding ``sv``,
    ``alpha`` (a model to continue from) in their first ``b`` rows.  Returns ``(SV, A, b)``."""
    b = n_rows(sv) if sv is not None else 0
    SV = new_sv_storage(capacity, X)
    A = np.zeros((capacity, c))
    if b > 0:
        SV[:b] = sv
        A[:b] = alpha
    return SV, A, b


def select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit=0.0):
    """``p = argmin_j ||alpha_j||^2 k(x_j, x_j)`` over the first ``n_sv`` SVs (sec. 6.1).

    ``tie_unit = 0`` (BSGD): exact comparison, lowest index on exact ties (no tolerance: see
    DESIGN.md, "Ties of the selection rule").  ``tie_unit > 0`` (BSCA, :func:`selection_tie_unit`):
    with ``N_j`` the computed norms, ``U = min_j N_j (1 + tie_unit)``; the ties are the ``j`` with
    ``N_j (1 - tie_unit) <= U``, and the lowest index among them is chosen (the rule of
    :func:`least_wd_partner`).  Returns ``(p, ||alpha_p||^2 k(x_p, x_p))``.
    """
    norms = np.sum(alpha[:n_sv] ** 2, axis=1) * kernel_diag(SV[:n_sv], kernel, gamma, degree, coef0)
    if tie_unit > 0.0:
        p = int(np.flatnonzero(norms * (1.0 - tie_unit) <= np.min(norms * (1.0 + tie_unit)))[0])
        return p, float(norms[p])
    return int(np.argmin(norms)), float(norms.min())


def selection_tie_unit(kernel, d):
    """The relative tie tolerance of BSCA's selection (:func:`select_smallest`) for a kernel on ``d``
    features: ``2 (8 + e_k) u``.

    Bound: ``||alpha_j||^2 k_jj`` rounds by 2 u (the square, the product); ``k_jj`` by ``e_k u``
    relative (0 for rbf, exactly 1; ``(d + 2)`` for linear, ``degree (d + 3)`` for poly: the dot
    product and the power of :func:`refsvm.sbp._kernel_value_error`, relative here because
    ``k(x, x)`` has no cancellation); a BSCA coefficient is a sum of Newton steps
    ``delta y_i``, each rounded relative to the slot's coefficient, so identical rows, which take
    identical steps in exact arithmetic, hold coefficients a few ulps apart that differ between the
    paths (measured 3.4 u and 3.8 u; 6 u allowed).  Twice the sum.  BSGD keeps the exact rule
    (DESIGN.md, "Ties of the selection": Pegasos' equal norms are broken identically by both paths
    and a tolerance would change the algorithm).
    """
    e_k = {"rbf": 0.0, "linear": d + 2.0}.get(kernel.kind, float(kernel.degree) * (d + 3.0))
    return 2.0 * (8.0 + e_k) * UNIT_ROUNDOFF


def find_duplicate(SV, n_sv, x):
    """The lowest ``j < n_sv`` whose SV equals ``x`` in every coordinate, or -1.

    Used by projection (BSGD, BSCA): a new point equal to an SV joins that SV's
    coefficient instead of taking a slot of its own (see DESIGN.md, "Duplicates").
    Sparse SVs (:class:`refsvm.sparse.SparseRows`) compare their stored entries.
    """
    if isinstance(SV, SparseRows):
        return next((j for j in range(n_sv) if rows_equal(SV[j], x)), -1)
    hits = np.flatnonzero(np.all(SV[:n_sv] == x, axis=1))
    return int(hits[0]) if hits.size else -1


# ----------------------------------------------------------------------------
# removal (Algorithm 2, "Removal")
# ----------------------------------------------------------------------------

def maintain_removal(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit=0.0):
    """Remove the smallest SV (ties: :func:`select_smallest`).  Returns ``(n_sv, p, -1, WD)``."""
    p, wd = select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit)  # Alg. 2, removal, line 1
    n_sv = remove_sv(SV, alpha, n_sv, p)                                      # Alg. 2, removal, line 2
    return n_sv, p, -1, wd


# ----------------------------------------------------------------------------
# projection (Algorithm 2, "Projection", eq. 13-15)
# ----------------------------------------------------------------------------

def relative_ridge(ridge, diag):
    """The ridge added to ``K_p``'s diagonal: ``ridge * max(diag)`` with ``diag = k(x_j, x_j)`` of the SVs of ``K_p``
    (``ridge`` itself if that max is not positive; for rbf the diagonal is exactly 1).

    Relative to K's scale so that it is above one ulp of every diagonal entry
    (``ridge >= 1e-15``) whatever the kernel's units: an absolute ``1e-10``
    vanishes below the rounding of a diagonal of ~6e6 (linear kernel on unscaled
    data) and ``K_p + ridge I`` stays numerically singular.  The maximum (not the
    mean) because it is computed exactly whatever the order of the entries (both
    paths get the same bits), is above the rounding of the largest entry, and
    bounds the condition number: ``cond(K_p + r I) <= 1 + m / ridge`` for m SVs.
    For rbf the diagonal is exactly 1, so the ridge is ``ridge`` itself.
    """
    top = float(np.max(diag)) if len(diag) else 0.0
    return ridge * top if top > 0.0 else ridge


def maintain_projection(SV, alpha, n_sv, kernel, gamma, degree, coef0, ridge, tie_unit=0.0):
    """Project the smallest SV (ties: :func:`select_smallest`) onto the others (eq. 14) and remove it.

    Returns ``(n_sv, p, -1, WD)`` with ``WD = ||alpha_p||^2 (k_pp - k_p' K_p^{-1} k_p)`` (eq. 15).
    ``K_p`` is regularised by :func:`relative_ridge` (``ridge * max diag K_p``).
    """
    p, _ = select_smallest(SV, alpha, n_sv, kernel, gamma, degree, coef0, tie_unit)   # Alg. 2, projection, line 1
    others = np.array([j for j in range(n_sv) if j != p], dtype=np.intp)
    K_p = kernel_matrix(SV[others], SV[others], kernel, gamma, degree, coef0)
    K_p[np.diag_indices_from(K_p)] += relative_ridge(ridge, kernel_diag(SV[others], kernel, gamma, degree, coef0))
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
    if not eps > 0.0:                     # eps <= 0 (or NaN) would never end the loop
        raise ValueError(f"merge_eps must be positive, got {eps!r}")
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


def class_dot(a, b):
    """``sum_i a[i] b[i]`` over the classes, added in index order from 0.

    Written out instead of ``numpy.dot``: for short vectors numpy hands the
    product to BLAS, whose summation (with or without fused multiply-add)
    depends on the CPU kernel OpenBLAS picks.  The merging objective decides
    the golden-section search's comparisons, so both paths must compute it the
    same way on every machine; :mod:`refsvm._fast.kernels` ``seq_dot`` is the
    same loop.  Scalars count as vectors of length 1.
    """
    s = 0.0
    for a_i, b_i in zip(np.atleast_1d(a).tolist(), np.atleast_1d(b).tolist()):
        s += a_i * b_i
    return s


def merge_objective(h, alpha_m, alpha_n, log_kappa):
    """``g(h) = ||alpha_m kappa^((1-h)^2) + alpha_n kappa^(h^2)||^2`` = ``||alpha_z(h)||^2``."""
    alpha_z = alpha_m * math.exp((1.0 - h) * (1.0 - h) * log_kappa) + alpha_n * math.exp(h * h * log_kappa)
    return class_dot(alpha_z, alpha_z)


def merge_h(alpha_m, alpha_n, log_kappa, eps, polish=False):
    """The merging coefficient ``h`` of eq. (18): ``z = h x_m + (1-h) x_n``.

    ``log_kappa = log k(x_m, x_n) = -gamma ||x_m - x_n||^2``.  Searches the half
    of ``[0, 1]`` whose end point is better (see the module docstring).  ``polish``
    (GSS-precise): the search to ``MERGE_POLISH_WIDTH`` (``eps`` ignored), then
    :func:`polish_merge_h` within that width of its result, in the half.
    """
    g = lambda h: merge_objective(h, alpha_m, alpha_n, log_kappa)  # noqa: E731
    lo, hi = (0.5, 1.0) if g(1.0) >= g(0.0) else (0.0, 0.5)
    if not polish:
        return golden_section_search(g, lo, hi, eps)
    h = golden_section_search(g, lo, hi, MERGE_POLISH_WIDTH)
    return polish_merge_h(h, alpha_m, alpha_n, log_kappa, max(lo, h - MERGE_POLISH_WIDTH),
                          min(hi, h + MERGE_POLISH_WIDTH))


def polish_merge_h(h, alpha_m, alpha_n, log_kappa, lo, hi):
    """``MERGE_POLISH_STEPS`` Newton steps on ``g'(h) = 0`` from ``h``, each clamped to ``[lo, hi]``.

    Why: a golden-section search to 1e-10 compares ``g(c)`` with ``g(d)`` long after they differ by
    less than their rounding (``g`` is flat to ``u g`` within ~1e-8 of its maximum), so the
    comparisons follow the inputs' last bits and the two paths' h differed by up to 1e-8, the
    merged point with it (BSGD runs 2e-8 .. 1e-7 apart).  ``g'`` crosses zero with slope ``g''``:
    its root moves by about ``u`` with the inputs.  With ``A = kappa^((1-h)^2)``,
    ``B = kappa^(h^2)``, ``L = log kappa``: ``alpha_z = a_m A + a_n B``,
    ``alpha_z' = a_m A' + a_n B'`` (``A' = -2 (1-h) L A``, ``B' = 2 h L B``), ``alpha_z''`` with
    ``A'' = (2 L + 4 (1-h)^2 L^2) A``, ``B'' = (2 L + 4 h^2 L^2) B``; the step is
    ``-(alpha_z . alpha_z') / (alpha_z' . alpha_z' + alpha_z . alpha_z'')`` (``g'/g''``).
    Discrete decision: a step is taken only while the curvature is negative (a maximum; 0 for
    ``kappa = 1``, identical points: the search's h stays), exact comparison; the number of steps
    is fixed (no convergence test).  From within 1e-3 Newton reaches the root to rounding in
    2-3 steps (error ``C e^2``, ``C = |g^(3) / 2 g''|``).  The compiled twin runs the same operations.
    """
    L = log_kappa
    for _ in range(MERGE_POLISH_STEPS):
        u = 1.0 - h
        A = math.exp(u * u * L)
        B = math.exp(h * h * L)
        a_z = alpha_m * A + alpha_n * B
        a_1 = alpha_m * ((-2.0 * u * L) * A) + alpha_n * ((2.0 * h * L) * B)
        a_2 = (alpha_m * ((2.0 * L + 4.0 * (u * u) * (L * L)) * A)
               + alpha_n * ((2.0 * L + 4.0 * (h * h) * (L * L)) * B))
        curvature = class_dot(a_1, a_1) + class_dot(a_z, a_2)
        if not curvature < 0.0:
            break
        h = min(max(h - class_dot(a_z, a_1) / curvature, lo), hi)
    return h


def merge_pair(alpha_m, alpha_n, log_kappa, eps, polish=False):
    """Merge ``alpha_m phi(x_m) + alpha_n phi(x_n)`` into ``alpha_z phi(z)``.

    Returns ``(h, alpha_z, WD)`` with ``alpha_z = alpha_m k(x_m,z) + alpha_n k(x_n,z)``
    (the solution of eq. 19), ``k(x_m, z) = kappa^((1-h)^2)``, ``k(x_n, z) = kappa^(h^2)``
    and ``WD = ||alpha_m||^2 + ||alpha_n||^2 + 2 kappa alpha_m.alpha_n - ||alpha_z||^2``.
    ``polish``: GSS-precise's h (:func:`merge_h`).
    """
    h = merge_h(alpha_m, alpha_n, log_kappa, eps, polish)
    alpha_z = alpha_m * math.exp((1.0 - h) * (1.0 - h) * log_kappa) + alpha_n * math.exp(h * h * log_kappa)
    kappa = math.exp(log_kappa)
    wd = (class_dot(alpha_m, alpha_m) + class_dot(alpha_n, alpha_n)
          + 2.0 * kappa * class_dot(alpha_m, alpha_n) - class_dot(alpha_z, alpha_z))
    return h, alpha_z, max(float(wd), 0.0)


def check_merge_solver(merge_solver, binary=True):
    """Validate ``merge_solver``; lookup solvers need a binary model.  Returns it."""
    if not isinstance(merge_solver, str) or merge_solver not in MERGE_SOLVERS:
        raise ValueError(f"merge_solver must be one of {MERGE_SOLVERS}, got {merge_solver!r}")
    if merge_solver in LOOKUP_SOLVERS and not binary:
        raise ValueError(f"merge_solver={merge_solver!r} needs a binary model (the lookup tables cover "
                         f"equal-sign pairs, m in [0, 1]); use 'gss' or 'gss-precise' for multi-class")
    return merge_solver


def merge_solver_eps(merge_solver, merge_eps):
    """The GSS precision a solver uses: ``merge_eps`` for ``"gss"``, ``MERGE_EPS_PRECISE`` otherwise."""
    return merge_eps if merge_solver == "gss" else MERGE_EPS_PRECISE


def maintain_merge(SV, alpha, n_sv, gamma, eps, merge_solver="gss", tables=None):
    """Merge the smallest SV ``m`` with the partner ``n`` of least weight degradation.

    Gaussian kernel only (``k(x, x) = 1``).  Returns ``(n_sv, m, n, WD)``; ``n``
    is -1 when a binary model has no partner of equal sign and ``m`` was removed.

    ``merge_solver`` (:data:`MERGE_SOLVERS`) selects how each candidate pair is
    solved: ``"gss"`` (golden-section search to bracket width ``eps``),
    ``"gss-precise"`` (width ``MERGE_EPS_PRECISE``, ``eps`` ignored),
    ``"lookup-h"`` (h from the table, then ``alpha_z`` and WD exactly as in
    :func:`merge_pair`) or ``"lookup-wd"`` (candidates ranked by
    ``(alpha_m + alpha_n)^2 WD-table(m, kappa)``; h looked up only for the
    chosen partner).  Lookup solvers need a binary model and read
    ``tables = (h_table, wd_table)`` (``None``: :func:`refsvm.lookup.get_tables`).
    The WD returned is always the exact degradation of the merge performed.

    Every candidate is solved here, as Algorithm 2 reads.  The compiled twin
    skips (binary models, all solvers but Lookup-WD) the candidates whose lower
    bound on WD exceeds the best WD found so far; it picks the same partner
    (docs/lookup.rst, "Partner pruning").

    Validates ``merge_solver`` and loads the tables if needed, then runs
    :func:`merge_smallest` (the algorithm's lines; the algorithms call it through
    :func:`maintain_with` with options resolved once per call).
    """
    opts = MaintenanceOptions.resolve("merge", Kernel("rbf", gamma), eps, merge_solver=merge_solver,
                                      binary=alpha.shape[1] == 1, tables=tables)
    return merge_smallest(SV, alpha, n_sv, gamma, merge_solver_eps(merge_solver, eps), merge_solver, opts.tables)


def merge_smallest(SV, alpha, n_sv, gamma, eps, merge_solver, tables):
    """Alg. 2, merging, of :func:`maintain_merge` with resolved arguments (no checks).

    ``eps`` is the precision the solver uses (:func:`merge_solver_eps`), ``tables`` the
    lookup tables of a lookup solver (``None`` for GSS).  Returns ``(n_sv, m, n, WD)``.
    """
    binary = alpha.shape[1] == 1
    lk = _lookup() if tables is not None else None
    m, wd_removal = select_smallest(SV, alpha, n_sv, "rbf", gamma, 0, 0.0)  # Alg. 2, merging, line 1: fix m
    solved = {}                                                             # n -> (WD, h, alpha_z, log kappa)
    for n in range(n_sv):                                                   # Alg. 2, merging, line 1: choose n
        if n == m or (binary and alpha[m, 0] * alpha[n, 0] < 0.0):
            continue
        log_kappa = -gamma * sq_dist(SV[m], SV[n])
        if merge_solver == "lookup-wd":                                     # G&Q Alg. 1, lines 5-9 by lookup
            h, alpha_z, wd = 0.0, None, lk.merge_wd_lookup(alpha[m, 0], alpha[n, 0], log_kappa, tables[1])
        elif merge_solver == "lookup-h":                                    # G&Q Alg. 1, lines 5-9, h by lookup
            h, alpha_z, wd = lk.merge_pair_lookup(alpha[m], alpha[n], log_kappa, "lookup-h", tables)
        else:
            h, alpha_z, wd = merge_pair(alpha[m], alpha[n], log_kappa, eps, merge_solver == "gss-precise")  # eq. 18-19
        solved[n] = (wd, h, alpha_z, log_kappa)
    best_n = least_wd_partner({n: v[0] for n, v in solved.items()}, alpha, m, merge_solver)  # least WD, ties
    if best_n < 0:                                   # no partner of equal sign: remove m
        return remove_sv(SV, alpha, n_sv, m), m, -1, wd_removal
    best_wd, best_h, best_alpha_z, best_log_kappa = solved[best_n]
    if merge_solver == "lookup-wd":                  # G&Q Alg. 1, lines 13-14: h only for the chosen partner
        best_h, best_alpha_z, best_wd = lk.merge_pair_lookup(alpha[m], alpha[best_n], best_log_kappa,
                                                             "lookup-h", tables)
    SV[m] = best_h * SV[m] + (1.0 - best_h) * SV[best_n]                   # eq. 18: z = h x_m + (1-h) x_n
    alpha[m] = best_alpha_z                                                 # eq. 19
    n_sv = remove_sv(SV, alpha, n_sv, best_n)                               # Alg. 2, merging, line 2
    return n_sv, m, best_n, best_wd


def wd_tie_unit(merge_solver, c):
    """The factor of a candidate's tie tolerance (:func:`least_wd_partner`) for ``c`` coefficients per SV.

    ``merge_solver="lookup-wd"``: ``64 u``, relative to the candidate's WD; every other solver:
    ``(64 + 8 c) u``, relative to ``||alpha_m||^2 + ||alpha_n||^2`` (``u`` = :data:`UNIT_ROUNDOFF`;
    small integers times a power of two, so both paths get the same number exactly).  Twice the
    rounding bounds of :func:`least_wd_partner`'s docstring (``(32 + 4 c) u`` and ``~10 u``), so that
    inputs that differ between the paths by a few ulps (BSCA's coefficients) stay inside as well.
    """
    return (64.0 if merge_solver == "lookup-wd" else 64.0 + 8.0 * c) * UNIT_ROUNDOFF


def least_wd_partner(wds, alpha, m, merge_solver):
    """The partner of ``m`` among the solved candidates ``wds`` (``{n: WD}``): the lowest index whose
    WD is within rounding of the least.  Returns -1 when no WD is finite (``m`` is then removed).

    Candidates holding the same row have WD exactly 0, and points a rounding error apart nearly so;
    the computed values are rounding noise, and an exact argmin over them lets the last bits (which
    differ between the paths when their coefficients do) pick the slot.  So WDs are compared with a
    tolerance from the error bound of their computation.  With ``A = ||alpha_m||^2``,
    ``B = ||alpha_n||^2``, ``u = 2^-53``, GSS and Lookup-H compute
    ``WD = ((A + B) + 2 kappa alpha_m.alpha_n) - ||alpha_z||^2`` (cancellation: WD can be 0 while the
    terms are of order ``A + B``); each dot product over ``c`` classes errs by at most ``c u`` times
    the sum of its terms' magnitudes, ``kappa = exp(log kappa)`` and the powers ``kappa^((1-h)^2)``,
    ``kappa^(h^2)`` by an ulp plus ``4 u |x| e^x <= 1.5 u`` for their exponent ``x``, and with
    ``2 kappa |alpha_m.alpha_n| <= A + B`` and ``||alpha_z||^2 <= 2 (A + B)`` the total is at most
    ``(32 + 4 c) u (A + B)``.  Lookup-WD's ``(|a_m| + |a_n|)^2 WD-table(m, kappa)`` has no
    cancellation (non-negative terms): its error is below ``10 u WD``.  The tolerance ``tol_n`` is
    twice that (:func:`wd_tie_unit`).

    The rule: ``U = min_n (WD_n + tol_n)`` over the finite WDs; the ties are the candidates with
    ``WD_n - tol_n <= U`` (the least WD among them); the partner is the lowest index among the ties.
    It depends on the set of candidates only, not on the order in which they are solved, so the
    compiled twin's pruned scan (which solves the likeliest candidate first and skips a candidate
    only when its lower bound less ``tol_n`` exceeds ``U``) picks the same partner.  Where no other
    WD is within ``tol_n + tol_best`` of the least the rule is the exact argmin (models unchanged).
    """
    unit = wd_tie_unit(merge_solver, alpha.shape[1])
    am2 = class_dot(alpha[m], alpha[m])
    bounds = {}
    for n, wd in wds.items():
        if wd < math.inf:                                    # inf, NaN (overflow): never chosen
            tol = unit * wd if merge_solver == "lookup-wd" else unit * (am2 + class_dot(alpha[n], alpha[n]))
            bounds[n] = (wd - tol, wd + tol)
    upper = min((hi for _, hi in bounds.values()), default=math.inf)
    return min((n for n, (lo, _) in bounds.items() if lo <= upper), default=-1)


def _lookup():
    from . import lookup  # lazy: refsvm.lookup imports this module
    return lookup


#: Column order of the comparison mode (:func:`merge_compare`).
COMPARE_SOLVERS = MERGE_SOLVERS


def _exact_wd(a_m, a_n, h, log_kappa):
    """Exact WD of merging a binary pair with coefficient ``h`` (scalars, as :func:`merge_pair`)."""
    k_mz = math.exp((1.0 - h) * (1.0 - h) * log_kappa)
    k_nz = math.exp(h * h * log_kappa)
    a_z = a_m * k_mz + a_n * k_nz
    wd = a_m * a_m + a_n * a_n + 2.0 * math.exp(log_kappa) * (a_m * a_n) - a_z * a_z
    return max(wd, 0.0)


def merge_compare(SV, alpha, n_sv, gamma, merge_eps, tables=None):
    """Comparison mode: the decisions of all four merge solvers on one merge event (nothing changes).

    With ``m`` fixed as in :func:`maintain_merge` and the same candidate set,
    each solver of :data:`COMPARE_SOLVERS` (``gss`` at ``merge_eps``,
    ``gss-precise``, ``lookup-h``, ``lookup-wd``) picks its partner by its own
    criterion; the *actual* weight degradation of its merge (h as that solver
    would set it, WD recomputed exactly) is then compared with GSS-precise's.
    Binary models only.

    Returns ``(same, factor, wd)``, arrays of shape (4,): ``same[k]`` whether
    solver k picks GSS-precise's partner, ``wd[k]`` the exact WD of solver k's
    merge, ``factor[k] = wd[k] / wd[1]`` (1 when both are 0, inf when only
    ``wd[1]`` is).  Without a partner of equal sign every solver removes ``m``:
    all same, factors 1.
    """
    if alpha.shape[1] != 1:
        raise ValueError("merge_compare needs a binary model (the lookup solvers do not apply to multi-class)")
    tables = MaintenanceOptions.resolve("merge", Kernel("rbf", gamma), merge_eps, compare=True, tables=tables).tables
    return compare_solvers(SV, alpha, n_sv, gamma, merge_eps, tables)


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


def maintain(strategy, SV, alpha, n_sv, kernel, gamma, degree, coef0, merge_eps, projection_ridge,
             merge_solver="gss", tables=None):
    """Dispatch one budget-maintenance step (Alg. 1, line 10).  Returns ``(n_sv, p, n, WD)``.

    ``merge_solver`` and ``tables`` are passed to :func:`maintain_merge` (ignored by
    removal and projection, but validated).  Validates its arguments
    (:meth:`MaintenanceOptions.resolve`), then :func:`maintain_with`.
    """
    opts = MaintenanceOptions.resolve(strategy, Kernel.of(kernel, gamma, degree, coef0), merge_eps,
                                      projection_ridge, merge_solver, binary=alpha.shape[1] == 1, tables=tables)
    return maintain_with(opts, SV, alpha, n_sv)


# ----------------------------------------------------------------------------
# options resolved once per call, and the maintenance event of BSGD and BSCA
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class MaintenanceOptions:
    """Budget maintenance as resolved once per call (:meth:`resolve` checks, nothing checks per event)."""

    strategy: str                       #: one of :data:`MAINTENANCE`
    kernel: Kernel                      #: the model's kernel (merging: Gaussian)
    merge_eps: float = MERGE_EPS        #: GSS precision of ``"gss"`` (and of the comparison's gss column)
    projection_ridge: float = PROJECTION_RIDGE
    merge_solver: str = "gss"           #: one of :data:`MERGE_SOLVERS`
    tables: tuple = None                #: ``(h_table, wd_table)`` when a lookup solver or the comparison reads them
    compare: bool = False               #: comparison mode (:func:`merge_compare` on every event)
    selection_tie_unit: float = 0.0     #: removal / projection's tie tolerance (BSCA; :func:`select_smallest`)

    @classmethod
    def resolve(cls, strategy, kernel, merge_eps=MERGE_EPS, projection_ridge=PROJECTION_RIDGE, merge_solver="gss",
                *, binary=True, compare=False, tables=None):
        """Check the options (as :func:`refsvm.validation.check_bsgd_arguments` does for the
        algorithms), then :meth:`of`.  The public functions :func:`maintain`,
        :func:`maintain_merge` and :func:`merge_compare` call this, once per call."""
        check_merge_solver(merge_solver, binary or strategy != "merge")
        if strategy not in MAINTENANCE:
            raise ValueError(f"maintenance must be one of {MAINTENANCE}, got {strategy!r}")
        if strategy == "merge" and kernel.kind != "rbf":
            raise ValueError("maintenance='merge' requires kernel='rbf' (merging relies on the Gaussian kernel)")
        if compare and (strategy != "merge" or not binary):
            raise ValueError("merge_compare=True needs maintenance='merge' and a binary model")
        return cls.of(strategy, kernel, merge_eps, projection_ridge, merge_solver, compare=compare, tables=tables)

    @classmethod
    def of(cls, strategy, kernel, merge_eps=MERGE_EPS, projection_ridge=PROJECTION_RIDGE, merge_solver="gss",
           *, compare=False, tables=None):
        """Options already checked: loads the lookup tables if a lookup solver or the comparison
        reads them (``tables=None``), the one place that does."""
        if tables is None and strategy == "merge" and (compare or merge_solver in LOOKUP_SOLVERS):
            from .lookup import get_tables  # lazy: refsvm.lookup imports this module
            tables = get_tables()
        return cls(strategy, kernel, merge_eps, projection_ridge, merge_solver, tables, bool(compare))


def maintain_with(opts, SV, alpha, n_sv, steps=None):
    """One budget-maintenance step with resolved options (:class:`MaintenanceOptions`), no checks.

    Returns ``(n_sv, p, n, WD)`` as :func:`maintain`.  ``steps``: the functions that run the
    step, ``(maintain_removal, maintain_projection, merge_smallest)``, this module's when None;
    the compiled twin passes its own (one dispatcher serves both paths).
    """
    removal, projection, merge = steps or (maintain_removal, maintain_projection, merge_smallest)
    if opts.strategy == "removal":
        return removal(SV, alpha, n_sv, *opts.kernel.params, opts.selection_tie_unit)
    if opts.strategy == "projection":
        return projection(SV, alpha, n_sv, *opts.kernel.params, opts.projection_ridge, opts.selection_tie_unit)
    return merge(SV, alpha, n_sv, opts.kernel.gamma, merge_solver_eps(opts.merge_solver, opts.merge_eps),
                 opts.merge_solver, opts.tables)


#: What one maintenance event did: the strategy, the number of SVs before and after,
#: the SV ``p`` removed / projected / merged, its partner ``n`` (-1: none), the weight
#: degradation, and the merge candidates ``n`` whose ``k(x_m, x_n)`` it computed.
MaintenanceEvent = namedtuple("MaintenanceEvent", "strategy b_before b p n wd candidates")


def maintenance_event(opts, SV, alpha, n_sv, recorder):
    """Alg. 1, lines 10-11 (Wang et al.) / Alg. 2, line 11 (Qaadan et al.), with its record.

    Runs :func:`maintain_with` on ``n_sv = B + 1`` SVs, timed by ``recorder`` (a
    :class:`MaintenanceRecorder`), after the comparison mode's diagnostics (not timed)
    when ``opts.compare``.  Returns ``(n_sv - 1, event)``, a :data:`MaintenanceEvent`;
    the caller hands ``event`` to ``recorder.maintenance``.
    """
    if opts.compare:                                           # diagnostics only, not timed
        recorder.merge_compare(*compare_solvers(SV, alpha, n_sv, opts.kernel.gamma, opts.merge_eps, opts.tables))
    merging = opts.strategy == "merge"
    signs = alpha[:n_sv, 0].copy() if merging and alpha.shape[1] == 1 else None   # for the count of candidates
    with recorder.maintenance_timer(merging):
        b, p, n, wd = maintain_with(opts, SV, alpha, n_sv)
    if not merging:
        candidates = 0
    elif signs is None:                                        # multi-class: every other SV
        candidates = n_sv - 1
    else:                                                      # binary: the other SVs of m's sign
        candidates = int(np.count_nonzero(signs * signs[p] >= 0.0)) - 1
    return b, MaintenanceEvent(opts.strategy, n_sv, b, p, n, wd, candidates)


class MaintenanceRecorder(Recorder):
    """What BSGD and BSCA write down about their maintenance events (the shared part).

    The event table (``maint_step``, ``maint_index``, ``maint_partner``,
    ``weight_degradation``), the timers ``maintenance_seconds`` and ``merge_seconds``,
    the kernel evaluations of an event (:meth:`maintenance_kernel_evaluations`, which
    the algorithm's subclass adapts) and the comparison mode's columns.  ``keys``: the
    trace's keys in the order the trace lists them.
    """

    events = {"maint_step": np.int64, "maint_index": np.int64, "maint_partner": np.int64,
              "weight_degradation": np.float64}
    timers = ("maintenance_seconds", "merge_seconds")
    keys = ()

    def __init__(self, n_steps, compare=False):
        super().__init__(n_steps)
        self.compared = ([], [], []) if compare else None

    def merge_compare(self, same, factor, wd):
        """One event of the comparison mode (:func:`merge_compare`)."""
        for column, value in zip(self.compared, (same, factor, wd)):
            column.append(value)

    def maintenance_timer(self, merging):
        """Times the maintenance step (a merge is also counted in ``merge_seconds``)."""
        return self.timer("maintenance_seconds", "merge_seconds") if merging else self.timer("maintenance_seconds")

    def maintenance(self, step, event):
        """The event of step ``step``: a row of the event table and its kernel evaluations."""
        self.append(maint_step=step, maint_index=event.p, maint_partner=event.n, weight_degradation=event.wd)
        self.count("kernel_evaluations", self.maintenance_kernel_evaluations(event))

    def maintenance_kernel_evaluations(self, event):
        """``k(x, x')`` of two different points the event computed: merging ``k(x_m, x_n)`` of every candidate."""
        return event.candidates

    def trace(self, **extra):
        out = super().trace(**extra)
        if self.compared is not None:
            for name, column, dtype in zip(("compare_same_decision", "compare_wd_factor", "compare_wd"),
                                           self.compared, (bool, np.float64, np.float64)):
                out[name] = np.array(column, dtype=dtype).reshape(-1, 4)
        return {**{key: out[key] for key in self.keys if key in out}, **out}
