# The Python side of one compiled BSGD pass: the buffers, the continuation of a kept K / inverse
# (bsgd_continuation.pxi), the nogil pass (_bsgd_pass in bsgd.pyx) and the trace (the reference's
# BSGDRecorder keys).  Included at the end of bsgd.pyx; same module, same names.


cdef object _bsgd_run(Params* P, State* stp, const Rows* R, Store* S, object SV, object A,
                      object y, object order, object sv, object bias, object t0):
    """The pass of :func:`bsgd` over the prepared model and buffers (``bsgd`` frees the store)."""
    cdef State st = stp[0]
    cdef bint sparse = S.sparse
    cdef Py_ssize_t cap = A.shape[0], d = P.d, c = P.c
    w0 = np.zeros(c) if bias is None else np.array(bias, dtype=np.float64)
    w0c = np.ascontiguousarray(np.broadcast_to(w0, (c,)), dtype=np.float64).copy()
    memset(&st, 0, sizeof(State))                             # every counter and timer from 0
    st.b = stp.b
    st.t = int(t0)
    st.factor_ok = True                                       # kept factor: the empty factor is valid

    # b never exceeds min(B + 1, len(sv) + n_steps): size the O(B^2) matrices accordingly
    kdim = min(cap, st.b + P.n_steps + 1) if P.keep_K else 1
    K = np.zeros((kdim, kdim))
    Kinv = np.zeros((kdim if P.keep_Kinv else 1,) * 2)
    W = np.zeros((kdim if P.keep_Kinv else 1,) * 2)
    v1 = np.zeros(cap)
    v2 = np.zeros(max(2 * cap, 64))
    kp_buf = np.zeros(max(3 * cap * cap + cap, 1)            # the fresh solve (kept factor: its fallback)
                      if (P.maint == MAINT_PROJECTION and (P.kept_factor or not P.keep_Kinv)) else 1)
    E = np.zeros(cap if P.maint == MAINT_PROJECTION else 1)    # the selection's bounds (selection_errors)
    cdef double[::1] Ev = E
    if P.maint == MAINT_PROJECTION:
        P.errors = &Ev[0]
    twins = np.zeros(cap if P.keep_Kinv else 1, dtype=np.intc)   # near duplicates per slot (kept K)
    cdef int[::1] twv = twins
    fmaps = np.zeros(2 * cap if P.kept_factor else 2, dtype=np.intc)   # kept factor: fslot, then fidx
    fwork = np.zeros(3 * cap if P.kept_factor else 1)
    cdef int[::1] fmv = fmaps
    cdef double[::1] fwv = fwork
    P.fslot = &fmv[0]
    P.fidx = &fmv[cap] if P.kept_factor else &fmv[1]
    P.fwork = &fwv[0]
    ipiv = np.zeros(cap, dtype=np.intc)
    k_t = np.zeros(cap)
    f = np.zeros(c)
    beta = np.zeros(c)
    mwork = np.zeros(2 * c + 3 * cap)                          # c_maintain_merge: 2 c + 3 n_sv
    added = np.zeros(P.n_steps, dtype=np.int8)
    maint_step = np.zeros(P.n_steps, dtype=np.int64)
    maint_index = np.zeros(P.n_steps, dtype=np.int64)
    maint_partner = np.zeros(P.n_steps, dtype=np.int64)
    weight_degradation = np.zeros(P.n_steps, dtype=np.float64)
    ncmp = P.n_steps if P.compare else 1
    cmp_same = np.zeros((ncmp, 4), dtype=np.uint8)
    cmp_factor = np.zeros((ncmp, 4))
    cmp_wd = np.zeros((ncmp, 4))
    cdef unsigned char[:, ::1] cmp_samev = cmp_same
    cdef double[:, ::1] cmp_factorv = cmp_factor
    cdef double[:, ::1] cmp_wdv = cmp_wd
    margins, new_coefs = step_record_arrays(P.n_steps, P.n_steps, c)   # per-step records (opt-in): None when off
    merge_hs = merge_h_array(P.n_steps)
    if margins is not None:
        step_out_on(&P.steps, margins, new_coefs)
        merge_h_on(&P.steps, merge_hs)

    cdef double[:, ::1] Av = A
    cdef double[:, ::1] Kv = K
    cdef double[:, ::1] Kinvv = Kinv
    cdef double[:, ::1] Wv = W
    cdef double[::1] v2v = v2
    cdef double[::1] kpv = kp_buf
    cdef int[::1] ipivv = ipiv
    cdef int info = 0
    cdef Py_ssize_t j
    cdef bint reuse_k = False
    settings = (P.kernel, P.gamma, P.degree, P.coef0, P.ridge, P.refresh_every, P.keep_Kinv, P.kept_factor)
    entry = _continuation_of(sv, A[:st.b], st.t, settings) if (P.keep_K and st.b > 0) else None
    if entry is not None and entry[0].shape == (st.b, st.b):
        c_k, c_kinv, c_appends = entry
        K[:st.b, :st.b] = c_k                                 # continue the kept K (and inverse or factor)
        if P.kept_factor:
            Kinv[:st.b, :st.b], fmaps[:st.b], ok = c_kinv     # the factor, its slots, whether it is valid
            for j in range(st.b):
                fmaps[cap + fmaps[j]] = j
            st.factor_ok = ok
        elif P.keep_Kinv:
            Kinv[:st.b, :st.b] = c_kinv
        st.appends_since_refresh = c_appends
        reuse_k = True
    if P.keep_K and st.b > 0 and not reuse_k:                 # continuing from a model
        with nogil:
            for j in range(st.b):
                _set_kernel_row(P, S, Kv, st.b, j)
                Kv[j, j] = store_self(S, j, P.kernel, P.gamma, P.degree, P.coef0)
            if P.kept_factor:                                 # not positive definite: fresh solves until it is
                st.factor_ok = chol_refresh(Kv, Kinvv, st.b, P.ridge, P.fslot, P.fidx) == 0
            elif P.keep_Kinv:
                info = kinv_refresh(Kv, Kinvv, st.b, P.ridge, Wv, ipivv, v2v)
        if info != 0:
            raise np.linalg.LinAlgError("Singular matrix")

    if P.keep_Kinv:                                           # from the K the pass starts with
        twins_count(Kv, st.b, P.ridge, &twv[0])
        P.twins = &twv[0]
    cdef int err
    cdef const int64_t[::1] yv = y
    cdef const int64_t[::1] ov = order
    cdef double[::1] w0v = w0c
    cdef double[::1] k_tv = k_t
    cdef double[::1] fv = f
    cdef double[::1] betav = beta
    cdef double[::1] v1v = v1
    cdef double[::1] mworkv = mwork
    cdef int8_t[::1] addedv = added
    cdef int64_t[::1] msv = maint_step
    cdef int64_t[::1] miv = maint_index
    cdef int64_t[::1] mpv = maint_partner
    cdef double[::1] wdv = weight_degradation
    with nogil:
        err = _bsgd_pass(P, &st, R, yv, ov, S, Av, w0v, k_tv, fv, betav, Kv, Kinvv, Wv, v1v, v2v,
                         ipivv, mworkv, kpv, addedv, msv, miv, mpv, wdv, cmp_samev, cmp_factorv, cmp_wdv)
    if err == ERR_INTERRUPTED:
        raise KeyboardInterrupt
    if err == ERR_SINGULAR:
        raise np.linalg.LinAlgError("Singular matrix")
    if err == ERR_NOMEM:
        raise MemoryError("could not allocate a sparse support vector")

    global _last_stats
    _last_stats = {"kinv_refreshes": int(st.kinv_refreshes),
                   "kinv_append_failures": int(st.kinv_append_failures)}
    ne = st.n_events
    trace = {
        "mistakes": int(st.mistakes),
        "n_steps": int(P.n_steps),
        "added": added,
        "maint_step": maint_step[:ne].copy(),
        "maint_index": maint_index[:ne].copy(),
        "maint_partner": maint_partner[:ne].copy(),
        "weight_degradation": weight_degradation[:ne].copy(),
        "gradient_error_sum": float(st.gradient_error_sum),
        "maintenance_seconds": float(st.maintenance_seconds),
        "merge_seconds": float(st.merge_seconds),
        "kernel_evaluations": int(st.kernel_evaluations),
        "duplicate_additions": int(st.duplicate_additions),
        "kernel_entries": int(st.kernel_entries),
    }
    add_step_records(trace, margins, new_coefs, ne, merge_hs)   # the reference's StepRecords keys
    if P.compare:
        trace["compare_same_decision"] = cmp_same[:ne].astype(bool)
        trace["compare_wd_factor"] = cmp_factor[:ne].copy()
        trace["compare_wd"] = cmp_wd[:ne].copy()
    b = st.b
    sv_out = store_export(S, b) if sparse else SV[:b].copy()
    alpha_out = A[:b].copy()
    if P.keep_K and b > 0:
        kept = ((Kinv[:b, :b].copy(), fmaps[:b].copy(), bool(st.factor_ok)) if P.kept_factor else
                Kinv[:b, :b].copy() if P.keep_Kinv else None)
        _keep_continuation(sv_out, alpha_out, st.t, K[:b, :b].copy(), kept, st.appends_since_refresh, settings)
    return BSGDResult(sv=sv_out, alpha=alpha_out, bias=w0c, t=int(st.t), trace=trace)
