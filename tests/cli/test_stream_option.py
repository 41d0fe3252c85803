"""Subject: cli -- ``refsvm train --stream`` / ``refsvm predict --stream`` (a LIBSVM file in chunks).

End to end on a small generated file: the streamed model is fit_stream's (the library's), bitwise;
the streamed predictions are those of the in-memory path; bad values are one-line errors.
"""

import numpy as np
import pytest

from refsvm import BudgetedSVC
from refsvm.cli import main
from refsvm.io.libsvm import read_libsvm
from refsvm.stream import fit_stream


@pytest.fixture
def train_file(xor_libsvm_file):
    return xor_libsvm_file(n=200, d=4, seed=3)


def test_train_and_predict_streamed(tmp_path, train_file, capsys):
    model = tmp_path / "m.npz"
    assert main(["train", str(train_file), str(model), "--stream", "--chunk-rows", "30",
                 "--shuffle-buffer", "50", "--budget", "10", "--epochs", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "on 200 examples with 4 features, 2 classes" in out and "(streamed)" in out
    saved = BudgetedSVC.load(model)
    library = fit_stream(BudgetedSVC(budget=10, random_state=0, verbose=0), train_file, epochs=2,
                         chunk_rows=30, shuffle="buffer", buffer_rows=50, random_state=0)
    dense = lambda m: m.toarray() if hasattr(m, "toarray") else np.asarray(m)  # noqa: E731
    assert np.array_equal(dense(saved.support_vectors_), dense(library.model_.support_vectors))
    assert np.array_equal(saved.model_.coef, library.model_.coef) and saved.gamma_ == library.gamma_

    output = tmp_path / "pred.txt"
    assert main(["predict", str(model), str(train_file), "--stream", "--chunk-rows", "7",
                 "--output", str(output)]) == 0
    streamed = capsys.readouterr().out
    X, y = read_libsvm(train_file)
    pred = saved.predict(X)
    assert output.read_text().split() == [f"{v:g}" for v in pred]
    assert f"accuracy: {np.mean(pred == y):.4f} (200 examples" in streamed


@pytest.mark.parametrize("argv, message", [
    (["--chunk-rows", "0"], "--chunk-rows must be >= 1"),
    (["--shuffle-buffer", "0"], "--shuffle-buffer must be >= 1"),
    (["--standardize"], "--standardize: not available with --stream"),
    (["--solver", "sbp"], "--stream: not available for --solver sbp (SBPClassifier has no partial_fit to train "
                          "chunk by chunk: SBP's iterate is a vector over the whole training set"),
])
def test_bad_values(tmp_path, train_file, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:
        main(["train", str(train_file), str(tmp_path / "m.npz"), "--stream", "--quiet"] + argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_line_named(tmp_path, train_file, capsys):
    text = train_file.read_text().splitlines(keepends=True)
    text[120] = "1 1:0.5 2:nan\n"
    train_file.write_text("".join(text))
    assert main(["train", str(train_file), str(tmp_path / "m.npz"), "--stream", "--chunk-rows", "16",
                 "--quiet"]) == 1
    assert f"{train_file}, line 121: " in capsys.readouterr().err


def test_test_file_width_checked_before_training(tmp_path, train_file, capsys):
    wide = tmp_path / "wide.txt"
    wide.write_text("1 1:0.5 9:1\n-1 2:1\n")
    model = tmp_path / "m.npz"
    assert main(["train", str(train_file), str(model), "--stream", "--test", str(wide), "--quiet"]) == 1
    assert "has 9 features (highest index 9), but the training data" in capsys.readouterr().err
    assert not model.exists()
    narrow = tmp_path / "narrow.txt"
    narrow.write_text("1 1:0.5\n-1 2:1\n")
    assert main(["train", str(train_file), str(model), "--stream", "--test", str(narrow), "--pad-features",
                 "--quiet"]) == 0
    assert "test accuracy:" in capsys.readouterr().out


def test_streamed_checkpoints_and_resume(tmp_path, train_file, monkeypatch, capsys):
    """``--stream --checkpoint PATH --checkpoint-every Nchunks``, stopped after a checkpoint inside an
    epoch and resumed with ``--resume``: the model file of the uninterrupted streamed run, bitwise."""
    from refsvm.estimators import _checkpoint

    base = [str(train_file), "--stream", "--chunk-rows", "30", "--shuffle-buffer", "50", "--budget", "10",
            "--epochs", "3", "--quiet"]
    whole, resumed, ck = tmp_path / "w.npz", tmp_path / "r.npz", str(tmp_path / "ck")
    assert main(["train", base[0], str(whole), *base[1:]]) == 0
    write, count = _checkpoint.write_checkpoint, [0]

    class Stop(Exception):
        pass

    def stopping(*args, **kwargs):
        write(*args, **kwargs)
        count[0] += 1
        if count[0] == 3:
            raise Stop

    monkeypatch.setattr(_checkpoint, "write_checkpoint", stopping)
    with pytest.raises(Stop):
        main(["train", base[0], str(resumed), *base[1:], "--checkpoint", ck, "--checkpoint-every", "4chunks"])
    monkeypatch.undo()
    assert not resumed.exists()
    assert main(["train", base[0], str(resumed), *base[1:], "--checkpoint", ck, "--resume"]) == 0
    a, b = BudgetedSVC.load(whole), BudgetedSVC.load(resumed)
    dense = lambda m: m.toarray() if hasattr(m, "toarray") else np.asarray(m)  # noqa: E731
    assert np.array_equal(dense(a.support_vectors_), dense(b.support_vectors_))
    assert np.array_equal(a.model_.coef, b.model_.coef) and a.t_ == b.t_
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main(["train", base[0], str(resumed), *base[1:], "--checkpoint", ck, "--checkpoint-every", "2h"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--checkpoint-every must be" in err and "Traceback" not in err


def test_shuffle_interleave_is_fit_streams(tmp_path, train_file, capsys):
    """``--shuffle interleave`` (pieces of --chunk-rows / 100 rows, at least 1): the model of
    fit_stream(shuffle="interleave") with the same seed, bitwise; other orders give another model."""
    model = tmp_path / "m.npz"
    assert main(["train", str(train_file), str(model), "--stream", "--chunk-rows", "40", "--shuffle", "interleave",
                 "--shuffle-buffer", "60", "--budget", "10", "--random-state", "4", "--quiet"]) == 0
    assert "(streamed)" in capsys.readouterr().out
    saved = BudgetedSVC.load(model)
    make = lambda: BudgetedSVC(budget=10, random_state=4, verbose=0)  # noqa: E731
    library = fit_stream(make(), train_file, chunk_rows=40, shuffle="interleave", buffer_rows=60, random_state=4)
    both = fit_stream(make(), train_file, chunk_rows=40, shuffle="both", buffer_rows=60, random_state=4)
    assert np.array_equal(saved.model_.coef, library.model_.coef)
    assert not np.array_equal(saved.model_.coef, both.model_.coef)


@pytest.mark.parametrize("argv, message", [
    (["--stream", "--shuffle", "interleave"], "is compressed"),
    (["--shuffle", "both"], "--shuffle both: the visiting order of --stream"),
])
def test_shuffle_refusals(tmp_path, train_file, capsys, argv, message):
    import bz2

    packed = tmp_path / "train.txt.bz2"
    packed.write_bytes(bz2.compress(train_file.read_bytes()))
    with pytest.raises(SystemExit) as exit_:
        main(["train", str(packed), str(tmp_path / "m.npz"), "--quiet"] + argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_idsvm_trains_streamed_and_on_several_classes(tmp_path, train_file, capsys):
    """--solver idsvm: --stream continues the exact SVM chunk by chunk (IncrementalSVC.partial_fit), its model the
    in-memory one's to the bookkeeping's accuracy; on three classes the report sums the machines' bookkeeping
    steps (it read a binary trace's key and raised KeyError before)."""
    from refsvm import IncrementalSVC

    streamed, whole = tmp_path / "s.npz", tmp_path / "w.npz"
    assert main(["train", str(train_file), str(streamed), "--solver", "idsvm", "--gamma", "0.5", "--stream",
                 "--chunk-rows", "60"]) == 0
    assert "(200 examples; the last chunk: " in capsys.readouterr().out
    assert main(["train", str(train_file), str(whole), "--solver", "idsvm", "--gamma", "0.5"]) == 0
    assert "(200 examples, " in capsys.readouterr().out
    X, _ = read_libsvm(train_file)
    np.testing.assert_allclose(IncrementalSVC.load(streamed).decision_function(X),
                               IncrementalSVC.load(whole).decision_function(X), atol=1e-8)
    lines = train_file.read_text().splitlines()
    three = tmp_path / "three.svm"
    three.write_text("\n".join(("2" + line[line.index(" "):]) if i % 3 == 0 else line
                               for i, line in enumerate(lines)) + "\n")
    assert main(["train", str(three), str(tmp_path / "t.npz"), "--solver", "idsvm", "--gamma", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "3 classes" in out and "(200 examples, " in out and "bookkeeping steps" in out
