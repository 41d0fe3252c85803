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
relative), never silently that of the first chunk.  The pre-pass is skipped
(:func:`_prepass`) when nothing needs it: ``n_features`` given with
``pad_features=True``, a classifier's ``classes`` given, a gamma other than
``"scale"`` (a number, or an estimator already fitted), the file's order or the
shuffle buffer (``"chunks"`` / ``"both"`` / ``"interleave"`` seek to offsets the
pre-pass records) and no checkpoint (which recognises the file by the pre-pass's
summary).  The model is then bitwise the one trained after the pre-pass; a line
with an index above ``n_features`` is an error when its chunk is read (not
before training), and a label outside ``classes`` is ``partial_fit``'s error.

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
``"interleave"``
    The file read in pieces of ``piece_rows`` rows (default ``chunk_rows // 100``; where each
    starts is recorded by the pre-pass, made at that granularity), the pieces in a new random order
    each epoch; each chunk put together from ``chunk_rows / piece_rows`` consecutive pieces of that
    order (so from as many stretches scattered over the file), then through the shuffle buffer as
    ``"buffer"``.  Memory: a chunk and the buffer, as ``"both"``; one seek per piece (a plain file
    only: a compressed one would be decompressed again from its start for most pieces, and is
    refused).  Unlike ``"chunks"`` / ``"both"``, whose chunks are each one stretch of the file, it
    breaks up an order the file has over longer stretches than a piece (ijcnn1's rows are a time
    series: consecutive rows are alike): on ijcnn1 with BSGD (100 seeds, 10000-row chunks and
    buffer) the accuracies' low tail is that of the in-memory permutation, "both"'s is heavier
    (``benchmarks/bench_stream_shuffle.py``).

The order's generator is independent of the estimator's even when both get the same integer seed
(:func:`stream_rng`): two generators made by ``numpy.random.default_rng`` from one seed draw the
same numbers, and a shuffle buffer permuted by the same numbers as the estimator's permutation of
each chunk gave a correlated visiting order (on a9a with BSGD, accuracies far below the in-memory
runs'), which ``refsvm train --stream --random-state N`` (one seed for both) ran into.

Checkpoints (``checkpoint=PATH``, ``checkpoint_every``, ``resume=True``): written between two
``partial_fit`` calls (:class:`refsvm.estimators._checkpoint.ChunkCheckpoints`), they hold the
estimator's state, the completed epochs, the calls run in the next one and the order's generator as at
that epoch's start.  A resumed run draws that epoch's order again, skips the calls already run (without
reading their chunks for ``"none"`` / ``"chunks"``; with a shuffle buffer, whose content depends on
every chunk read before, by reading the epoch again up to there) and continues: bit for bit the model
of the uninterrupted run, for every solver with ``partial_fit`` on both backends, at the granularity
of a chunk (a killed run loses at most the chunks since its last checkpoint).  The file is recognised
by the pre-pass's summary (rows, features, stored values and their moments, chunk offsets, labels)
and the stream's options; other ones are refused, naming which.

Memory: an estimator's ``trace_`` gets one dict per ``partial_fit`` call, holding arrays that grow
with the examples of the call (BSGD's maintenance events and the steps that added a support vector:
about 5.6 bytes per example with merging at B = 500).  Over a file of 10^8 rows, all kept, the traces
outgrow the model (measured: 456 MB of peak RSS, and rising, at 40 % of one pass over a 5 GiB file),
so :func:`fit_stream` keeps only the last call's trace (``keep_traces="last"``, as the river adapter
does; :func:`_drop_old_traces`); ``keep_traces="all"`` keeps every call's.

