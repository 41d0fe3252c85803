"""Subject: cli -- ``refsvm train --stream --regression`` (FOGD-R, NOGD-R and the online baselines' regressors).

The streamed model is fit_stream's over the same estimator (its predictions, bitwise), and the printed
streamed training / test MSE is the mean squared error of the saved model's predictions computed here
from the file read whole; gamma='scale' comes from the whole file, not from the first chunk.
"""

import re

import numpy as np
import pytest

from refsvm.approx_model import FourierModel, NystromModel
from refsvm.cli import main
from refsvm.estimators import FOGDRegressor, NOGDRegressor, OnlineKernelRegressor
from refsvm.io.libsvm import read_libsvm
from refsvm.stream import fit_stream

N = 90

#: the feature-scale check looks at the first chunk (13 rows here), whose sample variances are uneven
pytestmark = pytest.mark.filterwarnings("ignore::refsvm.estimators._feature_scale.FeatureScaleWarning")


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(5)
    out = []
    for name, n in (("train", N), ("test", 40)):
        X = rng.uniform(-1, 1, size=(n, 3))
        y = np.sin(2 * X[:, 0]) + 0.3 * X[:, 1]
        path = tmp_path / f"{name}.txt"
        path.write_text("".join(f"{v:.17g} " + " ".join(f"{j + 1}:{x:.17g}" for j, x in enumerate(row)) + "\n"
                                for row, v in zip(X, y)))
        out.append(path)
    return out


#: solver options and the library estimator the command builds (gamma='scale', the command's default)
CASES = {
    "fogd": (["--solver", "fogd", "--n-components", "30"],
             lambda: FOGDRegressor(n_components=30, gamma="scale", epochs=2, random_state=3, epsilon=0.1, verbose=0)),
    "nogd": (["--solver", "nogd", "--budget", "12"],
             lambda: NOGDRegressor(budget=12, gamma="scale", epochs=2, random_state=3, epsilon=0.1, verbose=0)),
    "bogd": (["--solver", "bogd", "--budget", "12"],
             lambda: OnlineKernelRegressor(algorithm="bogd", budget=12, gamma="scale", epochs=2, random_state=3,
                                           epsilon=0.1)),
}


def _saved_predict(model, X):
    for cls in (FourierModel, NystromModel):
        try:
            return cls.load(model).predict(X, backend="fast")
        except Exception:
            pass
    return OnlineKernelRegressor.load(model).predict(X)


@pytest.mark.parametrize("name", list(CASES))
def test_streamed_regression_is_fit_streams(tmp_path, files, capsys, name):
    options, make = CASES[name]
    model = tmp_path / "m.npz"
    assert main(["train", str(files[0]), str(model), "--stream", "--regression", "--chunk-rows", "13",
                 "--epochs", "2", "--random-state", "3", "--test", str(files[1]), "--quiet", *options]) == 0
    out = capsys.readouterr().out
    assert "(streamed)" in out
    library = fit_stream(make(), files[0], epochs=2, chunk_rows=13, random_state=3)
    X, y = read_libsvm(files[0])
    Xt, yt = read_libsvm(files[1], n_features=X.shape[1])
    pred = _saved_predict(model, X)
    assert np.array_equal(pred, library.predict(X))
    for label, data, target in (("training", X, y), ("test", Xt, yt)):
        printed = float(re.search(rf"{label} MSE:\s+(\S+)", out).group(1))
        want = np.mean((_saved_predict(model, data) - target) ** 2)
        assert printed == pytest.approx(want, rel=1e-5)                # printed to 6 digits
    assert float(re.search(r"training MSE:\s+(\S+)", out).group(1)) < np.var(y)   # it learned something


def test_regressor_file_with_one_target_value_streams(tmp_path, capsys):
    """A regression file needs no two classes (the classifiers' check is not applied)."""
    path = tmp_path / "flat.txt"
    path.write_text("".join(f"0.5 1:{i / 10:.17g}\n" for i in range(20)))
    assert main(["train", str(path), str(tmp_path / "m.npz"), "--stream", "--regression", "--solver", "fogd",
                 "--n-components", "5", "--quiet"]) == 0
    assert "training MSE:" in capsys.readouterr().out
