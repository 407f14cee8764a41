"""The turn clock as a pure function: when a match's clock must next look at it."""

from __future__ import annotations

from bot.models import MatchRecord
from bot.services.terms import Terms


def next_look(record: MatchRecord, marks: dict[str, int], terms: Terms) -> float | None:
    """When the match's turn clock must next look at it (None once it is over).

    From the last move: the reminder at half the time, the forfeit at the
    deadline; with the clock off, the offer to claim the win after
    ``claim_after``; in any case the abandonment after ``active_ttl``.
    ``marks``: the versions at which the clock reminded (``r``) and offered the win (``o``).
    """
    if not record.is_active:
        return None
    last, version, timeout = record.updated, record.version, record.turn_timeout
    abandon = last + terms.active_ttl
    if timeout:
        nxt = last + timeout if marks.get("r") == version else last + timeout / 2
    else:
        nxt = abandon if marks.get("o") == version else last + terms.claim_after
    return min(nxt, abandon)
