#!/usr/bin/env python
"""Speed and accuracy of BSGD (BPegasos + merging) on ijcnn1 and a9a.

Measures, for every data set and budget B:

* the fast (Cython) backend: wall time of one full epoch (one pass of
  ``refsvm._fast.bsgd.bsgd`` over a random permutation of the training set),
  test accuracy, number of SVs, and the share of the epoch spent in budget
  maintenance (``trace["maintenance_seconds"]``);
* the pure-Python backend, too slow for a full epoch at B = 500, on a
  *segment* of ``--python-steps`` steps right after the budget is full: the
  fast backend runs the steps before the segment (same permutation), then both
  backends continue from that model over the same N steps (same ``t0``, same
  examples, same decisions).  Python seconds per epoch are *extrapolated* as
  ``n * s + E * m`` (``s``: Python seconds per step outside maintenance, ``m``:
  per maintenance event, both measured on the segment; ``E``: maintenance
  events of the full epoch, from the fast epoch's trace).  The speed-up is
  extrapolated Python epoch / measured fast epoch; the ratio measured on the
  segment itself is printed too;
* optionally (``--svc``) scikit-learn's exact ``SVC`` (LIBSVM) with the same C
  and gamma: fit time, test accuracy, number of SVs.

Parameters follow Glasmachers & Qaadan (lookup-merging paper, Table 1):
ijcnn1 C = 32, gamma = 2; a9a C = 32, gamma = 2^-7; lambda = 1 / (n C), one
pass, merge_eps = 0.01 (golden-section search), no standardisation (both
files are already scaled, see SOURCES.md).

Run ``python benchmarks/bench_bsgd.py --help``; the README next to this file
explains every column.  Data come from ``$REFSVM_DATA`` through
:func:`refsvm.datasets.load_libsvm`.
"""

import argparse
import datetime
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

# Single-threaded BLAS: both backends run on one core; threads spinning in the
# BLAS pool would only add noise.  Set before numpy is imported; an explicit
# setting in the environment wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, cpu_model, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.budget", "refsvm.kernels", "refsvm.io.datasets", "refsvm.io.libsvm"]

#: Hyper-parameters per data set (C, gamma): Glasmachers & Qaadan, Table 1.
PARAMS = {
    "ijcnn1": dict(C=32.0, gamma=2.0),
    "a9a": dict(C=32.0, gamma=2.0 ** -7),
}

#: Quoted reference numbers (not measured here): the authors' C++ toolbox BudgetedSVM (with
#: fast pow), seconds per epoch at B = 100 / 500.
BUDGETEDSVM_SECONDS = {
    ("ijcnn1", 100): 1.6, ("ijcnn1", 500): 7.2,
    ("a9a", 100): 3.5, ("a9a", 500): 15.0,
}

#: Targets for the fast path (B = 500): seconds per epoch at most,
#: test accuracy at least.
TARGET_SECONDS = {("ijcnn1", 500): 7.0, ("a9a", 500): 15.0}
TARGET_ACCURACY = {("ijcnn1", 500): 0.970, ("a9a", 500): 0.833}
#: Required speed-up of the fast over the Python path (every data set and budget).
TARGET_SPEEDUP = 50.0


# ----------------------------------------------------------------------------
# environment
# ----------------------------------------------------------------------------

