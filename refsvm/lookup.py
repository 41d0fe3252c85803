"""Lookup-table merging: Lookup-h and Lookup-WD (reference implementation).

Glasmachers & Qaadan, "Speeding up budgeted stochastic gradient descent SVM
training with precomputed golden section search" (``papers/bsgd-lookup-
glasmachers-qaadan.txt``).  Merging a binary pair of equal sign depends only on

* the relative weight ``m = alpha_m / (alpha_m + alpha_n)`` in ``[0, 1]`` and
* ``kappa = k(x_m, x_n)`` in ``[0, 1]``,

so the optimal merging coefficient ``h(m, kappa)`` and the normalised weight
degradation ``WD(m, kappa)`` are precomputed once on a grid (golden-section
search at ``eps = 1e-10``, "GSS-precise") and read back by bilinear
interpolation instead of running a golden-section search per merge candidate.
The compiled mirror is :mod:`refsvm._fast.lookup`.

Grid convention
---------------
``grid_size = G`` is the number of grid *cells* per axis (the paper's "400 x
400").  The tables hold the ``(G + 1) x (G + 1)`` *nodes*
``table[i, j] = f(m_i, kappa_j)`` with ``m_i = i / G`` and ``kappa_j = j / G``,
``i, j = 0 .. G``: row index = m, column index = kappa, both end points
included, so no extrapolation is ever needed.  Cell ``(i, j)`` is the closed
square ``[i/G, (i+1)/G] x [j/G, (j+1)/G]``.

The functions h and WD
----------------------
With ``h`` multiplying the point whose weight is ``m`` (``z = h x_m + (1-h) x_n``)

    s(h)          = m kappa^((1-h)^2) + (1-m) kappa^(h^2)         (Alg. 1, line 7)
    h(m, kappa)   = argmax_{h in [0, 1]} s(h)
    WD(m, kappa)  = m^2 + (1-m)^2 + 2 m (1-m) kappa - s(h(m, kappa))^2

and for a pair with coefficients ``alpha_m, alpha_n`` of equal sign the weight
degradation is ``||Delta||^2 = (alpha_m + alpha_n)^2 * WD(m, kappa)``.

Interior nodes (``0 < m < 1``, ``0 < kappa < 1``) are exactly what the reference
computes: ``h_table[i, j], _, wd_table[i, j] = refsvm.budget.merge_pair(
[m_i], [1 - m_i], log(kappa_j), MERGE_EPS_PRECISE)`` (bitwise; see
:func:`gss_h_grid`).  In particular ``h`` is searched on ``[1/2, 1]`` when
``m >= 1/2`` and on ``[0, 1/2]`` otherwise (the dominant mode).  The border
nodes are set to the limits, where the search itself is degenerate:

* ``m = 0``: ``s = kappa^(h^2)``, ``h = 0``, ``WD = 0`` (nothing to merge);
* ``m = 1``: ``h = 1``, ``WD = 0``;
* ``kappa = 1`` (``x_m = x_n``): ``s`` is constant, every ``h`` is optimal;
  we store the limit ``kappa -> 1``, ``h = m`` (the weighted mean), ``WD = 0``;
* ``kappa = 0`` (``log kappa = -inf``): ``h -> 1`` for ``m >= 1/2`` and
  ``h -> 0`` for ``m < 1/2`` (the tie at ``m = 1/2`` goes to the upper half,
  as in :func:`refsvm.budget.merge_h`); ``WD = min(m, 1-m)^2``, i.e. merging
  degenerates into removal of the smaller point.  (For small ``kappa > 0``
  and ``m > 1/2``, ``1 - h ~ kappa (1-m)/m``.)

Lemma 1 (regularity) and what it means for the interpolation
--------------------------------------------------------------
``s`` has two modes iff ``kappa < e^-2`` and ``|logit m| < psi(kappa)`` (see
:func:`two_mode_threshold`; stationary points solve
``logit h - |log kappa| (2h - 1) = logit m``).  ``Z = {1/2} x [0, e^-2]`` is where
the dominant mode switches: **h jumps at m = 1/2 for kappa < e^-2**, while WD is
continuous (with a kink).  ``N = {|logit m| = psi(kappa)}`` is where the second
mode appears.  Outside ``N u Z`` both functions are smooth.  Consequences:

* WD is interpolated with error ``<= (Delta^2/8) (max|WD_mm| + max|WD_kk|)`` on
  cells that do not meet ``N u Z`` (``Delta = 1/G``; :func:`nonsmooth_cells`
  lists the others).  For ``G = 400``: ``max|WD_mm| = 367.5`` (next to the
  pitchfork point ``(1/2, e^-2)``), ``max|WD_kk| = 7.41``, so the error is below
  ``2.93e-4`` (``1.4e-5`` farther than 0.05 from the pitchfork, ``6.3e-6`` for
  ``kappa >= 1/4``); measured: ``7.6e-5`` at most, ``4e-7`` on average.  The
  derivation is in ``tests/lookup/test_tables.py``.
* **h is interpolated inaccurately in the cells straddling m = 1/2 with
  kappa < e^-2.**  The node at ``m = 1/2`` stores the upper mode (tie rule), so
  for even ``G`` the cell ``[1/2 - Delta, 1/2]`` blends the lower mode of its
  left nodes with the upper mode of its right nodes: the looked-up ``h`` can be
  anywhere in between, near the local *minimum* of ``s``.  Near the pitchfork
  point ``(1/2, e^-2)`` h also varies like ``|m - 1/2|^(1/3)``, so the cells
  around it interpolate h poorly as well.  Lookup-h computes WD exactly for the
  h it looked up, so a bad h only makes that candidate look worse; Lookup-WD
  selects partners with the (accurate) interpolated WD, but the merge it
  executes uses the looked-up h, so there the degradation actually incurred can
  exceed the WD it reports (by up to a factor 2 in the straddling cells,
  about 1.0001 on cells not meeting ``N u Z``).

Errata of the printed Algorithm 1 (see ALGORITHMS.md, section 2)
----------------------------------------------------------------
1. Line 5 prints ``m <- alpha / (alpha + alpha_min)`` (the partner's weight),
   but line 7 weights ``kappa^((1-h)^2)`` by ``m`` and lines 8, 13 use h as the
   coefficient of ``x_min`` (``z = h x_min + (1-h) x*``).  The consistent weight
   is ``m = alpha_min / (alpha_min + alpha)``, the weight of the point h
   multiplies; a brute-force minimisation of WD over h confirms it
   (``tests/lookup/test_tables.py``).  With the printed weight the looked-up h is
   ``1 - h`` of the right one.
2. Lemma 1 prints ``WD = (alpha_i + alpha_j) * (...)``; the factor is squared:
   ``||Delta||^2 = (alpha_i + alpha_j)^2 (m^2 + (1-m)^2 - s^2 + 2 m (1-m) kappa)``.

(Section 2 of the paper also drops the factor ``alpha_i alpha_j`` of the cross
term in ``||Delta||^2 = alpha_i^2 + alpha_j^2 - alpha_z^2 + 2 k(x_i, x_j)``;
Algorithm 1, line 9 has it.)

Caching
-------
:func:`get_tables` computes the tables on first use (about 3 s of CPU for ``G = 400``)
and caches them in memory and on disk, in ``$REFSVM_CACHE`` (default
``~/.cache/refsvm``), file ``lookup_v<FORMAT_VERSION>_G<grid_size>.npz``, with a
SHA-256 checksum of the contents that is verified on load (a mismatch or an
unreadable file triggers regeneration).  No table is shipped with the sources:
``python -m refsvm.lookup [--grid-size G]`` regenerates the cache file and prints
the checksum.
"""

