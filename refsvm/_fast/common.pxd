# cython: language_level=3
"""C-level pieces shared by the compiled solvers (``cimport``-ed by
:mod:`refsvm._fast.bsgd` and :mod:`refsvm._fast.bsca`): the codes of the
budget maintenance strategies and of the errors a nogil pass can end with,
CPython's signal check (Ctrl-C inside a long pass: :func:`interrupted`) and a monotonic clock for
the maintenance timings of the trace."""

from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef enum:                 # in the order of refsvm.budget.BSGD_MAINTENANCE (MAINTENANCE, then BSGD's baselines)
    MAINT_REMOVAL = 0
    MAINT_PROJECTION = 1
    MAINT_MERGE = 2
    MAINT_RANDOM_REMOVAL = 3
    MAINT_STOP = 4

cdef enum:
    ERR_NONE = 0
    ERR_SINGULAR = 1
    ERR_INTERRUPTED = 2

cdef extern from "Python.h":
    int _check_signals "PyErr_CheckSignals" () noexcept
    void _clear_error "PyErr_Clear" () noexcept


cdef inline double _now() noexcept nogil:
    """Seconds of ``clock_gettime(CLOCK_MONOTONIC)``."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double> ts.tv_sec + 1e-9 * <double> ts.tv_nsec


cdef inline bint interrupted(Py_ssize_t step) noexcept nogil:
    """Every 4096 steps, whether Ctrl-C has arrived (the Python error is then cleared: the caller
    saves its state and returns ``ERR_INTERRUPTED``, its ``def`` raises KeyboardInterrupt)."""
    if (step & 4095) != 4095:
        return False
    with gil:
        if _check_signals() != 0:
            _clear_error()
            return True
    return False
