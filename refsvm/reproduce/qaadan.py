"""Qaadan, Schüler & Glasmachers (2019), Figures 1-8: BSGD and BSCA followed over epochs.

One runner, :func:`run_primal_dual_curve`, serves every figure: ``epochs`` passes of BSGD
(:func:`refsvm._fast.bsgd.bsgd`) or BSCA (:func:`refsvm._fast.bsca.bsca`), each epoch a fresh
permutation from ``default_rng(seed)`` (as the authors' code, ``src/solver.cpp``), both maintaining the
budget by merging (golden-section search, eps 0.01).  At every checkpoint (``per_epoch`` per epoch) the
curve records, outside the timed training calls:

* the training seconds so far (the figures' time axis);
* the test error (%) of the current model;
* the primal objective ``P(w~) = 1/2 ||w~||^2 + C sum_i max(0, 1 - y_i f~(x_i))`` of the budgeted model
  (:func:`refsvm._fast.bsca.primal_objective`, every training row);
* the dual objective ``D(alpha) = sum_i alpha_i - 1/2 alpha' Q alpha`` (:func:`refsvm._fast.bsca.dual_objective`,
  its unbiased estimate on ``dual_sample`` non-zero variables when there are more).  BSCA's ``alpha`` is its
  own dual vector.  BSGD's is the paper's equation (4): ``alpha^(t) = (1 - 1/t) alpha^(t-1) + 1{violation}
  n C / t e_i``, i.e. ``alpha_i = n C v_i / t`` with ``v_i`` the steps on example i that were margin violations
  (the trace's ``added`` flags: every violation adds an SV).  Equation (4) has no projection, so BSGD runs
  with ``radius = inf`` here (the table runs of qaadan2019-table2 project onto the ball, radius 1);
* the fraction of the checkpoint's steps that triggered budget maintenance (a merge), and Lemma 2's
  asymptotic prediction of it from the current model: for BSGD the share of training rows with margin
  ``y f~(x) < 1`` (the rows SGD keeps stepping on), for BSCA the share of free dual variables ``0 < alpha_i <
  C`` (:func:`free_share`).

``budget=None`` runs without budget (Figure 4): BSCA with ``budget=None``, BSGD with a budget above the
number of steps (maintenance never runs).
"""

import time

import numpy as np

__all__ = ["run_primal_dual_curve", "free_share", "bsgd_dual", "CURVE_COLUMNS", "plot_objectives", "plot_accuracy",
           "plot_stability", "plot_merging"]

#: the columns of a curve row
CURVE_COLUMNS = ("epoch", "seconds", "test_error", "primal", "dual", "merge_fraction", "lemma2_fraction")
_KERNEL = dict(kernel="rbf", degree=3, coef0=0.0)


def free_share(dual, C):
    """Share of dual variables strictly between 0 and C (Lemma 2's ``p_SCA``).

    Exact comparisons: BSCA clips a variable to its box by assigning 0 or C (refsvm.bsca), so a variable
    at a bound holds exactly 0.0 or exactly C; no rounding error enters the test.
    """
    dual = np.asarray(dual, dtype=np.float64)
    return float(np.mean((dual > 0.0) & (dual < C))) if dual.size else 0.0


def bsgd_dual(violations, t, C):
    """BSGD's dual vector by the paper's equation (4): ``alpha_i = n C v_i / t`` (``v_i``: violation steps on i)."""
    n = len(violations)
    return np.asarray(violations, dtype=np.float64) * (n * C / t) if t else np.zeros(n)


def _margins(X, sv, beta, gamma):
    from .._fast.kernels import kernel_matrix

    if not len(sv):
        return np.zeros(X.shape[0])
    out = np.empty(X.shape[0])
    for s in range(0, X.shape[0], 20000):
        out[s:s + 20000] = kernel_matrix(np.ascontiguousarray(X[s:s + 20000]), sv, "rbf", gamma, 3, 0.0) @ beta
    return out


