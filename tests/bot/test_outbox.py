"""The outbox keeps Telegram's limits at their real values, on a simulated clock."""

from __future__ import annotations

import itertools

import pytest

from bot.outbox import Outbox
from tests.outbox_fakes import Clock, FakeBot, most_in_window, real_sleep

GROUP = -100
PRIVATE = 7
WARM_UP = 8


@pytest.fixture
def clock() -> Clock:
    return Clock()


class TestGroupBudget:
    """A group never gets more than 20 sends plus edits in any 60 s."""

    async def test_a_busy_match(self, clock: Clock) -> None:
        """300 table changes and 15 new messages in a burst: within budget, newest table shown, edits coalesced."""
        bot = FakeBot(clock)
        box = Outbox(bot, group_budget=20, group_window=60.0, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        table = (await box.send(GROUP, "table v0")).message_id
        for version in range(1, 301):
            box.edit(GROUP, table, f"table v{version}", None, version)
            if version % 20 == 0:
                await box.send(GROUP, f"result {version}")
            await real_sleep(0)
        await box.drain()
        times = [at for at, _, chat, _ in bot.calls if chat == GROUP]
        assert most_in_window(times, 60.0) <= 20
        assert bot.texts[table] == "table v300"
        edits = [c for c in bot.calls if c[1] == "edit"]
        assert len(edits) < 300
        assert [c[3] for c in bot.calls if c[1] == "send"][-1] == "result 300"

    async def test_a_call_late_on_its_way(self, clock: Clock) -> None:
        """The first of 25 sends reaches Telegram 5 s after it was counted: the 21st still waits a full window
        after that arrival (it is counted from when its call ended), not after the moment it was counted."""
        bot = FakeBot(clock, on_the_way=[5.0])
        box = Outbox(bot, group_budget=20, group_window=60.0, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        for n in range(25):
            await box.send(GROUP, f"m{n}")
        times = [at for at, _, chat, _ in bot.calls if chat == GROUP]
        assert times[0] == 5.0
        assert most_in_window(times, 60.0) <= 20
        assert times[20] >= times[0] + 60.0

    async def test_an_older_version_never_overwrites(self, clock: Clock) -> None:
        """An edit for an older version arriving late is dropped."""
        bot = FakeBot(clock)
        box = Outbox(bot, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        table = (await box.send(GROUP, "v0")).message_id
        box.edit(GROUP, table, "v5", None, 5)
        await box.drain()
        box.edit(GROUP, table, "v4", None, 4)
        await box.drain()
        assert bot.texts[table] == "v5"


class TestPrivateChat:
    """A private chat gets at most one send or edit a second."""

    async def test_one_a_second(self, clock: Clock) -> None:
        """Panel edits and sends to one user are spaced by at least a second."""
        bot = FakeBot(clock)
        box = Outbox(bot, private_gap=1.0, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        panel = (await box.send(PRIVATE, "p0")).message_id
        for version in range(1, 40):
            box.edit(PRIVATE, panel, f"p{version}", None, version)
            if version % 10 == 0:
                await box.send(PRIVATE, f"note {version}")
            await real_sleep(0)
        await box.drain()
        times = [at for at, _, chat, _ in bot.calls if chat == PRIVATE]
        assert all(b - a >= 1.0 for a, b in itertools.pairwise(times))
        assert bot.texts[panel] == "p39"


class TestTelegramErrors:
    """A 429 is waited out; "message is not modified" is not an error."""

    async def test_retry_after(self, clock: Clock) -> None:
        """Two 429s in a row: the send waits retry_after each time and then goes through."""
        bot = FakeBot(clock, retry_after=[3, 5])
        box = Outbox(bot, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        await box.send(GROUP, "hello")
        assert [c[3] for c in bot.calls] == ["hello"]
        assert clock.now >= 8

    async def test_not_modified(self, clock: Clock) -> None:
        """An edit to the same text is silently fine."""
        bot = FakeBot(clock)
        box = Outbox(bot, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        message = (await box.send(GROUP, "same")).message_id
        box.edit(GROUP, message, "same", None)
        await box.drain()
        assert bot.texts[message] == "same"
        assert [c[1] for c in bot.calls] == ["send"]
