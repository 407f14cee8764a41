"""The Russian and Polish locales: the same messages, every one renders, plural forms are right."""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fluent.syntax import ast

from bot import keyboards
from bot.games import PRESETS
from bot.i18n import LOCALES, I18n
from bot.models import LANGS, ChatSettings, Lang
from bot.routers.settings import CLOCKS, settings_keyboard
from engine import BingoRules, Deal
from tests.engine.helpers import deal_from
from tests.wording import PLURAL_CATEGORIES as PLURAL_KEYS
from tests.wording import Variables, parse
from tests.wording import variables as message_variables

NUMERIC_NAMES = {
    "best", "bid", "cost", "d", "deal", "gap", "lost", "me", "min", "mine", "pa", "pb", "played", "points", "rank",
    "rate", "rating", "rl", "rw", "sa", "sb", "sl", "streak", "sw", "ta", "tb", "theirs", "them", "threshold", "tm",
    "tt", "won",
}  # fmt: skip
"""Variables that read as numbers without being a selector (scores, counts, ratings)."""


@cache
def i18n() -> I18n:
    return I18n()


@cache
def messages(lang: Lang) -> dict[str, ast.Message]:
    """Every message of a locale's files, by id."""
    return parse(Path(path).read_text(encoding="utf-8") for path in sorted((LOCALES / lang).glob("*.ftl")))


def variables(lang: Lang, message_id: str) -> Variables:
    """The variables of a message and of the messages it refers to (which format with the same arguments)."""
    return message_variables(messages(lang), message_id)


def samples(found: Variables) -> dict[str, list[Any]]:
    """Values to render with: each selector key, a few plural numbers, a number or a word otherwise."""
    values: dict[str, list[Any]] = {}
    for name in sorted(found.names):
        keys = found.keys.get(name, [])
        if keys and all(isinstance(k, int) or k in PLURAL_KEYS for k in keys):
            values[name] = sorted({k for k in keys if isinstance(k, int)} | {1, 2, 5, 21})
        elif keys:
            values[name] = list(dict.fromkeys(str(k) for k in keys))
        elif name in NUMERIC_NAMES:
            values[name] = [3]
        else:
            values[name] = [f"«{name}»"]
    return values


class TestMessageIds:
    """Both locales have exactly the same messages."""

    def test_same_ids(self) -> None:
        """No message is missing from either locale."""
        ru, pl = i18n()["ru"].ids, i18n()["pl"].ids
        assert sorted(ru - pl) == [] and sorted(pl - ru) == []

    def test_ids_are_the_parsed_messages(self) -> None:
        """The translator knows every message of the files, nothing more."""
        for lang in LANGS:
            assert i18n()[lang].ids == set(messages(lang))


MAY_BE_EMPTY = {"claim-name"}
"""Messages that say nothing in some branches (a count of doubles without a name of its own)."""
MESSAGES = sorted((lang, message_id) for lang in LANGS for message_id in messages(lang))


class TestEveryMessageRenders:
    """Each message formats without an error, in every branch of its selectors."""

    @pytest.mark.parametrize(("lang", "message_id"), MESSAGES, ids=[f"{lang}:{mid}" for lang, mid in MESSAGES])
    def test_renders(self, lang: Lang, message_id: str) -> None:
        """Each variable in turn takes each of its sample values, the others their first."""
        tr = i18n()[lang]
        values = samples(variables(lang, message_id))
        base = {name: options[0] for name, options in values.items()}
        runs = [base] + [{**base, name: value} for name, options in values.items() for value in options[1:]]
        for args in runs:
            text = tr(message_id, **args)
            assert text.strip() or message_id in MAY_BE_EMPTY, f"{lang}:{message_id} renders empty with {args}"

    def test_same_variables(self) -> None:
        """A message reads the same variables in both locales (the code passes one set of arguments)."""
        differ = {
            mid: (sorted(variables("ru", mid).names), sorted(variables("pl", mid).names))
            for mid in sorted(set(messages("ru")) & set(messages("pl")))
            if variables("ru", mid).names != variables("pl", mid).names
        }
        assert differ == {}