class _Solver:
    """One solver's state across calls: ``step(order)`` continues it on ``order`` and returns the steps that
    triggered budget maintenance; ``model()`` is ``(sv, beta)``; ``dual()`` its dual vector."""

    def __init__(self, method, X, y, budget, C, gamma):
        if method not in ("bsgd", "bsca"):
            raise ValueError(f"method must be 'bsgd' or 'bsca'; got {method!r}")
        self.method, self.X, self.y, self.budget, self.C, self.gamma = method, X, y, budget, C, gamma
        self.n = X.shape[0]
        self.sv = self.alpha = self.bias = self.dual_ = self.src = None
        self.t = 0
        self.violations = np.zeros(self.n, dtype=np.int64)

    def step(self, order):
        from .._fast.bsca import bsca
        from .._fast.bsgd import bsgd

        if self.method == "bsca":
            res = bsca(self.X, self.y, order, budget=self.budget, C=self.C, gamma=self.gamma, **_KERNEL,
                       sv=self.sv, alpha=self.alpha, dual=self.dual_, sv_source=self.src, t0=self.t)
            self.dual_, self.src = res.dual, res.sv_source
        else:
            budget = self.budget if self.budget is not None else self.t + len(order) + 1
            res = bsgd(self.X, self.y, order, n_classes=2, budget=budget, lam=1.0 / (self.n * self.C),
                       learning_rate="pegasos", eta=1.0, radius=np.inf, maintenance="merge", gamma=self.gamma,
                       **_KERNEL, merge_eps=0.01, projection_ridge=1e-10, fit_bias=False, sv=self.sv,
                       alpha=self.alpha, bias=self.bias, t0=self.t)
            self.bias = res.bias
            np.add.at(self.violations, order[np.asarray(res.trace["added"], dtype=bool)], 1)
        self.sv, self.alpha, self.t = res.sv, res.alpha, res.t
        return len(res.trace["maint_step"])

    def model(self):
        return self.sv, self.alpha[:, 0]

    def dual(self):
        return self.dual_ if self.method == "bsca" else bsgd_dual(self.violations, self.t, self.C)

    def lemma2(self, margins):
        """Lemma 2's predicted fraction of maintenance steps for the current model."""
        if self.method == "bsca":
            return free_share(self.dual_, self.C)
        return float(np.mean(self.y * margins < 1.0))


def _dual_sample(dual, m, seed):
    nz = np.flatnonzero(dual)
    if len(nz) <= m:
        return None
    return np.sort(np.random.default_rng(seed).choice(nz, size=m, replace=False)).astype(np.int64)


def run_primal_dual_curve(X, y, X_test, y_test, seed, *, method, C, gamma, budget=500, epochs=10, per_epoch=1,
                          report="error", dual_sample=3000, objectives=True):
    """``refsvm reproduce`` runner of the Qaadan et al. figures (see the module docstring).

    ``report``: what ``error`` is, ``"error"`` = the final test error (%), ``"merge_fraction"`` = the
    percentage of the last epoch's steps that triggered budget maintenance (Figure 8).  ``objectives=False``:
    the primal and dual columns are NaN (not computed; Figure 8 needs neither).
    """
    from .._fast.bsca import dual_objective, primal_objective
    from .runners import _expansion_share, _test_error

    if report not in ("error", "merge_fraction"):
        raise ValueError(f"report must be 'error' or 'merge_fraction'; got {report!r}")
    if int(epochs) < 1 or int(per_epoch) < 1:
        raise ValueError(f"epochs and per_epoch must be >= 1; got {epochs!r}, {per_epoch!r}")
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    n = X.shape[0]
    solver = _Solver(method, X, y, budget, C, gamma)
    rng = np.random.default_rng(seed)
    cuts = np.linspace(0, n, int(per_epoch) + 1).astype(int)
    seconds, curve, epoch_merges = 0.0, [], 0
    for epoch in range(int(epochs)):
        order = rng.permutation(n).astype(np.int64)
        epoch_merges = 0
        for k in range(int(per_epoch)):
            chunk = order[cuts[k]:cuts[k + 1]]
            start = time.perf_counter()
            merges = solver.step(chunk)
            seconds += time.perf_counter() - start
            epoch_merges += merges
            sv, beta = solver.model()
            margins = _margins(X, sv, beta, gamma) if method == "bsgd" else None     # Lemma 2 for BSGD only
            dual = solver.dual()
            curve.append([epoch + (k + 1) / per_epoch, seconds,
                          _test_error(sv, solver.alpha, np.zeros(1), gamma, X_test, y_test, "fast"),
                          primal_objective(X, y, sv, beta, C=C, gamma=gamma, **_KERNEL) if objectives else np.nan,
                          dual_objective(X, y, dual, gamma=gamma, **_KERNEL,
                                         sample=_dual_sample(dual, dual_sample, seed)) if objectives else np.nan,
                          100.0 * merges / max(len(chunk), 1), 100.0 * solver.lemma2(margins)])
    sv, _ = solver.model()
    merge_pct = 100.0 * epoch_merges / n
    return dict(error=curve[-1][2] if report == "error" else merge_pct, test_error=curve[-1][2], checkpoints=curve,
                merge_fraction=merge_pct, seconds=seconds, n_sv=int(len(sv)),
                majority_share=_expansion_share(sv, solver.alpha, np.zeros(1), gamma, X, X_test, "fast"))


