"""Screens that always catch up: 429 bursts, a group's flood wait and kill -9, over the fake Bot API on real Redis.

In each case the match is finished by pressing only the latest panel each
player holds (never /hand); afterwards every table and panel shows the
match's final version and every result was posted exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable

import pytest

from bot.app import App
from bot.i18n import I18n
from bot.services import Services
from engine import Match
from tests.e2e import screens
from tests.e2e.conftest import running_bot
from tests.e2e.driver import move_data, new_match, panel_of, playable, start_bot, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.process import BotProcess, bot_env
from tests.e2e.simclock import SimClock
from tests.redis_server import redis_url

GROUP = -100600
ANN = FakeUser(6001, "Ann", "ann_faults", "ru")
BOB = FakeUser(6002, "Bob", "bob_faults", "ru")
PLAYERS = (ANN, BOB)
TR = I18n()["ru"]


async def started(fake: FakeTelegram) -> str:
    for user in PLAYERS:
        await start_bot(fake, user)
    return await new_match(fake, ANN, BOB, GROUP)


async def polling(env: dict[str, str], processes: list[BotProcess]) -> BotProcess:
    """``python -m bot`` started (and listed, to be closed), once it polls."""
    process = await BotProcess(env).start()
    processes.append(process)
    await process.wait_line(lambda s: "polling" in s, what="polling")
    return process


@contextlib.asynccontextmanager
async def simulated(prefix: str) -> AsyncIterator[tuple[FakeTelegram, SimClock, App]]:
    """The fake Bot API and the bot on one simulated clock that ticks 20 times faster than real time: Telegram's
    429s and the bot's waits for them are counted on it (aiogram's own polling backoff after a refused
    getUpdates waits real seconds, one or two)."""
    clock = SimClock()
    fake = FakeTelegram(clock=clock.monotonic)
    await fake.start()
    try:
        async with clock.ticking(), running_bot(fake, prefix, clock=clock) as app:
            yield fake, clock, app
    finally:
        await fake.stop()


class TestTelegramPushesBack:
    """Telegram answers 429, to everything or to one group (on a simulated clock)."""

    @pytest.mark.parametrize("seconds", [10, 40])
    async def test_429_burst_on_every_method(self, prefix: str, cleanup_redis: None, seconds: int) -> None:
        """Every method (getUpdates included) answers 429 for ``seconds`` in mid-match; nothing is lost."""
        rng = random.Random(seconds)
        async with simulated(prefix) as (fake, clock, app):
            match_id = await started(fake)
            for _ in range(3):
                await screens.press(fake, app.services, match_id, PLAYERS, rng)
            # The burst starts as the bot takes a press: its answer and its screens all meet 429s.
            user, panel, _, _ = await screens.acting_panel(fake, app.services, match_id, PLAYERS)
            fake.press(user, panel, rng.choice(playable(panel))["callback_data"])
            await fake.settle()
            fake.flood_until = clock.monotonic() + seconds
            await screens.finish(fake, app.services, match_id, PLAYERS, rng)
            await screens.assert_final(fake, app.services, match_id, GROUP, TR)
            refused = {c.method for c in fake.calls if c.status == 429}
            assert "getUpdates" in refused and refused & {"sendMessage", "editMessageText", "answerCallbackQuery"}

    async def test_group_flood_wait_at_a_deal_end(self, prefix: str, cleanup_redis: None) -> None:
        """The group is in a flood wait when a deal ends: the next deal's panels arrive before its result."""
        rng = random.Random(7)
        async with simulated(prefix) as (fake, clock, app):
            match_id = await started(fake)
            await screens.play_until(fake, app.services, match_id, PLAYERS, rng, screens.ends_deal)
            fake.chat_flood_until[GROUP] = clock.monotonic() + 8
            await screens.press(fake, app.services, match_id, PLAYERS, rng, choose=screens.ending(screens.ends_deal))
            record, match = await app.services.records.get(match_id)
            if match.is_over:
                pytest.skip("the first deal ended the match (seeded, should not happen)")

            def next_deal_panels() -> bool:
                return all((p := panel_of(fake, u)) is not None and version_of(p) == record.version for u in PLAYERS)

            await fake.wait_for(next_deal_panels, timeout=30, what="the next deal's panels")
            assert clock.monotonic() < fake.chat_flood_until[GROUP], "the panels waited for the group"
            head = TR("deal-result", deal=1, a="", b="", pa="", pb="").split(":")[0]
            assert not any(m.text.startswith(head) for m in fake.chat_messages(GROUP))
            await screens.finish(fake, app.services, match_id, PLAYERS, rng)
            await screens.assert_final(fake, app.services, match_id, GROUP, TR)


