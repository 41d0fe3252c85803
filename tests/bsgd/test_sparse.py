"""Sparse data end to end for BSGD: CSR in, sparse support vectors, no densifying, both paths.

The data are made here: rows with about 25 % nonzeros (so merged SVs have unions that differ from
either row), a checkerboard-like rule on the first columns, optionally 20 % repeated rows and a
second pass.  Checks:

* the sparse run gives the model of the dense run: the same discrete decisions (added, maintained,
  merge partners), SVs and coefficients to 1e-10 of their scale, every maintenance strategy and
  kernel, binary and multi-class, both paths; with the Gaussian kernel bitwise the same model
  (both layouts compute its kernel rows from the norms with sums in index order, refsvm.kernels);
* the two paths agree on sparse data;
* a merged sparse SV is the union of the two rows, checked against a dense computation; a sparse
  kernel row against the dense formula;
* a matrix of 1,000,000 columns trains and predicts in seconds (it could never be densified here:
  300 x 1e6 x 8 bytes = 2.4 GB);
* the model file keeps sparse SVs; the command line reads sparse files with --sparse.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm import BudgetedSVC, FOGDClassifier, load
from refsvm.backend import get_module
from refsvm.sparse import SparseRows

BACKENDS = ("python", "fast")
#: (backend, layout) for the tests of one path: the layouts are the compiled path's (the reference has one), so
#: the Python path runs once, the compiled path in both layouts
BACKEND_LAYOUTS = [("python", "dense-layout"), ("fast", "dense-layout"), ("fast", "slots")]
#: the reference's runs of the tests that compare the paths in both layouts: computed once per file and
#: worker (the layout changes only the compiled path), read only
_REFERENCE_RUNS = {}


def _reference(key, run):
    """``run()`` for the Python path, once per ``key`` (the layout fixture does not reach it)."""
    if key not in _REFERENCE_RUNS:
        _REFERENCE_RUNS[key] = run()
    return _REFERENCE_RUNS[key]


@pytest.fixture(params=["dense-layout", "slots"])
def layout(request):
    """Both layouts of sparse rows in the compiled path (refsvm.sparse, storage rule): the default
    threshold puts these small problems in the dense layout; 0 forces per-SV buffers.  Tests of one
    path take it with their backend (BACKEND_LAYOUTS, indirect)."""
    from refsvm._fast import sparse as fast_sparse

    old = fast_sparse._dense_layout_entries(0 if request.param == "slots" else None)
    yield request.param
    fast_sparse._dense_layout_entries(old)


def _data(n=160, d=24, seed=0, classes=2, duplicate=0.0):
    """Rows with ~25 % nonzeros in [0.75, 1); the label from the first 4 columns (both / all classes
    occur: checked)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, d))
    X[X < 0.75] = 0.0
    if duplicate:
        X = np.vstack([X, X[rng.choice(n, int(duplicate * n), replace=False)]])
    cell = np.floor(8 * X[:, 0]) + np.floor(8 * X[:, 1]) + np.floor(8 * X[:, 2]) + np.floor(8 * X[:, 3])
    y = np.where(cell % 2 == 0, 1, -1) if classes == 2 else (cell % classes).astype(np.int64)
    assert np.unique(y).size == classes
    return X, y.astype(np.int64)


def _kw(maintenance, kernel, classes, **extra):
    kw = dict(n_classes=classes, budget=12, lam=1e-3, learning_rate="pegasos", eta=0.1, radius=np.inf,
              maintenance=maintenance, kernel=kernel, gamma=0.5, degree=2, coef0=1.0, merge_eps=0.01,
              projection_ridge=1e-10, fit_bias=False)
    kw.update(extra)
    return kw


CONFIGS = [("removal", k) for k in ("rbf", "linear", "poly")] + \
          [("projection", k) for k in ("rbf", "linear", "poly")] + [("merge", "rbf")]


def _same_decisions(a, b):
    for key in ("added", "maint_index", "maint_partner", "maint_step"):
        np.testing.assert_array_equal(a.trace[key], b.trace[key], err_msg=key)


