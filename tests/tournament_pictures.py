"""The tournament pictures in docs/: a round robin's final standings and a knockout's bracket, in Russian.

    .venv/bin/python -m tests.tournament_pictures    # rewrite docs/tournament-standings.png and -bracket.png

The pictures are made from plain data here (five players, then eight), with the texts a Russian group would
read, and drawn by the bot's own ``bot.pictures`` code.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.pictures.cards import BracketMatch, BracketSlot, StandingsRow, TournamentPicture
from bot.pictures.draw import draw

DOCS = Path(__file__).resolve().parent.parent / "docs"
STANDINGS = DOCS / "tournament-standings.png"
BRACKET = DOCS / "tournament-bracket.png"
TITLE = "Турнир · Бинго"
CHAMPION = "Аня"


def standings() -> TournamentPicture:
    """A round robin of five, each match to 7: Ola left after three matches (her last one forfeited)."""
    return TournamentPicture(
        lang="ru",
        title=TITLE,
        subtitle=f"Чемпион: {CHAMPION} · 5 игроков · 3 декабря 2026",
        champion=CHAMPION,
        columns=("Игрок", "И", "В", "П", "Очки"),
        rows=(
            StandingsRow(1, CHAMPION, 4, 4, 0, 28),
            StandingsRow(2, "Борис", 4, 3, 1, 26),
            StandingsRow(3, "Piotr Łukaszewicz", 4, 2, 2, 21),
            StandingsRow(4, "Дмитрий Соколов", 4, 1, 3, 17),
            StandingsRow(5, "Ola", 3, 0, 3, 6, left=True),
        ),
        fallback="Игрок",
    )


def _match(top: str, top_score: int | None, bottom: str, bottom_score: int | None, note: str = "") -> BracketMatch:
    """A finished match: the one with more points won (the first when neither has points: a forfeit)."""
    first_won = (top_score or 0) >= (bottom_score or 0)
    return BracketMatch(
        BracketSlot(top, top_score, first_won), BracketSlot(bottom, bottom_score, not first_won), note=note
    )


def bracket() -> TournamentPicture:
    """A knockout of eight, each match to 7: one quarter-final won by forfeit."""
    return TournamentPicture(
        lang="ru",
        title=TITLE,
        subtitle=f"Чемпион: {CHAMPION} · 8 игроков · 3 декабря 2026",
        champion=CHAMPION,
        rounds=(
            (
                _match(CHAMPION, 7, "Мария", 3),
                _match("Grzegorz Brzęczyszczykiewicz", 5, "Борис", 7),
                _match("Екатерина Смирнова", 7, "Ola", 6),
                _match("Piotr Łukaszewicz", None, "Дмитрий", None, note="Дмитрий не явился"),
            ),
            (_match(CHAMPION, 7, "Борис", 4), _match("Екатерина Смирнова", 2, "Piotr Łukaszewicz", 7)),
            (_match(CHAMPION, 7, "Piotr Łukaszewicz", 5),),
        ),
        round_names=("1/4 финала", "Полуфинал", "Финал"),
        bye="свободно",
        fallback="Игрок",
    )


def main(argv: list[str]) -> int:
    DOCS.mkdir(exist_ok=True)
    STANDINGS.write_bytes(draw(standings()))
    BRACKET.write_bytes(draw(bracket()))
    print(f"wrote {STANDINGS.relative_to(DOCS.parent)} and {BRACKET.relative_to(DOCS.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
