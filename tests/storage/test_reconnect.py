"""A match survives Redis dropping the bot's connections (the client reconnects by itself)."""

from __future__ import annotations

import random
import uuid

import pytest
from redis.asyncio import Redis

from bot.services import Services
from bot.storage.redis import create_redis
from tests.bot.helpers import play_random, start_match
from tests.redis_server import on_cluster, redis_url


async def _kill_connections_named(admin: Redis, name: str) -> int:
    """Close, on the server side, every connection whose client name is ``name``."""
    killed = 0
    for client in await admin.client_list():
        if client.get("name") == name:
            await admin.client_kill_filter(_id=client["id"])
            killed += 1
    return killed


class TestReconnect:
    """The server closes the service's connections mid-match; the next moves still go through."""

    async def test_moves_after_the_server_drops_the_connections(self) -> None:
        """Kill every connection of the service's client between moves, several times, and finish the match."""
        if on_cluster():
            pytest.skip("kills the connections of one server's pool by name (a cluster client has one per node)")
        prefix = f"test:{uuid.uuid4().hex}"
        name = f"reconnect-{uuid.uuid4().hex[:8]}"
        redis = create_redis(redis_url())
        redis.connection_pool.connection_kwargs["client_name"] = name
        admin = Redis.from_url(redis_url())
        services = Services.build(redis, prefix=prefix)
        try:
            record, match = await start_match(services, target=2, seed=3)
            rng = random.Random(3)
            drops = 0
            while not match.is_over:
                result = await play_random(services, record, match, rng, moves=5)
                record, match = result.record, result.match
                drops += await _kill_connections_named(admin, name) > 0
            assert drops >= 2
            stored, stored_match = await Services.build(admin, prefix=prefix).records.get(record.id)
            assert stored.version == record.version and stored_match == match
            assert (await services.results.stats(record.players[match.winner or 0].id)).won == 1
        finally:
            async for key in admin.scan_iter(match=f"{prefix}*"):
                await admin.delete(key)
            await redis.aclose()
            await admin.aclose()
