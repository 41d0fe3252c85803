"""Both paths of the online baselines (refsvm.online and refsvm._fast.online) agree step by step.

Same inputs (data, visiting order, pre-drawn uniforms) -> the same discrete
decisions (which steps update, which SV is discarded, SV count after each
step, mistakes, kernel evaluations) exactly, and coefficients to rtol 1e-9
(numpy's BLAS dot products and the C loops sum in different orders).
"""

import inspect

import numpy as np
import pytest

import refsvm.online as ref
fast = pytest.importorskip("refsvm._fast.online")

from _helpers import checkerboard

FUNCTIONS = ["perceptron", "ogd", "rbp", "forgetron", "forgetron_shrink", "projectron", "bpas", "bogd"]

# (function, extra keyword arguments); budgets small enough that maintenance happens often
CASES = [
    ("perceptron", {}),
    ("ogd", dict(eta=0.2)),
    ("rbp", dict(budget=15)),
    ("forgetron", dict(budget=15)),
    ("projectron", dict(eta=0.1, budget=15, plusplus=False)),
    ("projectron", dict(eta=0.3, budget=None, plusplus=False)),
    ("projectron", dict(eta=0.5, budget=15, plusplus=True)),
    ("projectron", dict(eta=0.3, budget=None, plusplus=True)),
    ("bpas", dict(budget=15, C=1.0)),
    ("bogd", dict(budget=15, eta=0.2, lam=1e-3, max_coef=1.5)),
]
KERNELS = [
    dict(kernel="rbf", gamma=2.0, degree=3, coef0=0.0),
    dict(kernel="poly", gamma=0.5, degree=2, coef0=1.0),
]


def _call(module, name, X, y, order, u, kw, **more):
    f = getattr(module, name)
    if name in ("rbp", "bogd"):
        return f(X, y, order, u, **kw, **more)
    return f(X, y, order, **kw, **more)


def _assert_same(a, b):
    for key in ("mistakes", "n_steps", "updates", "removals", "kernel_evaluations"):
        assert a.trace[key] == b.trace[key], key
    for key in ("update_kind", "n_sv", "removal_step", "removal_index"):
        np.testing.assert_array_equal(a.trace[key], b.trace[key], err_msg=key)
    np.testing.assert_array_equal(a.sv, b.sv)
    np.testing.assert_allclose(a.alpha, b.alpha, rtol=1e-9, atol=1e-12)
    assert a.alpha.shape == (a.sv.shape[0], 1)
    assert a.t == b.t
    assert set(a.state) == set(b.state)
    for key in a.state:
        np.testing.assert_allclose(a.state[key], b.state[key], rtol=1e-9, atol=1e-9, err_msg=key)


def test_same_public_functions_and_signatures():
    for name in FUNCTIONS:
        assert inspect.signature(getattr(ref, name)) == inspect.signature(getattr(fast, name)), name
    assert fast.OnlineResult is ref.OnlineResult


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k["kernel"])
@pytest.mark.parametrize("name,extra", CASES, ids=lambda c: c if isinstance(c, str) else "-".join(f"{k}={v}" for k, v in c.items()))
def test_one_pass_agrees(name, extra, kernel):
    X, y = checkerboard(400, seed=1)
    rng = np.random.default_rng(2)
    order = rng.permutation(len(y))
    u = rng.random(len(y))
    a = _call(ref, name, X, y, order, u, {**kernel, **extra})
    b = _call(fast, name, X, y, order, u, {**kernel, **extra})
    _assert_same(a, b)
    if "budget" in extra and extra["budget"] is not None and name != "projectron":
        assert a.trace["removals"] > 0       # maintenance was exercised


@pytest.mark.parametrize("name,extra", CASES[:-1:2] + [CASES[-1]], ids=lambda c: c if isinstance(c, str) else "")
def test_continuation_agrees(name, extra):
    """Two passes, the second continuing model, t and state of the first (both paths)."""
    X, y = checkerboard(300, seed=3)
    kw = dict(kernel="rbf", gamma=2.0, degree=3, coef0=0.0, **extra)
    out = []
    for module in (ref, fast):
        r = np.random.default_rng(5)
        o1, u1 = r.permutation(300), r.random(300)
        o2, u2 = r.permutation(300), r.random(300)
        first = _call(module, name, X, y, o1, u1, kw)
        second = _call(module, name, X, y, o2, u2, kw, sv=first.sv, alpha=first.alpha,
                       t0=first.t, state=first.state)
        out.append(second)
    _assert_same(*out)
    assert out[0].t == 600


def test_forgetron_shrink_agrees():
    rng = np.random.default_rng(0)
    for _ in range(500):
        sigma, mu = rng.uniform(0, 2), rng.uniform(-3, 3)
        M = int(rng.integers(1, 50))
        Q = rng.uniform(0, 15 / 32 * M)
        pa, qa = ref.forgetron_shrink(sigma, mu, Q, M)
        pb, qb = fast.forgetron_shrink(sigma, mu, Q, M)
        assert pa == pytest.approx(pb, rel=1e-12, abs=1e-15)
        assert qa == pytest.approx(qb, rel=1e-12, abs=1e-15)
