"""The turn clock, the offer to claim the win, abandoned matches and challenge expiry, on a simulated clock.

The bot runs in this process against the fake Bot API and the real Redis;
time is a ``SimClock`` that ticks slowly (so the outbox's pauses pass) and
that the test moves past each threshold, measured from the match's last move
as stored in Redis. Nothing sleeps for a threshold.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.app import App
from bot.i18n import Translator
from bot.models import Finish, MatchRecord
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import (
    ask,
    button,
    challenge,
    new_match,
    panel_of,
    playable,
    start_bot,
    version_of,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.simclock import SimClock

GROUP = -100900
ANN = FakeUser(9001, "Ann", "ann_clock", "ru")
BOB = FakeUser(9002, "Bob", "bob_clock", "ru")
PLAYERS = (ANN, BOB)
TIMEOUT = 600
DAY = 86400


@dataclass
class Scene:
    fake: FakeTelegram
    app: App
    clock: SimClock
    tr: Translator

    async def state(self, match_id: str) -> tuple[MatchRecord, Any]:
        return await self.app.services.records.get(match_id)

    async def at(self, moment: float) -> None:
        """Move the clock to ``moment`` (seconds since the epoch), let the scheduler run and the messages go."""
        if moment > self.clock.time():
            self.clock.advance(moment - self.clock.time())
        await self.app.scheduler.run_due()
        await self.app.settled()

    def group_texts(self) -> list[str]:
        return [m.text for m in self.fake.chat_messages(GROUP)]

    def private_texts(self, user: FakeUser) -> list[str]:
        """The texts of the user's private chat (not the captions of pictures)."""
        return [m.text for m in self.fake.chat_messages(user.id) if m.photo is None]

    def reminders(self, user: FakeUser) -> tuple[int, int]:
        """How many reminders ``user`` got in private, and how many lines naming them the group got."""
        private = sum(t.startswith("⏰") and "/settings" not in t for t in self.private_texts(user))
        group = sum(t.startswith("⏰") and f"tg://user?id={user.id}" in t for t in self.group_texts())
        return private, group

    def results(self, key: str) -> int:
        head = self.tr(key, loser="X", winner="Y", sw=0, sl=0, a="A", b="B", sa=0, sb=0).split(" ")[0:2]
        return sum(t.split(" ")[0:2] == head for t in self.group_texts())

    async def move(self, match_id: str) -> None:
        """The player to act presses a playable tile of their newest panel."""
        record, match = await self.state(match_id)
        user = PLAYERS[match.turn]
        panel = await self.fake.wait_for(
            lambda: (p := panel_of(self.fake, user)) is not None and version_of(p) == record.version and p,
            timeout=30,
            what="the acting panel",
        )
        answer = await self.fake.wait_answer(self.fake.press(user, panel, playable(panel)[0]["callback_data"]))
        assert not answer.get("text"), answer
        await self.app.settled()


@contextlib.asynccontextmanager
async def scene_of(prefix: str, *, active_ttl: int = 14 * DAY, pictures: bool = False) -> AsyncIterator[Scene]:
    clock = SimClock()
    fake = FakeTelegram()
    await fake.start()
    try:
        async with (
            running_bot(
                fake,
                prefix,
                clock=clock,
                turn_timeout=TIMEOUT,
                active_ttl=active_ttl,
                pictures=pictures,
                postmortems=pictures,
            ) as app,
            clock.ticking(step=0.01, every=0.005),
        ):
            for user in PLAYERS:
                await start_bot(fake, user)
            yield Scene(fake, app, clock, app.presenter.i18n["ru"])
            await invariants.all_well(fake)
    finally:
        await fake.stop()


