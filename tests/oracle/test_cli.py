"""Oracle command line: ``refsvm trace`` writes the trace the library writes, both paths agree under
``refsvm compare-traces`` (exit 0), an edited trace diverges (exit 1, the step named), and bad
arguments give one clear line."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from refsvm import oracle
from refsvm.cli import main


@pytest.fixture
def data_file(tmp_path):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    path = tmp_path / "train.txt"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    return path


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_trace_both_paths_agree_and_match_the_library(data_file, tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = [str(data_file), "--solver", "bsca", "--param", "budget=6", "--param", "maintenance=removal",
            "--seed", "4", "--epochs", "2"]
    assert main(["trace", *args, "--output", str(a)]) == 0
    assert main(["trace", *args, "--backend", "fast", "--output", str(b)]) == 0
    assert "80 steps" in capsys.readouterr().out
    ra = _records(a)
    assert ra[0]["params"]["maintenance"] == "removal" and ra[0]["backend"] == "python"
    assert {r["kind"] for r in ra if r["record"] == "maintenance"} == {"removal"}
    from refsvm.io.libsvm import read_libsvm
    X, y = read_libsvm(data_file)
    lib, _ = oracle.trace_records("bsca", X, y, epochs=2, seed=4, params={"budget": 6, "maintenance": "removal"})
    assert ra == json.loads(json.dumps(lib))
    assert main(["compare-traces", str(a), str(b)]) == 0
    assert "traces agree" in capsys.readouterr().out


def test_compare_traces_names_the_diverging_step(data_file, tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    order = tmp_path / "order.txt"
    order.write_text(" ".join(str(i) for i in range(40)) + "\n" + " ".join(str(i) for i in range(39, -1, -1)) + "\n")
    assert main(["trace", str(data_file), "--solver", "forgetron", "--param", "budget=5", "--order", str(order),
                 "--output", str(a)]) == 0
    records = _records(a)
    assert [r["index"] for r in records if r["record"] == "step"][38:42] == [38, 39, 39, 38]
    step = next(r for r in records if r["record"] == "step" and r["step"] == 57)
    step["update"] = "none" if step["update"] != "none" else "add"
    b.write_text("".join(json.dumps(r) + "\n" for r in records))
    capsys.readouterr()
    assert main(["compare-traces", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "first discrete decision divergence at step 57: update" in out and "traces diverge" in out


def test_bad_arguments_one_line(data_file, tmp_path, capsys):
    out = str(tmp_path / "t.jsonl")
    with pytest.raises(SystemExit) as exc:
        main(["trace", str(data_file), "--solver", "bsgd", "--param", "budgt=3", "--output", out])
    assert exc.value.code == 2 and "budgt" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["trace", str(data_file), "--solver", "bsgd", "--param", "nokey", "--output", out])
    assert exc.value.code == 2 and "KEY=VALUE" in capsys.readouterr().err
    assert main(["trace", str(data_file), "--solver", "bsgd", "--order", str(tmp_path / "none"),
                 "--output", out]) == 1
    assert "--order" in capsys.readouterr().err
    assert main(["compare-traces", out, str(tmp_path / "missing.jsonl")]) == 1
    assert "cannot be read" in capsys.readouterr().err


def test_entry_point_end_to_end(data_file, tmp_path):
    out = tmp_path / "t.jsonl"
    env = dict(os.environ)
    run = subprocess.run([sys.executable, "-m", "refsvm.cli", "trace", str(data_file), "--solver", "sbp",
                          "--output", str(out)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert _records(out)[0]["solver"] == "sbp"
    run = subprocess.run([sys.executable, "-m", "refsvm.cli", "compare-traces", str(out), str(out)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0 and "traces agree" in run.stdout
