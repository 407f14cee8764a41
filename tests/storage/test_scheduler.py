"""The scheduler: due jobs in Redis, each run by exactly one process, on a clock the test moves."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.app import adopt_jobs
from bot.models import Player
from bot.scheduler import LEASE, RETRY, Scheduler
from bot.services import Services
from bot.storage.jobs import JobStore
from bot.storage.keys import Keys
from tests.backends import Backend
from tests.bot.helpers import BOB, CEZ, CHAT, OTHER_CHAT, start_match
from tests.e2e.simclock import SimClock


def scheduler_on(backend: Backend, clock: SimClock) -> Scheduler:
    """A scheduler with a client of its own (a process of its own) on the test's Redis."""
    return Scheduler(JobStore(backend.client(), Keys(backend.prefix)), clock)


class TestDue:
    """A job runs when due, not before; the handler says when it is due again."""

    async def test_runs_when_due(self, services: Services, backend: Backend) -> None:
        clock = SimClock()
        scheduler = scheduler_on(backend, clock)
        ran: list[str] = []

        async def handler(argument: str) -> float | None:
            ran.append(argument)
            return None

        scheduler.on("k", handler)
        await scheduler.schedule("k:one", clock.time() + 10)
        assert await scheduler.run_due() == 0
        clock.advance(9.9)
        assert await scheduler.run_due() == 0
        clock.advance(0.2)
        assert await scheduler.run_due() == 1
        assert ran == ["one"]
        late = scheduler.metrics.registry.get_sample_value("domino_scheduler_last_job_late_seconds")
        assert late == pytest.approx(0.1)  # claimed 0.1 s after it was due
        assert await scheduler.due_at("k:one") is None
        clock.advance(1000)
        assert await scheduler.run_due() == 0

    async def test_handler_reschedules(self, services: Services, backend: Backend) -> None:
        """A handler's answer is when it runs next; each run once."""
        clock = SimClock()
        scheduler = scheduler_on(backend, clock)
        runs = 0

        async def handler(argument: str) -> float | None:
            nonlocal runs
            runs += 1
            return clock.time() + 5 if runs < 3 else None

        scheduler.on("k", handler)
        await scheduler.schedule("k:x", clock.time())
        for _ in range(6):
            await scheduler.run_due()
            clock.advance(5)
        assert runs == 3
        assert await scheduler.due_at("k:x") is None

    async def test_rescheduled_while_running(self, services: Services, backend: Backend) -> None:
        """A job scheduled anew while its handler runs keeps the new time (the handler's answer loses)."""
        clock = SimClock()
        scheduler = scheduler_on(backend, clock)
        later = clock.time() + 500

        async def handler(argument: str) -> float | None:
            await scheduler.schedule("k:x", later)
            return clock.time() + 1

        scheduler.on("k", handler)
        await scheduler.schedule("k:x", clock.time())
        await scheduler.run_due()
        assert await scheduler.due_at("k:x") == pytest.approx(later)


class TestExactlyOnce:
    """Several processes' schedulers share the jobs: each due job runs in exactly one of them."""

    async def test_two_processes(self, services: Services, backend: Backend) -> None:
        clock = SimClock()
        schedulers = [scheduler_on(backend, clock) for _ in range(2)]
        ran: Counter[str] = Counter()
        by: Counter[int] = Counter()

        for index, scheduler in enumerate(schedulers):

            async def handler(argument: str, index: int = index) -> float | None:
                ran[argument] += 1
                by[index] += 1
                await asyncio.sleep(0)
                return None

            scheduler.on("k", handler)
        for n in range(120):
            await schedulers[0].schedule(f"k:{n}", clock.time() + n % 7)
        for _ in range(10):
            clock.advance(1)
            await asyncio.gather(*(s.run_due() for s in schedulers for _ in range(3)))
        assert ran == Counter({str(n): 1 for n in range(120)})
        assert sum(by.values()) == 120

    async def test_a_dead_process_job_comes_back(self, services: Services, backend: Backend) -> None:
        """A process that claimed a job and died (its handler never finished) leaves it to another process
        once the lease ends, and not before."""
        clock = SimClock()
        dying, other = scheduler_on(backend, clock), scheduler_on(backend, clock)
        started = asyncio.Event()

        async def hangs(argument: str) -> float | None:
            started.set()
            await asyncio.Event().wait()
            return None

        done: list[str] = []

        async def finishes(argument: str) -> float | None:
            done.append(argument)
            return None

        dying.on("k", hangs)
        other.on("k", finishes)
        await dying.schedule("k:x", clock.time())
        task = asyncio.create_task(dying.run_due())
        await started.wait()
        task.cancel()  # the process is gone, holding the job
        await asyncio.gather(task, return_exceptions=True)
        assert await other.run_due() == 0
        clock.advance(LEASE - 1)
        assert await other.run_due() == 0
        clock.advance(2)
        assert await other.run_due() == 1
        assert done == ["x"]

    async def test_a_long_handler_keeps_its_lease(self, services: Services, backend: Backend) -> None:
        """A handler that runs longer than the lease (a slow Telegram, say) keeps the job from the other processes:
        its process moves the lease on while it runs; once it returns, the job is as the handler said."""
        clock = SimClock()
        slow, other = scheduler_on(backend, clock), scheduler_on(backend, clock)
        release = asyncio.Event()
        ran: list[str] = []

        async def waits(argument: str) -> float | None:
            ran.append("slow")
            await release.wait()
            return None

        async def finishes(argument: str) -> float | None:
            ran.append("other")
            return None

        slow.on("k", waits)
        other.on("k", finishes)
        await slow.schedule("k:x", clock.time())
        task = asyncio.create_task(slow.run_due())
        while not ran:
            await asyncio.sleep(0)
        for _ in range(4 * 3):  # four leases' worth, a third at a time
            clock.advance(LEASE / 3)
            deadline = time.monotonic() + 10
            while (due := await slow.due_at("k:x")) is not None and due < clock.time() + LEASE / 2:
                assert time.monotonic() < deadline, f"the lease was not moved on: due {due}, now {clock.time()}"
                await asyncio.sleep(0.001)
            assert await other.run_due() == 0, f"the job was taken at {clock.now}"
        release.set()
        assert await task == 1
        assert ran == ["slow"] and await slow.due_at("k:x") is None


