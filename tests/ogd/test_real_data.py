"""FOGD / NOGD on real data against the figures of Lu et al. (2016).

Protocols (all with the compiled backend; the paths agree, see
tests/ogd/test_agreement.py):

* **Batch, Table 3**: one pass over the training split in a random order,
  accuracy of the last model on the test split; B = 1000, k = 0.2 B = 200,
  D = 4000.  a9a: LIBSVM's split.  w8a: the shared folder has no test file;
  a fixed hold-out, ``default_rng(0).permutation(n)``, the last 20% for testing
  (9950 of 49749).  The paper's sigma and eta came from a 5-fold
  cross-validation it does not report; ours were chosen on a small grid
  (gamma in {1/128, 1/64, 1/32}, eta over a factor-2.5 ladder) and are
  written next to each test.  ``gamma = 1 / (2 sigma^2)``.
* **Online, Tables 5 / 7 / 9**: one pass over the whole data set in a random
  order, the mistake rate (or squared loss) of the predictions made before
  each update.  a9a: train + test (48842 examples, as the paper's Table 4),
  B = 100, k = 20, D = 400, bandwidth sigma = 8 (section 7.2.1), i.e.
  gamma = 1/128.
* Every figure is the mean over ``SEEDS`` visiting orders (the paper: 5
  permutations for Table 3, 20 for Tables 5, 7, 9).

BLAS runs single-threaded here (threadpoolctl): on a shared, loaded machine
OpenBLAS's spinning threads made one NOGD fit 10x slower (eigh of the
1000 x 1000 matrix and the test-set products).  Time: ~45 s in total on
the 2-core development machine.
"""

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from refsvm import FOGDClassifier, FOGDRegressor, NOGDClassifier, NOGDRegressor

SEEDS = (0, 1)


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def minmax(X, lo=-1.0, hi=1.0):
    """Scale every column to [lo, hi] (constant columns to lo), as LIBSVM's svm-scale."""
    mn, mx = X.min(axis=0), X.max(axis=0)
    span = np.where(mx > mn, mx - mn, 1.0)
    return lo + (hi - lo) * (X - mn) / span


def batch_accuracy(cls, X, y, Xt, yt, **kw):
    return np.mean([cls(random_state=s, **kw).fit(X, y).score(Xt, yt) for s in SEEDS])


def online_rate(cls, X, y, key="online_error_rate", **kw):
    return np.mean([cls(random_state=s, **kw).fit(X, y).trace_[0][key] for s in SEEDS])


# --------------------------------------------------------------- Table 3 (batch)

@pytest.mark.slow
def test_a9a_batch_table3(require_data):
    """Paper, Table 3 (a9a, B = 1000, D = 4000): FOGD 84.93%, NOGD 84.99%.
    Here gamma = 1/64 (sigma = 5.66); FOGD eta = 2e-4 (printed map), NOGD eta = 0.2.
    Measured (seeds 0, 1): FOGD 84.75%, NOGD 84.70%."""
    X, y, Xt, yt = require_data("a9a")
    fogd = batch_accuracy(FOGDClassifier, X, y, Xt, yt, n_components=4000, gamma=1 / 64, eta=2e-4)
    nogd = batch_accuracy(NOGDClassifier, X, y, Xt, yt, budget=1000, rank=200, gamma=1 / 64, eta=0.2)
    assert abs(100 * fogd - 84.93) <= 1.5, fogd
    assert abs(100 * nogd - 84.99) <= 1.5, nogd


