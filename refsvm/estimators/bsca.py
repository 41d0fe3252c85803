"""The BSCA estimator: dual coordinate ascent on a budget (Qaadan, Schüler, Glasmachers 2019).

:class:`BSCAClassifier` is a thin layer over :func:`refsvm.bsca.bsca` (or its
compiled mirror :func:`refsvm._fast.bsca.bsca`): it validates the input, maps
the labels, draws the visiting order, keeps the dual variables between passes,
runs one binary machine per class for multi-class problems (one-vs-rest) and
monitors the primal and dual objectives.  The algorithm is documented in
:mod:`refsvm.bsca`.
"""

import hashlib
import numbers
import threading
import time

import numpy as np
import scipy.sparse as sp

from ..backend import BACKENDS, get_module
from ..validation import check_budget, check_int, check_option, check_positive
from .._threads import check_n_jobs
from ._base import BudgetedClassifierBase, kernel_and_maintenance_params, map_machines, shared_doc

__all__ = ["BSCAClassifier"]

KERNELS = ("rbf", "linear", "poly")
MAINTENANCES = ("removal", "projection", "merge")
SV_UPDATES = ("accumulate", "append")
SAMPLINGS = ("uniform", "permutation")
#: Trace keys that hold one entry per step / per maintenance event (concatenated over chunks).
_PER_STEP = ("changed", "added")
_PER_EVENT = ("maint_step", "maint_index", "maint_partner", "weight_degradation")
_SUMMED = ("n_steps", "mistakes", "n_zero_steps", "n_at_bound", "kernel_evaluations",
           "maintenance_seconds", "merge_seconds")


def _fingerprint(X, y, weights=None):
    h = hashlib.blake2b(digest_size=16)
    h.update(repr((X.shape, y.shape, weights is None, sp.issparse(X))).encode())
    if sp.issparse(X):                       # canonical CSR: its three arrays are the data
        for part in (X.data, X.indices, X.indptr):
            h.update(np.ascontiguousarray(part).view(np.uint8))
    else:
        h.update(np.ascontiguousarray(X).view(np.uint8))
    h.update(np.ascontiguousarray(y).view(np.uint8))
    if weights is not None:                  # other weights, other boxes: new dual variables
        h.update(np.ascontiguousarray(weights).view(np.uint8))
    return h.hexdigest()


def _join_traces(traces, starts):
    """One trace from the traces of consecutive calls starting at the given step offsets."""
    out = {k: sum(tr[k] for tr in traces) for k in _SUMMED}
    for k in _PER_STEP:
        out[k] = np.concatenate([tr[k] for tr in traces])
    for k in _PER_EVENT:
        parts = [tr[k] + s if k == "maint_step" else tr[k] for tr, s in zip(traces, starts)]
        out[k] = np.concatenate(parts)
    out["maintenance_fraction"] = len(out["maint_step"]) / out["n_steps"] if out["n_steps"] else 0.0
    return out


