"""Model files: one format for every model kind, written atomically, read defensively.

Every model file is an ``.npz`` archive with the same header entries:
``format_version``, ``kind`` (``"BudgetedModel"``, ``"FourierModel"`` or
``"NystromModel"``: which arrays follow), ``refsvm_version`` and, when an
estimator wrote it, ``estimator`` (its class name) and ``params_json``.
Files written before ``kind`` was recorded for kernel expansions are read as
``"BudgetedModel"``.  :func:`write_model` writes a file atomically;
:func:`refsvm.load` (:mod:`refsvm.estimators.loading`) returns the
estimator a file holds.

A model file is an ``.npz`` archive (a zip of ``.npy`` arrays) read with
``allow_pickle=False``.  Whatever is wrong with a file -- not a zip archive
(e.g. a text file), truncated, bit-flipped (bad CRC, broken ``.npy``
header), a key missing, an unknown format version, a value of the wrong
shape or type, an invalid hyper-parameter -- :func:`reading` turns it into
one :class:`ModelFileError` (a ``ValueError``) whose message names the file
and what is wrong, instead of ``BadZipFile``, ``KeyError``, ``IndexError`` or
numpy's "pickled data" message.
"""

import os
import zipfile
import zlib
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from .._files import atomic_temp

__all__ = ["ModelFileError", "reading", "write_model", "model_path", "file_kind", "check_kind", "KINDS"]

#: The model kinds and the estimator used for a file that names none (written by a model's own save).
KINDS = {"BudgetedModel": "BudgetedSVC", "FourierModel": "FOGDClassifier", "NystromModel": "NOGDClassifier"}
_KIND_TEXT = {"BudgetedModel": "a kernel expansion, BudgetedModel", "FourierModel": "random Fourier features, "
              "FourierModel", "NystromModel": "Nystroem features, NystromModel"}


class ModelFileError(ValueError):
    """A model file cannot be loaded; the message names the file and the reason."""


class _Contents(dict):
    """The arrays of a model file; a missing key is a :class:`ModelFileError`."""

    def __init__(self, path, arrays):
        super().__init__(arrays)
        self.path = path

    def scalar(self, key, kind):
        """The single value of entry ``key`` as ``kind`` (``float``, ``int``, ``str``)."""
        value = self[key]
        if value.shape != () or (kind is str) != (value.dtype.kind in "US") \
                or (kind is int and value.dtype.kind not in "iu"):
            raise ModelFileError(
                f"{self.path}: invalid model file: {key} must be a single "
                f"{kind.__name__} value; got {value.dtype} array of shape {value.shape}"
            )
        return kind(value)

    def __missing__(self, key):
        raise ModelFileError(
            f"{self.path}: not a complete refsvm model file: the entry {key!r} is missing "
            f"(it holds {', '.join(sorted(self)) or 'nothing'})"
        )


def _read_arrays(path):
    """Every array of the ``.npz`` file ``path``, read now (so damage shows here)."""
    if not zipfile.is_zipfile(path):
        with open(path, "rb") as fh:
            start = fh.read(4)
        if start == b"PK\x03\x04":  # a zip archive's start without its directory at the end
            raise ModelFileError(f"{path}: damaged or truncated model file (incomplete zip archive)")
        kind = "an empty file" if not start else f"its first bytes are {start!r}"
        raise ModelFileError(
            f"{path}: not a refsvm model file (a model file is an .npz zip archive; {kind})"
        )
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, KeyError) as exc:
        raise ModelFileError(
            f"{path}: damaged or truncated model file ({type(exc).__name__}: {exc})"
        ) from None


