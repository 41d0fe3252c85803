"""Bad arguments to the function layer (``bsgd`` on both backends) raise a
ValueError naming the parameter, before any work; never a hang (``merge_eps``
of 0 made the golden-section search loop forever), a crash in the compiled
loop, or a silently meaningless model (``gamma <= 0``, ``budget < 2``)."""

import numpy as np
import pytest

import refsvm._fast.bsgd as fast_bsgd
import refsvm.bsgd as ref_bsgd

rng = np.random.default_rng(0)
X = rng.normal(size=(30, 2))
Y = np.where(X[:, 0] > 0, 1, -1).astype(np.int64)
ORDER = np.arange(30)
BASE = dict(n_classes=2, budget=5, lam=0.01, learning_rate="pegasos", eta=0.1, radius=1.0,
            maintenance="merge", kernel="rbf", gamma=1.0, degree=3, coef0=0.0, merge_eps=0.01,
            projection_ridge=1e-10, fit_bias=False)
X_NAN = X.copy()
X_NAN[2, 0] = np.nan

# (id, overrides of BASE, (X, y, order) or None, text the message must contain)
CASES = [
    ("budget-1", dict(budget=1), None, "budget"),
    ("budget-0", dict(budget=0), None, "budget"),
    ("gamma-0", dict(gamma=0.0), None, "gamma"),
    ("gamma-negative", dict(gamma=-1.0), None, "gamma"),
    ("gamma-nan", dict(gamma=float("nan")), None, "gamma"),
    ("lam-0-pegasos", dict(lam=0.0), None, "lam"),
    ("eta-negative-norma", dict(learning_rate="norma", eta=-1.0), None, "eta"),
    ("radius-0-perceptron", dict(learning_rate="perceptron", radius=0.0), None, "radius"),
    ("merge-eps-0", dict(merge_eps=0.0), None, "merge_eps"),
    ("ridge-negative", dict(maintenance="projection", projection_ridge=-1.0), None, "projection_ridge"),
    ("learning-rate", dict(learning_rate="adam"), None, "learning_rate"),
    ("maintenance", dict(maintenance="drop"), None, "maintenance"),
    ("kernel", dict(kernel="sigmoid"), None, "kernel"),
    ("merge-needs-rbf", dict(kernel="linear"), None, "maintenance"),
    ("merge-solver", dict(merge_solver="foo"), None, "merge_solver"),
    ("n-classes-1", dict(n_classes=1), None, "n_classes"),
    ("poly-degree", dict(kernel="poly", maintenance="removal", degree=0), None, "degree"),
    ("X-nan", {}, (X_NAN, Y, ORDER), "X"),
    ("X-1d", {}, (X[:, 0], Y, ORDER), "X"),
    ("y-length", {}, (X, Y[:10], ORDER), "y"),
    ("y-binary-labels", {}, (X, (Y > 0).astype(np.int64), ORDER), "y"),
    ("y-multiclass-labels", dict(n_classes=3), (X, np.full(30, 7), ORDER), "y"),
    ("order-range", {}, (X, Y, np.array([0, 30])), "order"),
    ("order-negative", {}, (X, Y, np.array([0, -1])), "order"),
    ("sv-dim", dict(sv=np.zeros((2, 5)), alpha=np.zeros((2, 1))), None, "sv"),
    ("sv-over-budget", dict(sv=np.zeros((9, 2)), alpha=np.zeros((9, 1))), None, "budget"),
    ("alpha-shape", dict(sv=np.zeros((2, 2)), alpha=np.zeros((3, 1))), None, "alpha"),
    ("bias-shape", dict(bias=np.zeros(3)), None, "bias"),
    ("t0-negative", dict(t0=-1), None, "t0"),
]


@pytest.mark.parametrize("module", [ref_bsgd, fast_bsgd], ids=["python", "fast"])
@pytest.mark.parametrize("overrides, data, fragment", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_argument_names_the_parameter(module, overrides, data, fragment):
    Xa, ya, order = data if data is not None else (X, Y, ORDER)
    with pytest.raises(ValueError, match=fragment):
        module.bsgd(Xa, ya, order, **{**BASE, **overrides})


@pytest.mark.parametrize("module", [ref_bsgd, fast_bsgd], ids=["python", "fast"])
def test_valid_arguments_still_run(module):
    result = module.bsgd(X, Y, ORDER, **BASE)
    assert result.sv.shape[0] <= BASE["budget"]