import math
import time

import numpy as np

from .lookup_tables import (  # noqa: F401  (re-exported: the tables, their cache and Lemma 1)
    _MEMORY_CACHE, DEFAULT_GRID_SIZE, FORMAT_VERSION, KAPPA_TWO_MODES, _check_grid_size, _store, cache_dir, cache_path,
    clear_memory_cache, compute_tables, get_tables, grid_nodes, gss_h_grid, merge_functions, nonsmooth_cells,
    normalized_wd, table_checksum, two_mode_threshold)

#: Merge solvers provided by this module.
SOLVERS = ("lookup-h", "lookup-wd")


# ----------------------------------------------------------------------------
# bilinear interpolation
# ----------------------------------------------------------------------------

def _check_table(table):
    """``G`` of a ``(G + 1, G + 1)`` table, ``G >= 1``; ValueError otherwise."""
    shape = np.shape(table)
    if len(shape) != 2 or shape[0] != shape[1] or shape[0] < 2:
        raise ValueError(f"table must be a square (G + 1, G + 1) array with G >= 1, got shape {shape}")
    return shape[0] - 1


def bilinear(m, kappa, table):
    """Bilinear interpolation of ``table`` (nodes ``(i/G, j/G)``) at ``(m, kappa)``.

    ``m`` and ``kappa`` are clamped to ``[0, 1]`` (NaN -> 0).  The compiled
    mirror (``refsvm._fast.lookup``) performs the same operations in the same
    order.
    """
    G = _check_table(table)
    if not m > 0.0:                       # clamp (also maps NaN to 0)
        m = 0.0
    elif m > 1.0:
        m = 1.0
    if not kappa > 0.0:
        kappa = 0.0
    elif kappa > 1.0:
        kappa = 1.0
    x = m * G                             # position in grid units
    y = kappa * G
    i = min(int(x), G - 1)                # cell (i, j): [i/G, (i+1)/G] x [j/G, (j+1)/G]
    j = min(int(y), G - 1)
    u = x - i                             # local coordinates in [0, 1]
    v = y - j
    f0 = (1.0 - v) * table[i, j] + v * table[i, j + 1]            # along kappa at m_i
    f1 = (1.0 - v) * table[i + 1, j] + v * table[i + 1, j + 1]    # along kappa at m_(i+1)
    return float((1.0 - u) * f0 + u * f1)                         # along m


