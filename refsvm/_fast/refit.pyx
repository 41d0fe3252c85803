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
:func:`crammer_singer_offsets` is the reference's coordinate loop (numpy
code shared from :mod:`refsvm.refit`) with the compiled :func:`hinge_offset`;
the scaled variants run the reference's golden-section search
(:func:`refsvm.refit._golden_scale`) over the compiled solvers.
"""

import numpy as np

from refsvm.refit import (SCALE_BRACKET, SCALE_ITERATIONS, _coordinate_problem, _golden_scale, check_refit_arguments,
                          hinge_loss, multiclass_hinge_loss)

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
    """Per-class offsets by exact coordinate steps (see :func:`refsvm.refit.crammer_singer_offsets`)."""
    F, y, w = check_refit_arguments(F, y, sample_weight, multiclass=True)
    b = np.array(offsets, dtype=np.float64).reshape(-1)
    if b.shape != (F.shape[1],):
        raise ValueError(f"offsets must have shape ({F.shape[1]},); got {b.shape}")
    loss = multiclass_hinge_loss(F, y, b, w)
    sweeps = 0
    for sweeps in range(1, max_sweeps + 1):
        before = loss
        for k in range(F.shape[1]):
            u, s, _ = _coordinate_problem(F, y, b, k)
            candidate = b.copy()
            candidate[k], _ = hinge_offset(u, s, w)
            new_loss = multiclass_hinge_loss(F, y, candidate, w)
            if new_loss <= loss:
                b, loss = candidate, new_loss
        if before - loss <= 1e-12 * before:
            break
    return b, loss, sweeps


def scaled_hinge_offset(f, y, sample_weight=None):
    """Threshold of the jointly optimal scale and offset (see :func:`refsvm.refit.scaled_hinge_offset`)."""
    f, y, w = check_refit_arguments(f, y, sample_weight)
    if not np.any(w > 0):
        return 0.0, 1.0, 0.0
    scale = _golden_scale(lambda s: hinge_offset(s * f, y, w)[1])
    offset, loss = hinge_offset(scale * f, y, w)
    return offset / scale, scale, loss


def scaled_crammer_singer_offsets(F, y, offsets, sample_weight=None, max_sweeps=20):
    """Crammer-Singer offsets with a common scale (see :func:`refsvm.refit.scaled_crammer_singer_offsets`)."""
    F, y, w = check_refit_arguments(F, y, sample_weight, multiclass=True)
    b0 = np.array(offsets, dtype=np.float64).reshape(-1)
    scale = _golden_scale(lambda s: crammer_singer_offsets(s * F, y, s * b0, w, max_sweeps)[1])
    b, loss, _ = crammer_singer_offsets(scale * F, y, scale * b0, w, max_sweeps)
    return b / scale, scale, loss
