"""BSCAClassifier: scikit-learn conventions, both backends, multi-class one-vs-rest,
partial_fit, monitoring, save/load and the command line."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import refsvm
from refsvm import BSCAClassifier, BudgetedModel
from refsvm.cli import main
from _helpers import blobs, checkerboard, kern

ESTIMATORS = [
    BSCAClassifier(budget=30, C=10.0, epochs=3, random_state=0, backend="fast"),
    BSCAClassifier(budget=20, C=10.0, epochs=2, random_state=0, backend="python"),
]


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=lambda est: {}, xfail_strict=True)
def test_sklearn_compatible(estimator, check):
    check(estimator)
