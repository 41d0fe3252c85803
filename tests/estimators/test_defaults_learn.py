"""Defaults that learn: the estimators built with no parameter but ``random_state``.

Measured over every shipped data set by ``benchmarks/bench_defaults.py``; here the
cases a new user hit: ``NOGDClassifier()`` and ``BudgetedSVC(learning_rate="norma")``
on ijcnn1 predicted only the majority class (90.50 %), ``FOGDRegressor()`` on raw
cadata gave a negative R^2 without a word.  Oracles: the majority share of the test
labels (what the constant classifier scores) and R^2 = 0 (the mean's score).
"""

import warnings

import numpy as np
import pytest

from refsvm import (BudgetedSVC, ConstantModelWarning, FeatureScaleWarning, FOGDClassifier, FOGDRegressor,
                    NOGDClassifier, NOGDRegressor)
from refsvm.estimators._base import _feature_variances, warn_feature_scale


def _majority(y):
    return np.max(np.unique(y, return_counts=True)[1]) / len(y)


def test_nogd_default_budget_and_norma_default_eta():
    assert NOGDClassifier().budget == 400 and NOGDRegressor().budget == 400
    assert BudgetedSVC().eta is None
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    norma = BudgetedSVC(learning_rate="norma", lam=1e-4, budget=10, random_state=0)
    assert norma._algorithm_params()["eta"] == pytest.approx(100.0)        # 1 / sqrt(lam)
    perceptron = BudgetedSVC(learning_rate="perceptron", budget=10, random_state=0)
    assert perceptron._algorithm_params()["eta"] == 0.1
    assert BudgetedSVC(learning_rate="norma", eta=0.5)._algorithm_params()["eta"] == 0.5
    with pytest.raises(ValueError, match="eta"):
        BudgetedSVC(learning_rate="norma", eta=-1.0).fit(X, y)


@pytest.mark.parametrize("make", [
    lambda: NOGDClassifier(random_state=0),
    lambda: BudgetedSVC(learning_rate="norma", random_state=0),
    lambda: BudgetedSVC(random_state=0),
    lambda: FOGDClassifier(random_state=0),
], ids=["nogd", "bsgd-norma", "bsgd", "fogd"])
def test_defaults_learn_on_ijcnn1(require_data, make):
    X, y, Xt, yt = require_data("ijcnn1")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConstantModelWarning)
        est = make().fit(X, y)
    pred = est.predict(Xt)
    assert len(np.unique(pred)) == 2
    # FOGD's default (D = 400, one pass) is the weakest: a point above the majority's 90.50 %
    assert np.mean(pred == yt) > _majority(yt) + 0.01


def test_feature_scale_warning_names_the_feature():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    X[:, 2] *= 1000.0
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.warns(FeatureScaleWarning, match="feature 2 holds 100% of the variance"):
        BudgetedSVC(budget=10, random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FeatureScaleWarning)
        BudgetedSVC(budget=10, random_state=0).fit(X / X.std(axis=0), y)      # standardised: silent
        BudgetedSVC(budget=10, random_state=0).fit(X[:, 1:3], y)              # two features: never
        BudgetedSVC(budget=10, kernel="linear", maintenance="removal", random_state=0).fit(X, y)


def test_feature_variances_against_numpy():
    X = np.random.default_rng(1).normal(3.0, 2.0, size=(1001, 7)) * np.arange(1, 8)
    np.testing.assert_allclose(_feature_variances(X, rows=64), X.var(axis=0), rtol=1e-12)


def test_feature_scale_rule_on_a_balanced_and_a_dominated_matrix():
    X = np.random.default_rng(2).normal(size=(100, 3))
    X[:, 0] *= 1.1          # 1.21 / 3.21 = 38 % of the variance
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_feature_scale(X, "E")
    X[:, 0] *= 1.5          # 2.72 / 4.72 = 58 %
    with pytest.warns(FeatureScaleWarning):
        warn_feature_scale(X, "E")


def test_fogd_regressor_on_cadata_warns_raw_and_learns_standardised(require_data):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y, _, _ = require_data("cadata")
    perm = np.random.default_rng(0).permutation(len(y))
    cut = len(y) - len(y) // 4
    X, y, Xt, yt = X[perm[:cut]], y[perm[:cut]], X[perm[cut:]], y[perm[cut:]]

    def r2(pred):
        return 1.0 - np.sum((yt - pred) ** 2) / np.sum((yt - yt.mean()) ** 2)

    with pytest.warns(FeatureScaleWarning, match="standardise X"):
        FOGDRegressor(random_state=0).fit(X, y)
    for est in (FOGDRegressor(random_state=0), NOGDRegressor(random_state=0)):
        with warnings.catch_warnings():
            warnings.simplefilter("error", FeatureScaleWarning)
            model = make_pipeline(StandardScaler(), est).fit(X, y)
        assert r2(model.predict(Xt)) > 0.3, type(est).__name__


def test_ogd_default_step_learns(require_data):
    """OnlineKernelClassifier("ogd") with eta = 0.1 predicted the majority class on ijcnn1 (every example
    updates); the default eta=None is 1.0 for OGD and 0.2 for BOGD (tests/estimators/test_bogd_defaults.py)."""
    from refsvm import OnlineKernelClassifier

    assert OnlineKernelClassifier("ogd")._algorithm_params()["eta"] == 1.0
    assert OnlineKernelClassifier("bogd")._algorithm_params()["eta"] == 0.2
    X, y, Xt, yt = require_data("ijcnn1")
    rows = np.sort(np.random.default_rng(0).choice(len(y), 4000, replace=False))
    pred = OnlineKernelClassifier("ogd", random_state=0).fit(X[rows], y[rows]).predict(Xt)
    assert len(np.unique(pred)) == 2 and np.mean(pred == yt) > _majority(yt) + 0.01


class _Scripted(BudgetedSVC):
    """A fitted-looking classifier whose predictions are scripted by row (for the constant check)."""

    def predict(self, X):
        self.calls = getattr(self, "calls", 0) + 1
        return np.where(X[:, 0] > self.threshold_, 1, -1)


@pytest.mark.parametrize("n, other_rows, warns", [
    (5000, [], True),                  # one class everywhere
    (5000, [4999], False),             # the other class only in the subsample's last row
    (5000, [0], False),                # ... early: settled by the first rows
    (150, [140], False),               # fewer rows than the first batch
    (150, [], True),
])
def test_constant_check_sees_the_whole_subsample(n, other_rows, warns):
    """The check predicts the first CONSTANT_CHECK_FIRST rows of its subsample first; the rest only
    when those gave one class, so it warns exactly when the whole subsample gets one class."""
    X = np.zeros((n, 2))
    X[other_rows, 0] = 1.0
    est = _Scripted()
    est.threshold_ = 0.5
    est.classes_ = np.array([-1, 1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est._warn_if_constant(X)
    assert any(issubclass(w.category, ConstantModelWarning) for w in caught) == warns
    assert est.calls == (1 if (other_rows and other_rows[0] == 0) or n <= est.CONSTANT_CHECK_FIRST else 2)
