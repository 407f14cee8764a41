"""The pieces every text is built from: a tile, a player's name, text a user typed, a game's name.

``bot.render`` and the games' own modules (``bot.games``) both build from
these, so they sit below both. Texts are HTML; player names are escaped.
"""

from __future__ import annotations

import functools
from html import escape

from bot.i18n import Translator
from bot.models import MatchRecord
from engine import Tile

NAME_LIMIT = 32
"""Characters of a user's name (or other text a user typed) that a message shows; longer ones end in "…"."""


def clip(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (the last one "…" when cut): user text never floods a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@functools.lru_cache(maxsize=4096)
def user_text(text: str, limit: int = NAME_LIMIT) -> str:
    """Text a user wrote (a name, a command's argument) made safe for an HTML message: cut, then escaped."""
    return escape(clip(text, limit))


def tile(t: Tile) -> str:
    return f"[{t.high}|{t.low}]"


def blocked_tile(t: Tile) -> str:
    """A tile the player may not play now, as its button shows it."""
    return f"🚫 {t.high}|{t.low}"


def tiles(ts: tuple[Tile, ...]) -> str:
    return " ".join(tile(t) for t in ts)


def name(record: MatchRecord, seat: int) -> str:
    return user_text(record.players[seat].name)


def game_name(tr: Translator, preset: str) -> str:
    return tr(f"preset-{preset}")
