"""Online baselines, multi-class: Projectron and Projectron++ on one shared SV set (Lu et al. 2016, section 5).

One Cholesky factor of the shared set, one coefficient column per class; the true class and the rival
get ``+-`` the step (added, or projected onto the span of the shared set).  Checked against numpy's
least squares (the projection step of one mistake and one margin error), against an independent
simulation that solves ``K d = k_t`` afresh every step with ``numpy.linalg.lstsq`` and sums every
kernel value with ``math.exp`` (both variants, both Projectrons), against the binary Projectron
with two classes, and the compiled twin against the reference: the same decisions, coefficients
and factors within 1e-9 on dense and CSR data, duplicate rows, weights (some 0), three passes
handing the state on, and a factor that outgrows the twin's first buffer.
"""

import math

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm import OnlineKernelClassifier
from refsvm import online as ref
from refsvm._fast import online as fast
from _helpers import assert_multiclass_paths_agree, duplicate_rows_problem, multiclass_problem

RBF = dict(kernel="rbf", gamma=0.8, degree=1, coef0=0.0)


def _gauss(a, b, gamma):
    return math.exp(-gamma * sum((u - v) ** 2 for u, v in zip(a, b)))


def _warm_model(seed, n_sv=6, m=4, d=3):
    rng = np.random.default_rng(seed)
    sv = rng.normal(size=(n_sv, d))
    alpha = rng.normal(size=(n_sv, m)) * 0.3
    return rng, sv, alpha


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_projected_mistake_is_least_squares(mod):
    """A full shared set (B = 6): a mistake is projected, ``alpha[:, y] += w d*``, ``alpha[:, s] -= w d*``
    with ``d*`` numpy's least-squares solution of ``K d = k_t`` (the rival from brute-force scores)."""
    rng, sv, alpha = _warm_model(3)
    x = rng.normal(size=(1, 3))
    K = np.array([[_gauss(a, b, RBF["gamma"]) for b in sv] for a in sv])
    k = np.array([_gauss(a, x[0], RBF["gamma"]) for a in sv])
    f = k @ alpha
    y = int(np.argmin(f))                                   # the lowest score: a mistake
    s = max((r for r in range(4) if r != y), key=lambda r: (f[r], -r))
    w = 0.7
    res = mod.multiclass_projectron(x, np.array([y]), np.zeros(1, dtype=np.int64), n_classes=4, eta=0.1, budget=6,
                                    plusplus=False, sv=sv, alpha=alpha, sample_weight=np.array([w]), **RBF)
    assert res.trace["mistakes"] == 1 and res.trace["update_kind"][0] == 2
    d = np.linalg.lstsq(K, k, rcond=None)[0]
    expected = alpha.copy()
    expected[:, y] += w * d
    expected[:, s] -= w * d
    np.testing.assert_allclose(res.alpha, expected, rtol=0, atol=1e-9)


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("variant", ["paper", "authors"])
def test_projected_margin_error_is_least_squares(mod, variant):
    """Projectron++'s margin error (no mistake, margin ``g`` below 1): ``tau = min((1 - g) / k_t'd*, 1)``
    and the projected step ``+-tau d*`` when ``beta >= 0``, all from numpy's least squares."""
    rng, sv, alpha = _warm_model(5)
    K = np.array([[_gauss(a, b, RBF["gamma"]) for b in sv] for a in sv])
    x = sv[:1] + 0.05 * rng.normal(size=(1, 3))             # near an SV: small delta_t, beta >= 0
    k = np.array([_gauss(a, x[0], RBF["gamma"]) for a in sv])
    f = k @ alpha
    v = np.linalg.solve(K, k)
    alpha[:, 2] += (0.8 - f[2] + np.delete(f, 2).max()) * v / (k @ v)   # f^2 leads the others by 0.8
    f = k @ alpha
    y = int(np.argmax(f))
    assert y == 2
    s = max((r for r in range(4) if r != y), key=lambda r: (f[r], -r))
    g = (f[y] - f[s]) * (1.0 if variant == "authors" else 0.5)
    assert 0.0 < g < 1.0
    res = mod.multiclass_projectron(x, np.array([y]), np.zeros(1, dtype=np.int64), n_classes=4, eta=0.5, budget=6,
                                    plusplus=True, sv=sv, alpha=alpha, variant=variant, **RBF)
    d = np.linalg.lstsq(K, k, rcond=None)[0]
    Pk = k @ d
    delta = math.sqrt(max(1.0 - Pk, 0.0))
    tau = min((1.0 - g) / Pk, 1.0)
    penalty = 2.0 * ref.projectron_U(6) * delta if variant == "authors" else 2.0 * delta / 0.5
    assert tau * (2.0 * (1.0 - g) - tau * Pk - penalty) > 0.0   # the example is a projected margin error
    assert res.trace["mistakes"] == 0 and res.trace["update_kind"][0] == 2
    expected = alpha.copy()
    expected[:, y] += tau * d
    expected[:, s] -= tau * d
    np.testing.assert_allclose(res.alpha, expected, rtol=0, atol=1e-9)


