"""The painter: pictures drawn in a worker process; a failure, a dead or a hung worker give no picture."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import replace
from pathlib import Path

from bot.metrics import Metrics
from bot.pictures.cards import RatingChart
from bot.pictures.painter import Painter
from tests.bot.painter_helpers import appears

CHART = RatingChart(lang="ru", title="", ratings=(1500, 1516), won=(True,), match_label="", summary="")
HELPERS = "tests.bot.painter_helpers"


def running(pid: int) -> bool:
    """Whether the process runs (a killed one not yet reaped is a zombie: not running)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):  # gone before the open, or between the open and the read
        return False
    return "State:\tZ" not in status


class TestPainter:
    """Painter.png: the worker draws, the loop goes on; every failure is None, and the next picture draws."""

    async def test_drawn_off_the_event_loop(self, tmp_path: Path) -> None:
        """While the worker draws, the loop runs other work; the picture comes from another process."""
        painter = Painter(draw=f"{HELPERS}:pid")
        flag = tmp_path / "go"
        try:
            drawing = asyncio.create_task(painter.png(replace(CHART, title=str(flag))))
            await appears(Path(f"{flag}.started"))
            worker = int(Path(f"{flag}.started").read_text())
            assert worker != os.getpid() and painter.workers() == [worker]
            # The worker is in the middle of its picture: the loop serves everything else meanwhile.
            ticks = 0
            for _ in range(1000):
                await asyncio.sleep(0)
                ticks += 1
            other = await asyncio.to_thread(sum, range(1000))
            assert ticks == 1000 and other == 499500 and not drawing.done()
            flag.touch()
            assert await drawing == str(worker).encode()
        finally:
            await painter.close()

    async def test_drawn_once_per_key(self, tmp_path: Path) -> None:
        """The same key asked for three times at once is drawn once and then kept."""
        painter = Painter(draw=f"{HELPERS}:pid")
        flag = tmp_path / "go"
        chart = replace(CHART, title=str(flag))
        try:
            asks = [asyncio.create_task(painter.png(chart, key="m1")) for _ in range(3)]
            await appears(Path(f"{flag}.started"))
            Path(f"{flag}.started").unlink()
            flag.touch()
            first = await asyncio.gather(*asks)
            assert len(set(first)) == 1 and first[0]
            assert await painter.png(chart, key="m1") == first[0]
            assert not Path(f"{flag}.started").exists()  # the kept picture was not drawn again
        finally:
            await painter.close()

    async def test_a_failure_gives_none(self) -> None:
        """A drawing that raises gives None (counted as an error of its picture); the worker lives on for the next
        one (its time counted)."""
        metrics = Metrics()
        painter = Painter(draw=f"{HELPERS}:fail", metrics=metrics)
        failed = {"picture": "RatingChart", "reason": "error"}
        try:
            assert await painter.png(CHART, key="x") is None
            assert painter.failures == 1
            assert metrics.registry.get_sample_value("domino_picture_failures_total", failed) == 1
            worker = painter.workers()
            painter.draw = f"{HELPERS}:pid"
            assert await painter.png(CHART, key="x") == str(worker[0]).encode()
            drawn = {"picture": "RatingChart"}
            assert metrics.registry.get_sample_value("domino_picture_seconds_count", drawn) == 1
        finally:
            await painter.close()

    async def test_a_dead_worker_is_replaced(self) -> None:
        """A picture whose drawing kills the worker (the new one too) gives None (counted: it died); the next picture
        gets a new worker."""
        metrics = Metrics()
        painter = Painter(draw=f"{HELPERS}:die", metrics=metrics)
        try:
            assert await painter.png(CHART) is None
            died = {"picture": "RatingChart", "reason": "died"}
            assert metrics.registry.get_sample_value("domino_picture_failures_total", died) == 1
            painter.draw = f"{HELPERS}:pid"
            png = await painter.png(CHART)
            assert png is not None and painter.workers() == [int(png)]
        finally:
            await painter.close()

    async def test_a_worker_killed_while_idle_costs_no_picture(self) -> None:
        """A worker killed between two pictures (by someone else, or out of memory) is found dead by the next
        picture, which a new worker draws (a match card was once sent as text so in a full run)."""
        metrics = Metrics()
        painter = Painter(draw=f"{HELPERS}:pid", metrics=metrics)
        try:
            first = await painter.png(CHART)
            assert first is not None
            os.kill(int(first), signal.SIGKILL)
            async with asyncio.timeout(10):  # SIGKILL takes effect at once; the kernel's bookkeeping a moment later
                while running(int(first)):
                    await asyncio.sleep(0.01)
            again = await painter.png(CHART)
            assert again is not None and again != first and painter.workers() == [int(again)]
            assert painter.failures == 0
            died = {"picture": "RatingChart", "reason": "died"}
            assert not metrics.registry.get_sample_value("domino_picture_failures_total", died)
        finally:
            await painter.close()

    async def test_a_hung_worker_is_stopped(self, tmp_path: Path) -> None:
        """A drawing longer than the timeout gives None, and its worker is killed."""
        expired = asyncio.Event()

        async def sleep(seconds: float) -> None:  # the timeout runs out when the test says so
            await expired.wait()

        painter = Painter(draw=f"{HELPERS}:pid", sleep=sleep)
        flag = tmp_path / "never"
        try:
            drawing = asyncio.create_task(painter.png(replace(CHART, title=str(flag))))
            await appears(Path(f"{flag}.started"))  # the worker is in the drawing (and stays: no flag comes)
            worker = int(Path(f"{flag}.started").read_text())
            assert not drawing.done()
            expired.set()
            assert await drawing is None
            assert painter.failures == 1 and painter.workers() == []
            async with asyncio.timeout(10):  # SIGKILL takes effect at once; the kernel's bookkeeping a moment later
                while running(worker):
                    await asyncio.sleep(0.01)
            expired.clear()
            flag.touch()
            again = await asyncio.wait_for(painter.png(replace(CHART, title=str(flag))), 60)
            assert again is not None and int(again) != worker
        finally:
            await painter.close()


BOT_KILLED = """
import asyncio, os, signal
from bot.metrics import Metrics
from bot.pictures.cards import RatingChart
from bot.pictures.painter import Painter

async def main():
    painter = Painter(draw="tests.bot.painter_helpers:pid")
    chart = RatingChart(lang="ru", title="", ratings=(1, 2), won=(True,), match_label="", summary="")
    print((await painter.png(chart)).decode(), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

if __name__ == "__main__":
    asyncio.run(main())
"""


class TestWorkerLifetime:
    """The worker never outlives the bot."""

    async def test_the_worker_exits_when_the_bot_is_killed(self, tmp_path: Path) -> None:
        """A bot killed with SIGKILL leaves no worker behind (it would wait for its next picture for ever)."""
        script = tmp_path / "bot_killed.py"
        script.write_text(BOT_KILLED)
        root = Path(__file__).resolve().parents[2]
        out = tmp_path / "out"
        with out.open("w") as stdout:  # a file, not a pipe: a worker left behind would hold a pipe open
            process = await asyncio.create_subprocess_exec(
                sys.executable, str(script), cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, stdout=stdout
            )
            assert await process.wait() == -signal.SIGKILL
        worker = int(out.read_text())
        try:
            async with asyncio.timeout(30):
                while running(worker):
                    await asyncio.sleep(0.05)
        finally:
            if running(worker):
                os.kill(worker, signal.SIGKILL)
