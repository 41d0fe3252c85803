# cython: language_level=3
"""Lookup-table merging, compiled mirror of :mod:`refsvm.lookup` (same names, same signatures).

The interpolation and per-pair merging functions (``bilinear``,
``bilinear_array``, ``merge_wd_lookup``, ``merge_pair_lookup``) are compiled
and return the same bits as the reference; their C cores
(``bilinear_ptr``, ``bilinear_mv``, ``merge_wd_lookup_c``,
``merge_pair_lookup_c``, ``noexcept nogil``) are declared in ``lookup.pxd`` for
:mod:`refsvm._fast.budget`.

Table generation, caching and the Lemma 1 helpers (``compute_tables``,
``get_tables``, ``gss_h_grid``, ``normalized_wd``, ``nonsmooth_cells``, ...)
are *the reference functions themselves*, re-exported: the tables are computed
once (GSS-precise, vectorised with numpy) and cached, so there is nothing to
gain from compiling them, and both paths share one set of tables.  So are the
readers ``lookup_h``, ``lookup_wd``, ``lookup_h_array`` and ``lookup_wd_array``
(Python glue over ``bilinear``, used outside the training loops only; the C
cores read the tables through ``lookup_h_c`` / ``bilinear_ptr``).
"""

import numpy as np

from refsvm.lookup import (  # noqa: F401  (re-exported: same objects as the reference)
    DEFAULT_GRID_SIZE,
    FORMAT_VERSION,
    KAPPA_TWO_MODES,
    SOLVERS,
    cache_dir,
    cache_path,
    clear_memory_cache,
    compute_tables,
    get_tables,
    grid_nodes,
    gss_h_grid,
    lookup_h,
    lookup_h_array,
    lookup_wd,
    lookup_wd_array,
    main,
    merge_functions,
    nonsmooth_cells,
    normalized_wd,
    table_checksum,
    two_mode_threshold,
)
from refsvm.lookup import _binary_pair, _check_table, check_pair_lookup


def _table(table):
    """C-contiguous float64 view of a table; ValueError on a bad shape (as the reference)."""
    _check_table(table)
    return np.ascontiguousarray(table, dtype=np.float64)


def bilinear(m, kappa, table):
    """Bilinear interpolation of ``table`` (nodes ``(i/G, j/G)``) at ``(m, kappa)``.

    ``m`` and ``kappa`` are clamped to ``[0, 1]`` (NaN -> 0).
    """
    cdef const double[:, ::1] t = _table(table)
    cdef double mm = m, kk = kappa
    return bilinear_mv(t, mm, kk)


def bilinear_array(m, kappa, table):
    """Vectorised :func:`bilinear` (same operations, element by element)."""
    m, kappa = np.broadcast_arrays(np.asarray(m, dtype=np.float64), np.asarray(kappa, dtype=np.float64))
    cdef const double[:, ::1] t = _table(table)
    mf = np.ascontiguousarray(m).reshape(-1)
    kf = np.ascontiguousarray(kappa).reshape(-1)
    out = np.empty(mf.shape[0], dtype=np.float64)
    cdef const double[::1] mv = mf
    cdef const double[::1] kv = kf
    cdef double[::1] o = out
    cdef Py_ssize_t k, n = mv.shape[0], G = t.shape[0] - 1
    with nogil:
        for k in range(n):
            o[k] = bilinear_ptr(&t[0, 0], G, mv[k], kv[k])
    return out.reshape(m.shape)


def merge_wd_lookup(alpha_m, alpha_n, log_kappa, wd_table):
    """Weight degradation of merging a binary pair, from the WD table (Lookup-WD).

    See :func:`refsvm.lookup.merge_wd_lookup`.
    """
    a_m, a_n = _binary_pair(alpha_m, alpha_n)
    cdef const double[:, ::1] t = _table(wd_table)
    return merge_wd_lookup_c(a_m, a_n, log_kappa, &t[0, 0], t.shape[0] - 1)


def merge_pair_lookup(alpha_m, alpha_n, log_kappa, solver, tables):
    """Merge a binary pair of equal sign with a table lookup instead of GSS.

    Returns ``(h, alpha_z, WD)``; see :func:`refsvm.lookup.merge_pair_lookup`.
    """
    a_m, a_n, h_table, wd_table = check_pair_lookup(alpha_m, alpha_n, solver, tables)
    cdef const double[:, ::1] th = _table(h_table)
    cdef const double[:, ::1] tw = _table(wd_table)
    cdef int code = SOLVER_LOOKUP_H if solver == "lookup-h" else SOLVER_LOOKUP_WD
    cdef double h, k_mz, k_nz, wd
    wd = merge_pair_lookup_c(a_m, a_n, log_kappa, code, &th[0, 0], &tw[0, 0], th.shape[0] - 1,
                             &h, &k_mz, &k_nz)
    alpha_z = alpha_m * k_mz + alpha_n * k_nz       # Alg. 1, line 8 (type of alpha_m, as the reference)
    return h, alpha_z, wd
