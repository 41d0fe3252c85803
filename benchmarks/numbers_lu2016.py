"""Renderers of Lu et al. (2016)'s reproduced multi-class and regression tables (``benchmarks/results/
reproduce_lu2016-table7.json``, ``reproduce_lu2016-table9.json``) for docs/baselines.rst and docs/gaps.rst
(registered in ``benchmarks/docnumbers.py``'s registry; see its docstring).

Blocks ``repro-lu2016-table7`` / ``repro-lu2016-table9``: per data set and row, our mean +- sd over the seeds
(the online mistake rate in percent / the online squared loss), the paper's, the difference, the chosen eta
("CONSTANT": the final models predict one class, no result)
and the gap's reason (blank: not flagged; "n/a": a row this build does not run), today's reasons of
:mod:`refsvm.reproduce.gaps` as ``refsvm reproduce --render`` prints them.  Block
``repro-lu2016-gaps``: the flagged rows of both tables with their reason and its text.  Blocks
``repro-lu2016-table7-mnist200`` (Table 7's mnist column at B = 200), ``repro-lu2016-table7-code-options``,
``repro-lu2016-table7-usps-libsvm`` (usps on LIBSVM's pixels), ``usps-libsvm-blur`` (the blur, found and checked:
``benchmarks/results/bench_usps_libsvm``), ``repro-lu2016-table7-usps-width``, ``repro-lu2016-table7-fogd-step``, ``repro-lu2016-table7-usps-row-widths``,
``repro-lu2016-table7-readings``, ``lu2016-fogd-selection``,
``lu2016-projectron-numerics`` and ``repro-lu2016-table9-eta`` (the readings that explain Table 7's and 9's
gaps: the authors' step sizes, usps's kernel width, FOGD's released steps, the Projectron++ code's K^-1), ``repro-lu2016-figures`` (one line per
figure run, ``reproduce_lu2016-figure1..6``), ``repro-lu2016-figure3`` / ``-figure4`` (the sweeps as run).
"""

from _docgen import load, renderer, table

from refsvm.reproduce.gaps import gap_reason

#: the results files of each table (a table run in parts lists every part; a row in two parts is shown once,
#: from the first)
_FILES = {"7": ("reproduce_lu2016-table7",), "9": ("reproduce_lu2016-table9",)}
#: the tables whose flagged rows the gaps list adds (Table 3 and its sigma = 8 and random-removal companions)
_GAP_FILES = {"3": ("reproduce_lu2016-table3",), "3, sigma = 8": ("reproduce_lu2016-table3-sigma8",),
              "3, random": ("reproduce_lu2016-table3-random",), **_FILES}


def _reason(data, r):
    """Today's gap reason of a stored row (as ``refsvm reproduce --render`` prints it): ``(reason, text)`` or None."""
    return gap_reason(data["table"], r) if not data.get("quick") else None


def _chosen(r):
    """The grid point chosen, or CONSTANT where the final models predict one class (no result, as the text
    table prints it)."""
    point = ", ".join(f"{k}={v:g}" for k, v in (r.get("chosen") or {}).items())
    return ("CONSTANT " + point).strip() if r.get("constant") else point


def _unique(runs):
    """``(result, row)`` of every row of ``runs``, a row (algorithm, data set) only from the first run that has it."""
    seen = set()
    for data in runs:
        for r in data["rows"]:
            if (r["algorithm"], r["dataset"]) not in seen:
                seen.add((r["algorithm"], r["dataset"]))
                yield data, r


def _rows(stems, fmt):
    """The rows of the results files ``stems`` (one table, run in parts), data set by data set."""
    runs = [load(stem) for stem in stems]
    f = ".5f" if "squared loss" in runs[0]["metric"] else ".2f"
    seeds = "/".join(dict.fromkeys(str(data["seeds"]) for data in runs))
    order = list(dict.fromkeys(r["dataset"] for data in runs for r in data["rows"]))
    rows = []
    for data, r in sorted(_unique(runs), key=lambda dr: order.index(dr[1]["dataset"])):
        p = r["paper"] or {}
        paper = "" if p.get("mean") is None else f"{p['mean']:{f}} ± {p['std']:{f}}"
        if not r.get("available"):
            rows.append([r["dataset"], r["algorithm"], "n/a", paper, "", "", r.get("note", "")])
            continue
        diff = "" if p.get("mean") is None else f"{r['error_mean'] - p['mean']:+{f}}"
        rows.append([r["dataset"], r["algorithm"], f"{r['error_mean']:{f}} ± {r['error_std']:{f}}", paper, diff,
                     _chosen(r), (_reason(data, r) or ("",))[0]])
    return table(["data", "row", f"ours ({seeds} seeds)", "paper", "diff", "chosen", "gap"], rows, fmt)


@renderer("repro-lu2016-table7")
def _table7(fmt):
    """Lu et al.'s Table 7 as run: online mistake rates (%) beside the paper's."""
    return _rows(_FILES["7"], fmt)


@renderer("repro-lu2016-table9")
def _table9(fmt):
    """Lu et al.'s Table 9 as run: online squared losses beside the paper's."""
    return _rows(_FILES["9"], fmt)


