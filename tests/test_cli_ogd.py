"""``refsvm train --solver fogd|nogd`` (classification and regression files) and ``refsvm predict``."""

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from refsvm import FOGDRegressor, NOGDClassifier
from refsvm.cli import main


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    yc = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    yr = np.sin(X[:, 0])
    out = {}
    for name, y in (("cls", yc), ("reg", yr)):
        dump_svmlight_file(X[:200], y[:200], str(tmp_path / f"{name}.txt"), zero_based=False)
        dump_svmlight_file(X[200:], y[200:], str(tmp_path / f"{name}.t"), zero_based=False)
        out[name] = (tmp_path / f"{name}.txt", tmp_path / f"{name}.t", X[200:], y[200:])
    return out


@pytest.mark.parametrize("solver", ["fogd", "nogd"])
def test_train_and_predict_classification(files, tmp_path, capsys, solver):
    train, test, Xt, yt = files["cls"]
    model = tmp_path / "m.npz"
    assert main(["train", str(train), str(model), "--solver", solver, "--budget", "30", "--gamma", "0.5",
                 "--n-components", "50", "--test", str(test), "--random-state", "2"]) == 0
    out = capsys.readouterr().out
    assert "online mistake rate" in out and "test accuracy" in out
    pred = tmp_path / "p.txt"
    assert main(["predict", str(model), str(test), "--output", str(pred)]) == 0
    acc = float(capsys.readouterr().out.split()[1])
    assert acc > 0.8
    assert np.mean(np.array(pred.read_text().split(), dtype=float) == yt) == pytest.approx(acc, abs=1e-4)
    if solver == "nogd":                                     # same model as the estimator
        est = NOGDClassifier(budget=30, gamma=0.5, random_state=2).fit(*_xy(train))
        assert est.score(Xt, yt) == pytest.approx(acc, abs=1e-4)


def _xy(path):
    from sklearn.datasets import load_svmlight_file
    X, y = load_svmlight_file(str(path))
    return X.toarray(), y


@pytest.mark.parametrize("solver", ["fogd", "nogd"])
def test_train_and_predict_regression(files, tmp_path, capsys, solver):
    train, test, Xt, yt = files["reg"]
    model = tmp_path / "r.npz"
    assert main(["train", str(train), str(model), "--solver", solver, "--regression", "--gamma", "0.5",
                 "--budget", "30", "--rank", "15", "--epsilon", "0.001", "--epochs", "3",
                 "--test", str(test)]) == 0
    assert "test MSE" in capsys.readouterr().out
    assert main(["predict", str(model), str(test)]) == 0
    mse = float(capsys.readouterr().out.split()[3])
    assert mse < 0.5 * np.var(yt)
    if solver == "fogd":
        est = FOGDRegressor(gamma=0.5, epsilon=0.001, epochs=3, random_state=0).fit(*_xy(train))
        assert np.mean((est.predict(Xt) - yt) ** 2) == pytest.approx(mse, rel=1e-4)


def test_bad_value_names_the_option(files, tmp_path, capsys):
    train = files["cls"][0]
    with pytest.raises(SystemExit) as exc:
        main(["train", str(train), str(tmp_path / "m"), "--solver", "nogd", "--budget", "10", "--rank", "20"])
    assert exc.value.code == 2
    assert "rank" in capsys.readouterr().err
