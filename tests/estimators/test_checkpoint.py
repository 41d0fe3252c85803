"""Estimators: checkpoints at epoch boundaries and resuming from them (fit(checkpoint=..., resume=True)).

A run interrupted after some epochs and resumed from its checkpoint gives bit for bit every array of
the uninterrupted run's model and training state; checkpoints of other data / parameters / versions,
corrupt or truncated files are refused naming why; an interrupted write leaves the old checkpoint.
"""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm import BudgetedSVC
from refsvm.estimators import _checkpoint
from refsvm.estimators.bsca import BSCAClassifier
from refsvm.estimators.ogd import FOGDClassifier, FOGDRegressor, NOGDClassifier
from refsvm.estimators.online import OnlineKernelClassifier
from refsvm.estimators.sbp import SBPClassifier
from refsvm.io.datasets import checkerboard

EPOCHS = 5


def _data(n=120, classes=2):
    X, y = checkerboard(n, random_state=3)
    if classes > 2:
        y = (np.arange(n) % classes).astype(np.int64)
    return X, y


def _makers():
    common = dict(epochs=EPOCHS, random_state=7)
    yield "bsgd", lambda b: BudgetedSVC(budget=10, gamma=2.0, backend=b, **common)
    yield "bsgd-multiclass", lambda b: BudgetedSVC(budget=10, gamma=2.0, backend=b, **common)
    # the draws u_t of random removal: resumed inside an epoch from the pass's offset (the carry's "done")
    yield "bsgd-random-removal", lambda b: BudgetedSVC(budget=10, gamma=2.0, maintenance="random-removal", backend=b,
                                                       **common)
    yield "bsca", lambda b: BSCAClassifier(budget=10, gamma=2.0, backend=b, **common)
    yield "sbp", lambda b: SBPClassifier(nu=0.1, gamma=2.0, backend=b, **common)
    yield "fogd", lambda b: FOGDClassifier(n_components=20, gamma=2.0, backend=b, **common)
    yield "nogd", lambda b: NOGDClassifier(budget=10, gamma=2.0, backend=b, **common)
    for algorithm in ("perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd"):
        yield algorithm, (lambda a: lambda b: OnlineKernelClassifier(a, budget=10, gamma=2.0, backend=b,
                                                                     **common))(algorithm)
    yield "fogd-regressor", lambda b: FOGDRegressor(n_components=20, gamma=2.0, eta=0.01, backend=b, **common)


MAKERS = dict(_makers())


