"""refit_bias: the offset refit (refsvm.refit and its compiled twin) and its hook in the estimators.

Oracles: the hinge loss written out here and minimised by brute force over a
fine grid plus every kink; the algorithm functions called directly with the
visiting order drawn as the estimators document it (option off: bitwise the
same model).
"""

import numpy as np
import pytest
from _helpers import blobs, checkerboard

from refsvm import BSCAClassifier, BudgetedSVC, OnlineKernelClassifier, SBPClassifier
from refsvm import refit as refit_ref
from refsvm.backend import get_module

BACKENDS = ["python", "fast"]


def loss_binary(f, y, w, b):
    """Weighted mean hinge loss, written out from the definition."""
    return float(np.sum(w * np.maximum(0.0, 1.0 - y * (f + b))) / np.sum(w))


def loss_multiclass(F, y, w, b):
    total = 0.0
    for i in range(F.shape[0]):
        scores = F[i] + b
        other = max(scores[r] for r in range(F.shape[1]) if r != y[i])
        total += w[i] * max(0.0, 1.0 + other - scores[y[i]])
    return total / np.sum(w)


def brute_force_min(f, y, w):
    """Smallest loss over a fine grid and every kink y_i - f_i (the minimum is at a kink)."""
    kinks = (y - f)[w > 0]
    grid = np.concatenate([kinks, np.linspace(kinks.min() - 1.0, kinks.max() + 1.0, 4001)])
    losses = (w[:, None] * np.maximum(0.0, 1.0 - y[:, None] * (f[:, None] + grid[None, :]))).sum(0)
    return float(losses.min() / np.sum(w))


