"""BPegasos on a Checkerboard stream: Wang, Crammer & Vucetic (2012), Table 6 and Figure 6.

:func:`run_stream` is the ``refsvm reproduce`` runner of ``wang2012-table6`` and ``wang2012-figure6``
(registered in :mod:`refsvm.reproduce.tables_wang`): one pass of BPegasos (the compiled
:func:`refsvm._fast.bsgd.bsgd`, ``learning_rate="pegasos"``, fixed ``lam``, no bias) over the training rows in
the order ``default_rng(seed).permutation(n)``, split into calls at the checkpoints (a call continues the
previous call's model, so the pass is the same as one call).  At every checkpoint it records the cumulative
training time (the bsgd calls only, not the test evaluation) and the test error of the current model.

The average gradient error of Theorem 1, ``E-bar = (1/N) sum_t ||Delta_t|| / eta_t`` (Table 6), is
``trace["gradient_error_sum"] / N`` summed over the calls (docs/bsgd.rst, "Gradient error").

:func:`loglog_slope` fits ``log(seconds) = a + s log(N)`` by least squares on the checkpoints from
``from_n`` on (Figure 6: linear time in N is ``s = 1``); :func:`budget_exponents` fits the per-example time
of the whole pass against B the same way, per maintenance strategy (merging O(B): 1; projection O(B^2): 2).
"""

import time

import numpy as np

__all__ = ["run_stream", "checkpointed_pass", "exponent_group", "segment_counts", "recomputation_cost", "without_recomputations",
           "loglog_slope", "budget_exponents", "plot_table6", "plot_figure6", "plot_stream_accuracy", "run_budget_svs", "plot_svs"]

#: Figure 6's slope is fitted after the first 100K examples (the issue's "after the initial stage")
SLOPE_FROM = 100_000
#: rows of :func:`checkpointed_pass`'s untimed warm-up call (``isolate_overheads``)
WARMUP_ROWS = 1000


def loglog_slope(ns, seconds, from_n=SLOPE_FROM):
    """Least-squares slope of log(seconds) on log(N) over the points with ``N >= from_n`` (None: < 2 points)."""
    ns, seconds = np.asarray(ns, dtype=float), np.asarray(seconds, dtype=float)
    keep = (ns >= from_n) & (seconds > 0)
    if keep.sum() < 2:
        return None
    return float(np.polyfit(np.log(ns[keep]), np.log(seconds[keep]), 1)[0])


def segment_counts(res, rows, seconds):
    """What one compiled BSGD call of :func:`checkpointed_pass` did (its ``segments``): ``rows``, ``seconds`` (the
    call), ``events`` (maintenance events), ``maintenance_seconds`` (the compiled path's own clock: maintenance and,
    for projection, keeping the inverse up to date on appends), ``kinv_refreshes`` (projection with the kept inverse:
    recomputations of ``(K + ridge I)^{-1}`` from scratch, O(B^3) each: every B appends and after every bordered
    update that failed its accuracy check, ``kinv_append_failures``; ``refsvm._fast.bsgd._last_stats``)."""
    from .._fast import bsgd as fast_bsgd

    stats = fast_bsgd._last_stats
    return dict(rows=int(rows), seconds=float(seconds), events=len(res.trace["maint_step"]),
                maintenance_seconds=float(res.trace["maintenance_seconds"]),
                kinv_refreshes=int(stats.get("kinv_refreshes", 0)),
                kinv_append_failures=int(stats.get("kinv_append_failures", 0)))


def recomputation_cost(segments):
    """Seconds per recomputation of the kept inverse, estimated from a pass's ``segments``: the least-squares fit
    ``maintenance_seconds = c_e events + c_r kinv_refreshes`` over the segments (no intercept; the appends' bordered
    updates go with the events, one per event once the budget is full); None when the pass recomputed nothing, the
    two counts are proportional over the segments (the fit cannot separate them) or ``c_r <= 0``.

    An estimate, not a measurement of the recomputations alone (the compiled path times maintenance as a whole):
    its error is the fit's, stated beside it by the residual of the segments' maintenance seconds."""
    if not segments:
        return None
    A = np.array([[s["events"], s["kinv_refreshes"]] for s in segments], dtype=float)
    if not A[:, 1].any() or np.linalg.matrix_rank(A) < 2:
        return None
    coef = np.linalg.lstsq(A, np.array([s["maintenance_seconds"] for s in segments]), rcond=None)[0]
    return float(coef[1]) if coef[1] > 0 else None


