"""Input and output: LIBSVM files (:mod:`refsvm.io.libsvm`), model files
(:mod:`refsvm.io.model_file`) and the benchmark data sets
(:mod:`refsvm.io.datasets`, public as :mod:`refsvm.datasets`).

Nothing here is part of a paper's algorithm; the algorithm modules never
import this package.
"""

#: Public names of this package, imported on first use (PEP 562): ``refsvm.io.iter_libsvm``.
_PUBLIC = {"iter_libsvm": "stream", "scan_libsvm": "stream", "read_libsvm": "libsvm"}


def __getattr__(name):
    if name in _PUBLIC:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_PUBLIC[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

from .peer_models import (  # noqa: E402,F401  (the peers' model files; docs/peer-models.rst)
    read_budgetedsvm_model, read_libsvm_model, write_budgetedsvm_model, write_libsvm_model,
)