def _state_arrays(est):
    """Every array (and number) among the fitted attributes, nested containers flattened, by name."""
    out = {}

    def walk(name, value):
        if isinstance(value, np.ndarray):
            out[name] = value
        elif isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
            out[name] = np.asarray(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(f"{name}.{k}", v)
        elif isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                walk(f"{name}[{i}]", v)

    for key, value in vars(est).items():
        if key.endswith("_") and not key.startswith("__") and key not in ("trace_", "solver_seconds_", "monitor_"):
            walk(key, value)
    out["rng"] = np.asarray(str(est._rng.bit_generator.state))
    return out


def _assert_bitwise(a, b):
    sa, sb = _state_arrays(a), _state_arrays(b)
    assert sa.keys() == sb.keys()
    for key in sa:
        assert sa[key].dtype == sb[key].dtype, key
        assert sa[key].shape == sb[key].shape, key
        assert sa[key].tobytes() == sb[key].tobytes(), key


class _Interrupt(Exception):
    pass


def _interrupt_after(monkeypatch, est, k):
    """Make ``est``'s class raise after k passes (as a kill between two epochs would end the run)."""
    cls = type(est)
    original, calls = cls._one_pass, [0]

    def one_pass(self, *args):
        if calls[0] == k:
            raise _Interrupt
        calls[0] += 1
        return original(self, *args)

    monkeypatch.setattr(cls, "_one_pass", one_pass)


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("name", list(MAKERS))
def test_resume_gives_the_uninterrupted_model(name, backend, tmp_path, monkeypatch):
    X, y = _data(classes=3 if name == "bsgd-multiclass" else 2)
    if name == "fogd-regressor":
        y = y.astype(np.float64)
    make = MAKERS[name]
    whole = make(backend).fit(X, y)
    path = tmp_path / "run.ckpt"
    first = make(backend)
    _interrupt_after(monkeypatch, first, 2)
    with pytest.raises(_Interrupt):
        first.fit(X, y, checkpoint=path)
    monkeypatch.undo()
    assert json.loads(path.read_bytes().split(b"\n")[1])["epochs_done"] == 2
    resumed = make(backend).fit(X, y, checkpoint=path, resume=True)
    _assert_bitwise(whole, resumed)
    assert len(resumed.trace_) == EPOCHS


def test_an_uninterrupted_run_with_checkpoints_is_the_run_without(tmp_path):
    X, y = _data()
    plain = BudgetedSVC(budget=10, gamma=2.0, epochs=3, random_state=1).fit(X, y)
    with_ck = BudgetedSVC(budget=10, gamma=2.0, epochs=3, random_state=1).fit(X, y, checkpoint=tmp_path / "c",
                                                                              checkpoint_every=2)
    _assert_bitwise(plain, with_ck)


def test_resume_with_more_epochs_continues_the_same_run(tmp_path):
    X, y = _data()
    five = BudgetedSVC(budget=10, gamma=2.0, epochs=5, random_state=1).fit(X, y)
    path = tmp_path / "c"
    BudgetedSVC(budget=10, gamma=2.0, epochs=3, random_state=1).fit(X, y, checkpoint=path)
    three = path.read_bytes()
    more = BudgetedSVC(budget=10, gamma=2.0, epochs=5, random_state=1).fit(X, y, checkpoint=path, resume=True)
    _assert_bitwise(five, more)
    path.write_bytes(three)
    with pytest.raises(ValueError, match="3 completed epochs; epochs=2"):
        BudgetedSVC(budget=10, gamma=2.0, epochs=2, random_state=1).fit(X, y, checkpoint=path, resume=True)


def test_sparse_input_resumes_bitwise(tmp_path, monkeypatch):
    X, y = _data()
    X = sp.csr_matrix(np.where(np.abs(X) < 0.3, 0.0, X))
    make = MAKERS["nogd"]
    whole = make("fast").fit(X, y)
    first = make("fast")
    _interrupt_after(monkeypatch, first, 3)
    with pytest.raises(_Interrupt):
        first.fit(X, y, checkpoint=tmp_path / "c")
    monkeypatch.undo()
    _assert_bitwise(whole, make("fast").fit(X, y, checkpoint=tmp_path / "c", resume=True))


def _checkpointed(tmp_path, epochs=2):
    X, y = _data()
    path = tmp_path / "c"
    BudgetedSVC(budget=10, gamma=2.0, epochs=epochs, random_state=1).fit(X, y, checkpoint=path)
    return X, y, path


def test_mismatches_are_refused_naming_which(tmp_path):
    X, y, path = _checkpointed(tmp_path)
    est = BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1)
    with pytest.raises(ValueError, match="other data"):
        est.fit(X[::-1], y[::-1], checkpoint=path, resume=True)
    with pytest.raises(ValueError, match="other data"):
        est.fit(X, y, sample_weight=np.full(len(y), 2.0), checkpoint=path, resume=True)
    with pytest.raises(ValueError, match=r"other parameters: budget=10 there, 11 here"):
        BudgetedSVC(budget=11, gamma=2.0, epochs=4, random_state=1).fit(X, y, checkpoint=path, resume=True)
    with pytest.raises(ValueError, match="random_state=1 there, 2 here"):
        BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=2).fit(X, y, checkpoint=path, resume=True)
    with pytest.raises(ValueError, match="backend='fast' there, 'python' here"):
        BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1, backend="python").fit(
            X, y, checkpoint=path, resume=True)
    with pytest.raises(ValueError, match="estimator 'BudgetedSVC'; this run has 'NOGDClassifier'"):
        NOGDClassifier(budget=10, gamma=2.0, epochs=4).fit(X, y, checkpoint=path, resume=True)
    # verbose may differ: same remaining models
    BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1, verbose=0).fit(X, y, checkpoint=path, resume=True)


def _rewrite_header(path, **changes):
    raw = path.read_bytes()
    magic, header, payload = raw.split(b"\n", 2)
    fields = json.loads(header)
    fields.update(changes)
    path.write_bytes(magic + b"\n" + json.dumps(fields).encode() + b"\n" + payload)


def test_other_version_or_schema_is_refused(tmp_path):
    X, y, path = _checkpointed(tmp_path)
    est = BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1)
    _rewrite_header(path, version="0.0.1")
    with pytest.raises(ValueError, match="refsvm version '0.0.1'"):
        est.fit(X, y, checkpoint=path, resume=True)
    _rewrite_header(path, version=_checkpoint.__version__, schema="refsvm-checkpoint v0")
    with pytest.raises(ValueError, match="schema 'refsvm-checkpoint v0'"):
        est.fit(X, y, checkpoint=path, resume=True)


