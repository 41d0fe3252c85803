"""Renderers of Wang, Crammer & Vucetic (2012)'s reproduced tables (``benchmarks/results/
reproduce_wang2012-table4.json``) for docs/gaps.rst (registered in ``benchmarks/docnumbers.py``'s registry;
see its docstring).

Blocks ``repro-wang2012-table4`` (and ``-table3-all``, ``-table3-norma``, ``-table3-all-own-cv``,
``-table3-norma-own-cv``, ``-libsvm-cv``, ``-libsvm-cv-adult``,
``-table5``, ``-table4-fine-grid``,
``-table4-bmp-radius``, ``-table4-pegasos-cv``, ``-table5-waveform-long``, ``-table5-bmp-own-cv``): per data set and row refsvm runs, our mean
test error +- sd over the seeds, the paper's, the difference, the gamma the cross-validation chose (or the row's
fixed one; and C or Norma's eta where the grid holds it) and the gap's reason (blank: not flagged).
"""

import numpy as np
from _docgen import load, renderer, table


@renderer("repro-wang2012-table4")
def _wang_table4(fmt):
    """Wang et al.'s Table 4 as run: ours beside the paper's (errors in percent), the gap's reason (today's)."""
    return _wang_cv_table("reproduce_wang2012-table4", fmt)


#: Blocks rendered as Table 4's (``_wang_cv_table``), one per result: Table 3 with all five columns
#: (wang2012-table3-all), its Norma and BNorma+merge rows (with the eta the CV chose), its rows with a CV of gamma
#: and lambda of their own, the LIBSVM rows of Tables 3-5 with a CV of their own, and Table 4's companion
#: runs at B = 500: a gamma grid twice as fine, LIBSVM and Pegasos with CVs of their own, BMP+merge at other radii;
#: Table 5's Waveform rows on a 1M-row stream, its Shuttle column on two classes; Adult's Pegasos and projection at
#: B = 500 with CVs of their own; Table 4's USPS column on LIBSVM's pixels (the paper's files, rebuilt).
_CV_TABLES = ("wang2012-table3-all", "wang2012-table3-norma", "wang2012-table3-all-own-cv", "wang2012-table3-norma-own-cv",
              "wang2012-libsvm-cv", "wang2012-libsvm-cv-adult",
              "wang2012-table4-fine-grid",
              "wang2012-table4-bmp-radius", "wang2012-table4-pegasos-cv",
              "wang2012-table5-waveform-long", "wang2012-table5-bmp-own-cv", "wang2012-table5-shuttle-binary",
              "wang2012-table3-adult-own-cv", "wang2012-table3-mp", "wang2012-table3-mp-stream", "wang2012-table4-mp",
              "wang2012-table4-mp-usps-raw", "wang2012-table5-mp", "wang2012-table3-projectron",
              "wang2012-table4-projectron", "wang2012-table5-projectron", "wang2012-table3-bpa",
              "wang2012-table3-bpa-stream", "wang2012-table3-idsvm", "wang2012-table3-idsvm-51k",
              "wang2012-table3-idsvm-stopped",
              "wang2012-table3-idsvm-stopped-cv", "wang2012-table4-usps-libsvm",
              "wang2012-table4-mp-usps-libsvm", "wang2012-libsvm-cv-usps-libsvm")

for _name in _CV_TABLES:
    renderer(f"repro-{_name}")(lambda fmt, _stem=f"reproduce_{_name}": _wang_cv_table(_stem, fmt))


@renderer("repro-wang2012-table5")
def _wang_table5(fmt):
    """Wang et al.'s Table 5 as run: as Table 4's block."""
    return _wang_cv_table("reproduce_wang2012-table5", fmt)


def _wang_cv_table(name, fmt):
    """A table of gamma-by-CV rows (wang2012-table3-all / -table4 / -table5): per data set and row run, our mean test
    error +- sd, the paper's, the difference, the chosen gamma and the gap's reason (today's)."""
    from refsvm.reproduce.gaps import gap_reason

    data = load(name)
    with_c = any("C" in (r.get("chosen") or {}) for r in data["rows"])   # C in the grid: a column of its own
    with_eta = any("eta" in (r.get("chosen") or {}) for r in data["rows"])   # Norma's eta (wang2012-table3-norma)
    rows = []
    for r in data["rows"]:
        if not r.get("available"):
            continue
        p, point = r["paper"], {**r["params"], **(r.get("chosen") or {})}   # no grid: the fixed gamma
        rows.append([r["dataset"], r["algorithm"], f"{r['error_mean']:.2f} ± {r['error_std']:.2f}",
                     f"{p['mean']:.2f} ± {p['std']:.2f}", f"{r['error_mean'] - p['mean']:+.2f}",
                     f"{point['gamma_scale']:g}/d"] + ([f"{point['C']:g}"] if with_c else [])
                    + ([f"{point['eta']:.4g}"] if with_eta else []) + [(gap_reason(data["table"], r) or ("",))[0]])
    return table(["data", "row", f"ours ({data['seeds']} seeds)", "paper", "diff", "gamma"] + (["C"] if with_c else [])
                 + (["eta"] if with_eta else []) + ["gap"], rows, fmt)


