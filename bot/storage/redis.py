"""The Redis client: a bounded pool with timeouts and retries, for ``redis://``, ``rediss://``, ``unix://``, or a
Redis Cluster (``redis+cluster://host:port[,host:port...]``, ``rediss+cluster://...``, or any ``redis://`` URL with
``cluster=True``)."""

from __future__ import annotations

import asyncio
import re
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, ClusterPipeline, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.storage.mux import MuxRedis

_PASSWORD = re.compile(r"(//[^/@:]*:)[^/]*@")
CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}


def redacted(url: str) -> str:
    """The URL as it may be logged: a password replaced by ``***``."""
    return _PASSWORD.sub(r"\1***@", url)


def is_cluster_url(url: str) -> bool:
    return urlsplit(url).scheme in CLUSTER_SCHEMES


RETRIES = 3
"""How often a command is tried again on a lost connection or a timeout (0.05 s, then twice as long each time)."""


def _retry(retries: int = RETRIES) -> Retry:
    return Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=retries)


def create_redis(
    url: str, *, cluster: bool = False, max_connections: int = 32, timeout: float = 5.0, retries: int = RETRIES
) -> Redis:
    """A client with a bounded pool, timeouts and ``retries`` on lost connections (a cluster client, typed as the
    commands it shares with one server's, for a cluster URL or ``cluster``)."""
    if cluster or is_cluster_url(url):
        return cast(Redis, create_cluster(url, max_connections=max_connections, timeout=timeout))
    # A blocking pool: past max_connections a command waits for a free
    # connection (up to ``timeout``) instead of failing at once.
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=timeout,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        health_check_interval=30,
        retry=_retry(retries),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
    )
    # Single commands share one connection (bot/storage/mux.py); pipelines take the pool's.
    client = MuxRedis(connection_pool=pool)
    # redis-py leaves a pool it was handed open at aclose() (it assumes someone else owns it); this one is the
    # client's own, so closing the client closes its connections (as Redis.from_url does).
    client.auto_close_connection_pool = True
    return client


def create_cluster(url: str, *, max_connections: int = 32, timeout: float = 5.0) -> RedisCluster:
    """A Redis Cluster client from any of the nodes in the URL (it finds the others)."""
    parts = urlsplit(url)
    if parts.scheme not in (*CLUSTER_SCHEMES, "redis", "rediss"):
        raise ValueError(f"a Redis Cluster needs a redis+cluster:// or rediss+cluster:// URL, not {redacted(url)}")
    nodes_part = parts.netloc.rpartition("@")[2]
    nodes = []
    for node in filter(None, nodes_part.split(",")):
        host, _, port = node.rpartition(":") if ":" in node else (node, "", "6379")
        nodes.append(ClusterNode(host.strip("[]"), int(port)))
    if not nodes:
        raise ValueError(f"no cluster node in {redacted(url)}")
    return WaitingCluster(
        startup_nodes=nodes,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        ssl=CLUSTER_SCHEMES.get(parts.scheme, parts.scheme) == "rediss",
        max_connections=max_connections,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=_retry(),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
    )


class WaitingCluster(RedisCluster):
    """A cluster client whose commands and pipelines wait for a free connection, as one server's blocking pool
    does (redis-py's cluster client fails at once past ``max_connections`` of a node): at most that many at a
    time (each takes at most one connection of a node; a node has twice as many, for redirections)."""

    def __init__(self, *, max_connections: int, **options: Any) -> None:
        super().__init__(max_connections=2 * max_connections, **options)
        self._gate = asyncio.Semaphore(max_connections)

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        async with self._gate:
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any | None = None, shard_hint: Any | None = None) -> ClusterPipeline:
        if shard_hint:
            return super().pipeline(transaction, shard_hint)  # refused by redis-py, as it says
        return _WaitingPipeline(self, transaction, gate=self._gate)  # type: ignore[abstract]  # as redis-py makes its own


class _WaitingPipeline(ClusterPipeline):
    """A cluster pipeline that waits for the client's gate (``WaitingCluster``) to run."""

    def __init__(self, client: RedisCluster, transaction: Any | None, *, gate: asyncio.Semaphore) -> None:
        super().__init__(client, transaction)
        self._gate = gate

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> list[Any]:
        async with self._gate:
            return await super().execute(raise_on_error, allow_redirections)


async def ping(redis: Redis) -> None:
    """Return when Redis answers a PING; its error (or OSError) when it does not."""
    await redis.ping()


async def close(redis: Redis) -> None:
    """Close the client and its connections."""
    await redis.aclose()
