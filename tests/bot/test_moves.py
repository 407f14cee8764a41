"""Moves through the service: applying, every rejection, idempotent requests, several service instances."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest

from bot.models import MatchRecord, Messages, Rejection
from bot.services import Services
from bot.services.errors import Rejected
from bot.services.moves import RECENT_REQUESTS
from engine import Action, Match, Refusal, apply
from engine.actions import PLAY
from tests.backends import Backend
from tests.bot.helpers import STRANGER, play_random, start_match, to_move, waiting


def tile_of(match: Match, seat: int) -> Action:
    """A play of the lowest tile in ``seat``'s hand."""
    hand = match.deal.hands[seat]
    return PLAY[(hand & -hand).bit_length() - 1]


async def after_first_trick(services: Services) -> tuple[MatchRecord, Match]:
    """A bingo match after its first trick: version 2 or more, the seat to move leading."""
    record, match = await start_match(services)
    result = await services.moves.submit(record.id, to_move(record, match).id, match.legal_actions()[0], version=0)
    record, match = result.record, result.match
    while match.deal.lead >= 0:
        result = await services.moves.submit(record.id, to_move(record, match).id, match.legal_actions()[0])
        record, match = result.record, result.match
    return record, match


class TestSubmit:
    """submit: a legal move is applied once and bumps the version."""

    @pytest.mark.parametrize("as_text", [False, True], ids=["action", "notation"])
    async def test_legal_move(self, services: Services, as_text: bool) -> None:
        """The stored match is the engine's match after the action, at version 1, with the request id kept."""
        record, match = await start_match(services)
        action = match.legal_actions()[0]
        result = await services.moves.submit(
            record.id, to_move(record, match).id, action.notation() if as_text else action, version=0, request_id="q1"
        )
        assert (result.record.version, result.record.recent, result.duplicate) == (1, ["q1"], False)
        assert result.match == apply(match, action)
        assert result.finished_deal is None and result.summary is None
        assert result.record.deal.a == action.notation()
        stored, stored_match = await services.records.get(record.id)
        assert stored == result.record
        assert stored_match == result.match

    async def test_no_version(self, services: Services) -> None:
        """Without a version the move is checked against the match as it is now."""
        record, match = await start_match(services)
        result = await services.moves.submit(record.id, to_move(record, match).id, match.legal_actions()[-1])
        assert result.record.version == 1

    async def test_recent_requests(self, services: Services) -> None:
        """The record keeps only the last few request ids, newest last."""
        record, match = await start_match(services)
        for n in range(RECENT_REQUESTS + 3):
            player = to_move(record, match)
            result = await services.moves.submit(record.id, player.id, match.legal_actions()[0], request_id=f"q{n}")
            record, match = result.record, result.match
        assert record.recent == [f"q{n}" for n in range(3, RECENT_REQUESTS + 3)]

    async def test_input_not_mutated(self, services: Services) -> None:
        """A match the service returned is never changed by a later move."""
        record, match = await start_match(services)
        before = match.copy()
        result = await services.moves.submit(record.id, to_move(record, match).id, match.legal_actions()[0])
        kept = result.match.copy()
        await play_random(services, result.record, result.match, random.Random(3), moves=5)
        assert match == before
        assert result.match == kept

    async def test_finished_deal(self, services: Services) -> None:
        """The move that ends a deal returns that deal, and the match goes on with the next one."""
        record, match = await start_match(services, target=20, seed=2)
        rng = random.Random(2)
        while True:
            result = await play_random(services, record, match, rng, moves=1)
            if result.finished_deal is not None:
                break
            record, match = result.record, result.match
        assert result.finished_deal.end is not None
        assert result.finished_deal.number == 1
        assert result.match.deal.number == 2
        assert result.match.deal.actions == []
        assert result.match.score == tuple(result.finished_deal.score)
        assert (await services.records.get(record.id))[1] == result.match


Attempt = Callable[[Services, MatchRecord, Match], Awaitable[object]]


def _not_a_player(s: Services, r: MatchRecord, m: Match) -> Awaitable[object]:
    return s.moves.submit(r.id, STRANGER, m.legal_actions()[0], version=r.version)


def _not_your_turn(s: Services, r: MatchRecord, m: Match) -> Awaitable[object]:
    assert m.turn is not None
    return s.moves.submit(r.id, waiting(r, m).id, tile_of(m, 1 - m.turn), version=r.version)


def _not_in_hand(s: Services, r: MatchRecord, m: Match) -> Awaitable[object]:
    assert m.turn is not None
    return s.moves.submit(r.id, to_move(r, m).id, tile_of(m, 1 - m.turn), version=r.version)


def _action(text: str, version_shift: int = 0) -> Attempt:
    def attempt(s: Services, r: MatchRecord, m: Match) -> Awaitable[object]:
        return s.moves.submit(r.id, to_move(r, m).id, text, version=r.version + version_shift)

    return attempt