def bilinear_array(m, kappa, table):
    """Vectorised :func:`bilinear` (same operations, element by element)."""
    m, kappa = np.broadcast_arrays(np.asarray(m, dtype=np.float64), np.asarray(kappa, dtype=np.float64))
    table = np.asarray(table, dtype=np.float64)
    G = _check_table(table)
    m = np.where(m > 0.0, np.minimum(m, 1.0), 0.0)
    kappa = np.where(kappa > 0.0, np.minimum(kappa, 1.0), 0.0)
    x = m * G
    y = kappa * G
    i = np.minimum(x.astype(np.intp), G - 1)
    j = np.minimum(y.astype(np.intp), G - 1)
    u = x - i
    v = y - j
    f0 = (1.0 - v) * table[i, j] + v * table[i, j + 1]
    f1 = (1.0 - v) * table[i + 1, j] + v * table[i + 1, j + 1]
    return (1.0 - u) * f0 + u * f1


def lookup_h(m, kappa, h_table):
    """``h(m, kappa)`` by bilinear interpolation (replaces Alg. 1, line 7, GSS).

    Uses the exact symmetry ``h(m, kappa) = 1 - h(1 - m, kappa)`` (swapping the
    roles of ``x_m`` and ``x_n``) and interpolates only in the half ``m >= 1/2``
    of the table.  Interpolating the printed way, across ``m = 1/2``, blends the
    two modes of Lemma 1 where ``h`` jumps (``kappa < e^-2``): in the cell just
    below ``m = 1/2`` (where never-merged Pegasos SVs sit, since their
    coefficients are equal) it returns ``h`` near 0.77 instead of near 0 for
    ``kappa`` near 0, a merge with about twice the optimal weight degradation.
    With the symmetric reading every interpolation cell lies on one branch.
    """
    if m < 0.5:
        return 1.0 - bilinear(1.0 - m, kappa, h_table)
    return bilinear(m, kappa, h_table)


