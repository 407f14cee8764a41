"""Update-level middleware: de-duplication, one log line per update, polite storage errors."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter
from aiogram.types import TelegramObject, Update

from bot.i18n import I18n, pick_lang
from bot.services.matches import MatchService, StorageUnavailable

log = logging.getLogger("bot.updates")


class UpdateMiddleware(BaseMiddleware):
    """Skips an update delivered twice, logs each one, and answers when Redis is down."""

    def __init__(self, service: MatchService, i18n: I18n) -> None:
        self.service = service
        self.i18n = i18n

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        assert isinstance(event, Update)
        started = time.perf_counter()
        context: dict[str, Any] = {}
        data["log_ctx"] = context
        kind = event.event_type
        try:
            if not await self.service.first_delivery(event.update_id):
                log.info("update=%s kind=%s duplicate, skipped", event.update_id, kind)
                return None
            return await handler(event, data)
        except (TelegramRetryAfter, TelegramNetworkError) as exc:
            # Telegram is pushing back (a callback answer in a flood, say): what the handler changed is in
            # Redis and its messages are delivered once Telegram takes them; an apology would fail the same way.
            context["result"] = "telegram_busy"
            log.warning("update=%s: Telegram did not take a call (%s)", event.update_id, exc)
            return None
        except StorageUnavailable:
            context["result"] = "storage_unavailable"
            log.exception("update=%s storage unavailable", event.update_id)
            await self._apologise(event, "toast-storage", "error-storage")
            return None
        except Exception:
            # Every callback is answered, even when a handler fails.
            context["result"] = "error"
            log.exception("update=%s failed", event.update_id)
            await self._apologise(event, "toast-error", "error-internal")
            return None
        finally:
            log.info(
                "update=%s kind=%s match=%s action=%s result=%s ms=%.1f",
                event.update_id,
                kind,
                context.get("match", "-"),
                context.get("action", "-"),
                context.get("result", "ok"),
                (time.perf_counter() - started) * 1000,
            )

    async def _apologise(self, event: Update, toast: str, text: str) -> None:
        try:
            if event.callback_query is not None:
                tr = self.i18n[pick_lang(event.callback_query.from_user.language_code)]
                await event.callback_query.answer(tr(toast), show_alert=True)
            elif event.message is not None and event.message.from_user is not None:
                tr = self.i18n[pick_lang(event.message.from_user.language_code)]
                await event.message.answer(tr(text))
        except Exception:
            log.exception("could not tell the user that storage is down")
