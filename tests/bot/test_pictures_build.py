"""bot.pictures.build: what a card and a chart show, from a match as the service keeps it."""

from __future__ import annotations

import pytest

from bot.i18n import I18n
from bot.models import DealLine, Lang, MomentRecord, Player, RatingPoint
from bot.pictures import build
from bot.pictures.draw import render
from bot.services import Services
from tests.bot.helpers import ALA, BOB, CHAT, finish_by_play, start_match

I18N = I18n()


class TestMatchCard:
    """The card of a finished match."""

    @pytest.mark.parametrize("lang", ["ru", "pl"])
    async def test_played_to_the_end(self, services: Services, lang: Lang) -> None:
        """The chart's last point is the final score; both ratings after the match, with their change."""
        result = await finish_by_play(services, seed=3)
        record, summary = result.record, (await services.stores.matches.messages(result.record.id)).summary
        assert summary is not None and summary.winner is not None and summary.ratings is not None
        tr = I18N[lang]
        card = build.match_card(tr, record, summary)
        assert card.lang == lang and card.title == tr(f"preset-{summary.preset}")
        assert [s.name for s in card.sides] == [ALA.name, BOB.name]
        assert card.deals[-1] == summary.score and len(card.deals) == len(record.log)
        w = summary.winner
        assert card.sides[w].winner and not card.sides[1 - w].winner
        change = summary.rating_change
        assert card.sides[w].rating == tr("card-rating", rating=str(summary.ratings[0]), change=f"+{change}")
        assert card.sides[1 - w].rating == tr("card-rating", rating=str(summary.ratings[1]), change=f"\u2212{change}")
        assert card.last_trick is not None

    @pytest.mark.parametrize(("lang", "words"), [("ru", ("Игрок 1", "Игрок 2")), ("pl", ("Gracz 1", "Gracz 2"))])
    async def test_fallback_names(self, services: Services, lang: Lang, words: tuple[str, str]) -> None:
        """Each side carries what the card calls its player if the font draws nothing of their name (only emoji
        or CJK): "Игрок 1", "Gracz 2"; the subtitle names the loser as their side does; drawn, the card shows
        the fallbacks."""
        record, _ = await start_match(services)
        result = await services.moves.surrender(record.id, BOB.id)
        summary = (await services.stores.matches.messages(record.id)).summary
        assert summary is not None
        players = (Player(id=ALA.id, name="王伟"), Player(id=BOB.id, name="🎲🐉"))
        card = build.match_card(I18N[lang], result.record.model_copy(update={"players": players}), summary)
        assert tuple(side.fallback for side in card.sides) == words
        assert [side.name for side in card.sides] == ["王伟", "🎲🐉"]
        assert card.subtitle.startswith("🎲🐉 ")
        shown = [text.get_text() for text in render(card).axes[0].texts]
        assert set(words) <= set(shown) and any(text.startswith(words[1] + " ") for text in shown)

    async def test_moments_latest_three(self, services: Services) -> None:
        """Moments come from the log, the latest three, each with its tiles and its deal named."""
        record, _ = await start_match(services)
        result = await services.moves.surrender(record.id, ALA.id)
        summary = (await services.stores.matches.messages(record.id)).summary
        assert summary is not None
        lines = tuple(DealLine(n=n, g=(1, 0), m=(MomentRecord(k="bingo", s=0, t=("00", "55")),)) for n in range(1, 5))
        # A picture draws characters, not HTML: a name is not escaped.
        players = (Player(id=ALA.id, name="A & <B>"), BOB)
        ended = result.record.model_copy(update={"log": lines, "players": players})
        card = build.match_card(I18N["ru"], ended, summary)
        assert card.sides[0].name == "A & <B>"
        assert [m.heading for m in card.moments] == [
            I18N["ru"]("card-moment", deal=n, name="A & <B>") for n in (2, 3, 4)
        ]
        assert {(m.seat, m.text) for m in card.moments} == {(0, I18N["ru"]("card-moment-bingo"))}
        assert all(m.tiles == ((0, 0), (5, 5)) for m in card.moments)
        assert card.deals == ((1, 0), (2, 0), (3, 0), (4, 0))

    async def test_the_computer(self, services: Services) -> None:
        """The computer is named so, its level where a rating would go; nobody's rating changes."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "pl")
        record = await services.challenges.play_computer(challenge.id, ALA.id, "hard", "🤖 Komputer (trudny)")
        result = await services.moves.surrender(record.id, ALA.id)
        summary = (await services.stores.matches.messages(record.id)).summary
        assert summary is not None
        card = build.match_card(I18N["pl"], result.record, summary)
        seat = result.record.computer_seat
        assert seat is not None
        assert card.sides[seat].name == "Komputer" and card.sides[seat].rating == "poziom: trudny"
        assert card.sides[1 - seat].rating is None


class TestRatingChart:
    """The chart of a rating log."""

    def test_empty(self) -> None:
        assert build.rating_chart(I18N["ru"], "Ala", [], in_chat=True) is None

    @pytest.mark.parametrize("lang", ["ru", "pl"])
    def test_points(self, lang: Lang) -> None:
        """The rating before the first match, then after each; the best and the count in the summary line."""
        log = [
            RatingPoint(rating=1516, change=16, finished=1.0, won=True),
            RatingPoint(rating=1500, change=-16, finished=2.0, won=False),
            RatingPoint(rating=1500, change=0, finished=3.0, won=True),
        ]
        tr = I18N[lang]
        chart = build.rating_chart(tr, "Ala <3", log, in_chat=False)
        assert chart is not None
        assert chart.ratings == (1500, 1516, 1500, 1500) and chart.won == (True, False, True)
        assert chart.title == tr("chart-title-all", name="Ala <3") and chart.name == "Ala <3"
        assert chart.fallback == {"ru": "Игрок", "pl": "Gracz"}[lang]
        assert chart.summary == tr("chart-summary", rating="1500", best="1516", n=3)

    @pytest.mark.parametrize("lang", ["ru", "pl"])
    @pytest.mark.parametrize("after", [(1484, 1468), (1484, 1500), (1500,)])
    def test_no_best_before_above_the_start(self, lang: Lang, after: tuple[int, ...]) -> None:
        """Until the player has been above the rating the chart starts from, the summary names no "best" (a new
        player's starting 1500 is not one); it names the best once they have."""
        log: list[RatingPoint] = []
        rating = 1500
        for value in after:
            log.append(RatingPoint(rating=value, change=value - rating, finished=float(len(log)), won=value > rating))
            rating = value
        tr = I18N[lang]
        chart = build.rating_chart(tr, "Ala", log, in_chat=True)
        assert chart is not None and chart.ratings[0] == 1500
        assert chart.summary == tr("chart-summary-no-best", rating=str(after[-1]), n=len(after))
        assert "лучш" not in chart.summary and "najlep" not in chart.summary
        log.append(RatingPoint(rating=1501, change=1501 - rating, finished=9.0, won=True))
        chart = build.rating_chart(tr, "Ala", log, in_chat=True)
        assert chart is not None
        assert chart.summary == tr("chart-summary", rating="1501", best="1501", n=len(log))
