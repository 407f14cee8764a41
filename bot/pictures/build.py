"""Pictures from a match and its result, or from a rating log, in the reader's language."""

from __future__ import annotations

from bot import render
from bot.i18n import Translator
from bot.models import DealLine, MatchRecord, RatingPoint, Summary
from bot.pictures.cards import MOMENTS, Domino, MatchCard, Moment, RatingChart, Side
from bot.services.reviews import MatchReview

NAME_LIMIT = 32
"""Characters of a name a picture shows (it shortens a longer one to fit)."""


def plain_name(record: MatchRecord, seat: int) -> str:
    """A player's name as a picture draws it: not HTML-escaped (matplotlib draws the characters)."""
    return render.clip(record.players[seat].name, NAME_LIMIT)


def side_name(tr: Translator, record: MatchRecord, seat: int) -> str:
    """A player's name on the card: the computer is "Компьютер" (its level goes under it)."""
    return tr("card-computer") if record.players[seat].computer else plain_name(record, seat)


def match_card(tr: Translator, record: MatchRecord, summary: Summary, review: MatchReview | None = None) -> MatchCard:
    """The card of a finished (or abandoned) match; under each person their accuracy (``review``) and the
    hints they asked for."""
    winner = summary.winner
    ratings: list[str | None] = [None, None]
    if summary.ratings is not None and winner is not None:
        change = summary.rating_change
        ratings[winner] = tr("card-rating", rating=str(summary.ratings[0]), change=render.signed(change))
        ratings[1 - winner] = tr("card-rating", rating=str(summary.ratings[1]), change=render.signed(-change))
    for seat, player in enumerate(record.players):
        if player.level is not None:  # the computer: its level where a person's rating goes
            ratings[seat] = tr("card-level", level=tr(f"level-{player.level}"))
    sides = tuple(
        Side(
            name=side_name(tr, record, seat),
            score=summary.score[seat],
            winner=winner == seat,
            rating=" · ".join(x for x in (ratings[seat], *_notes(tr, record, review, seat)) if x) or None,
            fallback=tr("card-player", seat=seat + 1),
        )
        for seat in (0, 1)
    )
    target = record.deal.t
    loser = side_name(tr, record, 1 - winner) if winner is not None else ""
    finish = {"how": summary.finish.value, "loser": loser, "target": target, "date": render.date(summary.finished)}
    running = [0, 0]
    deals: list[tuple[int, int]] = []
    for line in record.log:
        running = [running[0] + line.g[0], running[1] + line.g[1]]
        deals.append((running[0], running[1]))
    moments = [m for line in record.log for m in _moments(tr, record, line)][-MOMENTS:]
    last = next((line.last for line in reversed(record.log) if line.last is not None), None)
    return MatchCard(
        lang=tr.lang,
        title=render.game_name(tr, summary.preset),
        subtitle=tr("card-subtitle", **finish),
        sides=(sides[0], sides[1]),
        target=target,
        deals=tuple(deals),
        chart_title=tr("card-chart"),
        target_label=tr("card-target", n=target),
        moments=tuple(moments),
        last_trick_title=tr("card-last-trick"),
        last_trick=None if last is None else (_domino(last[0]), _domino(last[1])),
    )


def _notes(tr: Translator, record: MatchRecord, review: MatchReview | None, seat: int) -> list[str]:
    """A person's accuracy and hints, as the card writes them under the rating."""
    notes = []
    accuracy = None if review is None else review.accuracy(seat)
    if accuracy is not None:
        notes.append(tr("card-accuracy", accuracy=accuracy))
    if record.hints[seat]:
        notes.append(tr("card-hints", n=record.hints[seat]))
    return notes


def _domino(notation: str) -> Domino:
    return int(notation[0]), int(notation[1])


def _moments(tr: Translator, record: MatchRecord, line: DealLine) -> list[Moment]:
    return [
        Moment(
            kind=m.k,
            seat=m.s,
            heading=tr("card-moment", deal=line.n, name=side_name(tr, record, m.s)),
            text=tr(f"card-moment-{m.k}", n=len(m.t)),
            tiles=tuple(_domino(t) for t in m.t),
        )
        for m in line.m
    ]


def rating_chart(tr: Translator, name: str, log: list[RatingPoint], *, in_chat: bool) -> RatingChart | None:
    """The chart of a player's rating over the matches of their log (None with no rated match)."""
    if not log:
        return None
    ratings = (log[0].rating - log[0].change, *(p.rating for p in log))
    name = render.clip(name, NAME_LIMIT)
    # The best is named once the player has been above where the chart starts (a new player's first losses
    # would make the starting 1500 their "best").
    best = max(ratings[1:])
    numbers = {"rating": str(ratings[-1]), "n": len(log)}
    summary = (
        tr("chart-summary", best=str(best), **numbers) if best > ratings[0] else tr("chart-summary-no-best", **numbers)
    )
    return RatingChart(
        lang=tr.lang,
        title=tr("chart-title-chat" if in_chat else "chart-title-all", name=name),
        name=name,
        fallback=tr("chart-player"),
        ratings=ratings,
        won=tuple(p.won for p in log),
        match_label=tr("chart-matches"),
        summary=summary,
    )
