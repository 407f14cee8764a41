"""What spans Redis Cluster slots goes step by step: a process that dies between the steps of a finish or an
accept leaves them to the next reader, who carries them through once; the key layout before the hash tags is
renamed. On fakeredis, on one real Redis, and (``TEST_REDIS=cluster``) on a three-master cluster."""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import Finish, Standing, Summary, UserStats
from bot.services import Services
from bot.storage import layout
from bot.storage.base import StorageUnavailable
from bot.storage.keys import GLOBAL, chat_scope
from tests.backends import Backend
from tests.bot.helpers import ALA, BOB, CHAT, start_match


class Died(Exception):
    """The process "dies" here: nothing after this step runs."""


def die_before(services: Services, step: str) -> None:
    """Make the service fail before the step named ``step`` (its script, in the repository that holds it) runs."""
    store: Any = services.stores.matches if step == "_finished" else services.stores.results
    name = step.removeprefix("_")

    async def dying(*_: Any, **__: Any) -> Any:
        raise Died(f"killed before {step}")

    setattr(store, name, dying)


async def counted_once(services: Services, record_id: str) -> None:
    """The surrender of ALA to BOB (seat 0 gives up) counted exactly once, everywhere."""
    for chat_id in (CHAT, None):
        assert await services.results.stats(BOB.id, chat_id) == UserStats(
            user_id=BOB.id, played=1, won=1, rating=1516, streak=1, best_streak=1, per_game={"bingo": (1, 1)}
        )
        assert await services.results.stats(ALA.id, chat_id) == UserStats(
            user_id=ALA.id, played=1, lost=1, rating=1484, per_game={"bingo": (1, 0)}
        )
        assert [s.rating for s in await services.results.leaderboard(chat_id)] == [1516, 1484]
    history = await services.results.history(chat_id=CHAT)
    assert [s.id for s in history] == [record_id] and history[0].rating_change == 16
    assert history[0].ratings == (1516, 1484)
    assert await services.results.history(user_id=ALA.id) == await services.results.history(user_id=BOB.id) == history
    messages = await services.stores.matches.messages(record_id)
    assert messages.posts == ['{"k":"match"}'] and messages.summary == history[0] and messages.finishing is None
    assert (
        await services.records.active_match(CHAT, ALA.id) is None
        and await services.records.active_match(CHAT, BOB.id) is None
    )
    assert await services.records.chat_matches(CHAT) == [] and await services.records.user_matches(ALA.id) == []
    assert f"t:{record_id}".encode() not in await services.stores.redis.zrange(services.stores.keys.jobs(), 0, -1)


class TestFinishSteps:
    """A finish is the match's write, then the chat's table, the global one and the players' (at once), then
    the result kept and posted. Killed before any of the later steps, the next reader of its screens (the
    delivery, in any process) carries it through: counted once, posted once."""

    @pytest.mark.parametrize("step", ["_count_chat", "_count_user", "_finished"])
    async def test_killed_between_steps(self, services: Services, backend: Backend, step: str) -> None:
        record, _ = await start_match(services)
        die_before(services, step)
        with pytest.raises(Died):
            await services.moves.surrender(record.id, ALA.id)
        other = backend.services()
        stored, _ = await other.records.get(record.id)
        assert stored.status.value == "finished"
        assert (await other.stores.matches.messages(record.id)).finishing is not None
        await other.records.screens(record.id)
        await counted_once(other, record.id)
        # Carried through again (two processes at once, a retry): nothing changes.
        finishing = f'{{"c":"1","w":[{BOB.id},"Bob"],"l":[{ALA.id},"Ala"],"g":"bingo","s":""}}'
        await other.finisher.count(stored, finishing)
        await other.records.screens(record.id)
        await counted_once(other, record.id)

    async def test_redis_gone_after_the_write(self, services: Services, backend: Backend) -> None:
        """Redis stops answering right after the finish's write: the move is made (the player is not told
        otherwise), and the finish is carried through once Redis answers."""
        record, _ = await start_match(services)
        results = services.stores.results
        run = results.count_chat

        async def gone(*_: Any, **__: Any) -> Any:
            raise StorageUnavailable("Redis went away")

        results.count_chat = gone  # type: ignore[method-assign]
        result = await services.moves.surrender(record.id, ALA.id)
        assert result.record.status.value == "finished"
        assert result.summary is not None and result.summary.ratings is None
        results.count_chat = run  # type: ignore[method-assign]
        await services.records.screens(record.id)
        await counted_once(backend.services(), record.id)

    async def test_steps_in_order(self, services: Services, backend: Backend) -> None:
        """Unkilled, the finish is whole when surrender returns (its summary has the chat's rating change)."""
        record, _ = await start_match(services)
        result = await services.moves.surrender(record.id, ALA.id)
        assert result.summary is not None and result.summary.rating_change == 16
        assert result.summary.ratings == (1516, 1484)
        await counted_once(backend.services(), record.id)


