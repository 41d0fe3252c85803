"""``refsvm.load``: the file's ``estimator`` entry must name a loadable estimator class.

The entry is data from the file; an entry that names something else in
:mod:`refsvm.estimators` (the loader's own module, whose ``load`` is
``refsvm.load`` itself; the abstract base; a misspelt class) is refused with
one ModelFileError naming the file and the entry, by the function and by
``refsvm predict``.
"""

import numpy as np
import pytest

import refsvm
from refsvm import BudgetedSVC
from refsvm.cli import main
from refsvm.datasets import checkerboard
from refsvm.io.model_file import ModelFileError


@pytest.fixture(scope="module")
def good_model(tmp_path_factory):
    X, y = checkerboard(120, random_state=0)
    path = tmp_path_factory.mktemp("model") / "good.npz"
    BudgetedSVC(budget=8, gamma=20.0, backend="python", random_state=0).fit(X, y).save(path)
    return path


def with_estimator(good, path, name):
    with np.load(good, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["estimator"] = np.asarray(name)
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("name", ["loading", "BudgetedClassifierBase", "NoSuchClassifier", "registry"])
def test_an_estimator_entry_that_is_not_a_loadable_class_is_refused(good_model, tmp_path, name):
    path = with_estimator(good_model, tmp_path / "bad.npz", name)
    with pytest.raises(ModelFileError) as info:
        refsvm.load(path)            # before: "loading" recursed until RecursionError
    message = str(info.value)
    assert str(path) in message and repr(name) in message and "'estimator' entry" in message
    assert "BudgetedSVC" in message  # the known names are listed


def test_the_cli_prints_one_line_for_a_self_naming_estimator_entry(good_model, tmp_path, capsys):
    path = with_estimator(good_model, tmp_path / "self.npz", "loading")
    data = tmp_path / "data.txt"
    data.write_text("1 1:0.5 2:0.25\n")
    assert main(["predict", str(path), str(data)]) == 1
    err = capsys.readouterr().err
    assert "recursion" not in err and "Traceback" not in err
    assert err.count("\n") == 1 and str(path) in err and "'loading'" in err


def test_every_estimator_class_still_loads_through_refsvm_load(good_model, tmp_path):
    path = with_estimator(good_model, tmp_path / "svc.npz", "BudgetedSVC")
    assert type(refsvm.load(path)) is BudgetedSVC
    from refsvm.estimators.loading import _loadable_names
    assert set(_loadable_names()) == {"BudgetedSVC", "SBPClassifier", "BSCAClassifier", "FOGDClassifier",
                                      "FOGDRegressor", "NOGDClassifier", "NOGDRegressor",
                                      "OnlineKernelClassifier", "OnlineKernelRegressor", "IncrementalSVC"}
