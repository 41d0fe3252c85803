"""Reading LIBSVM files: index base, bad values, damaged files, feature counts, memory limit.

Through the two public doors, :func:`refsvm.datasets.load_libsvm` (library)
and ``refsvm train`` / ``refsvm predict`` (:func:`refsvm.cli.main`), both of
which read through :func:`refsvm.io.libsvm.read_libsvm`.  Expected arrays are
written out by hand from the file text.
"""

import bz2
import re
import time
import tracemalloc

import numpy as np
import pytest

from refsvm.cli import main
from refsvm.datasets import load_libsvm

GOOD = "1 1:1 3:2\n-1 2:4\n1 1:0.5 2:0.5 3:0.5\n-1 3:7\n"
GOOD_DENSE_1BASED = [[1, 0, 2], [0, 4, 0], [0.5, 0.5, 0.5], [0, 0, 7]]


def write(path, text):
    """Write ``text`` to ``path`` (bzip2-compressed when the name ends in .bz2)."""
    if str(path).endswith(".bz2"):
        path.write_bytes(bz2.compress(text.encode()))
    else:
        path.write_text(text)
    return path


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    return tmp_path


def one_line_error(capsys):
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ------------------------------------------------------------- index base


def test_index_zero_in_a_one_based_file_is_refused_naming_file_and_line(data_dir):
    # One stray "0:" used to make the whole file zero-based: every column shifted.
    write(data_dir / "toy.bz2", GOOD + "1 0:3 2:1\n")
    with pytest.raises(ValueError) as info:
        load_libsvm("toy")
    msg = str(info.value)
    assert str(data_dir / "toy.bz2") in msg
    assert "line 5" in msg and "index 0" in msg
    assert "zero_based" in msg


def test_zero_based_option_reads_index_k_as_column_k(data_dir):
    write(data_dir / "toy.bz2", GOOD)
    X1, *_ = load_libsvm("toy")                    # 1-based: index k -> column k - 1
    np.testing.assert_array_equal(X1, GOOD_DENSE_1BASED)
    X0, *_ = load_libsvm("toy", zero_based=True)   # 0-based: index k -> column k
    np.testing.assert_array_equal(X0, np.c_[np.zeros(4), GOOD_DENSE_1BASED])
    write(data_dir / "zero.bz2", "1 0:3 2:1\n-1 1:2\n")
    X, *_ = load_libsvm("zero", zero_based=True)
    np.testing.assert_array_equal(X, [[3, 0, 1], [0, 2, 0]])


def test_cli_index_zero_is_refused_and_zero_based_option_accepts_it(tmp_path, capsys):
    train = write(tmp_path / "train.txt", "1 0:1 1:1\n-1 0:-1 1:-1\n1 0:2 1:1\n-1 0:-2 1:-1\n")
    model = tmp_path / "m.npz"
    assert main(["train", str(train), str(model), "--budget", "5", "--backend", "python"]) == 1
    line = one_line_error(capsys)
    assert f"{train}, line 1" in line and "--zero-based" in line
    assert not model.exists()
    assert main(["train", str(train), str(model), "--budget", "5", "--backend", "python",
                 "--zero-based"]) == 0
    assert "with 2 features" in capsys.readouterr().out
    # the test file is read with the same base: index 0 is column 0 there too
    assert main(["predict", str(model), str(train), "--zero-based"]) == 0
    assert main(["predict", str(model), str(train)]) == 1
    assert "index 0" in one_line_error(capsys)


# ------------------------------------------------------------- bad values


@pytest.mark.parametrize("bad_line, line_no, fragment", [
    ("-1 2:nan\n", 5, "nan"),
    ("-1 1:1 3:inf\n", 5, "inf"),
    ("nan 1:1\n", 5, "label"),
    ("-1 1:1 2:x\n", 5, "not a number"),
    ("-1 2:1 1:1\n", 5, "increasing"),
])
def test_bad_value_names_file_and_line(data_dir, bad_line, line_no, fragment):
    first_three = "".join(GOOD.splitlines(keepends=True)[:3])
    write(data_dir / "toy.bz2", "# a comment line\n" + first_three + bad_line)  # bad line is line 5
    with pytest.raises(ValueError) as info:
        load_libsvm("toy")
    msg = str(info.value)
    assert str(data_dir / "toy.bz2") in msg
    assert f"line {line_no}" in msg, msg
    assert fragment in msg


