"""Shared fixtures.

Data sets: tests that need the LIBSVM files take the ``require_data`` fixture.
Without ``REFSVM_DATA`` they are skipped (with the reason shown by ``pytest -rs``);
with ``REFSVM_DATA`` set, a missing file is an error and the test fails.

Installed package: pytest runs with ``--import-mode=importlib`` (see
pyproject.toml), so ``import refsvm`` finds the installed package, not the
source tree.  CI sets ``REFSVM_REQUIRE_INSTALLED=1`` to make sure of it.
"""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


# The tests never reach the internet: load_libsvm's automatic download is off for the whole run
# (tests of refsvm.io.fetch serve their files from a local HTTP server on 127.0.0.1).
os.environ["REFSVM_NO_DOWNLOAD"] = "1"


def pytest_report_header(config):
    try:
        import refsvm
    except ImportError as exc:  # reported again, as a failure, by the tests
        return f"refsvm: NOT IMPORTABLE ({exc})"
    data = os.environ.get("REFSVM_DATA") or "unset: data-set tests are skipped"
    return [f"refsvm: {', '.join(refsvm.__path__)}", f"REFSVM_DATA: {data}"]


def pytest_sessionstart(session):
    if os.environ.get("REFSVM_REQUIRE_INSTALLED", "0") in ("", "0"):
        return
    import refsvm

    locations = [Path(p).resolve() for p in refsvm.__path__]
    if REPO / "refsvm" in locations:
        pytest.exit(
            f"REFSVM_REQUIRE_INSTALLED is set but refsvm was imported from the source "
            f"tree ({REPO / 'refsvm'}), not from the installed package",
            returncode=3,
        )


@pytest.fixture(scope="session")
def _data_cache():
    return {}


@pytest.fixture
def require_data(_data_cache):
    """Return ``load(name, standardize=False) -> (X_train, y_train, X_test, y_test)``.

    Skips the test when ``REFSVM_DATA`` is unset; otherwise loads with
    :func:`refsvm.datasets.load_libsvm` and lets ``FileNotFoundError``
    propagate (the test fails).  Arrays are cached per session and copied on
    every call, so a test may modify what it gets.
    """

    def load(name, *, standardize=False):
        if not os.environ.get("REFSVM_DATA"):
            pytest.skip(f"REFSVM_DATA is not set; data set {name!r} unavailable")
        from refsvm.datasets import load_libsvm

        key = (os.environ["REFSVM_DATA"], name, standardize)
        if key not in _data_cache:
            _data_cache[key] = load_libsvm(name, standardize=standardize)
        return tuple(None if a is None else a.copy() for a in _data_cache[key])

    return load
