"""Redis wins over a process's cache: a match whose last write Redis lost (AOF everysec and a power cut)
goes on from what Redis holds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.codec import StoredDeal
from bot.models import Rejection, Status
from bot.services import Services
from bot.services.errors import Rejected
from tests.backends import Backend
from tests.bot.helpers import play_random, start_match, to_move


async def roll_back(services: Services, key: str, saved: dict[Any, Any]) -> None:
    """The match's hash as it was when ``saved`` was read (what an AOF that lost its last second holds)."""
    await services.stores.redis.delete(key)
    await services.stores.redis.hset(key, mapping=saved)


class TestRollback:
    async def test_continues_from_redis(self, services: Services, backend: Backend) -> None:
        """The process cached version n+1, Redis went back to n: a press from the n+1 panel is stale (not
        "busy" forever), the lost move is played again, and the match goes on to its end."""
        record, match = await start_match(services, target=1, seed=5)
        rng = random.Random(5)
        before = await play_random(services, record, match, rng, moves=3)
        key = services.stores.keys.match(record.id)
        saved = await services.stores.redis.hgetall(key)
        lost = await play_random(services, before.record, before.match, rng, moves=1)
        assert lost.record.version == before.record.version + 1
        await roll_back(services, key, saved)  # Redis loses its last second
        user = to_move(lost.record, lost.match)
        with pytest.raises(Rejected) as info:
            await services.moves.submit(record.id, user.id, lost.match.legal_actions()[0], version=lost.record.version)
        assert info.value.reason is Rejection.STALE
        stored, stored_match = await backend.services().records.get(record.id)
        assert stored.version == before.record.version
        again = await services.moves.submit(
            record.id, to_move(stored, stored_match).id, stored_match.legal_actions()[0], version=stored.version
        )
        assert again.record.version == stored.version + 1
        end = await play_random(services, again.record, again.match, rng)
        assert end.record.status is Status.FINISHED

    async def test_surrender_after_a_rollback(self, services: Services, backend: Backend) -> None:
        """Surrender (no version on its button) works on the match Redis holds."""
        record, match = await start_match(services, seed=6)
        rng = random.Random(6)
        before = await play_random(services, record, match, rng, moves=2)
        key = services.stores.keys.match(record.id)
        saved = await services.stores.redis.hgetall(key)
        await play_random(services, before.record, before.match, rng, moves=2)
        await roll_back(services, key, saved)
        result = await services.moves.surrender(record.id, record.players[0].id)
        assert result.record.status is Status.FINISHED
        assert result.record.version == before.record.version + 1


class TestTwoTimelines:
    async def test_same_version_after_other_moves(self, services: Services, backend: Backend) -> None:
        """Process A cached version n+2, Redis went back to n and process B played two other moves to n+2:
        a move A plans on its cache must not be written (the versions match, the matches do not); it is
        judged on what Redis holds, so B's moves stay and the new move follows them."""
        other = backend.services()
        for seed in range(1, 40):
            found = await _two_timelines(services, other, seed)
            if found is not None:
                break
        else:
            raise AssertionError("no seed gave two timelines with a common move")
        record_id, user_id, action, expected = found
        result = await services.moves.submit(record_id, user_id, action, version=expected.version - 1)
        stored, match = await other.records.get(record_id)
        assert stored.version == expected.version
        assert match == expected.match()
        assert result.match == expected.match()
        peeked, _ = await services.records.peek(record_id)
        assert peeked == stored


async def _two_timelines(a: Services, b: Services, seed: int) -> tuple[str, int, str, Any] | None:
    """Play a match of ``seed`` to n, let A play two moves (then lost), B two others; a move legal after
    both timelines, by the same seat: (match id, user, action, B's record after it), or None."""
    record, match = await start_match(a, target=1, seed=seed, chat_id=-5000 - seed)
    rng = random.Random(seed)
    before = await play_random(a, record, match, rng, moves=4)
    key = a.stores.keys.match(record.id)
    saved = await a.stores.redis.hgetall(key)
    lost = await play_random(a, before.record, before.match, random.Random(seed + 1), moves=2)
    await roll_back(a, key, saved)
    stored, stored_match = await b.records.get(record.id)
    options = stored_match.legal_actions()
    first_lost = lost.record.deal.a.split()[len(before.record.deal.a.split())]
    others = [o for o in options if o.notation() != first_lost]
    if not others or len(before.record.deal.a.split()) + 2 != len(lost.record.deal.a.split()):
        return None
    kept = await b.moves.submit(record.id, to_move(stored, stored_match).id, others[0], version=stored.version)
    kept = await play_random(b, kept.record, kept.match, random.Random(seed + 2), moves=1)
    if kept.match.turn != lost.match.turn:
        return None
    common = {x.notation() for x in kept.match.legal_actions()} & {x.notation() for x in lost.match.legal_actions()}
    if not common:
        return None
    action = sorted(common)[0]
    expected_match = kept.match.copy()
    expected_match.play(action)
    user = to_move(kept.record, kept.match).id
    return (
        record.id,
        user,
        action,
        kept.record.model_copy(update={"version": kept.record.version + 1, "deal": StoredDeal.of(expected_match)}),
    )
