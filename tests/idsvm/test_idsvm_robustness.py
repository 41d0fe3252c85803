"""IDSVM (refsvm.idsvm and its twin), part two of tests/idsvm/test_idsvm.py: hypothesis properties (the Gaussian
kernel's KKT conditions; the certificate's contract on low-rank kernels), the argument errors, the agreement of the
two paths, the low-rank kernels' former failures and the known inaccuracies (strict xfails).  Every expected value
is computed independently of the code (tests/idsvm/_idsvm_common.py)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refsvm.backend import get_module
from refsvm.idsvm import KKT_WARN, IDSVMResult

from idsvm._idsvm_common import (ILL, ILL_ABS, KERNELS, _boxes, _fresh, _kw, _problem, _tolerances, _violation,
                                  assert_dual_matches_svc, assert_kkt)

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


# ---- 6. a hypothesis property test ------------------------------------------------------------------

@st.composite
def _small_problems(draw):
    n_total = draw(st.integers(2, 25))
    n_dup = draw(st.integers(0, n_total // 2))             # exact repeats of the first rows
    n = n_total - n_dup
    d = draw(st.integers(1, 3))
    integer = draw(st.booleans())
    if integer:                                           # small integers: exact ties and duplicates
        cell = st.integers(-2, 2).map(float)
    else:
        cell = st.floats(-3.0, 3.0, allow_nan=False, allow_infinity=False)
    X = np.array(draw(st.lists(st.lists(cell, min_size=d, max_size=d), min_size=n, max_size=n)))
    X = np.vstack([X, X[:n_dup]])
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=len(X), max_size=len(X))))
    order = np.array(draw(st.permutations(range(len(X)))))
    C = draw(st.sampled_from([1e-3, 0.1, 1.0, 10.0, 1e3]))
    return X, y, order, C


@settings(derandomize=True, max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problem=_small_problems(), gamma=st.sampled_from([0.5, 1.0, 3.0]))
def test_property_kkt_rbf(problem, gamma):
    """Any small problem under the Gaussian kernel (full rank on distinct rows): no exception, and the
    KKT conditions hold -- except for the known inaccuracy on rows closer than ~1e-5 but not equal
    (KNOWN_INACCURATE["gaussian near-duplicates"]), where only the certificate's contract is asked."""
    X, y, order, C = problem
    kw = _kw("rbf", gamma=gamma)
    dist = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    near = bool(np.any((dist > 0.0) & (dist <= 1e-4)))
    assert_certified(X, y, order, C, kw, get_module("idsvm", "python").idsvm, strict=not near)


