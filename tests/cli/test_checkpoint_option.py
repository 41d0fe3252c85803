"""Subject: cli -- ``refsvm train --checkpoint PATH --checkpoint-every N|Nsteps|Ns --resume``.

A run of k epochs with a checkpoint, resumed to K epochs, saves bit for bit the model of a K-epoch run
(every solver family through the command: bsgd, bsca, sbp, fogd, nogd, an online baseline); other
parameters and bad option values are one-line errors naming the option or the parameter.
"""

import numpy as np
import pytest

from refsvm.cli import main


@pytest.fixture
def train_file(xor_libsvm_file):
    return xor_libsvm_file(n=150, d=3, seed=5)


def _arrays(path):
    with np.load(path, allow_pickle=False) as f:
        return {k: f[k].tobytes() for k in f.files if k not in ("created",)}


@pytest.mark.parametrize("solver", ["bsgd", "bsca", "sbp", "fogd", "nogd", "forgetron"])
def test_resumed_run_saves_the_uninterrupted_model(solver, train_file, tmp_path):
    base = [str(train_file), "--solver", solver, "--quiet", "--gamma", "2"]
    if solver not in ("sbp", "fogd"):
        base += ["--budget", "10"]
    whole, part, resumed, ck = (str(tmp_path / n) for n in ("whole.npz", "part.npz", "resumed.npz", "run.ckpt"))
    assert main(["train", *base, whole, "--epochs", "4"]) == 0
    assert main(["train", *base, part, "--epochs", "2", "--checkpoint", ck, "--checkpoint-every", "1"]) == 0
    assert main(["train", *base, resumed, "--epochs", "4", "--checkpoint", ck, "--resume"]) == 0
    assert _arrays(whole) == _arrays(resumed)
    assert _arrays(whole) != _arrays(part)


@pytest.mark.parametrize("solver", ["bsgd", "nogd", "forgetron"])
def test_step_checkpoints_leave_the_model_unchanged(solver, train_file, tmp_path):
    base = [str(train_file), "--solver", solver, "--quiet", "--gamma", "2", "--budget", "10", "--epochs", "3"]
    whole, stepped, ck = (str(tmp_path / n) for n in ("whole.npz", "stepped.npz", "run.ckpt"))
    assert main(["train", *base, whole]) == 0
    assert main(["train", *base, stepped, "--checkpoint", ck, "--checkpoint-every", "40steps"]) == 0
    assert _arrays(whole) == _arrays(stepped)


def test_refusals_are_one_line_errors(train_file, tmp_path, capsys):
    ck = str(tmp_path / "run.ckpt")
    model = str(tmp_path / "m.npz")
    assert main(["train", str(train_file), model, "--quiet", "--budget", "10", "--checkpoint", ck]) == 0
    capsys.readouterr()
    cases = [
        (["--budget", "12", "--checkpoint", ck, "--resume"], "other parameters: budget=10 there, 12 here"),
        (["--budget", "10", "--resume"], "--resume needs --checkpoint PATH"),
        (["--budget", "10", "--checkpoint-every", "3"], "--checkpoint-every needs --checkpoint PATH"),
        (["--budget", "10", "--checkpoint", ck, "--checkpoint-every", "2h"], "--checkpoint-every must be"),
        (["--budget", "10", "--checkpoint", str(tmp_path / "absent"), "--resume"], "no checkpoint file"),
        (["--budget", "10", "--checkpoint", ck, "--checkpoint-every", "0steps"], "--checkpoint-every must be"),
        (["--solver", "bsca", "--budget", "10", "--checkpoint", ck, "--checkpoint-every", "50steps"],
         "cannot stop inside an epoch"),
    ]
    for extra, message in cases:
        with pytest.raises(SystemExit) as info:
            main(["train", str(train_file), model, "--quiet", *extra])
        assert info.value.code == 2
        err = capsys.readouterr().err
        last = err.strip().splitlines()[-1]
        assert message in last and "Traceback" not in err
