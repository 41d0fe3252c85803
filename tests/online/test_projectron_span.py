"""Projectron / Projectron++: the span test "x_t lies in the span of the SVs" (delta_t^2 from the kept
Cholesky factor of K against the error bound of its computation), d* = K^{-1} k_t, and the paths'
agreement (reference and compiled, dense and CSR) where K is rank-deficient or ill-conditioned.

``variant="authors"`` adds every mistake while fewer than B SVs are held unless ``x_t`` is in the span:
with a linear or polynomial kernel of low rank, or a repeated row, the computed ``delta_t^2`` is rounding
noise, which a test ``== 0`` read as a new direction (K^{-1} then grew by 1/noise and the paths parted).
``variant="paper"`` with a linear kernel on unscaled data projects onto an ill-conditioned K.  What must
hold: the same update at every step (added / projected) on every path, the same predictions, decision
values within 1e-9 of their scale; delta_t^2 and d* against a 50-digit computation.
"""

import numpy as np
import pytest
import scipy.sparse as sp

import refsvm.online as ref
from refsvm import OnlineKernelClassifier
from _helpers import checkerboard, kern, spiral_with_duplicates

fast = pytest.importorskip("refsvm._fast.online")
U = 2.0 ** -53


def repeated_row(seed, n=120, copies=30):
    """A checkerboard whose first row is repeated ``copies`` times, rows shuffled."""
    X, y = checkerboard(n, seed)
    X, y = np.r_[X, np.repeat(X[:1], copies, axis=0)], np.r_[y, np.repeat(y[:1], copies)]
    perm = np.random.default_rng(seed).permutation(y.size)
    return X[perm], y[perm]


def breast_cancer():
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_breast_cancer(return_X_y=True)   # unscaled: features from 1e-3 to 4e3
    return X, (2 * y - 1).astype(np.int64)


def all_paths(X, y, order, kw):
    """``(result, decision values on X)`` of both paths, dense and CSR (the decision values written
    out from the kernel's definition)."""
    out = []
    for module in (ref, fast):
        for Xin in (X, sp.csr_matrix(X)):
            r = module.projectron(Xin, y, order, **kw)
            sv = r.sv.toarray() if sp.issparse(r.sv) else r.sv
            K = kern(X, sv, kw["kernel"], kw["gamma"], kw["degree"], kw["coef0"])
            out.append((r, K @ r.alpha[:, 0]))
    return out


def assert_agree(out, rtol=1e-9):
    r0, f0 = out[0]
    scale = np.max(np.abs(f0))
    for r, f in out[1:]:
        np.testing.assert_array_equal(r.trace["update_kind"], r0.trace["update_kind"])
        np.testing.assert_array_equal(r.trace["n_sv"], r0.trace["n_sv"])
        np.testing.assert_array_equal(np.sign(f), np.sign(f0))
        assert np.max(np.abs(f - f0)) <= rtol * scale, np.max(np.abs(f - f0)) / scale


AUTHORS = [
    ("linear", dict(kernel="linear", gamma=1.0, degree=3, coef0=0.0), spiral_with_duplicates),
    ("poly-2", dict(kernel="poly", gamma=1.0, degree=2, coef0=1.0), spiral_with_duplicates),
    ("rbf, repeated row", dict(kernel="rbf", gamma=1.0, degree=3, coef0=0.0), repeated_row),
]


