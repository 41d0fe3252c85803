"""scikit-learn's estimator checks for :class:`refsvm.SBPClassifier` (both backends).

Same protocol as tests/test_sklearn_checks.py: every check scikit-learn runs
on a classifier, ``xfail_strict=True`` for the (empty) list of known failures.
The reference backend runs with fewer epochs (its water level is a Python loop).
"""

from sklearn.utils.estimator_checks import parametrize_with_checks

from refsvm import SBPClassifier


def expected_failed_checks(estimator):
    return {}


ESTIMATORS = [
    SBPClassifier(nu=0.05, epochs=5, random_state=0, backend="fast"),
    SBPClassifier(nu=0.05, epochs=3, fit_intercept=True, random_state=0, backend="fast"),
    SBPClassifier(nu=0.05, epochs=1, random_state=0, backend="python"),
]


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks, xfail_strict=True)
def test_sklearn_compatible(estimator, check):
    check(estimator)
