"""The validation package: refsvm.validation re-exports every check of its family modules (arrays,
parameters, arguments), and every name the code imports from refsvm.validation exists there."""

import ast
import importlib
from pathlib import Path

import pytest

import refsvm
import refsvm.validation as validation

PACKAGE = Path(refsvm.__file__).resolve().parent
#: the repository (the test runs from it; the installed package holds no .pyx and no tests/)
ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "refsvm" if (ROOT / "refsvm" / "_fast").is_dir() else PACKAGE
FAMILIES = ("arrays", "parameters", "arguments")


def _defined_names(module):
    """The functions, classes and constants a module defines itself (not the ones it imports)."""
    tree = ast.parse(Path(module.__file__).read_text())
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return names


@pytest.mark.parametrize("family", FAMILIES)
def test_the_package_reexports_every_name_of_a_family(family):
    module = importlib.import_module(f"refsvm.validation.{family}")
    names = _defined_names(module)
    assert names
    for name in names:
        assert getattr(validation, name, None) is getattr(module, name), f"refsvm.validation.{name}"


def test_the_families_define_disjoint_names():
    seen = {}
    for family in FAMILIES:
        for name in _defined_names(importlib.import_module(f"refsvm.validation.{family}")):
            assert name not in seen, f"{name} defined in {seen.get(name)} and {family}"
            seen[name] = family


def _imports_from_validation(path):
    """``(module, name)`` of every ``from ... validation import name`` in ``path`` (refsvm's validation
    only: ``sklearn.utils.validation`` is another module)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[-1] == "validation":
            if node.level == 0 and not node.module.startswith("refsvm"):
                continue
            found += [(node.module, a.name) for a in node.names]
    return found


def test_every_name_imported_from_validation_exists():
    paths = [p for d in ("tests", "benchmarks") if (ROOT / d).is_dir() for p in (ROOT / d).rglob("*.py")]
    paths += list(SOURCES.rglob("*.py"))
    paths += [p for p in (SOURCES / "_fast").glob("*.p*") if p.suffix in (".pyx", ".pxi")]
    imported = set()
    for path in paths:
        if SOURCES / "validation" in path.parents:
            continue
        try:
            imported |= {name for _, name in _imports_from_validation(path)}
        except SyntaxError:                      # Cython sources: read their plain Python imports only
            for line in path.read_text().splitlines():
                if line.startswith("from refsvm.validation import "):
                    imported |= {n.strip(" ()") for n in line.split(" import ", 1)[1].split("#")[0].split(",")}
    assert "check_sample_weight" in imported and "check_bsgd_arguments" in imported   # the scan finds imports
    missing = sorted(n for n in imported if n and not hasattr(validation, n))
    assert missing == []
