"""The Redis behind the service and storage tests: fakeredis in the test's process, or a real server (with
``TEST_REDIS=cluster``, a Redis Cluster of three masters), each test under a key prefix of its own.

Only the storage tests (``tests/storage``) run on both; the services above the repositories are tested on
fakeredis (``tests/bot``), and the whole bot on a real Redis end to end (``tests/e2e``, ``tests/faults``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from uuid import uuid4

import fakeredis
import pytest
from redis.asyncio import Redis

from bot.services import Services, Stores
from bot.storage.redis import create_redis
from tests.redis_server import redis_url


class Backend:
    """One Redis (fakeredis in this process, or the real server) and every client a test opened on it."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.prefix = f"test:{uuid4().hex}"
        self._server = fakeredis.FakeServer() if kind == "fake" else None
        self._clients: list[Redis] = []

    def client(self, timeout: float = 5.0) -> Redis:
        """A new client of this Redis, with its own connections (a command's ``timeout``, real Redis)."""
        client: Redis = (
            create_redis(redis_url(), timeout=timeout)
            if self._server is None
            else fakeredis.FakeAsyncRedis(server=self._server)
        )
        self._clients.append(client)
        return client

    def services(self, redis: Redis | None = None, **options: Any) -> Services:
        """A new service (so an empty cache) under the test's prefix, on ``redis`` or on a new client."""
        return Services.build(self.client() if redis is None else redis, prefix=self.prefix, **options)

    def stores(self, redis: Redis | None = None) -> Stores:
        """The repositories under the test's prefix, on ``redis`` or on a new client."""
        return Stores.build(self.client() if redis is None else redis, prefix=self.prefix)

    async def close(self) -> None:
        """Delete every key under the test's prefix, then close every client."""
        cleaner = self.client()
        keys = [key async for key in cleaner.scan_iter(match=f"{self.prefix}*", count=1000)]
        if keys:
            await cleaner.delete(*keys)
        for client in self._clients:
            await client.aclose()


BACKEND = pytest.StashKey[Backend]()


async def services_on(request: pytest.FixtureRequest, kind: str, **options: Any) -> AsyncIterator[Services]:
    """The ``services`` fixture: a new Backend of ``kind`` (kept for ``backend``), its services (built with
    ``options``), cleaned up after."""
    backend = Backend(kind)
    request.node.stash[BACKEND] = backend
    try:
        yield backend.services(**options)
    finally:
        await backend.close()


def backend_of(request: pytest.FixtureRequest) -> Backend:
    """The ``backend`` fixture: the Redis behind ``services``, for more clients and services on it."""
    backend: Backend = request.node.stash[BACKEND]
    return backend
