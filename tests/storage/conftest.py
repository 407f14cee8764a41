"""The storage tests run on fakeredis and on a real Redis (``TEST_REDIS=cluster``: a three-master Redis
Cluster): what the repositories' scripts do must be the same on each."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.services import Services, Stores
from tests.backends import Backend, backend_of, services_on


@pytest.fixture(params=["fake", "real"])
async def services(request: pytest.FixtureRequest) -> AsyncIterator[Services]:
    """The services on fakeredis, then on the real Redis, under a prefix of the test's own."""
    async for built in services_on(request, request.param):
        yield built


@pytest.fixture
def backend(request: pytest.FixtureRequest, services: Services) -> Backend:
    """The Redis behind ``services``, for more clients and services on it."""
    return backend_of(request)


@pytest.fixture
def stores(services: Services) -> Stores:
    """The repositories behind ``services``."""
    return services.stores


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every storage test runs again on a Redis Cluster (``.ci/run``: ``-m cluster``)."""
    for item in items:
        if "tests/storage/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.cluster)
