"""The words of the post-mortem (the ``🔎`` message, the accuracy lines) and of the 💡 hints."""

from __future__ import annotations

from bot.games import game_of
from bot.i18n import Translator
from bot.models import MatchRecord
from bot.services.reviews import Costly, MatchReview
from bot.texts import name, tile
from engine import Action, Kind, Tile
from engine.games import View


def move_text(tr: Translator, notation: str) -> str:
    """A move in words: ``[6|4]``, "🚧 close the reserve", "bid 31"..."""
    action = Action.parse(notation)
    kind = action.kind
    if kind is Kind.PLAY:
        return tile(Tile.from_index(action.value))
    if kind is Kind.CLAIM:
        return tr("move-claim", tile=tile(Tile.from_index(action.value)))
    if kind is Kind.BID:
        return tr("move-bid", n=action.value)
    if kind is Kind.TRUMPS:
        return tr("move-trumps", suit=tr("suit", suit=action.value))
    return tr(f"move-{kind.value.replace('_', '-')}")


def percent(cost: float) -> float:
    """A share of the chance to win in percentage points, to one decimal (never 0 for a cost shown); the locale
    writes it with its own decimal comma (``NUMBER`` in the message)."""
    return round(max(cost * 100, 0.1), 1)


def review_text(tr: Translator, review: MatchReview | None, seat: int) -> str:
    """The ``🔎`` message of one person: the accuracy and their three costliest decisions."""
    mine = None if review is None else review.of(seat)
    if mine is None:
        return tr("review-failed")
    if mine.accuracy is None:
        return tr("review-no-choices")
    lines = [tr("review-head", accuracy=mine.accuracy, decisions=mine.decisions)]
    if not mine.costliest:
        lines.append(tr("review-clean"))
    lines.extend(_costly_line(tr, i, c) for i, c in enumerate(mine.costliest, 1))
    lines.append(tr("review-foot"))
    return "\n".join(lines)


def _costly_line(tr: Translator, number: int, costly: Costly) -> str:
    where = (
        tr("review-where-trick", deal=costly.deal, trick=costly.trick)
        if costly.trick is not None
        else tr("review-where-deal", deal=costly.deal)
    )
    return tr(
        "review-line",
        number=number,
        where=where,
        played=move_text(tr, costly.played),
        best=move_text(tr, costly.best),
        cost=percent(costly.cost),
    )


def accuracy_line(tr: Translator, record: MatchRecord, review: MatchReview | None) -> str | None:
    """The accuracy of each person of the match, for the result's caption (None without a review)."""
    if review is None:
        return None
    parts = [
        tr("accuracy-of", name=name(record, s.seat), accuracy=s.accuracy)
        for s in review.seats
        if s.accuracy is not None
    ]
    return tr("accuracy-line", list=", ".join(parts)) if parts else None


def card_lines(tr: Translator, record: MatchRecord, review: MatchReview | None) -> list[str]:
    """The lines the result's caption (and a private card's) adds: the accuracy, the hints."""
    return [line for line in (accuracy_line(tr, record, review), hints_line(tr, record)) if line is not None]


def hints_line(tr: Translator, record: MatchRecord) -> str | None:
    """The hints the people of a match against the computer asked for (None when none)."""
    parts = [tr("hints-of", name=name(record, seat), n=n) for seat, n in enumerate(record.hints) if n]
    return ", ".join(parts) if parts else None


def hint_toast(tr: Translator, view: View, best: Action, values: list[tuple[Action, float]]) -> str:
    """The toast of a 💡 press: the move the hard level prefers and why, in a few words (at most 200)."""
    ranked = sorted((v for _, v in values), reverse=True)
    chance = round(ranked[0] * 100)
    why = _why(tr, view, best)
    if len(ranked) > 1:
        text = tr("hint-toast", move=move_text(tr, best.notation()), why=why, chance=chance,
                  gap=percent(ranked[0] - ranked[1]))  # fmt: skip
    else:
        text = tr("hint-toast-only", move=move_text(tr, best.notation()), why=why, chance=chance)
    return text[:200]


def _why(tr: Translator, view: View, best: Action) -> str:
    own = game_of(view).hint_reason(tr, view, best)
    if own is not None:
        return own
    kind = best.kind
    if kind is Kind.PLAY:
        return tr("hint-why-reply" if view.lead is not None else "hint-why-lead")
    if kind is Kind.BID:
        return tr("hint-why-bid", n=best.value)
    return tr(f"hint-why-{kind.value.replace('_', '-')}")