def _stale(version_shift: int) -> Attempt:
    def attempt(s: Services, r: MatchRecord, m: Match) -> Awaitable[object]:
        return s.moves.submit(r.id, to_move(r, m).id, m.legal_actions()[0], version=r.version + version_shift)

    return attempt


@dataclass(frozen=True)
class Case:
    attempt: Attempt
    reason: Rejection
    refusal: Refusal | None = None
    over: bool = False
    """Surrender first, so the match is over when the attempt is made."""


CASES: dict[str, Case] = {
    "stranger": Case(_not_a_player, Rejection.NOT_A_PLAYER),
    "stranger-surrenders": Case(lambda s, r, m: s.moves.surrender(r.id, STRANGER), Rejection.NOT_A_PLAYER),
    "not-your-turn": Case(_not_your_turn, Rejection.NOT_YOUR_TURN),
    "not-in-hand": Case(_not_in_hand, Rejection.ILLEGAL, Refusal.NOT_IN_HAND),
    "bid-in-bingo": Case(_action("B12"), Rejection.ILLEGAL, Refusal.WRONG_PHASE),
    "take-while-leading": Case(_action("I"), Rejection.ILLEGAL, Refusal.WRONG_PHASE),
    "junk": Case(_action("zz"), Rejection.ILLEGAL),
    "empty": Case(_action(""), Rejection.ILLEGAL),
    "old-version": Case(_stale(-1), Rejection.STALE),
    "future-version": Case(_stale(1), Rejection.STALE),
    "no-match": Case(
        lambda s, r, m: s.moves.submit("nope", to_move(r, m).id, m.legal_actions()[0]), Rejection.NO_MATCH
    ),
    "no-match-surrender": Case(lambda s, r, m: s.moves.surrender("nope", r.players[0].id), Rejection.NO_MATCH),
    "no-match-abandon": Case(lambda s, r, m: s.moves.abandon("nope"), Rejection.NO_MATCH),
    "over": Case(_stale(0), Rejection.MATCH_OVER, over=True),
    "over-other-player": Case(
        lambda s, r, m: s.moves.submit(r.id, r.players[1].id, "00"), Rejection.MATCH_OVER, over=True
    ),
    "over-surrender": Case(lambda s, r, m: s.moves.surrender(r.id, r.players[1].id), Rejection.MATCH_OVER, over=True),
    "over-abandon": Case(lambda s, r, m: s.moves.abandon(r.id), Rejection.MATCH_OVER, over=True),
}


class TestRejections:
    """Every refused request raises Rejected with its reason and leaves the stored match as it was."""

    @pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
    async def test_rejected(self, backend: Backend, services: Services, case: Case) -> None:
        """The reason (and the engine's refusal) are as expected; Redis and the service's cache are untouched."""
        record, match = await after_first_trick(services)
        if case.over:
            record = (await services.moves.surrender(record.id, record.players[0].id)).record
        before = await backend.services().records.get(record.id)
        with pytest.raises(Rejected) as info:
            await case.attempt(services, record, match)
        assert info.value.reason is case.reason
        assert info.value.refusal is case.refusal
        assert await backend.services().records.get(record.id) == before
        assert await services.records.get(record.id) == before

    async def test_service_still_works(self, services: Services) -> None:
        """After rejections the right player's move at the right version is applied."""
        record, match = await after_first_trick(services)
        for case in CASES.values():
            if not case.over:
                with pytest.raises(Rejected):
                    await case.attempt(services, record, match)
        result = await services.moves.submit(
            record.id, to_move(record, match).id, match.legal_actions()[0], version=record.version
        )
        assert result.record.version == record.version + 1


