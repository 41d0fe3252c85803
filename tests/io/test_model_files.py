"""Damaged and invalid model files: one clear ValueError naming the file and what is wrong.

Each case is built here from a good model file (written by ``save``) by a
byte-level or entry-level change; loading goes through the public
``BudgetedSVC.load`` / ``BudgetedModel.load`` and ``refsvm predict``.
"""

import io
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from refsvm import BudgetedModel, BudgetedSVC
from refsvm.cli import main
from refsvm.datasets import checkerboard


@pytest.fixture(scope="module")
def good_model(tmp_path_factory):
    X, y = checkerboard(200, random_state=0)
    path = tmp_path_factory.mktemp("model") / "good.npz"
    BudgetedSVC(budget=10, gamma=20.0, backend="python", random_state=0).fit(X, y).save(path)
    return path


def entries(path):
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def rewrite(good, path, **changes):
    """Copy of the good model with entries replaced (``None``: removed)."""
    arrays = entries(good)
    for key, value in changes.items():
        if value is None:
            del arrays[key]
        else:
            arrays[key] = np.asarray(value)
    np.savez(path, **arrays)
    return path


def flip_byte_in(good, path, member):
    """Copy of the good model with one byte of ``member``'s data inverted (its CRC no longer matches)."""
    raw = bytearray(good.read_bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as archive:
        info = archive.getinfo(member)
    header = 30 + len(info.filename.encode()) + len(info.extra)  # local file header size
    raw[info.header_offset + header + info.compress_size // 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    return path


def _cases():
    return {
        "truncated": (lambda g, p: (p.write_bytes(g.read_bytes()[: g.stat().st_size // 2]), p)[1],
                      "truncated"),
        "bit-flip in support_vectors": (lambda g, p: flip_byte_in(g, p, "support_vectors.npy"),
                                        "damaged"),
        "bit-flip in coef": (lambda g, p: flip_byte_in(g, p, "coef.npy"), "damaged"),
        "missing key": (lambda g, p: rewrite(g, p, gamma=None), "'gamma' is missing"),
        "one class": (lambda g, p: rewrite(g, p, classes=np.array([1.0])), "at least 2"),
        "text file": (lambda g, p: (p.write_text("1 1:0.5 2:0.25\n-1 1:0.1\n"), p)[1],
                      "not a refsvm model file"),
        "empty file": (lambda g, p: (p.write_bytes(b""), p)[1], "not a refsvm model file"),
        "unknown format version": (lambda g, p: rewrite(g, p, format_version=np.array(99)),
                                   "format_version 99"),
        "NaN gamma": (lambda g, p: rewrite(g, p, gamma=np.array(np.nan)), "gamma"),
        "negative gamma": (lambda g, p: rewrite(g, p, gamma=np.array(-1.0)), "gamma"),
        "unknown kernel": (lambda g, p: rewrite(g, p, kernel=np.array("sigmoid")), "kernel"),
        "degree 0": (lambda g, p: rewrite(g, p, degree=np.array(0)), "degree"),
        "NaN coef0": (lambda g, p: rewrite(g, p, coef0=np.array(np.nan)), "coef0"),
        "inf in support vectors": (
            lambda g, p: rewrite(g, p, support_vectors=np.where(
                np.arange(entries(g)["support_vectors"].size).reshape(-1, 2) == 3, np.inf,
                entries(g)["support_vectors"])), "support_vectors"),
        "coef rows != support vectors": (
            lambda g, p: rewrite(g, p, coef=entries(g)["coef"][:-1]), "coef"),
        "bias of wrong shape": (lambda g, p: rewrite(g, p, bias=np.zeros(3)), "bias"),
        "gamma not a scalar": (lambda g, p: rewrite(g, p, gamma=np.ones(3)), "gamma"),
    }


CASES = _cases()


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_model_file_is_one_value_error_naming_the_file(good_model, tmp_path, case):
    make, fragment = CASES[case]
    path = make(good_model, tmp_path / "bad.npz")
    for load in (BudgetedSVC.load, BudgetedModel.load):
        with pytest.raises(ValueError) as info:
            load(path)
        msg = str(info.value)
        assert str(path) in msg, msg
        assert fragment in msg, msg
        assert "\n" not in msg


@pytest.mark.parametrize("case", ["truncated", "bit-flip in coef", "missing key", "one class",
                                  "text file", "unknown format version", "NaN gamma"])
def test_cli_predict_with_bad_model_prints_one_line(good_model, tmp_path, capsys, case):
    make, fragment = CASES[case]
    path = make(good_model, tmp_path / "bad.npz")
    data = tmp_path / "data.txt"
    data.write_text("1 1:0.5 2:0.25\n-1 1:0.1 2:0.9\n")
    assert main(["predict", str(path), str(data)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("refsvm predict: error: ")
    assert str(path) in err and fragment in err


def test_nan_gamma_refused_on_construction_as_in_the_estimator():
    sv, coef = np.zeros((2, 2)), np.ones((2, 1))
    for bad in (np.nan, np.inf, 0.0, -1.0):
        with pytest.raises(ValueError, match="gamma"):
            BudgetedModel(sv, coef, gamma=bad)
        with pytest.raises(ValueError, match="gamma"):
            BudgetedSVC(gamma=bad).fit(np.eye(2), [0, 1])
    with pytest.raises(ValueError, match="classes"):
        BudgetedModel(sv, coef, classes=np.array([3]))
    with pytest.raises(ValueError, match="coef"):
        BudgetedModel(sv, np.ones((2, 3)), classes=np.array([0, 1]))  # 2 classes need 1 column


def test_good_model_round_trips_and_validates(good_model):
    model = BudgetedModel.load(good_model)
    model.validate()
    X, _ = checkerboard(50, random_state=3)
    np.testing.assert_array_equal(BudgetedSVC.load(good_model).predict(X), model.predict(X))


def test_bad_model_through_the_entry_point_has_no_traceback(good_model, tmp_path):
    path = rewrite(good_model, tmp_path / "nan.npz", gamma=np.array(np.nan))
    data = tmp_path / "data.txt"
    data.write_text("1 1:0.5 2:0.25\n")
    proc = subprocess.run([sys.executable, "-m", "refsvm.cli", "predict", str(path), str(data)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"refsvm predict: error: {path}: invalid model file: gamma must be a finite number > 0; got nan"
    ]


def test_invalid_saved_hyper_parameter_is_refused_by_the_estimator_and_the_cli(
        good_model, tmp_path, capsys):
    import json

    params = json.loads(str(entries(good_model)["params_json"]))
    params["lam"] = float("nan")
    path = rewrite(good_model, tmp_path / "lam.npz", params_json=np.array(json.dumps(params)))
    with pytest.raises(ValueError, match="lam") as info:
        BudgetedSVC.load(path)
    assert str(path) in str(info.value)
    data = tmp_path / "data.txt"
    data.write_text("1 1:0.5 2:0.25\n")
    assert main(["predict", str(path), str(data)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1 and str(path) in err and "lam" in err
