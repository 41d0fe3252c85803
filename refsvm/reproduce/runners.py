"""The task functions of ``refsvm reproduce``: ``run(X, y, X_test, y_test, seed, **params) -> dict``.

Each returns ``error`` (percent), ``seconds`` and ``majority_share`` (the final model's share of its most
frequent class on the evaluated rows); ``online=True`` where ``error`` is the online mistake rate, which
counted the pass's predictions, not the final model's (see :func:`refsvm.reproduce.driver.is_constant`).  A table's :class:`~refsvm.reproduce.spec.Entry`
names one as ``"refsvm.reproduce.runners:run_online"`` and the like.
"""

import time

import numpy as np
from sklearn.base import is_regressor

from ..estimators.registry import estimator_class

__all__ = ["run_online", "run_estimator", "run_batch", "pass_orders", "pass_draws", "bsgd_passes", "run_bsgd",
           "run_bsgd_multiclass", "run_svc", "decision_values",
           "online_squared_loss", "minmax_scale", "run_estimator_scaled"]


def _labels_pm1(y):
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"binary data expected, got classes {classes!r}")
    return np.where(y == classes[1], 1, -1).astype(np.int64)


#: a run whose final model gives one class to at least this share of the evaluated rows is "constant"
CONSTANT_SHARE = 0.99
_CHECK_ROWS = 2000


def _rows_to_check(X, X_test):
    """An evenly spaced subsample (at most 2,000 rows) of the test split, else of the training data."""
    Z = X if X_test is None else X_test
    if Z.shape[0] > _CHECK_ROWS:
        Z = Z[np.linspace(0, Z.shape[0] - 1, _CHECK_ROWS).astype(int)]
    return np.ascontiguousarray(Z)


def majority_share(labels):
    """The share of the most frequent value of ``labels`` (1.0: a constant prediction)."""
    _, counts = np.unique(np.asarray(labels), return_counts=True)
    return float(counts.max() / counts.sum()) if counts.size else 1.0


def _expansion_share(sv, alpha, bias, gamma, X, X_test, backend, zero_prediction="mistake"):
    from ..backend import get_module

    Z = _rows_to_check(X, X_test)
    if not len(sv):
        return 1.0
    f = get_module("kernels", backend).kernel_matrix(Z, sv, "rbf", gamma, 3, 0.0) @ alpha[:, 0] + bias[0]
    return majority_share(f >= 0 if zero_prediction == "positive" else f > 0)


def run_online(X, y, X_test, y_test, seed, *, algorithm, backend="fast", **params):
    """One pass of a learner of :mod:`refsvm.online` over ``rng.permutation(n)``.

    ``rng = default_rng(seed)``; the order first, then one uniform per step.
    Returns the online mistake rate (``error``, percent) and, with a test
    split, the test error of the final model (``test_error``); ``seconds`` is
    the time of the pass.
    """
    from ..backend import get_module

    module = get_module("online", backend)
    rng = np.random.default_rng(seed)
    order = rng.permutation(X.shape[0]).astype(np.int64)
    uniforms = rng.random(X.shape[0])
    name = "projectron" if algorithm in ("projectron", "projectron++") else algorithm
    if name == "projectron":
        params = dict(params, plusplus=algorithm == "projectron++")
    kernel = dict(kernel="rbf", degree=3, coef0=0.0)
    start = time.perf_counter()
    if name in ("rbp", "bogd"):
        res = getattr(module, name)(X, y, order, uniforms, **kernel, **params)
    else:
        res = getattr(module, name)(X, y, order, **kernel, **params)
    seconds = time.perf_counter() - start
    zero = params.get("zero_prediction", "mistake")
    out = dict(error=100.0 * res.trace["mistakes"] / len(order), seconds=seconds, n_sv=len(res.sv),
               majority_share=_expansion_share(res.sv, res.alpha, res.bias, params["gamma"], X, X_test, backend,
                                               zero))
    if X_test is None:
        out["online"] = True                      # error counts the online predictions, not the final model's
    else:
        out["error"] = _test_error(res.sv, res.alpha, res.bias, params["gamma"], X_test, y_test, backend,
                                   zero_prediction=zero)
        out["online_error"] = 100.0 * res.trace["mistakes"] / len(order)
    return out


