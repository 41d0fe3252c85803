"""Subject: io -- FOGD and NOGD trained from a LIBSVM file in chunks (refsvm.fit_stream, refsvm train --stream);
the traces a stream keeps.

A streamed run in file order is ``partial_fit`` over the same chunks, bitwise, on both backends; the
command's streamed model is the library's; ``gamma="scale"`` comes from the whole file.  The
in-memory comparison reads the file with :func:`refsvm.io.libsvm.read_libsvm` (not the streamed
reader) and slices it itself.
"""

import numpy as np
import pytest

from refsvm import FOGDClassifier, NOGDClassifier
from refsvm.cli import main
from refsvm.io.libsvm import read_libsvm
from refsvm.io.stream import scan_libsvm
from refsvm.stream import fit_stream, gamma_scale
from _helpers import libsvm_text


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(11)
    X = rng.uniform(-1, 1, size=(180, 5))
    X[rng.random(X.shape) < 0.2] = 0.0
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    path = tmp_path / "train.txt"
    path.write_text(libsvm_text(X, y))
    return path


def _arrays(model):
    """Every array and number of a FourierModel / NystromModel (None kept as None; not the file's
    metadata: params, estimator, version)."""
    out = {}
    for name, value in vars(model).items():
        if name in ("params", "estimator", "version"):
            continue
        if hasattr(value, "toarray"):
            value = value.toarray()
        out[name] = value
    return out


def _same(a, b):
    left, right = _arrays(a), _arrays(b)
    assert left.keys() == right.keys()
    for name in left:
        u, v = left[name], right[name]
        if u is None or v is None:
            if not (u is None and v is None):
                return False
        elif not np.array_equal(np.asarray(u), np.asarray(v)):
            return False
    return True


MAKERS = {
    "fogd": lambda backend: FOGDClassifier(n_components=40, gamma=0.7, backend=backend, random_state=3, verbose=0),
    "nogd": lambda backend: NOGDClassifier(budget=20, rank=5, gamma=0.7, backend=backend, random_state=3, verbose=0),
}


@pytest.mark.parametrize("backend", ["fast", "python"])
@pytest.mark.parametrize("solver", sorted(MAKERS))
def test_streamed_is_partial_fit_over_the_chunks(data, solver, backend):
    make = MAKERS[solver]
    X, y = read_libsvm(data, sparse=True)
    streamed = fit_stream(make(backend), data, epochs=2, chunk_rows=40, random_state=5)
    memory = make(backend)
    for _ in range(2):
        for start in range(0, X.shape[0], 40):
            memory.partial_fit(X[start:start + 40], y[start:start + 40], classes=np.array([-1, 1]))
    assert _same(streamed.model_, memory.model_)
    assert streamed.t_ == memory.t_ == 2 * X.shape[0]
    whole = fit_stream(make(backend), data, epochs=2, chunk_rows=1000)
    assert not _same(streamed.model_, whole.model_)          # the chunks matter: the test can tell


@pytest.mark.parametrize("solver", sorted(MAKERS))
def test_gamma_scale_from_the_whole_file(data, solver):
    est = MAKERS[solver]("fast").set_params(gamma="scale")
    fit_stream(est, data, chunk_rows=30)
    X, _ = read_libsvm(data)
    assert est.gamma == "scale"
    assert est.gamma_ == gamma_scale(scan_libsvm(data, chunk_rows=30))
    assert est.gamma_ == pytest.approx(1.0 / (X.shape[1] * X.var()), rel=1e-13)
    first = 1.0 / (X.shape[1] * X[:30].var())
    assert est.gamma_ != pytest.approx(first, rel=1e-6)      # not the first chunk's


@pytest.mark.parametrize("backend", ["fast", "python"])
@pytest.mark.parametrize("solver", sorted(MAKERS))
def test_command_streams_fogd_and_nogd(tmp_path, data, capsys, solver, backend):
    model = tmp_path / "m.npz"
    options = ["--n-components", "40"] if solver == "fogd" else ["--budget", "20", "--rank", "5"]
    assert main(["train", str(data), str(model), "--stream", "--chunk-rows", "25", "--solver", solver,
                 "--gamma", "0.7", "--epochs", "2", "--backend", backend, "--random-state", "3", "--quiet",
                 "--test", str(data)] + options) == 0
    out = capsys.readouterr().out
    assert "(streamed)" in out and "test accuracy:" in out
    est = MAKERS[solver](backend)
    library = fit_stream(est, data, epochs=2, chunk_rows=25, random_state=3)
    saved = type(est).load(model)
    assert _same(saved.model_, library.model_)
    X, y = read_libsvm(data)
    assert f"training accuracy: {np.mean(library.predict(X) == y):.4f} (streamed)" in out


def test_stream_keeps_only_the_last_trace(data):
    """A trace per partial_fit call grows with the rows (BSGD's events); kept whole over a long file
    they outgrew the model (a 5 GiB pass passed 450 MB), so fit_stream keeps the last call's only."""
    from refsvm import BudgetedSVC

    make = lambda: BudgetedSVC(budget=10, gamma=0.7, random_state=0, verbose=0)  # noqa: E731
    kept = fit_stream(make(), data, epochs=2, chunk_rows=20)
    everything = fit_stream(make(), data, epochs=2, chunk_rows=20, keep_traces="all")
    calls = 2 * -(-180 // 20)
    assert len(everything.trace_) == calls and len(kept.trace_) == 1
    assert kept.trace_[0].keys() == everything.trace_[-1].keys()
    assert all(np.array_equal(kept.trace_[0][k], everything.trace_[-1][k], equal_nan=True)
               for k in kept.trace_[0]
               if isinstance(kept.trace_[0][k], (np.ndarray, float)) and not k.endswith("seconds"))
    assert np.array_equal(kept.model_.coef, everything.model_.coef)     # the model does not change
    with pytest.raises(ValueError, match="keep_traces must be 'last' or 'all'"):
        fit_stream(make(), data, keep_traces="some")
