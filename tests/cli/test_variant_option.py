"""``refsvm train --variant paper|authors``: the online baselines' ``variant=`` (Lu et al.'s released code's
reading) from the command line, for the solvers that have one; refused, naming --variant, elsewhere and for an
unknown value."""

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

import refsvm
from refsvm import OnlineKernelClassifier, OnlineKernelRegressor
from refsvm.cli import main


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("variant")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 3))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=150) > 0, 1, -1)
    dump_svmlight_file(X, y, str(tmp / "cls.txt"), zero_based=False)
    dump_svmlight_file(X, np.sin(X[:, 0]) + 0.5 * X[:, 1], str(tmp / "reg.txt"), zero_based=False)
    return tmp, X, y


def _decision(path, X):
    return refsvm.load(str(path)).decision_function(X)


@pytest.mark.parametrize("solver, budget, eta", [("forgetron", 8, None), ("projectron", 20, "0.5"),
                                                 ("projectron++", 8, None), ("bogd", 8, "0.2")])
def test_variant_reaches_the_estimator(files, tmp_path, solver, budget, eta):
    """The saved model of ``--variant authors`` is the estimator's with ``variant="authors"`` (same seed and
    settings, fitted here), and differs from the paper's variant's model on this data (the Projectron: at a
    budget and threshold where the two readings part)."""
    tmp, X, y = files
    models = {}
    extra = ["--eta", eta] if eta else []
    for variant in ("paper", "authors"):
        models[variant] = tmp_path / f"{variant}.npz"
        assert main(["train", str(tmp / "cls.txt"), str(models[variant]), "--solver", solver, "--budget",
                     str(budget), "--gamma", "0.5", "--random-state", "3", "--variant", variant, "--quiet",
                     *extra]) == 0
    kw = dict(eta=float(eta)) if eta else {}
    est = OnlineKernelClassifier(algorithm=solver, budget=budget, gamma=0.5, random_state=3, variant="authors",
                                 **kw).fit(X, y)
    np.testing.assert_allclose(_decision(models["authors"], X), est.decision_function(X), rtol=1e-9, atol=1e-12)
    assert not np.allclose(_decision(models["authors"], X), _decision(models["paper"], X))


@pytest.mark.parametrize("solver", ["forgetron", "bogd"])
def test_variant_with_regression(files, tmp_path, solver):
    """forgetron / bogd --regression --variant authors trains OnlineKernelRegressor(variant="authors"); BOGD's
    model differs from the paper variant's on this data (the Forgetron's two roots agree here)."""
    tmp, X, _ = files
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1]
    model = tmp_path / "r.npz"
    assert main(["train", str(tmp / "reg.txt"), str(model), "--solver", solver, "--regression", "--budget",
                 "6", "--gamma", "0.5", "--random-state", "2", "--variant", "authors", "--quiet"]) == 0
    est = OnlineKernelRegressor(algorithm=solver, budget=6, gamma=0.5, random_state=2, variant="authors")
    np.testing.assert_allclose(refsvm.load(str(model)).predict(X), est.fit(X, y).predict(X), rtol=1e-9, atol=1e-12)
    if solver == "bogd":
        paper = OnlineKernelRegressor(algorithm=solver, budget=6, gamma=0.5, random_state=2).fit(X, y)
        assert not np.allclose(refsvm.load(str(model)).predict(X), paper.predict(X))


@pytest.mark.parametrize("argv, fragment", [
    (["--solver", "forgetron", "--variant", "code"], "--variant: invalid choice: 'code'"),
    (["--solver", "rbp", "--variant", "authors"], "--variant: not used by --solver rbp"),
    (["--solver", "bsgd", "--variant", "authors"], "--variant: not used by --solver bsgd"),
    (["--solver", "rbp", "--regression", "--variant", "authors"], "--variant: not used by --solver rbp"),
])
def test_variant_refused_naming_the_option(files, tmp_path, capsys, argv, fragment):
    tmp, _, _ = files
    with pytest.raises(SystemExit) as info:
        main(["train", str(tmp / "cls.txt"), str(tmp_path / "m.npz"), *argv])
    assert info.value.code == 2
    assert fragment in capsys.readouterr().err


def test_variant_help_text(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    out = capsys.readouterr().out
    assert "--variant {paper,authors}" in out and "released code" in out