@renderer("repro-wang2012-table3-norma-stream")
def _wang_table3_norma_stream(fmt):
    """Table 3's BNorma+merge rows on Table 6's stream (wang2012-table3-norma-stream): the mean test error +- sd at
    each stop of the pass (the JSON's 'stream'), the paper's (10M examples) and the gap's reason at the end (today's)."""
    from refsvm.reproduce.gaps import gap_reason

    data = load("reproduce_wang2012-table3-norma-stream")
    stops = [s[0] for s in data["rows"][0]["per_seed"][0]["stream"]]
    rows = []
    for r in data["rows"]:
        at = np.array([[s[2] for s in seed["stream"]] for seed in r["per_seed"]])
        p = r["paper"]
        rows.append([r["algorithm"]] + [f"{m:.2f} ± {sd:.2f}" for m, sd in zip(at.mean(0), at.std(0, ddof=1))]
                    + [f"{p['mean']:.2f} ± {p['std']:.2f}", (gap_reason(data["table"], r) or ("",))[0]])
    return table(["row"] + [f"at {n:,}" + (f" ({data['seeds']} seeds)" if n == stops[-1] else "") for n in stops]
                 + ["paper (10M)", "gap"], rows, fmt)


@renderer("repro-wang2012-table6")
def _wang_table6(fmt):
    """Wang et al.'s Table 6 as run (1M examples): accuracy and E-bar beside the paper's, the gap's reason (today's)."""
    return _table6("reproduce_wang2012-table6", fmt)


@renderer("repro-wang2012-table6-10m")
def _wang_table6_10m(fmt):
    """Wang et al.'s Table 6 at the paper's 10M examples (wang2012-table6-10m): as the 1M block; a row not run says
    so."""
    return _table6("reproduce_wang2012-table6-10m", fmt)


@renderer("repro-wang2012-table6-10m-gss")
def _wang_table6_10m_gss(fmt):
    """Table 6's merging rows at 10M with the authors' golden-section tolerance (wang2012-table6-10m-gss)."""
    return _table6("reproduce_wang2012-table6-10m-gss", fmt)


@renderer("repro-wang2012-table6-10m-factor")
def _wang_table6_10m_factor(fmt):
    """Table 6's projection rows at 10M with the compiled path's kept Cholesky factor (wang2012-table6-10m-factor)."""
    return _table6("reproduce_wang2012-table6-10m-factor", fmt)


def _table6(name, fmt):
    """A Table 6 block: per row the stream's length, accuracy +- sd over the seeds, the paper's, E-bar beside the
    paper's and the gap's reason (today's); a row not run: "not run"."""
    from refsvm.reproduce.gaps import gap_reason
    from refsvm.reproduce.tables_wang import TABLE6_PAPER_EBAR

    data = load(name)
    rows = []
    for r in data["rows"]:
        if not r.get("available"):
            rows.append([r["algorithm"], "not run", "", "", "", "", ""])
            continue
        ebar = [s["extra"]["E-bar"] for s in r["per_seed"]]
        pe = TABLE6_PAPER_EBAR.get(r["algorithm"].split(" eps=")[0].split(" (kept")[0])   # a companion's: its base's
        p = r["paper"]
        reason = gap_reason(data["table"], r)
        rows.append([r["algorithm"], f"{r['per_seed'][0]['n_stream']:,}",
                     f"{100 - r['error_mean']:.2f} ± {r['error_std']:.2f}", f"{100 - p['mean']:.2f} ± {p['std']:.2f}",
                     f"{sum(ebar) / len(ebar):.3g}", "" if pe is None else f"{pe[0]:.3f} ± {pe[1]:.3f}",
                     reason[0] if reason else ""])
    return table(["row", "N", f"accuracy ({data['seeds']} seeds)", "paper (10M)", "E-bar", "paper E-bar", "gap"],
                 rows, fmt)