def test_truncated_bz2_is_one_clear_error(data_dir, tmp_path, capsys):
    blob = bz2.compress((GOOD * 500).encode())
    (data_dir / "cut.bz2").write_bytes(blob[: len(blob) // 2])
    with pytest.raises(ValueError, match=re.escape(str(data_dir / "cut.bz2")) + ".*truncated"):
        load_libsvm("cut")
    assert main(["train", str(data_dir / "cut.bz2"), str(tmp_path / "m.npz")]) == 1
    assert "truncated" in one_line_error(capsys)


# ---------------------------------------------------------- feature counts


@pytest.fixture
def model_with_3_features(tmp_path, capsys):
    rng = np.random.default_rng(0)
    lines = []
    for i in range(40):
        x = rng.normal(size=3)
        lines.append(f"{1 if x[0] + x[2] > 0 else -1} " + " ".join(f"{j + 1}:{v:.3f}" for j, v in enumerate(x)))
    train = write(tmp_path / "train3.txt", "\n".join(lines) + "\n")
    model = tmp_path / "m3.npz"
    assert main(["train", str(train), str(model), "--budget", "10", "--backend", "python"]) == 0
    capsys.readouterr()
    return train, model


def test_predict_file_with_fewer_features_is_an_error_naming_both_counts(
        model_with_3_features, tmp_path, capsys):
    _, model = model_with_3_features
    fewer = write(tmp_path / "fewer.txt", "1 1:1 2:1\n-1 1:-1 2:-1\n")
    assert main(["predict", str(model), str(fewer)]) == 1
    line = one_line_error(capsys)
    assert str(fewer) in line and "has 2 features" in line and "has 3" in line
    assert "--pad-features" in line


def test_pad_features_option_fills_zeros(model_with_3_features, tmp_path, capsys):
    _, model = model_with_3_features
    fewer = write(tmp_path / "fewer.txt", "1 1:1 2:1\n-1 1:-1 2:-1\n")
    out = tmp_path / "pred.txt"
    assert main(["predict", str(model), str(fewer), "--pad-features", "--output", str(out)]) == 0
    from refsvm import BudgetedSVC

    expected = BudgetedSVC.load(model).predict(np.array([[1.0, 1, 0], [-1, -1, 0]]))
    assert out.read_text().split() == [f"{v:g}" for v in expected]


def test_predict_file_with_more_features_is_an_error_naming_both_counts(
        model_with_3_features, tmp_path, capsys):
    _, model = model_with_3_features
    more = write(tmp_path / "more.txt", "1 1:1 2:1\n-1 1:-1 5:-1\n")
    for extra in ([], ["--pad-features"]):
        assert main(["predict", str(model), str(more), *extra]) == 1
        line = one_line_error(capsys)
        assert str(more) in line and "has 5 features" in line and "has 3" in line


def test_train_test_file_is_read_with_the_training_feature_count(tmp_path, capsys):
    train = write(tmp_path / "train.txt", "1 1:1 2:1\n-1 1:-1 2:-1\n1 1:2 2:1\n-1 1:-2 2:-1\n")
    test = write(tmp_path / "test.txt", "1 1:1 2:1 3:5\n-1 1:-1\n")
    assert main(["train", str(train), str(tmp_path / "m.npz"), "--budget", "4", "--backend",
                 "python", "--test", str(test)]) == 1
    line = one_line_error(capsys)
    assert str(test) in line and "has 3 features" in line and "has 2" in line


# ------------------------------------------------------------ memory limit


@pytest.mark.parametrize("index, rows", [(10_000_000, 100), (2_000_000_000, 2)])
def test_huge_feature_index_is_refused_before_densifying(data_dir, index, rows):
    text = "".join(f"{1 if i % 2 else -1} 1:1 2:{i}\n" for i in range(rows - 1))
    write(data_dir / "huge.bz2", text + f"1 1:1 {index}:1\n")
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(ValueError) as info:
            load_libsvm("huge")
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    msg = str(info.value)
    assert str(data_dir / "huge.bz2") in msg
    assert f"{index} features" in msg
    need_gib = rows * index * 8 / 2**30
    assert f"{need_gib:.1f} GiB" in msg and "4.0 GiB" in msg
    assert seconds < 2.0
    assert peak < 20 * 2**20  # nothing near the dense size was allocated


def test_max_memory_limit_is_an_option(data_dir, tmp_path, capsys):
    write(data_dir / "wide.bz2", "1 1:1\n-1 1000000:1\n")   # 2 x 1e6 float64 = 15.3 MiB
    X, *_ = load_libsvm("wide")
    assert X.shape == (2, 1_000_000)
    with pytest.raises(ValueError, match=r"15\.3 MiB.*1\.0 MiB"):
        load_libsvm("wide", max_memory=2**20)
    assert main(["train", str(data_dir / "wide.bz2"), str(tmp_path / "m.npz"),
                 "--max-memory", "1M"]) == 1
    line = one_line_error(capsys)
    assert "1000000 features" in line and "--max-memory" in line
