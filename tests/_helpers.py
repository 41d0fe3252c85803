"""Helpers shared by several test modules (pytest puts ``tests/`` on sys.path:
``pythonpath`` in pyproject.toml; the repository root is not, so ``refsvm``
is still the installed package).  Everything here is written out from the
definitions, independently of the code under test."""

import numpy as np


def kern(A, B, kernel, gamma=1.0, degree=3, coef0=0.0):
    """Kernel matrix written out from the definitions (broadcast differences)."""
    A = np.atleast_2d(np.asarray(A, dtype=np.float64))
    B = np.atleast_2d(np.asarray(B, dtype=np.float64))
    if kernel == "rbf":
        diff = A[:, None, :] - B[None, :, :]
        return np.exp(-gamma * np.einsum("ijk,ijk->ij", diff, diff))
    if kernel == "linear":
        return np.einsum("ik,jk->ij", A, B)
    if kernel == "poly":
        return (gamma * np.einsum("ik,jk->ij", A, B) + coef0) ** degree
    raise AssertionError(kernel)


def checkerboard(n=300, seed=0):
    """2-D 4x4 checkerboard on [-2, 2]^2, labels in {-1, +1}, 5 % label noise."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2.0, 2.0, size=(n, 2))
    y = np.where((np.floor(X[:, 0]) + np.floor(X[:, 1])) % 2 == 0, 1, -1)
    y[rng.random(n) < 0.05] *= -1
    return X, y.astype(np.int64)


def blobs(n=300, n_classes=3, seed=0):
    """Overlapping 2-D Gaussian blobs, labels in 0..n_classes-1."""
    rng = np.random.default_rng(seed)
    centers = rng.uniform(-2.0, 2.0, size=(n_classes, 2))
    y = rng.integers(0, n_classes, size=n)
    X = centers[y] + 0.8 * rng.standard_normal((n, 2))
    return X, y.astype(np.int64)


def spiral_with_duplicates(seed, n=100, n_dup=49):
    """Two interleaved spirals (n rows) plus ``n_dup`` of their rows repeated exactly."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(0.5, 3.0 * np.pi, n)
    label = rng.integers(0, 2, n)
    r = t / (3.0 * np.pi)
    X = np.c_[r * np.cos(t + np.pi * label), r * np.sin(t + np.pi * label)] + 0.02 * rng.normal(size=(n, 2))
    idx = np.random.default_rng(seed + 100).choice(n, n_dup)
    return np.r_[X, X[idx]], (2 * np.r_[label, label[idx]] - 1).astype(np.int64)


