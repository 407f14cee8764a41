"""Telegram's real limits (20 sends plus edits a minute per group, one a second per private chat) on a
simulated clock: panels never wait for the group; the group's budget holds, command replies counted."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import random
from collections.abc import AsyncIterator
from typing import Any

from bot.app import App
from bot.i18n import I18n
from tests.e2e import invariants, screens
from tests.e2e.conftest import COMMAND_LIMIT, running_bot
from tests.e2e.driver import new_match, panel_of, playable, start_bot, version_of
from tests.e2e.fake_telegram import SENT_OR_EDITED, FakeTelegram, FakeUser
from tests.e2e.simclock import SimClock

GROUP = -100700
ANN = FakeUser(7701, "Ann", "ann_limits", "ru")
BOB = FakeUser(7702, "Bob", "bob_limits", "ru")
PLAYERS = (ANN, BOB)
CARL = FakeUser(7703, "Carl", "carl_limits", "ru")
MEMBERS = (ANN, BOB, CARL, FakeUser(7704, "Dan", "dan_limits", "ru"), FakeUser(7705, "Eve", "eve_limits", "ru"))
TR = I18n()["ru"]
WINDOW = 60.0
TICK = 0.1
BUDGET = 20


@contextlib.asynccontextmanager
async def real_limits_bot(
    prefix: str, *, command_limit: int = COMMAND_LIMIT
) -> AsyncIterator[tuple[FakeTelegram, SimClock, App]]:
    """The fake Bot API and the bot on a simulated clock that ticks (``TICK`` every 5 ms), with Telegram's real
    limits (20 a group in 60 s, one a second in private; ``command_limit`` commands of a member in 60 s) and
    both players started."""
    clock = SimClock()
    fake = FakeTelegram(clock=clock.monotonic)
    await fake.start()
    try:
        async with (
            running_bot(
                fake,
                prefix,
                clock=clock,
                group_window=WINDOW,
                group_budget=BUDGET,
                private_gap=1.0,
                command_window=60.0,
                command_limit=command_limit,
            ) as app,
            clock.ticking(step=TICK),
        ):
            for user in PLAYERS:
                await start_bot(fake, user)
            yield fake, clock, app
    finally:
        await fake.stop()


def granted_slots(app: App) -> dict[int, list[float]]:
    """Each chat's slots as the bot's limiter grants them from now on: the simulated time (ms) it counted each
    send or edit at."""
    granted: dict[int, list[float]] = collections.defaultdict(list)
    store = app.outbox.limiter.store  # type: ignore[attr-defined]
    take = store.take

    async def counted(chat_id: int, **kwargs: Any) -> Any:
        wait = await take(chat_id, **kwargs)
        if not wait:
            granted[chat_id].append(kwargs["now_ms"])
        return wait

    store.take = counted
    return granted


def assert_group_budget(fake: FakeTelegram, granted: dict[int, list[float]]) -> None:
    """The group's budget, as the bot counted its calls (exactly, on the simulated clock) and as they arrived.

    The bot takes a slot, then sends; Telegram counts the call on arrival. The limiter counts a window of 61.5 s
    for 60 (``limits.WINDOW_MARGIN``): a call may arrive up to 1.5 s after its slot. On this clock, 20 times
    faster than real time, that is 75 ms of real time, which a loaded machine can take (a run with eight test
    workers on two cores had 21 arrivals in 60 s with every slot in order): the arrivals are allowed one more."""
    taken = granted[GROUP]
    assert all(b - a >= WINDOW * 1000 for a, b in zip(taken, taken[BUDGET:], strict=False)), taken
    arrived = fake.calls_to(GROUP, SENT_OR_EDITED)
    assert len(taken) >= len(arrived), f"{len(arrived)} calls arrived in the group, {len(taken)} were counted"
    assert fake.max_in_window(GROUP, WINDOW) <= BUDGET + 1


class TestRealLimits:
    async def test_panels_never_wait_for_the_group(self, prefix: str, cleanup_redis: None) -> None:
        """With the group's budget spent by command replies, the next deal's panels arrive within 2 s (simulated)
        of the deal's final move, long before its result; the group never gets more than 20 in 60 s."""
        rng = random.Random(3)
        async with real_limits_bot(prefix) as (fake, clock, app):
            granted = granted_slots(app)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            # Every handover of the turn sends the new mover a new message.
            handovers = 0
            for _ in range(12):
                handovers += await screens.press_watching_the_turn(fake, app.services, match_id, PLAYERS, rng)
            assert handovers >= 3
            await screens.play_until(fake, app.services, match_id, PLAYERS, rng, screens.ends_deal)
            await screens.assert_screens_caught_up(fake, app.services, match_id)
            # Time stops; the group's budget goes to 25 command replies (20 go out, 5 wait a minute).
            clock.paused = True
            for user in MEMBERS:  # five each: one member's sixth would go unanswered (flood control)
                for _ in range(5):
                    fake.send_text(user, GROUP, "/help")
            await fake.wait_for(
                lambda: sum(m.text == TR("help-text") for m in fake.chat_messages(GROUP)) >= 1, what="a reply"
            )
            await asyncio.sleep(0.3)
            final_move = screens.ending(screens.ends_deal)
            refused: list[str] = []
            for _ in range(5):
                user, panel, _, _ = await screens.acting_panel(fake, app.services, match_id, PLAYERS)
                _, match = await app.services.records.get(match_id)
                ending = match.deal.number
                data = final_move(match, [b["callback_data"] for b in playable(panel)])
                assert data is not None
                pressed_at = clock.now
                answer = await fake.wait_answer(fake.press(user, panel, data))
                if not answer.get("text"):
                    break
                # Refused: a panel the bot replaced in that instant. The player presses the one they hold now.
                refused.append(answer["text"])
                await asyncio.sleep(0.05)
            record, match = await app.services.records.get(match_id)
            assert match.deal.number == ending + 1, f"the deal's final move was not applied (refused: {refused})"

            def next_deal_panels() -> bool:
                return all((p := panel_of(fake, u)) is not None and version_of(p) == record.version for u in PLAYERS)

            while not next_deal_panels():
                assert clock.now - pressed_at <= 2.0, "the next deal's panels took more than 2 s"
                clock.advance(0.1)
                await asyncio.sleep(0.05)
            head = TR("deal-result", deal=ending, a="", b="", pa="", pb="").split(":")[0]
            assert not any(m.text.startswith(head) for m in fake.chat_messages(GROUP))
            clock.paused = False
            await fake.wait_for(
                lambda: sum(m.text == TR("help-text") for m in fake.chat_messages(GROUP)) == BUDGET + 5,
                timeout=30,
                what="every reply",
            )
            await screens.finish(fake, app.services, match_id, PLAYERS, rng)
            await screens.assert_final(fake, app.services, match_id, GROUP, TR)
            assert_group_budget(fake, granted)
            # One a second per private chat, as the bot took its slots (on the simulated clock, exactly)...
            for user in PLAYERS:
                slots = granted[user.id]
                close = [(a, b) for a, b in itertools.pairwise(slots) if b - a < 1000]
                assert len(slots) >= 5 and not close, f"{user.first_name}: slots less than a second apart: {close}"
            # ... and as the calls arrived: a call arrives some real milliseconds after its slot, each one many
            # ticks of a clock 20 times faster than real time on a busy machine (15 ms is 3 ticks), so two may
            # arrive closer than a second; in any 10 s at most the 11 a second apart allow, and one.
            for user in PLAYERS:
                assert fake.max_in_window(user.id, 10.0) <= 12
            await invariants.all_answered(fake)


