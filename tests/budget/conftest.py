"""Fixtures of the budget-maintenance tests."""

import pytest


@pytest.fixture
def no_pruning():
    """The compiled merge's partner pruning switched off for the test (the plain scan)."""
    from refsvm._fast import budget as fast_budget
    previous = fast_budget._set_merge_pruning(False)
    try:
        yield
    finally:
        fast_budget._set_merge_pruning(previous)
