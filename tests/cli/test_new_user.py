"""The command line as a new user meets it: warnings, --standardize, binary-only baselines, SBP's progress
and defaults, Ctrl-C during start-up, and the wording of its messages (option names, empty files,
directories)."""

import os
import re
import signal
import subprocess
import sys
import time
import warnings

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

import refsvm
from refsvm import BudgetedSVC, SBPClassifier
from refsvm.cli import main
from refsvm.cli import _common as common


def run(argv):
    try:
        return main(argv)
    except SystemExit as exc:           # argparse's usage errors
        return exc.code


def one_line(err):
    assert "Traceback" not in err
    lines = [line for line in err.strip().splitlines() if not line.startswith(("usage:", " "))]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def unscaled(tmp_path):
    """A binary problem whose first feature holds nearly all the variance (FeatureScaleWarning)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5))
    X[:, 0] *= 1000.0
    y = np.where(X[:, 1] > 0, 1.0, -1.0)
    path = tmp_path / "unscaled.txt"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    return path, X, y


@pytest.fixture
def three_classes(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(90, 3))
    y = np.repeat([1.0, 2.0, 3.0], 30)
    X[:, 0] += y
    path = tmp_path / "three.txt"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    return path


# ------------------------------------------------------------------------------ warnings (one line a kind)


def test_warnings_are_one_line_per_kind_with_a_count(capsys):
    with common.collapsed_warnings("refsvm x"):
        for _ in range(70):
            warnings.warn("merge_eps is odd", UserWarning)
        warnings.warn("another kind", RuntimeWarning)
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["refsvm x: warning (x70): merge_eps is odd", "refsvm x: warning: another kind"]


def test_train_prints_the_feature_scale_warning_in_one_line_naming_standardize(unscaled, tmp_path, capsys):
    path, _, _ = unscaled
    assert run(["train", str(path), str(tmp_path / "m.npz"), "--quiet"]) == 0
    err = capsys.readouterr().err
    line = one_line(err)
    assert line.startswith("refsvm train: warning: BudgetedSVC: feature 0 holds")
    assert "--standardize" in line and "make_pipeline" not in line
    assert not re.search(r"\.py:\d+", err)                   # no file:line of Python's warning format


# ------------------------------------------------------------------------------ --standardize


def test_standardize_is_stored_and_applied_by_predict_and_load(unscaled, tmp_path, capsys):
    path, X, y = unscaled
    model = tmp_path / "m.npz"
    assert run(["train", str(path), str(model), "--quiet", "--standardize"]) == 0
    out = capsys.readouterr().out
    train_acc = float(re.search(r"training accuracy: ([0-9.]+)", out).group(1))
    # an independent computation: the same estimator on features standardised by hand
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    ref = BudgetedSVC(random_state=0, verbose=0).fit(Z, y)
    assert train_acc == pytest.approx(ref.score(Z, y), abs=5e-5)
    assert train_acc > 0.9                                    # without scaling the run learns little
    assert run(["predict", str(model), str(path)]) == 0
    assert f"accuracy: {train_acc:.4f}" in capsys.readouterr().out
    loaded = refsvm.load(model)
    np.testing.assert_array_equal(loaded.predict(X), ref.predict(Z))
    np.testing.assert_allclose(loaded[0].mean_, X.mean(axis=0))


def test_standardize_with_an_online_solver_round_trips(unscaled, tmp_path, capsys):
    path, X, y = unscaled
    model = tmp_path / "f.npz"
    assert run(["train", str(path), str(model), "--quiet", "--standardize", "--solver", "fogd"]) == 0
    train_acc = re.search(r"training accuracy: ([0-9.]+)", capsys.readouterr().out).group(1)
    assert run(["predict", str(model), str(path)]) == 0
    assert f"accuracy: {train_acc}" in capsys.readouterr().out
    assert np.mean(refsvm.load(model).predict(X) == y) == pytest.approx(float(train_acc), abs=5e-5)


# ------------------------------------------------------------------------------ multi-class baselines


@pytest.mark.parametrize("solver", ["bogd", "perceptron", "bpas", "projectron", "projectron++"])
def test_baselines_with_a_multiclass_version_train_on_three_classes(three_classes, tmp_path, solver):
    model = tmp_path / "m.npz"
    extra = ["--eta", "0.2"] if solver == "bogd" else []
    assert run(["train", str(three_classes), str(model), "--solver", solver, *extra]) == 0
    assert refsvm.load(model).classes_.size == 3


def test_binary_only_solver_on_multiclass_data_is_one_line(three_classes, tmp_path, capsys, monkeypatch):
    """A solver without a multi-class version (none is left among the online baselines; one is
    simulated by removing the Projectron from the multi-class list) refuses three classes in one line."""
    import refsvm.cli.train as train
    monkeypatch.setattr(train, "BINARY_ONLY", ("projectron",))
    assert run(["train", str(three_classes), str(tmp_path / "m.npz"), "--solver", "projectron"]) == 1
    err = capsys.readouterr().err
    assert "usage:" not in err
    line = one_line(err)
    assert "3 classes, but --solver projectron is a binary classifier" in line
    assert "--solver bsgd" in line


def test_help_names_the_binary_only_solver(capsys):
    """Every solver takes multi-class data but BPA-NN (Wang et al. 2012 run it on binary data only)."""
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "The online baselines bpann are binary classifiers" in text
    assert "Every solver takes multi-class data." not in text


# ------------------------------------------------------------------------------ SBP


def test_sbp_cli_default_epochs_is_the_estimators(tmp_path, capsys):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    path = tmp_path / "d.txt"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    assert run(["train", str(path), str(tmp_path / "s.npz"), "--solver", "sbp", "--quiet"]) == 0
    est = refsvm.load(tmp_path / "s.npz")
    assert est.epochs == SBPClassifier().epochs == 10
    assert f"({est.epochs} epochs," in capsys.readouterr().out


def test_sbp_progress_names_what_it_counts_and_the_machine(three_classes, capsys):
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(three_classes))
    SBPClassifier(epochs=1, random_state=0, verbose=1).fit(X.toarray(), y)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3
    for r, line in enumerate(err):
        assert line.startswith(f"[SBPClassifier] epoch 1/1, class {r + 1} vs rest ({r + 1}/3) done:")
        assert "error on sampled low-margin points" in line and "online error" not in line


def test_sbp_cost_line_gives_a_labelled_time_estimate(tmp_path, capsys, monkeypatch):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 4))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    path = tmp_path / "d.txt"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    monkeypatch.setattr(common, "COST_LINE_MIN", 1)
    assert run(["train", str(path), str(tmp_path / "s.npz"), "--solver", "sbp", "--epochs", "2"]) == 0
    first = capsys.readouterr().err.splitlines()[0]
    m = re.search(r"about ([0-9,]+) kernel evaluations .* 2 epoch\(s\); estimate (\d+) s at ([0-9.e+]+) "
                  r"evaluations/s \(a Gaussian kernel row timed on this machine", first)
    assert m, first
    count, seconds, rate = int(m.group(1).replace(",", "")), int(m.group(2)), float(m.group(3))
    assert count == 200 * 200
    assert seconds == round(2 * count / rate)


def test_kernel_rate_counts_evaluations():
    X = np.random.default_rng(4).normal(size=(500, 8))
    start = time.perf_counter()
    rate = common._kernel_rate(X, seconds=0.05)
    assert time.perf_counter() - start < 5
    assert 1e3 < rate < 1e11


# ------------------------------------------------------------------------------ Ctrl-C during start-up


def _entry_point():
    """How the installed ``refsvm`` command starts: its console script beside this Python, else the same
    two statements (``from refsvm.cli import main``; ``sys.exit(main())``)."""
    script = os.path.join(os.path.dirname(sys.executable), "refsvm")
    if os.path.isfile(script):
        return [script]
    return [sys.executable, "-c", "import sys; from refsvm.cli import main; sys.exit(main())"]


@pytest.mark.parametrize("delay", [0.15, 0.3, 0.5, 0.8, 1.2])
def test_ctrl_c_during_start_up_is_one_line_and_status_130(unscaled, tmp_path, delay):
    """SIGINT while the command imports its modules (numpy, scipy, scikit-learn: about a second) or
    starts training: one line, exit status 130, no traceback.  (Earlier than about 0.1 s the
    interpreter itself is starting, before any refsvm code runs.)"""
    path, _, _ = unscaled
    for attempt in range(4):
        returncode, err = _interrupt_after(delay + 0.25 * attempt, path, tmp_path)
        if not ("Traceback" in err and f"{os.sep}refsvm{os.sep}" not in err) and returncode != 0:
            break            # (a traceback without a frame in the package: the interpreter was still starting;
            #                  status 0: the signal was lost at start-up, seen twice in CI at 0.15 s under load,
            #                  cause not found; both retried later, and every attempt failing fails the test)
    assert "Traceback" not in err, err
    assert returncode == 130, (returncode, err)
    lines = err.strip().splitlines()
    assert lines[-1] in ("refsvm: interrupted", "refsvm train: interrupted"), err
    assert all(line.startswith("[BudgetedSVC]") for line in lines[:-1]), err    # progress lines at most


def _wait_for_exec(pid, timeout=20.0):
    """Until the child runs the command (Linux: its /proc cmdline names ``train``).  A signal that arrives
    between fork and exec is lost with the forked image (the parent's handler only records it), so the
    delay counts from the command's start; on a loaded machine fork + exec of the big test process took
    longer than the shortest delay."""
    cmdline = f"/proc/{pid}/cmdline"
    end = time.monotonic() + timeout
    while os.path.exists(cmdline) and time.monotonic() < end:
        try:
            with open(cmdline, "rb") as fh:
                if b"train" in fh.read():
                    return
        except OSError:
            return
        time.sleep(0.002)


def _interrupt_after(delay, path, tmp_path):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    # the child gets the default SIGINT disposition, also when this test runs in a background job
    proc = subprocess.Popen([*_entry_point(), "train", str(path), str(tmp_path / "m.npz"),
                             "--backend", "python", "--epochs", "50"],
                            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    _wait_for_exec(proc.pid)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err


def test_importing_refsvm_imports_no_scikit_learn():
    code = "import sys, refsvm, refsvm.cli; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# ------------------------------------------------------------------------------ messages


def test_predict_on_an_empty_file_says_it_is_empty(unscaled, tmp_path, capsys):
    path, _, _ = unscaled
    model = tmp_path / "m.npz"
    assert run(["train", str(path), str(model), "--quiet", "--standardize"]) == 0
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    capsys.readouterr()
    assert run(["predict", str(model), str(empty)]) == 1
    line = one_line(capsys.readouterr().err)
    assert line == f"refsvm predict: error: {empty}: the file is empty (no examples)"


def test_a_directory_as_model_is_named_a_directory(unscaled, tmp_path, capsys):
    path, _, _ = unscaled
    assert run(["predict", str(tmp_path), str(path)]) == 1
    assert "is a directory, not a model file" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize("argv,option", [
    (["--merge-eps", "2"], "--merge-eps"),
    (["--merge-eps", "0"], "--merge-eps"),
    (["--solver", "sbp", "--nu", "5"], "--nu"),
    (["--refit-bias", "--refit-rows", "0"], "--refit-rows"),
    (["--solver", "fogd", "--n-components", "0"], "--n-components"),
])
def test_validation_messages_name_the_option(unscaled, tmp_path, capsys, argv, option):
    path, _, _ = unscaled
    assert run(["train", str(path), str(tmp_path / "m.npz"), "--quiet", *argv]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"refsvm train: error: {option} must be"), line
    assert not re.search(r"\b(merge_eps|refit_rows|n_components)\b", line)


@pytest.mark.parametrize("make", [
    lambda: BudgetedSVC(budget=5, merge_eps=2.0),
    lambda: BudgetedSVC(budget=5, merge_eps=1.0),
    lambda: SBPClassifier(nu=5.0, epochs=1),
    lambda: SBPClassifier(nu=1.5, epochs=1),
])
def test_estimators_refuse_merge_eps_and_nu_outside_their_ranges(make):
    X = np.random.default_rng(5).normal(size=(30, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    est = make()
    with pytest.raises(ValueError, match=r"^(merge_eps must be a number in \(0, 1\)|nu must be a number in \[0, 1\])"):
        est.fit(X, y)


def test_range_edges_are_accepted():
    from refsvm.validation import check_merge_eps, check_nu

    assert check_nu(0.0) == 0.0 and check_nu(1.0) == 1.0
    assert check_merge_eps(0.999) == 0.999 and check_merge_eps(1e-12) == 1e-12


def test_cli_text_maps_python_names_only_where_they_are_names():
    from refsvm.cli import build_parser

    parser = build_parser().parse_args(["train", "data", "model"]).subparser
    assert common._cli_text("merge_eps must be a number", parser) == "--merge-eps must be a number"
    assert common._cli_text("nu must be in [0, 1]", parser) == "--nu must be in [0, 1]"
    assert common._cli_text("budget maintenance failed", parser) == "budget maintenance failed"
    assert common._cli_text("fit_intercept=True needs two classes", parser) == "--fit-bias=True needs two classes"


def test_cli_text_advice_fits_the_command_and_numbers_are_plain():
    from refsvm.cli import build_parser

    train = build_parser().parse_args(["train", "data", "model"]).subparser
    reproduce = build_parser().parse_args(["reproduce", "x"]).subparser
    advice = "feature 0 holds 90% of ...; standardise X (e.g. make_pipeline(StandardScaler(), estimator)) unless"
    assert common._cli_text(advice, train).endswith("standardise the features (refsvm train --standardize) unless")
    assert "a reproduced table keeps the paper's scaling" in common._cli_text(advice, reproduce)
    assert common._cli_text("predicts the single class np.int64(-1) (np.float64(0.25))", reproduce) \
        == "predicts the single class -1 (0.25)"


class _Fixed:
    """A fitted classifier stand-in whose accuracy is given."""

    classes_ = np.array([-1.0, 1.0])

    def __init__(self, accuracy):
        self.accuracy = accuracy

    def score(self, X, y):
        return self.accuracy


@pytest.mark.parametrize("accuracy, flagged", [(0.9, True), (0.89, True), (0.91, False)])
def test_the_report_says_when_accuracy_is_no_better_than_the_majority(accuracy, flagged):
    # a learner's last iterate can score below always predicting the majority class (BOGD on ijcnn1:
    # 0.78 against a 0.905 majority); the report names that share instead of leaving the number alone
    from refsvm.cli._common import _accuracy_lines

    y_test = np.array([1.0] * 9 + [-1.0])                    # majority share 0.9
    lines = list(_accuracy_lines(_Fixed(accuracy), np.zeros((4, 1)), np.array([1.0, -1.0, 1.0, -1.0]),
                                 (np.zeros((10, 1)), y_test)))
    assert lines[1].startswith("test accuracy:")
    assert any(line.startswith("majority class:    0.9000 of the test examples") for line in lines) == flagged


def test_bogd_without_a_step_size_is_refused_in_one_line(three_classes, tmp_path, capsys):
    # BOGD's step size has no value that learns on every data set (0.2 learns on a9a, scores below the
    # majority class on ijcnn1): the command asks for --eta instead of training a model that learns nothing
    model = tmp_path / "m.npz"
    assert run(["train", str(three_classes), str(model), "--solver", "bogd"]) != 0
    assert one_line(capsys.readouterr().err).startswith("refsvm train: error: --eta: BOGD needs a step size")
    assert not model.exists()
    assert run(["train", str(three_classes), str(model), "--solver", "bogd", "--eta", "0.2"]) == 0


def test_ctrl_c_turned_into_an_import_error_is_still_one_line_and_status_130(monkeypatch, capsys):
    """A compiled module interrupted while it initialises may raise ImportError('initialization failed') from
    the KeyboardInterrupt (pybind11's loader; seen at scipy.optimize._highspy._core on an AMD EPYC in CI): the
    command still prints one line and returns 130; an ImportError without an interrupt behind it propagates."""
    import refsvm.cli as cli

    def interrupted_import():
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise ImportError("initialization failed") from exc

    monkeypatch.setattr(cli, "build_parser", interrupted_import)
    assert cli.main(["demo"]) == 130
    assert capsys.readouterr().err.strip() == "refsvm: interrupted"

    def broken_import():
        raise ImportError("no module named x")

    monkeypatch.setattr(cli, "build_parser", broken_import)
    with pytest.raises(ImportError, match="no module named x"):
        cli.main(["demo"])
