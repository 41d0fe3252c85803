"""Provenance of a measurement: which code, which machine, which command produced a results file.

Every results JSON written by a benchmark script (``benchmarks/bench_*.py``) or by ``refsvm
reproduce --json`` carries a top-level ``"provenance"`` object made by :func:`provenance`::

    {"command": "python benchmarks/bench_bsgd.py ...", "commit": "9d365ce" (+ "-dirty"),
     "started": ISO time, "finished": ISO time,
     "machine": {"cpu": ..., "logical_cores": 2, "extensions": ["AVX-512F", "AVX2", "FMA", ...],
                 "platform": ..., "loadavg": [...]},
     "python": "3.11.9", "numpy": "2.1.0", "refsvm": "...",
     "fingerprint": {"files": ["refsvm/bsgd.py", "refsvm/_fast/bsgd.pyx", ...], "sha256": "..."},
     "note": "..."}

The fingerprint is a SHA-256 over the source files of the modules the run exercises (each
benchmark script declares them; ``benchmarks/stale.py`` recomputes it and lists the results whose
code changed since).  :func:`source_files` turns declared names into files:

- a dotted Python module (``"refsvm.bsgd"``) is its ``.py`` file; a package (``"refsvm.online"``)
  all ``.py`` files under it;
- a compiled module (``"refsvm._fast.bsgd"``) is its ``.pyx`` plus, transitively, every ``.pxd``,
  ``.pxi`` and ``.h`` it ``cimport``s, ``include``s or takes ``extern`` declarations from, and the
  ``.pyx`` behind each cimported ``.pxd`` (its C functions run too); Python-level imports are not
  followed: declare them;
- anything else is a path relative to the repository root (``"benchmarks/bench_bsgd.py"``).

In an installed package without its ``.pyx`` sources, a compiled module is its built ``.so``.

The fingerprint is over the files as they were when this module was first imported (the start
of a benchmark script, which imports it through ``benchmarks/_common.py``); files edited during
the run are listed in ``"changed_during_run"``.  ``commit`` ends in ``-dirty`` when a
fingerprinted file differs from the commit.  This module
imports nothing from refsvm, so the benchmark scripts (``benchmarks/_common.py`` re-exports it)
and :mod:`refsvm.reproduce` share it without refsvm depending on ``benchmarks/``.
"""

import datetime
import hashlib
import os
import platform
import re
import shlex
import subprocess
import sys
from pathlib import Path

__all__ = ["ROOT", "SPEC_MODULES", "spec_file", "cpu_model", "cpu_extensions", "source_files", "loaded_modules", "fingerprint", "git_commit",
           "provenance", "with_provenance", "STARTED"]

#: The directory holding the ``refsvm`` package (the repository root in a source checkout).
ROOT = Path(__file__).resolve().parent.parent
#: When this module was first imported: the start time of the run that writes the results.
STARTED = datetime.datetime.now().isoformat(timespec="seconds")
_SOURCE_SUFFIXES = (".py", ".pyx", ".pxd", ".pxi", ".h")

_EXTENSIONS = {"avx512f": "AVX-512F", "avx2": "AVX2", "fma": "FMA", "sse4_2": "SSE4.2"}
_DEPENDS = re.compile(r'^\s*(?:from\s+([\w.]+)\s+cimport|cimport\s+([\w.]+)|include\s+"([^"]+)"'
                      r'|cdef\s+extern\s+from\s+"([^"]+)")', re.M)


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
    from /proc/cpuinfo's flags ("" where unknown), comma-separated."""
    try:
        with open("/proc/cpuinfo") as fh:
            flags = next((line.split(":", 1)[1].split() for line in fh if line.startswith("flags")), [])
    except OSError:
        flags = []
    return ", ".join(v for k, v in _EXTENSIONS.items() if k in flags)


def _module_files(name, root):
    rel = Path(*name.split("."))
    if (root / rel).is_dir():
        return sorted(p.relative_to(root) for p in (root / rel).rglob("*.py"))
    for ext in (".py", ".pyx"):
        if (root / rel.with_suffix(ext)).is_file():
            return [rel.with_suffix(ext)]
    built = sorted((root / rel.parent).glob(rel.name + ".*.so")) + sorted((root / rel.parent).glob(rel.name + ".*.pyd"))
    if built:                                      # an installed package without its sources: the binary
        return [built[0].relative_to(root)]
    raise ValueError(f"modules: {name!r} is neither a module nor a package under {root}")


