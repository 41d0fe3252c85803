"""The command line under failure: one-line errors, exit codes, Ctrl-C, early checks, --help.

File-format errors themselves are in tests/io/test_libsvm_files.py and
tests/io/test_model_files.py; this file checks how ``refsvm`` reports failures
and that it checks what it can before spending time on training.
"""

import argparse
import re
import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from refsvm import BudgetedSVC
from refsvm.cli import build_parser, main
from refsvm.datasets import checkerboard


@pytest.fixture
def train_file(tmp_path):
    X, y = checkerboard(60, random_state=0)
    path = tmp_path / "train.txt"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    return path


@pytest.fixture
def fit_must_not_run(monkeypatch):
    def fit(self, X, y):
        pytest.fail("training started although the model path cannot be written")

    monkeypatch.setattr(BudgetedSVC, "fit", fit)


def run(argv):
    """``main(argv)``; a KeyboardInterrupt escaping it fails the test (instead of stopping pytest)."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        pytest.fail("KeyboardInterrupt escaped refsvm.cli.main")


def single_line(err):
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ------------------------------------------------------ model path checked first


@pytest.mark.parametrize("where", ["missing directory", "under a file", "a directory"])
def test_unwritable_model_path_fails_before_training(train_file, tmp_path, capsys,
                                                     fit_must_not_run, where):
    target = {
        "missing directory": tmp_path / "no" / "such" / "dir" / "m.npz",
        "under a file": train_file / "m.npz",   # a regular file cannot hold files
        "a directory": tmp_path / "dir.npz",
    }[where]
    if where == "a directory":
        target.mkdir()
    assert main(["train", str(train_file), str(target)]) == 1
    line = single_line(capsys.readouterr().err)
    assert line.startswith("refsvm train: error: ")
    assert str(target) in line


def test_writable_check_leaves_no_file_behind(train_file, tmp_path, capsys, monkeypatch):
    seen = {}

    def fit(self, X, y):
        seen["exists during training"] = (tmp_path / "m.npz").exists()
        raise KeyboardInterrupt

    monkeypatch.setattr(BudgetedSVC, "fit", fit)
    assert run(["train", str(train_file), str(tmp_path / "m")]) == 130
    assert seen == {"exists during training": False}   # the probe was removed again
    assert not (tmp_path / "m.npz").exists()


def test_existing_model_file_is_not_damaged_by_the_check(train_file, tmp_path, capsys,
                                                          monkeypatch):
    model = tmp_path / "m.npz"
    model.write_bytes(b"previous content")

    def fit(self, X, y):
        assert model.read_bytes() == b"previous content"
        raise KeyboardInterrupt

    monkeypatch.setattr(BudgetedSVC, "fit", fit)
    assert run(["train", str(train_file), str(model)]) == 130


def test_unwritable_prediction_output_fails_before_predicting(train_file, tmp_path, capsys,
                                                               monkeypatch):
    model = tmp_path / "m.npz"
    assert main(["train", str(train_file), str(model), "--budget", "5", "--backend", "python"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(BudgetedSVC, "predict", lambda self, X: pytest.fail("predicted"))
    out = tmp_path / "missing" / "pred.txt"
    assert main(["predict", str(model), str(train_file), "--output", str(out)]) == 1
    assert str(out) in single_line(capsys.readouterr().err)


# ---------------------------------------------------------------- Ctrl-C, memory


def test_ctrl_c_stops_with_one_line_and_status_130(train_file, tmp_path, capsys, monkeypatch):
    def fit(self, X, y):
        raise KeyboardInterrupt

    monkeypatch.setattr(BudgetedSVC, "fit", fit)
    assert run(["train", str(train_file), str(tmp_path / "m.npz")]) == 130
    assert single_line(capsys.readouterr().err) == "refsvm train: interrupted"
    assert not (tmp_path / "m.npz").exists()


def test_memory_error_is_one_line(train_file, tmp_path, capsys, monkeypatch):
    def fit(self, X, y):
        raise MemoryError("Unable to allocate 96.9 GiB for an array with shape (1000000001, 13)")

    monkeypatch.setattr(BudgetedSVC, "fit", fit)
    assert main(["train", str(train_file), str(tmp_path / "m.npz")]) == 1
    line = single_line(capsys.readouterr().err)
    assert line.startswith("refsvm train: error: out of memory") and "96.9 GiB" in line


def test_entry_point_file_error_exit_status_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1 1:1\n-1 1:nan\n")
    proc = subprocess.run([sys.executable, "-m", "refsvm.cli", "train", str(bad),
                           str(tmp_path / "m.npz")], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1
    assert single_line(proc.stderr) == (
        f"refsvm train: error: {bad}, line 2: '1:nan': the value is nan "
        "(NaN and infinity are not allowed)"
    )


# --------------------------------------------------------------------- --help


def _subparsers():
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


@pytest.mark.parametrize("command", ["train", "predict", "demo"])
def test_help_shows_every_default(command):
    sub = _subparsers()[command]
    help_text = sub.format_help()
    # one entry per option: a line starting with "  -" and its continuation lines
    entries = {}
    for line in help_text.split("options:", 1)[1].splitlines():
        if line.startswith("  -"):
            key = line.split()[0].rstrip(",")
            entries[key] = line
        elif entries and line.startswith("   "):
            entries[key] += " " + line
    options = [a for a in sub._actions if a.option_strings and a.default is not argparse.SUPPRESS]
    assert options
    for action in options:
        entry = " ".join(entries[action.option_strings[0]].split())
        match = re.search(r"\(default: ([^)]*)\)$", entry)
        assert match, f"{command} {action.option_strings[0]}: no default in --help: {entry}"
        if "(default" in (action.help or ""):
            continue  # stated in words, e.g. --verbose "(default: on)"
        shown = "4.0 GiB" if action.dest == "max_memory" else str(action.default)
        assert match.group(1) == shown, (action.option_strings, match.group(1))


def test_sbp_stops_promptly_on_ctrl_c(tmp_path):
    """A real SIGINT during SBP's compiled loop (an iteration is O(n)) ends the run within seconds
    (it took 14.5 s: the loop never looked at signals)."""
    import signal
    import time

    script = tmp_path / "run.py"
    script.write_text(
        "import numpy as np, sys\n"
        "from refsvm import SBPClassifier\n"
        "X = np.random.default_rng(0).normal(size=(6000, 20)); y = np.where(X[:, 0] > 0, 1, -1)\n"
        "print('start', flush=True)\n"
        "try:\n"
        "    SBPClassifier(gamma=0.05, epochs=50, random_state=0).fit(X, y)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True); sys.exit(130)\n")
    # the child gets the default SIGINT disposition (Python then installs its KeyboardInterrupt
    # handler), whatever this process inherited: a test run started in the background by a
    # non-interactive shell ignores SIGINT, and a child would inherit that and never stop
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline().strip() == "start"
    time.sleep(1.5)                                   # well inside the first epoch
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "interrupted" in out
    assert time.perf_counter() - sent < 3.0


def test_regression_target_refused_by_a_classifier_in_one_line(tmp_path, capsys):
    """Integer-valued regression targets (cadata's house values: 3,842 'classes') are refused, naming
    --regression, in one line with exit status 1, before any training; --regression trains them."""
    from sklearn.datasets import dump_svmlight_file
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = np.round(100 * X[:, 0] + 500)                 # integers, ~250 distinct values
    path = tmp_path / "reg.svm"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    assert main(["train", str(path), str(tmp_path / "m.npz")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "regression target" in err[0] and "--regression" in err[0]
    assert not (tmp_path / "m.npz").exists()
    assert main(["train", str(path), str(tmp_path / "m.npz"), "--solver", "fogd", "--regression"]) == 0


def test_named_regression_set_refused_by_a_classifier(tmp_path, monkeypatch, capsys):
    """A data set the registry marks as regression (cadata, cpusmall, abalone_scale, ...) is refused by name."""
    from sklearn.datasets import dump_svmlight_file
    import bz2
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 8))
    y = np.arange(40) % 3                              # few distinct values: only the name tells
    raw = tmp_path / "raw.svm"
    dump_svmlight_file(X, y, str(raw), zero_based=False)
    (tmp_path / "cadata.bz2").write_bytes(bz2.compress(raw.read_bytes()))
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    assert main(["train", "cadata", str(tmp_path / "m.npz")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "regression data set" in err[0] and "--regression" in err[0]