class TestKill:
    """kill -9 of the bot process right after a press; a new process finishes the job."""

    @pytest.mark.parametrize(
        "point",
        [pytest.param(None, id="after-a-press"), pytest.param(screens.ends_deal, id="at-a-deal-end"),
         pytest.param(screens.ends_match, id="at-the-last-move")],
    )  # fmt: skip
    async def test_kill_after_a_press(
        self,
        fake: FakeTelegram,
        prefix: str,
        outside: Services,
        processes: list[BotProcess],
        point: Callable[[Match, Match], bool] | None,
    ) -> None:
        """The press was applied; what it should have shown goes out after the restart, once."""
        env = bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix)
        rng = random.Random(11)
        bot = await polling(env, processes)
        match_id = await started(fake)
        if point is None:
            for _ in range(4):
                await screens.press(fake, outside, match_id, PLAYERS, rng)
            choose = None
        else:
            await screens.play_until(fake, outside, match_id, PLAYERS, rng, point)
            choose = screens.ending(point)
        before = (await outside.records.get(match_id))[0].version
        await screens.press(fake, outside, match_id, PLAYERS, rng, choose=choose)
        # The bot is killed with its deliveries of this press pending: Telegram stops answering first,
        # so what reached it is what the bot recorded (see bot.delivery on sends in flight).
        fake.freeze()
        await asyncio.sleep(0.3)
        await bot.kill()
        fake.thaw()
        assert (await outside.records.get(match_id))[0].version == before + 1
        again = await polling(env, processes)
        await screens.finish(fake, outside, match_id, PLAYERS, rng)
        await screens.assert_final(fake, outside, match_id, GROUP, TR)
        assert await again.interrupt() == 0
        assert "Traceback" not in bot.output + again.output

    async def test_kill_before_a_replaced_panel_is_deleted(
        self, fake: FakeTelegram, prefix: str, outside: Services, processes: list[BotProcess]
    ) -> None:
        """The bot is killed after it recorded a player's new panel and before it deleted the one it replaced:
        the new process deletes that one, so that only the newest panel of each player has buttons."""
        env = bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix)
        rng = random.Random(5)
        bot = await polling(env, processes)
        match_id = await started(fake)
        fake.held.add("deleteMessage")
        for _ in range(20):  # until a press hands the turn over: a new panel, the old one to delete
            await screens.press(fake, outside, match_id, PLAYERS, rng)
            with contextlib.suppress(AssertionError):
                await fake.wait_for(lambda: bool(fake.held_calls), timeout=2, what="a delete")
                break
        assert fake.held_calls, "no press handed the turn over"
        _, held = fake.held_calls[0]
        chat, replaced = int(held["chat_id"]), int(held["message_id"])
        await bot.kill()
        fake.thaw()
        assert fake.messages[(chat, replaced)].buttons(), "the replaced panel is there, with its buttons"
        again = await polling(env, processes)
        await fake.wait_for(lambda: (chat, replaced) not in fake.messages, timeout=30, what="the old panel gone")
        await screens.finish(fake, outside, match_id, PLAYERS, rng)
        await screens.assert_final(fake, outside, match_id, GROUP, TR)
        for user in PLAYERS:
            live = [
                m.message_id
                for m in fake.chat_messages(user.id)
                if any((d := move_data(b)) is not None and d["m"] == match_id for b in m.buttons())
            ]
            assert live == [], f"{user.first_name}'s panels with buttons after the end: {live}"
        assert await again.interrupt() == 0
        assert "Traceback" not in bot.output + again.output
