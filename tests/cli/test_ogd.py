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
    size = ["--n-components", "50"] if solver == "fogd" else ["--budget", "30"]
    assert main(["train", str(train), str(model), "--solver", solver, *size, "--gamma", "0.5",
                 "--test", str(test), "--random-state", "2"]) == 0
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


def test_average_option_trains_the_averaged_model(files, tmp_path, capsys):
    """``--average``: the models of FOGDClassifier / NOGDClassifier(average=True); refused for BSGD."""
    train, test, Xt, yt = files["cls"]
    model = tmp_path / "a.npz"
    assert main(["train", str(train), str(model), "--solver", "fogd", "--n-components", "50", "--gamma", "0.5",
                 "--average", "--random-state", "2", "--quiet"]) == 0
    capsys.readouterr()
    from refsvm import FOGDClassifier
    est = FOGDClassifier(n_components=50, gamma=0.5, average=True, random_state=2).fit(*_xy(train))
    back = FOGDClassifier.load(model)
    assert back.average is True and est.n_averaged_ > 0
    np.testing.assert_allclose(back.decision_function(Xt), est.decision_function(Xt), rtol=1e-12)
    assert main(["train", str(train), str(tmp_path / "n.npz"), "--solver", "nogd", "--budget", "30",
                 "--gamma", "0.5", "--average", "--random-state", "2", "--quiet"]) == 0
    from refsvm import NOGDClassifier
    nest = NOGDClassifier(budget=30, gamma=0.5, average=True, random_state=2).fit(*_xy(train))
    nback = NOGDClassifier.load(tmp_path / "n.npz")
    assert nback.average is True and nest.n_averaged_ > 0
    np.testing.assert_allclose(nback.decision_function(Xt), nest.decision_function(Xt), rtol=1e-12)
    with pytest.raises(SystemExit):
        main(["train", str(train), str(tmp_path / "b.npz"), "--solver", "bsgd", "--average"])
    assert "--average: not used by --solver bsgd" in capsys.readouterr().err


def _xy(path):
    from sklearn.datasets import load_svmlight_file
    X, y = load_svmlight_file(str(path))
    return X.toarray(), y


@pytest.mark.parametrize("solver", ["fogd", "nogd"])
def test_train_and_predict_regression(files, tmp_path, capsys, solver):
    train, test, Xt, yt = files["reg"]
    model = tmp_path / "r.npz"
    size = ["--n-components", "400"] if solver == "fogd" else ["--budget", "30", "--rank", "15"]
    assert main(["train", str(train), str(model), "--solver", solver, "--regression", "--gamma", "0.5",
                 *size, "--epsilon", "0.001", "--epochs", "3", "--test", str(test)]) == 0
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


@pytest.mark.parametrize("argv, fragment", [
    (["--solver", "fogd", "--nu", "0.5", "--rank", "3", "--merge-solver", "lookup-wd"],
     "--merge-solver, --nu, --rank: not used by --solver fogd"),
    (["--solver", "bsgd", "--regression"], "--regression: not used by --solver bsgd"),
    (["--solver", "bsca", "--regression"], "--regression: not used by --solver bsca"),
    (["--solver", "sbp", "--budget", "20"], "--budget: not used by --solver sbp"),
    (["--solver", "rbp", "--nu", "0.2"], "--nu: not used by --solver rbp"),
])
def test_options_a_solver_does_not_use_are_refused(files, tmp_path, capsys, argv, fragment):
    train = files["cls"][0]
    with pytest.raises(SystemExit) as info:
        main(["train", str(train), str(tmp_path / "m.npz"), *argv])
    assert info.value.code == 2
    assert fragment in capsys.readouterr().err
    assert not (tmp_path / "m.npz").exists()


@pytest.mark.parametrize("solver", ["perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas",
                                    "bogd"])
def test_every_online_baseline_trains_and_predicts(files, tmp_path, capsys, solver):
    train, test, Xt, yt = files["cls"]
    model = tmp_path / "m.npz"
    extra = [] if solver in ("perceptron", "ogd") else ["--budget", "40"]
    extra += ["--eta", "0.2"] if solver == "bogd" else []
    assert main(["train", str(train), str(model), "--solver", solver, "--gamma", "0.5", "--quiet", *extra,
                 "--test", str(test)]) == 0
    assert "test accuracy" in capsys.readouterr().out
    assert main(["predict", str(model), str(test)]) == 0
    assert float(capsys.readouterr().out.split()[1]) > 0.6


def test_progress_states_the_expected_cost_up_front(files, tmp_path, capsys, monkeypatch):
    import refsvm.cli._common as common

    train = files["cls"][0]
    assert main(["train", str(train), str(tmp_path / "m.npz"), "--solver", "sbp", "--gamma", "0.5"]) == 0
    assert "kernel evaluations" not in capsys.readouterr().err      # a short run: no cost line
    monkeypatch.setattr(common, "COST_LINE_MIN", 1)
    assert main(["train", str(train), str(tmp_path / "m.npz"), "--solver", "sbp", "--gamma", "0.5"]) == 0
    first = capsys.readouterr().err.splitlines()[0]
    n = sum(1 for _ in open(train))
    assert f"about {n * n:,} kernel evaluations" in first and "per epoch" in first
    assert main(["train", str(train), str(tmp_path / "m.npz"), "--quiet", "--solver", "sbp", "--gamma", "0.5"]) == 0
    assert "kernel evaluations" not in capsys.readouterr().err
