"""Draws a picture (``bot.pictures.cards``) with matplotlib: PNG bytes of exactly its size, RGB, no alpha.
A tournament's picture is drawn by ``bot.pictures.standings`` on this module's page.

Only matplotlib's object-oriented API is used (a ``Figure`` on its own ``FigureCanvasAgg``, never ``pyplot``):
nothing global is left behind, so a worker process may draw many pictures in a row. Every text is set in
DejaVu Sans (bundled with matplotlib, it covers Cyrillic and Polish); a character it has no glyph for (an emoji in
a name) is dropped rather than drawn as a box, and a name of which nothing is left (only emoji or CJK characters)
is replaced by its fallback from the locale ("Игрок 1"). Sizes are in pixels: the figure is drawn at ``DPI`` and a
canvas axes spans it with one data unit per pixel, y growing downwards.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import cache
from typing import Any, Literal

import matplotlib as mpl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont
from matplotlib.ft2font import FT2Font
from matplotlib.patches import Circle, FancyBboxPatch, Patch
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import offset_copy
from PIL import Image

from bot.pictures.cards import MOMENTS, Domino, MatchCard, Moment, Picture, RatingChart, Side, size_of

# The palette: a dark green domino table, ivory text, a gold accent. Every text colour keeps a WCAG contrast
# ratio of at least 4.5 against BACKGROUND and PANEL (tests/bot/test_pictures_draw.py checks it).
BACKGROUND = "#0F3A2E"
"""The table: the picture's opaque background."""
PANEL = "#174A3C"
"""The boxes on the table: the sides, the chart, the moments."""
TEXT = "#F7F3E8"
"""Names, scores, titles."""
MUTED = "#AFC9BC"
"""Subtitles, ratings, section titles, axis labels and ticks."""
ACCENT = "#F5C451"
"""The winner (star, frame, score) and the target line; the rating line."""
GRID = "#2E6353"
"""Grid lines and the chart's axes: not text, so no contrast asked of it."""
SEAT_COLOURS = ("#6CC6F7", "#FF9C7A")
"""The two players' lines in the deal-by-deal chart and the stripes that tie them to their boxes."""
SEAT_MARKERS = ("o", "D")
"""Their markers too differ, for readers who do not tell the two colours apart."""
MARKER_HALF_WIDTHS = {"o": 0.5, "D": math.sqrt(0.5)}
"""How far each marker reaches left and right of its point, in marker sizes (matplotlib's diamond is a unit
square turned by 45°)."""
WIN = "#86E08E"
"""A won match in the rating chart (an upward triangle)."""
LOSS = "#FF9494"
"""A lost match (a downward triangle)."""
IVORY = "#FBF7EC"
"""A domino's face."""
INK = "#23211E"
"""A domino's border, dividing line and pips."""
BACK = "#8C2F3E"
"""A face-down domino's back."""

FONT = "DejaVu Sans"
DPI = 100
POINTS_PER_PIXEL = 72 / DPI

# Text sizes in pixels (the em): a phone shows the 1280 px picture about 360 px wide, so big; no text is under
# TEXT_PX (about 8.5 px on that phone).
TITLE_PX = 46
NAME_PX = 40
MIN_NAME_PX = 36
SCORE_PX = 84
TEXT_PX = 30
"""The subtitle, the section titles, a rating, a moment's line, the target, the axes' labels and ticks."""
LAST_PX = 32
LINE_HEIGHT = 1.25
"""A wrapped line's height, in ems."""
MOMENT_LINES = 3
"""The most lines a moment takes: its heading, then what happened (the last line ends in "…" if it must)."""
MARGIN = 40
BOTTOM_MARGIN = 32
GAP = 16
ELLIPSIS = "…"
NAME_KEPT = 6
"""The fewest characters of a name that a title shortening it keeps."""
DOMINO_GID = "domino"
"""The ``gid`` of every domino's tile patch (so a test can find where the dominoes are)."""
STAR = "★"

HAlign = Literal["left", "center", "right"]
VAlign = Literal["baseline", "bottom", "center", "center_baseline", "top"]


def draw(picture: Picture) -> bytes:
    """The picture as PNG bytes, exactly size_of(picture) pixels, RGB (no alpha)."""
    with _style():
        figure = render(picture)
        return to_png(figure)


