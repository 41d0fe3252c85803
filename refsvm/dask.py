"""Training and prediction on data held by a Dask cluster (the ``dask`` extra: ``pip install "refsvm[dask]"``).

:func:`fit_dask` trains any estimator with ``partial_fit`` on a Dask array (or a Dask DataFrame)
block after block, in the array's block order; :func:`predict_dask` predicts (or computes
``decision_function``) block-parallel on the workers and returns a Dask array.

Why a function of refsvm and not ``dask_ml.wrappers.Incremental``: both build the same graph, a chain
of tasks ``model_i = partial_fit(model_{i-1}, X_block_i, y_block_i)`` (the fitted estimator is a
budgeted model of constant size, so it is the model that travels to the worker holding each block,
never the data to the client).  ``Incremental`` works with the refsvm estimators when asked for the
blocks in order (``Incremental(est, shuffle_blocks=False)``; by default it shuffles them, and it fits
a clone), and the test suite checks that it gives the same model where ``dask-ml`` is installed.
refsvm's own function exists because (1) ``dask-ml`` is a large dependency (numba, dask-glm, pandas)
for the twenty lines used here; (2) as :func:`refsvm.stream.fit_stream` does for a file, it finds what
one block cannot tell the first ``partial_fit`` in one pre-pass on the cluster: a classifier's classes
(``da.unique(y)``) and, for ``gamma="scale"``, ``X.var()`` of the whole array (Dask's moment
reduction: equal to the in-memory value to a few ulps relative, not bitwise), where ``Incremental``
needs ``classes`` from the caller and takes ``gamma="scale"`` from the first block alone.

The model is bitwise the model of ``partial_fit`` called in memory on the same blocks in the same
order (the estimator is pickled between tasks; pickling keeps every bit of its state, its random
generator included), and ``trace_`` is the in-memory one too: the per-pass traces, which grow with
the examples, do not travel with the estimator but go from each block's task to the client once.
Only the classes, one number (the variance), the model and the traces move to the client.

Dask is imported when a function is called, never by ``import refsvm``.
"""

import copy
import inspect

import numpy as np

__all__ = ["fit_dask", "predict_dask", "checkerboard_array"]

#: The estimator methods :func:`predict_dask` maps over the blocks.
METHODS = ("predict", "decision_function")


def _dask_array():
    try:
        import dask.array as da
    except ImportError as exc:  # pragma: no cover - the dask extra is missing
        raise ImportError('refsvm.dask needs Dask: pip install "refsvm[dask]"') from exc
    return da


def _as_dask_array(value, name, ndim):
    """``value`` as a Dask array of ``ndim`` dimensions with known block sizes (a Dask DataFrame or
    Series through ``to_dask_array(lengths=True)``, which computes the partitions' lengths)."""
    da = _dask_array()
    if hasattr(value, "to_dask_array"):
        value = value.to_dask_array(lengths=True)
    if not isinstance(value, da.Array):
        raise TypeError(f"{name} must be a dask array or a dask DataFrame / Series; got {type(value).__name__} "
                        "(for data in memory, call the estimator's fit / partial_fit)")
    if value.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension{'s' if ndim > 1 else ''}; got shape {value.shape}")
    if any(np.isnan(size) for size in value.chunks[0]):
        raise ValueError(f"{name} has blocks of unknown length; call {name}.compute_chunk_sizes() first")
    if ndim == 2 and len(value.chunks[1]) > 1:
        value = value.rechunk({1: -1})                 # a block holds whole rows
    return value


def _takes_classes(estimator):
    """Whether ``estimator.partial_fit`` takes ``classes`` (a classifier's first call needs them all)."""
    try:
        return "classes" in inspect.signature(estimator.partial_fit).parameters
    except (TypeError, ValueError):
        return False


class _ArrayMoments:
    """What :func:`refsvm.stream.gamma_scale` reads of a file's summary, for a Dask array: its
    number of features and ``X.var()`` over all its entries."""

    def __init__(self, n_features, variance):
        self.n_features = n_features
        self._variance = variance

    def variance(self, n_features=None):
        return self._variance


