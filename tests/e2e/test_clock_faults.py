"""The scheduler through faults: two bot processes on one Redis, kill -9 between a reminder and its deadline,
and Redis down across a challenge's expiry.

The processes read the wall time from a file the test writes (``CLOCK_FILE``),
so both share one clock the test moves; the in-process bot of the outage test
runs on a ``SimClock``. Counts are of the messages the fake Bot API received.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.i18n import I18n
from bot.services import Services
from bot.storage.embedded import EmbeddedRedis
from tests.e2e.conftest import running_bot
from tests.e2e.driver import button, challenge, new_match, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.process import BotProcess, bot_env
from tests.e2e.simclock import SimClock
from tests.redis_server import redis_url

ANN = FakeUser(9101, "Ann", "ann_jobs", "ru")
BOB = FakeUser(9102, "Bob", "bob_jobs", "ru")
GROUPS = (-100911, -100912, -100913, -100914, -100915)
TIMEOUT = 600
EPOCH = 1_800_000_000.0
TR = I18n()["ru"]
ENDED = "ended by its clock"
"""The log line of a match the clock ended (one per forfeit, whichever process runs it)."""


class FileClock:
    """The wall time the bot processes read (``CLOCK_FILE``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.set(EPOCH)

    def set(self, moment: float) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(repr(moment))
        tmp.replace(self.path)


@pytest.fixture
def file_clock(tmp_path: Path) -> FileClock:
    return FileClock(tmp_path / "now")


def clock_env(fake: FakeTelegram, prefix: str, clock: FileClock) -> dict[str, str]:
    """A bot process on the tests' Redis with ten minutes a move, reading the time from ``clock``'s file."""
    return bot_env(
        telegram_api_base=fake.base,
        redis_url=redis_url(),
        redis_prefix=prefix,
        clock_file=str(clock.path),
        turn_timeout=str(TIMEOUT),
    )


def reminders(fake: FakeTelegram, group: int) -> int:
    return sum(m.text.startswith("⏰") and "tg://user?id=" in m.text for m in fake.chat_messages(group))


def forfeits(fake: FakeTelegram, group: int) -> int:
    head = TR("match-forfeit", loser="X", winner="Y", sw=0, sl=0).split(" — ")[0]
    return sum(m.text.startswith(head) for m in fake.chat_messages(group))


@contextlib.asynccontextmanager
async def processes(env: dict[str, str], count: int) -> AsyncIterator[list[BotProcess]]:
    started: list[BotProcess] = []
    try:
        for _ in range(count):
            started.append(await BotProcess(env).start())
        for process in started:
            await process.wait_line(lambda s: "polling" in s, what="polling")
        yield started
    finally:
        for process in started:
            await process.close()


class TestProcesses:
    async def test_two_processes_each_job_once(
        self, fake: FakeTelegram, prefix: str, outside: Services, file_clock: FileClock
    ) -> None:
        """Five matches, two processes polling one Redis: each match gets one reminder line and one forfeit,
        and the forfeits are made once in all (the log lines of both processes)."""
        env = clock_env(fake, prefix, file_clock)
        async with processes(env, 2) as bots:
            for user in (ANN, BOB):
                await start_bot(fake, user)
            matches = [await new_match(fake, ANN, BOB, group) for group in GROUPS]
            for match_id in matches:
                record, _ = await outside.records.get(match_id)
                assert record.updated == EPOCH and record.turn_timeout == TIMEOUT
            file_clock.set(EPOCH + TIMEOUT / 2 + 5)
            await fake.wait_for(lambda: all(reminders(fake, g) >= 1 for g in GROUPS), timeout=30, what="reminders")
            await fake.quiet(period=2.5, timeout=30)
            assert [reminders(fake, g) for g in GROUPS] == [1] * len(GROUPS)
            private = sum(m.text.startswith("⏰ ") for u in (ANN, BOB) for m in fake.chat_messages(u.id))
            assert private == len(GROUPS)
            file_clock.set(EPOCH + TIMEOUT + 5)
            await fake.wait_for(lambda: all(forfeits(fake, g) >= 1 for g in GROUPS), timeout=30, what="forfeits")
            await fake.quiet(period=2.5, timeout=30)
            assert [forfeits(fake, g) for g in GROUPS] == [1] * len(GROUPS)
            assert [reminders(fake, g) for g in GROUPS] == [1] * len(GROUPS)
            assert sum(line.count(ENDED) for bot in bots for line in bot.lines) == len(GROUPS)
            for match_id in matches:
                assert not (await outside.records.get(match_id))[0].is_active
            assert "Traceback" not in "".join(bot.output for bot in bots)

    async def test_kill_between_reminder_and_deadline(
        self, fake: FakeTelegram, prefix: str, outside: Services, file_clock: FileClock
    ) -> None:
        """The bot reminds, is killed (-9); a new one starts after the deadline: the forfeit happens, once."""
        group = GROUPS[0]
        env = clock_env(fake, prefix, file_clock)
        async with processes(env, 1) as [first]:
            for user in (ANN, BOB):
                await start_bot(fake, user)
            match_id = await new_match(fake, ANN, BOB, group)
            file_clock.set(EPOCH + TIMEOUT / 2 + 5)
            await fake.wait_for(lambda: reminders(fake, group) == 1, timeout=30, what="the reminder")
            await first.kill()
        file_clock.set(EPOCH + TIMEOUT + 5)
        assert (await outside.records.get(match_id))[0].is_active
        async with processes(env, 1) as [second]:
            await fake.wait_for(lambda: forfeits(fake, group) == 1, timeout=30, what="the forfeit")
            await fake.quiet(period=2.5, timeout=30)
            assert forfeits(fake, group) == 1 and reminders(fake, group) == 1
            assert sum(line.count(ENDED) for line in second.lines) == 1
            assert ENDED not in first.output
            assert not (await outside.records.get(match_id))[0].is_active


@pytest.fixture
def own_redis() -> Iterator[EmbeddedRedis]:
    """A Redis of the test's own (append-only file on), to stop and start again."""
    directory = tempfile.mkdtemp(prefix="domino-outage-")
    server = EmbeddedRedis(directory)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


class TestRedisOutage:
    async def test_down_across_a_challenge_expiry(
        self, fake: FakeTelegram, prefix: str, own_redis: EmbeddedRedis
    ) -> None:
        """Redis is down for 10 s (simulated) across a challenge's expiry: once it is back, the challenge's
        message says it expired, once."""
        clock = SimClock()
        async with (
            running_bot(fake, prefix, clock=clock, redis_at=own_redis.url, challenge_ttl=60) as app,
            clock.ticking(step=0.01, every=0.005),
        ):
            await start_bot(fake, ANN)
            message = await challenge(fake, ANN, GROUPS[0])
            cid = button(message, "j:")["callback_data"].removeprefix("j:")
            # The handler records the message's id after sending it: Redis stops only once it has.
            for _ in range(300):
                stored = await app.services.challenges.notice(cid)
                if stored is not None and stored.message_id is not None:
                    break
                await asyncio.sleep(0.1)
            assert stored is not None and stored.message_id == message.message_id
            clock.advance(stored.expires - 5 - clock.time())
            await asyncio.to_thread(own_redis.stop)
            outages = app.scheduler.outages
            clock.advance(10)  # the expiry passes while Redis is down
            app.scheduler.wake()
            await fake.wait_for(lambda: app.scheduler.outages > outages, timeout=30, what="the scheduler to fail")
            assert message.buttons(), "the challenge changed while Redis was down"
            await asyncio.to_thread(own_redis.start)
            await fake.wait_for(lambda: not message.buttons(), timeout=60, what="the expiry notice")
            assert message.text == TR("challenge-expired", creator="Ann")
            # The job drops the challenge after its message says so (a loaded machine may take a while).
            for _ in range(300):
                if await app.services.challenges.notice(cid) is None:
                    break
                await asyncio.sleep(0.1)
            await app.settled()
            edits = [
                c
                for c in fake.calls
                if c.method == "editMessageText" and int(c.params.get("message_id", 0)) == message.message_id
            ]
            assert len(edits) == 1
            assert await app.services.challenges.notice(cid) is None
