"""Helpers shared by the benchmark scripts (importable because a script's own
directory is first on sys.path when run as ``python benchmarks/<script>.py``).

Results files: every JSON a script writes goes through :func:`write_json` with the modules the
script exercises (its ``MODULES`` list), which adds the ``"provenance"`` object of
:mod:`refsvm._provenance` (command, commit, machine with CPU vector extensions, fingerprint of the
source files).  ``python benchmarks/stale.py`` lists the results whose fingerprint no longer matches
the code; ``python benchmarks/docnumbers.py --write`` prints their numbers into README.md and docs/.
"""

import platform

from refsvm._provenance import (cpu_extensions, cpu_model, fingerprint, provenance,  # noqa: F401 (re-exported)
                                source_files, with_provenance)

#: The note every rerun on the shared development machine records (its timings are inflated).
SHARED_NOTE = "shared 2-core machine (other jobs running): timings inflated and noisy; accuracies unaffected"


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


def add_options(parser, type, **defaults):
    """Add to ``parser`` one ``--name`` option per keyword (underscores written as dashes), of type
    ``type``, its default the keyword's value (kept as given: argparse converts only typed values)."""
    for name, default in defaults.items():
        parser.add_argument("--" + name.replace("_", "-"), type=type, default=default)


def parse_or_run_case(parser, argv, cases, run_case, script):
    """The arguments of a benchmark that measures each case in a process of its own (it calls itself
    with the hidden ``--case``): adds ``--case`` (one of ``cases``) and ``--json PATH`` to ``parser``
    and parses ``argv``.  In the child (``--case`` given) runs ``run_case(args)`` and returns None; in
    the parent prints the run header of ``script`` (:func:`print_run_header`) and returns the arguments."""
    import argparse

    parser.add_argument("--case", choices=cases, help=argparse.SUPPRESS)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    if args.case:
        run_case(args)
        return None
    print_run_header(script, argv)
    return args


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


def write_output(path, script, argv, text):
    """Write a benchmark's printed table to ``path`` (the ``--output PATH`` option; nothing when ``path`` is None):
    its ``command:`` line (``script`` as typed, ``argv`` as for :func:`print_run_header`), a blank line and
    ``text``."""
    import shlex
    import sys

    if not path:
        return
    with open(path, "w") as fh:
        fh.write(f"command: python {script} " + shlex.join(sys.argv[1:] if argv is None else argv) + "\n\n" + text
                 + "\n")


def write_json(path, rows, modules=None, note=None, command=None):
    """Write ``rows`` to ``path`` as indented JSON (the ``--json PATH`` option); nothing when ``path`` is None.

    ``modules``: what the run exercised (see :func:`refsvm._provenance.source_files`; the calling
    script is always added): the file then starts with a ``"provenance"`` object (a list ``rows``
    is stored as ``{"rows": rows}``).  ``note``: free text recorded in the provenance.
    """
    import json
    import sys

    if not path:
        return
    if modules is not None:
        rows = with_provenance(rows, [*modules, sys.argv[0]], command=command, note=note)
    with open(path, "w") as fh:
        json.dump(rows, fh, indent=1, default=_json_default)


def _json_default(o):
    import numpy as np

    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)
