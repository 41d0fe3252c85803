#!/usr/bin/env python
"""Lu et al. (2016), Table 7: the authors' released multi-class MATLAB code, run under GNU Octave, beside refsvm.

The authors' repository (jingcoco/Online-Kernel-Learning) is read outside this one: ``--peer`` names a checkout
whose ``multiclass/`` folder holds the ``.m`` files, or a git directory (the files are then written by ``git show``
into a temporary folder).  Nothing of it is copied into refsvm; the run records the peer's commit and the SHA-256 of
every ``.m`` file it called.  This script writes the data and a driver of its own (``DRIVER`` below: it loads the
data, sets the options of the authors' ``multiclass/Experiment_large.m`` and ``Experiment.m`` -- ``Budget`` B,
``sigma = 8``, ``n_label = max(Y)``, ``eta = 0.5`` and the rest as there -- and calls the learner once per
permutation) and reads the mistake rate and seconds each call returns.

Data and permutations are lu2016-table7's: the shared file through refsvm's loader (shuttle min-max onto [-1, 1],
dna.scale as read), labels 1..c in sorted order, and for seed ``s`` the order ``default_rng(s).permutation(n)``,
the one ``OnlineKernelClassifier(random_state=s)`` draws.  refsvm's side runs the same learner in the same reading
(``variant="authors"``, compiled path) over the same orders, and the script checks that its errors are the committed
lu2016-table7 row's seed for seed (``refsvm_is_table``).

Learners (the ``.m`` function, the row): ``proplus`` (Projectron++ [code]), ``projectron`` (Projectron [code]),
``forgetron`` (Forgetron [code]), ``BPAs`` (BPA-S, C = 1), ``perceptron`` (Perceptron), ``ogd`` (OGD at the code's
``eta = 0.5``: no lu2016-table7 row, whose OGD takes the grid's step).  refsvm runs each twice: with the table's
convention (a tie for the top score is a mistake: the table's run) and with the code's (MATLAB's ``max`` gives a tie
to the lowest class index: ``zero_prediction="positive"``), the second compared permutation by permutation with the
code (how many permutations give the same number of mistakes).  Octave is not MATLAB: the same double arithmetic
through another BLAS, so a run that divides by rounding noise (the rank-one ``K^-1`` of ``proplus.m`` and
``projectron.m``, benchmarks/bench_lu_projectron_numerics.py) may take other decisions than the authors' MATLAB did.
``--task binary`` does the same for Table 5's small data sets (german, spambase) with the authors' ``binary/``
files and the options of their ``binary/experiment.m`` (eta = 0.2, gamma = 10, C_BPAs = 1) at Table 5's B = 100 and
sigma = 8, labels -1 / +1 (the first sorted label -1, as the estimator), the error their err_count over n; Table 5's
runs use the code's tie rule already (``zero_prediction="positive"``: sign(0) = +1).  spambase is unscaled: rows far
apart give kernel values that underflow to subnormal numbers, the code takes the sign of a score such as -1.6e-321,
and refsvm reads a score within its rounding bound of 0 as a tie (DESIGN.md, discrete decisions), so the two part
there.
Timings: Octave's interpreter beside refsvm's compiled path, wall-clock, on the shared machine (not a speed claim).
"""

import argparse
import hashlib
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402

#: What a run exercises (the fingerprint of its results: refsvm._provenance)
MODULES = ["refsvm.io.datasets", "refsvm.reproduce.runners", "refsvm.online.common", "refsvm.online.multiclass",
           "refsvm.online.perceptrons", "refsvm.online.gradient", "refsvm.online.passive_aggressive",
           "refsvm.online.projection", "refsvm._fast.online"]

#: lu2016-table7's data: file, min-max range (None: as read), budget B (Experiment.m: 200, Experiment_large.m: 100)
DATA = {"dna": ("dna.scale", None, 200), "satimage": ("satimage", (-1.0, 1.0), 200),
        "shuttle": ("shuttle", (-1.0, 1.0), 100)}
