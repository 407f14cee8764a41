"""The pictures drawn: RGB PNGs of their exact size, every glyph in the font, nothing overflowing, same bytes twice."""

from __future__ import annotations

import io
import warnings
from collections import deque
from dataclasses import replace

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.transforms import Bbox
from PIL import Image

from bot.models import Lang, Player
from bot.pictures import draw as drawing
from bot.pictures.cards import MatchCard, Moment, Picture, RatingChart, Side, size_of
from bot.pictures.draw import PIPS, draw, draw_domino, render, to_png
from tests import readme_pictures

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

LONG_RU = "Анастасия Александровна Ковалёва"
LONG_PL = "Grzegorz Brzęczyszczykiewicz-Żół"
WIDE = "Ш" * 32
"""The widest name there may be: 32 of a broad letter."""
CLAIM = ((6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0))


def card_ru() -> MatchCard:
    """A finished Bingo match in Russian, with three moments (bingo, a failed close, a claim of 7 doubles)."""
    return MatchCard(
        lang="ru",
        title="Бинго · классика",
        subtitle="Матч до 7 очков · 02.12.2026",
        sides=(Side("Аня", 7, True, "1517 (+17)"), Side(LONG_RU, 3, False, "1483 (−17)")),
        target=7,
        deals=((1, 0), (1, 2), (3, 2), (4, 2), (4, 3), (6, 3), (7, 3)),
        chart_title="Очки по сдачам",
        target_label="цель 7",
        moments=(
            Moment("bingo", 0, "Партия 2 · Аня", "бинго взяло козырный дубль", ((0, 0), (6, 6))),
            Moment("close", 1, f"Партия 4 · {LONG_RU}", "резерв закрыт, но 70 не набрано"),
            Moment("claim", 0, "Партия 6 · Аня", "объявлено 7 дублей", CLAIM),
        ),
        last_trick_title="Последняя взятка",
    )


def card_pl() -> MatchCard:
    """A finished match of 42 in Polish, with three moments (a bid of 42 made, a claim of 6 doubles, a failed
    close)."""
    return MatchCard(
        lang="pl",
        title="42 we dwoje · znaczniki",
        subtitle="Mecz do 7 znaczników · 02.12.2026 · Zażółć gęślą jaźń",
        sides=(Side(LONG_PL, 4, False, "1490 (−10)"), Side("Łukasz Żółć", 7, True, "1510 (+10)")),
        target=7,
        deals=((1, 0), (1, 1), (2, 1), (2, 3), (3, 3), (4, 3), (4, 5), (4, 7)),
        chart_title="Znaczniki po rozdaniach",
        target_label="cel 7",
        moments=(
            Moment("made42", 1, "Rozdanie 3 · Łukasz Żółć", "kontrakt 42 ugrany", ((6, 4), (5, 5), (3, 2))),
            Moment("claim", 1, "Rozdanie 5 · Łukasz Żółć", "zadeklarowano 6 dubletów", CLAIM[:6]),
            Moment("close", 0, f"Rozdanie 7 · {LONG_PL}", "talon zamknięty, ale bez 70 — Zażółć gęślą jaźń"),
        ),
        last_trick_title="Ostatnia lewa — ĄĆĘŁŃÓŚŹŻ",
    )


CARDS = {"ru": card_ru, "pl": card_pl}


