"""The real Redis the tests use: the server on 127.0.0.1:6379 when it answers, else an embedded one; with
``TEST_REDIS=cluster``, a Redis Cluster of three masters instead (``tests/redis_cluster.py``).

The embedded server is the bot's own (``bot.storage.embedded``) in a
temporary directory, and the cluster's nodes are in one too; either is
started once per test run and stopped at its end, so the suites that need a
real Redis never skip.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import redis

from bot.storage.embedded import EmbeddedRedis

LOCAL_URL = "redis://127.0.0.1:6379/0"
_url: str | None = None


def _local_answers() -> bool:
    client = redis.Redis.from_url(LOCAL_URL, socket_connect_timeout=0.5, socket_timeout=0.5)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def redis_url() -> str:
    """The URL of the tests' real Redis (started on first use when 127.0.0.1:6379 does not answer)."""
    global _url
    if _url is None:
        if os.environ.get("TEST_REDIS") == "cluster":
            from tests.redis_cluster import RedisCluster

            cluster = RedisCluster()
            atexit.register(cluster.stop)
            _url = cluster.start()
        elif _local_answers():
            _url = LOCAL_URL
        else:
            directory = tempfile.mkdtemp(prefix="domino-test-redis-")
            server = EmbeddedRedis(directory)
            _url = server.start()

            def stop() -> None:
                server.stop()
                shutil.rmtree(directory, ignore_errors=True)

            atexit.register(stop)
    return _url


def on_cluster() -> bool:
    """Whether the tests' real Redis is a cluster (``TEST_REDIS=cluster``)."""
    return os.environ.get("TEST_REDIS") == "cluster"
