"""Checkpoints of a training run, at epoch boundaries or inside an epoch, and resuming from them
(``fit(checkpoint=...)``).

A checkpoint holds everything the rest of the run reads: the estimator's fitted attributes (the
model, the step counter ``t_``, the trace, the solver's own state such as BSCA's dual variables or
the Projectrons' Cholesky factor, and the random generator ``_rng`` whose state draws the remaining
epochs' visiting orders), the state handed to the next ``_one_pass``, and the number of completed
epochs.  A resumed run continues the same loop with the same generator, so it gives bit for bit the
model of the uninterrupted run (on either backend: the file records the backend's results, the
backend is a checked parameter).

Inside an epoch (``checkpoint_every="<k>steps"``, and ``"<s>s"`` for the same solvers): the pass is
run in segments of its visiting order (:meth:`BudgetedClassifierBase._run_pass`; every algorithm
function continues a model exactly, so the segmented pass computes the model of one call, as the
verbose chunks do), and after a segment the checkpoint also holds the position in the pass, the
traces of the segments run, the solver's in-pass state (the ``carry`` its ``_one_pass`` hands to
``_run_pass``) and, as ``_rng``, the generator as it was *before* the pass drew its order (and
uniforms): the resumed pass draws the same order again, skips the positions already run, and sets the
generator to its state at the checkpoint (which also holds draws made inside the segments run, such as
FOGD's random directions at the first step).  Only
estimators whose ``_one_pass`` hands its in-pass state over (``_mid_epoch_checkpoints = True``:
BudgetedSVC, OnlineKernelClassifier, FOGD / NOGD) can stop inside an epoch; BSCA (the one-vs-rest
machines' blocks and monitoring points) and SBP (per-machine passes in threads) refuse ``"steps"`` and
take ``"<s>s"`` checkpoints at epoch boundaries.

The file: a line ``REFSVM-CHECKPOINT``, a JSON header line (schema, refsvm version, estimator class,
parameters, data fingerprint, completed epochs, steps run in the next epoch, payload length and
sha256), then the payload (a pickle of the attributes, the state and the in-pass state).  The header
is read and checked before the payload is unpickled; the payload only after its length and sha256
match.  Pickle runs code of the file: load only checkpoints you wrote (the sha256 guards against
corruption, not against a forged file).  Written to a temporary file in the target's folder and
renamed over it (:func:`refsvm._files.atomic_temp`): an interrupted write leaves the previous
checkpoint intact.

What is refused, naming which: a file that is not a checkpoint or is corrupt (truncated, other
bytes), another schema or refsvm version, another estimator class, other parameters (``verbose``,
``n_jobs`` and ``epochs`` may differ: they do not change the remaining epochs' models; ``epochs``
must be at least the completed count, more than it for a checkpoint inside an epoch), other data
(sha256 of ``X`` (dense bytes or CSR data/indices/indptr) with its shape, the labels, the classes and
the sample weights; a pass of another length).
"""

import hashlib
import io
import copy
import json
import os
import pickle
import time

import numpy as np
import scipy.sparse as sp

from .._files import atomic_temp
from .._version import __version__

__all__ = ["SCHEMA", "ChunkCheckpoints", "check_checkpoint_every", "check_chunk_every", "check_resume", "data_fingerprint",
           "read_checkpoint", "run_epochs"]

SCHEMA = "refsvm-checkpoint v2"
MAGIC = b"REFSVM-CHECKPOINT\n"
#: parameters that may differ between the checkpointed run and the resumed one (same remaining models)
FREE_PARAMS = ("verbose", "n_jobs", "epochs")
#: attributes never stored (per-call inputs, not training state)
_TRANSIENT = ("_eval_set", "_progress_label", "_pass_checkpointer")
#: steps between two looks at the clock inside an epoch (``checkpoint_every="<s>s"``)
POLL_STEPS = 10_000