class TestTurnClock:
    """Ten minutes a move (TURN_TIMEOUT): a reminder at five, a forfeit at ten, each exactly once."""

    @pytest.mark.cluster
    async def test_reminder_then_forfeit(self, prefix: str, cleanup_redis: None) -> None:
        async with scene_of(prefix, pictures=True) as s:  # the card is a picture: the texts end with the 🔎
            match_id = await new_match(s.fake, ANN, BOB, GROUP)
            record, match = await s.state(match_id)
            assert record.turn_timeout == TIMEOUT
            late, other = PLAYERS[match.turn], PLAYERS[1 - match.turn]
            panel = panel_of(s.fake, late)
            assert panel is not None and s.tr("panel-clock", left="10 минут") in panel.text
            await s.at(record.updated + TIMEOUT / 2 - 20)
            assert s.reminders(late) == (0, 0)
            await s.at(record.updated + TIMEOUT / 2 + 5)
            await s.fake.wait_for(lambda: s.reminders(late) == (1, 1), what="the reminder", timeout=30)
            assert s.tr("reminder-private", left="5 минут") in s.private_texts(late)
            await s.at(record.updated + TIMEOUT - 20)
            assert s.reminders(late) == (1, 1) and s.reminders(other) == (0, 0)
            assert (await s.state(match_id))[0].is_active
            await s.at(record.updated + TIMEOUT + 5)
            await s.fake.wait_for(lambda: s.results("match-forfeit") == 1, what="the forfeit", timeout=30)
            for _ in range(3):
                await s.at(s.clock.time() + TIMEOUT)
            assert s.results("match-forfeit") == 1 and s.reminders(late) == (1, 1)
            final, _ = await s.state(match_id)
            assert not final.is_active and final.finish is Finish.FORFEIT
            assert final.winner == PLAYERS.index(other)
            [summary] = await s.app.services.results.history(chat_id=GROUP, limit=5)
            assert summary.finish is Finish.FORFEIT and summary.ratings is not None
            assert (await s.app.services.results.stats(late.id, GROUP)).lost == 1
            # Both players hear of it: their panel comes again, without buttons, saying why.
            for user in PLAYERS:
                assert panel_of(s.fake, user) is None
                await s.fake.wait_for(lambda u=user: s.private_texts(u)[-1].startswith("🔎"), what="the 🔎")
                *_, last, post_mortem = s.private_texts(user)
                assert "⏰" in last and post_mortem.startswith("🔎")
            assert await s.app.scheduler.due_at(f"t:{match_id}") is None

    async def test_a_move_restarts_the_clock(self, prefix: str, cleanup_redis: None) -> None:
        """A move before the reminder cancels the reminder and the forfeit it led to; the next player's
        clock starts at that move."""
        async with scene_of(prefix) as s:
            match_id = await new_match(s.fake, ANN, BOB, GROUP)
            start, match = await s.state(match_id)
            first = PLAYERS[match.turn]
            await s.at(start.updated + TIMEOUT / 2 - 50)
            await s.move(match_id)
            moved, match = await s.state(match_id)
            now_acting = PLAYERS[match.turn]
            await s.at(start.updated + TIMEOUT / 2 + 10)
            await s.at(start.updated + TIMEOUT + 10)
            assert s.reminders(first) == (0, 0) and s.results("match-forfeit") == 0
            assert (await s.state(match_id))[0].is_active
            await s.at(moved.updated + TIMEOUT / 2 + 5)
            await s.fake.wait_for(lambda: s.reminders(now_acting) == (1, 1), what="the reminder", timeout=30)
            await s.at(moved.updated + TIMEOUT + 5)
            await s.fake.wait_for(lambda: s.results("match-forfeit") == 1, what="the forfeit", timeout=30)
            final, _ = await s.state(match_id)
            assert final.winner == 1 - PLAYERS.index(now_acting)

    async def test_clock_off(self, prefix: str, cleanup_redis: None) -> None:
        """A group without a clock: hours pass, nobody is reminded, nothing ends."""
        async with scene_of(prefix) as s:
            await s.app.services.chats.update_settings(GROUP, turn_timeout=0)
            match_id = await new_match(s.fake, ANN, BOB, GROUP)
            record, match = await s.state(match_id)
            assert record.turn_timeout == 0
            panel = panel_of(s.fake, PLAYERS[match.turn])
            assert panel is not None and "⏰" not in panel.text
            for hours in (1, 6, 23):
                await s.at(record.updated + hours * 3600)
            assert all(s.reminders(u) == (0, 0) for u in PLAYERS)
            assert (await s.state(match_id))[0].is_active

    async def test_group_setting(self, prefix: str, cleanup_redis: None) -> None:
        """A group's one-minute clock: the reminder at 30 seconds, the forfeit at a minute."""
        async with scene_of(prefix) as s:
            await s.app.services.chats.update_settings(GROUP, turn_timeout=60)
            match_id = await new_match(s.fake, ANN, BOB, GROUP)
            record, match = await s.state(match_id)
            late = PLAYERS[match.turn]
            await s.at(record.updated + 31)
            await s.fake.wait_for(lambda: s.reminders(late) == (1, 1), what="the reminder", timeout=30)
            assert s.tr("reminder-private", left="30 секунд") in s.private_texts(late)
            await s.at(record.updated + 61)
            await s.fake.wait_for(lambda: s.results("match-forfeit") == 1, what="the forfeit", timeout=30)


