"""Tests of the scikit-learn layer :class:`refsvm.BudgetedSVC`.

Tests that use ``backend="fast"`` need the compiled extension and *fail* when it
is missing (no skipping): refsvm is always installed with it.
"""

import re

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_blobs
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from refsvm import BudgetedModel, BudgetedSVC
from refsvm.backend import get_module
from refsvm.datasets import checkerboard

BACKENDS = ["python", "fast"]


# ------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def board():
    """A small binary problem (4x4 checkerboard, labels -1/+1)."""
    X, y = checkerboard(300, random_state=0)
    return X, y


@pytest.fixture(scope="module")
def blobs():
    """A small 4-class problem with string labels."""
    X, y = make_blobs(n_samples=240, centers=4, cluster_std=1.0, random_state=3)
    X = StandardScaler().fit_transform(X)
    names = np.array(["ant", "bee", "cat", "dog"])
    return X, names[y]


def small(**kw):
    """A quick estimator for small data sets."""
    params = dict(budget=15, gamma=10.0, random_state=0, backend="python")
    params.update(kw)
    return BudgetedSVC(**params)


def model_arrays(est):
    return est.support_vectors_, est.alpha_, est.bias_


def names_parameter(message, name):
    return re.search(rf"\b{re.escape(name)}\b", message) is not None


# -------------------------------------------------------------- the fast path


def test_fast_extension_is_built():
    # A missing extension is a failure, never a skip.
    module = get_module("bsgd", "fast")
    assert module.__name__ == "refsvm._fast.bsgd"


# ------------------------------------------------------------- reproducibility


@pytest.mark.parametrize("backend", BACKENDS)
def test_same_random_state_gives_identical_model(board, backend):
    X, y = board
    a = small(backend=backend, epochs=2).fit(X, y)
    b = small(backend=backend, epochs=2).fit(X, y)
    for u, v in zip(model_arrays(a), model_arrays(b)):
        assert_array_equal(u, v)
    assert a.t_ == b.t_ == 2 * len(y)


def test_other_random_state_gives_other_model(board):
    X, y = board
    a = small(random_state=0).fit(X, y)
    b = small(random_state=1).fit(X, y)
    assert not np.array_equal(a.support_vectors_, b.support_vectors_)


def test_visiting_order_is_default_rng_permutation(board):
    """The documented contract: epoch k visits rng.permutation(n), rng = default_rng(seed)."""
    X, y = board
    est = small(random_state=7, epochs=2).fit(X, y)
    bsgd = get_module("bsgd", "python").bsgd
    params = est._algorithm_params()
    rng = np.random.default_rng(7)
    res = bsgd(X, y, rng.permutation(len(y)), n_classes=2, **params)
    res = bsgd(X, y, rng.permutation(len(y)), n_classes=2, sv=res.sv, alpha=res.alpha,
               bias=res.bias, t0=res.t, **params)
    assert_array_equal(est.support_vectors_, res.sv)
    assert_array_equal(est.alpha_, res.alpha)
    assert est.t_ == res.t == 2 * len(y)


@pytest.mark.parametrize(
    "params",
    [
        dict(maintenance="merge"),
        dict(maintenance="removal"),
        dict(maintenance="projection"),
        dict(maintenance="merge", learning_rate="norma", eta=0.5),
        dict(maintenance="merge", learning_rate="perceptron", radius=5.0),
        dict(maintenance="merge", fit_bias=True),
        dict(maintenance="removal", kernel="poly", gamma=1.0, coef0=1.0, degree=2),
    ],
    ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()),
)
@pytest.mark.parametrize("problem", ["binary", "multiclass"])
def test_python_and_fast_give_the_same_model(board, blobs, params, problem):
    X, y = board if problem == "binary" else blobs
    if problem == "multiclass" and params.get("kernel") != "poly":
        params = dict(params, gamma=1.0)
    # A second epoch revisits examples that are still SVs: exact duplicates in
    # the SV set make projection's system ill-conditioned (cond ~ 1/ridge), and
    # the two paths then agree only to ~1e-6 (see tests/bsgd/test_agreement.py and
    # test_projection_two_epochs_same_predictions below).
    epochs = 1 if params["maintenance"] == "projection" else 2
    py = small(backend="python", epochs=epochs, **params).fit(X, y)
    fast = small(backend="fast", epochs=epochs, **params).fit(X, y)
    assert py.t_ == fast.t_
    for u, v in zip(model_arrays(py), model_arrays(fast)):
        assert u.shape == v.shape
        assert_allclose(u, v, rtol=1e-9, atol=1e-12)
    for tp, tf in zip(py.trace_, fast.trace_):
        assert tp["mistakes"] == tf["mistakes"]
        for key in ("added", "maint_step", "maint_index", "maint_partner"):
            assert_array_equal(tp[key], tf[key])
    assert_array_equal(py.predict(X), fast.predict(X))


