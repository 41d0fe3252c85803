"""Subject: io -- training and prediction on a Dask cluster's data (refsvm.dask).

Against a real ``distributed`` scheduler: a ``LocalCluster`` of two worker processes (one thread
each) on 127.0.0.1; the data are made on the workers, block by block
(``refsvm.dask.checkerboard_array``), and never gathered to the client (``compute`` and
``__array__`` of a Dask array fail on the client during the fit).  ``fit_dask`` must give
bitwise the model of ``partial_fit`` called in memory on the same blocks in the same order (both
backends); ``predict_dask`` the in-memory predictions and decision values; the pre-pass the
classes and the ``gamma="scale"`` of the whole array; ``sample_weight`` (a Dask array, its blocks
aligned with X's) bitwise the in-memory ``partial_fit`` with the same weights; a run with checkpoints
between blocks, stopped (or its client killed with SIGKILL) and resumed, bitwise the uninterrupted one.

Needs the ``dask`` extra.  Without it the tests are skipped, except where the environment says the
extra was installed (``REFSVM_EXTRAS`` holding ``dask``, as ``.ci/run`` sets it): there a missing
Dask is a failure.
"""

import os

import numpy as np
import pytest

from _helpers import StopAtWrite, kill_after_checkpoints, slow_checkpoint_writes_source, stop_after_writes

from refsvm import BudgetedSVC, OnlineKernelClassifier, OnlineKernelRegressor
from refsvm.io.datasets import checkerboard

if "dask" in os.environ.get("REFSVM_EXTRAS", "").split(","):
    import distributed                                   # the extra is expected: its absence fails
else:
    distributed = pytest.importorskip("distributed")

import dask.array as da  # noqa: E402

from refsvm.dask import checkerboard_array, fit_dask, predict_dask  # noqa: E402

ROWS, BLOCKS, SEED = 150, 4, 11


def _block(i, regression=False):
    """Block ``i`` of the data made in memory (what ``checkerboard_array`` makes on a worker)."""
    X, y = checkerboard(ROWS, random_state=(SEED, i))
    return X, (y + X[:, 0]) if regression else y


def _dask_data(regression=False):
    """The data as Dask arrays: each block made on a worker (the functions of the tasks live in
    refsvm: a worker cannot import this test module)."""
    X, y = checkerboard_array(ROWS * BLOCKS, block_rows=ROWS, random_state=SEED)
    return X, (y + X[:, 0]) if regression else y


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture
def no_gathering(monkeypatch):
    """Fail if the client turns a Dask array into memory (``compute`` or ``np.asarray``)."""
    def refuse(self, *args, **kwargs):
        raise AssertionError(f"a dask array of shape {self.shape} was gathered to the client")
    monkeypatch.setattr(da.Array, "compute", refuse)
    monkeypatch.setattr(da.Array, "__array__", refuse)


def _model_arrays(est):
    """The fitted model's arrays and numbers (the trace holds timers: not compared), and ``t_``."""
    out = {"t_": getattr(est, "t_", None)}
    for name, value in vars(est.model_).items():
        if isinstance(value, (np.ndarray, float, int, np.generic)):
            out[name] = np.asarray(value)
    return out


def _assert_same_model(a, b):
    A, B = _model_arrays(a), _model_arrays(b)
    assert A.keys() == B.keys()
    for name in A:
        assert np.array_equal(A[name], B[name]), name     # bitwise (no NaN in a model)
    assert len(a.trace_) == len(b.trace_)                  # one trace per pass, gathered from the blocks
    for ta, tb in zip(a.trace_, b.trace_):
        assert ta.keys() == tb.keys()
        for key in ta:
            if isinstance(ta[key], np.ndarray):            # per-step records (timers differ)
                assert np.array_equal(ta[key], tb[key]), key


CASES = {
    "bsgd": lambda backend: BudgetedSVC(budget=15, gamma=2.0, maintenance="merge", backend=backend,
                                        random_state=3),
    "projectron": lambda backend: OnlineKernelClassifier(algorithm="projectron", gamma=2.0, budget=30,
                                                         backend=backend, random_state=5),
    "ogd-regressor": lambda backend: OnlineKernelRegressor(gamma=2.0, budget=20, backend=backend,
                                                           random_state=2),
}


@pytest.mark.parametrize("case, backend", [("bsgd", "fast"), ("bsgd", "python"), ("projectron", "fast"),
                                           ("projectron", "python"), ("ogd-regressor", "fast")])
