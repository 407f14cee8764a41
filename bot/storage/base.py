"""What every repository shares: one Redis client, the key names, and Redis's failures as one error.

A repository (``bot/storage/*.py``) holds the Lua scripts of one kind of data
beside typed wrappers: a wrapper's signature is its script's contract (the
keys and arguments by name, the answer as a value), so nothing outside
``bot/storage`` builds KEYS and ARGV by position or calls Redis.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.storage.keys import Keys

T = TypeVar("T")

Failed = Callable[[BaseException], None]
"""Told of each Redis command or script that failed (the operator's count of Redis errors)."""


def ignore(error: BaseException) -> None:
    """A ``Failed`` that counts nothing (a repository built without one)."""


class StorageUnavailable(Exception):
    """Redis did not answer (after the client's own retries)."""


def text(value: bytes | str) -> str:
    """A Redis reply as text."""
    return value.decode() if isinstance(value, bytes) else value


def texts(data: dict[Any, Any]) -> dict[str, str]:
    """A hash as Redis returns it, with text keys and values."""
    return {text(a): text(b) for a, b in data.items()}


class Store:
    """A repository over one Redis (a server or a cluster) under one key prefix."""

    def __init__(self, redis: Redis, keys: Keys, *, failed: Failed = ignore) -> None:
        self.redis = redis
        self.keys = keys
        self.failed = failed
        self.cluster = isinstance(redis, RedisCluster)
        """A Redis Cluster: a script touches one slot, and what spans slots goes step by step."""

    def script(self, source: str) -> AsyncScript:
        """A Lua script registered on the client (loaded on its first call: redis-py sends EVALSHA, and the
        script itself when the server does not know it yet)."""
        return self.redis.register_script(source)

    async def call(self, op: Awaitable[T]) -> T:
        """Await a Redis call; a lost connection or a timeout is ``StorageUnavailable``. Each failure is told to
        ``failed``."""
        try:
            return await op
        except (RedisConnectionError, RedisTimeoutError) as exc:
            self.failed(exc)
            raise StorageUnavailable(str(exc)) from exc
        except RedisError as exc:
            self.failed(exc)
            raise

    async def run(self, script: AsyncScript, keys: list[str], args: list[Any]) -> Any:
        """Run a script (for the wrappers: KEYS and ARGV are the wrapper's to build)."""
        return await self.call(script(keys=keys, args=args))
