"""River adapters (refsvm.estimators.river): river's own estimator checks for every online learner,
and learn_one equal to partial_fit one example at a time (the same compiled step)."""

import numpy as np
import pytest

river = pytest.importorskip("river", reason="river is an optional extra: pip install 'refsvm[river]'")

from river import checks, datasets, evaluate, metrics, preprocessing  # noqa: E402

from refsvm import (BSCAClassifier, BudgetedSVC, FOGDClassifier, FOGDRegressor, NOGDClassifier,  # noqa: E402
                    NOGDRegressor, OnlineKernelClassifier, OnlineKernelRegressor)
from refsvm.estimators.river import RiverClassifier, RiverRegressor  # noqa: E402

ALGORITHMS = ("perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd")

CLASSIFIERS = [
    BudgetedSVC(budget=20, gamma=0.1, lam=1e-3, random_state=0),
    BudgetedSVC(budget=20, gamma=0.1, lam=1e-3, maintenance="projection", random_state=0),
    BSCAClassifier(budget=20, gamma=0.1, C=1.0, random_state=0),
    FOGDClassifier(n_components=50, gamma=0.1, random_state=0),
    NOGDClassifier(budget=20, rank=5, gamma=0.1, random_state=0),
] + [OnlineKernelClassifier(algorithm=a, budget=20, gamma=0.1, random_state=0) for a in ALGORITHMS]


def _name(est):
    return type(est).__name__ + ("-" + est.algorithm if hasattr(est, "algorithm") else "") + (
        "-" + est.maintenance if hasattr(est, "maintenance") else "")


def _river_checks(model, every_dataset):
    """river's checks of ``model`` (less the adapter's stated skips).  river runs each check that reads data on
    each of its data sets (two for a binary classifier, both streams of labelled rows); ``every_dataset``
    False keeps the first of them for the other learners: the adapter's conventions do not depend on the
    stream, and the first estimator of each list still runs every check on every data set."""
    seen = set()
    for check in checks.yield_checks(model):
        if check.__name__ in model._unit_test_skips() or (not every_dataset and check.__name__ in seen):
            continue
        seen.add(check.__name__)
        yield check


@pytest.mark.parametrize("estimator", CLASSIFIERS, ids=_name)
def test_river_checks_classifiers(estimator):
    model = RiverClassifier(estimator, classes=[False, True])
    for check in _river_checks(model, every_dataset=estimator is CLASSIFIERS[0]):
        check(model.clone())


REGRESSORS = [FOGDRegressor(n_components=50, gamma=0.1, random_state=0),
              NOGDRegressor(budget=20, rank=5, gamma=0.1, random_state=0)] + [
    OnlineKernelRegressor(algorithm=a, budget=20, gamma=0.1, random_state=0)
    for a in ("ogd", "perceptron", "rbp", "forgetron", "projectron", "bogd", "norma")]


@pytest.mark.parametrize("estimator", REGRESSORS, ids=_name)
def test_river_checks_regressors(estimator):
    model = RiverRegressor(estimator)
    for check in _river_checks(model, every_dataset=estimator is REGRESSORS[0]):
        check(model.clone())


def _stream(n=300):
    return [(x, y) for x, y in datasets.Phishing().take(n)]


@pytest.mark.parametrize("estimator", CLASSIFIERS[:3] + CLASSIFIERS[5:7], ids=_name)
@pytest.mark.parametrize("backend", ["python", "fast"])
def test_learn_one_is_partial_fit_one_example_at_a_time(estimator, backend):
    from sklearn.base import clone

    stream = _stream(150)
    names = sorted(stream[0][0])             # the adapter's column order (sorted feature names)
    adapter = RiverClassifier(clone(estimator).set_params(backend=backend), classes=[False, True])
    direct = clone(estimator).set_params(backend=backend)
    for x, y in stream:
        adapter.learn_one(x, y)
        direct.partial_fit(np.array([[x[k] for k in names]]), [y], classes=[False, True])
    X = np.array([[x[k] for k in names] for x, _ in stream])
    np.testing.assert_array_equal(adapter.estimator.decision_function(X), direct.decision_function(X))
    assert [adapter.predict_one(x) for x, _ in stream] == list(direct.predict(X))


@pytest.mark.parametrize("estimator", REGRESSORS[2:], ids=_name)
def test_regressor_learn_one_is_partial_fit_one_example_at_a_time(estimator):
    """The regression baselines through RiverRegressor: the model of partial_fit one example at a time."""
    from sklearn.base import clone

    rng = np.random.default_rng(0)
    stream = [(dict(zip("abc", row)), 3.0 * np.sin(row[0]) + row[1]) for row in rng.normal(size=(120, 3))]
    names = sorted(stream[0][0])
    estimator = clone(estimator).set_params(gamma=0.5)
    adapter, direct = RiverRegressor(clone(estimator)), clone(estimator)
    for x, y in stream:
        adapter.learn_one(x, y)
        direct.partial_fit(np.array([[x[k] for k in names]]), [y])
    X = np.array([[x[k] for k in names] for x, _ in stream])
    np.testing.assert_array_equal(adapter.estimator.predict(X), direct.predict(X))
    np.testing.assert_allclose([adapter.predict_one(x) for x, _ in stream], direct.predict(X), rtol=1e-12)
    assert direct.sv_.shape[0] > 0 and np.ptp(direct.predict(X)) > 0.5


def test_progressive_validation_learns():
    model = preprocessing.StandardScaler() | RiverClassifier(
        BudgetedSVC(budget=50, gamma=0.05, lam=1e-3, random_state=0), classes=[False, True])
    acc = evaluate.progressive_val_score(datasets.Phishing(), model, metrics.Accuracy())
    assert acc.get() > 0.8           # majority class share of Phishing is 0.56


def test_conventions_are_explicit():
    model = RiverClassifier(BudgetedSVC(budget=20, gamma=0.1), classes=[False, True])
    assert model.predict_one({"a": 1.0}) is False          # before any learning: classes[0]
    model.learn_one({"a": 1.0, "b": 0.0}, True)
    model.learn_one({"a": -1.0}, False)                   # a missing feature is 0
    with pytest.raises(ValueError, match="'c'"):
        model.learn_one({"a": 1.0, "c": 2.0}, True)       # a feature never seen before
    with pytest.raises(NotImplementedError):
        model.predict_proba_one({"a": 1.0})
    with pytest.raises(ValueError, match="gamma"):
        RiverClassifier(BudgetedSVC(), classes=[0, 1]).learn_one({"a": 1.0}, 1)
    from refsvm import SBPClassifier
    with pytest.raises(ValueError, match="partial_fit"):
        RiverClassifier(SBPClassifier(gamma=0.1), classes=[0, 1]).learn_one({"a": 1.0}, 1)
