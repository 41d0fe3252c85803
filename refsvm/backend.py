"""Choose between the pure-Python reference path and the compiled path.

``refsvm.<name>`` (for instance :mod:`refsvm.bsgd`) is the readable reference;
``refsvm._fast.<name>`` is its Cython mirror with the same public functions and
signatures (see DESIGN.md).  :func:`get_module` returns one or the other.  It
never falls back silently: asking for ``"fast"`` when the extension was not
compiled is an error.
"""

import importlib
from pathlib import Path

BACKENDS = ("python", "fast")


def _package_dir():
    """The directory ``refsvm`` was imported from."""
    return Path(__file__).resolve().parent


def _uncompiled_source_tree(name):
    """The repository root if ``refsvm`` is imported from a source checkout without ``_fast/<name>`` built.

    That happens when Python runs from the repository root (the current
    directory comes first on ``sys.path``) or has it on ``PYTHONPATH``: the
    checkout shadows the installed package, and a checkout holds
    ``refsvm/_fast/<name>.pyx`` but no compiled module unless it was built in
    place.  Returns ``None`` otherwise (e.g. an installed package).
    """
    package = _package_dir()
    root = package.parent
    fast = package / "_fast"
    if not ((root / "setup.py").is_file() and (fast / f"{name}.pyx").is_file()):
        return None
    if any(fast.glob(f"{name}.*.so")) or any(fast.glob(f"{name}.*.pyd")) \
            or (fast / f"{name}.so").is_file() or (fast / f"{name}.pyd").is_file():
        return None  # built in place; the import failed for another reason
    return root


def get_module(name: str, backend: str):
    """Return the module ``name`` of the requested backend.

    Parameters
    ----------
    name : str
        Module name without package, e.g. ``"kernels"``, ``"budget"``,
        ``"bsgd"``.
    backend : {"python", "fast"}
        ``"python"`` returns ``refsvm.<name>``, ``"fast"`` returns
        ``refsvm._fast.<name>``.

    Raises
    ------
    ValueError
        If ``backend`` is not one of :data:`BACKENDS`.
    RuntimeError
        If ``backend == "fast"`` and the compiled module cannot be imported.
        When refsvm was imported from a source checkout without compiled
        modules (Python started in the repository root), the message says so
        and how to build in place; otherwise it says to reinstall.
    """
    if backend == "python":
        return importlib.import_module(f"refsvm.{name}")
    if backend == "fast":
        modname = f"refsvm._fast.{name}"
        try:
            return importlib.import_module(modname)
        except ImportError as exc:
            root = _uncompiled_source_tree(name)
            if root is not None:
                raise RuntimeError(
                    f"refsvm is imported from its source tree {root} (Python was started in that "
                    f"directory or has it on PYTHONPATH), where the compiled extension {modname} "
                    "has not been built (reinstalling does not change that: the source tree comes "
                    "first on sys.path). Run Python from another directory to use the installed "
                    "refsvm, or build the extension in place: pip install -e . --no-build-isolation "
                    "(or python setup.py build_ext --inplace)."
                ) from exc
            raise RuntimeError(
                f"refsvm was installed without its compiled extension {modname}; "
                "reinstall with pip install ."
            ) from exc
    raise ValueError(
        f"backend must be one of {', '.join(repr(b) for b in BACKENDS)}; got {backend!r}"
    )
