"""A match: deals until a seat reaches the target of game points."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action
from engine.deal import Deal
from engine.outcomes import DealEnd, IllegalAction, Refusal
from engine.rules import RuleSet, find_preset


def deal_rng(seed: int, number: int) -> random.Random:
    """The generator that shuffles deal ``number`` of the match ``seed``."""
    return random.Random(f"{seed}/{number}")


def next_first(deal: Deal) -> int:
    """Who acts first in the deal after ``deal``: it alternates, but a 42 redeal keeps its opener."""
    return deal.first if deal.end is DealEnd.ALL_PASSED else 1 - deal.first


class Match:
    """The current deal of a match; the match score lives in the deal.

    The first seat of the match is drawn by lot from the seed, and every deal
    is shuffled by :func:`deal_rng`, so a match is determined by its rules,
    seed and actions.
    """

    __slots__ = ("deal",)

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    @classmethod
    def new(cls, rules: RuleSet | str, seed: int, target: int | None = None, *, first: int | None = None) -> Match:
        """A match's first deal; the seat that acts first in it is drawn by lot from the seed unless ``first``
        names it (a rematch: the other player opens)."""
        if isinstance(rules, str):
            rules = find_preset(rules)
        if first is None:
            first = random.Random(f"{seed}/lot").randrange(2)
        return cls(Deal.deal(rules, deal_rng(seed, 1), first, target=target, seed=seed, number=1))

    @property
    def rules(self) -> RuleSet:
        return self.deal.rules

    @property
    def score(self) -> tuple[int, int]:
        return (self.deal.score[0], self.deal.score[1])

    @property
    def is_over(self) -> bool:
        return self.deal.match_over

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        return 0 if self.deal.score[0] >= self.deal.target else 1

    @property
    def turn(self) -> int | None:
        return None if self.is_over else self.deal.turn

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self.deal.legal_actions()

    def play(self, action: Action | str, seat: int | None = None) -> Deal | None:
        """Apply an action; return the deal it finished, if it finished one.

        When a deal ends and the match goes on, the next deal is dealt at once.
        """
        if self.is_over:
            raise IllegalAction(action, Refusal.GAME_OVER)
        self.deal.play(action, seat)
        return self._advance()

    def push_unchecked(self, action: Action) -> Deal | None:
        self.deal.push_unchecked(action)
        return self._advance()

    def _advance(self) -> Deal | None:
        deal = self.deal
        if deal.end is None:
            return None
        if not deal.match_over:
            seed, number = deal.seed, deal.number + 1
            self.deal = Deal.deal(
                deal.rules,
                deal_rng(seed, number),
                next_first(deal),
                score=(deal.score[0], deal.score[1]),
                target=deal.target,
                seed=seed,
                number=number,
            )
        return deal

    def copy(self) -> Match:
        return Match(self.deal.copy())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self.deal == other.deal

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: the current deal's record."""
        return self.deal.record()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        return cls(Deal.from_record(data))