GAMMA = 1.0 / 128                     # sigma = 8: exp(-||x - x'||^2 / (2 sigma^2))
#: the .m function -> (the row, refsvm's multi-class function, its arguments besides the kernel's and the budget)
LEARNERS = {"proplus": ("Projectron++ [code]", "multiclass_projectron", dict(plusplus=True, eta=0.0, variant="authors")),
            "projectron": ("Projectron [code]", "multiclass_projectron",
                           dict(plusplus=False, eta=0.0, variant="authors")),
            "forgetron": ("Forgetron [code]", "multiclass_forgetron", dict(variant="authors")),
            "BPAs": ("BPA-S", "multiclass_bpas", dict(C=1.0)),
            "perceptron": ("Perceptron", "multiclass_perceptron", {}),
            "ogd": ("OGD eta=0.5", "multiclass_ogd", dict(eta=0.5))}
#: the learners without a budget
UNBUDGETED = ("perceptron", "ogd")
#: the .m files a run calls besides the learners' (the kernel)
PEER_FILES = ("comp_K.m",)

DRIVER = """\
addpath('{peer}');
load('{data}');
options.C = 10; options.rho = 0.2; options.eta = 0.5; options.Budget = {budget}; options.k = 0.2;
options.sigma = 8; options.n_label = max(Y); options.t_tick = round(size(Y, 1) / 10);
options.lambda = 1e-5; options.gamma = inf; options.C_BPAs = 1;
learners = {{{learners}}};
for j = 1:numel(learners)
  for i = 1:size(ID_list, 1)
    [err_count, run_time] = feval(learners{{j}}, Y, X, ID_list(i, :), options);
    printf('RESULT %s %d %.12f %.6f\\n', learners{{j}}, i - 1, err_count, run_time);
    fflush(stdout);
  end
end
"""


BINARY_DRIVER = """\
addpath('{peer}');
load('{data}');
n = size(Y, 1);
options.Budget = {budget}; options.eta = 0.2; options.lambda = 1 / n^2; options.gamma = 10;
options.t_tick = round(n / 15); options.sigma = 8; options.C_BPAs = 1; options.eta_nogd = 0.2; options.k = 0.2;
options.eta_fou = 0.002; options.D = 4;
learners = {{{learners}}};
for j = 1:numel(learners)
  for i = 1:size(ID_list, 1)
    [classifier, err_count, run_time] = feval(learners{{j}}, Y, X, options, ID_list(i, :));
    printf('RESULT %s %d %.12f %.6f\\n', learners{{j}}, i - 1, err_count / n, run_time);
    fflush(stdout);
  end
end
"""


@dataclass(frozen=True)
class Task:
    """One of the authors' folders beside one reproduced table."""

    folder: str            # the peer's folder of .m files
    table: str             # the reproduced table (its paper's numbers, its committed rows)
    results: str           # the committed results file of that table holding these data sets
    data: dict             # data set -> (file, min-max range or None, budget B)
    learners: dict         # .m function -> (row, refsvm's function, its arguments besides the kernel's and B)
    unbudgeted: tuple      # the learners without a budget
    driver: str            # the Octave driver (format fields: peer, data, budget, learners)
    signs: bool            # labels -1 / +1 (binary) instead of 1..c
    table_ties: str        # the table's zero_prediction


