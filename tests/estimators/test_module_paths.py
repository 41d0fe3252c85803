"""Estimators: the module paths other code uses keep working after the modules were split by family.

``refsvm.estimators._base`` and ``refsvm.estimators.ogd`` hand their parts to smaller modules
(``_inputs``, ``_passes``, ``_bias_refit``, ``_saving``, ``_feature_scale``, ``_shared``,
``_ogd_common``, ``_regressor``); the names imported from the old modules (by the estimators, the
tests, the benchmarks and docs/api.rst) still import from there, and a pickle records the public
classes under the module path it recorded before (``refsvm.estimators.ogd.FOGDClassifier``).
"""

import importlib
import pickle

import numpy as np
import pytest

import refsvm

OLD_PATHS = {
    "refsvm.estimators._base": [
        "BudgetedClassifierBase", "ConstantModelWarning", "FeatureScaleWarning", "warn_feature_scale",
        "_feature_variances", "_variance", "SPARSE_VARIANCE_DENSE_BYTES", "_naming", "map_machines",
        "shared_doc", "kernel_and_maintenance_params", "REFIT_AND_N_JOBS_DOC",
    ],
    "refsvm.estimators.ogd": [
        "FOGDClassifier", "FOGDRegressor", "NOGDClassifier", "NOGDRegressor", "_check_bool", "_RegressorBase",
    ],
}


@pytest.mark.parametrize("module, name", [(m, n) for m, names in OLD_PATHS.items() for n in names])
def test_name_imports_from_its_old_module(module, name):
    assert hasattr(importlib.import_module(module), name)


@pytest.mark.parametrize("name", ["BudgetedSVC", "SBPClassifier", "BSCAClassifier", "FOGDClassifier",
                                  "FOGDRegressor", "NOGDClassifier", "NOGDRegressor", "OnlineKernelClassifier",
                                  "OnlineKernelRegressor"])
def test_public_class_keeps_its_module_path(name):
    cls = getattr(refsvm, name)
    expected = {"BudgetedSVC": "bsgd", "SBPClassifier": "sbp", "BSCAClassifier": "bsca",
                "OnlineKernelClassifier": "online", "OnlineKernelRegressor": "online_regression"}.get(name, "ogd")
    assert cls.__module__ == f"refsvm.estimators.{expected}"


def test_pickle_names_the_old_path_and_round_trips():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    est = refsvm.FOGDClassifier(n_components=20, random_state=0).fit(X, y)
    blob = pickle.dumps(est, protocol=2)           # protocol 2 writes module and name as text
    assert b"refsvm.estimators.ogd" in blob and b"FOGDClassifier" in blob
    assert np.array_equal(pickle.loads(blob).predict(X), est.predict(X))
