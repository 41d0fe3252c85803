"""Online regression baselines (refsvm.online.regression): one step of the regression Perceptron, Forgetron and
Projectron (Lu et al.'s perceptron.m, forgetron.m, projectron.m) recomputed by brute force on explicit lists:
kernel values by hand, the Forgetron's shrink from numpy's polynomial roots, the Projectron's projection from a
dense solve with K (no code shared with the modules)."""

import numpy as np
import pytest

from refsvm._fast import online as fast
from refsvm.online import regression as ref

ETA, EPSILON, GAMMA = 0.2, 0.1, 0.5
KW = dict(eta=ETA, epsilon=EPSILON, kernel="rbf", gamma=GAMMA, degree=3, coef0=0.0)


def _rbf(a, b):
    return float(np.exp(-GAMMA * np.sum((a - b) ** 2)))


def _model(seed=3):
    rng = np.random.default_rng(seed)
    sv = [rng.normal(size=2) for _ in range(3)]
    return sv, [0.7, -0.4, 1.3], rng.normal(size=2)


def _step(delta, s_t):
    return ETA * s_t * np.sign(delta)


def _forgetron_phi(sigma, mu, Q, M, authors):
    """max{phi in [0, 1]: Q + Psi(sigma phi, phi mu) <= 15/32 M}, Psi(l, m) = l^2 + 2 l - 2 l m (Dekel et al.);
    the authors' code: the larger root when the parabola opens downwards."""
    a, b, c = sigma * sigma - 2.0 * sigma * mu, 2.0 * sigma, Q - 15.0 / 32.0 * M
    if a + b + c <= 0.0:
        return 1.0
    roots = np.roots([a, b, c])
    roots = roots[np.abs(roots.imag) < 1e-12].real
    if authors and a < 0.0:
        return float(roots.max())
    return float(roots[(roots >= 0.0) & (roots <= 1.0)].max())


