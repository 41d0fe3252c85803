"""Tests of the ``refsvm`` command line (:mod:`refsvm.cli`)."""

import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from refsvm import BudgetedSVC
from refsvm.cli import main
from refsvm.datasets import checkerboard


@pytest.fixture
def libsvm_files(tmp_path):
    """A tiny training and test file in LIBSVM format (checkerboard, labels -1/+1)."""
    X, y = checkerboard(200, random_state=0)
    Xt, yt = checkerboard(100, random_state=1)
    train, test = tmp_path / "train.txt", tmp_path / "test.txt"
    dump_svmlight_file(X, y, str(train), zero_based=False)
    dump_svmlight_file(Xt, yt, str(test), zero_based=False)
    return train, test


TRAIN_OPTS = ["--budget", "20", "--gamma", "20", "--epochs", "3", "--random-state", "1"]


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_train_predict_round_trip(libsvm_files, tmp_path, capsys, backend):
    train, test = libsvm_files
    model = tmp_path / "model.npz"
    assert main(["train", str(train), str(model), *TRAIN_OPTS, "--backend", backend,
                 "--test", str(test)]) == 0
    out = capsys.readouterr().out
    assert "training accuracy:" in out and "test accuracy:" in out
    assert "support vectors:   20 (budget 20)" in out
    assert model.is_file()

    predictions = tmp_path / "pred.txt"
    assert main(["predict", str(model), str(test), "--output", str(predictions)]) == 0
    out = capsys.readouterr().out
    est = BudgetedSVC.load(model)
    Xt, yt = checkerboard(100, random_state=1)
    assert f"accuracy: {est.score(Xt, yt):.4f}" in out
    lines = predictions.read_text().split()
    assert lines == [f"{v:g}" for v in est.predict(Xt)]
    assert set(lines) <= {"1", "-1"}
    test_line = next(line for line in out.splitlines() if line.startswith("accuracy"))
    assert float(test_line.split()[1]) > 0.6


@pytest.mark.parametrize("maintenance", ["random-removal", "stop"])
def test_train_with_the_removal_baselines(libsvm_files, tmp_path, capsys, maintenance):
    """BSGD's section 7.3 baselines from the command line: the model is the estimator's with the same options."""
    train, test = libsvm_files
    model = tmp_path / "m.npz"
    assert main(["train", str(train), str(model), *TRAIN_OPTS, "--maintenance", maintenance]) == 0
    loaded = BudgetedSVC.load(model)
    assert loaded.get_params()["maintenance"] == maintenance and loaded.alpha_.shape[0] == 20
    X, y = checkerboard(200, random_state=0)
    again = BudgetedSVC(**loaded.get_params()).fit(X, y)
    np.testing.assert_array_equal(again.alpha_, loaded.alpha_)


def test_model_name_without_npz_suffix(libsvm_files, tmp_path, capsys):
    train, test = libsvm_files
    assert main(["train", str(train), str(tmp_path / "m"), *TRAIN_OPTS, "--backend", "python"]) == 0
    assert f"model saved to {tmp_path / 'm.npz'}" in capsys.readouterr().out
    assert main(["predict", str(tmp_path / "m"), str(test)]) == 0


def test_C_is_converted_to_lambda(libsvm_files, tmp_path, capsys):
    train, _ = libsvm_files
    assert main(["train", str(train), str(tmp_path / "m.npz"), "--C", "10",
                 "--backend", "python", "--budget", "10"]) == 0
    assert f"lambda:            {1 / (200 * 10):.6g}" in capsys.readouterr().out


def test_predict_pads_missing_trailing_features(tmp_path, capsys):
    """With --pad-features, absent trailing features are zeros (without it: tests/io/test_libsvm_files.py)."""
    X, y = checkerboard(100, random_state=0)
    X = np.c_[X, np.zeros(100)]
    X[:5, 2] = 1.0
    dump_svmlight_file(X, y, str(tmp_path / "train.txt"), zero_based=False)
    dump_svmlight_file(X[5:, :2], y[5:], str(tmp_path / "test.txt"), zero_based=False)
    assert main(["train", str(tmp_path / "train.txt"), str(tmp_path / "m.npz"),
                 "--backend", "python", "--budget", "10"]) == 0
    assert main(["predict", str(tmp_path / "m.npz"), str(tmp_path / "test.txt"), "--pad-features"]) == 0
    assert "accuracy:" in capsys.readouterr().out