def run_estimator(X, y, X_test, y_test, seed, *, estimator, **params):
    """Any refsvm estimator by dotted name (``"refsvm.OnlineKernelClassifier"``), ``random_state=seed``.

    ``error``: the test error with a test split, else the online mistake rate
    of the (first) pass, ``trace_[0]["online_error_rate"]``, in percent.  A
    regressor (``FOGDRegressor``, ``OnlineKernelRegressor``...) reports its
    online mean squared loss instead (:func:`online_squared_loss`; the test
    mean squared error with a test split) and no ``majority_share``.
    """
    est = estimator_class(estimator)(random_state=seed, **params)   # a solver name or "refsvm.Class"
    start = time.perf_counter()
    est.fit(X, y)
    seconds = time.perf_counter() - start
    regressor = is_regressor(est)
    if X_test is not None:
        pred = est.predict(X_test)
        error = float(np.mean((pred - y_test) ** 2)) if regressor else 100.0 * float(np.mean(pred != y_test))
    else:
        error = online_squared_loss(est.trace_[0]) if regressor else 100.0 * float(est.trace_[0]["online_error_rate"])
    share = {} if regressor else dict(majority_share=majority_share(est.predict(_rows_to_check(X, X_test))))
    return dict(error=error, seconds=seconds, n_sv=int(len(getattr(est, "support_vectors_", ()))), **share,
                **({"online": True} if X_test is None else {}))


def minmax_scale(Z, lo=0.0, hi=1.0):
    """Every column of ``Z`` mapped linearly onto ``[lo, hi]`` by its min and max over the rows of ``Z``
    (LIBSVM's svm-scale; Lu et al.'s regression/data/scale.m with [0, 1]); a constant column becomes ``lo``."""
    Z = np.asarray(Z, dtype=float)
    zmin, zmax = Z.min(axis=0), Z.max(axis=0)
    span = np.where(zmax > zmin, zmax - zmin, 1.0)
    return lo + (hi - lo) * (Z - zmin) / span


def run_estimator_scaled(X, y, X_test, y_test, seed, *, minmax=None, target_minmax=False, **params):
    """:func:`run_estimator` on the rows min-max scaled as the paper's data were: features onto ``minmax``
    (``(lo, hi)``; None: as read) and, with ``target_minmax``, a regression target onto [0, 1], each over
    the rows of the pass (a stream: ``X_test`` None)."""
    if X_test is not None:
        raise ValueError("run_estimator_scaled scales over one stream's rows: X_test must be None")
    if minmax is not None:
        X = np.ascontiguousarray(minmax_scale(X, *minmax))
    if target_minmax:
        y = minmax_scale(np.asarray(y, dtype=float)[:, None])[:, 0]
    return run_estimator(X, y, None, None, seed, **params)


def online_squared_loss(trace):
    """The mean of ``(y_t - f_t(x_t))^2`` over a pass's steps, each counted before its update: FOGD / NOGD's
    ``online_mse``, or the baselines' sum ``squared_loss`` over ``n_steps``."""
    if "online_mse" in trace:
        return float(trace["online_mse"])
    return float(trace["squared_loss"]) / trace["n_steps"] if trace["n_steps"] else 0.0


def run_batch(X, y, X_test, y_test, seed, *, estimator, **params):
    """Batch protocol: ``fit`` on the training split, ``predict`` the test split; both timed.

    ``estimator`` is a dotted name as for :func:`run_estimator`; returns
    ``error`` (test error, percent), ``seconds`` (fit) and ``test_seconds``
    (predict).
    """
    from threadpoolctl import threadpool_limits

    est = estimator_class(estimator)(random_state=seed, **params)   # a solver name or "refsvm.Class"
    with threadpool_limits(limits=1, user_api="blas"):      # spinning BLAS threads slow NOGD 10x on a busy machine
        start = time.perf_counter()
        est.fit(X, y)
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        pred = est.predict(X_test)
        test_seconds = time.perf_counter() - start
    return dict(error=100.0 * float(np.mean(pred != y_test)), seconds=seconds, test_seconds=test_seconds,
                majority_share=majority_share(pred))


