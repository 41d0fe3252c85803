"""SBPClassifier: the estimator against the function layer, one-vs-rest, save/load, CLI."""

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

import refsvm.sbp as ref_sbp
from refsvm import BudgetedModel, SBPClassifier
from refsvm.cli import main
from _helpers import blobs, checkerboard, kern


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_binary_model_is_the_function_result(fit_intercept):
    X, y = checkerboard(120, 0)
    labels = np.where(y == 1, "b", "a")                  # classes_ = [a, b] -> -1, +1
    est = SBPClassifier(nu=0.05, gamma=3.0, epochs=3, fit_intercept=fit_intercept,
                        random_state=5).fit(X, labels)
    rng = np.random.default_rng(5)
    state = None
    for _ in range(3):                                   # one call per epoch, rng.random(n) each
        res = ref_sbp.optimize(X, y, rng.random(120), nu=0.05, kernel="rbf", gamma=3.0, degree=3,
                               coef0=0.0, fit_bias=fit_intercept, state=state)
        state = res.state
    support = np.flatnonzero(res.coef)
    np.testing.assert_allclose(est.support_vectors_, X[support])
    np.testing.assert_allclose(est.alpha_[:, 0], res.coef[support], rtol=1e-9)
    assert est.bias_[0] == pytest.approx(res.bias, rel=1e-9, abs=1e-12)
    assert (est.bias_[0] != 0.0) == fit_intercept
    f = kern(X, X[support], "rbf", 3.0) @ res.coef[support] + res.bias
    np.testing.assert_array_equal(est.predict(X), np.where(f > 0, "b", "a"))
    assert est.t_ == 360 and len(est.trace_) == 3
    assert est.trace_[0]["kernel_evaluations"] == 120 * 120


def test_python_and_fast_give_the_same_model():
    X, y = blobs(90, 3, 1)
    kw = dict(nu=0.1, gamma=1.0, epochs=2, random_state=0, fit_intercept=True)
    a = SBPClassifier(backend="python", **kw).fit(X, y)
    b = SBPClassifier(backend="fast", **kw).fit(X, y)
    np.testing.assert_allclose(a.alpha_, b.alpha_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(a.bias_, b.bias_, rtol=1e-9, atol=1e-12)


def test_one_vs_rest_columns_are_binary_runs():
    X, y = blobs(100, 3, 2)
    est = SBPClassifier(nu=0.1, gamma=1.0, epochs=2, random_state=3).fit(X, y + 10)
    rng = np.random.default_rng(3)
    states = [None] * 3
    for _ in range(2):                                   # epochs outer, classes inner
        results = []
        for r in range(3):
            yr = np.where(y == r, 1, -1)
            results.append(ref_sbp.optimize(X, yr, rng.random(100), nu=0.1, kernel="rbf", gamma=1.0,
                                            degree=3, coef0=0.0, state=states[r]))
            states[r] = results[-1].state
    coef = np.column_stack([res.coef for res in results])
    support = np.flatnonzero(np.any(coef != 0, axis=1))
    np.testing.assert_allclose(est.alpha_, coef[support], rtol=1e-9, atol=1e-15)
    scores = kern(X, X[support], "rbf", 1.0) @ coef[support]
    np.testing.assert_array_equal(est.predict(X), np.argmax(scores, axis=1) + 10)
    assert est.score(X, y + 10) > 0.8
    assert est.trace_[-1]["kernel_evaluations"] == 3 * 100 * 100


def test_save_load_and_no_partial_fit(tmp_path):
    X, y = checkerboard(80, 1)
    est = SBPClassifier(nu=0.05, gamma=2.0, epochs=2, random_state=0).fit(X, y)
    est.save(tmp_path / "m.npz")
    loaded = SBPClassifier.load(tmp_path / "m.npz")
    np.testing.assert_array_equal(loaded.predict(X), est.predict(X))
    np.testing.assert_array_equal(BudgetedModel.load(tmp_path / "m.npz").predict(X), est.predict(X))
    assert loaded.get_params() == est.get_params()
    assert not hasattr(est, "partial_fit")


@pytest.mark.parametrize("param,value", [("nu", -0.1), ("gamma", 0.0), ("epochs", 0), ("kernel", "cosine"),
                                         ("fit_intercept", "yes"), ("cache_rows", -1), ("backend", "gpu"),
                                         ("coef0", float("nan")), ("degree", 0)])
def test_bad_parameters_are_named(param, value):
    X, y = checkerboard(40, 0)
    with pytest.raises(ValueError, match=rf"\b{param}\b"):
        SBPClassifier(**{param: value}).fit(X, y)


def test_cli_train_solver_sbp(tmp_path, capsys):
    X, y = checkerboard(150, 0)
    Xt, yt = checkerboard(60, 1)
    train, test, model = tmp_path / "train.txt", tmp_path / "test.txt", tmp_path / "model.npz"
    dump_svmlight_file(X, y, str(train), zero_based=False)
    dump_svmlight_file(Xt, yt, str(test), zero_based=False)
    argv = ["train", str(train), str(model), "--solver", "sbp", "--nu", "0.05", "--gamma", "3",
            "--epochs", "3", "--fit-bias", "--random-state", "2", "--test", str(test)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "trained SBP" in out and "test accuracy:" in out
    est = SBPClassifier(nu=0.05, gamma=3.0, epochs=3, fit_intercept=True, random_state=2).fit(X, y)
    loaded = SBPClassifier.load(model)
    np.testing.assert_allclose(loaded.alpha_, est.alpha_, rtol=1e-12)
    assert main(["predict", str(model), str(test)]) == 0
    assert f"accuracy: {est.score(Xt, yt):.4f}" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["train", str(train), str(model), "--solver", "sbp", "--nu", "-1"])
    assert exc.value.code == 2
    assert "nu" in capsys.readouterr().err


def test_verbose_chunks_give_the_same_model(capsys):
    X, y = checkerboard(1200, 3)
    kw = dict(nu=0.05, gamma=3.0, epochs=1, fit_intercept=True, random_state=1)
    quiet = SBPClassifier(**kw).fit(X, y)
    loud = SBPClassifier(verbose=1, **kw).fit(X, y)
    assert "[SBPClassifier] epoch 1/1" in capsys.readouterr().err
    np.testing.assert_allclose(loud.alpha_, quiet.alpha_, rtol=1e-12)
    np.testing.assert_array_equal(loud.trace_[0]["sampled"], quiet.trace_[0]["sampled"])
    assert loud.trace_[0]["kernel_evaluations"] == quiet.trace_[0]["kernel_evaluations"]
    assert loud.trace_[0]["water_level_bar"] == quiet.trace_[0]["water_level_bar"]


def test_weights_with_a_bias_refused_with_a_value_error():
    """sample_weight / class_weight with fit_intercept=True: a ValueError naming sample_weight."""
    X, y = checkerboard(40, seed=0)
    with pytest.raises(ValueError, match="sample_weight"):
        SBPClassifier(epochs=1, fit_intercept=True).fit(X, y, sample_weight=np.ones(40))
    with pytest.raises(ValueError, match="sample_weight"):
        SBPClassifier(epochs=1, fit_intercept=True, class_weight="balanced").fit(X, y)
    SBPClassifier(epochs=1, class_weight=None).fit(X, y, sample_weight=None)
