"""The Mini App's live channel when Redis goes away: the Hub (one subscription a process) subscribes again once
Redis is back and wakes every open stream, so a page re-reads what changed meanwhile; then pushes flow again."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from bot.storage.keys import Keys
from bot.storage.live import LiveStore
from bot.storage.redis import create_redis
from bot.webapp.live import Hub
from tests.faults.redis_control import ControlledRedis

DEADLINE = 30.0


async def until(condition: str, check: Callable[[], bool]) -> None:
    """Wait until ``check()`` holds, failing after ``DEADLINE`` with what it waited for."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"{condition}: not within {DEADLINE:.0f} s")
        await asyncio.sleep(0.02)


async def test_the_hub_subscribes_again_after_redis_comes_back() -> None:
    directory = Path(tempfile.mkdtemp(prefix="domino-live-"))
    server = ControlledRedis(directory)
    server.start()
    redis = create_redis(server.url, retries=0)
    live = LiveStore(redis, Keys("live-test"))
    hub = Hub(live)
    hub.start()
    try:
        await until("the first subscription", lambda: hub.subscriptions == 1)
        with hub.watch("m1") as changed:
            changed.clear()
            server.shutdown_nosave()
            await until("the subscription to be lost", lambda: not hub.subscribed.is_set())
            server.start()
            await until("a subscription again", lambda: hub.subscriptions == 2)
            assert changed.is_set(), "a stream was not woken to read what changed while Redis was away"
            changed.clear()
            await live.publish("m1", 9)
            await until("a push after the reconnect", changed.is_set)
    finally:
        await hub.close()
        await redis.aclose()
        server.kill()
        shutil.rmtree(directory, ignore_errors=True)