class TestClaimTheWin:
    """With the clock off, the waiting player may take the win after a day without a move."""

    async def test_offer_after_a_day(self, prefix: str, cleanup_redis: None) -> None:
        async with scene_of(prefix) as s:
            await s.app.services.chats.update_settings(GROUP, turn_timeout=0)
            match_id = await new_match(s.fake, ANN, BOB, GROUP)
            record, match = await s.state(match_id)
            gone, waiting = PLAYERS[match.turn], PLAYERS[1 - match.turn]

            def offers(user: FakeUser) -> list[Sent]:
                return [
                    m
                    for m in s.fake.chat_messages(user.id)
                    if any(b.get("callback_data", "").startswith("cw:") for b in m.buttons())
                ]

            # Too early: a forged claim is refused and changes nothing (on the panel, a message of another kind;
            # on a message with no buttons, by the service: too early).
            panel = panel_of(s.fake, waiting)
            assert panel is not None
            answer = await s.fake.wait_answer(s.fake.press(waiting, panel, f"cw:{match_id}:{record.version}"))
            assert answer["text"] == s.tr("toast-bad-button")
            plain = await ask(s.fake, waiting, waiting.id, "/help")
            answer = await s.fake.wait_answer(s.fake.press(waiting, plain, f"cw:{match_id}:{record.version}"))
            assert answer["text"] == s.tr("toast-too-early")
            assert (await s.state(match_id))[0].is_active
            await s.at(record.updated + DAY - 60)
            assert offers(waiting) == [] and offers(gone) == []
            await s.at(record.updated + DAY + 5)
            await s.fake.wait_for(lambda: len(offers(waiting)) == 1, timeout=30, what="the offer")
            for _ in range(2):
                await s.at(s.clock.time() + 3600)
            assert len(offers(waiting)) == 1 and offers(gone) == []
            [offer] = offers(waiting)
            assert offer.text == s.tr("claim-offer", idle="1 день")
            data = button(offer, "cw:")["callback_data"]
            # The player who is gone cannot take it; the waiting one can.
            refused = await s.fake.wait_answer(s.fake.press(gone, offer, data))
            assert refused["text"] == s.tr("toast-claim-not-yours")
            assert (await s.state(match_id))[0].is_active
            answer = await s.fake.wait_answer(s.fake.press(waiting, offer, data))
            assert not answer.get("text")
            await s.app.settled()
            await s.fake.wait_for(lambda: s.results("match-forfeit") == 1, what="the result", timeout=30)
            final, _ = await s.state(match_id)
            assert final.finish is Finish.FORFEIT and final.winner == PLAYERS.index(waiting)
            assert offer.buttons() == []

    async def test_a_move_after_the_offer(self, prefix: str, cleanup_redis: None) -> None:
        """The opponent comes back and moves: the offer's button only says so."""
        async with scene_of(prefix) as s:
            await s.app.services.chats.update_settings(GROUP, turn_timeout=0)
            match_id = await new_match(s.fake, ANN, BOB, GROUP)
            record, match = await s.state(match_id)
            waiting = PLAYERS[1 - match.turn]
            await s.at(record.updated + DAY + 5)
            offer = await s.fake.wait_for(
                lambda: next(
                    (m for m in s.fake.chat_messages(waiting.id) if m.buttons() and "cw:" in str(m.buttons())), None
                ),
                timeout=30,
                what="the offer",
            )
            await s.move(match_id)
            answer = await s.fake.wait_answer(s.fake.press(waiting, offer, button(offer, "cw:")["callback_data"]))
            assert answer["text"] == s.tr("toast-opponent-moved")
            assert (await s.state(match_id))[0].is_active


