"""Whole random matches through the service, checked against fresh reads after every move; restarts."""

from __future__ import annotations

import random

import pytest

from bot.codec import StoredDeal
from bot.games import PRESETS
from bot.models import Finish, MatchRecord, Status
from bot.services import Services
from engine import apply
from tests.backends import Backend
from tests.bot.helpers import play_random, start_match, to_move

PLAYOUTS = [(preset, seed) for preset in PRESETS for seed in (1, 2)]


class TestPlayouts:
    """Random matches of every preset to a target of 2, each move checked."""

    @pytest.mark.parametrize(("preset", "seed"), PLAYOUTS, ids=[f"{p}-{s}" for p, s in PLAYOUTS])
    async def test_playout(self, backend: Backend, services: Services, preset: str, seed: int) -> None:
        """After every move a fresh read equals what the service returned, and both round trips are identity."""
        rng = random.Random(seed)
        reader = backend.client()
        record, match = await start_match(services, preset=preset, target=2, seed=seed)
        deals = 1
        while record.status is Status.ACTIVE:
            before = match.copy()
            action = rng.choice(match.legal_actions())
            result = await services.moves.submit(
                record.id, to_move(record, match).id, action, version=record.version, request_id=f"q{record.version}"
            )
            assert match == before
            assert result.match == apply(before, action)
            fresh, fresh_match = await Services.build(reader, prefix=backend.prefix).records.get(record.id)
            assert fresh == result.record
            assert fresh_match == result.match
            assert StoredDeal.of(result.match).to_match() == result.match
            assert result.record.deal == StoredDeal.of(result.match)
            assert MatchRecord.model_validate_json(result.record.model_dump_json()) == result.record
            assert result.record.version == record.version + 1
            if result.finished_deal is not None:
                deals += 1
                assert result.finished_deal.is_over
            assert result.match.deal.number == deals or result.match.is_over
            record, match = result.record, result.match
        assert match.is_over
        assert (record.status, record.winner, record.finish) == (Status.FINISHED, match.winner, Finish.TARGET)
        assert result.summary is not None
        assert result.summary.score == match.score
        assert await services.records.active_match(record.chat_id, record.players[0].id) is None


class TestRestart:
    """A new service instance (a restarted bot) continues a match from Redis alone."""

    async def test_continue_mid_deal(self, backend: Backend) -> None:
        """A second instance on a new client finishes a match the first left in the middle of a deal."""
        first = backend.services()
        record, match = await start_match(first, target=2, seed=5)
        rng = random.Random(5)
        result = await play_random(first, record, match, rng, moves=5)
        assert result.match.deal.number == 1 and len(result.match.deal.actions) == 5
        await first.stores.redis.aclose()
        second = backend.services()
        record, match = await second.records.get(record.id)
        assert (record, match) == (result.record, result.match)
        assert await second.records.active_match(record.chat_id, record.players[0].id) == record.id
        end = await play_random(second, record, match, rng)
        assert end.record.status is Status.FINISHED
        assert end.summary is not None and end.summary.winner is not None
        winner = record.players[end.summary.winner]
        assert (await second.results.stats(winner.id, record.chat_id)).won == 1
        assert await second.records.chat_matches(record.chat_id) == []
