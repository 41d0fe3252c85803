"""Estimators: scikit-learn's estimator checks for OnlineKernelRegressor (every regression baseline).

``expected_failed_checks`` lists the checks it is known to fail, with the reason;
``xfail_strict=True`` keeps the list honest.  RBP and BOGD declare the ``poor_score``
tag, and so do the Forgetron and the Projectron (:meth:`OnlineKernelRegressor.__sklearn_tags__`).
"""

from sklearn.utils.estimator_checks import parametrize_with_checks

from refsvm import OnlineKernelRegressor


def expected_failed_checks(estimator):
    reason = ("online gradient descent: weight k scales one step by k, repeating an example k "
              "times takes k steps at other places of the visiting order, each after the model "
              "changed (scikit-learn's SGDRegressor is exempt for the same reason)")
    return {
        "check_sample_weight_equivalence_on_dense_data": reason,
        "check_sample_weight_equivalence_on_sparse_data": reason,
    }


ESTIMATORS = [
    OnlineKernelRegressor(algorithm="ogd", random_state=0, backend="fast"),
    OnlineKernelRegressor(algorithm="ogd", random_state=0, backend="python"),
    OnlineKernelRegressor(algorithm="rbp", random_state=0, epochs=2),
    OnlineKernelRegressor(algorithm="bogd", lam=0.01, random_state=0, epochs=2),
    OnlineKernelRegressor(algorithm="norma", lam=0.01, random_state=0, epochs=2),
    OnlineKernelRegressor(algorithm="perceptron", random_state=0, epochs=2),
    OnlineKernelRegressor(algorithm="forgetron", random_state=0, epochs=2),
    OnlineKernelRegressor(algorithm="forgetron", variant="authors", random_state=0, epochs=2),
    OnlineKernelRegressor(algorithm="projectron", random_state=0, epochs=2),
]


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks, xfail_strict=True)
def test_sklearn_compatible(estimator, check):
    check(estimator)