def multiclass_problem(seed, n, n_classes=4):
    """``n`` 2-D normal rows, labels in 0..n_classes-1, a visiting order and ``n`` uniforms (one
    generator ``seed``, drawn in that order)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = rng.integers(0, n_classes, n)
    return X, y, rng.permutation(n).astype(np.int64), rng.random(n)


def duplicate_rows_problem(rng, n_classes=5):
    """70 sparse-ish 5-D rows plus 30 of them repeated, labels in 0..n_classes-1 and example
    weights, some 0 (drawn from ``rng``, which the caller goes on using)."""
    base = rng.normal(size=(70, 5)) * (rng.random((70, 5)) < 0.6)
    X = np.vstack([base, base[:30]])
    y = rng.integers(0, n_classes, X.shape[0])
    return X, y, rng.choice([0.0, 0.5, 1.0, 2.0], size=X.shape[0])


def assert_multiclass_paths_agree(a, b, sparse):
    """Two multi-class results (reference ``a``, compiled ``b``): the same counts and discrete
    traces, the same SVs, coefficients within 1e-9."""
    for key in ("mistakes", "updates", "removals", "kernel_evaluations"):
        assert a.trace[key] == b.trace[key], key
    for key in ("update_kind", "n_sv", "removal_step", "removal_index"):
        np.testing.assert_array_equal(a.trace[key], b.trace[key], err_msg=key)
    sva, svb = (a.sv.toarray(), b.sv.toarray()) if sparse else (a.sv, b.sv)
    np.testing.assert_array_equal(sva, svb)
    assert a.alpha.shape == b.alpha.shape == (sva.shape[0], a.alpha.shape[1])
    np.testing.assert_allclose(a.alpha, b.alpha, rtol=0, atol=1e-9)


def run_passes(module, X, y, orders, kw):
    """Run one pass per order, continuing model and t; returns the list of results."""
    sv = alpha = bias = None
    t = 0
    results = []
    for order in orders:
        res = module.bsgd(X, y, order, sv=sv, alpha=alpha, bias=bias, t0=t, **kw)
        sv, alpha, bias, t = res.sv, res.alpha, res.bias, res.t
        results.append(res)
    return results


def run_bsca_passes(module, X, y, orders, **kw):
    """``module.bsca`` once per order, each call continuing the previous one (sv, alpha, dual,
    sv_source, t); returns the list of results."""
    state = dict(sv=None, alpha=None, dual=None, sv_source=None, t0=0)
    results = []
    for order in orders:
        res = module.bsca(X, y, order, **state, **kw)
        state = dict(sv=res.sv, alpha=res.alpha, dual=res.dual, sv_source=res.sv_source, t0=res.t)
        results.append(res)
    return results


def assert_same_discrete_trace(fast_trace, ref_trace, keys, where):
    """Agreement of two result traces: the same keys, and under each of ``keys`` arrays of the
    same dtype and the same values (the discrete decisions, compared exactly)."""
    assert set(fast_trace) == set(ref_trace), where
    for key in keys:
        assert fast_trace[key].dtype == ref_trace[key].dtype, f"{where}: dtype of {key}"
        np.testing.assert_array_equal(fast_trace[key], ref_trace[key], err_msg=f"{where}: {key}")


REPO_ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def benchmark_module(name):
    """``benchmarks/<name>.py`` loaded by path (skipped where the tree has no benchmarks folder: an
    installed package), without leaving the source tree on sys.path (it must not shadow the
    installed package)."""
    import importlib.util
    import sys

    import pytest

    bench = REPO_ROOT / "benchmarks"
    if not (bench / f"{name}.py").is_file():
        pytest.skip("benchmarks/ is not part of this tree (installed package)")
    saved = list(sys.path)
    sys.path.insert(0, str(bench))
    try:
        spec = importlib.util.spec_from_file_location(f"_test_{name}", bench / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path[:] = saved


class StopAtWrite(Exception):
    """Raised by the write :func:`stop_after_writes` installs: the run ends as a kill right after
    that checkpoint write would end it."""


def stop_after_writes(patch, k):
    """Make the ``k``-th checkpoint write (``refsvm.estimators._checkpoint.write_checkpoint``) the
    last one: it writes, then raises :class:`StopAtWrite`.  ``patch``: a pytest monkeypatch (or its
    ``context()``)."""
    from refsvm.estimators import _checkpoint

    write, count = _checkpoint.write_checkpoint, [0]

    def stopping(*args, **kwargs):
        write(*args, **kwargs)
        count[0] += 1
        if count[0] == k:
            raise StopAtWrite

    patch.setattr(_checkpoint, "write_checkpoint", stopping)


def check_json_and_png(result, tmp_path, plot):
    """Write a reproduce ``result`` as JSON, read it back and, where matplotlib is installed (the plot
    extra; CI's test extra has none), draw its PNG with ``plot`` and check that it holds a picture."""
    import json

    from refsvm.reproduce.report import write_json, write_png

    write_json(result, tmp_path / "r.json")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    write_png(json.loads((tmp_path / "r.json").read_text()), tmp_path / "r.png", plot)
    assert (tmp_path / "r.png").stat().st_size > 1000


def slow_checkpoint_writes_source(pause):
    """Python source (for a killed-run script) that makes every checkpoint write sleep ``pause``
    seconds after writing: room for the kill between steps and inside writes."""
    return (
        "from refsvm.estimators import _checkpoint\n"
        "_write = _checkpoint.write_checkpoint\n"
        "def _slow_write(*args, **kwargs):\n"
        "    _write(*args, **kwargs)\n"
        f"    time.sleep({pause!r})\n"
        "_checkpoint.write_checkpoint = _slow_write\n")


def forked_runs_script(imports, child, pause):
    """The script of a SIGKILL test that trains several runs at once: argv = (the test module's folder,
    the output folder, backends, solver names); ``tests/`` and that folder go on the path, ``imports``
    run, checkpoint writes are slowed by ``pause`` s, then one forked process per backend and solver
    runs ``child`` (source using ``backend``, ``name``, ``folder``) and exits."""
    import textwrap

    return ("import os, sys, time\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))   # tests/: _helpers\n"
            + textwrap.dedent(imports) + slow_checkpoint_writes_source(pause)
            + "folder, backends, names = sys.argv[2], sys.argv[3].split(','), sys.argv[4].split(',')\n"
              "children = []\n"
              "for backend in backends:\n"
              "    for name in names:                  # one process per solver and backend, forked after the imports\n"
              "        pid = os.fork()\n"
              "        if pid == 0:\n"
            + textwrap.indent(textwrap.dedent(child), " " * 12)
            + "            os._exit(0)\n"
              "        children.append(pid)\n"
              "for pid in children:\n"
              "    os.waitpid(pid, 0)\n")


def kill_after_checkpoints(argv, cwd, written, latest):
    """Start ``argv`` in a session of its own, wait until every path of ``written`` exists (at most
    120 s, or until it ends), wait a random time in [0, ``latest``] s more and SIGKILL its process
    group; assert that the kill ended it."""
    import os
    import signal
    import subprocess
    import time

    proc = subprocess.Popen(argv, cwd=cwd, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not all(p.exists() for p in written) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.01)
        time.sleep(np.random.default_rng().uniform(0.0, latest))   # a random point after the first checkpoints
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL


def libsvm_text(X, y, skip_zeros=True):
    """LIBSVM lines of ``X``, ``y``: 1-based indices, values to 17 significant digits (read back
    bitwise), labels as ``:g``; zeros left out unless ``skip_zeros=False``."""
    return "".join(f"{label:g} " + " ".join(f"{j + 1}:{v:.17g}" for j, v in enumerate(row) if v or not skip_zeros)
                   + "\n" for row, label in zip(X, y))


def quick_reproduce(name, tmp_path, seconds=120):
    """``refsvm reproduce NAME --quick --n-jobs 2`` end to end, asserted to finish within ``seconds`` (the issue's
    2 minutes on 2 cores); returns its rows by ``(row, data set)``.  Skips when ``REFSVM_DATA`` is not set."""
    import json
    import os
    import time

    import pytest

    from refsvm.cli import main

    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set; the reproduction runs need the shared data")
    js = tmp_path / f"{name}.json"
    start = time.perf_counter()
    assert main(["reproduce", name, "--quick", "--n-jobs", "2", "--json", str(js)]) == 0
    assert time.perf_counter() - start < seconds
    return {(r["algorithm"], r["dataset"]): r for r in json.loads(js.read_text())["rows"]}


def committed_result(stem):
    """The committed ``benchmarks/results/STEM.json``; skips when this tree has no ``benchmarks/results`` (an
    installed package); a file missing from a source tree fails."""
    import json
    from pathlib import Path

    import pytest

    results = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
    if not results.is_dir():
        pytest.skip("benchmarks/results is not in this tree (an installed package)")
    return json.loads((results / f"{stem}.json").read_text())


def committed_rows(name):
    """The rows of the committed ``benchmarks/results/reproduce_NAME.json`` by ``(row, data set)``
    (:func:`committed_result`)."""
    return {(r["algorithm"], r["dataset"]): r for r in committed_result(f"reproduce_{name}")["rows"]}


def mpmath_60():
    """mpmath at 60 significant digits, the reference arithmetic of the rounding-bound tests (skips where mpmath is
    not installed: it is in the test extra)."""
    import pytest

    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 60
    return mp


def two_passes(solver, n, seed):
    """The oracle tests' visiting: two epochs (``epochs=2, seed``), or for a one-pass solver (IDSVM) one pass over
    two permutations of ``n`` drawn from ``seed`` concatenated (a repeat is a new example): as many steps."""
    from refsvm import oracle

    if not oracle.SOLVERS[solver].one_pass:
        return dict(epochs=2, seed=seed)
    rng = np.random.default_rng(seed)
    return dict(order=[np.concatenate([rng.permutation(n), rng.permutation(n)])], seed=seed)
