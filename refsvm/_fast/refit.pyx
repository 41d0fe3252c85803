# cython: language_level=3
"""Offset refit by exact hinge-loss minimisation (compiled mirror of :mod:`refsvm.refit`).

Same functions, same signatures, same results as the reference; see the
reference module for the algorithm (sorted kinks, slope scan) and its cost.

How (not what) differs: :func:`hinge_offset` copies the kinks into an array
of C structs and sorts them with ``qsort`` by the same key (t, y, w) and scans
them, all ``nogil``.  The sums ``W+`` and ``P_k`` are accumulated one by one
in sorted order as the reference's ``numpy.cumsum`` does, so ``b*`` is
bitwise the reference's; the returned loss is summed sequentially (the
reference: numpy's pairwise sum), equal within rounding.
:func:`crammer_singer_offsets` and the scaled variants are the reference's
code (:func:`refsvm.refit.coordinate_offsets`, ``scaled_offset``,
``scaled_coordinate_offsets``, which take the binary solver as data) run with
the compiled :func:`hinge_offset`.
"""

import numpy as np

from refsvm.refit import (SCALE_BRACKET, SCALE_ITERATIONS, check_refit_arguments, coordinate_offsets, hinge_loss,
                          multiclass_hinge_loss, scaled_coordinate_offsets, scaled_offset)

from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc, qsort

__all__ = ["hinge_offset", "scaled_hinge_offset", "crammer_singer_offsets", "scaled_crammer_singer_offsets",
           "hinge_loss", "multiclass_hinge_loss", "check_refit_arguments"]


cdef struct Kink:
    double t
    int64_t y
    double w


cdef int _compare(const void* a, const void* b) noexcept nogil:
    """Order by (t, y, w), as the reference's ``numpy.lexsort((w, y, t))``."""
    cdef const Kink* p = <const Kink*> a
    cdef const Kink* q = <const Kink*> b
    if p.t < q.t:
        return -1
    if p.t > q.t:
        return 1
    if p.y < q.y:
        return -1
    if p.y > q.y:
        return 1
    if p.w < q.w:
        return -1
    if p.w > q.w:
        return 1
    return 0


cdef double _scan(Kink* kinks, Py_ssize_t m) noexcept nogil:
    """The minimiser from the sorted kinks (reference: the lines after the sort)."""
    cdef double w_pos = 0.0, passed = 0.0, offset
    cdef Py_ssize_t j, k = m - 1, last
    for j in range(m):
        if kinks[j].y > 0:
            w_pos = w_pos + kinks[j].w
        else:
            w_pos = w_pos + 0.0
    for j in range(m):
        passed = passed + kinks[j].w
        if passed >= w_pos:
            k = j
            break
    offset = kinks[k].t
    last = k
    while last + 1 < m and kinks[last + 1].t == kinks[k].t:
        passed = passed + kinks[last + 1].w
        last += 1
    if passed == w_pos and last + 1 < m:
        offset = 0.5 * (kinks[k].t + kinks[last + 1].t)
    return offset


def hinge_offset(f, y, sample_weight=None):
    """The offset b minimising ``sum_i w_i max(0, 1 - y_i (f_i + b))`` exactly (see :mod:`refsvm.refit`)."""
    f, y, w = check_refit_arguments(f, y, sample_weight)
    cdef const double[::1] fv = f
    cdef const int64_t[::1] yv = y
    cdef const double[::1] wv = w
    cdef Py_ssize_t n = fv.shape[0], m = 0, i
    cdef double offset = 0.0, total = 0.0, wsum = 0.0, h
    cdef Kink* kinks
    with nogil:
        for i in range(n):
            if wv[i] > 0:
                m += 1
    if m == 0:
        return 0.0, 0.0
    kinks = <Kink*> malloc(m * sizeof(Kink))
    if kinks == NULL:
        raise MemoryError("hinge_offset: cannot allocate the kink array")
    try:
        with nogil:
            m = 0
            for i in range(n):
                if wv[i] > 0:
                    kinks[m].t = <double> yv[i] - fv[i]
                    kinks[m].y = yv[i]
                    kinks[m].w = wv[i]
                    m += 1
            qsort(kinks, m, sizeof(Kink), _compare)
            offset = _scan(kinks, m)
            for i in range(n):
                if wv[i] > 0:
                    h = 1.0 - yv[i] * (fv[i] + offset)
                    if h > 0:
                        total = total + wv[i] * h
                    wsum = wsum + wv[i]
    finally:
        free(kinks)
    return float(offset), float(total / wsum)


def crammer_singer_offsets(F, y, offsets, sample_weight=None, max_sweeps=20):
    """Per-class offsets by exact coordinate steps (see :func:`refsvm.refit.crammer_singer_offsets`):
    the reference's loop over the compiled :func:`hinge_offset`."""
    return coordinate_offsets(hinge_offset, F, y, offsets, sample_weight, max_sweeps)


def scaled_hinge_offset(f, y, sample_weight=None):
    """Threshold of the jointly optimal scale and offset (see :func:`refsvm.refit.scaled_hinge_offset`)."""
    return scaled_offset(hinge_offset, f, y, sample_weight)


def scaled_crammer_singer_offsets(F, y, offsets, sample_weight=None, max_sweeps=20):
    """Crammer-Singer offsets with a common scale (see :func:`refsvm.refit.scaled_crammer_singer_offsets`)."""
    return scaled_coordinate_offsets(hinge_offset, F, y, offsets, sample_weight, max_sweeps)
