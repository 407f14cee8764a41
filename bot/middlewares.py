"""Middlewares: de-duplication, one log line per update and polite storage errors (``UpdateMiddleware``, on
every update); the language of a message or a press, and refusals a handler lets through
(``LanguageMiddleware``, around each handler); a member's commands over the flood limit
(``CommandFloodMiddleware``); a press whose button its message does not carry (``ButtonMiddleware``)."""

from __future__ import annotations

import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.exceptions import TelegramBadRequest, TelegramNetworkError, TelegramRetryAfter
from aiogram.types import CallbackQuery, Chat, InaccessibleMessage, Message, TelegramObject, Update, User
from redis.exceptions import RedisError

from bot.i18n import I18n, Translator
from bot.limits import CommandFlood, Flood
from bot.metrics import UPDATE_RESULTS, Metrics, label_of
from bot.models import pick_lang
from bot.routers.common import GROUP_TYPES, rejection_text
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.storage.base import StorageUnavailable
from bot.storage.updates import UpdateMarks
from bot.texts import user_text

log = logging.getLogger("bot.updates")
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
"""What a middleware calls on (aiogram's next handler)."""


def note_result(data: dict[str, Any], result: str) -> None:
    """Write an update's result into its log line (and its counted label), when it has one."""
    log_ctx = data.get("log_ctx")
    if log_ctx is not None:
        log_ctx["result"] = result


