"""Subject: io -- checkpoints of a streamed run (refsvm.stream.fit_stream(checkpoint=..., resume=True)).

A streamed 5-epoch run killed (SIGKILL, in a subprocess) at a random point and resumed from its last
checkpoint (written between two partial_fit calls) gives bit for bit every array of the uninterrupted
run's model and training state, for every solver with partial_fit, on both backends, with a shuffled
chunk order and with a shuffle buffer (whose skipped chunks are read again); checkpoints of another
file, other stream options or another kind of run are refused naming why; runs without a checkpoint
are unchanged by one.
"""

import json
import os
import sys

import numpy as np
import pytest

from _helpers import StopAtWrite, forked_runs_script, kill_after_checkpoints, stop_after_writes

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "estimators"))
from test_checkpoint import EPOCHS, MAKERS, _assert_bitwise  # noqa: E402

from refsvm.io.datasets import checkerboard  # noqa: E402
from refsvm.stream import fit_stream  # noqa: E402

#: every solver with partial_fit (SBP has none), each with a shuffle: chunk order, or a buffer (re-read)
NAMES = [name for name in MAKERS if name != "sbp"]
SHUFFLE = {name: ("both" if i % 2 else "chunks") for i, name in enumerate(NAMES)}
BACKENDS = ("python", "fast")
RUNS = [f"{b}-{n}" for b in BACKENDS for n in NAMES]
OPTIONS = dict(epochs=EPOCHS, chunk_rows=8, buffer_rows=6, random_state=5)
ROWS = 60


def write_file(path, name):
    """A LIBSVM file of ROWS checkerboard rows (3 classes for the multi-class run, real targets for the
    regressor)."""
    X, y = checkerboard(ROWS, random_state=3)
    if name == "bsgd-multiclass":
        y = np.arange(ROWS) % 3
    y = y.astype(np.float64) * (1.25 if name == "fogd-regressor" else 1.0)
    with open(path, "w") as fh:
        for row, label in zip(X, y):
            fh.write(f"{label:.17g} " + " ".join(f"{j + 1}:{v:.17g}" for j, v in enumerate(row)) + "\n")
    return path


def run(name, backend, data, **kw):
    return fit_stream(MAKERS[name](backend), data, shuffle=SHUFFLE[name], **OPTIONS, **kw)


_KILLED_RUNS = forked_runs_script("""
    from test_stream_checkpoint import run
""", """
    data = os.path.join(folder, name + ".txt")
    run(name, backend, data, checkpoint=os.path.join(folder, backend + "-" + name), checkpoint_every="1chunks")
""", pause=0.05)


def _header(path):
    return json.loads(path.read_bytes().split(b"\n")[1])


@pytest.fixture(scope="module")
def killed(tmp_path_factory):
    """All the runs at once (a process each, forked by one subprocess), killed at one random point."""
    folder = tmp_path_factory.mktemp("killed-stream")
    for name in NAMES:
        write_file(folder / f"{name}.txt", name)
    kill_after_checkpoints([sys.executable, "-c", _KILLED_RUNS, os.path.dirname(__file__), str(folder),
                            ",".join(BACKENDS), ",".join(NAMES)], folder, [folder / r for r in RUNS], 1.0)
    return folder, {r: _header(folder / r) for r in RUNS}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_sigkill_then_resume_is_the_uninterrupted_run(killed, name, backend):
    folder, headers = killed
    header = headers[f"{backend}-{name}"]
    assert header["run"] == "fit_stream"
    assert header["epochs_done"] < EPOCHS, header            # killed before the end of this run
    data = folder / f"{name}.txt"
    resumed = run(name, backend, data, checkpoint=folder / f"{backend}-{name}", resume=True)
    _assert_bitwise(run(name, backend, data), resumed)


def test_most_killed_checkpoints_lie_inside_an_epoch(killed):
    inside = [h["position"] > 0 for h in killed[1].values()]
    assert sum(inside) >= len(RUNS) // 2, killed[1]        # 8 chunks an epoch: most stops are inside one