Not here: distributed reading (Dask: :mod:`refsvm.dask`).
"""

import copy
import hashlib

import numpy as np
import scipy.sparse as sp

from .io.stream import DEFAULT_CHUNK_ROWS, iter_libsvm, scan_libsvm

__all__ = ["SHUFFLES", "fit_stream", "gamma_scale", "stream_rng"]

#: The values of ``shuffle``.
SHUFFLES = ("none", "chunks", "buffer", "both", "interleave")

#: ``piece_rows`` of ``shuffle="interleave"`` when not given: ``chunk_rows // PIECES_PER_CHUNK`` (at least 1).
PIECES_PER_CHUNK = 100

#: The names of compressed files (:func:`refsvm.io.libsvm._open_binary`), which ``"interleave"`` refuses.
_COMPRESSED = (".gz", ".bz2", ".xz")


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


def _pieces_to_chunks(pieces, per_chunk):
    """Chunks of ``per_chunk`` consecutive ``(X, y)`` pieces, stacked (the last one may hold fewer)."""
    held = []
    for piece in pieces:
        held.append(piece)
        if len(held) == per_chunk:
            yield _stacked(held)
            held = []
    if held:
        yield _stacked(held)


def _stacked(pieces):
    Xs = [X for X, _ in pieces]
    X = sp.vstack(Xs, format="csr") if sp.issparse(Xs[0]) else np.vstack(Xs)
    return X, np.concatenate([y for _, y in pieces])


def _interleave_pieces(path, shuffle, chunk_rows, piece_rows):
    """``piece_rows`` of ``shuffle`` (None unless ``"interleave"``), checked; ``"interleave"`` refuses a
    compressed ``path``."""
    if shuffle != "interleave":
        if piece_rows is not None:
            raise ValueError(f"piece_rows is an option of shuffle='interleave'; got shuffle={shuffle!r}")
        return None
    if str(path).endswith(_COMPRESSED):
        raise ValueError(f"shuffle='interleave' seeks to each piece of the file, and {path} is compressed (each "
                         "backward seek would decompress it again from its start): decompress it first, or use "
                         "shuffle='both'")
    piece_rows = _check_count("piece_rows", piece_rows, allow_none=True) or max(chunk_rows // PIECES_PER_CHUNK, 1)
    if piece_rows > chunk_rows:
        raise ValueError(f"piece_rows must be <= chunk_rows ({chunk_rows}); got {piece_rows}")
    return piece_rows


def _stream_fingerprint(summary, options):
    """sha256 (hex) of what a streamed run's checkpoint must match: the file's summary (not its path)
    and the stream's options (a Generator ``random_state`` by its type: its state is in the checkpoint)."""
    fields = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in vars(summary).items() if k != "path"}
    options = {k: ("<numpy.random.Generator>" if isinstance(v, np.random.Generator) else v) for k, v in options.items()}
    return hashlib.sha256(repr((sorted(fields.items()), sorted(options.items()))).encode()).hexdigest()


