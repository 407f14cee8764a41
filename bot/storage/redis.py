"""The Redis client: a real server when ``REDIS_URL`` is set, else in-process fakeredis."""

from __future__ import annotations

import logging

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)


def create_redis(url: str | None, *, max_connections: int = 32, timeout: float = 5.0) -> Redis:
    """A client with a bounded pool, timeouts and retries on lost connections.

    Without a URL the bot runs on fakeredis inside the process: fine for a
    try-out, but every match is lost when the process stops.
    """
    if not url:
        import fakeredis

        log.warning(
            "REDIS_URL is not set: using an in-process fakeredis. "
            "MATCHES, SETTINGS AND LEADERBOARDS ARE LOST WHEN THE BOT STOPS."
        )
        return fakeredis.FakeAsyncRedis()
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