def without_recomputations(stream, segments, cost):
    """``[N, cumulative seconds less cost x the recomputations so far]`` at every stop of ``stream`` (its segments
    ``segments``, one per stop; ``cost``: seconds per recomputation, :func:`recomputation_cost`)."""
    done = np.cumsum([s["kinv_refreshes"] for s in segments])
    return [[st[0], st[1] - cost * r] for st, r in zip(stream, done)]


def checkpointed_pass(X, y, order, checkpoints, evaluate, isolate_overheads=False, start=None, segments=None,
                      kept="inverse", **options):
    """One BPegasos pass (the compiled :func:`refsvm._fast.bsgd.bsgd`, ``learning_rate="pegasos"``, no bias, RBF
    kernel) over ``order``, split into calls at the ``checkpoints`` below ``len(order)`` and at its end (each call
    continues the previous call's model: the same pass as one call); ``options``: ``n_classes``, ``budget``,
    ``lam``, ``maintenance``, ``gamma``.

    ``isolate_overheads`` (Figure 6's timing): costs that are not the pass's are kept out of the times.  An
    untimed warm-up call on the first rows comes first (a process's first merging call computes the merge lookup
    tables, :func:`refsvm.lookup_tables.compute_tables`, about 75 ms here, which was counted in the first
    checkpoint and flattened the first row's log-log slope), and each call is handed only its own rows,
    ``X[order[done:stop]]`` (copied outside the timer), so that the per-call checks over ``X`` (the arguments'
    finiteness; projection's kernel-value error bound, a pass over every row: about 30 ms per call on 1M rows)
    cost in proportion to the call's rows rather than to the whole stream at every checkpoint.  The pass is the
    same pass (the rows visited in the same order); projection's error bound is then taken over the call's rows
    and the SVs, a valid bound of every kernel value that call computes.

    ``start``: ``(sv, alpha, bias, t)`` of a model to continue (a stream made in chunks, one call of this function
    per chunk: :func:`refsvm.reproduce.wang_chunked.run_chunked_stream`); no warm-up call then.  ``segments``: a
    list to which each call appends its counts (:func:`segment_counts`).  Both off (None): the calls as before.
    ``kept``: what projection keeps between events on the compiled path, ``"inverse"`` (its default) or
    ``"factor"`` (the kept Cholesky factor, ``refsvm._fast.bsgd._projection_options(kept=...)``, restored after
    the pass).

    Returns ``(sv, alpha, bias, seconds, gradient_error_sum, stream)``: the final model, the training time (the
    bsgd calls only), the sum of ``||Delta_t|| / eta_t`` and ``[N, cumulative seconds, evaluate(sv, alpha, bias)]``
    at every stop.
    """
    from .._fast import bsgd as fast_bsgd

    previous = fast_bsgd._projection_options(kept=kept)
    try:
        return _checkpointed_pass(fast_bsgd.bsgd, X, y, order, checkpoints, evaluate, isolate_overheads, start,
                                  segments, options)
    finally:
        fast_bsgd._projection_options(*previous)


def _checkpointed_pass(bsgd, X, y, order, checkpoints, evaluate, isolate_overheads, start, segments, options):
    """:func:`checkpointed_pass` with the projection knobs set."""
    n = len(order)
    stops = sorted({int(c) for c in checkpoints if 0 < c < n} | {n})
    fixed = {**dict(learning_rate="pegasos", eta=1.0, radius=np.inf, kernel="rbf", degree=3, coef0=0.0, merge_eps=0.01,
                    projection_ridge=1e-10, fit_bias=False), **options}   # options may set merge_eps
    if isolate_overheads and start is None:                      # untimed, discarded: one-time start-up costs
        first = order[:min(n, WARMUP_ROWS)]
        bsgd(X[first], y[first], np.arange(len(first), dtype=np.int64), **fixed)
    sv, alpha, bias, t = (None, None, None, 0) if start is None else start
    done = 0
    seconds = gradient_error_sum = 0.0
    stream = []
    for stop in stops:
        if isolate_overheads:
            rows = order[done:stop]
            Xc, yc, oc = X[rows], y[rows], np.arange(len(rows), dtype=np.int64)
        else:
            Xc, yc, oc = X, y, order[done:stop]
        tic = time.perf_counter()
        res = bsgd(Xc, yc, oc, sv=sv, alpha=alpha, bias=bias, t0=t, **fixed)
        elapsed = time.perf_counter() - tic
        seconds += elapsed
        if segments is not None:
            segments.append(segment_counts(res, stop - done, elapsed))
        sv, alpha, bias, t, done = res.sv, res.alpha, res.bias, res.t, stop
        gradient_error_sum += res.trace["gradient_error_sum"]
        stream.append([stop, seconds, evaluate(sv, alpha, bias)])
    return sv, alpha, bias, seconds, gradient_error_sum, stream


