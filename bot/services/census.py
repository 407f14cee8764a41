"""What the operator's gauges read from Redis: the matches under way, the open challenges, the screens and the
jobs due. Read when ``/metrics`` is scraped, and kept a few seconds: several scrapers (or several dashboards)
cost Redis one read per ``CACHE`` seconds, however often they ask."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.scheduler import CLOCK
from bot.storage.challenges import ChallengeStore
from bot.storage.jobs import JobStore
from bot.storage.matches import MatchStore

CACHE = 5.0
"""Seconds a reading is kept (on the bot's clock)."""


@dataclass(frozen=True)
class Reading:
    """What Redis held at ``at`` (seconds since the epoch, the bot's clock)."""

    at: float
    active_matches: int
    """Matches under way: each has its clock job (``t:<match>``) from its accept to its finish."""
    open_challenges: int
    matches_due: int
    """Matches whose screens are behind their version."""
    oldest_due: float | None
    """When the write was made that the most behind match's screens still have to show (None: none behind)."""
    jobs_due: int
    oldest_job: float | None
    """When the job due longest ago (and not claimed) was due (None: none due)."""

    @property
    def screens_lag(self) -> float:
        """Seconds the most behind match's screens lag its last write (0: none behind)."""
        return 0.0 if self.oldest_due is None else max(0.0, self.at - self.oldest_due)

    @property
    def jobs_lag(self) -> float:
        """Seconds the longest-waiting due job is past its time (0: none due)."""
        return 0.0 if self.oldest_job is None else max(0.0, self.at - self.oldest_job)


class Census:
    """Reads the gauges' figures from Redis, at most once per ``cache`` seconds."""

    def __init__(
        self,
        matches: MatchStore,
        challenges: ChallengeStore,
        jobs: JobStore,
        *,
        clock: Callable[[], float],
        cache: float = CACHE,
    ) -> None:
        self.matches = matches
        self.challenges = challenges
        self.jobs = jobs
        self.clock = clock
        self.cache = cache
        self._last: Reading | None = None

    async def read(self) -> Reading:
        """The figures, read from Redis unless the last reading is under ``cache`` seconds old."""
        now = self.clock()
        last = self._last
        if last is not None and 0 <= now - last.at < self.cache:
            return last
        due, oldest_due = await self.matches.due_summary()
        jobs_due, oldest_job = await self.jobs.due(now)
        self._last = Reading(
            at=now,
            active_matches=await self.jobs.count(f"{CLOCK}:"),
            open_challenges=await self.challenges.open_count(),
            matches_due=due,
            oldest_due=oldest_due,
            jobs_due=jobs_due,
            oldest_job=oldest_job,
        )
        return self._last
