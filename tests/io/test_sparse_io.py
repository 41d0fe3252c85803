"""Sparse input, first pieces: the LIBSVM reader's CSR output and the text-like generator."""

import bz2

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm.datasets import text_like
from refsvm.io.libsvm import LibsvmFileError, read_libsvm


def test_reader_csr_equals_dense(tmp_path):
    path = tmp_path / "d.svm"
    path.write_text("1 1:2 3:0.5\n-1 2:1\n1 4:0\n")          # an explicit zero is not stored
    X, y = read_libsvm(path, sparse=True)
    D, y2 = read_libsvm(path)
    assert sp.isspmatrix_csr(X) and X.has_canonical_format and X.nnz == 3
    np.testing.assert_array_equal(X.toarray(), D)
    np.testing.assert_array_equal(y, y2)


def test_reader_csr_never_densifies_a_wide_file(tmp_path):
    path = tmp_path / "wide.svm.bz2"
    path.write_bytes(bz2.compress(b"1 1:1 2000000:3\n-1 999999:2\n"))
    with pytest.raises(LibsvmFileError, match="dense"):
        read_libsvm(path, max_memory=2**20)
    X, y = read_libsvm(path, sparse=True, max_memory=2**20)
    assert X.shape == (2, 2000000) and X[0, 1999999] == 3.0 and X[1, 999998] == 2.0


def test_text_like_is_documented_set():
    X, y = text_like(500, 100000, 30, random_state=0)
    assert sp.isspmatrix_csr(X) and X.shape == (500, 100000) and X.has_canonical_format
    counts = np.diff(X.indptr)
    assert counts.max() == 30 and counts.min() >= 25                 # nnz distinct columns a row
    np.testing.assert_allclose(np.sqrt(X.multiply(X).sum(axis=1)).A1, 1.0, rtol=1e-12)
    assert (X.data > 0).all()
    assert abs((y == 1).mean() - 0.5) <= 0.01                        # balanced by the median rule
    # Zipf: low column indices are the frequent ones
    freq = np.bincount(X.indices, minlength=100000)
    assert freq[:100].sum() > freq[-50000:].sum()
    X2, y2 = text_like(500, 100000, 30, random_state=0)
    assert (X2 != X).nnz == 0 and np.array_equal(y, y2)


def test_text_like_labels_follow_a_linear_rule():
    from sklearn.svm import LinearSVC

    X, y = text_like(2000, 2000, 20, random_state=1)
    acc = LinearSVC(C=10.0).fit(X[:1500], y[:1500]).score(X[1500:], y[1500:])
    assert acc > 0.7                                                   # a hidden rule, learnable


@pytest.mark.parametrize("kwargs, name", [(dict(n=0, d=5, nnz=1), "n"), (dict(n=5, d=5, nnz=6), "nnz"),
                                          (dict(n=5, d=5, nnz=2, zipf=-1.0), "zipf"),
                                          (dict(n=5, d=5, nnz=2, label_noise=0.5), "label_noise")])
def test_text_like_bad_arguments_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        text_like(**kwargs)
