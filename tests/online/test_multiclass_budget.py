"""Online baselines, multi-class: Forgetron, BOGD and BPA-S on one shared SV set (Lu et al. 2016, section 5).

Each learner's budget rule applied to the shared set, in the binary paper's lifted reading (default)
and in the reading of the authors' released code (``variant="authors"``; BPA-S has none).  Checked against
hand-computed tiny examples (the Forgetron's shrink from the quadratic's closed-form root), against
an independent simulation that keeps one expansion per class (an id entered once per class it
updates, removed from every class list; scores summed term by term with math.exp), against the
binary Forgetron with two classes, and the compiled twin against the reference: the same decisions
and coefficients within 1e-9 on dense and CSR data, duplicate rows, weights, three passes.
"""

import math

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm import OnlineKernelClassifier
from refsvm import online as ref
from refsvm._fast import online as fast
from _helpers import assert_multiclass_paths_agree, duplicate_rows_problem, multiclass_problem

LIN = dict(kernel="linear", gamma=1.0, degree=1, coef0=0.0)
X3, Y3, O3 = np.array([[1.0], [2.0], [-1.0]]), np.array([0, 1, 2]), np.arange(3, dtype=np.int64)


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
@pytest.mark.parametrize("variant", ["paper", "authors"])
def test_hand_computed_forgetron(mod, variant):
    """Budget 2, three perceptron steps (those of test_multiclass's tiny example): A' = [[1,-1,0],
    [-1,1,0],[-1,0,1]] on x = 1, 2, -1.  The oldest SV x_r = 1 (classes 0, 1; sigma = 1) has scores
    f'(x_r) = (0, 1, -1).  Paper: mu = (0 - 1) / 2 = -1/2, so Psi(phi) = 2 phi^2 + 2 phi; authors:
    mu = f'^0(x_r) = 0, Psi = phi^2 + 2 phi.  Psi(1) > 15/32 * 3, so phi is the root of
    Psi(phi) = 45/32 and Q ends at 45/32."""
    a = 2.0 if variant == "paper" else 1.0
    phi = (-2.0 + math.sqrt(4.0 + 4.0 * a * 45.0 / 32.0)) / (2.0 * a)
    r = mod.multiclass_forgetron(X3, Y3, O3, n_classes=3, budget=2, variant=variant, **LIN)
    assert r.trace["mistakes"] == 3 and r.trace["removals"] == 1
    np.testing.assert_array_equal(r.trace["removal_index"], [0])
    np.testing.assert_array_equal(r.sv, [[-1.0], [2.0]])                 # the last SV moved into slot 0
    np.testing.assert_allclose(r.alpha, phi * np.array([[-1, 0, 1], [-1, 1, 0]]), rtol=1e-14, atol=0)
    assert r.state["Q"] == pytest.approx(45.0 / 32.0, rel=1e-14)
    assert r.state["M"] == 3
    np.testing.assert_array_equal(r.state["age"], [3, 2])


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_hand_computed_bogd(mod):
    """eta = 0.5, lambda = 0.2 (shrink 0.9), max_coef = 0.6 (bound 0.3), budget 2.  Steps 1-2 add
    (0.5,-0.5,0) then shrink it to 0.45 and add (-0.5,0.5,0); step 3 (x = -1, y = 2, scores
    (0.55,-0.55,0), rival 0) finds the set full.  Paper: u = 0.6 discards slot 1, the rest is
    rescaled by 2 * 0.9 = 1.8 (0.81) and clipped to 0.3.  Authors: the oldest (slot 0) goes, the rest
    shrinks to (-0.45, 0.45, 0), the new SV is added, every coefficient is clipped from above at 0.3."""
    kw = dict(n_classes=3, budget=2, eta=0.5, lam=0.2, max_coef=0.6, **LIN)
    u = np.array([0.0, 0.0, 0.6])
    r = mod.multiclass_bogd(X3, Y3, O3, u, **kw)
    assert r.trace["updates"] == 3 and r.trace["mistakes"] == 3
    np.testing.assert_array_equal(r.trace["removal_index"], [1])
    np.testing.assert_array_equal(r.sv, [[1.0], [-1.0]])
    np.testing.assert_allclose(r.alpha, [[0.3, -0.3, 0.0], [-0.5, 0.0, 0.5]], rtol=1e-15, atol=0)
    r = mod.multiclass_bogd(X3, Y3, O3, u, variant="authors", **kw)
    np.testing.assert_array_equal(r.trace["removal_index"], [0])
    np.testing.assert_array_equal(r.sv, [[2.0], [-1.0]])
    np.testing.assert_allclose(r.alpha, [[-0.45, 0.3, 0.0], [-0.5, 0.0, 0.3]], rtol=1e-15, atol=0)


