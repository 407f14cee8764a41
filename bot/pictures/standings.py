"""Draws a tournament's picture (``TournamentPicture``): a round robin's final standings as a table, or a
knockout's bracket as columns of rounds joined by lines, the champion in gold in both.

It is drawn on the match card's page (``bot.pictures.draw``: its header, boxes, fonts, palette and the way a text
is shortened to fit), so the pictures look alike; ``draw.render`` calls ``tournament``. A name of which the font
draws nothing is written as the picture's fallback ("Игрок"); the champion is told by their name as given.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.pictures.cards import BracketMatch, BracketSlot, StandingsRow, TournamentPicture
from bot.pictures.draw import (
    ACCENT,
    BOTTOM_MARGIN,
    GRID,
    LINE_HEIGHT,
    MARGIN,
    MUTED,
    NAME_PX,
    POINTS_PER_PIXEL,
    STAR,
    TEXT,
    TEXT_PX,
    _clean,
    _Page,
)

# The standings: a line of column headings, then a box per player (STANDINGS_HEIGHTS in cards.py gives the
# picture ROW_PITCH pixels a row).
HEADINGS_BASELINE = 40
"""How far under the header the column headings' baseline is."""
ROWS_TOP = 58
"""How far under the header the first row starts."""
ROW_HEIGHT = 74
ROW_PITCH = 84
PLACE_WIDTH = 80
ROW_NAME_PX = 38
NUMBER_PX = 36
NUMBER_WIDTH = 110
"""The narrowest a number column is (wider for a long heading)."""

# The bracket: a column per round, a box per match with its two players (BRACKET_HEIGHTS in cards.py).
COLUMN_GAP = 44
"""Between two rounds' columns: where the lines that join them run."""
LABEL_ROOM = 50
"""Under the header, the rounds' names."""
NOTE_ROOM = TEXT_PX * LINE_HEIGHT + 7
"""Under each match, a line for its note and a gap before the next match."""
SLOT_MOST = 48
"""The tallest a player's half of a match gets."""
SLOT_PX = 34
"""The largest a name in the bracket is (never under TEXT_PX)."""
SLOT_PAD = 14
CHAMPION_HEIGHT = 84
CHAMPION_GAP = 40
"""Between the champion's box and the final under it."""
LINE_PX = 3


def tournament(page: _Page, picture: TournamentPicture) -> None:
    """Header (the champion's name shortened first if it must be), then the standings or the bracket."""
    title, subtitle = picture.title, picture.subtitle
    champion = _shown(picture.champion, picture.fallback)
    if picture.champion and champion != _clean(picture.champion):  # only emoji or CJK, say: "Игрок"
        title, subtitle = title.replace(picture.champion, champion), subtitle.replace(picture.champion, champion)
    top = page.header(title, subtitle, [champion])
    if picture.rows:
        _standings(page, picture, top)
    elif picture.rounds:
        _bracket(page, picture, top)


def _shown(name: str, fallback: str) -> str:
    """A name as the picture writes it: without what the font cannot draw, or the fallback if that is all."""
    return _clean(name) or _clean(fallback)


# --- the standings --------------------------------------------------------------------------------------------


def _standings(page: _Page, picture: TournamentPicture, top: float) -> None:
    """The column headings, then each player's row: place, name, games played, won and lost, points."""
    headings = [_clean(label) for label in (*picture.columns, "", "", "", "", "")[:5]]
    right: float = page.width - MARGIN - 12
    centres: list[float] = []
    widths: list[float] = []
    for index, heading in reversed(list(enumerate(headings[1:]))):
        values = [str(_numbers(row)[index]) for row in picture.rows]
        width = max(
            NUMBER_WIDTH,
            page.measure(heading, TEXT_PX, bold=True) + 24,
            *(page.measure(value, NUMBER_PX, bold=True) + 24 for value in values),
        )
        centres.insert(0, right - width / 2)
        widths.insert(0, width)
        right -= width
    name_x = MARGIN + PLACE_WIDTH
    baseline = top + HEADINGS_BASELINE
    player = page.fit(headings[0], right - name_x, TEXT_PX, bold=True)
    page.text(name_x, baseline, player, TEXT_PX, bold=True, colour=MUTED)
    for heading, centre, width in zip(headings[1:], centres, widths, strict=True):
        shown = page.fit(heading, width - 8, TEXT_PX, bold=True)
        page.text(centre, baseline, shown, TEXT_PX, bold=True, colour=MUTED, ha="center")
    for index, row in enumerate(picture.rows):
        champion = bool(picture.champion) and row.name == picture.champion
        row_top = top + ROWS_TOP + index * ROW_PITCH
        _standings_row(page, row, _shown(row.name, picture.fallback), champion, row_top, right - 16, centres)