def _brute_forgetron(sv, alpha, x, y_t, s_t, age, authors, Q=0.0, M=0):
    f = sum(a * _rbf(v, x) for v, a in zip(sv, alpha))
    delta = y_t - f
    if abs(delta) <= EPSILON:
        return sv, alpha, None
    sv, alpha = sv + [x], alpha + [_step(delta, s_t)]       # f' = f + eta s sign(delta) k(x, .)
    r = int(np.argmin(age))                                 # the oldest of the B = 3 SVs held
    sigma = abs(alpha[r])
    mu = abs(sum(a * _rbf(v, sv[r]) for v, a in zip(sv, alpha)))
    phi = _forgetron_phi(sigma, mu, Q, M + 1, authors)
    alpha = [phi * a for a in alpha]
    sv[r], alpha[r] = sv[-1], alpha[-1]                     # removal: the last SV moves into slot r
    return sv[:-1], alpha[:-1], phi


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("y_t", [2.5, -2.5, 0.6, 0.4])    # 0.4: inside the tube
def test_perceptron_step(module, y_t):
    sv, alpha, x = _model()
    X, y = np.vstack(sv + [x]), np.array([0.0, 0.0, 0.0, y_t])
    w = np.array([1.0, 1.0, 1.0, 1.5])
    res = module.regression_perceptron(X, y, np.array([3]), sv=np.vstack(sv), alpha=np.array(alpha).reshape(-1, 1),
                                       sample_weight=w, **KW)
    delta = y_t - sum(a * _rbf(v, x) for v, a in zip(sv, alpha))
    sv_b, alpha_b = (sv, alpha) if abs(delta) <= EPSILON else (sv + [x], alpha + [_step(delta, 1.5)])
    np.testing.assert_array_equal(res.sv, np.vstack(sv_b))
    np.testing.assert_allclose(res.alpha[:, 0], alpha_b, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("variant", ["paper", "authors"])
@pytest.mark.parametrize("y_t", [2.5, -2.5, 0.4])
@pytest.mark.parametrize("age", [[-3, -2, -1], [-2, -3, -1], [-2, -1, -3]], ids=["oldest0", "oldest1", "oldest2"])
def test_forgetron_step(module, variant, y_t, age):
    """B = 3 SVs held, one example outside the tube: add, shrink by phi, forget the oldest (slot 0, 1 or 2;
    slot 1 has f'(x_r) < 0: mu = |f'(x_r)|, the code's abs(f_tp))."""
    sv, _, x = _model()
    alpha = [0.7, -1.6, 1.3]
    X, y = np.vstack(sv + [x]), np.array([0.0, 0.0, 0.0, y_t])
    w = np.array([1.0, 1.0, 1.0, 1.5])
    state = {"Q": 0.0, "M": 0, "age": np.array(age, dtype=np.int64)}
    res = module.regression_forgetron(X, y, np.array([3]), budget=3, sv=np.vstack(sv),
                                      alpha=np.array(alpha).reshape(-1, 1), state=state, sample_weight=w,
                                      variant=variant, **KW)
    sv_b, alpha_b, phi = _brute_forgetron(sv, alpha, x, y_t, 1.5, age, variant == "authors")
    np.testing.assert_array_equal(res.sv, np.vstack(sv_b))
    np.testing.assert_allclose(res.alpha[:, 0], alpha_b, rtol=1e-12, atol=1e-15)
    assert res.state["M"] == (0 if phi is None else 1)
    if phi is not None and (variant == "paper" or age[0] == -3):   # exercised: the shrink, the code's larger root
        assert phi < 1.0 if variant == "paper" else phi > 1.0


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("budget", [3, 4], ids=["full", "room"])
@pytest.mark.parametrize("y_t", [2.5, -2.5, 0.4])
def test_projectron_step(module, budget, y_t):
    """With B SVs held the step is projected, alpha += c K^{-1} k_t (dense solve); below B, x_t is added."""
    sv, alpha, x = _model()
    X, y = np.vstack(sv + [x]), np.array([0.0, 0.0, 0.0, y_t])
    w = np.array([1.0, 1.0, 1.0, 1.5])
    res = module.regression_projectron(X, y, np.array([3]), budget=budget, sv=np.vstack(sv),
                                       alpha=np.array(alpha).reshape(-1, 1), sample_weight=w, **KW)
    k_t = np.array([_rbf(v, x) for v in sv])
    delta = y_t - float(np.dot(alpha, k_t))
    if abs(delta) <= EPSILON:
        sv_b, alpha_b = sv, alpha
    elif budget == 3:
        K = np.array([[_rbf(a, b) for b in sv] for a in sv])
        sv_b, alpha_b = sv, list(np.array(alpha) + _step(delta, 1.5) * np.linalg.solve(K, k_t))
    else:
        sv_b, alpha_b = sv + [x], alpha + [_step(delta, 1.5)]
    np.testing.assert_array_equal(res.sv, np.vstack(sv_b))
    np.testing.assert_allclose(res.alpha[:, 0], alpha_b, rtol=1e-11, atol=1e-14)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_projectron_repeated_row_is_projected(module):
    """An example equal to an SV lies in the span: projected (K^{-1} k_t = e_j), not added, with room left."""
    sv, alpha, _ = _model()
    X, y = np.vstack(sv + [sv[1]]), np.array([0.0, 0.0, 0.0, 3.0])
    res = module.regression_projectron(X, y, np.array([3]), budget=10, sv=np.vstack(sv),
                                       alpha=np.array(alpha).reshape(-1, 1), **KW)
    assert res.trace["update_kind"][0] == 2
    np.testing.assert_allclose(res.alpha[:, 0], [0.7, -0.4 + ETA, 1.3], rtol=0, atol=1e-12)


@pytest.mark.parametrize("module", [ref, fast], ids=["python", "fast"])
def test_bad_arguments_name_the_parameter(module):
    sv, alpha, x = _model()
    X, y, order = np.vstack(sv + [x]), np.zeros(4), np.arange(4)
    with pytest.raises(ValueError, match="budget"):
        module.regression_projectron(X, y, order, budget=None, **KW)
    with pytest.raises(ValueError, match="budget"):
        module.regression_forgetron(X, y, order, budget=1, **KW)
    with pytest.raises(ValueError, match="variant"):
        module.regression_forgetron(X, y, order, budget=3, variant="other", **KW)
    with pytest.raises(ValueError, match="eta"):
        module.regression_perceptron(X, y, order, **{**KW, "eta": 0.0})
