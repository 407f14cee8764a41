"""The outbox keeps Telegram's limits at their real values, on a simulated clock."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.methods import EditMessageText, SendMessage

from bot.lean import EditMessageTextLean, SendMessageLean
from bot.limits import Budget, SharedLimiter
from bot.outbox import Outbox
from bot.services import Services
from bot.storage.budgets import BudgetStore
from bot.storage.keys import Keys
from bot.storage.redis import create_redis
from tests.bot.conftest import Backend
from tests.e2e.process import free_port

GROUP = -100
PRIVATE = 7
WARM_UP = 8


class Clock:
    """Simulated time: ``sleep`` moves it on at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)
        await _real_sleep(0)


_real_sleep = asyncio.sleep


@dataclass
class Sent:
    message_id: int


@dataclass
class FakeBot:
    """Records each call with the simulated time; can fail on demand."""

    clock: Clock
    calls: list[tuple[float, str, int, str]] = field(default_factory=list)
    texts: dict[int, str] = field(default_factory=dict)
    retry_after: list[int] = field(default_factory=list)
    ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    on_the_way: list[float] = field(default_factory=list)
    """Seconds each next send takes to reach Telegram (a stalled process or network)."""

    async def send_message(self, chat_id: int, text: str, **_: Any) -> Sent:
        if self.on_the_way:
            await self.clock.sleep(self.on_the_way.pop(0))
        self._maybe_429(SendMessage(chat_id=chat_id, text=text))
        message_id = next(self.ids)
        self.texts[message_id] = text
        self.calls.append((self.clock(), "send", chat_id, text))
        return Sent(message_id)

    async def edit_message_text(self, *, text: str, chat_id: int, message_id: int, **_: Any) -> None:
        method = EditMessageText(chat_id=chat_id, message_id=message_id, text=text)
        self._maybe_429(method)
        if self.texts.get(message_id) == text:
            raise TelegramBadRequest(method, "Bad Request: message is not modified")
        self.texts[message_id] = text
        self.calls.append((self.clock(), "edit", chat_id, text))

    async def __call__(self, method: Any) -> Any:
        """The outbox's lean calls (``bot/lean.py``)."""
        if isinstance(method, SendMessageLean):
            return await self.send_message(method.chat_id, method.text)
        assert isinstance(method, EditMessageTextLean)
        return await self.edit_message_text(text=method.text, chat_id=method.chat_id, message_id=method.message_id)

    def _maybe_429(self, method: Any) -> None:
        if self.retry_after:
            raise TelegramRetryAfter(method, "Too Many Requests", self.retry_after.pop(0))


@pytest.fixture
def clock() -> Clock:
    return Clock()


def most_in_window(times: list[float], window: float) -> int:
    best = start = 0
    for end, at in enumerate(times):
        while at - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


