"""``refsvm reproduce NAME``: rerun a paper's comparison table and print it beside the paper's numbers.

A *table* (:class:`Table`, registered in :mod:`refsvm.reproduce.tables`) is a
list of data sets and a list of *entries* (:class:`Entry`: one row of the
paper, i.e. one algorithm with its parameters).  Every entry x data set x seed
(x grid value, where the paper tuned a parameter on a grid) is one task; the
tasks run through :mod:`joblib`:

* ``--n-jobs N`` local worker processes (joblib's default ``loky`` backend);
* ``--backend dask --scheduler ADDRESS``: a ``dask.distributed.Client`` is
  connected to the scheduler and the same tasks run on the cluster through
  ``joblib.parallel_config(backend="dask")`` (needs ``pip install
  "dask[distributed]"``); ``--backend ray`` through Ray's joblib backend
  (``ray.util.joblib.register_ray``, needs ``pip install ray``; the address
  goes to ``ray.init``).  No scheduling is done here: joblib hands the tasks
  to the backend.

Each task depends only on (data, parameters, seed): the visiting order and all
random numbers come from ``numpy.random.default_rng(seed)``, so the numbers do
not depend on the number of workers or the backend (timings do).

Where a parameter was chosen from a grid in the paper, all grid values are
run on the same seeds and the one with the best mean is reported (the papers
tuned on the reported runs; so do we, and the chosen value is printed).

A new algorithm joins a table with one line in :mod:`refsvm.reproduce.tables`
(an :class:`Entry` naming its runner, a function
``run(X, y, X_test, y_test, seed, **params) -> dict`` returning ``error``
(percent) and ``seconds``).
"""

from .driver import format_table, plot_table, render, reproduce, tables
from .gaps import REASONS, gap_reason
from .runners import run_batch, run_bsgd, run_estimator, run_online
from .spec import Dataset, Entry, Table

__all__ = ["Entry", "Dataset", "Table", "tables", "reproduce", "render", "format_table", "plot_table", "REASONS",
           "gap_reason", "run_online",
           "run_estimator", "run_batch", "run_bsgd"]