def lookup_wd(m, kappa, wd_table):
    """Normalised ``WD(m, kappa)`` by bilinear interpolation (replaces Alg. 1, lines 7-9).

    Multiply by ``(alpha_m + alpha_n)**2`` for the weight degradation of a pair.
    """
    return bilinear(m, kappa, wd_table)


def lookup_h_array(m, kappa, h_table):
    """Vectorised :func:`lookup_h` (same symmetric reading)."""
    m = np.asarray(m, dtype=np.float64)
    lower = m < 0.5
    h = bilinear_array(np.where(lower, 1.0 - m, m), kappa, h_table)
    return np.where(lower, 1.0 - h, h)


def lookup_wd_array(m, kappa, wd_table):
    """Vectorised :func:`lookup_wd`."""
    return bilinear_array(m, kappa, wd_table)


# ----------------------------------------------------------------------------
# merging one binary pair (Algorithm 1 of Glasmachers & Qaadan, corrected)
# ----------------------------------------------------------------------------

def _binary_pair(alpha_m, alpha_n):
    """The scalar coefficients of a binary pair (floats or shape-(1,) rows); equal sign required."""
    values = []
    for name, alpha in (("alpha_m", alpha_m), ("alpha_n", alpha_n)):
        a = np.asarray(alpha, dtype=np.float64)
        if a.size != 1:
            raise ValueError(f"{name} must be a binary coefficient (a scalar or shape (1,)), got shape {a.shape}")
        values.append(float(a.reshape(-1)[0]))
    a_m, a_n = values
    if a_m * a_n < 0.0:
        raise ValueError(f"lookup merging needs coefficients of equal sign, got alpha_m={a_m!r}, alpha_n={a_n!r}")
    return a_m, a_n


def _relative_weight(a_m, a_n):
    """``m = alpha_m / (alpha_m + alpha_n)``, the weight of ``x_m`` (1/2 if both vanish)."""
    total = a_m + a_n
    if total == 0.0:                      # both zero: nothing to merge, WD = 0 for any h
        return 0.5
    return a_m / total


def merge_wd_lookup(alpha_m, alpha_n, log_kappa, wd_table):
    """Weight degradation of merging a binary pair, from the WD table (Lookup-WD).

    What Lookup-WD evaluates for every merge candidate (Alg. 1, lines 5-9);
    h is looked up only for the chosen partner (:func:`merge_pair_lookup`).
    ``alpha_m`` is the coefficient of the fixed point ``x_min`` (the one h
    multiplies), ``alpha_n`` the candidate's.
    """
    a_m, a_n = _binary_pair(alpha_m, alpha_n)
    m = _relative_weight(a_m, a_n)                 # Alg. 1, line 5 (corrected: weight of x_min)
    kappa = math.exp(log_kappa)                    # Alg. 1, line 6
    total = a_m + a_n
    return total * total * lookup_wd(m, kappa, wd_table)   # Alg. 1, lines 7-9 (Lemma 1, squared factor)


def check_pair_lookup(alpha_m, alpha_n, solver, tables):
    """The arguments of :func:`merge_pair_lookup` checked: ``(a_m, a_n, h_table, wd_table)``
    (shared with the compiled twin)."""
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {SOLVERS}, got {solver!r}")
    h_table, wd_table = tables
    if np.shape(h_table) != np.shape(wd_table):
        raise ValueError(f"h_table and wd_table differ in shape: {np.shape(h_table)} vs {np.shape(wd_table)}")
    a_m, a_n = _binary_pair(alpha_m, alpha_n)
    return a_m, a_n, h_table, wd_table