def _compile_closure(files, root):
    """``files`` plus every .pxd / .pxi / .h the Cython files among them read at compile time."""
    todo, seen = list(files), set()
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        if rel.suffix not in (".pyx", ".pxd", ".pxi"):
            continue
        for twin in (rel.with_suffix(".pxd"), rel.with_suffix(".pyx")):   # a cimported module's code runs too
            if twin != rel and (root / twin).is_file():
                todo.append(twin)
        for m in _DEPENDS.finditer((root / rel).read_text()):
            module, module2, include, header = m.groups()
            dotted = module or module2
            if dotted:
                if not dotted.startswith("refsvm"):
                    continue                       # libc, numpy, cython: not ours
                cand = Path(*dotted.split(".")).with_suffix(".pxd")
            else:
                cand = rel.parent / (include or header)
            if (root / cand).is_file():
                todo.append(cand)
    return seen


def source_files(modules, root=None):
    """Sorted repository-relative paths (strings) of the source files behind ``modules``
    (dotted module / package names or paths; see the module docstring)."""
    root = ROOT if root is None else Path(root)
    files = set()
    for name in modules:
        name = str(name)
        path = Path(name)
        if name.endswith((".py", ".pyx", ".pxd", ".pxi", ".h", ".json", ".md", ".txt")) or "/" in name:
            if path.is_absolute():
                path = path.resolve().relative_to(root)
            if not (root / path).is_file():
                raise ValueError(f"modules: {name!r} is no file under {root}")
            files.add(path)
        else:
            files.update(_module_files(name, root))
    return sorted(str(p) for p in _compile_closure(files, root))


#: Modules that format or explain a result but compute none of its numbers: left out of a run's
#: fingerprint, and a change to them does not make a result stale (``refsvm reproduce --render``
#: reprints a stored result with today's text and gap reasons).
PRESENTATION_MODULES = ("refsvm.cli", "refsvm.plotting", "refsvm._provenance", "refsvm.reproduce.report",
                        "refsvm.reproduce.gaps")


#: The modules describing ``refsvm reproduce``'s tables: ``refsvm/reproduce/tables*.py`` (one per paper
#: family) and ``spec.py`` (their dataclasses).  A reproduce result is fingerprinted by the run
#: specification of the rows and data sets it ran (``provenance.table_spec``,
#: :func:`refsvm.reproduce.spec.spec_digest`) instead of these files, so that a new table, another
#: table's change or the paper's column leaves it current.  Matched as name prefixes.
SPEC_MODULES = ("refsvm.reproduce.spec", "refsvm.reproduce.tables")


def _dotted(path):
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def presentation_file(path):
    """Whether the repository-relative source ``path`` belongs to :data:`PRESENTATION_MODULES`."""
    dotted = _dotted(path)
    return any(dotted == m or dotted.startswith(m + ".") for m in PRESENTATION_MODULES)


def spec_file(path):
    """Whether the repository-relative source ``path`` is a table-description module
    (:data:`SPEC_MODULES`)."""
    return _dotted(path).startswith(SPEC_MODULES)


def loaded_modules(exclude=PRESENTATION_MODULES):
    """The source files (repository-relative paths, compiled modules as dotted names) of the refsvm
    modules this process has imported (what a run such as ``refsvm reproduce`` exercised), less
    ``exclude`` and their submodules (output formatting, not numbers; with :data:`SPEC_MODULES` in
    ``exclude``: every module whose name starts with one of them).  A module is taken by its
    ``__file__``, so an alias (``refsvm.datasets`` for ``refsvm.io.datasets``) is its real file."""
    out = set()
    for name, mod in list(sys.modules.items()):
        if not (name == "refsvm" or name.startswith("refsvm.")) or \
                any(name == e or name.startswith(e + ".") for e in exclude) or \
                (SPEC_MODULES[0] in exclude and name.startswith(SPEC_MODULES)):
            continue
        try:
            rel = Path(getattr(mod, "__file__", None) or "").resolve().relative_to(ROOT)
        except ValueError:
            continue                               # no file, or not in this tree
        if rel.suffix == ".py":
            out.add(str(rel))
        elif rel.suffix in (".so", ".pyd"):        # compiled: its .pyx and what the compiler read
            out.add(".".join(rel.parent.parts + (rel.name.split(".")[0],)))
    return sorted(out)