@pytest.mark.parametrize("shuffle, every, writes", [("none", "3chunks", 2), ("buffer", "20steps", 3),
                                                     ("buffer", "epoch", 2),
                                                     ("interleave", "2chunks", 3)])
def test_resume_after_the_k_th_write(tmp_path, monkeypatch, shuffle, every, writes):
    data = write_file(tmp_path / "d.txt", "bsgd")
    make = MAKERS["bsgd"]
    whole = fit_stream(make("fast"), data, shuffle=shuffle, **OPTIONS)
    stop_after_writes(monkeypatch, writes)
    with pytest.raises(StopAtWrite):
        fit_stream(make("fast"), data, shuffle=shuffle, checkpoint=tmp_path / "c", checkpoint_every=every,
                   **OPTIONS)
    monkeypatch.undo()
    header = _header(tmp_path / "c")
    assert header["position"] == 0 if every == "epoch" else header["epochs_done"] + header["position"] > 0
    for _ in range(4 * EPOCHS):          # resumed runs stopped again after their second write, then one to the end
        resumed = make("fast")
        try:
            with monkeypatch.context() as patch:
                stop_after_writes(patch, 2)
                fit_stream(resumed, data, shuffle=shuffle, checkpoint=tmp_path / "c", checkpoint_every=every,
                           resume=True, **OPTIONS)
            break
        except StopAtWrite:
            pass
    _assert_bitwise(whole, resumed)


def test_checkpoints_do_not_change_the_run(tmp_path):
    data = write_file(tmp_path / "d.txt", "nogd")
    plain = run("nogd", "fast", data)
    _assert_bitwise(plain, run("nogd", "fast", data, checkpoint=tmp_path / "c", checkpoint_every="1chunks"))
    header = _header(tmp_path / "c")
    assert (header["epochs_done"], header["position"]) == (EPOCHS, 0)


def test_mismatching_checkpoints_are_refused(tmp_path):
    data = write_file(tmp_path / "d.txt", "bsgd")
    other = write_file(tmp_path / "o.txt", "bsgd-multiclass")
    run("bsgd", "fast", data, checkpoint=tmp_path / "c")
    with pytest.raises(ValueError, match="other data"):
        run("bsgd", "fast", other, checkpoint=tmp_path / "c", resume=True)
    for option in (dict(chunk_rows=20), dict(shuffle="none"), dict(random_state=6)):   # other stream options
        with pytest.raises(ValueError, match="other data"):
            fit_stream(MAKERS["bsgd"]("fast"), data, **{**OPTIONS, "shuffle": SHUFFLE["bsgd"], **option},
                       checkpoint=tmp_path / "c", resume=True)
    with pytest.raises(ValueError, match="other parameters: budget"):
        fit_stream(MAKERS["bsgd"]("fast").set_params(budget=11), data, **OPTIONS, shuffle=SHUFFLE["bsgd"],
                   checkpoint=tmp_path / "c", resume=True)
    with pytest.raises(ValueError, match="written by fit_stream; this run is fit"):
        MAKERS["bsgd"]("fast").fit(*checkerboard(ROWS, random_state=3), checkpoint=tmp_path / "c", resume=True)
    with pytest.raises(ValueError, match="epochs=2 is fewer"):
        fit_stream(MAKERS["bsgd"]("fast"), data, **dict(OPTIONS, epochs=2), shuffle=SHUFFLE["bsgd"],
                   checkpoint=tmp_path / "c", resume=True)


@pytest.mark.parametrize("kw, message", [
    (dict(checkpoint_every="3blocks"), "checkpoint_every must be"),
    (dict(resume=True), "resume=True needs checkpoint"),
    (dict(resume="yes", checkpoint="c"), "resume must be True or False"),
])
def test_bad_options_are_named(tmp_path, kw, message):
    data = write_file(tmp_path / "d.txt", "bsgd")
    kw = dict(kw)
    if "checkpoint" in kw or "checkpoint_every" in kw:
        kw["checkpoint"] = tmp_path / "c"
    with pytest.raises(ValueError, match=message):
        run("bsgd", "python", data, **kw)