def random_problem(rng, m, weighted, ties):
    f = rng.normal(size=m) * 2.0
    if ties:
        f = np.round(f, 1)                          # many equal kinks
    y = rng.choice([-1, 1], size=m)
    w = rng.random(m) * (rng.random(m) > 0.2) if weighted else np.ones(m)
    if w.sum() == 0:
        w[0] = 1.0
    return f, y, w


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ties", [False, True])
def test_hinge_offset_is_the_brute_force_minimum(backend, weighted, ties):
    module = get_module("refit", backend)
    rng = np.random.default_rng(1 + 2 * weighted + ties)
    for m in (1, 2, 3, 7, 40, 41):
        f, y, w = random_problem(rng, m, weighted, ties)
        offset, loss = module.hinge_offset(f, y, w if weighted else None)
        best = brute_force_min(f, y, w)
        assert loss_binary(f, y, w, offset) <= best + 1e-12
        assert loss == pytest.approx(loss_binary(f, y, w, offset), abs=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_hinge_offset_flat_minimum_takes_the_middle(backend):
    module = get_module("refit", backend)
    # one positive with kink 1 - 0 = 1 and one negative with kink -1 - 0 = -1 ... both at f = 0:
    # L(b) = max(0, 1 - b) + max(0, 1 + b) = 2 on [-1, 1]; the middle is 0
    offset, loss = module.hinge_offset(np.array([0.0, 0.0]), np.array([1, -1]))
    assert offset == 0.0 and loss == 1.0
    # shifted decision values move the interval: f = 3 for both -> kinks -2 and -4 -> middle -3
    offset, _ = module.hinge_offset(np.array([3.0, 3.0]), np.array([1, -1]))
    assert offset == -3.0
    # one class only: the loss is 0 from the extreme kink on
    offset, loss = module.hinge_offset(np.array([0.5, -2.0]), np.array([1, 1]))
    assert loss == 0.0 and offset == 3.0
    offset, loss = module.hinge_offset(np.array([0.5, -2.0]), np.array([-1, -1]))
    assert loss == 0.0 and offset == -1.5
    assert module.hinge_offset(np.array([1.0]), np.array([1]), np.array([0.0])) == (0.0, 0.0)


def test_hinge_offset_paths_agree_bitwise():
    fast = pytest.importorskip("refsvm._fast.refit")
    rng = np.random.default_rng(5)
    for trial in range(100):
        f, y, w = random_problem(rng, int(rng.integers(1, 60)), trial % 2 == 1, trial % 3 == 0)
        a = refit_ref.hinge_offset(f, y, w)
        b = fast.hinge_offset(f, y, w)
        assert a[0] == b[0]
        assert a[1] == pytest.approx(b[1], rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("backend", BACKENDS)
def test_hinge_offset_refuses_bad_input(backend):
    module = get_module("refit", backend)
    with pytest.raises(ValueError, match="y"):
        module.hinge_offset(np.zeros(3), np.array([0, 1, 1]))
    with pytest.raises(ValueError, match="sample_weight"):
        module.hinge_offset(np.zeros(2), np.array([1, -1]), np.array([1.0, -1.0]))
    with pytest.raises(ValueError, match="f"):
        module.hinge_offset(np.array([np.nan, 0.0]), np.array([1, -1]))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_crammer_singer_offsets_are_coordinatewise_exact(backend, weighted):
    module = get_module("refit", backend)
    rng = np.random.default_rng(7)
    m, c = 60, 4
    F = rng.normal(size=(m, c)) * 1.5
    y = rng.integers(0, c, size=m)
    w = rng.random(m) if weighted else np.ones(m)
    start = rng.normal(size=c)
    b, loss, sweeps = module.crammer_singer_offsets(F, y, start, w if weighted else None)
    assert loss == pytest.approx(loss_multiclass(F, y, w, b), abs=1e-12)
    assert loss <= loss_multiclass(F, y, w, start) + 1e-12
    assert 1 <= sweeps <= 20
    # no coordinate can improve: brute force over a grid around each offset
    for k in range(c):
        for value in b[k] + np.linspace(-3.0, 3.0, 601):
            trial = b.copy()
            trial[k] = value
            assert loss_multiclass(F, y, w, trial) >= loss - 1e-10


def test_crammer_singer_paths_agree():
    fast = pytest.importorskip("refsvm._fast.refit")
    rng = np.random.default_rng(8)
    F = rng.normal(size=(80, 3))
    y = rng.integers(0, 3, size=80)
    a = refit_ref.crammer_singer_offsets(F, y, np.zeros(3))
    b = fast.crammer_singer_offsets(F, y, np.zeros(3))
    np.testing.assert_array_equal(a[0], b[0])
    assert a[2] == b[2]


# ------------------------------------------------------------------ estimators

BSGD_KW = dict(budget=15, lam=1e-3, gamma=2.0, maintenance="merge")


@pytest.mark.parametrize("backend", BACKENDS)
def test_option_off_is_the_algorithm_model_bitwise(backend):
    X, y = checkerboard(300, seed=2)
    seed = 4
    est = BudgetedSVC(**BSGD_KW, epochs=2, backend=backend, random_state=seed).fit(X, y)
    # the algorithm called directly with the documented orders (rng.permutation(n) per epoch)
    rng = np.random.default_rng(seed)
    module = get_module("bsgd", backend)
    params = est._algorithm_params()
    params["gamma"] = est.gamma_
    sv = alpha = bias = None
    t = 0
    for _ in range(2):
        res = module.bsgd(X, y, rng.permutation(len(y)).astype(np.int64), n_classes=2, sv=sv,
                          alpha=alpha, bias=bias, t0=t, **params)
        sv, alpha, bias, t = res.sv, res.alpha, res.bias, res.t
    np.testing.assert_array_equal(est.support_vectors_, sv)
    np.testing.assert_array_equal(est.alpha_, alpha)
    np.testing.assert_array_equal(est.bias_, bias)
    assert "refit_bias" not in est.trace_[-1]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cls, kw", [
    (BudgetedSVC, BSGD_KW),
    (BudgetedSVC, dict(BSGD_KW, fit_bias=True)),
    (BSCAClassifier, dict(budget=15, C=10.0, gamma=2.0)),
    (OnlineKernelClassifier, dict(algorithm="perceptron", budget=15, gamma=2.0)),
    (SBPClassifier, dict(nu=0.1, gamma=2.0, epochs=3)),
])
def test_refit_replaces_only_the_bias_by_the_minimiser(backend, cls, kw):
    X, y = checkerboard(300, seed=3)
    w = np.random.default_rng(0).random(300) + 0.5
    weighted = cls in (BudgetedSVC, BSCAClassifier)
    fit_kw = dict(sample_weight=w) if weighted else {}
    off = cls(**kw, backend=backend, random_state=1).fit(X, y, **fit_kw)
    on = cls(**kw, backend=backend, random_state=1, refit_bias=True).fit(X, y, **fit_kw)
    np.testing.assert_array_equal(on.support_vectors_, off.support_vectors_)
    np.testing.assert_array_equal(on.alpha_, off.alpha_)
    f = off.decision_function(X) - off.bias_[0]       # kernel part
    ww = w if weighted else np.ones(300)
    assert loss_binary(f, y, ww, on.bias_[0]) <= brute_force_min(f, y, ww) + 1e-9
    tr = on.trace_[-1]
    assert tr["refit_bias"][0] == on.bias_[0]
    assert tr["refit_bias_before"][0] == off.bias_[0]
    assert tr["refit_hinge_before"] == pytest.approx(loss_binary(f, y, ww, off.bias_[0]), rel=1e-9)
    assert tr["refit_hinge_after"] == pytest.approx(loss_binary(f, y, ww, on.bias_[0]), rel=1e-9)
    assert tr["refit_hinge_after"] <= tr["refit_hinge_before"] + 1e-12
    assert tr["refit_rows"] == 300


