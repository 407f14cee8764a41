"""Checks of rendered texts that a native reader would call errors: a decimal point where the language writes a
comma («12.3%»), a span of time in the nominative after a preposition that wants the accusative («через 1
минута», «za 1 minuta»), Telegram HTML that Telegram would refuse, a message one language lacks.

Each checker returns what it found (empty when the text is right), so a test can show both the text and the
fault; ``tests/bot/test_every_message.py`` runs them over every message of both locales and over planted faults.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from html.parser import HTMLParser

from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

# -- the messages and the variables they read --------------------------------------------------------------


def parse(sources: Iterable[str]) -> dict[str, ast.Message]:
    """Every message of a locale's files, by id; a part Fluent cannot parse is an error."""
    found: dict[str, ast.Message] = {}
    for source in sources:
        resource = FluentParser().parse(source)
        junk = [entry.content for entry in resource.body if isinstance(entry, ast.Junk)]
        if junk:
            raise ValueError(f"cannot parse {junk[0]!r}")
        found.update({entry.id.name: entry for entry in resource.body if isinstance(entry, ast.Message)})
    return found


class Variables(Visitor):
    """The variables a message reads, with the keys of the selectors that choose on them, and the messages it
    refers to."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.keys: dict[str, list[str | int]] = {}
        self.references: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.names.add(node.id.name)

    def visit_MessageReference(self, node: ast.MessageReference) -> None:
        self.references.add(node.id.name)

    def visit_TermReference(self, node: ast.TermReference) -> None:
        # A term's own variables are bound by its arguments, so only those are read here.
        if node.arguments is not None:
            self.visit(node.arguments)

    def visit_SelectExpression(self, node: ast.SelectExpression) -> None:
        if isinstance(node.selector, ast.VariableReference):
            keys = self.keys.setdefault(node.selector.id.name, [])
            for variant in node.variants:
                key = variant.key
                keys.append(int(key.value) if isinstance(key, ast.NumberLiteral) else key.name)
        self.generic_visit(node)


def variables(messages: Mapping[str, ast.Message], message_id: str, seen: frozenset[str] = frozenset()) -> Variables:
    """The variables of a message and of the messages it refers to (which format with the same arguments)."""
    found = Variables()
    found.visit(messages[message_id])
    for ref in found.references - seen - {message_id}:
        if ref not in messages:
            continue  # formatting it reports the missing message
        inner = variables(messages, ref, seen | {message_id})
        found.names |= inner.names
        for name, keys in inner.keys.items():
            found.keys.setdefault(name, []).extend(keys)
    return found


def missing_ids(ids: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """The message ids each language lacks that another has (empty when all have the same)."""
    sets = {lang: set(i) for lang, i in ids.items()}
    every = set().union(*sets.values())
    return {lang: sorted(every - have) for lang, have in sets.items() if every - have}


def unknown_variables(names: Iterable[str], table: Mapping[str, object]) -> list[str]:
    """The variables a sample table has no values for."""
    return sorted(set(names) - set(table))


def uncovered_keys(found: Variables, samples: Mapping[str, Iterable[object]]) -> dict[str, list[str]]:
    """The selector keys (other than plural categories) that none of a variable's samples chooses."""
    missing = {}
    for name, keys in found.keys.items():
        given = {str(value) for value in samples.get(name, ())}
        left = sorted({str(k) for k in keys} - PLURAL_CATEGORIES - given)
        if left:
            missing[name] = left
    return missing


PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})

# -- the checks of a rendered text -------------------------------------------------------------------------

_DECIMAL_POINT = re.compile(r"\d\.\d")


def decimal_points(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Numbers written with a decimal point («12.3»): Russian and Polish write a comma. ``allowed``: texts where
    a dot between digits is right (a date, «02.12.2026»), left out before looking."""
    for keep in sorted(allowed, key=len, reverse=True):
        text = text.replace(keep, " ")
    return [text[max(m.start() - 8, 0) : m.end() + 8] for m in _DECIMAL_POINT.finditer(text)]


ACCUSATIVE_PREPOSITIONS = {"ru": ("через", "за", "на"), "pl": ("za", "przez", "na")}
"""Prepositions after which a span of time is in the accusative («через 1 минуту», «za 1 minutę»)."""
NOMINATIVE_ONLY = {"ru": ("минута", "секунда"), "pl": ("minuta", "sekunda", "godzina")}
"""The forms of a span's unit that are nominative and never accusative (the others read the same in both)."""


def nominative_durations(text: str, lang: str) -> list[str]:
    """Spans of time in the nominative after a preposition that wants the accusative: «через 1 минута», «za 21
    minuta», «za 1 godzina» (markup between them allowed)."""
    if lang not in ACCUSATIVE_PREPOSITIONS:
        return []
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(ACCUSATIVE_PREPOSITIONS[lang]) + r")\s+(?:<[^>]*>\s*)*"
        r"\d[\d\s\u00a0,]*(?:</[^>]*>\s*)*(?:" + "|".join(NOMINATIVE_ONLY[lang]) + r")(?!\w)",
        re.IGNORECASE,
    )
    return [m.group(0) for m in pattern.finditer(text)]


TELEGRAM_TAGS = frozenset(
    {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "code", "pre", "a", "blockquote", "tg-spoiler"}
)
"""The tags Telegram's HTML parse mode knows (with ``span class="tg-spoiler"`` and ``tg-emoji``, unused here)."""
TELEGRAM_ENTITIES = frozenset({"lt", "gt", "amp", "quot"})


class _TelegramHtml(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.open: list[str] = []
        self.faults: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TELEGRAM_TAGS:
            self.faults.append(f"<{tag}> is not a tag Telegram knows")
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.faults.append(f"</{tag}> closes {self.open[-1] if self.open else 'nothing'}")
        else:
            self.open.pop()

    def handle_entityref(self, name: str) -> None:
        if name not in TELEGRAM_ENTITIES:
            self.faults.append(f"&{name}; is not an entity Telegram knows")

    def handle_data(self, data: str) -> None:
        for char in "<>&":
            if char in data:
                self.faults.append(f"a bare {char!r} in {data.strip()[:40]!r}")


def html_faults(text: str) -> list[str]:
    """What Telegram's HTML parse mode would refuse: a tag it does not know, a tag left open or closed out of
    order, a bare «<», «>» or «&», an entity it does not know."""
    parser = _TelegramHtml()
    parser.feed(text)
    parser.close()
    if parser.rawdata:
        parser.faults.append(f"a bare '<' in {parser.rawdata[:40]!r}")
    return parser.faults + [f"<{tag}> left open" for tag in parser.open]
