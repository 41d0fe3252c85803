"""refit_bias="scaled", compiled path: the scale search sorts the kinks once and solves every step bitwise.

Oracle: the reference's exact offset, ``refsvm.refit.hinge_offset(s * f, y, w)``
(a full ``numpy.lexsort`` at each ``s``), on problems built to stress the one-sort
shortcut: ties in ``f`` with different weights, values of ``f`` one ulp apart whose
products ``s * f`` round to the same kink (equal ``t`` from distinct ``f``, where the
order must fall back to the weights), zero weights, and scales from 1e-12 to 1e8.
"""

import numpy as np
import pytest

from refsvm import refit as refit_ref
from refsvm._fast import refit as refit_fast

SCALES = [1e-12, 1e-9, 3e-6, 0.01, 0.3, 1.0, 7.0, 1e3, 1e8]


def problems(seed=1, count=120):
    rng = np.random.default_rng(seed)
    for trial in range(count):
        m = int(rng.integers(1, 60))
        kind = trial % 4
        if kind == 0:
            f = rng.normal(0.0, 40.0, m)
        elif kind == 1:
            f = rng.integers(-3, 4, m).astype(float)                     # ties in f
        elif kind == 2:
            f = 1.0 + np.spacing(1.0) * rng.integers(0, 4, m)            # one ulp apart: s f rounds together
        else:
            f = rng.normal(0.0, 1.0, m) * 10.0 ** float(rng.integers(-5, 5))
        y = rng.choice(np.array([-1, 1], dtype=np.int64), m)
        w = np.ones(m) if trial % 3 == 0 else rng.choice([0.0, 0.3, 0.5, 1.0, 2.0], m)
        yield f, y, w


def test_each_step_is_the_reference_offset_and_loss_bitwise():
    checked = 0
    for f, y, w in problems():
        if not np.any(w > 0):
            continue
        kinks = refit_fast.ScaledKinks(f, y, w)
        for s in SCALES:
            assert kinks.solve(s) == refit_ref.hinge_offset(s * f, y, w), (f, y, w, s)
            checked += 1
    assert checked > 500


def test_scaled_search_equals_the_reference_bitwise():
    for f, y, w in problems(seed=2, count=60):
        assert refit_fast.scaled_hinge_offset(f, y, w) == refit_ref.scaled_hinge_offset(f, y, w)


def test_scaled_search_does_not_sort_at_every_step(monkeypatch):
    """The old compiled search called the full ``hinge_offset`` (a qsort of all kinks) at each of its
    50-80 golden-section steps; the search now calls it never (one sort in ``ScaledKinks``)."""
    rng = np.random.default_rng(3)
    f = rng.normal(0.0, 40.0, 2000)
    y = np.where(rng.random(2000) < 0.25, 1, -1)
    expected = refit_ref.scaled_hinge_offset(f, y)
    calls = []
    original = refit_fast.hinge_offset

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(refit_fast, "hinge_offset", counting)
    assert refit_fast.scaled_hinge_offset(f, y) == expected
    assert len(calls) == 0


@pytest.mark.parametrize("s", [0.0, -1.0])
def test_solve_is_for_positive_scales_only(s):
    """The one-sort order holds for s > 0 only; the search never asks for another scale."""
    f = np.array([0.5, -0.25, 2.0])
    y = np.array([1, -1, 1], dtype=np.int64)
    with pytest.raises(ValueError, match="s must be > 0"):
        refit_fast.ScaledKinks(f, y, np.ones(3)).solve(s)