PLURALS: list[tuple[Lang, str, tuple[str, ...]]] = [
    ("ru", "points", ("очко", "очка", "очков", "очко", "очка", "очков")),
    (
        "ru",
        "game-points",
        (
            "зачётное очко",
            "зачётных очка",
            "зачётных очков",
            "зачётное очко",
            "зачётных очка",
            "зачётных очков",
        ),
    ),
    ("ru", "doubles", ("дубль", "дубля", "дублей", "дубль", "дубля", "дублей")),
    ("ru", "tiles", ("камень", "камня", "камней", "камень", "камня", "камней")),
    ("ru", "wins", ("победа", "победы", "побед", "победа", "победы", "побед")),
    ("ru", "losses", ("поражение", "поражения", "поражений", "поражение", "поражения", "поражений")),
    ("pl", "wins", ("wygrana", "wygrane", "wygranych", "wygranych", "wygrane", "wygranych")),
    ("pl", "losses", ("przegrana", "przegrane", "przegranych", "przegranych", "przegrane", "przegranych")),
    ("pl", "points", ("punkt", "punkty", "punktów", "punktów", "punkty", "punktów")),
    (
        "pl",
        "game-points",
        ("duży punkt", "duże punkty", "dużych punktów", "dużych punktów", "duże punkty", "dużych punktów"),
    ),
    ("pl", "doubles", ("dublet", "dublety", "dubletów", "dubletów", "dublety", "dubletów")),
    ("pl", "tiles", ("kamień", "kamienie", "kamieni", "kamieni", "kamienie", "kamieni")),
]
COUNTS = (1, 2, 5, 21, 22, 25)
DURATIONS: list[tuple[Lang, str, str, tuple[str, ...]]] = [
    ("ru", "duration", "m", ("минута", "минуты", "минут", "минута", "минуты", "минут")),
    ("ru", "duration-acc", "m", ("минуту", "минуты", "минут", "минуту", "минуты", "минут")),
    ("ru", "duration-acc", "s", ("секунду", "секунды", "секунд", "секунду", "секунды", "секунд")),
    ("ru", "duration-acc", "h", ("час", "часа", "часов", "час", "часа", "часов")),
    ("pl", "duration", "h", ("godzina", "godziny", "godzin", "godzin", "godziny", "godzin")),
    ("pl", "duration-acc", "h", ("godzinę", "godziny", "godzin", "godzin", "godziny", "godzin")),
    ("pl", "duration-acc", "m", ("minutę", "minuty", "minut", "minut", "minuty", "minut")),
    ("pl", "duration-acc", "s", ("sekundę", "sekundy", "sekund", "sekund", "sekundy", "sekund")),
]


class TestPlurals:
    """Words with numbers take the form the language wants for 1, 2, 5, 21, 22 and 25."""

    @pytest.mark.parametrize(("lang", "message_id", "forms"), PLURALS, ids=[f"{p[0]}:{p[1]}" for p in PLURALS])
    def test_forms(self, lang: Lang, message_id: str, forms: tuple[str, ...]) -> None:
        """``{n} {word}`` with the right form of the word for each count."""
        tr = i18n()[lang]
        assert [tr(message_id, n=n) for n in COUNTS] == [f"{n} {form}" for n, form in zip(COUNTS, forms, strict=True)]

    @pytest.mark.parametrize(
        ("lang", "message_id", "unit", "forms"), DURATIONS, ids=[f"{d[0]}:{d[1]}:{d[2]}" for d in DURATIONS]
    )
    def test_durations(self, lang: Lang, message_id: str, unit: str, forms: tuple[str, ...]) -> None:
        """A span of time in the nominative (after a colon) and in the accusative (after «через», «za»...)."""
        tr = i18n()[lang]
        rendered = [tr(message_id, unit=unit, n=n) for n in COUNTS]
        assert rendered == [f"{n} {form}" for n, form in zip(COUNTS, forms, strict=True)]


class TestNumbers:
    """Fluent formats a number for the bundle's own locale (Babel): Russian and Polish write a decimal comma."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_decimal_comma(self, lang: Lang) -> None:
        tr = i18n()[lang]
        assert "12,3%" in tr("hint-toast", move="[6|6]", why="…", chance=55, gap=12.3)
        assert "0,1%" in tr("review-line", number=1, where="…", played="[6|6]", best="[5|5]", cost=0.1)
        assert "5,0%" in tr("review-line", number=1, where="…", played="[6|6]", best="[5|5]", cost=5)


class TestTranslatorShortcuts:
    """The translator's shortcuts (texts remembered, plain messages filled without Fluent) give Fluent's text."""

    @pytest.mark.parametrize(("lang", "message_id"), MESSAGES, ids=[f"{lang}:{mid}" for lang, mid in MESSAGES])
    def test_as_fluent(self, lang: Lang, message_id: str) -> None:
        tr = i18n()[lang]
        values = samples(variables(lang, message_id))
        numbers = [0, 7, 999, 1000, 12345, -4, 2.5]
        runs = [{name: options[0] for name, options in values.items()}]
        runs += [{name: n for name in values} for n in numbers]
        runs += [{name: f"<b>{name}</b> & {n}" for name in values} for n in numbers[:2]]
        for args in runs:
            try:
                expected = tr._format(message_id, args)
            except Exception as error:  # Fluent refuses (a selector given a word): so must the shortcut
                with pytest.raises(type(error)):
                    tr(message_id, **args)
                continue
            assert tr(message_id, **args) == expected
            assert tr(message_id, **args) == expected  # remembered


BUTTON_LIMIT = 32
"""Characters a button's text may have: a phone cuts a longer one."""
DOUBLES = ("66", "55", "44", "33", "22", "11", "00")
SINGLES = tuple(f"{a}{b}" for a in range(7) for b in range(a))


