"""The games the engine knows, found by their rules' ``game`` ("bingo", "42"): one registry line each.

:data:`GAMES` is the one registry of games: for a rule set's ``game`` it
names the deal class that plays it, its rules and view classes, the
computer's policies and how ``python -m engine play`` describes it. Whoever
holds a rule set, a view or a deal asks :func:`game_of` for its game instead
of testing its class, so adding a game touches no caller.

``Deal.deal`` and ``Deal.from_record`` find a game's deal class here too; they
import this module when first called (it imports every game's module, and
each of those imports :mod:`engine.deal`, so a module-level import there
would be a loop).

:class:`View` is what every game's view has; a game's view adds its own
fields, which only that game's code reads.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine import bingo, bingo_ai, bingo_reference, fortytwo, fortytwo_ai, texas, texas_ai
from engine.actions import Action
from engine.bingo import BingoDeal, BingoView
from engine.deal import Deal, TrickView
from engine.fortytwo import FortyTwoDeal, FortyTwoView
from engine.outcomes import Award, DealEnd
from engine.rules import BingoRules, FortyTwoRules, RuleSet, TexasRules, find_preset
from engine.texas import TexasDeal, TexasView
from engine.tiles import Tile


class View(Protocol):
    """What one seat (or the table, ``seat`` None) sees of a deal of any game."""

    @property
    def game(self) -> str: ...
    @property
    def preset(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def deal(self) -> int: ...
    @property
    def hand(self) -> tuple[Tile, ...]: ...
    @property
    def hand_sizes(self) -> tuple[int, ...]: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def leader(self) -> int | None: ...
    @property
    def lead(self) -> Tile | None: ...
    @property
    def last_trick(self) -> TrickView | None: ...
    @property
    def history(self) -> tuple[TrickView, ...]: ...
    @property
    def tricks(self) -> tuple[int, int]: ...
    @property
    def points(self) -> tuple[int | None, int | None]: ...
    @property
    def trump(self) -> int | None: ...
    @property
    def score(self) -> tuple[int, int]: ...
    @property
    def target(self) -> int: ...
    @property
    def legal(self) -> tuple[Action, ...]: ...
    @property
    def end(self) -> DealEnd | None: ...
    @property
    def awards(self) -> tuple[Award, ...]: ...
    @property
    def commitment(self) -> str | None: ...
    @property
    def secret(self) -> str | None: ...


class HasGame(Protocol):
    """A rule set, a view or a deal: anything that names its game."""

    @property
    def game(self) -> str: ...


V = TypeVar("V", bound=View)
R = TypeVar("R", bound=RuleSet)


@dataclass(frozen=True, slots=True)
class Game(Generic[V, R]):
    """One game: the deal class that plays it, its rules and view classes, how the computer plays it."""

    name: str
    """The rules' ``game``, this game's key in :data:`GAMES`."""
    deal: type[Deal]
    rules: type[R]
    view: type[V]
    normal: Callable[[V, R], Action]
    """The computer's ``normal`` level: a greedy move from the view and the rules."""
    hard: Callable[[V, R, random.Random], Action]
    """The computer's ``hard`` level: a search over the deals that agree with the view."""
    describe: Callable[[V, int], list[str]]
    """The game's own lines of a seat's view in ``python -m engine play`` (its hand and moves are shown there)."""
    evaluate: Callable[[V, R, random.Random], list[tuple[Action, float]]]
    """The hard level's chance to win the match after each candidate move (``hard`` plays the best)."""
    reference: Callable[[V, R, random.Random], Action]
    """The arena's ``reference`` level: a frozen earlier ``hard`` to measure the current one against."""
    judge: Callable[[V, R, random.Random], list[tuple[Action, float]]]
    """``evaluate`` as the post-mortem runs it (for every decision of a match): the same search, where it samples,
    with fewer samples."""

    def rules_of(self, preset: str) -> R:
        """The rule set of the preset called ``preset``; ``ValueError`` if it is another game's."""
        rules = find_preset(preset)
        if not isinstance(rules, self.rules):
            raise ValueError(f"preset {preset} is not a {self.name} preset")
        return rules


GAMES: dict[str, Game[Any, Any]] = {
    game.name: game
    for game in (
        Game(
            "bingo",
            BingoDeal,
            BingoRules,
            BingoView,
            bingo_ai.normal,
            bingo_ai.hard,
            bingo.describe,
            bingo_ai.evaluate,
            bingo_reference.hard,
            bingo_ai.judge,
        ),
        Game(
            "42",
            FortyTwoDeal,
            FortyTwoRules,
            FortyTwoView,
            fortytwo_ai.normal,
            fortytwo_ai.hard,
            fortytwo.describe,
            fortytwo_ai.evaluate,
            fortytwo_ai.hard,
            fortytwo_ai.evaluate,
        ),
        Game(
            "42x4",
            TexasDeal,
            TexasRules,
            TexasView,
            texas_ai.normal,
            texas_ai.hard,
            texas.describe,
            texas_ai.evaluate,
            texas_ai.hard,
            texas_ai.evaluate,
        ),
    )
}
"""Every game, by its rules' ``game``, in the order menus list them."""


def game_of(thing: str | HasGame) -> Game[Any, Any]:
    """The game called ``thing``, or the game of a rule set, a view or a deal; ``KeyError`` naming the known ones."""
    name = thing if isinstance(thing, str) else thing.game
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None