def merge_pair_lookup(alpha_m, alpha_n, log_kappa, solver, tables):
    """Merge a binary pair of equal sign with a table lookup instead of GSS.

    Drop-in counterpart of :func:`refsvm.budget.merge_pair` for
    Glasmachers & Qaadan's Algorithm 1: ``x_m`` is the fixed point ``x_min``
    (coefficient ``alpha_m``), ``x_n`` the candidate (``alpha_n``), and
    ``z = h x_m + (1 - h) x_n``.

    Parameters
    ----------
    alpha_m, alpha_n : float or ndarray of shape (1,)
        Coefficients of equal sign (ValueError otherwise).
    log_kappa : float
        ``log k(x_m, x_n) = -gamma ||x_m - x_n||^2``.
    solver : {"lookup-h", "lookup-wd"}
        ``"lookup-h"``: h from the h table; ``alpha_z`` and WD computed exactly
        as in ``merge_pair`` (so WD is the true degradation of the merge done).
        ``"lookup-wd"``: WD from the WD table times ``(alpha_m + alpha_n)**2``;
        h is also looked up (Lookup-WD needs it only for the chosen partner,
        Alg. 1, line 13: in a candidate loop use :func:`merge_wd_lookup`).
    tables : tuple ``(h_table, wd_table)``
        From :func:`get_tables`.

    Returns
    -------
    h : float
        Position of the merged point ``z = h x_m + (1 - h) x_n``, from the h
        table.
    alpha_z : float or ndarray of shape (1,)
        Coefficient of ``z``, ``alpha_m k(x_m, z) + alpha_n k(x_n, z)`` (as in
        :func:`refsvm.budget.merge_pair`); the same type as ``alpha_m``.
    WD : float
        Weight degradation of the merge: computed exactly from ``h`` for
        ``"lookup-h"``, looked up in the WD table and scaled by
        ``(alpha_m + alpha_n)**2`` for ``"lookup-wd"``.

    Notes
    -----
    Errata of the printed algorithm (see the module docstring): line 5 must
    read ``m <- alpha_min / (alpha_min + alpha)`` (the weight of the point h
    multiplies), and the WD of Lemma 1 scales with ``(alpha_min + alpha)^2``.
    """
    a_m, a_n, h_table, wd_table = check_pair_lookup(alpha_m, alpha_n, solver, tables)
    m = _relative_weight(a_m, a_n)                 # Alg. 1, line 5 (corrected: m = alpha_min / (alpha_min + alpha))
    kappa = math.exp(log_kappa)                    # Alg. 1, line 6: kappa = k(x, x_min)
    h = lookup_h(m, kappa, h_table)                # Alg. 1, line 7: argmax of s, by lookup
    k_mz = math.exp((1.0 - h) * (1.0 - h) * log_kappa)    # k(x_m, z) = kappa^((1-h)^2)
    k_nz = math.exp(h * h * log_kappa)             # k(x_n, z) = kappa^(h^2)
    alpha_z = alpha_m * k_mz + alpha_n * k_nz      # Alg. 1, line 8 (and line 14)
    if solver == "lookup-h":
        a_z = a_m * k_mz + a_n * k_nz
        wd = a_m * a_m + a_n * a_n + 2.0 * kappa * (a_m * a_n) - a_z * a_z   # Alg. 1, line 9
        return h, alpha_z, max(wd, 0.0)
    total = a_m + a_n
    wd = total * total * lookup_wd(m, kappa, wd_table)    # Alg. 1, lines 7-9 by lookup (Lemma 1, squared)
    return h, alpha_z, wd


# ----------------------------------------------------------------------------
# python -m refsvm.lookup
# ----------------------------------------------------------------------------

def main(argv=None):
    """Regenerate the cached tables and print where they are and their checksum."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m refsvm.lookup", description=main.__doc__)
    parser.add_argument("--grid-size", type=int, default=DEFAULT_GRID_SIZE,
                        help=f"cells per axis (default {DEFAULT_GRID_SIZE})")
    args = parser.parse_args(argv)
    G = _check_grid_size(args.grid_size)
    start = time.perf_counter()
    h_table, wd_table = compute_tables(G)
    seconds = time.perf_counter() - start
    path = cache_path(G)
    checksum = _store(path, h_table, wd_table)
    _MEMORY_CACHE.pop(G, None)
    print(f"grid_size   {G} ({G + 1} x {G + 1} nodes)")
    print(f"computed in {seconds:.2f} s")
    print(f"cache file  {path}")
    print(f"sha256      {checksum}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
