"""The multiplexed client (``bot/storage/mux.py``) on real Redis servers: many commands at once on one connection,
redis-py's replies and errors, a connection the server drops, a server that hangs, a password and a database."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
import redis
from redis.asyncio import Redis
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.storage.mux import MuxRedis
from bot.storage.redis import create_redis
from tests.faults.redis_control import ControlledRedis, redis_of_its_own
from tests.redis_server import on_cluster, redis_url

pytestmark = pytest.mark.skipif(on_cluster(), reason="a cluster client is redis-py's own (no multiplexing)")


@pytest.fixture
def own_redis() -> Iterator[ControlledRedis]:
    with redis_of_its_own("domino-mux-", appendonly=False) as server:
        yield server


@pytest.fixture
async def client() -> AsyncIterator[Redis]:
    client = create_redis(redis_url())
    assert isinstance(client, MuxRedis)
    prefix = f"mux:{uuid.uuid4().hex}"
    client.test_prefix = prefix  # type: ignore[attr-defined]
    yield client
    async for key in client.scan_iter(match=f"{prefix}*"):
        await client.delete(key)
    await client.aclose()


async def _connections_named(name: str) -> int:
    admin = Redis.from_url(redis_url())
    try:
        return sum(1 for c in await admin.client_list() if c.get("name") == name)
    finally:
        await admin.aclose()


class TestReplies:
    async def test_many_at_once_on_one_connection(self, client: Redis) -> None:
        """500 commands at once: each gets its own reply, all on one connection."""
        prefix = client.test_prefix  # type: ignore[attr-defined]
        name = f"mux-{uuid.uuid4().hex[:8]}"
        client.connection_pool.connection_kwargs["client_name"] = name
        await asyncio.gather(*(client.set(f"{prefix}:{i}", i) for i in range(500)))
        values = await asyncio.gather(*(client.get(f"{prefix}:{i}") for i in range(500)))
        assert values == [str(i).encode() for i in range(500)]
        assert await _connections_named(name) == 1

    async def test_redis_py_replies(self, client: Redis) -> None:
        """The response callbacks apply as with redis-py's own connections."""
        key = f"{client.test_prefix}:h"  # type: ignore[attr-defined]
        assert await client.hset(key, mapping={"a": 1, "b": "x"}) == 2
        assert await client.hgetall(key) == {b"a": b"1", b"b": b"x"}
        assert await client.set(f"{key}:s", 1.25, nx=True) is True
        assert await client.set(f"{key}:s", 2, nx=True) is None
        assert await client.get(f"{key}:s") == b"1.25"
        await client.zadd(f"{key}:z", {"m": 1700000000.123})
        assert await client.zrange(f"{key}:z", 0, -1, withscores=True) == [(b"m", 1700000000.123)]
        assert await client.exists(key, f"{key}:nothing") == 1

    async def test_errors_and_scripts(self, client: Redis) -> None:
        """An error reply raises redis-py's typed error and leaves the connection working; a script the server
        does not know is loaded and run (NOSCRIPT handled by redis-py's Script)."""
        key = f"{client.test_prefix}:e"  # type: ignore[attr-defined]
        await client.set(key, "text")
        with pytest.raises(ResponseError, match="WRONGTYPE"):
            await client.hget(key, "field")
        with pytest.raises(NoScriptError):
            await client.evalsha("0" * 40, 0)
        script = client.register_script("return {KEYS[1], ARGV[1], redis.call('GET', KEYS[1])}")
        await client.script_flush()
        assert await script(keys=[key], args=[7]) == [key.encode(), b"7", b"text"]
        assert await client.get(key) == b"text"