def check_checkpoint_every(every):
    """``checkpoint_every`` as ``("epochs", k)``, ``("steps", k)`` or ``("seconds", s)``.

    ``"epoch"``: after every epoch; an int ``k >= 1``: after every k-th epoch; a string
    ``"<k>steps"`` (e.g. ``"5000steps"``): after every k-th step of the run (steps counted from the
    start of ``fit`` over the epochs; inside an epoch, estimators with ``_mid_epoch_checkpoints``
    only); a string ``"<s>s"`` (e.g. ``"600s"``): at the first stop at least ``s`` seconds after the
    previous checkpoint (or the start), the stops being every :data:`POLL_STEPS` steps for the
    estimators that can stop inside an epoch and the epoch boundaries for the others.  The last
    epoch always writes one."""
    if isinstance(every, str):
        if every == "epoch":
            return ("epochs", 1)
        if every.endswith("steps") and every[:-5].isdigit() and int(every[:-5]) >= 1:
            return ("steps", int(every[:-5]))
        if every.endswith("s") and not every.endswith("steps"):
            try:
                seconds = float(every[:-1])
            except ValueError:
                seconds = -1.0
            if np.isfinite(seconds) and seconds >= 0:
                return ("seconds", seconds)
    elif isinstance(every, (int, np.integer)) and not isinstance(every, (bool, np.bool_)) and every >= 1:
        return ("epochs", int(every))
    raise ValueError(f"checkpoint_every must be 'epoch', an int >= 1 (epochs), a string like '5000steps' "
                     f"(steps) or like '600s' (seconds); got {every!r}")


def data_fingerprint(X, y, classes, sample_weight):
    """sha256 (hex) of the training data as the solver sees it: ``X`` (dense bytes, or CSR
    data/indices/indptr) with its shape, the labels, the classes and the sample weights."""
    h = hashlib.sha256()

    def add(name, array):
        array = np.ascontiguousarray(array)
        h.update(f"{name}:{array.dtype.str}:{array.shape};".encode())
        h.update(array.tobytes())

    if sp.issparse(X):
        h.update(f"csr{X.shape}".encode())
        for name in ("data", "indices", "indptr"):
            add(name, getattr(X, name))
    else:
        add("X", X)
    add("y", y)
    h.update(repr(np.asarray(classes).tolist()).encode())
    if sample_weight is not None:
        add("sample_weight", sample_weight)
    return h.hexdigest()


def _param_text(value):
    """A parameter value as compared between runs (a Generator ``random_state`` by its type: its state
    is in the checkpoint)."""
    if isinstance(value, np.random.Generator):
        return "<numpy.random.Generator>"
    return repr(value)


def _header(est, fingerprint, epochs_done, position=0):
    return dict(schema=SCHEMA, version=__version__, estimator=type(est).__name__,
                params={k: _param_text(v) for k, v in sorted(est.get_params(deep=False).items())},
                data=fingerprint, epochs_done=int(epochs_done), position=int(position))