def test_projection_two_epochs_same_predictions(board):
    X, y = board
    py = small(backend="python", epochs=2, maintenance="projection").fit(X, y)
    fast = small(backend="fast", epochs=2, maintenance="projection").fit(X, y)
    for tp, tf in zip(py.trace_, fast.trace_):
        for key in ("added", "maint_step", "maint_index", "maint_partner"):
            assert_array_equal(tp[key], tf[key])
    assert_allclose(py.support_vectors_, fast.support_vectors_, rtol=1e-9)
    scale = np.max(np.abs(py.alpha_))
    assert_allclose(py.alpha_, fast.alpha_, rtol=1e-6, atol=1e-9 * scale)
    dec = py.decision_function(X)
    assert_allclose(fast.decision_function(X), dec, rtol=1e-6, atol=1e-6 * np.max(np.abs(dec)))
    assert_array_equal(py.predict(X), fast.predict(X))


# ---------------------------------------------------------------- basic model


def test_binary_shapes_and_label_mapping(board):
    X, y = board
    labels = np.where(y > 0, "pos", "neg")
    est = small().fit(X, labels)
    assert_array_equal(est.classes_, ["neg", "pos"])
    n_sv = est.support_vectors_.shape[0]
    assert 0 < n_sv <= est.budget
    assert est.alpha_.shape == (n_sv, 1)
    assert est.bias_.shape == (1,)
    assert est.n_features_in_ == 2
    dec = est.decision_function(X)
    assert dec.shape == (len(y),)
    assert_array_equal(est.predict(X), np.where(dec > 0, "pos", "neg"))
    # -1/+1 labels are used as they are: classes_[1] = +1 gets positive values.
    est_pm = small().fit(X, y)
    assert_allclose(est_pm.decision_function(X), dec)


def test_binary_accuracy(board):
    X, y = checkerboard(2000, random_state=1)
    est = BudgetedSVC(budget=60, gamma=50.0, random_state=0, backend="fast").fit(X, y)
    Xt, yt = checkerboard(2000, random_state=2)
    assert est.score(Xt, yt) > 0.85


def test_multiclass_string_labels(blobs):
    X, y = blobs
    est = small(gamma=1.0, epochs=3).fit(X, y)
    assert_array_equal(est.classes_, ["ant", "bee", "cat", "dog"])
    n_sv = est.support_vectors_.shape[0]
    assert est.alpha_.shape == (n_sv, 4)
    assert est.bias_.shape == (4,)
    dec = est.decision_function(X)
    assert dec.shape == (len(y), 4)
    pred = est.predict(X)
    assert pred.dtype == y.dtype
    assert set(pred) <= set(y)
    assert_array_equal(pred, est.classes_[np.argmax(dec, axis=1)])
    assert est.score(X, y) > 0.9


def test_three_integer_classes():
    X, y = make_blobs(n_samples=150, centers=3, random_state=0)
    est = small(gamma=0.5, epochs=3).fit(X, y + 10)
    assert_array_equal(est.classes_, [10, 11, 12])
    assert est.score(X, y + 10) > 0.9


def test_budget_is_respected(board):
    X, y = board
    for maintenance in ("removal", "projection", "merge"):
        est = small(budget=5, maintenance=maintenance).fit(X, y)
        assert est.support_vectors_.shape[0] <= 5
        assert est.trace_[0]["n_maintenance"] > 0


def test_trace(board):
    X, y = board
    est = small(epochs=3).fit(X, y)
    assert len(est.trace_) == 3
    for tr in est.trace_:
        assert tr["n_steps"] == len(y)
        assert tr["n_maintenance"] == len(tr["maint_step"])
        assert tr["online_error_rate"] == tr["mistakes"] / len(y)
        assert tr["mean_gradient_error"] == tr["gradient_error_sum"] / len(y)
        assert tr["maintenance_seconds"] >= 0.0


def test_refit_starts_afresh(board):
    X, y = board
    est = small(epochs=2).fit(X, y)
    first = model_arrays(est)
    est.fit(X, y)
    assert est.t_ == 2 * len(y)
    assert len(est.trace_) == 2
    for u, v in zip(first, model_arrays(est)):
        assert_array_equal(u, v)