@pytest.mark.parametrize("plusplus", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name,kernel,data", AUTHORS, ids=[a[0] for a in AUTHORS])
def test_authors_variant_span_test_agrees(name, kernel, data, seed, plusplus):
    """variant="authors", budget 20, two passes: a point in the span is projected on every path."""
    X, y = data(seed)
    rng = np.random.default_rng(seed)
    order = np.r_[rng.permutation(y.size), rng.permutation(y.size)].astype(np.int64)
    kw = dict(eta=0.1, budget=20, plusplus=plusplus, variant="authors", **kernel)
    out = all_paths(X, y, order, kw)
    assert_agree(out)
    if name == "linear":                               # rank 2: never more than 2 SVs
        assert out[0][0].sv.shape[0] <= 2


@pytest.mark.parametrize("seed", [0, 1])
def test_authors_variant_estimator(seed):
    """The estimator, both backends, dense and CSR, two epochs (the state continues): same
    predictions, decision values within 1e-9."""
    X, y = spiral_with_duplicates(seed)
    outs = []
    for backend in ("python", "fast"):
        for Xin in (X, sp.csr_matrix(X)):
            clf = OnlineKernelClassifier(algorithm="projectron++", budget=20, kernel="poly", degree=2, coef0=1.0,
                                         variant="authors", epochs=2, random_state=seed, backend=backend)
            outs.append(clf.fit(Xin, y).decision_function(X))
    scale = np.max(np.abs(outs[0]))
    for f in outs[1:]:
        np.testing.assert_array_equal(np.sign(f), np.sign(outs[0]))
        assert np.max(np.abs(f - outs[0])) <= 1e-9 * scale


@pytest.mark.parametrize("plusplus", [False, True])
@pytest.mark.parametrize("budget", [None, 12])
def test_paper_variant_linear_unscaled(plusplus, budget):
    """variant="paper", linear kernel, unscaled breast cancer: the same updates on every path,
    decision values within 1e-9 of their scale."""
    X, y = breast_cancer()
    order = np.random.default_rng(0).permutation(y.size).astype(np.int64)
    kw = dict(eta=0.1, budget=budget, plusplus=plusplus, kernel="linear", gamma=1.0, degree=3, coef0=0.0)
    assert_agree(all_paths(X, y, order, kw))


@pytest.mark.parametrize("module", [ref, fast], ids=["reference", "fast"])
def test_continued_run_is_one_run(module):
    """Two calls, the second continuing the first's state (the kept factor L), give the one call's
    model; without the state the factor is computed from the SVs (same model to rounding)."""
    X, y = breast_cancer()
    order = np.random.default_rng(3).permutation(y.size).astype(np.int64)
    kw = dict(eta=0.1, budget=None, plusplus=True, kernel="linear", gamma=1.0, degree=3, coef0=0.0)
    whole = module.projectron(X, y, order, **kw)
    first = module.projectron(X, y, order[:200], **kw)
    for state in (first.state, None):
        second = module.projectron(X, y, order[200:], sv=first.sv, alpha=first.alpha, t0=first.t, state=state,
                                   **kw)
        np.testing.assert_array_equal(second.trace["update_kind"], whole.trace["update_kind"][200:])
        f_whole, f_two = kern(X, whole.sv, "linear") @ whole.alpha[:, 0], kern(X, second.sv, "linear") @ second.alpha[:, 0]
        assert np.max(np.abs(f_two - f_whole)) <= 1e-9 * np.max(np.abs(f_whole))
    np.testing.assert_array_equal(whole.state["L"], np.tril(whole.state["L"]))
    K = kern(whole.sv, whole.sv, "linear")
    assert np.max(np.abs(whole.state["L"] @ whole.state["L"].T - K)) <= 64 * U * np.max(np.diag(K)) * K.shape[0]


def _exact(mpmath, S, x, kernel):
    """``(K, k, k_tt)`` of the float rows in 50 digits (the kernel's definition)."""
    def k(a, b):
        if kernel == "linear":
            return mpmath.fsum(mpmath.mpf(p) * mpmath.mpf(q) for p, q in zip(a, b))
        if kernel == "poly2":
            return (1 + mpmath.fsum(mpmath.mpf(p) * mpmath.mpf(q) for p, q in zip(a, b))) ** 2
        return mpmath.exp(-mpmath.fsum((mpmath.mpf(p) - mpmath.mpf(q)) ** 2 for p, q in zip(a, b)))
    b = S.shape[0]
    Km = mpmath.matrix(b, b)
    for i in range(b):
        for j in range(b):
            Km[i, j] = k(S[i], S[j])
    km = mpmath.matrix([k(s, x) for s in S])
    return Km, km, k(x, x)


def _near_singular_sets():
    X, _ = breast_cancer()
    rng = np.random.default_rng(5)
    base = rng.normal(size=(6, 3))
    near = np.r_[base, base[:3] + 1e-6 * rng.normal(size=(3, 3))]      # rbf: 1e-6 near duplicates
    return [("linear", X[:, :6], 0.0),                                    # unscaled, rank 6
            ("poly2", rng.normal(size=(40, 2)), 0.0),                     # rank 6
            ("rbf", near, 0.0)]


@pytest.mark.parametrize("case", range(3), ids=["linear-unscaled", "poly2-rank6", "rbf-near-duplicates"])
def test_delta_sq_and_d_star_against_50_digits(case):
    """The kept factor's ``delta_t^2`` is within ``span_tolerance`` of the 50-digit Schur complement
    (points in and out of the span, K near-singular or rank-deficient), so the span test's answer is
    right whenever the exact ``delta_t^2`` is 0 or above twice the tolerance; ``d*`` solves
    ``K d* = k_t`` to the backward error of the triangular solves (residual in 50 digits)."""
    mpmath = pytest.importorskip("mpmath")
    from refsvm.online import projection
    from refsvm.online.common import kernel_error_over_rows
    from refsvm.kernels import Kernel
    name, X, _ = _near_singular_sets()[case]
    kernel = {"linear": Kernel("linear"), "poly2": Kernel("poly", 1.0, 2, 1.0), "rbf": Kernel("rbf", 1.0)}[name]
    eps_K = kernel_error_over_rows(X, None, kernel)
    factor = projection.SpanFactor(np.zeros((0, 0)), 0.0, eps_K)
    S = np.zeros((0, X.shape[1]))
    mpmath.mp.dps = 50
    checked_in, checked_out = 0, 0
    for x in X[:40]:
        k_t = kernel.row(S, x) if S.shape[0] else np.zeros(0)
        span = factor.project(k_t, float(kernel.diag(x.reshape(1, -1))[0]))
        if S.shape[0]:
            Km, km, ktt = _exact(mpmath, S, x, name)
            d_exact = mpmath.lu_solve(Km, km)
            exact = ktt - (km.T * d_exact)[0]
            assert abs(span.delta_sq - float(exact)) <= span.tol, (span.delta_sq, float(exact), span.tol)
            if float(exact) > 2 * span.tol:
                assert not span.in_span
                checked_out += 1
            if abs(float(exact)) <= 1e-30 * float(ktt):
                assert span.in_span
                checked_in += 1
            residual = Km * mpmath.matrix(span.d_star.tolist()) - km
            diag = np.sqrt(np.diag(kernel.matrix(S, S)))
            l1 = np.sum(np.abs(span.d_star))
            for i in range(S.shape[0]):
                bound = projection.SPAN_SAFETY * ((S.shape[0] + 2) * U * diag[i] * np.max(diag) * l1 + eps_K * l1)
                assert abs(float(residual[i])) <= bound + 4 * U * abs(k_t[i])
        if not span.in_span:
            factor.append(span)
            S = np.r_[S, x[None]]
    assert checked_out >= 3
    assert checked_in >= (3 if name != "rbf" else 0)


def test_zero_row_first_is_not_added():
    """A linear kernel's zero row as the first mistake: k(x, x) = 0 is in the span {0} (the factor
    would get a zero pivot); nothing is added, on both paths."""
    X = np.array([[0.0, 0.0], [1.0, 2.0], [-1.0, 0.5]])
    y = np.array([1, -1, 1], dtype=np.int64)
    for module in (ref, fast):
        r = module.projectron(X, y, np.arange(3, dtype=np.int64), eta=0.0, budget=None, plusplus=False,
                              kernel="linear", gamma=1.0, degree=3, coef0=0.0)
        assert list(r.trace["update_kind"]) == [2, 1, 1]
        assert r.sv.shape[0] == 2 and np.all(np.isfinite(r.state["L"]))
