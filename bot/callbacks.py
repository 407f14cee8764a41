"""Typed callback data; each packs to at most 64 bytes.

Every game button carries the match id and the version it was made for, so a
press on an old message is recognised as stale.
"""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery


class JoinCb(CallbackData, prefix="j"):
    """Join a challenge from the group (for a player who has started the bot)."""

    c: str


class ComputerCb(CallbackData, prefix="cpu"):
    """The challenge's creator plays the computer instead, at level ``l`` (``easy``, ``normal``, ``hard``)."""

    c: str
    l: str  # noqa: E741 (short: callback data is 64 bytes at most)


class WithdrawCb(CallbackData, prefix="w"):
    c: str


class RematchCb(CallbackData, prefix="rm"):
    """The rematch button under a finished match's result and on its players' last panels."""

    m: str


class MoveCb(CallbackData, prefix="a"):
    """A game action: match id, version, action notation (``64``, ``66*``, ``X``, ``B12``...)."""

    m: str
    v: int
    a: str


def move_data(match_id: str, version: int, notation: str) -> str:
    """``MoveCb(m=match_id, v=version, a=notation).pack()`` without building the model (a panel has a dozen
    buttons and is rendered after every move). Neither a match id nor a notation holds a colon."""
    return f"a:{match_id}:{version}:{notation}"


async def move_filter(query: CallbackQuery) -> dict[str, MoveCb] | bool:
    """The filter of game buttons: ``MoveCb.filter()`` without validating through pydantic (every press
    passes it): the parts of ``a:<match>:<version>:<action>``, or False for any other data. A coroutine
    function: aiogram runs a plain function in a thread."""
    parts = (query.data or "").split(":")
    if len(parts) != 4 or parts[0] != "a" or not parts[2].isdigit():
        return False
    return {"callback_data": MoveCb.model_construct(m=parts[1], v=int(parts[2]), a=parts[3])}


class HintCb(CallbackData, prefix="h"):
    """The 💡 of a panel in a match against the computer: match id, the panel's version."""

    m: str
    v: int


class SurrenderCb(CallbackData, prefix="s"):
    """The answer to "surrender?": only ``u``, who asked, may give it."""

    m: str
    u: int
    yes: bool


class ClaimWinCb(CallbackData, prefix="cw"):
    """Take the win from an opponent who has not moved for a day (match, the version the offer was made at)."""

    m: str
    v: int


class LangCb(CallbackData, prefix="l"):
    lang: str


class GreetingLangCb(CallbackData, prefix="lg"):
    """A language button under the group's greeting (which a press keeps, in the language chosen)."""

    lang: str


MAX_CALLBACK_BYTES = 64


class SettingsCb(CallbackData, prefix="cfg"):
    """A group setting: ``f`` is game, preset, target or lang."""

    f: str
    v: str


class ReplayCb(CallbackData, prefix="rp"):
    """A replay's button: the match, the position it was pressed at (deal and step, from 0) and where it goes
    (``bot.replays.GOES``); a match's button in the /replay list opens its replay (``g`` = ``o``)."""

    m: str
    d: int
    s: int
    g: str


class TournamentCb(CallbackData, prefix="tn"):
    """A tournament's message: ``a`` is ``j`` (join or leave the sign-up), ``s`` (start it), ``l`` (leave it
    once started)."""

    t: str
    a: str