def _numbers(row: StandingsRow) -> tuple[int, int, int, int]:
    return row.played, row.wins, row.losses, row.points


def _standings_row(
    page: _Page, row: StandingsRow, name: str, champion: bool, top: float, name_right: float, centres: Sequence[float]
) -> None:
    """One player's box: in gold with a star for the champion, muted for one who left."""
    page.box(MARGIN, top, page.width - 2 * MARGIN, ROW_HEIGHT, edge=ACCENT if champion else None)
    colour = MUTED if row.left else TEXT
    baseline = top + ROW_HEIGHT / 2 + ROW_NAME_PX * 0.36
    page.text(
        MARGIN + PLACE_WIDTH / 2,
        baseline,
        str(row.place),
        ROW_NAME_PX,
        bold=True,
        colour=ACCENT if champion else MUTED,
        ha="center",
    )
    x: float = MARGIN + PLACE_WIDTH
    if champion:
        page.text(x, baseline, STAR, ROW_NAME_PX, bold=True, colour=ACCENT)
        x += page.measure(STAR + " ", ROW_NAME_PX, bold=True)
    bold = not row.left
    name = page.fit(name, name_right - x, ROW_NAME_PX, bold=bold)
    page.text(x, baseline, name, ROW_NAME_PX, bold=bold, colour=ACCENT if champion else colour)
    for index, (value, centre) in enumerate(zip(_numbers(row), centres, strict=True)):
        points = index == 3
        page.text(
            centre,
            baseline,
            str(value),
            NUMBER_PX,
            bold=points and not row.left,
            colour=ACCENT if points and champion else colour,
            ha="center",
        )


# --- the bracket ----------------------------------------------------------------------------------------------


def _bracket(page: _Page, picture: TournamentPicture, top: float) -> None:
    """Each round's name over its column, its matches down the column, each match joined to the one its winner
    plays next; the champion's box over the final."""
    rounds = picture.rounds
    width = (page.width - 2 * MARGIN - (len(rounds) - 1) * COLUMN_GAP) / len(rounds)
    lefts = [MARGIN + index * (width + COLUMN_GAP) for index in range(len(rounds))]
    for left, name in zip(lefts, picture.round_names, strict=False):
        label = page.fit(_clean(name), width, TEXT_PX, bold=True)
        page.text(left + width / 2, top + 32, label, TEXT_PX, bold=True, colour=MUTED, ha="center")
    area_top = top + LABEL_ROOM
    pitch = (page.height - BOTTOM_MARGIN - area_top) / len(rounds[0])
    box_height = min(2 * SLOT_MOST, pitch - NOTE_ROOM)
    centres = _centres(rounds, area_top, pitch, box_height)
    for number in range(1, len(rounds)):
        _connectors(page, picture, number, centres, lefts, width)
    for matches, left, ys in zip(rounds, lefts, centres, strict=True):
        for match, centre in zip(matches, ys, strict=True):
            _match(page, picture, match, left, centre - box_height / 2, width, box_height, final=len(matches) == 1)
    if picture.champion:
        final_top = centres[-1][0] - box_height / 2
        _champion(page, picture, lefts[-1], final_top, width)


def _centres(
    rounds: Sequence[Sequence[BracketMatch]], area_top: float, pitch: float, box_height: float
) -> list[list[float]]:
    """Where each match's box is centred: the first round's one under another, each later match halfway between
    the two that feed it (evenly down the bracket where a round is not half the one before)."""
    slack = (pitch - box_height - NOTE_ROOM) / 2
    first = [area_top + index * pitch + slack + box_height / 2 for index in range(len(rounds[0]))]
    centres = [first]
    for matches in rounds[1:]:
        before = centres[-1]
        if len(before) == 2 * len(matches):
            centres.append([(before[2 * index] + before[2 * index + 1]) / 2 for index in range(len(matches))])
        else:
            span = first[-1] - first[0]
            step = span / len(matches)
            centres.append([first[0] + step * (index + 0.5) for index in range(len(matches))])
    return centres