def _partial_fit_block(estimator, X, y, kwargs, sample_weight=None):
    """One task of the chain: ``partial_fit`` on one block (on the worker that holds it), with the
    block's ``sample_weight`` if given.

    Returns the estimator and the traces this call added to ``trace_``, which it leaves as
    placeholders (``None``; their number still counts the passes): a trace grows with the examples
    (per-step records), so the estimator that travels to the next block stays the size of its
    model, and each block's traces go to the client once, at the end.
    """
    fresh = not hasattr(estimator, "model_")            # the first partial_fit starts trace_ anew
    held = 0 if fresh else len(getattr(estimator, "trace_", None) or ())
    if sample_weight is not None:
        kwargs = dict(kwargs, sample_weight=sample_weight)
    estimator.partial_fit(X, y, **kwargs)
    trace = getattr(estimator, "trace_", None)
    if not isinstance(trace, list):
        return estimator, []
    added = trace[held:]
    estimator.trace_ = [None] * len(trace)
    return estimator, added


def fit_dask(estimator, X, y, *, classes=None, epochs=1, sample_weight=None, checkpoint=None,
             checkpoint_every="epoch", resume=False):
    """Train ``estimator`` with ``partial_fit`` on the blocks of a Dask array, in block order.

    Parameters
    ----------
    estimator : estimator with ``partial_fit``
        Trained (a fitted one continues its model).  On return it holds the trained state (the
        trained estimator comes back from the cluster and replaces its attributes).  With
        ``gamma="scale"`` and no model yet, the first ``partial_fit`` gets
        ``1 / (n_features * X.var())`` of the whole array; ``estimator.gamma`` is ``"scale"`` again
        afterwards and ``gamma_`` holds the value.
    X : dask array of shape (n_samples, n_features), or dask DataFrame
        Training examples; each row block is one ``partial_fit`` call (rechunk X to choose the
        block size; column blocks are joined).
    y : dask array of shape (n_samples,), or dask Series
        Labels (targets of a regressor), rechunked to X's row blocks if they differ.
    classes : array-like or None
        All the labels (a classifier).  ``None``: the distinct values of ``y``, computed on the
        cluster in the pre-pass (or the fitted ``classes_``).
    epochs : int, default 1
        Passes over the blocks, each in block order (the estimator's ``partial_fit`` visits the
        rows of a block in its own random order).
    sample_weight : dask array of shape (n_samples,), dask Series or None
        Weights of the examples, rechunked to X's row blocks if they differ: each ``partial_fit``
        gets its block's weights (as ``partial_fit`` in memory with the same weights, bitwise).
    checkpoint : str, path-like or None
        A checkpoint file written on the client between blocks
        (:class:`refsvm.estimators._checkpoint.ChunkCheckpoints`): the estimator's state, the
        completed epochs and the blocks run in the next one.  The chain is then computed in
        segments that end at the checkpoints (the model comes back to the client at each one).
    checkpoint_every : "epoch", int, "<k>blocks", "<k>steps" or "<s>s", default "epoch"
        With ``checkpoint``: after every (k-th) epoch, every k blocks, the first block completing
        k examples since the previous checkpoint, or the first one s seconds after it (these two
        compute one block per segment); the last block always writes one.
    resume : bool, default False
        Continue from ``checkpoint`` at the next block (after a killed client): bit for bit the
        model of the uninterrupted run.  The arrays are recognised by their Dask names (the
        graph's tokens: the same construction of the same data) and blocks; others are refused.

    Returns
    -------
    estimator
        ``estimator``, trained.
    """
    import dask

    from .stream import _check_count, gamma_scale

    if not callable(getattr(estimator, "partial_fit", None)):
        raise TypeError(f"estimator must have a partial_fit method; {type(estimator).__name__} has none")
    epochs = _check_count("epochs", epochs)
    X = _as_dask_array(X, "X", 2)
    y = _aligned(_as_dask_array(y, "y", 1), X, "y")
    weights = None if sample_weight is None else _aligned(_as_dask_array(sample_weight, "sample_weight", 1), X,
                                                          "sample_weight")
    fitted = hasattr(estimator, "model_")
    prepass = {}
    if _takes_classes(estimator) and classes is None and not fitted:
        prepass["classes"] = _dask_array().unique(y)
    scale = not fitted and getattr(estimator, "gamma", None) == "scale"
    if scale:
        prepass["variance"] = X.astype(np.float64).var()
    found = dict(zip(prepass, dask.compute(*prepass.values()))) if prepass else {}
    kwargs = {}
    if _takes_classes(estimator):
        kwargs["classes"] = found.get("classes", classes)
    try:
        if scale:
            estimator.set_params(gamma=gamma_scale(_ArrayMoments(X.shape[1], float(found["variance"]))))
        saver, start = _dask_checkpoints(estimator, checkpoint, checkpoint_every, resume, epochs, X, y, weights,
                                         kwargs.get("classes"))
        earlier = list(estimator.trace_) if hasattr(estimator, "model_") \
            and isinstance(getattr(estimator, "trace_", None), list) else []
        step = dask.delayed(_partial_fit_block, pure=False, traverse=False, nout=2)
        blocks = list(zip(X.to_delayed().ravel(), y.to_delayed().ravel(),
                          [None] * X.numblocks[0] if weights is None else weights.to_delayed().ravel()))
        for begin, end in _segments(start, epochs * len(blocks), len(blocks), saver):
            model = dask.delayed(estimator, traverse=False)     # pickled to the cluster when computed
            traces = []
            for job in range(begin, end):
                X_block, y_block, w_block = blocks[job % len(blocks)]
                model, added = step(model, X_block, y_block, kwargs, w_block)
                traces.append(added)
            trained, traces = dask.compute(model, traces)
            if trained is not estimator:                 # a copy from the cluster: its state, in place
                vars(estimator).clear()
                vars(estimator).update(vars(trained))
            if hasattr(estimator, "trace_"):
                estimator.trace_ = earlier = earlier + [trace for added in traces for trace in added]
            if saver is not None and (saver.every[0] in ("blocks", "epochs") or end == epochs * len(blocks)
                                      or saver.due(sum(X.chunks[0][job % len(blocks)] for job in range(begin, end)))):
                saver.write(estimator, *divmod(end, len(blocks)), {})
    finally:
        if scale:
            estimator.set_params(gamma="scale")
    return estimator


