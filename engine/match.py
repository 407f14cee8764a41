"""A match: deals until a side (a player, or a team of two) reaches the target of game points."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action
from engine.deal import Deal
from engine.fairness import seeded_key
from engine.outcomes import IllegalAction, Refusal
from engine.rules import RuleSet, find_preset


def next_first(deal: Deal) -> int:
    """Who acts first in the deal after ``deal`` (the game's rule: :meth:`Deal.next_first`)."""
    return deal.next_first()


class Match:
    """The current deal of a match; the match score lives in the deal.

    The first seat of the match is drawn by lot from the seed, and every deal
    is shuffled from its own secret, derived from the match's deal key
    (:mod:`engine.fairness`), so a match is determined by its rules, seed,
    key and actions. A match made from a seed alone has the key
    :func:`~engine.fairness.seeded_key` of the seed; the bot draws its match
    keys at random and mixes in the players' seeds
    (:func:`~engine.fairness.deal_key`).
    """

    __slots__ = ("deal",)

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    @classmethod
    def new(
        cls,
        rules: RuleSet | str,
        seed: int,
        target: int | None = None,
        *,
        first: int | None = None,
        key: bytes | None = None,
    ) -> Match:
        """A match's first deal; the seat that acts first in it is drawn by lot from the seed unless ``first``
        names it (a rematch: the other player opens). ``key`` (32 bytes, the deal key) derives every deal's
        secret; without it, the seed's :func:`~engine.fairness.seeded_key`."""
        if isinstance(rules, str):
            rules = find_preset(rules)
        if first is None:
            first = random.Random(f"{seed}/lot").randrange(rules.seats)
        key = seeded_key(seed) if key is None else key
        return cls(Deal.deal(rules, key, first, target=target, seed=seed, number=1))

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
            # A deal rebuilt without its match key (an old record) goes on with its seed's key.
            self.deal = Deal.deal(
                deal.rules,
                deal.key or seeded_key(seed),
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
        """JSON-able form: the current deal's record, with the match key that deals the next ones."""
        record = self.deal.record()
        if self.deal.key is not None:
            record["key"] = self.deal.key.hex()
        return record

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        return cls(Deal.from_record(data))