class TestAbandoned:
    """Nobody moves for ACTIVE_TTL: the match ends unrated, everyone is told, both may play again."""

    async def test_abandoned(self, prefix: str, cleanup_redis: None) -> None:
        async with scene_of(prefix, active_ttl=3 * DAY) as s:
            await s.app.services.chats.update_settings(GROUP, turn_timeout=0)
            match_id = await new_match(s.fake, ANN, BOB, GROUP)
            record, _ = await s.state(match_id)
            await s.at(record.updated + 3 * DAY - 60)
            assert (await s.state(match_id))[0].is_active
            await s.at(record.updated + 3 * DAY + 5)
            await s.fake.wait_for(lambda: s.results("match-abandoned") == 1, what="the notice", timeout=30)
            for _ in range(2):
                await s.at(s.clock.time() + DAY)
            assert s.results("match-abandoned") == 1
            final, _ = await s.state(match_id)
            assert not final.is_active and final.finish is Finish.ABANDONED and final.winner is None
            [summary] = await s.app.services.results.history(chat_id=GROUP, limit=5)
            assert summary.finish is Finish.ABANDONED and summary.winner is None and summary.ratings is None
            for user in PLAYERS:
                assert (await s.app.services.results.stats(user.id, GROUP)).played == 0
                assert panel_of(s.fake, user) is None
                assert "💤" in s.private_texts(user)[-1]
            # Free to play again.
            again = await challenge(s.fake, ANN, GROUP)
            assert button(again, "j:")


class TestChallengeExpiry:
    """A challenge expires on the scheduler: its message says so, and a late join is refused."""

    @pytest.mark.cluster
    async def test_accept_left_half_done(self, prefix: str, cleanup_redis: None) -> None:
        """The bot dies between an accept's step in the chat's slot and the match's own (here: that step
        fails): a few seconds later the challenge's job carries the accept through. The match is written,
        the challenge's message says it was accepted (not that it expired), the panels go out and the match
        plays."""
        async with scene_of(prefix) as s:
            message = await challenge(s.fake, ANN, GROUP)
            cid = button(message, "j:")["callback_data"].removeprefix("j:")
            services = s.app.services
            created = services.challenges.created

            async def died(*_: Any) -> None:
                raise RuntimeError("the process died here")

            services.challenges.created = died  # type: ignore[method-assign,assignment]
            answer = await s.fake.wait_answer(s.fake.press(BOB, message, f"j:{cid}"))
            services.challenges.created = created  # type: ignore[method-assign]
            await s.app.settled()
            match_id = await services.records.active_match(GROUP, ANN.id)
            assert match_id is not None and await services.records.active_match(GROUP, BOB.id) == match_id
            assert panel_of(s.fake, ANN) is None and panel_of(s.fake, BOB) is None  # nothing went out yet
            assert answer is not None
            await s.at(s.clock.time() + 6)
            await s.fake.wait_for(lambda: not message.buttons(), what="the challenge's message", timeout=30)
            assert message.text != s.tr("challenge-expired", creator="Ann")
            await s.fake.wait_for(lambda: all(panel_of(s.fake, u) for u in PLAYERS), what="the panels", timeout=30)
            await s.move(match_id)
            assert (await s.state(match_id))[0].version == 1
            await s.at(s.clock.time() + 400)  # past the challenge's time: nothing says it expired
            assert s.tr("challenge-expired", creator="Ann") not in s.group_texts()

    async def test_expires(self, prefix: str, cleanup_redis: None) -> None:
        async with scene_of(prefix) as s:
            message = await challenge(s.fake, ANN, GROUP)
            cid = button(message, "j:")["callback_data"].removeprefix("j:")
            stored = await s.app.services.challenges.notice(cid)
            assert stored is not None
            await s.at(stored.expires - 5)
            assert message.buttons()
            await s.at(stored.expires + 1)
            await s.fake.wait_for(lambda: not message.buttons(), what="the expiry", timeout=30)
            assert message.text == s.tr("challenge-expired", creator="Ann")
            late = await ask(s.fake, BOB, BOB.id, f"/start j_{cid}")
            assert late.text == s.tr("toast-challenge-gone")
            await s.app.settled()
            assert panel_of(s.fake, BOB) is None
            assert await s.app.services.challenges.notice(cid) is None