def render(picture: Picture) -> Figure:
    """The picture drawn on a new figure (on its own Agg canvas), not yet rasterised: ``draw`` makes it a PNG."""
    with _style():
        page = _Page(size_of(picture))
        if isinstance(picture, MatchCard):
            _match_card(page, picture)
        elif isinstance(picture, RatingChart):
            _rating_chart(page, picture)
        else:
            # Imported here: the tournament's drawing is built on this module's page and palette.
            from bot.pictures.standings import tournament

            tournament(page, picture)
        return page.figure


# --- dominoes -------------------------------------------------------------------------------------------------

# Where the pips of 0..6 sit in a square half, as offsets from its centre in units of the pip step; ``u`` runs
# along the domino's long side, ``v`` across it (so a six's two rows of three run along the tile).
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),
}


def draw_domino(
    ax: Axes,
    x: float,
    y: float,
    tile: Domino,
    *,
    size: float,
    vertical: bool = False,
    face_down: bool = False,
    zorder: float = 3,
) -> None:
    """Draw a domino centred at (x, y): ``size`` is its short side in data units (its long side is twice that).

    The axes must have the same data scale along x and y (as the pixel canvas has); the domino does not change
    their limits. ``tile[0]`` is on the left
    half, or the top half of a vertical domino. A face-down domino shows its back, with no pips.
    """
    long, short = 2 * size, size
    width, height = (short, long) if vertical else (long, short)
    # The border's width in points: 4.5% of the short side, at least 1.5 pixels.
    pixels = size * _pixels_per_unit(ax)
    edge = max(1.5, pixels * 0.045) * 72 / ax.figure.dpi
    # A soft shadow a little below and to the right, then the tile.
    down = 1 if ax.yaxis_inverted() else -1
    shadow = size * 0.06
    ax.add_artist(
        _rounded(
            x - width / 2 + shadow,
            y - height / 2 + down * shadow,
            width,
            height,
            size * 0.14,
            facecolor="#000000",
            alpha=0.28,
            linewidth=0,
            zorder=zorder,
        )
    )
    ax.add_artist(
        _rounded(
            x - width / 2,
            y - height / 2,
            width,
            height,
            size * 0.14,
            facecolor=BACK if face_down else IVORY,
            edgecolor=INK,
            linewidth=edge,
            zorder=zorder + 0.1,
            gid=DOMINO_GID,
        )
    )
    if face_down:
        inset = size * 0.13
        ax.add_artist(
            _rounded(
                x - width / 2 + inset,
                y - height / 2 + inset,
                width - 2 * inset,
                height - 2 * inset,
                size * 0.08,
                facecolor="none",
                edgecolor=ACCENT,
                linewidth=edge * 0.8,
                zorder=zorder + 0.2,
            )
        )
        diamond = size * 0.22
        ax.fill(
            [x - diamond, x, x + diamond, x],
            [y, y - diamond, y, y + diamond],
            facecolor=ACCENT,
            edgecolor="none",
            zorder=zorder + 0.2,
        )
        return
    inset = size * 0.12
    if vertical:
        ax.plot(
            [x - width / 2 + inset, x + width / 2 - inset],
            [y, y],
            color=INK,
            linewidth=edge,
            solid_capstyle="round",
            zorder=zorder + 0.2,
        )
    else:
        ax.plot(
            [x, x],
            [y - height / 2 + inset, y + height / 2 - inset],
            color=INK,
            linewidth=edge,
            solid_capstyle="round",
            zorder=zorder + 0.2,
        )
    step = size * 0.26
    radius = size * 0.085
    pips: list[Patch] = []
    for half, value in enumerate(tile):
        sign = -1 if half == 0 else 1
        for u, v in PIPS[value]:
            if vertical:
                # The first half is the top one, whichever way the y axis runs.
                cx, cy = x + v * step, y + sign * down * size / 2 + u * step
            else:
                cx, cy = x + sign * size / 2 + u * step, y + v * step
            pips.append(Circle((cx, cy), radius))
    ax.add_collection(PatchCollection(pips, facecolor=INK, edgecolor="none", zorder=zorder + 0.3), autolim=False)


def _rounded(x: float, y: float, width: float, height: float, radius: float, **style: Any) -> FancyBboxPatch:
    """A rounded rectangle from (x, y) to (x + width, y + height) in data units, its corners rounded by ``radius``."""
    return FancyBboxPatch(
        (x + radius, y + radius),
        width - 2 * radius,
        height - 2 * radius,
        boxstyle=f"round,pad={radius}",
        mutation_aspect=1,
        **style,
    )


