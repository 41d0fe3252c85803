"""Renderers of the numbers in README.md, docs/getting-started.rst, docs/benchmarks.rst and docs/sparse.rst
(registered in ``benchmarks/docnumbers.py``'s registry; see its docstring)."""

from _docgen import _legacy_provenance, load, machine, pct, provenance_of, renderer, span, table, value

def _kol_rows(stem, algo):
    return [r for r in load(stem)["libol"] if r["algo"] == algo and "refsvm_us_per_example" in r]


@value("fogd-us-per-example")
def _fogd_us():
    """refsvm FOGD's microseconds per example (median over orders), over ijcnn1 / a9a / w8a, dense and CSR."""
    rows = _kol_rows("bench_peers_fogd", "fogd") + _kol_rows("bench_peers_fogd_sparse", "fogd")
    return span([r["refsvm_us_per_example"] for r in rows], unit=" µs")


def _kol_ratio(algo):
    rows = _kol_rows("bench_peers_fogd", algo) + _kol_rows("bench_peers_fogd_sparse", algo)
    return span([r["refsvm_us_per_example"] / r["peer_us_per_example"] for r in rows], unit="x")


@value("fogd-over-kol")
def _fogd_over_kol():
    """refsvm FOGD's time per example over KOL's, span over data sets, dense and CSR."""
    return _kol_ratio("fogd")


@value("nogd-over-kol")
def _nogd_over_kol():
    """refsvm NOGD's time per example over KOL's, span over data sets, dense and CSR."""
    return _kol_ratio("nogd")


@value("kol-machine")
def _kol_machine():
    """The machine of the KOL comparison (both files were measured on it)."""
    return machine(provenance_of("bench_peers_fogd"))


@renderer("kol-table")
def _kol_table(fmt):
    """Per data set and algorithm: KOL's and refsvm's microseconds per example and accuracy."""
    rows = []
    for stem, label in (("bench_peers_fogd", "dense"), ("bench_peers_fogd_sparse", "CSR")):
        for r in load(stem)["libol"]:
            if "refsvm_us_per_example" in r:
                rows.append([r["dataset"], f"{r['algo'].upper()}, {label}", f"{r['peer_us_per_example']:.2f}",
                             f"{r['refsvm_us_per_example']:.2f}",
                             f"{r['refsvm_us_per_example'] / r['peer_us_per_example']:.2f}x",
                             pct(r["peer_acc_mean"]), pct(r["refsvm_acc_mean"])])
    return table(["data", "learner, input", "KOL µs/example", "refsvm µs/example", "refsvm / KOL",
                  "KOL acc.", "refsvm acc."], rows, fmt)


def _pm(values, digits=2):
    """"mean ± sd%" of percentages ``values`` (the population sd, as the benchmark scripts print it)."""
    import statistics

    return f"{statistics.mean(values):.{digits}f} ± {statistics.pstdev(values):.{digits}f}%"


@renderer("bsgd-table")
def _bsgd_table(fmt):
    """bench_bsgd: per data set and budget, fast and Python seconds per epoch, speed-up, test accuracy, SVC."""
    rows = []
    for r in load("bench_bsgd")["rows"]:
        svc = r.get("svc")
        py = r.get("python_epoch_seconds_measured")
        rows.append([r["dataset"], r["budget"], f"{r['fast_epoch_seconds']:.2f}",
                     f"{py:.1f}" if py else f"{r['python_epoch_seconds_extrapolated']:.1f}*",
                     f"{r['speedup_epoch']:.0f}x", pct(r["accuracy"]),
                     f"{svc['fit_seconds']:.1f} s / {pct(svc['accuracy'])} / {svc['n_sv']}" if svc and r["budget"] ==
                     min(q["budget"] for q in load("bench_bsgd")["rows"] if q["dataset"] == r["dataset"]) else ""])
    return table(["data", "B", "fast s/epoch", "Python s/epoch", "speed-up", "test acc.",
                  "exact SVC (fit / acc. / #SV)"], rows, fmt)


@renderer("bsgd-peers-table")
def _bsgd_peers_table(fmt):
    """bench_peers_bsgd: BudgetedSVM against refsvm (merging tolerance 1e-4), CPU s/epoch and accuracy."""
    rows = []
    for r in load("bench_peers_bsgd")["bsgd_summary"]:
        ours = r["refsvm_eps0.0001"]
        rows.append([r["dataset"], r["budget"], f"{r['peer_cpu']:.1f}", f"{ours['cpu']:.3f}",
                     f"{ours['peer_over_refsvm_cpu']:.0f}x", pct(r["peer_acc_mean"], 1), pct(ours["acc_mean"], 1)])
    return table(["data", "B", "BudgetedSVM CPU s/epoch", "refsvm CPU s/epoch", "ratio", "BudgetedSVM acc.",
                  "refsvm acc."], rows, fmt)


