"""The scheduler's jobs (``bot/timers.py``) over the services on fakeredis, on a clock the test moves: challenges
that expire, each match's turn clock, and the computer's moves; what they show goes to a recording outbox."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot import render
from bot.callbacks import ClaimWinCb
from bot.codec import StoredDeal
from bot.models import Finish, MatchRecord, MoveResult, Status
from bot.scheduler import clock_job
from bot.storage.challenges import Accepted
from engine import Match
from tests.backends import Backend
from tests.bot.helpers import ALA, BOB, CHAT, start_match
from tests.bot.test_delivery import TR, World, lead, shown_match, world_on

TIMEOUT = 600
CLAIM_AFTER = 3600
ACTIVE_TTL = 7 * 86400
MESSAGE = 77


@pytest.fixture
async def world(backend: Backend) -> AsyncIterator[World]:
    async with world_on(backend, turn_timeout=TIMEOUT, claim_after=CLAIM_AFTER, active_ttl=ACTIVE_TTL) as built:
        yield built


def wait(world: World, until: float) -> None:
    """Move the clock on to ``until``."""
    world.clock.advance(until - world.clock.time())


async def computer_match(world: World, seed: int = 1) -> tuple[MatchRecord, Match]:
    """A match of Ala against the computer (easy) in the group."""
    challenge = await world.services.challenges.open(CHAT, ALA, "bingo", "ru")
    record = await world.services.challenges.play_computer(challenge.id, ALA.id, "easy", "🤖", seed=seed)
    return await world.services.records.get(record.id)


async def person_to_act(world: World, record: MatchRecord, match: Match) -> tuple[MatchRecord, Match]:
    """The computer's moves, each when due, until the person is to act."""
    while match.turn == 1:
        computer = world.services.seats.computer_to_act(record, match)
        assert computer is not None
        wait(world, computer.due(record))
        await world.timers.match_due(record.id)
        record, match = await world.services.records.get(record.id)
    return record, match


class TestChallengeDue:
    """``challenge_due``: an open challenge's message says it expired, once; an accept left half done is finished."""

    async def test_not_yet(self, world: World) -> None:
        """Before its time the challenge is left alone, and the job is due again at its expiry."""
        challenge = await world.services.challenges.open(CHAT, ALA, "bingo", "ru")
        await world.services.challenges.set_message(challenge, MESSAGE)
        wait(world, challenge.expires - 1)
        assert await world.timers.challenge_due(challenge.id) == challenge.expires
        assert world.outbox.calls == []
        assert await world.services.challenges.challenge(challenge.id) is not None

    async def test_expires_once(self, world: World) -> None:
        """At its time its message is edited to say so and the challenge is gone; a second run does nothing."""
        challenge = await world.services.challenges.open(CHAT, ALA, "bingo", "ru")
        challenge = await world.services.challenges.set_message(challenge, MESSAGE)
        wait(world, challenge.expires)
        assert await world.timers.challenge_due(challenge.id) is None
        [edit] = world.outbox.calls
        text = render.challenge_closed_text(TR, challenge, "challenge-expired")
        assert (edit.kind, edit.chat, edit.message_id, edit.text, edit.markup) == (
            "edit_now",
            CHAT,
            MESSAGE,
            text,
            None,
        )
        assert await world.services.challenges.notice(challenge.id) is None
        assert await world.services.challenges.open_challenge_of(CHAT, ALA.id) is None
        assert await world.timers.challenge_due(challenge.id) is None
        assert len(world.outbox.calls) == 1

    async def test_accept_carried_through(self, world: World) -> None:
        """An accept whose process died after the chat's step: the match is written, its clock set, the challenge's
        message says it began, and the match's messages go out."""
        services = world.services
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        challenge = await services.challenges.set_message(challenge, MESSAGE)
        raw = await services.stores.challenges.read(challenge.id)
        assert raw is not None
        match = Match.new("bingo", 1)
        now = world.clock.time()
        record = MatchRecord(id="half-done", chat_id=CHAT, players=(ALA, BOB), lang="ru", created=now, updated=now,
                             deal=StoredDeal.of(match), turn_timeout=TIMEOUT)  # fmt: skip
        accepted = await services.stores.challenges.accept(
            challenge, raw, BOB.id, record.id, record.model_dump_json(), ttl=services.terms.keep_ttl
        )
        assert accepted is Accepted.ACCEPTED
        assert await services.stores.matches.record(record.id) is None  # the process died here
        assert await world.timers.challenge_due(challenge.id) is None
        stored, _ = await services.records.get(record.id)
        assert stored == record
        assert await services.records.user_matches(ALA.id) == [record.id]
        assert await services.scheduler.due_at(clock_job(record.id)) == now + TIMEOUT / 2
        [edit] = world.outbox.to(CHAT, "edit_now")
        text = render.challenge_accepted_text(TR, record, "bingo", match.deal.target)
        assert (edit.kind, edit.message_id, edit.text, edit.version) == ("edit_now", MESSAGE, text, 1)
        await world.delivery.idle()
        assert [c.kind for c in world.outbox.to(CHAT)] == ["edit_now", "send"]
        assert all(world.outbox.to(p.id) for p in record.players)
        assert await world.timers.challenge_due(challenge.id) is None
        assert len(world.outbox.to(CHAT)) == 2


