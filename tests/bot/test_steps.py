"""What spans Redis Cluster slots goes step by step: a process that dies between the steps of a finish or an
accept leaves them to the next reader, who carries them through once; the key layout before the hash tags is
renamed. On fakeredis, on one real Redis, and (``TEST_REDIS=cluster``) on a three-master cluster."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services.matches import MatchService, StorageUnavailable
from bot.services.models import Finish, Standing, Summary, UserStats
from bot.storage import layout
from bot.storage.keys import GLOBAL, chat_scope
from tests.bot.conftest import Backend
from tests.bot.helpers import ALA, BOB, CHAT, start_match


class Died(Exception):
    """The process "dies" here: nothing after this step runs."""


def die_before(service: MatchService, step: str) -> None:
    """Make the service fail before the round of scripts that begins with the script named ``step`` runs."""
    run = service._scripts
    script = getattr(service, step)

    async def dying(*calls: Any) -> list[Any]:
        if calls[0][0] is script:
            raise Died(f"killed before {step}")
        return await run(*calls)

    service._scripts = dying  # type: ignore[method-assign]


async def counted_once(service: MatchService, record_id: str) -> None:
    """The surrender of ALA to BOB (seat 0 gives up) counted exactly once, everywhere."""
    for chat_id in (CHAT, None):
        assert await service.stats(BOB.id, chat_id) == UserStats(
            user_id=BOB.id, played=1, won=1, rating=1516, streak=1, best_streak=1, per_game={"bingo": (1, 1)}
        )
        assert await service.stats(ALA.id, chat_id) == UserStats(
            user_id=ALA.id, played=1, lost=1, rating=1484, per_game={"bingo": (1, 0)}
        )
        assert [s.rating for s in await service.leaderboard(chat_id)] == [1516, 1484]
    history = await service.history(chat_id=CHAT)
    assert [s.id for s in history] == [record_id] and history[0].rating_change == 16
    assert history[0].ratings == (1516, 1484)
    assert await service.history(user_id=ALA.id) == await service.history(user_id=BOB.id) == history
    messages = await service.messages(record_id)
    assert messages.posts == ['{"k":"match"}'] and messages.summary == history[0] and messages.finishing is None
    assert await service.active_match(CHAT, ALA.id) is None and await service.active_match(CHAT, BOB.id) is None
    assert await service.chat_matches(CHAT) == [] and await service.user_matches(ALA.id) == []
    assert f"t:{record_id}".encode() not in await service.redis.zrange(service.keys.jobs(), 0, -1)


class TestFinishSteps:
    """A finish is the match's write, then the chat's table, the global one and the players' (at once), then
    the result kept and posted. Killed before any of the later steps, the next reader of its screens (the
    delivery, in any process) carries it through: counted once, posted once."""

    @pytest.mark.parametrize("step", ["_count_chat", "_count_user", "_finished"])
    async def test_killed_between_steps(self, service: MatchService, backend: Backend, step: str) -> None:
        record, _ = await start_match(service)
        die_before(service, step)
        with pytest.raises(Died):
            await service.surrender(record.id, ALA.id)
        other = backend.service()
        stored, _ = await other.get(record.id)
        assert stored.status.value == "finished"
        assert (await other.messages(record.id)).finishing is not None
        await other.screens(record.id)
        await counted_once(other, record.id)
        # Carried through again (two processes at once, a retry): nothing changes.
        finishing = f'{{"c":"1","w":[{BOB.id},"Bob"],"l":[{ALA.id},"Ala"],"g":"bingo","s":""}}'
        await other._count(stored, finishing)
        await other.screens(record.id)
        await counted_once(other, record.id)

    async def test_redis_gone_after_the_write(self, service: MatchService, backend: Backend) -> None:
        """Redis stops answering right after the finish's write: the move is made (the player is not told
        otherwise), and the finish is carried through once Redis answers."""
        record, _ = await start_match(service)
        run = service._scripts

        async def gone(*calls: Any) -> list[Any]:
            if calls[0][0] is service._count_chat:
                raise StorageUnavailable("Redis went away")
            return await run(*calls)

        service._scripts = gone  # type: ignore[method-assign]
        result = await service.surrender(record.id, ALA.id)
        assert result.record.status.value == "finished"
        assert result.summary is not None and result.summary.ratings is None
        service._scripts = run  # type: ignore[method-assign]
        await service.screens(record.id)
        await counted_once(backend.service(), record.id)

    async def test_steps_in_order(self, service: MatchService, backend: Backend) -> None:
        """Unkilled, the finish is whole when surrender returns (its summary has the chat's rating change)."""
        record, _ = await start_match(service)
        result = await service.surrender(record.id, ALA.id)
        assert result.summary is not None and result.summary.rating_change == 16
        assert result.summary.ratings == (1516, 1484)
        await counted_once(backend.service(), record.id)


class TestAcceptSteps:
    """An accept is the challenge consumed in its chat's slot (the match's record kept with it), then the match
    written in its own slot, its indexes, its screens and its clock. Killed in between, the challenge's job
    (due a few seconds after the accept) carries it through."""

    async def test_killed_after_the_chat_step(self, service: MatchService, backend: Backend) -> None:
        challenge = await service.open_challenge(CHAT, ALA, "bingo", "ru")
        jobs = service.keys.jobs()

        async def died(*_: Any) -> None:
            raise Died("killed after the chat's step")

        service._created = died  # type: ignore[method-assign,assignment]
        with pytest.raises(Died):
            await service.accept(challenge.id, BOB, seed=3)
        other = backend.service()
        match_id = await other.active_match(CHAT, ALA.id)
        assert match_id is not None and await other.active_match(CHAT, BOB.id) == match_id
        due = await other.redis.zscore(jobs, f"x:{challenge.id}")
        assert due is not None and due < challenge.expires  # looked at soon, not at the challenge's end
        # What the challenge's job does (bot/timers.py): the accept is carried through, the challenge not expired.
        notice = await other.notice(challenge.id)
        assert notice is not None
        record = await other.accepted(notice)
        assert record is not None and record.id == match_id
        stored, _ = await other.get(match_id)
        assert stored.players == (ALA, BOB) and stored.version == 0
        assert await other.user_matches(ALA.id) == await other.user_matches(BOB.id) == [match_id]
        assert await other.notice(challenge.id) is None
        assert await other.redis.zscore(jobs, f"x:{challenge.id}") is None
        assert await other.redis.zscore(jobs, f"t:{match_id}") is not None
        assert match_id.encode() in await other.redis.zrange(other.keys.screens_due(), 0, -1)
        assert not await other.expire_challenge(notice)  # it was accepted: never announced as expired
        # Carried through twice: the match is not written again.
        await other.surrender(match_id, ALA.id)
        assert await other.accepted(notice) is not None
        assert (await other.get(match_id))[0].version == 1


class TestDue:
    """A settle takes a match out of the due set only if nobody marked it since it read its mark."""

    async def test_settle(self, service: MatchService) -> None:
        """A match is due after each write, and out once its screens are shown (or need not be)."""
        record, _ = await start_match(service)
        due = service.keys.screens_due()
        assert await service.redis.zrange(due, 0, -1) == [record.id.encode()]
        assert not await service.settle(record.id, group_gone=False, blocked=(False, False))
        assert await service.settle(record.id, group_gone=True, blocked=(True, True))
        assert await service.redis.zrange(due, 0, -1) == []
        result = await service.surrender(record.id, ALA.id)
        assert await service.redis.zrange(due, 0, -1) == [record.id.encode()]
        await service.posted(record.id, '{"k":"match"}')
        assert await service.settle(record.id, group_gone=False, blocked=(True, True)) is False  # the table
        v = result.record.version
        await service.shown(record.id, tv=v, p0v=v, p1v=v)
        # Each player's copy of the match card is still to go (a seat that gets none need not wait for it).
        assert not await service.settle(record.id, group_gone=False, blocked=(False, False))
        await service.shown(record.id, c0=1)
        assert not await service.settle(record.id, group_gone=False, blocked=(False, False))
        assert (await service.messages(record.id)).cards == (True, False)
        await service.shown(record.id, c1=1)
        assert await service.settle(record.id, group_gone=False, blocked=(False, False))
        assert await service.redis.zrange(due, 0, -1) == []

    async def test_marked_while_settling(self, service: MatchService) -> None:
        """(As on a cluster, where the settle is three steps; on one server it is one script.)"""
        service.cluster = True
        record, _ = await start_match(service)
        due = service.keys.screens_due()
        settled = service._settled

        async def mark_meanwhile(**kwargs: Any) -> Any:
            await service._scripts(service._due(record.id))  # a writer marks the match before its write
            return 1  # and the settle's look at the match happened before that write

        service._settled = mark_meanwhile  # type: ignore[assignment]
        assert not await service.settle(record.id, group_gone=True, blocked=(True, True))
        assert record.id.encode() in await service.redis.zrange(due, 0, -1)
        service._settled = settled
        assert await service.settle(record.id, group_gone=True, blocked=(True, True))
        assert await service.redis.zrange(due, 0, -1) == []


class TestLayout:
    """Data of the key layout before the hash tags is renamed once at start: tables, histories, active matches
    and open challenges' keys carry on."""

    def test_names(self) -> None:
        assert layout.renamed("act:-100:5") == "act:{c:-100}:5"
        assert layout.renamed("st:all:5") == "st:{g}:5"
        assert layout.renamed("st:c-100:5") == "st:{c:-100}:5"
        assert layout.renamed("lb:all") == "lb:{g}"
        assert layout.renamed("lb:c-100") == "lb:{c:-100}"
        assert layout.renamed("hist:c:-100") == "hist:{c:-100}"
        assert layout.renamed("hist:u:5") == "hist:{u:5}"
        assert layout.renamed("actc:-100") == "actc:{c:-100}"
        assert layout.renamed("actu:5") == "actu:{u:5}"
        assert layout.renamed("chu:-100:5") == "chu:{c:-100}:5"
        for kept in ("act:{c:-100}:5", "lb:{g}", "{m:abc}", "upd:17", "user:5", "chat:-100", "jobs", "due", "ch:x1"):
            assert layout.renamed(kept) is None

    async def test_migrate(self, service: MatchService, backend: Backend) -> None:
        redis, p = service.redis, service.keys.prefix
        summary = Summary(
            id="m1",
            chat_id=CHAT,
            preset="bingo",
            players=(ALA, BOB),
            score=(7, 3),
            winner=0,
            finish=Finish.TARGET,
            finished=1.0,
            rating_change=16,
            ratings=(1516, 1484),
        ).model_dump_json()
        for scope in (chat_scope(CHAT), GLOBAL):
            await redis.hset(f"{p}:st:{scope}:{ALA.id}", mapping={"rating": 1516, "played": 1, "won": 1, "name": "Ala"})
            await redis.hset(
                f"{p}:st:{scope}:{BOB.id}", mapping={"rating": 1484, "played": 1, "lost": 1, "name": "Bob"}
            )
            await redis.zadd(f"{p}:lb:{scope}", {str(ALA.id): 1516, str(BOB.id): 1484})
        await redis.lpush(f"{p}:hist:c:{CHAT}", summary)
        await redis.lpush(f"{p}:hist:u:{ALA.id}", summary)
        await redis.set(f"{p}:act:{CHAT}:{ALA.id}", "m2")
        await redis.sadd(f"{p}:actc:{CHAT}", "m2")
        await redis.sadd(f"{p}:actu:{ALA.id}", "m2")
        assert await layout.migrate(redis, service.keys) == 11
        assert await layout.migrate(redis, service.keys) == 0  # once
        for chat_id in (CHAT, None):
            assert await service.leaderboard(chat_id) == [
                Standing(rank=1, user_id=ALA.id, name="Ala", rating=1516, played=1, won=1, lost=0),
                Standing(rank=2, user_id=BOB.id, name="Bob", rating=1484, played=1, won=0, lost=1),
            ]
        assert [s.id for s in await service.history(chat_id=CHAT)] == ["m1"]
        assert [s.id for s in await service.history(user_id=ALA.id)] == ["m1"]
        assert await service.active_match(CHAT, ALA.id) == "m2"
        assert await redis.exists(f"{p}:lb:all", f"{p}:hist:c:{CHAT}", f"{p}:act:{CHAT}:{ALA.id}") == 0
