"""One model file format, refsvm.load, atomic saving, and the messages of misuse (library side)."""

import errno
import itertools
import pathlib

import numpy as np
import pytest

import refsvm
from refsvm import (BSCAClassifier, BudgetedModel, BudgetedSVC, FOGDClassifier, FOGDRegressor, NOGDClassifier,
                    NOGDRegressor, OnlineKernelClassifier, SBPClassifier)
from refsvm.datasets import checkerboard
from refsvm.io import model_file

X, Y = checkerboard(200, random_state=0)
Y = np.where(Y > 0, 1, -1)
R = X[:, 0] - X[:, 1]

FACTORIES = {
    "BudgetedSVC": lambda: BudgetedSVC(budget=20, gamma=10.0, random_state=0).fit(X, Y),
    "BSCAClassifier": lambda: BSCAClassifier(budget=20, gamma=10.0, random_state=0).fit(X, Y),
    "SBPClassifier": lambda: SBPClassifier(gamma=10.0, nu=0.1, random_state=0).fit(X, Y),
    "OnlineKernelClassifier": lambda: OnlineKernelClassifier(algorithm="rbp", budget=20, gamma=10.0,
                                                             random_state=0).fit(X, Y),
    "FOGDClassifier": lambda: FOGDClassifier(n_components=20, gamma=10.0, random_state=0).fit(X, Y),
    "FOGDRegressor": lambda: FOGDRegressor(n_components=20, gamma=10.0, random_state=0).fit(X, R),
    "NOGDClassifier": lambda: NOGDClassifier(budget=20, gamma=10.0, random_state=0).fit(X, Y),
    "NOGDRegressor": lambda: NOGDRegressor(budget=20, gamma=10.0, random_state=0).fit(X, R),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    out = {}
    for name, make in FACTORIES.items():
        est = make()
        est.save(folder / f"{name}.npz")
        out[name] = (folder / f"{name}.npz", est)
    return out


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_refsvm_load_returns_the_estimator_of_the_file(files, name):
    path, est = files[name]
    loaded = refsvm.load(path)
    assert type(loaded).__name__ == name
    np.testing.assert_array_equal(loaded.predict(X), est.predict(X))


@pytest.mark.parametrize("writer, reader", [p for p in itertools.permutations(sorted(FACTORIES), 2)])
def test_loading_with_the_wrong_class_names_file_and_class(files, writer, reader):
    path, _ = files[writer]
    cls = getattr(refsvm, reader)
    with pytest.raises(ValueError) as info:
        cls.load(path)
    msg = str(info.value)
    assert str(path) in msg and writer in msg, msg
    assert "is missing" not in msg and "\n" not in msg


def test_every_file_has_the_common_header(files):
    for name, (path, _) in files.items():
        with np.load(path) as data:
            assert {"format_version", "kind", "refsvm_version", "estimator", "params_json"} <= set(data.files)
            assert str(data["estimator"]) == name
            assert str(data["kind"]) in model_file.KINDS


def test_model_without_estimator_and_old_files_load(tmp_path):
    model = BudgetedModel(np.ones((2, 3)), np.array([[1.0], [-1.0]]), gamma=0.5)
    model.save(tmp_path / "m.npz")
    assert isinstance(refsvm.load(tmp_path / "m.npz"), BudgetedSVC)
    # a file as refsvm 0.1 wrote it: no 'kind' entry, no parameters
    np.savez(tmp_path / "old.npz", format_version=np.array(1), support_vectors=np.ones((2, 3)),
             coef=np.array([[1.0], [-1.0]]), kernel=np.array("rbf"), gamma=np.array(0.5), degree=np.array(3),
             coef0=np.array(0.0), bias=np.zeros(1), classes=np.array([-1.0, 1.0]))
    old = refsvm.load(tmp_path / "old.npz")
    assert isinstance(old, BudgetedSVC)
    np.testing.assert_array_equal(old.decision_function(np.ones((1, 3))), [0.0])
    fogd = FACTORIES["FOGDRegressor"]()
    fogd.model_.params = fogd.model_.estimator = None      # the model's own save names no estimator
    fogd.model_.save(tmp_path / "f.npz")
    assert isinstance(refsvm.load(tmp_path / "f.npz"), FOGDRegressor)


def test_saving_is_atomic_and_names_the_path(files, tmp_path, monkeypatch):
    path = tmp_path / "model.npz"
    est = files["BudgetedSVC"][1]
    est.save(path)
    good = path.read_bytes()

    def full_disk(fh, **arrays):
        fh.write(b"PK\x03\x04 half a model")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(model_file.np, "savez", full_disk)
    with pytest.raises(OSError) as info:
        est.save(path)
    assert str(path) in str(info.value) and "No space left" in str(info.value)
    assert path.read_bytes() == good                                  # the old model is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.npz"]  # no temporary file left


def test_saving_to_a_directory_or_a_device_says_what_is_wrong(files, tmp_path):
    est = files["BudgetedSVC"][1]
    (tmp_path / "sub").mkdir()
    with pytest.raises(IsADirectoryError, match="sub: is a directory"):
        est.save(tmp_path / "sub")                  # used to write sub.npz silently
    with pytest.raises(OSError, match="/dev/null: not a regular file"):
        est.save("/dev/null")                       # used to create /dev/null.npz
    assert not pathlib.Path("/dev/null.npz").exists()


def test_gamma_scale_that_cannot_be_computed_says_why():
    with pytest.raises(ValueError, match="gamma='scale' could not be computed") as info:
        BudgetedSVC().fit(X * 1e200, Y)
    assert "StandardScaler" in str(info.value)


def test_reproduce_unknown_names_list_the_valid_ones(capsys):
    from refsvm.cli import main
    from refsvm.reproduce import reproduce

    with pytest.raises(ValueError, match="datasets: 'nosuch' not in table lu2016-table5.*a9a"):
        reproduce("lu2016-table5", datasets=["nosuch"], quick=True)
    with pytest.raises(ValueError, match="entries: 'nosuch' not in table lu2016-table5.*'RBP'"):
        reproduce("lu2016-table5", entries=["nosuch"], quick=True)
    with pytest.raises(SystemExit) as info:
        main(["reproduce", "lu2016-table5", "--algorithms", "nosuch", "--quick"])
    assert info.value.code == 2
    assert "--algorithms: 'nosuch'" in capsys.readouterr().err


# --- the command line: paths and data a new user got wrong ------------------------------------


def _svm(path, text):
    path.write_text(text)
    return str(path)


def test_cli_directory_as_model_or_data_says_what_is_wrong(tmp_path, capsys):
    from refsvm.cli import main

    data = _svm(tmp_path / "d.svm", "".join(f"{1 if i % 2 else -1} 1:{i / 10} 2:{(i * 7 % 10) / 10}\n"
                                            for i in range(40)))
    (tmp_path / "out").mkdir()
    assert main(["train", data, str(tmp_path / "out"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "out: is a directory" in err and err.count("\n") == 1
    assert not (tmp_path / "out.npz").exists()
    assert main(["train", str(tmp_path / "out"), str(tmp_path / "m.npz"), "--quiet"]) == 1
    assert "is a directory, not a LIBSVM data file" in capsys.readouterr().err
    assert main(["train", data, "/dev/null", "--quiet"]) == 1
    assert "not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("text, fragment", [("", "no examples"), ("1\n-1\n", "no features"),
                                            ("1 1:0.5\n1 1:0.25\n", "a classifier needs at least two classes")])
def test_cli_unusable_data_is_one_line_exit_1(tmp_path, capsys, text, fragment):
    from refsvm.cli import main

    data = _svm(tmp_path / "d.svm", text)
    assert main(["train", data, str(tmp_path / "m.npz"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("refsvm train: error: ") and fragment in err and data in err


def test_cli_data_set_names_use_the_registry(require_data, tmp_path, capsys):
    """A name brings its known test split and the registry's feature count (mnist.t uses 778 of 784)."""
    from refsvm.cli import main

    require_data("svmguide1")
    assert main(["train", "svmguide1", str(tmp_path / "s.npz"), "--budget", "20", "--quiet"]) == 0
    assert "test accuracy:" in capsys.readouterr().out          # svmguide1.t, without --test
    assert main(["train", "mnist5k", str(tmp_path / "m.npz"), "--budget", "20", "--gamma", "1e-7",
                 "--test", "mnist.t", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "10000 examples" in out and "784 features" in out
    assert main(["predict", str(tmp_path / "m.npz"), "mnist.t"]) == 0


def test_cli_output_is_written_atomically(tmp_path, capsys, monkeypatch):
    import os

    from refsvm.cli import main

    data = _svm(tmp_path / "d.svm", "".join(f"{1 if i % 2 else -1} 1:{i / 10} 2:{(i * 7 % 10) / 10}\n"
                                            for i in range(40)))
    assert main(["train", data, str(tmp_path / "m.npz"), "--quiet", "--gamma", "1"]) == 0
    out = tmp_path / "pred.txt"
    out.write_text("old predictions\n")
    real_replace = os.replace

    def full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    assert main(["predict", str(tmp_path / "m.npz"), data, "--output", str(out)]) == 1
    err = capsys.readouterr().err
    assert str(out) in err and "No space left" in err
    assert out.read_text() == "old predictions\n"
    monkeypatch.setattr(os, "replace", real_replace)
    assert main(["predict", str(tmp_path / "m.npz"), data, "--output", str(out)]) == 0
    assert len(out.read_text().split()) == 40
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.svm", "m.npz", "pred.txt"]


def test_a_classifier_that_learned_a_constant_warns():
    from refsvm.estimators._base import ConstantModelWarning

    Xs, ys = checkerboard(300, random_state=1)
    with pytest.warns(ConstantModelWarning, match="predicts the single class"):
        BudgetedSVC(budget=10, gamma=1e-9, lam=10.0, random_state=0).fit(Xs, ys)   # a kernel of ones
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", ConstantModelWarning)
        BudgetedSVC(budget=50, gamma=50.0, lam=1e-4, random_state=0).fit(Xs, ys)       # learns: no warning
