"""Subject: io -- reading a LIBSVM file in chunks (refsvm.io.stream.iter_libsvm / scan_libsvm).

The chunks, concatenated, must be exactly read_libsvm's matrix and labels (dense and CSR, every
compression); errors must be read_libsvm's, a bad line named by its number within the whole file;
memory must follow the chunk, not the file.
"""

import bz2
import gzip
import lzma
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm.io.libsvm import LibsvmFileError, read_libsvm
from refsvm.io.stream import iter_libsvm, scan_libsvm

OPENERS = {"": open, ".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}


def _text(n=103, d=20, seed=0, zero_based=False):
    """A LIBSVM text with comments, blank lines, empty rows and three classes."""
    rng = np.random.default_rng(seed)
    lines = ["# a header comment\n", "\n"]
    for i in range(n):
        idx = np.sort(rng.choice(d, size=rng.integers(0, 6), replace=False)) + (0 if zero_based else 1)
        pairs = " ".join(f"{j}:{rng.normal():.17g}" for j in idx)
        lines.append(f"{rng.integers(0, 3)} {pairs}" + ("  # trailing\n\n" if i % 7 == 0 else "\n"))
    return "".join(lines).encode()


def _write(tmp_path, data, suffix="", name="data.txt"):
    path = tmp_path / (name + suffix)
    with OPENERS[suffix](path, "wb") as fh:
        fh.write(data)
    return path


def _concat(chunks, sparse):
    Xs, ys = zip(*chunks)
    X = sp.vstack(Xs, format="csr") if sparse else np.vstack(Xs)
    return X, np.concatenate(ys)


@pytest.mark.parametrize("suffix", list(OPENERS))
@pytest.mark.parametrize("sparse", [True, False])
@pytest.mark.parametrize("chunk_rows", [1, 7, 1000])
def test_chunks_concatenate_to_read_libsvm(tmp_path, suffix, sparse, chunk_rows):
    path = _write(tmp_path, _text(), suffix)
    X, y = read_libsvm(path, sparse=sparse)
    chunks = list(iter_libsvm(path, chunk_rows=chunk_rows, sparse=sparse))
    assert all(c[0].shape[0] == min(chunk_rows, 103 - k * chunk_rows) for k, c in enumerate(chunks))
    Xc, yc = _concat(chunks, sparse)
    assert np.array_equal(yc, y)
    assert X.shape == Xc.shape == (103, 20)
    if sparse:
        for name in ("data", "indices", "indptr"):
            assert np.array_equal(getattr(Xc, name), getattr(X, name))
    else:
        assert Xc.flags.c_contiguous and np.array_equal(Xc, X)


def test_xz_file_is_decompressed_by_read_libsvm(tmp_path):
    """read_libsvm documents .xz; the compiled parser decompresses only .gz / .bz2 itself."""
    plain = _write(tmp_path, _text(), "")
    packed = _write(tmp_path, _text(), ".xz")
    for a, b in zip(read_libsvm(plain), read_libsvm(packed)):
        assert np.array_equal(a, b)


def test_zero_based_and_n_features(tmp_path):
    path = _write(tmp_path, _text(zero_based=True), "")
    X, y = read_libsvm(path, zero_based=True, n_features=25, pad_features=True)
    Xc, yc = _concat(iter_libsvm(path, chunk_rows=9, zero_based=True, n_features=25, pad_features=True,
                                 sparse=False), False)
    assert np.array_equal(Xc, X) and np.array_equal(yc, y) and Xc.shape[1] == 25


@pytest.mark.parametrize("kwargs", [dict(n_features=5), dict(n_features=30)])
def test_feature_count_errors_are_read_libsvms(tmp_path, kwargs):
    path = _write(tmp_path, _text(), "")
    with pytest.raises(LibsvmFileError) as whole:
        read_libsvm(path, **kwargs)
    with pytest.raises(LibsvmFileError) as chunked:
        next(iter_libsvm(path, chunk_rows=10, **kwargs))
    assert str(chunked.value) == str(whole.value)


@pytest.mark.parametrize("bad", ["1 3:nan", "1 0:2.5", "1 2:1 x", "abc 1:1", "1 4:1 2:1"])
@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_bad_line_named_by_its_number_in_the_file(tmp_path, bad, suffix):
    lines = _text(n=60).decode().splitlines(keepends=True)
    lines.insert(50, bad + "\n")           # far past the first chunks
    path = _write(tmp_path, "".join(lines).encode(), suffix)
    with pytest.raises(LibsvmFileError) as chunked:
        list(iter_libsvm(path, chunk_rows=4))
    assert f"{path}, line 51: " in str(chunked.value)
    with pytest.raises(LibsvmFileError) as scanned:
        scan_libsvm(path, chunk_rows=4)
    assert str(scanned.value) == str(chunked.value)
    with pytest.raises(LibsvmFileError) as whole:
        read_libsvm(path)
    assert str(chunked.value) == str(whole.value)


def test_truncated_compressed_file(tmp_path):
    path = _write(tmp_path, _text(n=3000), ".gz")
    path.write_bytes(path.read_bytes()[:-200])
    with pytest.raises(LibsvmFileError, match="damaged or truncated compressed file"):
        list(iter_libsvm(path, chunk_rows=100))


def test_chunk_order_and_summary(tmp_path):
    path = _write(tmp_path, _text(), ".bz2")
    summary = scan_libsvm(path, chunk_rows=10)
    X, y = read_libsvm(path)
    assert (summary.n_rows, summary.n_features, len(summary.chunks)) == (103, 20, 11)
    assert np.array_equal(summary.labels, np.unique(y))
    assert summary.variance() == pytest.approx(float(np.var(X)), rel=1e-13, abs=0)
    chunks = list(iter_libsvm(path, chunk_rows=10, sparse=False, summary=summary, order=[10, 0, 3]))
    for (Xc, yc), k in zip(chunks, [10, 0, 3]):
        assert np.array_equal(Xc, X[10 * k:10 * k + 10]) and np.array_equal(yc, y[10 * k:10 * k + 10])
    with pytest.raises(ValueError, match="chunk_rows"):
        next(iter_libsvm(path, chunk_rows=5, summary=summary))


@pytest.mark.parametrize("value", [0, -3, 2.5, True, "10"])
def test_chunk_rows_checked(tmp_path, value):
    path = _write(tmp_path, _text(n=5), "")
    with pytest.raises(ValueError, match="chunk_rows"):
        next(iter_libsvm(path, chunk_rows=value))


def _generated(path, n, d=50, seed=1):
    rng = np.random.default_rng(seed)
    with open(path, "w") as fh:
        for start in range(0, n, 1000):
            block = rng.normal(size=(min(1000, n - start), d))
            fh.write("".join(f"{1 if r[0] > 0 else -1} " + " ".join(f"{j + 1}:{v:.17g}" for j, v in
                                                                       enumerate(r)) + "\n" for r in block))
    return path


def _peak(path, chunk_rows):
    next(iter_libsvm(path, chunk_rows=1))             # imports done before tracing
    tracemalloc.start()
    try:
        rows = sum(X.shape[0] for X, _ in iter_libsvm(path, chunk_rows=chunk_rows, sparse=False))
        return tracemalloc.get_traced_memory()[1], rows
    finally:
        tracemalloc.stop()


def test_memory_follows_the_chunk_not_the_file(tmp_path):
    """Peak traced memory (pre-pass and reading) with 100-row chunks: far below the file's size,
    and not growing with it (4x the rows)."""
    small = _generated(tmp_path / "small.txt", 1_500)
    large = _generated(tmp_path / "large.txt", 6_000)
    peak_small, rows_small = _peak(small, 100)
    peak_large, rows_large = _peak(large, 100)
    assert (rows_small, rows_large) == (1_500, 6_000)
    size = large.stat().st_size                       # about 6 MB; its dense matrix 2.4 MB
    assert peak_large < size / 10, (peak_large, size)
    assert peak_large < 1.5 * peak_small + 100_000, (peak_small, peak_large)


def test_dtype_of_the_chunks(tmp_path):
    path = _write(tmp_path, _text(), "")
    X, _ = read_libsvm(path)
    for sparse in (True, False):
        Xc, _ = _concat(iter_libsvm(path, chunk_rows=10, sparse=sparse, dtype=np.float32), sparse)
        assert Xc.dtype == np.float32
        assert np.array_equal(Xc.toarray() if sparse else Xc, X.astype(np.float32))
