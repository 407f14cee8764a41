"""Fluent translations: every word a user reads comes from ``locales/<lang>/*.ftl``."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast

from bot.models import LANGS, Lang

LOCALES = Path(__file__).resolve().parent.parent / "locales"


class MissingMessage(KeyError):
    """A message id that a locale does not have (a bug, never shown to a user)."""


MEMO_SIZE = 8192
"""Texts a translator remembers (a table or a panel repeats most of its lines from one move to the next)."""


class Translator:
    """One language's messages: ``t("key", n=5)``."""

    def __init__(self, lang: Lang, bundle: FluentBundle, ids: frozenset[str]) -> None:
        self.lang = lang
        self._bundle = bundle
        self.ids = ids
        self._memo: dict[tuple[Any, ...], str] = {}
        self._plain: dict[str, tuple[str | tuple[str], ...]] = {}
        """Messages that are text and variables only, as their parts (a variable as a 1-tuple of its name)."""
        for key in ids:
            message = bundle.get_message(key)
            if message.value is not None and (parts := _plain_parts(message.value)) is not None:
                self._plain[key] = parts

    def __call__(self, key: str, **args: Any) -> str:
        """The message formatted with ``args``; the same call again is answered from memory (Fluent's
        formatting is the costliest part of rendering a screen)."""
        memo = (key, *args.items())  # (1 and 1.0 are one key: Fluent writes both as "1")
        try:
            return self._memo[memo]
        except KeyError:
            pass
        except TypeError:  # an argument that cannot be a key: formatted every time
            return self._format(key, args)
        plain = self._plain.get(key)
        text = _fill(plain, args) if plain is not None else None
        if text is None:
            text = self._format(key, args)
        if len(self._memo) >= MEMO_SIZE:
            self._memo.clear()
        self._memo[memo] = text
        return text

    def _format(self, key: str, args: dict[str, Any]) -> str:
        if not self._bundle.has_message(key):
            raise MissingMessage(f"{self.lang}: no message {key!r}")
        message = self._bundle.get_message(key)
        if message.value is None:
            raise MissingMessage(f"{self.lang}: message {key!r} has no value")
        text, errors = self._bundle.format_pattern(message.value, args)
        if errors:
            raise MissingMessage(f"{self.lang}: {key!r}: {errors[0]}")
        return str(text)


def _plain_parts(pattern: Any) -> tuple[str | tuple[str], ...] | None:
    """The parts of a pattern made of text and variables only (None for anything else: a select, a term...)."""
    if type(pattern).__name__ == "TextElement":  # a text without placeables is compiled to its text
        return (pattern.value,)
    parts: list[str | tuple[str]] = []
    for element in getattr(pattern, "elements", None) or ():
        kind = type(element).__name__
        if kind == "TextElement":
            parts.append(element.value)
        elif kind == "Placeable" and type(element.expression).__name__ == "VariableReference":
            parts.append((element.expression.id.name,))
        else:
            return None
    return tuple(parts) if parts else None


def _fill(parts: tuple[str | tuple[str], ...], args: dict[str, Any]) -> str | None:
    """A plain message with its arguments, as Fluent formats it, where that is sure without Fluent: strings, and
    whole numbers from 0 to 999 (no grouping, no sign); None otherwise (Fluent formats it)."""
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        value = args.get(part[0])
        if isinstance(value, str):
            out.append(value)
        elif type(value) is int and 0 <= value < 1000:
            out.append(str(value))
        else:
            return None
    return "".join(out)


class I18n:
    """All languages, loaded once at start-up."""

    def __init__(self, root: Path = LOCALES) -> None:
        self.translators: dict[Lang, Translator] = {
            lang: _translator(lang, tuple(p.read_text(encoding="utf-8") for p in sorted((root / lang).glob("*.ftl"))))
            for lang in LANGS
        }

    def __getitem__(self, lang: Lang) -> Translator:
        return self.translators[lang]


@functools.lru_cache(maxsize=8)
def _translator(lang: Lang, sources: tuple[str, ...]) -> Translator:
    """A language's translator from its files' texts, made once per process for the same texts: Fluent's parser
    takes a good part of a second for both languages, and a process that builds the bot more than once (the
    tests build it for each test) would parse them each time. A translator's state is its memory of texts it
    formatted, the same for every holder."""
    bundle = FluentBundle([lang], use_isolating=False)
    ids: set[str] = set()
    for text in sources:
        resource = FluentResource(text)
        bundle.add_resource(resource)
        ids.update(entry.id.name for entry in resource.body if isinstance(entry, ast.Message))
    return Translator(lang, bundle, frozenset(ids))