class TestAcceptSteps:
    """An accept is the challenge consumed in its chat's slot (the match's record kept with it), then the match
    written in its own slot, its indexes, its screens and its clock. Killed in between, the challenge's job
    (due a few seconds after the accept) carries it through."""

    async def test_killed_after_the_chat_step(self, services: Services, backend: Backend) -> None:
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        jobs = services.stores.keys.jobs()

        async def died(*_: Any) -> None:
            raise Died("killed after the chat's step")

        services.challenges.created = died  # type: ignore[method-assign,assignment]
        with pytest.raises(Died):
            await services.challenges.accept(challenge.id, BOB, seed=3)
        other = backend.services()
        match_id = await other.records.active_match(CHAT, ALA.id)
        assert match_id is not None and await other.records.active_match(CHAT, BOB.id) == match_id
        due = await other.stores.redis.zscore(jobs, f"x:{challenge.id}")
        assert due is not None and due < challenge.expires  # looked at soon, not at the challenge's end
        # What the challenge's job does (bot/timers.py): the accept is carried through, the challenge not expired.
        notice = await other.challenges.notice(challenge.id)
        assert notice is not None
        record = await other.challenges.accepted(notice)
        assert record is not None and record.id == match_id
        stored, _ = await other.records.get(match_id)
        assert stored.players == (ALA, BOB) and stored.version == 0
        assert await other.records.user_matches(ALA.id) == await other.records.user_matches(BOB.id) == [match_id]
        assert await other.challenges.notice(challenge.id) is None
        assert await other.stores.redis.zscore(jobs, f"x:{challenge.id}") is None
        assert await other.stores.redis.zscore(jobs, f"t:{match_id}") is not None
        assert match_id.encode() in await other.stores.redis.zrange(other.stores.keys.screens_due(), 0, -1)
        assert not await other.challenges.expire(notice)  # it was accepted: never announced as expired
        # Carried through twice: the match is not written again.
        await other.moves.surrender(match_id, ALA.id)
        assert await other.challenges.accepted(notice) is not None
        assert (await other.records.get(match_id))[0].version == 1


class TestDue:
    """A settle takes a match out of the due set only if nobody marked it since it read its mark."""

    async def test_settle(self, services: Services) -> None:
        """A match is due after each write, and out once its screens are shown (or need not be)."""
        record, _ = await start_match(services)
        due = services.stores.keys.screens_due()
        assert await services.stores.redis.zrange(due, 0, -1) == [record.id.encode()]
        assert not await services.stores.matches.settle(record.id, group_gone=False, blocked=(False, False))
        assert await services.stores.matches.settle(record.id, group_gone=True, blocked=(True, True))
        assert await services.stores.redis.zrange(due, 0, -1) == []
        result = await services.moves.surrender(record.id, ALA.id)
        assert await services.stores.redis.zrange(due, 0, -1) == [record.id.encode()]
        await services.stores.matches.posted(record.id, '{"k":"match"}')
        assert (
            await services.stores.matches.settle(record.id, group_gone=False, blocked=(True, True)) is False
        )  # the table
        v = result.record.version
        await services.stores.matches.shown(record.id, tv=v, p0v=v, p1v=v)
        # Each player's copy of the match card is still to go (a seat that gets none need not wait for it).
        assert not await services.stores.matches.settle(record.id, group_gone=False, blocked=(False, False))
        await services.stores.matches.shown(record.id, c0=1)
        assert not await services.stores.matches.settle(record.id, group_gone=False, blocked=(False, False))
        assert (await services.stores.matches.messages(record.id)).cards == (True, False)
        await services.stores.matches.shown(record.id, c1=1)
        # And each player's post-mortem (the 🔎 message).
        assert not await services.stores.matches.settle(record.id, group_gone=False, blocked=(False, False))
        await services.stores.matches.shown(record.id, q0=1, q1=1)
        assert await services.stores.matches.settle(record.id, group_gone=False, blocked=(False, False))
        assert await services.stores.redis.zrange(due, 0, -1) == []

    async def test_marked_while_settling(self, services: Services) -> None:
        """(As on a cluster, where the settle is three steps; on one server it is one script.)"""
        matches = services.stores.matches
        matches.cluster = True
        record, _ = await start_match(services)
        due = services.stores.keys.screens_due()
        settled = matches._settled

        async def mark_meanwhile(**kwargs: Any) -> Any:
            await matches.mark_due(record.id)  # a writer marks the match before its write
            return 1  # and the settle's look at the match happened before that write

        matches._settled = mark_meanwhile  # type: ignore[assignment]
        assert not await services.stores.matches.settle(record.id, group_gone=True, blocked=(True, True))
        assert record.id.encode() in await services.stores.redis.zrange(due, 0, -1)
        matches._settled = settled
        assert await services.stores.matches.settle(record.id, group_gone=True, blocked=(True, True))
        assert await services.stores.redis.zrange(due, 0, -1) == []


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

    async def test_migrate(self, services: Services, backend: Backend) -> None:
        redis, p = services.stores.redis, services.stores.keys.prefix
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
        assert await layout.migrate(redis, services.stores.keys) == 11
        assert await layout.migrate(redis, services.stores.keys) == 0  # once
        for chat_id in (CHAT, None):
            assert await services.results.leaderboard(chat_id) == [
                Standing(rank=1, user_id=ALA.id, name="Ala", rating=1516, played=1, won=1, lost=0),
                Standing(rank=2, user_id=BOB.id, name="Bob", rating=1484, played=1, won=0, lost=1),
            ]
        assert [s.id for s in await services.results.history(chat_id=CHAT)] == ["m1"]
        assert [s.id for s in await services.results.history(user_id=ALA.id)] == ["m1"]
        assert await services.records.active_match(CHAT, ALA.id) == "m2"
        assert await redis.exists(f"{p}:lb:all", f"{p}:hist:c:{CHAT}", f"{p}:act:{CHAT}:{ALA.id}") == 0
