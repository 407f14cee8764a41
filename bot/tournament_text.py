"""The words and buttons of a tournament's message in its group: the sign-up, then the standings of a round
robin or the bracket of a knockout (edited in place as results come in), the champion; and its picture."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import render
from bot.callbacks import TournamentCb
from bot.i18n import Translator
from bot.models import Pairing, Tournament
from bot.pictures.cards import BracketMatch, BracketSlot, StandingsRow, TournamentPicture
from bot.services import bracket
from bot.texts import clip, game_name, user_text

PICTURE_NAME = 32
"""Characters of a name the picture shows (it shortens a longer one to fit)."""


def name_of(t: Tournament, entrant: int | None, tr: Translator) -> str:
    """An entrant's name for a message (HTML-escaped; "?" for a slot not yet known)."""
    if entrant is None:
        return tr("tournament-ko-tbd")
    entry = t.entrants[entrant]
    name = user_text(entry.player.name)
    return f"{name} {tr('tournament-left-mark')}" if entry.left else name


def board_text(tr: Translator, t: Tournament, now: float) -> str:
    """The tournament's message as it stands."""
    game = game_name(tr, t.preset)
    creator = user_text(t.creator.name)
    if t.status == "cancelled":
        key = "tournament-expired" if now >= t.expires else "tournament-cancelled"
        return tr(key, creator=creator)
    if t.status == "signup":
        names = ", ".join(user_text(e.player.name) for e in t.entrants)
        lines = [
            tr("tournament-signup-head", game=game, target=t.target, creator=creator),
            tr("tournament-signup-how"),
            tr("tournament-signup-list", n=len(t.entrants), names=names) if t.entrants
            else tr("tournament-signup-nobody"),
            tr("tournament-signup-closes", left=render.duration(tr, max(60, t.expires - now))),
        ]  # fmt: skip
        return "\n".join(lines)
    head = tr("tournament-head", game=game, target=t.target, format=t.format or "rr", n=len(t.entrants))
    lines = [head, tr("tournament-clock", clock=render.clock_text(tr, t.clock))]
    lines += _standings_lines(tr, t) if t.format == "rr" else _bracket_lines(tr, t)
    if t.status == "stopped":
        lines.append(tr("tournament-stopped", name=user_text(t.stopped_by.name if t.stopped_by else creator)))
        return "\n".join(lines)
    if t.status == "finished":
        if t.champion is None:
            lines.append(tr("tournament-no-champion"))
        else:
            lines.append(tr("tournament-champion", name=user_text(t.entrants[t.champion].player.name)))
        return "\n".join(lines)
    playing = [p for p in t.pairings if p.match is not None and not p.done]
    if playing and t.format == "rr":
        pairs = ", ".join(f"{name_of(t, p.a, tr)} — {name_of(t, p.b, tr)}" for p in playing)
        lines.append(tr("tournament-now", pairs=pairs))
    left = sum(1 for p in t.pairings if not p.done)
    lines += [tr("tournament-left", n=left), tr("tournament-leave-hint")]
    return "\n".join(lines)


def _standings_lines(tr: Translator, t: Tournament) -> list[str]:
    lines = ["", tr("tournament-rr-legend")]
    for place, x in enumerate(bracket.standings(t), 1):
        _, won, lost, points = bracket.table_row(t, x)
        lines.append(tr("tournament-rr-row", place=place, name=name_of(t, x, tr), won=won, lost=lost, points=points))
    return [*lines, ""]


def _bracket_lines(tr: Translator, t: Tournament) -> list[str]:
    lines: list[str] = []
    for rnd in bracket.rounds_of(t):
        lines += ["", f"<b>{tr('tournament-round', matches=len(rnd))}</b>"]
        lines += [_pairing_line(tr, t, p) for p in rnd]
    return [*lines, ""]


def _pairing_line(tr: Translator, t: Tournament, p: Pairing) -> str:
    a, b = name_of(t, p.a, tr), name_of(t, p.b, tr)
    if p.done and p.score is not None:
        if p.winner == p.a:
            a = f"<b>{a}</b>"
        elif p.winner == p.b:
            b = f"<b>{b}</b>"
        return tr("tournament-ko-played", a=a, b=b, sa=p.score[0], sb=p.score[1])
    if p.done:
        if p.winner is None:
            named = p.a is not None or p.b is not None
            return tr("tournament-ko-nobody-of", a=a, b=b) if named else tr("tournament-ko-nobody")
        loser = p.b if p.winner == p.a else p.a
        winner = name_of(t, p.winner, tr)
        if p.bye or loser is None:
            return tr("tournament-ko-bye", a=f"<b>{winner}</b>")
        if t.entrants[loser].removed:
            return tr("tournament-ko-removed", a=f"<b>{winner}</b>", b=name_of(t, loser, tr))
        left = "yes" if t.entrants[loser].left else "no"
        return tr("tournament-ko-forfeit", a=f"<b>{winner}</b>", b=name_of(t, loser, tr), b_left=left)
    key = "tournament-ko-playing" if p.match is not None else "tournament-ko-waiting"
    return tr(key, a=a, b=b)


