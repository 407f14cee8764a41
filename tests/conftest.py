"""Fixtures every suite that talks to the fake Bot API shares."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import sys
import threading
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.e2e.fake_telegram import FakeTelegram

pytest_plugins = ["tests.timings"]


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    """A fake Bot API server on a loopback port, stopped at the end of the test."""
    server = FakeTelegram()
    await server.start()
    yield server
    await server.stop()


STUCK_AFTER = 120.0
"""Seconds after which a test that still runs has the stack of every asyncio task it has printed (once): when
pytest-timeout stops it at 300 s, its own dump shows threads only, and an awaited future that never resolves
shows as an idle event loop."""


def _print_tasks(loop: asyncio.AbstractEventLoop, nodeid: str) -> None:
    out = io.StringIO()
    out.write(f"\n=== {nodeid}: still running after {STUCK_AFTER:.0f} s; its asyncio tasks:\n")
    for task in asyncio.all_tasks(loop):
        out.write(f"--- {task.get_name()}: {task.get_coro()!r:.200}\n")
        task.print_stack(limit=20, file=out)
    sys.stderr.write(out.getvalue())
    sys.stderr.flush()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    done = threading.Event()

    def watch() -> None:
        if done.wait(STUCK_AFTER):
            return
        running = [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop) and o.is_running()]
        for loop in running:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_print_tasks, loop, item.nodeid)

    threading.Thread(target=watch, name="stuck-test-watch", daemon=True).start()
    try:
        yield
    finally:
        done.set()
