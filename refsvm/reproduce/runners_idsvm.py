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


def _exact_svc(C, gamma):
    """LIBSVM (scikit-learn's SVC) as the runs that stand in for IDSVM use it: Gaussian kernel, stopping tolerance
    1e-6 (IDSVM's model is the exact SVM; LIBSVM's default 1e-3 would stop further from it), a 1 GB kernel cache."""
    from sklearn.svm import SVC

    return SVC(C=C, kernel="rbf", gamma=gamma, tol=1e-6, cache_size=1000)


def run_svc_prefix(X, y, X_test, y_test, seed, *, C, gamma_scale, max_examples):
    """The model IDSVM has after the first ``max_examples`` examples of ``rng.permutation(n)`` (a run stopped early,
    as the paper's), computed by LIBSVM (scikit-learn's :class:`~sklearn.svm.SVC`, tol 1e-6) on those rows: IDSVM's
    model after a pass is the SVM of the examples seen (wang2012-table3-idsvm: equal test errors on every seed),
    without IDSVM's ``8 m^2`` bytes and O(m |S|) steps.  Gaussian kernel ``gamma = gamma_scale / d``; timed as
    :func:`refsvm.reproduce.runners.run_batch`."""
    rows = np.random.default_rng(seed).permutation(X.shape[0])[:max_examples]
    est = _exact_svc(C, gamma_scale / X.shape[1])
    start = time.perf_counter()
    est.fit(X[rows], y[rows])
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    pred = est.predict(X_test)
    test_seconds = time.perf_counter() - start
    return dict(error=100.0 * float(np.mean(pred != y_test)), seconds=seconds, test_seconds=test_seconds,
                majority_share=majority_share(pred), n_sv=int(est.support_.size), examples=int(rows.size))


def run_idsvm_evolution(X, y, X_test, y_test, seed, *, C, gamma, checkpoints, max_rows, solver="idsvm"):
    """IDSVM's accuracy along the stream (Wang et al.'s Figure 4): the model after each checkpoint's first ``N``
    examples of ``default_rng(seed).permutation(len(X))`` (the order of
    :func:`refsvm.reproduce.wang_evolution.run_evolution`, so the same prefixes as its rows), up to ``max_rows``
    (the run stopped early, as the paper's was after 10,000 s).

    ``solver="idsvm"``: :class:`refsvm.IncrementalSVC` (compiled path) with ``max_examples = N``, one pass per
    checkpoint: IDSVM's model after ``N`` examples is the pass's state there (the bookkeeping of the first ``N``
    examples is the same in a longer pass), so the time of the pass to ``N`` is the stream's time at ``N``.
    ``solver="libsvm"``: scikit-learn's :class:`~sklearn.svm.SVC` (tol 1e-6) on the same ``N`` rows, the SVM IDSVM
    computes (without its ``8 N^2`` bytes); its time is that batch training's, not a stream's.  Gaussian kernel
    ``gamma``, box ``C``.

    Returns ``error`` (at the last checkpoint), ``seconds`` (its training), ``stream`` (``[N, seconds, test error
    %]`` at each checkpoint below ``n = min(max_rows, len(X))`` and at ``n``), ``n_sv`` and ``extra``: the largest
    KKT certificate over the checkpoints (IDSVM only), ``C`` and ``gamma``."""
    from ..estimators.idsvm import IncrementalSVC

    if solver not in ("idsvm", "libsvm"):
        raise ValueError(f"solver must be 'idsvm' or 'libsvm'; got {solver!r}")
    n = min(int(max_rows), X.shape[0])
    order = np.random.default_rng(seed).permutation(X.shape[0])[:n]
    stream, kkt = [], 0.0
    for stop in [c for c in checkpoints if c < n] + [n]:
        if solver == "idsvm":
            est = IncrementalSVC(C=C, gamma=gamma, max_examples=stop, random_state=seed, backend="fast")
            fit = lambda: est.fit(X, y)                                    # noqa: E731
        else:
            est = _exact_svc(C, gamma)
            fit = lambda: est.fit(X[order[:stop]], y[order[:stop]])       # noqa: E731
        start = time.perf_counter()
        fit()
        seconds = time.perf_counter() - start
        pred = est.predict(X_test)
        stream.append([stop, seconds, 100.0 * float(np.mean(pred != y_test))])
        if solver == "idsvm":
            kkt = max(kkt, float(est.trace_[0]["kkt_violation"]))
    n_sv = int(est.alpha_.shape[0] if solver == "idsvm" else est.support_.size)
    extra = dict(kkt_violation=kkt, C=C, gamma=gamma) if solver == "idsvm" else dict(C=C, gamma=gamma)
    return dict(error=stream[-1][2], seconds=stream[-1][1], n_sv=n_sv, n_stream=n, stream=stream,
                majority_share=majority_share(pred), extra=extra)
