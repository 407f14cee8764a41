"""Redis wins over a process's cache: a match whose last write Redis lost (AOF everysec and a power cut)
goes on from what Redis holds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.services.matches import MatchService, Rejected
from bot.services.models import Rejection, Status
from tests.bot.conftest import Backend
from tests.bot.helpers import play_random, start_match, to_move


async def roll_back(service: MatchService, key: str, saved: dict[Any, Any]) -> None:
    """The match's hash as it was when ``saved`` was read (what an AOF that lost its last second holds)."""
    await service.redis.hset(key, mapping=saved)


class TestRollback:
    async def test_continues_from_redis(self, service: MatchService, backend: Backend) -> None:
        """The process cached version n+1, Redis went back to n: a press from the n+1 panel is stale (not
        "busy" forever), the lost move is played again, and the match goes on to its end."""
        record, match = await start_match(service, target=1, seed=5)
        rng = random.Random(5)
        before = await play_random(service, record, match, rng, moves=3)
        key = service.keys.match(record.id)
        saved = await service.redis.hgetall(key)
        lost = await play_random(service, before.record, before.match, rng, moves=1)
        assert lost.record.version == before.record.version + 1
        await roll_back(service, key, saved)  # Redis loses its last second
        user = to_move(lost.record, lost.match)
        with pytest.raises(Rejected) as info:
            await service.submit(record.id, user.id, lost.match.legal_actions()[0], version=lost.record.version)
        assert info.value.reason is Rejection.STALE
        stored, stored_match = await backend.service().get(record.id)
        assert stored.version == before.record.version
        again = await service.submit(
            record.id, to_move(stored, stored_match).id, stored_match.legal_actions()[0], version=stored.version
        )
        assert again.record.version == stored.version + 1
        end = await play_random(service, again.record, again.match, rng)
        assert end.record.status is Status.FINISHED

    async def test_surrender_after_a_rollback(self, service: MatchService, backend: Backend) -> None:
        """Surrender (no version on its button) works on the match Redis holds."""
        record, match = await start_match(service, seed=6)
        rng = random.Random(6)
        before = await play_random(service, record, match, rng, moves=2)
        key = service.keys.match(record.id)
        saved = await service.redis.hgetall(key)
        await play_random(service, before.record, before.match, rng, moves=2)
        await roll_back(service, key, saved)
        result = await service.surrender(record.id, record.players[0].id)
        assert result.record.status is Status.FINISHED
        assert result.record.version == before.record.version + 1
