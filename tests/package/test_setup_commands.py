"""Package: the README's two set-up commands build the extension once, and .ci/run installs as they do."""

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
    assert first == 'pip install ".[test]" && refsvm demo'
    assert "pip install" not in second and second.strip() == "pytest"   # reuses the first command's build


def test_ci_installs_what_the_readme_installs():
    ci = ROOT / ".ci" / "run"
    if not ci.is_file():
        pytest.skip(".ci/run is not shipped here")
    installs = re.findall(r'^[^#\n]*pip install --quiet "(\.\[[a-z,]+\])"', ci.read_text(), flags=re.M)
    assert installs == [".[test,docs]"]
    first, _ = _first_commands()
    assert set(re.search(r'"\.\[([a-z,]+)\]"', first).group(1).split(",")) <= set(installs[0][2:-1].split(","))