def pass_orders(n, seed, epochs=1):
    """The visiting order of ``epochs`` passes over ``n`` rows: one ``default_rng(seed).permutation(n)`` per pass,
    concatenated (int64)."""
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.permutation(n) for _ in range(int(epochs))]).astype(np.int64)


def pass_draws(n, seed, epochs, maintenance):
    """``(order, uniforms)`` of each pass: the orders of :func:`pass_orders` and, for ``maintenance="random-removal"``
    only, one ``u_t`` per step drawn after each pass's order from the same generator (as
    :class:`refsvm.BudgetedSVC` draws them); ``uniforms`` is None for every other strategy, whose orders are
    :func:`pass_orders`' (the same calls in the same sequence)."""
    if maintenance != "random-removal":
        return [(order, None) for order in np.split(pass_orders(n, seed, epochs), epochs)]
    rng = np.random.default_rng(seed)
    return [(rng.permutation(n).astype(np.int64), rng.random(n)) for _ in range(int(epochs))]


def bsgd_passes(X, y, seed, *, C, gamma, budget, maintenance, merge_solver="gss", epochs=1, backend="fast",
                each_pass=None):
    """BSGD (BPegasos, ``lam = 1/(n C)``, no bias, Gaussian kernel) for ``epochs`` passes, one call per pass over
    the draws of :func:`pass_draws`; returns the last call's result (its ``sv``, ``alpha``, ``bias``, ``t``).
    ``each_pass``: called with every pass's result (e.g. to read its trace), in order."""
    from ..backend import get_module

    bsgd = get_module("bsgd", backend).bsgd
    n = X.shape[0]
    res = None
    for order, uniforms in pass_draws(n, seed, epochs, maintenance):
        res = bsgd(X, y, order, n_classes=2, budget=budget, lam=1.0 / (n * C), learning_rate="pegasos",
                   eta=1.0, radius=1.0, maintenance=maintenance, kernel="rbf", gamma=gamma, degree=3,
                   coef0=0.0, merge_eps=0.01, projection_ridge=1e-10, fit_bias=False,
                   sv=None if res is None else res.sv, alpha=None if res is None else res.alpha,
                   bias=None if res is None else res.bias, t0=0 if res is None else res.t,
                   merge_solver=merge_solver, uniforms=uniforms)
        if each_pass is not None:
            each_pass(res)
    return res


def run_bsgd(X, y, X_test, y_test, seed, *, C, gamma, budget, maintenance, merge_solver="gss",
             epochs=1, backend="fast"):
    """BSGD (BPegasos, ``lam = 1/(n C)``) for ``epochs`` passes (:func:`bsgd_passes`); test error of the last model."""
    start = time.perf_counter()
    res = bsgd_passes(X, y, seed, C=C, gamma=gamma, budget=budget, maintenance=maintenance,
                      merge_solver=merge_solver, epochs=epochs, backend=backend)
    sv, alpha, bias = res.sv, res.alpha, res.bias
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    error = _test_error(sv, alpha, bias, gamma, X_test, y_test, backend)
    return dict(error=error, seconds=seconds, test_seconds=time.perf_counter() - start, n_sv=len(sv),
                majority_share=_expansion_share(sv, alpha, bias, gamma, X, X_test, backend))


def run_bsgd_multiclass(X, y, X_test, y_test, seed, *, C, gamma_scale, **params):
    """Multi-class BSGD (Crammer-Singer, :class:`refsvm.BudgetedSVC`), one pass; test error of the last model.

    ``lam = 1 / (n C)`` (n training rows) and ``gamma = gamma_scale / d`` (d features; on standardised data
    ``gamma_scale = 1`` is scikit-learn's ``gamma="scale"``); ``params`` go to the estimator (``budget``,
    ``maintenance``, ``learning_rate``...).  With ``learning_rate="perceptron"`` (BMP) ``lam`` only sets the
    radius ``U = 1 / sqrt(lam) = sqrt(n C)``.  Timed as :func:`run_batch`.
    """
    return run_batch(X, y, X_test, y_test, seed, estimator="refsvm.BudgetedSVC", lam=1.0 / (X.shape[0] * C),
                     gamma=gamma_scale / X.shape[1], **params)


