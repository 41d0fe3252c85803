"""Subject: io -- fit_stream without its pre-pass (classes, n_features with pad_features and a numeric gamma given).

The file is then read once per epoch and no more: the model is bitwise the one trained after the
pre-pass (file order and shuffle buffer, both backends); anything that needs the pre-pass still makes
it; a wider file or an empty one is still an error naming the file.
"""

import numpy as np
import pytest

import refsvm.io.stream as io_stream
import refsvm.stream as stream
from refsvm import BudgetedSVC, FOGDRegressor
from refsvm.stream import fit_stream
from _helpers import libsvm_text

N, D = 150, 5


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(N, D))
    X[:, D - 1] = 0.0                       # the file's highest index is D - 1: pad_features matters
    X[rng.random(X.shape) < 0.3] = 0.0
    y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)
    path = tmp_path / "d.txt"
    path.write_text(libsvm_text(X, y))
    return path


def _no_scan(monkeypatch):
    def refuse(*args, **kw):
        raise AssertionError("the pre-pass ran")
    monkeypatch.setattr(stream, "scan_libsvm", refuse)
    monkeypatch.setattr(io_stream, "scan_libsvm", refuse)


def _svc(backend):
    return BudgetedSVC(budget=8, gamma=0.5, random_state=1, backend=backend, verbose=0)


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("shuffle", ["none", "buffer"])
def test_skipped_prepass_gives_the_same_model(data, monkeypatch, backend, shuffle):
    options = dict(epochs=2, chunk_rows=20, shuffle=shuffle, buffer_rows=15, random_state=4, n_features=D,
                   pad_features=True)
    with_prepass = fit_stream(_svc(backend), data, **options)
    _no_scan(monkeypatch)
    without = fit_stream(_svc(backend), data, classes=np.array([-1.0, 1.0]), **options)
    assert np.array_equal(without.classes_, with_prepass.classes_)
    assert np.array_equal(without.model_.coef, with_prepass.model_.coef)
    sv = lambda e: e.model_.support_vectors.toarray() if hasattr(e.model_.support_vectors, "toarray") \
        else np.asarray(e.model_.support_vectors)  # noqa: E731
    assert np.array_equal(sv(without), sv(with_prepass))


def test_a_regressor_needs_no_classes(data, monkeypatch):
    make = lambda: FOGDRegressor(n_components=10, gamma=0.5, random_state=1, verbose=0)  # noqa: E731
    with_prepass = fit_stream(make(), data, chunk_rows=20, n_features=D, pad_features=True)
    _no_scan(monkeypatch)
    without = fit_stream(make(), data, chunk_rows=20, n_features=D, pad_features=True)
    X = np.eye(D)
    assert np.array_equal(without.predict(X), with_prepass.predict(X))


@pytest.mark.parametrize("kw", [dict(classes=None), dict(pad_features=False), dict(shuffle="chunks"),
                                dict(gamma="scale")])
def test_whatever_needs_the_prepass_makes_it(data, monkeypatch, kw):
    ran = []
    real = stream.scan_libsvm
    monkeypatch.setattr(stream, "scan_libsvm", lambda *a, **k: ran.append(1) or real(*a, **k))
    est = _svc("fast")
    if "gamma" in kw:
        est.set_params(gamma=kw.pop("gamma"))
    options = dict(chunk_rows=20, n_features=D, pad_features=True, classes=np.array([-1.0, 1.0]))
    if kw.get("pad_features") is False:         # the pre-pass finds the file narrower than n_features
        with pytest.raises(ValueError, match="allow zero-padding"):
            fit_stream(est, data, **{**options, **kw})
    else:
        fit_stream(est, data, **{**options, **kw})
    assert ran == [1]


def test_errors_without_the_prepass(data, tmp_path):
    with pytest.raises(ValueError, match=r"d.txt: lines 1-20 hold feature index 4, more than the 3 features"):
        fit_stream(_svc("fast"), data, chunk_rows=20, n_features=3, pad_features=True, classes=[-1.0, 1.0])
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(ValueError, match="empty.txt: holds no examples"):
        fit_stream(_svc("fast"), empty, chunk_rows=20, n_features=3, pad_features=True, classes=[-1.0, 1.0])
    with pytest.raises(ValueError, match="prepass=False needs n_features"):
        next(io_stream.iter_libsvm(data, n_features=D, prepass=False))