def board_keyboard(tr: Translator, t: Tournament) -> InlineKeyboardMarkup | None:
    """Sign-up: ✅ and ▶; running: 🚪; ended: none."""

    def button(key: str, action: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=tr(key), callback_data=TournamentCb(t=t.id, a=action).pack())

    if t.status == "signup":
        return InlineKeyboardMarkup(
            inline_keyboard=[[button("btn-tournament-join", "j"), button("btn-tournament-start", "s")]]
        )
    if t.status == "running":
        return InlineKeyboardMarkup(inline_keyboard=[[button("btn-tournament-leave", "l")]])
    return None


def over_caption(tr: Translator, t: Tournament) -> str:
    """The announcement of the end (the picture's caption, or a message of its own)."""
    game, n = game_name(tr, t.preset), len(t.entrants)
    if t.champion is None:
        return tr("tournament-over-nobody", game=game, n=n)
    return tr("tournament-over-caption", name=user_text(t.entrants[t.champion].player.name), game=game, n=n)


def stopped_text(tr: Translator, t: Tournament) -> str:
    """The announcement of a stopped tournament: who stopped it, and the standings or the bracket so far."""
    by = user_text(t.stopped_by.name if t.stopped_by else t.creator.name)
    head = tr("tournament-stopped-announce", game=game_name(tr, t.preset), n=len(t.entrants), name=by,
              format=t.format or "rr")  # fmt: skip
    lines = _standings_lines(tr, t) if t.format == "rr" else _bracket_lines(tr, t)
    return "\n".join([head, *lines]).rstrip()


def busy_forfeit_line(tr: Translator, t: Tournament, p: Pairing, busy: set[int]) -> str:
    """A pairing forfeited because ``busy`` (one or both of its players) played other matches too long."""
    clock = render.clock_text(tr, t.clock)
    if len(busy) == 1:
        [late] = busy
        return tr("tournament-busy-forfeit", name=name_of(t, late, tr), opponent=name_of(t, p.winner, tr), clock=clock)
    a, b = name_of(t, p.a, tr), name_of(t, p.b, tr)
    if p.winner is None:
        return tr("tournament-busy-both-rr", a=a, b=b, clock=clock)
    return tr("tournament-busy-both-ko", a=a, b=b, clock=clock, winner=name_of(t, p.winner, tr))


def picture(tr: Translator, t: Tournament) -> TournamentPicture:
    """The final standings (round robin) or bracket (knockout) as a picture."""
    n = len(t.entrants)
    date = render.date(t.finished or t.created)
    champion = "" if t.champion is None else clip(t.entrants[t.champion].player.name, PICTURE_NAME)
    subtitle = (tr("picture-tournament-subtitle", name=champion, n=n, date=date) if t.champion is not None
                else tr("picture-tournament-subtitle-nobody", n=n, date=date))  # fmt: skip
    title = tr("picture-tournament-title", game=game_name(tr, t.preset))
    bye, fallback = tr("picture-tournament-bye"), tr("picture-tournament-player")
    if t.format == "rr":
        columns = tuple(tr(f"picture-tournament-col-{c}") for c in ("player", "played", "won", "lost", "points"))
        rows = []
        for place, x in enumerate(bracket.standings(t), 1):
            played, won, lost, points = bracket.table_row(t, x)
            rows.append(StandingsRow(place=place, name=clip(t.entrants[x].player.name, PICTURE_NAME), played=played,
                                     wins=won, losses=lost, points=points, left=t.entrants[x].left))  # fmt: skip
        return TournamentPicture(lang=tr.lang, title=title, subtitle=subtitle, champion=champion, columns=columns,
                                 rows=tuple(rows), bye=bye, fallback=fallback)  # fmt: skip
    rounds = tuple(tuple(_bracket_match(tr, t, p) for p in rnd) for rnd in bracket.rounds_of(t))
    names = tuple(tr("tournament-round", matches=len(rnd)) for rnd in bracket.rounds_of(t))
    return TournamentPicture(lang=tr.lang, title=title, subtitle=subtitle, champion=champion, rounds=rounds,
                             round_names=names, bye=bye, fallback=fallback)  # fmt: skip


def _bracket_match(tr: Translator, t: Tournament, p: Pairing) -> BracketMatch:
    def slot(x: int | None, score: int | None) -> BracketSlot:
        if x is None:
            return BracketSlot(name=None)
        return BracketSlot(name=clip(t.entrants[x].player.name, PICTURE_NAME), score=score, won=p.winner == x)

    a_score, b_score = p.score if p.score is not None else (None, None)
    note = tr("picture-tournament-forfeit") if p.forfeit else ""
    return BracketMatch(top=slot(p.a, a_score), bottom=slot(p.b, b_score), note=note)