@renderer("repro-wang2012-figure6")
def _wang_figure6(fmt):
    """Wang et al.'s Figure 6 as run: per row the stream length, training seconds, log-log slope after 100K,
    microseconds per example and final accuracy; then the exponent of the time per example in B."""
    from refsvm.reproduce.wang_stream import budget_exponents

    data = load("reproduce_wang2012-figure6")
    rows = []
    for r in data["rows"]:
        s = r["per_seed"][0]
        seg = [g for g in s.get("segments", ()) if g["N"] > 10_000]          # recomputations per 1K, from 20K on
        rows.append([r["algorithm"], f"{s['n_stream']:,}", f"{r['seconds_mean']:.1f}",
                     f"{s['extra'].get('slope', float('nan')):.3f}",
                     f"{s['extra']['slope w/o recomputations']:.3f}" if "slope w/o recomputations" in s["extra"]
                     else "", " ".join(f"{1e3 * g['kinv_refreshes'] / g['rows']:.2g}" for g in seg) if seg else "",
                     f"{1e6 * r['seconds_mean'] / s['n_stream']:.1f}", f"{100 - r['error_mean']:.2f}"])
    fits = "; ".join(f"{m}: time per example ~ B^{k:.2f} (B in {budgets})"
                     for m, (k, budgets) in budget_exponents(data).items())
    return table(["row", "N", "seconds", "slope after 100K", "slope w/o recomp.", "recomputations / 1K examples",
                  "us / example", "accuracy %"], rows, fmt) + "\n\n" + fits


@renderer("bench-wang-figure6-peer")
def _wang_figure6_peer(fmt):
    """Figure 6 beside BudgetedSVM (benchmarks/bench_wang_figure6_peer.py): per maintenance, B and N the
    microseconds per example of refsvm (CPU of the call) and of the peer (its own CPU time, parsing excluded;
    its process wall time), both test accuracies; then the log-log slopes of time on N from 100K."""
    d = load("bench_wang_figure6_peer")
    us = lambda s, n: "" if s is None else f"{1e6 * s / n:.2f}"  # noqa: E731
    rows = []
    for r in d["rows"]:
        p = r.get("peer") or {}
        rows.append([r["maintenance"], r["budget"], f"{r['n']:,}", us(r["refsvm"]["cpu"], r["n"]),
                     us(p.get("cpu"), r["n"]) or "not run", us(p.get("wall"), r["n"]),
                     f"{100 * r['refsvm']['accuracy']:.2f}", f"{100 * p['accuracy']:.2f}" if p else "",
                     d["paper_times"]])
    fit = lambda k: "; ".join(f"{s['maintenance']} B = {s['budget']}: {s['slope']:.3f}"  # noqa: E731
                              for s in d["slopes"][k] if s["slope"] is not None)
    peer = d["peer"] or {}
    return table(["maint.", "B", "N", "refsvm CPU us/ex", "peer CPU us/ex", "peer wall us/ex", "refsvm acc %",
                  "peer acc %", "paper (Matlab)"], rows, fmt) + \
        (f"\n\nlog-log slope of time on N from 100K: refsvm (CPU) {fit('refsvm_cpu')}; BudgetedSVM (its CPU time) "
         f"{fit('peer_cpu')}; BudgetedSVM (process wall) {fit('peer_wall')}.  Peer: BudgetedSVM commit "
         f"{peer.get('commit')}, {peer.get('build')}, run to N = {d['peer_max_n']:,}; test rows: {d['n_test']:,}.")


@renderer("bench-checkerboard-stream")
def _checkerboard_stream(fmt):
    """The 10M-example pass (merging, B = 500): time, accuracy, slope, peak memory."""
    d = load("bench_checkerboard_stream")
    return table(["rows", "B", "training s (one core)", "accuracy %", "paper", "slope after 100K",
                  "E-bar", "peak RSS MB"],
                 [[f"{d['rows']:,}", d["budget"], f"{d['seconds']:.1f}", f"{d['accuracy']:.2f}", "99.74 ± 0.08",
                   f"{d['slope_after_100k']:.3f}", f"{d['ebar']:.4f}", f"{d['peak_rss_mb']:.0f}"]], fmt)


#: the checkpoints shown of Figures 4 and 5 (the JSON holds every checkpoint)
_EVOLUTION_SHOWN = (100, 1_000, 10_000, 100_000)