@pytest.mark.slow
def test_w8a_batch_table3(require_data):
    """Paper, Table 3 (w8a, B = 1000, D = 4000): FOGD 97.93%, NOGD 98.36% (their
    split: 49749 / 14951; ours: the fixed 80/20 hold-out of the module notes).
    FOGD gamma = 1/128, eta = 2e-4; NOGD gamma = 1/32, eta = 0.2; one seed
    (seed 0) to stay within the CI budget.  Measured: FOGD 97.81%, NOGD 97.84%
    (seeds 0, 1: FOGD 97.81 / 98.22%, NOGD 97.84 / 97.93%)."""
    X, y, _, _ = require_data("w8a")
    perm = np.random.default_rng(0).permutation(len(X))
    m = int(0.8 * len(X))
    X, y, Xt, yt = X[perm[:m]], y[perm[:m]], X[perm[m:]], y[perm[m:]]
    fogd = FOGDClassifier(n_components=4000, gamma=1 / 128, eta=2e-4, random_state=0).fit(X, y).score(Xt, yt)
    nogd = NOGDClassifier(budget=1000, rank=200, gamma=1 / 32, eta=0.2, random_state=0).fit(X, y).score(Xt, yt)
    assert abs(100 * fogd - 97.93) <= 1.5, fogd
    assert abs(100 * nogd - 98.36) <= 1.5, nogd


# ------------------------------------------------------------ Tables 5, 7, 9 (online)

def test_a9a_online_table5(require_data):
    """Paper, Table 5 (a9a, 48842 examples, B = 100, D = 400, sigma = 8): FOGD and
    NOGD both 17.4% mistakes.  gamma = 1/128; FOGD eta = 0.002, NOGD eta = 0.2.
    Measured (seeds 0, 1): FOGD 17.42%, NOGD 17.44%."""
    X, y, Xt, yt = require_data("a9a")
    X, y = np.vstack([X, Xt]), np.concatenate([y, yt])
    fogd = online_rate(FOGDClassifier, X, y, n_components=400, gamma=1 / 128, eta=0.002)
    nogd = online_rate(NOGDClassifier, X, y, budget=100, rank=20, gamma=1 / 128, eta=0.2)
    assert abs(100 * fogd - 17.4) <= 1.5, fogd
    assert abs(100 * nogd - 17.4) <= 1.5, nogd


def test_satimage_online_table7(require_data):
    """Paper, Table 7 (satimage, 4435 examples, B = 200, D = 800 = 4B): FOGD 29.5%,
    NOGD 23.7% mistakes.  Features scaled to [-1, 1] (the raw file holds 27..157),
    gamma = 1/128 (the binary experiments' sigma = 8); FOGD eta = 2e-4, NOGD eta = 0.2.
    Measured (seeds 0, 1): FOGD 23.9% (better than the paper's figure: the
    assertion is one-sided for FOGD), NOGD 23.6%."""
    X, y, _, _ = require_data("satimage")
    X = minmax(X)
    fogd = online_rate(FOGDClassifier, X, y, n_components=800, gamma=1 / 128, eta=2e-4)
    nogd = online_rate(NOGDClassifier, X, y, budget=200, rank=40, gamma=1 / 128, eta=0.2)
    assert 100 * fogd <= 29.5 + 1.5, fogd
    assert abs(100 * nogd - 23.7) <= 1.5, nogd


def test_cpusmall_online_table9(require_data):
    """Paper, Table 9 (cpusmall, 8192 examples, B = 30, D = 15 B = 450, epsilon = 0.1):
    online squared loss FOGD 0.02577, NOGD 0.02559.  The paper's losses imply
    scaled targets: here features to [-1, 1] and targets to [0, 1] (min-max;
    the variance of the scaled target, the loss of predicting its mean, is
    0.0345).  gamma = 1/8 (sigma = 2); FOGD eta = 2e-4 (printed map; stable
    for eta < 1/D), NOGD eta = 0.1.  Measured (seeds 0, 1): FOGD 0.0211,
    NOGD 0.0188, both below the paper's figures; asserted: at most 10% above them."""
    X, y, _, _ = require_data("cpusmall")
    X = minmax(X)
    y = (y - y.min()) / (y.max() - y.min())
    fogd = online_rate(FOGDRegressor, X, y, key="online_mse", n_components=450, gamma=1 / 8, eta=2e-4,
                       epsilon=0.1)
    nogd = online_rate(NOGDRegressor, X, y, key="online_mse", budget=30, rank=6, gamma=1 / 8, eta=0.1,
                       epsilon=0.1)
    assert fogd <= 1.1 * 0.02577, fogd
    assert nogd <= 1.1 * 0.02559, nogd
    assert max(fogd, nogd) < 0.7 * np.var(y)
