"""Reading a LIBSVM file in chunks of rows, in memory proportional to the chunk.

:func:`iter_libsvm` yields ``(X_chunk, y_chunk)`` blocks of ``chunk_rows``
examples (CSR, or dense on request); concatenated, they are exactly what
:func:`refsvm.io.libsvm.read_libsvm` returns for the whole file (the same
parser, checks and messages: each chunk goes through the compiled parser of
:func:`~refsvm.io.libsvm.read_libsvm`, a bad line is found by the same line
parser and named by its number within the whole file).

The number of features of a LIBSVM file is the highest index in it, which
is known only at its end.  So :func:`iter_libsvm` first reads the file once,
chunk by chunk, with :func:`scan_libsvm` (rows, highest index, labels, the
moments of the values for ``gamma="scale"``, where each chunk starts), unless
given that ``summary``; the cost of the pre-pass is one more read (and
decompression) of the file, in the same constant memory.
"""

import dataclasses
import io
import lzma
import zlib
from pathlib import Path

import numpy as np

from .libsvm import (DEFAULT_MAX_MEMORY, DenseMemoryError, LibsvmFileError, _as_csr, _as_dense,
                     _checked_width, _open_binary, _parse, format_bytes)

__all__ = ["DEFAULT_CHUNK_ROWS", "LibsvmSummary", "iter_libsvm", "scan_libsvm"]

#: Default number of examples per chunk.
DEFAULT_CHUNK_ROWS = 10_000


@dataclasses.dataclass(frozen=True)
class LibsvmSummary:
    """What one pass over a LIBSVM file (:func:`scan_libsvm`) found.

    ``n_rows`` examples; ``highest`` index as written (-1 if none) and the ``n_features`` it
    needs; ``labels`` the sorted distinct labels (``None`` if not collected); ``nnz`` stored
    values; ``nonzero_mean`` and ``nonzero_m2`` the mean and sum of squared deviations of the
    stored values (Chan et al.'s pairwise update over chunks); ``chunks`` the
    ``(byte offset, first line number, number of lines)`` of each chunk of ``chunk_rows`` examples.
    """

    path: str
    zero_based: bool
    chunk_rows: int
    n_rows: int
    highest: int
    n_features: int
    nnz: int
    nonzero_mean: float
    nonzero_m2: float
    labels: object
    chunks: tuple

    def variance(self, n_features=None):
        """``X.var()`` over all ``n_rows x n_features`` entries (zeros included), as the in-memory
        ``gamma="scale"`` takes it: the stored values' moments combined with the zeros' (Chan's
        formula, no cancellation of ``E[x^2] - E[x]^2``; equal to the two-pass value to a few
        ulps relative)."""
        d = self.n_features if n_features is None else int(n_features)
        total = self.n_rows * d
        if total == 0:
            return 0.0
        m2 = self.nonzero_m2 + self.nonzero_mean ** 2 * self.nnz * (total - self.nnz) / total
        return max(m2 / total, 0.0)


def _check_chunk_rows(chunk_rows):
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be an integer >= 1; got {chunk_rows!r}")
    return int(chunk_rows)


def _line_blocks(path, chunk_rows, spans=None):
    """``(offset, first line number, lines)`` of consecutive blocks of ``path`` holding
    ``chunk_rows`` examples each (the last fewer; lines with no example, blank or comment, go with
    the next example's block).  With ``spans`` (``(offset, first, n_lines)`` from a scan): just
    those blocks, by seeking.  Decompression errors are :class:`LibsvmFileError`."""
    try:
        with _open_binary(path) as fh:
            if spans is not None:
                for offset, first, n_lines in spans:
                    fh.seek(offset)
                    yield offset, first, [fh.readline() for _ in range(n_lines)]
                return
            block, rows, first, offset = [], 0, 1, 0
            number = 0
            for raw in iter(fh.readline, b""):
                number += 1
                if not block:
                    first = number
                block.append(raw)
                if raw.split(b"#", 1)[0].strip():
                    rows += 1
                    if rows == chunk_rows:
                        yield offset, first, block
                        offset = fh.tell()
                        block, rows = [], 0
            if block:
                yield offset, first, block
    except (EOFError, zlib.error, lzma.LZMAError) as exc:
        raise LibsvmFileError(f"{path}: damaged or truncated compressed file ({exc})") from None
    except OSError as exc:
        raise LibsvmFileError(f"{path}: cannot be read as a LIBSVM file ({exc})") from None


