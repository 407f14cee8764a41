"""Draws pictures in a worker process: the event loop never waits on matplotlib.

One worker process (started at the first picture, with ``spawn``: it imports
matplotlib and the drawing code, never the bot; the bot's main module must
import without side effects, as ``python -m bot``'s does) draws one picture at
a time, and exits when the bot is gone, however it ended.
A picture that fails to draw, a worker that dies on it twice, or one that
takes longer than ``timeout`` gives ``None``: the caller sends its text alone.
A worker found dead is replaced and the picture drawn by the new one; one
that timed out is replaced at the next picture. The last few
pictures are kept by key, so the group's card and both players' copies of it
are drawn once.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import importlib
import logging
import multiprocessing
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.metrics import Metrics
from bot.pictures.cards import Picture

log = logging.getLogger(__name__)

DRAW = "bot.pictures.draw:draw"
"""The drawing function, as ``module:function`` (imported in the worker only)."""
TIMEOUT = 20.0
"""Seconds a picture may take, the worker's start (a second or two the first time) included."""
KEPT = 16
"""How many drawn pictures are kept by key."""


CAPTION_LIMIT = 1024
"""Characters of a picture's caption Telegram takes (counted without the HTML tags)."""


def caption_fits(caption: str) -> bool:
    """Whether Telegram takes ``caption`` (HTML) under a picture."""
    return len(html.unescape(re.sub(r"<[^>]*>", "", caption))) <= CAPTION_LIMIT


PARENT_CHECK = 0.5
"""Seconds between the worker's looks at whether the bot that started it still runs."""


def watch_parent(parent: int) -> None:
    """Run in the worker as it starts: exit once the bot that started it is gone (a bot killed with SIGKILL
    closes nothing, and a worker waiting for its next picture would wait for ever)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def one_worker() -> ProcessPoolExecutor:
    """A pool of one spawned worker process that exits with the bot that started it (the painter's, the
    reviewer's)."""
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=watch_parent,
        initargs=(os.getpid(),),
    )


def draw_in_worker(draw: str, picture: Picture) -> bytes:
    """Run in the worker: the drawing function named ``module:function`` on ``picture``."""
    module, _, name = draw.partition(":")
    function = getattr(importlib.import_module(module), name)
    png = function(picture)
    if not isinstance(png, bytes):
        raise TypeError(f"{draw} returned {type(png).__name__}, not bytes")
    return png


async def ended_within(work: asyncio.Future[Any], sleep: Callable[[float], Awaitable[None]], seconds: float) -> bool:
    """Whether ``work`` ended before ``sleep(seconds)`` did (a worker's timeout, on the caller's clock); ``work``
    goes on either way."""
    timer = asyncio.ensure_future(sleep(seconds))
    try:
        await asyncio.wait((work, timer), return_when=asyncio.FIRST_COMPLETED)
    finally:
        timer.cancel()
    return work.done()


def exit_codes(pool: ProcessPoolExecutor) -> str:
    """How a pool's worker ended, for the log (a negative code is the signal that killed it)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    return ", ".join(f"pid {p.pid} exit code {p.exitcode}" for p in processes) or "exit code unknown"


class Painter:
    def __init__(
        self,
        *,
        draw: str = DRAW,
        timeout: float = TIMEOUT,
        kept: int = KEPT,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        metrics: Metrics | None = None,
    ) -> None:
        self.draw = draw
        self.metrics = metrics or Metrics()
        """Where drawing times and failures are counted."""
        self.timeout = timeout
        self.sleep = sleep
        """How the timeout is waited (the bot's clock: a test moves it)."""
        self.kept = kept
        self._pool: ProcessPoolExecutor | None = None
        self._done: OrderedDict[str, bytes] = OrderedDict()
        self._drawing: dict[str, asyncio.Future[bytes | None]] = {}
        self._stopping: set[asyncio.Future[None]] = set()
        """Pools being shut down (``_replace``)."""
        self.failures = 0
        """Pictures that could not be drawn since the start (a test and the logs look at it)."""

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = one_worker()
        return self._pool

    async def png(self, picture: Picture, key: str | None = None) -> bytes | None:
        """The picture as PNG, or None when it could not be drawn in time. ``key``: the same picture asked for
        again (or meanwhile) under it is drawn once."""
        if key is None:
            return await self._draw(picture)
        if (kept := self._done.get(key)) is not None:
            self._done.move_to_end(key)
            return kept
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = self._drawing[key] = asyncio.ensure_future(self._draw(picture))
            drawing.add_done_callback(lambda done: self._drawn(key, done))
        return await asyncio.shield(drawing)

    def _drawn(self, key: str, drawing: asyncio.Future[bytes | None]) -> None:
        """Keep a picture drawn under ``key`` (the last ``kept`` of them)."""
        del self._drawing[key]
        png = None if drawing.cancelled() else drawing.result()
        if png is not None:
            self._done[key] = png
            while len(self._done) > self.kept:
                self._done.popitem(last=False)

    async def _draw(self, picture: Picture) -> bytes | None:
        what = type(picture).__name__
        for attempt in (1, 2):
            pool = self._executor()
            started = time.perf_counter()
            drawing = self._submit(pool, picture)
            if not await ended_within(drawing, self.sleep, self.timeout):
                drawing.cancel()
                log.warning("drawing a %s took over %s s: sent as text; the worker is replaced", what, self.timeout)
                self._replace(pool)
                reason = "timeout"
                break
            try:
                png = drawing.result()
            except BrokenProcessPool:
                # A worker that died while idle (killed by someone, out of memory) is found dead only by the next
                # picture: a new worker draws it. One that dies on the picture again: the text goes alone.
                log.warning("the drawing worker died (%s): the %s %s", exit_codes(pool), what,
                            "is drawn by a new one" if attempt == 1 else "is sent as text")  # fmt: skip
                self._replace(pool)
                reason = "died"
                continue
            except Exception:
                log.exception("drawing a %s failed: sent as text", what)
                reason = "error"
                break
            self.metrics.picture_seconds.labels(what).observe(time.perf_counter() - started)
            return png
        self.failures += 1
        self.metrics.picture_failures.labels(what, reason).inc()
        return None

    def _submit(self, pool: ProcessPoolExecutor, picture: Picture) -> asyncio.Future[bytes]:
        """The picture's drawing in the pool's worker (failed at once with BrokenProcessPool when the pool knows
        its worker died already)."""
        loop = asyncio.get_running_loop()
        try:
            return loop.run_in_executor(pool, draw_in_worker, self.draw, picture)
        except BrokenProcessPool as exc:
            failed: asyncio.Future[bytes] = loop.create_future()
            failed.set_exception(exc)
            return failed

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        """Stop a worker that hangs or died; the next picture starts a new one."""
        if self._pool is pool:
            self._pool = None
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            with contextlib.suppress(Exception):
                process.kill()
        # The pool's own thread winds down in a thread of ours, waited for by ``close``: left to the
        # interpreter's exit, it races the exit's wake-up of that thread (Python 3.11 then prints an OSError).
        stopping = asyncio.ensure_future(asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True))
        self._stopping.add(stopping)
        stopping.add_done_callback(self._stopping.discard)

    def workers(self) -> list[int]:
        """The worker's process id, if one runs (tests)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None and p.is_alive()]

    async def close(self) -> None:
        """Stop the worker (a picture being drawn is dropped)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            self._replace(pool)
        await asyncio.gather(*self._stopping, return_exceptions=True)