def variants(card: MatchCard) -> dict[str, MatchCard]:
    """The card in each of its layouts."""
    return {
        "full": card,
        "one-moment": replace(card, moments=card.moments[:1]),
        "two-moments": replace(card, moments=card.moments[1:]),
        "bare": replace(card, deals=(), moments=()),
        "last-trick": replace(card, moments=(), last_trick=((6, 5), (5, 1))),
        "last-trick-no-deals": replace(card, deals=(), moments=(), last_trick=((0, 0), (4, 0))),
        "moments-no-deals": replace(card, deals=()),
        "one-deal-unrated": replace(
            card,
            deals=((0, 1),),
            sides=(replace(card.sides[0], rating=None), replace(card.sides[1], rating=None)),
        ),
        "wide-names": replace(
            card,
            sides=(replace(card.sides[0], name=WIDE, score=249), replace(card.sides[1], name=WIDE, score=250)),
            target=250,
            target_label=card.target_label.replace("7", "250"),
            deals=((120, 130), (249, 250)),
        ),
        "long-subtitle": replace(
            card,
            sides=(card.sides[0], replace(card.sides[1], name=WIDE)),
            subtitle=f"{WIDE} — {card.subtitle}",
        ),
        "tileless-moments": replace(
            card, moments=(replace(card.moments[0], tiles=()), replace(card.moments[2], tiles=()))
        ),
    }


CHART_NAMES = {"ru": "Аня", "pl": "Łukasz Żółć"}
CHART_FALLBACKS = {"ru": "Игрок", "pl": "Gracz"}


def chart(lang: str, count: int, name: str | None = None) -> RatingChart:
    """A rating chart of ``count`` values in ``lang``: wins and losses alternating in a fixed pattern."""
    won = tuple(index % 3 != 1 for index in range(count - 1))
    ratings = [1500]
    for index, win in enumerate(won):
        ratings.append(ratings[-1] + (8 + index % 7 if win else -(10 + index % 5)))
    title, summary, label = {
        "ru": ("{} · рейтинг в этом чате", "Сейчас {} · лучший {} · {} матчей", "матчи"),
        "pl": ("{} · ranking na tym czacie", "Teraz {} · najlepszy {} · {} meczów", "mecze"),
    }[lang]
    name = CHART_NAMES[lang] if name is None else name
    return RatingChart(
        lang=lang,
        title=title.format(name),
        ratings=tuple(ratings),
        won=won,
        match_label=label,
        summary=summary.format(ratings[-1], max(ratings), count - 1),
        name=name,
        fallback=CHART_FALLBACKS[lang],
    )


def drawn(picture: Picture) -> bytes:
    """The picture's PNG; any warning (a glyph missing from the font above all) fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return draw(picture)


def image_of(data: bytes) -> Image.Image:
    """The PNG opened, after checking its signature."""
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def assert_picture(picture: Picture) -> np.ndarray:
    """The picture is an opaque RGB PNG of its size, on the palette's background, not blank; its pixels."""
    image = image_of(drawn(picture))
    assert image.format == "PNG"
    assert image.size == size_of(picture)
    assert image.mode == "RGB"
    pixels = np.asarray(image)
    assert tuple(pixels[2, 2]) == rgb(drawing.BACKGROUND)
    packed = pixels.astype(np.uint32)
    colours = np.unique((packed[..., 0] << 16) | (packed[..., 1] << 8) | packed[..., 2])
    assert len(colours) > 200
    return pixels


def rgb(colour: str) -> tuple[int, int, int]:
    """A colour as 0..255 channels."""
    red, green, blue = (round(channel * 255) for channel in to_rgb(colour))
    return red, green, blue