def _refit(stem, data, solver, method):
    return next(r for r in load(stem)["summary"] if (r["data"], r["solver"], r["method"]) == (data, solver, method))


@value("refit-scaled-a9a")
def _refit_scaled_a9a():
    """BSGD on a9a, 20 seeds: refit_bias="scaled" against the last iterate (mean ± sd, median)."""
    sc, last = _refit("bench_refit_scaled", "a9a", "BSGD", "refit_scaled"), _refit("bench_refit_scaled", "a9a", "BSGD", "last")
    return (f"{sc['mean']:.2f} ± {sc['sd']:.2f}% (median {sc['median']:.2f}%) over {sc['seeds']} seeds instead of "
            f"{last['mean']:.2f} ± {last['sd']:.2f}% ({last['min']:.1f}-{last['max']:.1f}%)")


@renderer("lookup-plain-table")
def _lookup_plain_table(fmt):
    """bench_lookup_plain_gss: B = 500, GSS against Lookup-WD, both without partner pruning."""
    rows = []
    for r in load("bench_lookup_plain_gss")["results"]:
        if r["budget"] != 500:
            continue
        g, w = r["solvers"]["gss"], r["solvers"]["lookup-wd"]
        rows.append([r["dataset"], f"{g['total_seconds']:.3f}", f"{w['total_seconds']:.3f}",
                     f"{pct(w['saving_total'], 1)} / {pct(w['saving_merge'], 1)}"])
    return table(["data", "gss total s", "lookup-wd total s", "saving (total / merging)"], rows, fmt)


@renderer("bsca-accuracy-table")
def _bsca_accuracy_table(fmt):
    """bench_bsca: test accuracy after one and after ten epochs, B = 500, mean ± sd over seeds."""
    rows = []
    for name, r in load("bench_bsca")["results"].items():
        curves = r["curves"]
        if "bsca-500" not in curves:
            continue
        cell = lambda key, e: _pm([100 * c["accuracy"][e] for c in curves[key]])  # noqa: E731
        rows.append([name, cell("bsca-500", 0), cell("bsgd-500", 0), cell("bsca-500", -1), cell("bsgd-500", -1)])
    return table(["data", "BSCA, 1 epoch", "BSGD, 1 epoch", "BSCA, 10 epochs", "BSGD, 10 epochs"], rows, fmt)


@value("njobs-speedups")
def _njobs():
    """bench_njobs: two threads over one, per case."""
    rows = [r for r in load("bench_njobs")["rows"] if r["n_jobs"] == 2]
    return ", ".join(f"{r['speedup']:.2f}x ({r['case']})" for r in rows)


@value("sbp-iteration")
def _sbp_iteration():
    """bench_sbp: one compiled SBP iteration, its speed-up over Python and its ratio to numpy's kernel row + level."""
    sp = load("bench_sbp")["speed"]
    return (f"{1e3 * sp['fast_s_per_iter']:.2f} ms, {sp['speedup_fast_vs_python']:.0f}x faster than the Python "
            f"reference and {sp['fast_over_numpy']:.1f}x numpy's time for one kernel row plus a sort-based level")


@value("online-us")
def _online_us():
    """bench_online: the compiled learners' microseconds per example (span over learners)."""
    return span([r["us_fast"] for r in load("bench_online")["rows"]], unit=" µs")


@value("online-ratio")
def _online_ratio():
    """bench_online: Python reference time over compiled time (span over learners)."""
    return span([r["ratio"] for r in load("bench_online")["rows"]], fmt="{:.1f}", unit="x")


@value("sparse-text-bsgd")
def _sparse_text_bsgd():
    """bench_sparse: BudgetedSVC on the synthetic text-like set: fit seconds and peak memory."""
    d = load("bench_sparse")["synthetic"]
    r = next(c for c in d if c["solver"] == "BudgetedSVC")
    return f"{r['fit_s']:.1f} s and {r['peak_rss_mib']:.0f} MiB peak memory"


def _literal_block(lines, fmt):
    """``lines`` as printed: a fenced block in Markdown, a ``::`` literal block in rst (indented, blank lines blank)."""
    if fmt == "md":
        return "```\n" + "\n".join(lines) + "\n```"
    return "::\n\n" + "\n".join("   " + line if line else "" for line in lines)


@renderer("demo-output")
def _demo_output(fmt):
    """bench_docs_examples: ``refsvm demo``'s table as printed."""
    out = load("bench_docs_examples")["demo"]["stdout"].strip("\n").splitlines()
    start = next(i for i, line in enumerate(out) if line.startswith("backend"))
    return _literal_block(out[start:], fmt)


@value("gamma-example")
def _gamma_example():
    """bench_docs_examples: usps, first 2,000 rows, test accuracy with gamma=1.0 against "scale"."""
    g = load("bench_docs_examples")["gamma"]
    return (f"test accuracy {g['accuracy_gamma_1.0']:.3f} against {g['accuracy_gamma_scale']:.3f} with "
            f"``\"scale\"``")


