"""The screens of docs/playing.md are what the bot renders now; the README shows the pictures the bot draws."""

from __future__ import annotations

import itertools
import re

from PIL import Image

from bot.config import Settings
from bot.i18n import I18n
from bot.models import LANGS
from bot.pictures.cards import CARD_SIZE, CHART_SIZE
from tests import readme_pictures, readme_screens

README = readme_screens.ROOT / "README.md"


class TestReadmeScreens:
    def test_current(self) -> None:
        """``python3 dev.py readme`` would change nothing (run it after changing a text or a screen)."""
        text = readme_screens.PAGE.read_text(encoding="utf-8")
        assert readme_screens.updated(text) == text, "run: python3 dev.py readme"

    def test_one_table_and_one_panel_per_game_and_language(self) -> None:
        section = readme_screens.section()
        i18n = I18n()
        for lang, preset in itertools.product(LANGS, ("bingo", "42")):
            title = f"**{i18n[lang](f'preset-{preset}')}** ({readme_screens.LANG_NAMES[lang]})"
            assert section.count(title) == 1, title
        assert section.count("```text") == 9  # and the one message of a match against the computer in private


class TestReadmePictures:
    """The README shows one match card and one rating chart, drawn by ``python3 dev.py pictures``."""

    def test_shown_and_valid(self) -> None:
        text = README.read_text(encoding="utf-8")
        for path, size in ((readme_pictures.CARD, CARD_SIZE), (readme_pictures.CHART, CHART_SIZE)):
            assert f"]({path.relative_to(README.parent)})" in text
            with Image.open(path) as image:
                assert (image.format, image.size, image.mode) == ("PNG", size, "RGB")

    async def test_from_seeded_matches(self) -> None:
        """The script's matches give a card with a moment and a chart of every match."""
        card, chart = await readme_pictures.pictures()
        assert card.moments and len(card.deals) >= 2 and any(side.winner for side in card.sides)
        assert len(chart.ratings) == readme_pictures.MATCHES + 1


class TestReadmeSettings:
    """The README's settings table lists every setting the bot reads, with its default."""

    def test_every_setting(self) -> None:
        text = README.read_text(encoding="utf-8")
        rows = {
            line.split("|")[1].strip().strip("`"): line.split("|")[2].strip()
            for line in text.splitlines()
            if line.startswith("| `")
        }
        for name, field in Settings.model_fields.items():
            assert name.upper() in rows, f"{name.upper()} is missing from the README's settings table"
            shown = rows[name.upper()]
            if field.is_required():
                assert shown == "(required)"
            elif field.default is None:
                assert shown == "unset"
            else:
                default = str(field.default).lower() if isinstance(field.default, bool) else str(field.default)
                assert shown.startswith(f"`{default}`"), f"{name.upper()}: {shown} is not {default}"

    def test_same_settings_same_words(self) -> None:
        """The table has the settings of ``bot/config.py``, in its order, each described in the same words as its
        docstring (``--help`` prints), the README's code marks and links aside."""
        text = README.read_text(encoding="utf-8")
        table = text.split("## Settings", 1)[1].split("\n## ", 1)[0]
        rows = [line.split("|") for line in table.splitlines() if line.startswith("| `")]
        assert [r[1].strip().strip("`") for r in rows] == [name.upper() for name in Settings.model_fields]
        for row, (name, field) in zip(rows, Settings.model_fields.items(), strict=True):
            assert plain(row[3]) == plain(field.description or ""), f"{name.upper()}: the README and the code differ"


def plain(words: str) -> str:
    """Words as a reader reads them: no Markdown code marks, links as their text, one space between words."""
    words = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", words).replace("`", "")
    return " ".join(words.split()).strip()