def test_fit_is_partial_fit_over_the_same_blocks(client, no_gathering, case, backend):
    regression = case == "ogd-regressor"
    X, y = _dask_data(regression)
    est = fit_dask(CASES[case](backend), X, y, epochs=2)
    ref = CASES[case](backend)
    blocks = [_block(i, regression) for i in range(BLOCKS)]
    extra = {} if regression else {"classes": [-1, 1]}
    for _ in range(2):
        for Xi, yi in blocks:
            ref.partial_fit(Xi, yi, **extra)
    _assert_same_model(est, ref)
    X_all = np.vstack([b[0] for b in blocks])
    for method in ["predict"] if regression else ["predict", "decision_function"]:
        lazy = predict_dask(est, X, method)
        assert isinstance(lazy, da.Array) and lazy.chunks == ((ROWS,) * BLOCKS,)
        values = client.compute(lazy).result()
        # bitwise the in-memory values of the same blocks; of the whole matrix to the last bits
        # (BLAS's order of summation depends on the rows of the block: refsvm.model.decision_blocks)
        same_blocks = np.concatenate([getattr(ref, method)(Xi) for Xi, _ in blocks])
        assert np.array_equal(values, same_blocks), method
        np.testing.assert_allclose(values, getattr(ref, method)(X_all), rtol=1e-12, atol=1e-14)


def test_a_fitted_estimator_continues_and_its_trace_travels_apart(client, no_gathering):
    from refsvm.dask import _partial_fit_block

    first = _block(BLOCKS)                 # a block that is not in X
    est, ref = CASES["bsgd"]("fast").partial_fit(*first, classes=[-1, 1]), CASES["bsgd"]("fast")
    ref.partial_fit(*first, classes=[-1, 1])
    fit_dask(est, *_dask_data())
    for i in range(BLOCKS):
        ref.partial_fit(*_block(i))
    _assert_same_model(est, ref)                            # the trace of the first call kept
    # what travels from block to block: the model, the traces left as placeholders
    moving, added = _partial_fit_block(CASES["bsgd"]("fast"), *first, {"classes": [-1, 1]})
    moving, added2 = _partial_fit_block(moving, *first, {})
    assert moving.trace_ == [None, None] and len(added) == len(added2) == 1 and added[0] is not added2[0]
    # prediction sends the estimator without its traces, once
    graph = dict(predict_dask(est, _dask_data()[0]).__dask_graph__())
    shipped = [v.value for v in graph.values() if isinstance(getattr(v, "value", None), BudgetedSVC)]
    assert len(shipped) == 1 and shipped[0].trace_ == [] and len(est.trace_) == 1 + BLOCKS


def test_classes_and_gamma_scale_come_from_the_whole_array(client, no_gathering):
    X, y = _dask_data()
    est = fit_dask(BudgetedSVC(budget=10, random_state=0), X, y)
    X_all = np.vstack([_block(i)[0] for i in range(BLOCKS)])
    first = X_all[:ROWS]
    assert est.gamma == "scale"
    assert est.gamma_ == pytest.approx(1.0 / (2 * X_all.var()), rel=1e-13)
    assert est.gamma_ != pytest.approx(1.0 / (2 * first.var()), rel=1e-6)   # not the first block's
    assert list(est.classes_) == [-1, 1]


def test_multiclass_decision_values_are_blocks_of_columns(client):
    rng = np.random.default_rng(0)
    X_mem = rng.normal(size=(300, 3))
    y_mem = np.argmax(X_mem, axis=1)
    X, y = da.from_array(X_mem, chunks=(100, 2)), da.from_array(y_mem, chunks=150)   # rechunked by fit_dask
    est = fit_dask(BudgetedSVC(budget=20, gamma=1.0, random_state=1), X, y)
    ref = BudgetedSVC(budget=20, gamma=1.0, random_state=1)
    for start in (0, 100, 200):
        ref.partial_fit(X_mem[start:start + 100], y_mem[start:start + 100], classes=[0, 1, 2])
    _assert_same_model(est, ref)
    F = predict_dask(est, X, "decision_function")
    assert F.shape == (300, 3) and F.chunks == ((100, 100, 100), (3,))
    same_blocks = np.vstack([ref.decision_function(X_mem[start:start + 100]) for start in (0, 100, 200)])
    assert np.array_equal(F.compute(), same_blocks)


def test_a_dask_dataframe_is_read_as_its_array(client):
    dd = pytest.importorskip("dask.dataframe")        # pandas: not part of the dask extra
    X, y = _dask_data()
    frame, labels = dd.from_dask_array(X, columns=["a", "b"]), dd.from_dask_array(y)
    est = fit_dask(CASES["bsgd"]("fast"), frame, labels)
    ref = fit_dask(CASES["bsgd"]("fast"), X, y)
    _assert_same_model(est, ref)
    assert np.array_equal(predict_dask(est, frame).compute(), predict_dask(ref, X).compute())


def test_dask_ml_incremental_in_block_order_gives_the_same_model(client):
    wrappers = pytest.importorskip("dask_ml.wrappers")   # not part of the dask extra
    X, y = _dask_data()
    inc = wrappers.Incremental(CASES["bsgd"]("fast"), shuffle_blocks=False)
    inc.fit(X, y, classes=[-1, 1])
    _assert_same_model(inc.estimator_, fit_dask(CASES["bsgd"]("fast"), X, y))


