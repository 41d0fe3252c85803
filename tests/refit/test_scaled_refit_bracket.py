"""refit_bias="scaled": the scale search finds the joint minimiser of the hinge loss at any scale of f.

Oracle: brute force over every breakpoint of phi(s) = min_b L(s f + b) (phi is
piecewise linear in s with its breakpoints at s = 2 / |f_i - f_j| for rows of
opposite labels, so its minimum over s >= the first breakpoint is attained at
one of them), each evaluated with the exact offset written out here over
every kink.  Decision functions far below and far above unit scale (the
BSCA C = 1e-6 case: median |f| about 1e-6, optimum near s = 2e5).
"""

import numpy as np
import pytest
from _helpers import checkerboard

from refsvm import BSCAClassifier
from refsvm import refit as refit_ref
from refsvm.backend import get_module

BACKENDS = ["python", "fast"]


def loss_at(f, y, w, s):
    """min_b of the weighted mean hinge loss of s f + b, over every kink (the minimum is at a kink)."""
    g = s * f
    kinks = y - g
    losses = (w[:, None] * np.maximum(0.0, 1.0 - y[:, None] * (g[:, None] + kinks[None, :]))).sum(0)
    return float(losses.min() / w.sum())


def brute_force_joint(f, y, w):
    """Smallest phi(s) over every breakpoint s = 2 / |f_i - f_j| (opposite labels) and the limit s -> 0."""
    pos, neg = f[y > 0], f[y < 0]
    gaps = np.abs(pos[:, None] - neg[None, :]).ravel()
    scales = np.unique(2.0 / gaps[gaps > 0])
    near_zero = loss_at(f, y, w, 1e-12 * scales.min())     # phi is affine below the first breakpoint
    return min(near_zero, min(loss_at(f, y, w, s) for s in scales)), scales


def problem(rng, m, scale, weighted):
    x = rng.normal(size=m)
    y = np.where(x + 0.8 * rng.normal(size=m) > 0, 1, -1)
    w = rng.uniform(0.2, 2.0, size=m) if weighted else np.ones(m)
    return scale * x + scale * 0.3, y, w


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("scale", [1e-9, 1e-6, 1.0, 1e5, 1e9])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_scaled_refit_reaches_the_brute_force_joint_minimum(backend, scale, weighted):
    module = get_module("refit", backend)
    rng = np.random.default_rng(int(np.log10(scale)) + 20 + weighted)
    for m in (6, 30, 60):
        f, y, w = problem(rng, m, scale, weighted)
        if m == 30:
            y = rng.choice([-1, 1], size=m)             # a model no better than a constant: s -> 0
        best, scales = brute_force_joint(f, y, w)
        threshold, s, loss = module.scaled_hinge_offset(f, y, w if weighted else None)
        assert loss <= best + 3e-9, (m, s, loss, best, scales.min(), scales.max())
        assert loss == pytest.approx(loss_at(f, y, w, s), abs=1e-9)


def test_tiny_decision_values_give_a_scale_beyond_the_old_bracket():
    """Old search: log s in [-4, 4] decades; f of order 1e-6 needs s near 1e6."""
    rng = np.random.default_rng(5)
    f, y, w = problem(rng, 80, 1e-6, False)
    best, _ = brute_force_joint(f, y, w)
    _, s, loss = refit_ref.scaled_hinge_offset(f, y)
    assert s > 1e4 and loss <= best + 1e-9
    assert loss_at(f, y, w, 1e4) > best + 1e-3     # the old bound was far from the minimum


def test_the_paths_agree_bitwise_at_extreme_scales():
    fast = pytest.importorskip("refsvm._fast.refit")
    rng = np.random.default_rng(8)
    for scale in (1e-8, 1e8):
        f, y, w = problem(rng, 50, scale, True)
        assert refit_ref.scaled_hinge_offset(f, y, w) == fast.scaled_hinge_offset(f, y, w)
        F = rng.normal(size=(40, 3)) * scale
        yc = rng.integers(0, 3, size=40)
        a = refit_ref.scaled_crammer_singer_offsets(F, yc, np.zeros(3))
        b = fast.scaled_crammer_singer_offsets(F, yc, np.zeros(3))
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1:] == b[1:]


def test_multiclass_scale_is_searched_beyond_the_old_bracket():
    """Coordinate descent (not exact): the result is no worse than the best of a grid of scales."""
    rng = np.random.default_rng(9)
    F = rng.normal(size=(60, 3)) * 1e-7
    yc = np.argmax(F + 1e-7 * rng.normal(size=(60, 3)), axis=1)
    _, s, loss = refit_ref.scaled_crammer_singer_offsets(F, yc, np.zeros(3))
    grid = [refit_ref.crammer_singer_offsets(t * F, yc, np.zeros(3))[1] for t in 10.0 ** np.arange(0, 14, 0.25)]
    assert s > 1e4 and loss <= min(grid) + 1e-9


def test_constant_decision_values_keep_unit_scale():
    f, y = np.full(10, 0.3), np.array([1, -1] * 5)
    assert refit_ref.scaled_hinge_offset(f, y)[1] == 1.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_bsca_at_tiny_c_refits_to_the_joint_minimum(backend):
    X, y = checkerboard(200, seed=4)
    kw = dict(budget=20, C=1e-6, gamma=2.0, epochs=2, random_state=0, backend=backend)
    est = BSCAClassifier(refit_bias="scaled", **kw).fit(X, y)
    off = BSCAClassifier(**kw).fit(X, y)
    f = off.decision_function(X) - np.ravel(off.bias_)[0]    # the kernel part
    yy = np.where(y == est.classes_[1], 1, -1)
    best, _ = brute_force_joint(f, yy, np.ones(len(yy)))
    tr = est.trace_[-1]
    assert tr["refit_scale"] > 1e4
    assert tr["refit_scaled_hinge"] <= best + 1e-9


def test_constant_multiclass_decision_values_keep_unit_scale():
    F, yc = np.zeros((9, 3)), np.arange(9) % 3
    assert refit_ref.scaled_crammer_singer_offsets(F, yc, np.zeros(3))[1] == 1.0
