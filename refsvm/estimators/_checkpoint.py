"""Checkpoints of a training run at epoch boundaries, and resuming from them (``fit(checkpoint=...)``).

A checkpoint holds everything the remaining epochs read: the estimator's fitted attributes (the
model, the step counter ``t_``, the trace, the solver's own state such as BSCA's dual variables or
the Projectrons' Cholesky factor, and the random generator ``_rng`` whose state draws the remaining
epochs' visiting orders), the state handed to the next ``_one_pass``, and the number of completed
epochs.  A resumed run continues the same loop with the same generator, so it gives bit for bit the
model of the uninterrupted run (on either backend: the file records the backend's results, the
backend is a checked parameter).

The file: a line ``REFSVM-CHECKPOINT``, a JSON header line (schema, refsvm version, estimator class,
parameters, data fingerprint, completed epochs, payload length and sha256), then the payload (a
pickle of the attributes and the state).  The header is read and checked before the payload is
unpickled; the payload only after its length and sha256 match.  Pickle runs code of the file: load
only checkpoints you wrote (the sha256 guards against corruption, not against a forged file).
Written to a temporary file in the target's folder and renamed over it
(:func:`refsvm._files.atomic_temp`): an interrupted write leaves the previous checkpoint intact.

What is refused, naming which: a file that is not a checkpoint or is corrupt (truncated, other
bytes), another schema or refsvm version, another estimator class, other parameters (``verbose``,
``n_jobs`` and ``epochs`` may differ: they do not change the remaining epochs' models; ``epochs``
must be at least the completed count), other data (sha256 of ``X`` (dense bytes or CSR
data/indices/indptr) with its shape, the labels, the classes and the sample weights).

Not here: positions inside an epoch (a checkpoint is written only after a whole pass).
"""

import hashlib
import io
import json
import os
import pickle
import time

import numpy as np
import scipy.sparse as sp

from .._files import atomic_temp
from .._version import __version__

__all__ = ["SCHEMA", "check_checkpoint_every", "data_fingerprint", "read_checkpoint", "run_epochs"]

SCHEMA = "refsvm-checkpoint v1"
MAGIC = b"REFSVM-CHECKPOINT\n"
#: parameters that may differ between the checkpointed run and the resumed one (same remaining models)
FREE_PARAMS = ("verbose", "n_jobs", "epochs")
#: attributes never stored (per-call inputs, not training state)
_TRANSIENT = ("_eval_set", "_progress_label")


def check_checkpoint_every(every):
    """``checkpoint_every`` as ``("epochs", k)`` or ``("seconds", s)``.

    ``"epoch"``: after every epoch; an int ``k >= 1``: after every k-th epoch; a string ``"<s>s"``
    (e.g. ``"600s"``): at the first epoch boundary at least ``s`` seconds after the previous
    checkpoint (or the start).  The last epoch always writes one."""
    if isinstance(every, str):
        if every == "epoch":
            return ("epochs", 1)
        if every.endswith("s"):
            try:
                seconds = float(every[:-1])
            except ValueError:
                seconds = -1.0
            if np.isfinite(seconds) and seconds >= 0:
                return ("seconds", seconds)
    elif isinstance(every, (int, np.integer)) and not isinstance(every, (bool, np.bool_)) and every >= 1:
        return ("epochs", int(every))
    raise ValueError(f"checkpoint_every must be 'epoch', an int >= 1 (epochs) or a string like '600s' "
                     f"(seconds); got {every!r}")


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


def _header(est, fingerprint, epochs_done):
    return dict(schema=SCHEMA, version=__version__, estimator=type(est).__name__,
                params={k: _param_text(v) for k, v in sorted(est.get_params(deep=False).items())},
                data=fingerprint, epochs_done=int(epochs_done))


def write_checkpoint(path, est, fingerprint, epochs_done, state):
    """Write the checkpoint atomically (a temporary file renamed over ``path``)."""
    attrs = {k: v for k, v in est.__dict__.items()
             if k not in _TRANSIENT and k not in est._get_param_names()}
    payload = pickle.dumps(dict(attrs=attrs, state=state), protocol=pickle.HIGHEST_PROTOCOL)
    header = _header(est, fingerprint, epochs_done)
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
    """Refuse a checkpoint of another schema, version, estimator, parameters or data, naming which."""
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


def _restore(path, est, fingerprint):
    """Load the checkpoint into ``est``; return ``(epochs_done, state)``."""
    header, payload = read_checkpoint(path)
    _check_header(path, header, _header(est, fingerprint, 0))
    done = int(header["epochs_done"])
    if done > est.epochs:
        raise ValueError(f"checkpoint {path} holds {done} completed epochs; epochs={est.epochs} is fewer")
    content = pickle.loads(payload)
    est.__dict__.update(content["attrs"])
    return done, content["state"]


def run_epochs(est, X, y, params, state, checkpoint=None, checkpoint_every="epoch", resume=False):
    """The epoch loop of ``fit``: ``est.epochs`` calls of ``est._one_pass``, with checkpoints.

    ``checkpoint`` (a path) with ``checkpoint_every`` (:func:`check_checkpoint_every`): a checkpoint
    after those epochs; ``resume=True``: the run continues from the checkpoint at ``checkpoint``
    (refused, naming why, when it does not belong to this estimator and data).  Returns the last
    state."""
    every = check_checkpoint_every(checkpoint_every)
    if not isinstance(resume, (bool, np.bool_)):
        raise ValueError(f"resume must be True or False; got {resume!r}")
    if checkpoint is None:
        if resume:
            raise ValueError("resume=True needs checkpoint (the path of the checkpoint file)")
        fingerprint = None
    else:
        if not isinstance(checkpoint, (str, os.PathLike)):
            raise TypeError(f"checkpoint must be a path (str or os.PathLike); got {type(checkpoint).__name__}")
        fingerprint = data_fingerprint(X, y, est.classes_ if hasattr(est, "classes_") else (),
                                       params.get("sample_weight"))
    start = 0
    if resume:
        start, state = _restore(checkpoint, est, fingerprint)
    last = time.monotonic()
    for epoch in range(start, est.epochs):
        est._progress_label = f"epoch {epoch + 1}/{est.epochs}"
        state = est._one_pass(X, y, params, state)
        if checkpoint is None:
            continue
        due = ((epoch + 1) % every[1] == 0) if every[0] == "epochs" else time.monotonic() - last >= every[1]
        if due or epoch + 1 == est.epochs:
            write_checkpoint(checkpoint, est, fingerprint, epoch + 1, state)
            last = time.monotonic()
    return state