class Handled:
    """The bot's own notion of an update being done: told of each update this process has finished with (its
    handler returned or failed, and whatever it writes after its last Telegram call is written), it tells those
    who listen. The end-to-end tests listen, so that a step that sends an update returns only once the bot is
    done with it (``FakeTelegram.done``); nothing listens in production."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[int], None]] = []

    def listen(self, listener: Callable[[int], None]) -> None:
        """Call ``listener(update_id)`` for every update handled from now on."""
        self._listeners.append(listener)

    def done(self, update_id: int) -> None:
        for listener in self._listeners:
            listener(update_id)


class UpdateMiddleware(BaseMiddleware):
    """Skips an update delivered twice, logs and counts each one, and answers when Redis is down."""

    def __init__(
        self, updates: UpdateMarks, i18n: I18n, metrics: Metrics | None = None, handled: Handled | None = None
    ) -> None:
        self.updates = updates
        self.i18n = i18n
        self.metrics = metrics or Metrics()
        self.handled = handled or Handled()
        # Who handles an update, unique in every process: made here, not at import (a process forked from one
        # that imported the bot would share a module's token with its siblings, and take their marks for its own).
        self._process = secrets.token_hex(8)
        self._handlings = itertools.count()

    async def __call__(
        self,
        handler: Handler,
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        assert isinstance(event, Update)
        started = time.perf_counter()
        context: dict[str, Any] = {}
        data["log_ctx"] = context
        kind = event.event_type
        attempt = f"{self._process}.{next(self._handlings)}"  # unique to this handling, in every process
        marked = False
        try:
            if not await self.updates.first(event.update_id, attempt):
                context["result"] = "duplicate"
                return None
            marked = True
            return await handler(event, data)
        except (TelegramRetryAfter, TelegramNetworkError) as exc:
            # Telegram is pushing back (a callback answer in a flood, say): what the handler changed is in
            # Redis and its messages are delivered once Telegram takes them; an apology would fail the same way.
            context["result"] = "telegram_busy"
            log.warning("update=%s: Telegram did not take a call (%s)", event.update_id, exc)
            return None
        except TelegramBadRequest as exc:
            # Telegram refused a call of the handler (a callback already answered, say: the same press in
            # several updates); nothing to apologise for, and no traceback.
            context["result"] = "telegram_refused"
            log.warning("update=%s: Telegram refused a call (%s)", event.update_id, exc.message)
            return None
        except StorageUnavailable as exc:
            context["result"] = "storage_unavailable"
            log.warning("update=%s: storage unavailable (%s)", event.update_id, exc)
            await self._forget(event.update_id, attempt, marked)
            await self._apologise(event, "toast-storage", "error-storage")
            return None
        except Exception:
            # Every callback is answered, even when a handler fails.
            context["result"] = "error"
            log.exception("update=%s failed", event.update_id)
            await self._forget(event.update_id, attempt, marked)
            await self._apologise(event, "toast-error", "error-internal")
            return None
        finally:
            self._handled(event, kind, context, time.perf_counter() - started, data)
            self.handled.done(event.update_id)

    def _handled(self, event: Update, kind: str, context: dict[str, Any], seconds: float, data: dict[str, Any]) -> None:
        """The update's log line and its count. The line's fields go with the record too (``fields``): the JSON
        log (``LOG_FORMAT=json``) writes them, with the chat's and the user's ids."""
        match, action, result = context.get("match", "-"), context.get("action", "-"), context.get("result", "ok")
        self.metrics.updates.labels(kind, label_of(str(result), UPDATE_RESULTS)).inc()
        self.metrics.handler_seconds.labels(kind).observe(seconds)
        chat: Chat | None = data.get("event_chat")
        user: User | None = data.get("event_from_user")
        fields = {
            "update": event.update_id, "kind": kind, "match": match, "action": action, "result": result,
            "ms": round(seconds * 1000, 1), "chat": chat.id if chat else None, "user": user.id if user else None,
        }  # fmt: skip
        log.info(
            "update=%s kind=%s match=%s action=%s result=%s ms=%.1f",
            event.update_id, kind, match, action, result, seconds * 1000, extra={"fields": fields},
        )  # fmt: skip

    async def _forget(self, update_id: int, attempt: str, marked: bool) -> None:
        """Let a new delivery of an update whose handling failed be handled again (best effort)."""
        if marked:
            with contextlib.suppress(StorageUnavailable, RedisError):
                await self.updates.forget(update_id, attempt)

    async def _apologise(self, event: Update, toast: str, text: str) -> None:
        """Tell the user, in their language, that their press or command failed (``toast`` / ``text``)."""
        try:
            if event.callback_query is not None:
                tr = self.i18n[pick_lang(event.callback_query.from_user.language_code)]
                await event.callback_query.answer(tr(toast), show_alert=True)
            elif event.message is not None and event.message.from_user is not None:
                tr = self.i18n[pick_lang(event.message.from_user.language_code)]
                await event.message.answer(tr(text))
        except Exception as exc:  # the failure was logged already; this is one line about the apology
            log.warning("update=%s: could not tell the user (%s: %s)", event.update_id, type(exc).__name__, exc)


class LanguageMiddleware(BaseMiddleware):
    """Puts the languages of a message or a press into handler data, for the handlers that take them: ``tr``,
    the chat's (a group's own, else the language of whoever wrote; in private the user's) and ``user_tr``, the
    user's own (for what only they read: a toast). A refusal a handler lets through (``Rejected``: the match or
    the challenge is gone, say) is answered here, in the user's language for a press, the chat's for a message.
    Nothing is looked up for a handler that takes neither (the press on a tile: its match says its language)."""

    def __init__(self, chats: Chats, i18n: I18n) -> None:
        self.chats = chats
        self.i18n = i18n

    async def __call__(
        self,
        handler: Handler,
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        wanted = data["handler"].params
        user: User | None = data.get("event_from_user")
        chat: Chat | None = data.get("event_chat")
        if "tr" in wanted:
            data["tr"] = await self.chat_tr(chat, user)
        if "user_tr" in wanted:
            data["user_tr"] = await self.user_tr(user)
        try:
            return await handler(event, data)
        except Rejected as exc:
            note_result(data, exc.reason.value)
            if isinstance(event, CallbackQuery):
                await event.answer(rejection_text(await self.user_tr(user), exc))
            elif isinstance(event, Message):
                await event.reply(rejection_text(await self.chat_tr(chat, user), exc))
            return None

    async def chat_tr(self, chat: Chat | None, user: User | None) -> Translator:
        """The chat's language: a group's setting, else the writer's Telegram language; in private the user's."""
        if chat is not None and chat.type in GROUP_TYPES:
            return self.i18n[await self.chats.chat_lang(chat.id, user.language_code if user else None)]
        return await self.user_tr(user)

    async def user_tr(self, user: User | None) -> Translator:
        """The user's language: their choice (/lang in private), else their Telegram language, else Russian."""
        if user is None:
            return self.i18n[pick_lang(None)]
        return self.i18n[await self.chats.user_lang(user.id, user.language_code)]


