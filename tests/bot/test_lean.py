"""The lean calls of match messages (``bot/lean.py``) put the same fields with the same values in the form as
aiogram's own methods with the bot's defaults, and read a message's id from Telegram's answer."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods import EditMessageText, Response, SendMessage, TelegramMethod
from aiogram.types import LinkPreviewOptions, ReplyParameters

from bot import keyboards
from bot.games import PRESETS
from bot.i18n import I18n
from bot.lean import EditMessageTextLean, Posted, SendMessageLean, markup_json
from bot.outbox import reply_json
from engine import Match, legal_actions


@pytest.fixture
async def bot() -> AsyncIterator[Bot]:
    # As bot.app.create_bot makes it.
    default = DefaultBotProperties(parse_mode="HTML", link_preview=LinkPreviewOptions(is_disabled=True))
    bot = Bot("1:x", session=AiohttpSession(), default=default)
    yield bot
    await bot.session.close()


def form(bot: Bot, method: TelegramMethod[Any]) -> dict[str, Any]:
    """The fields aiogram's session writes for a method (as ``AiohttpSession.build_form_data`` does)."""
    fields = {}
    for key, value in method.model_dump(warnings=False).items():
        prepared = bot.session.prepare_value(value, bot=bot, files={})
        if prepared:
            fields[key] = prepared
    return fields


def keyboards_of_whole_deals() -> list[Any]:
    """Panel keyboards of every preset through a few deals, both seats (bids, trumps, tiles, claims, closing)."""
    tr = I18n()["pl"]
    found = []
    for preset in sorted(PRESETS):
        match = Match.new(preset, seed=4)
        for _ in range(80):
            if match.is_over:
                break
            for seat in (0, 1):
                found.append((tr, match.deal.view(seat)))
            match.play(legal_actions(match)[0], match.turn)
    return found


class TestSameForm:
    async def test_panels(self, bot: Bot) -> None:
        for tr, view in keyboards_of_whole_deals():
            markup = keyboards.panel_keyboard(tr, "m1x", 12, view)
            raw = keyboards.panel_json(tr, "m1x", 12, view)
            assert raw == markup_json(bot, markup)
            for silent in (None, True):
                lean = SendMessageLean(chat_id=5, text="<b>x</b>", reply_markup=raw, disable_notification=silent)
                full = SendMessage(chat_id=5, text="<b>x</b>", reply_markup=markup, disable_notification=silent)
                assert form(bot, lean) == form(bot, full)
            lean_edit = EditMessageTextLean(chat_id=5, message_id=7, text="y", reply_markup=raw)
            full_edit = EditMessageText(chat_id=5, message_id=7, text="y", reply_markup=markup)
            assert form(bot, lean_edit) == form(bot, full_edit)

    async def test_plain_and_reply(self, bot: Bot) -> None:
        assert form(bot, SendMessageLean(chat_id=-100, text="t")) == form(bot, SendMessage(chat_id=-100, text="t"))
        lean = SendMessageLean(chat_id=-100, text="t", reply_parameters=reply_json(3))
        full = SendMessage(
            chat_id=-100, text="t", reply_parameters=ReplyParameters(message_id=3, allow_sending_without_reply=True)
        )
        lean_form, full_form = form(bot, lean), form(bot, full)
        replied = json.loads(full_form.pop("reply_parameters"))
        replied.pop("quote_parse_mode")  # aiogram's default for a quote; there is none
        assert json.loads(lean_form.pop("reply_parameters")) == replied and lean_form == full_form

    async def test_no_legacy_fields(self, bot: Bot) -> None:
        """Link previews go by ``link_preview_options``, replies by ``reply_parameters``: the fields the Bot API
        replaced (``disable_web_page_preview``, ``reply_to_message_id``, ``allow_sending_without_reply``) are sent by
        no method, the bot's own or aiogram's with the bot's defaults."""
        legacy = {"disable_web_page_preview", "reply_to_message_id", "allow_sending_without_reply"}
        methods: list[TelegramMethod[Any]] = [
            SendMessageLean(chat_id=1, text="t", reply_parameters=reply_json(3)),
            EditMessageTextLean(chat_id=1, message_id=2, text="t"),
            SendMessage(chat_id=1, text="t"),
            EditMessageText(chat_id=1, message_id=2, text="t"),
        ]
        for method in methods:
            fields = form(bot, method)
            assert not legacy & set(fields), (type(method).__name__, fields)
            assert fields.get("link_preview_options") == '{"is_disabled": true}', fields
        assert form(bot, EditMessageTextLean(chat_id=1, message_id=2, text="t")) == form(
            bot, EditMessageText(chat_id=1, message_id=2, text="t")
        )


def test_answer_read_for_the_id() -> None:
    """A whole message in Telegram's answer (with its chat, sender and keyboard) gives its id, nothing else."""
    answer = {
        "ok": True,
        "result": {
            "message_id": 42,
            "date": 1,
            "chat": {"id": 5, "type": "private"},
            "from": {"id": 9, "is_bot": True, "first_name": "B"},
            "text": "x",
            "reply_markup": {"inline_keyboard": [[{"text": "a", "callback_data": "b"}]]},
        },
    }
    sent = Response[Posted].model_validate(answer).result
    assert isinstance(sent, Posted) and sent.message_id == 42
    assert sent.model_dump() == {"message_id": 42}
    edited = Response[Posted | bool].model_validate(answer).result
    assert isinstance(edited, Posted) and edited.message_id == 42
    assert Response[Posted | bool].model_validate({"ok": True, "result": True}).result is True
