"""Drawing functions for the painter's tests, run in its worker process (named ``module:function``)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from bot.pictures.cards import Picture, RatingChart


async def appears(path: Path, timeout: float = 60.0) -> None:
    """(In the test) wait until another process creates ``path``."""
    async with asyncio.timeout(timeout):
        while not path.exists():
            await asyncio.sleep(0.01)


def pid(picture: Picture) -> bytes:
    """The worker's process id; for a chart whose title names a file, only once that file exists."""
    if isinstance(picture, RatingChart) and picture.title.startswith("/"):
        Path(picture.title + ".started").write_text(str(os.getpid()))
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
        Path(flag + ".started").write_text(str(os.getpid()))
        while not Path(flag).exists():
            time.sleep(0.01)
    return draw(picture)
