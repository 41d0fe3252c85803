"""Reading LIBSVM (svmlight) files into dense arrays, strictly.

One reader for the library (:func:`refsvm.datasets.load_libsvm`) and the
command line (``refsvm train`` / ``refsvm predict``).  A LIBSVM file holds one
example per line, ``<label> <index>:<value> ...``, with zero values omitted.
The file does not say how many features there are, nor whether indices start
at 0 or 1.  Guessing either silently misaligns columns, so this reader does
not guess:

* Indices are **1-based** (LIBSVM's convention) unless ``zero_based=True``.
  In 1-based mode an index 0 is an error naming the file and the line.
* With ``n_features`` given (e.g. the number of features of a trained model),
  a file whose highest index needs more features is an error naming both
  counts; one that needs fewer is an error too, unless ``pad_features=True``
  (the missing trailing features are then zeros).
* NaN or infinite values (and labels) are errors naming the file and line.
* Before the sparse data is made dense, the size of the dense matrix
  (rows x features x 8 bytes) is compared with ``max_memory`` (default
  :data:`DEFAULT_MAX_MEMORY`, 4 GiB): a stray huge index such as ``2000000000:1``
  is refused up front, with the number of features and the memory it would
  take, instead of exhausting the machine.
* A damaged file (malformed line, truncated ``.bz2`` / ``.gz``) is one
  :class:`LibsvmFileError` naming the file (and the line where it can be
  found).

Parsing is done by :func:`sklearn.datasets.load_svmlight_file` (compiled,
fast).  Only when something is wrong is the file read again, line by line in
Python, to find the line to name.
"""

import bz2
import gzip
import lzma
import math
import zlib
from pathlib import Path

import numpy as np
import scipy.sparse as sp

__all__ = ["DEFAULT_MAX_MEMORY", "LibsvmFileError", "read_libsvm", "parse_memory_size",
           "format_bytes"]

#: Default limit (bytes) on the dense matrix a file may turn into: 4 GiB.
DEFAULT_MAX_MEMORY = 4 * 2**30


#: Largest feature index the compiled parser accepts (a C int).
_MAX_INDEX = 2**31 - 1


class LibsvmFileError(ValueError):
    """A LIBSVM data file cannot be read as asked; the message names the file."""


class DenseMemoryError(LibsvmFileError):
    """The dense matrix of a LIBSVM file would exceed ``max_memory`` (the file can be read sparse)."""


def format_bytes(n):
    """``n`` bytes in a readable unit (``'14.9 GiB'``)."""
    n = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024


def parse_memory_size(text):
    """Bytes from a size such as ``"4G"``, ``"512M"``, ``"1.5GiB"``, ``"1000000"`` (binary units).

    ``"none"`` or ``"inf"`` (any case) means no limit and returns ``None``.
    """
    value = str(text).strip()
    if value.lower() in ("none", "inf", "unlimited"):
        return None
    units = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}
    low = value.lower().removesuffix("ib").removesuffix("b")
    suffix = low[-1:] if low[-1:] in "kmgt" else ""
    number = low[: len(low) - len(suffix)]
    try:
        size = float(number) * units[suffix]
    except ValueError:
        raise ValueError(
            f"max_memory must be a size like 4G, 512M or 1000000 (bytes), or 'none'; got {text!r}"
        ) from None
    if not math.isfinite(size) or size <= 0:
        raise ValueError(f"max_memory must be a positive size; got {text!r}")
    return int(size)


def _open_binary(path):
    """Open ``path`` for reading bytes, decompressing ``.gz`` / ``.bz2`` / ``.xz`` by name."""
    name = str(path)
    if name.endswith(".gz"):
        return gzip.open(name, "rb")
    if name.endswith(".bz2"):
        return bz2.open(name, "rb")
    if name.endswith(".xz"):
        return lzma.open(name, "rb")
    return open(name, "rb")


