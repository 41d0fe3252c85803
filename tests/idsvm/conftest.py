"""The backend fixtures of tests/idsvm (both paths; the compiled module is part of every build: no skip)."""

import pytest

from refsvm.backend import get_module


@pytest.fixture(params=["python", "fast"])
def backend(request):
    """The backend under test (the compiled module is part of every build: no skip)."""
    return request.param


@pytest.fixture
def idsvm(backend):
    return get_module("idsvm", backend).idsvm