def _evolution(name, fmt, shown=_EVOLUTION_SHOWN):
    """A stream figure as run: per data set and row the test accuracy (%) at the checkpoints ``shown`` and at the
    stream's end (its length in brackets), the mean over the seeds (+- the sd with more than one)."""
    data = load(name)
    rows = []

    def cell(values):
        v = np.asarray(values, dtype=float)
        return f"{v.mean():.2f}" + (f" ± {v.std(ddof=1):.2f}" if v.size > 1 else "")

    for r in data["rows"]:
        if not r.get("available"):
            continue
        streams = [{int(c[0]): 100 - c[2] for c in s["stream"]} for s in r["per_seed"]]
        ends = [s["stream"][-1] for s in r["per_seed"]]
        rows.append([r["dataset"], r["algorithm"]]
                    + [cell([st[n] for st in streams]) if n in streams[0] else "" for n in shown]
                    + [f"{cell([100 - e[2] for e in ends])} ({int(ends[0][0]):,})"])
    seeds = data.get("seeds", 1)
    return table(["data", "row"] + [f"N = {n:,}" for n in shown]
                 + [f"end of stream (N){f', {seeds} seeds' if seeds > 1 else ''}"], rows, fmt)


@renderer("repro-wang2012-figure5")
def _wang_figure5(fmt):
    """Wang et al.'s Figure 5 as run: test accuracy (%) of each strategy along the three streams."""
    return _evolution("reproduce_wang2012-figure5", fmt)


@renderer("repro-wang2012-figure4-idsvm")
def _wang_figure4_idsvm(fmt):
    """Figure 4's IDSVM curve as run (Checkerboard): IDSVM, LIBSVM on the same prefixes and BPegasos+merge B = 500,
    test accuracy (%) at the checkpoints where IDSVM runs."""
    return _evolution("reproduce_wang2012-figure4-idsvm", fmt, shown=(100, 1_000, 3_000, 10_000, 30_000))


@renderer("repro-wang2012-figure4")
def _wang_figure4(fmt):
    """Wang et al.'s Figure 4 as run: test accuracy (%) of BPegasos+merge and of Pegasos along the three streams."""
    return _evolution("reproduce_wang2012-figure4", fmt)


@renderer("repro-wang2012-figure2")
def _wang_figure2(fmt):
    """Wang et al.'s Figure 2 as run: test accuracy (%) of BPegasos+merge per budget and of Pegasos without budget."""
    data = load("reproduce_wang2012-figure2")
    labels = list(dict.fromkeys(r["algorithm"] for r in data["rows"]))
    cells = {(r["dataset"], r["algorithm"]): f"{100 - r['error_mean']:.2f} ± {r['error_std']:.2f}"
             for r in data["rows"] if r.get("available")}
    datasets = list(dict.fromkeys(r["dataset"] for r in data["rows"]))
    return table(["row"] + [f"{d} accuracy % ({data['seeds']} seeds)" for d in datasets],
                 [[label] + [cells.get((d, label), "") for d in datasets] for label in labels], fmt)


def _passes(name, fmt):
    """Figure 3 as run: per data set the accuracy after one and after five passes, and the gain."""
    data = load(name)
    acc = {(r["dataset"], r["params"]["epochs"]): (100 - r["error_mean"], r["error_std"])
           for r in data["rows"] if r.get("available")}
    rows = [[ds, f"{acc[(ds, 1)][0]:.2f} ± {acc[(ds, 1)][1]:.2f}", f"{acc[(ds, 5)][0]:.2f} ± {acc[(ds, 5)][1]:.2f}",
             f"{acc[(ds, 5)][0] - acc[(ds, 1)][0]:+.2f}"] for ds in dict.fromkeys(d for d, _ in acc)]
    return table(["data", f"1 pass, accuracy % ({data['seeds']} seeds)", "5 passes", "gain (points)"], rows, fmt)


@renderer("repro-wang2012-figure3")
def _wang_figure3(fmt):
    """Wang et al.'s Figure 3 (multi-class sets) as run."""
    return _passes("reproduce_wang2012-figure3", fmt)


@renderer("repro-wang2012-figure3-banana-gauss")
def _wang_figure3_banana_gauss(fmt):
    """Wang et al.'s Figure 3 on Banana and Gauss as run: accuracy after one and after five passes."""
    return _passes("reproduce_wang2012-figure3-banana-gauss", fmt)


@renderer("repro-wang2012-figure3-binary")
def _wang_figure3_binary(fmt):
    """Wang et al.'s Figure 3 (binary sets) as run."""
    return _passes("reproduce_wang2012-figure3-binary", fmt)


