"""What a view adds to the table for play with memory: the deal's tricks in order, where the indicator went."""

from __future__ import annotations

import random

import pytest

from engine import BingoDeal, BingoView, FortyTwoView, Match, TrickView
from engine.tiles import BIT

PRESETS = ("bingo", "bingo-classic", "bingo-domino", "42")


def play_watching(preset: str, seed: int) -> None:
    """A random match in which every view's history is the tricks watched so far, after every action."""
    rng = random.Random(seed)
    match = Match.new(preset, seed)
    watched: list[TrickView] = []
    deal = match.deal
    while not match.is_over:
        before = deal.view(None).last_trick
        holder_before = deal.indicator_holder if isinstance(deal, BingoDeal) else -1
        finished = match.push_unchecked(rng.choice(match.legal_actions()))
        after = deal.view(None)
        if after.last_trick != before:
            assert after.last_trick is not None
            watched.append(after.last_trick)
        for seat in (None, 0, 1):
            view: BingoView | FortyTwoView = deal.view(seat)
            assert view.history == tuple(watched)
            assert view.last_trick == (watched[-1] if watched else None)
        if isinstance(deal, BingoDeal):
            check_indicator(deal, holder_before)
        if finished is not None:
            deal = match.deal
            watched = []


def check_indicator(deal: BingoDeal, holder_before: int) -> None:
    """The indicator is shown to every seat; its holder is named exactly when it lies in that hand."""
    for seat in (None, 0, 1):
        view = deal.view(seat)
        assert isinstance(view, BingoView)
        assert view.indicator_seen is not None and view.indicator_seen.index == deal.indicator
        if view.indicator_holder is None:
            assert holder_before < 0
            assert deal.closed_by >= 0 or deal.drawn < len(deal.stock)
        else:
            assert deal.drawn == len(deal.stock)
            on_table = BIT[deal.lead] if deal.lead >= 0 else 0
            held_or_played = deal.hands[view.indicator_holder] | deal.captured[0] | deal.captured[1] | on_table
            assert held_or_played & BIT[deal.indicator]
            assert holder_before in (-1, view.indicator_holder)
            if holder_before < 0:
                assert deal.hands[view.indicator_holder] & BIT[deal.indicator], "just drawn, so in that hand"


class TestHistory:
    """``history`` lists every settled trick of the deal, the same for every seat and the table."""

    @pytest.mark.parametrize("preset", PRESETS)
    def test_history_is_the_tricks_watched(self, preset: str) -> None:
        for seed in range(8):
            play_watching(preset, seed)

    def test_fortytwo_draw_phase_first(self) -> None:
        """A finished 42 deal shows its seven draw tricks, then the seven of the play phase."""
        rng = random.Random(3)
        match = Match.new("42", 3)
        while True:
            deal = match.deal
            finished = match.push_unchecked(rng.choice(match.legal_actions()))
            if finished is not None and finished.tricks != [0, 0]:
                break
        view = deal.view(0)
        assert isinstance(view, FortyTwoView)
        assert len(view.history) == 14
        assert sum(view.draw_tricks) == 7 and sum(view.tricks) == 7
        assert [t.winner for t in view.history[7:]].count(0) == view.tricks[0]


class TestClose:
    """Every seat's view, and the table's, carry what the table saw of a close: who, after which trick, the points."""

    @pytest.mark.parametrize("preset", PRESETS[:3])
    def test_close_as_the_table_saw_it(self, preset: str) -> None:
        rng = random.Random(3)
        closes = 0
        for seed in range(30):
            deal = Match.new(preset, seed).deal
            assert isinstance(deal, BingoDeal)
            seen: tuple[int, int, tuple[int, int]] | None = None
            while deal.end is None:
                legal = deal.legal_actions()
                closing = any(a.kind.name == "CLOSE" for a in legal) and rng.random() < 0.15
                if closing:
                    seen = (deal.turn, deal.tricks[0] + deal.tricks[1], (deal.points[0], deal.points[1]))
                    closes += 1
                deal.push_unchecked(
                    next(a for a in legal if a.kind.name == "CLOSE")
                    if closing
                    else rng.choice([a for a in legal if a.kind.name != "CLOSE"])
                )
                for seat in (None, 0, 1):
                    view = deal.view(seat)
                    if seen is None:
                        assert (view.closed_by, view.closed_at, view.closed_points) == (None, None, None)
                    else:
                        assert (view.closed_by, view.closed_at, view.closed_points) == seen
        assert closes >= 10

    def test_no_close_no_close_fields(self) -> None:
        deal = Match.new("bingo", 1).deal
        view = deal.view(0)
        assert isinstance(view, BingoView)
        assert view.closed_at is None and view.closed_points is None
