"""The BSGD estimator, built on the algorithm modules of refsvm.

:class:`BudgetedSVC` is a thin layer over :func:`refsvm.bsgd.bsgd` (or its
compiled mirror :func:`refsvm._fast.bsgd.bsgd`): it validates the input, maps
the user's class labels to the internal ones, draws the visiting order of the
examples and calls the algorithm once per epoch.  Everything the algorithm
does is documented in :mod:`refsvm.bsgd` and :mod:`refsvm.budget`.

The algorithm is that of Z. Wang, K. Crammer, S. Vucetic (2012), Breaking the
curse of kernelization: budgeted stochastic gradient descent for large-scale SVM
training, *Journal of Machine Learning Research* 13, 3103-3131.
"""


import numpy as np

from ..backend import BACKENDS, get_module
from ..validation import check_bool, check_budget, check_finite_real, check_int, check_option, check_positive
from ._base import BudgetedClassifierBase, kernel_and_maintenance_params

__all__ = ["BudgetedSVC"]

KERNELS = ("rbf", "linear", "poly")
LEARNING_RATES = ("pegasos", "norma", "perceptron")
MAINTENANCES = ("removal", "projection", "merge", "random-removal", "stop")   # refsvm.budget.BSGD_MAINTENANCE
LOOKUP_SOLVERS = ("lookup-h", "lookup-wd")