def claim_deal(preset: str, doubles: int, with_bingo: bool) -> Deal:
    """A Bingo deal whose first player leads, holding ``doubles`` doubles (the bingo among them or not)."""
    held = ("00", *DOUBLES[: doubles - 1]) if with_bingo else DOUBLES[:doubles]
    hand = [*held, *SINGLES[: 7 - doubles]]
    rest = [t for t in DOUBLES + SINGLES if t not in hand]
    return deal_from(preset, (" ".join(hand), " ".join(rest[:7])), " ".join(rest[7:]))


def worst_arguments(lang: Lang) -> dict[str, list[Any]]:
    """The values a button's variable takes, the longest among them: a tile (all are five characters), each
    suit, each count of doubles, and what every claim of every Bingo preset is worth."""
    tr = i18n()[lang]
    claims = {
        rules.claim_value(n, with_bingo)
        for rules in PRESETS.values()
        if isinstance(rules, BingoRules)
        for n in range(2, 8)
        for with_bingo in (False, True)
    }
    values = sorted(tr("claim-value", gp=gp, n=gp or pts) for pts, gp in claims)
    return {"tile": ["[6|6]"], "suit": list(range(7)), "n": list(range(2, 8)), "value": values}


BUTTON_MESSAGES = sorted((lang, mid) for lang in LANGS for mid in messages(lang) if mid.startswith("btn-"))


class TestButtonWidth:
    """No button says more than ``BUTTON_LIMIT`` characters, in either language, with the longest words it
    can show (7 doubles, the largest claim, the longest preset, the ✓ of a chosen setting)."""

    @pytest.mark.parametrize(
        ("lang", "message_id"), BUTTON_MESSAGES, ids=[f"{lang}:{mid}" for lang, mid in BUTTON_MESSAGES]
    )
    def test_button_messages(self, lang: Lang, message_id: str) -> None:
        """Every ``btn-`` message, with each combination of its arguments' values."""
        worst = worst_arguments(lang)
        names = sorted(variables(lang, message_id).names)
        missing = [name for name in names if name not in worst]
        assert not missing, f"{lang}:{message_id}: add the longest values of {missing} to worst_arguments"
        for combination in itertools.product(*(worst[name] for name in names)):
            text = i18n()[lang](message_id, **dict(zip(names, combination, strict=True)))
            assert len(text) <= BUTTON_LIMIT, f"{lang}:{message_id}: {text!r} has {len(text)} characters"

    @pytest.mark.parametrize("lang", LANGS)
    def test_claim_buttons(self, lang: Lang) -> None:
        """The panel of a player on lead with 2 to 7 doubles, the bingo among them or not, in each Bingo preset."""
        tr = i18n()[lang]
        texts, claimable = [], 0
        for preset, rules in sorted(PRESETS.items()):
            if not isinstance(rules, BingoRules):
                continue
            for doubles, with_bingo in itertools.product(range(2, 8), (False, True)):
                if doubles == 7 and not with_bingo:
                    continue
                rows = keyboards.panel_rows(tr, "m", 1, claim_deal(preset, doubles, with_bingo).view(0)) or []
                texts += [button["text"] for row in rows for button in row]
                claimable += doubles  # a claim button for each double it may lead
        assert sum("📣" in text for text in texts) == claimable
        assert [text for text in texts if len(text) > BUTTON_LIMIT] == []

    @pytest.mark.parametrize("lang", LANGS)
    def test_settings_menu(self, lang: Lang) -> None:
        """Every button of /settings, each one ticked in turn: every game, preset, target, clock and language."""
        tr = i18n()[lang]
        texts = set()
        for preset, target, clock, chosen in itertools.product(
            PRESETS, (None, 7, 8), [c for row in CLOCKS for c in row], LANGS
        ):
            settings = ChatSettings(lang=chosen, preset=preset, target=target, turn_timeout=clock)
            markup = settings_keyboard(tr, settings, 600)
            texts |= {button.text for row in markup.inline_keyboard for button in row}
        assert any(text.startswith("✓ ") for text in texts)
        assert [text for text in sorted(texts) if len(text) > BUTTON_LIMIT] == []
