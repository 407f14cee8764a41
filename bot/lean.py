"""The Bot API calls of match messages, lean: the keyboard goes as the JSON the bot wrote, the answer is read for
the message's id only.

aiogram builds a model of each button of a keyboard, turns the method into a
dict and each nested model into one again before it writes the form, and
validates Telegram's answer into a whole ``Message`` (its chat, its sender,
and the keyboard echoed back, button by button). The bot sends a panel after
nearly every move and reads nothing of the answer but the message's id: on
this machine that machinery was about a third of the bot's CPU under load.
These two methods go through the same session, middlewares (the outbox's
limits) and error handling as any aiogram call; Telegram receives the same
fields with the same values as from ``bot.send_message`` /
``bot.edit_message_text`` with the bot's defaults (HTML, link previews off):
a test compares them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from aiogram import Bot
from aiogram.methods import TelegramMethod
from aiogram.types import InlineKeyboardMarkup, TelegramObject
from pydantic import ConfigDict

NO_PREVIEW = json.dumps({"is_disabled": True})
"""The bot's default ``link_preview_options``, as aiogram writes it."""


class Posted(TelegramObject):
    """What the bot reads of a message it sent or edited: its id (the rest of Telegram's answer is dropped)."""

    model_config = ConfigDict(extra="ignore")

    message_id: int


class SendMessageLean(TelegramMethod[Posted]):
    """``sendMessage`` with the bot's defaults; ``reply_markup`` is the keyboard's JSON."""

    __returning__: ClassVar[Any] = Posted
    __api_method__: ClassVar[str] = "sendMessage"

    chat_id: int
    text: str
    message_thread_id: int | None = None
    parse_mode: str = "HTML"
    link_preview_options: str = NO_PREVIEW
    reply_markup: str | None = None
    disable_notification: bool | None = None
    reply_parameters: str | None = None
    """The message it answers (``reply_to``), as JSON: ``{"message_id": ..., "allow_sending_without_reply": true}``."""


class EditMessageTextLean(TelegramMethod[Posted | bool]):
    """``editMessageText`` with the bot's defaults; ``reply_markup`` is the keyboard's JSON."""

    __returning__: ClassVar[Any] = Posted | bool
    __api_method__: ClassVar[str] = "editMessageText"

    text: str
    chat_id: int | None = None
    message_id: int | None = None
    inline_message_id: str | None = None
    """A message posted via the bot (inline mode), instead of ``chat_id`` and ``message_id``."""
    parse_mode: str = "HTML"
    link_preview_options: str = NO_PREVIEW
    reply_markup: str | None = None


Markup = InlineKeyboardMarkup | str
"""A keyboard as a model, or as its JSON (``keyboard_json``)."""


def markup_json(bot: Bot, markup: Markup | None) -> str | None:
    """A keyboard as the JSON aiogram would send of it."""
    if markup is None or isinstance(markup, str):
        return markup
    value = bot.session.prepare_value(markup, bot=bot, files={})
    assert isinstance(value, str)
    return value


def keyboard_json(rows: Sequence[Sequence[Mapping[str, object]]]) -> str:
    """An inline keyboard of plain buttons (text and callback data, or a ``web_app``) as aiogram writes one."""
    return json.dumps({"inline_keyboard": rows})