@renderer("progress-lines")
def _progress_lines(fmt):
    """bench_docs_examples: a verbose BSGD pass on ijcnn1, the line at half the pass and the last."""
    lines = [line for line in load("bench_docs_examples")["progress"]["stderr"].splitlines() if line.strip()]
    half = next((line for line in lines if "(50%)" in line), lines[len(lines) // 2])
    return _literal_block([half, lines[-1]], fmt)


@renderer("sparse-synthetic-table")
def _sparse_synthetic_table(fmt):
    """bench_sparse: each solver on the text-like set: fit seconds, peak RSS, held-out accuracy, majority."""
    rows = [[r["solver"], f"{r['fit_s']:.1f}", f"{r['peak_rss_mib']:.0f}", pct(r["accuracy"], 1), pct(r["majority"], 1),
             f"{r['sv_nnz']:,}"] for r in load("bench_sparse")["synthetic"] if "fit_s" in r]
    return table(["solver", "fit s", "peak RSS MiB", "held-out acc.", "majority", "SV nonzeros"], rows, fmt)


@renderer("sparse-real-table")
def _sparse_real_table(fmt):
    """bench_sparse: one BSGD epoch from dense and from CSR input, against the scipy kernel block (and the peer)."""
    rows = []
    for r in load("bench_sparse")["real"]:
        d, c = r["dense"], r["csr"]
        rows.append([r["dataset"], r["budget"], f"{d['seconds']:.3f}", f"{c['seconds']:.3f}",
                     f"{c['seconds'] / d['seconds']:.2f}x", f"{c['seconds'] / r['bound_csr_s']:.2f}x",
                     pct(c["accuracy"]), f"{r['max_alpha_diff']:.1e}",
                     f"{r['peer']['cpu']:.1f}" if r.get("peer") else "not run"])
    return table(["data", "B", "dense s", "CSR s", "CSR / dense", "CSR / kernel block", "test acc.",
                  "max abs alpha diff", "BudgetedSVM CPU s"], rows, fmt)


def _acc_range(r, prefix):
    return (f"{100 * r[prefix + '_acc_mean']:.2f} [{100 * r[prefix + '_acc_min']:.2f}, "
            f"{100 * r[prefix + '_acc_max']:.2f}]")


@renderer("kol-accuracy-table")
def _kol_accuracy_table(fmt):
    """bench_peers_fogd (dense): test accuracy % mean [min, max] over orders, KOL, refsvm's last iterate and average."""
    rows = [[r["dataset"], r["algo"].upper(), _acc_range(r, "peer"), _acc_range(r, "refsvm"),
             _acc_range(r, "refsvm_average"), f"{r['refsvm_constant_seeds']} of {len(r['runs'])}"]
            for r in load("bench_peers_fogd")["libol"] if "refsvm_acc_mean" in r]
    return table(["data", "learner", "KOL (average)", "refsvm last iterate", "refsvm average=True",
                  "constant orders"], rows, fmt)


@value("bsgd-eps-saving")
def _bsgd_eps_saving():
    """bench_peers_bsgd: how much less CPU refsvm takes at merging tolerance 0.01 than at 1e-4 (span)."""
    rows = load("bench_peers_bsgd")["bsgd_summary"]
    return span([100 * (1 - r["refsvm_eps0.01"]["cpu"] / r["refsvm_eps0.0001"]["cpu"]) for r in rows],
                fmt="{:.0f}", unit=" %")


@value("river-step")
def _river_step():
    """bench_river: one river learn_one step (span over learners) and the block step it wraps."""
    rs = load("bench_river")["results"]
    return (f"{span([r['river_us'] / 1000 for r in rs], fmt='{:.1f}', unit=' ms')} (the algorithm's own step, "
            f"in a block: {span([r['block_us'] for r in rs], fmt='{:.0f}', unit=' µs')})")


@value("bsgd-machine")
def _bsgd_machine():
    """The machine and commit of bench_bsgd.json."""
    prov = provenance_of("bench_bsgd")
    return f"{prov['commit']}, {machine(prov)}"


def _measured(stem):
    prov = provenance_of(stem)
    if not prov:
        return "no provenance recorded: rerun"
    load = prov["machine"].get("loadavg")
    cores = prov["machine"].get("logical_cores")
    busy = f", load {load[0]:.1f} on {cores} cores" if load and cores else ""
    return f"measured at {prov['commit']} on {machine(prov)}{busy}"


for _stem in ("bench_bsgd", "bench_docs_examples", "bench_njobs", "bench_online", "bench_peers_bsgd", "bench_river",
              "bench_refit_scaled", "bench_sbp", "bench_sparse", "bench_lookup_plain_gss", "bench_bsca"):
    value(f"measured-{_stem}")(lambda stem=_stem: _measured(stem))