class TestFailures:
    """A handler that fails is tried again; Redis failing mid-way leaves the job to its lease."""

    async def test_error_is_retried(self, services: Services, backend: Backend) -> None:
        clock = SimClock()
        scheduler = scheduler_on(backend, clock)
        calls = 0

        async def flaky(argument: str) -> float | None:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise ValueError("a bug, once")
            return None

        scheduler.on("k", flaky)
        await scheduler.schedule("k:x", clock.time())
        await scheduler.run_due()
        assert await scheduler.due_at("k:x") == pytest.approx(clock.time() + RETRY)
        clock.advance(RETRY)
        await scheduler.run_due()
        assert calls == 2
        assert await scheduler.due_at("k:x") is None

    async def test_storage_error_waits_for_the_lease(self, services: Services, backend: Backend) -> None:
        clock = SimClock()
        scheduler = scheduler_on(backend, clock)
        calls = 0

        async def storage_down(argument: str) -> float | None:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise RedisConnectionError("gone")
            return None

        scheduler.on("k", storage_down)
        await scheduler.schedule("k:x", clock.time())
        await scheduler.run_due()
        assert await scheduler.due_at("k:x") == pytest.approx(clock.time() + LEASE)
        clock.advance(LEASE)
        await scheduler.run_due()
        assert calls == 2


DAN = Player(id=104, name="Dan")


class TestAdopt:
    """At a start, challenges and matches from before the scheduler get their jobs; existing jobs stay."""

    async def test_adopt(self, services: Services, backend: Backend) -> None:
        clock = SimClock()
        scheduler = Scheduler(services.stores.jobs, clock)
        old, _ = await start_match(services)
        kept, _ = await start_match(services, creator=CEZ, joiner=BOB, chat_id=OTHER_CHAT)
        challenge = await services.challenges.open(CHAT, DAN, "bingo", "ru")
        kept_at = await scheduler.due_at(f"t:{kept.id}")
        await services.stores.redis.zrem(services.stores.keys.jobs(), f"t:{old.id}", f"x:{challenge.id}")
        await adopt_jobs(services)
        assert await scheduler.due_at(f"t:{old.id}") is not None
        assert await scheduler.due_at(f"x:{challenge.id}") == pytest.approx(challenge.expires)
        assert await scheduler.due_at(f"t:{kept.id}") == kept_at


class TestClose:
    """``close`` ends the scheduler's loop even when the loop swallows its cancellation."""

    async def test_a_cancel_turned_into_a_timeout(self, services: Services, backend: Backend) -> None:
        """On Python 3.11 a Redis client's timeout firing at the moment of the cancel turns it into TimeoutError,
        which the loop takes for Redis not answering (an OSError) and rides out: ``close`` cancels again (a CI
        run's Cluster step hung in a test's close so, both schedulers still looping)."""
        scheduler = scheduler_on(backend, SimClock())
        looks = 0
        run_due = scheduler.run_due

        async def a_look_whose_cancel_times_out() -> int:
            nonlocal looks
            looks += 1
            if looks == 2:
                try:
                    await asyncio.sleep(30)
                except asyncio.CancelledError:
                    raise TimeoutError("the client's timeout fired as the cancel came") from None
            return await run_due()

        scheduler.run_due = a_look_whose_cancel_times_out  # type: ignore[method-assign]
        scheduler.start()
        async with asyncio.timeout(30):  # the loop looks every second (its poll)
            while looks < 2:
                await asyncio.sleep(0.01)
        try:
            async with asyncio.timeout(30):
                await scheduler.close()
        except TimeoutError:
            raise AssertionError(f"close() did not end the loop within 30 s ({looks} looks)") from None
        assert looks >= 2