def test_corrupt_files_are_refused_with_one_line(tmp_path):
    X, y, path = _checkpointed(tmp_path)
    raw = path.read_bytes()
    est = BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1)
    path.write_bytes(raw[:-10])
    with pytest.raises(ValueError, match=r"corrupt: truncated \(\d+ of \d+ payload bytes\)") as info:
        est.fit(X, y, checkpoint=path, resume=True)
    assert "\n" not in str(info.value)
    path.write_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))
    with pytest.raises(ValueError, match="sha256 does not match"):
        est.fit(X, y, checkpoint=path, resume=True)
    path.write_bytes(raw[:25])
    with pytest.raises(ValueError, match="corrupt"):
        est.fit(X, y, checkpoint=path, resume=True)
    path.write_bytes(b"hello")
    with pytest.raises(ValueError, match="not a refsvm checkpoint"):
        est.fit(X, y, checkpoint=path, resume=True)
    with pytest.raises(ValueError, match="no checkpoint file"):
        est.fit(X, y, checkpoint=tmp_path / "absent", resume=True)


def test_bad_options_are_refused_naming_them(tmp_path):
    X, y = _data()
    est = BudgetedSVC(budget=10, gamma=2.0)
    for every in (0, -1, True, 1.5, "1h", "xs", "-3s"):
        with pytest.raises(ValueError, match="checkpoint_every"):
            est.fit(X, y, checkpoint=tmp_path / "c", checkpoint_every=every)
    with pytest.raises(ValueError, match="resume=True needs checkpoint"):
        est.fit(X, y, resume=True)
    with pytest.raises(ValueError, match="resume must be True or False"):
        est.fit(X, y, checkpoint=tmp_path / "c", resume="yes")
    with pytest.raises(TypeError, match="checkpoint must be a path"):
        est.fit(X, y, checkpoint=3)


def test_seconds_mode_writes_at_the_first_boundary_after_the_interval(tmp_path, monkeypatch):
    X, y = _data()
    clock = iter(range(0, 1000, 10))                # each call 10 s later
    monkeypatch.setattr(_checkpoint.time, "monotonic", lambda: next(clock))
    written = []
    monkeypatch.setattr(_checkpoint, "write_checkpoint", lambda path, est, fp, done, state: written.append(done))
    BudgetedSVC(budget=10, gamma=2.0, epochs=5, random_state=1).fit(X, y, checkpoint=tmp_path / "c",
                                                                    checkpoint_every="15s")
    assert written == [2, 4, 5]                     # 20 s after the previous one; the last epoch always


def test_an_interrupted_write_keeps_the_old_checkpoint(tmp_path, monkeypatch):
    X, y, path = _checkpointed(tmp_path, epochs=2)
    old = path.read_bytes()

    def failing_replace(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(_checkpoint.os, "replace", failing_replace)
    with pytest.raises(KeyboardInterrupt):
        BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1).fit(X, y, checkpoint=path, resume=True)
    monkeypatch.undo()
    assert path.read_bytes() == old
    assert sorted(os.listdir(tmp_path)) == ["c"]             # no temporary file left
    whole = BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1).fit(X, y)
    _assert_bitwise(whole, BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1).fit(
        X, y, checkpoint=path, resume=True))


_KILLED_RUN = textwrap.dedent("""
    import sys, time
    import numpy as np
    from refsvm.estimators.bsca import BSCAClassifier
    from refsvm.io.datasets import checkerboard
    X, y = checkerboard(120, random_state=3)
    est = BSCAClassifier(budget=10, gamma=2.0, epochs=5, random_state=7, backend=sys.argv[2])
    original = BSCAClassifier._one_pass
    def slow(self, *args):
        out = original(self, *args)
        time.sleep(0.3)                          # room for the kill between epochs and inside writes
        return out
    BSCAClassifier._one_pass = slow
    est.fit(X, y, checkpoint=sys.argv[1])
""")


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_sigkill_after_a_checkpoint_then_resume(backend, tmp_path):
    path = tmp_path / "run.ckpt"
    # cwd outside the repository: `python -c` puts the working directory first on sys.path, and CI tests
    # the installed package (the source tree has no compiled modules there)
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_RUN, str(path), backend], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 120
        while not path.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.01)
        time.sleep(np.random.default_rng().uniform(0.0, 0.5))   # a random point after the first checkpoint
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    done = json.loads(path.read_bytes().split(b"\n")[1])["epochs_done"]
    assert 1 <= done < 5
    X, y = _data()
    make = MAKERS["bsca"]
    _assert_bitwise(make(backend).fit(X, y), make(backend).fit(X, y, checkpoint=path, resume=True))