class TestIdempotency:
    """A request id (the callback query id) is applied at most once, however often it arrives."""

    async def test_repeated(self, services: Services) -> None:
        """The second delivery is answered as a duplicate with the record as it is, and changes nothing."""
        record, match = await start_match(services)
        player, action = to_move(record, match), match.legal_actions()[0]
        first = await services.moves.submit(record.id, player.id, action, version=0, request_id="q1")
        second = await services.moves.submit(record.id, player.id, action, version=0, request_id="q1")
        assert (first.duplicate, second.duplicate) == (False, True)
        assert second.record == first.record
        assert second.match == first.match
        assert await services.records.get(record.id) == (first.record, first.match)

    async def test_repeated_other_action(self, services: Services) -> None:
        """A request id seen before is a duplicate whatever it carries now."""
        record, match = await start_match(services)
        player = to_move(record, match)
        first = await services.moves.submit(record.id, player.id, match.legal_actions()[0], request_id="q1")
        second = await services.moves.submit(record.id, player.id, match.legal_actions()[1], version=7, request_id="q1")
        assert second.duplicate
        assert (await services.records.get(record.id))[0] == first.record

    async def test_repeated_after_later_moves(self, services: Services) -> None:
        """A request id is still recognised after the opponent has moved."""
        record, match = await start_match(services)
        player = to_move(record, match)
        first = await services.moves.submit(record.id, player.id, match.legal_actions()[0], request_id="q1")
        reply = await services.moves.submit(
            record.id, to_move(first.record, first.match).id, first.match.legal_actions()[0], request_id="q2"
        )
        again = await services.moves.submit(record.id, player.id, match.legal_actions()[0], version=0, request_id="q1")
        assert again.duplicate
        assert again.record == reply.record

    @pytest.mark.parametrize("copies", [2, 10])
    @pytest.mark.parametrize("shared", [True, False], ids=["one-instance", "own-instances"])
    async def test_concurrent(self, backend: Backend, copies: int, shared: bool) -> None:
        """Copies of one request arriving at once: exactly one is applied, the others are duplicates."""
        opener = backend.services()
        record, match = await start_match(opener)
        player, action = to_move(record, match), match.legal_actions()[0]
        services = [opener if shared else backend.services() for _ in range(copies)]
        results = await asyncio.gather(
            *(s.moves.submit(record.id, player.id, action, version=0, request_id="q1") for s in services)
        )
        assert sorted(r.duplicate for r in results) == [False] + [True] * (copies - 1)
        stored, stored_match = await backend.services().records.get(record.id)
        assert stored.version == 1
        assert stored.recent == ["q1"]
        assert stored_match == apply(match, action)

    async def test_surrender_repeated(self, services: Services) -> None:
        """A repeated surrender is a duplicate and the result is counted once."""
        record, _ = await start_match(services)
        first = await services.moves.surrender(record.id, record.players[0].id, request_id="s1")
        second = await services.moves.surrender(record.id, record.players[0].id, request_id="s1")
        assert (first.duplicate, second.duplicate) == (False, True)
        assert second.summary is None
        assert (await services.results.stats(record.players[1].id)).won == 1


class TestSeveralInstances:
    """Two service instances (two bot processes) on one Redis: each sees the other's moves."""

    async def test_surrender_through_other_instance(self, backend: Backend) -> None:
        """An instance whose cached record is behind still ends the match at the current version."""
        first, second = backend.services(), backend.services()
        record, match = await start_match(first)
        moved = await second.moves.submit(record.id, to_move(record, match).id, match.legal_actions()[0])
        result = await first.moves.surrender(record.id, record.players[0].id)
        assert result.record.version == moved.record.version + 1
        assert result.match == moved.match

    @pytest.mark.parametrize("versioned", [True, False], ids=["with-version", "without-version"])
    async def test_fresh_press_through_other_instance(self, backend: Backend, versioned: bool) -> None:
        """A press made for the current version is applied, even through an instance that did not see the last move."""
        first, second = backend.services(), backend.services()
        record, match = await start_match(first)
        moved = await second.moves.submit(record.id, to_move(record, match).id, match.legal_actions()[0], version=0)
        now, now_match = moved.record, moved.match
        player, action = to_move(now, now_match), now_match.legal_actions()[0]
        result = await first.moves.submit(record.id, player.id, action, version=now.version if versioned else None)
        assert result.record.version == now.version + 1
        assert result.match == apply(now_match, action)


class TestMessages:
    """The Telegram message ids of a match, stored beside it without a version."""

    async def test_stored(self, backend: Backend, services: Services) -> None:
        """The table and panel ids read back (also by a new instance); a new match has none."""
        record, _ = await start_match(services)
        assert await services.stores.matches.messages(record.id) == Messages()
        await services.stores.matches.shown(record.id, t=10, tn=1, tv=0)
        await services.stores.matches.shown(record.id, p1=21, p1v=0, p1n=0)
        assert await backend.services().stores.matches.messages(record.id) == Messages(
            table=10, table_deal=1, table_version=0, panels=(None, 21), panel_versions=(-1, 0), panel_since=(-1, 0)
        )
        await services.stores.matches.shown(record.id, p0=20, p0v=0, p0n=0)
        await services.stores.matches.shown(record.id, t=11)
        assert await services.stores.matches.messages(record.id) == Messages(
            table=11, table_deal=1, table_version=0, panels=(20, 21), panel_versions=(0, 0), panel_since=(0, 0)
        )

    async def test_not_versioned(self, services: Services) -> None:
        """Storing message ids leaves the record as it was, so a button of the current version still works."""
        record, match = await start_match(services)
        await services.stores.matches.shown(record.id, t=10)
        assert await services.records.get(record.id) == (record, match)
        result = await services.moves.submit(record.id, to_move(record, match).id, match.legal_actions()[0], version=0)
        assert result.record.version == 1
        assert await services.stores.matches.messages(record.id) == Messages(table=10)