def write_checkpoint(path, est, fingerprint, epochs_done, state, in_pass=None, extra=None):
    """Write the checkpoint atomically (a temporary file renamed over ``path``).

    ``extra``: header entries of a run other than ``fit`` (:class:`ChunkCheckpoints`: ``run`` and
    ``position``).

    ``in_pass``: a checkpoint inside epoch ``epochs_done + 1``, a dict with its ``position`` (steps
    run), ``pass_steps``, the segments' ``traces`` and ``offsets``, the solver's ``carry`` and ``rng``
    (the generator before the pass's draws, stored as ``_rng``) and ``rng_state`` (the generator's state at
    the checkpoint, set again once the resumed pass has redrawn its order)."""
    attrs = {k: v for k, v in est.__dict__.items()
             if k not in _TRANSIENT and k not in est._get_param_names()}
    if in_pass is not None:
        attrs["_rng"] = in_pass["rng"]
        in_pass = {k: v for k, v in in_pass.items() if k != "rng"}
    payload = pickle.dumps(dict(attrs=attrs, state=state, in_pass=in_pass), protocol=pickle.HIGHEST_PROTOCOL)
    header = _header(est, fingerprint, epochs_done, 0 if in_pass is None else in_pass["position"])
    header.update(extra or {})
    header.update(payload_bytes=len(payload), payload_sha256=hashlib.sha256(payload).hexdigest())
    folder = os.path.dirname(os.path.abspath(os.fspath(path)))
    fd, tmp = atomic_temp(folder, ".checkpoint-", ".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(MAGIC)
            fh.write(json.dumps(header, sort_keys=True).encode() + b"\n")
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_checkpoint(path):
    """``(header, payload bytes)`` of a checkpoint file, its framing checked (not yet its content)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise ValueError(f"checkpoint: no checkpoint file at {path} (resume=True needs one; start "
                         "without resume to train from scratch)") from None
    if not raw.startswith(MAGIC):
        raise ValueError(f"checkpoint {path} is not a refsvm checkpoint (it does not start with "
                         f"{MAGIC.strip().decode()})")
    stream = io.BytesIO(raw[len(MAGIC):])
    try:
        header = json.loads(stream.readline())
        size, digest = int(header["payload_bytes"]), header["payload_sha256"]
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"checkpoint {path} is corrupt: its header is unreadable") from None
    payload = stream.read()
    if len(payload) != size:
        raise ValueError(f"checkpoint {path} is corrupt: truncated ({len(payload)} of {size} payload bytes)")
    if hashlib.sha256(payload).hexdigest() != digest:
        raise ValueError(f"checkpoint {path} is corrupt: its payload's sha256 does not match the header")
    return header, payload


def _check_header(path, header, expected):
    """Refuse a checkpoint of another schema, version, run (``fit``, ``fit_stream``, ``fit_dask``),
    estimator, parameters or data, naming which."""
    if header.get("run", "fit") != expected.get("run", "fit"):
        raise ValueError(f"checkpoint {path} was written by {header.get('run', 'fit')}; this run is "
                         f"{expected.get('run', 'fit')}")
    for key, what in (("schema", "schema"), ("version", "refsvm version"), ("estimator", "estimator")):
        if header.get(key) != expected[key]:
            raise ValueError(f"checkpoint {path} was written with {what} {header.get(key)!r}; this run "
                             f"has {expected[key]!r}")
    saved, now = header.get("params", {}), expected["params"]
    differ = sorted(k for k in set(saved) | set(now) if k not in FREE_PARAMS and saved.get(k) != now.get(k))
    if differ:
        detail = ", ".join(f"{k}={saved.get(k, '(absent)')} there, {now.get(k, '(absent)')} here" for k in differ)
        raise ValueError(f"checkpoint {path} was written with other parameters: {detail}")
    if header.get("data") != expected["data"]:
        raise ValueError(f"checkpoint {path} was written for other data (the fingerprint of X, y, the "
                         "classes and sample_weight differs)")


def _load(path, est, fingerprint, epochs, run="fit", unit="steps"):
    """The checkpoint's ``(epochs_done, position, content)``, its header checked against this run (of
    ``epochs`` epochs; ``position``: the ``unit`` run in the next epoch)."""
    header, payload = read_checkpoint(path)
    _check_header(path, header, dict(_header(est, fingerprint, 0), run=run))
    done, position = int(header["epochs_done"]), int(header.get("position", 0))
    if done > epochs or (position and done == epochs):
        raise ValueError(f"checkpoint {path} holds {done} completed epochs"
                         + (f" and {position} {unit} of the next" if position else "")
                         + f"; epochs={epochs} is fewer")
    return done, position, pickle.loads(payload)


def _restore(path, est, fingerprint):
    """Load the checkpoint into ``est``; return ``(epochs_done, state, in_pass)`` (``in_pass``: None at an
    epoch boundary)."""
    done, _, content = _load(path, est, fingerprint, est.epochs)
    est.__dict__.update(content["attrs"])
    return done, content["state"], content["in_pass"]


class _PassCheckpoints:
    """The stops of a pass and the checkpoints written there (``est._pass_checkpointer`` during ``fit``).

    :meth:`BudgetedClassifierBase._run_pass` calls :meth:`begin` (the position to start from, with
    the traces of the segments already run, and the solver's in-pass state restored into its
    ``carry``), :meth:`next_stop` (where the next segment ends) and :meth:`after` (writes a
    checkpoint there when one is due)."""

    def __init__(self, path, est, fingerprint, every, in_pass):
        self.path, self.est, self.fingerprint, self.every = path, est, fingerprint, every
        self.pending = in_pass                # a resumed pass, taken by the first begin()
        self.epoch, self.n, self.rng, self.state = 0, 0, None, None
        self.last = time.monotonic()

    def start_epoch(self, epoch, state):
        """Before ``_one_pass`` of ``epoch`` (0-based): keep the generator before the pass's draws."""
        self.epoch, self.state, self.rng = epoch, state, copy.deepcopy(self.est._rng)

    def begin(self, n, carry):
        self.n = n
        pending, self.pending = self.pending, None
        if pending is None:
            return 0, [], []
        if pending["pass_steps"] != n:
            raise ValueError(f"checkpoint {self.path}: its epoch has {pending['pass_steps']} steps, this "
                             f"one {n} (other data)")
        for key, value in pending["carry"].items():
            if isinstance(carry[key], list):
                carry[key][:] = value         # the closure of _one_pass holds this very list
            else:
                carry[key] = value
        # the generator as at the checkpoint: the pass's first draws (order, uniforms) were made again from
        # the state before them; draws inside the segments run (FOGD's directions) are in this one
        self.est._rng.bit_generator.state = pending["rng_state"]
        return pending["position"], list(pending["traces"]), list(pending["offsets"])

    def next_stop(self, position):
        kind, k = self.every
        if kind == "steps":
            return position + k - (self.epoch * self.n + position) % k
        return position + POLL_STEPS if kind == "seconds" else self.n

    def steps_due(self, position):
        """Whether step ``position`` of the current pass ends a ``"<k>steps"`` interval."""
        return self.every[0] == "steps" and (self.epoch * self.n + position) % self.every[1] == 0

    def after(self, position, traces, offsets, carry):
        seconds_due = self.every[0] == "seconds" and time.monotonic() - self.last >= self.every[1]
        if self.steps_due(position) or seconds_due:
            write_checkpoint(self.path, self.est, self.fingerprint, self.epoch, self.state, dict(
                position=position, pass_steps=self.n, traces=traces, offsets=offsets, carry=dict(carry),
                rng=self.rng, rng_state=copy.deepcopy(self.est._rng.bit_generator.state)))
            self.last = time.monotonic()


