"""verbose: progress lines, computed by chunking a pass (same model as one call)."""

import re

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

import refsvm.estimators._progress as progress
from refsvm import BudgetedSVC
from refsvm.backend import get_module
from refsvm.cli import main
from refsvm.estimators._progress import chunk_size, merge_traces

from _helpers import blobs, checkerboard, run_passes

EXACT_KEYS = ("added", "maint_step", "maint_index", "maint_partner", "mistakes", "n_steps")


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(progress, "MIN_CHUNK", 37)  # many chunks on small data


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("problem", ["binary", "multiclass"])
@pytest.mark.parametrize("params", [
    dict(maintenance="removal"),
    dict(maintenance="merge", fit_bias=True),
    dict(maintenance="projection"),
    dict(maintenance="removal", learning_rate="perceptron", lam=1e-2),
    dict(maintenance="merge", learning_rate="perceptron", lam=1e-2),
], ids=["removal", "merge-bias", "projection", "perceptron", "perceptron-merge"])
def test_chunked_pass_gives_the_same_model(small_chunks, capsys, backend, problem, params):
    X, y = checkerboard(500) if problem == "binary" else blobs(500)
    kw = dict(budget=20, gamma=3.0, random_state=0, backend=backend, epochs=2, **params)
    one = BudgetedSVC(**kw).fit(X, y)
    chunked = BudgetedSVC(verbose=2, **kw).fit(X, y)
    assert capsys.readouterr().err.count("\n") == 2 * 14  # 13 chunks of 37 + 1 of 19, plus done
    for a, b in zip(one.trace_, chunked.trace_):
        for key in EXACT_KEYS:
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
        assert a["gradient_error_sum"] == pytest.approx(b["gradient_error_sum"], rel=1e-12)
        assert a["n_maintenance"] == b["n_maintenance"]
    assert one.t_ == chunked.t_ == 1000
    # bitwise: the chunk boundaries change nothing (the fast path keeps K and the projection's
    # inverse for a call that continues the model the previous call returned)
    np.testing.assert_array_equal(one.alpha_, chunked.alpha_)
    np.testing.assert_array_equal(one.support_vectors_, chunked.support_vectors_)
    np.testing.assert_array_equal(one.bias_, chunked.bias_)


@pytest.mark.parametrize("maintenance", ["merge", "projection"])
@pytest.mark.parametrize("backend", ["python", "fast"])
def test_function_continues_exactly_across_calls(backend, maintenance):
    """bsgd on order[:k], then order[k:] (continuing sv/alpha/bias/t0) == bsgd on order."""
    mod = get_module("bsgd", backend)
    X, y = checkerboard(300, seed=2)
    kw = dict(n_classes=2, budget=15, lam=1e-3, learning_rate="pegasos", eta=0.1, radius=1.0,
              maintenance=maintenance, kernel="rbf", gamma=4.0, degree=3, coef0=0.0,
              merge_eps=0.01, projection_ridge=1e-10, fit_bias=False)
    order = np.random.default_rng(0).permutation(300)
    whole = mod.bsgd(X, y, order, **kw)
    parts = run_passes(mod, X, y, [order[:1], order[1:120], order[120:]], kw)
    np.testing.assert_array_equal(parts[-1].alpha, whole.alpha)
    np.testing.assert_array_equal(parts[-1].sv, whole.sv)
    assert parts[-1].t == whole.t == 300
    merged = merge_traces([p.trace for p in parts], [0, 1, 120])
    for key in EXACT_KEYS:
        np.testing.assert_array_equal(merged[key], whole.trace[key], err_msg=key)


def test_merge_traces_rules():
    a = {"n": 2, "x": 0.5, "added": np.array([1, 0], np.int8), "maint_step": np.array([1]),
         "maint_index": np.array([7]), "flag": "a", "pairs": np.zeros((1, 4))}
    b = {"n": 3, "x": 0.25, "added": np.array([1, 1, 1], np.int8), "maint_step": np.array([0, 2]),
         "maint_index": np.array([3, 4]), "flag": "b", "pairs": np.ones((2, 4))}
    m = merge_traces([a, b], [0, 2])
    assert m["n"] == 5 and m["x"] == 0.75 and m["flag"] == "b"
    np.testing.assert_array_equal(m["added"], [1, 0, 1, 1, 1])
    np.testing.assert_array_equal(m["maint_step"], [1, 2, 4])     # shifted by the offset
    np.testing.assert_array_equal(m["maint_index"], [7, 3, 4])    # slots: not shifted
    assert m["pairs"].shape == (3, 4)
    assert merge_traces([a], [0]) is a


def test_chunk_sizes():
    assert chunk_size(50_000, 0) == 50_000
    assert chunk_size(50_000, 1) == 5_000
    assert chunk_size(50_000, 2) == 1_000
    assert chunk_size(200_000, 2) == 2_000
    assert chunk_size(500, 1) == progress.MIN_CHUNK  # a short pass: one chunk
    assert chunk_size(0, 1) == progress.MIN_CHUNK


