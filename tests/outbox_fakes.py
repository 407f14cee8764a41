"""A fake Bot and a clock for the outbox's tests: calls recorded at simulated times."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.methods import EditMessageText, SendMessage

from bot.lean import EditMessageTextLean, SendMessageLean


class Clock:
    """Simulated time: ``sleep`` moves it on at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)
        await real_sleep(0)


real_sleep = asyncio.sleep


@dataclass
class Sent:
    message_id: int


@dataclass
class FakeBot:
    """Records each call with the simulated time; can fail on demand."""

    clock: Clock
    calls: list[tuple[float, str, int, str]] = field(default_factory=list)
    texts: dict[int, str] = field(default_factory=dict)
    retry_after: list[int] = field(default_factory=list)
    ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    on_the_way: list[float] = field(default_factory=list)
    """Seconds each next send takes to reach Telegram (a stalled process or network)."""

    async def send_message(self, chat_id: int, text: str, **_: Any) -> Sent:
        if self.on_the_way:
            await self.clock.sleep(self.on_the_way.pop(0))
        self._maybe_429(SendMessage(chat_id=chat_id, text=text))
        message_id = next(self.ids)
        self.texts[message_id] = text
        self.calls.append((self.clock(), "send", chat_id, text))
        return Sent(message_id)

    async def edit_message_text(self, *, text: str, chat_id: int, message_id: int, **_: Any) -> None:
        method = EditMessageText(chat_id=chat_id, message_id=message_id, text=text)
        self._maybe_429(method)
        if self.texts.get(message_id) == text:
            raise TelegramBadRequest(method, "Bad Request: message is not modified")
        self.texts[message_id] = text
        self.calls.append((self.clock(), "edit", chat_id, text))

    async def __call__(self, method: Any) -> Any:
        """The outbox's lean calls (``bot/lean.py``)."""
        if isinstance(method, SendMessageLean):
            return await self.send_message(method.chat_id, method.text)
        assert isinstance(method, EditMessageTextLean)
        assert method.chat_id is not None and method.message_id is not None, "an inline message: not faked here"
        return await self.edit_message_text(text=method.text, chat_id=method.chat_id, message_id=method.message_id)

    def _maybe_429(self, method: Any) -> None:
        if self.retry_after:
            raise TelegramRetryAfter(method, "Too Many Requests", self.retry_after.pop(0))


def most_in_window(times: list[float], window: float) -> int:
    best = start = 0
    for end, at in enumerate(times):
        while at - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best
