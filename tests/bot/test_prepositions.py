"""No rendered message puts a player's name after «против», «от», «przeciwko», «od» or «dla»."""

from __future__ import annotations

import random

import pytest

from bot import render
from bot.games import PRESETS
from bot.i18n import LOCALES, I18n
from bot.models import Finish, Summary
from engine import Match
from tests.bot.texts_cases import record_of, render_all
from tests.prepositions import name_placeables_after_prepositions, names_after_prepositions

NAMES = ("Аня", "Piotr", "Player 2", "<b>&")
PAIRS = [("Аня", "Piotr"), ("Player 2", "<b>&")]


class TestChecker:
    """The check finds a name after a preposition, whatever the markup or case, and nothing else."""

    @pytest.mark.parametrize(
        "text",
        [
            "Вызов от Аня отозван.",
            "🎲 <b>Piotr</b> против <b>Аня</b>",
            "Wyzwanie od <b>Piotr</b> dla <b>&lt;b&gt;&amp;</b>",
            "Poddać mecz przeciwko Player 2?",
            "От Аня",
        ],
    )
    def test_finds(self, text: str) -> None:
        assert names_after_prepositions(text, NAMES)

    @pytest.mark.parametrize(
        "text",
        ["Соперник: Аня", "⏳ Piotr отвечает на твой [2|0].", "Твоя ставка (от 4) или пас.", "Rywal: Player 2"],
    )
    def test_passes(self, text: str) -> None:
        assert names_after_prepositions(text, NAMES) == []

    def test_finds_in_fluent(self) -> None:
        """A name variable after a preposition in a locale file is found; a number is not."""
        source = "a = Вызов от { $creator }\nb = przeciwko <b>{ $opponent }</b>\nc = ставка (от { $min })"
        assert len(name_placeables_after_prepositions(source)) == 2


class TestLocales:
    """No message of either locale puts a name variable after a preposition."""

    @pytest.mark.parametrize("path", sorted(LOCALES.glob("*/*.ftl")), ids=lambda p: f"{p.parent.name}/{p.name}")
    def test_files(self, path: object) -> None:
        assert name_placeables_after_prepositions(path.read_text(encoding="utf-8")) == []  # type: ignore[attr-defined]


class TestRendered:
    """Tables, panels and results of whole random matches, and every named text, in both languages."""

    @pytest.mark.parametrize("preset", sorted(PRESETS))
    @pytest.mark.parametrize("lang", ["ru", "pl"])
    def test_playouts(self, lang: str, preset: str) -> None:
        """At every step of two matches, the table, both panels and each result."""
        tr = I18n()[lang]  # type: ignore[index]
        for seed, (a, b) in enumerate(PAIRS):
            rng = random.Random(seed)
            match = Match.new(preset, seed=seed, target=2)
            texts: list[str] = []
            while not match.is_over:
                deal = match.deal
                record = record_of(deal, a, b)
                texts.append(render.table_text(tr, record, deal.view(None)))
                texts += [render.panel_text(tr, record, deal.view(seat)) for seat in (0, 1)]
                finished = match.play(rng.choice(match.legal_actions()))
                if finished is not None:
                    texts.append(render.deal_result_text(tr, record, finished))
                    texts += [render.panel_text(tr, record, match.deal.view(s), prev=finished) for s in (0, 1)]
            record = record_of(match.deal, a, b)
            winner = match.winner or 0
            summary = Summary(
                id="m", chat_id=-1, preset=preset, players=record.players, score=match.score, winner=winner,
                finish=Finish.TARGET, finished=0, rating_change=16, ratings=(1516, 1484),
            )  # fmt: skip
            texts += [render.match_result_text(tr, record, summary), render.rating_text(tr, record, summary) or ""]
            hits = [hit for text in texts for hit in names_after_prepositions(text, (a, b))]
            assert hits == []

    @pytest.mark.parametrize("lang", ["ru", "pl"])
    def test_named_texts(self, lang: str) -> None:
        for a, b in PAIRS:
            for case, text in render_all(I18n()[lang], a, b).items():  # type: ignore[index]
                assert names_after_prepositions(text, (a, b)) == [], case
