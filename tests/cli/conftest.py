"""Subject: cli -- fixtures shared by the command-line tests."""

import numpy as np
import pytest
from _helpers import libsvm_text


@pytest.fixture
def xor_libsvm_file(tmp_path):
    """A writer of small LIBSVM files: ``write(n, d, seed)`` draws ``n`` rows uniform on [-1, 1]^d,
    labels the sign of x_1 x_2 (+1 / -1), writes them to ``tmp_path / "train.txt"`` (values to 17
    digits, so they read back exactly) and returns the path."""
    def write(n, d, seed):
        rng = np.random.default_rng(seed)
        X = rng.uniform(-1, 1, size=(n, d))
        y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
        path = tmp_path / "train.txt"
        path.write_text(libsvm_text(X, y, skip_zeros=False))
        return path
    return write
