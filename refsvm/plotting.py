"""Plots of the functions behind the algorithms (optional: needs matplotlib).

``pip install refsvm[plot]`` installs matplotlib; it is imported inside the
functions, so ``import refsvm.plotting`` works without it.
"""

import numpy as np


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "refsvm.plotting needs matplotlib; install it with `pip install matplotlib` "
            "(or `pip install refsvm[plot]`)"
        ) from exc
    return plt


def plot_merge_functions(grid_size=100, ax=None):
    """Draw the graphs of ``h(m, kappa)`` and ``WD(m, kappa)`` (Glasmachers & Qaadan, Figure 2).

    Two 3-D surfaces over ``[0, 1]^2``: the merging coefficient ``h`` (2a) and
    the normalised weight degradation ``WD`` on a log scale (2b; zeros, at
    ``m in {0, 1}`` and ``kappa = 1``, are clipped to ``1e-6``).  The values are
    the lookup tables of :func:`refsvm.lookup.compute_tables` at ``grid_size``
    (GSS-precise, computed afresh, nothing is cached).  The jump of ``h`` at
    ``m = 1/2`` for ``kappa < e^-2`` (Lemma 1) is visible as a cliff.

    Parameters
    ----------
    grid_size : int
        Cells per axis of the evaluation grid (default 100; the tables used for
        merging have 400).
    ax : pair of 3-D axes, optional
        ``(ax_h, ax_wd)``, created with ``projection="3d"``.  If None, a new
        figure with two such axes is made.

    Returns
    -------
    (fig, (ax_h, ax_wd))
    """
    plt = _pyplot()
    from matplotlib import cm

    from .lookup import compute_tables, grid_nodes

    if ax is None:
        fig = plt.figure(figsize=(11, 4.8))
        ax_h = fig.add_subplot(1, 2, 1, projection="3d")
        ax_wd = fig.add_subplot(1, 2, 2, projection="3d")
    else:
        ax_h, ax_wd = ax
        if getattr(ax_h, "name", None) != "3d" or getattr(ax_wd, "name", None) != "3d":
            raise ValueError("ax must be a pair of 3-D axes (projection='3d')")
        fig = ax_h.figure

    h_table, wd_table = compute_tables(grid_size)
    nodes = grid_nodes(grid_size)
    M, K = np.meshgrid(nodes, nodes, indexing="ij")

    ax_h.plot_surface(M, K, h_table, cmap=cm.viridis, linewidth=0, antialiased=True, rcount=100, ccount=100)
    ax_h.set_xlabel("m")
    ax_h.set_ylabel(r"$\kappa$")
    ax_h.set_zlabel("h")
    ax_h.set_title(r"(a) $h(m, \kappa)$")
    ax_h.view_init(elev=25, azim=-135)    # shows the ramp h = m at kappa = 1 and the cliff at m = 1/2

    log_wd = np.log10(np.maximum(wd_table, 1e-6))
    ax_wd.plot_surface(M, K, log_wd, cmap=cm.viridis, linewidth=0, antialiased=True, rcount=100, ccount=100)
    ax_wd.set_xlabel("m")
    ax_wd.set_ylabel(r"$\kappa$")
    ax_wd.set_zlabel("WD")
    ticks = np.arange(-6, 1)
    ax_wd.set_zticks(ticks)
    ax_wd.set_zticklabels([f"$10^{{{t}}}$" for t in ticks])
    ax_wd.set_title(r"(b) $WD(m, \kappa)$, log scale")
    return fig, (ax_h, ax_wd)