TASKS = {
    "multiclass": Task("multiclass", "lu2016-table7", "reproduce_lu2016-table7", DATA, LEARNERS, UNBUDGETED, DRIVER,
                       False, "mistake"),
    "binary": Task("binary", "lu2016-table5", "reproduce_lu2016-table5_small",
                   {"german": ("german.numer_scale", None, 100), "spambase": ("spambase", None, 100)},
                   {"perceptron": ("Perceptron", "perceptron", {}), "OGD": ("OGD eta=0.2", "ogd", dict(eta=0.2)),
                    "forgetron": ("Forgetron [code]", "forgetron", dict(variant="authors")),
                    "projectron": ("Projectron [code]", "projectron", dict(plusplus=False, eta=0.0,
                                                                              variant="authors")),
                    "proplus": ("Projectron++ [code]", "projectron", dict(plusplus=True, eta=0.0, variant="authors")),
                    "BPAs": ("BPA-S", "bpas", dict(C=1.0))},
                   ("perceptron", "OGD"), BINARY_DRIVER, True, "positive"),
}


def load(name, task=TASKS["multiclass"]):
    """``task``'s rows of ``name`` (dense), labels 0..c-1 in sorted order (binary: -1 / +1), and its budget."""
    from refsvm.io.datasets import load_libsvm
    from refsvm.reproduce.runners import minmax_scale
    file, minmax, budget = task.data[name]
    X, y, _, _ = load_libsvm(file)
    X = np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=float)
    if minmax is not None:                               # svm-scale over the file's rows, as the table's runner
        X = minmax_scale(X, *minmax)
    labels = np.searchsorted(np.unique(y), y)
    return X, (2 * labels - 1 if task.signs else labels), budget


