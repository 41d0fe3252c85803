# cython: language_level=3
"""C-level budget maintenance, implemented in budget.pyx and used by bsgd.pyx.

All functions work in place on the first ``n_sv`` slots of the SV store
``SV`` (dense (capacity, d) or sparse rows, refsvm/_fast/sparse.pxd) and ``alpha`` (capacity, c) and use the list operations of
DESIGN.md (append at n_sv; remove(p): last -> p; merge(m, n): z -> m, remove(n);
ties -> lowest index).  Symmetric matrices ``K`` / ``Kinv`` are stored
row-major in (capacity, capacity) buffers.
"""

from refsvm._fast.sparse cimport Store

cdef enum:
    MERGE_GSS = 0            # merge_solver codes, in the order of MERGE_SOLVERS
    MERGE_GSS_PRECISE = 1
    MERGE_LOOKUP_H = 2
    MERGE_LOOKUP_WD = 3

cdef struct MergeTables:     # what a merge reads besides the model (open_merge_tables)
    const double* h_table    # lookup tables (G + 1, G + 1), C-contiguous (1x1 dummies if not read)
    const double* wd_table
    Py_ssize_t G
    const double* lb_table   # partner-pruning table (_c_bound_table); lb_G = 0: no pruning
    Py_ssize_t lb_G

cdef Py_ssize_t c_remove_sv(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv,
                            Py_ssize_t p) noexcept nogil

cdef Py_ssize_t c_select_smallest(const Store* SV, const double[:, ::1] alpha,
                                  Py_ssize_t n_sv, int kernel, double gamma, double degree,
                                  double coef0, double* norm_min) noexcept nogil

cdef Py_ssize_t c_select_smallest_tie(const Store* SV, const double[:, ::1] alpha, Py_ssize_t n_sv, int kernel,
                                      double gamma, double degree, double coef0, double tie_unit,
                                      const double* errors, double* norm_p) noexcept nogil

cdef double c_merge_objective(double h, const double* am, const double* an, Py_ssize_t c,
                              double log_kappa, double* az) noexcept nogil

cdef double c_merge_h(const double* am, const double* an, Py_ssize_t c, double log_kappa,
                      double eps, double* az) noexcept nogil

cdef double c_merge_pair(const double* am, const double* an, Py_ssize_t c, double log_kappa,
                         double eps, double* h_out, double* az) noexcept nogil

cdef Py_ssize_t c_maintain_removal(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv,
                                   int kernel, double gamma, double degree, double coef0,
                                   Py_ssize_t* p_out, double* wd_out) noexcept nogil

cdef Py_ssize_t c_random_slot(double u, Py_ssize_t n_sv) noexcept nogil

cdef Py_ssize_t c_maintain_removal_at(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv, Py_ssize_t p,
                                      int kernel, double gamma, double degree, double coef0,
                                      double* wd_out) noexcept nogil

cdef Py_ssize_t c_maintain_merge(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv, double gamma, double eps,
                                 int solver, const MergeTables* T, double[::1] work, Py_ssize_t* m_out,
                                 Py_ssize_t* n_out, double* wd_out, const double* lk_hint,
                                 const double* kappa_hint, Py_ssize_t* n_same_out, double* h_out) noexcept nogil

cdef Py_ssize_t c_maintain_merge_tie(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv, double gamma, double eps,
                                     int solver, const MergeTables* T, double[::1] work, Py_ssize_t* m_out,
                                     Py_ssize_t* n_out, double* wd_out, const double* lk_hint,
                                     const double* kappa_hint, Py_ssize_t* n_same_out, double* h_out,
                                     double tie_unit, const double* errors) noexcept nogil

cdef void c_merge_compare(const Store* SV, const double[:, ::1] alpha, Py_ssize_t n_sv,
                          double gamma, double eps, const MergeTables* T, unsigned char* same, double* factor,
                          double* wd) noexcept nogil

cdef object open_merge_tables(MergeTables* T, object tables, object merge_solver, bint lookup, bint prune)

cdef int c_maintain_projection_solve(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv,
                                     int kernel, double gamma, double degree, double coef0,
                                     double ridge, double[::1] Kp, double[::1] rhs, int[::1] ipiv,
                                     Py_ssize_t* p_out, double* wd_out, double* errors,
                                     double kernel_error) noexcept nogil

cdef int c_project_sv(Store* SV, double[:, ::1] alpha, Py_ssize_t n_sv, Py_ssize_t p, int kernel, double gamma,
                      double degree, double coef0, double ridge, double[::1] Kp, double[::1] rhs, int[::1] ipiv,
                      double* wd_out, double* keep) noexcept nogil

cdef void c_projection_solve_error(const double* A, const double* LU, const int* ipiv, const double* x,
                                   const double* b, Py_ssize_t m, Py_ssize_t p, double a_p, double kernel_error,
                                   double* errors, double* work) noexcept nogil

# --- incremental inverse of (K + ridge I) for the projection step of BSGD ---

cdef void sym_swap_remove(double[:, ::1] M, Py_ssize_t n, Py_ssize_t p) noexcept nogil

cdef int kinv_refresh(const double[:, ::1] K, double[:, ::1] Kinv, Py_ssize_t n, double ridge,
                      double[:, ::1] W, int[::1] ipiv, double[::1] work) noexcept nogil

cdef int kinv_append(const double[:, ::1] K, double[:, ::1] Kinv, Py_ssize_t n, double ridge,
                     double[::1] u) noexcept nogil

cdef Py_ssize_t c_maintain_projection_inverse(Store* SV, double[:, ::1] alpha,
                                              Py_ssize_t n_sv, int kernel, double gamma,
                                              double degree, double coef0, double ridge,
                                              double[:, ::1] K, double[:, ::1] Kinv,
                                              double[::1] x, double[::1] r, int refine_steps,
                                              Py_ssize_t* p_out, double* wd_out,
                                              double* errors, double kernel_error, int* twins) noexcept nogil

cdef void twins_count(const double[:, ::1] K, Py_ssize_t n, double r, int* twins) noexcept nogil

cdef void twins_append(const double[:, ::1] K, Py_ssize_t b, double r, int* twins) noexcept nogil

cdef void twins_remove(const double[:, ::1] K, Py_ssize_t n, Py_ssize_t p, double r, int* twins) noexcept nogil

# --- kept Cholesky factor of (K + ridge I) for the projection step of BSGD (kept="factor") ---

cdef int chol_refresh(const double[:, ::1] K, double[:, ::1] L, Py_ssize_t n, double ridge, int* fslot,
                      int* fidx) noexcept nogil

cdef int chol_append(const double[:, ::1] K, double[:, ::1] L, Py_ssize_t n, Py_ssize_t slot, double ridge,
                     int* fslot, int* fidx) noexcept nogil

cdef Py_ssize_t c_maintain_projection_factor(Store* SV, double[:, ::1] alpha,
                                             Py_ssize_t n_sv, int kernel, double gamma,
                                             double degree, double coef0, double ridge,
                                             double[:, ::1] K, double[:, ::1] L, int* fslot, int* fidx,
                                             double* work, int refine_steps,
                                             Py_ssize_t* p_out, double* wd_out,
                                             double* errors, double kernel_error, int* twins) noexcept nogil