def _per_class(X, y, order, m, gamma, algorithm, variant, budget, uniforms=None, eta=1.0, lam=0.0, max_coef=1.0):
    """The protocol with one expansion per class (``protos[r]``: {id: coef}); ``shared`` the ids in
    slot order (a removal moves the last id into the freed slot, the trace's convention)."""
    def kern(i, j):
        return math.exp(-gamma * sum((a - b) ** 2 for a, b in zip(X[i], X[j])))

    protos = [{} for _ in range(m)]
    shared, kinds, mistakes, Q, M = [], [], 0, 0.0, 0
    for step, i in enumerate(order):
        f = [sum(c * kern(order[j], i) for j, c in protos[r].items()) for r in range(m)]
        yt = int(y[i])
        s = max((r for r in range(m) if r != yt), key=lambda r: (f[r], -r))
        wrong = f[s] >= f[yt]
        mistakes += wrong
        M += wrong
        take = (1.0 - f[yt] + f[s] > 0.0) if algorithm == "bogd" else wrong
        kinds.append(int(take))

        def drop(p):
            gone = shared[p]
            shared[p] = shared[-1]
            shared.pop()
            for lst in protos:
                lst.pop(gone, None)

        if algorithm == "bogd":
            full = take and len(shared) == budget
            if full:
                drop(shared.index(min(shared)) if variant == "authors"
                     else min(int(uniforms[step] * len(shared)), len(shared) - 1))
            for lst in protos:
                for j in lst:
                    if not take or not full or variant == "authors":
                        lst[j] *= 1.0 - eta * lam
                    else:
                        lst[j] = math.copysign(min(abs(lst[j]) * budget * (1.0 - eta * lam) / (budget - 1),
                                                   eta * max_coef), lst[j])
        if take:
            c = eta if algorithm == "bogd" else 1.0
            protos[yt][step], protos[s][step] = c, -c
            shared.append(step)
            if algorithm == "bogd" and full and variant == "authors":
                for lst in protos:
                    for j in lst:
                        lst[j] = min(lst[j], eta * max_coef)
        if algorithm == "forgetron" and len(shared) > budget:
            old = min(shared)
            cls = [r for r in range(m) if old in protos[r]]
            yr = max(cls, key=lambda r: protos[r][old])
            sr = min(cls, key=lambda r: protos[r][old])
            sigma = protos[yr][old]
            fr = [sum(c * kern(order[j], order[old]) for j, c in protos[r].items()) for r in range(m)]
            mu = fr[yr] if variant == "authors" else (fr[yr] - fr[sr]) / 2.0
            A, B, C = sigma ** 2 - 2 * sigma * mu, 2 * sigma, Q - 15.0 / 32.0 * M   # forgetron.m's quadratic
            if A + B + C <= 0:
                phi = 1.0
            elif A > 0 or (A < 0 and variant == "authors"):
                phi = (-B + math.copysign(1.0, A) * math.sqrt(B * B - 4 * A * C)) / (2 * A)
            else:                                            # paper, A < 0: the smaller root, in (0, 1)
                phi = (-B + math.sqrt(B * B - 4 * A * C)) / (2 * A) if A else -C / B
            Q += (sigma * phi) ** 2 + 2 * sigma * phi * (1 - phi * mu)
            for lst in protos:
                for j in lst:
                    lst[j] *= phi
            drop(shared.index(old))
    alpha = np.array([[protos[r].get(j, 0.0) for r in range(m)] for j in shared]).reshape(-1, m)
    return mistakes, np.array(kinds), X[[order[j] for j in shared]].reshape(-1, X.shape[1]), alpha, Q


