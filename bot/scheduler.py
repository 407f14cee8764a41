"""Things that happen later, kept in Redis: due jobs that exactly one process acts on.

A job is a string ``<kind>:<argument>`` (``x:<challenge>`` a challenge's expiry,
``t:<match>`` a match's turn clock and the computer's moves, ``s:<chat>:<season>``
a group's season that ends, ``n:<tournament>`` a tournament's; the names are made
here and nowhere else) in one sorted set (``bot/storage/jobs.py``), scored by
when it is due. The services schedule through this scheduler; the scheduler of
every running process claims due jobs atomically (the claim moves the job's
score to the end of a lease, so no other process sees it due; the lease is
moved on while the handler runs) and calls the handler of its kind. The handler returns when the job is due
again, or None when it is done. Handlers are idempotent: a job whose process
died while holding it comes due again when the lease ends and runs a second
time, and what it does is checked against Redis there.

Time is the injected clock's (``Clock.time``), so tests move it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from redis.exceptions import RedisError

from bot.clock import BACKOFF_FIRST, Clock, next_backoff
from bot.metrics import Metrics
from bot.runtime import cancel_and_wait
from bot.storage.base import StorageUnavailable
from bot.storage.jobs import JobStore

log = logging.getLogger(__name__)

Handler = Callable[[str], Awaitable[float | None]]
"""Acts on a job's argument; returns when the job is due again (seconds since the epoch), or None: done."""

LEASE = 15.0
"""Seconds a claimed job stays hidden from the other processes; its process moves the lease on every third of it
while the handler runs, so a job held by a process that died (kill -9) is due again within this time."""
RETRY = 5.0
"""Seconds until a job whose handler failed is tried again."""
BATCH = 50
"""Jobs claimed at once."""
POLL = 1.0
"""Real seconds between two looks for due jobs."""

CLOCK = "t"
"""The kind of a match's job: its turn clock, and the computer's moves."""
EXPIRY = "x"
"""The kind of a challenge's job: its expiry, and the look at whether an accept was carried through."""
SEASON = "s"
"""The kind of a group's season job: its final table, posted when the season ends."""
TOURNAMENT = "n"
"""The kind of a tournament's job: its sign-up's end, its pairings started and its results taken."""


def clock_job(match_id: str) -> str:
    """The job of a match's turn clock."""
    return f"{CLOCK}:{match_id}"


def expiry_job(challenge_id: str) -> str:
    """The job of a challenge's expiry."""
    return f"{EXPIRY}:{challenge_id}"


def season_job(chat_id: int, season: str) -> str:
    """The job of a group's season (``YYYY-MM``): its final table at its end."""
    return f"{SEASON}:{chat_id}:{season}"


def tournament_job(tournament_id: str) -> str:
    """The job of a tournament."""
    return f"{TOURNAMENT}:{tournament_id}"


def season_of_job(argument: str) -> tuple[int, str]:
    """The group and the season a season job's argument names."""
    chat, _, season = argument.rpartition(":")
    return int(chat), season