def test_data_set_name_through_refsvm_data(require_data, tmp_path, capsys):
    """Without such a file, DATA names a data set in REFSVM_DATA (skipped when unset)."""
    X, y, _, _ = require_data("heart_scale")
    model = tmp_path / "heart.npz"
    assert main(["train", "heart_scale", str(model), "--gamma", "0.05", "--budget", "30",
                 "--epochs", "5", "--backend", "fast"]) == 0
    out = capsys.readouterr().out
    assert f"on {X.shape[0]} examples with {X.shape[1]} features, 2 classes" in out
    assert main(["predict", str(model), "heart_scale"]) == 0
    accuracy = float(capsys.readouterr().out.split()[1])
    assert accuracy > 0.75


def test_demo_runs(capsys):
    assert main(["demo", "--n", "400", "--n-test", "200", "--budget", "20"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith(("python", "fast"))]
    assert [r[0] for r in rows] == ["python", "fast"]
    for r in rows:
        assert r[1] == "400" and r[4] == "20"
        assert 0.5 < float(r[2]) <= 1.0
    assert "max |alpha_python - alpha_fast|" in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["train", "{train}", "{model}", "--bogus"], "unrecognized arguments"),
        (["train", "{train}", "{model}", "--budget", "1"], "budget"),
        (["train", "{train}", "{model}", "--budget", "ten"], "--budget"),
        (["train", "{train}", "{model}", "--gamma", "-1"], "gamma"),
        (["train", "{train}", "{model}", "--lam", "0"], "lam"),
        (["train", "{train}", "{model}", "--C", "0"], "C"),
        (["train", "{train}", "{model}", "--lam", "1", "--C", "1"], "not allowed with"),
        (["train", "{train}", "{model}", "--kernel", "sigmoid"], "--kernel"),
        (["train", "{train}", "{model}", "--kernel", "linear"], "maintenance"),
        (["train", "{train}", "{model}", "--maintenance", "drop"], "--maintenance"),
        (["train", "{train}", "{model}", "--solver", "bsca", "--maintenance", "stop"], "maintenance"),
        (["train", "{train}", "{model}", "--backend", "gpu"], "--backend"),
        (["predict", "{missing}", "{train}"], "no such model file"),
        (["demo", "--budget", "1"], "budget"),
        (["frobnicate"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_arguments_exit_with_status_2(libsvm_files, tmp_path, capsys, argv, fragment):
    train, _ = libsvm_files
    names = dict(train=train, model=tmp_path / "m.npz", missing=tmp_path / "nope.txt")
    with pytest.raises(SystemExit) as info:
        main([a.format(**names) for a in argv])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert "Traceback" not in err


def test_missing_data_file_is_one_line_and_status_1(tmp_path, capsys, monkeypatch):
    """A training file that does not exist (nor names a data set) is one line and exit status 1, as
    the command's docstring promises for files that cannot be read (it was a usage error, status 2,
    with 17 lines of usage); a set without a recorded checksum is not offered to refsvm fetch."""
    monkeypatch.delenv("REFSVM_DATA", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["train", str(tmp_path / "nope.txt"), str(tmp_path / "m.npz")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such file" in err[0] and "usage:" not in err[0]
    assert main(["train", "usps", str(tmp_path / "m.npz")]) == 1
    err = capsys.readouterr().err
    assert "refsvm fetch usps" not in err and "by hand" in err


def test_command_line_entry_point_has_no_traceback(libsvm_files, tmp_path):
    train, _ = libsvm_files
    proc = subprocess.run(
        [sys.executable, "-m", "refsvm.cli", "train", str(train), str(tmp_path / "m.npz"),
         "--gamma", "0"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 2
    assert "gamma must be" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("solver", ["gss-precise", "lookup-wd"])
def test_merge_solver_option_reaches_the_estimator(libsvm_files, tmp_path, capsys, solver):
    """``--merge-solver`` trains the same model as ``BudgetedSVC(merge_solver=...)``."""
    train, _ = libsvm_files
    model = tmp_path / "m.npz"
    assert main(["train", str(train), str(model), *TRAIN_OPTS, "--merge-solver", solver]) == 0
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(train))          # the very numbers the CLI read
    X = X.toarray()
    est = BudgetedSVC(budget=20, gamma=20, epochs=3, random_state=1, merge_solver=solver).fit(X, y)
    loaded = BudgetedSVC.load(model)
    np.testing.assert_allclose(loaded.decision_function(X), est.decision_function(X), rtol=1e-12, atol=1e-12)
