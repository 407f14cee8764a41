"""The small repositories, each held to its contract: ChatStore (settings, profiles, the flags of a group gone and
a user who blocked the bot), LaneStore (who delivers a match's lane), UpdateMarks (an update handled once) and
JobStore (jobs by when they are due, each claimed by one process)."""

from __future__ import annotations

import pytest
from redis.exceptions import ResponseError

from bot.services import Stores
from bot.storage.base import text
from bot.storage.updates import MARK_TTL
from tests.bot.helpers import ALA, BOB, CHAT, OTHER_CHAT

LEASE = 60.0
SHORT = 5.0
"""A short lease: still held when a loaded machine gets to its next command (0.5 s was not, once)."""


async def value(stores: Stores, key: str) -> str | None:
    found = await stores.redis.get(key)
    return None if found is None else text(found)


async def pttl(stores: Stores, key: str) -> int:
    found: int = await stores.redis.pttl(key)
    return found


class TestChatStore:
    """A group's settings and a user's profile, and the flags whose setting says whether it changed anything."""

    async def test_settings_replaced(self, stores: Stores) -> None:
        """New settings replace the old ones whole: a field not given is gone."""
        chats = stores.chats
        assert await chats.settings(CHAT) == {}
        await chats.replace_settings(CHAT, {"lang": "pl", "preset": "bingo", "target": "8"})
        assert await chats.settings(CHAT) == {"lang": "pl", "preset": "bingo", "target": "8"}
        await chats.replace_settings(CHAT, {"preset": "42"})
        assert await chats.settings(CHAT) == {"preset": "42"}
        assert await chats.settings(OTHER_CHAT) == {}

    async def test_profile_updated(self, stores: Stores) -> None:
        """An update changes the fields given and keeps the others."""
        chats = stores.chats
        assert await chats.profile(ALA.id) == {}
        await chats.update_profile(ALA.id, {"name": "Ala", "started": "1"})
        await chats.update_profile(ALA.id, {"name": "Ala K", "lang": "pl"})
        assert await chats.profile(ALA.id) == {"name": "Ala K", "started": "1", "lang": "pl"}
        assert await chats.profile(BOB.id) == {}

    async def test_seed(self, stores: Stores) -> None:
        """A user's seed: none until set; a default is kept only when there is none (the first caller's wins);
        setting it replaces it; the profile's other fields stay."""
        chats = stores.chats
        await chats.update_profile(ALA.id, {"name": "Ala"})
        assert await chats.seed(ALA.id) is None
        assert await chats.seed_or(ALA.id, "first") == "first"
        assert await chats.seed_or(ALA.id, "second") == "first"
        await chats.set_seed(ALA.id, "ala ma kota")
        assert await chats.seed(ALA.id) == "ala ma kota" and await chats.seed_or(ALA.id, "x") == "ala ma kota"
        assert await chats.profile(ALA.id) == {"name": "Ala", "seed": "ala ma kota"}
        assert await chats.seed(BOB.id) is None

    async def test_blocked(self, stores: Stores) -> None:
        """Marking a user blocked (or not) answers whether it changed; the profile's other fields stay."""
        chats = stores.chats
        await chats.update_profile(ALA.id, {"name": "Ala"})
        assert await chats.blocked(ALA.id) is False
        assert await chats.set_blocked(ALA.id, True) is True
        assert await chats.set_blocked(ALA.id, True) is False
        assert await chats.blocked(ALA.id) is True and await chats.blocked(BOB.id) is False
        assert await chats.profile(ALA.id) == {"name": "Ala", "blocked": "1"}
        assert await chats.set_blocked(ALA.id, False) is True
        assert await chats.set_blocked(ALA.id, False) is False
        assert await chats.blocked(ALA.id) is False
        assert await chats.profile(ALA.id) == {"name": "Ala"}

    async def test_gone(self, stores: Stores) -> None:
        """Marking a group gone (or not) answers whether it changed; a migrated group's old id is forgotten."""
        chats = stores.chats
        assert await chats.gone(CHAT) is False
        assert await chats.set_gone(CHAT, True) is True
        assert await chats.set_gone(CHAT, True) is False
        assert await chats.gone(CHAT) is True and await chats.gone(OTHER_CHAT) is False
        assert await chats.set_gone(CHAT, False) is True
        assert await chats.set_gone(CHAT, False) is False
        assert await chats.gone(CHAT) is False
        await chats.set_gone(CHAT, True)
        await chats.forget_gone(CHAT)
        assert await chats.gone(CHAT) is False

    async def test_keys_moved(self, stores: Stores) -> None:
        """A group's settings move to its new id; a target that is there already is kept, and so is the source."""
        chats = stores.chats
        await chats.replace_settings(CHAT, {"preset": "42"})
        await chats.move_keys(chats.chat_keys(CHAT, OTHER_CHAT))
        assert await chats.settings(OTHER_CHAT) == {"preset": "42"}
        assert await chats.settings(CHAT) == {}
        await chats.replace_settings(CHAT, {"preset": "bingo"})
        await chats.move_keys(chats.chat_keys(CHAT, OTHER_CHAT))
        assert await chats.settings(OTHER_CHAT) == {"preset": "42"}
        assert await chats.settings(CHAT) == {"preset": "bingo"}
        await chats.move_keys(chats.chat_keys(-5, -6))
        assert await chats.settings(-6) == {}


