"""How the bot's process sets Python's garbage collector once it has started; where a task waits."""

from __future__ import annotations

import asyncio
import gc
import linecache
from types import CoroutineType, GeneratorType
from typing import Any

GC_THRESHOLDS = (20_000, 20, 100)
"""The collector's thresholds once the bot runs (``gc.set_threshold``)."""


def tune_collector() -> None:
    """What start-up made (modules, locales, aiogram's models) lives as long as the process: out of the
    collector's sight (``gc.freeze``), so that its full collections, which pause every handler, have less to
    walk. And the collector runs less often: with Python's 700 allocations between young collections they were
    the costliest thing the bot did with a thousand matches under way (4.3 ms of CPU a press, 2.8 without)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def where_it_waits(task: asyncio.Task[Any], limit: int = 16) -> str:
    """The task's chain of awaits, outermost first, one ``file:line in function`` with its source line each, to
    the innermost coroutine it waits on (``Task.print_stack`` shows the outermost frame alone)."""
    lines: list[str] = []
    awaited: Any = task.get_coro()
    while awaited is not None and len(lines) < limit:
        if isinstance(awaited, CoroutineType):
            frame, awaited = awaited.cr_frame, awaited.cr_await
        elif isinstance(awaited, GeneratorType):
            frame, awaited = awaited.gi_frame, awaited.gi_yieldfrom
        else:  # a future, or a foreign awaitable: what the chain ends on
            lines.append(f"  awaiting {awaited!r:.160}")
            break
        if frame is None:
            break
        code = frame.f_code
        source = linecache.getline(code.co_filename, frame.f_lineno).strip()
        lines.append(f"  {code.co_filename}:{frame.f_lineno} in {code.co_name}: {source}")
    return "\n".join(lines)


async def cancel_and_wait(tasks: list[asyncio.Task[Any]], *, again_every: float = 1.0) -> None:
    """Cancel ``tasks`` and wait until every one has ended.

    A task may swallow its cancellation: on Python 3.11 a library's timeout that fires at the moment of the
    cancel turns it into ``TimeoutError``, which a loop that rides out Redis outages catches (``OSError``) and
    goes on. One cancel and a wait would then wait forever (a CI run's Cluster step hung so in a test's close);
    each task still running is cancelled again every ``again_every`` seconds."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=again_every)
    for task in tasks:
        if not task.cancelled():
            task.exception()  # retrieved: an error of a task being stopped is not "never retrieved"
