"""Test error against kernel evaluations: the solvers of Figure 2 of Cotter, Shalev-Shwartz & Srebro (2012).

Shared by ``refsvm reproduce cotter2012-figure2`` (runner :func:`run_curve`)
and ``benchmarks/bench_sbp.py``.  Each solver runs ten epochs of n steps on
a training set without bias and is stopped at :data:`CHECKPOINTS` (in
epochs, continuing its state); at each checkpoint the test error of its
current predictor and its cumulative kernel-evaluation count are recorded:

* **SBP** (:func:`refsvm._fast.sbp.optimize`, the paper's nu): uniforms from
  ``default_rng(seed).random(10 n)``; the averaged iterate (Alg. 1, line 13);
* **Pegasos without budget**: BSGD (:func:`refsvm._fast.bsgd.bsgd`) with a
  budget above 10 n (maintenance never runs), ``lambda = 1/n`` (the paper's
  Table 2), radius infinite, last iterate; order: ten permutations from
  ``default_rng(seed)``;
* **dual coordinate ascent without budget** (the paper's SDCA, Hsieh et al.
  2008): BSCA (:func:`refsvm._fast.bsca.bsca`) with ``budget=None`` and
  ``C = 1/(lambda n) = 1``; order as Pegasos;
* the **kernel Perceptron** (a small loop here: add ``y_t Phi(x_t)`` when
  ``y_t f(x_t) <= 0``), ten epochs, last iterate, order as Pegasos.

Kernel evaluations are each solver's own count (``trace["kernel_evaluations"]``
for SBP, BSGD and BSCA: n per SBP iteration, one per stored SV per Pegasos /
dual step; the Perceptron counts its SVs per example).  Each curve function
returns a list of ``(epochs, kernel evaluations, test error as a fraction)``.
"""

import hashlib
import time

import numpy as np

__all__ = ["CHECKPOINTS", "test_error", "sbp_curve", "pegasos_curve", "dual_ca_curve", "perceptron_curve",
           "run_curve", "plot_curves"]

CHECKPOINTS = [0.125, 0.25, 0.5] + list(range(1, 11))    # in epochs


def _kernel_matrix(A, B, gamma):
    from .._fast.kernels import kernel_matrix
    return kernel_matrix(np.ascontiguousarray(A), np.ascontiguousarray(B), "rbf", gamma, 3, 0.0)


def test_error(Xt, yt, SV, coef, gamma, bias=0.0):
    """Fraction of test points with ``sign(f(x)) != y`` (``f = 0`` counts as -1)."""
    if len(SV) == 0:
        return float(np.mean(yt != -1))
    f = _kernel_matrix(Xt, SV, gamma) @ coef + bias
    return float(np.mean(np.where(f > 0, 1, -1) != yt))


test_error.__test__ = False     # not a pytest test


def _checkpoints(n, epochs):
    return [(cp, int(round(cp * n))) for cp in CHECKPOINTS if cp <= epochs]


def _orders(n, seed, epochs):
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.permutation(n) for _ in range(int(np.ceil(epochs)))]).astype(np.int64)


def sbp_curve(X, y, Xt, yt, gamma, nu, seed, epochs=10):
    from .._fast.sbp import optimize
    n = X.shape[0]
    u = np.random.default_rng(seed).random(int(np.ceil(epochs)) * n)
    done, state, evals, rows = 0, None, 0, []
    for cp, upto in _checkpoints(n, epochs):
        res = optimize(X, y, u[done:upto], nu=nu, kernel="rbf", gamma=gamma, degree=3, coef0=0.0, state=state)
        state, done = res.state, upto
        evals += res.trace["kernel_evaluations"]
        sv = np.flatnonzero(res.coef)
        rows.append((cp, evals, test_error(Xt, yt, X[sv], res.coef[sv], gamma, res.bias)))
    return rows


def pegasos_curve(X, y, Xt, yt, gamma, seed, lam=None, epochs=10):
    from .._fast.bsgd import bsgd
    n = X.shape[0]
    order = _orders(n, seed, epochs)
    kw = dict(n_classes=2, budget=len(order) + 1, lam=1.0 / n if lam is None else lam, learning_rate="pegasos",
              eta=1.0, radius=np.inf, maintenance="removal", kernel="rbf", gamma=gamma, degree=3, coef0=0.0,
              merge_eps=0.01, projection_ridge=1e-10, fit_bias=False)
    sv = alpha = bias = None
    t, done, evals, rows = 0, 0, 0, []
    for cp, upto in _checkpoints(n, epochs):
        res = bsgd(X, y, order[done:upto], sv=sv, alpha=alpha, bias=bias, t0=t, **kw)
        sv, alpha, bias, t, done = res.sv, res.alpha, res.bias, res.t, upto
        evals += res.trace["kernel_evaluations"]
        rows.append((cp, evals, test_error(Xt, yt, sv, alpha[:, 0], gamma, bias[0])))
    return rows


