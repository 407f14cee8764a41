"""One process at a time delivers each lane of a match: the lease, and the request to run once more."""

from __future__ import annotations

from bot.services import Services
from tests.backends import Backend

LEASE = 60.0
SHORT = 5.0
"""A short lease: still held when a loaded machine gets to its next command (0.5 s was not, once)."""


class TestLanes:
    async def test_one_holder_and_run_again(self, services: Services, backend: Backend) -> None:
        """A holds the lane; B is refused and asks A to run once more; A's leaving says so (keeping the lease),
        the next leaving lets go; then B may take it."""
        other = backend.services()
        await services.stores.lanes.beat("A", LEASE)
        assert await services.stores.lanes.take("m1", "group", "A", LEASE)
        assert await services.stores.lanes.take("m1", "group", "A", LEASE), "the holder may take its lane again"
        assert not await other.stores.lanes.take("m1", "group", "B", LEASE)
        assert await other.stores.lanes.take("m1", "0", "B", LEASE), "another lane is another lease"
        assert await services.stores.lanes.leave("m1", "group", "A", LEASE) is True
        assert not await other.stores.lanes.take("m1", "group", "B", LEASE)
        assert await services.stores.lanes.leave("m1", "group", "A", LEASE) is True
        assert await services.stores.lanes.leave("m1", "group", "A", LEASE) is False
        assert await other.stores.lanes.take("m1", "group", "B", LEASE)

    async def test_a_dead_holder(self, services: Services, backend: Backend) -> None:
        """A holder without a heartbeat (a process killed) loses the lane to the next process that asks."""
        other = backend.services()
        await services.stores.lanes.beat("A", 0.001)
        assert await services.stores.lanes.take("m3", "0", "A", LEASE)
        await services.stores.redis.delete(services.stores.keys.process("A"))  # the heartbeat ran out
        assert await other.stores.lanes.take("m3", "0", "B", LEASE)
        assert not await services.stores.lanes.keep("m3", "0", "A", LEASE)

    async def test_lease_and_renewal(self, services: Services, backend: Backend) -> None:
        """The lease lasts as asked and is renewed by its holder only; one that is not held cannot be left."""
        other = backend.services()
        key = services.stores.keys.lane("m2", "1")
        assert await services.stores.lanes.take("m2", "1", "A", SHORT)
        assert 0 < await services.stores.redis.pttl(key) <= SHORT * 1000
        assert await services.stores.lanes.keep("m2", "1", "A", LEASE)
        assert await services.stores.redis.pttl(key) > 50_000
        assert not await other.stores.lanes.keep("m2", "1", "B", LEASE)
        assert await other.stores.lanes.leave("m2", "1", "B", LEASE) is False
        assert await services.stores.redis.get(key) in (b"A", "A")
