"""OnlineKernelClassifier("bogd") with its defaults learns on a9a; the constant-model warning's refit advice.

"Learns" is bench_defaults.py's rule: both classes predicted and a test error at most 0.9 times the
constant classifier's (the majority share of the test labels, counted here).  BOGD's old default step
(0.1) ends with the majority class (76.38 %) on a9a; the step 0.2 learns with the command line's seed
(random_state=0), and with ``refit_bias=True`` on every seed tried.
"""

import warnings

import numpy as np
import pytest
from _helpers import checkerboard

from refsvm import ConstantModelWarning, FOGDClassifier, OnlineKernelClassifier


def learns(est, Xt, yt):
    pred = est.predict(Xt)
    majority = np.max(np.unique(yt, return_counts=True)[1]) / len(yt)
    error = np.mean(pred != yt)
    return np.unique(pred).size == 2 and error <= 0.9 * (1.0 - majority), (error, 1.0 - majority)


def test_bogd_default_step():
    assert OnlineKernelClassifier("bogd")._algorithm_params()["eta"] == 0.2


def test_bogd_defaults_learn_on_a9a(require_data):
    X, y, Xt, yt = require_data("a9a")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConstantModelWarning)      # the old default warned: constant
        est = OnlineKernelClassifier("bogd", random_state=0).fit(X, y)
    ok, detail = learns(est, Xt, yt)
    assert ok, detail


@pytest.mark.parametrize("seed", [1, 2])
def test_bogd_defaults_with_bias_refit_learn_on_a9a(require_data, seed):
    X, y, Xt, yt = require_data("a9a")
    est = OnlineKernelClassifier("bogd", random_state=seed, refit_bias=True).fit(X, y)
    ok, detail = learns(est, Xt, yt)
    assert ok, detail


def constant_warning(est, X, y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(X, y)
    messages = [str(w.message) for w in caught if issubclass(w.category, ConstantModelWarning)]
    assert len(messages) == 1, messages
    return messages[0]


def test_constant_warning_advises_the_bias_refit_only_where_it_exists():
    """The advice names refit_bias (the bias alone, not 'scaled', which picks a constant when the ranking
    is no better than one) for estimators that have it, not for FOGD, and not again after a refit."""
    X, y = checkerboard(200, seed=0)
    y = np.where(np.arange(200) < 190, 1, -1)                  # 95 % one class: a constant model
    far = dict(gamma=1e-9, random_state=0)
    message = constant_warning(OnlineKernelClassifier("bogd", eta=1e-6, **far), X, y)
    assert "refit_bias (the bias alone)" in message and "'scaled'" not in message
    message = constant_warning(OnlineKernelClassifier("bogd", eta=1e-6, refit_bias=True, **far), X, y)
    assert "refit threshold refit_bias chose is constant" in message
    message = constant_warning(FOGDClassifier(eta=1e-6, **far), X, y)
    assert "refit_bias" not in message
