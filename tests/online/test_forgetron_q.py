"""Online learners: the Forgetron's running sum Q after a shrink by a root of its quadratic.

``phi`` solves ``Q + a phi^2 + b phi = (15/32) M``, so the exact ``Q_t = Q + Psi`` is ``(15/32) M``; with
a polynomial kernel on a constant column of ~2e3 beside ~2e-2 (generated seed 1774) ``Q`` and ``Psi`` are
~1e15 and their computed sum was 4.75 on one path and 5.25 on the other (exact 5.625), so the next
``phi`` parted by 20 % and the decision values by 5e-3 of their scale.
``refsvm.online.perceptrons.forgetron_next_Q`` takes ``(15/32) M`` where the sum cancels more than 9
bits, the sum elsewhere (bitwise as before).  Checked: the state's ``Q`` equals ``(15/32) M`` exactly
on both paths at that step; the seed agrees; the ordinary case is the plain sum.
"""

import warnings

import numpy as np
import pytest
from agreement._generate import _budget, _gamma, check, draw_config, make_data

import refsvm._fast.online as fast
import refsvm.online as ref
from refsvm.online.perceptrons import FORGETRON_Q_CANCELLATION, forgetron_next_Q

SEED = 1774


def _seed_run(impl, n_steps):
    config = draw_config(SEED)
    X, y = make_data(config)
    y = np.where(y == 1, 1, -1)
    order = np.random.default_rng(config["random_state"]).permutation(X.shape[0]).astype(np.int64)
    return impl(X, y, order[:n_steps], budget=_budget(config, X.shape[0]), kernel="poly",
                gamma=_gamma(X, config["gamma_factor"]), degree=2, coef0=1.0)


@pytest.mark.parametrize("impl", [ref.forgetron, fast.forgetron], ids=["python", "fast"])
def test_q_after_a_cancelling_root_is_exact(impl):
    """Step 17 of the seed's first pass shrinks by a root with ``|Q| ~ 1.7e15``: ``Q_t`` is (15/32) M
    exactly (M = 12 mistakes: 5.625), where the plain sum gave 4.75 / 5.25."""
    before, after = _seed_run(impl, 16), _seed_run(impl, 17)
    assert abs(before.state["Q"]) > 1e15                     # the regime: Q cancels with Psi
    assert after.state["M"] == 12
    assert after.state["Q"] == 15.0 / 32.0 * 12


def test_the_seed_agrees():
    """The same decisions and decision values within 1e-9 of their scale (reference, compiled)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = check(draw_config(SEED))
    assert result["status"] == "agree", result


def test_ordinary_sums_are_unchanged():
    """Without cancellation, after phi = 1, or when phi = 0: the plain sum ``Q + psi`` (bit for bit)."""
    M = 10
    bound = 15.0 / 32.0 * M
    assert forgetron_next_Q(1.25, 2.3, 0.5, M) == 1.25 + 2.3
    assert forgetron_next_Q(-1e20, 1e20 + 3.0, 1.0, M) == -1e20 + (1e20 + 3.0)   # phi = 1: no root
    assert forgetron_next_Q(1e20, 0.0, 0.0, M) == 1e20                           # phi = 0: nothing moved
    Q, psi = -0.39 * FORGETRON_Q_CANCELLATION * bound, 0.4 * FORGETRON_Q_CANCELLATION * bound
    assert abs(Q) + abs(psi) < FORGETRON_Q_CANCELLATION * bound   # below the switch: the sum
    assert forgetron_next_Q(Q, psi, 0.3, M) == Q + psi != bound
    Q, psi = -1e6 * bound, (1e6 + 1.3) * bound                   # beyond it: (15/32) M, not the sum
    assert forgetron_next_Q(Q, psi, 0.3, M) == bound != Q + psi