def _close(a, b, rtol=1e-10):
    scale = max(np.max(np.abs(a)), 1e-300)
    assert np.max(np.abs(np.asarray(a) - np.asarray(b))) <= rtol * scale, np.max(np.abs(a - b)) / scale


@pytest.mark.parametrize("backend,layout", BACKEND_LAYOUTS, indirect=["layout"])
@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("maintenance,kernel", CONFIGS)
@pytest.mark.parametrize("passes,duplicate", [(1, 0.0), (3, 0.2)])
def test_csr_gives_the_dense_model(backend, classes, maintenance, kernel, passes, duplicate, layout):
    X, y = _data(classes=classes, duplicate=duplicate)
    rng = np.random.default_rng(1)
    order = np.concatenate([rng.permutation(len(y)) for _ in range(passes)])
    bsgd = get_module("bsgd", backend).bsgd
    kw = _kw(maintenance, kernel, classes)
    dense = bsgd(X, y, order, **kw)
    csr = bsgd(sp.csr_matrix(X), y, order, **kw)
    assert sp.issparse(csr.sv) and not sp.issparse(dense.sv)
    _same_decisions(dense, csr)
    rtol = 0.0 if kernel == "rbf" else 1e-10             # Gaussian: bitwise (refsvm.kernels)
    if kernel == "rbf" or maintenance != "projection":
        _close(dense.alpha, csr.alpha, rtol)
        _close(dense.sv, csr.sv.toarray(), rtol)
    # the decision function on the data (projection with a linear / poly kernel: the coefficients
    # are determined only up to the rank deficiency, DESIGN.md "Rank-deficient kernels")
    K = get_module("kernels", "python")
    f_dense = K.kernel_matrix(X, dense.sv, kernel, 0.5, 2, 1.0) @ dense.alpha
    f_csr = K.kernel_matrix(sp.csr_matrix(X), csr.sv, kernel, 0.5, 2, 1.0) @ csr.alpha
    _close(f_dense, f_csr, max(rtol, 1e-9))


@pytest.mark.parametrize("merge_solver", ["gss", "lookup-h", "lookup-wd"])
def test_csr_merging_every_solver(merge_solver, layout):
    """Merging with each solver: bitwise the dense run's merges, coefficients and SVs.  The squared
    distance merging reads is the same number for dense and sparse rows (refsvm.kernels.sq_dist); a
    rounding difference there would move the golden-section search's h where its objective is
    flat."""
    X, y = _data()
    order = np.random.default_rng(2).permutation(len(y))
    for backend in BACKENDS:
        bsgd = get_module("bsgd", backend).bsgd
        kw = _kw("merge", "rbf", 2, merge_solver=merge_solver)
        dense, csr = bsgd(X, y, order, **kw), bsgd(sp.csr_matrix(X), y, order, **kw)
        _same_decisions(dense, csr)
        np.testing.assert_array_equal(dense.alpha, csr.alpha)
        np.testing.assert_array_equal(dense.sv, csr.sv.toarray())


@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("maintenance,kernel", CONFIGS)
def test_paths_agree_on_sparse_data(classes, maintenance, kernel, layout):
    X, y = _data(classes=classes, duplicate=0.2)
    rng = np.random.default_rng(3)
    order = np.concatenate([rng.permutation(len(y)) for _ in range(3)])
    kw = _kw(maintenance, kernel, classes)
    ref = _reference(("bsgd", classes, maintenance, kernel),
                     lambda: get_module("bsgd", "python").bsgd(sp.csr_matrix(X), y, order, **kw))
    fast = get_module("bsgd", "fast").bsgd(sp.csr_matrix(X), y, order, **kw)
    _same_decisions(ref, fast)
    np.testing.assert_array_equal(ref.sv.indptr, fast.sv.indptr)
    np.testing.assert_array_equal(ref.sv.indices, fast.sv.indices)
    _close(ref.sv.data, fast.sv.data, 1e-12)
    _close(ref.alpha, fast.alpha, 1e-9)


