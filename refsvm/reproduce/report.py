"""What ``refsvm reproduce`` emits: the plain-text table, the JSON file and the bar chart (PNG)."""

import importlib
import json
import sys

import numpy as np

__all__ = ["emit", "format_table", "plot_table", "write_json", "write_png", "require_matplotlib"]


def emit(result, *, out=None, json_path=None, png_path=None, plot=None):
    """Print ``result`` as a table (to ``out``, default stdout); write it as JSON and as a PNG where asked.

    ``plot``: the table's own ``"module:function"`` drawing the PNG (None: :func:`plot_table`).
    """
    print(format_table(result), file=sys.stdout if out is None else out)
    if json_path:
        write_json(result, json_path)
    if png_path:
        write_png(result, png_path, plot)


def require_matplotlib():
    """``matplotlib`` (the module), or RuntimeError saying how to install it: called before a run that asks
    for a PNG, so that a missing matplotlib fails at once, not after the run."""
    try:
        import matplotlib
    except ImportError as exc:
        raise RuntimeError('--png needs matplotlib: pip install "refsvm[plot]"') from exc
    return matplotlib


def write_json(result, path):
    """The result dict as indented JSON (numpy scalars and arrays as plain numbers and lists), with the
    ``"provenance"`` of the run first (command, commit, machine, fingerprint of the refsvm modules the
    process imported: :mod:`refsvm._provenance`; ``benchmarks/stale.py`` checks it).  The table modules
    are fingerprinted by the run specification of the rows and data sets in ``result``
    (``provenance.table_spec``: :func:`refsvm.reproduce.spec.spec_digest`), not as files."""
    from refsvm._provenance import PRESENTATION_MODULES, SPEC_MODULES, loaded_modules, with_provenance

    body = with_provenance(result, loaded_modules(PRESENTATION_MODULES + SPEC_MODULES))
    body["provenance"]["table_spec"] = table_spec(result)
    with open(path, "w") as f:
        json.dump(body, f, indent=1, default=_json_default)


def table_spec(result, tables=None):
    """``{"table", "algorithms", "datasets", "sha256"}``: the run specification of the rows and data
    sets of ``result`` in its table (``tables``: name -> Table; None: today's registry)."""
    from .spec import spec_digest

    if tables is None:
        from .tables import TABLES as tables
    algorithms = sorted({row["algorithm"] for row in result.get("rows", [])})
    datasets = sorted({row["dataset"] for row in result.get("rows", [])})
    return {"table": result["table"], "algorithms": algorithms, "datasets": datasets,
            "sha256": spec_digest(tables[result["table"]], algorithms, datasets)}


def write_png(result, path, plot=None):
    """The table's own figure (``plot``, ``"module:function"``), else the bar chart of :func:`plot_table`."""
    if plot:
        module, _, func = plot.partition(":")
        getattr(importlib.import_module(module), func)(result, path)
    else:
        plot_table(result, path)


def _json_default(o):
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(type(o))