def _aligned(values, X, name):
    """``values`` (one per row of ``X``) with ``X``'s row blocks."""
    if values.shape[0] != X.shape[0]:
        raise ValueError(f"X and {name} have inconsistent numbers of samples: X has {X.shape[0]} rows, "
                         f"{name} has {values.shape[0]} entries")
    return values if values.chunks[0] == X.chunks[0] else values.rechunk((X.chunks[0],))


def _dask_checkpoints(estimator, checkpoint, every, resume, epochs, X, y, weights, classes):
    """The checkpoints of a Dask run (None without ``checkpoint``) and the index of the first block
    call to make (``epoch * blocks + block``), the estimator restored from the checkpoint if ``resume``."""
    import hashlib

    from .estimators._checkpoint import ChunkCheckpoints, check_resume

    check_resume(checkpoint, resume)
    if checkpoint is None:
        return None, 0
    arrays = [(a.name, a.chunks, a.dtype.str) if a is not None else None for a in (X, y, weights)]
    labels = None if classes is None else np.asarray(classes).tolist()
    fingerprint = hashlib.sha256(repr((arrays, labels)).encode()).hexdigest()
    saver = ChunkCheckpoints(checkpoint, every, "fit_dask", fingerprint, epochs, "blocks")
    if not resume:
        return saver, 0
    done, position, _ = saver.restore(estimator)
    return saver, done * X.numblocks[0] + position


