"""Subject: io -- the visiting order of refsvm.fit_stream and the estimator's own generator.

One integer seed given to both fit_stream and the estimator (as ``refsvm train --stream --random-state N``
does) must not make the stream's shuffle draw the numbers the estimator draws: the order is that of
an independent generator, not of ``numpy.random.default_rng(seed)``.
"""

import numpy as np
import pytest

from refsvm.io.libsvm import read_libsvm
from refsvm.stream import fit_stream, stream_rng
from _helpers import libsvm_text


class _Recorder:
    def partial_fit(self, X, y, classes=None):
        self.seen.append(X[:, 0].copy())
        return self


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(200, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    path = tmp_path / "train.txt"
    path.write_text(libsvm_text(X, y, skip_zeros=False))
    return path


def _buffer_order(column, chunk_rows, buffer_rows, rng):
    """The "buffer" shuffle written out for one column: each chunk with the buffer, permuted by ``rng``."""
    out, held = [], column[:0]
    for start in range(0, len(column), chunk_rows):
        block = np.concatenate([held, column[start:start + chunk_rows]])
        perm = rng.permutation(len(block))
        keep = max(len(block) - buffer_rows, 0)
        out.append(block[perm[:keep]])
        held = block[perm[keep:]]
    return np.concatenate(out + [held])


def test_one_seed_for_both_draws_unrelated_numbers(data):
    X, _ = read_libsvm(data)
    rec = _Recorder()
    rec.seen = []
    fit_stream(rec, data, chunk_rows=20, shuffle="buffer", buffer_rows=30, random_state=5, sparse=False)
    seen = np.concatenate(rec.seen)
    assert np.array_equal(np.sort(seen), np.sort(X[:, 0]))
    # the order default_rng(5) -- the estimator's generator for random_state=5 -- would give
    same = _buffer_order(X[:, 0], 20, 30, np.random.default_rng(5))
    assert not np.array_equal(seen, same)
    # and the order of the stream's own generator
    assert np.array_equal(seen, _buffer_order(X[:, 0], 20, 30, stream_rng(5)))


def test_stream_rng():
    a, b = stream_rng(5), np.random.default_rng(5)
    assert not np.array_equal(a.random(8), b.random(8))
    assert np.array_equal(stream_rng(5).random(8), stream_rng(5).random(8))
    g = np.random.default_rng(1)
    assert stream_rng(g) is g
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError, match="random_state"):
            stream_rng(bad)
