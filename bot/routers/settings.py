"""/settings in a group: game, preset, target, turn clock and language, for admins (a game's own rows, its
presets and targets, come from its module in ``bot.games``)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot import render
from bot.callbacks import SettingsCb
from bot.games import GAMES, game_of
from bot.i18n import I18n, Translator
from bot.models import LANGS, ChatSettings
from bot.presenter import Presenter
from bot.routers.common import GROUP_TYPES, is_admin, topic_of
from bot.services.chats import Chats
from bot.services.terms import Terms
from engine import find_preset
from engine.rules import presets_of

CLOCKS = ((0, 60, 180), (600, 1800, 3600, 86400))
"""The turn clocks a group may choose, in seconds (0: none), as the menu's rows."""


def settings_text(tr: Translator, settings: ChatSettings, default_clock: int) -> str:
    """The chat's settings; ``default_clock``: the operator's turn clock, for a chat that chose none."""
    rules = find_preset(settings.preset)
    clock = settings.turn_clock(default_clock)
    return tr(
        "settings-title",
        preset=render.game_name(tr, rules.name),
        target=settings.target or rules.target,
        lang=tr(f"lang-name-{settings.lang or 'auto'}"),
        clock=render.clock_text(tr, clock),
    )


def settings_keyboard(tr: Translator, settings: ChatSettings, default_clock: int) -> InlineKeyboardMarkup:
    rules = find_preset(settings.preset)

    def button(text: str, field: str, value: str, chosen: bool) -> InlineKeyboardButton:
        mark = "✓ " if chosen else ""
        return InlineKeyboardButton(text=mark + text, callback_data=SettingsCb(f=field, v=value).pack())

    rows = [[button(tr(f"game-{g}"), "game", g, rules.game == g) for g in GAMES]]
    rows += game_of(rules).settings_rows(tr, settings, button)
    clock = settings.turn_clock(default_clock)
    rows += [[button("⏰ " + render.clock_text(tr, c), "clock", str(c), c == clock) for c in row] for row in CLOCKS]
    rows.append([button(tr(f"lang-name-{lang}"), "lang", lang, settings.lang == lang) for lang in LANGS])
    return InlineKeyboardMarkup(inline_keyboard=rows)


async def settings_command(message: Message, chats: Chats, terms: Terms, tr: Translator) -> None:
    user = message.from_user
    if user is None or message.bot is None:
        return
    if not await is_admin(message.bot, message.chat, user.id):
        await message.reply(tr("error-admin-only"))
        return
    settings = await chats.settings(message.chat.id)
    clock = terms.turn_timeout
    await message.answer(settings_text(tr, settings, clock), reply_markup=settings_keyboard(tr, settings, clock))


async def change(
    query: CallbackQuery,
    callback_data: SettingsCb,
    chats: Chats,
    terms: Terms,
    presenter: Presenter,
    i18n: I18n,
    tr: Translator,
) -> None:
    """An admin's press changes one setting and the group is told; anyone else gets a toast."""
    message = query.message
    if message is None or query.bot is None or message.chat.type not in GROUP_TYPES:
        await query.answer()
        return
    chat_id = message.chat.id
    if not await is_admin(query.bot, message.chat, query.from_user.id):
        await query.answer(tr("toast-admin-only"))
        return
    changes = _changes(callback_data, await chats.settings(chat_id))
    if changes is None:
        await query.answer(tr("toast-bad-button"))
        return
    settings = await chats.update_settings(chat_id, **changes)
    if settings.lang is not None:
        tr = i18n[settings.lang]  # the group's language, as it is now
    await query.answer(tr("toast-done"))
    clock = terms.turn_timeout
    text = settings_text(tr, settings, clock)
    presenter.edit(chat_id, message.message_id, text, settings_keyboard(tr, settings, clock))
    who = render.user_text(query.from_user.full_name)
    await presenter.send(chat_id, tr("settings-changed", name=who) + "\n" + text, thread=topic_of(message))


def _changes(data: SettingsCb, settings: ChatSettings) -> dict[str, object] | None:
    """The settings a button changes, or None for a forged one or one from an outdated menu."""
    if data.f == "game" and data.v in GAMES:
        return {"preset": presets_of(data.v)[0], "target": None}
    own = game_of(find_preset(settings.preset)).settings_change(data.f, data.v)
    if own is not None:
        return own
    if data.f == "lang" and data.v in LANGS:
        return {"lang": data.v}
    if data.f == "clock" and data.v.isdigit() and any(int(data.v) in row for row in CLOCKS):
        return {"turn_timeout": int(data.v)}
    return None


def build() -> Router:
    """A new router with this module's handlers (a router can have one parent only)."""
    router = Router(name="settings")
    router.message.register(settings_command, Command("settings"), F.chat.type.in_(GROUP_TYPES))
    router.callback_query.register(change, SettingsCb.filter())
    return router