class TestTurnClock:
    """``match_due`` with a clock: the reminder at half the time, the forfeit at the deadline."""

    async def test_reminder_once_per_version(self, world: World) -> None:
        """At half the time the player to act is reminded in private and named in the group, once per version; the
        job is due again at half the time, then at the deadline."""
        record, match = await start_match(world.services)
        seat = match.turn
        assert seat is not None and record.turn_timeout == TIMEOUT
        assert await world.timers.match_due(record.id) == record.updated + TIMEOUT / 2
        world.clock.advance(TIMEOUT / 2 - 1)
        assert await world.timers.match_due(record.id) == record.updated + TIMEOUT / 2
        assert world.outbox.calls == []
        world.clock.advance(1)
        assert await world.timers.match_due(record.id) == record.updated + TIMEOUT
        private, group = render.reminder_texts(TR, record, seat, TIMEOUT / 2)
        assert [(c.kind, c.chat, c.text) for c in world.outbox.calls] == [
            ("send", record.players[seat].id, private),
            ("send", CHAT, group),
        ]
        assert await world.timers.match_due(record.id) == record.updated + TIMEOUT
        assert len(world.outbox.calls) == 2
        result = await world.services.moves.submit(record.id, record.players[seat].id, lead(match), version=0)
        world.clock.advance(TIMEOUT / 2)
        assert await world.timers.match_due(record.id) == result.record.updated + TIMEOUT
        assert [c.chat for c in world.outbox.calls[2:]] == [record.players[1 - seat].id, CHAT]

    async def test_forfeit(self, world: World) -> None:
        """At the deadline the player to act loses (counted), the job is done, and both panels come anew."""
        record, match, before = await shown_match(world)
        seat = match.turn
        assert seat is not None
        world.clock.advance(TIMEOUT - 1)
        assert await world.timers.match_due(record.id) == record.updated + TIMEOUT
        assert (await world.services.records.get(record.id))[0].is_active
        world.outbox.clear()
        world.clock.advance(1)
        assert await world.timers.match_due(record.id) is None
        ended, _ = await world.services.records.get(record.id)
        assert (ended.status, ended.finish, ended.winner) == (Status.FINISHED, Finish.FORFEIT, 1 - seat)
        loser = await world.services.results.stats(record.players[seat].id)
        assert (loser.played, loser.lost) == (1, 1)
        await world.delivery.idle()
        messages = await world.services.stores.matches.messages(record.id)
        for s, player in enumerate(record.players):
            calls = world.outbox.to(player.id)
            assert calls[0].kind == "send" and calls[0].message_id == messages.panels[s]
            assert ("delete", before.panels[s]) in [(c.kind, c.message_id) for c in calls]
        assert await world.services.stores.matches.screens_due() == []