class TestOneMembersFlood:
    async def test_100_commands_in_a_minute_during_a_match(self, prefix: str, cleanup_redis: None) -> None:
        """A member sends /help 100 times within a minute while a match is on: five replies and one notice,
        nothing more; the match's group messages stay within 20 in any 60 s and the match finishes."""
        rng = random.Random(8)
        async with real_limits_bot(prefix, command_limit=5) as (fake, clock, app):
            granted = granted_slots(app)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            # All within one simulated moment (time stops), so that the minute cannot end under a busy machine.
            clock.paused = True
            for _ in range(100):
                fake.send_text(CARL, GROUP, "/help")
            notice = TR("flood-notice", name="Carl")
            await fake.wait_for(lambda: fake.delivered >= len(fake.updates), timeout=30, what="every command")
            await fake.wait_for(
                lambda: any(m.text == notice for m in fake.chat_messages(GROUP)), timeout=30, what="the notice"
            )
            await asyncio.sleep(0.5)  # what else the bot would send for the 100 commands, it sends now
            clock.paused = False
            await screens.finish(fake, app.services, match_id, PLAYERS, rng)
            await screens.assert_final(fake, app.services, match_id, GROUP, TR)
            await app.settled()
            replies = [m for m in fake.chat_messages(GROUP) if m.text == TR("help-text")]
            notices = [m for m in fake.chat_messages(GROUP) if m.text == notice]
            assert len(replies) == 5 and len(notices) == 1
            assert_group_budget(fake, granted)
            await invariants.all_answered(fake)
