"""Keyboards: plain functions of (view, translator) to inline markup."""

from __future__ import annotations

from typing import TypeVar

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import ComputerCb, JoinCb, LangCb, SurrenderCb, WithdrawCb, move_data
from bot.i18n import Translator
from bot.lean import keyboard_json
from bot.models import LEVELS, Challenge
from bot.render import View, bingo_rules, blocked_tile, tile
from engine import Action, BingoView, FortyTwoView, Kind, Tile
from engine.actions import CLOSE, PASS, TAKE_HIDDEN, TAKE_INDICATOR
from engine.fortytwo import Phase

T = TypeVar("T")
TILES_PER_ROW = 4
BINGO_TILE = Tile(0, 0)
BIDS_PER_ROW = 7


def _rows(buttons: list[T], width: int) -> list[list[T]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


Button = dict[str, str]
"""A button as its fields (text and callback data)."""


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


def open_bot_keyboard(tr: Translator, bot_username: str, payload: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=tr("btn-open-bot"), url=f"https://t.me/{bot_username}?start={payload}")]
        ]
    )


def panel_keyboard(tr: Translator, match_id: str, version: int, view: View) -> InlineKeyboardMarkup | None:
    """The hand as buttons (a tile that may not be played now marked 🚫) and the extra actions that apply."""
    rows = panel_rows(tr, match_id, version, view)
    return None if rows is None else InlineKeyboardMarkup.model_validate({"inline_keyboard": rows})


def panel_json(tr: Translator, match_id: str, version: int, view: View) -> str | None:
    """``panel_keyboard`` as the JSON aiogram would send of it (``bot.lean``: no models on the hot path)."""
    rows = panel_rows(tr, match_id, version, view)
    return None if rows is None else keyboard_json(rows)


def panel_rows(tr: Translator, match_id: str, version: int, view: View) -> list[list[Button]] | None:
    """The rows of ``panel_keyboard``, each button as its text and callback data."""
    if view.end is not None and max(view.score) >= view.target:
        return None

    def button(text: str, action: Action) -> Button:
        return {"text": text, "callback_data": move_data(match_id, version, action.notation())}

    legal = set(view.legal)
    acting = view.turn == view.seat
    rows: list[list[Button]] = []
    extra: list[list[Button]] = []
    if isinstance(view, FortyTwoView) and acting and view.phase is Phase.BIDDING:
        bids = [a for a in view.legal if a.kind is Kind.BID]
        rows += _rows([button(str(a.value), a) for a in bids], BIDS_PER_ROW)
        rows.append([button(tr("btn-pass"), PASS)])
        return rows
    if isinstance(view, FortyTwoView) and acting and view.phase is Phase.TRUMPS:
        trumps = [a for a in view.legal if a.kind is Kind.TRUMPS]
        rows += _rows([button(tr("btn-trump", suit=a.value), a) for a in trumps], 2)
        return rows
    hand_buttons = []
    for t in view.hand:
        play = Action(Kind.PLAY, t.index)
        playable = acting and play in legal
        text = tile(t) if playable or not acting else blocked_tile(t)
        hand_buttons.append(button(text, play))
    rows += _rows(hand_buttons, TILES_PER_ROW)
    if isinstance(view, BingoView) and acting:
        rules = bingo_rules(view)
        doubles = sum(1 for t in view.hand if t.is_double)
        for action in view.legal:
            if action.kind is Kind.CLAIM:
                pts, gp = rules.claim_value(doubles, BINGO_TILE in view.hand)
                value = tr("claim-value", gp=gp, n=gp or pts)
                extra.append([button(tr("btn-claim", tile=tile(action.tile), n=doubles, value=value), action)])
        if CLOSE in legal:
            extra.append([button(tr("btn-close"), CLOSE)])
        if TAKE_INDICATOR in legal and view.indicator is not None:
            extra.append(
                [
                    button(tr("btn-take-indicator", tile=tile(view.indicator)), TAKE_INDICATOR),
                    button(tr("btn-take-hidden"), TAKE_HIDDEN),
                ]
            )
    return rows + extra if rows or extra else None


def add_to_group_keyboard(tr: Translator, bot_username: str) -> InlineKeyboardMarkup:
    link = f"https://t.me/{bot_username}?startgroup=true"
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=tr("btn-add-to-group"), url=link)]])


def surrender_keyboard(tr: Translator, match_id: str, user_id: int) -> InlineKeyboardMarkup:
    def button(text: str, yes: bool) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=SurrenderCb(m=match_id, u=user_id, yes=yes).pack())

    return InlineKeyboardMarkup(
        inline_keyboard=[[button(tr("btn-surrender"), True), button(tr("btn-keep-playing"), False)]]
    )


def lang_keyboard(tr: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=tr("btn-lang-ru"), callback_data=LangCb(lang="ru").pack()),
                InlineKeyboardButton(text=tr("btn-lang-pl"), callback_data=LangCb(lang="pl").pack()),
            ]
        ]
    )