class TestLaneStore:
    """One live process at a time delivers a lane: others ask it to run once more; a dead holder loses it at once."""

    async def test_a_free_lane(self, stores: Stores) -> None:
        """A free lane is taken for the lease asked; its holder may take it again."""
        lanes, key = stores.lanes, stores.keys.lane("m1", "group")
        assert await lanes.take("m1", "group", "A", SHORT) is True
        assert await value(stores, key) == "A"
        assert 0 < await pttl(stores, key) <= SHORT * 1000
        assert await lanes.take("m1", "group", "A", LEASE) is True
        assert await pttl(stores, key) > 50_000

    async def test_a_live_holder_runs_again(self, stores: Stores) -> None:
        """A live holder keeps the lane and is asked to run it once more: its leaving says so and keeps (renews)
        the lease; the next leaving lets the lane go."""
        lanes, k = stores.lanes, stores.keys
        await lanes.beat("A", LEASE)
        assert await lanes.take("m1", "0", "A", SHORT) is True
        assert await lanes.take("m1", "0", "B", SHORT) is False
        assert await value(stores, k.lane("m1", "0")) == "A"
        assert await value(stores, k.lane_again("m1", "0")) == "1"
        assert 0 < await pttl(stores, k.lane_again("m1", "0")) <= SHORT * 1000
        assert await lanes.take("m1", "1", "B", LEASE) is True, "another lane is another lease"
        assert await lanes.leave("m1", "0", "A", LEASE) is True
        assert await pttl(stores, k.lane("m1", "0")) > 50_000
        assert await stores.redis.exists(k.lane_again("m1", "0")) == 0
        assert await lanes.leave("m1", "0", "A", LEASE) is False
        assert await stores.redis.exists(k.lane("m1", "0")) == 0
        assert await lanes.take("m1", "0", "B", LEASE) is True

    async def test_taking_again_clears_the_request(self, stores: Stores) -> None:
        """A holder that takes its lane again runs it anew: the request to run once more is spent."""
        lanes, k = stores.lanes, stores.keys
        await lanes.beat("A", LEASE)
        await lanes.take("m1", "0", "A", LEASE)
        assert await lanes.take("m1", "0", "B", LEASE) is False
        assert await lanes.take("m1", "0", "A", LEASE) is True
        assert await stores.redis.exists(k.lane_again("m1", "0")) == 0
        assert await lanes.leave("m1", "0", "A", LEASE) is False

    async def test_a_dead_holder(self, stores: Stores) -> None:
        """A holder with no heartbeat loses the lane to the first who asks, with no request left for it; it can
        neither keep nor leave the lane after."""
        lanes, k = stores.lanes, stores.keys
        assert await lanes.take("m1", "group", "A", LEASE) is True
        assert await lanes.take("m1", "group", "B", LEASE) is True
        assert await value(stores, k.lane("m1", "group")) == "B"
        assert await stores.redis.exists(k.lane_again("m1", "group")) == 0
        assert await lanes.keep("m1", "group", "A", LEASE) is False
        assert await lanes.leave("m1", "group", "A", LEASE) is False
        assert await value(stores, k.lane("m1", "group")) == "B"

    async def test_keep(self, stores: Stores) -> None:
        """Only the holder renews the lease."""
        lanes, key = stores.lanes, stores.keys.lane("m1", "1")
        await lanes.beat("A", LEASE)
        await lanes.take("m1", "1", "A", SHORT)
        assert await lanes.keep("m1", "1", "B", LEASE) is False
        assert await pttl(stores, key) <= SHORT * 1000
        assert await lanes.keep("m1", "1", "A", LEASE) is True
        assert await pttl(stores, key) > 50_000
        assert await lanes.keep("m2", "1", "A", LEASE) is False
        assert await stores.redis.exists(stores.keys.lane("m2", "1")) == 0

    async def test_beat(self, stores: Stores) -> None:
        await stores.lanes.beat("A", SHORT)
        assert await value(stores, stores.keys.process("A")) == "1"
        assert 0 < await pttl(stores, stores.keys.process("A")) <= SHORT * 1000


