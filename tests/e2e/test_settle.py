"""Delivery.idle waits for the settle that ends a match's delivery (tests rely on it to read the due set)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.app import App
from bot.models import Player
from bot.services import Services
from tests.e2e.conftest import running_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser

GROUP = -100901
ANN = FakeUser(1001, "Ann", "ann", "ru")
BOB = FakeUser(1002, "Bob", "bob", "ru")


async def settle_held(fake: FakeTelegram, app: App, outside: Services) -> tuple[asyncio.Event, str]:
    """A match started and delivered whose settle waits until the event is set; its id. Its lanes are done."""
    go = asyncio.Event()
    settle = app.services.stores.matches.settle

    async def held(*args: Any, **kwargs: Any) -> bool:
        await go.wait()
        return await settle(*args, **kwargs)

    app.services.stores.matches.settle = held  # type: ignore[method-assign]
    challenge = await outside.challenges.open(GROUP, Player(id=ANN.id, name="Ann"), "bingo", "ru")
    record = await outside.challenges.accept(challenge.id, Player(id=BOB.id, name="Bob"))
    app.delivery.kick(record.id)
    await fake.wait_for(lambda: not app.delivery._jobs, what="the lanes to be done")
    return go, record.id


@pytest.mark.cluster
class TestIdle:
    async def test_idle_waits_for_the_settle(self, fake: FakeTelegram, prefix: str, outside: Services) -> None:
        """The lanes are done and the match's job is gone, but its settle still runs: idle waits for it."""
        fake.started.update({ANN.id, BOB.id})
        async with running_bot(fake, prefix) as app:
            go, match_id = await settle_held(fake, app, outside)
            idle = asyncio.create_task(app.delivery.idle())
            for _ in range(100):
                await asyncio.sleep(0)
            assert not idle.done() and match_id in await outside.stores.matches.screens_due()
            go.set()
            await idle
            assert match_id not in await outside.stores.matches.screens_due()

    async def test_settled_names_what_is_still_at_work(
        self, fake: FakeTelegram, prefix: str, outside: Services
    ) -> None:
        """A settle that never ends: ``App.settled`` fails at its deadline (it waited forever before), naming the
        settling task and the line it waits on."""
        fake.started.update({ANN.id, BOB.id})
        async with running_bot(fake, prefix) as app:
            go, _ = await settle_held(fake, app, outside)
            with pytest.raises(AssertionError) as failed:
                await app.settled(timeout=0.5)
            assert "not settled after 0 s" in str(failed.value)
            assert "--- settling" in str(failed.value) and "await go.wait()" in str(failed.value)
            go.set()
            await app.settled()