@pytest.mark.parametrize("backend,layout", BACKEND_LAYOUTS, indirect=["layout"])
def test_merged_sparse_sv_is_the_union(backend, layout):
    """maintain_merge on sparse slots: z = h x_m + (1 - h) x_n has the union support, values as the
    dense computation, exact zeros dropped; the other slots and the coefficients as the dense run."""
    budget = get_module("budget", backend)
    rng = np.random.default_rng(4)
    D = rng.random((6, 40))
    D[D < 0.7] = 0.0
    D[1, 5], D[2, 5] = 0.3, -0.3 * 0.5 / 0.5       # a value that may cancel in z
    alpha = np.array([[0.1], [0.2], [0.25], [0.3], [0.35], [0.4]])
    S = SparseRows(6, 40)
    S[:6] = sp.csr_matrix(D)
    Dd, ad, as_ = D.copy(), alpha.copy(), alpha.copy()
    n_d, m_d, p_d, wd_d = budget.maintain_merge(Dd, ad, 6, 0.7, 1e-10, "gss-precise")
    n_s, m_s, p_s, wd_s = budget.maintain_merge(S, as_, 6, 0.7, 1e-10, "gss-precise")
    assert (n_d, m_d, p_d) == (n_s, m_s, p_s)
    merged = S[m_s]
    union = np.union1d(np.flatnonzero(D[m_d]), np.flatnonzero(D[p_d]))
    expect = Dd[m_d]
    assert set(merged.indices.tolist()) == set(union[expect[union] != 0.0].tolist())
    np.testing.assert_allclose(merged.toarray()[0], expect, rtol=1e-12, atol=0)
    np.testing.assert_allclose(S[:n_s].toarray(), Dd[:n_d], rtol=1e-12, atol=0)
    np.testing.assert_allclose(as_[:n_s], ad[:n_d], rtol=1e-9)