def _line_problem(raw, zero_based):
    """What is wrong with one line (bytes) of a LIBSVM file, or ``None`` if nothing is.

    The strict line parser of this module, in plain Python: used only after
    the fast parser refused a file (or a chunk of one) or its values, to tell
    the user where to look.
    """
    line = raw.split(b"#", 1)[0].strip()
    if not line:
        return None
    tokens = line.split()
    try:
        label = float(tokens[0])
    except ValueError:
        return f"the label {tokens[0].decode(errors='replace')!r} is not a number"
    if not math.isfinite(label):
        return f"the label is {tokens[0].decode(errors='replace')}"
    previous = -1
    for token in tokens[1:]:
        text = token.decode(errors="replace")
        index, colon, value = text.partition(":")
        if not colon:
            return f"{text!r} is not an index:value pair"
        if index == "qid":
            continue
        try:
            index = int(index)
        except ValueError:
            return f"{text!r}: the feature index is not an integer"
        try:
            value = float(value)
        except ValueError:
            return f"{text!r}: the value is not a number"
        if index < 0:
            return f"{text!r}: negative feature index"
        if index == 0 and not zero_based:
            return (
                "feature index 0 in a file read as 1-based (LIBSVM's convention); "
                "if the file's indices start at 0, read it as zero-based "
                "(zero_based=True, command line --zero-based)"
            )
        if index > _MAX_INDEX:
            return (f"{text!r}: feature index too large (the parser takes "
                    f"indices up to {_MAX_INDEX})")
        if index <= previous:
            return "feature indices must be increasing (sorted and unique)"
        previous = index
        if not math.isfinite(value):
            return f"{text!r}: the value is {value} (NaN and infinity are not allowed)"
    return None


def _first_bad_line(lines, zero_based, start=1):
    """``(line_number, description)`` of the first bad line of ``lines`` (numbered from ``start``),
    or ``None``."""
    for number, raw in enumerate(lines, start=start):
        what = _line_problem(raw, zero_based)
        if what is not None:
            return number, what
    return None


def _first_problem(path, zero_based):
    """``(line_number, description)`` of the first bad line of ``path``, or ``None``.

    A plain Python pass over the file (:func:`_line_problem`).  Decompression
    errors propagate.
    """
    with _open_binary(path) as fh:
        return _first_bad_line(fh, zero_based)


def _located(path, zero_based, fallback, lines=None, start=1):
    """A :class:`LibsvmFileError` naming the file and, where found, the bad line (searched in
    ``lines``, the file's lines from number ``start`` on, if given; else in the whole file)."""
    try:
        if lines is None:
            found = _first_problem(path, zero_based)
        else:
            found = _first_bad_line(lines, zero_based, start)
    except (EOFError, OSError, zlib.error, lzma.LZMAError) as exc:
        return LibsvmFileError(f"{path}: damaged or truncated compressed file ({exc})")
    if found is None:
        return LibsvmFileError(f"{path}: {fallback}")
    number, what = found
    return LibsvmFileError(f"{path}, line {number}: {what}")


