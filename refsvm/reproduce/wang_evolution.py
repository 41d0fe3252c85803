"""Accuracy along the stream: Wang, Crammer & Vucetic (2012), Figures 4 and 5, on binary and multi-class streams.

:func:`run_evolution` is the ``refsvm reproduce`` runner of ``wang2012-figure4`` and ``wang2012-figure5``
(registered in :mod:`refsvm.reproduce.tables_wang`): one pass of BPegasos (the compiled
:func:`refsvm._fast.bsgd.bsgd`, ``learning_rate="pegasos"``, no bias) over the training rows in the order
``default_rng(seed).permutation(n)``, split into calls at the checkpoints (a call continues the previous call's
model: the same pass as one call), recording the test error of the current model at every checkpoint.  Labels
+-1 train a binary model; any other labels are classes (``np.unique`` of the training and test labels, in that
order) and train Crammer and Singer's multi-class BPegasos (prediction: the class of the largest decision value,
the first on ties).  ``lam`` is given (Checkerboard: 1e-4) or ``1 / (N C)`` with N the rows of the whole stream
(also for a row stopped early with ``max_rows``: it visits the first ``max_rows`` examples of the whole stream's
order, so that it is a prefix of the same run); ``gamma`` is given or
``gamma_scale / d``.  On binary data with ``lam`` and ``gamma`` given and no ``max_rows`` it is the pass of
:func:`refsvm.reproduce.wang_stream.run_stream` (same order, same calls; tested).
"""

import numpy as np

__all__ = ["run_evolution", "multiclass_test_error", "plot_evolution"]

#: chunk of test rows per kernel matrix (an unbudgeted model has up to 30,000 SVs: 500 x 30,000 x 8 B = 120 MB)
_TEST_CHUNK = 500


def multiclass_test_error(sv, alpha, gamma, X, y):
    """Percent of the rows of ``X`` whose largest decision value ``K(x, SV) alpha[:, k]`` is not class ``y``
    (``y`` in ``0 .. c-1``; the first class on ties; no SV: every row predicts class 0)."""
    from .._fast.kernels import kernel_matrix

    wrong = 0
    for s in range(0, X.shape[0], _TEST_CHUNK):
        Xc = np.ascontiguousarray(X[s:s + _TEST_CHUNK])
        f = kernel_matrix(Xc, sv, "rbf", gamma, 3, 0.0) @ alpha if len(sv) else np.zeros((len(Xc), 1))
        wrong += int(np.sum(np.argmax(f, axis=1) != y[s:s + _TEST_CHUNK]))
    return 100.0 * wrong / X.shape[0]


def _encode(y, y_test):
    """``(y, y_test, n_classes)``: +-1 labels as they are (2 classes), other labels as indices into
    ``np.unique`` of both."""
    if set(np.unique(y)) | set(np.unique(y_test)) <= {-1, 1}:
        return np.asarray(y, dtype=np.int64), np.asarray(y_test, dtype=np.int64), 2
    classes = np.unique(np.concatenate([y, y_test]))
    if classes.size < 3:
        raise ValueError(f"binary labels must be -1 / +1; got classes {classes!r}")
    return (np.searchsorted(classes, y).astype(np.int64), np.searchsorted(classes, y_test).astype(np.int64),
            int(classes.size))


def run_evolution(X, y, X_test, y_test, seed, *, budget, maintenance, checkpoints=(), lam=None, C=1.0, gamma=None,
                  gamma_scale=None, max_rows=None):
    """One BPegasos pass over the first ``n = min(max_rows, N)`` examples of ``default_rng(seed).permutation(N)``
    (``N = len(X)``): a run stopped early with ``max_rows`` is the prefix of the whole stream's run.

    Returns ``error`` (test error of the final model, percent), ``seconds`` (training), ``stream``
    (``[N, cumulative seconds, test error %]`` at each checkpoint below n and at n) and ``extra``: ``E-bar``
    (``(1/n) sum_t ||Delta_t|| / eta_t``), ``lam``, ``gamma`` and ``n_classes``.
    """
    from .runners import _expansion_share, _rows_to_check, _test_error, majority_share
    from .wang_stream import checkpointed_pass

    if gamma is None and gamma_scale is None:
        raise ValueError("run_evolution: gamma or gamma_scale must be given")
    if lam is None and C is None:
        raise ValueError("run_evolution: lam or C must be given")
    y, y_test, n_classes = _encode(y, y_test)
    lam = 1.0 / (X.shape[0] * C) if lam is None else float(lam)
    gamma = gamma_scale / X.shape[1] if gamma is None else float(gamma)
    n = X.shape[0] if max_rows is None else min(int(max_rows), X.shape[0])
    order = np.random.default_rng(seed).permutation(X.shape[0])[:n].astype(np.int64)   # early stop: a prefix

    def evaluate(sv, alpha, bias):
        return (_test_error(sv, alpha, bias, gamma, X_test, y_test, "fast") if n_classes == 2
                else multiclass_test_error(sv, alpha, gamma, X_test, y_test))

    sv, alpha, bias, seconds, gradient_error_sum, stream = checkpointed_pass(
        X, y, order, checkpoints, evaluate, n_classes=n_classes, budget=budget, lam=lam, maintenance=maintenance,
        gamma=gamma)
    if n_classes == 2:
        share = _expansion_share(sv, alpha, bias, gamma, X, X_test, "fast")
    else:
        from .._fast.kernels import kernel_matrix
        check = _rows_to_check(X, X_test)
        share = majority_share(np.argmax(kernel_matrix(check, sv, "rbf", gamma, 3, 0.0) @ alpha, axis=1)
                               ) if len(sv) else 1.0
    return dict(error=stream[-1][2], seconds=seconds, n_sv=len(sv), n_stream=n, stream=stream,
                majority_share=share,
                extra={"E-bar": gradient_error_sum / n, "lam": lam, "gamma": gamma, "n_classes": n_classes})


def plot_evolution(result, path):
    """``--png`` of ``wang2012-figure4`` / ``-figure5``: test accuracy against the examples seen (log N), one panel
    per data set, one line per row (mean over seeds; the legend gives the training seconds at the end)."""
    from .report import panels
    from .wang_stream import _finish

    plt, fig, axes, datasets = panels(result, 5.0)
    for ax, ds in zip(axes, datasets):
        for r in result["rows"]:
            if r["dataset"] != ds or not r["available"]:
                continue
            st = [np.array(s["stream"]) for s in r["per_seed"]]
            k = min(len(s) for s in st)
            acc = 100 - np.mean([s[:k, 2] for s in st], axis=0)
            ax.plot(st[0][:k, 0], acc, "-o", ms=3, label=f"{r['algorithm']} ({r['seconds_mean']:.1f} s)")
        ax.set_xscale("log")
        ax.set_xlabel("examples seen N")
        ax.set_ylabel("test accuracy (%)")
        ax.set_title(f"{ds} (stream of {next(r['n'] for r in result['rows'] if r['dataset'] == ds):,})")
        ax.legend(fontsize=7)
    _finish(plt, fig, result, path, " (times: shared machine)")
