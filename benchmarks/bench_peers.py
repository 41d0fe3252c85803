#!/usr/bin/env python
"""The authors' own C++ implementations timed beside refsvm, on this machine and these data.

Peers (built by the user OUTSIDE this repository; nothing of theirs is shipped here):

* ``--budgetedsvm DIR``: directory holding ``budgetedsvm-train`` and ``budgetedsvm-predict`` of
  djurikom/BudgetedSVM (Djuric, Lan, Vucetic & Wang; BSGD's authors' toolbox), built with its own
  Makefile (``make`` in the checkout; its flags are ``-g -Wall -Wconversion -O3``).
* ``--libol DIR``: directory holding the ``KOL`` binary of LIBOL/KOL (Lu, Hoi et al.; the FOGD/NOGD
  authors' C++ online kernel learning library), built with its own CMakeLists
  (``cmake .. -DEIGEN_DIR=/usr/include/eigen3/Eigen``; its flags are ``-O2 -s``).

What is measured
----------------
BSGD (part ``bsgd``): one epoch of BPegasos with merging, no bias, C = 32 (lambda = 1/(n C)),
gamma = 2 (ijcnn1) and 2^-7 (a9a), budgets 100 and 500.  For every seed a permutation
``default_rng(seed).permutation(n)`` of the training set is drawn; the peer reads the LIBSVM
training file with its lines in that order and runs with ``-r 0`` (no shuffling of its own: its
``-r 1`` shuffles with ``rand()`` seeded by ``time(NULL)``, so it has no seed option), and refsvm's
fast path (``refsvm._fast.bsgd.bsgd``) visits the rows in the same order.  Both therefore see the
same visiting order.  The toolbox's Gaussian kernel is ``exp(-0.5 g ||x - x'||^2)``, so it gets
``-g 2 gamma``.  Its binary model is its multi-class (Crammer-Singer) one with two
coefficient columns ``w_+1 = -w_-1``: it steps when ``1 + f_-1 - f_+1 > 0`` and adds
``+-1/(t L)`` to both columns, so ``g = f_+1 - f_-1`` follows binary Pegasos with
``lambda = L/2``; it therefore gets ``-L 2 lambda``.  Its predictor
(``budgetedsvm-predict``) gets the model file padded by :func:`pad_model` (its loader drops the
first support vector otherwise).  Its merging runs golden-section search to 1e-4; refsvm is run at that tolerance
and at its own benchmark setting 0.01.

* peer seconds: the toolbox's own "Training completed in X seconds", which is ``clock()`` (CPU
  time of the process) around the training loop only, i.e. WITHOUT reading and parsing the
  file; the wall time of the whole training process (parsing included) is reported too.
* refsvm seconds: CPU time (``time.process_time``) and wall time (``time.perf_counter``) of the
  call to ``bsgd`` on arrays already in memory (median of ``--repeats`` per seed).
* test accuracy: the peer's model is applied by ``budgetedsvm-predict`` and its output labels
  compared with the test labels here; refsvm's through its kernel expansion.

LIBOL (part ``libol``): ``KOL -opt kernel-<name>`` with gamma as above (KOL's kernel is
``exp(-gamma ||x - x'||^2)``), budget ``--libol-budget`` and KOL's defaults otherwise, on the same
permuted training files (KOL has no shuffling; FOGD's Fourier features and RBP's removals draw
from generators seeded with ``time(NULL)``, so they are not reproducible).  Per-example time is
KOL's own "Learning time" (wall clock around ``Learn``) divided by n.  KOL's files carry the
labels as integers ("-1.0" stops its integer label parser: it reads no example of ijcnn1 as
distributed).  KOL reads the file in a reader thread WHILE learning, so this time includes
parsing and is an upper bound on training.
FOGD and NOGD get refsvm's settings on both sides (D = 400, eta = 0.002; B, k = 20, eta = 0.2 for
both of NOGD's phases); BOGD KOL's defaults on both sides (eta = 0.5, lambda = 0.001); the other
algorithms their own defaults (B on both sides; BPA-S C = 1 on both).  refsvm's equivalents are
timed (wall time of ``fit``, divided by n) where they exist in the installed refsvm
(``FOGDClassifier`` / ``NOGDClassifier`` fit the rows in the visiting order with
``shuffle=False``; ``OnlineKernelClassifier(random_state=seed)`` draws that same order itself);
otherwise a line says they were skipped.

What KOL's FOGD and NOGD compute differs from the paper, and so from refsvm (read in KOL's
``src/kernel/kernel_fogd.h`` and ``kernel_nogd.h`` at the commit printed in the header):

* its test accuracy is that of the AVERAGE of the weight vectors after each update
  (``begin_test``: ``w = w_sum / num_update``; NOGD: the linear phase's weights only), refsvm's
  (as the paper's Algorithms 1 and 2) that of the last iterate.  A constant-step last iterate
  scatters more over visiting orders: refsvm's FOGD on a9a ranges over about 74-85 % while
  KOL's averaged one stays within 84-85 %.  The FOGD and NOGD rows also give the accuracy of
  ``FOGDClassifier`` / ``NOGDClassifier(average=True)`` (the same updates, KOL's averaging, exact
  features; not timed);
* its FOGD features are not (sin, cos) of u'x: the phase is wrapped into [-pi, pi] and ``sin`` is a
  parabola approximation (``1.273 a - 0.405 a |a|``, refined once), the second feature
  ``sign(u'x) sqrt(1 - sin^2)``, about ``sign(u'x) |cos u'x|``, which is cos u'x only for a wrapped
  phase in [0, pi/2] or [-pi, -pi/2], so its inner products do not approximate the Gaussian kernel
  (its FOGD accuracy on ijcnn1, about 90.3 %, is below the 90.5 % majority share);
* its NOGD works in single precision and takes the first k eigenvectors of a general
  ``EigenSolver``, which does not sort them by eigenvalue.

The times compare the same amount of work per example (D sin/cos pairs, a 2D dot product and an
update; B kernel values and a k x B projection); the accuracies compare two different estimators.

No multi-class part: KOL is binary only, so refsvm's multi-class FOGD / NOGD (Algorithms 3-4) have
no C++ peer here.  ``src/main.cpp`` fixes ``#define LabelType char`` and knows no class option
(``GetOptimizer``); ``kernel_fogd::UpdateWeightVec`` and ``kernel_nogd::UpdateWeightVec`` keep ONE
weight vector and step when ``y*x.label<1``; ``LossFunction::IsCorrect`` (``src/loss/LossFunction.h``)
scores ``Sign(predict) == label`` with ``Sign`` in {-1, +1}; its README says the package is for
binary classification and points to other packages for multi-class.  Run on dna.scale (labels
1, 2, 3), KOL's FOGD treats every label as the positive class and only class-1 rows can count as
correct; its NOGD never fills its budget (every label positive) and aborts in
``kernel_nogd::Predict`` (an Eigen size assertion: the k x B projection times a kernel vector
shorter than B).  A one-vs-rest wrapper (c binary KOL runs, c feature draws, c parses) would be
a different algorithm from the paper's multi-class update, so none is timed.  Lu et al.'s
multi-class experiments used their MATLAB code (jingcoco/Online-Kernel-Learning).

The machine is shared; the load average is printed at start and end of every part.
"""

