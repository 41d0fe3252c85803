"""Weighted SBP: the weighted water level and weighted sampling, both paths.

Oracles: the water level of an explicit basin (sorted, the volume filled column
by column), duplication (an integer weight k is k equal columns), and the
unweighted run (all weights 1 give bitwise the same run).
"""

import numpy as np
import pytest

from refsvm import SBPClassifier
from refsvm import sbp as ref
from refsvm._fast import sbp as fast

from _helpers import checkerboard

KW = dict(kernel="rbf", gamma=2.0, degree=3, coef0=0.0)


def _level_oracle(c, s, volume):
    """gamma with sum_i s_i max(0, gamma - c_i) = volume: walk the sorted columns."""
    order = np.argsort(c, kind="stable")
    c, s = c[order], s[order]
    width = 0.0
    for k in range(len(c)):
        width += s[k]
        top = c[k + 1] if k + 1 < len(c) else np.inf
        filled = np.sum(s[:k + 1] * (top - c[:k + 1])) if np.isfinite(top) else np.inf
        if filled >= volume:
            return (volume + np.sum(s[:k + 1] * c[:k + 1])) / width
    raise AssertionError


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("seed", range(6))
def test_weighted_level_against_the_basin(module, seed):
    rng = np.random.default_rng(seed)
    c = np.round(rng.normal(size=40), 1)                       # ties
    s = rng.choice([0.25, 1.0, 2.0, 3.5], size=40)
    for volume in (0.0, 0.3, 4.0, 50.0):
        got = module.find_gamma_weighted(c, s, volume)
        assert got == pytest.approx(_level_oracle(c, s, volume), rel=1e-12, abs=1e-12)
        assert np.sum(s * np.maximum(0.0, got - c)) == pytest.approx(volume, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_integer_weight_is_duplication(module):
    rng = np.random.default_rng(7)
    c = rng.normal(size=25)
    k = rng.integers(1, 4, size=25)
    got = module.find_gamma_weighted(c, k.astype(float), 6.0)
    assert got == pytest.approx(module.find_gamma(np.repeat(c, k), 6.0), rel=1e-12)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_weight_one_is_bitwise_the_unweighted_run(module):
    X, y = checkerboard(80, seed=1)
    u = np.random.default_rng(2).random(300)
    a = module.optimize(X, y, u, nu=0.05, **KW)
    b = module.optimize(X, y, u, nu=0.05, sample_weight=np.ones(80), **KW)
    np.testing.assert_array_equal(a.trace["sampled"], b.trace["sampled"])
    np.testing.assert_array_equal(a.coef, b.coef)
    np.testing.assert_array_equal(a.trace["water_level"], b.trace["water_level"])


def test_weighted_paths_agree_and_zero_weight_is_never_sampled():
    X, y = checkerboard(120, seed=3)
    X = np.vstack([X, X[:15]])                                  # duplicate rows
    y = np.concatenate([y, y[:15]])
    w = np.random.default_rng(4).choice([0.0, 0.5, 1.0, 2.0, 4.0], size=len(y))
    u = np.random.default_rng(5).random(500)
    a = ref.optimize(X, y, u, nu=0.05, sample_weight=w, **KW)
    b = fast.optimize(X, y, u, nu=0.05, sample_weight=w, **KW)
    np.testing.assert_array_equal(a.trace["sampled"], b.trace["sampled"])
    np.testing.assert_array_equal(a.trace["n_violating"], b.trace["n_violating"])
    np.testing.assert_allclose(a.coef, b.coef, rtol=1e-9, atol=1e-12)
    assert not np.any(w[a.trace["sampled"]] == 0.0)
    assert np.all(a.coef[w == 0.0] == 0.0)


def test_sampling_follows_the_weights():
    """One basin where every response is under water: the sampled index has probability s_i / sum(s)."""
    c = np.zeros(4)
    s = np.array([1.0, 2.0, 3.0, 4.0])
    u = (np.arange(1000) + 0.5) / 1000
    picks = np.array([ref._sample_weighted(c, s, 1.0, u_t, 0.0)[0] for u_t in u])
    np.testing.assert_array_equal(np.bincount(picks, minlength=4), [100, 200, 300, 400])


def test_estimator_takes_weights_both_paths():
    X, y = checkerboard(150, seed=6)
    w = np.random.default_rng(7).choice([0.5, 1.0, 3.0], size=150)
    fits = [SBPClassifier(nu=0.05, gamma=2.0, epochs=2, random_state=0, backend=b).fit(X, y, sample_weight=w)
            for b in ("python", "fast")]
    np.testing.assert_allclose(fits[0].alpha_, fits[1].alpha_, rtol=1e-9, atol=1e-12)
    a = SBPClassifier(nu=0.05, gamma=2.0, epochs=2, random_state=0, class_weight="balanced").fit(X, y)
    s = np.where(y > 0, 150 / (2 * np.sum(y > 0)), 150 / (2 * np.sum(y < 0)))
    b = SBPClassifier(nu=0.05, gamma=2.0, epochs=2, random_state=0).fit(X, y, sample_weight=s)
    np.testing.assert_array_equal(a.alpha_, b.alpha_)