@pytest.mark.parametrize("backend", BACKENDS)
def test_refit_multiclass_crammer_singer(backend):
    X, y = blobs(240, n_classes=3, seed=1)
    off = BudgetedSVC(**BSGD_KW, backend=backend, random_state=0).fit(X, y)
    on = BudgetedSVC(**BSGD_KW, backend=backend, random_state=0, refit_bias=True).fit(X, y)
    np.testing.assert_array_equal(on.alpha_, off.alpha_)
    F = off.decision_function(X) - off.bias_
    w = np.ones(len(y))
    after = loss_multiclass(F, y, w, on.bias_)
    assert after <= loss_multiclass(F, y, w, off.bias_) + 1e-12
    assert on.trace_[-1]["refit_hinge_after"] == pytest.approx(after, rel=1e-9)
    for k in range(3):                               # coordinate-wise minimal (brute force)
        for value in on.bias_[k] + np.linspace(-2.0, 2.0, 401):
            trial = on.bias_.copy()
            trial[k] = value
            assert loss_multiclass(F, y, w, trial) >= after - 1e-10


@pytest.mark.parametrize("cls, kw", [(BSCAClassifier, dict(budget=20, C=10.0, gamma=2.0)),
                                     (SBPClassifier, dict(nu=0.1, gamma=2.0, epochs=2))])
def test_refit_multiclass_one_vs_rest(cls, kw):
    X, y = blobs(240, n_classes=3, seed=2)
    off = cls(**kw, random_state=0).fit(X, y)
    on = cls(**kw, random_state=0, refit_bias=True).fit(X, y)
    np.testing.assert_array_equal(on.alpha_, off.alpha_)
    F = off.decision_function(X) - off.bias_
    for r in range(3):
        yr = np.where(y == r, 1, -1)
        assert loss_binary(F[:, r], yr, np.ones(240), on.bias_[r]) <= \
            brute_force_min(F[:, r], yr, np.ones(240)) + 1e-9


def test_refit_subsample_and_visiting_order():
    X, y = checkerboard(400, seed=4)
    off = BudgetedSVC(**BSGD_KW, random_state=2, epochs=2).fit(X, y)
    on = BudgetedSVC(**BSGD_KW, random_state=2, epochs=2, refit_bias=True, refit_rows=100).fit(X, y)
    np.testing.assert_array_equal(on.alpha_, off.alpha_)      # the orders are not changed
    assert on.trace_[-1]["refit_rows"] == 100
    again = BudgetedSVC(**BSGD_KW, random_state=2, epochs=2, refit_bias=True, refit_rows=100).fit(X, y)
    assert again.bias_[0] == on.bias_[0]
    # partial_fit continues from the algorithm's bias: k calls == fit(epochs=k)
    pf = BudgetedSVC(**dict(BSGD_KW, fit_bias=True), random_state=2, refit_bias=True, refit_rows=100)
    for _ in range(2):
        pf.partial_fit(X, y, classes=[-1, 1])
    full = BudgetedSVC(**dict(BSGD_KW, fit_bias=True), random_state=2, epochs=2, refit_bias=True,
                       refit_rows=100).fit(X, y)
    np.testing.assert_array_equal(pf.alpha_, full.alpha_)
    np.testing.assert_array_equal(pf.bias_, full.bias_)


def test_refit_parameters_checked_and_saved(tmp_path):
    X, y = checkerboard(120, seed=5)
    with pytest.raises(ValueError, match="refit_bias"):
        BudgetedSVC(**BSGD_KW, refit_bias="yes").fit(X, y)
    with pytest.raises(ValueError, match="refit_rows"):
        BSCAClassifier(budget=10, refit_bias=True, refit_rows=0).fit(X, y)
    est = BudgetedSVC(**BSGD_KW, random_state=0, refit_bias=True, refit_rows=50).fit(X, y)
    est.save(tmp_path / "m.npz")
    back = BudgetedSVC.load(tmp_path / "m.npz")
    assert back.refit_bias is True and back.refit_rows == 50
    np.testing.assert_array_equal(back.decision_function(X), est.decision_function(X))