class TestClockOff:
    """``match_due`` without a clock: the offer to claim the win, and the end of a match nobody plays."""

    async def test_claim_offer(self, world: World) -> None:
        """After ``claim_after`` the waiting player is offered the win, once; then the job waits for abandonment."""
        await world.services.chats.update_settings(CHAT, turn_timeout=0)
        record, match = await start_match(world.services)
        seat = match.turn
        assert seat is not None and record.turn_timeout == 0
        assert await world.timers.match_due(record.id) == record.updated + CLAIM_AFTER
        world.clock.advance(CLAIM_AFTER)
        assert await world.timers.match_due(record.id) == record.updated + ACTIVE_TTL
        [offer] = world.outbox.calls
        assert (offer.kind, offer.chat) == ("send", record.players[1 - seat].id)
        assert offer.text == TR("claim-offer", idle=render.duration(TR, CLAIM_AFTER))
        assert isinstance(offer.markup, InlineKeyboardMarkup)
        [[button]] = offer.markup.inline_keyboard
        assert button.callback_data == ClaimWinCb(m=record.id, v=record.version).pack()
        assert await world.timers.match_due(record.id) == record.updated + ACTIVE_TTL
        assert len(world.outbox.calls) == 1

    async def test_no_offer_to_the_computer(self, world: World) -> None:
        """The computer waiting on a person is never offered the win."""
        record, _ = await person_to_act(world, *await computer_match(world))
        await world.delivery.idle()
        world.outbox.clear()
        world.clock.advance(CLAIM_AFTER)
        assert await world.timers.match_due(record.id) == record.updated + ACTIVE_TTL
        assert world.outbox.calls == []

    async def test_abandoned(self, world: World) -> None:
        """After ``active_ttl`` without a move the match ends as abandoned, the job is done and both panels come
        anew."""
        await world.services.chats.update_settings(CHAT, turn_timeout=0)
        record, _, before = await shown_match(world)
        world.clock.advance(ACTIVE_TTL)
        assert await world.timers.match_due(record.id) is None
        ended, _ = await world.services.records.get(record.id)
        assert (ended.status, ended.finish, ended.winner) == (Status.ABANDONED, Finish.ABANDONED, None)
        await world.delivery.idle()
        for seat, player in enumerate(record.players):
            assert ("delete", before.panels[seat]) in [(c.kind, c.message_id) for c in world.outbox.to(player.id)]
        assert await world.services.stores.matches.screens_due() == []

    async def test_nothing_to_do(self, world: World) -> None:
        """A match that is gone or over needs its clock no more."""
        record, _ = await start_match(world.services)
        await world.services.moves.surrender(record.id, ALA.id)
        assert await world.timers.match_due(record.id) is None
        assert await world.timers.match_due("no-such-match") is None
        assert world.outbox.calls == []


class TestComputer:
    """``match_due`` on the computer's turn: its move once its pause is over, never before."""

    async def test_moved_on_meanwhile(self, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
        """The match changed while the computer chose (the person surrendered): its move is refused, and the job
        looks again at once (finding nothing left to do)."""
        services = world.services
        record, match = await computer_match(world)
        if match.turn == 0:
            record = (await services.moves.submit(record.id, ALA.id, lead(match))).record
        submit = services.moves.submit

        async def surrendered_first(*args: Any, **kwargs: Any) -> MoveResult:
            await services.moves.surrender(record.id, ALA.id)
            return await submit(*args, **kwargs)

        monkeypatch.setattr(services.moves, "submit", surrendered_first)
        world.clock.advance(2 * services.terms.computer_pause)
        assert await world.timers.match_due(record.id) == world.clock.time()
        ended, _ = await services.records.get(record.id)
        assert ended.status is Status.FINISHED and ended.version == record.version + 1
        assert await world.timers.match_due(record.id) is None

    async def test_moves_when_due(self, world: World) -> None:
        """Before its time nothing moves and the job is due at it; then the computer moves (shown), and the job is
        due at its next move, or at the clock's next look when the person is to act."""
        services = world.services
        record, match = await computer_match(world)
        rng = random.Random(2)
        seen: set[str] = set()
        while seen != {"computer", "clock"}:
            assert not match.is_over
            if match.turn == 0:
                result = await services.moves.submit(record.id, ALA.id, rng.choice(match.legal_actions()))
                record, match = result.record, result.match
                continue
            computer = services.seats.computer_to_act(record, match)
            assert computer is not None
            due = computer.due(record)
            world.clock.advance(0.5)
            assert await world.timers.match_due(record.id) == due
            assert (await services.records.get(record.id))[0].version == record.version
            world.outbox.clear()
            wait(world, due)
            following = await world.timers.match_due(record.id)
            moved, after = await services.records.get(record.id)
            assert moved.version == record.version + 1 and moved.recent[-1] == computer.request_id(record)
            if after.turn == 1:
                assert following == computer.due(moved)
                seen.add("computer")
            else:
                assert following == moved.updated + CLAIM_AFTER
                seen.add("clock")
            await world.delivery.idle()
            assert world.outbox.to(ALA.id) and world.outbox.to(CHAT)
            record, match = moved, after
