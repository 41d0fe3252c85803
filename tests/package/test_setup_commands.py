"""Package: the README's two set-up commands build the extension once, and .ci/run installs what they install.

.ci/run compiles once: it builds a wheel from the sdist of the committed tree (``python -m build``)
and installs that wheel with the docs extra, the package the README's ``pip install .`` installs
(same PEP 517 backend, isolated build), then adds the test extra with the README's second command.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _first_commands(n=2):
    readme = ROOT / "README.md"
    if not readme.is_file():
        pytest.skip("README.md is not shipped here")
    return re.findall(r"^```\n(.*?)\n```", readme.read_text(), flags=re.M | re.S)[:n]


def test_two_commands_and_one_build():
    first, second = _first_commands()
    assert first == "pip install . && refsvm demo"
    # the second adds the installed refsvm's test extra (a requirement, not a path: nothing is built again)
    assert second == 'pip install "refsvm[test]" && pytest'


def test_ci_installs_what_the_readme_installs():
    ci = ROOT / ".ci" / "run"
    if not ci.is_file():
        pytest.skip(".ci/run is not shipped here")
    text = ci.read_text()
    installs = re.findall(r'^[^#\n]*pip install --quiet "([^"]*\[[a-z,]+\])"', text, flags=re.M)
    # the wheel built from the sdist, with the docs extra; then the README's test extra (and dask)
    assert installs == ['$wheel[docs]', "refsvm[test]", "refsvm[dask]"]
    assert re.search(r'^\(cd "\$work/src" && python -m build --outdir "\$work/dist"', text, flags=re.M)
    # one compile: nothing else builds the package from a path
    assert not re.search(r'^[^#\n]*pip (install|wheel) [^\n]*"?\.(\[|"|\s|$)', text, flags=re.M)
    _, second = _first_commands()
    pip_part, test_part = second.split(" && ")
    assert pip_part.replace("pip install ", "pip install --quiet ") in text
    assert re.search(r"^pytest$", text, flags=re.M)
