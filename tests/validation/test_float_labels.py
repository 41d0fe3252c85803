"""The function layer refuses labels that are not exactly -1 / +1 before casting them to integers (a float label
1.7 used to run as 1): the online learners and IDSVM, both paths."""

import numpy as np
import pytest

from refsvm.backend import get_module

X = np.array([[0.0], [1.0], [2.0]])


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("y", [[1.7, -1.2, 1.0], [1.0, -1.0, 0.5], [1.0, -1.0, 2.0]])
def test_online_learners_refuse_non_label_floats(backend, y):
    online = get_module("online", backend)
    with pytest.raises(ValueError, match="y must hold labels -1 and \\+1"):
        online.perceptron(X, np.array(y), np.arange(3), kernel="rbf", gamma=1.0, degree=3, coef0=0.0)


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("y", [[1.7, -1.2, 1.0], [1.0, -1.0, 0.5]])
def test_idsvm_refuses_non_label_floats(backend, y):
    idsvm = get_module("idsvm", backend).idsvm
    with pytest.raises(ValueError, match="y must hold labels -1 and \\+1"):
        idsvm(X, np.array(y), np.arange(3), C=1.0)


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_float_labels_of_exactly_one_still_run(backend):
    """-1.0 / +1.0 as floats are labels: the same model as the integers (bitwise)."""
    idsvm = get_module("idsvm", backend).idsvm
    a = idsvm(X, np.array([1.0, -1.0, 1.0]), np.arange(3), C=1.0)
    b = idsvm(X, np.array([1, -1, 1]), np.arange(3), C=1.0)
    assert np.array_equal(a.alpha_all, b.alpha_all) and a.bias == b.bias
