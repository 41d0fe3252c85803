"""Choose between the pure-Python reference path and the compiled path.

``refsvm.<name>`` (for instance :mod:`refsvm.bsgd`) is the readable reference;
``refsvm._fast.<name>`` is its Cython mirror with the same public functions and
signatures (see DESIGN.md).  :func:`get_module` returns one or the other.  It
never falls back silently: asking for ``"fast"`` when the extension was not
compiled is an error.
"""

import importlib

BACKENDS = ("python", "fast")


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
    """
    if backend == "python":
        return importlib.import_module(f"refsvm.{name}")
    if backend == "fast":
        modname = f"refsvm._fast.{name}"
        try:
            return importlib.import_module(modname)
        except ImportError as exc:
            raise RuntimeError(
                f"refsvm was installed without its compiled extension {modname}; "
                "reinstall with pip install ."
            ) from exc
    raise ValueError(
        f"backend must be one of {', '.join(repr(b) for b in BACKENDS)}; got {backend!r}"
    )