def _segments(start, total, per_epoch, saver):
    """``(begin, end)`` of the block calls computed at once: all of them without checkpoints, else
    up to each checkpoint (every k blocks or k epochs, aligned to the run's start; one block for
    checkpoints by examples or seconds)."""
    kind, k = ("all", total) if saver is None else saver.every
    size = {"all": max(total, 1), "blocks": k, "epochs": k * per_epoch}.get(kind, 1)
    while start < total:
        end = min(total, (start // size + 1) * size)
        yield start, end
        start = end


def _without_traces(estimator):
    """A shallow copy of ``estimator`` with an empty ``trace_`` (prediction does not read the traces,
    which grow with the training examples), to send to the workers."""
    if not isinstance(getattr(estimator, "trace_", None), list):
        return estimator
    light = copy.copy(estimator)
    light.trace_ = []
    return light


def _apply(X, estimator, method):
    return getattr(estimator, method)(X)


def predict_dask(estimator, X, method="predict"):
    """``estimator.<method>`` of every row block of the Dask array ``X``, block-parallel on the workers.

    The fitted estimator (without its ``trace_``) is one key of the graph, sent once to each worker
    that needs it.  The
    values are bitwise the estimator's values for the same block in memory; those of one call on
    the whole matrix can differ in the last bits (the fast path's BLAS blocks sum in an order that
    depends on the rows of the block: :func:`refsvm.model.decision_blocks`), and a label only where
    a decision value is that close to a tie.

    Parameters
    ----------
    estimator : fitted estimator
    X : dask array of shape (n_samples, n_features), or dask DataFrame
    method : {"predict", "decision_function"}

    Returns
    -------
    dask array of shape (n_samples,) or (n_samples, n_outputs)
        Lazy: ``.compute()`` it, or store it (``da.to_zarr``, ``da.store``) without gathering it.
    """
    import dask
    from sklearn.utils.validation import check_is_fitted

    if method not in METHODS or not callable(getattr(estimator, method, None)):
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))} (a method of "
                         f"{type(estimator).__name__}); got {method!r}")
    check_is_fitted(estimator)
    X = _as_dask_array(X, "X", 2)
    expected = getattr(estimator, "n_features_in_", X.shape[1])
    if X.shape[1] != expected:
        raise ValueError(f"X has {X.shape[1]} features, but {type(estimator).__name__} was fitted with "
                         f"{expected} features")
    meta = np.asarray(getattr(estimator, method)(np.zeros((1, X.shape[1]))))   # shape and dtype of a row's output
    model = dask.delayed(_without_traces(estimator), traverse=False)
    if meta.ndim == 1:
        return X.map_blocks(_apply, model, method, drop_axis=1, meta=meta[:0], dtype=meta.dtype)
    return X.map_blocks(_apply, model, method, chunks=(X.chunks[0], (meta.shape[1],)), meta=meta[:0],
                        dtype=meta.dtype)


def checkerboard_array(n, *, block_rows, random_state=0, grid=4):
    """The checkerboard data set (:func:`refsvm.io.datasets.checkerboard`) as Dask arrays whose blocks
    are made where their tasks run (on the workers of a cluster), never on the client.

    Block ``i`` (``block_rows`` rows, the last one fewer) is ``checkerboard(rows, random_state=(random_state, i),
    grid=grid)``, so that any block can be made again in memory.  Returns ``X`` (n, 2) and ``y`` (n,),
    with the same row blocks.
    """
    import dask

    da = _dask_array()
    from .io.datasets import checkerboard

    n, block_rows = int(n), int(block_rows)
    if n < 1 or block_rows < 1:
        raise ValueError(f"n and block_rows must be >= 1; got n={n!r}, block_rows={block_rows!r}")
    sizes = [block_rows] * (n // block_rows) + ([n % block_rows] if n % block_rows else [])
    parts = [dask.delayed(checkerboard, nout=2, pure=True)(rows, random_state=(random_state, i), grid=grid)
             for i, rows in enumerate(sizes)]
    X = da.concatenate([da.from_delayed(p[0], (rows, 2), dtype=np.float64) for p, rows in zip(parts, sizes)])
    y = da.concatenate([da.from_delayed(p[1], (rows,), dtype=np.int64) for p, rows in zip(parts, sizes)])
    return X, y