class TestUpdateMarks:
    """An update is handled by the attempt that marked it first; a failed attempt lets it go, and only its own."""

    async def test_first(self, stores: Stores) -> None:
        updates, key = stores.updates, stores.keys.update(7)
        assert await updates.first(7, "a1") is True
        assert await updates.first(7, "a1") is True, "its own mark (a SET sent again) is not another's"
        assert await updates.first(7, "a2") is False
        assert await updates.first(8, "a2", ttl=30) is True
        assert MARK_TTL - 5 < await stores.redis.ttl(key) <= MARK_TTL
        assert 0 < await stores.redis.ttl(stores.keys.update(8)) <= 30

    async def test_forget(self, stores: Stores) -> None:
        updates = stores.updates
        await updates.first(7, "a1")
        await updates.forget(7, "a2")
        assert await value(stores, stores.keys.update(7)) == "a1"
        assert await updates.first(7, "a2") is False
        await updates.forget(7, "a1")
        assert await stores.redis.exists(stores.keys.update(7)) == 0
        assert await updates.first(7, "a2") is True


class TestJobStore:
    """Jobs by when they are due: claiming hides each behind a lease, completing respects a job scheduled anew."""

    async def test_add(self, stores: Stores) -> None:
        """A plain add sets the time, ``if_missing`` keeps a job's time, ``only_sooner`` keeps a sooner one; both
        add a job that is not there."""
        jobs = stores.jobs
        assert await jobs.due_at("t:m1") is None
        await jobs.add("t:m1", 100.0)
        await jobs.add("t:m1", 150.0)
        assert await jobs.due_at("t:m1") == 150.0
        await jobs.add("t:m1", 200.0, if_missing=True)
        assert await jobs.due_at("t:m1") == 150.0
        await jobs.add("t:m1", 300.0, only_sooner=True)
        assert await jobs.due_at("t:m1") == 150.0
        await jobs.add("t:m1", 50.0, only_sooner=True)
        assert await jobs.due_at("t:m1") == 50.0
        await jobs.add("x:c1", 70.0, if_missing=True)
        await jobs.add("x:c2", 80.0, only_sooner=True)
        assert (await jobs.due_at("x:c1"), await jobs.due_at("x:c2")) == (70.0, 80.0)
        await jobs.remove("t:m1")
        assert await jobs.due_at("t:m1") is None

    async def test_claim(self, stores: Stores) -> None:
        """The due jobs with when they were due, soonest first and at most ``limit``, each moved to the lease's
        end; the others untouched."""
        jobs = stores.jobs
        for job, at in (("a", 10.0), ("b", 20.0), ("c", 30.0), ("d", 100.0)):
            await jobs.add(job, at)
        assert await jobs.claim(25.0, 85.0, 10) == [("a", 10.0), ("b", 20.0)]
        assert [await jobs.due_at(j) for j in "abcd"] == [85.0, 85.0, 30.0, 100.0]
        assert await jobs.claim(25.0, 90.0, 10) == []
        assert await jobs.claim(90.0, 95.0, 2) == [("c", 30.0), ("a", 85.0)]
        assert [await jobs.due_at(j) for j in "abcd"] == [95.0, 85.0, 95.0, 100.0]

    async def test_due_and_count(self, stores: Stores) -> None:
        """How many jobs are due (claimed ones are not) and since when; how many of a kind there are."""
        jobs = stores.jobs
        assert await jobs.due(50.0) == (0, None)
        for job, at in (("t:m1", 10.0), ("t:m2", 20.0), ("x:c1", 30.0), ("t:m3", 100.0)):
            await jobs.add(job, at)
        assert await jobs.due(25.0) == (2, 10.0)
        await jobs.claim(15.0, 85.0, 10)
        assert await jobs.due(25.0) == (1, 20.0)
        assert (await jobs.count("t:"), await jobs.count("x:"), await jobs.count("s:")) == (3, 1, 0)

    async def test_complete(self, stores: Stores) -> None:
        """A claimed job is due again or gone; one scheduled anew while held keeps its new time."""
        jobs = stores.jobs
        for job in ("a", "b", "c"):
            await jobs.add(job, 10.0)
        assert [job for job, _ in await jobs.claim(10.0, 85.0, 10)] == ["a", "b", "c"]
        await jobs.add("c", 40.0)
        assert await jobs.complete("a", 85.0, 200.0) is True
        assert await jobs.complete("b", 85.0, None) is True
        assert await jobs.complete("c", 85.0, 300.0) is False
        assert [await jobs.due_at(j) for j in "abc"] == [200.0, None, 40.0]
        assert await jobs.complete("b", 85.0, 5.0) is False
        assert await jobs.due_at("b") is None


class TestFailures:
    """Every Redis command that fails is told to the repositories' ``failed`` (the operator's count)."""

    async def test_told(self, stores: Stores) -> None:
        seen: list[BaseException] = []
        counted = Stores.build(stores.redis, prefix=stores.keys.prefix, failed=seen.append)
        await stores.redis.set(stores.keys.jobs(), "not a sorted set")
        with pytest.raises(ResponseError):
            await counted.jobs.add("t:m1", 10.0)
        assert [type(error) for error in seen] == [ResponseError]
        await stores.redis.delete(stores.keys.jobs())
        await counted.jobs.add("t:m1", 10.0)
        assert len(seen) == 1
