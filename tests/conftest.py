"""Fixtures every suite that talks to the fake Bot API shares."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import os
import sys
import threading
import traceback
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.runtime import where_it_waits
from tests.e2e.fake_telegram import FakeTelegram

pytest_plugins = ["tests.timings", "tests.schedule"]


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    """A fake Bot API server on a loopback port, stopped at the end of the test."""
    server = FakeTelegram()
    await server.start()
    yield server
    await server.stop()


STUCK_AFTER = float(os.environ.get("TEST_STUCK_AFTER", "100"))
"""Seconds after which a test that still runs prints (once) the stack of every thread and of every asyncio task
of its event loop; pytest-timeout then fails it at ``timeout`` (pyproject.toml: 150 s). pytest-timeout's own
dump shows threads only, where an awaited future that never resolves is an idle event loop; the tasks say what
each one awaits. The slowest test takes about 30 s on a quiet machine and 45 beside two busy loops."""


_PLUMBING = ("/_pytest/", "/pluggy/", "/pytest_asyncio/", "/threading.py", "/asyncio/runners.py")
"""Frames a stuck test's thread dump leaves out (pytest's and the threads' own machinery, the same in every
dump): CI shows a part of a failure's output, and the asyncio tasks that follow the threads say the most."""


def _print_tasks(loop: asyncio.AbstractEventLoop, nodeid: str) -> None:
    out = io.StringIO()
    out.write(f"\n=== {nodeid}: still running after {STUCK_AFTER:.0f} s; its asyncio tasks:\n")
    for task in asyncio.all_tasks(loop):
        out.write(f"--- {task.get_name()}\n{where_it_waits(task)}\n")
    sys.stderr.write(out.getvalue())
    sys.stderr.flush()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    done = threading.Event()

    def watch() -> None:
        if done.wait(STUCK_AFTER):
            return
        # The threads first, from this thread: an event loop blocked in a call never runs what it is handed.
        names = {thread.ident: thread.name for thread in threading.enumerate()}
        out = io.StringIO()
        out.write(f"\n=== {item.nodeid}: still running after {STUCK_AFTER:.0f} s; its threads:\n")
        for ident, frame in sys._current_frames().items():
            stack = [f for f in traceback.extract_stack(frame) if not any(p in f.filename for p in _PLUMBING)]
            out.write(f"--- thread {names.get(ident, ident)}\n{''.join(traceback.format_list(stack[-12:]))}")
        sys.stderr.write(out.getvalue())
        sys.stderr.flush()
        running = [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop) and o.is_running()]
        for loop in running:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_print_tasks, loop, item.nodeid)

    threading.Thread(target=watch, name="stuck-test-watch", daemon=True).start()
    try:
        yield
    finally:
        done.set()
