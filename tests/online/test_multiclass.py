"""Online baselines, multi-class: Perceptron, RBP and OGD on one shared SV set (Lu et al. 2016, section 5).

The protocol (true class +, highest-scoring wrong class -, one shared SV per update) is checked
against hand-computed scores on a tiny example and against an independent simulation that keeps
one expansion per class (the layout of the authors' code: an id entered once per class it
updates) and sums every score term by term.  The compiled twin must take the same discrete
decisions and give the same coefficients (1e-9) on dense and CSR data, with duplicate rows,
weights and several passes continuing each other.
"""

import math

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm import OnlineKernelClassifier
from refsvm import online as ref
from refsvm._fast import online as fast
from _helpers import assert_multiclass_paths_agree, duplicate_rows_problem, multiclass_problem

KW = dict(kernel="linear", gamma=1.0, degree=1, coef0=0.0)


def _tiny():
    X = np.array([[1.0], [2.0], [-1.0]])
    return X, np.array([0, 1, 2]), np.arange(3, dtype=np.int64)


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_hand_computed_perceptron(mod):
    """Linear kernel, x = 1, 2, -1 with labels 0, 1, 2.  "mistake" reading: scores (0,0,0) -> rival 1
    (lowest index), mistake; (2,-2,0) for y=1 -> rival 0; (1,-1,0) for y=2 -> rival 0."""
    X, y, order = _tiny()
    r = mod.multiclass_perceptron(X, y, order, n_classes=3, **KW)
    assert r.trace["mistakes"] == 3
    np.testing.assert_array_equal(r.sv, X)
    np.testing.assert_array_equal(r.alpha, [[1, -1, 0], [-1, 1, 0], [-1, 0, 1]])


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_hand_computed_perceptron_authors_reading(mod):
    """"positive" (MATLAB max: the lowest-index maximum is the prediction): the empty model predicts
    class 0, right for y=0 (no update); (0,0,0) for y=1 -> prediction 0, rival 0; (2,-2,0) for y=2."""
    X, y, order = _tiny()
    r = mod.multiclass_perceptron(X, y, order, n_classes=3, zero_prediction="positive", **KW)
    assert r.trace["mistakes"] == 2
    np.testing.assert_array_equal(r.trace["update_kind"], [0, 1, 1])
    np.testing.assert_array_equal(r.sv, X[1:])
    np.testing.assert_array_equal(r.alpha, [[-1, 1, 0], [-1, 0, 1]])


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_hand_computed_ogd(mod):
    """eta = 0.5: scores (0,0,0), (1,-1,0), (0.5,-0.5,0); every hinge loss positive; rivals 1, 0, 0."""
    X, y, order = _tiny()
    r = mod.multiclass_ogd(X, y, order, n_classes=3, eta=0.5, **KW)
    assert r.trace["mistakes"] == 3 and r.trace["updates"] == 3
    np.testing.assert_array_equal(r.alpha, [[0.5, -0.5, 0], [-0.5, 0.5, 0], [-0.5, 0, 0.5]])


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_hand_computed_rbp(mod):
    """Budget 2: the third update first discards slot floor(0.6 * 2) = 1 (x = 2, both its class
    coefficients), scores as the perceptron's."""
    X, y, order = _tiny()
    r = mod.multiclass_rbp(X, y, order, np.array([0.0, 0.0, 0.6]), n_classes=3, budget=2, **KW)
    np.testing.assert_array_equal(r.trace["removal_index"], [1])
    np.testing.assert_array_equal(r.sv, [[1.0], [-1.0]])
    np.testing.assert_array_equal(r.alpha, [[1, -1, 0], [-1, 0, 1]])


def _brute_force(X, y, order, m, gamma, algorithm, zero_prediction, eta=1.0, budget=None, uniforms=None):
    """The protocol with one expansion per class: ``protos[r]`` lists (step, coef); scores summed term by
    term with math.exp; RBP removes an id from every class list (the authors' RBP.m layout)."""
    protos = [[] for _ in range(m)]
    shared = []                                   # ids of the shared set, in slot order
    mistakes, kinds = 0, []
    for step, i in enumerate(order):
        f = [sum(c * math.exp(-gamma * sum((a - b) ** 2 for a, b in zip(X[order[j]], X[i]))) for j, c in protos[r])
             for r in range(m)]
        yt = int(y[i])
        s = max((r for r in range(m) if r != yt), key=lambda r: (f[r], -r))
        wrong = (max(range(m), key=lambda r: (f[r], -r)) != yt) if zero_prediction == "positive" else f[s] >= f[yt]
        mistakes += wrong
        take = (1 - f[yt] + f[s] > 0) if algorithm == "ogd" else wrong
        kinds.append(int(take))
        if take:
            if algorithm == "rbp" and len(shared) == budget:
                p = min(int(uniforms[step] * len(shared)), len(shared) - 1)
                gone = shared[p]
                shared[p] = shared[-1]
                shared.pop()
                protos = [[(j, c) for j, c in lst if j != gone] for lst in protos]
            c = eta if algorithm == "ogd" else 1.0
            protos[yt].append((step, c))
            protos[s].append((step, -c))
            shared.append(step)
    alpha = np.zeros((len(shared), m))
    for r in range(m):
        for j, c in protos[r]:
            alpha[shared.index(j), r] += c
    return mistakes, np.array(kinds), np.array([X[order[j]] for j in shared]).reshape(-1, X.shape[1]), alpha


