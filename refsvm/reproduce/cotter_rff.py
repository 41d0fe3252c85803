"""Cotter, Shalev-Shwartz & Srebro (2012), Figure 3: SBP against random Fourier features, test error vs
d-dimensional inner products.

:func:`run_rff_curve` is the random-features curve as the paper's appendix A defines it: ``v_1..v_K ~ N(0, I)``
(``default_rng(seed)``), ``P(x)_{2i} = cos(<v_i, x> / sigma) / sqrt(k)``, ``P(x)_{2i+1} = sin(<v_i, x> / sigma) /
sqrt(k)`` with ``sigma = 1 / sqrt(2 gamma)`` (refsvm's ``exp(-gamma ||x - x'||^2)``); for ``k = 1, 2, 4, ...,
k_max`` (the first k directions of the same draw) the optimum of the linear SVM without bias on ``P(x)``,
``lambda = 1/n`` (scikit-learn's ``LinearSVC(loss="hinge", C=1, fit_intercept=False)``: ``1/2 ||w||^2 +
sum_i hinge`` is n times ``lambda/2 ||w||^2 + 1/n sum_i hinge``), and its test error.  Cost, as the paper
counts it: ``k n`` inner products (computing P on the training set; the linear solver's cost is ignored).  The
SBP curve is :func:`refsvm.reproduce.curves.run_curve`'s (one kernel evaluation = one inner product, the
paper's argument: the norms are precomputed).
"""

import time

import numpy as np

__all__ = ["fourier_features", "run_rff_curve", "plot_inner_products"]


def fourier_features(X, V, sigma):
    """The paper's ``P(x)``: ``[cos(<v_i, x>/sigma), sin(<v_i, x>/sigma)] / sqrt(k)`` interleaved, ``k = len(V)``."""
    Z = np.asarray(X, dtype=np.float64) @ (np.asarray(V, dtype=np.float64).T / sigma)
    out = np.empty((Z.shape[0], 2 * Z.shape[1]))
    out[:, 0::2], out[:, 1::2] = np.cos(Z), np.sin(Z)
    return out / np.sqrt(V.shape[0])


def run_rff_curve(X, y, X_test, y_test, seed, *, gamma, k_max=1024, max_iter=20000):
    """``refsvm reproduce`` runner: the random-Fourier-features curve (module docstring); ``error`` = the test
    error (%) at ``k_max``; ``curve`` = ``[k, inner products (k n), test error %]`` per k."""
    from sklearn.svm import LinearSVC

    if int(k_max) < 1:
        raise ValueError(f"k_max must be >= 1; got {k_max!r}")
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    sigma = 1.0 / np.sqrt(2.0 * gamma)
    V = np.random.default_rng(seed).normal(size=(int(k_max), X.shape[1]))
    curve, start, k = [], time.perf_counter(), 1
    while k <= k_max:
        svm = LinearSVC(loss="hinge", C=1.0, fit_intercept=False, max_iter=max_iter, random_state=seed)
        svm.fit(fourier_features(X, V[:k], sigma), y)
        pred = svm.decision_function(fourier_features(X_test, V[:k], sigma))
        curve.append([float(k), float(k * n), 100.0 * float(np.mean(np.where(pred > 0, 1, -1) != y_test))])
        k *= 2
    return dict(error=curve[-1][2], seconds=time.perf_counter() - start, curve=curve,
                majority_share=float(max(np.mean(pred > 0), np.mean(pred <= 0))))


def plot_inner_products(result, path):
    """Figure 3's axes: test error vs inner products (kernel evaluations for SBP, k n for the features)."""
    from .curves import plot_curves

    plot_curves(result, path, xlabel="d-dimensional inner products")
