"""BPegasos on a Checkerboard stream made in chunks: Wang, Crammer & Vucetic (2012), Table 6 at the paper's 10M
examples (``refsvm reproduce wang2012-table6-10m``, registered in :mod:`refsvm.reproduce.tables_wang`).

:func:`run_chunked_stream` runs the pass of :func:`refsvm.reproduce.wang_stream.run_stream` (the compiled BSGD,
``learning_rate="pegasos"``, fixed ``lam``, no bias) over a stream that is never held at once: the table's
training rows first, then chunks of :func:`refsvm.io.datasets.generate_chunks`, each a call of
:func:`~refsvm.reproduce.wang_stream.checkpointed_pass` that continues the previous chunk's model (``start``).
Memory: one chunk, the model and the test rows.
"""

import resource

import numpy as np

__all__ = ["run_chunked_stream", "CHUNK_SEED"]

#: first entropy word of the generated chunks' seed (the second: the run's seed)
CHUNK_SEED = 20_126


def _chunk_stops(n_first, n_stream, chunk, checkpoints):
    """The checkpoints below ``n_stream``, checked to fall on chunk ends (``n_first + k chunk``); ValueError
    naming ``checkpoints`` otherwise."""
    stops = sorted({int(c) for c in checkpoints if 0 < c < n_stream})
    off = [c for c in stops if c < n_first or (c - n_first) % chunk]
    if off:
        raise ValueError(f"checkpoints must fall on chunk ends ({n_first:,} + k x {chunk:,} rows); got {off}")
    return set(stops)


def run_chunked_stream(X, y, X_test, y_test, seed, *, lam, gamma, budget, maintenance, n_stream, chunk=100_000,
                       generator="checkerboard", checkpoints=(), merge_eps=None, kept="inverse"):
    """One BPegasos pass over ``n_stream`` rows: ``X`` in the order ``default_rng(seed).permutation(len(X))``, then
    ``n_stream - len(X)`` rows of ``generate_chunks(generator, ..., chunk_size=chunk, random_state=[CHUNK_SEED,
    seed])`` in the order drawn (i.i.d. rows: a fresh sample per seed); ``n_stream`` below ``len(X)``: its first
    rows of that order only.

    Returns what :func:`~refsvm.reproduce.wang_stream.run_stream` returns (``error``, ``seconds``: the bsgd calls
    only, ``n_sv``, ``n_stream``, ``stream``: ``[N, cumulative seconds, test error %]`` at the ``checkpoints`` --
    each on a chunk end -- and at the end, ``majority_share``, ``extra["E-bar"]``), and ``ebar_stream``: ``[N,
    E-bar of the first N examples]`` at the same stops; ``extra["peak RSS MB"]``: the process's peak resident memory
    after the pass (``resource.getrusage``).  ``merge_eps``: merging's golden-section tolerance on h (None: 0.01,
    :func:`~refsvm.reproduce.wang_stream.checkpointed_pass`'s).  ``kept``: what projection keeps between events on the
    compiled path (:func:`~refsvm.reproduce.wang_stream.checkpointed_pass`; ``"factor"``: the kept Cholesky factor).
    """
    from ..io.datasets import generate_chunks
    from .runners import _expansion_share, _test_error
    from .wang_stream import checkpointed_pass

    n_stream = int(n_stream)
    if n_stream < 1:
        raise ValueError(f"n_stream must be an integer >= 1; got {n_stream!r}")
    n_first = min(n_stream, X.shape[0])
    stops = _chunk_stops(n_first, n_stream, chunk, checkpoints)
    first = np.random.default_rng(seed).permutation(X.shape[0])[:n_first].astype(np.int64)
    rest = generate_chunks(generator, n_stream - n_first, chunk_size=chunk,
                           random_state=[CHUNK_SEED, seed]) if n_stream > n_first else ()
    options = dict(n_classes=2, budget=budget, lam=lam, maintenance=maintenance, gamma=gamma)
    if merge_eps is not None:                       # the golden-section search's tolerance (default: checkpointed_pass's)
        options["merge_eps"] = merge_eps
    model = None
    seen, seconds, gsum, stream, ebar_stream = 0, 0.0, 0.0, [], []
    for k, (Xc, yc) in enumerate(_chunks(X, y, rest)):
        order = first if k == 0 else np.arange(len(yc), dtype=np.int64)
        sv, alpha, bias, sec, g, _ = checkpointed_pass(Xc, yc, order, (), lambda *a: None, isolate_overheads=True,
                                                       start=model, kept=kept, **options)
        seen, seconds, gsum = seen + len(order), seconds + sec, gsum + g
        model = (sv, alpha, bias, seen)                          # t: one step per example seen
        if seen in stops or seen == n_stream:
            stream.append([seen, seconds, _test_error(sv, alpha, bias, gamma, X_test, y_test, "fast")])
            ebar_stream.append([seen, gsum / seen])
    sv, alpha, bias, _ = model
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return dict(error=stream[-1][2], seconds=seconds, n_sv=len(sv), n_stream=n_stream, stream=stream,
                ebar_stream=ebar_stream, extra={"E-bar": gsum / n_stream, "peak RSS MB": peak},
                majority_share=_expansion_share(sv, alpha, bias, gamma, X, X_test, "fast"))


def _chunks(X, y, rest):
    """The stream's chunks as ``(X, y)``: the table's rows, then the generated ``rest``."""
    yield X, y
    yield from rest