def _pixels_per_unit(ax: Axes) -> float:
    """How many pixels one data unit along x spans (1 on the pixel canvas)."""
    x0, x1 = ax.get_xlim()
    return float(ax.bbox.width / abs(x1 - x0)) if x1 != x0 else 1.0


# --- the match card -------------------------------------------------------------------------------------------


def _match_card(page: _Page, card: MatchCard) -> None:
    """Header; the sides and the deal-by-deal chart; the moments or the last trick below."""
    card = _named(card)
    width, height = page.width, page.height
    middle_top = page.header(card.title, card.subtitle, [side.name for side in card.sides])
    bottom = height - BOTTOM_MARGIN
    if card.moments:
        band_top = _moments(page, card.moments[-MOMENTS:], [side.name for side in card.sides], bottom)
    elif card.last_trick is not None:
        band_top = _last_trick(page, card.last_trick_title, card.last_trick, bottom)
    else:
        band_top = bottom + GAP
    middle_bottom = band_top - GAP
    if card.deals:
        column = 560
        box_height = (middle_bottom - middle_top - GAP) / 2
        for seat, side in enumerate(card.sides):
            top = middle_top + seat * (box_height + GAP)
            _side(page, side, seat, MARGIN, top, column, box_height)
        left = MARGIN + column + GAP
        _deals_chart(page, card, left, middle_top, width - MARGIN - left, middle_bottom - middle_top)
    else:
        box_width = (width - 2 * MARGIN - GAP) / 2
        box_height = min(200.0, middle_bottom - middle_top)
        top = (middle_top + middle_bottom - box_height) / 2
        for seat, side in enumerate(card.sides):
            _side(page, side, seat, MARGIN + seat * (box_width + GAP), top, box_width, box_height)


def _named(card: MatchCard) -> MatchCard:
    """The card with a player of whose name the font draws nothing (only emoji or CJK characters, say) called by
    their fallback ("Игрок 1") wherever the card writes the name: their side, the subtitle, their moments."""
    unnamed = [seat for seat, side in enumerate(card.sides) if not _clean(side.name) and side.fallback]
    if not unnamed:
        return card
    subtitle, moments = card.subtitle, list(card.moments)
    # The subtitle names the loser, if anyone: theirs first (two players may have the same name).
    for seat in sorted(unnamed, key=lambda seat: card.sides[seat].winner):
        name, fallback = card.sides[seat].name, card.sides[seat].fallback
        if name:
            subtitle = subtitle.replace(name, fallback, 1)
            moments = [replace(m, heading=m.heading.replace(name, fallback)) if m.seat == seat else m for m in moments]
    first, second = (replace(s, name=s.fallback) if seat in unnamed else s for seat, s in enumerate(card.sides))
    return replace(card, sides=(first, second), subtitle=subtitle, moments=tuple(moments))


def _side(page: _Page, side: Side, seat: int, left: float, top: float, width: float, height: float) -> None:
    """One player's box: a stripe with a bead in their seat colour and marker (as in the chart), the star if they
    won, the name, the rating, the score; all a little bigger in a tall box."""
    page.box(left, top, width, height, edge=ACCENT if side.winner else None)
    scale = 1.15 if height >= 180 else 1.0
    name_px, label_px = NAME_PX * scale, TEXT_PX * scale
    colour = SEAT_COLOURS[seat]
    rating = _clean(side.rating) if side.rating is not None else ""
    name_baseline = top + height / 2 + name_px * 0.36 - (label_px * 0.72 if rating else 0)
    stripe_x = left + 26
    page.ax.plot(
        [stripe_x, stripe_x],
        [top + 18, top + height - 18],
        color=colour,
        linewidth=6 * POINTS_PER_PIXEL,
        solid_capstyle="round",
        zorder=2,
    )
    page.ax.plot(
        [stripe_x],
        [name_baseline - name_px * 0.36],
        marker=SEAT_MARKERS[seat],
        markersize=22 * scale * POINTS_PER_PIXEL,
        color=colour,
        markeredgecolor=PANEL,
        markeredgewidth=4 * POINTS_PER_PIXEL,
        zorder=3,
        linestyle="none",
    )
    score = str(side.score)
    right = left + width - 28
    score_px = min(SCORE_PX * scale * scale, height * 0.7)
    score_px *= min(1.0, width * 0.3 / page.measure(score, score_px, bold=True))
    score_width = page.measure(score, score_px, bold=True)
    page.text(
        right,
        top + height / 2 + score_px * 0.36,
        score,
        score_px,
        bold=True,
        colour=ACCENT if side.winner else TEXT,
        ha="right",
    )
    x = stripe_x + 28
    room = right - score_width - 24 - x
    # The rating starts under the star (the name after it): a winner's rating has the room of anyone's.
    if rating:
        page.text(x, name_baseline + label_px * 1.5, page.fit(rating, room, label_px), label_px, colour=MUTED)
    if side.winner:
        page.text(x, name_baseline, STAR, name_px, bold=True, colour=ACCENT)
        star = page.measure(STAR + " ", name_px, bold=True)
        x += star
        room -= star
    name = _clean(side.name)
    # A long name first gets a little smaller (never under MIN_NAME_PX), then loses its end.
    if page.measure(name, name_px, bold=True) > room:
        name_px = max(MIN_NAME_PX, name_px * 0.9)
    page.text(x, name_baseline, page.fit(name, room, name_px, bold=True), name_px, bold=True)


