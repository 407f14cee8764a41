"""The computer opponent: three levels of play for every game, from a seat's view alone.

``choose(level, view, rng)`` is all a caller needs; a game's own levels are
named by its line in :data:`engine.games.GAMES`. A level reads nothing but
the view it is given (what that seat may see) and the rules of the view's
preset, so it cannot peek at the other hand or the reserve: its move is a
function of the view and the generator.

- ``easy``: a uniformly random legal move.
- ``normal``: a greedy player (:func:`engine.bingo_ai.normal`, :func:`engine.fortytwo_ai.normal`).
- ``hard``: a search over the deals that agree with the view
  (:func:`engine.bingo_ai.hard`, :func:`engine.fortytwo_ai.hard`).

``evaluate(view, rng)`` is what the hard level thinks of each move: the
post-mortem (:mod:`engine.review`) and the hints read it.

The arena knows one more level, ``reference``: a frozen copy of an earlier
``hard`` (:mod:`engine.bingo_reference`; in 42 the current hard) that the
current one is measured against. Players are never offered it.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.games import View, game_of
from engine.rules import RuleSet, find_preset

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""The levels a player may choose."""
ARENA_LEVELS: tuple[str, ...] = (*LEVELS, "reference")
"""The levels the arena plays: the player's, and the frozen earlier hard."""


def choose(level: str, view: View, rng: random.Random) -> Action:
    """The move of the seat whose view this is (view.legal is non-empty); uses only the view and the rules."""
    if level not in ARENA_LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(ARENA_LEVELS)}")
    if not view.legal:
        raise ValueError("the view's seat has no move to make")
    if level == "easy":
        return rng.choice(view.legal)
    rules = find_preset(view.preset).with_target(view.target)
    game = game_of(view)
    if level == "normal":
        return game.normal(view, rules)
    return game.reference(view, rules, rng) if level == "reference" else game.hard(view, rules, rng)


def evaluate(view: View, rng: random.Random) -> list[tuple[Action, float]]:
    """The hard level's chance (0..1) that the view's seat wins the match after each candidate move.

    The candidates are the legal moves worth telling apart (Bingo leaves out leading a double it may claim,
    never better than claiming it); the hard level plays the first of the best.
    """
    return list(game_of(view).evaluate(view, _rules_to_move(view), rng))


def judge(view: View, rng: random.Random) -> list[tuple[Action, float]]:
    """:func:`evaluate` as the post-mortem runs it: in Bingo with a share of the hard level's samples (the
    counts it played with before it took more), so that a whole match's review stays within seconds."""
    return list(game_of(view).judge(view, _rules_to_move(view), rng))


def _rules_to_move(view: View) -> RuleSet:
    """The rules the view's match is played by; ``ValueError`` when its seat has no move to make."""
    if not view.legal:
        raise ValueError("the view's seat has no move to make")
    return find_preset(view.preset).with_target(view.target)
