"""The tournament picture: a round robin's standings and a knockout's bracket, drawn like the match card (an RGB
PNG of its size, no text off the picture or over another, none under 30 px, the champion in gold)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from matplotlib.colors import to_hex
from matplotlib.text import Text
from PIL import Image

from bot.pictures import draw as drawing
from bot.pictures.cards import BracketMatch, BracketSlot, StandingsRow, TournamentPicture, size_of
from bot.pictures.draw import render
from bot.pictures.painter import Painter
from tests import tournament_pictures
from tests.bot.test_pictures_draw import (
    LEAST_PX,
    assert_layout,
    assert_picture,
    drawn,
    drawn_text_sizes,
    image_of,
    texts_of,
)

LONG = "Анастасия Александровна Ковалёва-Ширинск"
"""40 characters."""
POLISH = "Grzegorz Brzęczyszczykiewicz ąęłńóśźż"
NO_GLYPH = "王伟 🐉"
FALLBACK = {"ru": "Игрок", "pl": "Gracz"}


def round_robin(players: int) -> TournamentPicture:
    """Standings of ``players`` (3 or 6): in Russian of three; in Polish of six, with a 40-character name, Polish
    letters, a name the font cannot draw and a player who left."""
    if players == 3:
        names = ["Аня", "Борис", "Ola"]
        lang, columns = "ru", ("Игрок", "И", "В", "П", "Очки")
    else:
        names = ["Łukasz Żółć", LONG, POLISH, NO_GLYPH, "Piotr", "Ola"]
        lang, columns = "pl", ("Gracz", "M", "W", "P", "Punkty")
    count = len(names)
    rows = tuple(
        StandingsRow(
            place=index + 1,
            name=name,
            played=count - 1,
            wins=count - 1 - index,
            losses=index,
            points=7 * (count - 1 - index) + 3 * index,
            left=index == 5,
        )
        for index, name in enumerate(names)
    )
    return TournamentPicture(
        lang=lang,
        title="Турнир · Бинго" if lang == "ru" else "Turniej · Bingo",
        subtitle=(
            f"Чемпион: {names[0]} · {count} игрока · 3 декабря 2026"
            if lang == "ru"
            else f"Mistrz: {names[0]} · {count} graczy · 3 grudnia 2026"
        ),
        champion=names[0],
        columns=columns,
        rows=rows,
        fallback=FALLBACK[lang],
    )


def _winners(matches: tuple[BracketMatch, ...]) -> list[str | None]:
    return [next(slot.name for slot in (match.top, match.bottom) if slot.won) for match in matches]


def knockout(names: list[str | None], lang: str = "ru", forfeit: int = 1) -> TournamentPicture:
    """A knockout of ``names`` in bracket order (None: a bye); the first of each match wins 7 to 4, or by a bye,
    or by forfeit in the first round's match ``forfeit``."""
    rounds: list[tuple[BracketMatch, ...]] = []
    players = names
    while len(players) > 1:
        matches = []
        for index in range(0, len(players), 2):
            top, bottom = players[index], players[index + 1]
            if bottom is None:
                matches.append(BracketMatch(BracketSlot(top, None, True), BracketSlot(None)))
            elif not rounds and index // 2 == forfeit:
                note = "неявка" if lang == "ru" else "walkower"
                matches.append(BracketMatch(BracketSlot(top, None, True), BracketSlot(bottom), note=note))
            else:
                matches.append(BracketMatch(BracketSlot(top, 7, True), BracketSlot(bottom, 4)))
        rounds.append(tuple(matches))
        players = _winners(rounds[-1])
    names_of_rounds = {
        "ru": ("1/8 финала", "1/4 финала", "Полуфинал", "Финал"),
        "pl": ("1/8 finału", "Ćwierćfinał", "Półfinał", "Finał"),
    }[lang][-len(rounds) :]
    champion = players[0]
    assert champion is not None
    return TournamentPicture(
        lang=lang,
        title="Турнир · Бинго" if lang == "ru" else "Turniej · Bingo",
        subtitle=f"Чемпион: {champion} · 3 декабря 2026" if lang == "ru" else f"Mistrz: {champion} · 3 grudnia 2026",
        champion=champion,
        rounds=tuple(rounds),
        round_names=names_of_rounds,
        bye="свободно" if lang == "ru" else "wolny los",
        fallback=FALLBACK[lang],
    )