@contextmanager
def reading(path, versions):
    """Open the model file ``path``; yield its arrays as a dict.

    Checks that ``format_version`` is one of ``versions`` (an int or a
    tuple of ints).  A ``ValueError``, ``TypeError``, ``KeyError`` or
    ``IndexError`` raised in the ``with`` block (converting the arrays,
    constructing and validating the model) becomes a :class:`ModelFileError`
    naming the file.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ModelFileError
        For everything else that is wrong with the file.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"model file not found: {path}")
    if path.is_dir():
        raise ModelFileError(f"{path}: is a directory, not a model file")
    versions = (versions,) if isinstance(versions, int) else tuple(versions)
    data = _Contents(path, _read_arrays(path))
    try:
        version = data["format_version"]
        if version.shape != () or version.dtype.kind not in "iu":
            raise ValueError(f"format_version must be an integer scalar; got {version!r}")
        version = int(version)
    except ModelFileError:
        raise
    except (ValueError, TypeError) as exc:
        raise ModelFileError(f"{path}: invalid model file: {exc}") from None
    if version not in versions:
        supported = ", ".join(str(v) for v in versions)
        raise ModelFileError(
            f"{path}: model format_version {version} is not supported (this refsvm reads "
            f"format_version {supported}); was it written by another version of refsvm?"
        )
    try:
        yield data
    except ModelFileError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise ModelFileError(f"{path}: invalid model file: {exc}") from None


def model_path(path):
    """The file a model is written to: ``path``, with ``.npz`` appended when missing (numpy's rule)."""
    path = os.fspath(path)
    return Path(path if path.endswith(".npz") else path + ".npz")


def write_model(path, arrays):
    """Write ``arrays`` as the ``.npz`` model file ``path`` atomically; return the path written.

    The archive goes to a temporary file in the same folder, which replaces
    ``path`` only once it is complete: a full disk, a file-size limit or an
    interruption leaves an existing model untouched and no partial file.
    Every failure is an ``OSError`` whose message names the path.
    """
    target = model_path(path)
    for where in (Path(os.fspath(path)), target):        # as given (numpy would append .npz), and the file
        if where.is_dir():
            raise IsADirectoryError(f"{where}: is a directory; give a file name for the model")
        if where.exists() and not where.is_file():
            raise OSError(f"{where}: not a regular file (a device or a pipe?); give a file name for the model")
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = atomic_temp(folder, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:
        raise OSError(exc.errno, f"{target}: cannot write the model ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **arrays)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OSError(exc.errno, f"{target}: cannot write the model ({exc.strerror or exc}); "
                                 "an existing file of that name is unchanged") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def file_kind(data):
    """The ``kind`` of an opened model file (``"BudgetedModel"`` for files from before it was recorded)."""
    return str(data["kind"]) if "kind" in data else "BudgetedModel"


def check_kind(data, path, kind, reader):
    """Refuse a file of another kind, naming what it holds and how to load it."""
    found = file_kind(data)
    if found != kind:
        holder = str(data["estimator"]) if "estimator" in data else KINDS.get(found, found)
        raise ModelFileError(f"{path}: the file holds a {holder} model ({_KIND_TEXT.get(found, found)}), which "
                             f"{reader} cannot read; load it with refsvm.load(path) or {holder}.load")


#: Entries of a model trained on standardised features (``refsvm train --standardize``): the training
#: data's per-feature mean and standard deviation (1 where it was 0); predicting applies
#: ``(X - mean) / scale`` first.  :func:`refsvm.load` returns such a file's estimator behind a fitted
#: ``sklearn.preprocessing.StandardScaler`` (a ``Pipeline``), so the loaded object predicts raw features.
STANDARDIZE_KEYS = ("standardize_mean", "standardize_scale")


def standardization(X):
    """``(mean, scale)`` of the rows of ``X`` (dense): scikit-learn's ``StandardScaler`` rule (population
    standard deviation; a constant feature gets scale 1)."""
    X = np.asarray(X, dtype=np.float64)
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale == 0.0] = 1.0
    return mean, scale


def add_standardization(path, mean, scale):
    """Record ``mean`` and ``scale`` in the model file ``path`` (rewritten atomically)."""
    path = model_path(path)
    with reading(path, (1, 2)) as data:
        arrays = dict(data)
    arrays[STANDARDIZE_KEYS[0]] = np.asarray(mean, dtype=np.float64)
    arrays[STANDARDIZE_KEYS[1]] = np.asarray(scale, dtype=np.float64)
    return write_model(path, arrays)


def read_standardization(path):
    """``(mean, scale)`` recorded in the model file ``path``, or None for a model of raw features."""
    with reading(path, (1, 2)) as data:
        if STANDARDIZE_KEYS[0] not in data:
            return None
        mean, scale = (np.asarray(data[k], dtype=np.float64) for k in STANDARDIZE_KEYS)
        if mean.ndim != 1 or mean.shape != scale.shape or not np.all(np.isfinite(mean)) \
                or not np.all(np.isfinite(scale) & (scale > 0)):
            raise ValueError(f"{STANDARDIZE_KEYS[0]} / {STANDARDIZE_KEYS[1]} must be finite 1-D arrays of one "
                             "shape, the scales > 0")
        return mean, scale