def _simulate(X, y, order, m, gamma, eta, budget, plusplus, variant, w):
    """The rule of multiclass_projectron written independently: d* from lstsq every step, scores summed
    term by term with math.exp, exact comparisons (random data stays away from the tolerances)."""
    S, A, kinds, mistakes = [], np.zeros((0, m)), [], 0
    authors = variant == "authors"
    for i in order:
        x, y_t, w_t = X[i], int(y[i]), float(w[i])
        k = np.array([_gauss(X[j], x, gamma) for j in S])
        f = np.array([sum(k[j] * A[j, r] for j in range(len(S))) for r in range(m)])
        s = max((r for r in range(m) if r != y_t), key=lambda r: (f[r], -r))
        mistake = f[s] >= f[y_t]
        mistakes += mistake
        g = (f[y_t] - f[s]) * (1.0 if authors else 0.5)
        margin_err = plusplus and not mistake and g < 1.0 and (authors or g > 0.0)
        kind = 0
        if w_t > 0 and (mistake or margin_err):
            b = len(S)
            K = np.array([[_gauss(X[p], X[q], gamma) for q in S] for p in S]).reshape(b, b)
            d = np.linalg.lstsq(K, k, rcond=None)[0] if b else np.zeros(0)
            Pk = float(k @ d) if b else 0.0
            delta_sq = 1.0 - Pk
            in_span = delta_sq <= 1e-10
            tau = None
            if mistake:
                if in_span or (b > 0 and ((not authors and delta_sq <= eta * eta) or (budget and b == budget))):
                    tau = w_t
                else:
                    S.append(i)
                    row = np.zeros(m)
                    row[y_t], row[s] = w_t, -w_t
                    A = np.vstack([A, row])
                    kind = 1
            elif b > 0 and Pk > 0.0:
                delta = 0.0 if in_span else math.sqrt(delta_sq)
                tau = min((1.0 - g) / Pk, w_t)
                penalty = 2.0 * ref.projectron_U(budget) * delta if authors else 2.0 * delta / eta
                if tau * (2.0 * (1.0 - g) - tau * Pk - penalty) < 0.0:
                    tau = None
            if tau is not None:
                A[:, y_t] += tau * d
                A[:, s] -= tau * d
                kind = 2
        kinds.append(kind)
    return np.array(S), A, np.array(kinds), mistakes


