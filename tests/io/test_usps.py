"""refsvm.io.usps: LIBSVM's usps pixels from the shared (ESL) usps, a Gaussian blur.

The closed form is checked against a direct 2-d convolution written apart (every output pixel a double sum
over its 7 x 7 window with the 2-d weights exp(-(a^2 + b^2) / (2 sigma^2)), normalised, and -1 beyond the
border), and against values printed in LIBSVM's own files (external numbers, quoted below with their source).
"""

import numpy as np
import pytest

from refsvm.io.usps import USPS_BLUR_SIGMA, libsvm_usps_pixels, usps_blur_weights

#: LIBSVM's usps (training file), its first two rows' first pixels, as printed there (a dense copy of the file in
#: the public repository ikopriva/NMMSC, datasets/usps at 914b5e7; its labels 7 and 6 are the digits 6 and 5)
LIBSVM_TRAIN_ROW0 = [-1.0, -1.0, -1.0, -0.999997, -0.999729, -0.989537, -0.860165, -0.395924, 0.048299, -0.282151,
                     -0.816919, -0.988564, -0.999869, -1.0, -1.0, -1.0, -1.0, -1.0, -0.999999, -0.999891, -0.996208,
                     -0.94284, -0.612719, 0.130807, 0.512043, -0.042048, -0.757812, -0.98488, -0.999826, -1.0, -1.0,
                     -1.0]
LIBSVM_TRAIN_ROW1 = [-0.999927, -0.993644, -0.900309, -0.632621, -0.443145, -0.454436, -0.474872, -0.431176,
                     -0.494539, -0.583648, -0.568653, -0.400266, -0.155455, -0.086001, -0.369077, -0.822611]
#: ... and its last two rows' first 32 pixels (the same copy, its end; labels 1 and 2: the digits 0 and 1)
LIBSVM_TRAIN_LAST = [
    [-0.999999, -0.999893, -0.995429, -0.936965, -0.713894, -0.305757, 0.167694, 0.455352, 0.517687, 0.383637,
     -0.066624, -0.584689, -0.899662, -0.989806, -0.999483, -0.999985, -0.999981, -0.998567, -0.968162, -0.73157,
     -0.132419, 0.436198, 0.787456, 0.936013, 0.963343, 0.904196, 0.650612, 0.122815, -0.542332, -0.899886,
     -0.988123, -0.999319],
    [-1.0, -1.0, -0.999874, -0.988997, -0.822074, -0.269159, 0.26666, 0.156347, -0.397819, -0.775895, -0.947319,
     -0.995359, -0.999849, -0.999999, -1.0, -1.0, -1.0, -1.0, -0.999844, -0.986346, -0.778288, -0.074786, 0.672298,
     0.761322, 0.362212, -0.19456, -0.728143, -0.959561, -0.997945, -0.999977, -1.0, -1.0]]
#: LIBSVM's usps.t, its first row's first 16 pixels (label 10, the digit 9; the copy in the public repository
#: akshay25vyas/learning_from_unseen_features, usps.t at 10a1753, the file's first 299 rows)
LIBSVM_TEST_ROW0 = [-0.999999, -0.999928, -0.997885, -0.973729, -0.855772, -0.597416, -0.289254, 0.001891, 0.199196,
                    0.292162, 0.05841, -0.398885, -0.782804, -0.958667, -0.997106, -0.99993]
#: the files print six decimals; LIBSVM's last digit and the closed form's rounding differ by one unit on about
#: 6 % of the values (benchmarks/results/bench_usps_libsvm.txt)
PRINTED = 1e-6 + 1e-12


def direct_blur(X, sigma=USPS_BLUR_SIGMA, radius=3):
    """Each output pixel as the double sum over its window, the 2-d weights normalised over the window."""
    a = np.arange(-radius, radius + 1)
    W = np.exp(-(a[:, None] ** 2 + a[None, :] ** 2) / (2 * sigma ** 2))
    W /= W.sum()
    out = np.empty_like(X, dtype=float)
    for n, x in enumerate(X):
        image = x.reshape(16, 16)
        for i in range(16):
            for j in range(16):
                total = 0.0
                for u, da in enumerate(a):
                    for v, db in enumerate(a):
                        ii, jj = i + da, j + db
                        inside = 0 <= ii < 16 and 0 <= jj < 16
                        total += W[u, v] * (image[ii, jj] if inside else -1.0)
                out[n, 16 * i + j] = total
    return out


def test_closed_form_equals_a_direct_convolution():
    rng = np.random.default_rng(0)
    X = np.round(rng.uniform(-1, 1, size=(4, 256)), 3)
    X[0] = -1.0                                           # the background alone
    X[1, :40] = 1.0                                       # ink on the border rows
    np.testing.assert_allclose(libsvm_usps_pixels(X, decimals=None), direct_blur(X), rtol=0, atol=1e-14)
    np.testing.assert_array_equal(libsvm_usps_pixels(X), np.round(direct_blur(X), 6))
    assert np.all(libsvm_usps_pixels(X)[0] == -1.0)       # weights sum to 1: the background is kept


def test_weights_are_the_normalised_gaussian():
    w = usps_blur_weights()
    assert len(w) == 7 and abs(w.sum() - 1.0) < 1e-15
    np.testing.assert_allclose(np.log(w[3] / w[4:]), [8 / 9, 32 / 9, 72 / 9], rtol=1e-12)
    np.testing.assert_allclose(w, w[::-1], rtol=0, atol=0)


def test_sparse_rows_give_the_dense_result():
    import scipy.sparse as sp

    rng = np.random.default_rng(1)
    X = np.where(rng.random((3, 256)) < 0.6, 0.0, np.round(rng.uniform(-1, 1, (3, 256)), 3))
    np.testing.assert_array_equal(libsvm_usps_pixels(sp.csr_matrix(X)), libsvm_usps_pixels(X))


@pytest.mark.parametrize("bad, match", [(np.zeros((2, 255)), "shape"), (np.zeros(256), "shape"),
                                        (np.full((1, 256), np.nan), "NaN")])
def test_bad_input_is_named(bad, match):
    with pytest.raises(ValueError, match=match):
        libsvm_usps_pixels(bad)


def test_reproduces_values_printed_in_libsvm_files(require_data):
    X, y, X_test, y_test = require_data("usps")
    assert list(y[:2]) == [6, 5] and y_test[0] == 9           # LIBSVM's labels 7, 6 and 10, less 1
    train = libsvm_usps_pixels(X[:2])
    np.testing.assert_allclose(train[0, :32], LIBSVM_TRAIN_ROW0, rtol=0, atol=PRINTED)
    np.testing.assert_allclose(train[1, :16], LIBSVM_TRAIN_ROW1, rtol=0, atol=PRINTED)
    assert len(y) == 7291 and list(y[-2:]) == [0, 1]
    np.testing.assert_allclose(libsvm_usps_pixels(X[-2:])[:, :32], LIBSVM_TRAIN_LAST, rtol=0, atol=PRINTED)
    np.testing.assert_allclose(libsvm_usps_pixels(X_test[:1])[0, :16], LIBSVM_TEST_ROW0, rtol=0, atol=PRINTED)
    # and the shared file's own pixels are not LIBSVM's: the test would fail without the blur
    assert np.abs(X[0, :32] - LIBSVM_TRAIN_ROW0).max() > 0.1
