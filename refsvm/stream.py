"""Training on a LIBSVM file larger than memory: ``partial_fit`` over chunks, epoch after epoch.

:func:`fit_stream` reads the file with :func:`refsvm.io.stream.iter_libsvm`
and passes each chunk to the estimator's ``partial_fit``; memory is one chunk
(plus a shuffle buffer, if asked), whatever the size of the file.

First, one pre-pass over the file (:func:`refsvm.io.stream.scan_libsvm`,
the cost of one more read and decompression of the file) finds what
``partial_fit`` cannot learn from one chunk: the number of features, the
classes (a classifier's first ``partial_fit`` needs all of them) and, for
``gamma="scale"``, ``X.var()`` over the whole file, so that the kernel width
is that of the whole data (equal to the in-memory value to a few ulps
relative), never silently that of the first chunk.

Order of the examples (``shuffle``), deterministic from ``random_state``:

``"none"``
    The file's order, chunk after chunk (the estimator's ``partial_fit``
    still visits the rows of each chunk in its own random order).
``"chunks"``
    Each epoch, the chunks in a new random order (a permutation of the chunk
    numbers; each chunk is found by seeking to where the pre-pass saw it:
    cheap for a plain file, a new decompression from the start of the file
    for each backward seek in a compressed one).
``"buffer"``
    A shuffle buffer of ``buffer_rows`` examples: each chunk read is put
    together with the buffer and randomly permuted; the first ``chunk_rows``
    rows are trained on and the other ``buffer_rows`` kept as the new buffer
    (what is left at the end of the epoch is trained on in chunks).  An
    example can so move up to about ``buffer_rows`` places forward.
``"both"``
    ``"chunks"`` then ``"buffer"``.

The order's generator is independent of the estimator's even when both get the same integer seed
(:func:`stream_rng`): two generators made by ``numpy.random.default_rng`` from one seed draw the
same numbers, and a shuffle buffer permuted by the same numbers as the estimator's permutation of
each chunk gave a correlated visiting order (on a9a with BSGD, accuracies far below the in-memory
runs'), which ``refsvm train --stream --random-state N`` (one seed for both) ran into.

Not here: distributed reading (Dask), checkpoint and resume.
"""

import numpy as np
import scipy.sparse as sp

from .io.stream import DEFAULT_CHUNK_ROWS, iter_libsvm, scan_libsvm

__all__ = ["SHUFFLES", "fit_stream", "gamma_scale", "stream_rng"]

#: The values of ``shuffle``.
SHUFFLES = ("none", "chunks", "buffer", "both")


def gamma_scale(summary, n_features=None):
    """``gamma="scale"``, ``1 / (n_features * X.var())`` (1.0 if ``X.var() == 0``), from a file's
    :class:`~refsvm.io.stream.LibsvmSummary` (error as the estimators' if not finite)."""
    d = summary.n_features if n_features is None else int(n_features)
    var = summary.variance(d)
    value = 1.0 / (d * var) if var != 0.0 else 1.0
    if not (np.isfinite(value) and value > 0.0):
        raise ValueError(
            f"gamma='scale' could not be computed from this data: 1 / (n_features * X.var()) = "
            f"1 / ({d} * {var!r}) = {value!r} (scale the features, or give gamma a number > 0)")
    return value


