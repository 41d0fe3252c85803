"""``refsvm reproduce NAME``: rerun a paper's comparison table and print it beside the paper's numbers.

A *table* (:class:`Table`, registered in :mod:`refsvm.reproduce.tables`) is a
list of data sets and a list of *entries* (:class:`Entry`: one row of the
paper, i.e. one algorithm with its parameters).  Every entry x data set x seed
(x grid value, where the paper tuned a parameter on a grid) is one task; the
tasks run through :mod:`joblib`:

* ``--n-jobs N`` local worker processes (joblib's default ``loky`` backend);
* ``--backend dask --scheduler ADDRESS``: a ``dask.distributed.Client`` is
  connected to the scheduler and the same tasks run on the cluster through
  ``joblib.parallel_config(backend="dask")`` (the ``cluster`` extra:
  ``pip install "refsvm[cluster]"``); ``--backend ray`` through Ray's joblib
  backend (``ray.util.joblib.register_ray``; the ``ray`` extra: ``pip install
  "refsvm[ray]"``; the address goes to ``ray.init``).  No scheduling is done here: joblib hands the tasks
  to the backend.

Each task depends only on (data, parameters, seed): the visiting order and all
random numbers come from ``numpy.random.default_rng(seed)``, so the numbers do
not depend on the number of workers or the backend (timings do).

Where a parameter was chosen from a grid in the paper, all grid values are
run on the same seeds and the one with the best mean is reported (the papers
tuned on the reported runs; so do we, and the chosen value is printed).

One run is five steps, each a function of :mod:`refsvm.reproduce.driver` named for its job:
``select`` (the table, its data sets and rows), ``plan`` (the tasks; ``cross_validate`` first where a
row's grid point is chosen by 5-fold CV), ``run_tasks`` (through the joblib backend), ``summarise``
(each row beside the paper: the chosen grid point, constant classifiers, the gap's reason) and
``emit`` (:mod:`refsvm.reproduce.report`: text, JSON, PNG).  ``run_table`` is the first four and
returns the result; :func:`reproduce` is ``run_table`` then ``emit``.  The library never reads the
process's command line: ``refsvm reproduce`` passes the one it records (``command`` in the JSON).

A new algorithm joins a table with one line in :mod:`refsvm.reproduce.tables`
(an :class:`Entry` naming its runner, a function
``run(X, y, X_test, y_test, seed, **params) -> dict`` returning ``error``
(percent) and ``seconds``).
"""

from . import tables as _registry  # noqa: F401  (first: the submodule, then the function of its name)
from .driver import render, reproduce, tables
from .report import format_table, plot_table
from .gaps import REASONS, gap_reason
from .runners import run_batch, run_bsgd, run_estimator, run_online
from .spec import Dataset, Entry, Table

__all__ = ["Entry", "Dataset", "Table", "tables", "reproduce", "render", "format_table", "plot_table", "REASONS",
           "gap_reason", "run_online",
           "run_estimator", "run_batch", "run_bsgd"]
