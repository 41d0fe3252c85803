# Projection and the Margin Perceptron inside the compiled BSGD: the knobs of the kept inverse and the
# state that continues a returned model exactly (twin only: the reference recomputes K at every
# call).  Included by bsgd.pyx after its learning-rate codes; same module, same names.


# Projection inside BSGD (see the module docstring); changeable for experiments
# and tests through _projection_options().
cdef Py_ssize_t _refresh_every = 0        # 0: every B appends
cdef int _refine_steps = 1
cdef enum:
    KEPT_INVERSE = 0                      # the kept (K + ridge I)^{-1}: bordered updates (the default)
    KEPT_FACTOR = 1                       # the kept Cholesky factor of K + ridge I (kept="factor")
#: What projection with the rbf kernel keeps between events, in the order of the codes above.
KEPT = ("inverse", "factor")
cdef int _kept = KEPT_INVERSE
#: Counters of the last call (projection): inverse recomputations and failed bordered updates.
_last_stats = {}
# Projection / perceptron: for every returned model, the state to continue it exactly, keyed by
# the model's content (not by the identity of its arrays): digest of (SV rows -- dense bytes, or
# the three arrays of the canonical CSR form --, alpha, t, settings) -> (weakref to the returned
# sv, canonical copy of sv, copy of alpha, t, K, Kinv, appends since refresh, settings).
# A call whose (sv, alpha, t0) equal a returned model's -- the very arrays, a copy, the
# canonical CSR copy an estimator keeps, a saved and loaded model, a clone's partial_fit --
# keeps K and the inverse instead of recomputing them (the training loop's vectorised kernel
# rows and a recomputation may differ in the last bit, and the kept inverse depends on the
# order of its updates): a pass computed in several calls (epochs, verbose progress) gives the
# same model as one call.  A hit is confirmed by comparing the stored copies (a digest
# collision cannot continue the wrong state).  Entries whose returned sv is still alive are
# kept; the others are dropped oldest first once they hold more than _CONTINUATION_BYTES.
_continuations = {}
_CONTINUATION_BYTES = 64 << 20


def _canonical_svs(sv):
    """``sv`` in the form continuations are keyed and compared by: canonical CSR, or a float64 C array."""
    if sp.issparse(sv):
        return canonical_csr(sv)
    return np.ascontiguousarray(sv, dtype=np.float64)


def _continuation_key(sv, alpha, t, settings):
    """Digest of a model's content (canonical SVs, alpha, t) and the pass's settings."""
    h = hashlib.blake2b(digest_size=16)
    if sp.issparse(sv):
        h.update(b"csr" + repr(sv.shape).encode())
        h.update(np.asarray(sv.indptr, dtype=np.int64).tobytes())
        h.update(np.asarray(sv.indices, dtype=np.int64).tobytes())
        h.update(np.asarray(sv.data, dtype=np.float64).tobytes())
    else:
        h.update(b"dense" + repr(sv.shape).encode())
        h.update(sv.tobytes())
    h.update(np.ascontiguousarray(alpha, dtype=np.float64).tobytes())
    h.update(repr((int(t), settings)).encode())
    return h.digest()


def _continuation_of(sv, alpha, t, settings):
    """The kept ``(K, Kinv, appends since refresh)`` of the model ``(sv, alpha, t)``, or None (kept factor: ``Kinv``
    is ``(L, fslot, factor_ok)``)."""
    csv = _canonical_svs(sv)
    entry = _continuations.get(_continuation_key(csv, alpha, t, settings))
    if entry is None:
        return None
    _, c_sv, c_alpha, c_t, c_k, c_kinv, c_appends, c_settings = entry
    if (c_settings != settings or c_t != int(t) or not _same_svs(c_sv, csv)
            or not np.array_equal(c_alpha, np.asarray(alpha, dtype=np.float64))):
        return None
    return c_k, c_kinv, c_appends


def _keep_continuation(sv_out, alpha, t, K, Kinv, appends, settings):
    """Store the state to continue the returned model; drop the oldest unreferenced entries beyond the cap."""
    csv = _canonical_svs(sv_out)
    key = _continuation_key(csv, alpha, t, settings)
    _continuations.pop(key, None)
    _continuations[key] = (weakref.ref(sv_out), csv.copy(), np.array(alpha, dtype=np.float64), int(t),
                           K, Kinv, appends, settings)
    total = sum(_nbytes(e[4]) + _nbytes(e[5]) for e in _continuations.values())
    for k in list(_continuations):
        if total <= _CONTINUATION_BYTES:
            break
        e = _continuations[k]
        if k != key and e[0]() is None:
            total -= _nbytes(e[4]) + _nbytes(e[5])
            del _continuations[k]


def _nbytes(kept):
    """Bytes of a kept array, of the arrays of a kept tuple (the factor, its slots, a flag), 0 for None."""
    if kept is None:
        return 0
    if isinstance(kept, tuple):
        return sum(_nbytes(k) for k in kept)
    return getattr(kept, "nbytes", 0)


def _projection_options(refresh_every=None, refine_steps=None, kept=None):
    """Get / set the projection fast path's knobs; returns the previous ``(refresh_every, refine_steps, kept)``.

    ``refresh_every``: appends between recomputations of the inverse from
    scratch (0 = the budget B).  ``refine_steps``: steps of iterative refinement
    of ``(K_p + ridge I)^{-1} k_p`` per projection.  ``kept``: what the rbf projection keeps between events,
    ``"inverse"`` (the default: ``(K + ridge I)^{-1}``, bordered updates, recomputed from scratch every
    ``refresh_every`` appends and after an update that fails its accuracy check) or ``"factor"`` (its Cholesky
    factor: one forward substitution per append, a rank-one update per removal, O(B^2) per step with no
    recomputation; ``refresh_every`` is not read).  Both solve the same system; their coefficients differ by
    rounding (the agreement tests hold the reference against either).  Not part of the public API.
    """
    global _refresh_every, _refine_steps, _kept
    old = (_refresh_every, _refine_steps, KEPT[_kept])
    if refresh_every is not None:
        _refresh_every = int(refresh_every)
    if refine_steps is not None:
        _refine_steps = int(refine_steps)
    if kept is not None:
        if kept not in KEPT:
            raise ValueError(f"kept must be one of {KEPT}, got {kept!r}")
        _kept = KEPT.index(kept)
    return old
