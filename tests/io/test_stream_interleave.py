"""Subject: io -- fit_stream's shuffle="interleave": chunks put together from pieces read at random places.

The visiting order of an epoch is a permutation of the file's rows (each row once), and each chunk
mixes many stretches of the file where "both" (chunk order and buffer) gives each chunk one or two:
checked on a file whose rows carry their own line number, so the order is read directly from the
chunks handed to partial_fit.  The options are checked (a compressed file is refused, naming why).
"""

import bz2

import numpy as np
import pytest

from refsvm.stream import fit_stream

ROWS, CHUNK, PIECE = 2000, 200, 20


class Recorder:
    """An estimator that keeps the line numbers (feature 1) of each chunk given to partial_fit."""

    def __init__(self):
        self.chunks = []

    def partial_fit(self, X, y, classes=None):
        X = X.toarray() if hasattr(X, "toarray") else X
        self.chunks.append(X[:, 0].astype(int))
        assert np.array_equal(y, np.where(X[:, 0] % 2, 1.0, -1.0))     # rows stay whole
        return self


@pytest.fixture(scope="module")
def numbered(tmp_path_factory):
    path = tmp_path_factory.mktemp("interleave") / "numbered.txt"
    with open(path, "w") as fh:
        for i in range(ROWS):
            fh.write(f"{1 if i % 2 else -1} 1:{i} 2:{(i * 7) % 13 + 1}\n")
    return path


def _order(path, shuffle, seed, epochs=1, **kw):
    rec = Recorder()
    fit_stream(rec, path, shuffle=shuffle, chunk_rows=CHUNK, buffer_rows=CHUNK, random_state=seed, epochs=epochs,
               **kw)
    return rec.chunks


def _stretches_per_chunk(chunks):
    """Mean over the chunks of the effective number of CHUNK-row stretches of the file (line // CHUNK)
    a chunk's rows come from: 1 / sum of the squared shares (1: one stretch; a uniform sample of the
    file's ten: about 9.6)."""
    out = []
    for c in chunks:
        share = np.unique(c // CHUNK, return_counts=True)[1] / c.size
        out.append(1.0 / np.sum(share * share))
    return np.mean(out)


@pytest.mark.parametrize("seed", [0, 1])
def test_each_epoch_is_a_permutation_of_the_rows(numbered, seed):
    chunks = _order(numbered, "interleave", seed, epochs=2, piece_rows=PIECE)
    rows = np.concatenate(chunks)
    assert rows.size == 2 * ROWS
    assert all(c.size <= CHUNK for c in chunks)
    for epoch in (rows[:ROWS], rows[ROWS:]):
        assert np.array_equal(np.sort(epoch), np.arange(ROWS))
    assert not np.array_equal(rows[:ROWS], rows[ROWS:])            # a new order each epoch


def test_chunks_mix_many_stretches_of_the_file(numbered):
    """With ten stretches of CHUNK rows in the file, an interleaved chunk (CHUNK / PIECE = 10 pieces at
    random places, then the buffer) draws on about 8 of them; "both"'s chunks come from the chunk just
    read and the buffer, which keeps half of its rows a step (shares 1/2, 1/4, ...: about 3)."""
    both = np.mean([_stretches_per_chunk(_order(numbered, "both", s)) for s in range(3)])
    inter = np.mean([_stretches_per_chunk(_order(numbered, "interleave", s, piece_rows=PIECE)) for s in range(3)])
    assert both < 3.5
    assert inter > 6.0
    # the last chunk of the epoch (the steps that weigh most): its rows spread over the file
    last = _order(numbered, "interleave", 4, piece_rows=PIECE)[-1]
    assert np.ptp(last) > ROWS / 2


def test_same_seed_same_order_and_default_pieces(numbered):
    a = _order(numbered, "interleave", 9)                  # piece_rows = CHUNK // 100 = 2
    b = _order(numbered, "interleave", 9)
    assert all(np.array_equal(x, y) for x, y in zip(a, b)) and len(a) == len(b)
    assert _stretches_per_chunk(a) > 8.0


@pytest.mark.parametrize("kw, message", [
    (dict(shuffle="interleave", piece_rows=CHUNK + 1), "piece_rows must be <= chunk_rows"),
    (dict(shuffle="interleave", piece_rows=0), "piece_rows must be an integer >= 1"),
    (dict(shuffle="both", piece_rows=PIECE), "piece_rows is an option of shuffle='interleave'"),
])
def test_bad_options_are_named(numbered, kw, message):
    with pytest.raises(ValueError, match=message):
        fit_stream(Recorder(), numbered, chunk_rows=CHUNK, **kw)


def test_a_compressed_file_is_refused(numbered, tmp_path):
    packed = tmp_path / "numbered.txt.bz2"
    packed.write_bytes(bz2.compress(numbered.read_bytes()))
    with pytest.raises(ValueError, match="compressed.*decompress it first"):
        fit_stream(Recorder(), packed, chunk_rows=CHUNK, shuffle="interleave")