def test_sparse_input_gives_same_model(board):
    """Sparse input keeps sparse SVs (tests/bsgd/test_sparse.py); the model is the dense one to rounding."""
    X, y = board
    dense = small().fit(X, y)
    sparse = small().fit(sp.csr_matrix(X), y)
    assert sp.issparse(sparse.support_vectors_)
    np.testing.assert_allclose(sparse.support_vectors_.toarray(), dense.support_vectors_, rtol=1e-12)
    np.testing.assert_allclose(sparse.alpha_, dense.alpha_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(sparse.decision_function(sp.csc_matrix(X)), dense.decision_function(X),
                               rtol=1e-10, atol=1e-10)


def test_model_attribute_predicts_like_estimator(board):
    X, y = board
    est = small().fit(X, y)
    assert isinstance(est.model_, BudgetedModel)
    assert_array_equal(est.model_.decision_function(X), est.decision_function(X))
    assert_array_equal(est.model_.predict(X), est.predict(X))


# --------------------------------------------------------- learning rates


def perceptron_norm(est):
    K = np.exp(-est.gamma * ((est.support_vectors_[:, None, :]
                              - est.support_vectors_[None, :, :]) ** 2).sum(-1))
    return np.sqrt(np.sum(est.alpha_ * (K @ est.alpha_)))


def test_perceptron_default_radius_is_inverse_sqrt_lam(board):
    X, y = board
    est = small(learning_rate="perceptron", eta=1.0, lam=0.04).fit(X, y)
    assert perceptron_norm(est) <= 5.0 * (1 + 1e-9)
    same = small(learning_rate="perceptron", eta=1.0, lam=1.0, radius=5.0).fit(X, y)
    for u, v in zip(model_arrays(est), model_arrays(same)):
        assert_array_equal(u, v)


def test_perceptron_ignores_lam_when_radius_given(board):
    X, y = board
    a = small(learning_rate="perceptron", radius=1.0, lam=0.0).fit(X, y)
    b = small(learning_rate="perceptron", radius=1.0, lam=0.5).fit(X, y)
    for u, v in zip(model_arrays(a), model_arrays(b)):
        assert_array_equal(u, v)
    assert perceptron_norm(a) <= 1.0 * (1 + 1e-9)
    c = small(learning_rate="perceptron", radius=np.inf, lam=0.0).fit(X, y)
    assert perceptron_norm(c) > 1.0


@pytest.mark.parametrize("learning_rate", ["pegasos", "norma", "perceptron"])
def test_every_learning_rate_learns(learning_rate):
    X, y = make_blobs(n_samples=200, centers=2, cluster_std=1.5, random_state=1)
    est = small(learning_rate=learning_rate, eta=0.5, gamma=0.5, epochs=2).fit(X, y)
    assert est.score(X, y) > 0.9


# ------------------------------------------------------------- partial_fit


@pytest.mark.parametrize("backend", BACKENDS)
def test_partial_fit_matches_fit_epochs(board, backend):
    X, y = board
    fitted = small(backend=backend, epochs=3).fit(X, y)
    est = small(backend=backend)
    est.partial_fit(X, y, classes=[-1, 1])
    assert est.t_ == len(y)
    est.partial_fit(X, y)
    est.partial_fit(X, y, classes=np.array([1, -1]))
    assert est.t_ == fitted.t_ == 3 * len(y)
    assert len(est.trace_) == 3
    for u, v in zip(model_arrays(fitted), model_arrays(est)):
        assert_array_equal(u, v)


def test_partial_fit_continues_after_fit(board):
    X, y = board
    est = small(epochs=2).fit(X, y)
    est.partial_fit(X[:50], y[:50])
    assert est.t_ == 2 * len(y) + 50
    assert len(est.trace_) == 3
    reference = small(epochs=3).fit(X, y)  # same rng stream, but a full third pass
    assert reference.t_ != est.t_


def test_partial_fit_batches_of_one_class(blobs):
    X, y = blobs
    est = small(gamma=1.0)
    for label in np.unique(y):
        est.partial_fit(X[y == label], y[y == label], classes=np.unique(y))
    assert est.t_ == len(y)
    assert est.alpha_.shape[1] == 4


def test_partial_fit_errors(board):
    X, y = board
    with pytest.raises(ValueError, match=r"\bclasses\b"):
        small().partial_fit(X, y)
    with pytest.raises(ValueError, match=r"\bclasses\b"):
        small().partial_fit(X, y, classes=[1])
    with pytest.raises(ValueError, match=r"\by\b"):
        small().partial_fit(X, y, classes=[1, 2])
    est = small().partial_fit(X, y, classes=[-1, 1])
    with pytest.raises(ValueError, match=r"\bclasses\b"):
        est.partial_fit(X, y, classes=[-1, 0, 1])
    with pytest.raises(ValueError, match=r"\bX\b"):
        est.partial_fit(X[:, :1], y)


# --------------------------------------------------------------- save / load


@pytest.mark.parametrize("data", ["board", "blobs"])
def test_save_load_round_trip(tmp_path, request, data):
    X, y = request.getfixturevalue(data)
    est = small(gamma=2.0, epochs=2).fit(X, y)
    path = tmp_path / "model.npz"
    est.save(path)
    loaded = BudgetedSVC.load(path, backend=est.backend)
    assert_array_equal(loaded.predict(X), est.predict(X))
    assert_array_equal(loaded.decision_function(X), est.decision_function(X))
    # the other backend predicts the same model to rounding
    other = BudgetedSVC.load(path, backend="fast" if est.backend == "python" else "python")
    np.testing.assert_allclose(other.decision_function(X), est.decision_function(X), rtol=1e-12, atol=1e-12)
    assert_array_equal(loaded.classes_, est.classes_)
    assert loaded.n_features_in_ == est.n_features_in_
    assert loaded.gamma == est.gamma and loaded.kernel == est.kernel
    assert loaded.t_ is None
    with pytest.raises(ValueError, match="partial_fit"):
        loaded.partial_fit(X, y)
    with pytest.raises(ValueError, match=r"\bX\b"):
        loaded.predict(np.zeros((2, 5)))
    # BudgetedModel reads the same file.
    assert_array_equal(BudgetedModel.load(path).predict(X), est.predict(X))


def test_save_unfitted_raises(tmp_path):
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        small().save(tmp_path / "m.npz")


# ----------------------------------------------------------------- bad input


X_OK = np.random.default_rng(0).uniform(size=(20, 2))
Y_OK = np.tile([0, 1], 10)


def _nan_X():
    X = X_OK.copy()
    X[3, 1] = np.nan
    return X


def _inf_X():
    X = X_OK.copy()
    X[0, 0] = -np.inf
    return X


BAD_DATA = [
    ("X-nan", _nan_X(), Y_OK, "X"),
    ("X-inf", _inf_X(), Y_OK, "X"),
    ("y-nan", X_OK, np.where(Y_OK == 0, np.nan, 1.0), "y"),
    ("y-inf", X_OK, np.where(Y_OK == 0, np.inf, 1.0), "y"),
    ("X-1d", X_OK[:, 0], Y_OK, "X"),
    ("X-3d", X_OK.reshape(20, 2, 1), Y_OK, "X"),
    ("y-2d", X_OK, np.c_[Y_OK, Y_OK], "y"),
    ("length-X", X_OK[:-1], Y_OK, "X"),
    ("length-y", X_OK, Y_OK[:-1], "y"),
    ("one-class", X_OK, np.zeros(20), "y"),
    ("continuous-y", X_OK, np.linspace(0, 1, 20), "y"),
    ("empty", np.zeros((0, 2)), np.zeros(0), "X"),
    ("no-features", np.zeros((20, 0)), Y_OK, "X"),
    ("y-none", X_OK, None, "y"),
    ("X-strings", np.array([["a", "b"]] * 20), Y_OK, "X"),
    ("X-complex", X_OK + 1j, Y_OK, "X"),
]


@pytest.mark.parametrize("X, y, name", [b[1:] for b in BAD_DATA], ids=[b[0] for b in BAD_DATA])
def test_bad_data_raises_naming_parameter(X, y, name):
    with pytest.raises(ValueError) as info:
        small().fit(X, y)
    assert names_parameter(str(info.value), name), str(info.value)


BAD_PARAMS = [
    (dict(budget=1), "budget"),
    (dict(budget=0), "budget"),
    (dict(budget=2.5), "budget"),
    (dict(gamma=0), "gamma"),
    (dict(gamma=-1), "gamma"),
    (dict(gamma=np.nan), "gamma"),
    (dict(lam=0), "lam"),
    (dict(lam=-1e-3), "lam"),
    (dict(lam=0, learning_rate="norma"), "lam"),
    (dict(lam=0, learning_rate="perceptron"), "lam"),  # radius=None needs lam > 0
    (dict(learning_rate="adam"), "learning_rate"),
    (dict(learning_rate=None), "learning_rate"),
    (dict(maintenance="drop"), "maintenance"),
    (dict(kernel="sigmoid"), "kernel"),
    (dict(kernel="linear"), "maintenance"),  # merging needs the Gaussian kernel
    (dict(backend="cuda"), "backend"),
    (dict(eta=0, learning_rate="norma"), "eta"),
    (dict(radius=-1.0, learning_rate="perceptron"), "radius"),
    (dict(radius=0.0, learning_rate="perceptron"), "radius"),
    (dict(degree=0, kernel="poly", maintenance="removal"), "degree"),
    (dict(coef0=np.inf), "coef0"),
    (dict(merge_eps=0), "merge_eps"),
    (dict(projection_ridge=-1.0), "projection_ridge"),
    (dict(fit_bias="yes"), "fit_bias"),
    (dict(epochs=0), "epochs"),
    (dict(random_state="seed"), "random_state"),
    (dict(random_state=-3), "random_state"),
]


@pytest.mark.parametrize("params, name", BAD_PARAMS, ids=[f"{k}" for k, _ in enumerate(BAD_PARAMS)])
def test_bad_parameter_raises_in_fit_naming_parameter(params, name):
    est = small(**params)  # __init__ only stores (scikit-learn convention)
    with pytest.raises(ValueError) as info:
        est.fit(X_OK, Y_OK)
    assert names_parameter(str(info.value), name), str(info.value)
    with pytest.raises(ValueError) as info:
        clone(est).partial_fit(X_OK, Y_OK, classes=[0, 1])
    assert names_parameter(str(info.value), name), str(info.value)


@pytest.mark.parametrize("method", ["predict", "decision_function", "score"])
def test_predict_checks_X(method):
    est = small().fit(X_OK, Y_OK)
    args = (Y_OK[:4],) if method == "score" else ()
    for bad in (np.zeros((4, 3)), _nan_X()[:4], X_OK[:4, 0]):
        with pytest.raises(ValueError) as info:
            getattr(est, method)(bad, *args)
        assert names_parameter(str(info.value), "X"), str(info.value)


def test_wrong_feature_count_message():
    est = small().fit(X_OK, Y_OK)
    with pytest.raises(ValueError, match="X has 3 features, but BudgetedSVC is expecting 2"):
        est.predict(np.zeros((4, 3)))


# ------------------------------------------------------------- scikit-learn


def test_clone_get_set_params():
    est = BudgetedSVC(budget=7, gamma=3.0, maintenance="removal")
    params = est.get_params()
    assert params["budget"] == 7 and params["maintenance"] == "removal"
    assert set(params) == {
        "budget", "lam", "gamma", "kernel", "degree", "coef0", "learning_rate", "eta",
        "radius", "maintenance", "merge_eps", "merge_solver", "projection_ridge", "fit_bias", "epochs",
        "backend", "random_state", "verbose", "class_weight", "refit_bias", "refit_rows",
    }
    other = clone(est)
    assert other.get_params() == params
    other.set_params(budget=9, kernel="poly")
    assert other.budget == 9 and est.budget == 7


def test_pipeline_and_grid_search():
    X, y = checkerboard(400, random_state=5)
    pipe = Pipeline([("scale", StandardScaler()),
                     ("svm", BudgetedSVC(budget=20, epochs=2, random_state=0))])
    grid = GridSearchCV(pipe, {"svm__gamma": [0.1, 3.0], "svm__budget": [10, 30]}, cv=3)
    grid.fit(X, y)
    assert grid.best_params_["svm__gamma"] == 3.0
    assert grid.best_score_ > 0.7
    assert grid.predict(X).shape == (400,)
    assert grid.best_estimator_.named_steps["svm"].support_vectors_.shape[0] <= 30


@pytest.mark.parametrize("merge_solver", ["gss", "gss-precise", "lookup-h", "lookup-wd"])
def test_merge_solver_smoke_both_backends_equal(merge_solver):
    """Issue 3 phase 2: every merge_solver trains on both backends, same model, trace with merge diagnostics."""
    from refsvm.datasets import checkerboard

    X, y = checkerboard(400, random_state=0)
    models = [BudgetedSVC(budget=15, gamma=30.0, merge_solver=merge_solver, backend=b, random_state=0).fit(X, y)
              for b in ("fast", "python")]
    np.testing.assert_allclose(models[0].alpha_, models[1].alpha_, rtol=1e-9, atol=1e-14)
    np.testing.assert_array_equal(models[0].predict(X), models[1].predict(X))
    for clf in models:
        tr = clf.trace_[0]
        assert tr["n_merges"] > 0 and 0.0 < tr["merging_frequency"] <= 1.0
        assert tr["merge_seconds"] >= 0.0
    assert models[0].get_params()["merge_solver"] == merge_solver
