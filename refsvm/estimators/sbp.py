"""The SBP estimator: the kernelized Stochastic Batch Perceptron.

:class:`SBPClassifier` is a thin layer over :func:`refsvm.sbp.optimize` (or
its compiled mirror :func:`refsvm._fast.sbp.optimize`): it validates the input,
maps the labels, draws the uniform numbers of the sampling step and calls the
algorithm once per epoch (``n`` iterations), continuing its state.

A. Cotter, S. Shalev-Shwartz, N. Srebro (2012). The kernelized stochastic
batch perceptron. *Proceedings of the 29th International Conference on
Machine Learning (ICML)*.
"""


import numpy as np
from sklearn.utils.metaestimators import available_if

from ..backend import BACKENDS, get_module
from ..validation import check_bool, check_finite_real, check_gamma, check_int, check_nu, check_option
from ._base import BudgetedClassifierBase, map_machines, shared_doc

__all__ = ["SBPClassifier"]

KERNELS = ("rbf", "linear", "poly")


def _never(self):
    return False


@shared_doc
class SBPClassifier(BudgetedClassifierBase):
    r"""Kernel SVM trained by the Stochastic Batch Perceptron (SBP).

    SBP (Cotter, Shalev-Shwartz and Srebro, 2012) solves the slack-constrained
    SVM problem

    .. math::

        \max_{\|w\| \le 1} \; \max_{\xi \ge 0,\ \mathbf 1^T\xi \le n\nu}
        \; \min_i \; y_i \langle w, \phi(x_i) \rangle + \xi_i

    by stochastic supergradient ascent: every iteration finds the *water
    level* of the responses ``c_i = y_i <w, phi(x_i)>`` (the volume ``n nu``
    poured over them), samples one example uniformly below the level and
    adds it to ``w`` (``n`` kernel evaluations per iteration).  The output is
    the averaged iterate divided by its water level.  It is a batch method:
    every iteration looks at the whole training set.

    Two classes give the binary SVM above.  More classes are trained
    one-vs-rest: one binary SBP per class (``classes_[r]`` against the rest,
    its own uniform numbers), stacked into one model whose column ``r`` holds
    the coefficients of class ``r`` (zero where a training point is not a
    support vector of that class); the prediction is the class of the largest
    decision value.

    Parameters
    ----------
    nu : float, default=0.01
        The slack per example (>= 0); the total slack is ``n nu``.  The
        paper derives it from a regularisation parameter lambda and a
        reference SVM solution (:func:`refsvm.sbp.nu_from_svc`,
        :func:`refsvm.sbp.nu_from_solution`); ``nu = 0`` is the hard-margin
        (separable) problem.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel width: the Gaussian kernel is ``exp(-gamma ||x - x'||^2)``
        (the paper's ``1 / (2 sigma^2)``); the polynomial kernel is
        ``(gamma x.x' + coef0) ** degree``.  A number > 0, or scikit-learn's
        ``"scale"`` (``1 / (n_features X.var())``) / ``"auto"``
        (``1 / n_features``), resolved at fit time into ``gamma_``.
    kernel : {"rbf", "linear", "poly"}, default="rbf"
    degree : int, default=3
    coef0 : float, default=0.0
    epochs : int, default=10
        Number of epochs of ``n`` iterations each (the paper runs ten).
    fit_intercept : bool, default=False
        Learn an unregularised bias (section 3.6 of the paper): the water
        level of Algorithm 3 (two basins) instead of Algorithm 2.
    cache_rows : int, default=0
        Keep up to this many kernel rows between iterations (least recently
        used evicted; memory ``cache_rows * n * 8`` bytes).  Never changes the
        model, only the number of kernel evaluations (``trace_``).
    backend : {"fast", "python"}, default="fast"
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the uniform numbers of the sampling step:
        ``rng.random(n)`` per epoch (and per class for one-vs-rest).
    verbose : int, default=0
        ``1``: a progress line on stderr after about every tenth of an epoch,
        ``2``: every hundredth (:mod:`refsvm.estimators._progress`; "online error" is the
        fraction of iterations whose sampled example the current iterate
        misclassifies).  The run is then made of several calls of
        ``optimize`` continuing the state: the same model; only the kernel
        row cache starts empty in every call.
    class_weight : dict, "balanced" or None, default=None
        Weight of each class, multiplied into ``fit``'s ``sample_weight``: a
        weighted slack ``sum_i s_i xi_i <= nu sum_i s_i`` with its weighted
        water level, both paths (see :meth:`fit`; ``fit_intercept=False``
        only).

    {refit_and_n_jobs}

    Attributes
    ----------
    classes_, support_vectors_, alpha_, bias_, model_, n_features_in_
        As :class:`refsvm.BudgetedSVC`: ``f(x) = sum_j alpha_[j] k(sv_j, x) + bias_``
        with ``alpha_ = y_j alpha_bar_j / gamma_bar`` over the training points
        with non-zero ``alpha_bar`` (the support vectors).
    water_level_ : ndarray of shape (c,)
        ``gamma_bar`` of each binary problem (line 13 of Algorithm 1).
    t_ : int
        Iterations done per binary problem.
    trace_ : list of dict
        One dict per epoch: the trace of :func:`refsvm.sbp.optimize` (binary)
        or ``{"per_class": [...], "kernel_evaluations": total}`` (one-vs-rest).

    Notes
    -----
    There is no ``partial_fit``: SBP's iterate is a vector over the training
    set, so it cannot continue on other data.

    Examples
    --------
    >>> from refsvm import SBPClassifier
    >>> from refsvm.datasets import checkerboard
    >>> X, y = checkerboard(400, random_state=0)
    >>> clf = SBPClassifier(nu=0.05, gamma=30.0, epochs=5, random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.8
    True
    """

    _supports_sample_weight = True  # weighted water level (fit_intercept=False)
    _sparse_rows = True             # CSR rows; the SVs are rows of X (refsvm.sparse)
    #: the progress lines' name for the trace's mistakes: line 6 samples only points under the water level
    _error_label = "error on sampled low-margin points"

    def __init__(self, nu=0.01, gamma="scale", kernel="rbf", degree=3, coef0=0.0, epochs=10,
                 fit_intercept=False, cache_rows=0, backend="fast", random_state=None, verbose=0,
                 class_weight=None, refit_bias=False, refit_rows=10000, n_jobs=None):
        self.nu = nu
        self.n_jobs = n_jobs
        self.gamma = gamma
        self.kernel = kernel
        self.degree = degree
        self.coef0 = coef0
        self.epochs = epochs
        self.fit_intercept = fit_intercept
        self.cache_rows = cache_rows
        self.backend = backend
        self.random_state = random_state
        self.verbose = verbose
        self.class_weight = class_weight
        self.refit_bias = refit_bias
        self.refit_rows = refit_rows

    def fit(self, X, y, sample_weight=None, checkpoint=None, checkpoint_every="epoch", resume=False):
        """Train: ``epochs`` epochs of ``n`` SBP iterations on ``(X, y)``.

        ``sample_weight`` (times ``class_weight``): example weights ``s_i >= 0``
        (not in the paper).  The slack budget becomes ``sum_i s_i xi_i <= nu
        sum_i s_i``: the water level is the weighted one and an example under
        water is sampled with probability proportional to its weight
        (:func:`refsvm.sbp.optimize`); weight 0 removes an example.  Only
        with ``fit_intercept=False`` (the two-basin level of Algorithm 3 has no
        weighted form here; a ValueError says so).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training examples (sparse input is read as CSR, never densified).
        y : array-like of shape (n_samples,)
            Class labels (at least two distinct values).
        checkpoint, checkpoint_every, resume
            Checkpoints at epoch boundaries and resuming from them (see
            :meth:`refsvm.BudgetedSVC.fit`).

        Returns
        -------
        self : SBPClassifier
        """
        return super().fit(X, y, sample_weight=sample_weight, checkpoint=checkpoint,
                           checkpoint_every=checkpoint_every, resume=resume)

    @available_if(_never)
    def partial_fit(self, X, y, classes=None, sample_weight=None):  # pragma: no cover - not available
        """Not available (SBP is a batch method over a fixed training set)."""

    def _algorithm_params(self):
        kernel = check_option(self.kernel, "kernel", KERNELS)
        check_option(self.backend, "backend", BACKENDS)
        check_bool(self.fit_intercept, "fit_intercept")
        check_finite_real(self.coef0, "coef0")
        check_int(self.epochs, "epochs", 1)
        return dict(
            nu=check_nu(self.nu),
            kernel=kernel,
            gamma=check_gamma(self.gamma),
            degree=check_int(self.degree, "degree", 1),
            coef0=float(self.coef0),
            fit_bias=bool(self.fit_intercept),
            cache_rows=check_int(self.cache_rows, "cache_rows", 0),
        )

    def _initial_state(self):
        return None

    def _one_pass(self, X, y, params, state):
        """One epoch (n iterations) of every binary problem; store the stacked model."""
        optimize = get_module("sbp", self.backend).optimize
        n = X.shape[0]
        if self.classes_.size == 2:
            problems = [y]
        else:
            problems = [np.where(y == r, 1, -1).astype(np.int64) for r in range(self.classes_.size)]
        if state is None:
            state = [None] * len(problems)
        uniforms = [self._rng.random(n) for _ in problems]    # drawn in class order, as with n_jobs=1

        def machine(r):
            last = {"state": state[r]}

            def run_chunk(u_chunk):
                res = optimize(X, problems[r], u_chunk, state=last["state"], **params)
                last["state"], last["result"] = res.state, res
                return res.trace, int(np.count_nonzero(res.coef))

            trace = dict(self._run_pass(uniforms[r], run_chunk, label=None if len(problems) == 1 else (
                f"{getattr(self, '_progress_label', 'pass')}, class {_label(self.classes_[r])} vs rest "
                f"({r + 1}/{len(problems)})")))
            res = last["result"]
            trace["water_level_bar"], trace["bias_bar"] = res.trace["water_level_bar"], res.trace["bias_bar"]
            trace["cache_hit_rate"] = trace["cache_hits"] / trace["n_iterations"] if n else 0.0
            return res, trace

        done = map_machines(self.n_jobs, machine, range(len(problems)))   # one-vs-rest machines in threads
        results = [res for res, _ in done]
        traces = [trace for _, trace in done]
        coef = np.column_stack([r.coef for r in results])
        support = np.flatnonzero(np.any(coef != 0.0, axis=1))
        self._set_model(X[support], coef[support], np.array([r.bias for r in results]))
        self.water_level_ = np.array([r.water_level for r in results])
        self.t_ = int(results[0].state.t)
        if len(results) == 1:
            self.trace_.append(traces[0])
        else:
            self.trace_.append({
                "per_class": traces,
                "kernel_evaluations": int(sum(tr["kernel_evaluations"] for tr in traces)),
            })
        return [r.state for r in results]


def _label(value):
    """A class label as the progress lines print it (``3`` for 3.0, strings as they are)."""
    return f"{value:g}" if isinstance(value, (int, float, np.integer, np.floating)) else str(value)
