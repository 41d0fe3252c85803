"""refsvm: reference implementations of budgeted kernel SVMs.

Pure-Python reference algorithms (:mod:`refsvm.bsgd`, :mod:`refsvm.budget`,
:mod:`refsvm.kernels`) with a compiled mirror in :mod:`refsvm._fast`, and a
scikit-learn estimator on top (:class:`BudgetedSVC`).

Importing :mod:`refsvm` does not import the compiled extension; it is loaded
when an estimator with ``backend="fast"`` is fitted (see
:func:`refsvm.backend.get_module`).
"""

from . import _aliases
from ._version import __version__

_aliases.install()  # refsvm.datasets and the module paths of refsvm 0.1 (see refsvm/_aliases.py)

from .io import datasets  # public as refsvm.datasets
from .io.datasets import load_libsvm
from .estimators import BudgetedSVC
from .estimators import BSCAClassifier
from .estimators import OnlineKernelClassifier
from .estimators import SBPClassifier
from .estimators import FOGDClassifier, FOGDRegressor, NOGDClassifier, NOGDRegressor
from .model import BudgetedModel
from .estimators.loading import load
from .estimators._base import ConstantModelWarning, FeatureScaleWarning

__all__ = ["BudgetedSVC", "BudgetedModel", "load_libsvm", "__version__"]
__all__ += ["SBPClassifier"]
__all__ += ["BSCAClassifier"]
__all__ += ["FOGDClassifier", "FOGDRegressor", "NOGDClassifier", "NOGDRegressor"]
__all__ += ["OnlineKernelClassifier"]
__all__ += ["load"]
__all__ += ["ConstantModelWarning", "FeatureScaleWarning"]