def _connectors(
    page: _Page,
    picture: TournamentPicture,
    number: int,
    centres: Sequence[Sequence[float]],
    lefts: Sequence[float],
    width: float,
) -> None:
    """The lines from round ``number - 1``'s matches to the ones their winners play in round ``number``: gold along
    the champion's way."""
    before, here = picture.rounds[number - 1], picture.rounds[number]
    if len(before) != 2 * len(here):
        return
    start = lefts[number - 1] + width
    middle, end = start + COLUMN_GAP / 2, lefts[number]
    for index, match in enumerate(before):
        y, target = centres[number - 1][index], centres[number][index // 2]
        gold = bool(picture.champion) and _winner(match) == picture.champion
        page.ax.plot(
            [start, middle, middle, end],
            [y, y, target, target],
            color=ACCENT if gold else GRID,
            linewidth=LINE_PX * POINTS_PER_PIXEL,
            solid_joinstyle="round",
            zorder=1.5 if gold else 0.5,
        )


def _winner(match: BracketMatch) -> str | None:
    """The name of the match's winner, if it has one."""
    return next((slot.name for slot in (match.top, match.bottom) if slot.won), None)


def _match(
    page: _Page,
    picture: TournamentPicture,
    match: BracketMatch,
    left: float,
    top: float,
    width: float,
    height: float,
    *,
    final: bool,
) -> None:
    """A match's box (gold-framed for the final): its two players, a line between them, its note under it."""
    page.box(left, top, width, height, edge=ACCENT if final else None)
    middle = top + height / 2
    page.ax.plot(
        [left + SLOT_PAD, left + width - SLOT_PAD],
        [middle, middle],
        color=GRID,
        linewidth=2 * POINTS_PER_PIXEL,
        zorder=2,
    )
    decided = match.top.won or match.bottom.won
    px = max(TEXT_PX, min(SLOT_PX, height / 2 * 0.78))
    for index, slot in enumerate((match.top, match.bottom)):
        _slot(page, picture, slot, left, top + index * height / 2, width, height / 2, px, decided=decided)
    note = _clean(match.note)
    if note:
        baseline = top + height + TEXT_PX * 0.86
        page.text(left + SLOT_PAD, baseline, page.fit(note, width - SLOT_PAD, TEXT_PX), TEXT_PX, colour=MUTED)


def _slot(
    page: _Page,
    picture: TournamentPicture,
    slot: BracketSlot,
    left: float,
    top: float,
    width: float,
    height: float,
    px: float,
    *,
    decided: bool,
) -> None:
    """A player in a match: the name (bold for the winner, gold for the champion, muted for the loser) and the
    game points on the right; a bye is the ``bye`` label, muted."""
    baseline = top + height / 2 + px * 0.36
    x, right = left + SLOT_PAD, left + width - SLOT_PAD
    if slot.name is None:
        page.text(x, baseline, page.fit(_clean(picture.bye), right - x, px), px, colour=MUTED)
        return
    if slot.score is not None:
        score = str(slot.score)
        colour = ACCENT if slot.won else MUTED if decided else TEXT
        page.text(right, baseline, score, px, bold=slot.won, colour=colour, ha="right")
        right -= page.measure(score, px, bold=slot.won) + 12
    champion = bool(picture.champion) and slot.name == picture.champion
    colour = ACCENT if champion else MUTED if decided and not slot.won else TEXT
    name = page.fit(_shown(slot.name, picture.fallback), right - x, px, bold=slot.won)
    page.text(x, baseline, name, px, bold=slot.won, colour=colour)


def _champion(page: _Page, picture: TournamentPicture, left: float, final_top: float, width: float) -> None:
    """The champion's box over the final, joined to it by a gold line: a star and their name, in gold."""
    top = final_top - CHAMPION_GAP - CHAMPION_HEIGHT
    page.box(left, top, width, CHAMPION_HEIGHT, edge=ACCENT)
    centre = left + width / 2
    page.ax.plot(
        [centre, centre],
        [top + CHAMPION_HEIGHT, final_top],
        color=ACCENT,
        linewidth=LINE_PX * POINTS_PER_PIXEL,
        zorder=1.5,
    )
    # A long name first gets smaller (down to TEXT_PX), then loses its end.
    line = f"{STAR} {_shown(picture.champion, picture.fallback)}"
    room = width - 2 * SLOT_PAD
    px = max(TEXT_PX, min(NAME_PX, NAME_PX * room / page.measure(line, NAME_PX, bold=True)))
    line = page.fit(line, room, px, bold=True)
    page.text(centre, top + CHAMPION_HEIGHT / 2 + px * 0.36, line, px, bold=True, colour=ACCENT, ha="center")
