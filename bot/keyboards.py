"""Keyboards: plain functions of (view, translator) to inline markup; a game's own buttons come from its
module (``bot.games``)."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import (
    ComputerCb,
    GreetingLangCb,
    HintCb,
    JoinCb,
    LangCb,
    RematchCb,
    SurrenderCb,
    WithdrawCb,
    move_data,
)
from bot.games import Button, game_of, rows_of
from bot.i18n import Translator
from bot.lean import keyboard_json
from bot.models import LEVELS, Challenge
from bot.texts import blocked_tile, tile
from engine import Action, Kind
from engine.games import View

TILES_PER_ROW = 4


def challenge_keyboard(tr: Translator, challenge: Challenge) -> InlineKeyboardMarkup:
    """One button to accept (a user who never started the bot is sent there by the answer to the press); a row
    for the creator to play the computer instead, at one of its levels."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=tr("btn-join"), callback_data=JoinCb(c=challenge.id).pack()),
                InlineKeyboardButton(text=tr("btn-withdraw"), callback_data=WithdrawCb(c=challenge.id).pack()),
            ],
            [
                InlineKeyboardButton(
                    text=tr(f"btn-computer-{level}"), callback_data=ComputerCb(c=challenge.id, l=level).pack()
                )
                for level in LEVELS
            ],
        ]
    )


def inline_challenge_keyboard(tr: Translator, challenge: Challenge) -> InlineKeyboardMarkup:
    """An inline challenge's buttons: accept, and withdraw (its creator's); no computer (the message is in
    somebody else's chat)."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=tr("btn-join"), callback_data=JoinCb(c=challenge.id).pack()),
                InlineKeyboardButton(text=tr("btn-withdraw"), callback_data=WithdrawCb(c=challenge.id).pack()),
            ]
        ]
    )


def open_bot_keyboard(tr: Translator, bot_username: str, payload: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=tr("btn-open-bot"), url=f"https://t.me/{bot_username}?start={payload}")]
        ]
    )


def panel_keyboard(
    tr: Translator, match_id: str, version: int, view: View, *, hint: bool = False
) -> InlineKeyboardMarkup | None:
    """The hand as buttons (a tile that may not be played now marked 🚫) and the game's own actions that apply;
    ``hint``: a match against the computer, whose panel has the 💡 on the player's turn."""
    rows = panel_rows(tr, match_id, version, view, hint=hint)
    return None if rows is None else InlineKeyboardMarkup.model_validate({"inline_keyboard": rows})


def panel_json(
    tr: Translator, match_id: str, version: int, view: View, *, hint: bool = False, app: str | None = None
) -> str | None:
    """``panel_keyboard`` as the JSON aiogram would send of it (``bot.lean``: no models on the hot path); ``app``:
    the Mini App's URL for the match, a ``web_app`` button under the rest (private chats only)."""
    rows = panel_rows(tr, match_id, version, view, hint=hint)
    if rows is None:
        return None
    if app is None:
        return keyboard_json(rows)
    return keyboard_json([*rows, [{"text": tr("btn-webapp"), "web_app": {"url": app}}]])


def table_keyboard(tr: Translator, direct: str | None) -> InlineKeyboardMarkup | None:
    """The group's table's button to the Mini App (``direct``: its direct link; None: no button)."""
    if direct is None:
        return None
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=tr("btn-webapp"), url=direct)]])


def panel_rows(
    tr: Translator, match_id: str, version: int, view: View, *, hint: bool = False
) -> list[list[Button]] | None:
    """The rows of ``panel_keyboard``, each button as its text and callback data."""
    if view.end is not None and max(view.score) >= view.target:
        return None
    hints: list[list[Button]] = []
    if hint and view.turn == view.seat and len(view.legal) > 1:
        hints = [[{"text": tr("btn-hint"), "callback_data": HintCb(m=match_id, v=version).pack()}]]

    def button(text: str, action: Action) -> Button:
        return {"text": text, "callback_data": move_data(match_id, version, action.notation())}

    game = game_of(view)
    if game.replaces_hand(view):
        return game.own_rows(tr, view, button) + hints
    legal = set(view.legal)
    acting = view.turn == view.seat
    hand_buttons = []
    for t in view.hand:
        play = Action(Kind.PLAY, t.index)
        playable = acting and play in legal
        text = tile(t) if playable or not acting else blocked_tile(t)
        hand_buttons.append(button(text, play))
    rows = rows_of(hand_buttons, TILES_PER_ROW)
    extra = game.own_rows(tr, view, button) if acting else []
    return rows + extra + hints if rows or extra else None


def rematch_keyboard(tr: Translator, match_id: str) -> InlineKeyboardMarkup:
    """The rematch button under a finished match's result and on its players' last panels."""
    button = InlineKeyboardButton(text=tr("btn-rematch"), callback_data=RematchCb(m=match_id).pack())
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def add_to_group_keyboard(tr: Translator, bot_username: str) -> InlineKeyboardMarkup:
    link = f"https://t.me/{bot_username}?startgroup=true"
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=tr("btn-add-to-group"), url=link)]])


def surrender_keyboard(tr: Translator, match_id: str, user_id: int) -> InlineKeyboardMarkup:
    def button(text: str, yes: bool) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=SurrenderCb(m=match_id, u=user_id, yes=yes).pack())

    return InlineKeyboardMarkup(
        inline_keyboard=[[button(tr("btn-surrender"), True), button(tr("btn-keep-playing"), False)]]
    )


def lang_keyboard(tr: Translator, *, greeting: bool = False) -> InlineKeyboardMarkup:
    """The two languages; ``greeting``: under the group's greeting (which a press keeps, in the language chosen)."""
    data: type[LangCb | GreetingLangCb] = GreetingLangCb if greeting else LangCb
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=tr("btn-lang-ru"), callback_data=data(lang="ru").pack()),
                InlineKeyboardButton(text=tr("btn-lang-pl"), callback_data=data(lang="pl").pack()),
            ]
        ]
    )