def run_stream(X, y, X_test, y_test, seed, *, lam, gamma, budget, maintenance, max_rows=None, checkpoints=(),
               count_segments=False, kept="inverse", learning_rate="pegasos", eta=1.0):
    """One BPegasos pass over ``default_rng(seed).permutation(n)`` of the first ``n = min(max_rows, len(X))`` rows
    (``learning_rate``, ``eta``: another step rule of :func:`refsvm._fast.bsgd.bsgd`, e.g. BNorma's ``"norma"``,
    ``eta_t = eta / sqrt(t)``; the defaults are BPegasos').

    Returns ``error`` (test error of the final model, percent), ``seconds`` (training), ``stream``
    (``[N, cumulative seconds, test error %]`` at each checkpoint below n and at n) and ``extra``:
    ``E-bar`` and, with checkpoints from :data:`SLOPE_FROM` on, the log-log ``slope`` of time against N.
    ``count_segments`` (Figure 6): also ``segments``, each call's :func:`segment_counts` with its end ``N``, and
    for a pass that recomputed the kept inverse, ``extra["recomputation ms"]`` (:func:`recomputation_cost`) and
    ``extra["slope w/o recomputations"]``, the slope of the times less that cost per recomputation.  ``kept``:
    :func:`checkpointed_pass`'s (projection on the compiled path: the kept inverse or the kept Cholesky factor).
    """
    from .runners import _expansion_share, _test_error

    n = X.shape[0] if max_rows is None else min(int(max_rows), X.shape[0])
    order = np.random.default_rng(seed).permutation(n).astype(np.int64)
    segments = [] if count_segments else None
    sv, alpha, bias, seconds, gradient_error_sum, stream = checkpointed_pass(
        X, y, order, checkpoints, lambda sv, alpha, bias: _test_error(sv, alpha, bias, gamma, X_test, y_test, "fast"),
        isolate_overheads=True, segments=segments, kept=kept, n_classes=2, budget=budget, lam=lam,
        maintenance=maintenance, gamma=gamma, learning_rate=learning_rate, eta=eta)
    extra = {"E-bar": gradient_error_sum / n}
    slope = loglog_slope([s[0] for s in stream], [s[1] for s in stream])
    if slope is not None:
        extra["slope"] = slope
    out = dict(error=stream[-1][2], seconds=seconds, n_sv=len(sv), n_stream=n, stream=stream, extra=extra,
               majority_share=_expansion_share(sv, alpha, bias, gamma, X, X_test, "fast"))
    if count_segments:
        out["segments"] = [dict(s, N=st[0]) for s, st in zip(segments, stream)]
        cost = recomputation_cost(segments)
        if cost is not None:
            extra["recomputation ms"] = 1e3 * cost
            adjusted = without_recomputations(stream, segments, cost)
            slope = loglog_slope([a[0] for a in adjusted], [a[1] for a in adjusted])
            if slope is not None:
                extra["slope w/o recomputations"] = slope
    return out


def exponent_group(params):
    """The group of a ``wang2012-figure6`` row in :func:`budget_exponents`: its maintenance, and for projection
    with the kept Cholesky factor ``"projection (kept factor)"``."""
    return params["maintenance"] + (" (kept factor)" if params.get("kept", "inverse") == "factor" else "")