def test_bad_input_is_named():
    X, y = da.zeros((10, 2), chunks=5), da.zeros(10, chunks=5)
    est = BudgetedSVC(gamma=1.0)
    with pytest.raises(TypeError, match="^X must be a dask array"):
        fit_dask(est, np.zeros((10, 2)), y)
    with pytest.raises(TypeError, match="partial_fit"):
        fit_dask(object(), X, y)
    with pytest.raises(ValueError, match="^epochs must be"):
        fit_dask(est, X, y, epochs=0)
    with pytest.raises(ValueError, match="^y must have 1 dimension"):
        fit_dask(est, X, X)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        fit_dask(est, X, da.zeros(9, chunks=5))
    with pytest.raises(ValueError, match="unknown length"):
        fit_dask(est, X[X[:, 0] > 0], y)
    fitted = BudgetedSVC(gamma=1.0, budget=5).fit(*checkerboard(40, random_state=0))
    with pytest.raises(ValueError, match="^method must be one of"):
        predict_dask(fitted, X, "predict_proba")
    with pytest.raises(ValueError, match="X has 3 features"):
        predict_dask(fitted, da.zeros((4, 3), chunks=2))


def _weights(X):
    """Weights made on the workers from X's first column (the same elementwise numbers in memory)."""
    return 0.5 + X[:, 0] * X[:, 0]


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_sample_weight_is_partial_fit_with_the_same_weights(client, no_gathering, backend):
    X, y = _dask_data()
    est = fit_dask(CASES["bsgd"](backend), X, y, sample_weight=_weights(X).rechunk(ROWS // 2), epochs=2)
    ref, plain = CASES["bsgd"](backend), CASES["bsgd"](backend)
    for _ in range(2):
        for Xi, yi in (_block(i) for i in range(BLOCKS)):
            ref.partial_fit(Xi, yi, classes=[-1, 1], sample_weight=_weights(Xi))
            plain.partial_fit(Xi, yi, classes=[-1, 1])
    _assert_same_model(est, ref)
    assert not np.array_equal(est.model_.coef, plain.model_.coef)          # the weights were used
    with pytest.raises(ValueError, match="X and sample_weight have inconsistent numbers of samples"):
        fit_dask(CASES["bsgd"](backend), X, y, sample_weight=da.ones(7, chunks=7))


@pytest.mark.parametrize("every, writes, where", [("3blocks", 1, (0, 3)), ("epoch", 1, (1, 0)),
                                                  ("150steps", 5, (1, 1))])
def test_a_stopped_run_resumes_at_the_next_block(client, tmp_path, monkeypatch, every, writes, where):
    X, y = _dask_data()
    make = CASES["bsgd"]
    whole = fit_dask(make("fast"), X, y, epochs=2, sample_weight=_weights(X))
    stop_after_writes(monkeypatch, writes)
    with pytest.raises(StopAtWrite):
        fit_dask(make("fast"), X, y, epochs=2, sample_weight=_weights(X), checkpoint=tmp_path / "c",
                 checkpoint_every=every)
    monkeypatch.undo()
    header = _dask_header(tmp_path / "c")
    assert (header["run"], header["epochs_done"], header["position"]) == ("fit_dask",) + where
    resumed = fit_dask(make("fast"), X, y, epochs=2, sample_weight=_weights(X), checkpoint=tmp_path / "c",
                       resume=True)
    _assert_same_model(whole, resumed)
    with pytest.raises(ValueError, match="other data"):                   # other weights
        fit_dask(make("fast"), X, y, epochs=2, checkpoint=tmp_path / "c", resume=True)


def _dask_header(path):
    import json

    return json.loads(path.read_bytes().split(b"\n")[1])


_KILLED_CLIENT = """
import sys, time
import distributed
from refsvm.dask import checkerboard_array, fit_dask
from refsvm import BudgetedSVC
address, path, rows, blocks, seed = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
""" + slow_checkpoint_writes_source(0.2) + """with distributed.Client(address):
    X, y = checkerboard_array(rows * blocks, block_rows=rows, random_state=seed)
    fit_dask(BudgetedSVC(budget=15, gamma=2.0, maintenance="merge", backend="fast", random_state=3), X, y,
             epochs=5, checkpoint=path, checkpoint_every="1blocks")
"""


def test_a_killed_client_resumes_bitwise(client, tmp_path):
    import sys

    path = tmp_path / "c"
    kill_after_checkpoints([sys.executable, "-c", _KILLED_CLIENT, client.scheduler.address, str(path), str(ROWS),
                            str(BLOCKS), str(SEED)], tmp_path, [path], 1.5)
    header = _dask_header(path)
    assert header["epochs_done"] * BLOCKS + header["position"] < 5 * BLOCKS, header   # killed before the end
    X, y = _dask_data()
    resumed = fit_dask(CASES["bsgd"]("fast"), X, y, epochs=5, checkpoint=path, resume=True)
    _assert_same_model(fit_dask(CASES["bsgd"]("fast"), X, y, epochs=5), resumed)
