"""Estimators: checkpoints inside an epoch (fit(checkpoint_every="<k>steps")) and resuming from them.

A run killed (SIGKILL, in a subprocess) at a random point of a 5-epoch run with checkpoints every 37
steps (120 rows: almost every checkpoint lies inside an epoch), then resumed, gives bit for bit every
array of the uninterrupted run's model and training state, for every solver that can stop inside an
epoch, on both backends; BSCA and SBP refuse step checkpoints naming the parameter; a checkpoint inside
an epoch is refused for other data and for too few epochs.
"""

import json
import os
import sys

import numpy as np
import pytest

from _helpers import StopAtWrite, forked_runs_script, kill_after_checkpoints, stop_after_writes
from refsvm import BudgetedSVC
from refsvm.estimators import _checkpoint

sys.path.insert(0, os.path.dirname(__file__))
from test_checkpoint import EPOCHS, MAKERS, _assert_bitwise, _data  # noqa: E402

#: the solvers that stop inside an epoch (``_mid_epoch_checkpoints``), and those that refuse
INSIDE = [name for name in MAKERS if name not in ("bsca", "sbp")]
EVERY = "37steps"


def _xy(name):
    X, y = _data(classes=3 if name == "bsgd-multiclass" else 2)
    return X, (y.astype(np.float64) if name == "fogd-regressor" else y)


def _header(path):
    return json.loads(path.read_bytes().split(b"\n")[1])


def test_the_inside_solvers_are_those_that_say_so():
    for name, make in MAKERS.items():
        assert getattr(make("fast"), "_mid_epoch_checkpoints", False) == (name in INSIDE), name


_KILLED_RUNS = forked_runs_script("""
    from test_checkpoint import MAKERS
    from test_checkpoint_inside_epoch import EVERY, _xy
""", """
    X, y = _xy(name)
    MAKERS[name](backend).fit(X, y, checkpoint=os.path.join(folder, backend + "-" + name),
                              checkpoint_every=EVERY)
""", pause=0.15)


BACKENDS = ("python", "fast")
RUNS = [f"{b}-{n}" for b in BACKENDS for n in INSIDE]


@pytest.fixture(scope="module")
def killed(tmp_path_factory):
    """All the inside solvers on both backends trained at once (a process each, forked by one subprocess),
    all killed at one random point (SIGKILL to the process group)."""
    folder = tmp_path_factory.mktemp("killed")
    # cwd outside the repository: CI tests the installed package (see test_checkpoint.py)
    kill_after_checkpoints([sys.executable, "-c", _KILLED_RUNS, os.path.dirname(__file__), str(folder),
                            ",".join(BACKENDS), ",".join(INSIDE)], folder, [folder / r for r in RUNS], 0.5)
    return folder, {r: _header(folder / r) for r in RUNS}     # (resuming rewrites the files)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", INSIDE)
def test_sigkill_inside_an_epoch_then_resume(killed, name, backend):
    folder, headers = killed
    path = folder / f"{backend}-{name}"
    assert headers[path.name]["epochs_done"] < EPOCHS   # killed before the end of this run
    X, y = _xy(name)
    make = MAKERS[name]
    resumed = make(backend).fit(X, y, checkpoint=path, resume=True)
    _assert_bitwise(make(backend).fit(X, y), resumed)
    assert len(resumed.trace_) == EPOCHS


def test_most_killed_checkpoints_lie_inside_an_epoch(killed):
    headers = killed[1]
    inside = [h["position"] > 0 for h in headers.values()]
    assert sum(inside) >= len(RUNS) // 2, headers   # 120 rows, 37 steps: only the last one falls on a boundary


@pytest.mark.parametrize("name", ["fogd", "fogd-regressor"])
def test_draws_inside_the_first_segment_are_kept(name, tmp_path, monkeypatch):
    """FOGD draws its random directions at the first step, after the order: a resumed first epoch must
    continue the generator from after that draw (its state at the checkpoint), not redraw from before."""
    X, y = _xy(name)
    make = MAKERS[name]
    whole = make("python").fit(X, y)
    stop_after_writes(monkeypatch, 1)
    with pytest.raises(StopAtWrite):
        make("python").fit(X, y, checkpoint=tmp_path / "c", checkpoint_every=EVERY)
    monkeypatch.undo()
    assert (_header(tmp_path / "c")["epochs_done"], _header(tmp_path / "c")["position"]) == (0, 37)
    _assert_bitwise(whole, make("python").fit(X, y, checkpoint=tmp_path / "c", resume=True))


def test_checkpoints_do_not_change_the_run(tmp_path):
    X, y = _data()
    plain = BudgetedSVC(budget=10, gamma=2.0, epochs=3, random_state=1).fit(X, y)
    with_ck = BudgetedSVC(budget=10, gamma=2.0, epochs=3, random_state=1).fit(
        X, y, checkpoint=tmp_path / "c", checkpoint_every="7steps")
    _assert_bitwise(plain, with_ck)
    assert _header(tmp_path / "c")["epochs_done"] == 3 and _header(tmp_path / "c")["position"] == 0