def contrast(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two colours."""

    def luminance(colour: str) -> float:
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(colour)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def texts_of(figure: Figure) -> list[Text]:
    """Every text drawn on the figure: the canvas's and the charts' texts, axis labels, tick labels."""
    found: list[Text] = []
    for ax in figure.axes:
        found += ax.texts
        if not ax.axison:
            continue
        found += [ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels(), *ax.get_yticklabels()]
    return [text for text in found if text.get_visible() and text.get_text().strip()]


def assert_layout(picture: Picture) -> Figure:
    """Every text lies inside the picture and clear of every other text and of every domino; the figure."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figure = render(picture)
        canvas = figure.canvas
        assert isinstance(canvas, FigureCanvasAgg)
        # backend_agg has no type hints.
        canvas.draw()  # type: ignore[no-untyped-call]
        renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    width, height = size_of(picture)
    boxes = [(text.get_text(), text.get_window_extent(renderer)) for text in texts_of(figure)]
    for label, box in boxes:
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width and box.y1 <= height, (label, box)
    tiles = [patch.get_window_extent(renderer) for patch in figure.findobj(Patch) if patch.get_gid() == "domino"]
    for index, (label, box) in enumerate(boxes):
        inner = shrunk(box)
        for other_label, other in boxes[index + 1 :]:
            assert not inner.overlaps(shrunk(other)), (label, other_label)
        for tile in tiles:
            assert not inner.overlaps(tile), (label, tile)
    return figure


LEAST_PX = 30
"""No text on a picture is smaller, at 1280 px wide (a phone shows it about 360 px wide: 8.5 px)."""


def drawn_text_sizes(picture: Picture) -> list[tuple[str, float]]:
    """Every text the picture draws, with its size in pixels on a 1280 px wide picture (``text_sizes``)."""
    return text_sizes(render(picture))


def text_sizes(figure: Figure) -> list[tuple[str, float]]:
    """Every text the figure draws, with its size in pixels on a 1280 px wide picture: the strings the renderer
    is asked to draw, at the font size it is given (points * dpi / 72); every visible matplotlib ``Text`` of the
    figure is among them, at its own font size."""
    canvas = figure.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    scale = 1280 / (figure.get_figwidth() * figure.dpi)
    drawn: list[tuple[str, float]] = []
    draw_text = renderer.draw_text

    def recording(gc: object, x: float, y: float, text: str, prop: FontProperties, *args: object, **kw: object) -> None:
        drawn.append((text, prop.get_size_in_points() * renderer.dpi / 72 * scale))
        draw_text(gc, x, y, text, prop, *args, **kw)

    renderer.draw_text = recording
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        canvas.draw()  # type: ignore[no-untyped-call]
    artists = [
        (text.get_text(), float(text.get_fontsize()) * figure.dpi / 72 * scale)
        for text in figure.findobj(Text)
        if isinstance(text, Text) and text.get_visible() and text.get_text().strip()
    ]
    assert artists and all(artist in drawn for artist in artists), (artists, drawn)
    return drawn


def shrunk(box: Bbox) -> Bbox:
    """The box a pixel smaller on every side: texts that merely touch do not overlap."""
    return Bbox.from_extents(box.x0 + 1, box.y0 + 1, box.x1 - 1, box.y1 - 1)


CARD_CASES = [(lang, variant) for lang in CARDS for variant in variants(CARDS[lang]())]


class TestMatchCard:
    """The match card: every layout, in Russian and in Polish."""

    @pytest.mark.parametrize(("lang", "variant"), CARD_CASES, ids=[f"{lang}-{name}" for lang, name in CARD_CASES])
    def test_picture(self, lang: str, variant: str) -> None:
        """An opaque RGB PNG of CARD_SIZE, drawn without a warning, not blank."""
        assert_picture(variants(CARDS[lang]())[variant])

    @pytest.mark.parametrize(("lang", "variant"), CARD_CASES, ids=[f"{lang}-{name}" for lang, name in CARD_CASES])
    def test_layout(self, lang: str, variant: str) -> None:
        """No text leaves the picture, overlaps another or covers a domino."""
        assert_layout(variants(CARDS[lang]())[variant])

    @pytest.mark.parametrize("lang", CARDS)
    def test_deterministic(self, lang: str) -> None:
        """The same card gives the same bytes, however many pictures were drawn in between."""
        card = CARDS[lang]()
        first = drawn(card)
        drawn(chart(lang, 12))
        assert drawn(card) == first

    @pytest.mark.parametrize("lang", CARDS)
    def test_texts(self, lang: str) -> None:
        """The title, the names, the scores, the star and the moments' lines are on the card; a long name ends in
        "…" and its beginning is kept."""
        card = CARDS[lang]()
        shown = [text.get_text() for text in texts_of(render(card))]
        assert card.title in shown
        assert card.subtitle in shown
        assert "★" in shown
        assert {str(side.score) for side in card.sides} <= set(shown)
        short = next(side.name for side in card.sides if len(side.name) < 20)
        assert short in shown
        long = next(side.name for side in card.sides if len(side.name) == 32)
        cut = [text for text in shown if text.endswith("…") and long.startswith(text[:-1])]
        assert cut and len(cut[0]) > 10
        assert card.chart_title in shown
        assert card.target_label in " ".join(shown)

    @pytest.mark.parametrize("lang", CARDS)
    def test_names_and_scores_bigger(self, lang: str) -> None:
        """Each side's name (whole or shortened) and score are at least 36 px high (every text is at least 30:
        ``TestTextSizes``)."""
        card = CARDS[lang]()
        sizes = drawn_text_sizes(card)
        for side in card.sides:
            shortened = [label for label, _ in sizes if label[-1] == "…" and side.name.startswith(label[:-1])]
            name = [px for label, px in sizes if label in (side.name, *shortened)]
            score = [px for label, px in sizes if label == str(side.score)]
            assert name and max(name) >= 36 - 1e-6, side.name
            assert score and max(score) >= 36 - 1e-6, side.score

    @pytest.mark.parametrize("lang", CARDS)
    def test_tied_scores(self, lang: str) -> None:
        """Where both players have the same score, both markers show (before, the second hid the first): near each
        tied point, each seat's colour covers at least 40% of a marker (the lines lie on each other from deal 1 to
        4, so there only the markers can show the first player's colour)."""
        card = replace(CARDS[lang](), deals=((1, 1), (2, 2), (3, 3), (4, 4), (5, 4), (7, 4)))
        figure = render(card)
        pixels = np.asarray(image_of(to_png(figure)))
        chart_axes = figure.axes[1]
        least = 0.4 * np.pi * (16 / 2) ** 2
        for deal in (1, 2, 3, 4):
            x, y = chart_axes.transData.transform((deal, deal))
            column, row = round(float(x)), pixels.shape[0] - round(float(y))
            near = pixels[row - 25 : row + 26, column - 25 : column + 26]
            for colour in drawing.SEAT_COLOURS:
                assert np.all(near == rgb(colour), axis=2).sum() >= least, (deal, colour)

    def test_latest_moments(self) -> None:
        """Of more than MOMENTS moments, the latest are shown."""
        card = card_ru()
        extra = Moment("made42", 0, "Партия 1 · Аня", "самый первый момент")
        shown = [text.get_text() for text in texts_of(render(replace(card, moments=(extra, *card.moments))))]
        assert not any("первый" in text for text in shown)
        assert any("Партия 6" in text for text in shown)

    def test_wide_names(self) -> None:
        """Two 32-letter names of the widest letters are both shortened with "…" and fit beside their scores."""
        card = variants(card_ru())["wide-names"]
        shown = [text.get_text() for text in texts_of(assert_layout(card))]
        assert sum(text.startswith("ШШШ") and text.endswith("…") for text in shown) == 2

    def test_glyph_outside_the_font(self) -> None:
        """An emoji or a joiner in a name is dropped, not drawn as a box with a warning; "$" is not mathtext; a
        name the font draws a little of keeps that little, not the fallback."""
        sides = (Side("Аня 🎲\u200d✨", 7, True, fallback="Игрок 1"), Side("a$b $x_1$", 3, False, fallback="Игрок 2"))
        card = replace(card_ru(), sides=sides)
        assert_picture(card)
        shown = [text.get_text() for text in texts_of(render(card))]
        assert "Аня ✨" in shown or "Аня" in shown
        assert "a$b $x_1$" in shown
        assert not any("Игрок" in text for text in shown)

    @pytest.mark.parametrize("names", [("🎲🐉", "王伟"), ("王伟", "🎲\u200d✨"), ("🎲", "🎲")])
    def test_name_of_no_glyph(self, names: tuple[str, str]) -> None:
        """A name of only emoji or only CJK characters (nothing of it in DejaVu Sans) does not vanish: the card
        calls the player by their side's fallback on their side, in the subtitle and in their moments' headings
        (the right one of two players with the same name), drawn without a warning and clear of the rest."""
        first, second = names
        card = replace(
            card_ru(),
            subtitle=f"{second} сдаётся · 02.12.2026",
            sides=(
                Side(first, 7, True, "1517 (+17)", fallback="Игрок 1"),
                Side(second, 3, False, "1483 (−17)", fallback="Игрок 2"),
            ),
            moments=(
                Moment("bingo", 0, f"Партия 2 · {first}", "бинго взяло козырный дубль", ((0, 0), (6, 6))),
                Moment("claim", 1, f"Партия 6 · {second}", "объявлено 7 дублей", CLAIM),
            ),
        )
        assert_picture(card)
        shown = [text.get_text() for text in texts_of(assert_layout(card))]
        for text in ("Игрок 1", "Игрок 2", "Игрок 2 сдаётся · 02.12.2026", "Партия 2 · Игрок 1", "Партия 6 · Игрок 2"):
            assert text in shown, text

    @pytest.mark.parametrize("lang", CARDS)
    def test_chart_of_a_name_of_no_glyph(self, lang: str) -> None:
        """The rating chart of a player whose name the font cannot draw is titled with the fallback."""
        picture = chart(lang, 12, "王伟 🐉")
        assert_picture(picture)
        shown = [text.get_text() for text in texts_of(assert_layout(picture))]
        assert picture.title.replace("王伟 🐉", picture.fallback) in shown

    def test_missing_glyph_fails(self) -> None:
        """The check above would notice a missing glyph: matplotlib warns of it, and ``drawn`` makes that an error."""
        figure = Figure(figsize=(2, 1), dpi=100)
        FigureCanvasAgg(figure)
        figure.text(0.1, 0.5, "🎲", fontfamily="DejaVu Sans")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(UserWarning, match="missing from font"):
                to_png(figure)

    def test_palette_contrast(self) -> None:
        """Every text colour keeps a WCAG contrast of at least 4.5 on the table and on the panels."""
        for ground in (drawing.BACKGROUND, drawing.PANEL):
            for colour in (
                drawing.TEXT,
                drawing.MUTED,
                drawing.ACCENT,
                *drawing.SEAT_COLOURS,
                drawing.WIN,
                drawing.LOSS,
            ):
                assert contrast(colour, ground) >= 4.5, (colour, ground)
        assert contrast(drawing.INK, drawing.IVORY) >= 7


CHART_CASES = [(lang, count) for lang in CARDS for count in (2, 3, 12, 50)]


class TestRatingChart:
    """The rating chart: 2 to 50 values, in Russian and in Polish."""

    @pytest.mark.parametrize(("lang", "count"), CHART_CASES)
    def test_picture(self, lang: str, count: int) -> None:
        """An opaque RGB PNG of CHART_SIZE, with a marker in the win colour for wins and the loss colour for
        losses."""
        picture = chart(lang, count)
        pixels = assert_picture(picture)
        for colour, present in ((drawing.WIN, any(picture.won)), (drawing.LOSS, not all(picture.won))):
            assert bool(np.all(pixels == rgb(colour), axis=2).any()) == present

    @pytest.mark.parametrize(("lang", "count"), CHART_CASES)
    def test_layout(self, lang: str, count: int) -> None:
        """No text leaves the picture or overlaps another; the last value is written; ticks are whole matches."""
        picture = chart(lang, count)
        figure = assert_layout(picture)
        shown = [text.get_text() for text in texts_of(figure)]
        assert str(picture.ratings[-1]) in shown
        assert picture.title in shown
        assert picture.summary in shown
        chart_axes = figure.axes[1]
        ticks = chart_axes.get_xticks()
        assert all(float(tick).is_integer() and 0 <= tick <= count - 1 for tick in ticks)
        low, high = chart_axes.get_ylim()
        assert low < min(picture.ratings) and max(picture.ratings) < high

    @pytest.mark.parametrize("lang", CARDS)
    def test_long_name(self, lang: str) -> None:
        """A long name in the title is shortened with "…", and what follows it is kept."""
        picture = chart(lang, 12, WIDE)
        shown = [text.get_text() for text in texts_of(assert_layout(picture))]
        rest = picture.title.removeprefix(WIDE)
        (title,) = [text for text in shown if text.endswith(rest)]
        assert title.startswith("ШШШШШШ") and title.removesuffix(rest).endswith("…")

    @pytest.mark.parametrize("lang", CARDS)
    def test_deterministic(self, lang: str) -> None:
        """The same chart gives the same bytes."""
        assert drawn(chart(lang, 50)) == drawn(chart(lang, 50))


def domino_pixels(tile: tuple[int, int], *, vertical: bool, face_down: bool = False, y_down: bool = True) -> np.ndarray:
    """One domino of short side 60 drawn alone at the centre of a white picture, in axes of one unit a pixel."""
    width, height = (100, 160) if vertical else (160, 100)
    figure = Figure(figsize=(width / 100, height / 100), dpi=100)
    FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim((height, 0) if y_down else (0, height))
    ax.set_axis_off()
    draw_domino(ax, width / 2, height / 2, tile, size=60, vertical=vertical, face_down=face_down)
    return np.asarray(image_of(to_png(figure)))


def blobs(mask: np.ndarray) -> int:
    """How many 4-connected regions of True there are."""
    seen = np.zeros_like(mask)
    count = 0
    rows, columns = mask.shape
    for start in zip(*np.nonzero(mask), strict=True):
        if seen[start]:
            continue
        count += 1
        seen[start] = True
        queue = deque([start])
        while queue:
            row, column = queue.popleft()
            for near in ((row + 1, column), (row - 1, column), (row, column + 1), (row, column - 1)):
                if 0 <= near[0] < rows and 0 <= near[1] < columns and mask[near] and not seen[near]:
                    seen[near] = True
                    queue.append(near)
    return count


def ink(pixels: np.ndarray) -> np.ndarray:
    """Where the picture is about the colour of a domino's pips and border (not its back, not its shadow)."""
    return np.asarray(pixels.max(axis=2) < 90)


def pips_on_halves(pixels: np.ndarray, *, vertical: bool) -> tuple[int, int]:
    """The dark dots on the first (left or top) and second half of a domino drawn by ``domino_pixels``."""
    dark = ink(pixels)
    if vertical:
        dark = dark.T
    # The face without its border (6 px in) and without the dividing line (5 px either side of the middle).
    middle = dark.shape[1] // 2
    first = dark[26:74, 26 : middle - 5]
    second = dark[26:74, middle + 5 : 134]
    return blobs(first), blobs(second)


TILES = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 0)]


