"""FOGDClassifier, NOGDClassifier, FOGDRegressor, NOGDRegressor: streaming, backends, save/load, errors."""

import numpy as np
import pytest

from refsvm import FOGDClassifier, FOGDRegressor, NOGDClassifier, NOGDRegressor
from refsvm.approx_model import FourierModel, NystromModel
from refsvm.model import BudgetedModel


def data(kind, n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    if kind == "binary":
        return X, np.where(X[:, 0] * X[:, 1] > 0, "yes", "no")
    if kind == "multiclass":
        return X, np.digitize(X[:, 0] + X[:, 2], [-0.7, 0.0, 0.7]) * 10
    return X, np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)


CASES = [
    (FOGDClassifier, dict(n_components=40, eta=0.01), "binary"),
    (FOGDClassifier, dict(n_components=40, eta=0.01), "multiclass"),
    (NOGDClassifier, dict(budget=25, rank=10), "binary"),
    (NOGDClassifier, dict(budget=25, rank=5), "multiclass"),
    (FOGDRegressor, dict(n_components=40, eta=0.005, epsilon=0.01), "regression"),
    (NOGDRegressor, dict(budget=25, rank=10, eta=0.1, epsilon=0.01), "regression"),
    (FOGDClassifier, dict(n_components=40, eta=0.01, average=True), "binary"),       # KOL's averaged weights
    (FOGDClassifier, dict(n_components=40, eta=0.01, average=True), "multiclass"),
    (FOGDRegressor, dict(n_components=40, eta=0.005, epsilon=0.01, average=True), "regression"),
    (NOGDClassifier, dict(budget=25, rank=10, average=True), "binary"),
    (NOGDClassifier, dict(budget=25, rank=5, average=True), "multiclass"),
    (NOGDRegressor, dict(budget=25, rank=10, eta=0.1, epsilon=0.01, average=True), "regression"),
]
IDS = [f"{c.__name__}-{k}" + ("-average" if kw.get("average") else "") for c, kw, k in CASES]


def partial(est, X, y, classes):
    if isinstance(est, (FOGDRegressor, NOGDRegressor)):
        return est.partial_fit(X, y)
    return est.partial_fit(X, y, classes=classes)


def model_output(est, X):
    return est.predict(X) if isinstance(est, (FOGDRegressor, NOGDRegressor)) else est.decision_function(X)


@pytest.mark.parametrize("cls, kw, kind", CASES, ids=IDS)
def test_partial_fit_chunks_equal_fit_on_the_concatenation(cls, kw, kind):
    """shuffle=False: partial_fit over 9 uneven chunks == fit over all (NOGD's switch inside a chunk).

    A numeric gamma: "scale" is resolved from the data of the first call."""
    X, y = data(kind)
    whole = cls(shuffle=False, random_state=3, gamma=1.0, **kw).fit(X, y)
    est = cls(shuffle=False, random_state=3, gamma=1.0, **kw)
    bounds = [0, 5, 17, 40, 41, 90, 150, 151, 230, 300]
    for a, b in zip(bounds[:-1], bounds[1:]):
        partial(est, X[a:b], y[a:b], np.unique(y))
    assert est.t_ == whole.t_ == 300
    if cls in (NOGDClassifier, NOGDRegressor):
        assert whole.projection_ is not None                  # the switch happened
        switch = [k for k, tr in enumerate(est.trace_) if tr["switch_step"] >= 0]
        assert len(switch) == 1 and est.trace_[switch[0]]["switch_step"] > 0   # inside a chunk
    np.testing.assert_allclose(model_output(est, X), model_output(whole, X), rtol=1e-10, atol=1e-12)
    mistakes = sum(tr.get("mistakes", 0) for tr in est.trace_)
    assert mistakes == whole.trace_[0].get("mistakes", 0)


@pytest.mark.parametrize("cls, kw, kind", CASES, ids=IDS)
def test_backends_agree_and_learn(cls, kw, kind):
    X, y = data(kind)
    a = cls(backend="python", random_state=1, epochs=2, **kw).fit(X, y)
    b = cls(backend="fast", random_state=1, epochs=2, **kw).fit(X, y)
    np.testing.assert_allclose(model_output(b, X), model_output(a, X), rtol=1e-9, atol=1e-10)
    for ta, tb in zip(a.trace_, b.trace_):
        np.testing.assert_array_equal(ta["updated"], tb["updated"])
    if kind == "regression":
        assert b.score(X, y) > 0.5                            # R^2
        assert b.trace_[1]["online_mse"] < np.var(y)
    else:
        assert b.score(X, y) > 0.6
        assert 0 <= b.trace_[0]["online_error_rate"] < 1
        assert set(b.predict(X)) <= set(np.unique(y))


