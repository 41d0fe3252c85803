"""save / load keep every hyper-parameter, the library version and the estimator class."""

import json

import numpy as np
import pytest

import refsvm
from refsvm import BudgetedModel, BudgetedSVC

from _helpers import blobs, checkerboard

PARAMS = dict(budget=37, lam=3e-6, epochs=2, gamma=4.0, maintenance="removal",
              learning_rate="norma", eta=0.3, fit_bias=True, merge_eps=0.02,
              merge_solver="gss-precise", projection_ridge=1e-8, random_state=5,
              backend="python")


def _rewrite(src, dst, **changes):
    """Copy an .npz model file, replacing / dropping (value None) some of its entries."""
    with np.load(src, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    for key, value in changes.items():
        if value is None:
            arrays.pop(key, None)
        else:
            arrays[key] = value
    np.savez(dst, **arrays)


def test_every_parameter_survives(tmp_path):
    X, y = checkerboard(200)
    est = BudgetedSVC(**PARAMS).fit(X, y)
    est.save(tmp_path / "m.npz")
    loaded = BudgetedSVC.load(tmp_path / "m.npz")
    assert loaded.get_params() == est.get_params()
    assert loaded.budget == 37 and loaded.lam == 3e-6 and loaded.epochs == 2
    np.testing.assert_array_equal(loaded.decision_function(X), est.decision_function(X))


def test_fit_on_loaded_estimator_uses_saved_parameters(tmp_path):
    X, y = checkerboard(200)
    est = BudgetedSVC(budget=37, lam=3e-6, epochs=2, gamma=20.0, random_state=1).fit(X, y)
    est.save(tmp_path / "m.npz")
    loaded = BudgetedSVC.load(tmp_path / "m.npz").fit(X, y)
    assert len(loaded.trace_) == 2                      # epochs=2
    assert loaded.support_vectors_.shape[0] == 37       # budget 37 (reached)
    np.testing.assert_array_equal(loaded.alpha_, est.alpha_)  # lam 3e-6, same order
    # with the defaults (budget 100, lam 1e-4, one epoch) the model differs
    default = BudgetedSVC(gamma=20.0, random_state=1).fit(X, y)
    assert default.alpha_.shape != loaded.alpha_.shape


def test_file_records_version_class_and_json_params(tmp_path):
    X, y = blobs(120)
    est = BudgetedSVC(budget=11, radius=np.inf, learning_rate="perceptron",
                      random_state=0).fit(X, y)
    est.save(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz", allow_pickle=False) as data:
        assert str(data["refsvm_version"]) == refsvm.__version__
        assert str(data["estimator"]) == "BudgetedSVC"
        params = json.loads(str(data["params_json"]))
    assert params["budget"] == 11 and params["gamma"] == "scale"
    assert params["radius"] == float("inf")
    model = BudgetedModel.load(tmp_path / "m.npz")
    assert model.version == refsvm.__version__ and model.estimator == "BudgetedSVC"
    loaded = BudgetedSVC.load(tmp_path / "m.npz")
    assert loaded.radius == np.inf and loaded.gamma == "scale"
    assert loaded.gamma_ == est.gamma_


def test_numpy_scalar_parameters_are_stored_as_numbers(tmp_path):
    X, y = checkerboard(100)
    est = BudgetedSVC(budget=np.int64(12), lam=np.float32(1e-3), gamma=np.float64(9.0),
                      random_state=np.int32(3)).fit(X, y)
    est.save(tmp_path / "m.npz")
    loaded = BudgetedSVC.load(tmp_path / "m.npz")
    assert loaded.budget == 12 and type(loaded.budget) is int
    assert loaded.random_state == 3
    assert loaded.lam == pytest.approx(1e-3, rel=1e-7)


def test_generator_random_state_is_saved_as_none_with_warning(tmp_path):
    X, y = checkerboard(100)
    est = BudgetedSVC(budget=12, random_state=np.random.default_rng(0)).fit(X, y)
    with pytest.warns(UserWarning, match="random_state"):
        est.save(tmp_path / "m.npz")
    assert BudgetedSVC.load(tmp_path / "m.npz").random_state is None


def test_backend_argument_overrides_the_saved_backend(tmp_path):
    X, y = checkerboard(100)
    BudgetedSVC(budget=12, backend="python", random_state=0).fit(X, y).save(tmp_path / "m.npz")
    assert BudgetedSVC.load(tmp_path / "m.npz").backend == "python"
    assert BudgetedSVC.load(tmp_path / "m.npz", backend="fast").backend == "fast"


def test_old_file_without_parameters_loads_with_defaults(tmp_path):
    X, y = checkerboard(100)
    est = BudgetedSVC(budget=12, lam=1e-3, gamma=5.0, random_state=0).fit(X, y)
    est.save(tmp_path / "new.npz")
    _rewrite(tmp_path / "new.npz", tmp_path / "old.npz",
             params_json=None, estimator=None, refsvm_version=None)
    loaded = BudgetedSVC.load(tmp_path / "old.npz")
    assert loaded.budget == 100 and loaded.lam == 1e-4      # defaults
    assert loaded.gamma == 5.0 and loaded.backend == "fast"  # the model's kernel
    assert BudgetedModel.load(tmp_path / "old.npz").version is None
    np.testing.assert_allclose(loaded.decision_function(X), est.decision_function(X),
                               rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("change, name", [
    (dict(budget=1), "budget"),
    (dict(lam=-1.0), "lam"),
    (dict(gamma="wide"), "gamma"),
    (dict(maintenance="drop"), "maintenance"),
    (dict(epochs=0), "epochs"),
    (dict(gamma=2.5), "gamma"),          # disagrees with the model's gamma
    (dict(kernel="linear"), "kernel"),   # disagrees with the model's kernel
    (dict(no_such_parameter=1), "no_such_parameter"),
])
def test_invalid_saved_parameter_is_refused(tmp_path, change, name):
    X, y = checkerboard(100)
    BudgetedSVC(budget=12, gamma=3.0, random_state=0).fit(X, y).save(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz", allow_pickle=False) as data:
        params = json.loads(str(data["params_json"]))
    params.update(change)
    _rewrite(tmp_path / "m.npz", tmp_path / "bad.npz", params_json=np.array(json.dumps(params)))
    with pytest.raises(ValueError, match=name) as info:
        BudgetedSVC.load(tmp_path / "bad.npz")
    assert "bad.npz" in str(info.value)


def test_other_estimator_class_is_refused(tmp_path):
    X, y = checkerboard(100)
    BudgetedSVC(budget=12, random_state=0).fit(X, y).save(tmp_path / "m.npz")
    _rewrite(tmp_path / "m.npz", tmp_path / "o.npz", estimator=np.array("OtherSVC"))
    with pytest.raises(ValueError, match="OtherSVC"):
        BudgetedSVC.load(tmp_path / "o.npz")


def test_dict_parameter_keeps_integer_keys():
    from refsvm.model import params_from_json, params_to_json

    params = {"class_weight": {1: 2.5, -1: 1.0}, "x": None, "s": "balanced", "b": True,
              "n": np.int16(4), "f": np.inf}
    assert params_from_json(params_to_json(params)) == {
        "class_weight": {1: 2.5, -1: 1.0}, "x": None, "s": "balanced", "b": True, "n": 4,
        "f": np.inf}
    with pytest.raises(ValueError, match="weird"):
        params_to_json({"weird": object()})