def format_table(result):
    """Plain-text table: per data set, our mean +- std (seeds) beside the paper's, and times."""
    lines = [f"{result['table']}: {result['title']}",
             f"metric: {result['metric']}; {result['seeds']} seed(s){' (QUICK: subsampled data)' if result['quick'] else ''}; "
             f"{result['n_jobs']} job(s), backend {result['backend']}, wall {result['wall_seconds']:.1f} s"]
    if result["quick"]:
        lines.append("QUICK: a smoke run (subsampled data, few seeds): the numbers are not comparable with the "
                     "paper's, and their gaps to it are not judged")
    if result.get("note"):
        lines.append(result["note"])
    for erratum in result.get("errata") or ():
        lines.append(f"known in the paper: {erratum}")
    for ds in dict.fromkeys(r["dataset"] for r in result["rows"]):
        rows = [r for r in result["rows"] if r["dataset"] == ds]
        test_t = any((r["paper"] or {}).get("test_seconds") is not None for r in rows)   # a train / test time table
        lines.append("")
        lines.append(f"{ds} (n = {rows[0]['n']})")
        digits = metric_digits(result["metric"])
        w2, w3 = _widths(digits)
        lines.append(f"  {'algorithm':<24}{'ours':>{w2}}{'median [range]':>{w3}}{'paper':>{w2}}{'diff':>{6 + digits}}{'ours s':>10}"
                     f"{'paper s':>10}"
                     + (f"{'test s':>9}{'paper':>9}" if test_t else "") + "  chosen")
        for r in rows:
            lines.append(_format_row(r, test_t, digits))
        lines += _segment_lines([r for r in rows if r.get("available") and r["per_seed"][0].get("segments")])
        gaps = [r for r in rows if r.get("gap_reason")]
        if gaps:
            lines.append(f"  gap to the paper ({gap_rule(result['table'])}; reasons: refsvm.reproduce.gaps.REASONS):")
            for r in gaps:
                lines.append(f"    {r['algorithm']}: {r['gap_reason']}: {r['gap_text']}")
    m = result["machine"]
    lines.append("")
    lines.append(f"machine: {m.get('cpu')} ({m.get('cpus')} cpus), load average {m.get('load_average')}, {m.get('platform')}")
    return "\n".join(lines)


def _segment_lines(rows):
    """Lines for rows whose runs recorded ``segments`` (Wang et al.'s Figure 6: one per call between checkpoints):
    along the first seed's stream, per segment ending at N, microseconds per example, maintenance events and
    recomputations of the kept inverse per 1,000 examples (``[]``: no such row)."""
    if not rows:
        return []
    short = lambda n: f"{n / 1e6:g}M" if n >= 1e6 else f"{n / 1e3:g}K"  # noqa: E731
    lines = ["  along the stream (first seed; per segment up to N: us per example / maintenance events / "
             "recomputations of the kept inverse, per 1,000 examples):"]
    for r in rows:
        lines.append(f"    {r['algorithm']}: " + "; ".join(
            f"{short(s['N'])} {1e6 * s['seconds'] / s['rows']:.3g} / {1e3 * s['events'] / s['rows']:.0f} / "
            f"{1e3 * s['kinv_refreshes'] / s['rows']:.2g}" for s in r["per_seed"][0]["segments"]))
    return lines


def gap_rule(table):
    """How a row of ``table`` is flagged, in words (:func:`refsvm.reproduce.gaps.is_flagged`)."""
    from .gaps import RELATIVE_GAP

    return f"> {100 * RELATIVE_GAP[table]:g} % of the paper's" if table in RELATIVE_GAP else "> 2 points or > 2 sd"


def metric_digits(metric):
    """Decimals printed for a table's metric: 5 for a squared loss (Lu et al.'s Table 9 prints 0.04017), else 2."""
    return 5 if "squared loss" in metric else 2


def _widths(digits):
    """Widths of the "mean ± sd" and "median [range]" columns for ``digits`` decimals (16 and 24 at 2)."""
    return 16 + 2 * (digits - 2) + (1 if digits > 2 else 0), 24 + 3 * (digits - 2) + (1 if digits > 2 else 0)


def _format_row(r, test_t, digits=2):
    """One line of :func:`format_table`: a row of the table (``test_t``: the table has test times; ``digits``:
    decimals of the metric)."""
    p = r["paper"] or {}
    f = f".{digits}f"
    w2, w3 = _widths(digits)
    paper = "" if p.get("mean") is None else (f"{p['mean']:{f}}" + (f" ± {p['std']:{f}}" if p.get("std") is not None else ""))
    psec = "" if p.get("seconds") is None else f"{p['seconds']:.3g}"
    ptest = "" if p.get("test_seconds") is None else f"{p['test_seconds']:.3g}"
    if not r["available"]:
        return (f"  {r['algorithm']:<24}{'n/a':>{w2}}{'':>{w3}}{paper:>{w2}}{'':>{6 + digits}}{'':>10}{psec:>10}"
                + (f"{'':>9}{ptest:>9}" if test_t else "") + f"  {r['note']}")
    ours = f"{r['error_mean']:{f}} ± {r['error_std']:{f}}"
    spread = (f"{r['error_median']:{f}} [{r['error_min']:{f}}, {r['error_max']:{f}}]"
              if "error_median" in r else "")
    diff = "" if p.get("mean") is None else f"{r['error_mean'] - p['mean']:+{f}}"
    otest = f"{r['test_seconds_mean']:.3g}" if "test_seconds_mean" in r else ""
    return (f"  {r['algorithm']:<24}{ours:>{w2}}{spread:>{w3}}{paper:>{w2}}{diff:>{6 + digits}}"
            f"{r['seconds_mean']:>10.3g}{psec:>10}"
            + (f"{otest:>9}{ptest:>9}" if test_t else "") + f"  {_format_chosen(r)}")