class Scheduler:
    """The due jobs of one Redis, acted on by this process's handlers."""

    def __init__(
        self, jobs: JobStore, clock: Clock, *, poll: float = POLL, lease: float = LEASE, metrics: Metrics | None = None
    ) -> None:
        self.jobs = jobs
        self.clock = clock
        self.metrics = metrics or Metrics()
        """Where how late the last jobs ran is told (``domino_scheduler_last_job_late_seconds``)."""
        self.poll = poll
        self.lease = lease
        self.handlers: dict[str, Handler] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self.outages = 0
        """How many times a look for due jobs failed because Redis did not answer."""

    def on(self, kind: str, handler: Handler) -> None:
        """Run ``handler`` for the jobs ``<kind>:...``."""
        self.handlers[kind] = handler

    async def schedule(self, job: str, at: float, *, if_missing: bool = False, only_sooner: bool = False) -> None:
        """Make ``job`` due at ``at`` (replacing when it was due, unless ``if_missing``: then a job already
        there keeps its time; ``only_sooner``: a job due earlier keeps its time)."""
        await self.jobs.add(job, at, if_missing=if_missing, only_sooner=only_sooner)

    async def unschedule(self, job: str) -> None:
        """``job`` is not due any more."""
        await self.jobs.remove(job)

    async def due_at(self, job: str) -> float | None:
        """When ``job`` is due (or its lease ends), None when there is no such job."""
        return await self.jobs.due_at(job)

    async def run_due(self) -> int:
        """Claim the jobs due now and run them (at most ``BATCH``); returns how many ran."""
        now = self.clock.time()
        lease = now + self.lease
        jobs = await self.jobs.claim(now, lease, BATCH)
        if jobs:
            # The batch's jobs start together: how late the one that waited longest is.
            self.metrics.job_lateness.set(max(0.0, now - min(due for _, due in jobs)))
        await asyncio.gather(*(self._run(job, lease) for job, _ in jobs))
        return len(jobs)

    async def _run(self, job: str, lease: float) -> None:
        kind, _, argument = job.partition(":")
        handler = self.handlers.get(kind)
        following: float | None
        if handler is None:
            log.warning("job %s: no handler for %r; dropped", job, kind)
            following = None
        else:
            held = [lease]
            keeper = asyncio.ensure_future(self._keep(job, held))
            try:
                following = await handler(argument)
            except (RedisError, StorageUnavailable) as exc:
                # Redis failed mid-way (the completion would fail too): the lease brings the job back.
                log.warning("job %s: storage failed (%s); it runs again after its lease", job, exc)
                return
            except Exception as exc:  # a bug, or Telegram unreachable: soon again
                log.warning("job %s failed (%s: %s); retrying in %.0f s", job, type(exc).__name__, exc, RETRY)
                log.debug("job %s failed", job, exc_info=True)
                following = self.clock.time() + RETRY
            finally:
                keeper.cancel()
                await asyncio.gather(keeper, return_exceptions=True)
            lease = held[0]
        await self.jobs.complete(job, lease, following)

    async def _keep(self, job: str, held: list[float]) -> None:
        """While a job's handler runs, move its lease on every third of ``lease`` (``held[0]``: its end now); stop
        once the job is scheduled anew meanwhile, or Redis fails (the lease then brings it back)."""
        while True:
            await self.clock.sleep(self.lease / 3)
            until = self.clock.time() + self.lease
            try:
                if not await self.jobs.keep(job, held[0], until):
                    return
            except (RedisError, StorageUnavailable, OSError):
                return
            held[0] = until

    def start(self) -> None:
        """Look for due jobs every ``poll`` real seconds until ``close``."""
        if self._task is None:
            self._task = asyncio.create_task(self._loop())

    def wake(self) -> None:
        """Look for due jobs now (a test moved the clock)."""
        self._wake.set()

    def wake_at(self, when: float) -> None:
        """Look for due jobs at ``when`` (the loop looks every second; a job due sooner than that is run on
        time in this process)."""
        asyncio.get_running_loop().call_later(max(0.0, when - self.clock.time()), self.wake)

    async def _loop(self) -> None:
        delay = BACKOFF_FIRST
        while True:
            try:
                while await self.run_due() >= BATCH:
                    pass
                delay = BACKOFF_FIRST
                pause = self.poll
            except (RedisError, StorageUnavailable, OSError) as exc:
                self.outages += 1
                log.warning("scheduler: Redis does not answer (%s); retrying in %.0f s", exc, delay)
                pause = delay
                delay = next_backoff(delay)
            except Exception:
                # A bug must not stop the clocks of every match: say so, and look again later.
                log.exception("scheduler: looking for due jobs failed; retrying in %.0f s", RETRY)
                pause = RETRY
            self._wake.clear()
            # Looking is paced in real seconds (what is due is decided on the clock): a test's fast simulated
            # clock must not turn one look a second into dozens.
            sleeper = asyncio.ensure_future(asyncio.sleep(pause))
            waker = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiting in (sleeper, waker):
                    waiting.cancel()

    async def close(self) -> None:
        """Stop looking (the jobs stay in Redis for the next start or another process)."""
        if self._task is not None:
            await cancel_and_wait([self._task])
            self._task = None