@pytest.mark.parametrize("cls, kw, kind", CASES, ids=IDS)
def test_save_load_roundtrip(cls, kw, kind, tmp_path):
    X, y = data(kind)
    est = cls(random_state=0, **kw).fit(X, y)
    est.save(tmp_path / "m.npz")
    back = cls.load(tmp_path / "m.npz", backend="python")
    assert back.get_params() == dict(est.get_params(), backend="python")     # every hyper-parameter
    assert back.gamma_ == est.gamma_
    np.testing.assert_allclose(model_output(back, X), model_output(est, X), rtol=1e-10, atol=1e-12)
    if kind != "regression":
        np.testing.assert_array_equal(back.predict(X), est.predict(X))
    assert back.t_ is None
    with pytest.raises(ValueError, match="load"):
        partial(back, X, y, np.unique(y))
    with np.load(tmp_path / "m.npz", allow_pickle=False) as f:       # plain arrays, no pickle
        assert all(f[k].dtype.kind != "O" for k in f.files)


@pytest.mark.parametrize("kind", ["binary", "multiclass", "regression"])
def test_average_is_the_mean_of_the_weights_after_each_update(kind):
    """average=True: coef_ (and the model) is the mean over every update of two passes of the weights
    after it; the updates, the mistakes and the last iterate are those of average=False."""
    from refsvm.fogd import fogd
    X, y = data(kind, n=200)
    cls = FOGDRegressor if kind == "regression" else FOGDClassifier
    kw = dict(n_components=20, eta=0.01, shuffle=False, epochs=2, random_state=5, gamma=0.7)
    if kind == "regression":
        kw["epsilon"] = 0.01
    avg = cls(average=True, **kw).fit(X, y)
    last = cls(**kw).fit(X, y)
    for ta, tl in zip(avg.trace_, last.trace_):
        np.testing.assert_array_equal(ta["updated"], tl["updated"])
    # written out: replay the two passes one example at a time with the same directions and sum W
    if kind == "regression":
        task, c, yi = "regression", 2, y
    else:
        classes = np.unique(y)
        task, c = ("binary", 2) if classes.size == 2 else ("multiclass", classes.size)
        yi = np.searchsorted(classes, y) if task == "multiclass" else np.where(y == classes[1], 1, -1)
    W, total, n_up = None, np.zeros_like(last.coef_), 0
    for _ in range(2):
        for i in range(len(X)):
            r = fogd(X, yi, np.array([i]), task=task, n_classes=c, U=avg.directions_, eta=0.01,
                     epsilon=kw.get("epsilon", 0.0), W=W)
            W = r.W
            if r.trace["n_updates"]:
                total += W
                n_up += 1
    assert avg.n_averaged_ == n_up == sum(tr["n_updates"] for tr in last.trace_) > 0
    assert last.n_averaged_ == 0
    np.testing.assert_allclose(W, last.coef_, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(avg.coef_, total / n_up, rtol=1e-10, atol=1e-12)
    assert np.max(np.abs(avg.coef_ - last.coef_)) > 1e-3              # the two outputs differ
    np.testing.assert_allclose(model_output(avg, X), avg.model_.decision_function(X)
                               if kind != "regression" else avg.predict(X))


def test_nogd_average_is_the_mean_of_the_linear_phase_weights():
    """NOGDClassifier(average=True): coef_ is W_sum / (linear-phase updates) of the function over the
    same two passes; the kernel phase and the switch are those of average=False."""
    from refsvm.nogd import nogd
    X, y = data("binary", n=200)
    kw = dict(budget=20, rank=6, eta=0.2, shuffle=False, epochs=2, random_state=1, gamma=0.7)
    avg = NOGDClassifier(average=True, **kw).fit(X, y)
    last = NOGDClassifier(**kw).fit(X, y)
    np.testing.assert_array_equal(avg.projection_, last.projection_)
    yi = np.where(y == np.unique(y)[1], 1, -1)
    fkw = dict(task="binary", n_classes=2, budget=20, rank=6, gamma=0.7, eta=0.2, average=True)
    r1 = nogd(X, yi, np.arange(200), **fkw)
    r2 = nogd(X, yi, np.arange(200), sv=r1.sv, alpha=r1.alpha, projection=r1.projection, W=r1.W,
              W_sum=r1.W_sum, t0=200, **fkw)
    n_linear = sum(int(r.trace["updated"].sum() - r.trace["added"].sum()) for r in (r1, r2))
    assert avg.n_averaged_ == n_linear > 0 and last.n_averaged_ == 0
    np.testing.assert_allclose(avg.coef_, r2.W_sum / n_linear, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(last.coef_, r2.W, rtol=1e-9, atol=1e-12)


def test_average_without_updates_is_the_last_iterate():
    """A run without an update (regression, no loss above epsilon) averages nothing: the model is
    the last iterate (here w = 0), never 0 / 0."""
    X, y = data("regression", n=40)
    est = FOGDRegressor(n_components=10, epsilon=1e6, average=True, random_state=0).fit(X, y)
    assert est.trace_[0]["n_updates"] == est.n_averaged_ == 0
    assert np.all(est.coef_ == 0) and np.all(est.predict(X) == 0)


def test_model_kinds_are_not_confused(tmp_path):
    X, y = data("binary")
    FOGDClassifier(n_components=10, random_state=0).fit(X, y).save(tmp_path / "f.npz")
    with pytest.raises(ValueError, match="FOGDClassifier"):
        FOGDRegressor.load(tmp_path / "f.npz")
    with pytest.raises(ValueError, match="FourierModel"):
        NystromModel.load(tmp_path / "f.npz")
    BudgetedModel(np.ones((2, 3)), np.ones((2, 1))).save(tmp_path / "k.npz")
    with pytest.raises(ValueError, match="kernel expansion"):
        FourierModel.load(tmp_path / "k.npz")


def test_nogd_rank_default_is_a_fifth_of_the_budget():
    X, y = data("binary", n=400)
    est = NOGDClassifier(budget=50, random_state=0).fit(X, y)
    assert est.projection_.shape == (10, 50)


@pytest.mark.parametrize("cls, kwargs, name", [
    (FOGDClassifier, dict(n_components=0), "n_components"),
    (FOGDClassifier, dict(gamma=-1.0), "gamma"),
    (FOGDClassifier, dict(eta=0), "eta"),
    (FOGDClassifier, dict(normalize="yes"), "normalize"),
    (FOGDClassifier, dict(average="yes"), "average"),
    (FOGDRegressor, dict(average=1), "average"),
    (NOGDClassifier, dict(average="no"), "average"),
    (FOGDClassifier, dict(shuffle=1), "shuffle"),
    (FOGDClassifier, dict(epochs=0), "epochs"),
    (FOGDClassifier, dict(backend="gpu"), "backend"),
    (NOGDClassifier, dict(budget=0), "budget"),
    (NOGDClassifier, dict(budget=10, rank=11), "rank"),
    (NOGDClassifier, dict(eig_tol=-1), "eig_tol"),
    (FOGDRegressor, dict(epsilon=-0.5), "epsilon"),
    (NOGDRegressor, dict(random_state=-3), "random_state"),
])
def test_hyper_parameter_errors_name_the_parameter(cls, kwargs, name):
    X, y = data("regression" if "Regressor" in cls.__name__ else "binary", n=30)
    with pytest.raises(ValueError, match=name):
        cls(**kwargs).fit(X, y)


def test_regressor_input_errors():
    X, y = data("regression", n=30)
    with pytest.raises(ValueError, match="y"):
        FOGDRegressor().fit(X, y[:-1])
    with pytest.raises(ValueError, match="y"):
        FOGDRegressor().fit(X, np.where(np.arange(30) > 3, np.nan, 1.0))
    with pytest.raises(ValueError, match="X"):
        NOGDRegressor().fit(X[:, 0], y)


def test_divergence_is_an_error_naming_eta():
    """Squared loss, printed map: ||z||^2 = D, so eta > 1/D makes every update overshoot."""
    X, y = data("regression", n=300)
    with pytest.raises(ValueError, match="eta"):
        FOGDRegressor(n_components=100, eta=5.0, epsilon=0.0, random_state=0).fit(X, 100 * y)


@pytest.mark.parametrize("cls, kw", [(FOGDClassifier, dict(n_components=30)),
                                     (NOGDClassifier, dict(budget=25, rank=5))])
def test_verbose_prints_progress_and_changes_nothing(cls, kw, capsys):
    X, y = data("multiclass", n=3000)
    quiet = cls(random_state=0, **kw).fit(X, y)
    loud = cls(random_state=0, verbose=2, **kw).fit(X, y)
    assert "done" in capsys.readouterr().err
    np.testing.assert_array_equal(loud.decision_function(X), quiet.decision_function(X))
    a, b = quiet.trace_[0], loud.trace_[0]
    for key in ("mistakes", "n_updates", "kernel_evaluations", "switch_step", "rank_used"):
        if key in a:
            assert a[key] == b[key], key
    np.testing.assert_array_equal(a["updated"], b["updated"])


@pytest.mark.parametrize("cls", [FourierModel, NystromModel])
def test_damaged_model_file_is_one_error_naming_the_file(cls, tmp_path):
    X, y = data("binary")
    est = (FOGDClassifier(n_components=10) if cls is FourierModel else NOGDClassifier(budget=20)).fit(X, y)
    est.save(tmp_path / "m.npz")
    raw = (tmp_path / "m.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(ValueError, match="cut.npz"):
        cls.load(tmp_path / "cut.npz")