def test_steps_count_over_the_epochs(tmp_path, monkeypatch):
    X, y = _data()                                  # 120 rows: checkpoints at steps 50, 100, ..., 350 and the end
    seen = []
    write = _checkpoint.write_checkpoint
    monkeypatch.setattr(_checkpoint, "write_checkpoint",
                        lambda path, est, fp, done, state, in_pass=None: seen.append(
                            (done, 0 if in_pass is None else in_pass["position"])))
    BudgetedSVC(budget=10, gamma=2.0, epochs=3, random_state=1).fit(X, y, checkpoint=tmp_path / "c",
                                                                    checkpoint_every="50steps")
    monkeypatch.setattr(_checkpoint, "write_checkpoint", write)
    expected = [divmod(s, 120) for s in range(50, 360, 50)] + [(3, 0)]
    assert seen == expected


def test_verbose_and_checkpoints_together_resume_bitwise(tmp_path, monkeypatch, capsys):
    X, y = _data()
    make = MAKERS["projectron++"]
    whole = make("fast").fit(X, y)
    stop_after_writes(monkeypatch, 7)
    with pytest.raises(StopAtWrite):
        make("fast").set_params(verbose=2).fit(X, y, checkpoint=tmp_path / "c", checkpoint_every="29steps")
    monkeypatch.undo()
    assert _header(tmp_path / "c")["position"] > 0
    _assert_bitwise(whole, make("fast").fit(X, y, checkpoint=tmp_path / "c", resume=True))


@pytest.mark.parametrize("name", ["bsca", "sbp"])
def test_solvers_that_cannot_stop_inside_an_epoch_refuse_steps(name, tmp_path):
    X, y = _data()
    with pytest.raises(ValueError, match=r"checkpoint_every='100steps': .* cannot stop inside an epoch"):
        MAKERS[name]("fast").fit(X, y, checkpoint=tmp_path / "c", checkpoint_every="100steps")


def test_bad_steps_are_refused_naming_the_parameter(tmp_path):
    X, y = _data()
    for every in ("0steps", "steps", "-5steps", "1.5steps", "5 steps"):
        with pytest.raises(ValueError, match="checkpoint_every"):
            BudgetedSVC(budget=10).fit(X, y, checkpoint=tmp_path / "c", checkpoint_every=every)


def _inside_checkpoint(tmp_path, monkeypatch):
    X, y = _data()
    stop_after_writes(monkeypatch, 3)               # written at steps 50, 100, 150
    with pytest.raises(StopAtWrite):
        BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1).fit(X, y, checkpoint=tmp_path / "c",
                                                                        checkpoint_every="50steps")
    monkeypatch.undo()
    header = _header(tmp_path / "c")
    assert (header["epochs_done"], header["position"]) == (1, 30)     # step 150 = epoch 2, position 30
    return X, y, tmp_path / "c"


def test_an_inside_checkpoint_is_refused_for_other_data_and_too_few_epochs(tmp_path, monkeypatch):
    X, y, path = _inside_checkpoint(tmp_path, monkeypatch)
    with pytest.raises(ValueError, match="other data"):
        BudgetedSVC(budget=10, gamma=2.0, epochs=4, random_state=1).fit(X[:-1], y[:-1], checkpoint=path,
                                                                        resume=True)
    with pytest.raises(ValueError, match="1 completed epochs and 30 steps of the next; epochs=1 is fewer"):
        BudgetedSVC(budget=10, gamma=2.0, epochs=1, random_state=1).fit(X, y, checkpoint=path, resume=True)
    with pytest.raises(ValueError, match=r"other parameters: budget=10 there, 12 here"):
        BudgetedSVC(budget=12, gamma=2.0, epochs=4, random_state=1).fit(X, y, checkpoint=path, resume=True)
    # epochs may grow, and the checkpoint interval may change: the same run
    five = BudgetedSVC(budget=10, gamma=2.0, epochs=5, random_state=1).fit(X, y)
    _assert_bitwise(five, BudgetedSVC(budget=10, gamma=2.0, epochs=5, random_state=1).fit(
        X, y, checkpoint=path, checkpoint_every="epoch", resume=True))


def test_seconds_stop_inside_an_epoch_for_the_inside_solvers(tmp_path, monkeypatch):
    X, y = np.repeat(_data()[0], 200, axis=0), np.repeat(_data()[1], 200)   # 24000 rows: 3 stops per epoch
    clock = iter(range(0, 10_000, 10))               # each look at the clock 10 s later
    monkeypatch.setattr(_checkpoint.time, "monotonic", lambda: next(clock))
    seen = []
    monkeypatch.setattr(_checkpoint, "write_checkpoint", lambda path, est, fp, done, state, in_pass=None: seen.append(
        (done, 0 if in_pass is None else in_pass["position"])))
    BudgetedSVC(budget=10, gamma=2.0, epochs=1, random_state=1, backend="fast").fit(
        X, y, checkpoint=tmp_path / "c", checkpoint_every="5s")
    assert seen == [(0, 10_000), (0, 20_000), (1, 0)]
