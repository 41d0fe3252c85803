"""refsvm train --refit-bias: --help names exactly the solvers that accept it; the others refuse it in one line;
BOGD (which accepts it) trains with it.

Oracle: the solver registry (``refsvm.estimators.registry.SOLVERS``: the options each solver uses).
"""

import re

import numpy as np
import pytest
from _helpers import checkerboard

from refsvm.estimators.registry import SOLVERS


def help_text(capsys):
    from refsvm.cli import main

    with pytest.raises(SystemExit):
        main(["train", "--help"])
    return " ".join(capsys.readouterr().out.split())


def refit_help(capsys):
    text = help_text(capsys)
    start = text.index("--refit-bias [{bias,scaled}] after")
    return text[start:text.index("--refit-rows", start)]


def test_help_lists_the_solvers_that_take_refit_bias(capsys):
    text = refit_help(capsys)
    listed = re.search(r"solvers: (.*?) \(not (.*?):", text)
    assert listed, text
    accept = [n.strip() for n in listed.group(1).split(",")]
    refuse = [n.strip() for n in listed.group(2).split(",")]
    assert accept == [n for n, s in SOLVERS.items() if "refit_bias" in s.options]
    assert refuse == [n for n, s in SOLVERS.items() if "refit_bias" not in s.options]
    assert "bogd" in accept and "fogd" in refuse


@pytest.mark.parametrize("solver", [n for n, s in SOLVERS.items() if "refit_bias" not in s.options])
def test_refit_bias_refused_in_one_line_naming_it(tmp_path, capsys, solver):
    from sklearn.datasets import dump_svmlight_file

    from refsvm.cli import main

    X, y = checkerboard(60, seed=6)
    train = tmp_path / "train.txt"
    dump_svmlight_file(X, y, str(train), zero_based=False)
    with pytest.raises(SystemExit) as exc:
        main(["train", str(train), str(tmp_path / "m.npz"), "--solver", solver, "--refit-bias"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert "--refit-bias" in last and f"--solver {solver}" in last
    assert not (tmp_path / "m.npz").exists()


def test_bogd_trains_with_refit_bias(tmp_path, capsys):
    from sklearn.datasets import dump_svmlight_file

    from refsvm import OnlineKernelClassifier
    from refsvm.cli import main

    X, y = checkerboard(200, seed=6)
    train = tmp_path / "train.txt"
    dump_svmlight_file(X, y, str(train), zero_based=False)
    assert main(["train", str(train), str(tmp_path / "m.npz"), "--solver", "bogd", "--gamma", "2", "--quiet",
                 "--eta", "0.2", "--refit-bias"]) == 0
    assert "bias refit:" in capsys.readouterr().out
    est = OnlineKernelClassifier.load(tmp_path / "m.npz")
    assert est.refit_bias is True and np.isfinite(est.bias_).all()
