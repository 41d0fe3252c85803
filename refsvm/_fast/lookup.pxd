# cython: language_level=3
"""C-level lookup-table merging (Glasmachers & Qaadan), ``cimport``-able by
:mod:`refsvm._fast.budget`.

The tables are C-contiguous float64 arrays of shape ``(G + 1, G + 1)`` with
``table[i, j] = f(i / G, j / G)`` (row = m, column = kappa); see
:mod:`refsvm.lookup`.  Every function here performs the same floating-point
operations in the same order as its counterpart in :mod:`refsvm.lookup`
(``bilinear``, ``merge_wd_lookup``, ``merge_pair_lookup``), so both paths
return the same bits on the same libm (no ``-ffast-math``, no FMA contraction
on x86-64).

``(1 - h)^2`` is ``(1 - h) * (1 - h)`` in both paths (the reference used
Python's ``** 2``, i.e. libm's ``pow``, until table format version 2).
"""

from libc.math cimport exp

cdef enum:
    SOLVER_LOOKUP_H = 0
    SOLVER_LOOKUP_WD = 1


cdef inline double clamp01(double v) noexcept nogil:
    """``v`` clamped to ``[0, 1]``, NaN -> 0 (the reference's ``if not v > 0.0: ... elif v > 1.0: ...``)."""
    if not v > 0.0:
        return 0.0
    if v > 1.0:
        return 1.0
    return v


cdef inline double bilinear_ptr(const double* table, Py_ssize_t G, double m, double kappa) noexcept nogil:
    """Bilinear interpolation in the ``(G + 1) x (G + 1)`` table at ``(m, kappa)`` (clamped to [0, 1], NaN -> 0)."""
    cdef double x, y, u, v, f0, f1
    cdef Py_ssize_t i, j, row
    x = clamp01(m) * <double>G            # position in grid units
    y = clamp01(kappa) * <double>G
    i = <Py_ssize_t>x                     # cell (i, j), the last cell includes its upper edge
    if i > G - 1:
        i = G - 1
    j = <Py_ssize_t>y
    if j > G - 1:
        j = G - 1
    u = x - <double>i                     # local coordinates in [0, 1]
    v = y - <double>j
    row = G + 1
    f0 = (1.0 - v) * table[i * row + j] + v * table[i * row + j + 1]              # along kappa at m_i
    f1 = (1.0 - v) * table[(i + 1) * row + j] + v * table[(i + 1) * row + j + 1]  # along kappa at m_(i+1)
    return (1.0 - u) * f0 + u * f1                                                # along m


cdef inline double bilinear_mv(const double[:, ::1] table, double m, double kappa) noexcept nogil:
    """:func:`bilinear_ptr` on a typed memoryview (shape ``(G + 1, G + 1)``, unchecked)."""
    return bilinear_ptr(&table[0, 0], table.shape[0] - 1, m, kappa)


cdef inline double lookup_h_c(const double* h_table, Py_ssize_t G, double m, double kappa) noexcept nogil:
    """``h(m, kappa)`` read from the half ``m >= 1/2``: ``h(m) = 1 - h(1 - m)`` (see ``refsvm.lookup.lookup_h``)."""
    if m < 0.5:
        return 1.0 - bilinear_ptr(h_table, G, 1.0 - m, kappa)
    return bilinear_ptr(h_table, G, m, kappa)


cdef inline double relative_weight(double a_m, double a_n) noexcept nogil:
    """``m = alpha_m / (alpha_m + alpha_n)`` (1/2 if both vanish)."""
    cdef double total = a_m + a_n
    if total == 0.0:
        return 0.5
    return a_m / total


cdef inline double merge_wd_lookup_c(double a_m, double a_n, double log_kappa,
                                     const double* wd_table, Py_ssize_t G) noexcept nogil:
    """Lookup-WD weight degradation of a binary pair of equal sign (Alg. 1, lines 5-9)."""
    cdef double m = relative_weight(a_m, a_n)        # Alg. 1, line 5 (corrected)
    cdef double kappa = exp(log_kappa)               # Alg. 1, line 6
    cdef double total = a_m + a_n
    return total * total * bilinear_ptr(wd_table, G, m, kappa)   # Alg. 1, lines 7-9 (Lemma 1, squared)


cdef inline double merge_pair_lookup_c(double a_m, double a_n, double log_kappa, int solver,
                                       const double* h_table, const double* wd_table, Py_ssize_t G,
                                       double* h_out, double* k_mz_out, double* k_nz_out) noexcept nogil:
    """Merge a binary pair of equal sign by lookup; returns WD.

    Writes ``h``, ``k(x_m, z) = kappa^((1-h)^2)`` and ``k(x_n, z) = kappa^(h^2)``
    (``alpha_z = alpha_m k_mz + alpha_n k_nz``, Alg. 1, line 8).
    ``solver``: ``SOLVER_LOOKUP_H`` (exact WD for the looked-up h) or
    ``SOLVER_LOOKUP_WD`` (WD from the table).
    """
    cdef double m = relative_weight(a_m, a_n)        # Alg. 1, line 5 (corrected)
    cdef double kappa = exp(log_kappa)               # Alg. 1, line 6
    cdef double h = lookup_h_c(h_table, G, m, kappa)     # Alg. 1, line 7 by lookup
    cdef double u = 1.0 - h
    cdef double k_mz = exp(u * u * log_kappa)
    cdef double k_nz = exp(h * h * log_kappa)
    cdef double a_z, wd, total
    h_out[0] = h
    k_mz_out[0] = k_mz
    k_nz_out[0] = k_nz
    if solver == SOLVER_LOOKUP_H:
        a_z = a_m * k_mz + a_n * k_nz                # Alg. 1, line 8
        wd = a_m * a_m + a_n * a_n + 2.0 * kappa * (a_m * a_n) - a_z * a_z   # Alg. 1, line 9
        return 0.0 if 0.0 > wd else wd              # max(wd, 0.0)
    total = a_m + a_n
    return total * total * bilinear_ptr(wd_table, G, m, kappa)   # Alg. 1, lines 7-9 by lookup
