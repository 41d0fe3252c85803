"""scikit-learn estimators of refsvm, one module per solver family.

* :mod:`refsvm.estimators._base` -- what every classifier shares (validation,
  labels, random generator, fit / partial_fit, prediction, save / load);
* :mod:`refsvm.estimators.bsgd` -- :class:`BudgetedSVC` (BSGD, Wang, Crammer and
  Vucetic 2012);
* :mod:`refsvm.estimators.sbp` -- :class:`SBPClassifier` (SBP, Cotter,
  Shalev-Shwartz and Srebro 2012);
* :mod:`refsvm.estimators.bsca` -- :class:`BSCAClassifier` (BSCA, Qaadan, Schüler
  and Glasmachers 2019);
* :mod:`refsvm.estimators.ogd` -- FOGD / NOGD classifiers and regressors (Lu et al. 2016);
* :mod:`refsvm.estimators.online` -- :class:`OnlineKernelClassifier` (the classic
  online baselines: Perceptron, OGD, RBP, Forgetron, Projectron(++), BPA-S, BOGD);
* :mod:`refsvm.estimators.online_regression` -- :class:`OnlineKernelRegressor` (their regression
  versions and Norma, Lu et al. 2016, section 7.4);
* :mod:`refsvm.estimators.idsvm` -- :class:`IncrementalSVC` (IDSVM, the exact incremental SVM of
  Cauwenberghs and Poggio 2000, Wang et al.'s exact online baseline).

The public face is :mod:`refsvm` itself (``from refsvm import BudgetedSVC``).
"""

from ._base import BudgetedClassifierBase
from .bsgd import BudgetedSVC
from .online import OnlineKernelClassifier
from .online_regression import OnlineKernelRegressor
from .sbp import SBPClassifier
from .idsvm import IncrementalSVC
from .bsca import BSCAClassifier
from .ogd import FOGDClassifier, FOGDRegressor, NOGDClassifier, NOGDRegressor

__all__ = ["BudgetedClassifierBase", "BudgetedSVC", "SBPClassifier", "BSCAClassifier"]
__all__ += ["FOGDClassifier", "FOGDRegressor", "NOGDClassifier", "NOGDRegressor"]
__all__ += ["OnlineKernelClassifier", "OnlineKernelRegressor", "IncrementalSVC"]