# ---------------------------------------------------------------------------------------------- figures


def _draw(result, path, panels_of):
    """One row of panels per data set; ``panels_of(ax_list, rows)`` draws a data set's rows."""
    from .report import require_matplotlib

    require_matplotlib().use("Agg")
    import matplotlib.pyplot as plt

    datasets = list(dict.fromkeys(r["dataset"] for r in result["rows"]))
    n_panels = panels_of(None, None)
    fig, axes = plt.subplots(len(datasets), n_panels, figsize=(5.0 * n_panels, 3.6 * len(datasets)), squeeze=False)
    for ax_row, ds in zip(axes, datasets):
        rows = [r for r in result["rows"] if r["dataset"] == ds and r["available"]]
        panels_of(ax_row, rows)
        for ax in ax_row:
            ax.set_title(f"{ds}: {ax.get_title()}", fontsize=9)
            ax.legend(fontsize=7)
    fig.suptitle(f"{result['table']}{' (quick)' if result['quick'] else ''}; mean over {result['seeds']} seed(s)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _curves(r):
    return np.array([s["checkpoints"] for s in r["per_seed"]])    # seeds x checkpoints x columns


def _col(name):
    return CURVE_COLUMNS.index(name)


def _mean_lines(ax, rows, x, y):
    """One line per row: column ``y`` against column ``x``, each the mean over the seeds; returns the lines."""
    lines = []
    for r in rows:
        c = _curves(r).mean(axis=0)
        lines += ax.plot(c[:, _col(x)], c[:, _col(y)], "-o", ms=2, label=r["algorithm"])
    return lines


def plot_objectives(result, path):
    """Figures 1 and 6: primal and dual objective over training time (symlog: the dual can be negative)."""
    def draw(axes, rows):
        if axes is None:
            return 2
        _mean_lines(axes[0], rows, "seconds", "primal")
        _mean_lines(axes[1], rows, "seconds", "dual")
        for ax, what in zip(axes, ("primal objective", "dual objective")):
            ax.set_yscale("symlog")
            ax.set_xlabel("training seconds")
            ax.set_title(what)
    _draw(result, path, draw)


def _accuracy(axes, rows, x="seconds", band=False):
    for r in rows:
        c = _curves(r)
        acc = 100.0 - c[:, :, _col("test_error")]
        xs = c[:, :, _col(x)].mean(axis=0)
        axes[0].plot(xs, acc.mean(axis=0), "-o", ms=2, label=r["algorithm"])
        if band:
            sd = acc.std(axis=0, ddof=1) if len(acc) > 1 else np.zeros(acc.shape[1])
            axes[0].fill_between(xs, acc.mean(axis=0) - sd, acc.mean(axis=0) + sd, alpha=0.25)
        paper = r.get("paper") or {}
        if paper.get("mean") is not None:
            axes[0].axhline(100.0 - paper["mean"], ls=":", color="gray", lw=1)
    axes[0].set_xlabel("training seconds" if x == "seconds" else "epochs")
    axes[0].set_ylabel("test accuracy (%)")
    axes[0].set_title("test accuracy" + (" (mean +- sd)" if band else "") + "; dotted: the paper's exact SVM")


def plot_accuracy(result, path):
    """Figures 2, 4, 5 and 7: test accuracy over training time; the paper's exact-SVM accuracy dotted."""
    _draw(result, path, lambda axes, rows: 1 if axes is None else _accuracy(axes, rows))


def plot_stability(result, path):
    """Figure 3: mean and standard deviation of the test accuracy over the seeds, per epoch."""
    _draw(result, path, lambda axes, rows: 1 if axes is None else _accuracy(axes, rows, x="epoch", band=True))


def plot_merging(result, path):
    """Figure 8: the fraction of steps that merged, per checkpoint, and Lemma 2's prediction (dashed)."""
    def draw(axes, rows):
        if axes is None:
            return 1
        lines = _mean_lines(axes[0], rows, "epoch", "merge_fraction")
        for r, line in zip(rows, lines):
            c = _curves(r).mean(axis=0)
            axes[0].plot(c[:, _col("epoch")], c[:, _col("lemma2_fraction")], "--", color=line.get_color(), lw=1)
        axes[0].set_xlabel("epochs")
        axes[0].set_ylabel("merging steps (% of steps)")
        axes[0].set_title("merging steps; dashed: Lemma 2")
    _draw(result, path, draw)
