"""Oracle traces of multi-class BSGD (Crammer-Singer, params n_classes): both paths' traces agree, a
step's scores are the classes' scores of the model before it (brute force on a prefix run), and an
altered score or merge partner is found at its step."""

import hashlib
import math

import numpy as np
import pytest

from refsvm import oracle
from refsvm.backend import get_module

PARAMS = {"n_classes": 3, "budget": 6, "gamma": 0.5}


def data(n=60, seed=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    labels = np.array([10, 20, 30])
    return X, labels[np.argmax(X + 0.3 * rng.standard_normal((n, 3)), axis=1)]


@pytest.fixture(scope="module")
def traces():
    X, y = data()
    return {b: oracle.trace_records("bsgd", X, y, epochs=2, seed=3, params=PARAMS, backend=b) for b in
            ("python", "fast")}


def test_both_paths_agree_and_scores_are_the_model_before_the_step(traces):
    (ra, res), (rb, _) = traces["python"], traces["fast"]
    result = oracle.compare_traces(ra, rb)
    assert result.agree, result.report()
    X, y = data()
    codes = np.searchsorted([10, 20, 30], y)
    assert ra[0]["data"]["y_sha256"] == hashlib.sha256(codes.astype("<f8").tobytes()).hexdigest()
    steps = [r for r in ra if r["record"] == "step"]
    assert all(len(r["margin"]) == 3 for r in steps)
    merges = [r for r in ra if r["record"] == "maintenance"]
    assert merges and all(len(r["new_coefficient"]) == 3 for r in merges)
    order = np.random.default_rng(3).permutation(len(y))
    kw = {**oracle.SOLVERS["bsgd"].defaults, **PARAMS}
    for k in (5, 33):
        prev = get_module("bsgd", "python").bsgd(X, codes, order[:k], **kw)
        x = X[order[k]]
        K = np.array([math.exp(-0.5 * float(np.sum((s - x) ** 2))) for s in prev.sv])
        np.testing.assert_allclose(steps[k]["margin"], K @ prev.alpha + prev.bias, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_altered_score_and_partner_found_at_their_steps(traces, backend):
    ours = traces[backend][0]
    theirs = [dict(r) for r in ours]
    steps = [i for i, r in enumerate(theirs) if r["record"] == "step"]
    i = steps[40]
    theirs[i]["margin"] = [theirs[i]["margin"][0], theirs[i]["margin"][1] * (1 + 1e-6) + 1e-9, theirs[i]["margin"][2]]
    j = [n for n, r in enumerate(theirs) if r["record"] == "maintenance"][10]
    theirs[j]["partner"] += 1
    result = oracle.compare_traces(ours, theirs)
    assert (result.first_continuous.step, result.first_continuous.field) == (theirs[i]["step"], "margin")
    assert (result.first_discrete.step, result.first_discrete.field) == (theirs[j]["step"], "partner")


def test_class_count_must_match():
    X, y = data()
    with pytest.raises(ValueError, match="n_classes"):
        oracle.trace_records("bsgd", X, y, params={"n_classes": 4})
    with pytest.raises(ValueError, match="2 classes"):
        oracle.trace_records("bsgd", X, y)