def bracket_of_8() -> TournamentPicture:
    """Seven players in Russian (one bye), a 40-character name among them, a forfeit."""
    return knockout(["Аня", None, "Борис", LONG, "Мария", "Piotr Łukaszewicz", "Дмитрий", "Ola"])


def bracket_of_16() -> TournamentPicture:
    """Eleven players in Polish (five byes), Polish letters, a 40-character name and a name the font cannot draw,
    a forfeit."""
    players = ["Łukasz Żółć", POLISH, LONG, NO_GLYPH, "Ola", "Ewa", "Igor", "Kasia", "Piotr", "Jadwiga", "Feliks"]
    names: list[str | None] = []
    for index, name in enumerate(players):
        names += [name, None] if index < 5 else [name]
    return knockout(names, lang="pl", forfeit=5)


PICTURES = {
    "robin-3": round_robin(3),
    "robin-6": round_robin(6),
    "bracket-8": bracket_of_8(),
    "bracket-16": bracket_of_16(),
}
SIZES = {"robin-3": (1280, 468), "robin-6": (1280, 720), "bracket-8": (1280, 720), "bracket-16": (1280, 1208)}


def shown(picture: TournamentPicture) -> list[Text]:
    return texts_of(render(picture))


def coloured(texts: list[Text], colour: str) -> list[str]:
    """The strings of the texts drawn in ``colour``."""
    return [text.get_text() for text in texts if to_hex(text.get_color()) == to_hex(colour)]


