#!/usr/bin/env python
"""The water-filling picture of SBP (Figures 1 and 4 of Cotter et al. 2012) from real responses.

Runs SBP (compiled path) for two epochs on 600 points of a9a (Table 2
parameters: sigma^2 = 10, nu = 1.1e-2 without bias; sigma^2 = 100,
nu = 5.79e-4 with bias), takes the responses c_i = y_i <w, Phi(x_i)> of the
last iterate and draws them sorted, with the water level of
:func:`refsvm.sbp.find_gamma` (left) and the two basins c_i + y_i b of
:func:`refsvm.sbp.find_gamma_and_bias` (right).  The water drawn is the volume
``sum_i max(0, gamma - height_i)``, which the plot title checks against n nu.

    python benchmarks/plot_sbp_water_filling.py docs/_static/sbp_water_filling.png
"""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from refsvm import sbp  # noqa: E402
from refsvm._fast.sbp import optimize  # noqa: E402
from refsvm.datasets import load_libsvm  # noqa: E402


def main(path):
    X, y, _, _ = load_libsvm("a9a")
    idx = np.random.default_rng(0).choice(len(y), 600, replace=False)
    X, y = np.ascontiguousarray(X[idx]), y[idx].astype(np.int64)
    n = len(y)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))

    res = optimize(X, y, np.random.default_rng(1).random(2 * n), nu=1.1e-2, kernel="rbf", gamma=0.05,
                   degree=3, coef0=0.0)
    c = np.sort(res.state.c)
    volume = n * 1.1e-2
    level = sbp.find_gamma(c, volume)
    ax = axes[0]
    x = np.arange(n)
    ax.fill_between(x, c, np.maximum(c, level), color="tab:blue", alpha=0.5, step="mid", label="water (slack xi)")
    ax.step(x, c, where="mid", color="k", lw=1, label="responses c_i (sorted)")
    ax.axhline(level, color="tab:blue", ls="--", lw=1, label=f"water level gamma = {level:.4f}")
    k = int(np.count_nonzero(c < level))
    ax.set_title(f"no bias: n nu = {volume:.2f}, water = {np.maximum(0, level - c).sum():.2f}, "
                 f"p* uniform on {k} points", fontsize=9)
    ax.set_xlabel("examples, by increasing response")
    ax.set_ylabel("height")
    ax.set_xlim(0, min(n, 4 * k + 20))
    ax.set_ylim(c[0] - 0.02, max(level, c[min(n - 1, 4 * k + 20)]) + 0.02)
    ax.legend(fontsize=8, loc="lower right")

    res = optimize(X, y, np.random.default_rng(1).random(2 * n), nu=5.79e-4, kernel="rbf", gamma=0.005,
                   degree=3, coef0=0.0, fit_bias=True)
    c = res.state.c
    volume = n * 5.79e-4
    level, b = sbp.find_gamma_and_bias(y, c, volume)
    ax = axes[1]
    shown = 90
    for sign, color, name in ((1, "tab:red", "positive basin c_i + b"), (-1, "tab:green", "negative basin c_i - b")):
        h = np.sort(c[y == sign] + sign * b)[:shown]
        xs = np.arange(len(h)) if sign == 1 else np.arange(len(h)) + shown + 5
        ax.fill_between(xs, h, np.maximum(h, level), color="tab:blue", alpha=0.5, step="mid")
        ax.step(xs, h, where="mid", color=color, lw=1.2, label=name)
    heights = c + y * b
    kp = int(np.count_nonzero(heights[y == 1] < level))
    km = int(np.count_nonzero(heights[y == -1] < level))
    ax.axhline(level, color="tab:blue", ls="--", lw=1, label=f"common level gamma = {level:.4f}")
    ax.set_title(f"with bias b = {b:.4f}: n nu = {volume:.3f}, water = "
                 f"{np.maximum(0, level - heights).sum():.3f}, covered {kp} + / {km} -", fontsize=9)
    ax.set_xlabel(f"the {shown} lowest examples of each class, by increasing height")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/_static/sbp_water_filling.png")
