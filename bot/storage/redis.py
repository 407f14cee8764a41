"""The Redis client: a bounded pool with timeouts and retries, for ``redis://``, ``rediss://`` or ``unix://``."""

from __future__ import annotations

import re

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

_PASSWORD = re.compile(r"(//[^/@:]*:)[^/]*@")


def redacted(url: str) -> str:
    """The URL as it may be logged: a password replaced by ``***``."""
    return _PASSWORD.sub(r"\1***@", url)


def create_redis(url: str, *, max_connections: int = 32, timeout: float = 5.0) -> Redis:
    """A client with a bounded pool, timeouts and retries on lost connections."""
    # A blocking pool: past max_connections a command waits for a free
    # connection (up to ``timeout``) instead of failing at once.
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=timeout,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        health_check_interval=30,
        retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=3),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
    )
    return Redis(connection_pool=pool)