class TestTournamentPicture:
    """Every kind and size of tournament picture, with long names, Cyrillic and Polish letters and a name of no
    glyph."""

    @pytest.mark.parametrize("case", PICTURES)
    def test_picture(self, case: str) -> None:
        """An opaque RGB PNG of its size, drawn without a warning, not blank."""
        picture = PICTURES[case]
        assert size_of(picture) == SIZES[case]
        assert_picture(picture)

    @pytest.mark.parametrize("case", PICTURES)
    def test_layout(self, case: str) -> None:
        """No text leaves the picture or overlaps another."""
        assert_layout(PICTURES[case])

    @pytest.mark.parametrize("case", PICTURES)
    def test_text_sizes(self, case: str) -> None:
        """No text is under 30 px at 1280 px wide (the match card's rule)."""
        sizes = drawn_text_sizes(PICTURES[case])
        assert min(px for _, px in sizes) >= LEAST_PX - 1e-6, min(sizes, key=lambda item: item[1])

    @pytest.mark.parametrize("case", PICTURES)
    def test_names(self, case: str) -> None:
        """The champion is written in gold; a 40-character name is shortened with "…" (its beginning kept); a name
        of no glyph is the fallback; Polish and Cyrillic letters are kept."""
        picture = PICTURES[case]
        texts = shown(picture)
        strings = [text.get_text() for text in texts]
        assert any(picture.champion in text for text in coloured(texts, drawing.ACCENT))
        everyone = {row.name for row in picture.rows} | {
            slot.name for matches in picture.rounds for m in matches for slot in (m.top, m.bottom) if slot.name
        }
        if LONG in everyone:
            assert LONG not in strings
            assert any(text.endswith("…") and LONG.startswith(text[:-1]) and len(text) > 6 for text in strings)
        if NO_GLYPH in everyone:
            assert picture.fallback in strings and not any("王" in text for text in strings)
        if picture.lang == "pl":
            assert "Łukasz Żółć" in strings or "★ Łukasz Żółć" in strings

    def test_standings(self) -> None:
        """The headings, every place and number; the champion's points in gold, a leaver's line muted."""
        picture = round_robin(6)
        texts = shown(picture)
        strings = [text.get_text() for text in texts]
        assert set(picture.columns) <= set(strings)
        assert {str(row.place) for row in picture.rows} <= set(strings)
        assert str(picture.rows[0].points) in coloured(texts, drawing.ACCENT)
        leaver = picture.rows[5]
        assert leaver.left and leaver.name in coloured(texts, drawing.MUTED)
        assert str(leaver.points) in coloured(texts, drawing.MUTED)

    def test_bracket(self) -> None:
        """The rounds' names, the bye label for each bye, the forfeit note, a loser muted, the champion's box."""
        picture = bracket_of_16()
        texts = shown(picture)
        strings = [text.get_text() for text in texts]
        assert set(picture.round_names) <= set(strings)
        assert strings.count(picture.bye) == 5
        assert "walkower" in strings
        assert "Igor" in coloured(texts, drawing.MUTED)  # lost to Ewa by forfeit
        assert f"★ {picture.champion}" in coloured(texts, drawing.ACCENT)

    def test_champion_of_no_glyph(self) -> None:
        """A champion whose name the font cannot draw is the fallback in the title line, their row and their box."""
        robin = round_robin(3)
        robin = replace(
            robin,
            champion=NO_GLYPH,
            subtitle=robin.subtitle.replace("Аня", NO_GLYPH),
            rows=(replace(robin.rows[0], name=NO_GLYPH), *robin.rows[1:]),
        )
        bracket = knockout([NO_GLYPH, "Борис", "Мария", "Ola", "Дмитрий", None, "Piotr", "Ewa"])
        for picture in (robin, bracket):
            assert_picture(picture)
            strings = [text.get_text() for text in texts_of(assert_layout(picture))]
            assert picture.subtitle.replace(NO_GLYPH, "Игрок") in strings
            assert "Игрок" in strings or "★ Игрок" in strings

    def test_deterministic(self) -> None:
        """The same picture gives the same bytes."""
        assert drawn(bracket_of_8()) == drawn(bracket_of_8())

    @pytest.mark.parametrize(("rows", "height"), [(3, 468), (4, 552), (5, 636), (6, 720)])
    def test_standings_size(self, rows: int, height: int) -> None:
        picture = replace(round_robin(6), rows=round_robin(6).rows[:rows])
        assert size_of(picture) == (1280, height)

    async def test_in_the_painter(self) -> None:
        """The painter's worker draws it."""
        painter = Painter()
        try:
            png = await painter.png(bracket_of_8())
        finally:
            await painter.close()
        assert png is not None
        assert image_of(png).size == SIZES["bracket-8"]


class TestDocsPictures:
    """docs/ shows a round robin's standings and a knockout's bracket, drawn by ``python -m
    tests.tournament_pictures``."""

    def test_valid(self) -> None:
        for path, picture in (
            (tournament_pictures.STANDINGS, tournament_pictures.standings()),
            (tournament_pictures.BRACKET, tournament_pictures.bracket()),
        ):
            with Image.open(path) as image:
                assert (image.format, image.size, image.mode) == ("PNG", size_of(picture), "RGB")

    def test_what_they_show(self) -> None:
        """Five players in the standings, eight in the bracket (every match of the first round played or
        forfeited), the champion first and last."""
        standings, bracket = tournament_pictures.standings(), tournament_pictures.bracket()
        assert len(standings.rows) == 5 and standings.rows[0].name == standings.champion
        assert [len(matches) for matches in bracket.rounds] == [4, 2, 1]
        assert all(slot.name for match in bracket.rounds[0] for slot in (match.top, match.bottom))
        assert _winners(bracket.rounds[-1]) == [bracket.champion]
        for picture in (standings, bracket):
            assert_layout(picture)
