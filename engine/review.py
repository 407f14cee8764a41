"""The post-mortem of a match: each seat's decisions judged by the hard level, from what the seat knew.

A match is reviewed from its deal records (RULES.md section 4, as
``Deal.record()`` writes them and ``python -m engine selfplay --log`` logs
them). Every decision of a reviewed seat that had more than one candidate
move is evaluated from that seat's view at that moment (the deal replayed up
to it): :func:`engine.ai.judge` gives each candidate the hard level's
chance to win the match after it (its search; in Bingo with 0.4 of the samples
the level plays with, so that a whole match is reviewed in seconds), and the decision's **cost** is the best
candidate's chance minus the chance of the move played (0 when it was the
best), in points of that chance (0.01 is one percentage point).

A seat's **accuracy** is the share of its decisions that cost at most
:data:`TOLERANCE` (one percentage point), in whole percent; a seat with no
decision to make has none. Its **costliest** decisions are the three that
cost most, of those that cost at least :data:`MIN_COST`.

Each decision's evaluation draws from its own generator, seeded by the
match's seed, the deal and the ply, so a review is the same every time it is
made, in any order and in any process, and a deal can be reviewed as soon as
it ends (:func:`review_deal`; :func:`summarize` joins the deals).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import CLAIM, Action, Kind
from engine.ai import judge as evaluate_decision
from engine.deal import Deal
from engine.games import View
from engine.rules import find_preset

TOLERANCE = 0.01
"""A decision costing at most this much chance to win (one percentage point) counts as accurate."""
MIN_COST = 0.001
"""Decisions costing less than this (a tenth of a percentage point) are never among the costliest."""
COSTLIEST = 3
"""How many of a seat's costliest decisions a review keeps."""

Evaluator = Callable[[View, random.Random], list[tuple[Action, float]]]
"""What judges a position: :func:`engine.ai.judge` (the hard level's search, in Bingo with fewer samples), or
another search with the same contract."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One move of a seat that had a choice, and what the hard level thought of it."""

    seat: int
    deal: int
    """The deal's number in the match (from 1)."""
    trick: int | None
    """The trick the move was made in (from 1, counting the whole deal's); None for a bid, a pass or trumps."""
    played: Action
    best: Action
    """The move the hard level prefers (the played one when it was the best)."""
    cost: float
    """The chance to win the match the played move gave away against the best (0..1; 0 when it was the best)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "deal": self.deal,
            "trick": self.trick,
            "played": self.played.notation(),
            "best": self.best.notation(),
            "cost": round(self.cost, 4),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        return cls(
            seat=int(data["seat"]),
            deal=int(data["deal"]),
            trick=None if data["trick"] is None else int(data["trick"]),
            played=Action.parse(data["played"]),
            best=Action.parse(data["best"]),
            cost=float(data["cost"]),
        )


@dataclass(frozen=True, slots=True)
class SeatReview:
    """One seat's post-mortem of a match."""

    seat: int
    decisions: int
    """Decisions with more than one candidate."""
    accurate: int
    """Of those, the ones that cost at most :data:`TOLERANCE`."""
    costliest: tuple[Decision, ...]
    """Up to :data:`COSTLIEST` decisions, costliest first (each costing at least :data:`MIN_COST`)."""

    @property
    def accuracy(self) -> int | None:
        """The share of accurate decisions in whole percent; None when the seat had no choice to make."""
        if not self.decisions:
            return None
        return round(100 * self.accurate / self.decisions)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "accurate": self.accurate,
            "accuracy": self.accuracy,
            "costliest": [d.to_json() for d in self.costliest],
        }


def review_deal(
    record: dict[str, Any],
    seats: Iterable[int] = (0, 1),
    evaluator: Evaluator = evaluate_decision,
) -> list[Decision]:
    """Every decision with a choice of the ``seats`` in one deal, in the order they were made."""
    deal = Deal.from_record(record, replay_actions=False)
    wanted = set(seats)
    decisions: list[Decision] = []
    for ply, text in enumerate(record["actions"]):
        action = Action.parse(text)
        seat = deal.turn
        if seat in wanted:
            view = deal.view(seat)
            if len(view.legal) > 1:
                rng = random.Random(f"review/{deal.seed}/{deal.number}/{ply}")
                decision = judge(view, action, evaluator(view, rng), deal.number, len(deal.history) + 1)
                if decision is not None:
                    decisions.append(decision)
        deal.play(action, seat)
    return decisions


def judge(view: View, played: Action, values: Sequence[tuple[Action, float]], deal: int, trick: int) -> Decision | None:
    """The decision ``played`` among ``values``; None when there was one candidate only.

    A move left out of the candidates (Bingo's leading a double that could be claimed) is valued as the
    candidate that dominates it (claiming that double): a cost at least that high.
    """
    if len(values) < 2:
        return None
    by_action = dict(values)
    best, best_value = max(values, key=lambda mv: mv[1])
    value = by_action.get(played)
    if value is None and played.kind is Kind.PLAY and played.value in CLAIM:
        value = by_action.get(CLAIM[played.value])
    if value is None:
        return None
    cost = max(0.0, best_value - value)
    if cost == 0.0:
        best = played
    in_trick = played.kind in (Kind.PLAY, Kind.CLAIM, Kind.CLOSE, Kind.TAKE_INDICATOR, Kind.TAKE_HIDDEN)
    assert view.seat is not None
    return Decision(view.seat, deal, trick if in_trick else None, played, best, cost)


def summarize(seat: int, decisions: Iterable[Decision]) -> SeatReview:
    """A seat's review from its decisions (of any deals, in any order)."""
    mine = [d for d in decisions if d.seat == seat]
    accurate = sum(1 for d in mine if d.cost <= TOLERANCE)
    costly = sorted((d for d in mine if d.cost >= MIN_COST), key=lambda d: (-d.cost, d.deal, d.trick or 0))
    return SeatReview(seat, len(mine), accurate, tuple(costly[:COSTLIEST]))


def review(
    records: Iterable[dict[str, Any]],
    seats: Sequence[int] | None = None,
    evaluator: Evaluator = evaluate_decision,
) -> tuple[SeatReview, ...]:
    """The post-mortem of a match from its deal records: one review per seat of ``seats`` (None: every seat of
    the game's table, two or four)."""
    records = list(records)
    if seats is None:
        seats = range(find_preset(records[0]["preset"]).seats) if records else (0, 1)
    decisions: list[Decision] = []
    for record in records:
        decisions.extend(review_deal(record, seats, evaluator))
    return tuple(summarize(seat, decisions) for seat in seats)


def matches_of(records: Iterable[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Deal records (a log of several matches, one after another) grouped by match."""
    matches: list[list[dict[str, Any]]] = []
    for record in records:
        last = matches[-1][-1] if matches else None
        same = (
            last is not None
            and last.get("preset") == record.get("preset")
            and last.get("seed") == record.get("seed")
            and int(record.get("deal", 1)) > int(last.get("deal", 1))
        )
        if same:
            matches[-1].append(record)
        else:
            matches.append([record])
    return matches


def review_json(records: list[dict[str, Any]], seats: Sequence[int] | None) -> list[dict[str, Any]]:
    """:func:`review` as JSON-able dicts."""
    return [seat.to_json() for seat in review(records, seats)]


def deal_json(record: dict[str, Any], seats: Sequence[int]) -> list[dict[str, Any]]:
    """:func:`review_deal` as JSON-able dicts (what a worker process sends back; :meth:`Decision.from_json`)."""
    return [decision.to_json() for decision in review_deal(record, seats)]
