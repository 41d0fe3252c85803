"""Budget maintenance: the selection with a tie band (BSCA's removal and merging's m) chooses the same slot
on both paths, including the compiled one-pass form for one column and the Gaussian kernel (its list
of kept slots overflowing into the two passes, exact and near ties)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refsvm._fast import budget as fast_budget
from refsvm.budget import removal as ref_removal
from refsvm.budget import selection_tie_unit
from refsvm.kernels import Kernel


def _both(alpha, errors, tie_unit, kernel="rbf"):
    SV = np.random.default_rng(0).standard_normal((alpha.shape[0], 3))
    ref = ref_removal.select_smallest(SV, alpha, alpha.shape[0], kernel, 0.5, 2, 1.0, tie_unit, errors)
    fast = fast_budget.select_smallest(SV, alpha, alpha.shape[0], kernel, 0.5, 2, 1.0, tie_unit, errors)
    return (int(ref[0]), float(ref[1])), fast


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(1, 90), st.integers(0, 2**31 - 1), st.sampled_from(["ties", "near", "spread"]),
       st.booleans(), st.integers(1, 3))
def test_both_paths_choose_the_same_slot(n, seed, kind, with_errors, c):
    rng = np.random.default_rng(seed)
    if kind == "ties":                       # many exact ties: more than the 32 slots kept in one pass
        alpha = np.full((n, c), rng.choice([-1.0, 1.0]) * rng.uniform(0.1, 1.0))
        alpha[rng.random(n) < 0.2] *= 3.0
    elif kind == "near":
        alpha = (1.0 + 1e-13 * rng.standard_normal((n, c))) * rng.choice([-1.0, 1.0], size=(n, c))
    else:
        alpha = rng.standard_normal((n, c))
    errors = rng.uniform(0, 1e-12, n) if with_errors else None
    tie_unit = selection_tie_unit(Kernel("rbf"), 3) if rng.random() < 0.5 else 1e-9
    ref, fast = _both(alpha, errors, tie_unit)
    assert fast == ref


def test_many_exact_ties_overflow_the_one_pass_list():
    alpha = np.ones((100, 1))
    alpha[70] = 0.5                          # the least, after 70 slots that all lay in the running band
    ref, fast = _both(alpha, np.zeros(100), 1e-9)
    assert fast == ref == (70, 0.25)