class TestGroupBudget:
    """A group never gets more than 20 sends plus edits in any 60 s."""

    async def test_a_busy_match(self, clock: Clock) -> None:
        """300 table changes and 15 new messages in a burst: within budget, newest table shown, edits coalesced."""
        bot = FakeBot(clock)
        box = Outbox(bot, group_budget=20, group_window=60.0, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        table = (await box.send(GROUP, "table v0")).message_id
        for version in range(1, 301):
            box.edit(GROUP, table, f"table v{version}", None, version)
            if version % 20 == 0:
                await box.send(GROUP, f"result {version}")
            await _real_sleep(0)
        await box.drain()
        times = [at for at, _, chat, _ in bot.calls if chat == GROUP]
        assert most_in_window(times, 60.0) <= 20
        assert bot.texts[table] == "table v300"
        edits = [c for c in bot.calls if c[1] == "edit"]
        assert len(edits) < 300
        assert [c[3] for c in bot.calls if c[1] == "send"][-1] == "result 300"

    async def test_a_call_late_on_its_way(self, clock: Clock) -> None:
        """The first of 25 sends reaches Telegram 5 s after it was counted: the 21st still waits a full window
        after that arrival (it is counted from when its call ended), not after the moment it was counted."""
        bot = FakeBot(clock, on_the_way=[5.0])
        box = Outbox(bot, group_budget=20, group_window=60.0, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        for n in range(25):
            await box.send(GROUP, f"m{n}")
        times = [at for at, _, chat, _ in bot.calls if chat == GROUP]
        assert times[0] == 5.0
        assert most_in_window(times, 60.0) <= 20
        assert times[20] >= times[0] + 60.0

    async def test_an_older_version_never_overwrites(self, clock: Clock) -> None:
        """An edit for an older version arriving late is dropped."""
        bot = FakeBot(clock)
        box = Outbox(bot, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        table = (await box.send(GROUP, "v0")).message_id
        box.edit(GROUP, table, "v5", None, 5)
        await box.drain()
        box.edit(GROUP, table, "v4", None, 4)
        await box.drain()
        assert bot.texts[table] == "v5"


class TestPrivateChat:
    """A private chat gets at most one send or edit a second."""

    async def test_one_a_second(self, clock: Clock) -> None:
        """Panel edits and sends to one user are spaced by at least a second."""
        bot = FakeBot(clock)
        box = Outbox(bot, private_gap=1.0, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        panel = (await box.send(PRIVATE, "p0")).message_id
        for version in range(1, 40):
            box.edit(PRIVATE, panel, f"p{version}", None, version)
            if version % 10 == 0:
                await box.send(PRIVATE, f"note {version}")
            await _real_sleep(0)
        await box.drain()
        times = [at for at, _, chat, _ in bot.calls if chat == PRIVATE]
        assert all(b - a >= 1.0 for a, b in itertools.pairwise(times))
        assert bot.texts[panel] == "p39"


class TestTelegramErrors:
    """A 429 is waited out; "message is not modified" is not an error."""

    async def test_retry_after(self, clock: Clock) -> None:
        """Two 429s in a row: the send waits retry_after each time and then goes through."""
        bot = FakeBot(clock, retry_after=[3, 5])
        box = Outbox(bot, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        await box.send(GROUP, "hello")
        assert [c[3] for c in bot.calls] == ["hello"]
        assert clock.now >= 8

    async def test_not_modified(self, clock: Clock) -> None:
        """An edit to the same text is silently fine."""
        bot = FakeBot(clock)
        box = Outbox(bot, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
        message = (await box.send(GROUP, "same")).message_id
        box.edit(GROUP, message, "same", None)
        await box.drain()
        assert bot.texts[message] == "same"
        assert [c[1] for c in bot.calls] == ["send"]


@dataclass
class Granted:
    """A limiter that notes when it let each call go (the moment the shared budget counts)."""

    limiter: SharedLimiter
    clock: Clock
    times: list[tuple[int, float]]

    async def take(self, chat_id: int, *, edit: bool) -> float:
        now = self.clock()  # what the limiter reads before its first await
        wait = await self.limiter.take(chat_id, edit=edit)
        if wait <= 0:
            self.times.append((chat_id, now))
        return wait

    def done(self, chat_id: int) -> None:
        self.limiter.done(chat_id)


class TestSharedBudget:
    """Two processes (two outboxes) on one Redis share each chat's budget (``SharedLimiter``), at Telegram's
    real limits on a simulated clock."""

    @staticmethod
    def boxes(backend: Backend, clock: Clock, bot: FakeBot, granted: list[tuple[int, float]]) -> list[Outbox]:
        budget = Budget(group_budget=20, group_window=60.0, private_gap=1.0)
        keys = Keys(backend.prefix)
        return [
            Outbox(
                bot,  # type: ignore[arg-type]
                sleep=clock.sleep,
                limiter=Granted(SharedLimiter(BudgetStore(backend.client(), keys), budget, clock), clock, granted),
            )
            for _ in range(2)
        ]

    @staticmethod
    async def warmed(boxes: list[Outbox]) -> list[SharedLimiter]:
        """The boxes' shared limiters, each client up before the burst (a cluster client's first command
        discovers the cluster, which a loaded machine can fail; a limiter that cannot reach Redis then counts in
        its process alone, by design)."""
        limiters = [cast(Granted, box.limiter).limiter for box in boxes]
        for limiter in limiters:
            await limiter.take(WARM_UP, edit=False)
        return limiters

    async def test_a_group_across_processes(self, services: Services, backend: Backend, clock: Clock) -> None:
        """Both send 30 messages and edit one 30 times in one group at once: at most 20 calls let go in any 60 s,
        all 60 messages sent and the newest edit shown."""
        bot = FakeBot(clock)
        granted: list[tuple[int, float]] = []
        boxes = self.boxes(backend, clock, bot, granted)
        limiters = await self.warmed(boxes)
        table = (await boxes[0].send(GROUP, "v0")).message_id
        sends = [box.send(GROUP, f"{n}:{i}") for n, box in enumerate(boxes) for i in range(30)]
        edits = [boxes[v % 2].edit_now(GROUP, table, f"v{v}", None, v) for v in range(1, 31)]
        await asyncio.gather(*sends, *edits)
        assert len([c for c in bot.calls if c[1] == "send"]) == 61
        assert not any(limiter._down for limiter in limiters), "Redis did not answer: each process counted alone"
        assert most_in_window(sorted(at for _, at in granted), 60.0) <= 20

    async def test_a_private_chat_across_processes(self, services: Services, backend: Backend, clock: Clock) -> None:
        """Both send to one player: no two calls let go within a second."""
        bot = FakeBot(clock)
        granted: list[tuple[int, float]] = []
        boxes = self.boxes(backend, clock, bot, granted)
        limiters = await self.warmed(boxes)
        await asyncio.gather(*(box.send(PRIVATE, f"{n}:{i}") for n, box in enumerate(boxes) for i in range(10)))
        assert not any(limiter._down for limiter in limiters), "Redis did not answer: each process counted alone"
        times = sorted(at for _, at in granted)
        assert len(times) == 20 == len(bot.calls)
        assert all(b - a >= 1.0 - 1e-6 for a, b in itertools.pairwise(times))

    async def test_redis_down(self, clock: Clock, caplog: pytest.LogCaptureFixture) -> None:
        """Redis does not answer: the budget is counted in the process meanwhile (one warning), so the bot can
        still send (that storage is down, say)."""
        redis = create_redis(f"redis://127.0.0.1:{free_port()}/0", timeout=0.2)
        bot = FakeBot(clock)
        limiter = SharedLimiter(BudgetStore(redis, Keys("down")), Budget(group_budget=20, group_window=60.0), clock)
        box = Outbox(bot, sleep=clock.sleep, limiter=limiter)  # type: ignore[arg-type]
        for i in range(30):
            await box.send(GROUP, str(i))
        await redis.aclose()
        times = [at for at, _, chat, _ in bot.calls if chat == GROUP]
        assert len(times) == 30 and most_in_window(times, 60.0) <= 20
        assert sum("counting in this process" in r.getMessage() for r in caplog.records) == 1
