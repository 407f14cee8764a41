"""A tournament always ends, and is never lost, over the fake Bot API on real Redis: a player busy in a match
against the computer forfeits after the clock (on a simulated clock) and the group is told; a deleted sign-up
message is posted again by ``/tournament`` and the tournament starts from the new one; an end whose picture the
group refuses is announced as a text; a tournament goes on across a supergroup upgrade; the organiser or an admin
removes a player and stops a tournament, and everyone else (an admin of another group too) is refused.

Matches here are to one game point (one deal each).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable

import pytest

from bot import render
from bot.models import Status
from tests.e2e.conftest import running_bot
from tests.e2e.driver import ask, held_panel, newest_id, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.simclock import SimClock
from tests.e2e.test_tournaments import (
    TR,
    announced_in,
    announcements,
    finished,
    press,
    press_randomly,
    sign_up_rest,
    tournament_id,
)

GROUP = -100960
OTHER = -100961
PLAYERS = [FakeUser(9600 + i, name, f"{name.lower()}_te", "ru") for i, name in
           enumerate(["Ira", "Jan", "Kim", "Lev"])]  # fmt: skip
IRA, JAN, KIM, LEV = PLAYERS


async def until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 30) -> None:
    """Look every 20 ms until ``check()`` is true; fail naming ``what`` after ``timeout`` real seconds."""
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


async def told(fake: FakeTelegram, user: FakeUser, chat_id: int, command: str, text: str, **reply: object) -> None:
    """The user writes ``command`` (``reply``: in reply to a message); the bot answers ``text`` in that chat (among
    whatever else it sends meanwhile, a match's table say)."""
    after = newest_id(fake, chat_id)
    fake.send_text(user, chat_id, command, **reply)  # type: ignore[arg-type]
    await fake.wait_for(lambda: any(m.text == text for m in fake.chat_messages(chat_id) if m.message_id > after),
                        what=f"{text!r} answering {command}")  # fmt: skip


def buttons_of(fake: FakeTelegram, group: int, message_id: int) -> list[str]:
    sent = fake.messages.get((group, message_id))
    return [] if sent is None else [str(b.get("callback_data")) for b in sent.buttons()]


async def started_tournament(fake: FakeTelegram, group: int, players: list[FakeUser]) -> tuple[Sent, str]:
    """The first player opens a tournament in ``group``, the others sign up, the first starts it; its message (with
    🚪 on it) and its id."""
    message = await ask(fake, players[0], group, "/tournament")
    tid = tournament_id(message)
    message, _ = await sign_up_rest(fake, message, tid, players)
    assert not (await press(fake, players[0], message, f"tn:{tid}:s")).get("text")
    await fake.wait_for(lambda: f"tn:{tid}:l" in buttons_of(fake, group, message.message_id), what="the 🚪 button")
    return fake.messages[(group, message.message_id)], tid


class TestBusyPlayer:
    async def test_a_player_playing_the_computer_forfeits(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        """Ira plays the computer in the group (no clock) while a round robin of three starts: Jan and Kim play,
        Ira's two pairings wait the group's clock (two minutes), then go to her opponents without play; the group
        is told, and the tournament ends with a champion."""
        clock = SimClock()
        fake.clock = clock.monotonic
        players = PLAYERS[:3]
        async with clock.ticking(step=0.01), running_bot(fake, prefix, clock=clock, pictures=False) as app:
            for user in players:
                await start_bot(fake, user)
            await app.services.chats.update_settings(GROUP, target=1, turn_timeout=120)
            fake.send_text(IRA, GROUP, "/play bot easy")
            await fake.wait_for(lambda: held_panel(fake, IRA), what="Ira's match against the computer")
            # Its table too, before /tournament: the first message after the command must be the sign-up.
            await app.settled()
            own = await app.services.records.active_match(GROUP, IRA.id)
            assert own is not None
            message = await ask(fake, JAN, GROUP, "/tournament")
            tid = tournament_id(message)
            message, _ = await sign_up_rest(fake, message, tid, [JAN, IRA, KIM])
            assert not (await press(fake, JAN, message, f"tn:{tid}:s")).get("text")

            async def first_played() -> bool:
                t = await finished(app.services, tid)
                return any(p.done and p.match is not None for p in t.pairings)

            await press_randomly(fake, [JAN, KIM], random.Random(1), first_played)
            t = await finished(app.services, tid)
            assert not any(p.match for p in t.pairings if t.entrant_of(IRA.id) in (p.a, p.b))

            async def waiting() -> bool:
                return any(p.waiting for p in (await finished(app.services, tid)).pairings)

            await until(waiting, "Ira's pairings to wait for her")
            clock.advance(121)
            await app.scheduler.run_due()
            told = TR("tournament-busy-forfeit", name=IRA.first_name, opponent=JAN.first_name,
                      clock=render.clock_text(TR, 120))  # fmt: skip
            await fake.wait_for(lambda: any(told in m.text for m in fake.chat_messages(GROUP)),
                                what="the group told of Ira's forfeit")  # fmt: skip
            await until(announced_in(fake, GROUP, TR), "the end announced")
            t = await finished(app.services, tid)
            ira = t.entrant_of(IRA.id)
            assert t.status == "finished" and t.champion is not None and t.champion != ira
            assert all(p.forfeit and p.winner != ira and p.match is None for p in t.pairings if ira in (p.a, p.b))
            record, _ = await app.services.records.get(own)
            assert record.status is Status.ACTIVE, "Ira's own match goes on"
            await app.settled()


class TestMessage:
    async def test_a_deleted_sign_up_posted_again(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """The organiser's /cancel without a reply cancels the sign-up. A sign-up message deleted by an admin:
        /tournament posts it again with its buttons, and the new one is the tournament's; posted once more, the
        one before loses its buttons (a press there is stale); the tournament starts from the newest, and the
        organiser's /cancel is then told to stop it instead."""
        players = PLAYERS[:3]
        async with running_bot(fake, prefix) as app:
            for user in players:
                await start_bot(fake, user)
            await app.services.chats.update_settings(GROUP, target=1)
            first = await ask(fake, IRA, GROUP, "/tournament")
            fake.send_text(IRA, GROUP, "/cancel")
            cancelled = TR("tournament-cancelled", creator=IRA.first_name)
            await fake.wait_for(lambda: fake.messages[(GROUP, first.message_id)].text == cancelled,
                                what="the sign-up cancelled by /cancel without a reply")  # fmt: skip
            message = await ask(fake, IRA, GROUP, "/tournament")
            tid = tournament_id(message)
            message, _ = await sign_up_rest(fake, message, tid, players)
            fake.delete(GROUP, message.message_id)
            again = await ask(fake, KIM, GROUP, "/tournament")
            assert buttons_of(fake, GROUP, again.message_id) == [f"tn:{tid}:j", f"tn:{tid}:s"]
            assert all(u.first_name in again.text for u in players)

            async def message_is(message_id: int) -> bool:
                return (await finished(app.services, tid)).message_id == message_id

            await until(lambda: message_is(again.message_id), "the new message to be the tournament's")
            newest = await ask(fake, JAN, GROUP, "/tournament")
            await until(lambda: message_is(newest.message_id), "the newest message to be the tournament's")
            await fake.wait_for(lambda: not buttons_of(fake, GROUP, again.message_id),
                                what="the message before losing its buttons")  # fmt: skip
            stale = await press(fake, IRA, again, f"tn:{tid}:s")
            assert stale.get("text") == TR("toast-stale")
            assert not (await press(fake, IRA, newest, f"tn:{tid}:s")).get("text")
            await fake.wait_for(lambda: f"tn:{tid}:l" in buttons_of(fake, GROUP, newest.message_id),
                                what="the tournament started on the newest message")  # fmt: skip
            assert (await finished(app.services, tid)).status == "running"
            await told(fake, IRA, GROUP, "/cancel", TR("tournament-cancel-running"))


class TestAnnouncement:
    async def test_a_refused_picture_goes_as_text(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A group where the bot may not send pictures (sendPhoto answers 400) gets the end as a text, once."""
        players = PLAYERS[:3]
        fake.no_photos.add(GROUP)
        async with running_bot(fake, prefix, pictures=True) as app:
            for user in players:
                await start_bot(fake, user)
            await app.services.chats.update_settings(GROUP, target=1)
            _, tid = await started_tournament(fake, GROUP, players)
            await press_randomly(fake, players, random.Random(7), announced_in(fake, GROUP, TR))
            await app.settled()
            t = await finished(app.services, tid)
            assert t.status == "finished" and t.champion is not None
            [ending] = announcements(fake, GROUP)
            assert ending.photo is None and t.entrants[t.champion].player.name in ending.text
            refused = [c for c in fake.calls if c.method == "sendPhoto" and c.params.get("chat_id") == str(GROUP)]
            assert refused and all(c.status == 400 for c in refused)


class TestSupergroup:
    @pytest.mark.cluster
    async def test_it_goes_on_in_the_supergroup(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """The group becomes a supergroup while a round robin runs: the tournament goes on under the new id, its
        message is posted there with its button, it ends there, and the champion's win counts there."""
        new = GROUP - 1_000_000
        players = PLAYERS[:3]
        rng = random.Random(11)
        async with running_bot(fake, prefix) as app:
            for user in players:
                await start_bot(fake, user)
            await app.services.chats.update_settings(GROUP, target=1)
            _, tid = await started_tournament(fake, GROUP, players)
            await fake.wait_for(lambda: any(held_panel(fake, u) for u in players), what="the first match's panels")
            fake.migrate(IRA, GROUP, new)

            async def moved() -> bool:
                return await app.services.tournaments.current(new) is not None

            await until(moved, "the tournament in the supergroup")
            t = await app.services.tournaments.current(new)
            assert t is not None and t.id != tid and t.chat_id == new
            leave = f"tn:{t.id}:l"
            await fake.wait_for(
                lambda: any(leave in buttons_of(fake, new, m.message_id) for m in fake.chat_messages(new)),
                what="its message in the supergroup",
            )
            assert await app.services.tournaments.current(GROUP) is None
            await press_randomly(fake, players, rng, announced_in(fake, new, TR))
            await app.settled()
            t = await finished(app.services, t.id)
            assert t.status == "finished" and t.champion is not None
            for p in t.pairings:
                record, _ = await app.services.records.get(p.match or "")
                assert record.chat_id == new and record.tournament == t.id
            champion = next(u for u in players if u.id == t.entrants[t.champion or 0].player.id)
            assert await app.services.tournaments.wins(new, champion.id) == 1
            stats = await ask(fake, champion, new, "/stats")
            assert TR("stats-tournaments", n=1) in stats.text


class TestOrganiser:
    async def test_kick_and_stop(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Jan, an admin of another group only, and Kim, a player, are refused; Lev, an admin of this group,
        removes Kim in reply to her message (her match is given up); the organiser stops the tournament: the
        standings so far are posted, nobody is champion."""
        async with running_bot(fake, prefix) as app:
            for user in PLAYERS:
                await start_bot(fake, user)
            fake.admins[OTHER] = {JAN.id}
            fake.admins[GROUP] = {LEV.id}
            await app.services.chats.update_settings(GROUP, target=7)
            board, tid = await started_tournament(fake, GROUP, PLAYERS)
            await fake.wait_for(lambda: held_panel(fake, KIM), what="Kim's first match")
            manage_only = TR("toast-tournament-creator-only")
            await told(fake, JAN, GROUP, f"/tournament kick @{KIM.username}", manage_only)
            await told(fake, KIM, GROUP, "/tournament stop", manage_only)
            await told(fake, JAN, GROUP, "/tournament stop", manage_only)
            await told(fake, JAN, OTHER, "/tournament stop", TR("tournament-none"))
            assert (await finished(app.services, tid)).status == "running"
            await told(fake, LEV, GROUP, "/tournament kick", TR("tournament-kick-who"))
            said = fake.send_text(KIM, GROUP, "I am off")
            kicked = TR("tournament-kicked", name=KIM.first_name, signup="no")
            await told(fake, LEV, GROUP, "/tournament kick", kicked, reply_to=said)
            t = await finished(app.services, tid)
            kim = t.entrant_of(KIM.id)
            assert kim is not None and t.entrants[kim].removed
            [played] = [p for p in t.pairings if p.match and kim in (p.a, p.b)]

            async def given_up() -> bool:
                p = (await finished(app.services, tid)).pairing_of(played.match or "")
                return p is not None and p.done

            await until(given_up, "Kim's match given up")
            t = await finished(app.services, tid)
            p = t.pairing_of(played.match or "")
            assert p is not None and p.winner is not None and p.winner != kim
            fake.send_text(IRA, GROUP, "/tournament stop")
            stopped = TR("tournament-stopped-announce", game=TR("preset-bingo"), n=4, name=IRA.first_name, format="rr")
            await fake.wait_for(lambda: any(m.text.startswith(stopped) for m in fake.chat_messages(GROUP)),
                                what="the standings so far")  # fmt: skip
            line = TR("tournament-stopped", name=IRA.first_name)
            await fake.wait_for(
                lambda: line in fake.messages[(GROUP, board.message_id)].text, what="the message stopped"
            )
            assert not buttons_of(fake, GROUP, board.message_id)
            t = await finished(app.services, tid)
            assert t.status == "stopped" and t.champion is None
            assert await app.services.tournaments.current(GROUP) is None
            assert all([await app.services.tournaments.wins(GROUP, u.id) == 0 for u in PLAYERS])