def stream_rng(random_state):
    """The generator of the visiting order from ``random_state``: a Generator as given; None: fresh
    entropy; an int: ``default_rng`` of the first child of ``SeedSequence(random_state)``, so that it
    shares no stream with an estimator's ``default_rng(random_state)``."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, (int, np.integer)):
        raise ValueError(f"random_state must be None, a non-negative int or a numpy.random.Generator; got "
                         f"{random_state!r}")
    try:
        return np.random.default_rng(np.random.SeedSequence(int(random_state)).spawn(1)[0])
    except ValueError as exc:                      # negative seeds
        raise ValueError(f"random_state: {exc}") from None


def _check_count(name, value, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1{' or None' if allow_none else ''}; got {value!r}")
    return int(value)


def _buffered(chunks, chunk_rows, buffer_rows, rng):
    """The rows of ``chunks`` through a shuffle buffer of ``buffer_rows`` rows, in chunks of
    ``chunk_rows`` (see the module's ``"buffer"``)."""
    held_X, held_y = None, None
    for X, y in chunks:
        if held_X is not None:
            X = sp.vstack([held_X, X], format="csr") if sp.issparse(X) else np.vstack([held_X, X])
            y = np.concatenate([held_y, y])
        perm = rng.permutation(X.shape[0])
        out = max(X.shape[0] - buffer_rows, 0)
        if out:
            yield X[perm[:out]], y[perm[:out]]
        held_X, held_y = X[perm[out:]], y[perm[out:]]
    if held_X is not None:
        for start in range(0, held_X.shape[0], chunk_rows):
            yield held_X[start:start + chunk_rows], held_y[start:start + chunk_rows]


def fit_stream(estimator, path, *, epochs=1, chunk_rows=DEFAULT_CHUNK_ROWS, shuffle="none",
               buffer_rows=None, random_state=None, zero_based=False, n_features=None,
               pad_features=False, sparse=True, summary=None, callback=None):
    """Train ``estimator`` on the LIBSVM file ``path`` with ``partial_fit``, chunk by chunk.

    Parameters
    ----------
    estimator : estimator with ``partial_fit``
        Trained in place (a fitted one continues its model; a classifier's classes are then
        checked against the file's).  If its ``partial_fit`` takes ``classes``, every call gets
        the file's distinct labels (from the pre-pass).  With ``gamma="scale"`` the first ``partial_fit`` gets the
        whole file's value (:func:`gamma_scale`); ``estimator.gamma`` is "scale" again afterwards
        and ``gamma_`` holds the value.
    path : str or path-like
        A LIBSVM file (plain, ``.gz``, ``.bz2``, ``.xz``).
    epochs : int, default 1
        Passes over the file.
    chunk_rows : int
        Examples per ``partial_fit`` call (and per read).
    shuffle : {"none", "chunks", "buffer", "both"}, default "none"
        Order of the examples (see the module), from ``random_state``.
    buffer_rows : int or None
        Rows of the shuffle buffer (``"buffer"`` / ``"both"``; default ``chunk_rows``).
    random_state : int, numpy Generator or None
        Seed of the order (not of the estimator, which has its own ``random_state``; the same int in
        both draws unrelated numbers: :func:`stream_rng`).
    zero_based, n_features, pad_features, sparse
        As :func:`refsvm.io.stream.iter_libsvm`.
    summary : LibsvmSummary or None
        The file's :func:`~refsvm.io.stream.scan_libsvm` (with labels) if already made.
    callback : callable or None
        ``callback(epoch, chunk_number, estimator)`` after each ``partial_fit``.

    Returns
    -------
    estimator
        The trained estimator (the same object).
    """
    import inspect

    if not callable(getattr(estimator, "partial_fit", None)):
        raise TypeError(f"estimator must have a partial_fit method; {type(estimator).__name__} has none")
    epochs = _check_count("epochs", epochs)
    chunk_rows = _check_count("chunk_rows", chunk_rows)
    if shuffle not in SHUFFLES:
        raise ValueError(f"shuffle must be one of {', '.join(map(repr, SHUFFLES))}; got {shuffle!r}")
    buffer_rows = _check_count("buffer_rows", buffer_rows, allow_none=True) or chunk_rows
    try:                                  # a classifier's partial_fit takes all the classes
        classifier = "classes" in inspect.signature(estimator.partial_fit).parameters
    except (TypeError, ValueError):
        classifier = False
    if summary is None:
        summary = scan_libsvm(path, chunk_rows=chunk_rows, zero_based=zero_based, labels=classifier)
    if summary.n_rows == 0:
        raise ValueError(f"{path}: holds no examples")
    rng = stream_rng(random_state)
    scale = not hasattr(estimator, "gamma_") and getattr(estimator, "gamma", None) == "scale"
    extra = {"classes": summary.labels} if classifier else {}
    for epoch in range(epochs):
        order = rng.permutation(len(summary.chunks)) if shuffle in ("chunks", "both") else None
        chunks = iter_libsvm(path, chunk_rows=chunk_rows, n_features=n_features, zero_based=zero_based,
                             pad_features=pad_features, sparse=sparse, summary=summary, order=order)
        if shuffle in ("buffer", "both"):
            chunks = _buffered(chunks, chunk_rows, buffer_rows, rng)
        for number, (X, y) in enumerate(chunks):
            if scale:
                estimator.set_params(gamma=gamma_scale(summary, X.shape[1]))
                try:
                    estimator.partial_fit(X, y, **extra)
                finally:
                    estimator.set_params(gamma="scale")
                scale = False
            else:
                estimator.partial_fit(X, y, **extra)
            if callback is not None:
                callback(epoch, number, estimator)
    return estimator