@pytest.mark.parametrize("algorithm", ["perceptron", "rbp", "ogd"])
@pytest.mark.parametrize("zero_prediction", ["mistake", "positive"])
def test_brute_force_protocol(algorithm, zero_prediction):
    X, y, order, u = multiclass_problem(3, 40)
    extra = dict(budget=6) if algorithm == "rbp" else dict(eta=0.4) if algorithm == "ogd" else {}
    mistakes, kinds, sv, alpha = _brute_force(X, y, order, 4, 0.7, algorithm, zero_prediction,
                                              uniforms=u, **extra)
    for mod in (ref, fast):
        fn = getattr(mod, "multiclass_" + algorithm)
        args = (u,) if algorithm == "rbp" else ()
        r = fn(X, y, order, *args, n_classes=4, kernel="rbf", gamma=0.7, degree=3, coef0=0.0,
               zero_prediction=zero_prediction, **extra)
        assert r.trace["mistakes"] == mistakes
        np.testing.assert_array_equal(r.trace["update_kind"], kinds)
        np.testing.assert_array_equal(r.sv, sv)
        np.testing.assert_allclose(r.alpha, alpha, rtol=0, atol=1e-12)
    assert kinds.sum() > 5


def _run(mod, algorithm, X, y, order, u, **kw):
    fn = getattr(mod, "multiclass_" + algorithm)
    return fn(X, y, order, u, **kw) if algorithm == "rbp" else fn(X, y, order, **kw)


@pytest.mark.parametrize("algorithm", ["perceptron", "rbp", "ogd"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("zero_prediction", ["mistake", "positive"])
def test_paths_agree(algorithm, sparse, zero_prediction):
    """Three passes continuing each other, duplicate rows, example weights (some 0): the same
    decisions on both paths and coefficients within 1e-9."""
    rng = np.random.default_rng(11)
    X, y, w = duplicate_rows_problem(rng)
    Xin = sp.csr_matrix(X) if sparse else X
    extra = dict(budget=15) if algorithm == "rbp" else dict(eta=0.3) if algorithm == "ogd" else {}
    state = {mod: dict(sv=None, alpha=None, t0=0) for mod in (ref, fast)}
    for _ in range(3):
        order = rng.permutation(X.shape[0]).astype(np.int64)
        u = rng.random(X.shape[0])
        res = {}
        for mod in (ref, fast):
            res[mod] = _run(mod, algorithm, Xin, y, order, u, n_classes=5, kernel="rbf", gamma=0.3, degree=3,
                            coef0=0.0, sample_weight=w, zero_prediction=zero_prediction, **state[mod], **extra)
            state[mod] = dict(sv=res[mod].sv, alpha=res[mod].alpha, t0=res[mod].t)
        a, b = res[ref], res[fast]
        assert_multiclass_paths_agree(a, b, sparse)
        assert a.alpha.shape[1] == 5
        assert a.t == b.t
    assert a.trace["updates"] > 0


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_weights(mod):
    """Weight 1 is the unweighted run bitwise; weight 0 changes nothing; weight s scales the step."""
    rng = np.random.default_rng(5)
    X, y = rng.normal(size=(30, 3)), rng.integers(0, 3, 30)
    order = rng.permutation(30).astype(np.int64)
    kw = dict(n_classes=3, eta=0.2, kernel="rbf", gamma=0.5, degree=3, coef0=0.0)
    plain = mod.multiclass_ogd(X, y, order, **kw)
    ones = mod.multiclass_ogd(X, y, order, sample_weight=np.ones(30), **kw)
    np.testing.assert_array_equal(plain.alpha, ones.alpha)
    zero = mod.multiclass_ogd(X, y, order, sample_weight=np.zeros(30), **kw)
    assert zero.alpha.shape == (0, 3) and zero.trace["updates"] == 0
    one_step = mod.multiclass_ogd(X, y, order[:1], sample_weight=np.full(30, 3.0), **kw)
    np.testing.assert_array_equal(np.sort(one_step.alpha[0]), [-0.2 * 3.0, 0.0, 0.2 * 3.0])


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_bad_input(mod):
    X, y = np.zeros((4, 2)), np.array([0, 1, 2, 3])
    order = np.arange(4, dtype=np.int64)
    with pytest.raises(ValueError, match="labels 0..2"):
        mod.multiclass_perceptron(X, y, order, n_classes=3, **KW)
    with pytest.raises(ValueError, match="n_classes"):
        mod.multiclass_perceptron(X, y, order, n_classes=1, **KW)
    with pytest.raises(ValueError, match="alpha"):
        mod.multiclass_perceptron(X, y, order, n_classes=4, sv=np.zeros((2, 2)), alpha=np.zeros((2, 3)), **KW)
    with pytest.raises(ValueError, match="eta"):
        mod.multiclass_ogd(X, y, order, n_classes=4, eta=-1.0, **KW)
    with pytest.raises(ValueError, match="budget"):
        mod.multiclass_rbp(X, y, order, np.zeros(4), n_classes=4, budget=1, **KW)


def test_estimator_multiclass():
    """The estimator takes a multi-class target for perceptron / RBP / OGD (alpha_ one column per
    class, both backends the same model; the other learners: their own test files)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 2))
    y = np.array(["a", "b", "c"])[(X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5).astype(int)]
    for algorithm in ("perceptron", "rbp", "ogd"):
        fits = [OnlineKernelClassifier(algorithm, budget=20, gamma=1.0, random_state=1, backend=b).fit(X, y)
                for b in ("fast", "python")]
        assert fits[0].alpha_.shape[1] == 3
        np.testing.assert_allclose(fits[0].alpha_, fits[1].alpha_, rtol=0, atol=1e-9)
        assert set(fits[0].predict(X)) <= {"a", "b", "c"}
        assert (fits[0].predict(X) == y).mean() > 0.6
    assert fits[0].alpha_.shape[0] <= 150