import argparse
import datetime
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from bench_bsgd import PARAMS, accuracy, bsgd_args, load_average, machine_info  # noqa: E402
from refsvm import ConstantModelWarning  # noqa: E402
from _common import SHARED_NOTE, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["benchmarks/bench_bsgd.py", "refsvm._fast.bsgd", "refsvm.estimators", "refsvm.fogd", "refsvm._fast.fogd",
           "refsvm.nogd", "refsvm._fast.nogd", "refsvm.online", "refsvm._fast.online", "refsvm.ogd",
           "refsvm.io.datasets", "refsvm.io.libsvm", "refsvm.validation"]

BSGD_BUDGETS = (100, 500)
#: KOL algorithms timed (``-opt kernel-<name>``); perceptron and ogd keep every SV (no budget).
LIBOL_ALGOS = ("fogd", "nogd", "perceptron", "rbp", "forgetron", "projectron", "projectronpp",
               "bpas", "bogd")


def git_head(path):
    """Commit and date of a peer checkout (None if not a git work tree)."""
    try:
        out = subprocess.run(["git", "-C", str(path), "log", "-1", "--format=%H %cd"],
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def find_checkout(binary_dir):
    """The nearest ancestor of ``binary_dir`` that is a git work tree (the peer's checkout)."""
    for p in [Path(binary_dir).resolve(), *Path(binary_dir).resolve().parents]:
        if (p / ".git").exists():
            return p
    return None


def read_lines(path_bz2):
    import bz2

    with bz2.open(path_bz2, "rt") as fh:
        return fh.read().splitlines()


def write_lines(path, lines, order=None):
    with open(path, "w") as fh:
        for i in (range(len(lines)) if order is None else order):
            fh.write(lines[i])
            fh.write("\n")


def int_labels(lines):
    """The same lines with the label written as an integer: KOL parses labels with an integer
    parser and stops reading a file at "-1.0" (ijcnn1's labels); features are left as they are."""
    out = []
    for s in lines:
        label, _, rest = s.partition(" ")
        out.append(f"{int(float(label)):d} {rest}")
    return out


def check_rows(lines, y):
    """The file's lines are the loader's rows, in order (labels compared line by line)."""
    labels = np.array([float(s.split(None, 1)[0]) for s in lines])
    if len(labels) != len(y) or not np.array_equal(np.where(labels > 0, 1, -1), y):
        raise SystemExit("the LIBSVM file's lines do not match load_libsvm's rows")


def median(v):
    return float(statistics.median(v)) if v else float("nan")


# ----------------------------------------------------------------------------
# BSGD: BudgetedSVM vs refsvm fast path
# ----------------------------------------------------------------------------

def pad_model(text):
    """The toolbox's BSGD model file with one blank character after the ``MODEL:`` line.

    Its loader (``budgetedModelBSGD::loadFromTextFile``) skips ``strlen("MODEL:\\n") + 1`` bytes
    after the header, one byte too many on a system whose text files end lines with a single
    ``\\n``: the first character of the first support vector's row, the ``-`` of its first
    coefficient ``-1:alpha``, is lost, that coefficient is read as feature 1 with value alpha and
    the first support vector drops out of every prediction.  The padding makes the loader read the
    file as written (checked against the model evaluated independently from the file)."""
    head, sep, rest = text.partition("MODEL:\n")
    if not sep:
        raise SystemExit("BudgetedSVM model file without a MODEL: line")
    return head + sep + " " + rest


def model_labels(text, Xt):
    """Labels the toolbox's BSGD model file predicts for ``Xt``, evaluated here from the file as
    written (its kernel ``exp(-0.5 g ||x - z||^2)``, winning class), as a check of its predictor."""
    g = float(text.split("KERNEL_GAMMA_PARAM:")[1].split()[0])
    labels = np.array([int(v) for v in text.split("LABELS:")[1].split("\n")[0].split()])
    rows = text.split("MODEL:\n", 1)[1].splitlines()
    A = np.zeros((len(rows), len(labels)))
    Z = np.zeros((len(rows), Xt.shape[1]))
    for i, row in enumerate(rows):
        for tok in row.split():
            k, v = tok.split(":")
            if int(k) < 0:
                A[i, -int(k) - 1] = float(v)
            elif int(k) <= Xt.shape[1]:
                Z[i, int(k) - 1] = float(v)
    out = []
    for start in range(0, Xt.shape[0], 20000):
        x = Xt[start:start + 20000]
        x = np.asarray(x.toarray() if hasattr(x, "toarray") else x, dtype=float)
        D = (x ** 2).sum(1)[:, None] + (Z ** 2).sum(1)[None, :] - 2.0 * x @ Z.T
        out.append(labels[(np.exp(-0.5 * g * np.maximum(D, 0.0)) @ A).argmax(1)])
    return np.concatenate(out)


def peer_bsgd(bindir, train_file, test_file, Xt, yt, *, budget, lam, gamma, dim, tmp, maintenance=1, bias=0):
    """One BudgetedSVM BSGD pass in file order (``-r 0``) and its predictions on ``test_file``; ``maintenance``:
    its ``-m`` code (1 merging, 0 removal); ``bias``: its ``-b`` (0: no bias, refsvm's setting; the toolbox's
    default is 1)."""
    model = Path(tmp) / "peer.model"
    pred = Path(tmp) / "peer.pred"
    cmd = [str(Path(bindir) / "budgetedsvm-train"), "-A", "4", "-B", str(budget), "-L", repr(2.0 * lam),
           "-b", repr(bias), "-e", "1", "-K", "0", "-g", repr(2.0 * gamma), "-m", str(maintenance), "-r", "0",
           "-D", str(dim), "-v", "1", str(train_file), str(model)]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    m = re.search(r"Training completed in\s+([0-9.]+) seconds", out.stdout)
    steps = re.search(r"budget maintenance steps:\s*(\d+)", out.stdout)
    padded = Path(tmp) / "peer.padded.model"
    padded.write_text(pad_model(model.read_text()))
    subprocess.run([str(Path(bindir) / "budgetedsvm-predict"), str(test_file), str(padded), str(pred)],
                   capture_output=True, text=True, check=True)
    labels = np.loadtxt(pred)
    acc = float(np.mean(np.where(labels > 0, 1, -1) == yt))
    agree = float(np.mean(model_labels(model.read_text(), Xt) == labels))
    return dict(cpu=float(m.group(1)) if m else float("nan"), wall=wall, accuracy=acc, agree_here=agree,
                maintenance=int(steps.group(1)) if steps else None, command=shlex.join(cmd))


def ours_bsgd(X, y, Xt, yt, order, *, budget, lam, gamma, merge_eps, repeats):
    from refsvm._fast import bsgd as fast

    kw = bsgd_args(budget, lam, gamma, merge_eps)
    cpu, wall = [], []
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        res = fast.bsgd(X, y, order, **kw)
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    acc = accuracy(res.sv, res.alpha, res.bias, gamma, Xt, yt)
    return dict(cpu=median(cpu), wall=median(wall), accuracy=acc,
                maintenance=int(len(res.trace["maint_step"])))


def bench_bsgd(name, data, args, tmp, log):
    X, y, Xt, yt, lines, test_file = data
    p = PARAMS[name]
    n, dim = len(y), X.shape[1]
    lam = 1.0 / (n * p["C"])
    log(f"# BSGD {name}: n={n}, n_test={len(yt)}, d={dim}, C={p['C']:g}, lambda=1/(nC)={lam:.6g}, "
        f"gamma={p['gamma']:g} (peer -g {2 * p['gamma']:g} -L {2 * lam:.6g}); load at start {load_average()}")
    rows = []
    for budget in args.budgets:
        per_seed = []
        for seed in args.seeds:
            order = np.random.default_rng(seed).permutation(n)
            train_file = Path(tmp) / f"{name}.seed{seed}"
            write_lines(train_file, lines, order)
            rec = dict(seed=seed)
            if args.budgetedsvm:
                rec["peer"] = [peer_bsgd(args.budgetedsvm, train_file, test_file, Xt, yt, budget=budget,
                                         lam=lam, gamma=p["gamma"], dim=dim, tmp=tmp)
                               for _ in range(args.peer_repeats)]
            for eps in args.merge_eps:
                rec[f"refsvm_eps{eps:g}"] = ours_bsgd(X, y, Xt, yt, order, budget=budget, lam=lam,
                                                      gamma=p["gamma"], merge_eps=eps,
                                                      repeats=args.repeats)
            train_file.unlink()
            per_seed.append(rec)
            pk = rec.get("peer", [{}])[0]
            log(f"  B={budget} seed={seed}: peer cpu {pk.get('cpu', float('nan')):.2f} s "
                f"acc {pk.get('accuracy', float('nan')):.4f} (same labels as its model file "
                f"evaluated here: {pk.get('agree_here', float('nan')):.4f}); "
                + "; ".join(f"refsvm eps={eps:g} cpu {rec[f'refsvm_eps{eps:g}']['cpu']:.3f} s "
                            f"acc {rec[f'refsvm_eps{eps:g}']['accuracy']:.4f}" for eps in args.merge_eps))
        rows.append(dict(dataset=name, budget=budget, lam=lam, gamma=p["gamma"], runs=per_seed))
    log(f"  load at end {load_average()}")
    return rows


def summarize_bsgd(row, merge_eps):
    out = dict(dataset=row["dataset"], budget=row["budget"])
    runs = row["runs"]
    if "peer" in runs[0]:
        pc = [r["cpu"] for rec in runs for r in rec["peer"]]
        pw = [r["wall"] for rec in runs for r in rec["peer"]]
        pa = [rec["peer"][0]["accuracy"] for rec in runs]
        out.update(peer_cpu=median(pc), peer_wall=median(pw), peer_runs=len(pc),
                   peer_acc_mean=float(np.mean(pa)), peer_acc_min=min(pa), peer_acc_max=max(pa))
    for eps in merge_eps:
        key = f"refsvm_eps{eps:g}"
        oc = [rec[key]["cpu"] for rec in runs]
        oa = [rec[key]["accuracy"] for rec in runs]
        out[key] = dict(cpu=median(oc), wall=median([rec[key]["wall"] for rec in runs]),
                        acc_mean=float(np.mean(oa)), acc_min=min(oa), acc_max=max(oa))
        if "peer" in runs[0]:
            ratios = [rec["peer"][0]["cpu"] / rec[key]["cpu"] for rec in runs]
            out[key]["peer_over_refsvm_cpu"] = median(ratios)
    return out


def render_bsgd(summary, merge_eps):
    lines = ["BSGD, one epoch (BPegasos + merging, no bias); seconds = median over seeds "
             "(refsvm: median of repeats per seed first); acc. = test accuracy % mean [min, max] over seeds",
             f"{'data':7s} {'B':>4s} | {'peer CPU s':>10s} {'peer wall s':>11s} {'peer acc.':>21s} | "
             + " | ".join(f"{'refsvm(eps=' + format(e, 'g') + ') CPU s':>22s} {'acc.':>21s} {'peer/ours':>9s}"
                          for e in merge_eps)]
    for s in summary:
        if "peer_cpu" in s:
            peer = (f"{s['peer_cpu']:10.2f} {s['peer_wall']:11.2f} "
                    f"{100 * s['peer_acc_mean']:6.2f} [{100 * s['peer_acc_min']:5.2f},{100 * s['peer_acc_max']:5.2f}]")
        else:
            peer = f"{'(not run)':>44s}"
        ours = []
        for e in merge_eps:
            o = s[f"refsvm_eps{e:g}"]
            ratio = o.get("peer_over_refsvm_cpu")
            ours.append(f"{o['cpu']:22.3f} {100 * o['acc_mean']:6.2f} [{100 * o['acc_min']:5.2f},"
                        f"{100 * o['acc_max']:5.2f}] {('%8.1fx' % ratio) if ratio else '         '}")
        lines.append(f"{s['dataset']:7s} {s['budget']:4d} | {peer} | " + " | ".join(ours))
    return "\n".join(lines)


# ----------------------------------------------------------------------------
# LIBOL/KOL vs refsvm's online kernel learners (where they exist)
# ----------------------------------------------------------------------------

def kol_run(kol, algo, train_file, test_file, gamma, budget):
    cmd = [str(Path(kol) / "KOL"), "-i", str(train_file), "-t", str(test_file),
           "-opt", f"kernel-{algo}", "-gamma", repr(gamma), "-B", str(budget), *kol_extra(algo)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"KOL failed (exit status {out.returncode}): {shlex.join(cmd)}\n{out.stderr[-2000:]}")
    if not re.search(r"#Training Instances:\s*[1-9]", out.stdout):
        raise SystemExit(f"KOL read no training example: {shlex.join(cmd)}")
    t = re.search(r"Learning time:\s*([0-9.]+)", out.stdout)
    a = re.search(r"Test acuracy:\s*([0-9.]+)", out.stdout)
    sv = re.search(r"#SV:\s*(\d+)", out.stdout)
    return dict(seconds=float(t.group(1)), accuracy=float(a.group(1)) / 100.0,
                n_sv=int(sv.group(1)) if sv else None, command=shlex.join(cmd))


#: Matched settings of FOGD / NOGD on both sides (refsvm's defaults; KOL's own defaults otherwise):
#: D = 400 Fourier directions (KOL's default), step eta; NOGD: budget, rank k = 20 (KOL's default
#: k = 0.2 B), one step size for both of NOGD's phases (KOL's -eta and -eta1).
FOGD_D, FOGD_ETA, NOGD_K, NOGD_ETA = 400, 0.002, 20, 0.2
#: OnlineKernelClassifier settings that differ from its defaults: BOGD gets KOL's defaults
#: (step -eta 0.5, regularisation -lambda 0.001); the rest run at refsvm's defaults (bpas C = 1
#: as KOL's -cbpas; the Projectrons' threshold eta = 0.1, which KOL does not expose).
OKC_EXTRA = {"bogd": dict(eta=0.5, lam=0.001)}
#: gamma of the LIBOL part for sets without BSGD parameters: Lu et al.'s sigma = 8 (gamma = 1/128)
LIBOL_GAMMA = {"w8a": 1.0 / 128}


def kol_extra(algo):
    """KOL options matched to refsvm's settings (FOGD, NOGD); KOL's defaults for the rest."""
    if algo == "fogd":
        return ["-D", str(FOGD_D), "-eta", repr(FOGD_ETA)]
    if algo == "nogd":
        return ["-knogd", str(NOGD_K), "-eta", repr(NOGD_ETA), "-eta1", repr(NOGD_ETA)]
    if algo == "bogd":
        return ["-eta", repr(OKC_EXTRA["bogd"]["eta"]), "-lambda", repr(OKC_EXTRA["bogd"]["lam"])]
    return []


def refsvm_online_estimators():
    """refsvm's online kernel learners present in this install: {KOL name: factory}.

    A factory returns ``(estimator, permute)``: ``permute`` says whether ``fit`` gets the rows
    already in the visiting order (FOGD / NOGD, ``shuffle=False``) or unpermuted (the estimator
    draws the same order from ``random_state``)."""
    import refsvm

    found = {}
    fogd = getattr(refsvm, "FOGDClassifier", None)
    if fogd is not None:
        found["fogd"] = lambda gamma, budget, seed: (fogd(
            gamma=gamma, n_components=FOGD_D, eta=FOGD_ETA, shuffle=False, random_state=seed), True)
        if "average" in fogd().get_params():                  # KOL's reading: the averaged weights
            found["fogd-average"] = lambda gamma, budget, seed: (fogd(
                gamma=gamma, n_components=FOGD_D, eta=FOGD_ETA, shuffle=False, random_state=seed,
                average=True), True)
    nogd = getattr(refsvm, "NOGDClassifier", None)
    if nogd is not None:
        found["nogd"] = lambda gamma, budget, seed: (nogd(
            gamma=gamma, budget=budget, rank=NOGD_K, eta=NOGD_ETA, shuffle=False, random_state=seed), True)
        if "average" in nogd().get_params():                  # KOL's reading: the averaged weights
            found["nogd-average"] = lambda gamma, budget, seed: (nogd(
                gamma=gamma, budget=budget, rank=NOGD_K, eta=NOGD_ETA, shuffle=False, random_state=seed,
                average=True), True)
    okc = getattr(refsvm, "OnlineKernelClassifier", None)
    if okc is not None:
        # The estimator draws its visiting order itself: default_rng(seed).permutation(n), the
        # order written into KOL's file, so it gets the rows unpermuted (flag False below).
        for kname in ("perceptron", "rbp", "forgetron", "projectron", "projectronpp", "bpas", "bogd"):
            extra = dict(OKC_EXTRA.get(kname, {}))
            algo = "projectron++" if kname == "projectronpp" else kname
            found[kname] = (lambda a, kw: lambda gamma, budget, seed: (okc(
                algorithm=a, gamma=gamma, budget=budget, random_state=seed, **kw), False))(algo, extra)
    return found


def bench_libol(name, data, args, tmp, log):
    X, y, Xt, yt, lines, test_file = data
    lines = int_labels(lines)
    test_lines = Path(test_file).read_text().splitlines()
    test_file = Path(tmp) / f"{name}.int.t"
    write_lines(test_file, int_labels(test_lines))
    gamma = PARAMS[name]["gamma"] if name in PARAMS else LIBOL_GAMMA[name]
    n = len(y)
    ours = refsvm_online_estimators()
    log(f"# LIBOL {name}: n={n}, gamma={gamma:g}, B={args.libol_budget}; load at start {load_average()}")
    missing = [a for a in args.libol_algos if a not in ours]
    if missing:
        log(f"  refsvm has no equivalent of {', '.join(missing)} in this install: skipped on the refsvm side")
    rows = []
    for algo in args.libol_algos:
        runs = []
        for seed in args.seeds:
            order = np.random.default_rng(seed).permutation(n)
            train_file = Path(tmp) / f"{name}.seed{seed}"
            write_lines(train_file, lines, order)
            rec = dict(seed=seed)
            if args.libol:
                rec["peer"] = [kol_run(args.libol, algo, train_file, test_file, gamma, args.libol_budget)
                               for _ in range(args.peer_repeats)]
            if algo in ours:
                times, acc, constant = [], None, False
                for _ in range(args.repeats):
                    est, permute = ours[algo](gamma, args.libol_budget, seed)
                    Xf, yf = (X[order], y[order]) if permute else (X, y)
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always", ConstantModelWarning)
                        w0 = time.perf_counter()
                        est.fit(Xf, yf)
                        times.append(time.perf_counter() - w0)
                    constant |= any(issubclass(w.category, ConstantModelWarning) for w in caught)
                acc = float(np.mean(est.predict(Xt) == yt))
                rec["refsvm"] = dict(seconds=median(times), accuracy=acc, estimator=repr(est), constant=constant)
                if f"{algo}-average" in ours:                 # the same run, predicting with the mean weights
                    est, _ = ours[f"{algo}-average"](gamma, args.libol_budget, seed)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", ConstantModelWarning)
                        est.fit(X[order], y[order])
                    rec["refsvm_average"] = dict(accuracy=float(np.mean(est.predict(Xt) == yt)),
                                                 estimator=repr(est))
            train_file.unlink()
            runs.append(rec)
        row = dict(dataset=name, algo=algo, n=n, runs=runs)
        if args.libol:
            ps = [r["seconds"] for rec in runs for r in rec["peer"]]
            pa = [rec["peer"][0]["accuracy"] for rec in runs]
            row.update(peer_us_per_example=1e6 * median(ps) / n, peer_acc_mean=float(np.mean(pa)),
                       peer_acc_min=min(pa), peer_acc_max=max(pa), peer_n_sv=runs[0]["peer"][0]["n_sv"])
        if algo in ours:
            os_ = [rec["refsvm"]["seconds"] for rec in runs]
            oa = [rec["refsvm"]["accuracy"] for rec in runs]
            row.update(refsvm_us_per_example=1e6 * median(os_) / n, refsvm_acc_mean=float(np.mean(oa)),
                       refsvm_acc_min=min(oa), refsvm_acc_max=max(oa),
                       refsvm_constant_seeds=sum(bool(rec["refsvm"]["constant"]) for rec in runs))
        if all("refsvm_average" in rec for rec in runs):
            va = [rec["refsvm_average"]["accuracy"] for rec in runs]
            row.update(refsvm_average_acc_mean=float(np.mean(va)), refsvm_average_acc_min=min(va),
                       refsvm_average_acc_max=max(va))
        rows.append(row)
        log(f"  {algo}: " + (f"KOL {row.get('peer_us_per_example', float('nan')):.2f} us/example "
                             f"acc {100 * row.get('peer_acc_mean', float('nan')):.2f}%" if args.libol else "")
            + (f"; refsvm {row['refsvm_us_per_example']:.2f} us/example acc {100 * row['refsvm_acc_mean']:.2f}%"
               if algo in ours else "; refsvm: no equivalent (skipped)"))
    log(f"  load at end {load_average()}")
    return rows


def render_libol(rows, budget):
    out = [f"LIBOL/KOL, one pass, B = {budget} (KOL defaults otherwise); us/example = median over seeds of "
           "Learning time / n (KOL: parsing included, read concurrently); acc. = test accuracy % mean [min, max]",
           f"{'data':7s} {'algorithm':13s} | {'KOL us/ex':>9s} {'#SV':>6s} {'KOL acc.':>21s} | "
           f"{'refsvm us/ex':>12s} {'refsvm acc.':>21s}"]
    for r in rows:
        peer = (f"{r['peer_us_per_example']:9.2f} {r['peer_n_sv']:6d} {100 * r['peer_acc_mean']:6.2f} "
                f"[{100 * r['peer_acc_min']:5.2f},{100 * r['peer_acc_max']:5.2f}]") if "peer_us_per_example" in r \
            else f"{'(not run)':>38s}"
        ours = (f"{r['refsvm_us_per_example']:12.2f} {100 * r['refsvm_acc_mean']:6.2f} "
                f"[{100 * r['refsvm_acc_min']:5.2f},{100 * r['refsvm_acc_max']:5.2f}]") \
            if "refsvm_us_per_example" in r else f"{'no refsvm equivalent (skipped)':>34s}"
        if "refsvm_average_acc_mean" in r:
            ours += (f"  average=True: {100 * r['refsvm_average_acc_mean']:6.2f} "
                     f"[{100 * r['refsvm_average_acc_min']:5.2f},{100 * r['refsvm_average_acc_max']:5.2f}]")
        if r.get("refsvm_constant_seeds"):
            ours += f"  constant ({r['refsvm_constant_seeds']}/{len(r['runs'])} seeds)"
        out.append(f"{r['dataset']:7s} {r['algo']:13s} | {peer} | {ours}")
    out.append("KOL acc.: KOL's model at test time is the average of its weights after each update, and its "
               "FOGD features are an approximation of (sin, cos) that is not cos on half the phases (see this "
               "script's docstring); refsvm acc.: the last iterate, exact features (the paper's algorithms); "
               "average=True: refsvm's FOGD / NOGD predicting with the mean of its (linear-phase) weights after "
               "each update (KOL's averaging, exact features; not timed)")
    if any(r.get("refsvm_constant_seeds") for r in rows):
        out.append("constant (k/m seeds): on k of the m seeds refsvm's model predicts one class on the training "
                   "rows it checks (ConstantModelWarning, caught here); its test accuracy is then at or near the "
                   "majority share, and a KOL accuracy at that share is the same outcome")
    return "\n".join(out)


# ----------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--budgetedsvm", help="directory with budgetedsvm-train / budgetedsvm-predict")
    ap.add_argument("--libol", help="directory with LIBOL/KOL's KOL binary")
    ap.add_argument("--datasets", nargs="+", default=["ijcnn1", "a9a"], choices=sorted(set(PARAMS) | set(LIBOL_GAMMA)))
    ap.add_argument("--budgets", nargs="+", type=int, default=list(BSGD_BUDGETS))
    ap.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    ap.add_argument("--repeats", type=int, default=3, help="refsvm runs per seed (median)")
    ap.add_argument("--peer-repeats", type=int, default=1, help="peer runs per seed")
    ap.add_argument("--merge-eps", nargs="+", type=float, default=[1e-4, 0.01])
    ap.add_argument("--libol-budget", type=int, default=100)
    ap.add_argument("--libol-algos", nargs="+", default=list(LIBOL_ALGOS))
    ap.add_argument("--parts", nargs="+", default=["bsgd", "libol"], choices=["bsgd", "libol"])
    ap.add_argument("--tmpdir", default=None, help="where the permuted LIBSVM files go (default: system temp)")
    ap.add_argument("--sparse", action="store_true",
                    help="give refsvm the data as scipy CSR (the peers read the sparse LIBSVM text "
                         "either way); default: dense arrays")
    ap.add_argument("--json", help="write all measurements to this JSON file")
    args = ap.parse_args(argv)
    if not args.budgetedsvm and not args.libol:
        ap.error("give --budgetedsvm and/or --libol")

    from refsvm.datasets import data_dir, load_libsvm

    def log(msg):
        print(msg, flush=True)

    started = datetime.datetime.now(datetime.timezone.utc)
    command = "python " + shlex.join([sys.argv[0], *(sys.argv[1:] if argv is None else argv)])
    info = machine_info()
    peers = {}
    for key, path, flags in (("budgetedsvm", args.budgetedsvm, "its Makefile: -g -Wall -Wconversion -O3"),
                             ("libol", args.libol, "its CMakeLists.txt: -Wno-write-strings -O2 -s")):
        if path:
            co = find_checkout(path)
            peers[key] = dict(binaries=str(Path(path).resolve()), checkout=str(co) if co else None,
                              commit=git_head(co) if co else None, flags=flags)
    cxx = subprocess.run(["c++", "--version"], capture_output=True, text=True).stdout.splitlines()
    log(f"command: {command}")
    log(f"started {started.isoformat(timespec='seconds')}; cpu: {info.get('cpu')}; "
        f"usable cpus {info.get('usable_cpus')}; refsvm git {info.get('git')}")
    log(f"compiler: {cxx[0] if cxx else 'unknown'}")
    log("refsvm input: " + ("scipy CSR (load_libsvm(name, sparse=True))" if args.sparse else "dense arrays"))
    for key, pinfo in peers.items():
        log(f"peer {key}: commit {pinfo['commit']}; built with {pinfo['flags']}; binaries {pinfo['binaries']}")
    log(f"load average (1, 5, 15 min) at start: {load_average()}")

    results = dict(command=command, machine=info, peers=peers, compiler=cxx[:1], started=started.isoformat(),
                   seeds=args.seeds, repeats=args.repeats, peer_repeats=args.peer_repeats,
                   merge_eps=args.merge_eps, bsgd=[], libol=[])
    with tempfile.TemporaryDirectory(dir=args.tmpdir, prefix="refsvm_peers_") as tmp:
        for name in args.datasets:
            X, y, Xt, yt = load_libsvm(name, standardize=False, sparse=args.sparse)
            home = args.data_dir = data_dir()
            lines = read_lines(Path(home) / f"{name}.bz2")
            check_rows(lines, np.where(y > 0, 1, -1))
            if Xt is None:                        # no test file (w8a): the last 25 % of a seed-0
                perm = np.random.default_rng(0).permutation(len(y))   # permutation, as bench_defaults
                cut = len(y) - len(y) // 4
                tr, te = np.sort(perm[:cut]), np.sort(perm[cut:])
                X, Xt, y, yt = X[tr], X[te], y[tr], y[te]
                test_lines = [lines[i] for i in te]
                lines = [lines[i] for i in tr]
                log(f"# {name}: no test file; a seed-0 75/25 split of {name}.bz2 ({len(tr)} / {len(te)} rows)")
            else:
                test_lines = read_lines(Path(home) / f"{name}.t.bz2")
            y = np.where(y > 0, 1, -1).astype(np.int64)
            yt = np.where(yt > 0, 1, -1).astype(np.int64)
            test_file = Path(tmp) / f"{name}.t"
            write_lines(test_file, test_lines)
            data = (X, y, Xt, yt, lines, test_file)
            if "bsgd" in args.parts and args.budgetedsvm and name not in PARAMS:
                log(f"# BSGD {name}: no (C, gamma) in bench_bsgd.PARAMS; skipped")
            elif "bsgd" in args.parts and args.budgetedsvm:
                results["bsgd"] += bench_bsgd(name, data, args, tmp, log)
            if "libol" in args.parts and args.libol:
                results["libol"] += bench_libol(name, data, args, tmp, log)

    results["bsgd_summary"] = [summarize_bsgd(r, args.merge_eps) for r in results["bsgd"]]
    results["load_end"] = load_average()
    results["finished"] = datetime.datetime.now(datetime.timezone.utc).isoformat()
    log("")
    if results["bsgd_summary"]:
        log(render_bsgd(results["bsgd_summary"], args.merge_eps))
        log("")
    if results["libol"]:
        log(render_libol(results["libol"], args.libol_budget))
        log("")
    log(f"load average at end: {results['load_end']}; finished {results['finished']}")
    write_json(args.json, results, MODULES, note=SHARED_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
