"""Time as the bot sees it: wall time, a monotonic clock and sleeping, in one object a test can replace."""

from __future__ import annotations

import asyncio
import time


class Clock:
    """The real clock."""

    def time(self) -> float:
        """Seconds since the epoch (timestamps stored in Redis)."""
        return time.time()

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (rate limits)."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


BACKOFF_FIRST = 1.0
BACKOFF_CAP = 30.0


def next_backoff(delay: float) -> float:
    """The wait after ``delay`` when something keeps failing: doubled, at most ``BACKOFF_CAP`` seconds."""
    return min(delay * 2, BACKOFF_CAP)
