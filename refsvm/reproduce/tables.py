"""The tables ``refsvm reproduce`` knows (:data:`TABLES`: name -> :class:`~refsvm.reproduce.spec.Table`).

The registry and the first tables are in :mod:`refsvm.reproduce.tables_core`; each later family has
its own module, registered on import here: Qaadan et al. 2019's figures, Glasmachers & Qaadan's
Table 3 and Figure 3, Cotter et al.'s Figure 3, Lu et al.'s Tables 7 and 9, Wang et al.'s Table 6 and
figures.  A table module is data: it imports nothing but :mod:`refsvm.reproduce.spec` and
``tables_core`` (``benchmarks/stale.py`` reads them without refsvm's compiled parts).
"""

from .tables_core import TABLES  # noqa: F401  (the registry)
from . import tables_qaadan  # noqa: F401
from . import tables_lookup  # noqa: F401
from . import tables_cotter  # noqa: F401
from . import tables_lu  # noqa: F401
from . import tables_wang  # noqa: F401
from . import tables_wang3  # noqa: F401
from . import tables_wang_libsvm  # noqa: F401
from . import tables_wang_mp  # noqa: F401
from . import tables_wang_bpa  # noqa: F401
from . import tables_wang_idsvm  # noqa: F401
from . import tables_lu3  # noqa: F401
from . import tables_lu_usps  # noqa: F401
from . import tables_wang_usps  # noqa: F401

__all__ = ["TABLES"]
