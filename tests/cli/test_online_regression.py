"""``refsvm train --solver perceptron|ogd|rbp|forgetron|projectron|bogd|norma --regression`` (the online
baselines' regression versions, OnlineKernelRegressor), ``refsvm predict`` on their model files, and the
estimator's save / load through ``refsvm.load``."""

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

import refsvm
from refsvm import OnlineKernelRegressor
from refsvm.cli import main

SOLVERS = ["perceptron", "ogd", "rbp", "forgetron", "projectron", "bogd", "norma"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("reg")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(160, 3))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1]
    dump_svmlight_file(X[:120], y[:120], str(tmp / "reg.txt"), zero_based=False)
    dump_svmlight_file(X[120:], y[120:], str(tmp / "reg.t"), zero_based=False)
    return tmp / "reg.txt", tmp / "reg.t", X, y


@pytest.mark.parametrize("solver", SOLVERS)
def test_train_and_predict(files, tmp_path, capsys, solver):
    """The command trains the estimator's model (same settings, same seed) and predict reproduces its
    predictions and test mean squared error (computed here from the estimator, not from the command)."""
    train, test, X, y = files
    model, pred = tmp_path / "m.npz", tmp_path / "p.txt"
    extra = ["--lam", "0.01"] if solver in ("bogd", "norma") else []
    extra += ["--budget", "12"] if solver in ("rbp", "forgetron", "projectron", "bogd") else []
    assert main(["train", str(train), str(model), "--solver", solver, "--regression", "--gamma", "0.5",
                 "--eta", "0.3", "--epsilon", "0.05", "--epochs", "2", "--random-state", "4", "--test", str(test),
                 *extra]) == 0
    out = capsys.readouterr().out
    assert "online mean squared loss" in out and "test MSE" in out
    kw = dict(lam=0.01) if solver in ("bogd", "norma") else {}
    if "--budget" in extra:
        kw["budget"] = 12
    est = OnlineKernelRegressor(algorithm=solver, gamma=0.5, eta=0.3, epsilon=0.05, epochs=2, random_state=4,
                                **kw).fit(X[:120], y[:120])
    mse = np.mean((est.predict(X[120:]) - y[120:]) ** 2)
    assert main(["predict", str(model), str(test), "--output", str(pred)]) == 0
    out = capsys.readouterr().out
    assert float(out.split("mean squared error: ")[1].split()[0]) == pytest.approx(mse, rel=1e-5)
    np.testing.assert_allclose(np.array(pred.read_text().split(), dtype=float), est.predict(X[120:]),
                               rtol=1e-9, atol=1e-12)
    back = refsvm.load(model)
    assert type(back) is OnlineKernelRegressor and back.algorithm == solver
    np.testing.assert_allclose(back.predict(X), est.predict(X), rtol=1e-9, atol=1e-12)   # the file's %.16g digits
    with pytest.raises(ValueError, match="partial_fit"):
        back.partial_fit(X, y)


@pytest.mark.parametrize("args,message", [
    (["--solver", "bpas", "--regression"], "--regression: not used by --solver bpas"),
    (["--solver", "norma"], "add --regression"),
    (["--solver", "rbp", "--regression", "--C", "2"], "--C: not used"),
    (["--solver", "forgetron", "--regression", "--refit-bias"], "--refit-bias: not used"),
    (["--solver", "rbp", "--regression", "--budget", "1"], "budget"),
    (["--solver", "ogd", "--regression", "--epsilon", "-1"], "epsilon"),
])
def test_bad_options_name_the_option(files, tmp_path, capsys, args, message):
    train = files[0]
    with pytest.raises(SystemExit) as exc:
        main(["train", str(train), str(tmp_path / "m.npz"), *args])
    assert exc.value.code != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
