"""The words of a tournament's message (bot/tournament_text.py): the sign-up's time left, a knockout's lines."""

from __future__ import annotations

import pytest

from bot import tournament_text
from bot.i18n import I18n
from bot.models import Entrant, Lang, Pairing, Player, Tournament

I18N = I18n()
PLAYERS = [Player(id=i, name=name) for i, name in enumerate(("Аня", "Иван", "Ola", "Piotr"), start=1)]


def tournament(**update: object) -> Tournament:
    t = Tournament(
        id="t1", chat_id=-100, creator=PLAYERS[0], preset="bingo", target=7, lang="ru", created=0, expires=86400,
        entrants=[Entrant(player=p) for p in PLAYERS],
    )  # fmt: skip
    return t.model_copy(update=update)


class TestSignUp:
    """The sign-up says how long it stays open after a colon, in whole hours above an hour."""

    @pytest.mark.parametrize(
        ("lang", "left", "shown"),
        [
            ("ru", 82860, "До закрытия записи: 23 часа"),
            ("ru", 86400, "До закрытия записи: 1 день"),
            ("ru", 3000, "До закрытия записи: 50 минут"),
            ("ru", 20, "До закрытия записи: 1 минута"),
            ("pl", 82860, "Do zamknięcia zapisów: 23 godziny"),
            ("pl", 3600, "Do zamknięcia zapisów: 1 godzina"),
        ],
    )
    def test_time_left(self, lang: Lang, left: float, shown: str) -> None:
        text = tournament_text.board_text(I18N[lang], tournament(), 86400 - left)
        assert shown in text


class TestKnockout:
    """A pairing decided without a match says why in the language's own words."""

    def knockout(self, *pairings: Pairing, left: int | None = None) -> Tournament:
        entrants = [Entrant(player=p, left=i == left) for i, p in enumerate(PLAYERS)]
        return tournament(status="running", format="ko", entrants=entrants, pairings=list(pairings))

    @pytest.mark.parametrize(
        ("lang", "left", "line"),
        [
            ("ru", 1, "<b>Аня</b> — победа без игры (Иван 🚪: выход из турнира)"),
            ("ru", None, "<b>Аня</b> — победа без игры (Иван: неявка)"),
            ("pl", 1, "<b>Аня</b> — walkower (Иван 🚪: wycofanie się z turnieju)"),
            ("pl", None, "<b>Аня</b> — walkower (Иван: niestawienie się)"),
        ],
    )
    def test_forfeit(self, lang: Lang, left: int | None, line: str) -> None:
        pairing = Pairing(n=0, round=0, a=0, b=1, done=True, winner=0, forfeit=True)
        assert line in tournament_text.board_text(I18N[lang], self.knockout(pairing, left=left), 0).splitlines()

    @pytest.mark.parametrize(
        ("lang", "line"), [("ru", "Ola — Piotr: никто не проходит дальше"), ("pl", "Ola — Piotr: nikt nie awansuje")]
    )
    def test_nobody_goes_on(self, lang: Lang, line: str) -> None:
        pairing = Pairing(n=0, round=0, a=2, b=3, done=True)
        assert line in tournament_text.board_text(I18N[lang], self.knockout(pairing), 0).splitlines()