@pytest.mark.parametrize("algorithm", ["forgetron", "bogd"])
@pytest.mark.parametrize("variant", ["paper", "authors"])
def test_per_class_simulation(algorithm, variant):
    X, y, order, u = multiclass_problem(4, 60)
    extra = dict(eta=0.4, lam=0.1, max_coef=0.7) if algorithm == "bogd" else {}
    mistakes, kinds, sv, alpha, Q = _per_class(X, y, order, 4, 0.7, algorithm, variant, 6, uniforms=u, **extra)
    for mod in (ref, fast):
        fn = getattr(mod, "multiclass_" + algorithm)
        args = (u,) if algorithm == "bogd" else ()
        r = fn(X, y, order, *args, n_classes=4, budget=6, kernel="rbf", gamma=0.7, degree=3, coef0=0.0,
               variant=variant, **extra)
        assert r.trace["mistakes"] == mistakes
        np.testing.assert_array_equal(r.trace["update_kind"], kinds)
        np.testing.assert_array_equal(r.sv, sv)
        np.testing.assert_allclose(r.alpha, alpha, rtol=1e-10, atol=1e-12)
        if algorithm == "forgetron":
            assert r.state["Q"] == pytest.approx(Q, rel=1e-10)
    assert r.trace["removals"] > 5


@pytest.mark.parametrize("variant", ["paper", "authors"])
def test_two_classes_is_the_binary_forgetron(variant):
    """With two classes an update adds (-1, +1) for y = +1 (labels 0, 1 as -1, +1), so f^1 = -f^0 = f,
    the binary learner's f: the same steps, shrinks and Q, and (a^1 - a^0) / 2 the binary coefficients
    (the authors' mu = f^{y_r}(x_r) = y_r f(x_r) is then the paper's too)."""
    rng = np.random.default_rng(8)
    X = rng.normal(size=(150, 3))
    y = (X[:, 0] + 0.7 * rng.normal(size=150) > 0).astype(np.int64)
    order = rng.permutation(150).astype(np.int64)
    kw = dict(budget=10, kernel="rbf", gamma=0.5, degree=3, coef0=0.0, variant=variant)
    for mod in (ref, fast):
        mc = mod.multiclass_forgetron(X, y, order, n_classes=2, **kw)
        bi = mod.forgetron(X, 2 * y - 1, order, **kw)
        assert mc.trace["mistakes"] == bi.trace["mistakes"] and bi.trace["removals"] > 20
        np.testing.assert_array_equal(mc.sv, bi.sv)
        np.testing.assert_allclose((mc.alpha[:, 1] - mc.alpha[:, 0]) / 2.0, bi.alpha[:, 0], rtol=0, atol=1e-12)
        assert mc.state["Q"] == pytest.approx(bi.state["Q"], rel=1e-12)


@pytest.mark.parametrize("algorithm, variant", [("forgetron", "paper"), ("forgetron", "authors"), ("bogd", "paper"),
                                                ("bogd", "authors"), ("bpas", None)])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("zero_prediction", ["mistake", "positive"])
