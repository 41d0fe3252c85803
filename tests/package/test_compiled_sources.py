"""The compiled layer's textual includes: every ``.pxi`` under refsvm/_fast is included by a ``.pyx``,
is part of that module's provenance fingerprint, and ships in the source distribution (MANIFEST.in)."""

import fnmatch
import re
from pathlib import Path

import pytest

import refsvm
from refsvm._provenance import source_files

FAST = Path(refsvm.__file__).resolve().parent / "_fast"
ROOT = FAST.parent.parent
INCLUDE = re.compile(r'^include\s+"([^"]+)"', re.M)


def _includes(path):
    return INCLUDE.findall(path.read_text())


def _pxi_files():
    files = sorted(FAST.glob("*.pxi"))
    if not files or not list(FAST.glob("*.pyx")):
        pytest.skip("no Cython sources in this tree")
    return files


def test_every_pxi_is_included_by_one_extension_module_and_fingerprinted():
    owners = {}
    for pyx in sorted(FAST.glob("*.pyx")):
        todo = [pyx]
        while todo:                                   # includes of includes belong to the same module
            for name in _includes(todo.pop()):
                assert name not in owners, f"{name} included by {owners[name]} and {pyx.name}"
                owners[name] = pyx.name
                todo.append(FAST / name)
    for pxi in _pxi_files():
        assert pxi.name in owners, f"{pxi.name} is included by no .pyx"
        module = "refsvm._fast." + owners[pxi.name][: -len(".pyx")]
        assert f"refsvm/_fast/{pxi.name}" in source_files([module], root=ROOT)


def test_every_pxi_ships_in_the_sdist():
    manifest = ROOT / "MANIFEST.in"
    if not manifest.is_file():
        pytest.skip("no MANIFEST.in next to the package")
    patterns = []
    for line in manifest.read_text().splitlines():
        words = line.split()
        if len(words) > 2 and words[0] == "recursive-include" and words[1].rstrip("/") == "refsvm/_fast":
            patterns += words[2:]
    for pxi in _pxi_files():
        assert any(fnmatch.fnmatch(pxi.name, p) for p in patterns), f"{pxi.name} not in MANIFEST.in"
