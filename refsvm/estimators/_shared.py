"""Pieces of the solver estimators that are not methods: the shared parameter docs of the one-vs-rest
estimators (BSCA, SBP), the kernel and budget-maintenance parameters of BSGD and BSCA, and the threads
that run one-vs-rest machines."""

from .._threads import map_threads
from ..budget import MERGE_SOLVERS
from ..validation import check_gamma, check_int, check_merge_eps, check_option, check_positive


#: The ``refit_bias``, ``refit_rows`` and ``n_jobs`` parameters of the one-vs-rest estimators (BSCA, SBP): their
#: docstrings hold the line ``{refit_and_n_jobs}`` where :func:`shared_doc` puts this text.
REFIT_AND_N_JOBS_DOC = """    refit_bias : bool or "scaled", default=False
        Replace the bias after the last pass by the minimiser of the
        (weighted) hinge loss of the final model on the training data (see
        :class:`refsvm.BudgetedSVC`, also for ``"scaled"``; :mod:`refsvm.refit`).  Multi-class: one offset
        per one-vs-rest machine.
    refit_rows : int, default=10000
        At most this many training rows for ``refit_bias`` (a random
        subsample when there are more).

    n_jobs : int or None, default=None
        Threads for the one-vs-rest machines (multi-class only), joblib's
        convention: ``None`` = 1, ``-1`` = all cores.  The machines are
        independent and the compiled solver releases the GIL for its whole
        pass, so they run in parallel without a copy of ``X``; the model is
        bitwise that of ``n_jobs=1`` (the random draws are made first, in
        class order).  The python backend gains nothing from threads.  With
        ``n_jobs > 1`` a Ctrl-C takes effect when the running machines end
        their pass.  Prediction (``decision_function``, ``predict``, ``score``;
        fast backend) computes its row blocks in as many threads, bitwise
        the values of one thread.
"""


def shared_doc(cls):
    """Class decorator: the docstring's ``{refit_and_n_jobs}`` line replaced by :data:`REFIT_AND_N_JOBS_DOC`."""
    cls.__doc__ = cls.__doc__.replace("    {refit_and_n_jobs}\n", REFIT_AND_N_JOBS_DOC)
    return cls


def kernel_and_maintenance_params(est, maintenance, kernel):
    """The kernel and budget-maintenance keyword arguments of ``bsgd`` and ``bsca``, validated in this order
    (``maintenance`` and ``kernel`` already are): gamma, degree, coef0, merge_eps, merge_solver, projection_ridge."""
    return dict(
        maintenance=maintenance,
        kernel=kernel,
        gamma=check_gamma(est.gamma),
        degree=check_int(est.degree, "degree", 1),
        coef0=float(est.coef0),
        merge_eps=check_merge_eps(est.merge_eps),
        merge_solver=check_option(est.merge_solver, "merge_solver", MERGE_SOLVERS),
        projection_ridge=check_positive(est.projection_ridge, "projection_ridge", allow_zero=True),
    )


def map_machines(n_jobs, func, items):
    """``[func(item) for item in items]``, run in ``n_jobs`` threads (joblib's convention: None = 1,
    -1 = all cores).  The one-vs-rest machines are independent and each compiled solver releases the
    GIL for its whole pass, so threads run them in parallel without copying ``X``; the results come
    back in the order of ``items``, so the model is bitwise that of ``n_jobs=1``
    (:func:`refsvm._threads.map_threads`)."""
    return map_threads(n_jobs, func, items)