def budget_exponents(result):
    """``{group: (exponent, budgets)}``: the slope of log(seconds per example) on log(B) over the rows of a
    ``wang2012-figure6`` result (mean over seeds of each row's whole pass), per :func:`exponent_group`."""
    points = {}
    for r in result["rows"]:
        if r.get("available") and "budget" in r.get("params", {}):
            per_example = np.mean([s["seconds"] / s["n_stream"] for s in r["per_seed"]])
            points.setdefault(exponent_group(r["params"]), []).append((r["params"]["budget"], per_example))
    out = {}
    for m, pts in points.items():
        pts = sorted(pts)
        if len(pts) >= 2:
            B, sec = np.array(pts).T
            out[m] = (float(np.polyfit(np.log(B), np.log(sec), 1)[0]), [int(b) for b in B])
    return out


def _pyplot():
    """matplotlib's pyplot on the Agg backend (RuntimeError saying how to install matplotlib without it)."""
    from .report import require_matplotlib

    require_matplotlib().use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _finish(plt, fig, result, path, title=""):
    """Title the figure with the table's name (and "(quick)"), save it to ``path`` and close it."""
    fig.suptitle(f"{result['table']}{' (quick)' if result['quick'] else ''}{title}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_table6(result, path):
    """``--png`` of ``wang2012-table6``: test accuracy and E-bar of each row, ours beside the paper's."""
    from .tables_wang import TABLE6_PAPER_EBAR

    plt = _pyplot()
    rows = [r for r in result["rows"] if r["available"]]
    idx = np.arange(len(rows))
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    acc = [100 - r["error_mean"] for r in rows]
    pacc = [np.nan if not r["paper"] else 100 - r["paper"]["mean"] for r in rows]
    a1.bar(idx - 0.2, acc, 0.4, yerr=[r["error_std"] for r in rows], label="refsvm")
    a1.bar(idx + 0.2, pacc, 0.4, label="paper (10M examples)")
    a1.set_ylim(min([a for a in acc + pacc if a == a] + [75]) - 1, 100.5)
    a1.set_ylabel("test accuracy (%)")
    eb = [np.mean([s["extra"]["E-bar"] for s in r["per_seed"]]) for r in rows]
    pe = [TABLE6_PAPER_EBAR.get(r["algorithm"], (np.nan,))[0] for r in rows]
    a2.bar(idx - 0.2, eb, 0.4, label="refsvm")
    a2.bar(idx + 0.2, pe, 0.4, label="paper")
    a2.set_yscale("log")
    a2.set_ylabel("E-bar (average gradient error)")
    for ax in (a1, a2):
        ax.set_xticks(idx)
        ax.set_xticklabels([r["algorithm"] for r in rows], rotation=50, ha="right", fontsize=7)
        ax.legend(fontsize=8)
    _finish(plt, fig, result, path, f": Checkerboard, N = {rows[0]['per_seed'][0]['n_stream']:,}")


def plot_figure6(result, path):
    """``--png`` of ``wang2012-figure6``: training time vs stream length (log-log), time per example vs B and, for
    the rows with ``segments``, the recomputations of the kept inverse per 1,000 examples along the stream."""
    plt = _pyplot()
    counted = [r for r in result["rows"] if r["available"] and any(
        s["kinv_refreshes"] for s in r["per_seed"][0].get("segments", ()))]
    fig, axes = plt.subplots(1, 3 if counted else 2, figsize=(16.5 if counted else 11, 4.2))
    a1, a2 = axes[:2]
    for r in counted:
        seg = r["per_seed"][0]["segments"]
        axes[2].plot([s["N"] for s in seg], [1e3 * s["kinv_refreshes"] / s["rows"] for s in seg], "-o", ms=3,
                     label=r["algorithm"])
    if counted:
        axes[2].set_xscale("log")
        axes[2].set_xlabel("examples seen N (end of segment)")
        axes[2].set_ylabel("inverse recomputations per 1,000 examples")
        axes[2].legend(fontsize=7)
    for r in result["rows"]:
        if not r["available"]:
            continue
        st = np.array([s["stream"] for s in r["per_seed"]])          # seeds x checkpoints x 3
        slope = r["per_seed"][0]["extra"].get("slope")
        a1.plot(st[0, :, 0], st[:, :, 1].mean(0), "-o", ms=3,
                label=r["algorithm"] + ("" if slope is None else f" (slope {slope:.2f})"))
    a1.set_xscale("log")
    a1.set_yscale("log")
    a1.set_xlabel("examples seen N")
    a1.set_ylabel("training seconds (shared machine)")
    a1.legend(fontsize=7)
    for m, (k, budgets) in budget_exponents(result).items():
        per = {r["params"]["budget"]: np.mean([s["seconds"] / s["n_stream"] for s in r["per_seed"]])
               for r in result["rows"] if r.get("available") and "budget" in r.get("params", {})
               and exponent_group(r["params"]) == m}
        a2.plot(budgets, [1e6 * per[b] for b in budgets], "-o", label=f"{m}: time ~ B^{k:.2f}")
    a2.set_xscale("log")
    a2.set_yscale("log")
    a2.set_xlabel("budget B")
    a2.set_ylabel("microseconds per example")
    a2.legend(fontsize=8)
    _finish(plt, fig, result, path)


def plot_stream_accuracy(result, path):
    """``--png`` of ``wang2012-figure5``: test accuracy along the stream (log N), one line per row."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for r in result["rows"]:
        if r["available"]:
            st = np.array([s["stream"] for s in r["per_seed"]])
            ax.plot(st[0, :, 0], 100 - st[:, :, 2].mean(0), "-o", ms=3, label=r["algorithm"])
    ax.set_xscale("log")
    ax.set_xlabel("examples seen N")
    ax.set_ylabel("test accuracy (%)")
    ax.legend(fontsize=8)
    _finish(plt, fig, result, path)


def run_budget_svs(X, y, X_test, y_test, seed, *, budget, maintenance, gamma_scale, C=1.0):
    """Multi-class BPegasos (:class:`refsvm.BudgetedSVC`, one pass, ``lam = 1/(n C)``, ``gamma = gamma_scale / d``,
    ``random_state=seed``) whose support vectors are kept, for ``wang2012-figure7``: ``svs`` (the SVs of the final
    model), ``sv_classes`` (the class of each SV's largest coefficient) and ``error`` (test error, percent)."""
    from .. import BudgetedSVC
    from .runners import majority_share

    est = BudgetedSVC(budget=budget, maintenance=maintenance, lam=1.0 / (X.shape[0] * C),
                      gamma=gamma_scale / X.shape[1], random_state=seed)
    start = time.perf_counter()
    est.fit(X, y)
    seconds = time.perf_counter() - start
    pred = est.predict(X_test)
    return dict(error=100.0 * float(np.mean(pred != y_test)), seconds=seconds, majority_share=majority_share(pred),
                svs=np.asarray(est.support_vectors_).tolist(),
                sv_classes=[float(est.classes_[k]) for k in np.argmax(np.asarray(est.alpha_), axis=1)])


def plot_svs(result, path):
    """``--png`` of ``wang2012-figure7``: the SVs of each run as 16 x 16 images, one row per run and strategy
    (grey levels of the standardised pixels, clipped to [-2, 2]), the SV's class above each."""
    plt = _pyplot()
    runs = [(r["algorithm"], s) for r in result["rows"] if r["available"] for s in r["per_seed"]]
    width = max(len(s["svs"]) for _, s in runs)
    fig, axes = plt.subplots(len(runs), width, figsize=(1.0 * width, 1.25 * len(runs)), squeeze=False)
    for i, (label, s) in enumerate(runs):
        for j in range(width):
            ax = axes[i][j]
            ax.axis("off")
            if j < len(s["svs"]):
                ax.imshow(np.clip(np.reshape(s["svs"][j], (16, 16)), -2, 2), cmap="gray_r")
                ax.set_title(f"{s['sv_classes'][j]:g}", fontsize=7)
        axes[i][0].text(-0.5, 0.5, f"{label}\nseed {s['seed']}: {100 - s['error']:.1f} %",
                        transform=axes[i][0].transAxes, ha="right", va="center", fontsize=7)
    fig.suptitle(f"{result['table']}{' (quick)' if result['quick'] else ''}: SVs on USPS")
    fig.subplots_adjust(left=0.2)
    fig.savefig(path, dpi=90)
    plt.close(fig)