def peer_files(peer, commit, names, into, folder="multiclass"):
    """The ``folder/`` files ``names`` of the peer in folder ``into``; returns (commit, {name: sha256[:16]})."""
    peer = Path(peer)
    digests = {}
    checkout = (peer / folder).is_dir()
    for name in names:
        if checkout:
            text = (peer / folder / name).read_bytes()
        else:
            text = subprocess.run(["git", "--git-dir", str(peer), "show", f"{commit}:{folder}/{name}"],
                                  capture_output=True, check=True).stdout
        (Path(into) / name).write_bytes(text)
        digests[name] = hashlib.sha256(text).hexdigest()[:16]
    git = ["git", "-C", str(peer)] if checkout else ["git", "--git-dir", str(peer)]
    try:
        full = subprocess.run(git + ["rev-parse", commit], capture_output=True, check=True, text=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        full = "unknown (not a git checkout)"
    return full, digests


def run_octave(octave, peer_dir, X, y, orders, budget, learners, workdir, task=TASKS["multiclass"]):
    """The authors' learners over ``orders`` in Octave: {learner: [(error %, seconds), ...]} in seed order."""
    import scipy.io
    data = Path(workdir) / "data.mat"
    Y = y if task.signs else y + 1                      # binary: -1 / +1; multi-class: 1..c
    scipy.io.savemat(data, dict(X=X, Y=np.asarray(Y, float)[:, None], ID_list=np.asarray(orders, float) + 1))
    driver = Path(workdir) / "driver.m"
    driver.write_text(task.driver.format(peer=peer_dir, data=data, budget=budget,
                                         learners=", ".join(f"'{name}'" for name in learners)))
    out = subprocess.run([octave, "--no-gui", "--quiet", "--no-window-system", str(driver)], capture_output=True,
                         text=True, check=False, cwd=workdir)
    found = {name: [] for name in learners}
    for line in out.stdout.splitlines():
        m = re.match(r"RESULT (\S+) (\d+) (\S+) (\S+)$", line)
        if m:
            found[m.group(1)].append((100.0 * float(m.group(3)), float(m.group(4))))
    if any(len(v) != len(orders) for v in found.values()):
        raise RuntimeError(f"octave: incomplete run (exit {out.returncode}):\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    return found


def run_refsvm(X, y, orders, budget, learner, zero_prediction, task=TASKS["multiclass"]):
    """refsvm's reading of ``learner`` over the same orders (compiled path): [(error %, seconds), ...]."""
    from refsvm.backend import get_module
    _, name, extra = task.learners[learner]
    fn = getattr(get_module("online", "fast"), name)
    kwargs = dict(extra, kernel="rbf", gamma=GAMMA, degree=3, coef0=0.0, zero_prediction=zero_prediction)
    if not task.signs:
        kwargs["n_classes"] = int(y.max()) + 1
    if learner not in task.unbudgeted:
        kwargs["budget"] = budget
    rows = []
    for order in orders:
        start = time.perf_counter()
        res = fn(X, y, order, **kwargs)
        rows.append((100.0 * res.trace["mistakes"] / len(order), time.perf_counter() - start))
    return rows


def summary(values):
    v = np.asarray(values, dtype=float)
    return dict(mean=float(v.mean()), std=float(v.std(ddof=1)) if len(v) > 1 else 0.0, median=float(np.median(v)),
                min=float(v.min()), max=float(v.max()))


def table_errors(row, dataset, task=TASKS["multiclass"]):
    """The committed table row's per-seed errors (None when the results file or the row is absent)."""
    path = Path(__file__).resolve().parent / "results" / f"{task.results}.json"
    if not path.exists():
        return None
    import json
    for r in json.loads(path.read_text())["rows"]:
        if (r["algorithm"], r["dataset"]) == (row, dataset):
            return [s["error"] for s in r["per_seed"]]
    return None


def main(argv=None):
    from refsvm.reproduce import tables
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", default=os.environ.get("REFSVM_LU_PEER"),
                    help="the authors' repository: a checkout, or a git directory (default: $REFSVM_LU_PEER)")
    ap.add_argument("--peer-commit", default="HEAD", help="with a git directory: the commit to read")
    ap.add_argument("--octave", default="octave-cli")
    ap.add_argument("--task", default="multiclass", choices=list(TASKS))
    ap.add_argument("--datasets", nargs="+", help="default: multiclass shuttle dna, binary german spambase")
    ap.add_argument("--learners", nargs="+", help="default: every learner of the task")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    if not args.peer:
        ap.error("--peer (or REFSVM_LU_PEER): the authors' repository jingcoco/Online-Kernel-Learning")
    if args.seeds < 2:
        ap.error("--seeds must be at least 2")
    task = TASKS[args.task]
    args.datasets = args.datasets or (["shuttle", "dna"] if args.task == "multiclass" else list(task.data))
    args.learners = args.learners or list(task.learners)
    for name, given, known in (("--datasets", args.datasets, task.data), ("--learners", args.learners, task.learners)):
        if set(given) - set(known):
            ap.error(f"{name}: {sorted(set(given) - set(known))} not in the {args.task} task ({sorted(known)})")
    print_run_header("benchmarks/bench_lu_authors_octave.py", argv)
    version = subprocess.run([args.octave, "--version"], capture_output=True, text=True, check=True).stdout
    octave_version = version.splitlines()[0].strip()
    cells = []
    with tempfile.TemporaryDirectory(prefix="refsvm-lu-octave-") as work:
        peer_dir = Path(work) / "peer"
        peer_dir.mkdir()
        commit, digests = peer_files(args.peer, args.peer_commit, [f"{n}.m" for n in args.learners] + list(PEER_FILES),
                                     peer_dir, task.folder)
        for name in args.datasets:
            X, y, budget = load(name, task)
            orders = [np.random.default_rng(seed).permutation(len(y)) for seed in range(args.seeds)]
            octave = run_octave(args.octave, peer_dir, X, y, orders, budget, args.learners, work, task)
            for learner in args.learners:
                row = task.learners[learner][0]
                ours = run_refsvm(X, y, orders, budget, learner, task.table_ties, task)
                ties = [e for e, _ in run_refsvm(X, y, orders, budget, learner, "positive", task)]
                peer_err, ours_err = [e for e, _ in octave[learner]], [e for e, _ in ours]
                committed = table_errors(row, name, task)
                paper = tables()[task.table].paper.get((row.replace(" [code]", "").split(" eta=")[0], name))
                same = [round(a * len(y) / 100) == round(b * len(y) / 100) for a, b in zip(peer_err, ties)]
                cells.append(dict(
                    dataset=name, n=len(y), budget=None if learner in task.unbudgeted else budget, learner=learner,
                    row=row, paper=None if paper is None else dict(zip(("mean", "std"), paper[:2])),
                    errors=dict(peer=peer_err, refsvm=ours_err, refsvm_code_ties=ties), peer=summary(peer_err),
                    refsvm=summary(ours_err), refsvm_code_ties=summary(ties),
                    max_seed_diff=float(np.max(np.abs(np.subtract(peer_err, ours_err)))),
                    max_seed_diff_code_ties=float(np.max(np.abs(np.subtract(peer_err, ties)))),
                    same_mistakes_code_ties=int(sum(same)),
                    seconds=dict(peer=float(np.mean([t for _, t in octave[learner]])),
                                 refsvm=float(np.mean([t for _, t in ours]))),
                    refsvm_is_table=None if committed is None else bool(
                        np.allclose(ours_err, committed[:args.seeds], rtol=0, atol=1e-9))))
    build = (f"{octave_version} running jingcoco/Online-Kernel-Learning at {commit[:8]} ({task.folder}/: "
             + ", ".join(f"{k} {v}" for k, v in digests.items()) + "; sha256[:16])")
    lines = [f"peer: {build}", f"seeds 0-{args.seeds - 1}: default_rng(seed).permutation(n), {task.table}'s orders",
             "", f"{'data':8s} {'row':20s} {'paper':>11s} {'authors code (Octave)':>29s} {'refsvm':>14s} "
             f"{'max |diff|':>10s} {'code ties: same / max |diff|':>28s} {'s/pass Octave / refsvm':>24s}  refsvm = table"]
    for c in cells:
        p, o, r = c["paper"], c["peer"], c["refsvm"]
        paper = "--" if p is None else f"{p['mean']:.1f} ± {p['std']:.1f}"
        lines.append(f"{c['dataset']:8s} {c['row']:20s} {paper:>11s} "
                     f"{o['mean']:6.2f} ± {o['std']:5.2f} [{o['min']:5.2f}, {o['max']:5.2f}] "
                     f"{r['mean']:6.2f} ± {r['std']:5.2f} {c['max_seed_diff']:10.2f} "
                     f"{c['same_mistakes_code_ties']:>14d} of {args.seeds:<3d} / {c['max_seed_diff_code_ties']:5.2f} "
                     f"{c['seconds']['peer']:11.2f} / {c['seconds']['refsvm']:8.4f}  {c['refsvm_is_table']}")
    lines += ["", "authors code: the .m function over each permutation under Octave (error = its err_count, the "
              "online mistake rate); refsvm: the multi-class learner of the row (variant='authors' for a [code] row), "
              "the same orders, " + ("a tie for the top score a mistake" if task.table_ties == "mistake" else
                                     "sign(0) = +1") + " (the table's convention); max |diff|: the largest "
              "per-seed difference; code ties: refsvm with the code's tie rule (zero_prediction='positive'), the "
              "permutations on which it makes as many mistakes as the code and the largest difference; refsvm = "
              f"table: refsvm's errors are the committed {task.table} row's, seed for seed (None: no such row); "
              "s/pass: wall-clock (Octave's interpreter)."]
    text = "\n".join(lines)
    print(text)
    result = dict(seeds=args.seeds, peer=dict(repository="jingcoco/Online-Kernel-Learning", commit=commit,
                                              files=digests, octave=octave_version), cells=cells)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("command: python benchmarks/bench_lu_authors_octave.py "
                     + shlex.join(sys.argv[1:] if argv is None else argv) + f"\n{SHARED_NOTE}\n\n{text}\n")
    write_json(args.json, result, MODULES, note=SHARED_NOTE + "; peer: " + build)


if __name__ == "__main__":
    main()