def _parsed_blocks(path, chunk_rows, zero_based, spans=None):
    """``(offset, first, n_lines, S, y, highest, d_file)`` per block of :func:`_line_blocks`, parsed
    and checked by :func:`refsvm.io.libsvm._parse` (errors name the line within the whole file)."""
    for offset, first, lines in _line_blocks(path, chunk_rows, spans):
        S, y, highest, d_file = _parse(io.BytesIO(b"".join(lines)), path, zero_based, lines, first)
        yield offset, first, len(lines), S, y, highest, d_file


def _checked_path(path):
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"data file not found: {path}")
    return path


def scan_libsvm(path, *, chunk_rows=DEFAULT_CHUNK_ROWS, zero_based=False, labels=True):
    """One pass over a LIBSVM file, chunk by chunk: its :class:`LibsvmSummary`.

    Memory: one chunk (and the distinct labels, if ``labels``).  Errors as
    :func:`refsvm.io.libsvm.read_libsvm`'s (a bad line named by its number in the file).
    """
    path = _checked_path(path)
    chunk_rows = _check_chunk_rows(chunk_rows)
    n_rows = nnz = 0
    highest, mean, m2 = -1, 0.0, 0.0
    found = np.empty(0) if labels else None
    chunks = []
    for offset, first, n_lines, S, y, high, _ in _parsed_blocks(path, chunk_rows, zero_based):
        if S.shape[0] == 0:
            continue
        chunks.append((offset, first, n_lines))
        X = _as_csr(S, S.shape[1])           # canonical, as the chunks and read_libsvm give it
        n_rows += S.shape[0]
        highest = max(highest, high)
        if labels:
            found = np.union1d(found, y)
        if X.nnz:                             # Chan et al.: merge (count, mean, M2) of the block
            b_mean = float(X.data.mean())
            b_m2 = float(np.dot(X.data - b_mean, X.data - b_mean))
            total = nnz + X.nnz
            delta = b_mean - mean
            mean += delta * X.nnz / total
            m2 += b_m2 + delta * delta * nnz * X.nnz / total
            nnz = total
    d_file = highest + 1 if zero_based else max(highest, 0)
    return LibsvmSummary(str(path), bool(zero_based), chunk_rows, n_rows, highest, d_file, nnz, mean,
                         m2, found, tuple(chunks))