@shared_doc
class BSCAClassifier(BudgetedClassifierBase):
    r"""Kernel SVM trained by budgeted stochastic coordinate ascent on the dual (BSCA).

    BSCA (Qaadan, Schüler and Glasmachers, 2019, Algorithm 2) solves the dual
    of the SVM without bias,

    .. math::

        \max_{0 \le \alpha_i \le C} \; \sum_i \alpha_i - \frac12 \sum_{i,j}
        \alpha_i \alpha_j y_i y_j k(x_i, x_j),

    one coordinate at a time with the truncated Newton step, computing the
    margin from a budgeted model of at most ``budget`` support vectors; when
    a step adds a support vector beyond the budget, budget maintenance
    (merging by default) brings it back, exactly as in BSGD
    (:class:`refsvm.BudgetedSVC`).  ``C = 1 / (lambda n)`` relates it to
    BSGD's ``lam``.

    Parameters
    ----------
    budget : int or None, default=100
        B, the maximal number of support vectors of each binary machine (at
        least 2).  ``None``: no budget (plain kernel stochastic dual
        coordinate ascent; the model grows to the number of examples with
        ``alpha_i > 0``).
    C : float, default=1.0
        Upper bound of the dual variables (LIBSVM's C; > 0).
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel width, as for :class:`refsvm.BudgetedSVC` (the value used is
        ``gamma_``).
    kernel, degree, coef0
        Kernel, as for :class:`refsvm.BudgetedSVC` (``maintenance="merge"``
        requires ``kernel="rbf"``).
    maintenance : {"removal", "projection", "merge"}, default="merge"
        Budget maintenance (:mod:`refsvm.budget`).
    merge_eps, merge_solver, projection_ridge
        As for :class:`refsvm.BudgetedSVC`; all four merge solvers apply
        (every machine is binary).
    sv_update : {"accumulate", "append"}, default="accumulate"
        A step on an example that still holds an unmerged slot of the model
        adds to that slot's coefficient (``"accumulate"``; the same function,
        one maintenance event fewer) or appends a second copy as the paper's
        pseudo-code prints (``"append"``).
    sampling : {"uniform", "permutation"}, default="uniform"
        Visiting order of an epoch (n steps): indices drawn uniformly with
        replacement (Algorithm 2 as printed) or a random permutation.
    monitor_every : int, "epoch" or None, default=None
        Record the primal objective of the budgeted model, the dual
        objective, their gap and (when ``eval_set`` is passed to
        :meth:`fit`) the test accuracy every ``monitor_every`` steps (counted
        by ``t``) and at the end of every pass (``"epoch"``: only there).
        Monitoring time is not counted in ``solver_seconds_``.  Cost of one
        record: ``n B + B^2`` kernel values for the primal, ``nnz(alpha)^2`` for
        the dual (``nnz`` above ``monitor_dual_max``: the unbiased estimate of
        :func:`refsvm.bsca.dual_objective` from a sample of that size).
    monitor_dual_max : int, default=5000
        Largest ``nnz(alpha)`` for which the dual is computed exactly.
    epochs : int, default=1
    backend : {"fast", "python"}, default="fast"
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the visiting order, drawn anew for every epoch from
        ``numpy.random.default_rng(random_state)``.  (The sample of the dual
        estimate comes from a generator of its own with a fixed seed, so that
        monitoring never changes the visiting order.)
    verbose : int, default=0
        Progress lines on ``sys.stderr`` as for :class:`refsvm.BudgetedSVC`
        (``1``: about every 10 % of a pass, ``2``: every 1 %); the pass is then
        computed in pieces continuing the state (same model).
    class_weight : dict, "balanced" or None, default=None
        Weight of each class (``"balanced"``: ``n / (n_classes * count)``),
        multiplied into the ``sample_weight`` of :meth:`fit` /
        :meth:`partial_fit`.  A weight ``s_i`` scales example i's hinge loss,
        so its dual variable lives in the box ``[0, C s_i]`` (the truncated
        Newton step of Algorithm 2, line 6, clips at ``C s_i``).  Without a
        budget and run to convergence, an integer weight k gives the same
        decision function as k copies of the example (the boxes add up); a
        finite number of stochastic passes does not (n, hence the visiting
        order and the number of steps per epoch, differ, and so do the
        budget maintenance events).

    {refit_and_n_jobs}

    Attributes
    ----------
    classes_, support_vectors_, alpha_, bias_, model_, n_features_in_, t_
        As for :class:`refsvm.BudgetedSVC`; ``bias_`` is zero (BSCA has no
        bias).  Multi-class problems: ``support_vectors_`` stacks the machines
        (machine r's rows have a non-zero coefficient only in column r of
        ``alpha_``), so ``n_sv <= budget * n_classes``.
    dual_ : ndarray of shape (n_samples,) or (n_classes, n_samples)
        The dual variables of the last data passed (one row per machine).
    trace_ : list of dict
        One dictionary per pass: the keys of :func:`refsvm.bsca.bsca`'s trace
        (summed / concatenated over the machines and chunks; per machine under
        ``"machines"`` for multi-class) plus ``n_maintenance``, ``n_merges``
        and ``online_error_rate``.
    monitor_ : dict of lists
        ``t``, ``seconds`` (cumulative solver time), ``primal``, ``dual``,
        ``gap``, ``test_accuracy`` (None without ``eval_set``), ``dual_exact``.
    solver_seconds_ : float
        Wall time spent in the algorithm since :meth:`fit` (monitoring excluded).

    Notes
    -----
    Multi-class problems are solved one-vs-rest: one binary BSCA machine per
    class (labels +1 for the class, -1 for the rest), all visiting the same
    order, each with its own budget B.  Crammer–Singer's dual couples the
    classes of an example, which Algorithm 2's one-variable Newton step does
    not cover.

    :meth:`partial_fit` continues the dual variables when it is given the
    same data as the previous call (checked by a hash); on other data the
    model carries over and the dual variables of the new examples start at 0.

    References
    ----------
    S. Qaadan, M. Schüler, T. Glasmachers (2019). Dual SVM training on a
    budget. *ICPRAM 2019*, 94-106.
    """

    def __init__(self, budget=100, C=1.0, gamma="scale", kernel="rbf", degree=3, coef0=0.0,
                 maintenance="merge", merge_eps=0.01, merge_solver="gss", projection_ridge=1e-10,
                 sv_update="accumulate", sampling="uniform", monitor_every=None,
                 monitor_dual_max=5000, epochs=1, backend="fast", random_state=None, verbose=0,
                 class_weight=None, refit_bias=False, refit_rows=10000, n_jobs=None):
        self.budget = budget
        self.n_jobs = n_jobs
        self.C = C
        self.gamma = gamma
        self.kernel = kernel
        self.degree = degree
        self.coef0 = coef0
        self.maintenance = maintenance
        self.merge_eps = merge_eps
        self.merge_solver = merge_solver
        self.projection_ridge = projection_ridge
        self.sv_update = sv_update
        self.sampling = sampling
        self.monitor_every = monitor_every
        self.monitor_dual_max = monitor_dual_max
        self.epochs = epochs
        self.backend = backend
        self.random_state = random_state
        self.verbose = verbose
        self.class_weight = class_weight
        self.refit_bias = refit_bias
        self.refit_rows = refit_rows

    _supports_sample_weight = True  # bsca takes sample_weight (box [0, C s_i])
    _sparse_rows = True             # CSR rows, sparse SVs (refsvm.sparse)

    # ------------------------------------------------------------------ checks

    def _algorithm_params(self):
        kernel = check_option(self.kernel, "kernel", KERNELS)
        maintenance = check_option(self.maintenance, "maintenance", MAINTENANCES)
        check_option(self.backend, "backend", BACKENDS)
        check_option(self.sampling, "sampling", SAMPLINGS)
        if maintenance == "merge" and kernel != "rbf" and self.budget is not None:
            raise ValueError(
                f"maintenance='merge' requires kernel='rbf' (merging is derived for the "
                f"Gaussian kernel); got kernel={kernel!r}"
            )
        if isinstance(self.coef0, (bool, np.bool_)) or not isinstance(self.coef0, numbers.Real) \
                or not np.isfinite(self.coef0):
            raise ValueError(f"coef0 must be a finite real number; got {self.coef0!r}")
        me = self.monitor_every
        if not (me is None or me == "epoch"):
            check_int(me, "monitor_every", 1)
        check_int(self.monitor_dual_max, "monitor_dual_max", 2)
        check_int(self.epochs, "epochs", 1)
        return dict(
            budget=None if self.budget is None else check_budget(self.budget),
            C=check_positive(self.C, "C"),
            **kernel_and_maintenance_params(self, maintenance, kernel),
            sv_update=check_option(self.sv_update, "sv_update", SV_UPDATES),
        )

    @classmethod
    def _params_from_model(cls, model):
        params = super()._params_from_model(model)
        params["maintenance"] = "merge" if model.kernel == "rbf" else "removal"
        return params

    # ---------------------------------------------------------------- training

    def fit(self, X, y, sample_weight=None, eval_set=None, checkpoint=None, checkpoint_every="epoch", resume=False):
        """Train from scratch: ``epochs`` passes of n steps.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Weights ``s_i >= 0`` (times ``class_weight``): example i's dual
            variable lives in ``[0, C s_i]``.  ``None``: all 1.
        eval_set : tuple (X_test, y_test), optional
            Test data whose accuracy is recorded in ``monitor_`` (with
            ``monitor_every``).
        checkpoint, checkpoint_every, resume
            Checkpoints at epoch boundaries and resuming from them (see
            :meth:`refsvm.BudgetedSVC.fit`).

        Returns
        -------
        self
        """
        self._eval_set = eval_set
        self.monitor_ = {k: [] for k in ("t", "seconds", "primal", "dual", "gap", "test_accuracy",
                                         "dual_exact")}
        self.solver_seconds_ = 0.0
        return super().fit(X, y, sample_weight=sample_weight, checkpoint=checkpoint,
                           checkpoint_every=checkpoint_every, resume=resume)

    def partial_fit(self, X, y, classes=None, sample_weight=None, eval_set=None):
        """One pass of n steps continuing the model (see the class notes on the dual variables).

        ``sample_weight`` as for :meth:`fit`; other weights than in the previous
        call count as other data (the dual variables start again at 0).
        """
        self._eval_set = eval_set
        if not hasattr(self, "model_"):
            self.monitor_ = {k: [] for k in ("t", "seconds", "primal", "dual", "gap", "test_accuracy",
                                             "dual_exact")}
            self.solver_seconds_ = 0.0
        return super().partial_fit(X, y, classes=classes, sample_weight=sample_weight)

    def _initial_state(self):
        return None

    def _current_state(self):
        return getattr(self, "_state", None)

    def _machine_labels(self, y):
        if self.classes_.size == 2:
            return [y]
        return [np.where(y == r, 1, -1).astype(np.int64) for r in range(self.classes_.size)]

    def _one_pass(self, X, y, params, state):
        module = get_module("bsca", self.backend)
        n = X.shape[0]
        labels = self._machine_labels(y)
        if state is None:
            machines = [dict(sv=None, alpha=None, dual=None, sv_source=None, sv_error=None) for _ in labels]
        else:
            machines = [dict(m) for m in state["machines"]]
        fp_box, hasher = {}, None
        if state is None and len(labels) > 1 and check_n_jobs(self.n_jobs) > 1:
            # The fingerprint (a hash of X and y, about 0.35 ms per MB) is only stored here, for a
            # later partial_fit: with several threads it is hashed in one more while the machines
            # train (hashlib releases the GIL), joined after the first block (computed there if
            # that thread failed).  n_jobs=1 stays on one thread.
            hasher = threading.Thread(target=lambda: fp_box.setdefault(
                "fp", _fingerprint(X, y, params.get("sample_weight"))))
            hasher.start()
        else:
            fp_box["fp"] = _fingerprint(X, y, params.get("sample_weight"))
        if state is not None and state["fingerprint"] != fp_box["fp"]:   # other data: keep M, new duals
            for m in machines:
                m["dual"] = None
                m["sv_source"] = None if m["sv"] is None else np.full(m["sv"].shape[0], -1, np.int64)
        if self.sampling == "uniform":
            order = self._rng.integers(0, n, n).astype(np.int64)     # Alg. 2, line 4
        else:
            order = self._rng.permutation(n).astype(np.int64)
        every = self.monitor_every if isinstance(self.monitor_every, numbers.Integral) \
            and not isinstance(self.monitor_every, bool) else None
        traces = [[] for _ in labels]
        starts = []

        def run_block(sub):
            """All machines on ``sub``, continuing; timed as solver time."""
            start = time.perf_counter()
            results = map_machines(self.n_jobs, lambda r: module.bsca(X, labels[r], sub, t0=self.t_,
                                                                        **machines[r], **params),
                                   range(len(machines)))            # one-vs-rest machines in threads
            for r, res in enumerate(results):
                machines[r] = dict(sv=res.sv, alpha=res.alpha, dual=res.dual, sv_source=res.sv_source,
                                   sv_error=res.sv_error)   # removal / projection: the error bounds continue
                traces[r].append(res.trace)
            self.solver_seconds_ += time.perf_counter() - start
            starts.append(sum(len(tr["changed"]) for tr in traces[0][:-1]))
            self.t_ += len(sub)
            if hasher is not None:
                hasher.join()
                if "fp" not in fp_box:
                    fp_box["fp"] = _fingerprint(X, y, params.get("sample_weight"))
            self._state = dict(machines=machines, fingerprint=fp_box["fp"])
            self._set_stacked_model(machines)

        def run_chunk(sub):
            """A piece of the pass (all of it unless verbose), split at the monitoring points."""
            first = len(traces[0])
            a = 0
            while a < len(sub):
                b = len(sub) if every is None else min(len(sub), a + every - self.t_ % every)
                run_block(sub[a:b])
                if every is not None and self.t_ % every == 0:
                    self._monitor(module, X, labels, machines, params)
                a = b
            if len(sub) == 0:
                run_block(sub)
            chunk = [tr for m in traces for tr in m[first:]]
            trace = dict(n_steps=sum(tr["n_steps"] for tr in chunk),
                         mistakes=sum(tr["mistakes"] for tr in chunk),
                         n_maintenance=sum(len(tr["maint_step"]) for tr in chunk))
            return trace, self.support_vectors_.shape[0]

        self._run_pass(order, run_chunk)
        if self.monitor_every is not None and (not self.monitor_["t"] or self.monitor_["t"][-1] != self.t_):
            self._monitor(module, X, labels, machines, params)
        per_machine = [_join_traces(tr, starts) for tr in traces]
        trace = per_machine[0] if len(per_machine) == 1 else dict(
            _join_traces(per_machine, [0] * len(per_machine)), machines=per_machine)
        trace["n_maintenance"] = int(len(trace["maint_step"]))
        trace["n_merges"] = int(np.count_nonzero(trace["maint_partner"] >= 0))
        trace["online_error_rate"] = trace["mistakes"] / trace["n_steps"] if trace["n_steps"] else 0.0
        self.trace_.append(trace)
        return self._state

    def _set_stacked_model(self, machines):
        if len(machines) == 1:
            m = machines[0]
            self._set_model(m["sv"], m["alpha"], np.zeros(1))
            self.dual_ = m["dual"]
            return
        c = len(machines)
        svs, coefs = [], []
        for r, m in enumerate(machines):
            col = np.zeros((m["sv"].shape[0], c))
            col[:, r] = m["alpha"][:, 0]
            svs.append(m["sv"])
            coefs.append(col)
        stacked = sp.vstack(svs, format="csr") if sp.issparse(svs[0]) else np.vstack(svs)
        self._set_model(stacked, np.vstack(coefs), np.zeros(c))
        self.dual_ = np.vstack([m["dual"] for m in machines])

    def _monitor(self, module, X, labels, machines, params):
        kw = dict(kernel=params["kernel"], gamma=params["gamma"], degree=params["degree"],
                  coef0=params["coef0"])
        primal = dual = 0.0
        exact = True
        for m, yr in zip(machines, labels):
            primal += module.primal_objective(X, yr, m["sv"], m["alpha"], C=params["C"],
                                              sample_weight=params.get("sample_weight"), **kw)
            nz = np.flatnonzero(m["dual"])
            sample = None
            if len(nz) > self.monitor_dual_max:
                sample = self._monitor_rng().choice(nz, self.monitor_dual_max, replace=False)
                exact = False
            dual += module.dual_objective(X, yr, m["dual"], sample=sample, **kw)
        acc = None
        if self._eval_set is not None:
            acc = float(self.score(*self._eval_set))
        rec = self.monitor_
        rec["t"].append(int(self.t_))
        rec["seconds"].append(float(self.solver_seconds_))
        rec["primal"].append(float(primal))
        rec["dual"].append(float(dual))
        rec["gap"].append(float(primal - dual))
        rec["test_accuracy"].append(acc)
        rec["dual_exact"].append(exact)

    def _monitor_rng(self):
        # a generator of its own, so that monitoring never changes the visiting order
        if not hasattr(self, "_mrng"):
            self._mrng = np.random.default_rng(12345)
        return self._mrng