@pytest.mark.parametrize("plusplus", [False, True], ids=["projectron", "projectron++"])
@pytest.mark.parametrize("variant, budget", [("paper", None), ("paper", 10), ("authors", 10)])
def test_against_lstsq_simulation(plusplus, variant, budget):
    X, y, order, _ = multiclass_problem(4, 120, n_classes=3)
    w = np.random.default_rng(4).choice([0.0, 0.5, 1.0, 1.5], size=120)
    S, A, kinds, mistakes = _simulate(X, y, order, 3, 0.8, 0.4, budget, plusplus, variant, w)
    res = ref.multiclass_projectron(X, y, order, n_classes=3, eta=0.4, budget=budget, plusplus=plusplus,
                                    variant=variant, sample_weight=w, **RBF)
    assert res.trace["mistakes"] == mistakes
    np.testing.assert_array_equal(res.trace["update_kind"], kinds)
    assert (kinds == 2).sum() > 5 and (kinds == 1).sum() > 3   # both kinds of step are exercised
    np.testing.assert_array_equal(res.sv, X[S])
    np.testing.assert_allclose(res.alpha, A, rtol=0, atol=1e-8)


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("plusplus", [False, True], ids=["projectron", "projectron++"])
@pytest.mark.parametrize("budget", [None, 10])
def test_two_classes_is_the_binary_projectron(mod, plusplus, budget):
    """variant="paper" with two classes is the binary Projectron(++): class 1's column is the binary
    alpha, class 0's its negative, the same trace."""
    X, y, order, _ = multiclass_problem(6, 150, n_classes=2)
    kw = dict(eta=0.3, budget=budget, plusplus=plusplus, **RBF)
    a = mod.multiclass_projectron(X, y, order, n_classes=2, **kw)
    b = mod.projectron(X, 2 * y - 1, order, **kw)
    for key in ("mistakes", "updates", "kernel_evaluations"):
        assert a.trace[key] == b.trace[key], key
    np.testing.assert_array_equal(a.trace["update_kind"], b.trace["update_kind"])
    np.testing.assert_allclose(a.alpha[:, 1], b.alpha[:, 0], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(a.alpha[:, 0], -a.alpha[:, 1])


@pytest.mark.parametrize("variant, budget", [("paper", None), ("paper", 12), ("authors", 12)])
@pytest.mark.parametrize("plusplus", [False, True], ids=["projectron", "projectron++"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("zero_prediction, kernel", [("mistake", "rbf"), ("positive", "poly")])
def test_paths_agree(variant, budget, plusplus, sparse, zero_prediction, kernel):
    """Three passes continuing each other (state L, diag_max handed on), duplicate rows, weights (some 0)."""
    rng = np.random.default_rng(21)
    X, y, w = duplicate_rows_problem(rng)
    Xin = sp.csr_matrix(X) if sparse else X
    extra = dict(n_classes=5, eta=0.4, budget=budget, plusplus=plusplus, variant=variant, kernel=kernel, gamma=0.3,
                 degree=2, coef0=1.0, sample_weight=w, zero_prediction=zero_prediction)
    carry = {mod: dict(sv=None, alpha=None, t0=0, state=None) for mod in (ref, fast)}
    kinds = np.zeros(3, dtype=np.int64)
    for _ in range(3):
        order = rng.permutation(X.shape[0]).astype(np.int64)
        res = {mod: mod.multiclass_projectron(Xin, y, order, **carry[mod], **extra) for mod in (ref, fast)}
        carry = {mod: dict(sv=r.sv, alpha=r.alpha, t0=r.t, state=r.state) for mod, r in res.items()}
        a, b = res[ref], res[fast]
        assert_multiclass_paths_agree(a, b, sparse)
        np.testing.assert_allclose(a.state["L"], b.state["L"], rtol=0, atol=1e-12)
        assert a.state["diag_max"] == b.state["diag_max"]
        kinds += np.bincount(a.trace["update_kind"], minlength=3)
    assert kinds[1] > 0 and kinds[2] > 0


@pytest.mark.parametrize("plusplus", [False, True], ids=["projectron", "projectron++"])
def test_factor_outgrows_the_first_buffer(plusplus):
    """More than 64 shared SVs (the twin doubles its factor buffer mid-pass and redoes the step),
    then a warm start from sv alone (the factor recomputed from the SVs on both paths)."""
    X, y, order, _ = multiclass_problem(8, 260, n_classes=4)
    kw = dict(n_classes=4, eta=0.05, budget=None, plusplus=plusplus, kernel="rbf", gamma=6.0, degree=1, coef0=0.0)
    a, b = (mod.multiclass_projectron(X, y, order, **kw) for mod in (ref, fast))
    assert a.sv.shape[0] > 64
    assert_multiclass_paths_agree(a, b, False)
    c, d = (mod.multiclass_projectron(X, y, order[::-1].copy(), sv=a.sv, alpha=a.alpha, t0=a.t, **kw)
            for mod in (ref, fast))
    assert_multiclass_paths_agree(c, d, False)


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_bad_input(mod):
    X, y, order = np.zeros((4, 2)), np.array([0, 1, 2, 0]), np.arange(4, dtype=np.int64)
    kw = dict(n_classes=3, plusplus=False, **RBF)
    with pytest.raises(ValueError, match="budget"):
        mod.multiclass_projectron(X, y, order, eta=0.1, budget=None, variant="authors", **kw)
    with pytest.raises(ValueError, match="eta"):
        mod.multiclass_projectron(X, y, order, eta=-1.0, budget=None, **kw)
    with pytest.raises(ValueError, match="labels 0..2"):
        mod.multiclass_projectron(X, np.array([0, 1, 3, 0]), order, eta=0.1, budget=None, **kw)


@pytest.mark.parametrize("algorithm", ["projectron", "projectron++"])
def test_estimator_multiclass(algorithm):
    """The estimator takes a multi-class target (one column per class, both backends the same model)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 2))
    y = np.array(["a", "b", "c"])[(X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5).astype(int)]
    fits = [OnlineKernelClassifier(algorithm, budget=20, gamma=1.0, random_state=1, backend=backend).fit(X, y)
            for backend in ("fast", "python")]
    assert fits[0].alpha_.shape == (fits[0].support_vectors_.shape[0], 3)
    np.testing.assert_allclose(fits[0].alpha_, fits[1].alpha_, rtol=0, atol=1e-9)
    assert (fits[0].predict(X) == y).mean() > 0.6