def machine_info():
    cpu = cpu_model()
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    info = {
        "cpu": cpu,
        "logical_cpus": os.cpu_count(),
        "usable_cpus": usable,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
    }
    try:
        import sklearn

        info["sklearn"] = sklearn.__version__
    except ImportError:
        pass
    try:
        import hashlib

        import refsvm

        info["refsvm"] = str(Path(refsvm.__file__).resolve().parent)
        # Which build of the fast backend ran: file, modification time, sha256 prefix.
        builds = []
        for so in sorted((Path(refsvm.__file__).resolve().parent / "_fast").glob("*.so")):
            stamp = datetime.datetime.fromtimestamp(so.stat().st_mtime).astimezone()
            digest = hashlib.sha256(so.read_bytes()).hexdigest()[:12]
            builds.append(f"{so.name.split('.')[0]} {stamp.isoformat(timespec='seconds')} sha256:{digest}")
        info["fast_build"] = builds
    except Exception:  # pragma: no cover - reported, not fatal
        pass
    try:
        here = Path(__file__).resolve().parent
        rev = subprocess.run(["git", "-C", str(here), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10)
        # the results files a run is writing do not count as uncommitted changes of the code
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--", ":/",
                                ":(top,exclude)benchmarks/results"], capture_output=True, text=True, timeout=10)
        if rev.returncode == 0:
            info["git"] = rev.stdout.strip() + (" (+ uncommitted changes)" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def load_average():
    try:
        return tuple(round(v, 2) for v in os.getloadavg())
    except OSError:
        return None


# ----------------------------------------------------------------------------
# measurements
# ----------------------------------------------------------------------------

def bsgd_args(budget, lam, gamma, merge_eps):
    return dict(n_classes=2, budget=budget, lam=lam, learning_rate="pegasos", eta=1.0,
                radius=1.0, maintenance="merge", kernel="rbf", gamma=gamma, degree=3,
                coef0=0.0, merge_eps=merge_eps, projection_ridge=1e-10, fit_bias=False)


def accuracy(sv, alpha, bias, gamma, X, y, backend="fast", chunk=20000):
    """Test accuracy of the binary model; kernel values from ``refsvm.<backend>.kernels``."""
    from refsvm.backend import get_module

    kernels = get_module("kernels", backend)
    correct = 0
    for start in range(0, len(y), chunk):
        K = kernels.kernel_matrix(np.ascontiguousarray(X[start:start + chunk]), sv, "rbf", gamma, 3, 0.0)
        f = K @ alpha[:, 0] + bias[0]
        correct += int(np.sum(np.where(f > 0, 1, -1) == y[start:start + chunk]))
    return correct / len(y)


def run_fast_epoch(fast, X, y, order, kw, repeats):
    """Full epoch with the fast backend, ``repeats`` times; returns (times, result of the last)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        res = fast.bsgd(X, y, order, **kw)
        times.append(time.perf_counter() - start)
    return times, res


def run_segment(mod, X, y, seg, kw, state, repeats):
    """Continue from ``state`` on the steps ``seg``; returns (times, result of the last)."""
    sv, alpha, bias, t0 = state
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        res = mod.bsgd(X, y, seg, sv=sv.copy(), alpha=alpha.copy(), bias=bias.copy(), t0=t0, **kw)
        times.append(time.perf_counter() - start)
    return times, res


def python_segment(python, fast, X, y, order, kw, fast_epoch, budget, args, log):
    """Time the Python backend on N steps after the budget is full; extrapolate to one epoch.

    Both backends continue from the same model (built by the fast backend on
    the steps before the segment) over the same N steps.  Python seconds per
    epoch are extrapolated as ``n * s + E * m``: ``s`` = Python seconds per step
    outside maintenance, ``m`` = Python seconds per maintenance event (both
    measured on the segment), ``E`` = the number of maintenance events in the
    full epoch (from the fast epoch's trace; both backends take the same
    decisions).  The plain ``T / N * n`` is recorded too.
    """
    n = len(y)
    events = fast_epoch.trace["maint_step"]
    if args.python_start is None:
        start_step = int(events[0]) if len(events) else n  # the first step that overflowed the budget
    else:
        start_step = int(args.python_start * n)
    start_step = min(max(start_step, 0), n - 1)
    n_steps = min(args.python_steps, n - start_step)
    pre = fast.bsgd(X, y, order[:start_step], **kw)
    if len(pre.sv) < budget:
        log(f"  B={budget}: WARNING budget not full after {start_step} steps ({len(pre.sv)} SVs)")
    state = (pre.sv, pre.alpha, pre.bias, pre.t)
    seg = order[start_step:start_step + n_steps]
    py_times, py_res = run_segment(python, X, y, seg, kw, state, args.python_repeats)
    fa_times, fa_res = run_segment(fast, X, y, seg, kw, state, args.segment_repeats)
    same = (np.array_equal(py_res.trace["added"], fa_res.trace["added"])
            and np.array_equal(py_res.trace["maint_index"], fa_res.trace["maint_index"])
            and np.array_equal(py_res.trace["maint_partner"], fa_res.trace["maint_partner"]))
    i = int(np.argmin(py_times))
    py_t = py_times[i]
    py_m = min(py_res.trace["maintenance_seconds"], py_t)  # of the last run; repeats are identical work
    e_seg = int(len(py_res.trace["maint_step"]))
    per_step = (py_t - py_m) / n_steps
    per_event = py_m / e_seg if e_seg else 0.0
    e_epoch = int(len(events))
    est = n * per_step + e_epoch * per_event
    fa_t = min(fa_times)
    out = dict(
        segment_start=start_step, segment_steps=n_steps, segment_maintenance_events=e_seg,
        python_segment_seconds=py_t, python_segment_maintenance_seconds=py_m,
        python_seconds_per_step_excl_maintenance=per_step,
        python_seconds_per_maintenance_event=per_event,
        python_epoch_seconds_extrapolated=est,
        python_epoch_seconds_linear=py_t / n_steps * n,
        python_epoch_maintenance_share_extrapolated=(e_epoch * per_event / est) if est > 0 else 0.0,
        fast_segment_seconds=fa_t,
        speedup_segment=py_t / fa_t if fa_t > 0 else float("inf"),
        segment_same_decisions=bool(same),
    )
    log(f"  B={budget}: segment steps {start_step}..{start_step + n_steps - 1} ({e_seg} maintenance "
        f"events): python {py_t:.2f} s (maintenance {py_m:.2f} s), fast {fa_t * 1e3:.1f} ms"
        + ("" if same else "; WARNING: the backends took different decisions on the segment"))
    return out


def run_svc(X, y, Xt, yt, C, gamma, cache_size):
    from sklearn.svm import SVC

    svc = SVC(C=C, kernel="rbf", gamma=gamma, cache_size=cache_size)
    start = time.perf_counter()
    svc.fit(X, y)
    fit = time.perf_counter() - start
    acc = float(np.mean(svc.predict(Xt) == yt))
    return dict(fit_seconds=fit, accuracy=acc, n_sv=int(svc.n_support_.sum()))


def bench_dataset(name, args, backends, log):
    from refsvm.backend import get_module
    from refsvm.datasets import load_libsvm

    p = PARAMS[name]
    X, y, Xt, yt = load_libsvm(name, standardize=False)
    y = np.where(y > 0, 1, -1).astype(np.int64)
    yt = np.where(yt > 0, 1, -1).astype(np.int64)
    n = len(y)
    lam = 1.0 / (n * p["C"])
    rows = []
    log(f"# {name}: n_train={n}, n_test={len(yt)}, d={X.shape[1]}, C={p['C']:g}, "
        f"gamma={p['gamma']:g}, lambda=1/(n C)={lam:.6g}")

    svc = None
    if args.svc:
        log(f"  sklearn SVC(C={p['C']:g}, gamma={p['gamma']:g}) ...")
        svc = run_svc(X, y, Xt, yt, p["C"], p["gamma"], args.svc_cache)
        log(f"  sklearn SVC: fit {svc['fit_seconds']:.2f} s, acc {svc['accuracy']:.4f}, #SV {svc['n_sv']}")

    fast = get_module("bsgd", "fast")
    python = get_module("bsgd", "python") if "python" in backends else None

    for budget in args.budgets:
        kw = bsgd_args(budget, lam, p["gamma"], args.merge_eps)
        order = np.random.default_rng(args.seed).permutation(n).astype(np.int64)
        row = dict(dataset=name, budget=budget, n_train=n, n_test=int(len(yt)), d=int(X.shape[1]),
                   C=p["C"], gamma=p["gamma"], lam=lam, merge_eps=args.merge_eps, seed=args.seed,
                   load_before=load_average())
        if True:  # the fast backend always runs (validated in main)
            times, res = run_fast_epoch(fast, X, y, order, kw, args.fast_repeats)
            row["fast_epoch_seconds"] = min(times)
            row["fast_epoch_seconds_all"] = times
            row["fast_maintenance_seconds"] = res.trace["maintenance_seconds"]
            row["fast_maintenance_share"] = res.trace["maintenance_seconds"] / times[-1]
            row["n_maintenance"] = int(len(res.trace["maint_step"]))
            row["n_sv"] = int(len(res.sv))
            row["accuracy"] = accuracy(res.sv, res.alpha, res.bias, p["gamma"], Xt, yt)
            log(f"  B={budget}: fast epoch {min(times):.3f} s (runs: "
                f"{', '.join(f'{t:.3f}' for t in times)}), acc {row['accuracy']:.4f}, "
                f"#SV {row['n_sv']}, maintenance {row['fast_maintenance_share'] * 100:.1f}% "
                f"({row['n_maintenance']} events)")
        if python is not None:
            row.update(python_segment(python, fast, X, y, order, kw, res, budget, args, log))
            row["speedup_epoch_extrapolated"] = row["python_epoch_seconds_extrapolated"] / row["fast_epoch_seconds"]
            log(f"  B={budget}: python epoch ~{row['python_epoch_seconds_extrapolated']:.1f} s "
                f"(extrapolated) -> speed-up {row['speedup_epoch_extrapolated']:.0f}x per epoch, "
                f"{row['speedup_segment']:.0f}x on the segment")
            if args.python_full:
                start = time.perf_counter()
                full = python.bsgd(X, y, order, **kw)
                row["python_epoch_seconds_measured"] = time.perf_counter() - start
                row["python_epoch_maintenance_share"] = (full.trace["maintenance_seconds"]
                                                         / row["python_epoch_seconds_measured"])
                row["python_epoch_same_decisions"] = bool(
                    np.array_equal(full.trace["added"], res.trace["added"])
                    and np.array_equal(full.trace["maint_index"], res.trace["maint_index"])
                    and np.array_equal(full.trace["maint_partner"], res.trace["maint_partner"]))
                row["speedup_epoch_measured"] = row["python_epoch_seconds_measured"] / row["fast_epoch_seconds"]
                log(f"  B={budget}: python full epoch {row['python_epoch_seconds_measured']:.1f} s (measured) "
                    f"-> speed-up {row['speedup_epoch_measured']:.0f}x"
                    + ("" if row["python_epoch_same_decisions"] else
                       "; WARNING: the backends took different decisions over the epoch"))
            row["speedup_epoch"] = row.get("speedup_epoch_measured", row["speedup_epoch_extrapolated"])
        if svc is not None:
            row["svc"] = svc
        row["load_after"] = load_average()
        rows.append(row)
    return rows


# ----------------------------------------------------------------------------
# report
# ----------------------------------------------------------------------------

def _fmt(v, spec):
    return "-" if v is None else format(v, spec)


def verdicts(row):
    """Pass/fail against the targets; list of (what, ok, detail)."""
    key = (row["dataset"], row["budget"])
    out = []
    if key in TARGET_SECONDS and "fast_epoch_seconds" in row:
        lim, got = TARGET_SECONDS[key], row["fast_epoch_seconds"]
        out.append((f"fast s/epoch <= {lim:g}", got <= lim,
                    f"{got:.2f} s ({(got - lim) / lim * 100:+.0f}% vs target)"))
    if key in TARGET_ACCURACY and "accuracy" in row:
        lim, got = TARGET_ACCURACY[key], row["accuracy"]
        out.append((f"accuracy >= {lim * 100:.1f}%", got >= lim, f"{got * 100:.2f}%"))
    if "speedup_epoch" in row:
        got, seg = row["speedup_epoch"], row["speedup_segment"]
        how = ("Python epoch measured" if "speedup_epoch_measured" in row
               else "Python epoch extrapolated")
        detail = f"{got:.1f}x per epoch ({how}); {seg:.0f}x on the segment"
        if "speedup_epoch_measured" in row:
            detail += f"; {row['speedup_epoch_extrapolated']:.0f}x with the extrapolated Python epoch"
        out.append((f"speed-up >= {TARGET_SPEEDUP:g}x", got >= TARGET_SPEEDUP, detail))
    return out


def render(rows, info, command, started, finished):
    lines = []
    lines.append("refsvm BSGD benchmark: BPegasos + merging (golden-section search), one pass")
    lines.append(f"command : {command}")
    lines.append(f"date    : {started} .. {finished}")
    lines.append(f"machine : {info.get('cpu')}, {info.get('logical_cpus')} logical CPUs "
                 f"({info.get('usable_cpus')} usable); {info.get('platform')}")
    lines.append(f"software: python {info.get('python')}, numpy {info.get('numpy')}, "
                 f"scikit-learn {info.get('sklearn', '-')}; refsvm {info.get('refsvm', '?')} "
                 f"(git {info.get('git', '?')})")
    if info.get("fast_build"):
        lines.append("fast    : " + "; ".join(info["fast_build"]))
    loads = [r.get("load_before") for r in rows] + [r.get("load_after") for r in rows]
    loads = [x for x in loads if x]
    if loads:
        lines.append(f"load    : 1-min load average between {min(x[0] for x in loads):.2f} and "
                     f"{max(x[0] for x in loads):.2f} during the runs (os.getloadavg)")
    lines.append("")
    header = ("data", "B", "fast s/ep", "py s/ep", "py s/ep*", "speed-up", "seg x", "maint%", "acc%", "#SV",
              "BSVM s/ep", "SVC fit s", "SVC acc%", "SVC #SV")
    table = []
    for r in rows:
        svc = r.get("svc") or {}
        table.append((
            r["dataset"], str(r["budget"]),
            _fmt(r.get("fast_epoch_seconds"), ".2f"),
            _fmt(r.get("python_epoch_seconds_measured"), ".1f"),
            _fmt(r.get("python_epoch_seconds_extrapolated"), ".1f"),
            _fmt(r.get("speedup_epoch"), ".1f") + ("" if "speedup_epoch" not in r else
                                                   "x" if "speedup_epoch_measured" in r else "x*"),
            _fmt(r.get("speedup_segment"), ".0f") + ("x" if "speedup_segment" in r else ""),
            _fmt(None if "fast_maintenance_share" not in r else 100 * r["fast_maintenance_share"], ".1f"),
            _fmt(None if "accuracy" not in r else 100 * r["accuracy"], ".2f"),
            _fmt(r.get("n_sv"), "d"),
            _fmt(BUDGETEDSVM_SECONDS.get((r["dataset"], r["budget"])), ".1f"),
            _fmt(svc.get("fit_seconds"), ".1f"),
            _fmt(None if "accuracy" not in svc else 100 * svc["accuracy"], ".2f"),
            _fmt(svc.get("n_sv"), "d"),
        ))
    widths = [max(len(h), *(len(t[i]) for t in table)) if table else len(h) for i, h in enumerate(header)]
    fmt_row = lambda cells: "  ".join(c.rjust(w) if i > 0 else c.ljust(w)  # noqa: E731
                                      for i, (c, w) in enumerate(zip(cells, widths)))
    lines.append(fmt_row(header))
    lines.append(fmt_row(["-" * w for w in widths]))
    for t in table:
        lines.append(fmt_row(t))
    lines.append("")
    lines.append("fast s/ep : fast (Cython) backend, wall seconds for one full epoch (min over --fast-repeats runs)")
    lines.append("py s/ep   : Python backend, one full epoch, MEASURED (--python-full only; same permutation)")
    lines.append("py s/ep*  : Python backend, EXTRAPOLATED from --python-steps steps after the budget is full:")
    lines.append("            n x (s/step outside maintenance) + (maint. events of the epoch) x (s/event), see README")
    lines.append("speed-up  : Python s/epoch / fast s/epoch (the target's measure); measured Python epoch if")
    lines.append("            available, else the extrapolated one (marked x*)")
    lines.append("seg x     : python / fast seconds measured on the identical segment (same start model, same steps)")
    lines.append("maint%    : share of the fast epoch spent in budget maintenance (trace['maintenance_seconds'])")
    lines.append("acc%, #SV : test accuracy and SV count of the fast backend's one-pass model")
    lines.append("BSVM s/ep : reference: the authors' C++ BudgetedSVM (fast pow), seconds per epoch (quoted, not measured)")
    lines.append("SVC       : scikit-learn SVC (LIBSVM, exact), same C and gamma: fit seconds, test accuracy, #SV")
    seg = [r for r in rows if "segment_steps" in r]
    if seg:
        lines.append("")
        lines.append("Python segments: " + "; ".join(
            f"{r['dataset']} B={r['budget']}: steps {r['segment_start']}..{r['segment_start'] + r['segment_steps'] - 1}, "
            f"{r['segment_maintenance_events']} maint. events, py {r['python_segment_seconds']:.2f} s "
            f"({r['python_seconds_per_step_excl_maintenance'] * 1e6:.0f} us/step + "
            f"{r['python_seconds_per_maintenance_event'] * 1e3:.2f} ms/event), "
            f"fast {r['fast_segment_seconds'] * 1e3:.1f} ms"
            + ("" if r["segment_same_decisions"] else " [DECISIONS DIFFER]")
            for r in seg))
    lines.append("")
    lines.append("Targets: fast <= 7 s/epoch on ijcnn1 B=500 and <= 15 s on a9a B=500 at accuracy "
                 ">= 97.0% / 83.3%; fast >= 50x faster than the Python path")
    n_fail = 0
    for r in rows:
        for what, ok, detail in verdicts(r):
            n_fail += not ok
            lines.append(f"  [{'PASS' if ok else 'FAIL'}] {r['dataset']} B={r['budget']}: {what}: {detail}")
    lines.append(f"  => {'all targets met' if n_fail == 0 else f'{n_fail} target(s) missed'}")
    return "\n".join(lines), n_fail


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Benchmark BSGD (BPegasos + merging) against its targets; see benchmarks/README.md")
    parser.add_argument("--datasets", nargs="+", default=["ijcnn1", "a9a"], choices=sorted(PARAMS))
    parser.add_argument("--budgets", nargs="+", type=int, default=[100, 500])
    parser.add_argument("--backends", nargs="+", default=["fast", "python"], choices=["fast", "python"])
    parser.add_argument("--svc", action="store_true",
                        help="also fit scikit-learn's exact SVC (~10 s on ijcnn1, ~90 s on a9a)")
    parser.add_argument("--svc-cache", type=float, default=500.0, help="SVC cache_size in MB (default 500)")
    parser.add_argument("--python-steps", type=int, default=2000,
                        help="steps timed with the Python backend (default 2000)")
    parser.add_argument("--python-start", type=float, default=None,
                        help="start the timed Python segment at this fraction of the epoch (default: at "
                             "the first step that overflows the budget, i.e. right after it is full)")
    parser.add_argument("--python-repeats", type=int, default=3,
                        help="Python runs of the segment (min is used; default 3)")
    parser.add_argument("--python-full", action="store_true",
                        help="also time one full Python epoch (6 / 24 s on ijcnn1, 15 / 78 s on a9a at B = 100 / 500 "
                             "on the machine of results/bench_bsgd.txt)")
    parser.add_argument("--segment-repeats", type=int, default=5,
                        help="repeats of the fast run on the segment (min is used)")
    parser.add_argument("--fast-repeats", type=int, default=3, help="full fast epochs timed (min is used)")
    parser.add_argument("--merge-eps", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0, help="seed of the visiting order")
    parser.add_argument("--json", help="also write all measurements to this JSON file")
    parser.add_argument("--output", help="also write the printed report to this text file")
    args = parser.parse_args(argv)

    if "fast" not in args.backends:
        parser.error("--backends must include 'fast' (the Python segment continues from a fast-built model)")
    if not os.environ.get("REFSVM_DATA"):
        parser.error("REFSVM_DATA is not set (directory holding ijcnn1.bz2, a9a.bz2, ...)")

    command = "python " + " ".join(shlex.quote(a) for a in ([sys.argv[0]] + (argv if argv is not None else sys.argv[1:])))
    info = machine_info()
    started = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    log(f"{command}\n{info['cpu']}, {info['logical_cpus']} CPUs, load {load_average()}")
    rows = []
    for name in args.datasets:
        rows.extend(bench_dataset(name, args, args.backends, log))
    finished = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    text, n_fail = render(rows, info, command, started, finished)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")
    write_json(args.json, dict(command=command, started=started, finished=finished, machine=info,
                               rows=rows, n_targets_missed=n_fail), MODULES, note=SHARED_NOTE, command=command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
