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
the compiled :func:`hinge_offset`; the binary scale search's steps are
:meth:`ScaledKinks.solve` (one sort for all steps, bitwise the same pairs).
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
    """Threshold of the jointly optimal scale and offset (see :func:`refsvm.refit.scaled_hinge_offset`):
    the reference's search with :meth:`ScaledKinks.solve` for ``hinge_offset(s * f, y, w)``."""
    f, y, w = check_refit_arguments(f, y, sample_weight)
    return scaled_offset(ScaledKinks(f, y, w).solve, f, w)


cdef class ScaledKinks:
    """The problems ``hinge_offset(s * f, y, w)`` of the scale search, for any ``s > 0``, from one sort.

    For ``s > 0`` the kinks of one label, ``t_i(s) = y_i - fl(s f_i)``, are ordered as ``-f_i``
    whatever ``s`` (a correctly rounded product and difference are monotone), so each label's rows
    are sorted once by ``(-f, w)``; :meth:`solve` computes the kinks in that order, re-sorts by ``w``
    the runs whose ``t`` rounding made equal (distinct ``f``, same ``t``), and merges the two lists
    by ``(t, y)``: the sequence ``numpy.lexsort((w, y, t))`` gives, so the scan returns bitwise
    :func:`hinge_offset`'s offset, and the loss is summed in row order as there.  O(m) a step
    instead of a sort.  ``(f, y, w)`` as :func:`hinge_offset` takes them (checked here).
    """
    cdef double[::1] f, w
    cdef int64_t[::1] y
    cdef Py_ssize_t[::1] neg, pos

    def __cinit__(self, f, y, w=None):
        f, y, w = check_refit_arguments(f, y, w)
        keep = np.flatnonzero(np.asarray(w) > 0)
        self.f, self.y, self.w = f[keep], y[keep], w[keep]
        order = np.lexsort((self.w, -np.asarray(self.f)))          # by -f, then w
        labels = np.asarray(self.y)[order]
        self.neg = np.ascontiguousarray(order[labels < 0], dtype=np.intp)
        self.pos = np.ascontiguousarray(order[labels > 0], dtype=np.intp)

    def solve(self, double s):
        """``(offset, loss)`` of :func:`hinge_offset` ``(s * f, y, w)``, bitwise (``s > 0``)."""
        cdef Py_ssize_t m = self.f.shape[0], a = self.neg.shape[0], b = self.pos.shape[0], i, j, k
        cdef double offset = 0.0, total = 0.0, wsum = 0.0, h
        cdef Kink* kinks
        if not s > 0:
            raise ValueError(f"s must be > 0 (the kinks' order is that of -f for s > 0 only); got {s}")
        if m == 0:
            return 0.0, 0.0
        kinks = <Kink*> malloc((2 * m) * sizeof(Kink))
        if kinks == NULL:
            raise MemoryError("ScaledKinks.solve: cannot allocate the kink arrays")
        try:
            with nogil:
                _label_kinks(kinks + m, self.neg, self.f, self.w, -1, s)
                _label_kinks(kinks + m + a, self.pos, self.f, self.w, 1, s)
                i, j = m, m + a
                for k in range(m):                 # merge by (t, y): y = -1 first on equal t
                    if j == m + a + b or (i < m + a and kinks[i].t <= kinks[j].t):
                        kinks[k] = kinks[i]
                        i += 1
                    else:
                        kinks[k] = kinks[j]
                        j += 1
                offset = _scan(kinks, m)
                for i in range(m):                 # row order, as hinge_offset
                    h = 1.0 - self.y[i] * (s * self.f[i] + offset)
                    if h > 0:
                        total = total + self.w[i] * h
                    wsum = wsum + self.w[i]
        finally:
            free(kinks)
        return float(offset), float(total / wsum)


cdef void _label_kinks(Kink* out, const Py_ssize_t[::1] order, const double[::1] f, const double[::1] w,
                       int64_t label, double s) noexcept nogil:
    """The kinks of one label in ``order`` (by ``-f``, then ``w``); runs of equal ``t`` sorted by ``w``."""
    cdef Py_ssize_t n = order.shape[0], j, start = 0
    cdef bint sorted_w = True
    for j in range(n):
        out[j].t = <double> label - s * f[order[j]]
        out[j].y = label
        out[j].w = w[order[j]]
    for j in range(1, n + 1):
        if j < n and out[j].t == out[start].t:
            if out[j].w < out[j - 1].w:
                sorted_w = False
            continue
        if not sorted_w:                           # equal t from distinct f: order by w as lexsort
            qsort(out + start, j - start, sizeof(Kink), _compare)
        start, sorted_w = j, True


def scaled_crammer_singer_offsets(F, y, offsets, sample_weight=None, max_sweeps=20):
    """Crammer-Singer offsets with a common scale (see :func:`refsvm.refit.scaled_crammer_singer_offsets`)."""
    return scaled_coordinate_offsets(hinge_offset, F, y, offsets, sample_weight, max_sweeps)