def read_libsvm(path, *, n_features=None, zero_based=False, pad_features=False,
                max_memory=DEFAULT_MAX_MEMORY, n_features_of="n_features", sparse=False):
    """Read a LIBSVM file into a float64 ``X`` (dense C-contiguous, or CSR) and labels ``y``.

    Parameters
    ----------
    path : str or path-like
        The file; ``.gz``, ``.bz2`` and ``.xz`` files are decompressed.
    n_features : int or None, default None
        The number of features the data must have (e.g. a model's).  ``None``:
        as many as the highest index in the file needs.
    zero_based : bool, default False
        ``False``: indices start at 1 (LIBSVM's convention) and index ``k`` is
        column ``k - 1``; an index 0 is an error.  ``True``: index ``k`` is
        column ``k``.
    pad_features : bool, default False
        With ``n_features``: allow a file whose highest index needs fewer
        features, filling the missing trailing columns with zeros.
    max_memory : int or None, default :data:`DEFAULT_MAX_MEMORY` (4 GiB)
        Largest dense matrix, in bytes, the file may turn into; checked before
        any dense memory is allocated.  ``None``: no limit.
    n_features_of : str, default "n_features"
        What ``n_features`` is, for error messages (e.g. ``"the model"``).
    sparse : bool, default False
        Return ``X`` as a :class:`scipy.sparse.csr_matrix` (canonical: sorted
        indices, no duplicates, no stored zeros) and never make it dense; then
        ``max_memory`` is not checked here (the matrix takes the memory of its
        nonzeros, not of ``n_samples x n_features``).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64, C-contiguous, or CSR matrix (``sparse=True``)
    y : ndarray of shape (n_samples,), float64

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    LibsvmFileError
        (a ``ValueError``) naming the file, and the line where one is at
        fault: malformed line, index 0 in a 1-based file, NaN or infinity,
        damaged or truncated compressed file, a feature count that does not
        match ``n_features``, or a dense matrix larger than ``max_memory``.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"data file not found: {path}")
    if n_features is not None and (isinstance(n_features, bool) or int(n_features) != n_features
                                   or n_features < 1):
        raise ValueError(f"n_features must be an integer >= 1 or None; got {n_features!r}")

    if str(path).endswith(".xz"):      # the compiled parser decompresses .gz / .bz2 itself, not .xz
        with _open_binary(path) as fh:
            S, y, highest, d_file = _parse(fh, path, zero_based)
    else:
        S, y, highest, d_file = _parse(str(path), path, zero_based)
    d = _checked_width(path, d_file, highest, n_features, pad_features, n_features_of)
    n = S.shape[0]
    if sparse:
        return _as_csr(S, d), y
    need = n * d * 8
    if max_memory is not None and need > max_memory:
        raise DenseMemoryError(
            f"{path}: {n} rows x {d} features (highest index {highest}) would need "
            f"{format_bytes(need)} as a dense float64 matrix, more than the limit of "
            f"{format_bytes(max_memory)}; a stray huge feature index? Raise the limit "
            "(max_memory=..., command line --max-memory) if this is intended, or read it as a "
            "sparse matrix (sparse=True, command line --sparse)"
        )
    return _as_dense(S, d), y


def _as_dense(S, d):
    """The parsed rows ``S`` (column indices as columns) as a C-contiguous float64 array of width ``d``."""
    X = sp.csr_matrix((S.data, S.indices, S.indptr), shape=(S.shape[0], d)).toarray()
    return np.ascontiguousarray(X)


def _as_csr(S, d):
    """The parsed rows ``S`` as a canonical CSR matrix of width ``d`` (sorted indices, no duplicates,
    no stored zeros)."""
    X = sp.csr_matrix((S.data, S.indices, S.indptr), shape=(S.shape[0], d))
    X.sum_duplicates()        # also sorts the indices
    X.eliminate_zeros()
    return X


def _parse(source, path, zero_based, lines=None, start=1):
    """Parse ``source`` (a file name, or a binary file object holding ``lines`` of ``path`` from line
    ``start`` on) with the compiled parser and check it strictly.

    Returns ``(S, y, highest, d_file)``: ``S`` CSR whose column indices are the columns (the
    1-based shift done; its own width, not yet the data's), ``y`` float64, the highest index as
    written (-1 if none) and the number of features it needs.  Errors are
    :class:`LibsvmFileError` naming ``path`` and the bad line (searched in ``lines`` if given).
    """
    from sklearn.datasets import load_svmlight_file

    try:
        # Always parse zero-based: indices as written, no guessing; the 1-based
        # shift and its checks are done below.
        S, y = load_svmlight_file(source, zero_based=True, dtype=np.float64)
    except (EOFError, zlib.error, lzma.LZMAError) as exc:
        raise LibsvmFileError(f"{path}: damaged or truncated compressed file ({exc})") from None
    except OSError as exc:  # bz2 "Invalid data stream", gzip.BadGzipFile, ...
        raise LibsvmFileError(f"{path}: cannot be read as a LIBSVM file ({exc})") from None
    except (ValueError, OverflowError, UnicodeDecodeError) as exc:
        raise _located(path, zero_based, f"not a valid LIBSVM file ({exc})", lines, start) from None

    y = np.asarray(y, dtype=np.float64)
    if not (np.isfinite(S.data).all() and np.isfinite(y).all()):
        raise _located(path, zero_based, "contains NaN or infinity", lines, start)
    indices = S.indices
    if S.nnz:
        lowest, highest = int(indices.min()), int(indices.max())
    else:
        lowest, highest = 0, -1
    if not zero_based and S.nnz and lowest == 0:
        raise _located(path, zero_based, "feature index 0 in a file read as 1-based", lines, start)
    if zero_based:
        d_file = highest + 1
    else:
        d_file = max(highest, 0)
        indices = indices - 1 if S.nnz else indices
    S = sp.csr_matrix((S.data, indices, S.indptr), shape=(S.shape[0], d_file))
    return S, y, highest, d_file


def _checked_width(path, d_file, highest, n_features, pad_features, n_features_of):
    """The data's number of features: ``n_features`` if given and the file's ``d_file`` (highest index
    ``highest``) fits it (exactly, or fewer with ``pad_features``), else ``d_file``; a mismatch is a
    :class:`LibsvmFileError` naming both counts."""
    if n_features is None:
        return d_file
    n_features = int(n_features)
    if d_file > n_features:
        raise LibsvmFileError(
            f"{path}: has {d_file} features (highest index {highest}), but "
            f"{n_features_of} has {n_features}"
        )
    if d_file < n_features and not pad_features:
        raise LibsvmFileError(
            f"{path}: has {d_file} features (highest index {highest}), but "
            f"{n_features_of} has {n_features}; if the missing trailing features are zeros, "
            "allow zero-padding (pad_features=True, command line --pad-features)"
        )
    return n_features
