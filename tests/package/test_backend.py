"""refsvm.backend.get_module: the reference module or its compiled twin; every Cython source is compiled and importable; clear errors when one is missing."""

import importlib
from pathlib import Path

import pytest

from refsvm import backend
from refsvm.backend import get_module

FAST_SOURCES = sorted(
    p.stem for p in (Path(__file__).resolve().parents[2] / "refsvm" / "_fast").glob("*.pyx")
)


def test_python_backend_returns_reference_module():
    import refsvm.validation

    assert get_module("validation", "python") is refsvm.validation


@pytest.mark.parametrize("bad", ["cython", "Fast", "", None])
def test_unknown_backend_names_parameter_and_choices(bad):
    with pytest.raises(ValueError) as info:
        get_module("bsgd", bad)
    msg = str(info.value)
    assert "backend" in msg
    assert "'python'" in msg and "'fast'" in msg


def test_missing_fast_module_is_a_clear_error(monkeypatch):
    real = importlib.import_module

    def fake(name, package=None):
        if name.startswith("refsvm._fast."):
            raise ImportError(f"No module named {name!r}")
        return real(name, package)

    monkeypatch.setattr(backend.importlib, "import_module", fake)
    with pytest.raises(RuntimeError) as info:
        get_module("bsgd", "fast")
    assert str(info.value) == (
        "refsvm was installed without its compiled extension refsvm._fast.bsgd; "
        "reinstall with pip install ."
    )
    assert isinstance(info.value.__cause__, ImportError)


def test_nonexistent_fast_module_is_not_silently_replaced():
    with pytest.raises(RuntimeError, match=r"refsvm\._fast\.no_such_module"):
        get_module("no_such_module", "fast")


@pytest.mark.parametrize("name", FAST_SOURCES)
def test_every_cython_source_is_compiled_and_importable(name):
    """Each refsvm/_fast/<name>.pyx of the source tree must be importable.

    Fails when the package was installed without compiling it, or when the
    tests import the source tree instead of the installed package.
    """
    module = get_module(name, "fast")
    assert Path(module.__file__).suffix in (".so", ".pyd")