@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_paths_agree(algorithm, variant, sparse, zero_prediction, kernel):
    """Three passes continuing each other (state handed on), duplicate rows, weights (some 0)."""
    rng = np.random.default_rng(12)
    X, y, w = duplicate_rows_problem(rng)
    Xin = sp.csr_matrix(X) if sparse else X
    extra = dict(budget=12, n_classes=5, kernel=kernel, gamma=0.3, degree=2, coef0=1.0, sample_weight=w,
                 zero_prediction=zero_prediction)
    if variant:
        extra.update(variant=variant)
    if algorithm == "bogd":
        extra.update(eta=0.3, lam=0.05, max_coef=0.8)
    if algorithm == "bpas":
        extra.update(C=0.7)
    carry = {mod: dict(sv=None, alpha=None, t0=0, state=None) for mod in (ref, fast)}
    for _ in range(3):
        order = rng.permutation(X.shape[0]).astype(np.int64)
        u = rng.random(X.shape[0])
        res = {}
        for mod in (ref, fast):
            fn = getattr(mod, "multiclass_" + algorithm)
            args = (u,) if algorithm == "bogd" else ()
            res[mod] = fn(Xin, y, order, *args, **carry[mod], **extra)
            r = res[mod]
            carry[mod] = dict(sv=r.sv, alpha=r.alpha, t0=r.t, state=r.state)
        a, b = res[ref], res[fast]
        assert_multiclass_paths_agree(a, b, sparse)
        np.testing.assert_array_equal(a.state.get("age"), b.state.get("age"))
        if algorithm == "forgetron":
            assert a.state["M"] == b.state["M"]
            assert a.state["Q"] == pytest.approx(b.state["Q"], rel=1e-9, abs=1e-9)
    assert a.trace["removals"] > 0


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_bad_input(mod):
    X, y, order = np.zeros((3, 1)), np.array([0, 1, 2]), np.arange(3, dtype=np.int64)
    with pytest.raises(ValueError, match="budget"):
        mod.multiclass_forgetron(X, y, order, n_classes=3, budget=1, **LIN)
    with pytest.raises(ValueError, match="variant"):
        mod.multiclass_forgetron(X, y, order, n_classes=3, budget=2, variant="mine", **LIN)
    with pytest.raises(ValueError, match="max_coef"):
        mod.multiclass_bogd(X, y, order, np.zeros(3), n_classes=3, budget=2, eta=0.1, lam=0.0, max_coef=-1.0, **LIN)
    with pytest.raises(ValueError, match="labels 0..2"):
        mod.multiclass_bogd(X, np.array([0, 1, 3]), order, np.zeros(3), n_classes=3, budget=2, eta=0.1, lam=0.0,
                            max_coef=1.0, **LIN)