@renderer("repro-wang2012-figure7")
def _wang_figure7(fmt):
    """Wang et al.'s Figure 7 as run: per run, the test accuracy and how many of the ten digits its SVs represent."""
    data = load("reproduce_wang2012-figure7")
    rows = [[r["algorithm"], s["seed"], f"{100 - s['error']:.1f}", len(set(s["sv_classes"])),
             f"{100 - r['paper']['mean']:.0f} (mean of 3 runs)"]
            for r in data["rows"] if r.get("available") for s in r["per_seed"]]
    return table(["row", "seed", "accuracy %", "digits among the 10 SVs", "paper accuracy %"], rows, fmt)


@renderer("bench-wang-peer-cells")
def _wang_peer_cells(fmt):
    """Flagged merging cells rerun by BudgetedSVM (benchmarks/bench_wang_peer_cells.py; Table 5's Shuttle on two
    classes in its own file): per cell the paper's error, refsvm's and the peer's over the same seeds (mean +- sd,
    median), and the peer's seeds within the paper's mean +- 2 sd."""
    runs = [load("bench_wang_peer_cells"), load("bench_wang_peer_cells_shuttle_binary")]

    def cell(v):
        v = np.asarray(v, dtype=float)
        return f"{v.mean():.2f} ± {v.std(ddof=1):.2f} (median {np.median(v):.2f})"

    rows = []
    for c in (c for data in runs for c in data["cells"]):
        p = c["paper"]
        band = sum(p["mean"] - 2 * p["std"] <= e <= p["mean"] + 2 * p["std"] for e in c["errors"]["peer"])
        two = " (2 classes)" if c["table"] == "wang2012-table5-shuttle-binary" else ""
        rows.append([c["dataset"] + two, c["row"], f"{p['mean']:.2f} ± {p['std']:.2f}", cell(c["errors"]["refsvm"]),
                     cell(c["errors"]["peer"]), f"{band} of {len(c['errors']['peer'])}"])
    return table(["data", "row", "paper", "refsvm", "BudgetedSVM", "peer seeds within paper ± 2 sd"], rows, fmt)


@renderer("repro-wang2012-table5-waveform-pegasos")
def _wang_table5_waveform_pegasos(fmt):
    """Table 5's Pegasos on Waveform along figure 4's stream: test error (%) at each checkpoint, mean +- sd over
    the seeds, beside the paper's row and the gap's reason (today's) at the end."""
    from refsvm.reproduce.gaps import gap_reason

    data = load("reproduce_wang2012-table5-waveform-pegasos")
    rows = []
    for r in data["rows"]:
        streams = np.array([[c[2] for c in s["stream"]] for s in r["per_seed"]], dtype=float)
        ns = [int(c[0]) for c in r["per_seed"][0]["stream"]]
        reason = gap_reason(data["table"], r)
        for i, n in enumerate(ns):
            last = i == len(ns) - 1
            rows.append([f"{n:,}", f"{streams[:, i].mean():.2f} ± {streams[:, i].std(ddof=1):.2f}",
                         f"{r['paper']['mean']:.2f} ± {r['paper']['std']:.2f}" if last else "",
                         (reason[0] if reason else "") if last else ""])
    return table(["examples", f"test error % ({data['seeds']} seeds)", "paper (Table 5)", "gap"], rows, fmt)


@renderer("bench-idsvm")
def _bench_idsvm(fmt):
    """benchmarks/bench_idsvm.py: the two paths on one problem, and one compiled pass at the paper's early-stop sizes."""
    data = load("bench_idsvm")
    p = data["paths"]
    rows = [[f"paths: Gauss, {p['rows']:,} rows", f"{p['python_seconds']:.2f} s / {p['fast_seconds']:.3f} s",
             f"{p['ratio']:.0f}x", f"{p['events']:,}", "", "", "", "bitwise equal" if p["bitwise_equal"] else "DIFFER"]]
    for r in data["sizes"]:
        rows.append([f"{r['data']}: {r['examples']:,} of {r['n']:,} examples", f"{r['seconds']:.1f} s", "",
                     f"{r['events']:,}", f"{r['n_sv']:,}", f"{r['margin_vectors']:,}", f"{r['kkt_violation']:.2g}",
                     f"{r['kernel_matrix_bytes'] / 2**30:.2f} GB kernel matrix"])
    return table(["run", "seconds (reference / compiled)", "ratio", "steps", "SVs", "margin", "KKT", "note"],
                 rows, fmt)
