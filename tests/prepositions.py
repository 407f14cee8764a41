"""Names after prepositions: a Telegram name cannot be declined, so "против Аня" or "od Аня" reads wrong.

Every message must put a name where the nominative reads right; these
helpers find the places where a text does not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape

PREPOSITIONS = ("против", "от", "przeciwko", "od", "dla")
"""Prepositions after which a name would have to be declined (ru: «против», «от»; pl: «przeciwko», «od», «dla»)."""
NAME_VARIABLES = frozenset({"name", "creator", "opponent", "a", "b", "winner", "loser", "leader", "other"})
"""The Fluent variables that carry a player's name."""

_PLACEABLE = re.compile(
    r"(?<!\w)(?P<word>" + "|".join(PREPOSITIONS) + r")\s+(?:<[^>]*>\s*)*\{\s*\$(?P<var>\w+)\s*\}", re.IGNORECASE
)


def names_after_prepositions(text: str, names: Iterable[str]) -> list[str]:
    """The places in ``text`` where one of ``names`` (raw or HTML-escaped) follows a preposition."""
    forms = sorted({form for n in names for form in (n, escape(n))}, key=len, reverse=True)
    if not forms:
        return []
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(PREPOSITIONS) + r")\s+(?:<[^>]*>\s*)*(?:" + "|".join(map(re.escape, forms)) + ")",
        re.IGNORECASE,
    )
    return [m.group(0) for m in pattern.finditer(text)]


def name_placeables_after_prepositions(source: str) -> list[str]:
    """The places in a Fluent source where a name variable follows a preposition ("против { $opponent }")."""
    return [m.group(0) for m in _PLACEABLE.finditer(source) if m.group("var") in NAME_VARIABLES]