@renderer("repro-lu2016-gaps")
def _gaps(fmt):
    """Every flagged row of Tables 3 (and its sigma = 8 companion), 7 and 9: table, data, row, reason and what
    supports it."""
    rows = []
    for number, stems in _GAP_FILES.items():
        for data, r in _unique([load(stem) for stem in stems]):
            reason = _reason(data, r)
            if reason:
                rows.append([number, r["dataset"], r["algorithm"], *reason])
    return table(["table", "data", "row", "reason", "what supports it"], rows, fmt)


@renderer("repro-lu2016-table7-mnist200")
def _table7_mnist200(fmt):
    """Table 7's mnist column at B = 200 (``lu2016-table7-mnist200``): the budgeted rows beside the paper's."""
    return _rows(("reproduce_lu2016-table7-mnist200",), fmt)


@renderer("repro-lu2016-table7-code-options")
def _table7_code_options(fmt):
    """Table 7's step-size rows at the authors' Experiment.m options (``lu2016-table7-code-options``)."""
    return _rows(("reproduce_lu2016-table7-code-options",), fmt)


@renderer("repro-lu2016-table7-usps-libsvm")
def _table7_usps_libsvm(fmt):
    """Table 7's usps column on LIBSVM's pixels reconstructed from the shared file (``lu2016-table7-usps-libsvm``)."""
    return _rows(("reproduce_lu2016-table7-usps-libsvm",), fmt)


@renderer("usps-libsvm-blur")
def _usps_libsvm_blur(fmt):
    """LIBSVM's usps against the shared one (``benchmarks/bench_usps_libsvm.py``): the free filters' held-out
    error by window, the radius-3 fit against the Gaussian, the closed form against the file, the distances."""
    data = load("bench_usps_libsvm")
    fits = data["fits"]
    rows = [[f"free {2 * int(r) + 1}x{2 * int(r) + 1} filter + offset, fitted on half the rows",
             f"held-out max |error| {f['max_error']:.1e}, rms {f['rms_error']:.1e}"] for r, f in fits.items()]
    cf = data["closed_form"]
    rows += [["7x7 fit against the Gaussian (sigma = 0.75, normalised)",
              f"max |weight difference| {data['fitted_vs_closed_form_max']:.1e}; log ratios "
              + ", ".join(f"{v:.4f}" for v in data["log_ratios"]) + " (Gaussian: "
              + ", ".join(f"{v:.4f}" for v in data["gaussian_log_ratios"]) + ")"],
             [f"closed form against the file ({cf['values']} values, {data['file']['rows']} rows of "
              f"{data['file']['split']})", f"max |difference| {cf['max_abs_difference']:.0e}, "
                                           f"{100 * cf['share_equal']:.1f} % equal"],
             ["labels: LIBSVM's - 1 equal the shared file's, row for row", str(data["labels_match"])],
             ["mean squared distance between images, LIBSVM / shared",
              f"{data['mean_squared_distance']['ratio']:.3f}"]]
    return table(["check", "result"], rows, fmt)


@renderer("repro-lu2016-table7-usps-width")
def _table7_usps_width(fmt):
    """Table 7's usps column at gamma = 0.65/128 (``lu2016-table7-usps-width``)."""
    return _rows(("reproduce_lu2016-table7-usps-width",), fmt)


@renderer("repro-lu2016-table7-fogd-step")
def _table7_fogd_step(fmt):
    """Table 7's FOGD row at the released scripts' steps 0.5 and 0.001 (``lu2016-table7-fogd-step``)."""
    return _rows(("reproduce_lu2016-table7-fogd-step",), fmt)


@renderer("repro-lu2016-table7-usps-row-widths")
def _table7_usps_row_widths(fmt):
    """usps's Perceptron, BPA-S and Forgetron [code] at gamma x0.8 and x1.5 (``lu2016-table7-usps-row-widths``)."""
    return _rows(("reproduce_lu2016-table7-usps-row-widths",), fmt)


@renderer("repro-lu2016-table7-readings")
def _table7_readings(fmt):
    """usps's and shuttle's flagged rows under MATLAB's tie rule, another scaling, usps at B = 100
    (``lu2016-table7-readings``)."""
    return _rows(("reproduce_lu2016-table7-readings",), fmt)


@renderer("lu2016-fogd-selection")
def _fogd_selection(fmt):
    """Table 7's FOGD step chosen on half of the permutations, scored on the other half
    (``bench_lu_fogd_selection``): per data set the choices, the held-out and in-sample means, the paper's."""
    data = load("bench_lu_fogd_selection")
    rows = [[c["dataset"], c["chosen_all"], f"{c['chosen_first']} / {c['chosen_second']}", f"{c['held_out']:.2f}",
             f"{c['in_sample']:.2f}", f"{c['paper']['mean']:g} ± {c['paper']['std']:g}"] for c in data["cells"]]
    return table(["data", "chosen (all)", "chosen (halves)", "held out", "in sample", "paper"], rows, fmt)


