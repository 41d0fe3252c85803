# The compiled twins' half of the opt-in per-step records (refsvm.recorder.recording_steps): pointers
# into arrays the Python wrapper allocates only when the records are on (NULL otherwise), written from
# the nogil loops.  Copies of the loop's own numbers; nothing is recomputed (a merge's h is written by
# the merge itself through ``merge_h_slot``).

from libc.math cimport NAN


cdef struct StepOut:
    double* margin         # (n_steps, c): the step's scores f_t(x_t); NULL: records off
    double* new_coef       # (n_steps, c): per maintenance event, the merged SV's coefficient (NaN: no merge)
    double* merge_h        # (n_events,): per maintenance event, the merge's h (NaN: no merge); NULL: off
    Py_ssize_t c


cdef inline StepOut records_off(Py_ssize_t c) noexcept:
    """Per-step records switched off (NULL pointers) for ``c`` scores a step; ``step_out_on`` switches them on."""
    cdef StepOut R
    R.margin = NULL
    R.new_coef = NULL
    R.merge_h = NULL
    R.c = c
    return R


cdef inline void record_margin(const StepOut* R, Py_ssize_t step, const double* f) noexcept nogil:
    """The scores ``f`` (``c`` values) of step ``step``."""
    cdef Py_ssize_t r
    if R.margin != NULL:
        for r in range(R.c):
            R.margin[step * R.c + r] = f[r]


cdef inline void record_new_coefficient(const StepOut* R, const double[:, ::1] A, bint merging, Py_ssize_t b_old,
                                        Py_ssize_t p, Py_ssize_t partner, Py_ssize_t event) noexcept nogil:
    """The merged SV's coefficient after maintenance event ``event`` of ``b_old`` SVs that merged ``p`` with
    ``partner`` (NaN without a merge); z's slot as :func:`refsvm.recorder.merged_slot`."""
    cdef Py_ssize_t r, z = -1
    if R.new_coef == NULL:
        return
    if merging and partner >= 0:
        z = partner if p == b_old - 1 else p
    for r in range(R.c):
        R.new_coef[event * R.c + r] = A[z, r] if z >= 0 else NAN


cdef inline double* merge_h_slot(const StepOut* R, Py_ssize_t event) noexcept nogil:
    """Where maintenance event ``event`` writes its merge's h (``c_maintain_merge``'s ``h_out``): NULL when off."""
    return R.merge_h + event if R.merge_h != NULL else NULL


cdef inline void merge_h_on(StepOut* R, double[::1] merge_hs) noexcept:
    """Point ``R.merge_h`` at the array of :func:`refsvm.recorder.merge_h_array` (kept alive by the caller)."""
    R.merge_h = &merge_hs[0]


cdef inline void step_out_on(StepOut* R, double[:, ::1] margins, double[:, ::1] new_coefs) noexcept:
    """Point ``R`` at the arrays of :func:`refsvm.recorder.step_record_arrays` (kept alive by the caller)."""
    R.margin = &margins[0, 0] if margins.shape[0] > 0 else NULL
    R.new_coef = &new_coefs[0, 0]
