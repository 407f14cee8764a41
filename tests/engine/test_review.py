"""The post-mortem (``engine.review``) and the evaluations it reads (``engine.ai.judge``, ``engine.ai.evaluate``)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import Action, Match
from engine.ai import choose, evaluate, judge
from engine.games import View
from engine.review import MIN_COST, TOLERANCE, review, review_deal
from engine.rules import find_preset
from tests.engine.test_cli import engine

Policy = Callable[[View, int, int], Action]
"""A seat's move from its view, the deal's number and the ply."""


def review_rng(seed: int, deal: int, ply: int) -> random.Random:
    """The generator the review evaluates a decision with (``engine.review.review_deal``)."""
    return random.Random(f"review/{seed}/{deal}/{ply}")


def play_match(preset: str, seed: int, policies: tuple[Policy, Policy], target: int) -> list[dict[str, Any]]:
    """A whole match, each seat by its policy; its deal records."""
    match = Match.new(find_preset(preset), seed, target)
    records = []
    while not match.is_over:
        deal = match.deal
        seat = deal.turn
        action = policies[seat](deal.view(seat), deal.number, len(deal.actions))
        finished = match.play(action, seat)
        if finished is not None:
            records.append(finished.record())
    return records


def random_policy(rng: random.Random) -> Policy:
    return lambda view, deal, ply: rng.choice(view.legal)


def best_policy(seed: int) -> Policy:
    """The hard level's best move, judged as the review judges it."""

    def policy(view: View, deal: int, ply: int) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        values = judge(view, review_rng(seed, deal, ply))
        return max(values, key=lambda mv: mv[1])[0]

    return policy


PRESETS = [("bingo", 3), ("bingo-classic", 3), ("42", 2)]


class TestReview:
    @pytest.mark.parametrize(("preset", "target"), PRESETS)
    @pytest.mark.parametrize("seed", [1, 2])
    def test_costs_and_accuracy(self, preset: str, target: int, seed: int) -> None:
        """Every cost is at least 0, the costliest are in order and cost at least MIN_COST, the accuracy counts
        the decisions within the tolerance; a review made twice is the same."""
        rng = random.Random(seed)
        records = play_match(preset, seed, (random_policy(rng), random_policy(rng)), target)
        decisions = [d for r in records for d in review_deal(r)]
        assert decisions and all(d.cost >= 0 for d in decisions)
        seats = review(records)
        assert seats == review(records)
        for seat in seats:
            mine = [d for d in decisions if d.seat == seat.seat]
            assert seat.decisions == len(mine)
            assert seat.accurate == sum(d.cost <= TOLERANCE for d in mine)
            assert seat.accuracy is not None and 0 <= seat.accuracy <= 100
            costs = [d.cost for d in seat.costliest]
            assert costs == sorted(costs, reverse=True) and all(c >= MIN_COST for c in costs)
            if costs:
                assert costs[0] == max(d.cost for d in mine)
            for d in seat.costliest:
                assert d.best != d.played

    @pytest.mark.parametrize(("preset", "target"), PRESETS)
    def test_hard_every_time_is_accurate(self, preset: str, target: int) -> None:
        """A seat that always played the hard level's best move has an accuracy of 100 and nothing costly."""
        seed = 11
        records = play_match(preset, seed, (best_policy(seed), random_policy(random.Random(3))), target)
        mine, theirs = review(records)
        assert mine.decisions > 0 and mine.accuracy == 100 and mine.costliest == ()
        assert theirs.accuracy is not None and theirs.accuracy < 100

    @pytest.mark.parametrize(("preset", "target"), PRESETS)
    def test_a_bad_move_is_found(self, preset: str, target: int) -> None:
        """One deliberately bad move (the worst candidate where the candidates differ most) among moves that are
        all the best: it is the seat's costliest decision, with its deal, trick and the move hard preferred."""
        seed = 5
        best = best_policy(seed)
        spoiled: list[tuple[int, int, Action, Action]] = []

        def policy(view: View, deal: int, ply: int) -> Action:
            if spoiled or len(view.legal) < 2:
                return best(view, deal, ply)
            values = judge(view, review_rng(seed, deal, ply))
            (good, high), (bad, low) = max(values, key=lambda mv: mv[1]), min(values, key=lambda mv: mv[1])
            if high - low < 0.05:
                return good
            spoiled.append((deal, ply, bad, good))
            return bad

        records = play_match(preset, seed, (policy, random_policy(random.Random(4))), target)
        assert spoiled, "no decision where the candidates differed enough"
        deal, _, bad, good = spoiled[0]
        mine = review(records, seats=(0,))[0]
        [worst] = mine.costliest
        assert (worst.deal, worst.played, worst.best) == (deal, bad, good)
        assert worst.cost >= 0.05 - 1e-9

    def test_only_the_seats_asked_for(self) -> None:
        rng = random.Random(8)
        records = play_match("bingo", 8, (random_policy(rng), random_policy(rng)), 2)
        assert [s.seat for s in review(records, seats=(1,))] == [1]


class TestFortyTwoEvaluate:
    def test_hard_plays_the_best_of_evaluate(self) -> None:
        """42's hard level plays the move its evaluation values most, in every phase, and the values are
        chances (0..1)."""
        rules = find_preset("42")
        match = Match.new(rules, 21, 3)
        rng = random.Random(21)
        phases = set()
        while not match.is_over:
            deal = match.deal
            view = deal.view(deal.turn)
            seed = rng.getrandbits(32)
            values = evaluate(view, random.Random(seed))
            assert all(0.0 <= v <= 1.01 for _, v in values)
            assert {a for a, _ in values} == set(view.legal)
            move = choose("hard", view, random.Random(seed))
            if len(view.legal) > 1:
                assert move == max(values, key=lambda mv: mv[1])[0]
                phases.add(view.phase)
            match.play(move, deal.turn)
        assert len(phases) == 4


class TestCommandLine:
    def test_review_prints_a_json_line_a_seat(self, tmp_path: Path) -> None:
        """``python -m engine review`` of a self-play log: a JSON line per match and seat."""
        log = tmp_path / "deals.jsonl"
        done = engine("selfplay", "--matches", "2", "--seed", "4", "--target", "2", "--log", str(log))
        assert done.returncode == 0, done.stderr
        done = engine("review", str(log))
        assert done.returncode == 0, done.stderr
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(lines) == 4 and [line["seat"] for line in lines] == [0, 1, 0, 1]
        for line in lines:
            assert {"preset", "seed", "decisions", "accuracy", "costliest"} <= set(line)
            for costly in line["costliest"]:
                assert costly["cost"] > 0 and Action.parse(costly["played"]) != Action.parse(costly["best"])
