"""The README's screens are what the bot renders now."""

from __future__ import annotations

from tests import readme_screens


class TestReadmeScreens:
    def test_current(self) -> None:
        """``python3 dev.py readme`` would change nothing (run it after changing a text or a screen)."""
        text = readme_screens.README.read_text(encoding="utf-8")
        assert readme_screens.updated(text) == text, "run: python3 dev.py readme"

    def test_one_table_and_one_panel_per_game_and_language(self) -> None:
        section = readme_screens.section()
        for title in (
            "**Бинго** (Russian)",
            "**Bingo** (Polish)",
            "**42 вдвоём** (Russian)",
            "**42 we dwóch** (Polish)",
        ):
            assert section.count(title) == 1
        assert section.count("```text") == 8