@pytest.mark.parametrize("algorithm", ["forgetron", "bogd", "bpas"])
def test_estimator_multiclass(algorithm):
    """The estimator takes multi-class targets for Forgetron, BOGD and BPA-S (one column per class, both
    backends the same model, several epochs chaining the learner state)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 2))
    y = np.array(["a", "b", "c"])[(X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5).astype(int)]
    fits = [OnlineKernelClassifier(algorithm, budget=20, gamma=1.0, epochs=2, random_state=1, variant=v,
                                   backend=b).fit(X, y)
            for v in ("paper", "authors") for b in ("fast", "python")]
    for i in (0, 2):
        assert fits[i].alpha_.shape == (20, 3)
        np.testing.assert_allclose(fits[i].alpha_, fits[i + 1].alpha_, rtol=0, atol=1e-9)
        assert (fits[i].predict(X) == y).mean() > 0.6


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_hand_computed_bpas(mod):
    """Linear kernel, C = 10, budget 2.  Steps 1-2: tau = 1 / 2 then 3 / (2 * 4) (scores (1,-1,0) at
    x = 2, rival 0, loss 3, k_tt = 4).  Step 3 (x = -1, y = 2): scores (0.25,-0.25,0), rival 0, loss
    1.25, tau = 0.625.  Both candidates lie on the line of x_t, so both project exactly:
    ||f_r - f_t||^2 = (0.5 - 1.125)^2 + 0 + 0.625^2 = 0.78125 and f_r(x_t) = (-0.375,-0.25,0.625) (loss
    0.125) for either, Q_0 = Q_1 = 1.640625: a tie, the lowest slot goes; beta_0 = -a_0 + (-0.625, 0,
    0.625).  C = 0.2 caps the first step at 0.2."""
    r = mod.multiclass_bpas(X3, Y3, O3, n_classes=3, budget=2, C=10.0, **LIN)
    assert r.trace["updates"] == 3
    np.testing.assert_array_equal(r.trace["removal_index"], [0])
    np.testing.assert_array_equal(r.sv, [[-1.0], [2.0]])
    np.testing.assert_array_equal(r.alpha, [[-1.125, 0.5, 0.625], [-0.375, 0.375, 0.0]])
    r = mod.multiclass_bpas(X3[:1], Y3[:1], O3[:1], n_classes=3, budget=2, C=0.2, **LIN)
    np.testing.assert_array_equal(r.alpha, [[0.2, -0.2, 0.0]])


def _bpas_by_expansion(X, y, order, m, gamma, budget, C):
    """BPA-S with each candidate model built explicitly (x_r removed from every class, x_t added with
    the projection coefficients found by solving k_tt beta = a_r k_rt) and ||f_r - f_t||^2 and
    f_r(x_t) evaluated from the expansions term by term (math.exp); the first least Q_r wins."""
    def kern(i, j):
        return math.exp(-gamma * sum((a - b) ** 2 for a, b in zip(X[i], X[j])))

    ids, A, kinds = [], [], []
    for i in order:
        f = [sum(A[j][c] * kern(ids[j], i) for j in range(len(ids))) for c in range(m)]
        yt = int(y[i])
        s = max((c for c in range(m) if c != yt), key=lambda c: (f[c], -c))
        loss = max(0.0, 1.0 - f[yt] + f[s])
        kinds.append(int(loss > 1e-12))
        if not kinds[-1]:
            continue
        tau = min(C, loss / (2.0 * kern(i, i)))
        step = [tau if c == yt else -tau if c == s else 0.0 for c in range(m)]
        if len(ids) < budget:
            ids.append(i)
            A.append(step)
            continue
        best = None
        for r in range(len(ids)):
            beta = [A[r][c] * kern(ids[r], i) / kern(i, i) + step[c] for c in range(m)]
            pts, diff = [ids[r], i], [[-A[r][c], beta[c]] for c in range(m)]   # f_r - f_t per class
            dist = sum(diff[c][p] * diff[c][q] * kern(pts[p], pts[q]) for c in range(m) for p in (0, 1) for q in (0, 1))
            fr = [f[c] + diff[c][0] * kern(ids[r], i) + diff[c][1] * kern(i, i) for c in range(m)]
            Q = 0.5 * dist + C * max(0.0, 1.0 - fr[yt] + max(fr[c] for c in range(m) if c != yt))
            if best is None or Q < best[0]:
                best = (Q, r, beta)
        ids[best[1]], A[best[1]] = i, best[2]
    return np.array(kinds), X[ids], np.array(A)


def test_bpas_against_explicit_expansions():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(60, 2))
    y = rng.integers(0, 4, 60)
    order = rng.permutation(60).astype(np.int64)
    kinds, sv, alpha = _bpas_by_expansion(X, y, order, 4, 0.7, 6, 0.8)
    for mod in (ref, fast):
        r = mod.multiclass_bpas(X, y, order, n_classes=4, budget=6, C=0.8, kernel="rbf", gamma=0.7, degree=3,
                                coef0=0.0)
        np.testing.assert_array_equal(r.trace["update_kind"], kinds)
        np.testing.assert_array_equal(r.sv, sv)
        np.testing.assert_allclose(r.alpha, alpha, rtol=1e-10, atol=1e-12)
        assert r.trace["removals"] > 20


@pytest.mark.parametrize("mod", [ref, fast], ids=["python", "fast"])
def test_bpas_repeated_row(mod):
    """One row repeated: every candidate holds x_t itself, so every Q_r is the same number exactly
    (beta_r = a_r + step) and the computed ones differ by rounding only: the lowest slot is replaced
    every time (an exact argmin picks slots by noise).  With two classes a step leaves the margin at 1
    exactly, so the repeats' computed loss (rounding noise) takes no further step."""
    X = np.tile([[0.3, -1.2, 0.7]], (40, 1))
    r = mod.multiclass_bpas(X, np.arange(40) % 3, np.arange(40, dtype=np.int64), n_classes=3, budget=4, C=5.0,
                            kernel="rbf", gamma=0.5, degree=3, coef0=0.0)
    assert r.trace["removals"] == 36
    np.testing.assert_array_equal(r.trace["removal_index"], np.zeros(36))
    X = np.tile([[0.3, 0.1, 0.9]], (10, 1))
    r = mod.multiclass_bpas(X, np.zeros(10, dtype=np.int64), np.arange(10, dtype=np.int64), n_classes=2, budget=4,
                            C=5.0, **LIN)
    assert r.trace["updates"] == 1
