"""The exact endgame search of the hard Bingo level: it agrees with a plain minimax over the real deal."""

from __future__ import annotations

import random

import pytest

from engine import BingoDeal, Match
from engine.actions import Kind
from engine.ai import choose
from engine.bingo_search import Endgame
from engine.equity import BINGO_DEAL_POINTS, equity
from engine.tiles import DOUBLES, indices, parse_index
from tests.engine.helpers import deal_from, play

BINGO_PRESETS = ("bingo", "bingo-classic", "bingo-domino")


def minimax(deal: BingoDeal, me: int) -> float:
    """The value of ``deal`` for ``me`` by trying every legal action of the real deal (slow, small positions)."""
    if deal.end is not None:
        need_me, need_opp = deal.target - deal.score[me], deal.target - deal.score[1 - me]
        return equity(need_me, need_opp, BINGO_DEAL_POINTS)
    values = []
    for action in deal.legal_actions():
        if (
            action.kind is Kind.PLAY
            and deal.lead < 0
            and any(a.kind is Kind.CLAIM and a.value == action.value for a in deal.legal_actions())
        ):
            continue  # a claim never does worse than leading the same double unclaimed
        after = deal.copy()
        assert isinstance(after, BingoDeal)
        after.push_unchecked(action)
        values.append(minimax(after, me))
    return max(values) if deal.turn == me else min(values)


def solver_of(deal: BingoDeal, me: int) -> tuple[Endgame, tuple[int, int], tuple[int, int, bool, bool, int, int]]:
    solver = Endgame(deal.rules, deal.trump, deal.target, me, deal.closed_by, deal.closed_after)
    state = (deal.points[0], deal.points[1], deal.tricks[0] > 0, deal.tricks[1] > 0, deal.score[0], deal.score[1])
    return solver, (deal.hands[0], deal.hands[1]), state


def strict_positions(preset: str, seed: int, most_tiles: int, close: float = 0.1) -> list[BingoDeal]:
    """Positions at the start of a trick with nothing more to draw and at most ``most_tiles`` in each hand;
    random play, closing with the chance ``close`` where it may."""
    rng = random.Random(seed)
    found: list[BingoDeal] = []
    for i in range(40):
        match = Match.new(preset, seed * 1000 + i)
        deal = match.deal
        assert isinstance(deal, BingoDeal)
        while deal.end is None:
            legal = deal.legal_actions()
            strict = deal.closed_by >= 0 or deal.drawn == len(deal.stock)
            if strict and deal.lead < 0 and max(h.bit_count() for h in deal.hands) <= most_tiles:
                found.append(deal.copy())  # type: ignore[arg-type]
                break
            closes = [a for a in legal if a.kind is Kind.CLOSE]
            others = [a for a in legal if a.kind is not Kind.CLOSE]
            deal.push_unchecked(closes[0] if closes and rng.random() < close else rng.choice(others))
    return found


class TestAgainstMinimax:
    @pytest.mark.parametrize("preset", BINGO_PRESETS)
    def test_random_small_positions(self, preset: str) -> None:
        """Every seat's value of random end positions (up to 4 tiles a hand) is the plain minimax's."""
        positions = strict_positions(preset, 7, 4)
        assert len(positions) >= 15
        for deal in positions:
            for me in (0, 1):
                solver, hands, state = solver_of(deal, me)
                assert solver.solve(hands, deal.turn, state) == pytest.approx(minimax(deal, me))


class TestBestLine:
    def test_finds_the_win_the_greedy_lead_throws_away(self) -> None:
        """Blanks are trumps and seat 1 closes at once: leading [4|2] (the greedy player's cheapest throw-away)
        loses the deal, a line exists that wins it; the search finds that line's value."""
        deal = deal_from(
            "bingo",
            ("65 64 62 61 52 51 31", "66 63 55 42 30 22 10"),
            "40 60 44 00 41 54 43 32 33 50 53 11 21 20",
            first=1,
        )
        assert isinstance(deal, BingoDeal)
        play(deal, "X")
        solver, hands, state = solver_of(deal, 1)
        best = solver.solve(hands, 1, state)
        greedy = solver.answer(hands, 1, parse_index("42"), 0, state, -1.0, 2.0)
        assert greedy < 0.5 < best
        leads = {t: solver.answer(hands, 1, t, 0, state, -1.0, 2.0) for t in indices(deal.hands[1])}
        assert max(leads.values()) == pytest.approx(best)

    def test_hard_plays_the_solved_line_when_everything_is_seen(self) -> None:
        """Once the reserve is empty the seat has seen every tile: the hard level's move is worth the position."""
        checked = 0
        for deal in strict_positions("bingo-domino", 11, 7, close=0.0)[:6]:
            if deal.closed_by >= 0:
                continue
            checked += 1
            me = deal.turn
            move = choose("hard", deal.view(me), random.Random(1))
            solver, hands, state = solver_of(deal, me)
            claim = deal.hands[me] & DOUBLES if move.kind is Kind.CLAIM else 0
            assert solver.answer(hands, me, move.value, claim, state, -1.0, 2.0) == pytest.approx(
                solver.solve(hands, me, state)
            )
        assert checked >= 4