def test_progress_lines_report_rate_svs_maintenance_and_online_error(capsys):
    X, y = checkerboard(20000, seed=1)
    est = BudgetedSVC(budget=40, gamma=3.0, random_state=0, epochs=2, verbose=1).fit(X, y)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 * 10
    pattern = re.compile(r"\[BudgetedSVC\] epoch (\d)/2(?:: (\d+)/20000 \(\d+%\)| done: (\d+) steps in "
                         r"[\d.]+ s)  [\d,]+ ex/s  (\d+) SVs  ([\d,]+) maintenance  online error ([\d.]+)")
    for epoch in (1, 2):
        mine = [pattern.fullmatch(line) for line in lines[10 * (epoch - 1):10 * epoch]]
        assert all(mine), lines
        trace = est.trace_[epoch - 1]
        steps = [2000 * k for k in range(1, 11)]
        assert [int(m.group(2)) for m in mine[:-1]] == steps[:-1]
        assert int(mine[-1].group(3)) == 20000
        for m, done in zip(mine, steps):  # events so far, counted from the pass's trace
            assert int(m.group(1)) == epoch and int(m.group(4)) == 40
            assert int(m.group(5).replace(",", "")) == np.count_nonzero(trace["maint_step"] < done)
        assert float(mine[-1].group(6)) == pytest.approx(trace["mistakes"] / 20000, abs=5e-5)


def test_verbose_zero_calls_the_algorithm_once_per_pass(monkeypatch, capsys):
    X, y = checkerboard(3000)
    calls = []
    real = get_module("bsgd", "fast").bsgd

    def spy(X, y, order, **kw):
        calls.append(len(order))
        return real(X, y, order, **kw)

    monkeypatch.setattr(get_module("bsgd", "fast"), "bsgd", spy)
    BudgetedSVC(budget=20, random_state=0, epochs=2).fit(X, y)
    assert calls == [3000, 3000] and capsys.readouterr().err == ""
    calls.clear()
    BudgetedSVC(budget=20, random_state=0, verbose=1).fit(X, y)
    assert calls == [1000, 1000, 1000]


def test_partial_fit_reports_its_pass(capsys):
    X, y = checkerboard(200)
    est = BudgetedSVC(budget=20, random_state=0, verbose=1)
    est.partial_fit(X, y, classes=[-1, 1])
    est.partial_fit(X, y)
    err = capsys.readouterr().err
    assert "partial_fit (pass 1) done: 200 steps" in err
    assert "partial_fit (pass 2) done: 200 steps" in err


@pytest.mark.parametrize("verbose", [-1, 1.5, "yes", None])
def test_bad_verbose_raises_naming_it(verbose):
    X, y = checkerboard(100)
    with pytest.raises(ValueError, match="verbose"):
        BudgetedSVC(verbose=verbose).fit(X, y)
    with pytest.raises(ValueError, match="verbose"):
        BudgetedSVC(verbose=verbose).partial_fit(X, y, classes=[-1, 1])


def test_cli_progress_on_by_default_quiet_switches_it_off(tmp_path, capsys):
    X, y = checkerboard(1500)
    data = tmp_path / "train.svm"
    dump_svmlight_file(X, y, str(data), zero_based=False)  # LIBSVM files are 1-based
    assert main(["train", str(data), str(tmp_path / "m.npz"), "--budget", "20"]) == 0
    out = capsys.readouterr()
    assert out.err.count("[BudgetedSVC] epoch 1/1") == 2  # 1000 of 1500, done
    assert "online error" in out.err and "online error" not in out.out
    assert main(["train", str(data), str(tmp_path / "m.npz"), "--budget", "20", "--quiet"]) == 0
    assert "[BudgetedSVC]" not in capsys.readouterr().err


def test_continuation_does_not_depend_on_other_models_trained_in_between():
    """Fast projection keeps K / the inverse per returned SV array: interleaving another
    model between two calls changes nothing."""
    X, y = checkerboard(400)
    X2, y2 = checkerboard(400, seed=7)
    kw = dict(budget=15, gamma=3.0, maintenance="projection", random_state=0)
    plain = BudgetedSVC(**kw)
    plain.partial_fit(X, y, classes=[-1, 1]).partial_fit(X, y)
    mixed = BudgetedSVC(**kw).partial_fit(X, y, classes=[-1, 1])
    BudgetedSVC(**kw).fit(X2, y2)  # another projection model in between
    mixed.partial_fit(X, y)
    np.testing.assert_array_equal(mixed.alpha_, plain.alpha_)
    np.testing.assert_array_equal(BudgetedSVC(epochs=2, **kw).fit(X, y).alpha_, plain.alpha_)


def test_progress_line_prints_only_what_applies(capsys):
    """FOGD has no SVs and no budget maintenance: its line says neither (it printed "0 SVs 0 maintenance")."""
    from refsvm import FOGDClassifier

    X = np.random.default_rng(0).normal(size=(1200, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    FOGDClassifier(n_components=20, gamma=1.0, verbose=1, random_state=0).fit(X, y)
    err = capsys.readouterr().err
    assert "online error" in err and "SVs" not in err and "maintenance" not in err
    BudgetedSVC(budget=20, gamma=1.0, verbose=1, random_state=0).fit(X, y)
    err = capsys.readouterr().err
    assert "20 SVs" in err and "maintenance" in err


@pytest.mark.parametrize("verbose, lines", [(False, 0), (True, 1)])
def test_verbose_accepts_booleans_like_scikit_learn(verbose, lines, capsys):
    """verbose=False / True are accepted (scikit-learn's estimators take booleans there); True prints."""
    from refsvm import BudgetedSVC
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    BudgetedSVC(budget=10, gamma=0.5, random_state=0, verbose=verbose).fit(X, y)
    err = capsys.readouterr().err
    assert (len(err.strip()) > 0) == bool(lines)
