"""The registry of games: every preset's game is there, and its classes and names agree."""

from __future__ import annotations

import pytest

from engine import PRESETS, Match
from engine.games import GAMES, game_of
from engine.rules import find_preset, presets_of

NAMES = sorted(GAMES)


class TestRegistry:
    """``GAMES`` and ``game_of``."""

    def test_every_preset_has_its_game(self) -> None:
        """Each preset's game is registered, with that preset's rules class."""
        for preset, rules in PRESETS.items():
            game = GAMES[rules.game]
            assert isinstance(rules, game.rules), preset
            assert game.rules_of(preset) is rules

    @pytest.mark.parametrize("name", NAMES)
    def test_names_agree(self, name: str) -> None:
        """A game's key is its name, its deal class's ``game`` and its views' ``game``; it has a preset."""
        game = GAMES[name]
        assert game.name == name and game.deal.game == name
        assert presets_of(name)
        deal = Match.new(presets_of(name)[0], seed=1).deal
        assert type(deal) is game.deal
        for seat in (None, 0, 1):
            view = deal.view(seat)
            assert type(view) is game.view and view.game == name

    @pytest.mark.parametrize("name", NAMES)
    def test_found_from_anything_with_a_game(self, name: str) -> None:
        """The game's name, a rule set, a deal and a view all find the same game."""
        preset = presets_of(name)[0]
        deal = Match.new(preset, seed=2).deal
        game = GAMES[name]
        assert game_of(name) is game_of(find_preset(preset)) is game_of(deal) is game_of(deal.view(None)) is game

    def test_unknown(self) -> None:
        with pytest.raises(KeyError, match="unknown game 'poker'; known: bingo, 42"):
            game_of("poker")

    def test_other_games_preset(self) -> None:
        """A game's rules_of refuses a preset of another game."""
        with pytest.raises(ValueError, match="not a 42 preset"):
            GAMES["42"].rules_of("bingo")
