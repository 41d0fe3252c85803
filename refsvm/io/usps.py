"""LIBSVM's usps from the shared one: the same digits, blurred.

The shared ``usps`` / ``usps.t`` (``$REFSVM_DATA``) are the USPS digits of *The Elements of Statistical
Learning* (ESL's ``zip.train`` / ``zip.test``: 16 x 16 grey levels in [-1, 1], three decimals, the background
exactly -1).  LIBSVM's ``usps`` / ``usps.t``, the files Lu et al. (2016) and Wang et al. (2012) ran, hold the
same 7,291 / 2,007 digits in the same order (labels 1..10 for the digits 0..9), but not the same pixels: each
LIBSVM image is the ESL image convolved with a normalised Gaussian::

    x_libsvm[i, j] = sum over a, b in -3..3 of w(a) w(b) x_esl[i + a, j + b],
    w(a) = exp(-a^2 / (2 sigma^2)) / (sum over c in -3..3 of exp(-c^2 / (2 sigma^2))),  sigma = 0.75 pixel,

with the pixels beyond the image's border at the background value -1, and printed with six decimals.

How this was found (``benchmarks/bench_usps_libsvm.py``, ``benchmarks/results/bench_usps_libsvm.txt``): a
free 7 x 7 linear filter (49 weights and an offset) fitted by least squares to the first 299 rows of LIBSVM's
``usps.t`` (a copy in the public repository akshay25vyas/learning_from_unseen_features) against the same rows of
the shared ``usps.t`` predicts held-out rows to 7.5e-7 (the files' last printed digit is 1e-6); its weights are
this separable Gaussian (the log ratios of neighbouring weights are 8/9, 32/9 and 72/9, i.e. ``1 / (2 sigma^2)
= 8/9``), they sum to 1 and the offset is 0.  The closed form reproduces every value of those rows, and of the
first rows of LIBSVM's training file, to the last printed digit (``tests/io/test_usps.py`` quotes some).

A blur is no rescaling of the pixel columns: it shrinks the distances between images (the mean squared distance
by about 0.56 here), and it does so unevenly, so no kernel width of the shared file stands in for it.
"""

import numpy as np
import scipy.sparse as sp

__all__ = ["USPS_BLUR_SIGMA", "USPS_BLUR_RADIUS", "USPS_BACKGROUND", "usps_blur_weights", "libsvm_usps_pixels"]

#: The Gaussian's standard deviation, in pixels
USPS_BLUR_SIGMA = 0.75
#: The filter's half width: a 7 x 7 window
USPS_BLUR_RADIUS = 3
#: ESL's background grey level, taken for the pixels beyond the image's border
USPS_BACKGROUND = -1.0
_SIDE = 16


def usps_blur_weights(sigma=USPS_BLUR_SIGMA, radius=USPS_BLUR_RADIUS):
    """The 1-d filter ``w(a)``, ``a = -radius..radius``: ``exp(-a^2 / (2 sigma^2))`` normalised to sum 1 (the
    2-d filter is its outer product)."""
    a = np.arange(-radius, radius + 1, dtype=float)
    w = np.exp(-a ** 2 / (2.0 * sigma ** 2))
    return w / w.sum()


def libsvm_usps_pixels(X, *, decimals=6):
    """LIBSVM's usps pixels from the shared (ESL) ones: the Gaussian blur of the module docstring.

    Parameters
    ----------
    X : array or sparse matrix of shape (n, 256)
        Rows of the shared ``usps`` or ``usps.t`` (16 x 16 images, row by row); a sparse matrix (e.g.
        ``load_libsvm("usps", sparse=True)``) is read densely (a blurred image has no zero pixels).
    decimals : int or None, default 6
        Round as LIBSVM's files print; None keeps the unrounded blur.

    Returns
    -------
    ndarray of shape (n, 256), float64, C-contiguous
    """
    if sp.issparse(X):
        X = X.toarray()
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != _SIDE * _SIDE:
        raise ValueError(f"X must have shape (n, {_SIDE * _SIDE}) (16 x 16 usps images), got {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X holds NaN or infinity")
    w = usps_blur_weights()
    r = USPS_BLUR_RADIUS
    images = np.pad(X.reshape(-1, _SIDE, _SIDE), ((0, 0), (r, r), (r, r)), constant_values=USPS_BACKGROUND)
    rows = sum(w[k] * images[:, :, k:k + _SIDE] for k in range(2 * r + 1))      # along each image row
    blurred = sum(w[k] * rows[:, k:k + _SIDE, :] for k in range(2 * r + 1))    # then along each column
    out = blurred.reshape(len(X), _SIDE * _SIDE)
    if decimals is not None:
        out = np.round(out, decimals)
    return np.ascontiguousarray(out)
