"""io: the synthetic data generators (checkerboard, Gauss mixture, Breiman's waveform) against their
definitions -- class balance and moments from the formulas, determinism, chunked generation."""

import numpy as np
import pytest

from refsvm.datasets import checkerboard, gauss_mixture, generate_chunks, waveform

N = 60000
Z = 5.0          # tolerance in standard errors: a correct generator fails a check with probability < 1e-6


def _h(m, shift):
    """Breiman et al. (1984, section 2.6.2), written out here: h1(m) = max(6 - |m - 11|, 0), h2(m) = h1(m - 4),
    h3(m) = h1(m + 4); ``shift`` is 0, 4, -4 for h1, h2, h3."""
    return np.maximum(6.0 - np.abs(m - shift - 11.0), 0.0)


M = np.arange(1, 22, dtype=float)
H1, H2, H3 = _h(M, 0), _h(M, 4), _h(M, -4)
PAIRS = {0: (H1, H2), 1: (H1, H3), 2: (H2, H3)}     # class -> (h_a, h_b), the documented labelling


def _balance(y, labels, p):
    for c in labels:
        k = np.sum(y == c)
        assert abs(k - p * len(y)) <= Z * np.sqrt(len(y) * p * (1 - p)), (c, k)


def test_waveform_class_balance_and_shape():
    X, y = waveform(N, random_state=0)
    assert X.shape == (N, 21) and X.dtype == np.float64 and y.dtype == np.int64
    assert set(np.unique(y)) == {0, 1, 2}
    _balance(y, (0, 1, 2), 1 / 3)


@pytest.mark.parametrize("c", [0, 1, 2])
def test_waveform_moments_match_the_formula(c):
    """x = u h_a + (1 - u) h_b + e: mean (h_a + h_b) / 2, covariance (h_a - h_b)(h_a - h_b)^T / 12 + I."""
    X, y = waveform(N, random_state=1)
    Xc = X[y == c]
    n = len(Xc)
    ha, hb = PAIRS[c]
    d = ha - hb
    mean = (ha + hb) / 2
    cov = np.outer(d, d) / 12 + np.eye(21)
    se_mean = np.sqrt(np.diag(cov) / n)
    assert np.all(np.abs(Xc.mean(0) - mean) <= Z * se_mean)
    emp = np.cov(Xc, rowvar=False)
    # se of a sample covariance of (near) normal variables: sqrt((s_ii s_jj + s_ij^2) / n); u is uniform, so
    # use 2x that as a safe bound for the fourth moments
    se_cov = 2 * np.sqrt((np.outer(np.diag(cov), np.diag(cov)) + cov ** 2) / n)
    assert np.all(np.abs(emp - cov) <= Z * se_cov)


def test_waveform_classes_are_the_documented_pairs():
    """Attribute 11 (the peak of h1) separates the classes: mean 3 for (h1, h2) and (h1, h3), 1 for (h2, h3)."""
    X, y = waveform(30000, random_state=2)
    means = [X[y == c, 10].mean() for c in (0, 1, 2)]
    assert np.allclose(means, [(H1[10] + H2[10]) / 2, (H1[10] + H3[10]) / 2, (H2[10] + H3[10]) / 2], atol=0.1)
    # h2 peaks at m = 15, h3 at m = 7: class 0 (h1, h2) is high at 15, class 1 (h1, h3) at 7
    assert X[y == 0, 14].mean() > 2.5 > X[y == 0, 6].mean()
    assert X[y == 1, 6].mean() > 2.5 > X[y == 1, 14].mean()


def test_gauss_mixture_moments():
    """Wang et al. (2012, section 7.2): N((0, 0), I) and N((2, 0), 4 I), equal priors."""
    X, y = gauss_mixture(N, random_state=3)
    _balance(y, (-1, 1), 0.5)
    for label, mu, var in ((1, (0.0, 0.0), 1.0), (-1, (2.0, 0.0), 4.0)):
        Xc = X[y == label]
        n = len(Xc)
        assert np.all(np.abs(Xc.mean(0) - mu) <= Z * np.sqrt(var / n))
        emp = np.cov(Xc, rowvar=False)
        se = np.sqrt(2 * var ** 2 / n)
        assert np.all(np.abs(np.diag(emp) - var) <= Z * se)
        assert abs(emp[0, 1]) <= Z * np.sqrt(var ** 2 / n)


def test_checkerboard_rule_and_balance():
    X, y = checkerboard(N, random_state=4)
    assert np.all((X >= 0) & (X < 1))
    i, j = np.floor(4 * X[:, 0]), np.floor(4 * X[:, 1])
    assert np.array_equal(y, np.where((i + j) % 2 == 0, 1, -1))
    _balance(y, (-1, 1), 0.5)
    assert np.all(np.abs(X.mean(0) - 0.5) <= Z * np.sqrt(1 / 12 / N))


@pytest.mark.parametrize("gen", [checkerboard, gauss_mixture, waveform])
def test_generators_are_deterministic(gen):
    a, b, c = gen(500, random_state=7), gen(500, random_state=7), gen(500, random_state=8)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])


@pytest.mark.parametrize("name", ["checkerboard", "gauss_mixture", "waveform"])
def test_chunks_cover_n_rows_deterministically(name):
    chunks = list(generate_chunks(name, 2501, chunk_size=1000, random_state=5))
    assert [len(y) for _, y in chunks] == [1000, 1000, 501]
    again = list(generate_chunks(name, 2501, chunk_size=1000, random_state=5))
    assert all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) for a, b in zip(chunks, again))
    X = np.vstack([x for x, _ in chunks])
    assert len(np.unique(X, axis=0)) == 2501                 # the chunks are not repeats of one another
    # one chunk holding all the rows is the generator's own call
    (Xw, yw), = generate_chunks(name, 2501, chunk_size=5000, random_state=5)
    from refsvm import datasets
    X1, y1 = getattr(datasets, name)(2501, random_state=5)
    assert np.array_equal(Xw, X1) and np.array_equal(yw, y1)


def test_chunked_waveform_has_the_distribution():
    y = np.concatenate([yc for _, yc in generate_chunks("waveform", 30000, chunk_size=7000, random_state=6)])
    _balance(y, (0, 1, 2), 1 / 3)


@pytest.mark.parametrize("kwargs, word", [
    (dict(name="spiral", n=10), "name"), (dict(name="waveform", n=-1), "n"), (dict(name="waveform", n=2.5), "n"),
    (dict(name="waveform", n=10, chunk_size=0), "chunk_size")])
def test_chunks_bad_input_names_the_parameter(kwargs, word):
    with pytest.raises(ValueError, match=f"^{word} must"):
        list(generate_chunks(**kwargs))


def test_waveform_bad_n():
    with pytest.raises(ValueError, match="^n must"):
        waveform(True)