def _format_chosen(r):
    """The "chosen" column: the grid point (how it was chosen, constant points), or where a curve went."""
    chosen = ", ".join(f"{k}={v:g}" for k, v in r["chosen"].items())
    if r.get("cv"):
        tuner = r["cv"].get("row", r["algorithm"])
        chosen += f" ({r['cv']['folds']}-fold CV{' of ' + tuner if tuner != r['algorithm'] else ''} on the training split)"
    if r.get("constant"):
        chosen = ("CONSTANT: predicts one class" + (" (every grid point does)" if r.get("grid") else "") + "  "
                  + chosen)
    elif r.get("constant_points"):
        chosen += f"  (constant, not chosen: {len(r['constant_points'])} grid point(s))"
    if r["per_seed"] and "curve" in r["per_seed"][0]:       # curve tables: where the curve went
        curves = np.array([s["curve"] for s in r["per_seed"]])
        chosen = "; ".join(f"{cp:g} ep: {e:.2f} % @ {ev:.3g} k.e." for cp, ev, e in
                           zip(curves[0, :, 0], curves[:, :, 1].mean(0), curves[:, :, 2].mean(0))
                           if cp in (0.25, 1, 10))
    if r["per_seed"] and "extra" in r["per_seed"][0]:       # a runner's further numbers (e.g. Wang's E-bar)
        for key in r["per_seed"][0]["extra"]:
            vals = [s["extra"][key] for s in r["per_seed"] if key in s["extra"]]
            chosen += f"  {key} = {np.mean(vals):.4g}" + (f" ± {np.std(vals, ddof=1):.2g}" if len(vals) > 1 else "")
    return chosen


def panels(result, width):
    """``(pyplot, figure, axes, data sets)``: one panel ``width`` inches wide per data set of ``result`` (a
    PNG of ``refsvm reproduce``; matplotlib with the Agg backend, :func:`require_matplotlib`)."""
    require_matplotlib().use("Agg")
    import matplotlib.pyplot as plt

    datasets = list(dict.fromkeys(r["dataset"] for r in result["rows"]))
    fig, axes = plt.subplots(1, len(datasets), figsize=(width * len(datasets), 4), squeeze=False)
    return plt, fig, axes[0], datasets


def plot_table(result, path):
    """Bar chart, one panel per data set: ours (mean, spread over seeds) beside the paper."""
    plt, fig, axes, datasets = panels(result, 4.2)
    for ax, ds in zip(axes, datasets):
        rows = [r for r in result["rows"] if r["dataset"] == ds]
        idx = np.arange(len(rows))
        ours = [r["error_mean"] if r["available"] else np.nan for r in rows]
        spread = [r["error_std"] if r["available"] else 0 for r in rows]
        paper = [(r["paper"] or {}).get("mean", np.nan) for r in rows]
        paper = [np.nan if v is None else v for v in paper]
        ax.bar(idx - 0.2, ours, 0.4, yerr=spread, label="refsvm")
        ax.bar(idx + 0.2, paper, 0.4, label="paper")
        ax.set_xticks(idx)
        ax.set_xticklabels([r["algorithm"] for r in rows], rotation=60, ha="right", fontsize=8)
        ax.set_title(ds)
        ax.set_ylabel(result["metric"])
    axes[0].legend()
    fig.suptitle(f"{result['table']}{' (quick)' if result['quick'] else ''}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
