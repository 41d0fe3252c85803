"""How long the README's first two commands take on a fresh machine: ``pip install . && refsvm demo``
(the install compiles the Cython extension modules), then ``pip install "refsvm[test]" && pytest``, which adds
the test extra's dependencies to that installation without building again.

    python benchmarks/bench_setup.py --json benchmarks/results/bench_setup.json [--pytest]

A fresh virtual environment in a temporary folder; the committed tree (``git archive HEAD``, so no build
folder or compiled file of the checkout is reused); pip's own cache and index settings as configured on
the machine (wheels of the dependencies may come from a local cache: the time measured is mostly the
compilation).  Records wall and CPU seconds of each command and the load average before and after (the
development machine is shared, so the wall time is inflated).  ``--pytest`` also times the second
command (the whole suite: long; off by default).
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import SHARED_NOTE, write_json

ROOT = Path(__file__).resolve().parent.parent
#: what decides the install time: the build configuration (the extension sources change it little)
MODULES = ["./pyproject.toml", "setup.py"]     # ("./": a path, not a dotted module name)


def timed(cmd, cwd, env):
    """``(wall seconds, CPU seconds of the children, exit status)`` of ``cmd`` (a shell command)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    rc = subprocess.run(cmd, shell=True, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, rc


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", default=None)
    ap.add_argument("--pytest", action="store_true", help="also time the second command (the whole suite)")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="refsvm-setup-"))
    rows = []
    try:
        src = work / "src"
        src.mkdir()
        subprocess.run(f"git -C {ROOT} archive HEAD | tar -x -C {src}", shell=True, check=True)
        subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True)
        env = dict(os.environ, PATH=f"{work / 'venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
                   VIRTUAL_ENV=str(work / "venv"))
        env.pop("PYTHONPATH", None)
        commands = ["pip install .", "refsvm demo", 'pip install "refsvm[test]"'] + (["pytest"] if args.pytest else [])
        for cmd in commands:
            load_before = os.getloadavg()[0]
            wall, cpu, rc = timed(cmd, src, env)
            rows.append({"command": cmd, "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
                         "exit_status": rc, "loadavg_before": round(load_before, 2),
                         "loadavg_after": round(os.getloadavg()[0], 2)})
            print(f"{cmd}: {wall:.1f} s wall, {cpu:.1f} s CPU, exit {rc}, load {load_before:.2f} -> "
                  f"{os.getloadavg()[0]:.2f}", flush=True)
            if rc != 0:
                break
    finally:
        shutil.rmtree(work, ignore_errors=True)
    write_json(args.json, rows, modules=MODULES, note=SHARED_NOTE)
    return 0 if rows and all(r["exit_status"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
