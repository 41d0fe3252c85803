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


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("classes", [1, 4])
def test_prediction_blocks_in_threads_are_bitwise_one_thread(kernel, sparse, classes):
    """decision_blocks over many blocks (block=7 rows): the values of one thread, bitwise."""
    import scipy.sparse as sps

    from refsvm.model import BudgetedModel, decision_blocks

    r = np.random.default_rng(1)
    Xp = r.normal(size=(101, 6))
    Xp[Xp < 0.3] = 0.0
    SV = r.normal(size=(23, 6))
    coef = r.normal(size=(23, classes))
    bias = r.normal(size=classes)
    Xin, SVin = (sps.csr_matrix(Xp), sps.csr_matrix(SV)) if sparse else (Xp, SV)
    one = decision_blocks(Xin, SVin, coef, bias, kernel, 0.3, 2, 1.0, block=7)
    assert one.shape == (101, classes)
    for n_jobs in (2, 3, -1):
        many = decision_blocks(Xin, SVin, coef, bias, kernel, 0.3, 2, 1.0, block=7, n_jobs=n_jobs)
        np.testing.assert_array_equal(many, one)
    # the model's decision_function with the default blocks, and through an estimator
    model = BudgetedModel(support_vectors=SVin, coef=coef, kernel=kernel, gamma=0.3, degree=2, coef0=1.0,
                          bias=bias, classes=np.arange(max(classes, 2)))
    np.testing.assert_array_equal(model.decision_function(Xin, backend="fast", n_jobs=2),
                                  model.decision_function(Xin, backend="fast"))
    with pytest.raises(ValueError, match="n_jobs"):
        model.decision_function(Xin, backend="fast", n_jobs=0)


def test_estimator_prediction_uses_n_jobs():
    est = BSCAClassifier(budget=15, C=1.0, gamma=0.5, random_state=3, n_jobs=2).fit(X, Y)
    F2 = est.decision_function(X)
    est.set_params(n_jobs=None)
    np.testing.assert_array_equal(est.decision_function(X), F2)
    est.set_params(n_jobs=0)
    with pytest.raises(ValueError, match="n_jobs"):
        est.predict(X)