@renderer("lu2016-projectron-numerics")
def _projectron_numerics(fmt):
    """The authors' proplus.m K^-1 reading and its guarded twin (``bench_lu_projectron_numerics``): per data set
    and rule, the mistake rate's mean +- sd and range over the permutations, the permutations adding a row at
    delta^2 <= the guard, and the paper's Projectron++."""
    data = load("bench_lu_projectron_numerics")
    rows = []
    for c in data["cells"]:
        for rule in data["rules"]:
            s, runs = c[rule]["summary"], c[rule]["per_seed"]
            rows.append([c["dataset"], rule, f"{s['mean']:.2f} ± {s['std']:.2f}", f"{s['min']:.2f}-{s['max']:.2f}",
                         f"{sum(r['noise_additions'] > 0 for r in runs)} of {len(runs)}",
                         f"{c['paper']['mean']:g} ± {c['paper']['std']:g}"])
    return table(["data", "reading", "ours", "range", "noisy additions", "paper"], rows, fmt)


def _octave_rows(stem, fmt):
    """The authors' multiclass .m files under GNU Octave beside refsvm on the same data and orders (``stem``, a run
    of ``bench_lu_authors_octave``): per data set and row, both means +- sd, the authors' range, the largest per-seed
    difference, the permutations refsvm under the code's tie rule makes as many mistakes on, and the paper's."""
    data = load(stem)
    rows = [[c["dataset"], c["row"], f"{c['peer']['mean']:.2f} ± {c['peer']['std']:.2f}",
             f"{c['peer']['min']:.2f}-{c['peer']['max']:.2f}", f"{c['refsvm']['mean']:.2f} ± {c['refsvm']['std']:.2f}",
             f"{c['max_seed_diff']:.2f}", f"{c['same_mistakes_code_ties']} of {data['seeds']}",
             "--" if c["paper"] is None else f"{c['paper']['mean']:g} ± {c['paper']['std']:g}"] for c in data["cells"]]
    return table(["data", "row", "authors' code (Octave)", "range", "refsvm", "largest seed diff",
                  "same count, code's ties", "paper"], rows, fmt)


@renderer("lu2016-authors-octave")
def _authors_octave(fmt):
    """Table 7's Projectrons on shuttle and dna, 20 permutations (``bench_lu_authors_octave``)."""
    return _octave_rows("bench_lu_authors_octave", fmt)


@renderer("lu2016-authors-octave-oracle")
def _authors_octave_oracle(fmt):
    """Six of the authors' learners on dna and satimage, 5 permutations (``bench_lu_authors_octave_oracle``)."""
    return _octave_rows("bench_lu_authors_octave_oracle", fmt)


@renderer("lu2016-authors-octave-binary")
def _authors_octave_binary(fmt):
    """Six of the authors' binary learners on Table 5's german and spambase (``bench_lu_authors_octave_binary``)."""
    return _octave_rows("bench_lu_authors_octave_binary", fmt)


@renderer("repro-lu2016-table9-eta")
def _table9_eta(fmt):
    """Table 9's OGD and BOGD rows with OGD.m / BOGD.m's step tuned per data set (``lu2016-table9-eta``)."""
    return _rows(("reproduce_lu2016-table9-eta",), fmt)


#: the figure runs (``lu2016-figure<k>``) and what each plots
_FIGURES = {1: "mistake rate along the pass", 2: "time along the pass", 3: "rho_f / rho_n sweep (B = 200)",
            4: "budget sweep (usps)", 5: "squared loss along the pass", 6: "time along the pass"}


@renderer("repro-lu2016-figures")
def _figures(fmt):
    """One line per figure run: the data sets and rows it ran, its seeds, and its rows with a paper number
    (the tables' value of the same setting; the figures' own values cannot be read from the paper's text):
    how many lie within the gap rule and the reasons of the others (today's :mod:`refsvm.reproduce.gaps`)."""
    rows = []
    for k, what in _FIGURES.items():
        data = load(f"reproduce_lu2016-figure{k}")
        ran = [r for r in data["rows"] if r.get("available")]
        compared = [r for r in ran if (r.get("paper") or {}).get("mean") is not None]
        reasons = [(_reason(data, r) or ("",))[0] for r in compared]
        counts = ", ".join(f"{n} {why}" for why, n in sorted(
            {w: reasons.count(w) for w in set(reasons) - {""}}.items()))
        rows.append([f"figure {k}", what, ", ".join(dict.fromkeys(r["dataset"] for r in ran)),
                     str(len({r["algorithm"] for r in ran})), str(data["seeds"]),
                     f"{reasons.count('')} of {len(compared)}", counts])
    return table(["run", "plots", "data", "rows", "seeds", "within the rule", "flagged (reason)"], rows, fmt)


@renderer("repro-lu2016-figure3")
def _figure3(fmt):
    """Figure 3's sweep as run: final online mistake rate per rho_f / rho_n and data set."""
    return _rows(("reproduce_lu2016-figure3",), fmt)


@renderer("repro-lu2016-figure4")
def _figure4(fmt):
    """Figure 4's budget sweep on usps as run."""
    return _rows(("reproduce_lu2016-figure4",), fmt)
