"""n_jobs: one-vs-rest machines in threads give bitwise the model of n_jobs=1."""

import numpy as np
import pytest

from refsvm import BSCAClassifier, SBPClassifier
from refsvm.estimators._base import map_machines

rng = np.random.default_rng(0)
X = rng.normal(size=(240, 4))
Y = np.digitize(X[:, 0] + 0.5 * X[:, 1], [-0.8, 0.0, 0.8])     # 4 classes


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("make", [
    lambda b, j: BSCAClassifier(budget=15, C=1.0, gamma=0.5, epochs=2, random_state=3, backend=b, n_jobs=j),
    lambda b, j: BSCAClassifier(budget=15, C=1.0, gamma=0.5, maintenance="projection", random_state=3, backend=b,
                                n_jobs=j),
    lambda b, j: SBPClassifier(nu=0.1, gamma=0.5, epochs=2, random_state=3, backend=b, n_jobs=j),
], ids=["bsca-merge", "bsca-projection", "sbp"])
def test_threads_give_the_model_of_one_thread(make, backend):
    one = make(backend, None).fit(X, Y)
    for n_jobs in (2, -1):
        many = make(backend, n_jobs).fit(X, Y)
        np.testing.assert_array_equal(many.support_vectors_, one.support_vectors_)
        np.testing.assert_array_equal(many.alpha_, one.alpha_)
        np.testing.assert_array_equal(many.decision_function(X), one.decision_function(X))


@pytest.mark.parametrize("bad", [0, 1.5, "2", True])
def test_bad_n_jobs_names_the_parameter(bad):
    with pytest.raises(ValueError, match="n_jobs"):
        BSCAClassifier(budget=10, gamma=0.5, n_jobs=bad).fit(X, Y)


def test_map_machines_keeps_the_order():
    assert map_machines(4, lambda r: r * r, range(9)) == [r * r for r in range(9)]
