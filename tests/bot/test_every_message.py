"""Every message of both locales, rendered with sample arguments, reads right.

The arguments come from the variables each message reads (found in its Fluent syntax tree, with those of the
messages it refers to) and a table of sample values per variable name: players of both genders, the numbers 1,
2, 5, 21 and 1.5, spans of time from a minute to a day, every key a selector chooses on. A message with a
variable the table does not know fails, so a new message cannot skip the checks. Each rendering must format
without a Fluent error, write no decimal point (ru and pl write «12,3»), put no span of time in the nominative
after «через», «за», «на» or «za», «przez», «na», and be HTML Telegram accepts; and both languages must have the
same messages. ``TestPlanted`` shows that each check fails on a planted fault.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

import pytest
from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast

from bot import render, review_text
from bot.i18n import LOCALES, I18n, Translator
from bot.models import LANGS, Lang
from tests.wording import (
    decimal_points,
    html_faults,
    missing_ids,
    nominative_durations,
    parse,
    uncovered_keys,
    unknown_variables,
    variables,
)

Sampler = Callable[[Translator], tuple[Any, ...]]

NAMES = {"ru": ("Аня", "Иван"), "pl": ("Ola", "Piotr")}
"""Players of both genders: a name stands in the nominative, so the text around it must not agree with it."""
NUMBERS = (1, 2, 5, 21, 1.5)
"""Each plural category of both languages, and a fraction (written «1,5»)."""
SECONDS = (45, 60, 120, 300, 3600, 7200, 86400, 82860)
"""Spans of time: seconds, one and more minutes, hours, a day, and 23 hours that once read «1381 минута»."""
DATES = ("02.12.2026", "02.12")
"""Dates as the bot writes them (a dot between digits that is no decimal point)."""
MOVES = ("66*", "X", "I", "H", "B31", "P", "T4", "43")
"""Moves of every kind, as the post-mortem and the hints name them."""


def names(tr: Translator) -> tuple[Any, ...]:
    return NAMES[tr.lang]


def numbers(tr: Translator) -> tuple[Any, ...]:
    return NUMBERS


def durations(tr: Translator) -> tuple[Any, ...]:
    return tuple(render.duration(tr, s) for s in SECONDS)


def moves(tr: Translator) -> tuple[Any, ...]:
    return tuple(review_text.move_text(tr, m) for m in MOVES)


def fixed(*values: Any) -> Sampler:
    """The same samples in both languages (a selector's keys among them: a key no sample chooses fails)."""
    return lambda tr: values


def deal_points(tr: Translator) -> tuple[Any, ...]:
    return (*NUMBERS, "6/30", tr("points", n=20))


PLAYERS = ("a", "b", "name", "creator", "opponent", "winner", "loser", "leader", "other")
"""Variables that carry a player's name (``name`` also a word a user typed, which a refusal repeats)."""
COUNTS = (
    "accuracy", "bid", "chance", "cost", "d", "deal", "deals", "decisions", "gap", "goal", "lost", "me", "min",
    "mine", "number", "place", "points", "rank", "rate", "rating", "rl", "rw", "sa", "sb", "sl", "step", "steps",
    "streak", "sw", "ta", "tb", "target", "theirs", "them", "threshold", "tm", "trail", "trick", "tt", "won",
)  # fmt: skip
"""Variables that carry a plain number: counts, scores, ratings, places, shares."""
SAMPLES: dict[str, Sampler] = {
    **dict.fromkeys(PLAYERS, names),
    **dict.fromkeys(COUNTS, numbers),
    "n": lambda tr: (*NUMBERS, 3, 4, 6, 7),  # a count, and the doubles a claim's name chooses on
    "seat": fixed(1, 2),
    "matches": fixed(1, 2, 4, 8),
    "month": fixed(*range(1, 13)),
    "suit": fixed(*range(7)),
    "low": fixed(*range(7)),
    "gp": lambda tr: (0, 1, 3, tr("game-points", n=1), tr("game-points", n=3)),
    "played": lambda tr: (*NUMBERS, *moves(tr)),
    "best": lambda tr: (*NUMBERS, *moves(tr)),
    "lead": lambda tr: (*NUMBERS, "[6|6]"),
    "pa": deal_points,
    "pb": deal_points,
    "pts": lambda tr: (tr("points", n=20), tr("points", n=1)),
    "wins": lambda tr: tuple(tr("wins", n=n) for n in NUMBERS),
    "losses": lambda tr: tuple(tr("losses", n=n) for n in NUMBERS),
    "change": fixed("+16", "\u221216", "0"),
    "gained": fixed("+16", "\u221216", "0"),
    "year": fixed("2026"),
    # spans of time, as the code passes them: the nominative text, or the unit and its count (below)
    "left": durations,
    "idle": durations,
    "clock": lambda tr: (*durations(tr), render.clock_text(tr, 0)),
    "unit": fixed("s", "m", "h", "d"),
    # words the bot's own code makes
    "date": fixed(*DATES),
    "game": lambda tr: (tr("preset-bingo"), tr("preset-42"), tr("game-bingo")),
    "preset": fixed("bingo", "bingo-classic", "bingo-domino", "42"),
    "level": lambda tr: (tr("level-easy"), tr("level-hard")),
    "lang": lambda tr: (tr("lang-name-ru"), tr("lang-name-auto")),
    "trump": lambda tr: (tr("suit", suit=0), tr("suit", suit=6)),
    "tile": fixed("[6|6]", "[4|3]"),
    "reply": fixed("[4|1]"),
    "tiles": fixed("[6|6] [5|5] [4|4]", "—"),
    "title": fixed(" («король»)", ""),
    "claim": lambda tr: (tr("doubles", n=3), tr("doubles", n=5) + " (" + tr("claim-name", preset="bingo", n=5) + ")"),
    "value": lambda tr: (tr("claim-value", gp=0, n=20), tr("claim-value", gp=3, n=3)),
    "move": moves,
    "why": lambda tr: (tr("hint-why-lead"), tr("hint-why-close-goal", goal=70), tr("hint-why-bid", n=30)),
    "where": lambda tr: (tr("review-where-trick", deal=2, trick=5), tr("review-where-deal", deal=1)),
    "season": lambda tr: (tr("season-name", month=3, year="2026"),),
    "list": lambda tr: (", ".join(names(tr)), f"{names(tr)[0]} 30, {names(tr)[1]} {tr('bid-pass')}"),
    "names": lambda tr: (", ".join(names(tr)),),
    "pairs": lambda tr: (" — ".join(names(tr)),),
    "meetings": lambda tr: (tr("rivalry-meeting", result="won", game=tr("game-bingo"), mine=2, theirs=1),),
    "hash": fixed("630dcd2966c43366"),
    "secret": fixed("00" * 32),
    "hex": fixed("ab" * 32),
    "seed": fixed("ala ma kota", "3f9a0c1d2e4b5a69", "&lt;b&gt;"),
    "limit": fixed(64),
    "length": numbers,
    "url": fixed("https://t.me/domino_bot?start=r_m1"),
    "id": fixed("42"),
    # selectors on words
    "b_left": fixed("yes", "no"),
    "format": fixed("rr", "ko"),
    "how": fixed("target", "surrender", "forfeit", "abandoned"),
    "penalty": fixed("first", "notrick"),
    "phase": fixed("draw", "bidding", "trumps", "play"),
    "playing": fixed("yes", "no"),
    "signup": fixed("yes", "no"),
    "result": fixed("won", "lost", "abandoned"),
    "state": fixed("open", "won", "lost"),
}
"""Sample values of every variable the messages read, by name (a name means the same in every message)."""


def runs(samples: Mapping[str, tuple[Any, ...]]) -> Iterator[dict[str, Any]]:
    """Each variable in turn takes each of its samples, the others their first; a span of time (``unit`` with
    ``n``) takes each of ``SECONDS`` as the code would pass it, and each count of each unit."""
    base = {name: values[0] for name, values in samples.items()}
    yield base
    spans = "unit" in samples
    for name, values in samples.items():
        if spans and name in ("unit", "n"):
            continue
        for value in values[1:]:
            yield {**base, name: value}
    if spans:
        for seconds in SECONDS:
            yield {**base, **render.duration_args(seconds)}
        for unit in samples["unit"]:
            for n in samples["n"]:
                yield {**base, "unit": unit, "n": n}


def problems(tr: Translator, messages: Mapping[str, ast.Message]) -> list[str]:
    """Everything wrong with a language's messages rendered with the samples (empty when all read right)."""
    found: list[str] = []
    for message_id in sorted(messages):
        where = f"{tr.lang}:{message_id}"
        read = variables(messages, message_id)
        unknown = unknown_variables(read.names, SAMPLES)
        if unknown:
            found.append(f"{where}: no samples for {unknown} (add them to SAMPLES)")
            continue
        samples = {name: SAMPLES[name](tr) for name in sorted(read.names)}
        if "unit" in samples:
            samples["unit"] = tuple(dict.fromkeys(str(render.duration_args(s)["unit"]) for s in SECONDS))
        uncovered = uncovered_keys(read, samples)
        if uncovered:
            found.append(f"{where}: no sample chooses {uncovered} (add them to SAMPLES)")
        for args in runs(samples):
            try:
                text = tr(message_id, **args)
            except Exception as error:  # Fluent's error, whatever it is, is the finding
                found.append(f"{where}: {error} with {args}")
                continue
            faults = decimal_points(text, DATES) + nominative_durations(text, tr.lang) + html_faults(text)
            found += [f"{where}: {fault} in {text!r}" for fault in faults]
    return list(dict.fromkeys(found))


@cache
def locale_messages(lang: Lang) -> dict[str, ast.Message]:
    return parse(p.read_text(encoding="utf-8") for p in sorted((LOCALES / lang).glob("*.ftl")))


class TestEveryMessage:
    """The bot's own locales."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_reads_right(self, lang: Lang) -> None:
        """Every message of the language, with every sample: no Fluent error, no decimal point, no nominative
        span after a preposition, valid Telegram HTML, no variable without samples."""
        found = problems(I18n()[lang], locale_messages(lang))
        assert found == [], "\n".join(found)

    def test_same_messages(self) -> None:
        """Both languages have the same message ids."""
        assert missing_ids({lang: locale_messages(lang) for lang in LANGS}) == {}


PLANTED = {
    "ru": """
good = ✅ { $name }: { $n } — { NUMBER($cost, minimumFractionDigits: 1, maximumFractionDigits: 1) }%
point = Цена: 12.3% шанса на победу.
after-through = Запись закроется через { $left }.
after-for = Ход сделан за { $unit ->
    [m] { $n } { $n ->
        [one] минута
       *[other] минут
    }
   *[s] { $n } секунд
}.
broken = Смотри { no-such-message }.
new-variable = Новое: { $brand_new }.
tag = /seed <слова> — <b>зерно
selector = { $how ->
    [surrender] сдался
    [teleport] телепортировался
   *[target] выиграл
}
only-ru = Только по-русски.
""",
    "pl": """
good = ✅ { $name }: { $n } — { NUMBER($cost, minimumFractionDigits: 1, maximumFractionDigits: 1) }%
point = Koszt: 12.3% szansy na wygraną.
after-through = Zapisy zamkną się za { $left }.
after-for = Ruch zrobiony za { $unit ->
    [m] { $n } { $n ->
        [one] minuta
       *[other] minut
    }
   *[s] { $n } sekund
}.
broken = Zobacz { no-such-message }.
new-variable = Nowe: { $brand_new }.
tag = /seed <słowa> — <b>ziarno
selector = { $how ->
    [surrender] poddał się
    [teleport] teleportował się
   *[target] wygrał
}
""",
}
"""Messages with one fault per check (and one right message), in both languages."""


@cache
def planted(lang: Lang) -> tuple[Translator, dict[str, ast.Message]]:
    """A translator of the language's messages and the planted ones, and the planted ones alone (to check: the
    samples are made with the language's own messages)."""
    bundle = FluentBundle([lang], use_isolating=False)
    for path in sorted((LOCALES / lang).glob("*.ftl")):
        bundle.add_resource(FluentResource(path.read_text(encoding="utf-8")))
    bundle.add_resource(FluentResource(PLANTED[lang]))
    messages = parse([PLANTED[lang]])
    return Translator(lang, bundle, frozenset(locale_messages(lang)) | frozenset(messages)), messages


class TestPlanted:
    """Each check finds its planted fault, and nothing in the right message."""

    @pytest.mark.parametrize(
        ("lang", "fault"),
        [
            ("ru", "ru:point: Цена: 12.3% шанса"),
            ("pl", "pl:point: Koszt: 12.3% szansy"),
            ("ru", "ru:after-through: через 1 минута in"),
            ("pl", "pl:after-through: za 1 minuta in"),
            ("ru", "ru:after-for: за 1 минута in"),
            ("ru", "ru:after-for: за 21 минута in"),
            ("pl", "pl:after-for: za 1 minuta in"),
            ("pl", "pl:after-through: za 1 godzina in"),
            ("ru", "ru:broken: \"ru: 'broken': Unknown message: no-such-message"),
            ("pl", "pl:new-variable: no samples for ['brand_new']"),
            ("ru", "ru:tag: a bare '<'"),
            ("ru", "ru:tag: <b> left open"),
            ("pl", "pl:selector: no sample chooses {'how': ['teleport']}"),
        ],
    )
    def test_found(self, lang: Lang, fault: str) -> None:
        found = problems(*planted(lang))
        assert any(line.startswith(fault) for line in found), "\n".join(found)

    @pytest.mark.parametrize("lang", LANGS)
    def test_right_message_passes(self, lang: Lang) -> None:
        assert [line for line in problems(*planted(lang)) if line.startswith(f"{lang}:good")] == []

    def test_one_language_only(self) -> None:
        assert missing_ids({lang: planted(lang)[1] for lang in LANGS}) == {"pl": ["only-ru"]}


class TestCheckers:
    """The checkers on their own: bad samples found, right ones passed."""

    @pytest.mark.parametrize("text", ["цена: 12.3% шанса", "koszt: 0.1%", "1.5 очка"])
    def test_decimal_point(self, text: str) -> None:
        assert decimal_points(text, DATES)

    @pytest.mark.parametrize("text", ["цена: 12,3% шанса", "02.12.2026 · Бинго", "Вася · 42 · 7:3 · 02.12"])
    def test_decimal_comma_and_dates(self, text: str) -> None:
        assert decimal_points(text, DATES) == []

    @pytest.mark.parametrize(
        ("lang", "text"),
        [
            ("ru", "Запись закроется через 1 минута."),
            ("ru", "за 21 минута"),
            ("ru", "через <b>1</b> секунда"),
            ("pl", "za 1 minuta"),
            ("pl", "za 21 minuta"),
            ("pl", "Zapisy zamkną się za 1 godzina"),
            ("pl", "ważne przez 1 sekunda"),
        ],
    )
    def test_nominative_duration(self, lang: str, text: str) -> None:
        assert nominative_durations(text, lang)

    @pytest.mark.parametrize(
        ("lang", "text"),
        [
            ("ru", "через 1 минуту"),
            ("ru", "за 21 минуту"),
            ("ru", "До закрытия записи: 1 минута"),
            ("ru", "через 5 минут"),
            ("pl", "za 1 minutę"),
            ("pl", "za 2 godziny"),
            ("pl", "Czas na ruch: 1 minuta"),
        ],
    )
    def test_accusative_duration(self, lang: str, text: str) -> None:
        assert nominative_durations(text, lang) == []

    @pytest.mark.parametrize(
        "text", ["<b>open", "a </b>", "<div>x</div>", "/seed <слова>", "Tom & Jerry", "&nbsp;", "<b><i>x</b></i>"]
    )
    def test_html_refused(self, text: str) -> None:
        assert html_faults(text)

    @pytest.mark.parametrize(
        "text",
        [
            '<b>a</b> <i>b</i> <code>c</code> <a href="tg://user?id=1">d</a>',
            "<blockquote expandable>x</blockquote>",
            "/seed &lt;слова&gt; &amp; &quot;",
        ],
    )
    def test_html_accepted(self, text: str) -> None:
        assert html_faults(text) == []