def dual_ca_curve(X, y, Xt, yt, gamma, seed, lam=None, epochs=10):
    """Dual coordinate ascent without budget: BSCA with ``budget=None``, ``C = 1/(lambda n)``."""
    from .._fast.bsca import bsca
    n = X.shape[0]
    order = _orders(n, seed, epochs)
    C = 1.0 if lam is None else 1.0 / (lam * n)
    sv = alpha = dual = src = None
    t, done, evals, rows = 0, 0, 0, []
    for cp, upto in _checkpoints(n, epochs):
        res = bsca(X, y, order[done:upto], budget=None, C=C, kernel="rbf", gamma=gamma, degree=3, coef0=0.0,
                   sv=sv, alpha=alpha, dual=dual, sv_source=src, t0=t)
        sv, alpha, dual, src, t, done = res.sv, res.alpha, res.dual, res.sv_source, res.t, upto
        evals += res.trace["kernel_evaluations"]
        rows.append((cp, evals, test_error(Xt, yt, sv, alpha[:, 0], gamma)))
    return rows


def perceptron_curve(X, y, Xt, yt, gamma, seed, epochs=10):
    """Kernel Perceptron: f(x) = sum_{SV} y_j k(x_j, x); add x_t when y_t f(x_t) <= 0."""
    from .._fast.kernels import kernel_row
    n = X.shape[0]
    order = _orders(n, seed, epochs)
    SV = np.zeros((len(order), X.shape[1]))
    coef = np.zeros(len(order))
    m, evals, done, rows = 0, 0, 0, []
    for cp, upto in _checkpoints(n, epochs):
        for i in order[done:upto]:
            f = kernel_row(SV[:m], X[i], "rbf", gamma, 3, 0.0) @ coef[:m] if m else 0.0
            evals += m
            if y[i] * f <= 0.0:
                SV[m], coef[m] = X[i], y[i]
                m += 1
        done = upto
        rows.append((cp, evals, test_error(Xt, yt, SV[:m], coef[:m], gamma)))
    return rows


_DERIVED_NU = {}


def derived_nu(X, y, gamma):
    """SBP's nu for the data actually used: :func:`refsvm.sbp.nu_without_bias` with lambda = 1/n (cached per data)."""
    from ..sbp import nu_without_bias

    key = (hashlib.sha1(np.ascontiguousarray(X).tobytes() + np.asarray(y).tobytes()).hexdigest(), float(gamma))
    if key not in _DERIVED_NU:
        _DERIVED_NU[key] = nu_without_bias(X, y, lam=1.0 / X.shape[0], kernel="rbf", gamma=gamma)
    return _DERIVED_NU[key]


def run_curve(X, y, X_test, y_test, seed, *, method, gamma, nu=None, epochs=10):
    """``refsvm reproduce`` runner: one solver's curve; ``error`` = test error (%) after ``epochs``.

    ``nu="derive"`` (SBP): nu from the SVM without bias, lambda = 1/n, on the training rows given
    (:func:`derived_nu`), as the paper derived its nu for the data it ran on.
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    extra = {}
    if method == "sbp" and nu == "derive":
        nu = extra["nu"] = derived_nu(X, y, gamma)
    start = time.perf_counter()
    if method == "sbp":
        rows = sbp_curve(X, y, X_test, y_test, gamma, nu, seed, epochs)
    elif method == "pegasos":
        rows = pegasos_curve(X, y, X_test, y_test, gamma, seed, epochs=epochs)
    elif method == "dual_ca":
        rows = dual_ca_curve(X, y, X_test, y_test, gamma, seed, epochs=epochs)
    elif method == "perceptron":
        rows = perceptron_curve(X, y, X_test, y_test, gamma, seed, epochs)
    else:
        raise ValueError(f"method must be one of 'sbp', 'pegasos', 'dual_ca', 'perceptron'; got {method!r}")
    seconds = time.perf_counter() - start
    curve = [[float(cp), int(ev), 100.0 * err] for cp, ev, err in rows]
    return dict(error=curve[-1][2], seconds=seconds, kernel_evaluations=curve[-1][1], curve=curve, **extra)


def plot_curves(result, path, xlabel="kernel evaluations"):
    """``refsvm reproduce --png`` for curve tables: test error vs ``xlabel`` (column 1 of the curves), one panel per
    data set."""
    from .report import panels

    plt, fig, axes, datasets = panels(result, 5.5)
    for ax, ds in zip(axes, datasets):
        for r in result["rows"]:
            if r["dataset"] != ds or not r["available"]:
                continue
            curves = np.array([s["curve"] for s in r["per_seed"]])        # seeds x checkpoints x 3
            ev, err = curves[:, :, 1].mean(axis=0), curves[:, :, 2]
            ax.plot(ev, err.mean(axis=0), "-o", ms=3, label=r["algorithm"])
            ax.fill_between(ev, err.min(axis=0), err.max(axis=0), alpha=0.2)
        ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("test error (%)")
        n = next(r["n"] for r in result["rows"] if r["dataset"] == ds)
        ax.set_title(f"{ds} (n = {n})")
        ax.legend(fontsize=8)
    fig.suptitle(f"{result['table']}{' (quick)' if result['quick'] else ''}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
