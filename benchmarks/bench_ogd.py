"""FOGD / NOGD benchmark: Table 3 (batch) and Table 5 (online) style runs of Lu et al. (2016).

Usage::

    REFSVM_DATA=/path/to/data python benchmarks/bench_ogd.py [--quick] [--datasets a9a w8a ...]
        [--seeds 3] [--json FILE] [--output FILE] [--png FILE]

Methods, at matched D (Fourier directions) and B (budget):

* ``FOGD``, ``NOGD``: refsvm's estimators, compiled backend;
* ``BSGD-merge``: :class:`refsvm.BudgetedSVC` (Pegasos, merging, budget B);
* ``RBF+SGD``: scikit-learn's ``RBFSampler(n_components=D)`` (the same number of
  directions; its map is normalised, ``||z||^2 ~ 1``) and ``SGDClassifier``
  (hinge loss, constant step ``eta0 = eta_FOGD * D``, the normalised-map
  equivalent of FOGD's step, ``alpha = 0``), trained with ``partial_fit`` over
  the same stream in the same order;
* ``Nys+SGD``: ``Nystroem(n_components=B)`` fitted on the first B examples of
  the stream, then ``SGDClassifier`` as above with ``eta0 = eta_NOGD``.

Protocols:

* **batch (Table 3)**: one pass over the training split (w8a and phishing have
  no test file: fixed hold-out, ``default_rng(0).permutation``, last 20%),
  B = 1000, D = 4000, k = 200; train time, test time, test accuracy as
  mean +- std over ``--seeds`` visiting orders.
* **online (Table 5)**: one pass over (at most ``--online-n`` examples of) the
  training split, B = 100, D = 400, k = 20; online mistake rate (predict, then
  update) and time per example.  scikit-learn's pipelines get one example at a
  time, as an online learner receives them (``transform`` + ``partial_fit``
  timed; the prediction before it is not).

Speed targets checked: (1) the compiled path >= 20x the Python path (FOGD and
NOGD, batch settings, on a prefix of ``--python-n`` examples); (2) per
example, FOGD's compiled path at least as fast as ``RBFSampler.transform +
SGDClassifier.partial_fit`` one example at a time at equal D; (3) within 2x of
the feature map's own cost, a D x d matrix-vector product plus D sin and D cos
per example, measured with numpy (``U @ x; sin; cos``) on the same examples.

BLAS and OpenMP run single-threaded (threadpoolctl) for every method: per
example, BLAS threads only add synchronisation, and the machine is shared.
"""

import argparse
import datetime
import os
import platform
import sys
import time

import numpy as np
from threadpoolctl import threadpool_limits

from _common import SHARED_NOTE, cpu_model, write_json

#: What a run exercises (the fingerprint of its results: refsvm._provenance).
MODULES = ["refsvm.fogd", "refsvm._fast.fogd", "refsvm.nogd", "refsvm._fast.nogd", "refsvm.ogd", "refsvm.estimators",
           "refsvm.bsgd", "refsvm._fast.bsgd", "refsvm.io.datasets", "refsvm.io.libsvm"]

PARAMS = {
    # gamma / eta of FOGD (printed map) and NOGD, chosen on a small grid (see
    # tests/ogd/test_real_data.py); BSGD: C and gamma of bench_bsgd / bench_lookup.
    "a9a": dict(gf=2 ** -6, ef=2e-4, gn=2 ** -6, en=0.2, C=32.0, gb=2 ** -7),
    "w8a": dict(gf=2 ** -7, ef=2e-4, gn=2 ** -5, en=0.2, C=8.0, gb=2 ** -5),
    "ijcnn1": dict(gf=2.0, ef=2e-4, gn=0.5, en=0.5, C=32.0, gb=2.0),
    "phishing": dict(gf=2 ** -3, ef=2e-4, gn=2 ** -3, en=0.2, C=8.0, gb=2 ** -3),
}
#: The paper's Table 3 accuracies (%) and Table 5 mistake rates (%), where it has the data set.
PAPER = {("a9a", "FOGD"): (84.93, 17.4), ("a9a", "NOGD"): (84.99, 17.4),
         ("w8a", "FOGD"): (97.93, 2.43), ("w8a", "NOGD"): (98.36, 2.92),
         ("ijcnn1", "FOGD"): (None, 9.06), ("ijcnn1", "NOGD"): (None, 9.55)}


def log(*a):
    print(*a, flush=True)


def machine():
    import refsvm
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "refsvm": refsvm.__version__, "loadavg": os.getloadavg(),
            "date": datetime.datetime.now().isoformat(timespec="seconds")}


