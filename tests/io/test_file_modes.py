"""Files refsvm writes get the mode an ordinary ``open`` gives (0666 & ~umask), not mkstemp's 0600."""

import os
import stat

import numpy as np
import pytest

from refsvm import BudgetedSVC, load
from refsvm._files import atomic_temp, current_umask


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_current_umask_reads_the_process_umask():
    old = os.umask(0o027)
    try:
        assert current_umask() == 0o027
    finally:
        os.umask(old)


def test_atomic_temp_has_the_umask_mode(tmp_path, umask_022):
    fd, tmp = atomic_temp(tmp_path, prefix="x", suffix=".part")
    os.close(fd)
    assert _mode(tmp) == 0o644


def test_saved_model_is_readable_by_others(tmp_path, umask_022):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    est = BudgetedSVC(budget=10, gamma=0.5, random_state=0).fit(X, y)
    path = tmp_path / "m.npz"
    est.save(path)
    assert _mode(path) == 0o644
    assert load(path).predict(X).shape == (40,)


def test_cli_output_file_follows_the_umask(tmp_path, umask_022):
    from refsvm.cli._common import _write_atomically
    target = tmp_path / "out.txt"
    _write_atomically(target, "1\n", "predictions")
    assert _mode(target) == 0o644 and target.read_text() == "1\n"
