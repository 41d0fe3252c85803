"""Estimators: OnlineKernelRegressor (regression OGD, Perceptron, RBP, Forgetron, Projectron, BOGD, Norma): both
backends, continuation, bad options."""

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm import OnlineKernelRegressor


def _data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)


@pytest.mark.parametrize("algorithm", ["ogd", "perceptron", "rbp", "forgetron", "projectron", "bogd", "norma"])
def test_backends_and_csr_agree(algorithm):
    X, y = _data()
    fits = [OnlineKernelRegressor(algorithm=algorithm, backend=b, lam=0.01, epochs=2, budget=20,
                                  random_state=3).fit(Z, y)
            for b in ("python", "fast") for Z in (X, sp.csr_matrix(X))]
    for m in fits[1:]:
        np.testing.assert_allclose(m.alpha_, fits[0].alpha_, rtol=0, atol=1e-9)
        np.testing.assert_allclose(m.predict(X), fits[0].predict(X), rtol=0, atol=1e-9)
    assert fits[0].score(X, y) > 0.0


def test_partial_fit_continues_fit():
    """OGD without shuffling: two partial_fit halves make the model of one fit."""
    X, y = _data()
    whole = OnlineKernelRegressor(algorithm="ogd", shuffle=False, gamma=0.5).fit(X, y)
    parts = OnlineKernelRegressor(algorithm="ogd", shuffle=False, gamma=0.5)
    parts.partial_fit(X[:60], y[:60]).partial_fit(X[60:], y[60:])
    np.testing.assert_allclose(parts.alpha_, whole.alpha_, rtol=0, atol=1e-12)
    assert parts.t_ == whole.t_ == 120


@pytest.mark.parametrize("param,value", [("algorithm", "bpas"), ("eta", 0.0), ("epsilon", -0.1),
                                         ("budget", 1), ("backend", "gpu"), ("max_coef", 0.0),
                                         ("nu", -0.5), ("variant", "other")])
def test_bad_option_names_the_parameter(param, value):
    X, y = _data(20)
    kw = {"algorithm": {"nu": "norma", "variant": "forgetron"}.get(param, "bogd"), param: value}
    with pytest.raises(ValueError, match=param):
        OnlineKernelRegressor(**kw).fit(X, y)
