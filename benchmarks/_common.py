"""Helpers shared by the benchmark scripts (importable because a script's own
directory is first on sys.path when run as ``python benchmarks/<script>.py``)."""

import platform


def cpu_model():
    """The CPU's model name from /proc/cpuinfo (``platform.processor()`` elsewhere)."""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def cpu_extensions():
    """The CPU's vector extensions that decide the compiled clones' speed (AVX-512F, AVX2, FMA, SSE4.2),
    from /proc/cpuinfo's flags ("" where unknown)."""
    try:
        with open("/proc/cpuinfo") as fh:
            flags = next((line.split(":", 1)[1].split() for line in fh if line.startswith("flags")), [])
    except OSError:
        flags = []
    names = {"avx512f": "AVX-512F", "avx2": "AVX2", "fma": "FMA", "sse4_2": "SSE4.2"}
    return ", ".join(v for k, v in names.items() if k in flags)


def run_times(fn, repeats):
    """Wall-clock seconds of ``repeats`` calls of ``fn()`` (time.perf_counter), in call order."""
    import time

    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def kernel_block_seconds(X, budget, gamma, repeats):
    """Least seconds of ``repeats`` computations of one n x B Gaussian kernel block of the dense
    ``X`` (n, d) against its first B rows, written as a numpy user would (squared norms plus one
    BLAS product, clipped, exp): the cost of n margins at B SVs, the bound an epoch is compared with."""
    import time

    import numpy as np

    S = X[:budget]
    times = []
    for _ in range(repeats + 1):                   # the first (page faults, BLAS start-up) not counted
        start = time.perf_counter()
        d2 = (X * X).sum(1)[:, None] + (S * S).sum(1)[None, :] - 2.0 * X @ S.T
        np.exp(-gamma * np.maximum(d2, 0.0))
        times.append(time.perf_counter() - start)
    return min(times[1:])


def print_run_header(script, argv):
    """Print the ``command:`` and ``machine:`` lines of a benchmark's output.

    ``script``: the path as typed (``benchmarks/bench_x.py``); ``argv``: the
    arguments given to ``main`` (None: ``sys.argv[1:]``).  The machine line
    names the CPU, cores, platform, python / numpy / refsvm versions, the git
    commit, the time and the load average (the machine is shared).
    """
    import datetime
    import os
    import shlex
    import subprocess
    import sys

    import numpy as np
    import refsvm

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=False).stdout.strip()
    except OSError:
        commit = "?"
    print(f"command: python {script} " + shlex.join(sys.argv[1:] if argv is None else argv))
    print(f"machine: {cpu_model()} [{cpu_extensions()}] ({os.cpu_count()} logical cores), {platform.platform()}, "
          f"python {platform.python_version()}, numpy {np.__version__}, refsvm {refsvm.__version__} "
          f"(git {commit}), {datetime.datetime.now().isoformat(timespec='seconds')}, "
          f"loadavg {', '.join(f'{v:.2f}' for v in os.getloadavg())}")


def write_json(path, rows):
    """Write ``rows`` to ``path`` as indented JSON (the ``--json PATH`` option); nothing when ``path`` is None."""
    import json

    if path:
        with open(path, "w") as fh:
            json.dump(rows, fh, indent=1)
