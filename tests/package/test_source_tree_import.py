"""Python started in an unbuilt source checkout: the message says so and what to do.

A copy of the source tree (``setup.py``, ``refsvm/**/*.py``, the ``.pyx``
files, no compiled modules) is made in a temporary directory and Python is
started there, as a user would from the repository root.  The tests
themselves keep importing the installed package.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import refsvm

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def unbuilt_checkout(tmp_path):
    if not (REPO / "setup.py").is_file():
        pytest.skip("no source tree next to the tests")
    shutil.copy(REPO / "setup.py", tmp_path / "setup.py")
    shutil.copytree(REPO / "refsvm", tmp_path / "refsvm",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
    return tmp_path


def test_message_from_an_unbuilt_checkout_says_what_to_do(unbuilt_checkout):
    code = ("import refsvm, sys; from refsvm.backend import get_module\n"
            "try:\n    get_module('bsgd', 'fast')\n"
            "except RuntimeError as e:\n    print(refsvm.__file__); print(e)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=unbuilt_checkout,
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    where, message = proc.stdout.strip().split("\n", 1)
    assert Path(where).resolve().parent == (unbuilt_checkout / "refsvm").resolve()
    assert "source tree" in message and str(unbuilt_checkout) in message
    assert "another directory" in message
    assert "pip install -e . --no-build-isolation" in message
    assert "build_ext --inplace" in message


def test_installed_package_keeps_the_reinstall_message(monkeypatch, tmp_path):
    """Outside a checkout (no setup.py next to the package) the advice stays 'reinstall'."""
    from refsvm import backend

    (tmp_path / "refsvm" / "_fast").mkdir(parents=True)
    (tmp_path / "refsvm" / "_fast" / "bsgd.pyx").write_text("")  # no setup.py one level up
    monkeypatch.setattr(backend, "_package_dir", lambda: tmp_path / "refsvm")
    assert backend._uncompiled_source_tree("bsgd") is None
    (tmp_path / "setup.py").write_text("")
    assert backend._uncompiled_source_tree("bsgd") == tmp_path
    (tmp_path / "refsvm" / "_fast" / "bsgd.cpython-311-x86_64-linux-gnu.so").write_text("")
    assert backend._uncompiled_source_tree("bsgd") is None   # built in place
    assert refsvm.__version__
