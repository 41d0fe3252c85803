"""refsvm.datasets: load_libsvm from REFSVM_DATA (splits, standardisation, feature counts) and the synthetic generators."""

import bz2
import os
import re
from pathlib import Path

import numpy as np
import pytest

from refsvm import datasets
from refsvm.datasets import DATASETS, checkerboard, data_dir, gauss_mixture, load_libsvm


def write_bz2(path, text):
    with bz2.open(path, "wt") as fh:
        fh.write(text)


# --- loader on files written here (no REFSVM_DATA needed) -------------------

TOY_TRAIN = "1 1:1 2:5 3:7\n-1 1:3 2:5\n1 1:5 2:5 3:1\n"
TOY_TEST = "-1 1:2 2:4\n1 1:4 2:9 4:2\n"  # uses a feature the training split lacks


@pytest.fixture
def toy_dir(tmp_path, monkeypatch):
    write_bz2(tmp_path / "toy.bz2", TOY_TRAIN)
    write_bz2(tmp_path / "toy.t.bz2", TOY_TEST)
    write_bz2(tmp_path / "lonely.bz2", TOY_TRAIN)
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    return tmp_path


def test_unknown_name_reads_both_splits_with_common_width(toy_dir):
    X, y, Xt, yt = load_libsvm("toy")
    for a in (X, y, Xt, yt):
        assert a.dtype == np.float64
    assert X.flags.c_contiguous and Xt.flags.c_contiguous
    np.testing.assert_array_equal(X, [[1, 5, 7, 0], [3, 5, 0, 0], [5, 5, 1, 0]])
    np.testing.assert_array_equal(Xt, [[2, 4, 0, 0], [4, 9, 0, 2]])
    np.testing.assert_array_equal(y, [1, -1, 1])
    np.testing.assert_array_equal(yt, [-1, 1])


def test_no_test_split_gives_none(toy_dir):
    X, y, Xt, yt = load_libsvm("lonely")
    assert X.shape == (3, 3) and y.shape == (3,)
    assert Xt is None and yt is None


def test_standardize_uses_training_statistics(toy_dir):
    X, _, Xt, _ = load_libsvm("toy")
    Xs, _, Xts, _ = load_libsvm("toy", standardize=True)
    mean, std = X.mean(axis=0), X.std(axis=0)
    # columns 1 (all 5) and 3 (all 0) are constant in the training split
    assert std[1] == 0 and std[3] == 0
    np.testing.assert_allclose(Xs.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(Xs.std(axis=0), [1.0, 0.0, 1.0, 0.0], atol=1e-12)
    np.testing.assert_array_equal(Xs[:, [1, 3]], 0.0)
    scale = np.where(std == 0, 1.0, std)
    np.testing.assert_allclose(Xs, (X - mean) / scale, rtol=1e-14)
    np.testing.assert_allclose(Xts, (Xt - mean) / scale, rtol=1e-14)
    np.testing.assert_allclose(Xts[:, 1], [-1.0, 4.0])  # centred by the training mean only


def test_missing_training_file_names_path(tmp_path, monkeypatch):
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=re.escape(str(tmp_path / "a9a.bz2"))):
        load_libsvm("a9a")


def test_missing_listed_test_split_is_an_error(tmp_path, monkeypatch):
    # ijcnn1: a listed test split and no recorded checksum (a stand-in a9a.bz2 would fail its checksum)
    write_bz2(tmp_path / "ijcnn1.bz2", "1 1:1\n-1 2:1\n")
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=re.escape(str(tmp_path / "ijcnn1.t.bz2"))):
        load_libsvm("ijcnn1")


def test_known_set_uses_listed_n_features(tmp_path, monkeypatch):
    # spambase: no test split and no recorded checksum (a stand-in heart_scale.bz2 would fail its checksum)
    write_bz2(tmp_path / "spambase.bz2", "1 1:1\n-1 2:1\n")
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    X, _, Xt, _ = load_libsvm("spambase")
    assert X.shape == (2, 57) and Xt is None


def test_data_dir_errors(tmp_path, monkeypatch):
    monkeypatch.delenv("REFSVM_DATA", raising=False)
    with pytest.raises(RuntimeError, match="REFSVM_DATA is not set"):
        data_dir()
    missing = tmp_path / "nowhere"
    monkeypatch.setenv("REFSVM_DATA", str(missing))
    with pytest.raises(FileNotFoundError, match="nowhere"):
        data_dir()
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    assert data_dir() == tmp_path


# --- the shared data sets (skipped without REFSVM_DATA) ---------------------


