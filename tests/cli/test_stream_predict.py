"""Subject: cli -- ``refsvm predict --stream`` for every kind of model file (BSGD, FOGD / NOGD, regressors).

The streamed predictions (chunks of 7 rows) are the in-memory command's, line for line (a regressor's
values to 1e-13 relative: its kernel sums depend on the rows of a block), with the same accuracy or mean
squared error; they reach ``--output`` chunk by chunk (the file writer gets one piece per
chunk, never the whole text), and a bad line leaves no output file.
"""

import numpy as np
import pytest

from refsvm.cli import main

N = 60


@pytest.fixture
def files(tmp_path):
    """A classification file (labels +1 / -1), a regression file (real targets) and the classification
    file with features of very different scales, N rows, 3 features."""
    rng = np.random.default_rng(11)
    X = rng.uniform(-1, 1, size=(N, 3))
    out = {}
    wide = X * [50.0, 1.0, 0.02] + [20.0, 0.0, 0.0]      # for --standardize
    for name, y, Z in (("cls", np.where(X[:, 0] * X[:, 1] > 0, 1, -1), X),
                       ("reg", np.sin(2 * X[:, 0]) + 0.5 * X[:, 2], X),
                       ("wide", np.where(X[:, 0] * X[:, 1] > 0, 1, -1), wide)):
        path = tmp_path / f"{name}.txt"
        path.write_text("".join(f"{v:.17g} " + " ".join(f"{j + 1}:{x:.17g}" for j, x in enumerate(row)) + "\n"
                                for row, v in zip(Z, y)))
        out[name] = path
    return out


MODELS = {
    "bsgd": ("cls", ["--budget", "10"]),
    "fogd": ("cls", ["--solver", "fogd", "--n-components", "20"]),
    "nogd": ("cls", ["--solver", "nogd", "--budget", "10"]),
    "fogd-regression": ("reg", ["--solver", "fogd", "--n-components", "20", "--regression"]),
    "nogd-regression": ("reg", ["--solver", "nogd", "--budget", "10", "--regression"]),
    "bogd-regression": ("reg", ["--solver", "bogd", "--regression", "--budget", "10"]),
    "bsgd-standardized": ("wide", ["--budget", "10", "--standardize"]),     # the model's scaling, per chunk
    "fogd-standardized": ("wide", ["--solver", "fogd", "--n-components", "20", "--standardize"]),
}


def _predict(capsys, model, data, out, *extra):
    assert main(["predict", str(model), str(data), "--output", str(out), *extra]) == 0
    return capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("name", list(MODELS))
def test_streamed_predictions_are_the_in_memory_ones(tmp_path, files, capsys, name):
    data, options = MODELS[name]
    model = tmp_path / "m.npz"
    assert main(["train", str(files[data]), str(model), "--quiet", "--random-state", "2", *options]) == 0
    capsys.readouterr()
    whole = _predict(capsys, model, files[data], tmp_path / "whole.txt")
    streamed = _predict(capsys, model, files[data], tmp_path / "streamed.txt", "--stream", "--chunk-rows", "7")
    got, want = ((tmp_path / f).read_text().split() for f in ("streamed.txt", "whole.txt"))
    assert len(got) == N
    if data != "reg":
        assert got == want
    else:       # a kernel matrix-vector product's sums depend on the rows in a block: ulps apart
        np.testing.assert_allclose(np.array(got, float), np.array(want, float), rtol=1e-13, atol=1e-15)
    # the same score line, "streamed" added: "accuracy: 0.9500 (60 examples, 10 support vectors)"
    assert streamed.replace(", streamed)", ")") == whole
    assert streamed.startswith("mean squared error:" if data == "reg" else "accuracy:")


def test_predictions_are_written_as_they_come(tmp_path, files, capsys, monkeypatch):
    import refsvm.cli._common as common

    model = tmp_path / "m.npz"
    assert main(["train", str(files["cls"]), str(model), "--quiet", "--solver", "fogd", "--n-components", "20"]) == 0
    written, real = [], common._write_atomically

    def spy(path, text, what):
        assert not isinstance(text, str)                 # an iterable of pieces, made while reading

        def pieces():
            for piece in text:
                written.append(piece.count("\n"))
                yield piece
        return real(path, pieces(), what)

    monkeypatch.setattr(common, "_write_atomically", spy)
    assert main(["predict", str(model), str(files["cls"]), "--stream", "--chunk-rows", "7", "--output",
                 str(tmp_path / "p.txt")]) == 0
    assert written == [7] * (N // 7) + [N % 7]


def test_a_bad_line_leaves_no_output(tmp_path, files, capsys):
    model = tmp_path / "m.npz"
    assert main(["train", str(files["cls"]), str(model), "--quiet", "--solver", "nogd", "--budget", "10"]) == 0
    lines = files["cls"].read_text().splitlines()
    lines[40] = "1 1:oops"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    try:
        code = main(["predict", str(model), str(bad), "--stream", "--chunk-rows", "7", "--output",
                     str(tmp_path / "p.txt")])
    except SystemExit as exit_:
        code = exit_.code
    assert code not in (0, None)
    assert "line 41" in capsys.readouterr().err
    assert not list(tmp_path.glob("*p.txt*"))