def load(name):
    from refsvm.datasets import load_libsvm

    X, y, Xt, yt = load_libsvm(name)
    if Xt is None:
        perm = np.random.default_rng(0).permutation(len(X))
        m = int(0.8 * len(X))
        X, y, Xt, yt = X[perm[:m]], y[perm[:m]], X[perm[m:]], y[perm[m:]]
    lab = np.unique(y)
    return (np.ascontiguousarray(X), np.where(y == lab[-1], 1, -1), np.ascontiguousarray(Xt),
            np.where(yt == lab[-1], 1, -1))


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


# ------------------------------------------------------------------- methods

def refsvm_method(method, p, B, D, X, y, seed, backend="fast"):
    from refsvm import BudgetedSVC, FOGDClassifier, NOGDClassifier
    if method == "FOGD":
        eta = p["ef"] * 4000 / D                         # printed map: the step scales with 1/D
        return FOGDClassifier(n_components=D, gamma=p["gf"], eta=eta, backend=backend, random_state=seed)
    if method == "NOGD":
        return NOGDClassifier(budget=B, rank=max(1, B // 5), gamma=p["gn"], eta=p["en"], backend=backend,
                              random_state=seed)
    return BudgetedSVC(budget=B, lam=1.0 / (len(y) * p["C"]), gamma=p["gb"], maintenance="merge",
                       backend=backend, random_state=seed)


def sklearn_pipeline(method, p, B, D, X_head, seed):
    from sklearn.kernel_approximation import Nystroem, RBFSampler
    from sklearn.linear_model import SGDClassifier
    if method == "RBF+SGD":
        mapper = RBFSampler(gamma=p["gf"], n_components=D, random_state=seed).fit(X_head)
        eta0 = p["ef"] * 4000
    else:
        mapper = Nystroem(gamma=p["gn"], n_components=B, random_state=seed).fit(X_head[:B])
        eta0 = p["en"]
    clf = SGDClassifier(loss="hinge", penalty=None, alpha=0.0, learning_rate="constant", eta0=eta0,
                        shuffle=False, random_state=seed)
    return mapper, clf


def run_batch(method, p, X, y, Xt, yt, seed):
    B, D = 1000, 4000
    order = np.random.default_rng(seed).permutation(len(y))
    Xo, yo = X[order], y[order]
    if method in ("FOGD", "NOGD", "BSGD-merge"):
        est = refsvm_method(method, p, B, D, X, y, seed)
        if hasattr(est, "shuffle"):
            est.shuffle = False                          # visit Xo as drawn above
        _, train = timed(lambda: est.fit(Xo, yo))
        acc, test = timed(lambda: est.score(Xt, yt))
        return acc, train, test
    mapper, clf = sklearn_pipeline(method, p, B, D, Xo, seed)

    def fit():
        for s in range(0, len(yo), 1000):            # partial_fit's SGD visits a chunk's rows in order
            clf.partial_fit(mapper.transform(Xo[s:s + 1000]), yo[s:s + 1000], classes=[-1, 1])
    _, train = timed(fit)
    acc, test = timed(lambda: clf.score(mapper.transform(Xt), yt))
    return acc, train, test


def run_online(method, p, X, y, seed, n):
    """Online mistake rate and seconds per example over the first n examples of a random order."""
    B, D = 100, 400
    order = np.random.default_rng(seed).permutation(len(y))[:n]
    Xo, yo = X[order], y[order]
    if method in ("FOGD", "NOGD", "BSGD-merge"):
        est = refsvm_method(method, p, B, D, X, y, seed)
        if hasattr(est, "shuffle"):
            est.shuffle = False                          # (BSGD draws its own permutation of Xo)
        _, sec = timed(lambda: est.fit(Xo, yo))
        tr = est.trace_[0]
        return tr["mistakes"] / tr["n_steps"], sec / n
    mapper, clf = sklearn_pipeline(method, p, B, D, Xo, seed)
    mistakes, sec = 0, 0.0
    for i in range(n):
        x = Xo[i:i + 1]
        if i:
            mistakes += (clf.decision_function(mapper.transform(x))[0] * yo[i]) <= 0
        else:
            mistakes += 1
        start = time.perf_counter()
        z = mapper.transform(x)
        clf.partial_fit(z, yo[i:i + 1], classes=[-1, 1])
        sec += time.perf_counter() - start
    return mistakes / n, sec / n


def speed(name, p, X, y, n):
    """Seconds per example of the algorithms themselves (functions, inputs drawn outside).

    FOGD: one pass over the first n examples, D = 400 and 4000, both paths;
    NOGD: the linear phase (B = 1000, k = 200; the state right after the
    switch), n examples, both paths; numpy's feature map (``U @ x``, ``sin``,
    ``cos``) and RBFSampler.transform + SGDClassifier.partial_fit one example
    at a time on the same examples.
    """
    from refsvm import fogd as fogd_py, nogd as nogd_py
    from refsvm._fast import fogd as fogd_c, nogd as nogd_c
    from refsvm.ogd import fourier_directions
    out = {}
    y = y.astype(np.int64)
    head = np.arange(n, dtype=np.int64)
    for D in (400, 4000):
        U = fourier_directions(np.random.default_rng(0), D, X.shape[1], p["gf"])
        for label, mod in (("python", fogd_py), ("fast", fogd_c)):
            _, sec = timed(lambda: mod.fogd(X, y, head, task="binary", n_classes=2, U=U,
                                            eta=p["ef"] * 4000 / D))
            out[f"FOGD {label} D={D}"] = sec / n
        start = time.perf_counter()
        for i in range(n):
            q = U @ X[i]
            np.sin(q)
            np.cos(q)
        out[f"numpy map D={D}"] = (time.perf_counter() - start) / n
        mapper, clf = sklearn_pipeline("RBF+SGD", p, 100, D, X[:n], 0)
        start = time.perf_counter()
        for i in range(n):
            clf.partial_fit(mapper.transform(X[i:i + 1]), y[i:i + 1], classes=[-1, 1])
        out[f"RBF+SGD D={D}"] = (time.perf_counter() - start) / n
    kw = dict(task="binary", n_classes=2, budget=1000, rank=200, gamma=p["gn"], eta=p["en"])
    order = np.arange(len(y), dtype=np.int64)
    s = nogd_c.nogd(X, y, order, **kw).trace["switch_step"]
    if s >= 0 and s + 1 + n <= len(y):
        st = nogd_c.nogd(X, y, order[:s + 1], **kw)
        rest = order[s + 1:s + 1 + n]
        for label, mod in (("python", nogd_py), ("fast", nogd_c)):
            _, sec = timed(lambda: mod.nogd(X, y, rest, sv=st.sv, alpha=st.alpha, projection=st.projection,
                                            W=st.W, **kw))
            out[f"NOGD {label} linear"] = sec / n
    return out


# -------------------------------------------------------------------- report

def fmt_ms(v):
    return f"{1e6 * v:9.1f}"


def report(results, args):
    lines = []
    lines.append("Batch protocol (Table 3 style): B = 1000, D = 4000, k = 200, one pass; "
                 f"mean +- std over {args.seeds} visiting orders")
    lines.append(f"{'data':9} {'method':11} {'train s':>8} {'test s':>7} {'accuracy %':>14} {'paper %':>8}")
    for name, r in results.items():
        for method, v in r["batch"].items():
            paper = PAPER.get((name, method), (None, None))[0]
            lines.append(f"{name:9} {method:11} {v['train']:8.2f} {v['test']:7.2f} "
                         f"{100 * v['acc']:8.2f} +-{100 * v['acc_std']:4.2f} "
                         f"{'' if paper is None else f'{paper:8.2f}'}")
    lines.append("")
    lines.append("Online protocol (Table 5 style): B = 100, D = 400, k = 20, one pass over the first "
                 f"{args.online_n} examples of a random order")
    lines.append(f"{'data':9} {'method':11} {'mistakes %':>14} {'us/example':>10} {'paper %':>8}")
    for name, r in results.items():
        for method, v in r["online"].items():
            paper = PAPER.get((name, method), (None, None))[1]
            lines.append(f"{name:9} {method:11} {100 * v['rate']:8.2f} +-{100 * v['rate_std']:4.2f} "
                         f"{fmt_ms(v['sec']):>10} {'' if paper is None else f'{paper:8.2f}'}")
    lines.append("")
    lines.append(f"Speed per example (us), first {args.python_n} examples, one thread")
    for name, r in results.items():
        lines.append(f"{name:9} " + ", ".join(f"{k} {1e6 * v:.1f}" for k, v in r["speed"].items()))
    lines.append("")
    lines.append("Targets: fast/python >= 20; FOGD fast <= RBF+SGD; FOGD fast <= 2 x numpy map")
    for name, r in results.items():
        s = r["speed"]
        parts = []
        for D in (400, 4000):
            parts.append(f"D={D}: FOGD python/fast {s[f'FOGD python D={D}'] / s[f'FOGD fast D={D}']:.1f}x, "
                         f"FOGD fast/RBF+SGD {s[f'FOGD fast D={D}'] / s[f'RBF+SGD D={D}']:.3f}, "
                         f"FOGD fast/numpy map {s[f'FOGD fast D={D}'] / s[f'numpy map D={D}']:.2f}")
        if "NOGD fast linear" in s:
            parts.append(f"NOGD python/fast {s['NOGD python linear'] / s['NOGD fast linear']:.1f}x")
        lines.append(f"{name:9} " + "; ".join(parts[:1]))
        for part in parts[1:]:
            lines.append(f"{'':9} {part}")
        continue
    return "\n".join(lines)


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(results)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    for ax, proto, key, label in ((axes[0], "batch", "acc", "test accuracy (%)"),
                                  (axes[1], "online", "rate", "online mistakes (%)")):
        methods = list(results[names[0]][proto])
        w = 0.8 / len(methods)
        for j, m in enumerate(methods):
            ax.bar(np.arange(len(names)) + j * w, [100 * results[n][proto][m][key] for n in names], w, label=m)
        ax.set_xticks(np.arange(len(names)) + 0.4 - w / 2, names)
        ax.set_ylabel(label)
        if proto == "batch":
            ax.set_ylim(75, 100)
        ax.legend(fontsize=7)
    keys = ["FOGD fast D=400", "numpy map D=400", "RBF+SGD D=400", "FOGD fast D=4000", "numpy map D=4000",
            "RBF+SGD D=4000"]
    w = 0.8 / len(keys)
    for j, k in enumerate(keys):
        axes[2].bar(np.arange(len(names)) + j * w, [1e6 * results[n]["speed"][k] for n in names], w, label=k)
    axes[2].set_xticks(np.arange(len(names)) + 0.4 - w / 2, names)
    axes[2].set_yscale("log")
    axes[2].set_ylabel("us per example")
    axes[2].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=list(PARAMS), choices=list(PARAMS))
    parser.add_argument("--seeds", type=int, default=3, help="visiting orders per batch / online run")
    parser.add_argument("--online-n", type=int, default=20000, help="stream length of the online runs")
    parser.add_argument("--python-n", type=int, default=2000, help="examples of the speed runs")
    parser.add_argument("--quick", action="store_true", help="1 seed, 3000-example streams, 300 speed examples")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--output", metavar="FILE")
    parser.add_argument("--png", metavar="FILE")
    args = parser.parse_args(argv)
    if args.quick:
        args.seeds, args.online_n, args.python_n = 1, 3000, 300
    info = machine()
    header = (f"# {' '.join(['python', 'benchmarks/bench_ogd.py'] + (argv if argv is not None else sys.argv[1:]))}\n"
              f"# {info['date']}  {info['cpu']} ({info['cores']} cores), python {info['python']}, "
              f"numpy {info['numpy']}, refsvm {info['refsvm']}, load {info['loadavg']}")
    log(header)
    results = {}
    with threadpool_limits(limits=1):
        for name in args.datasets:
            p = PARAMS[name]
            X, y, Xt, yt = load(name)
            log(f"# {name}: n_train={len(y)}, n_test={len(yt)}, d={X.shape[1]}, params {p}")
            r = results[name] = {"batch": {}, "online": {}, "speed": {}}
            for method in ("FOGD", "NOGD", "BSGD-merge", "RBF+SGD", "Nys+SGD"):
                runs = [run_batch(method, p, X, y, Xt, yt, s) for s in range(args.seeds)]
                acc = [a for a, _, _ in runs]
                r["batch"][method] = dict(acc=float(np.mean(acc)), acc_std=float(np.std(acc)),
                                          train=float(np.mean([t for _, t, _ in runs])),
                                          test=float(np.mean([t for _, _, t in runs])), accs=acc)
                log(f"  batch  {method:11} {r['batch'][method]}")
                n = min(args.online_n, len(y))
                runs = [run_online(method, p, X, y, s, n) for s in range(args.seeds)]
                r["online"][method] = dict(rate=float(np.mean([a for a, _ in runs])),
                                           rate_std=float(np.std([a for a, _ in runs])),
                                           sec=float(np.mean([b for _, b in runs])))
                log(f"  online {method:11} {r['online'][method]}")
            r["speed"] = speed(name, p, X, y, min(args.python_n, len(y)))
            log(f"  speed  {r['speed']}")
    text = header + "\n" + report(results, args)
    log("\n" + text)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write(text + "\n")
    if args.json:
        write_json(args.json, {"machine": info, "args": vars(args), "results": results}, MODULES, note=SHARED_NOTE)
    if args.png:
        plot(results, args.png)


if __name__ == "__main__":
    main()
