"""Jobs in Redis: things due later (``bot/scheduler.py`` names them), in one sorted set scored by when each
is due. Claiming moves a due job's score to the end of a lease, so that exactly one process acts on it; the
process keeps the lease while its handler runs, and one that dies holding it leaves it due again when the lease
ends."""

from __future__ import annotations

from typing import Any

from bot.storage.base import Failed, Store, ignore, text
from bot.storage.keys import Keys

# KEYS: 1 jobs. ARGV: 1 now, 2 the lease's end, 3 how many at most.
# Returns the jobs claimed (each now scored ARGV[2]), each followed by when it was due (as a string).
CLAIM_JOBS = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[2], due[i]) end
return due
"""

# A claimed job is done: due again at ARGV[3] (or gone when ARGV[3] is ''), unless
# someone scheduled it anew while it was held (its score is no longer the lease's).
# KEYS: 1 jobs. ARGV: 1 job, 2 the lease's end as claimed, 3 when next due or ''.
# Returns 1 when changed, 0 when left as someone else set it.
COMPLETE_JOB = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""


# A claimed job whose handler still runs keeps its lease: moved on to ARGV[3], unless the job is no longer
# scored as claimed (someone scheduled it anew, or it is gone). KEYS: 1 jobs. ARGV: 1 job, 2 the lease's end
# as held, 3 the new end. Returns 1 when kept, 0 when the job is no longer this lease's.
KEEP_JOB = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
"""


class JobStore(Store):
    """The jobs of every process, by when they are due."""

    def __init__(self, redis: Any, keys: Keys, *, failed: Failed = ignore) -> None:
        super().__init__(redis, keys, failed=failed)
        self._claim = self.script(CLAIM_JOBS)
        self._complete = self.script(COMPLETE_JOB)
        self._keep = self.script(KEEP_JOB)

    async def add(self, job: str, at: float, *, if_missing: bool = False, only_sooner: bool = False) -> None:
        """Make ``job`` due at ``at`` (``if_missing``: a job already there keeps its time; ``only_sooner``: a job
        due earlier keeps its time)."""
        await self.call(self.redis.zadd(self.keys.jobs(), {job: at}, nx=if_missing, lt=only_sooner))

    async def remove(self, job: str) -> None:
        await self.call(self.redis.zrem(self.keys.jobs(), job))

    async def due_at(self, job: str) -> float | None:
        """When ``job`` is due (or its lease ends), None when there is no such job."""
        score = await self.call(self.redis.zscore(self.keys.jobs(), job))
        return None if score is None else float(score)

    async def claim(self, now: float, lease: float, limit: int) -> list[tuple[str, float]]:
        """Claim at most ``limit`` jobs due at ``now``: each is hidden from the others until ``lease``. Each job
        with when it was due."""
        claimed = await self.run(self._claim, [self.keys.jobs()], [repr(now), repr(lease), limit])
        return [(text(claimed[i]), float(claimed[i + 1])) for i in range(0, len(claimed), 2)]

    async def due(self, now: float) -> tuple[int, float | None]:
        """How many jobs are due at ``now`` (and not claimed), and when the one due longest ago was due."""
        key = self.keys.jobs()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zcount(key, "-inf", repr(now))
            pipe.zrange(key, 0, 0, withscores=True)
            count, first = await self.call(pipe.execute())
        oldest = float(first[0][1]) if first and float(first[0][1]) <= now else None
        return int(count), oldest

    async def count(self, prefix: str) -> int:
        """How many jobs have a name that starts with ``prefix`` (a walk of the set, a slice at a time: it never
        holds Redis for long; a job the walk meets twice counts once)."""
        found = {job async for job, _ in self.redis.zscan_iter(self.keys.jobs(), match=f"{prefix}*", count=1000)}
        return len(found)

    async def complete(self, job: str, lease: float, following: float | None) -> bool:
        """A claimed job is done: due again at ``following`` (None: gone), unless someone scheduled it anew
        while it was held."""
        nxt = "" if following is None else repr(following)
        return bool(await self.run(self._complete, [self.keys.jobs()], [job, repr(lease), nxt]))

    async def keep(self, job: str, lease: float, until: float) -> bool:
        """Move a held job's lease from ``lease`` on to ``until``; False when it is no longer held so (scheduled
        anew meanwhile, or gone)."""
        return bool(await self.run(self._keep, [self.keys.jobs()], [job, repr(lease), repr(until)]))