def test_table_matches_sources_md(require_data):
    require_data("heart_scale")  # skips without REFSVM_DATA
    text = (Path(os.environ["REFSVM_DATA"]) / "SOURCES.md").read_text()
    rows = re.findall(r"^\| (\S+)\.bz2 \| ([^|]+?) \| [\d,]+ \| (\d+) \|", text, flags=re.M)
    assert len(rows) >= 30
    listed = {}
    for stem, task, n_features in rows:
        listed[stem] = (task, int(n_features))
    covered = set()
    for name, info in DATASETS.items():
        task, n = listed[name]
        assert info["n_features"] == n, name
        assert task.replace("-", "").startswith(info["task"]), (name, task)
        covered.add(name)
        if info["test"] is not None:
            assert listed[info["test"]][1] == n, name
            covered.add(info["test"])
    assert covered == set(listed), set(listed) ^ covered


@pytest.mark.parametrize(
    "name, train_shape, test_shape, labels",
    [
        ("a9a", (32561, 123), (16281, 123), [-1, 1]),
        ("heart_scale", (270, 13), None, [-1, 1]),
        ("dna.scale", (2000, 180), (1186, 180), [1, 2, 3]),
        ("svmguide1", (3089, 4), (4000, 4), [0, 1]),
        ("satimage", (4435, 36), (2000, 36), [1, 2, 3, 4, 5, 7]),
        ("housing_scale", (506, 13), None, None),
    ],
)
def test_real_data_shapes(require_data, name, train_shape, test_shape, labels):
    X, y, Xt, yt = require_data(name)
    assert X.shape == train_shape and y.shape == (train_shape[0],)
    assert X.dtype == np.float64 and y.dtype == np.float64 and X.flags.c_contiguous
    assert np.isfinite(X).all()
    if test_shape is None:
        assert Xt is None and yt is None
    else:
        assert Xt.shape == test_shape and yt.shape == (test_shape[0],)
        assert Xt.shape[1] == X.shape[1]
    if labels is not None:
        np.testing.assert_array_equal(np.unique(y), labels)
        if yt is not None:
            np.testing.assert_array_equal(np.unique(yt), labels)


def test_a9a_test_split_never_uses_last_feature(require_data):
    # the reason n_features must be passed: a9a.t stops at feature 122
    _, _, Xt, _ = require_data("a9a")
    assert not Xt[:, 122].any()


def test_real_data_standardized(require_data):
    X, _, Xt, _ = require_data("dna.scale")
    Xs, _, Xts, _ = require_data("dna.scale", standardize=True)
    std = X.std(axis=0)
    varying = std > 0
    np.testing.assert_allclose(Xs.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(Xs.std(axis=0)[varying], 1.0, rtol=1e-12)
    np.testing.assert_array_equal(Xs[:, ~varying], 0.0)
    scale = np.where(varying, std, 1.0)
    np.testing.assert_allclose(Xts, (Xt - X.mean(axis=0)) / scale, rtol=1e-12, atol=1e-12)


# --- generators --------------------------------------------------------------


@pytest.mark.parametrize("gen", [checkerboard, gauss_mixture])
def test_generator_shapes_labels_determinism(gen):
    X, y = gen(500, random_state=3)
    assert X.shape == (500, 2) and X.dtype == np.float64
    assert y.shape == (500,) and y.dtype == np.int64
    assert set(np.unique(y)) == {-1, 1}
    X2, y2 = gen(500, random_state=3)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    X3, _ = gen(500, random_state=4)
    assert not np.array_equal(X, X3)
    X4, y4 = gen(500, random_state=np.random.default_rng(3))
    np.testing.assert_array_equal(X, X4)
    np.testing.assert_array_equal(y, y4)


def test_checkerboard_cells_alternate():
    X, y = checkerboard(20000, random_state=0)
    assert (X >= 0).all() and (X < 1).all()
    i, j = (X[:, 0] * 4).astype(int), (X[:, 1] * 4).astype(int)
    np.testing.assert_array_equal(y, np.where((i + j) % 2 == 0, 1, -1))
    counts = np.bincount(i * 4 + j, minlength=16)
    assert counts.min() > 20000 / 16 * 0.85  # uniform over the 16 cells
    X, y = checkerboard(5000, random_state=0, grid=2)
    i, j = (X[:, 0] * 2).astype(int), (X[:, 1] * 2).astype(int)
    np.testing.assert_array_equal(y, np.where((i + j) % 2 == 0, 1, -1))


def test_gauss_mixture_moments():
    X, y = gauss_mixture(40000, random_state=1)
    pos, neg = X[y == 1], X[y == -1]
    assert abs(len(pos) / len(y) - 0.5) < 0.01
    np.testing.assert_allclose(pos.mean(axis=0), [0, 0], atol=0.03)
    np.testing.assert_allclose(neg.mean(axis=0), [2, 0], atol=0.06)
    np.testing.assert_allclose(np.cov(pos.T), np.eye(2), atol=0.05)
    np.testing.assert_allclose(np.cov(neg.T), 4 * np.eye(2), atol=0.2)


def test_module_exports():
    assert set(datasets.__all__) >= {"load_libsvm", "checkerboard", "gauss_mixture", "data_dir"}
