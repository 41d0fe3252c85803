"""Subject: io -- training from a LIBSVM file in chunks (refsvm.stream.fit_stream).

Streaming in file order must be the in-memory partial_fit over the same blocks, bitwise; the
shuffles deterministic from random_state and each epoch a permutation of the file's rows; the
pre-pass's gamma='scale' that of the whole data (not of the first chunk); the classes those of
the whole file.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm import BSCAClassifier, BudgetedSVC, OnlineKernelClassifier
from refsvm.io.libsvm import read_libsvm
from refsvm.stream import fit_stream
from _helpers import libsvm_text


def _write(path, X, y):
    path.write_text(libsvm_text(X, y))
    return path


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(7)
    X = rng.normal(size=(240, 6))
    X[rng.random(X.shape) < 0.3] = 0.0
    y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)
    return _write(tmp_path / "train.txt", X, y)


def _model(est):
    m = est.model_
    sv = m.support_vectors.toarray() if sp.issparse(m.support_vectors) else np.asarray(m.support_vectors)
    return sv, np.asarray(m.coef), np.asarray(m.bias), m.gamma, est.t_


def _same(a, b):
    return all(np.array_equal(u, v) for u, v in zip(_model(a), _model(b)))


ESTIMATORS = [
    lambda: BudgetedSVC(budget=15, gamma=0.3, random_state=0),
    lambda: BSCAClassifier(budget=15, gamma=0.3, random_state=0),
    lambda: OnlineKernelClassifier(algorithm="projectron", budget=15, gamma=0.3, random_state=0),
]


@pytest.mark.parametrize("make", ESTIMATORS)
def test_one_chunk_is_in_memory_partial_fit(data, make):
    X, y = read_libsvm(data, sparse=True)
    streamed = fit_stream(make(), data, epochs=2, chunk_rows=1000)
    memory = make()
    memory.partial_fit(X, y, classes=np.unique(y))
    memory.partial_fit(X, y)
    assert _same(streamed, memory)


@pytest.mark.parametrize("make", ESTIMATORS[:2])
def test_chunks_in_file_order_are_partial_fit_over_the_blocks(data, make):
    X, y = read_libsvm(data, sparse=True)
    streamed = fit_stream(make(), data, epochs=2, chunk_rows=50)
    memory = make()
    for _ in range(2):
        for start in range(0, X.shape[0], 50):
            memory.partial_fit(X[start:start + 50], y[start:start + 50], classes=np.unique(y))
    assert _same(streamed, memory)
    whole = fit_stream(make(), data, epochs=2, chunk_rows=1000)
    assert not _same(streamed, whole)              # the blocks do matter: the test can tell


class _Recorder:
    """A stand-in estimator recording the rows (by their first feature) passed to partial_fit."""

    def __init__(self):
        self.seen = []
        self.classes = None

    def partial_fit(self, X, y, classes=None):
        self.classes = classes
        self.seen.append(np.asarray(X[:, 0].todense()).ravel() if sp.issparse(X) else X[:, 0].copy())
        return self


def _orders(data, shuffle, seed, epochs=2, chunk_rows=30, buffer_rows=45):
    rec = _Recorder()
    fit_stream(rec, data, epochs=epochs, chunk_rows=chunk_rows, shuffle=shuffle, buffer_rows=buffer_rows,
               random_state=seed, sparse=False)
    return rec.seen


@pytest.mark.parametrize("shuffle", ["chunks", "buffer", "both"])
def test_shuffles_are_deterministic_permutations(data, shuffle):
    X, _ = read_libsvm(data)
    first = _orders(data, shuffle, 3)
    assert all(np.array_equal(a, b) for a, b in zip(first, _orders(data, shuffle, 3)))
    other = np.concatenate(_orders(data, shuffle, 4))
    assert not np.array_equal(np.concatenate(first), other)
    per_epoch = np.concatenate(first).reshape(2, -1)
    for epoch in per_epoch:                        # every row once per epoch, in a new order
        assert np.array_equal(np.sort(epoch), np.sort(X[:, 0]))
        assert not np.array_equal(epoch, X[:, 0])
    assert not np.array_equal(per_epoch[0], per_epoch[1])
    assert max(len(c) for c in first) <= 30


def test_classes_passed_on_every_call(data):
    rec = _Recorder()
    fit_stream(rec, data, chunk_rows=100)
    assert np.array_equal(rec.classes, [-1.0, 1.0])


def test_no_shuffle_is_file_order(data):
    X, _ = read_libsvm(data)
    seen = _orders(data, "none", 0, epochs=1)
    assert [len(c) for c in seen] == [30] * 8 and np.array_equal(np.concatenate(seen), X[:, 0])


def test_gamma_scale_from_the_whole_file(data, tmp_path):
    X, y = read_libsvm(data)
    streamed = fit_stream(BudgetedSVC(budget=15, random_state=0), data, chunk_rows=40)
    assert streamed.gamma == "scale"
    expected = 1.0 / (X.shape[1] * np.var(X))       # numpy's two-pass variance of all entries
    assert streamed.gamma_ == pytest.approx(expected, rel=1e-13, abs=0)
    first_chunk = 1.0 / (X.shape[1] * np.var(X[:40]))
    assert abs(first_chunk - expected) > 1e-6 * expected
    in_memory = BudgetedSVC(budget=15, random_state=0).fit(X, y)
    assert streamed.gamma_ == pytest.approx(in_memory.gamma_, rel=1e-13, abs=0)


def test_classes_from_the_whole_file(tmp_path):
    """The first chunk holds one class only; partial_fit still gets both (from the pre-pass)."""
    X = np.arange(1, 41, dtype=float).reshape(-1, 1)
    y = np.where(np.arange(40) < 25, -1.0, 1.0)
    path = _write(tmp_path / "sorted.txt", X, y)
    est = fit_stream(BudgetedSVC(budget=5, gamma=0.5, random_state=0), path, chunk_rows=10)
    assert np.array_equal(est.classes_, [-1.0, 1.0])


@pytest.mark.parametrize("kwargs, match", [
    (dict(shuffle="random"), "shuffle"), (dict(chunk_rows=0), "chunk_rows"), (dict(epochs=1.5), "epochs"),
    (dict(shuffle="buffer", buffer_rows=-1), "buffer_rows")])
def test_bad_arguments(data, kwargs, match):
    with pytest.raises(ValueError, match=match):
        fit_stream(BudgetedSVC(), data, **kwargs)


def test_estimator_without_partial_fit(data):
    with pytest.raises(TypeError, match="partial_fit"):
        fit_stream(object(), data)
