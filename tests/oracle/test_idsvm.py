"""The oracle's IDSVM trace (``refsvm trace --solver idsvm``): the two paths' traces are equal (bitwise twins); every
step's decision is the one an exact SVM of the examples before it makes (scikit-learn's SVC, computed apart); the
events end each growing step with the new example joining S or E; the epoch's dual objective is SVC's optimum; one
pass only, refused clearly otherwise (library and command line)."""

import json

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file
from sklearn.svm import SVC

from refsvm import oracle
from refsvm.cli import main

PARAMS = dict(C=2.0, gamma=0.5)


def _data(seed=1, n=36):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def _svc(X, y):
    return SVC(C=PARAMS["C"], kernel="rbf", gamma=PARAMS["gamma"], tol=1e-12).fit(X, y)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_both_paths_write_the_same_trace(seed):
    X, y = _data(seed)
    a, ra = oracle.trace_records("idsvm", X, y, seed=seed, params=PARAMS, backend="python")
    b, rb = oracle.trace_records("idsvm", X, y, seed=seed, params=PARAMS, backend="fast")
    assert [r for r in a if r["record"] != "header"] == [r for r in b if r["record"] != "header"]
    assert oracle.compare_traces(a, b, rtol=0.0).agree
    assert np.array_equal(ra[0].alpha, rb[0].alpha) and ra[0].bias == rb[0].bias


def test_each_steps_decision_is_the_exact_svms_of_the_examples_before_it():
    """Step t adds (alpha_t grows) iff y_t f(x_t) < 1 for the SVM of examples 0 .. t-1: SVC's, fitted apart; steps
    within 1e-6 of the margin and steps before both classes were seen are not judged."""
    X, y = _data(3)
    records, _ = oracle.trace_records("idsvm", X, y, seed=5, params=PARAMS)
    steps = [r for r in records if r["record"] == "step"]
    order = [r["index"] for r in steps]
    judged = 0
    for t in range(1, len(order)):
        seen = np.array(order[:t])
        if np.unique(y[seen]).size < 2:
            continue
        margin = y[order[t]] * _svc(X[seen], y[seen]).decision_function(X[[order[t]]])[0]
        if abs(margin - 1.0) < 1e-6:
            continue
        assert steps[t]["update"] == ("add" if margin < 1.0 else "none"), t
        assert steps[t]["violated"] == (margin < 1.0), t
        judged += 1
    assert judged >= len(order) - 6


def test_events_end_each_growing_step_with_the_example_joining_s_or_e():
    X, y = _data(4)
    records, _ = oracle.trace_records("idsvm", X, y, seed=2, params=PARAMS)
    adds = {r["step"] for r in records if r["record"] == "step" and r["update"] == "add"}
    events = [r for r in records if r["record"] == "maintenance"]
    assert {e["step"] for e in events} == adds
    assert all(e["kind"] in oracle.IDSVM_EVENTS and e["partner"] is None for e in events)
    for s in adds:
        last = [e for e in events if e["step"] == s][-1]
        assert last["kind"] in ("c_to_margin", "c_to_error") and last["index"] == s, s
    moved = [e for e in events if e["kind"] not in ("c_to_margin", "c_to_error")]
    assert all(e["index"] < e["step"] for e in moved)        # only an example seen before moves


def test_epoch_record_holds_the_svms_dual_optimum():
    """The epoch's dual objective equals the dual objective of SVC's solution (sum alpha - 1/2 a'Ka) to SVC's
    tolerance; n_sv and mistakes are the result's."""
    from refsvm.kernels import kernel_matrix

    X, y = _data(6)
    records, results = oracle.trace_records("idsvm", X, y, seed=1, params=PARAMS)
    (epoch,) = [r for r in records if r["record"] == "epoch"]
    svc = _svc(X, y)
    a = svc.dual_coef_[0]
    K = kernel_matrix(X[svc.support_], X[svc.support_], "rbf", PARAMS["gamma"], 3, 0.0)
    assert epoch["dual_objective"] == pytest.approx(np.sum(np.abs(a)) - 0.5 * a @ K @ a, rel=1e-8)
    assert epoch["n_sv"] == results[0].sv.shape[0] and epoch["mistakes"] == results[0].trace["mistakes"]
    assert epoch["step"] == len(X) - 1 and "epoch.objective" in records[0]["not_recorded"]


def test_one_pass_only_and_repeats_in_an_order():
    X, y = _data(7, n=12)
    with pytest.raises(ValueError, match="epochs: idsvm makes one pass"):
        oracle.trace_records("idsvm", X, y, seed=0, epochs=2, params=PARAMS)
    with pytest.raises(ValueError, match="epochs"):
        oracle.trace_records("idsvm", X, y, order=[np.arange(12), np.arange(12)], params=PARAMS)
    records, results = oracle.trace_records("idsvm", X, y, order=[np.r_[np.arange(12), np.arange(6)]], params=PARAMS)
    assert results[0].trace["n_steps"] == 18 and records[0]["order"]["lengths"] == [18]


def test_command_line_trace_and_its_refusal(tmp_path, capsys):
    X, y = _data(8, n=30)
    data = tmp_path / "train.txt"
    dump_svmlight_file(X, y, str(data), zero_based=False)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = [str(data), "--solver", "idsvm", "--param", "C=2", "--param", "gamma=0.5", "--seed", "3"]
    assert main(["trace", *args, "--output", str(a)]) == 0
    assert main(["trace", *args, "--backend", "fast", "--output", str(b)]) == 0
    assert "30 steps" in capsys.readouterr().out
    assert main(["compare-traces", str(a), str(b), "--rtol", "0"]) == 0
    header = json.loads(a.read_text().splitlines()[0])
    assert header["solver"] == "idsvm" and header["params"]["C"] == 2
    with pytest.raises(SystemExit) as exc:
        main(["trace", *args, "--epochs", "2", "--output", str(tmp_path / "c.jsonl")])
    assert exc.value.code == 2 and "--epochs: idsvm makes one pass" in capsys.readouterr().err