def check_resume(checkpoint, resume):
    """``resume`` must be a bool, and True only with a ``checkpoint`` path."""
    if not isinstance(resume, (bool, np.bool_)):
        raise ValueError(f"resume must be True or False; got {resume!r}")
    if resume and checkpoint is None:
        raise ValueError("resume=True needs checkpoint (the path of the checkpoint file)")


def run_epochs(est, X, y, params, state, checkpoint=None, checkpoint_every="epoch", resume=False):
    """The epoch loop of ``fit``: ``est.epochs`` calls of ``est._one_pass``, with checkpoints.

    ``checkpoint`` (a path) with ``checkpoint_every`` (:func:`check_checkpoint_every`): a checkpoint
    after those epochs or steps; ``resume=True``: the run continues from the checkpoint at
    ``checkpoint`` (refused, naming why, when it does not belong to this estimator and data).
    Returns the last state."""
    every = check_checkpoint_every(checkpoint_every)
    check_resume(checkpoint, resume)
    inside = getattr(est, "_mid_epoch_checkpoints", False)
    if checkpoint is None:
        fingerprint = None
    else:
        if not isinstance(checkpoint, (str, os.PathLike)):
            raise TypeError(f"checkpoint must be a path (str or os.PathLike); got {type(checkpoint).__name__}")
        if every[0] == "steps" and not inside:
            raise ValueError(f"checkpoint_every={checkpoint_every!r}: {type(est).__name__} cannot stop inside an "
                             "epoch (its pass is not split into segments); use 'epoch', a number of epochs "
                             "or seconds (at epoch boundaries)")
        fingerprint = data_fingerprint(X, y, est.classes_ if hasattr(est, "classes_") else (),
                                       params.get("sample_weight"))
    start, in_pass = 0, None
    if resume:
        start, state, in_pass = _restore(checkpoint, est, fingerprint)
    stops = _PassCheckpoints(checkpoint, est, fingerprint, every, in_pass) if checkpoint is not None and inside \
        else None
    last = time.monotonic()
    try:
        for epoch in range(start, est.epochs):
            est._progress_label = f"epoch {epoch + 1}/{est.epochs}"
            if stops is not None:
                stops.start_epoch(epoch, state)
                est._pass_checkpointer = stops
            state = est._one_pass(X, y, params, state)
            if checkpoint is None:
                continue
            if every[0] == "steps":
                due = stops.steps_due(stops.n)
            elif every[0] == "epochs":
                due = (epoch + 1) % every[1] == 0
            else:
                due = time.monotonic() - (last if stops is None else max(last, stops.last)) >= every[1]
            if due or epoch + 1 == est.epochs:
                write_checkpoint(checkpoint, est, fingerprint, epoch + 1, state)
                last = time.monotonic()
                if stops is not None:
                    stops.last = last
    finally:
        est.__dict__.pop("_pass_checkpointer", None)
    return state


