"""One member's commands in a group (``CommandFlood`` over ``BudgetStore.take_command``): five answered in any
minute, the first one over told once, the rest silent; members and groups apart; every process shares the count."""

from __future__ import annotations

import pytest

from bot.limits import CommandFlood, Flood
from bot.services import Services
from bot.storage.budgets import BudgetStore
from bot.storage.keys import Keys
from bot.storage.redis import create_redis
from tests.backends import Backend
from tests.ports import free_port

GROUP, OTHER_GROUP = -100, -200
ANN, BOB = 1, 2


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def flood(services: Services, clock: Clock) -> CommandFlood:
    return CommandFlood(services.stores.budgets, limit=5, window=60.0, clock=clock)


class TestCommandFlood:
    async def test_five_then_one_notice_then_silence(self, services: Services) -> None:
        clock = Clock()
        counter = flood(services, clock)
        verdicts = []
        for _ in range(100):
            verdicts.append(await counter.take(GROUP, ANN))
            clock.now += 0.5
        assert verdicts[:5] == [Flood.ANSWER] * 5
        assert verdicts[5] is Flood.NOTICE
        # 100 commands over 50 s: none answered again before the first answered one leaves the window.
        assert verdicts[6:] == [Flood.SILENT] * 94

    async def test_sliding_window(self, services: Services) -> None:
        """A command is answered again once the oldest answered one is a minute old; a new flood is told again."""
        clock = Clock()
        counter = flood(services, clock)
        for _ in range(5):
            assert await counter.take(GROUP, ANN) is Flood.ANSWER
            clock.now += 10
        assert await counter.take(GROUP, ANN) is Flood.NOTICE  # t=50: the first at t=0 still counts
        clock.now += 10.001  # t=60.001: the first has left the window, the second (t=10) not
        assert await counter.take(GROUP, ANN) is Flood.ANSWER
        assert await counter.take(GROUP, ANN) is Flood.NOTICE
        assert await counter.take(GROUP, ANN) is Flood.SILENT

    async def test_members_and_groups_apart(self, services: Services) -> None:
        clock = Clock()
        counter = flood(services, clock)
        for _ in range(6):
            await counter.take(GROUP, ANN)
        assert await counter.take(GROUP, BOB) is Flood.ANSWER
        assert await counter.take(OTHER_GROUP, ANN) is Flood.ANSWER
        assert await counter.take(GROUP, ANN) is Flood.SILENT

    async def test_processes_share_it(self, services: Services, backend: Backend) -> None:
        """Two processes (two clients, two services) count one member's commands together."""
        clock = Clock()
        first, second = flood(services, clock), flood(backend.services(), clock)
        verdicts = [await (first if i % 2 else second).take(GROUP, ANN) for i in range(8)]
        assert verdicts == [Flood.ANSWER] * 5 + [Flood.NOTICE, Flood.SILENT, Flood.SILENT]

    @pytest.mark.parametrize("limit", [1, 3])
    async def test_limit(self, services: Services, limit: int) -> None:
        clock = Clock()
        counter = CommandFlood(services.stores.budgets, limit=limit, window=60.0, clock=clock)
        verdicts = [await counter.take(GROUP, ANN) for _ in range(limit + 2)]
        assert verdicts == [Flood.ANSWER] * limit + [Flood.NOTICE, Flood.SILENT]


class TestRedisDown:
    async def test_answered(self) -> None:
        """Redis does not answer: the command is handled (and the handler says storage is down)."""
        redis = create_redis(f"redis://127.0.0.1:{free_port()}/0")
        try:
            counter = CommandFlood(BudgetStore(redis, Keys("t")), limit=1, window=60.0, clock=Clock())
            assert await counter.take(GROUP, ANN) is Flood.ANSWER
            assert await counter.take(GROUP, ANN) is Flood.ANSWER
        finally:
            await redis.aclose()
