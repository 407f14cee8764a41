"""Fluent translations: every word a user reads comes from ``locales/<lang>/*.ftl``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast

from bot.services.models import LANGS, Lang

LOCALES = Path(__file__).resolve().parent.parent / "locales"


class MissingMessage(KeyError):
    """A message id that a locale does not have (a bug, never shown to a user)."""


class Translator:
    """One language's messages: ``t("key", n=5)``."""

    def __init__(self, lang: Lang, bundle: FluentBundle, ids: frozenset[str]) -> None:
        self.lang = lang
        self._bundle = bundle
        self.ids = ids

    def __call__(self, key: str, **args: Any) -> str:
        if not self._bundle.has_message(key):
            raise MissingMessage(f"{self.lang}: no message {key!r}")
        message = self._bundle.get_message(key)
        if message.value is None:
            raise MissingMessage(f"{self.lang}: message {key!r} has no value")
        text, errors = self._bundle.format_pattern(message.value, args)
        if errors:
            raise MissingMessage(f"{self.lang}: {key!r}: {errors[0]}")
        return str(text)


class I18n:
    """All languages, loaded once at start-up."""

    def __init__(self, root: Path = LOCALES) -> None:
        self.translators: dict[Lang, Translator] = {}
        for lang in LANGS:
            bundle = FluentBundle([lang], use_isolating=False)
            ids: set[str] = set()
            for path in sorted((root / lang).glob("*.ftl")):
                resource = FluentResource(path.read_text(encoding="utf-8"))
                bundle.add_resource(resource)
                ids.update(entry.id.name for entry in resource.body if isinstance(entry, ast.Message))
            self.translators[lang] = Translator(lang, bundle, frozenset(ids))

    def __getitem__(self, lang: Lang) -> Translator:
        return self.translators[lang]


def pick_lang(code: str | None, default: Lang = "ru") -> Lang:
    """A Telegram ``language_code`` reduced to one of ours (Russian otherwise)."""
    if code:
        base = code.split("-")[0].lower()
        for lang in LANGS:
            if base == lang:
                return lang
    return default
