"""Drawing functions for the painter's tests, run in its worker process (named ``module:function``)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from bot.pictures.cards import Picture, RatingChart


async def appears(path: Path, timeout: float = 60.0) -> None:
    """(In the test) wait until another process creates ``path`` (``mark``: whole, with its text)."""
    try:
        async with asyncio.timeout(timeout):
            while not path.exists():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"{path} did not appear within {timeout:.0f} s") from None


def mark(path: Path, text: str) -> None:
    """(In the worker) create ``path`` with ``text`` at once: written aside, then renamed, so the test never reads
    it empty (``write_text`` creates the file before it writes: a test once read the worker's pid as '')."""
    aside = path.with_name(path.name + ".part")
    aside.write_text(text)
    os.replace(aside, path)


def pid(picture: Picture) -> bytes:
    """The worker's process id; for a chart whose title names a file, only once that file exists."""
    if isinstance(picture, RatingChart) and picture.title.startswith("/"):
        mark(Path(picture.title + ".started"), str(os.getpid()))
        while not Path(picture.title).exists():
            time.sleep(0.01)
    return str(os.getpid()).encode()


def fail(picture: Picture) -> bytes:
    raise RuntimeError("no drawing today")


def die(picture: Picture) -> bytes:
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("killed")


def held(picture: Picture) -> bytes:
    """The real drawing, once the file that ``PAINTER_HOLD`` names exists (``<it>.started`` says it waits)."""
    from bot.pictures.draw import draw

    flag = os.environ.get("PAINTER_HOLD")
    if flag:
        mark(Path(flag + ".started"), str(os.getpid()))
        while not Path(flag).exists():
            time.sleep(0.01)
    return draw(picture)