class TestClose:
    async def test_closing_the_client_closes_its_connections(self) -> None:
        """aclose() closes the shared connection and the pool's (pipelines, blocking commands): redis-py leaves a
        pool it was handed open, and the sockets left would be closed only by the garbage collector."""
        client = create_redis(redis_url())
        name = f"mux-{uuid.uuid4().hex[:8]}"
        client.connection_pool.connection_kwargs["client_name"] = name
        key = f"mux:{uuid.uuid4().hex}"
        await client.set(key, "1")
        async with client.pipeline() as pipe:
            pipe.get(key)
            pipe.delete(key)
            assert await pipe.execute() == [b"1", 1]
        assert await client.blpop([key], timeout=0.01) is None
        assert await _connections_named(name) == 2  # the shared one and one of the pool's
        await client.aclose()
        deadline = asyncio.get_running_loop().time() + 10
        while (left := await _connections_named(name)) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        assert left == 0, f"{left} connections of the closed client still open on the server after 10 s"


class TestFaults:
    async def test_connection_dropped_by_the_server(self, client: Redis) -> None:
        """The server closes the connection between commands, and while commands wait: they go again."""
        key = f"{client.test_prefix}:k"  # type: ignore[attr-defined]
        name = f"mux-{uuid.uuid4().hex[:8]}"
        client.connection_pool.connection_kwargs["client_name"] = name
        admin = Redis.from_url(redis_url())
        try:
            for round_ in range(3):
                assert await client.incr(key) == round_ + 1
                for c in await admin.client_list():
                    if c.get("name") == name:
                        await admin.client_kill_filter(_id=c["id"])
            # Killed while 300 commands are on their way.
            waiting = asyncio.gather(*(client.incr(key) for _ in range(300)))
            await asyncio.sleep(0)
            for c in await admin.client_list():
                if c.get("name") == name:
                    await admin.client_kill_filter(_id=c["id"])
            await waiting
            # Each INCR ran once or, sent again after the kill, more than once: never lost.
            assert int(await client.get(key) or 0) >= 303

        finally:
            await admin.aclose()

    async def test_blocking_commands_keep_their_own_connection(self, client: Redis) -> None:
        """A blocking pop waits on a connection of the pool: the shared one goes on meanwhile."""
        key = f"{client.test_prefix}:q"  # type: ignore[attr-defined]
        popping = asyncio.ensure_future(client.blpop([key], timeout=5))
        await asyncio.sleep(0.1)
        assert await client.rpush(key, "x") == 1  # would wait 5 s behind the pop on a shared connection
        assert await popping == (key.encode(), b"x")

    async def test_server_hangs_then_wakes(self, own_redis: ControlledRedis) -> None:
        """A paused server (SIGSTOP): a command times out after the client's retries with a timeout error, the
        next one after the server wakes works."""
        client = create_redis(own_redis.url, timeout=0.3)
        try:
            await client.set("k", "1")
            own_redis.pause()
            with pytest.raises(RedisTimeoutError):
                await client.get("k")
            own_redis.resume()
            assert await client.get("k") == b"1"
        finally:
            await client.aclose()

    async def test_server_restarts(self, own_redis: ControlledRedis) -> None:
        """The server goes away and comes back (a new process on the same port): the client reconnects."""
        client = create_redis(own_redis.url)
        try:
            await client.set("k", "1")
            own_redis.kill()
            with pytest.raises(redis.exceptions.ConnectionError):
                await client.get("k")
            own_redis.start(appendonly=False)
            assert await client.get("k") is None
            assert await client.set("k", "2")
        finally:
            await client.aclose()

    async def test_password_and_database(self, own_redis: ControlledRedis) -> None:
        port = own_redis.port
        with redis.Redis(port=port) as admin:
            admin.config_set("requirepass", "s3cret")
        client = create_redis(f"redis://:s3cret@127.0.0.1:{port}/3")
        wrong = create_redis(f"redis://:wrong@127.0.0.1:{port}/0")
        try:
            await client.set("in-three", "1")
            with redis.Redis(port=port, password="s3cret", db=3) as three:
                assert three.get("in-three") == b"1"
            with pytest.raises(redis.exceptions.AuthenticationError):
                await wrong.get("in-three")
        finally:
            await client.aclose()
            await wrong.aclose()
