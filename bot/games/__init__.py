"""The games as the bot shows them, one module each, found by the rules' ``game`` as in ``engine.games``.

A game's module (``bot/games/bingo.py``, ``bot/games/fortytwo.py``) owns its
own lines of the table and the panels, its prompts, its buttons, the moments
of its deals, the arguments of its refusals and results and its rows of the
settings menu (:class:`GameModule`). Everything else asks :func:`game_of`; no
other module of the bot tests a view's class or compares a game's name.
"""

from __future__ import annotations

from typing import Any

from bot.codec import StoredDeal
from bot.games import bingo, fortytwo
from bot.games.base import Button, GameModule, MoveButton, SettingButton, rows_of, tricks_line
from bot.models import DealLine, MomentRecord
from engine import Deal
from engine.games import HasGame
from engine.rules import PRESETS as ENGINE_PRESETS
from engine.rules import RuleSet

__all__ = [
    "GAMES",
    "PRESETS",
    "Button",
    "GameModule",
    "MoveButton",
    "SettingButton",
    "deal_line",
    "game_of",
    "rows_of",
    "tricks_line",
]

GAMES: dict[str, GameModule[Any, Any]] = {
    game.name: game
    for game in (
        bingo.GAME,
        fortytwo.GAME,
    )
}
"""Every game's module, by its rules' ``game``, in the order menus list them."""

PRESETS: dict[str, RuleSet] = {name: rules for name, rules in ENGINE_PRESETS.items() if rules.game in GAMES}
"""The presets the bot offers: the engine's, of the games it has a module for (the engine's 42 for four,
``42x4``, is not offered in a chat yet: its bot module, a table for four, is still to come)."""


def game_of(thing: str | HasGame) -> GameModule[Any, Any]:
    """The module of the game called ``thing``, or of the game of a rule set, a view or a deal."""
    name = thing if isinstance(thing, str) else thing.game
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"no bot module for game {name!r}; known: {', '.join(GAMES)}") from None


def deal_line(deal: Deal) -> DealLine:
    """The match log's line of a finished deal: each seat's game points in it, its moments and its last trick."""
    view = deal.view(None)
    game = game_of(view)
    won = [0, 0]
    moments: list[MomentRecord] = []
    for award in view.awards:
        won[award.seat] += award.game_points
        moment = game.moment(view, award)
        if moment is not None:
            moments.append(moment)
    last = view.last_trick
    return DealLine(
        n=view.deal,
        g=(won[0], won[1]),
        m=tuple(moments),
        last=None if last is None else (last.lead.notation(), last.reply.notation()),
        d=StoredDeal.of_deal(deal),
    )