def assert_certified(X, y, order, C, kw, run, *, strict):
    """The reference's contract on any problem: no exception; ``trace["kkt_violation"]`` is the KKT
    violation computed here (fresh gradients, margin units); a RuntimeWarning exactly when it exceeds
    KKT_WARN; without one, the violation is at most KKT_WARN (or the ILL tolerance, if larger).
    ``strict``: moreover the KKT conditions hold in the ILL tier (assert_kkt), warned or not."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = run(X, y, order, C=C, **kw)
    assert all(issubclass(w.category, RuntimeWarning) and "KKT" in str(w.message) for w in caught), \
        [str(w.message) for w in caught]
    assert len(caught) == (res.trace["kkt_violation"] > KKT_WARN)
    order = np.asarray(order)
    g, yo, _, scale = _fresh(X, y, order, res, kw)
    C_box = _boxes(X.shape[0], order, C, None)
    found = _violation(g, yo, res, C_box)
    tol_g = _tolerances(len(order), scale, C, ILL)[0]
    assert res.trace["kkt_violation"] == pytest.approx(found, rel=1e-3, abs=tol_g)
    if not caught:
        assert found <= max(KKT_WARN, tol_g)
    if strict:
        assert_kkt(X, y, order, res, C, kw, factor=ILL)
    return res


@settings(derandomize=True, max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problem=_small_problems(), kernel=st.sampled_from(["linear", "poly"]),
       gamma=st.sampled_from([0.5, 1.0]), degree=st.sampled_from([2, 3]), coef0=st.sampled_from([0.0, 1.0]))
def test_property_low_rank_kernels_never_silently_wrong(problem, kernel, gamma, degree, coef0):
    """The linear and polynomial kernels have rank <= their feature space's dimension, so S meets
    dependent rows: no exception, and the model is either right or flagged (the certificate's contract)."""
    X, y, order, C = problem
    kw = _kw(kernel, gamma=gamma, degree=degree, coef0=coef0)
    assert_certified(X, y, order, C, kw, get_module("idsvm", "python").idsvm, strict=False)


def test_certificate_on_a_survey(idsvm):
    """The same contract on 150 seeded draws that reach the ill-conditioned corners (gamma up to 10,
    C up to 1e4, rows 1e-12..1e-4 apart, repeats, weights)."""
    for seed in range(150):
        rng = np.random.default_rng([seed, 13])
        kernel = ("rbf", "linear", "poly")[seed % 3]
        kw = _kw(kernel, gamma=float(rng.choice([0.1, 1.0, 10.0])), degree=int(rng.choice([2, 3])),
                 coef0=float(rng.choice([0.0, 1.0])))
        C = float(rng.choice([1e-3, 0.1, 1.0, 10.0, 100.0, 1e4]))
        n, d = int(rng.integers(2, 26)), int(rng.integers(1, 4))
        X = rng.integers(-2, 3, size=(n, d)).astype(np.float64) if seed % 2 else rng.normal(size=(n, d))
        if rng.random() < 0.4:
            k = max(1, n // 3)
            X[-k:] = X[:k] + 10.0 ** rng.uniform(-12, -4) * rng.normal(size=(k, d))
        y = rng.choice([-1, 1], n)
        order = rng.permutation(n)
        if rng.random() < 0.3:
            order = np.r_[order, rng.integers(0, n, n // 2)]
        assert_certified(X, y, order, C, kw, idsvm, strict=False)


# ---- 7. errors --------------------------------------------------------------------------------------

def test_errors_name_the_parameter(idsvm):
    X, y = np.random.default_rng(0).normal(size=(6, 2)), np.array([1, -1, 1, -1, 1, -1])
    order = np.arange(6)
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"\bX\b"):
        idsvm(bad, y, order, C=1.0)
    for labels in ([0, 1, 0, 1, 0, 1], [-1, 1, 2, -1, 1, 2], [-1, 0, 1, -1, 0, 1]):     # 0/1, three classes
        with pytest.raises(ValueError, match=r"\by\b"):
            idsvm(X, np.array(labels), order, C=1.0)
    for C in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"\bC\b"):
            idsvm(X, y, order, C=C)
    for kernel in ("rbf", "poly"):
        for gamma in (0.0, -0.5):
            with pytest.raises(ValueError, match=r"\bgamma\b"):
                idsvm(X, y, order, C=1.0, kernel=kernel, gamma=gamma)
    for sparse in (sp.csr_matrix(X), sp.csc_matrix(X)):
        with pytest.raises(ValueError, match=r"\bX\b.*dense"):
            idsvm(sparse, y, order, C=1.0)
    for out in (np.array([0, 6]), np.array([-1, 2])):
        with pytest.raises(ValueError, match=r"\border\b"):
            idsvm(X, y, out, C=1.0)
    with pytest.raises(ValueError, match=r"\bkernel\b"):
        idsvm(X, y, order, C=1.0, kernel="sigmoid")
    with pytest.raises(ValueError, match=r"\bsample_weight\b"):
        idsvm(X, y, order, C=1.0, sample_weight=-np.ones(6))
    with pytest.raises(ValueError, match=r"\bsample_weight\b"):
        idsvm(X, y, order, C=1.0, sample_weight=np.ones(5))


# ---- 8. the two paths agree ------------------------------------------------------------------------

def _agreement_cases():
    """(name, X, y, order, C, kw, sample_weight): the regimes of point 5 under every kernel."""
    cases = []
    for kernel in KERNELS:
        kw = _kw(kernel)
        for seed in range(4):
            X, y, rng = _problem([seed, len(kernel), 3], 30)
            C = float(rng.choice([0.01, 1.0, 100.0]))
            cases.append(("random", X, y, rng.permutation(30), C, kw, None))
            rep = rng.choice(30, 8, replace=False)
            Xd, yd = np.vstack([X, X[rep]]), np.r_[y, y[rep] * rng.choice([-1, 1], 8)]
            cases.append(("duplicates", Xd, yd, rng.permutation(38), C, kw, None))
            cases.append(("near duplicates", np.vstack([X, X[rep] + 1e-9]), yd, rng.permutation(38), C, kw, None))
            cases.append(("repeats", X, y, np.r_[rng.permutation(30), rng.choice(30, 10)], C, kw, None))
            pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
            cases.append(("one class first", X, y, np.r_[pos, neg], C, kw, None))
            cases.append(("one example", X, y, np.array([seed]), C, kw, None))
            cases.append(("tiny C", X, y, rng.permutation(30), 1e-6, kw, None))
            cases.append(("huge C", X, y, rng.permutation(30), 1e4, kw, None))
            sw = rng.choice([0.0, 0.5, 1.0, 2.0], size=30)
            cases.append(("weights", X, y, rng.permutation(30), C, kw, sw))
            Xi = rng.integers(-2, 3, size=(30, 2)).astype(np.float64)
            cases.append(("integer ties", Xi, y, rng.permutation(30), C, kw, None))
    return cases


def _run_recording(run, *args, **kwargs):
    """``run(*args, **kwargs)`` -> (result or the FloatingPointError it raised, the warnings' messages)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = run(*args, **kwargs)
        except FloatingPointError as exc:            # the guard of both paths: compared, not hidden
            out = exc
    return out, [str(w.message) for w in caught]


def test_paths_agree():
    """The twin takes the reference's decisions on every regime of point 5 under every kernel: the same
    sets, SVs, events (kind, step, example), counts and warnings; coefficients, bias and gradients within
    rtol 1e-9 / atol 1e-12 max(C, 1)."""
    fast = get_module("idsvm", "fast")
    ref = get_module("idsvm", "python")
    assert fast is get_module("idsvm", "fast")
    for i, (name, X, y, order, C, kw, sw) in enumerate(_agreement_cases()):
        where = f"case {i}: {name}, {kw['kernel']}, C={C}"
        a, warned_a = _run_recording(ref.idsvm, X, y, order, C=C, sample_weight=sw, **kw)
        b, warned_b = _run_recording(fast.idsvm, X, y, order, C=C, sample_weight=sw, **kw)
        assert len(warned_a) == len(warned_b), (where, warned_a, warned_b)
        if isinstance(a, FloatingPointError) or isinstance(b, FloatingPointError):
            assert type(a) is type(b), (where, a, b)
            continue
        assert isinstance(b, IDSVMResult), where
        np.testing.assert_array_equal(a.sets, b.sets, err_msg=where)
        np.testing.assert_array_equal(a.support, b.support, err_msg=where)
        np.testing.assert_array_equal(a.sv, b.sv, err_msg=where)
        assert set(a.trace) == set(b.trace), where
        for key in ("event_kind", "event_index", "event_step"):
            np.testing.assert_array_equal(a.trace[key], b.trace[key], err_msg=f"{where}: {key}")
        for key in ("n_steps", "mistakes", "events", "n_margin"):
            assert a.trace[key] == b.trace[key], f"{where}: {key}"
        scale = max(C, 1.0)
        np.testing.assert_allclose(b.alpha_all, a.alpha_all, rtol=1e-9, atol=1e-12 * scale, err_msg=where)
        np.testing.assert_allclose(b.alpha, a.alpha, rtol=1e-9, atol=1e-12 * scale, err_msg=where)
        np.testing.assert_allclose(b.gradients, a.gradients, rtol=1e-9, atol=1e-12 * scale, err_msg=where)
        assert b.bias == pytest.approx(a.bias, rel=1e-9, abs=1e-12 * scale), where
        assert b.trace["kkt_violation"] == pytest.approx(a.trace["kkt_violation"], rel=1e-6, abs=1e-12), where


# ---- low-rank kernels: former failures and known inaccuracies ---------------------------------

def test_rank_one_kernel():
    """(10 x x')^3 on 1-D rows has rank 1: S holds at most two examples.  (refsvm.idsvm at 048a323 stopped
    this well-posed problem with FloatingPointError: a dependent row joined S.)"""
    X = np.array([[-1.3506430288581706], [-0.39027615702860624], [0.5245939230967507], [-0.43464124371422247],
                  [-0.31695397383008717], [-2.669492316464959], [0.5214597076279609]])
    y, order, C = np.array([1, 1, -1, 1, -1, 1, 1]), np.array([5, 3, 0, 1, 4, 2, 6]), 0.1
    kw = dict(kernel="poly", gamma=10.0, degree=3, coef0=0.0)
    for backend in ("python", "fast"):
        res = get_module("idsvm", backend).idsvm(X, y, order, C=C, **kw)
        assert_kkt(X, y, order, res, C, kw, factor=ILL)
        assert_dual_matches_svc(X, y, order, res, C, kw, factor=ILL)


def test_linear_kernel_margin_set_at_its_rank():
    """Linear kernel, 1-D rows, with exact repeats of both labels (x = 0.9 with +1 and -1): S can hold two
    examples only.  (An intermediate version of refsvm.idsvm, between 048a323 and eb573e3, returned
    sum y alpha = -0.11 here.)"""
    X = np.array([[-0.1], [0.9], [0.8], [0.9], [0.9], [0.0]])
    y = np.array([1, -1, 1, 1, -1, -1])
    kw = _kw("linear")
    for C in (1.0, 10.0):
        res = get_module("idsvm", "python").idsvm(X, y, np.arange(6), C=C, **kw)
        assert_kkt(X, y, np.arange(6), res, C, kw, factor=ILL)
        assert_dual_matches_svc(X, y, np.arange(6), res, C, kw, factor=ILL)


# Small, well-scaled problems on which the reference misses the KKT conditions by more than this file's
# ILL tolerance (shrunk from random surveys; its certificate reports the violation, with a warning only
# above KKT_WARN).
KNOWN_INACCURATE = {
    # (x x' + 1)^2 on 11 one-decimal 1-D rows (repeats), C = 1: the optimum is f = 1 everywhere (every
    # positive example on its margin: a degenerate problem); KKT error 0.012, sum y alpha = 1.6e-4 before the
    # final refinement (refsvm.idsvm.refine), 3.3e-5 after
    "quadratic": (np.array([[-2.3], [-2.3], [-1.5], [-1.5], [1.1], [-1.8], [0.4], [0.3], [-3.2], [0.4], [0.6]]),
                  np.array([1, 1, 1, -1, -1, -1, 1, 1, 1, 1, -1]), 1.0,
                  dict(kernel="poly", gamma=1.0, degree=2, coef0=1.0)),
    # the Gaussian kernel on three rows, two of them 1e-5 apart with the same label, C = 10: the second
    # row's Schur complement (~ the distance squared) is below SCHUR_RTOL times its terms, so it is
    # "dependent", stays in R with alpha = 0 and its g drifts to -1.5e-5: a KKT error of ~1.5 x the
    # distance for any distance up to ~1e-5 (the module docstring speaks of rows within about sqrt(u) of a
    # margin vector with the other label); SVC puts the whole alpha on one of the twins
    "gaussian near-duplicates": (np.array([[0.0, 0.0], [1e-5, 0.0], [1.0, 0.0]]), np.array([-1, -1, 1]), 10.0,
                                 dict(kernel="rbf", gamma=0.5, degree=3, coef0=0.0)),
}


@pytest.mark.parametrize("name", list(KNOWN_INACCURATE))
def test_known_inaccuracy_is_certified(idsvm, name):
    """Meanwhile the contract holds on them: the certificate is the true violation (flagged when above
    KKT_WARN)."""
    X, y, C, kw = KNOWN_INACCURATE[name]
    res = assert_certified(X, y, np.arange(len(y)), C, kw, idsvm, strict=False)
    assert res.trace["kkt_violation"] > ILL_ABS


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="refsvm/idsvm.py loses accuracy on margin sets that were near singular "
                          "(see KNOWN_INACCURATE)")
@pytest.mark.parametrize("name", list(KNOWN_INACCURATE))
def test_known_inaccuracy_kkt(name):
    X, y, C, kw = KNOWN_INACCURATE[name]
    order = np.arange(len(y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)          # the flag (test_known_inaccuracy_is_certified)
        res = get_module("idsvm", "python").idsvm(X, y, order, C=C, **kw)
    assert_kkt(X, y, order, res, C, kw, factor=ILL)


#: (x x' + 1)^3 on 11 one-decimal 1-D rows (one row twice, with both labels), C = 100: before the final
#: refinement (refsvm.idsvm.refine) a KKT error of 4.5e-3, sum y alpha = 6.6e-5, decision values off SVC's by
#: up to 5e-3 (the margin sets passed through near-singular states and the error stayed once S was well
#: conditioned again; the final R's condition is 46).  A strict xfail of this file until the refinement.
CUBIC = (np.array([[-0.7], [0.7], [-1.4], [0.1], [-1.1], [0.4], [-0.8], [0.9], [1.4], [0.4], [0.8]]),
         np.array([-1, 1, -1, -1, 1, -1, -1, -1, -1, 1, 1]), 100.0, dict(kernel="poly", gamma=1.0, degree=3, coef0=1.0))


def test_refinement_repairs_the_cubic_case(idsvm):
    """The former known inaccuracy: after the refinement the KKT conditions hold (ILL tolerance) and the dual
    matches SVC's, with no warning (RuntimeWarning is an error in this file)."""
    X, y, C, kw = CUBIC
    order = np.arange(len(y))
    res = idsvm(X, y, order, C=C, **kw)
    assert_kkt(X, y, order, res, C, kw, factor=ILL)
    assert_dual_matches_svc(X, y, order, res, C, kw, factor=ILL)
    assert res.trace["kkt_violation"] < ILL_ABS
