"""Calling something again, with a growing wait, while it fails in a way that may pass by itself."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from aiogram.exceptions import TelegramRetryAfter

from bot.clock import BACKOFF_FIRST, next_backoff

log = logging.getLogger("bot.app")

T = TypeVar("T")


async def with_backoff(
    attempt: Callable[[], Awaitable[T]],
    retry_on: tuple[type[BaseException], ...],
    complaint: Callable[[BaseException, float], str],
) -> T:
    """``attempt()``'s result, calling it again after 1, 2, 4... (at most 30) seconds while it fails as listed
    (after the wait Telegram asks for, on a 429)."""
    delay = BACKOFF_FIRST
    while True:
        wait = delay
        try:
            return await attempt()
        except retry_on as error:
            if isinstance(error, TelegramRetryAfter):
                wait = float(error.retry_after)
            log.warning("%s", complaint(error, wait))
        await asyncio.sleep(wait)
        delay = next_backoff(delay)
