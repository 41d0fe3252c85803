"""The package layout: no import circles, one folder per layer, old module paths still importable.

The circle check reads every ``import`` of every module under ``refsvm/``
(deferred imports inside functions too) as the project's before-stop hook
does: an edge to the package ``refsvm`` itself or to a module's own parent
package does not count (a package's ``__init__`` importing its modules is
not a circle).
"""

import ast
import importlib
import sys
import warnings
from pathlib import Path

import pytest

import refsvm

PACKAGE = Path(refsvm.__file__).resolve().parent


def _modules():
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ("refsvm",) + path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts)
        mods[name[: -len(".__init__")] if name.endswith(".__init__") else name] = path
    return mods


def _import_graph(mods):
    graph = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(max(node.level - 1, 0)):
                    base = base.rsplit(".", 1)[0]
                full = (base + "." + node.module if node.module else base) if node.level else (node.module or "")
                targets = [full + "." + a.name for a in node.names if full + "." + a.name in mods] or [full]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for t in targets:
                while t and t not in mods and "." in t:
                    t = t.rsplit(".", 1)[0]
                if t in mods and t != name and t != "refsvm" and not name.startswith(t + "."):
                    graph[name].add(t)
    return graph


def _circles(graph):
    def reach(a):
        seen, todo = set(), [a]
        while todo:
            for w in graph[todo.pop()]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        return seen

    return sorted({tuple(sorted((a, b))) for a in graph for b in graph[a] if a in reach(b)})


def test_the_checker_finds_a_circle():
    # the check itself can fail: a made-up graph with a circle is reported
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b"), ("a", "c"), ("b", "c")]


def test_no_import_circles():
    assert _circles(_import_graph(_modules())) == []


def test_algorithm_modules_import_no_other_layer():
    """The reading layer (one module per paper algorithm + shared pieces) never imports the
    estimators, the command line, input/output or the reproduction runner."""
    graph = _import_graph(_modules())
    layers = ("refsvm.estimators", "refsvm.cli", "refsvm.io", "refsvm.reproduce")
    for name in ("refsvm.bsgd", "refsvm.bsca", "refsvm.sbp", "refsvm.fogd", "refsvm.nogd", "refsvm.online",
                 "refsvm.kernels", "refsvm.budget", "refsvm.lookup", "refsvm.ogd"):
        bad = [t for t in graph[name] if t.startswith(layers)]
        assert bad == [], f"{name} imports {bad}"


@pytest.mark.parametrize("old, new", [
    ("refsvm.libsvm_io", "refsvm.io.libsvm"),
    ("refsvm.progress", "refsvm.estimators._progress"),
    ("refsvm.reproduce_tables", "refsvm.reproduce.tables"),
    ("refsvm.reproduce_curves", "refsvm.reproduce.curves"),
])
def test_old_module_paths_import_with_a_deprecation_warning(old, new):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


def test_datasets_is_a_public_name_without_warning():
    sys.modules.pop("refsvm.datasets", None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        import refsvm.datasets as datasets
        from refsvm.datasets import checkerboard, load_libsvm  # noqa: F401
    assert datasets is importlib.import_module("refsvm.io.datasets")
    assert refsvm.datasets is datasets


def test_public_names_unchanged():
    for name in ("BudgetedSVC", "BudgetedModel", "load_libsvm", "__version__", "SBPClassifier", "BSCAClassifier",
                 "FOGDClassifier", "FOGDRegressor", "NOGDClassifier", "NOGDRegressor", "OnlineKernelClassifier",
                 "ConstantModelWarning", "FeatureScaleWarning"):
        assert name in refsvm.__all__ and hasattr(refsvm, name)