def _digest(path):
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


def _snapshot(root):
    """SHA-256 of every source file under ``root``/refsvm and ``root``/benchmarks, by relative path."""
    out = {}
    for sub in ("refsvm", "benchmarks"):
        for path in (root / sub).rglob("*"):
            if path.suffix in _SOURCE_SUFFIXES and path.is_file():
                out[str(path.relative_to(root))] = _digest(path)
    return out


#: The source files as they were when the run started (this module's import): a results file
#: is fingerprinted with the code that ran, even when the tree changes during a long run.
_AT_START = _snapshot(ROOT)


def fingerprint(files, root=None):
    """``{"files": files, "sha256": ..., "per_file": {file: first 16 hex digits}}``: one SHA-256 over
    each file's path and the SHA-256 of its bytes, in sorted order (a missing file counts as the text
    ``missing``), and each file's own digest (to say which files changed)."""
    root = ROOT if root is None else Path(root)
    total, each = hashlib.sha256(), {}
    start = _AT_START if root == ROOT else {}
    for rel in sorted(files):
        digest = start.get(rel) or _digest(root / rel)
        total.update(f"{rel}\0{digest}\n".encode())
        each[rel] = digest[:16]
    return {"files": sorted(files), "sha256": total.hexdigest(), "per_file": each}


def git_commit(files=(), root=None):
    """Short commit of HEAD, with ``-dirty`` when one of ``files`` has uncommitted changes ("?" outside git)."""
    root = ROOT if root is None else Path(root)
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                                text=True, check=False).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", *files], cwd=root,
                               capture_output=True, text=True, check=False).stdout.strip() if files else ""
    except OSError:
        return "?"
    return (commit or "?") + ("-dirty" if dirty else "")


def provenance(modules, command=None, note=None, root=None):
    """The ``"provenance"`` object of a results file (see the module docstring).

    ``modules``: what the run exercises (:func:`source_files`); ``command``: the command line as
    typed (None: ``python`` + ``sys.argv``); ``note``: free text (e.g. "shared machine, timings
    inflated").
    """
    import numpy as np

    files = source_files(modules, root)
    try:
        from refsvm._version import __version__ as version
    except ImportError:                           # pragma: no cover - a partial checkout
        version = "?"
    out = {
        "command": command if command is not None else _command_line(),
        "commit": git_commit(files, root),
        "started": STARTED,
        "finished": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": {"cpu": cpu_model(), "logical_cores": os.cpu_count(),
                    "extensions": [e for e in cpu_extensions().split(", ") if e],
                    "platform": platform.platform(),
                    "loadavg": [round(v, 2) for v in os.getloadavg()] if hasattr(os, "getloadavg") else None},
        "python": platform.python_version(), "numpy": np.__version__, "refsvm": version,
        "fingerprint": fingerprint(files, root),
    }
    root_ = ROOT if root is None else Path(root)
    moved = [f for f in files if root_ == ROOT and f in _AT_START and _AT_START[f] != _digest(root_ / f)]
    if moved:                                      # the fingerprint is the start's; say what moved since
        out["changed_during_run"] = moved
        out["commit"] = out["commit"].removesuffix("-dirty") + "-dirty"
    if note:
        out["note"] = note
    return out


def _command_line():
    """The command line as typed: ``refsvm ...`` for the console script, else ``python ...``."""
    if Path(sys.argv[0]).name == "refsvm":
        return "refsvm " + shlex.join(sys.argv[1:])
    return "python " + shlex.join(sys.argv)


def with_provenance(data, modules, command=None, note=None, root=None):
    """``data`` (a dict, or a list stored as ``{"rows": data}``) with a ``"provenance"`` entry first."""
    body = dict(data) if isinstance(data, dict) else {"rows": data}
    body.pop("provenance", None)
    return {"provenance": provenance(modules, command, note, root), **body}