def iter_libsvm(path, *, chunk_rows=DEFAULT_CHUNK_ROWS, n_features=None, zero_based=False,
                pad_features=False, sparse=True, dtype=np.float64, max_memory=DEFAULT_MAX_MEMORY,
                n_features_of="n_features", summary=None, order=None, prepass=True):
    """Yield the examples of a LIBSVM file as ``(X_chunk, y_chunk)`` blocks of ``chunk_rows`` rows.

    Parameters
    ----------
    path : str or path-like
        The file; ``.gz``, ``.bz2`` and ``.xz`` files are decompressed.
    chunk_rows : int, default :data:`DEFAULT_CHUNK_ROWS`
        Examples per chunk (the last chunk may hold fewer).
    n_features, zero_based, pad_features, n_features_of
        As :func:`~refsvm.io.libsvm.read_libsvm`; the feature count is checked before the first
        chunk (with the same messages), from ``summary``.
    sparse : bool, default True
        CSR chunks (canonical); ``False``: dense C-contiguous chunks, each checked against
        ``max_memory`` (bytes per chunk).
    dtype : numpy dtype, default float64
        Of ``X_chunk`` (float64 parses exactly as ``read_libsvm``).
    summary : LibsvmSummary or None
        From :func:`scan_libsvm` of the same file with the same ``chunk_rows`` and ``zero_based``;
        ``None``: made by a pre-pass here (one more read of the file).
    order : sequence of int or None
        Chunk numbers to yield, in this order (e.g. a permutation, for shuffled epochs); read by
        seeking to where the scan found each chunk (cheap for plain files; a compressed file is
        decompressed again from its start for each backward seek).  ``None``: file order.
    prepass : bool, default True
        ``False`` (with ``summary=None``): no pre-pass; needs ``n_features`` and ``pad_features=True``
        and file order; a line with an index above ``n_features`` is an error when its chunk is read
        (naming the file and the chunk's lines).  The chunks are those of the run with the pre-pass.

    Yields
    ------
    X_chunk : CSR matrix or ndarray of shape (rows, n_features)
    y_chunk : ndarray of shape (rows,), float64

    Concatenated, the chunks equal ``read_libsvm(path, ...)`` exactly (``scipy.sparse.vstack`` /
    ``numpy.vstack``).  Memory: one chunk of lines and its parsed arrays.
    """
    path = _checked_path(path)
    chunk_rows = _check_chunk_rows(chunk_rows)
    if n_features is not None and (isinstance(n_features, bool) or int(n_features) != n_features
                                   or n_features < 1):
        raise ValueError(f"n_features must be an integer >= 1 or None; got {n_features!r}")
    if summary is None and not prepass:
        if n_features is None or not pad_features or order is not None:
            raise ValueError("prepass=False needs n_features, pad_features=True and order=None (the file's width "
                             "and chunk offsets come from the pre-pass)")
        yield from _chunks_without_prepass(path, chunk_rows, zero_based, int(n_features), sparse, dtype, max_memory,
                                           n_features_of)
        return
    if summary is None:
        summary = scan_libsvm(path, chunk_rows=chunk_rows, zero_based=zero_based, labels=False)
    elif (summary.chunk_rows, summary.zero_based) != (chunk_rows, bool(zero_based)):
        raise ValueError(f"summary was made with chunk_rows={summary.chunk_rows}, zero_based="
                         f"{summary.zero_based}; asked chunk_rows={chunk_rows}, zero_based={zero_based}")
    d = _checked_width(path, summary.n_features, summary.highest, n_features, pad_features,
                       n_features_of)
    spans = None if order is None else [summary.chunks[int(k)] for k in order]
    for _, _, _, S, y, _, _ in _parsed_blocks(path, chunk_rows, zero_based, spans):
        if S.shape[0] == 0:
            continue
        if S.shape[1] > d:                   # the file changed since the scan
            raise LibsvmFileError(f"{path}: changed while being read (a chunk has {S.shape[1]} "
                                  f"features, the scan found {d})")
        yield _chunk_arrays(path, S, y, d, sparse, dtype, max_memory, summary.highest)


def _chunks_without_prepass(path, chunk_rows, zero_based, d, sparse, dtype, max_memory, n_features_of):
    """:func:`iter_libsvm`'s chunks in file order with no pre-pass: each chunk's width checked against ``d``."""
    for _, first, n_lines, S, y, highest, _ in _parsed_blocks(path, chunk_rows, zero_based):
        if S.shape[0] == 0:
            continue
        if S.shape[1] > d:
            raise LibsvmFileError(f"{path}: lines {first}-{first + n_lines - 1} hold feature index {highest}, more "
                                  f"than the {d} features of {n_features_of}")
        yield _chunk_arrays(path, S, y, d, sparse, dtype, max_memory, highest)


def _chunk_arrays(path, S, y, d, sparse, dtype, max_memory, highest):
    """``(X_chunk, y_chunk)`` of a parsed chunk: CSR, or dense checked against ``max_memory`` (the message
    names ``highest``)."""
    dtype = np.dtype(dtype)
    if sparse:
        X = _as_csr(S, d)
        return (X if dtype == X.dtype else X.astype(dtype)), y
    need = S.shape[0] * d * 8
    if max_memory is not None and need > max_memory:
        raise DenseMemoryError(
            f"{path}: a chunk of {S.shape[0]} rows x {d} features (highest index "
            f"{highest}) would need {format_bytes(need)} as a dense float64 matrix, more "
            f"than the limit of {format_bytes(max_memory)}; lower chunk_rows, raise max_memory, "
            "or read sparse chunks (sparse=True)")
    X = _as_dense(S, d)
    return (X if dtype == X.dtype else np.ascontiguousarray(X, dtype=dtype)), y