class CommandFloodMiddleware(BaseMiddleware):
    """In a group, a member's commands over the limit (``CommandFlood``) are not handled: no answer, and for the
    first of them one short notice in the chat's language. Around the message handlers, outside the languages
    (a command left unanswered looks nothing up)."""

    def __init__(self, flood: CommandFlood, languages: LanguageMiddleware) -> None:
        self.flood = flood
        self.languages = languages

    async def __call__(
        self,
        handler: Handler,
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if (
            not isinstance(event, Message)
            or event.chat.type not in GROUP_TYPES
            or event.from_user is None
            # A command in a picture's caption is handled like one in text (aiogram's Command reads both).
            or not (event.text or event.caption or "").startswith("/")
        ):
            return await handler(event, data)
        user = event.from_user
        verdict = await self.flood.take(event.chat.id, user.id)
        if verdict is Flood.ANSWER:
            return await handler(event, data)
        note_result(data, "flood")
        if verdict is Flood.NOTICE:
            tr = await self.languages.chat_tr(event.chat, user)
            await event.reply(tr("flood-notice", name=user_text(user.full_name)))
        return None


PANEL = ("a:", "h:")
"""Game buttons (a move, a hint): each carries its match's version, which the move service checks; a press on a
panel the bot has just replaced gets its own answer there (the new panel is sent). They come only from a panel of
their match: a message that carries a move or a hint of that match, or in private its rematch (a panel brought
to the match's end shows only its 🔁; a result in a group is no panel)."""
NEED_THEIR_MESSAGE = ("rp:",)
"""Buttons that edit the message they are on (a replay's steps): refused unless that message is a replay of the
same match, which cannot be told of a message Telegram no longer shows the bot (older than 48 hours)."""


def kind_of(data: str) -> str:
    """What a button acts on: its prefix and the object it names (``w:<challenge>``, ``rp:<match>``, ``cfg:game``)."""
    return ":".join(data.split(":", 2)[:2])


def carried(query: CallbackQuery) -> bool:
    """Whether a press may act on the message it came from: that message carries a button of the same kind on the
    same object (the data itself may be an older one of that message's: a replay's step pressed twice, a settings
    menu from before a change). A modified client can send any data on any message of the bot's: a replay's
    button on a table, another group's challenge on a message here. A message with no buttons left (a challenge
    that ended, a question answered) goes to its handler, which says why; so does a message Telegram no longer
    gives: the services check who may act, from the object's own chat."""
    data = query.data or ""
    message = query.message
    if message is None or isinstance(message, InaccessibleMessage):
        return not data.startswith(NEED_THEIR_MESSAGE)
    rows = message.reply_markup.inline_keyboard if message.reply_markup is not None else []
    kinds = {kind_of(button.callback_data) for row in rows for button in row if button.callback_data}
    if not kinds:
        return not data.startswith(NEED_THEIR_MESSAGE)
    if data.startswith(PANEL):
        match = kind_of(data).split(":", 1)[-1]
        last_panel = message.chat.type == "private" and f"rm:{match}" in kinds
        return last_panel or bool(kinds & {f"a:{match}", f"h:{match}"})
    return kind_of(data) in kinds


class ButtonMiddleware(BaseMiddleware):
    """A press acts only on a message of its own kind (``carried``); any other gets the "this button does not
    work" toast in the user's language and changes nothing."""

    def __init__(self, languages: LanguageMiddleware) -> None:
        self.languages = languages

    async def __call__(
        self,
        handler: Handler,
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, CallbackQuery) or carried(event):
            return await handler(event, data)
        note_result(data, "not_on_message")
        await event.answer((await self.languages.user_tr(event.from_user))("toast-bad-button"))
        return None