class BudgetedSVC(BudgetedClassifierBase):
    r"""Kernel SVM trained by budgeted stochastic gradient descent (BSGD).

    BSGD (Wang, Crammer and Vucetic, 2012, Algorithm 1) runs stochastic
    (sub)gradient descent on the primal SVM objective

    .. math::

        \min_w \; \frac{\lambda}{2} \|w\|^2 + \frac{1}{n} \sum_{i=1}^n
        \max(0, 1 - y_i \langle w, \phi(x_i) \rangle)

    with ``w`` a kernel expansion over at most ``budget`` support vectors.
    Whenever a step adds a support vector beyond the budget, one *budget
    maintenance* step (removal, projection or merging; section 6 of the paper)
    brings the model back to ``budget`` support vectors.  Two classes give the
    binary SVM above (one coefficient column); three or more classes give the
    multi-class SVM of Crammer and Singer (section 5 of the paper; one
    coefficient column per class).

    Parameters
    ----------
    budget : int, default=100
        B, the maximal number of support vectors (at least 2).
    lam : float, default=1e-4
        The regularisation parameter lambda of the paper (``lam = 1 / (n C)``
        in terms of LIBSVM's C).  Must be > 0 for ``"pegasos"`` and
        ``"norma"``.  The margin perceptron has no regulariser (the update
        uses lambda = 0); there ``lam`` only sets the default ``radius``.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel width: the Gaussian kernel is
        ``k(x, x') = exp(-gamma ||x - x'||^2)`` (the paper's sigma); the
        polynomial kernel is ``(gamma x.x' + coef0) ** degree``.  A number
        must be > 0.  ``"scale"`` (scikit-learn's ``SVC`` default) uses
        ``1 / (n_features * X.var())`` with ``X.var()`` the variance of all
        entries of the training matrix, zeros of a sparse one included (1.0 if it is 0);
        ``"auto"`` uses ``1 / n_features``.  The value used is ``gamma_``,
        fixed by :meth:`fit` or the first :meth:`partial_fit`.
    kernel : {"rbf", "linear", "poly"}, default="rbf"
        Kernel function (:mod:`refsvm.kernels`).  ``maintenance="merge"``
        requires ``"rbf"``.
    degree : int, default=3
        Degree of the polynomial kernel (at least 1).
    coef0 : float, default=0.0
        Constant of the polynomial kernel.
    learning_rate : {"pegasos", "norma", "perceptron"}, default="pegasos"
        Step size schedule of Table 2 of the paper, with ``t`` the index of the
        step (counted over all examples visited, across epochs):
        ``"pegasos"``: ``1 / (lam t)``; ``"norma"``: ``eta / sqrt(t)``;
        ``"perceptron"`` (margin perceptron): ``eta``, no regulariser, and
        after every step ``w`` is projected onto the ball of radius
        ``radius``.
    eta : float or None, default=None
        The constant eta of ``"norma"`` and ``"perceptron"`` (> 0).  Ignored
        by ``"pegasos"``.  ``None`` means ``1 / sqrt(lam)`` for Norma and
        ``0.1`` for the margin perceptron.  Norma's step ``eta / sqrt(t)``
        shrinks ``w`` by ``eta_t lam`` a step, ``2 eta lam sqrt(T)`` in all
        over ``T`` steps: with ``eta`` of order 1 (Kivinen et al.'s 1, used by
        Wang et al. in section 7) and ``lam = 1e-4`` that is far below 1 after
        one pass, the margin condition holds for almost every example and the
        model ends as the majority vote (constant on ijcnn1, w8a and a9a).
        ``1 / sqrt(lam)``, the norm bound of the regularised minimiser that
        also sets the margin perceptron's ``radius``, learns on every shipped
        data set (``benchmarks/bench_defaults.py``).
    radius : float or None, default=None
        U, the radius of the ball the margin perceptron projects ``w`` onto
        (> 0; ``numpy.inf`` switches the projection off).  ``None`` means
        ``1 / sqrt(lam)``, the radius of the ball that contains the minimiser
        of the regularised objective (Shalev-Shwartz et al., 2011).  Only
        used by ``learning_rate="perceptron"``.
    maintenance : {"removal", "projection", "merge", "random-removal", "stop"}, default="merge"
        Budget maintenance strategy (section 6 of the paper,
        :mod:`refsvm.budget`): remove the support vector with the smallest
        ``||alpha_p||^2 k(x_p, x_p)``; project it onto the others (eq. 14); or
        merge it with the partner that minimises the weight degradation
        (Gaussian kernel only).  The baselines of the paper's section 7.3:
        ``"random-removal"`` removes a uniformly drawn support vector
        (MP+random; the draws come from ``random_state``, see there) and
        ``"stop"`` the one just added, so the model stops growing at the
        budget (MP+stop).
    merge_eps : float, default=0.01
        Precision (final bracket width) of the golden-section search that
        places the merged point (> 0); used by ``merge_solver="gss"``.  On
        long streams (millions of steps) 0.01 lets the gradient error grow:
        a fresh SV merged into one carrying many merged examples loses the
        heavy SV's weight to the error in h (``refsvm reproduce
        wang2012-table6-10m-gss``); 1e-4 (BudgetedSVM's) or
        ``merge_solver="gss-precise"`` keeps it at the paper's level.
    merge_solver : {"gss", "gss-precise", "lookup-h", "lookup-wd"}, default="gss"
        How merging solves each candidate pair: golden-section search to
        ``merge_eps`` (``"gss"``; 0.01 is Glasmachers & Qaadan's "GSS", their
        reading of the reference implementation; BudgetedSVM, the toolbox of
        Wang and Vucetic's group, searches to 1e-4) or to
        ``1e-10`` (``"gss-precise"``), or bilinear lookup in precomputed tables
        (Glasmachers & Qaadan, :mod:`refsvm.lookup`): ``"lookup-h"`` looks up h,
        ``"lookup-wd"`` the weight degradation.  The lookup solvers apply to
        binary problems only (ValueError for more than two classes).
    projection_ridge : float, default=1e-10
        Ridge added to the kernel matrix of the remaining support vectors
        before solving the projection system (>= 0).
    fit_bias : bool, default=False
        Learn an unregularised bias with the subgradient step
        ``b <- b + beta_t``.  The paper has no bias (its footnote 2); this is
        an extension.
    epochs : int, default=1
        Number of passes over the training data in :meth:`fit` (the paper
        uses one).  The step counter ``t`` continues across epochs.
    backend : {"fast", "python"}, default="fast"
        ``"fast"`` runs the compiled :mod:`refsvm._fast.bsgd`, ``"python"``
        the reference :mod:`refsvm.bsgd`.  Both give the same model up to
        floating-point rounding.  ``"fast"`` raises :class:`RuntimeError`
        when refsvm was installed without its compiled extension.
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the visiting order.  :meth:`fit` creates
        ``rng = numpy.random.default_rng(random_state)`` and visits the
        examples in the order ``rng.permutation(n)``, drawn anew for every
        epoch; with ``maintenance="random-removal"`` each pass then draws
        ``rng.random(n)``, the uniform numbers ``u_t`` whose slot
        ``floor(u_t (B + 1))`` the removal takes (no other strategy draws
        them).  :meth:`partial_fit` keeps ``rng`` between calls.  An int gives
        reproducible results; a ``Generator`` is used (and advanced) as is.
    verbose : int, default=0
        ``0``: silent.  ``1``: a progress line on ``sys.stderr`` at the end of
        every pass (epoch or :meth:`partial_fit` call) and, on passes of more
        than 1,000 examples, about every 10 % of the pass: examples per second,
        support vectors, budget maintenance events and the online error so far
        (:mod:`refsvm.estimators._progress`).  ``2``: about every 1 %.  The pass is then
        computed in pieces (one call of the algorithm per piece, continuing
        the model): same model, see DESIGN.md.
    class_weight : dict, "balanced" or None, default=None
        Weight of each class: ``{label: weight}``, ``"balanced"``
        (``n_samples / (n_classes * numpy.bincount(y))``, from the data of
        :meth:`fit`; refused by :meth:`partial_fit`) or ``None`` (all 1).
        Multiplies the ``sample_weight`` of :meth:`fit` / :meth:`partial_fit`.
        The weight ``s_t`` of an example scales its loss, hence its step:
        Alg. 1, line 7 adds the support vector with ``beta_t = s_t eta_t y_t``
        (multi-class: ``+-s_t eta_t``), and an example of weight 0 adds
        nothing (see :func:`refsvm.bsgd.bsgd`).  For imbalanced data
        (ijcnn1, w8a) ``"balanced"`` trades accuracy for balanced accuracy.

    refit_bias : bool or "scaled", default=False
        After the last pass (of :meth:`fit`; of every :meth:`partial_fit`
        call), replace the bias by the value that minimises the (weighted)
        hinge loss of the final model on the training data: the kernel part
        is kept, the one-dimensional convex piecewise-linear problem is solved
        exactly by sorting its kinks (:mod:`refsvm.refit`; O(m log m) after
        one prediction pass over the m rows).  The last iterate of a
        stochastic pass stops at a threshold that depends on the last few
        examples; this removes that lottery.  ``"scaled"``: the bias
        becomes the threshold ``b*/s*`` of the scale and offset that jointly
        minimise the hinge loss of ``s f + b`` (golden-section search over
        ``s``, exact offset for each; the recommended setting for binary
        problems, see docs/refit.rst); predictions are those of the rescaled
        model.  Multi-class (Crammer-Singer): per-class offsets
        minimising the multi-class hinge loss by exact coordinate steps.  ``False``
        (default): the algorithm's model, unchanged.
    refit_rows : int, default=10000
        At most this many training rows are used by ``refit_bias`` (a random
        subsample, drawn from a generator spawned from ``random_state``, when
        there are more).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted (``numpy.unique(y)``).  Binary problems map
        ``classes_[0]`` to -1 and ``classes_[1]`` to +1 (a positive decision
        value predicts ``classes_[1]``); multi-class problems map
        ``classes_[j]`` to ``j``.
    support_vectors_ : ndarray of shape (n_sv, n_features)
        The support vectors (``n_sv <= budget``).  Merged support vectors are
        points of their own, not training examples.
    alpha_ : ndarray of shape (n_sv, c)
        The coefficients of the kernel expansion, ``c = 1`` for binary
        problems and ``c = n_classes`` otherwise:
        ``f^(i)(x) = sum_j alpha_[j, i] k(support_vectors_[j], x) + bias_[i]``.
    gamma_ : float
        The kernel width used (``gamma`` resolved from the training data
        when it is ``"scale"`` or ``"auto"``); saved with the model.
    bias_ : ndarray of shape (c,)
        The bias (zero unless ``fit_bias=True``).
    model_ : refsvm.model.BudgetedModel
        The same model as a self-contained object (prediction, save/load).
    n_features_in_ : int
        Number of features seen during :meth:`fit`.
    feature_names_in_ : ndarray of shape (n_features,)
        Names of the features seen during :meth:`fit`; only defined when ``X``
        had string column names (a data frame).
    t_ : int or None
        The step counter: the number of examples visited so far (over all
        epochs and :meth:`partial_fit` calls).  ``None`` for an estimator
        made by :meth:`load`.
    trace_ : list of dict
        One dictionary per pass over the data (epoch of :meth:`fit` or call of
        :meth:`partial_fit`): the trace returned by :func:`refsvm.bsgd.bsgd`
        (keys ``mistakes``, ``n_steps``, ``added``, ``maint_step``,
        ``maint_index``, ``maint_partner``, ``weight_degradation``,
        ``gradient_error_sum``, ``maintenance_seconds``, ``merge_seconds``; see
        DESIGN.md) plus ``n_maintenance`` (number of budget maintenance events),
        ``n_merges`` (events that merged two SVs), ``merging_frequency``
        (``n_merges / n_steps``, Table 3 of Glasmachers & Qaadan),
        ``online_error_rate`` (``mistakes / n_steps``) and
        ``mean_gradient_error`` (the paper's E-bar,
        ``gradient_error_sum / n_steps``).

    See Also
    --------
    refsvm.bsgd.bsgd : The algorithm (one pass).
    refsvm.model.BudgetedModel : The fitted model.

    Notes
    -----
    Sparse input (any scipy sparse matrix, read as CSR) is never densified:
    the SVs keep the data's sparsity on both backends (a new SV is its row, a
    merged SV the union of two rows; :mod:`refsvm.sparse`), kernel rows cost one
    sparse dot per SV, and the model's ``support_vectors_`` is a CSR matrix.
    A model trained on sparse data predicts dense rows and vice versa.

    Run time per step is O(B d) for prediction and removal, O(B^2) more for
    projection (O(B^3) in the reference path), and O(B (d + log(1/merge_eps)))
    for merging.

    References
    ----------
    Z. Wang, K. Crammer, S. Vucetic (2012). Breaking the curse of
    kernelization: budgeted stochastic gradient descent for large-scale SVM
    training. *Journal of Machine Learning Research* 13, 3103-3131.

    S. Shalev-Shwartz, Y. Singer, N. Srebro, A. Cotter (2011). Pegasos:
    primal estimated sub-gradient solver for SVM. *Mathematical Programming*
    127(1), 3-30.

    Examples
    --------
    >>> from refsvm import BudgetedSVC
    >>> from refsvm.datasets import checkerboard
    >>> X, y = checkerboard(2000, random_state=0)
    >>> clf = BudgetedSVC(budget=50, gamma=30.0, random_state=0).fit(X, y)
    >>> clf.support_vectors_.shape
    (50, 2)
    """

    _supports_sample_weight = True  # bsgd takes sample_weight
    _sparse_rows = True             # CSR rows, sparse SVs (refsvm.sparse)
    _mid_epoch_checkpoints = True   # _one_pass hands its in-pass state to _run_pass ("<k>steps" checkpoints)
    _refit_multiclass = "crammer-singer"  # refit_bias: the multi-class hinge loss (module _base)

    def __init__(
        self,
        budget=100,
        lam=1e-4,
        gamma="scale",
        kernel="rbf",
        degree=3,
        coef0=0.0,
        learning_rate="pegasos",
        eta=None,
        radius=None,
        maintenance="merge",
        merge_eps=0.01,
        merge_solver="gss",
        projection_ridge=1e-10,
        fit_bias=False,
        epochs=1,
        backend="fast",
        random_state=None,
        verbose=0,
        class_weight=None,
        refit_bias=False,
        refit_rows=10000,
    ):
        self.budget = budget
        self.lam = lam
        self.gamma = gamma
        self.kernel = kernel
        self.degree = degree
        self.coef0 = coef0
        self.learning_rate = learning_rate
        self.eta = eta
        self.radius = radius
        self.maintenance = maintenance
        self.merge_eps = merge_eps
        self.merge_solver = merge_solver
        self.projection_ridge = projection_ridge
        self.fit_bias = fit_bias
        self.epochs = epochs
        self.backend = backend
        self.random_state = random_state
        self.verbose = verbose
        self.class_weight = class_weight
        self.refit_bias = refit_bias
        self.refit_rows = refit_rows

    # ------------------------------------------------------------------ checks

    def _algorithm_params(self):
        """Validate the hyper-parameters; return the keyword arguments of ``bsgd``."""
        learning_rate = check_option(self.learning_rate, "learning_rate", LEARNING_RATES)
        kernel = check_option(self.kernel, "kernel", KERNELS)
        maintenance = check_option(self.maintenance, "maintenance", MAINTENANCES)
        check_option(self.backend, "backend", BACKENDS)
        if maintenance == "merge" and kernel != "rbf":
            raise ValueError(
                f"maintenance='merge' requires kernel='rbf' (merging is derived for the "
                f"Gaussian kernel); got kernel={kernel!r}"
            )
        if learning_rate == "perceptron":
            if self.radius is None:
                radius = 1.0 / np.sqrt(check_positive(self.lam, "lam"))
            else:
                radius = self._check_radius()
            lam = 0.0
        else:
            lam = check_positive(self.lam, "lam")
            radius = np.inf
        check_bool(self.fit_bias, "fit_bias")
        check_finite_real(self.coef0, "coef0")
        check_int(self.epochs, "epochs", 1)
        return dict(
            budget=check_budget(self.budget),
            lam=lam,
            learning_rate=learning_rate,
            eta=self._resolve_eta(learning_rate),
            radius=float(radius),
            **kernel_and_maintenance_params(self, maintenance, kernel),
            fit_bias=bool(self.fit_bias),
        )

    def _resolve_eta(self, learning_rate):
        """``eta``, or its default when ``None``: Norma ``1 / sqrt(lam)``, margin perceptron ``0.1``."""
        if self.eta is not None:
            return check_positive(self.eta, "eta")
        if learning_rate == "norma":
            return 1.0 / np.sqrt(check_positive(self.lam, "lam"))
        return 0.1

    def _check_solver_classes(self, params, classes):
        """Lookup merging needs a binary problem (equal-sign pairs, m in [0, 1])."""
        if params["maintenance"] == "merge" and params["merge_solver"] in LOOKUP_SOLVERS and len(classes) > 2:
            raise ValueError(
                f"merge_solver={params['merge_solver']!r} applies to binary problems only "
                f"(got {len(classes)} classes); use 'gss' or 'gss-precise'"
            )

    def _check_radius(self):
        if self.radius == np.inf:
            return np.inf
        return check_positive(self.radius, "radius")

    @classmethod
    def _params_from_model(cls, model):
        params = super()._params_from_model(model)
        params["maintenance"] = "merge" if model.kernel == "rbf" else "removal"  # merging needs rbf
        return params

    def _one_pass(self, X, y, params, state):
        """Run ``bsgd`` over ``rng.permutation(n)`` (in chunks when verbose); store model and trace."""
        bsgd = get_module("bsgd", self.backend).bsgd
        order = self._rng.permutation(X.shape[0]).astype(np.int64)
        random_removal = params["maintenance"] == "random-removal" and params["budget"] is not None
        uniforms = self._rng.random(X.shape[0]) if random_removal else None   # u_t: no other strategy draws
        model = list(state)
        done = [0]                     # steps of this pass run so far (chunks are consecutive)

        def run_chunk(sub_order):
            sv, alpha, bias = model
            Xc, yc, oc, kw = X, y, sub_order, params
            if len(sub_order) < len(order):  # a chunk: validate its rows only, not all of X
                Xc, yc, oc = X[sub_order], y[sub_order], np.arange(len(sub_order), dtype=np.int64)
                if params.get("sample_weight") is not None:
                    kw = dict(params, sample_weight=params["sample_weight"][sub_order])
            if uniforms is not None:
                kw = dict(kw, uniforms=uniforms[done[0]:done[0] + len(sub_order)])
            result = bsgd(
                Xc, yc, oc, n_classes=self.classes_.size, sv=sv, alpha=alpha, bias=bias,
                t0=self.t_, **kw,
            )
            model[:] = result.sv, result.alpha, result.bias
            done[0] += len(sub_order)
            self.t_ = int(result.t)
            return result.trace, result.sv.shape[0]

        trace = dict(self._run_pass(order, run_chunk, carry={"model": model, "done": done}))
        n_steps = trace["n_steps"]
        trace["n_maintenance"] = int(len(trace["maint_step"]))
        trace["n_merges"] = int(np.count_nonzero(trace["maint_partner"] >= 0))
        trace["merging_frequency"] = trace["n_merges"] / n_steps if n_steps else 0.0
        trace["online_error_rate"] = trace["mistakes"] / n_steps
        trace["mean_gradient_error"] = trace["gradient_error_sum"] / n_steps
        self.trace_.append(trace)
        self._set_model(*model)
        return self.support_vectors_, self.alpha_, self.bias_

