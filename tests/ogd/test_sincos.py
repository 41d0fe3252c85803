"""The compiled feature map's block sin/cos (refsvm/_fast/ogd_core.pxd, ``sincos_block``).

Oracle: numpy's sin and cos (glibc).  The documented bound is an absolute error below 4.5e-16
(two units in the last place of 1) for |x| <= 2^18; larger arguments and NaN go to libm.
"""

import numpy as np
import pytest

from refsvm._fast.fogd import _sincos_block

BOUND = 4.5e-16


@pytest.mark.parametrize("scale", [1e-300, 1e-8, 1e-3, 1.0, 30.0, 1e3, 1e5, 2.0 ** 18])
def test_within_the_bound_against_libm(scale):
    p = np.random.default_rng(int(np.log2(scale) + 1200)).uniform(-scale, scale, 400_000)
    z = _sincos_block(p)
    assert np.max(np.abs(z[0::2] - np.sin(p))) <= BOUND
    assert np.max(np.abs(z[1::2] - np.cos(p))) <= BOUND


def test_quadrant_boundaries_and_exact_values():
    k = np.arange(-100_000, 100_000)
    for p in (k * (np.pi / 2), k * (np.pi / 2) + 1e-9, k * (np.pi / 4)):
        z = _sincos_block(p)
        assert np.max(np.abs(z[0::2] - np.sin(p))) <= BOUND
        assert np.max(np.abs(z[1::2] - np.cos(p))) <= BOUND
    z = _sincos_block(np.array([0.0, -0.0]))
    assert z[0] == 0.0 and z[1] == 1.0 and z[3] == 1.0


def test_large_and_nan_fall_back_to_libm():
    p = np.array([0.5, 3e5, -1e12, 7.0])
    np.testing.assert_allclose(_sincos_block(p)[0::2], np.sin(p), rtol=0, atol=BOUND)   # the block via libm
    np.testing.assert_allclose(_sincos_block(p)[1::2], np.cos(p), rtol=0, atol=BOUND)
    z = _sincos_block(np.array([0.5, np.nan]))
    assert np.isnan(z[2]) and np.isnan(z[3]) and abs(z[0] - np.sin(0.5)) <= BOUND


def test_scale_multiplies_both():
    p = np.linspace(-10, 10, 101)
    np.testing.assert_allclose(_sincos_block(p, 0.05), 0.05 * _sincos_block(p), rtol=0, atol=1e-17)