def _deals_chart(page: _Page, card: MatchCard, left: float, top: float, width: float, height: float) -> None:
    """Each player's game points after each deal, with the target as a dashed line. The title says what the
    horizontal axis counts (the deals), so it has no label of its own: the room goes to the lines."""
    page.box(left, top, width, height)
    page.text(
        left + 22,
        top + 18 + TEXT_PX * 0.76,
        page.fit(_clean(card.chart_title), width - 44, TEXT_PX, bold=True),
        TEXT_PX,
        bold=True,
        colour=MUTED,
    )
    deals = len(card.deals)
    top_value = max([card.target, *(score for deal in card.deals for score in deal)])
    # The y ticks' labels on the left of the axes, the x ticks' under it (after the ticks and their pad).
    ax_left = 22 + page.measure(str(top_value), TEXT_PX) + 16
    ax_top, ax_bottom = 62, 12 + TEXT_PX * LINE_HEIGHT + 20
    ax_width, ax_height = width - ax_left - 26, height - ax_top - ax_bottom
    ax = page.axes(left + ax_left, top + ax_top, ax_width, ax_height)
    # Both lines start at 0 before the first deal: that point has no marker and no tick.
    xs = list(range(deals + 1))
    ax.set_xlim(0, deals + 0.35)
    # Room over the target line for its label.
    label_room = TEXT_PX * LINE_HEIGHT + 4
    ceiling = max(top_value * 1.12 + 0.3, card.target * ax_height / max(1.0, ax_height - label_room))
    ax.set_ylim(0, ceiling)
    _integer_ticks(ax, "x", 1, deals, max(1, min(8, int(ax_width // 64))))
    _integer_ticks(ax, "y", 0, top_value, max(1, min(4, int(ax_height // (TEXT_PX * 1.4)))))
    ax.axhline(card.target, color=ACCENT, linewidth=3 * POINTS_PER_PIXEL, linestyle=(0, (4, 3)), alpha=0.9, zorder=1)
    ax.text(
        0.015,
        card.target,
        " " + page.fit(_clean(card.target_label), ax_width - 20, TEXT_PX, bold=True),
        transform=ax.get_yaxis_transform(),
        va="bottom",
        ha="left",
        color=ACCENT,
        zorder=4,
        **page.style(TEXT_PX, bold=True),
    )
    marker = 16 if deals <= 12 else 11
    # Where both have the same score one marker would hide the other: there the two stand side by side, touching
    # at the point, the first player's on the left (each shifted by its half-width and its edge).
    tied = [number for number, (first, second) in enumerate(card.deals, start=1) if first == second]
    for seat in range(2):
        size = marker * (0.9 if seat else 1)
        style: dict[str, Any] = {
            "color": SEAT_COLOURS[seat],
            "marker": SEAT_MARKERS[seat],
            "markersize": size * POINTS_PER_PIXEL,
            "markeredgecolor": PANEL,
            "markeredgewidth": 2 * POINTS_PER_PIXEL,
            "clip_on": False,
        }
        scores = [0, *(deal[seat] for deal in card.deals)]
        shown = [number for number in range(1, deals + 1) if number not in tied]
        ax.plot(xs, scores, linewidth=4 * POINTS_PER_PIXEL, markevery=shown, zorder=3 + seat, **style)
        if tied:
            half_width = size * (MARKER_HALF_WIDTHS[SEAT_MARKERS[seat]]) + 1
            shift = offset_copy(ax.transData, fig=page.figure, x=half_width if seat else -half_width, units="dots")
            ax.plot(tied, [scores[number] for number in tied], linestyle="none", transform=shift, zorder=5, **style)


def _integer_ticks(ax: Axes, axis: Literal["x", "y"], low: int, high: int, most: int) -> None:
    """At most about ``most`` whole-number ticks on the axis, none outside low..high."""
    locator = MaxNLocator(nbins=max(1, min(most, high - low)), steps=[1, 2, 4, 5, 10], integer=True, min_n_ticks=1)
    values = locator.tick_values(low, high)
    ticks = [round(float(value)) for value in values if low - 1e-9 <= value <= high + 1e-9]
    (ax.set_xticks if axis == "x" else ax.set_yticks)(ticks)


def _moments(page: _Page, moments: Sequence[Moment], names: Sequence[str], bottom: float) -> float:
    """The band of moments at the bottom, each in a box of its own: its dominoes, its heading (the deal and the
    player, on one line) and what happened (at most ``MOMENT_LINES`` - 1 lines); where the band starts. The boxes
    are as tall as the longest text needs; under three lines the dominoes are a little smaller."""
    width = page.width - 2 * MARGIN
    count = len(moments)
    box_width = (width - (count - 1) * GAP) / count
    padding = 18
    tiles = [_tiles_of(moment) for moment in moments]
    most = max(1, *(len(row) for row in tiles))
    size = min(44.0, (box_width - 2 * padding) / (most + (most - 1) * 0.22))
    beside = box_width - size * (1 + (most - 1) * 1.22) - 3 * padding >= 340
    line_height = TEXT_PX * LINE_HEIGHT
    texts: list[list[tuple[str, str]]] = []
    for moment, row in zip(moments, tiles, strict=True):
        # Beside the dominoes (centred on them, or on the box when there are none), else under them.
        own_width = size * (1 + (len(row) - 1) * 1.22)
        text_width = box_width - (3 * padding + own_width if row and beside else 2 * padding)
        heading = page.fit_named(_clean(moment.heading), [_clean(names[moment.seat])], text_width, TEXT_PX)
        lines = page.wrap(_clean(moment.text), text_width, TEXT_PX, MOMENT_LINES - 1)
        texts.append([(heading, MUTED), *((line, TEXT) for line in lines)])
    lines_needed = max(len(rows) for rows in texts)
    if not beside and lines_needed >= MOMENT_LINES:
        size = min(size, 34.0)
    step = size * 1.22
    if beside:
        box_height = 2 * padding + max(2 * size, lines_needed * line_height)
    else:
        box_height = 2 * padding + 2 * size + 12 + lines_needed * line_height
    top = bottom - box_height
    for index, (row, rows) in enumerate(zip(tiles, texts, strict=True)):
        left = MARGIN + index * (box_width + GAP)
        page.box(left, top, box_width, box_height)
        centre_y = top + box_height / 2 if beside else top + padding + size
        for number, (tile, face_down) in enumerate(row):
            draw_domino(
                page.ax,
                left + padding + size / 2 + number * step,
                centre_y,
                tile,
                size=size,
                vertical=True,
                face_down=face_down,
            )
        text_left = left + (2 * padding + size + (len(row) - 1) * step if row and beside else padding)
        if beside:
            first = centre_y - (len(rows) - 1) * line_height / 2 + TEXT_PX * 0.36
        else:
            first = top + padding + (2 * size + 12 if row else 0) + TEXT_PX * 0.8
        for number, (line, colour) in enumerate(rows):
            page.text(text_left, first + number * line_height, line, TEXT_PX, colour=colour)
    return top


def _tiles_of(moment: Moment) -> list[tuple[Domino, bool]]:
    """The dominoes a moment shows, each with whether it lies face down: a failed close shows one first."""
    row = [(tile, False) for tile in moment.tiles]
    return [((0, 0), True), *row] if moment.kind == "close" else row


def _last_trick(page: _Page, title: str, trick: tuple[Domino, Domino], bottom: float) -> float:
    """The band of the last trick at the bottom: its title, then the lead and the reply; where the band starts."""
    size = 54.0
    padding = 22
    arrow = 70
    box_width = 2 * padding + 2 * (2 * size) + arrow
    box_height = 2 * padding + size
    boxes_top = bottom - box_height
    top = boxes_top - TEXT_PX - 14
    page.text(
        MARGIN,
        top + TEXT_PX * 0.76,
        page.fit(_clean(title), page.width - 2 * MARGIN, TEXT_PX, bold=True),
        TEXT_PX,
        bold=True,
        colour=MUTED,
    )
    page.box(MARGIN, boxes_top, box_width, box_height)
    centre_y = boxes_top + box_height / 2
    lead_x = MARGIN + padding + size
    page.text(lead_x + size + arrow / 2, centre_y, "→", NAME_PX, colour=MUTED, ha="center", va="center_baseline")
    draw_domino(page.ax, lead_x, centre_y, trick[0], size=size)
    draw_domino(page.ax, lead_x + 2 * size + arrow, centre_y, trick[1], size=size)
    return top


# --- the rating chart -----------------------------------------------------------------------------------------


def _rating_chart(page: _Page, chart: RatingChart) -> None:
    """Header, then the rating after each match: ▲ a win, ▼ a loss, the last value written beside it."""
    if chart.name and chart.fallback and not _clean(chart.name):  # only emoji or CJK, say: "Игрок"
        chart = replace(chart, title=chart.title.replace(chart.name, chart.fallback), name=chart.fallback)
    top = page.header(chart.title, chart.summary, [chart.name])
    left, bottom = MARGIN, page.height - BOTTOM_MARGIN
    width = page.width - 2 * MARGIN
    page.box(left, top, width, bottom - top)
    ratings = list(chart.ratings)
    count = len(ratings) - 1
    last = str(ratings[-1])
    label_width = page.measure(last, LAST_PX, bold=True)
    marker_px = 26 if count <= 15 else 18 if count <= 30 else 14
    low, high = min(ratings), max(ratings)
    pad = max((high - low) * 0.18, 8.0)
    # The y ticks' labels on the left of the axes; the x ticks' and the axis label under it.
    widest = max(page.measure(str(value), TEXT_PX) for value in (math.floor(low - pad), math.ceil(high + pad)))
    ax_left, ax_width = left + 22 + widest + 16, width - 22 - widest - 16 - 30
    ax = page.axes(ax_left, top + 28, ax_width, bottom - top - 28 - (24 + 2 * TEXT_PX * LINE_HEIGHT + 12))
    ax.set_ylim(low - pad, high + pad)
    # Room on the right for the last value's label: its width in data units, plus a gap.
    right_room = (label_width + marker_px / 2 + 30) / ax_width
    span = count + 0.3
    ax.set_xlim(-0.3, count + span * right_room / (1 - right_room) + 0.1)
    _integer_ticks(ax, "x", 0, count, 10)
    _integer_ticks(ax, "y", math.ceil(low - pad), math.floor(high + pad), 5)
    xs = list(range(count + 1))
    ax.fill_between(xs, ratings, low - pad, color=TEXT, alpha=0.05, linewidth=0, zorder=1)
    ax.plot(
        xs,
        ratings,
        color=ACCENT,
        linewidth=(4 if count <= 20 else 3.5) * POINTS_PER_PIXEL,
        zorder=2,
        solid_joinstyle="round",
    )
    marker = marker_px * POINTS_PER_PIXEL
    ax.plot(
        [0],
        [ratings[0]],
        marker="o",
        markersize=marker * 0.8,
        color=MUTED,
        markeredgecolor=PANEL,
        linestyle="none",
        zorder=3,
        clip_on=False,
    )
    for won, symbol, colour in ((True, "^", WIN), (False, "v", LOSS)):
        points = [(x, ratings[x]) for x in range(1, count + 1) if chart.won[x - 1] == won]
        if points:
            ax.plot(
                [x for x, _ in points],
                [y for _, y in points],
                marker=symbol,
                markersize=marker,
                color=colour,
                markeredgecolor=PANEL,
                markeredgewidth=1.2,
                linestyle="none",
                zorder=3,
                clip_on=False,
            )
    ax.annotate(
        last,
        (count, ratings[-1]),
        xytext=(marker_px / 2 + 12, 0),
        textcoords="offset pixels",
        va="center_baseline",
        ha="left",
        color=TEXT,
        annotation_clip=False,
        zorder=4,
        **page.style(LAST_PX, bold=True),
    )
    ax.set_xlabel(
        page.fit(_clean(chart.match_label), ax_width, TEXT_PX), color=MUTED, labelpad=8, **page.style(TEXT_PX)
    )


# --- the page -------------------------------------------------------------------------------------------------


class _Page:
    """A figure of the picture's size with a canvas axes in pixels (y down), and text measured on its renderer."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.width, self.height = size
        self.figure = Figure(figsize=(self.width / DPI, self.height / DPI), dpi=DPI, facecolor=BACKGROUND)
        self.canvas = FigureCanvasAgg(self.figure)
        # backend_agg has no type hints: its few calls here are marked.
        self.renderer: RendererAgg = self.canvas.get_renderer()  # type: ignore[no-untyped-call]
        ax = self.figure.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, self.width)
        ax.set_ylim(self.height, 0)
        ax.set_axis_off()
        self.ax = ax

    def header(self, title: str, subtitle: str, names: Sequence[str] = ()) -> float:
        """The title and the line under it at the top, a name in them shortened first; where the content below
        starts."""
        width = self.width - 2 * MARGIN
        names = [_clean(name) for name in names]
        title = self.fit_named(_clean(title), names, width, TITLE_PX, bold=True)
        self.text(MARGIN, 68, title, TITLE_PX, bold=True)
        self.text(MARGIN, 110, self.fit_named(_clean(subtitle), names, width, TEXT_PX), TEXT_PX, colour=MUTED)
        return 134

    def box(self, left: float, top: float, width: float, height: float, *, edge: str | None = None) -> None:
        """A rounded panel on the table; framed in ``edge`` when given."""
        self.ax.add_artist(
            _rounded(
                left,
                top,
                width,
                height,
                14,
                facecolor=PANEL,
                edgecolor=edge or PANEL,
                linewidth=3 * POINTS_PER_PIXEL if edge else 0,
                zorder=1,
            )
        )

    def axes(self, left: float, top: float, width: float, height: float) -> Axes:
        """A chart's axes at this place in pixels, styled in the palette."""
        ax = self.figure.add_axes(
            (left / self.width, 1 - (top + height) / self.height, width / self.width, height / self.height)
        )
        ax.set_facecolor("none")
        for name, spine in ax.spines.items():
            spine.set_visible(name in ("left", "bottom"))
            spine.set_color(GRID)
            spine.set_linewidth(2 * POINTS_PER_PIXEL)
        ax.tick_params(
            colors=GRID,
            labelcolor=MUTED,
            labelsize=TEXT_PX * POINTS_PER_PIXEL,
            labelfontfamily=FONT,
            length=6,
            width=2 * POINTS_PER_PIXEL,
            pad=6,
        )
        ax.grid(True, axis="y", color=GRID, linewidth=1.5 * POINTS_PER_PIXEL, alpha=0.8)
        ax.set_axisbelow(True)
        return ax

    def style(self, px: float, *, bold: bool = False) -> dict[str, Any]:
        """The keywords that set a text matplotlib makes (an axis label) in DejaVu Sans at ``px`` pixels, no math."""
        return {"fontproperties": self.font(px, bold=bold), "parse_math": False}

    def font(self, px: float, *, bold: bool = False) -> FontProperties:
        """DejaVu Sans at ``px`` pixels."""
        return FontProperties(family=FONT, size=px * POINTS_PER_PIXEL, weight="bold" if bold else "normal")

    def text(
        self,
        x: float,
        y: float,
        text: str,
        px: float,
        *,
        bold: bool = False,
        colour: str = TEXT,
        ha: HAlign = "left",
        va: VAlign = "baseline",
    ) -> Text:
        """A line of text at (x, y) in pixels; ``y`` is its baseline unless ``va`` says otherwise."""
        return self.ax.text(x, y, text, color=colour, ha=ha, va=va, zorder=5, **self.style(px, bold=bold))

    def measure(self, text: str, px: float, *, bold: bool = False) -> float:
        """How wide ``text`` is in pixels."""
        if not text:
            return 0.0
        font = self.font(px, bold=bold)
        width, _, _ = self.renderer.get_text_width_height_descent(text, font, ismath=False)  # type: ignore[no-untyped-call]
        return float(width)

    def fit(self, text: str, width: float, px: float, *, bold: bool = False) -> str:
        """``text``, or its longest beginning followed by "…" that is at most ``width`` pixels wide."""
        if self.measure(text, px, bold=bold) <= width:
            return text
        low, high = 0, len(text)
        while low < high:
            middle = (low + high + 1) // 2
            if self.measure(text[:middle].rstrip() + ELLIPSIS, px, bold=bold) <= width:
                low = middle
            else:
                high = middle - 1
        return text[:low].rstrip() + ELLIPSIS

    def fit_named(self, text: str, names: Sequence[str], width: float, px: float, *, bold: bool = False) -> str:
        """``text`` at most ``width`` pixels wide: the first of ``names`` in it shortened with "…" (to no fewer
        than ``NAME_KEPT`` characters) before the text's end is cut (a title keeps "· рейтинг в этом чате")."""
        if self.measure(text, px, bold=bold) > width:
            for name in names:
                head, found, tail = text.partition(name)
                if not found or len(name) <= NAME_KEPT:
                    continue
                low, high = NAME_KEPT, len(name) - 1
                while low < high:
                    middle = (low + high + 1) // 2
                    if self.measure(head + name[:middle].rstrip() + ELLIPSIS + tail, px, bold=bold) <= width:
                        low = middle
                    else:
                        high = middle - 1
                text = head + name[:low].rstrip() + ELLIPSIS + tail
                break
        return self.fit(text, width, px, bold=bold)

    def wrap(self, text: str, width: float, px: float, lines: int) -> list[str]:
        """``text`` in at most ``lines`` lines of at most ``width`` pixels; the last one shortened with "…"."""
        result: list[str] = []
        words = text.split()
        while words and len(result) < lines:
            line = words.pop(0)
            while words and self.measure(f"{line} {words[0]}", px) <= width:
                line = f"{line} {words.pop(0)}"
            if len(result) == lines - 1 and words:
                line = self.fit(f"{line} {' '.join(words)}", width, px)
                words = []
            result.append(self.fit(line, width, px))
        return result


def to_png(figure: Figure) -> bytes:
    """The figure (on an Agg canvas) rasterised as an RGB PNG: no alpha, no metadata, the same bytes each time."""
    canvas = figure.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    canvas.draw()  # type: ignore[no-untyped-call]
    width, height = canvas.get_width_height(physical=True)
    pixels = canvas.buffer_rgba()  # type: ignore[no-untyped-call]
    image = Image.frombuffer("RGBA", (width, height), pixels, "raw", "RGBA", 0, 1).convert("RGB")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


@contextmanager
def _style() -> Iterator[None]:
    """matplotlib's settings for the drawing, restored afterwards: DejaVu Sans, no mathtext, no TeX."""
    with mpl.rc_context(
        {
            "font.family": "sans-serif",
            "font.sans-serif": [FONT],
            "text.usetex": False,
            "text.parse_math": False,
            "axes.unicode_minus": True,
            "svg.fonttype": "path",
        }
    ):
        yield


@cache
def _glyphs() -> frozenset[int]:
    """The characters both DejaVu Sans and DejaVu Sans Bold have a glyph for."""
    covered: set[int] | None = None
    for weight in ("normal", "bold"):
        path = findfont(FontProperties(family=FONT, weight=weight), fallback_to_default=False)
        charmap = set(FT2Font(path).get_charmap())
        covered = charmap if covered is None else covered & charmap
    assert covered is not None
    return frozenset(covered)


def _clean(text: str) -> str:
    """``text`` on one line with only characters the font draws: an emoji, a joiner, a variation selector or a
    control is dropped."""
    glyphs = _glyphs()
    kept = "".join(
        " " if char.isspace() else char
        for char in text
        if char.isspace() or (ord(char) in glyphs and not _invisible(char))
    )
    return " ".join(kept.split())


def _invisible(char: str) -> bool:
    """A format or control character, or a variation selector: nothing to draw."""
    return unicodedata.category(char)[0] == "C" or 0xFE00 <= ord(char) <= 0xFE0F or 0xE0100 <= ord(char) <= 0xE01EF