@pytest.mark.parametrize("backend,layout", BACKEND_LAYOUTS, indirect=["layout"])
@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_sparse_kernel_row_matches_the_dense_formula(backend, kernel, layout):
    """Kernel rows of sparse rows come from the norms (one sparse dot per SV): equal to the dense
    formula to rounding."""
    kernels = get_module("kernels", backend)
    rng = np.random.default_rng(5)
    A = rng.random((9, 50))
    A[A < 0.8] = 0.0
    x = A[3] * 0.5 + A[4] * 0.5
    dense = kernels.kernel_row(A, x, kernel, 0.4, 3, 0.5)
    sparse_row = kernels.kernel_row(sp.csr_matrix(A), sp.csr_matrix(x), kernel, 0.4, 3, 0.5)
    np.testing.assert_allclose(sparse_row, dense, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(kernels.kernel_diag(sp.csr_matrix(A), kernel, 0.4, 3, 0.5),
                               kernels.kernel_diag(A, kernel, 0.4, 3, 0.5), rtol=1e-13)
    # a row equal to an SV: squared distance exactly 0
    assert kernels.kernel_row(sp.csr_matrix(A), sp.csr_matrix(A[2]), "rbf", 0.4, 3, 0.5)[2] == 1.0


@pytest.mark.parametrize("backend,layout", BACKEND_LAYOUTS, indirect=["layout"])
@pytest.mark.parametrize("maintenance", ["merge", "projection", "removal"])
def test_estimator_csr_and_dense(backend, maintenance, layout):
    X, y = _data(n=200, classes=3)
    make = lambda: BudgetedSVC(budget=15, gamma=0.5, maintenance=maintenance, epochs=2,  # noqa: E731
                               backend=backend, random_state=0)
    dense, csr = make().fit(X, y), make().fit(sp.csr_matrix(X), y)
    assert sp.issparse(csr.support_vectors_)
    F = dense.decision_function(X)
    for Xp in (X, sp.csr_matrix(X), sp.csc_matrix(X)):
        _close(F, csr.decision_function(Xp), 1e-9)
    np.testing.assert_array_equal(dense.predict(X), csr.predict(sp.csr_matrix(X)))


def test_gamma_scale_from_sparse_equals_dense():
    """Bitwise while the dense copy is at most SPARSE_VARIANCE_DENSE_BYTES, to rounding beyond."""
    from refsvm.estimators import _base

    X, y = _data()
    dense = BudgetedSVC(budget=10, random_state=0).fit(X, y)
    csr = BudgetedSVC(budget=10, random_state=0).fit(sp.csr_matrix(X), y)
    assert csr.gamma_ == dense.gamma_
    assert _base._variance(sp.csr_matrix(X)) == _base._variance(X)
    wide = sp.csr_matrix(X)
    old = _base.SPARSE_VARIANCE_DENSE_BYTES
    try:
        _base.SPARSE_VARIANCE_DENSE_BYTES = 0
        assert _base._variance(wide) == pytest.approx(_base._variance(X), rel=1e-12)
    finally:
        _base.SPARSE_VARIANCE_DENSE_BYTES = old


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_million_columns_train_and_predict(backend):
    """Too wide to densify (300 x 1,000,000 float64 = 2.4 GB): trains, predicts, saves, loads."""
    from refsvm.datasets import text_like

    X, y = text_like(300 if backend == "fast" else 120, 1_000_000, 30, random_state=0)
    est = BudgetedSVC(budget=30, backend=backend, random_state=0, epochs=2).fit(X, y)
    assert sp.issparse(est.support_vectors_) and est.support_vectors_.shape == (30, 1_000_000)
    assert est.support_vectors_.nnz < 30 * 30 * 30      # unions of a few rows, not dense rows
    assert est.score(X, y) > 0.6


def test_sparse_model_file_round_trip(tmp_path):
    X, y = _data()
    est = BudgetedSVC(budget=10, gamma=0.5, random_state=0).fit(sp.csr_matrix(X), y)
    est.save(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz") as data:
        assert "sv_indptr" in data and "support_vectors" not in data and int(data["format_version"]) == 2
    back = load(tmp_path / "m.npz")
    assert sp.issparse(back.support_vectors_)
    np.testing.assert_array_equal(back.decision_function(X), est.decision_function(X))
    dense = BudgetedSVC(budget=10, gamma=0.5, random_state=0).fit(X, y)
    dense.save(tmp_path / "d.npz")
    with np.load(tmp_path / "d.npz") as data:               # dense models keep format 1
        assert int(data["format_version"]) == 1 and "support_vectors" in data


def test_too_wide_for_the_fourier_directions_names_the_size():
    """A matrix of 10,000,000 columns: FOGD's dense d x D directions would need 30 GB; refused naming
    the parameter (it used to fail inside numpy: "Unable to allocate ...")."""
    n, d = 100_000, 10_000_000
    X = sp.csr_matrix((np.ones(n), np.arange(n, dtype=np.int32) * 50, np.arange(n + 1)), shape=(n, d))
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    # every estimator reads sparse rows now; the one dense piece left is FOGD's d x D directions:
    # refused naming n_components reads the sparse rows, but its d x D directions are dense: refused naming n_components
    with pytest.raises(ValueError, match=r"n_components.*GiB"):
        FOGDClassifier(random_state=0).fit(X, y)


def test_command_line_trains_and_predicts_sparse_files(tmp_path, capsys):
    from sklearn.datasets import dump_svmlight_file

    from refsvm.cli import main
    from refsvm.datasets import text_like

    X, y = text_like(200, 300_000, 20, random_state=1)
    dump_svmlight_file(X, y, str(tmp_path / "wide.svm"), zero_based=False)
    assert main(["train", str(tmp_path / "wide.svm"), str(tmp_path / "m.npz"), "--sparse",
                 "--budget", "20", "--gamma", "1"]) == 0
    assert main(["predict", str(tmp_path / "m.npz"), str(tmp_path / "wide.svm"), "--sparse"]) == 0
    out = capsys.readouterr().out
    assert "accuracy" in out
    assert sp.issparse(load(tmp_path / "m.npz").support_vectors_)


@pytest.mark.parametrize("maintenance,kernel", CONFIGS)
def test_the_two_layouts_compute_the_same_numbers(maintenance, kernel):
    """Per-SV buffers and the dense layout of sparse rows give bitwise the same run (the layout is a
    matter of speed only, refsvm.sparse)."""
    from refsvm._fast import bsgd as fast
    from refsvm._fast import sparse as fast_sparse

    X, y = _data(classes=3, duplicate=0.2)
    order = np.concatenate([np.random.default_rng(6).permutation(len(y)) for _ in range(2)])
    kw = _kw(maintenance, kernel, 3)
    old = fast_sparse._dense_layout_entries(0)
    try:
        slots = fast.bsgd(sp.csr_matrix(X), y, order, **kw)
    finally:
        fast_sparse._dense_layout_entries(old)
    dense_layout = fast.bsgd(sp.csr_matrix(X), y, order, **kw)
    np.testing.assert_array_equal(slots.alpha, dense_layout.alpha)
    np.testing.assert_array_equal(slots.sv.toarray(), dense_layout.sv.toarray())
    assert slots.trace["kernel_entries"] == dense_layout.trace["kernel_entries"]


# ------------------------------------------------------------------------------------ BSCA

BSCA_CONFIGS = [("merge", "rbf", "accumulate"), ("merge", "rbf", "append"), ("removal", "rbf", "accumulate"),
                ("projection", "rbf", "accumulate"), ("removal", "linear", "append"),
                ("projection", "poly", "accumulate")]


@pytest.mark.parametrize("backend,layout", BACKEND_LAYOUTS, indirect=["layout"])
@pytest.mark.parametrize("maintenance,kernel,sv_update", BSCA_CONFIGS)
def test_bsca_csr_gives_the_dense_model(backend, maintenance, kernel, sv_update, layout):
    """BSCA (Qaadan et al.) on CSR: the dense run's decisions and coefficients, 3 passes, repeats."""
    X, y = _data(duplicate=0.2)
    rng = np.random.default_rng(7)
    order = np.concatenate([rng.permutation(len(y)) for _ in range(3)])
    bsca = get_module("bsca", backend).bsca
    kw = dict(budget=12, C=2.0, maintenance=maintenance, kernel=kernel, gamma=0.5, degree=2, coef0=1.0,
              sv_update=sv_update)
    dense, csr = bsca(X, y, order, **kw), bsca(sp.csr_matrix(X), y, order, **kw)
    assert sp.issparse(csr.sv)
    for key in ("changed", "added", "maint_index", "maint_partner"):
        np.testing.assert_array_equal(dense.trace[key], csr.trace[key], err_msg=key)
    np.testing.assert_array_equal(dense.sv_source, csr.sv_source)
    rtol = 0.0 if kernel == "rbf" else 1e-10             # Gaussian: bitwise (refsvm.kernels)
    _close(dense.dual, csr.dual, rtol)
    if kernel == "rbf" or maintenance != "projection":
        _close(dense.alpha, csr.alpha, rtol)
        _close(dense.sv, csr.sv.toarray(), rtol)
    mod = get_module("bsca", backend)
    kwk = dict(kernel=kernel, gamma=0.5, degree=2, coef0=1.0)
    p_d = mod.primal_objective(X, y, dense.sv, dense.alpha, C=2.0, **kwk)
    p_s = mod.primal_objective(sp.csr_matrix(X), y, csr.sv, csr.alpha, C=2.0, **kwk)
    assert p_s == pytest.approx(p_d, rel=1e-9)
    assert mod.dual_objective(sp.csr_matrix(X), y, csr.dual, **kwk) == \
        pytest.approx(mod.dual_objective(X, y, dense.dual, **kwk), rel=1e-9)


@pytest.mark.parametrize("maintenance,kernel,sv_update", BSCA_CONFIGS)
def test_bsca_paths_agree_on_sparse_data(maintenance, kernel, sv_update, layout):
    X, y = _data(duplicate=0.2)
    rng = np.random.default_rng(8)
    order = np.concatenate([rng.permutation(len(y)) for _ in range(3)])
    kw = dict(budget=12, C=2.0, maintenance=maintenance, kernel=kernel, gamma=0.5, degree=2, coef0=1.0,
              sv_update=sv_update)
    ref = _reference(("bsca", maintenance, kernel, sv_update),
                     lambda: get_module("bsca", "python").bsca(sp.csr_matrix(X), y, order, **kw))
    fast = get_module("bsca", "fast").bsca(sp.csr_matrix(X), y, order, **kw)
    for key in ("changed", "added", "maint_index", "maint_partner"):
        np.testing.assert_array_equal(ref.trace[key], fast.trace[key], err_msg=key)
    _close(ref.alpha, fast.alpha, 1e-9)
    _close(ref.sv.toarray(), fast.sv.toarray(), 1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bsca_estimator_multiclass_csr(backend):
    from refsvm import BSCAClassifier

    X, y = _data(n=200, classes=3)
    make = lambda: BSCAClassifier(budget=15, C=2.0, gamma=0.5, epochs=2, backend=backend,  # noqa: E731
                                  random_state=0)
    dense, csr = make().fit(X, y), make().fit(sp.csr_matrix(X), y)
    assert sp.issparse(csr.support_vectors_)
    _close(dense.decision_function(X), csr.decision_function(sp.csr_matrix(X)), 1e-9)


# ------------------------------------------------------------------------------------ FOGD

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("task,classes", [("binary", 2), ("multiclass", 3)])
def test_fogd_csr_gives_the_dense_model(backend, task, classes):
    """FOGD (Lu et al.): u'x over the nonzeros.  Compiled path: bitwise the dense run (the same
    nonzero inputs, in the same order, four rows at a time); reference: to rounding."""
    from refsvm.ogd import fourier_directions

    X, y = _data(classes=classes, duplicate=0.2)
    U = fourier_directions(np.random.default_rng(1), 64, X.shape[1], 0.5)
    order = np.concatenate([np.random.default_rng(9).permutation(len(y)) for _ in range(2)])
    fogd = get_module("fogd", backend)
    dense = fogd.fogd(X, y, order, task=task, n_classes=classes, U=U, eta=0.1)
    csr = fogd.fogd(sp.csr_matrix(X), y, order, task=task, n_classes=classes, U=U, eta=0.1)
    np.testing.assert_array_equal(dense.trace["updated"], csr.trace["updated"])
    if backend == "fast":
        np.testing.assert_array_equal(dense.W, csr.W)
    _close(dense.W, csr.W, 1e-12)
    _close(fogd.decision_values(X, U, dense.W), fogd.decision_values(sp.csr_matrix(X), U, dense.W), 1e-12)
    ref = get_module("fogd", "python").fogd(sp.csr_matrix(X), y, order, task=task, n_classes=classes, U=U, eta=0.1)
    _close(ref.W, csr.W, 1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_fogd_estimator_on_sparse_input(backend):
    from refsvm import FOGDClassifier

    X, y = _data(n=200)
    dense = FOGDClassifier(n_components=64, gamma=0.5, random_state=0, backend=backend).fit(X, y)
    csr = FOGDClassifier(n_components=64, gamma=0.5, random_state=0, backend=backend).fit(sp.csr_matrix(X), y)
    _close(dense.decision_function(X), csr.decision_function(sp.csr_matrix(X)), 1e-12)


# ------------------------------------------------------------------------------------ NOGD

@pytest.mark.parametrize("backend,layout", BACKEND_LAYOUTS, indirect=["layout"])
@pytest.mark.parametrize("task,classes", [("binary", 2), ("multiclass", 3), ("regression", 0)])
def test_nogd_csr_gives_the_dense_model(backend, task, classes, layout):
    """NOGD (Lu et al.): the B SVs are rows of X (sparse slots), kernel rows from the norms; the same
    updates and switch as the dense run, weights to 1e-10 (the eigendecomposition amplifies the
    kernel values' rounding to ~1e-13)."""
    X, y = _data(classes=max(classes, 2), duplicate=0.2)
    if task == "regression":
        y = X[:, 0] - X[:, 1]
    order = np.concatenate([np.random.default_rng(10).permutation(len(y)) for _ in range(2)])
    nogd = get_module("nogd", backend).nogd
    kw = dict(task=task, n_classes=classes, budget=30, rank=15, gamma=0.5, eta=0.2)
    dense, csr = nogd(X, y, order, **kw), nogd(sp.csr_matrix(X), y, order, **kw)
    assert sp.issparse(csr.sv)
    np.testing.assert_array_equal(dense.trace["updated"], csr.trace["updated"])
    assert dense.trace["switch_step"] == csr.trace["switch_step"] >= 0
    np.testing.assert_array_equal(dense.W, csr.W)        # Gaussian kernel rows: bitwise (refsvm.kernels)
    _close(dense.sv, csr.sv.toarray(), 0)
    ref = _reference(("nogd", task, classes),
                     lambda: get_module("nogd", "python").nogd(sp.csr_matrix(X), y, order, **kw))
    _close(ref.W, csr.W, 1e-10)


@pytest.mark.parametrize("backend", BACKENDS)
def test_nogd_estimator_sparse_model_file(backend, tmp_path):
    from refsvm import NOGDClassifier

    X, y = _data(n=200)
    csr = NOGDClassifier(budget=30, rank=15, gamma=0.5, random_state=0, backend=backend).fit(sp.csr_matrix(X), y)
    dense = NOGDClassifier(budget=30, rank=15, gamma=0.5, random_state=0, backend=backend).fit(X, y)
    _close(dense.decision_function(X), csr.decision_function(sp.csr_matrix(X)), 1e-10)
    csr.save(tmp_path / "n.npz")
    back = load(tmp_path / "n.npz")
    assert sp.issparse(back.support_vectors_)
    np.testing.assert_array_equal(back.decision_function(X), csr.decision_function(X))


# ------------------------------------------------------------------------- online baselines

ONLINE_CASES = [
    ("perceptron", {}),
    ("ogd", dict(eta=0.2)),
    ("rbp", dict(budget=15)),
    ("forgetron", dict(budget=15)),
    ("projectron", dict(eta=0.1, budget=15, plusplus=False)),
    ("projectron", dict(eta=0.5, budget=15, plusplus=True)),
    ("bpas", dict(budget=15, C=1.0)),
    ("bogd", dict(budget=15, eta=0.2, lam=1e-3, max_coef=1.5)),
]


def _online(module, name, X, y, order, u, kw):
    f = getattr(module, name)
    return f(X, y, order, u, **kw) if name in ("rbp", "bogd") else f(X, y, order, **kw)


@pytest.mark.parametrize("name,extra", ONLINE_CASES)
@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_online_learners_on_sparse_rows(name, extra, kernel, layout):
    """Every online baseline on CSR, 2 passes with repeated rows: the dense run's decisions and
    coefficients (both paths), and the two paths agree on CSR."""
    X, y = _data(duplicate=0.2)
    rng = np.random.default_rng(11)
    order = np.concatenate([rng.permutation(len(y)) for _ in range(2)])
    u = rng.random(len(order))
    kw = dict(extra, kernel=kernel, gamma=0.5, degree=2, coef0=1.0)
    runs = {}
    for backend in BACKENDS:
        mod = get_module("online", backend)
        both = lambda: (_online(mod, name, X, y, order, u, kw),  # noqa: E731
                        _online(mod, name, sp.csr_matrix(X), y, order, u, kw))
        dense, csr = _reference(("online", name, repr(extra), kernel), both) if backend == "python" else both()
        assert sp.issparse(csr.sv)
        for key in ("update_kind", "n_sv", "removal_step", "removal_index"):
            np.testing.assert_array_equal(dense.trace[key], csr.trace[key], err_msg=key)
        _close(dense.alpha, csr.alpha, 0.0 if kernel == "rbf" else 1e-9)
        _close(dense.sv, csr.sv.toarray(), 0)
        runs[backend] = csr
    for key in ("update_kind", "n_sv", "removal_step", "removal_index"):
        np.testing.assert_array_equal(runs["python"].trace[key], runs["fast"].trace[key], err_msg=key)
    _close(runs["python"].alpha, runs["fast"].alpha, 1e-9)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("algorithm", ["projectron++", "forgetron", "bogd"])
def test_online_estimator_on_sparse_input(backend, algorithm, tmp_path):
    from refsvm import OnlineKernelClassifier

    X, y = _data(n=200)
    make = lambda: OnlineKernelClassifier(algorithm=algorithm, budget=20, gamma=0.5, backend=backend,  # noqa: E731
                                          random_state=0)
    dense, csr = make().fit(X, y), make().fit(sp.csr_matrix(X), y)
    assert sp.issparse(csr.support_vectors_)
    _close(dense.decision_function(X), csr.decision_function(sp.csr_matrix(X)), 1e-9)
    csr.save(tmp_path / "o.npz")
    np.testing.assert_array_equal(load(tmp_path / "o.npz").decision_function(X), csr.decision_function(X))


# ------------------------------------------------------------------------------------ SBP

@pytest.mark.parametrize("kernel", ["rbf", "poly"])
@pytest.mark.parametrize("fit_bias", [False, True])
def test_sbp_on_sparse_rows(kernel, fit_bias, layout):
    """SBP (Cotter et al.): kernel rows against all of X from the sparse rows; the dense run's
    samples, water levels and coefficients, both paths."""
    X, y = _data(duplicate=0.2)
    u = np.random.default_rng(12).random(300)
    kw = dict(nu=0.2, kernel=kernel, gamma=0.5, degree=2, coef0=1.0, fit_bias=fit_bias)
    runs = {}
    for backend in BACKENDS:
        optimize = get_module("sbp", backend).optimize
        both = lambda: (optimize(X, y, u, **kw), optimize(sp.csr_matrix(X), y, u, **kw))  # noqa: E731
        dense, csr = _reference(("sbp", kernel, fit_bias), both) if backend == "python" else both()
        np.testing.assert_array_equal(dense.trace["sampled"], csr.trace["sampled"])
        rtol = 0.0 if kernel == "rbf" else 1e-9          # Gaussian: bitwise (refsvm.kernels)
        _close(dense.trace["water_level"], csr.trace["water_level"], rtol)
        _close(dense.coef, csr.coef, rtol)
        runs[backend] = csr
    np.testing.assert_array_equal(runs["python"].trace["sampled"], runs["fast"].trace["sampled"])
    _close(runs["python"].coef, runs["fast"].coef, 1e-9)


@pytest.mark.parametrize("backend", BACKENDS)
def test_sbp_estimator_on_sparse_input(backend):
    from refsvm import SBPClassifier

    X, y = _data(n=150)
    make = lambda: SBPClassifier(nu=0.2, gamma=0.5, epochs=2, backend=backend, random_state=0)  # noqa: E731
    dense, csr = make().fit(X, y), make().fit(sp.csr_matrix(X), y)
    assert sp.issparse(csr.support_vectors_)
    _close(dense.decision_function(X), csr.decision_function(sp.csr_matrix(X)), 1e-9)


def test_command_line_sparse_memory_guard(tmp_path, capsys):
    """--sparse: --max-memory applies to the nonzeros and the SV storage at worst, not a dense copy."""
    from sklearn.datasets import dump_svmlight_file

    from refsvm.cli import main
    from refsvm.datasets import text_like

    X, y = text_like(100, 1_000_000, 10, random_state=2)
    dump_svmlight_file(X, y, str(tmp_path / "w.svm"), zero_based=False)
    # dense copy: 800 MB; nonzeros + 21 SVs of 1e6 features at worst: 252 MB
    assert main(["train", str(tmp_path / "w.svm"), str(tmp_path / "m.npz"), "--sparse", "--budget", "20",
                 "--max-memory", "300M"]) == 0
    assert main(["train", str(tmp_path / "w.svm"), str(tmp_path / "m.npz"), "--sparse", "--budget", "20",
                 "--max-memory", "200M"]) == 1
    assert "--max-memory" in capsys.readouterr().err


def test_command_line_reads_a_file_too_wide_for_a_dense_matrix_as_sparse(tmp_path, capsys):
    """Without --sparse: a file whose dense matrix exceeds --max-memory is read as CSR, with a note."""
    from sklearn.datasets import dump_svmlight_file

    from refsvm.cli import main
    from refsvm.datasets import text_like

    X, y = text_like(100, 1_000_000, 10, random_state=3)
    dump_svmlight_file(X, y, str(tmp_path / "w.svm"), zero_based=False)
    assert main(["train", str(tmp_path / "w.svm"), str(tmp_path / "m.npz"), "--budget", "20",
                 "--max-memory", "300M"]) == 0           # dense: ~740 MiB; sparse run at worst: ~250 MB
    err = capsys.readouterr().err
    assert "read it as a sparse matrix" in err and "MiB" in err
    assert sp.issparse(load(tmp_path / "m.npz").support_vectors_)
    assert main(["predict", str(tmp_path / "m.npz"), str(tmp_path / "w.svm"), "--max-memory", "300M"]) == 0