def run_online_scaled(X, y, X_test, y_test, seed, *, gamma_scale, **params):
    """An online learner of :mod:`refsvm.online` through :class:`refsvm.OnlineKernelClassifier` (one pass over
    ``rng.permutation(n)``, labels as the estimator maps them), Gaussian kernel ``gamma = gamma_scale / d``;
    ``params`` go to the estimator (``algorithm``, ``budget``, ``C``...).  Timed as :func:`run_batch`."""
    return run_batch(X, y, X_test, y_test, seed, estimator="refsvm.OnlineKernelClassifier",
                     gamma=gamma_scale / X.shape[1], **params)


_SVC_RUNS = {}    # (data digest, C, gamma) -> result: an exact SVM's model does not depend on the seed


def run_svc(X, y, X_test, y_test, seed, *, C, gamma_scale):
    """LIBSVM's C-SVC through scikit-learn's :class:`~sklearn.svm.SVC` (which wraps LIBSVM), Gaussian kernel
    ``gamma = gamma_scale / d``, batch: fit on the training split, predict the test split; timed as
    :func:`run_batch`.  ``C`` is the SVC's ``C`` (``1/2 ||w||^2 + C sum xi``): BSGD's ``lam = 1/(n C)`` with the
    same C is the same objective up to the factor ``lam n``.  More than two classes: one against the rest
    (:class:`~sklearn.multiclass.OneVsRestClassifier`, the setting Wang et al. name for LIBSVM; SVC alone would
    train one against one); ``n_sv`` counts the training rows that are an SV of any of its machines.  The
    solver is deterministic, so ``seed`` changes nothing; one fit per process and data serves every seed (the
    same numbers, the first fit's times).
    """
    import hashlib

    from sklearn.svm import SVC

    gamma = gamma_scale / X.shape[1]
    key = (hashlib.sha1(np.ascontiguousarray(X).tobytes() + np.asarray(y).tobytes()
                        + np.ascontiguousarray(X_test).tobytes()).hexdigest(), float(C), float(gamma))
    if key not in _SVC_RUNS:
        est = SVC(C=C, kernel="rbf", gamma=gamma, cache_size=1000)
        machines = [est]
        if np.unique(y).size > 2:
            from sklearn.multiclass import OneVsRestClassifier

            est = OneVsRestClassifier(est)
        start = time.perf_counter()
        est.fit(X, y)
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        pred = est.predict(X_test)
        machines = getattr(est, "estimators_", machines)
        _SVC_RUNS[key] = dict(error=100.0 * float(np.mean(pred != y_test)), seconds=seconds,
                              test_seconds=time.perf_counter() - start,
                              n_sv=int(np.unique(np.concatenate([m.support_ for m in machines])).size),
                              majority_share=majority_share(pred))
    return dict(_SVC_RUNS[key])


def decision_values(sv, alpha, bias, gamma, X, backend="fast", chunk=20000):
    """``f(x) = sum_j alpha_j k(sv_j, x) + b`` (binary, Gaussian kernel) for the rows of ``X``, ``chunk`` rows at a
    time (0 everywhere for a model without SVs)."""
    from ..backend import get_module

    kernels = get_module("kernels", backend)
    out = []
    for s in range(0, X.shape[0], chunk):
        Xc = np.ascontiguousarray(X[s:s + chunk])
        out.append((kernels.kernel_matrix(Xc, sv, "rbf", gamma, 3, 0.0) @ alpha[:, 0] + bias[0]) if len(sv)
                   else np.zeros(len(Xc)))
    return np.concatenate(out) if out else np.zeros(0)


def _test_error(sv, alpha, bias, gamma, X, y, backend, chunk=20000, zero_prediction="mistake"):
    f = decision_values(sv, alpha, bias, gamma, X, backend, chunk)
    if zero_prediction == "positive":                      # sign(0) = +1
        wrong = int(np.sum(np.where(f >= 0, 1, -1) != y))
    else:
        wrong = int(np.sum(y * f <= 0))
    return 100.0 * wrong / X.shape[0]
