"""What a picture shows, as plain data: every word already in the reader's language.

These values cross into the drawing process (``bot.pictures.painter``), so they
are small frozen dataclasses of strings and numbers (picklable, no aiogram, no
Fluent). ``bot.pictures.build`` makes them from a match and its result;
``bot.pictures.draw`` draws them with matplotlib (a tournament's in
``bot.pictures.standings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CARD_SIZE = (1280, 720)
"""The match card's size in pixels (width, height): Telegram shows a photo up to 1280 on its long side."""
CHART_SIZE = (1280, 640)
"""The rating chart's size in pixels."""
TOURNAMENT_WIDTH = 1280
STANDINGS_HEIGHTS = (216, 84)
"""A round robin's standings: this many pixels, plus this many for each row (six rows: 720)."""
BRACKET_HEIGHTS = (720, 216, 124)
"""A knockout's bracket: at least the first, else the second plus the third for each first-round match (eight
matches, a bracket of 16: 1208): room for a name and its score in each half of a match (40 px or so) and for a
note under each match."""

Domino = tuple[int, int]
"""A tile's two ends, high first (``(6, 4)`` is [6|4])."""
MomentKind = Literal["bingo", "claim", "close", "made42"]


@dataclass(frozen=True)
class Moment:
    """One moment worth remembering, with the tiles that made it."""

    kind: MomentKind
    """``bingo``: bingo took the trump double; ``claim``: a claim of 6 or 7 doubles scored; ``close``: a close
    that failed; ``made42``: a bid of 42 made."""
    seat: int
    """Whose moment: the heading has that side's name (shortened there first when the heading is too long)."""
    heading: str
    """Its deal and its player ("Партия 3 · Bob")."""
    text: str
    """What happened ("бинго взяло козырный дубль")."""
    tiles: tuple[Domino, ...] = ()
    """The dominoes drawn beside it (none for a failed close: it is drawn as a face-down tile)."""


@dataclass(frozen=True)
class Side:
    """One player on the card."""

    name: str
    score: int
    """Game points at the end."""
    winner: bool
    rating: str | None = None
    """The rating after the match and its change ("1517 (+17)"); None when the match was not rated."""
    fallback: str = ""
    """What the card calls the player if the font draws nothing of their name ("Игрок 1"): there and wherever
    the card writes it."""


@dataclass(frozen=True)
class MatchCard:
    """The picture posted when a match ends."""

    lang: str
    title: str
    """The game ("Бинго · классика")."""
    subtitle: str
    """How it ended and when ("Матч до 7 очков · 02.12.2026")."""
    sides: tuple[Side, Side]
    target: int
    deals: tuple[tuple[int, int], ...]
    """Each player's game points after each deal, in order (may be empty: no deal was finished)."""
    chart_title: str
    """The title over the deal-by-deal chart ("Очки по сдачам"): it names the horizontal axis too."""
    target_label: str
    """The target line's label ("цель 7")."""
    moments: tuple[Moment, ...] = ()
    """At most ``MOMENTS`` of them, oldest first."""
    last_trick_title: str = ""
    last_trick: tuple[Domino, Domino] | None = None
    """The match's last trick (lead, reply): shown where there are no moments."""


MOMENTS = 3
"""How many moments a card shows at most (the latest)."""


@dataclass(frozen=True)
class RatingChart:
    """The picture ``/stats`` adds: a player's rating over their last rated matches."""

    lang: str
    title: str
    """Whose and where ("Ann · рейтинг в этом чате")."""
    ratings: tuple[int, ...]
    """The rating before the first match shown, then after each match: at least two values."""
    won: tuple[bool, ...]
    """For each match shown, whether the player won it (one fewer than ``ratings``)."""
    match_label: str
    """The horizontal axis ("матчи")."""
    summary: str
    """The line under the title ("Сейчас 1517 · лучший 1540 · 12 матчей")."""
    name: str = ""
    """Whose, as the title has it (shortened there first when the title is too long)."""
    fallback: str = ""
    """What the title calls the player if the font draws nothing of their name ("Игрок")."""


@dataclass(frozen=True)
class StandingsRow:
    """One player's line in a round robin's final standings."""

    place: int
    """1-based."""
    name: str
    """Plain text (not HTML): the picture shortens a long one, and writes the picture's fallback for one of which
    the font draws nothing."""
    played: int
    wins: int
    losses: int
    points: int
    """Game points scored in the tournament."""
    left: bool = False
    """The player left the tournament: their line is drawn muted."""


@dataclass(frozen=True)
class BracketSlot:
    """One of a knockout match's two players."""

    name: str | None
    """None: a bye (nobody there), drawn as the picture's ``bye`` label."""
    score: int | None = None
    """Game points in that match; None when it was not played (a bye, a forfeit)."""
    won: bool = False


@dataclass(frozen=True)
class BracketMatch:
    """One match of a knockout."""

    top: BracketSlot
    bottom: BracketSlot
    note: str = ""
    """Written under the match when given ("неявка")."""


@dataclass(frozen=True)
class TournamentPicture:
    """The picture posted when a tournament's champion is announced: a round robin's final standings (``rows``),
    or a knockout's bracket (``rounds``)."""

    lang: str
    title: str
    """The tournament and its game ("Турнир · Бинго")."""
    subtitle: str
    """Who won, how many played, when ("Чемпион: Ann · 8 игроков · 3 декабря 2026")."""
    champion: str
    """The champion's name: their line or their path and their box are drawn in gold."""
    columns: tuple[str, ...] = ()
    """A round robin's column headings, five, short: player, played, wins, losses, points ("Игрок" … "Очки")."""
    rows: tuple[StandingsRow, ...] = ()
    """A round robin's standings, first place first (3 to 6 of them): when given, the picture is the standings."""
    rounds: tuple[tuple[BracketMatch, ...], ...] = ()
    """A knockout's rounds, the first first (4 or 8 matches: a bracket of 8 or 16), each next one half as many,
    the final last. Match ``i`` of a round is fed by matches ``2i`` and ``2i + 1`` of the round before."""
    round_names: tuple[str, ...] = ()
    """One heading per round ("1/4 финала", "Полуфинал", "Финал")."""
    bye: str = ""
    """What an empty slot of the bracket says ("—", "свободно")."""
    fallback: str = ""
    """What the picture calls a player of whose name the font draws nothing ("Игрок")."""


Picture = MatchCard | RatingChart | TournamentPicture


def size_of(picture: Picture) -> tuple[int, int]:
    """The picture's size in pixels."""
    if isinstance(picture, MatchCard):
        return CARD_SIZE
    if isinstance(picture, RatingChart):
        return CHART_SIZE
    if picture.rows:
        base, per_row = STANDINGS_HEIGHTS
        return TOURNAMENT_WIDTH, base + per_row * len(picture.rows)
    least, base, per_match = BRACKET_HEIGHTS
    first = len(picture.rounds[0]) if picture.rounds else 0
    return TOURNAMENT_WIDTH, max(least, base + per_match * first)
