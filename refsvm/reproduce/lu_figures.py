"""Lu, Hoi, Wang, Zhao & Liu (2016), Figures 1-6: the online metric and the time followed along one pass.

:func:`run_stream_curve` is the runner of ``lu2016-figure1/2`` (multi-class: online mistake rate and time
along the stream) and ``lu2016-figure5/6`` (regression: online average squared loss and time).  One pass over
``default_rng(seed).permutation(n)``, cut into ``checkpoints`` consecutive blocks; each block goes to the
estimator's ``partial_fit``, which continues the model and its step counter exactly (refsvm's estimators:
``k`` calls of ``partial_fit`` continue one pass; each call visits its block in its own random order, so
the pass is still a uniformly random order of the data).  After each block the curve records
``[examples seen, training seconds so far, online metric so far]``: the mistakes (percent) or the squared
losses ``(y_t - f_t(x_t))^2`` of the predictions made *before* each update, summed over the blocks and
divided by the examples seen (the metric of Tables 7 and 9).  Its last point is the row's ``error``.

Figures 3 and 4 (the effect of rho_f / rho_n and of the budget B) are sweeps of the table runner
(:func:`refsvm.reproduce.runners.run_estimator_scaled`); :func:`plot_sweep` draws them.
"""

import time

import numpy as np
from sklearn.base import is_regressor

from ..estimators.registry import estimator_class
from .runners import _rows_to_check, majority_share, minmax_scale, online_squared_loss

__all__ = ["run_stream_curve", "CURVE_COLUMNS", "plot_stream_error", "plot_stream_time", "plot_sweep"]

#: the columns of a curve row
CURVE_COLUMNS = ("examples", "seconds", "online_metric")


def _block_loss(trace, regressor):
    """The block's summed online loss: mistakes, or the sum of squared losses (before each update)."""
    if regressor:
        return online_squared_loss(trace) * trace["n_steps"]
    return float(trace["mistakes"])


def run_stream_curve(X, y, X_test, y_test, seed, *, estimator, checkpoints=20, minmax=None, target_minmax=False,
                     **params):
    """``refsvm reproduce`` runner: one online pass of ``estimator`` (dotted name, ``random_state=seed``) with
    its curve (module docstring); features min-max scaled onto ``minmax`` and a regression target onto [0, 1]
    with ``target_minmax``, over the pass's rows (as :func:`~refsvm.reproduce.runners.run_estimator_scaled`).

    Returns ``error`` (the final online mistake rate in percent, or the online mean squared loss),
    ``seconds`` (training only), ``curve`` and, for a classifier, ``majority_share`` (``online=True``).
    """
    if X_test is not None:
        raise ValueError("run_stream_curve follows one stream: X_test must be None")
    if not isinstance(checkpoints, int) or checkpoints < 1:
        raise ValueError(f"checkpoints must be a positive int; got {checkpoints!r}")
    if minmax is not None:
        X = minmax_scale(X, *minmax)
    X = np.ascontiguousarray(X, dtype=np.float64)
    if target_minmax:
        y = minmax_scale(np.asarray(y, dtype=float)[:, None])[:, 0]
    est = estimator_class(estimator)(random_state=seed, **params)
    regressor = is_regressor(est)
    n = X.shape[0]
    order = np.random.default_rng(seed).permutation(n)
    stops = np.unique(np.linspace(0, n, checkpoints + 1).astype(int))[1:]
    fit_kw = {} if regressor else dict(classes=np.unique(y))
    curve, done, seconds, loss = [], 0, 0.0, 0.0
    for stop in stops:
        rows = order[done:stop]
        start = time.perf_counter()
        est.partial_fit(X[rows], y[rows], **fit_kw)
        seconds += time.perf_counter() - start
        loss += _block_loss(est.trace_[-1], regressor)
        done = int(stop)
        curve.append([done, seconds, loss / done if regressor else 100.0 * loss / done])
    out = dict(error=curve[-1][2], seconds=seconds, curve=curve, online=True)
    if not regressor:
        out["majority_share"] = majority_share(est.predict(_rows_to_check(X, None)))
    return out


def _curves(r):
    return np.array([s["curve"] for s in r["per_seed"]])             # seeds x checkpoints x 3


def _plot_stream(result, path, column, ylabel, log):
    from .report import panels

    plt, fig, axes, datasets = panels(result, 4.6)
    for ax, ds in zip(axes, datasets):
        for r in result["rows"]:
            if r["dataset"] != ds or not r["available"]:
                continue
            c = _curves(r)
            line, = ax.plot(c[0, :, 0], c[:, :, column].mean(axis=0), label=r["algorithm"])
            paper = r.get("paper") or {}
            end = paper.get("mean") if column == 2 else paper.get("seconds")
            if end is not None:                      # the paper's table value: the curve's end point
                ax.plot([c[0, -1, 0]], [end], "x", color=line.get_color(), ms=7)
        if log:
            ax.set_yscale("log")
        ax.set_xlabel("number of samples")
        ax.set_ylabel(ylabel)
        ax.set_title(ds)
    axes[0].legend(fontsize=6)
    fig.suptitle(f"{result['table']}{' (quick)' if result['quick'] else ''}: refsvm (lines, mean over seeds); "
                 "x: the paper's table value at the end of the pass (not read off the plot)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_stream_error(result, path):
    """Figures 1 and 5: the online mistake rate (%) or average squared loss along the pass, per data set."""
    _plot_stream(result, path, 2, result["metric"], False)


def plot_stream_time(result, path):
    """Figures 2 and 6: the training seconds along the pass (log scale, as the paper's log10 t), per data set."""
    _plot_stream(result, path, 1, "training seconds (log scale)", True)


def plot_sweep(result, path):
    """Figures 3 and 4: the final online mistake rate and the seconds against the swept parameter (the number
    after "=" in the row label, e.g. ``"FOGD rho_f=4"``), one line per learner and data set."""
    from .report import require_matplotlib

    require_matplotlib().use("Agg")
    import matplotlib.pyplot as plt

    lines = {}
    for r in result["rows"]:
        if r["available"]:
            name, _, value = r["algorithm"].partition("=")
            lines.setdefault((name.rsplit(" ", 1)[0], r["dataset"]), []).append(
                (float(value), r["error_mean"], r["seconds_mean"], (r.get("paper") or {}).get("mean")))
    fig, (ax_e, ax_t) = plt.subplots(1, 2, figsize=(11, 4))
    for (name, ds), pts in sorted(lines.items()):
        pts.sort()
        x = [p[0] for p in pts]
        line, = ax_e.plot(x, [p[1] for p in pts], "-o", ms=3, label=f"{name} {ds}")
        ax_t.plot(x, [p[2] for p in pts], "-o", ms=3, color=line.get_color())
        for p in pts:
            if p[3] is not None:
                ax_e.plot([p[0]], [p[3]], "x", color=line.get_color(), ms=7)
    ax_e.set_ylabel(result["metric"])
    ax_t.set_ylabel("training seconds (log scale)")
    ax_t.set_yscale("log")
    for ax in (ax_e, ax_t):
        ax.set_xlabel("swept parameter (row label)")
    ax_e.legend(fontsize=6)
    fig.suptitle(f"{result['table']}{' (quick)' if result['quick'] else ''}: x = the paper's Table 7 value "
                 "where the setting is Table 7's (not read off the plot)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
