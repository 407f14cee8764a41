"""A simulated clock for the bot: time moves only when the test moves it (or lets a ticker move it)."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator

from bot.clock import Clock

EPOCH = 1_700_000_000.0


class SimClock(Clock):
    """``sleep`` waits until ``advance`` moves the time past its deadline."""

    real = False

    def __init__(self) -> None:
        self.now = 1000.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()
        self.paused = False

    def time(self) -> float:
        return EPOCH + self.now

    def monotonic(self) -> float:
        return self.now

    def shared(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._seq), future))
        await future

    def advance(self, seconds: float) -> None:
        self.now += seconds
        while self._sleepers and self._sleepers[0][0] <= self.now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)

    @contextlib.asynccontextmanager
    async def ticking(self, step: float = 0.1, every: float = 0.005) -> AsyncIterator[SimClock]:
        """Move time on by ``step`` every ``every`` real seconds (unless ``paused``) while inside."""

        async def tick() -> None:
            while True:
                if not self.paused:
                    self.advance(step)
                await asyncio.sleep(every)

        ticker = asyncio.create_task(tick())
        try:
            yield self
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
