"""Fixtures of the reproduce tests: ``parsed_once`` (each data set parsed once per session for quick runs)."""

import pytest

from refsvm.reproduce import driver

_LOADED = {}
_load_dataset = driver.load_dataset


def _cached_load(ds, quick_rows, quick):
    key = (ds.file, ds.label, ds.max_train, ds.max_test, ds.standardize, quick_rows, quick)
    if key not in _LOADED:
        _LOADED[key] = _load_dataset(ds, quick_rows, quick)
    return _LOADED[key]


@pytest.fixture
def parsed_once(monkeypatch):
    """``driver.load_dataset`` memoised across the session: quick runs of several tables on the same files
    parse each file once (parsing a9a or ijcnn1 costs about a second, most of a quick run)."""
    monkeypatch.setattr(driver, "load_dataset", _cached_load)