class TestDomino:
    """A domino: an ivory tile with a dividing line and the classic pips, or a plain back when face down."""

    def test_pip_patterns(self) -> None:
        """Each value 0..6 has that many pips, all different, laid out symmetrically about the half's centre."""
        for value, pips in PIPS.items():
            assert len(pips) == len(set(pips)) == value
            assert {(-u, -v) for u, v in pips} == set(pips)
            assert all(abs(u) <= 1 and abs(v) <= 1 for u, v in pips)

    @pytest.mark.parametrize("y_down", [True, False])
    @pytest.mark.parametrize("vertical", [False, True])
    @pytest.mark.parametrize("tile", TILES)
    def test_pips_drawn(self, tile: tuple[int, int], vertical: bool, y_down: bool) -> None:
        """The first value's pips are on the left (or top) half, the second's on the other, whichever way y runs."""
        pixels = domino_pixels(tile, vertical=vertical, y_down=y_down)
        assert pips_on_halves(pixels, vertical=vertical) == tile

    def test_divider_and_border(self) -> None:
        """A line crosses the middle of the face, and the border is dark all round."""
        pixels = domino_pixels((0, 0), vertical=False)
        dark = ink(pixels)
        assert dark[30:70, 78:82].any(axis=1).all()
        assert dark[50, 15:25].any() and dark[50, 135:145].any()
        assert dark[15:25, 80].any() and dark[75:85, 80].any()
        assert tuple(pixels[50, 50]) == rgb(drawing.IVORY)

    @pytest.mark.parametrize("vertical", [False, True])
    def test_face_down(self, vertical: bool) -> None:
        """A face-down domino shows its back colour and no pips, whatever tile it hides."""
        pixels = domino_pixels((6, 6), vertical=vertical, face_down=True)
        assert not np.all(pixels == rgb(drawing.IVORY), axis=2).any()
        assert np.all(pixels == rgb(drawing.BACK), axis=2).sum() > 1000
        assert pips_on_halves(pixels, vertical=vertical) == (0, 0)