def check_chunk_every(every, unit):
    """``checkpoint_every`` of a run of ``partial_fit`` calls (:class:`ChunkCheckpoints`; ``unit``:
    ``"chunks"`` for :func:`refsvm.stream.fit_stream`, ``"blocks"`` for :func:`refsvm.dask.fit_dask`):
    ``("epochs", k)`` for ``"epoch"`` or an int, ``(unit, k)`` for ``"<k>chunks"`` / ``"<k>blocks"``,
    ``("steps", k)`` for ``"<k>steps"`` (examples), ``("seconds", s)`` for ``"<s>s"``."""
    if isinstance(every, str) and every.endswith(unit) and every[:-len(unit)].isdigit() \
            and int(every[:-len(unit)]) >= 1:
        return (unit, int(every[:-len(unit)]))
    try:
        return check_checkpoint_every(every)
    except ValueError:
        raise ValueError(f"checkpoint_every must be 'epoch', an int >= 1 (epochs), a string like '10{unit}', "
                         f"'5000steps' (examples) or '600s' (seconds); got {every!r}") from None


class ChunkCheckpoints:
    """Checkpoints between the ``partial_fit`` calls of a streamed (``run="fit_stream"``) or Dask
    (``run="fit_dask"``) run, and resuming from them.

    Every solver with ``partial_fit`` continues its model exactly from one call to the next, so a
    checkpoint between two calls (the estimator's fitted attributes, the completed epochs, the calls
    run in the next epoch as the header's ``position``, and the caller's ``state``, e.g. the
    visiting order's generator as at the start of that epoch) lets the resumed run make the same
    remaining calls: bit for bit the uninterrupted model.  The granularity is one call (a chunk, a
    block), for every solver.  ``fingerprint``: the caller's digest of its data and of its own
    options (refused when it differs, as :func:`_check_header` refuses other data)."""

    def __init__(self, path, every, run, fingerprint, epochs, unit):
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"checkpoint must be a path (str or os.PathLike); got {type(path).__name__}")
        self.path, self.run, self.fingerprint, self.epochs = path, run, fingerprint, epochs
        self.every = check_chunk_every(every, unit)
        self.calls = self.rows = 0                 # since the start of this process's run / the last write
        self.last = time.monotonic()

    def restore(self, est):
        """Load the checkpoint into ``est``; ``(epochs_done, position, state)``."""
        done, position, content = _load(self.path, est, self.fingerprint, self.epochs, self.run, "calls")
        params = est._get_param_names()
        for key in [k for k in vars(est) if k not in params]:
            del est.__dict__[key]                  # the state is the checkpoint's, nothing of before
        est.__dict__.update(content["attrs"])
        return done, position, content["state"]

    def write(self, est, epochs_done, position, state):
        write_checkpoint(self.path, est, self.fingerprint, epochs_done, state,
                         extra=dict(run=self.run, position=int(position)))
        self.rows, self.last = 0, time.monotonic()

    def due(self, rows):
        """After a call on ``rows`` examples: whether a checkpoint inside the epoch is due."""
        self.calls += 1
        self.rows += rows
        kind, k = self.every
        if kind == "steps":
            return self.rows >= k
        if kind == "seconds":
            return time.monotonic() - self.last >= k
        return kind != "epochs" and self.calls % k == 0

    def epoch_due(self, epoch):
        """At the end of ``epoch`` (0-based): whether a checkpoint is due (the last epoch always)."""
        return epoch + 1 == self.epochs or (self.every[0] == "epochs" and (epoch + 1) % self.every[1] == 0) \
            or (self.every[0] == "seconds" and time.monotonic() - self.last >= self.every[1])
