"""Subject: estimators -- partial_fit's checkpoint is the estimator itself: pickled between two calls
(and in a fresh process, loaded from the bytes), it continues bit for bit as the uninterrupted one.

For every solver with partial_fit, both backends: three calls on three blocks, against the same calls
with a pickle round trip (through a file) after each; every array of the model and training state and
the generator compare bitwise (tests/estimators/test_checkpoint.py's comparison).
"""

import os
import pickle
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from test_checkpoint import MAKERS, _assert_bitwise, _data  # noqa: E402

NAMES = [name for name in MAKERS if name != "sbp"]          # SBP has no partial_fit


def _calls(est, blocks, classes, between=None):
    for X, y in blocks:
        est = est.partial_fit(X, y, **({} if classes is None else {"classes": classes}))
        if between is not None:
            est = between(est)
    return est


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("name", NAMES)
def test_pickled_between_calls_continues_bitwise(tmp_path, name, backend):
    X, y = _data(90, classes=3 if name == "bsgd-multiclass" else 2)
    if name == "fogd-regressor":
        y = y.astype(np.float64) * 1.25
    classes = None if name == "fogd-regressor" else np.unique(y)
    blocks = [(X[i:i + 30], y[i:i + 30]) for i in range(0, 90, 30)]
    whole = _calls(MAKERS[name](backend), blocks, classes)

    def round_trip(est):
        path = tmp_path / "state.pkl"
        path.write_bytes(pickle.dumps(est))
        return pickle.loads(path.read_bytes())

    resumed = _calls(MAKERS[name](backend), blocks, classes, between=round_trip)
    _assert_bitwise(whole, resumed)
    assert np.array_equal(whole.predict(X), resumed.predict(X))
