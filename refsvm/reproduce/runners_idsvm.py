"""The reproduction's runner of IDSVM (:class:`refsvm.IncrementalSVC`), beside :mod:`refsvm.reproduce.runners`
(whose timing protocol and helpers it shares)."""

import time

import numpy as np

from .runners import majority_share


def run_idsvm_scaled(X, y, X_test, y_test, seed, *, gamma_scale, **params):
    """IDSVM, the exact incremental SVM (:class:`refsvm.IncrementalSVC`: one pass over ``rng.permutation(n)``,
    ``max_examples`` of it if given), Gaussian kernel ``gamma = gamma_scale / d``; ``params`` go to the estimator
    (``C``, ``max_examples``).  Timed as :func:`refsvm.reproduce.runners.run_batch`; the trace's KKT certificate is returned too."""
    from threadpoolctl import threadpool_limits

    from ..estimators.idsvm import IncrementalSVC

    est = IncrementalSVC(random_state=seed, gamma=gamma_scale / X.shape[1], **params)
    with threadpool_limits(limits=1, user_api="blas"):
        start = time.perf_counter()
        est.fit(X, y)
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        pred = est.predict(X_test)
        test_seconds = time.perf_counter() - start
    trace = est.trace_[0]
    return dict(error=100.0 * float(np.mean(pred != y_test)), seconds=seconds, test_seconds=test_seconds,
                majority_share=majority_share(pred), n_sv=int(est.alpha_.shape[0]),
                kkt_violation=float(trace["kkt_violation"]), examples=int(trace["n_steps"]))


def run_svc_prefix(X, y, X_test, y_test, seed, *, C, gamma_scale, max_examples):
    """The model IDSVM has after the first ``max_examples`` examples of ``rng.permutation(n)`` (a run stopped early,
    as the paper's), computed by LIBSVM (scikit-learn's :class:`~sklearn.svm.SVC`, tol 1e-6) on those rows: IDSVM's
    model after a pass is the SVM of the examples seen (wang2012-table3-idsvm: equal test errors on every seed),
    without IDSVM's ``8 m^2`` bytes and O(m |S|) steps.  Gaussian kernel ``gamma = gamma_scale / d``; timed as
    :func:`refsvm.reproduce.runners.run_batch`."""
    from sklearn.svm import SVC

    rows = np.random.default_rng(seed).permutation(X.shape[0])[:max_examples]
    est = SVC(C=C, kernel="rbf", gamma=gamma_scale / X.shape[1], tol=1e-6, cache_size=1000)
    start = time.perf_counter()
    est.fit(X[rows], y[rows])
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    pred = est.predict(X_test)
    test_seconds = time.perf_counter() - start
    return dict(error=100.0 * float(np.mean(pred != y_test)), seconds=seconds, test_seconds=test_seconds,
                majority_share=majority_share(pred), n_sv=int(est.support_.size), examples=int(rows.size))
