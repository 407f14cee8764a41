"""The services above the repositories run on fakeredis (``tests/storage`` runs the repositories on fakeredis,
a real Redis and a Redis Cluster)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.services import Services
from tests.backends import Backend, backend_of, services_on
from tests.bot.helpers import Members


@pytest.fixture
def members() -> Members:
    """Who is in which chat, as the services' Telegram would say (everyone a member, nobody an admin, until a
    test says otherwise)."""
    return Members()


@pytest.fixture(params=["fake"])
async def services(request: pytest.FixtureRequest, members: Members) -> AsyncIterator[Services]:
    """The services on fakeredis, under a prefix of the test's own; ``members`` says who is in which chat."""
    async for built in services_on(request, request.param, membership=members.membership):
        yield built


@pytest.fixture
def backend(request: pytest.FixtureRequest, services: Services) -> Backend:
    """The Redis behind ``services``, for more clients and services on it."""
    return backend_of(request)
