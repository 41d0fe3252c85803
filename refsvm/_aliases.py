"""Import paths that moved: the old name imports the module at its new place.

``refsvm.datasets`` is the public name of :mod:`refsvm.io.datasets` (like
``sklearn.datasets``) and stays.  The other names are the module paths of
refsvm 0.1 before the package was laid out by layer; they keep working for
one release and warn with a :class:`DeprecationWarning` naming the new path.
Either way the old name and the new one are the *same* module object, so
``monkeypatch.setattr(refsvm.datasets, ...)`` and the like see one module.
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings

#: old module path -> (new module path, deprecated?)
ALIASES = {
    "refsvm.datasets": ("refsvm.io.datasets", False),
    "refsvm.libsvm_io": ("refsvm.io.libsvm", True),
    "refsvm.progress": ("refsvm.estimators._progress", True),
    "refsvm.reproduce_tables": ("refsvm.reproduce.tables", True),
    "refsvm.reproduce_curves": ("refsvm.reproduce.curves", True),
}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, new, deprecated):
        self.new = new
        self.deprecated = deprecated

    def create_module(self, spec):
        if self.deprecated:
            warnings.warn(f"{spec.name} is deprecated and will be removed in refsvm 0.3; "
                          f"import {self.new} instead", DeprecationWarning, stacklevel=2)
        return importlib.import_module(self.new)

    def exec_module(self, module):  # the target module is already executed
        pass


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in ALIASES:
            return None
        new, deprecated = ALIASES[fullname]
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new, deprecated))


def install():
    """Put the finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
