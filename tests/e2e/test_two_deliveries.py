"""Two processes deliver one match's messages: each lane (the group, each panel) is run by one of them at a time."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator

import pytest

from bot.app import App, create_app
from bot.config import Settings
from bot.delivery.ledger import GROUP as TABLE_LANE
from bot.delivery.ledger import Screens
from bot.models import Player
from bot.services import Services
from bot.storage.redis import create_redis
from tests.e2e.conftest import CLOSE_WITHIN
from tests.e2e.fake_telegram import FakeTelegram
from tests.redis_server import redis_url

GROUP = -100_555
ANN, BOB = Player(id=5501, name="Ann"), Player(id=5502, name="Bob")


@contextlib.asynccontextmanager
async def two_apps(fake: FakeTelegram, prefix: str, **overrides: float) -> AsyncIterator[list[App]]:
    """Two bots (as two processes would be: each its own Redis client, outbox and delivery) on one Redis."""
    apps: list[App] = []
    try:
        for _ in range(2):
            # Webhook workers (not served here): what they share is in Redis.
            settings = Settings(
                bot_token="123456:TEST-token",
                telegram_api_base=fake.base,
                redis_prefix=prefix,
                webhook_url="http://127.0.0.1:9/tg",
                **overrides,  # type: ignore[arg-type]
            )
            apps.append(await create_app(settings, redis=create_redis(redis_url())))
        # Each says again that it is alive: building the second took seconds of CPU on a busy machine (the
        # Cluster step beside the main suite), in which the first's event loop could not beat, and a process
        # silent past its heartbeat's 3 s is taken for dead and its lanes taken over (a table sent twice).
        for app in apps:
            await app.delivery.resume()
        yield apps
    finally:
        for app in apps:
            try:
                await asyncio.wait_for(app.close(), CLOSE_WITHIN)
            except TimeoutError:
                raise AssertionError(
                    f"a bot did not close in {CLOSE_WITHIN:.0f} s; at work:\n{app.at_work()}"
                ) from None
            await app.bot.session.close()
            await app.redis.aclose()


@pytest.mark.cluster
class TestTwoDeliveries:
    async def test_one_lane_one_process(self, fake: FakeTelegram, prefix: str, outside: Services) -> None:
        """A new match, both processes told to deliver it at the same moment, on a slow Telegram: one table
        and one panel per player are sent, not two (the lane's lease); each process runs some lane or none,
        and the match leaves the due set."""
        fake.started.update({ANN.id, BOB.id})
        fake.latency = 0.2
        async with two_apps(fake, prefix) as apps:
            challenge = await outside.challenges.open(GROUP, ANN, "bingo", "ru")
            record = await outside.challenges.accept(challenge.id, BOB)
            for app in apps:
                app.delivery.kick(record.id)
            await asyncio.gather(*(app.delivery.idle() for app in apps))
            sends = [c for c in fake.calls if c.method == "sendMessage" and c.status == 200]
            assert sorted(int(c.params["chat_id"]) for c in sends) == sorted([GROUP, ANN.id, BOB.id])
            assert record.id not in await outside.stores.matches.screens_due()

    async def test_a_process_taken_for_dead_sends_nothing(
        self, fake: FakeTelegram, prefix: str, outside: Services, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A process whose event loop stood still past its heartbeat in the middle of a pass (seconds of CPU on a
        loaded machine: it failed so once in the Cluster step) is taken for dead, and the other process takes
        its lane over and sends the table. When the first one wakes it sends nothing: one table, not two."""
        fake.started.update({ANN.id, BOB.id})
        async with two_apps(fake, prefix) as (first, second):
            screens = first.delivery.records.screens
            read, wake = asyncio.Event(), asyncio.Event()

            async def standing_still(match_id: str) -> Screens:
                found = await screens(match_id)
                read.set()
                await wake.wait()
                return found

            async def no_beat(token: str, ttl: float) -> None:
                return None

            monkeypatch.setattr(first.delivery.records, "screens", standing_still)
            challenge = await outside.challenges.open(GROUP, ANN, "bingo", "ru")
            record = await outside.challenges.accept(challenge.id, BOB)
            first.delivery.kick(record.id, (TABLE_LANE,))
            await asyncio.wait_for(read.wait(), 30)  # the first holds the lane and has read the match
            # Its heartbeat stops and runs out, as after three silent seconds.
            monkeypatch.setattr(first.delivery.lanes, "beat", no_beat)
            await outside.stores.redis.delete(outside.stores.keys.process(first.delivery.token))
            second.delivery.kick(record.id, (TABLE_LANE,))
            await second.delivery.idle()
            tables = [c for c in fake.calls if c.method == "sendMessage" and int(c.params["chat_id"]) == GROUP]
            assert len(tables) == 1, f"the second process took the lane over and sent the table: {tables}"
            wake.set()
            await first.delivery.idle()
            tables = [c for c in fake.calls if c.method == "sendMessage" and int(c.params["chat_id"]) == GROUP]
            assert len(tables) == 1, f"the first process, woken, sent the table again: {tables}"

    async def test_the_computer_moves_once(self, fake: FakeTelegram, prefix: str, outside: Services) -> None:
        """The computer is to act, and both processes run its job at the same moment: it moves once."""
        fake.started.add(ANN.id)
        seed = next(s for s in range(100) if random.Random(f"{s}/lot").randrange(2) == 1)  # the computer opens
        async with two_apps(fake, prefix, computer_pause=0.0) as apps:
            challenge = await outside.challenges.open(GROUP, ANN, "bingo", "ru")
            record = await outside.challenges.play_computer(challenge.id, ANN.id, "hard", "🤖", seed=seed)
            await asyncio.gather(*(app.scheduler.handlers["t"](record.id) for app in apps))
            after, match = await outside.records.get(record.id)
            assert after.version == 1 and after.recent == ["cpu:0"]
            assert len(match.deal.actions) == 1