def _epoch_chunks(path, summary, order, skip, read, buffer_rows, rng, piece_rows=None):
    """The chunks of one epoch after its first ``skip`` ones (``order``: the epoch's chunk numbers (the
    pieces' with ``piece_rows``) or None; ``buffer_rows``: None, or the shuffle buffer, which reads and
    permutes the skipped ones again so that the generator and the buffer are as in the uninterrupted run)."""
    if piece_rows is not None:
        pieces = iter_libsvm(path, summary=summary, order=order, **dict(read, chunk_rows=piece_rows))
        chunks = _buffered(_pieces_to_chunks(pieces, read["chunk_rows"] // piece_rows), read["chunk_rows"],
                           buffer_rows, rng)
        return ((number, chunk) for number, chunk in enumerate(chunks) if number >= skip)
    if buffer_rows is None:
        if skip:
            order = (np.arange(len(summary.chunks)) if order is None else order)[skip:]
        chunks = iter_libsvm(path, summary=summary, order=order, **read)
        return enumerate(chunks, start=skip)
    chunks = _buffered(iter_libsvm(path, summary=summary, order=order, **read), read["chunk_rows"],
                       buffer_rows, rng)
    return ((number, chunk) for number, chunk in enumerate(chunks) if number >= skip)


def fit_stream(estimator, path, *, epochs=1, chunk_rows=DEFAULT_CHUNK_ROWS, shuffle="none",
               buffer_rows=None, random_state=None, zero_based=False, n_features=None,
               pad_features=False, sparse=True, summary=None, callback=None, checkpoint=None,
               checkpoint_every="epoch", resume=False, keep_traces="last", piece_rows=None, classes=None):
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
    shuffle : {"none", "chunks", "buffer", "both", "interleave"}, default "none"
        Order of the examples (see the module), from ``random_state``.
    buffer_rows : int or None
        Rows of the shuffle buffer (``"buffer"`` / ``"both"`` / ``"interleave"``; default ``chunk_rows``).
    random_state : int, numpy Generator or None
        Seed of the order (not of the estimator, which has its own ``random_state``; the same int in
        both draws unrelated numbers: :func:`stream_rng`).
    zero_based, n_features, pad_features, sparse
        As :func:`refsvm.io.stream.iter_libsvm`.
    summary : LibsvmSummary or None
        The file's :func:`~refsvm.io.stream.scan_libsvm` (with labels) if already made.
    callback : callable or None
        ``callback(epoch, chunk_number, estimator)`` after each ``partial_fit``.
    checkpoint : str, path-like or None
        A checkpoint file written between ``partial_fit`` calls (see the module).
    checkpoint_every : "epoch", int, "<k>chunks", "<k>steps" or "<s>s", default "epoch"
        With ``checkpoint``: after every (k-th) epoch, every k chunks, the first chunk that completes
        k examples since the previous checkpoint, or the first one s seconds after it; the last epoch
        always writes one.
    resume : bool, default False
        Continue the run from ``checkpoint`` (the estimator's state is replaced by the checkpoint's).
    keep_traces : {"last", "all"}, default "last"
        ``"last"``: after each ``partial_fit``, ``estimator.trace_`` holds only that call's trace
        (memory independent of the file's length; traces of earlier fits are dropped too); ``"all"``:
        one trace per call, as ``partial_fit`` leaves them (memory grows with the rows).
    piece_rows : int or None
        ``shuffle="interleave"``: rows per piece read at a random place of the file (at most
        ``chunk_rows``; default ``max(chunk_rows // 100, 1)``); ``summary``, if given, must be made with
        ``chunk_rows=piece_rows``.
    classes : array-like or None
        A classifier's classes (every ``partial_fit`` call gets them); ``None``: the file's labels, found
        by the pre-pass.  With ``n_features``, ``pad_features=True`` and a numeric gamma, it lets the
        pre-pass be skipped (see the module).

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
    if keep_traces not in ("last", "all"):
        raise ValueError(f"keep_traces must be 'last' or 'all'; got {keep_traces!r}")
    try:                                  # a classifier's partial_fit takes all the classes
        classifier = "classes" in inspect.signature(estimator.partial_fit).parameters
    except (TypeError, ValueError):
        classifier = False
    piece_rows = _interleave_pieces(path, shuffle, chunk_rows, piece_rows)
    scale = not hasattr(estimator, "gamma_") and getattr(estimator, "gamma", None) == "scale"
    summary = _prepass(path, summary, classifier and classes is None, scale, shuffle,
                       checkpoint is not None or resume is not False, n_features, pad_features,
                       piece_rows or chunk_rows, zero_based)
    if summary is not None and summary.n_rows == 0:
        raise ValueError(f"{path}: holds no examples")
    rng = stream_rng(random_state)
    read = dict(chunk_rows=chunk_rows, n_features=n_features, zero_based=zero_based, pad_features=pad_features,
                sparse=sparse, **({} if summary is not None else {"prepass": False}))
    saver, start, skip = None, 0, 0
    if checkpoint is not None or resume is not False:
        saver, start, skip = _stream_checkpoints(estimator, checkpoint, checkpoint_every, resume, epochs, summary,
                                                 dict(read, shuffle=shuffle, buffer_rows=buffer_rows,
                                                      random_state=random_state,
                                                      **({"piece_rows": piece_rows} if piece_rows else {})), rng)
    extra = {"classes": summary.labels if classes is None else classes} if classifier else {}
    for epoch in range(start, epochs):
        at_start = copy.deepcopy(rng.bit_generator.state) if saver is not None else None
        order = rng.permutation(len(summary.chunks)) if shuffle in ("chunks", "both", "interleave") else None
        wrote, number = None, -1
        for number, (X, y) in _epoch_chunks(path, summary, order, skip if epoch == start else 0, read,
                                            buffer_rows if shuffle in ("buffer", "both", "interleave") else None,
                                            rng, piece_rows):
            if scale:
                estimator.set_params(gamma=gamma_scale(summary, X.shape[1]))
                try:
                    estimator.partial_fit(X, y, **extra)
                finally:
                    estimator.set_params(gamma="scale")
                scale = False
            else:
                estimator.partial_fit(X, y, **extra)
            if keep_traces == "last":
                _drop_old_traces(estimator)
            if callback is not None:
                callback(epoch, number, estimator)
            if saver is not None and saver.due(X.shape[0]):
                saver.write(estimator, epoch, number + 1, dict(rng=at_start))
                wrote = number + 1
        if saver is not None and (saver.epoch_due(epoch) or wrote == number + 1):
            saver.write(estimator, epoch + 1, 0, dict(rng=copy.deepcopy(rng.bit_generator.state)))
        if summary is None and number < 0:   # no pre-pass: an empty file is found here
            raise ValueError(f"{path}: holds no examples")
    return estimator


def _prepass(path, summary, need_labels, scale, shuffle, checkpointing, n_features, pad_features, chunk_rows,
             zero_based):
    """The file's summary: ``summary`` if given, else the pre-pass's (:func:`scan_libsvm`), or ``None``
    when nothing needs it (the conditions in the module's docstring)."""
    if summary is not None:
        return summary
    if (n_features is not None and pad_features and not need_labels and not scale
            and shuffle in ("none", "buffer") and not checkpointing):
        return None
    return scan_libsvm(path, chunk_rows=chunk_rows, zero_based=zero_based, labels=need_labels)


def _drop_old_traces(estimator):
    """Keep only the last entry of ``estimator.trace_`` (a list: one trace per ``partial_fit`` call),
    so that a stream's memory does not grow with its calls (see the module)."""
    trace = getattr(estimator, "trace_", None)
    if isinstance(trace, list) and len(trace) > 1:
        del trace[:-1]


def _stream_checkpoints(estimator, checkpoint, every, resume, epochs, summary, options, rng):
    """The checkpoints of a streamed run; ``(saver, first epoch, calls of it already run)``, the
    estimator and ``rng`` restored from the checkpoint if ``resume``."""
    from .estimators._checkpoint import ChunkCheckpoints, check_resume

    check_resume(checkpoint, resume)
    if checkpoint is None:
        return None, 0, 0
    saver = ChunkCheckpoints(checkpoint, every, "fit_stream", _stream_fingerprint(summary, options), epochs,
                             "chunks")
    if not resume:
        return saver, 0, 0
    start, skip, state = saver.restore(estimator)
    rng.bit_generator.state = state["rng"]
    return saver, start, skip