@pytest.mark.parametrize("solver", ["bsgd", "bsca", "sbp"])
def test_cli_refit_bias(tmp_path, capsys, solver):
    from sklearn.datasets import dump_svmlight_file

    from refsvm.cli import main

    X, y = checkerboard(200, seed=6)
    train = tmp_path / "train.txt"
    dump_svmlight_file(X, y, str(train), zero_based=False)
    common = [str(train), "--solver", solver, "--gamma", "2", "--random-state", "3", "--quiet"]
    if solver != "sbp":
        common += ["--budget", "15"]
    assert main(["train", common[0], str(tmp_path / "off.npz"), *common[1:]]) == 0
    assert "bias refit" not in capsys.readouterr().out
    assert main(["train", common[0], str(tmp_path / "on.npz"), *common[1:], "--refit-bias",
                 "--refit-rows", "150"]) == 0
    assert "bias refit:" in capsys.readouterr().out
    cls = {"bsgd": BudgetedSVC, "bsca": BSCAClassifier, "sbp": SBPClassifier}[solver]
    off, on = cls.load(tmp_path / "off.npz"), cls.load(tmp_path / "on.npz")
    assert on.refit_bias is True and on.refit_rows == 150 and off.refit_bias is False
    np.testing.assert_array_equal(on.alpha_, off.alpha_)
    assert on.bias_[0] != off.bias_[0]


def test_cli_refit_bias_refused_for_ogd(tmp_path):
    from sklearn.datasets import dump_svmlight_file

    from refsvm.cli import main

    X, y = checkerboard(50, seed=6)
    train = tmp_path / "train.txt"
    dump_svmlight_file(X, y, str(train), zero_based=False)
    with pytest.raises((ValueError, SystemExit)):
        main(["train", str(train), str(tmp_path / "m.npz"), "--solver", "fogd", "--refit-bias"])


# ------------------------------------------------------------------ scale and offset

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_scaled_hinge_offset_is_the_brute_force_joint_minimum(backend, weighted):
    module = get_module("refit", backend)
    rng = np.random.default_rng(11 + weighted)
    for m in (5, 40):
        f, y, w = random_problem(rng, m, weighted, False)
        f = 30.0 * f + 5.0                          # a badly scaled decision function
        threshold, scale, loss = module.scaled_hinge_offset(f, y, w if weighted else None)
        # brute force: a fine grid of scales, for each the best offset over a grid plus all kinks
        best = min(brute_force_min(s * f, y, w) for s in np.exp(np.linspace(np.log(1e-3), np.log(10), 400)))
        assert loss <= best + 1e-9
        assert loss == pytest.approx(loss_binary(scale * f, y, w, scale * threshold), abs=1e-9)


def test_scaled_paths_agree_bitwise():
    fast = pytest.importorskip("refsvm._fast.refit")
    rng = np.random.default_rng(12)
    for trial in range(10):
        f, y, w = random_problem(rng, 50, trial % 2 == 1, False)
        assert refit_ref.scaled_hinge_offset(40 * f, y, w) == fast.scaled_hinge_offset(40 * f, y, w)
    F = rng.normal(size=(60, 3)) * 20
    yc = rng.integers(0, 3, size=60)
    a = refit_ref.scaled_crammer_singer_offsets(F, yc, np.zeros(3))
    b = fast.scaled_crammer_singer_offsets(F, yc, np.zeros(3))
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_refit_scaled_in_the_estimator(backend):
    X, y = checkerboard(300, seed=3)
    off = BudgetedSVC(**BSGD_KW, backend=backend, random_state=1).fit(X, y)
    on = BudgetedSVC(**BSGD_KW, backend=backend, random_state=1, refit_bias="scaled").fit(X, y)
    np.testing.assert_array_equal(on.alpha_, off.alpha_)
    f = off.decision_function(X)
    tr = on.trace_[-1]
    s = tr["refit_scale"]
    w = np.ones(300)
    assert tr["refit_scaled_hinge"] == pytest.approx(loss_binary(s * f, y, w, s * on.bias_[0]), rel=1e-9)
    best = min(brute_force_min(t * f, y, w) for t in np.exp(np.linspace(np.log(1e-3), np.log(10), 200)))
    assert tr["refit_scaled_hinge"] <= best + 1e-9
    with pytest.raises(ValueError, match="refit_bias"):
        BudgetedSVC(**BSGD_KW, refit_bias="scale").fit(X, y)
    multi = BudgetedSVC(**BSGD_KW, random_state=0, refit_bias="scaled").fit(*blobs(150, 3, seed=1))
    assert multi.trace_[-1]["refit_scale"] > 0


def test_cli_refit_bias_scaled(tmp_path, capsys):
    from sklearn.datasets import dump_svmlight_file

    from refsvm.cli import main

    X, y = checkerboard(200, seed=6)
    train = tmp_path / "train.txt"
    dump_svmlight_file(X, y, str(train), zero_based=False)
    assert main(["train", str(train), str(tmp_path / "m.npz"), "--gamma", "2", "--budget", "15", "--quiet",
                 "--refit-bias", "scaled"]) == 0
    assert "scaled refit, scale" in capsys.readouterr().out
    assert BudgetedSVC.load(tmp_path / "m.npz").refit_bias == "scaled"
