"""refsvm: reference implementations of budgeted kernel SVMs.

Pure-Python reference algorithms (:mod:`refsvm.bsgd`, :mod:`refsvm.budget`,
:mod:`refsvm.kernels`) with a compiled mirror in :mod:`refsvm._fast`, and a
scikit-learn estimator on top (:class:`BudgetedSVC`).

Importing :mod:`refsvm` does not import the compiled extension; it is loaded
when an estimator with ``backend="fast"`` is fitted (see
:func:`refsvm.backend.get_module`).
"""

import importlib

from . import _aliases
from ._version import __version__

_aliases.install()  # refsvm.datasets and the module paths of refsvm 0.1 (see refsvm/_aliases.py)

#: The package's public names and where they live.  They are imported on first use (PEP 562), so that
#: ``import refsvm`` is quick: the ``refsvm`` command imports the rest (numpy, scipy, scikit-learn) inside
#: its Ctrl-C handler (``refsvm.cli.main``), and ``refsvm --help`` does not wait for scikit-learn.
_PUBLIC = {
    "datasets": ("refsvm.io.datasets", None),    # public as refsvm.datasets
    "load_libsvm": ("refsvm.io.datasets", "load_libsvm"),
    "BudgetedSVC": ("refsvm.estimators", "BudgetedSVC"),
    "BSCAClassifier": ("refsvm.estimators", "BSCAClassifier"),
    "OnlineKernelClassifier": ("refsvm.estimators", "OnlineKernelClassifier"),
    "OnlineKernelRegressor": ("refsvm.estimators.online_regression", "OnlineKernelRegressor"),
    "SBPClassifier": ("refsvm.estimators", "SBPClassifier"),
    "IncrementalSVC": ("refsvm.estimators.idsvm", "IncrementalSVC"),
    "FOGDClassifier": ("refsvm.estimators", "FOGDClassifier"),
    "FOGDRegressor": ("refsvm.estimators", "FOGDRegressor"),
    "NOGDClassifier": ("refsvm.estimators", "NOGDClassifier"),
    "NOGDRegressor": ("refsvm.estimators", "NOGDRegressor"),
    "BudgetedModel": ("refsvm.model", "BudgetedModel"),
    "load": ("refsvm.estimators.loading", "load"),
    "fit_stream": ("refsvm.stream", "fit_stream"),
    "iter_libsvm": ("refsvm.io.stream", "iter_libsvm"),
    "fit_dask": ("refsvm.dask", "fit_dask"), "predict_dask": ("refsvm.dask", "predict_dask"),  # the dask extra
    "export_trace": ("refsvm.oracle", "export_trace"),      # the oracle interface (docs/oracle.rst)
    "compare_traces": ("refsvm.oracle", "compare_traces"),
    "ConstantModelWarning": ("refsvm.estimators._base", "ConstantModelWarning"),
    "FeatureScaleWarning": ("refsvm.estimators._base", "FeatureScaleWarning"),
}

__all__ = ["BudgetedSVC", "BudgetedModel", "load_libsvm", "__version__"]
__all__ += ["SBPClassifier"]
__all__ += ["BSCAClassifier"]
__all__ += ["FOGDClassifier", "FOGDRegressor", "NOGDClassifier", "NOGDRegressor"]
__all__ += ["OnlineKernelClassifier", "OnlineKernelRegressor"]
__all__ += ["IncrementalSVC"]
__all__ += ["load"]
__all__ += ["fit_stream", "iter_libsvm"]
__all__ += ["fit_dask", "predict_dask"]
__all__ += ["export_trace", "compare_traces"]
__all__ += ["ConstantModelWarning", "FeatureScaleWarning"]


def __getattr__(name):
    """A public name of :data:`_PUBLIC` or a submodule (``refsvm.estimators``), imported on first use."""
    if name in _PUBLIC:
        module, attr = _PUBLIC[name]
        value = importlib.import_module(module)
        value = value if attr is None else getattr(value, attr)
    else:
        try:
            value = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_PUBLIC))
