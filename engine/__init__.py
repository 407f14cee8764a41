"""Pure rules engine for domino trick-taking games: Bingo, 42 for two and 42 for four.

Standard library only, synchronous, no I/O. ``legal_actions`` is the one
authority on what may be done; ``apply`` returns a new state and never
mutates its input; ``view`` is all a seat may see.
"""

from __future__ import annotations

from typing import TypeVar

from engine.actions import Action, Kind
from engine.bingo import BingoDeal, BingoView, ClaimView
from engine.deal import Deal, TrickView
from engine.fortytwo import FortyTwoDeal, FortyTwoView
from engine.match import Match
from engine.outcomes import Award, DealEnd, IllegalAction, Reason, Refusal
from engine.rules import (
    PRESETS,
    BingoRules,
    ClosePenalty,
    FortyTwoRules,
    LastPair,
    RuleSet,
    TexasRules,
    find_preset,
)
from engine.texas import TexasDeal, TexasView
from engine.tiles import Tile

__all__ = [
    "PRESETS",
    "Action",
    "Award",
    "BingoDeal",
    "BingoRules",
    "BingoView",
    "ClaimView",
    "ClosePenalty",
    "Deal",
    "DealEnd",
    "FortyTwoDeal",
    "FortyTwoRules",
    "FortyTwoView",
    "IllegalAction",
    "Kind",
    "LastPair",
    "Match",
    "Reason",
    "Refusal",
    "RuleSet",
    "TexasDeal",
    "TexasRules",
    "TexasView",
    "Tile",
    "TrickView",
    "apply",
    "find_preset",
    "legal_actions",
]

State = TypeVar("State", Deal, Match)


def legal_actions(state: Deal | Match) -> list[Action]:
    """Every action the seat to act may take now."""
    return state.legal_actions()


def apply(state: State, action: Action | str, seat: int | None = None) -> State:
    """A new state with ``action`` applied; ``state`` itself is not changed.

    Raises :class:`IllegalAction` when the action is not legal for the seat to act.
    """
    new = state.copy()
    new.play(action, seat)
    return new
