"""Keep aiogram's response models alive.

aiogram checks every reply of the Bot API against ``Response[<the method's
result type>]``. pydantic caches such a generic model only while something
holds it (a weak cache), so each call built the class anew: a fifth of the
bot's CPU under load went to building the same few classes again. Building
each one once at start and holding it (about 50 ms) makes every later call
find it in the cache.
"""

from __future__ import annotations

import inspect

from aiogram import methods
from aiogram.methods import Response, TelegramMethod

from bot.lean import EditMessageTextLean, SendMessageLean

_KEPT: list[type] = []


def keep_response_models() -> None:
    """Build and hold ``Response[T]`` for the result type of every Bot API method (once per process)."""
    if _KEPT:
        return
    for name in dir(methods):
        method = getattr(methods, name)
        if inspect.isclass(method) and issubclass(method, TelegramMethod) and method is not TelegramMethod:
            returning = getattr(method, "__returning__", None)
            if returning is not None:
                _KEPT.append(Response[returning])  # type: ignore[valid-type]
    for lean in (SendMessageLean, EditMessageTextLean):
        _KEPT.append(Response[lean.__returning__])  # type: ignore[name-defined]