SEEDED = [
    ("ru", "bingo", (readme_pictures.ANYA, readme_pictures.PIOTR), 7),
    ("pl", "42", (Player(id=1, name=LONG_PL), Player(id=2, name="Łukasz Żółć")), 3),
    ("ru", "bingo-classic", (Player(id=1, name=LONG_RU), Player(id=2, name=WIDE)), 11),
    ("pl", "bingo-domino", (Player(id=1, name=WIDE), Player(id=2, name="Ola")), 5),
]


class TestTextSizes:
    """No text on the card or the chart is under 30 px at 1280 px wide: measured on what matplotlib draws."""

    @pytest.mark.parametrize("lang", CARDS)
    def test_every_layout(self, lang: str) -> None:
        """Every layout of the card, and charts of 2 to 50 values."""
        pictures: list[Picture] = [*variants(CARDS[lang]()).values(), *(chart(lang, n) for n in (2, 3, 12, 50))]
        for picture in pictures:
            sizes = drawn_text_sizes(picture)
            assert min(px for _, px in sizes) >= LEAST_PX - 1e-6, min(sizes, key=lambda item: item[1])

    @pytest.mark.parametrize(
        ("lang", "preset", "players", "seed"), SEEDED, ids=[f"{lang}-{preset}" for lang, preset, _, _ in SEEDED]
    )
    async def test_seeded_matches(self, lang: Lang, preset: str, players: tuple[Player, Player], seed: int) -> None:
        """The card and the chart of seeded matches played through the service (long names among them): every
        text at least 30 px, none overlapping another or leaving the picture."""
        card, rating_chart = await readme_pictures.pictures(seed, lang=lang, preset=preset, players=players, matches=3)
        for picture in (card, rating_chart):
            sizes = drawn_text_sizes(picture)
            assert len(sizes) >= 8
            assert min(px for _, px in sizes) >= LEAST_PX - 1e-6, min(sizes, key=lambda item: item[1])
            assert_layout(picture)

    def test_measures_what_is_drawn(self) -> None:
        """The measure would see a smaller text: a tick label or a text set at 20 px is reported at 20 px, and
        still at 20 px on the figure drawn at half the dpi (the sizes are taken at 1280 px wide)."""
        figure = render(card_ru())
        figure.axes[1].tick_params(labelsize=20 * drawing.POINTS_PER_PIXEL)
        figure.axes[0].text(10, 10, "tiny", fontsize=20 * drawing.POINTS_PER_PIXEL)
        sizes = dict(text_sizes(figure))
        assert sizes["tiny"] == pytest.approx(20) and sizes["1"] == pytest.approx(20)
        figure.set_dpi(drawing.DPI / 2)
        assert dict(text_sizes(figure))["tiny"] == pytest.approx(20)
