"""Everything the bot sends goes through here, within Telegram's limits.

- A group gets at most ``group_budget`` sends plus edits in any
  ``group_window`` seconds (Telegram: about 20 a minute); edits leave a few
  of those for new messages and are paced evenly.
- A private chat gets at most one send or edit every ``private_gap`` seconds.
- Edits of one message are coalesced: while one waits for its turn, a newer
  version replaces it, and an older version never overwrites a newer one.
- A 429 is waited out (``retry_after``) and retried, however often it
  comes (the chat's queue waits with it); a network error is retried a few
  times; "message is not modified" is not an error.
- A message for a forum topic (``thread``) goes there; a topic that is
  closed or gone is the caller's to handle (``topic_gone``): the match's
  delivery falls back to the General topic and remembers it.

Match messages are brought up to date by ``bot.delivery`` with ``send`` and
``edit_now``; ``edit`` (fire and forget) is for the bot's other messages.
Everything else the bot sends (command replies through ``message.answer``)
passes ``LimitMiddleware`` on the bot's session: the same budgets, the same
queue per chat, 429s waited out. So one budget per group covers all of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar

from aiogram import Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.exceptions import TelegramBadRequest, TelegramNetworkError, TelegramRetryAfter
from aiogram.methods import AnswerCallbackQuery, EditMessageCaption, Response, SendPhoto, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup

from bot.lean import EditMessageTextLean, Markup, Posted, SendMessageLean, markup_json
from bot.limits import Budget, Limiter, LocalLimiter
from bot.models import is_inline_chat

log = logging.getLogger(__name__)

T = TypeVar("T")
NETWORK_RETRIES = 3
_COUNTED = ("Send", "Edit", "Forward", "Copy")
"""Methods whose names start so put something in a chat: they count against its budget."""
_IN_OUTBOX: ContextVar[bool] = ContextVar("in_outbox", default=False)
"""Set while the outbox itself calls Telegram (it has taken the slot already)."""
GUARD: ContextVar[Callable[[], Awaitable[None]] | None] = ContextVar("outbox_guard", default=None)
"""Awaited right before each call this task makes to Telegram through the outbox; it raises to stop the call
(a delivery lane that another process has taken over: ``Delivery``)."""
ANSWER_PATIENCE = 5.0
"""Seconds a callback answer may wait out 429s (a press's spinner stops by itself after about 15 s)."""
SHOWN_PER_CHAT = 256
"""How many messages per chat remember the version they show (older ones are long settled)."""
TOPIC_GONE = ("TOPIC_CLOSED", "TOPIC_DELETED", "message thread not found")
"""What Telegram answers (400) to a message for a forum topic that is closed or deleted."""


def reply_json(message_id: int) -> str:
    """``reply_parameters`` answering ``message_id`` (sent even when that message is gone)."""
    return json.dumps({"message_id": message_id, "allow_sending_without_reply": True})


def chat_gone(exc: TelegramBadRequest) -> bool:
    """Whether Telegram refused a call because the chat does not exist (for the bot): it is gone, as a chat that
    removed the bot is."""
    return "chat not found" in exc.message


class NotAChat(ValueError):
    """A call for an inline challenge's own chat id (``bot.models.is_inline_chat``): no Telegram chat has it, and
    nothing is ever sent there; the outbox refuses it, whoever asks."""


def telegram_chat(chat_id: int) -> int:
    """``chat_id``, if a Telegram chat may have it (else ``NotAChat``)."""
    if is_inline_chat(chat_id):
        raise NotAChat(f"chat {chat_id} is an inline challenge's own id, not a Telegram chat: nothing goes there")
    return chat_id


def topic_gone(exc: TelegramBadRequest) -> bool:
    """Whether Telegram refused a message because its forum topic is closed or gone."""
    return any(reason in exc.message for reason in TOPIC_GONE)


async def in_topic(thread: int | None, send: Callable[[int | None], Awaitable[T]]) -> tuple[T, bool]:
    """Send into the forum topic ``thread`` (``send`` takes the topic; None: the General topic), or into the
    General topic when Telegram answers that ``thread`` is closed or gone. What ``send`` returned, and whether
    it fell back to General."""
    if thread is None:
        return await send(None), False
    try:
        return await send(thread), False
    except TelegramBadRequest as exc:
        if not topic_gone(exc):
            raise
        log.info("topic %s refused a message (%s); it goes to General", thread, exc.message)
    return await send(None), True


@dataclass
class _Lane:
    """One chat's queue in this process."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    pending: dict[int, tuple[int, str, Markup | None]] = field(default_factory=dict)
    shown: dict[int, int] = field(default_factory=dict)
    """The newest version of each message sent to Telegram."""
    flusher: asyncio.Task[None] | None = None


class Outbox:
    def __init__(
        self,
        bot: Bot,
        *,
        group_budget: int = 20,
        group_window: float = 60.0,
        private_gap: float = 1.0,
        edit_reserve: int = 4,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        limiter: Limiter | None = None,
    ) -> None:
        self.bot = bot
        self.budget = Budget(group_budget, group_window, private_gap, edit_reserve)
        self.limiter: Limiter = limiter or LocalLimiter(self.budget, clock)
        """Counts each chat's budget: in this process, or (``SharedLimiter``) for every process in Redis."""
        self.sleep = sleep
        self._lanes: dict[int, _Lane] = {}
        self._versions = itertools.count(1)

    def _lane(self, chat_id: int) -> _Lane:
        lane = self._lanes.get(chat_id)
        if lane is None:
            lane = self._lanes[chat_id] = _Lane()
        return lane

    @contextlib.asynccontextmanager
    async def _slot(self, chat_id: int, *, edit: bool) -> AsyncIterator[None]:
        """Wait until this chat may get one more send or edit and count it; the call made inside is counted
        as made when it ended (see ``Limiter.done``)."""
        while (wait := await self.limiter.take(chat_id, edit=edit)) > 0:
            await self.sleep(wait)
        try:
            yield
        finally:
            await self.limiter.done(chat_id)

    async def _call(self, make: Callable[[], Awaitable[T]]) -> T | None:
        if (guard := GUARD.get()) is not None:
            await guard()
        token = _IN_OUTBOX.set(True)
        try:
            return await self._retrying(make)
        finally:
            _IN_OUTBOX.reset(token)

    async def _retrying(self, make: Callable[[], Awaitable[T]]) -> T | None:
        network_errors = 0
        while True:
            try:
                return await make()
            except TelegramRetryAfter as exc:
                log.warning("429 from Telegram, waiting %s s", exc.retry_after)
                await self.sleep(exc.retry_after)
            except TelegramNetworkError:
                network_errors += 1
                if network_errors > NETWORK_RETRIES:
                    raise
                await self.sleep(float(network_errors))
            except TelegramBadRequest as exc:
                if "message is not modified" in exc.message:
                    return None
                raise

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Markup | None = None,
        *,
        thread: int | None = None,
        reply_to: int | None = None,
        silent: bool = False,
    ) -> Posted:
        """Send a message (waiting for the chat's budget), into the forum topic ``thread`` if given; its id.
        Errors such as 403, or 400 for a topic that is closed or gone, reach the caller."""
        method = SendMessageLean(
            chat_id=telegram_chat(chat_id),
            text=text,
            message_thread_id=thread,
            reply_markup=markup_json(self.bot, markup),
            reply_parameters=None if reply_to is None else reply_json(reply_to),
            disable_notification=silent or None,
        )
        lane = self._lane(chat_id)
        async with lane.lock, self._slot(chat_id, edit=False):
            message = await self._call(lambda: self.bot(method))
        assert message is not None
        return message

    async def send_photo(
        self,
        chat_id: int,
        png: bytes,
        caption: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        thread: int | None = None,
        silent: bool = False,
    ) -> int:
        """Send a picture with its caption (HTML), counted like any message (waiting for the chat's budget), into
        the forum topic ``thread`` if given; its message id. Errors such as 403, or 400 for a picture Telegram
        refuses or a topic that is closed or gone, reach the caller."""
        method = SendPhoto(
            chat_id=telegram_chat(chat_id),
            message_thread_id=thread,
            photo=BufferedInputFile(png, filename="picture.png"),
            caption=caption,
            parse_mode="HTML",
            reply_markup=markup,
            disable_notification=silent or None,
        )
        lane = self._lane(chat_id)
        async with lane.lock, self._slot(chat_id, edit=False):
            message = await self._call(lambda: self.bot(method))
        assert message is not None
        return message.message_id

    async def edit_now(self, chat_id: int, message_id: int, text: str, markup: Markup | None, version: int) -> None:
        """Edit a message to ``version`` as soon as the chat's budget allows; errors reach the caller.

        An edit of the same message scheduled with ``edit`` for an older version is dropped.
        """
        lane = self._lane(telegram_chat(chat_id))
        async with lane.lock:
            if lane.shown.get(message_id, -1) > version:
                return
            async with self._slot(chat_id, edit=True):
                waiting = lane.pending.get(message_id)
                if waiting is not None and waiting[0] <= version:
                    del lane.pending[message_id]
                self._mark_shown(lane, message_id, version)
                await self._edit_text(chat_id, message_id, text, markup)

    async def edit_inline(
        self, key: int, inline_id: str, text: str, markup: Markup | None, version: int, *, slot: int = 0
    ) -> None:
        """Edit a message posted via the bot (inline mode) to ``version``, within the budget of ``key`` (its
        match's chat id: an inline challenge's own, below zero, so the message is counted as a group's table is);
        an older version of the same ``slot`` (a match's: its rematch shows in the same message, from version 1)
        never replaces a newer one; errors reach the caller (``MESSAGE_ID_INVALID``: it is gone)."""
        lane = self._lane(key)
        async with lane.lock:
            if lane.shown.get(slot, -1) > version:
                return
            async with self._slot(key, edit=True):
                self._mark_shown(lane, slot, version)
                method = EditMessageTextLean(
                    text=text, inline_message_id=inline_id, reply_markup=markup_json(self.bot, markup)
                )
                await self._call(lambda: self.bot(method))

    async def edit_caption(
        self, chat_id: int, message_id: int, caption: str, markup: InlineKeyboardMarkup | None
    ) -> None:
        """Replace a picture's caption (HTML) and buttons as soon as the chat's budget allows; errors reach the
        caller."""
        method = EditMessageCaption(
            chat_id=telegram_chat(chat_id),
            message_id=message_id,
            caption=caption,
            parse_mode="HTML",
            reply_markup=markup,
        )
        async with self._lane(chat_id).lock, self._slot(chat_id, edit=True):
            await self._call(lambda: self.bot(method))

    def forget(self, chat_id: int, message_id: int) -> None:
        """Forget what the message was edited to (and any edit waiting): the next edit goes through whatever its
        version (the match it shows went back: Redis lost writes)."""
        lane = self._lane(chat_id)
        lane.shown.pop(message_id, None)
        lane.pending.pop(message_id, None)

    async def _edit_text(self, chat_id: int, message_id: int, text: str, markup: Markup | None) -> None:
        method = EditMessageTextLean(
            text=text, chat_id=chat_id, message_id=message_id, reply_markup=markup_json(self.bot, markup)
        )
        await self._call(lambda: self.bot(method))

    async def strip(self, chat_id: int, message_id: int) -> None:
        """Remove a message's buttons, without waiting for the chat's budget (best effort, no retries)."""
        telegram_chat(chat_id)
        with contextlib.suppress(TelegramBadRequest):
            await self.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=None)

    def _mark_shown(self, lane: _Lane, message_id: int, version: int) -> None:
        lane.shown.pop(message_id, None)  # re-inserted last: the newest stay
        lane.shown[message_id] = version
        if len(lane.shown) > SHOWN_PER_CHAT:
            del lane.shown[next(iter(lane.shown))]

    def edit(self, chat_id: int, message_id: int, text: str, markup: Markup | None, version: int | None = None) -> None:
        """Schedule an edit; a newer one of the same message replaces it while it waits. With ``version``, one
        not newer than what this process showed of the message is dropped."""
        lane = self._lane(telegram_chat(chat_id))
        if version is None:
            version = next(self._versions)
        waiting = lane.pending.get(message_id)
        if (waiting is not None and waiting[0] > version) or lane.shown.get(message_id, -1) >= version:
            return  # an older version, or the one shown already
        lane.pending[message_id] = (version, text, markup)
        if lane.flusher is None or lane.flusher.done():
            lane.flusher = asyncio.create_task(self._flush(chat_id, lane))

    async def _flush(self, chat_id: int, lane: _Lane) -> None:
        while lane.pending:
            async with lane.lock, self._slot(chat_id, edit=True):
                message_id = next(iter(lane.pending))
                version, text, markup = lane.pending.pop(message_id)
                if lane.shown.get(message_id, -1) > version:
                    continue
                self._mark_shown(lane, message_id, version)
                try:
                    await self._edit_text(chat_id, message_id, text, markup)
                except Exception:
                    log.exception("edit of message %s in chat %s failed", message_id, chat_id)

    async def delete(self, chat_id: int, message_id: int) -> bool:
        """Delete a message (no budget: deleting is not sending); False when Telegram refused (one already gone,
        deleted by another pass a moment ago, counts as deleted)."""
        lane = self._lane(telegram_chat(chat_id))
        lane.pending.pop(message_id, None)
        try:
            await self.bot.delete_message(chat_id, message_id)
        except TelegramBadRequest as exc:
            return "message to delete not found" in exc.message
        return True

    async def limited(
        self, make_request: NextRequestMiddlewareType[TelegramType], bot: Bot, method: TelegramMethod[TelegramType]
    ) -> Response[TelegramType]:
        """A call from outside the outbox: it waits its turn in the chat's queue and budget; 429s are waited out."""
        chat_id = getattr(method, "chat_id", None)
        if isinstance(method, AnswerCallbackQuery):
            return await self._answer(make_request, bot, method)
        if _IN_OUTBOX.get() or not isinstance(chat_id, int) or not type(method).__name__.startswith(_COUNTED):
            return await make_request(bot, method)
        lane = self._lane(chat_id)
        async with lane.lock:
            while True:
                async with self._slot(chat_id, edit=type(method).__name__.startswith("Edit")):
                    try:
                        return await make_request(bot, method)
                    except TelegramRetryAfter as exc:
                        log.warning("429 from Telegram, waiting %s s", exc.retry_after)
                        retry_after = exc.retry_after
                await self.sleep(retry_after)

    async def _answer(
        self, make_request: NextRequestMiddlewareType[TelegramType], bot: Bot, method: TelegramMethod[TelegramType]
    ) -> Response[TelegramType]:
        """A callback answer: no chat budget (it puts nothing in a chat); a 429 is waited out while the press
        is fresh enough for an answer to still stop its spinner (``ANSWER_PATIENCE`` s in all)."""
        waited = 0.0
        while True:
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as exc:
                if waited + exc.retry_after > ANSWER_PATIENCE:
                    raise
                log.warning("429 from Telegram on a callback answer, waiting %s s", exc.retry_after)
                await self.sleep(exc.retry_after)
                waited += exc.retry_after

    def busy(self) -> dict[str, asyncio.Task[None]]:
        """The tasks sending scheduled edits now, each by its chat (``edits of chat``)."""
        return {
            f"edits of chat {chat_id}": lane.flusher
            for chat_id, lane in self._lanes.items()
            if lane.flusher is not None and not lane.flusher.done()
        }

    async def drain(self) -> None:
        """Wait until every scheduled edit has been sent."""
        while tasks := list(self.busy().values()):
            await asyncio.wait(tasks)  # not gather: a waiter given up on (a deadline) leaves the edits going


class LimitMiddleware(BaseRequestMiddleware):
    """Puts every call the bot makes outside the outbox under the outbox's limits (see the module's text)."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox

    async def __call__(
        self, make_request: NextRequestMiddlewareType[TelegramType], bot: Bot, method: TelegramMethod[TelegramType]
    ) -> Response[TelegramType]:
        return await self.outbox.limited(make_request, bot, method)
