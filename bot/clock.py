"""Time as the bot sees it: wall time, a monotonic clock and sleeping, in one object a test can replace."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import ClassVar


class Clock:
    """The real clock."""

    real: ClassVar[bool] = True
    """Whether ``shared`` is the real time, which a key's TTL in Redis runs on (``bot.storage.budgets``)."""

    def time(self) -> float:
        """Seconds since the epoch (timestamps stored in Redis)."""
        return time.time()

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (rate limits)."""
        return time.monotonic()

    def shared(self) -> float:
        """Seconds on a clock every process on one Redis shares (Telegram's budgets counted there): the wall
        clock, even where ``time`` is a test's."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class FileClock(Clock):
    """Wall time read from a file that a test writes (``CLOCK_FILE``), so that several bot processes share a
    clock the test moves; the monotonic and shared clocks and sleeping stay real (rate limits, polling)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def time(self) -> float:
        return float(self.path.read_text().strip())


BACKOFF_FIRST = 1.0
BACKOFF_CAP = 30.0


def next_backoff(delay: float) -> float:
    """The wait after ``delay`` when something keeps failing: doubled, at most ``BACKOFF_CAP`` seconds."""
    return min(delay * 2, BACKOFF_CAP)
