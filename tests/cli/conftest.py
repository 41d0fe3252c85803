"""Subject: cli -- fixtures shared by the command-line tests."""

import numpy as np
import pytest


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
        path.write_text("".join(f"{label} " + " ".join(f"{j + 1}:{v:.17g}" for j, v in enumerate(row)) + "\n"
                                for row, label in zip(X, y)))
        return path
    return write
