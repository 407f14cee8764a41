"""Where engine values become words: texts of the table, the panels and the results.

Everything here works on views (``deal.view(seat)``), never on a raw state,
so a hand can only appear in its own seat's panel. Texts are HTML; player
names are escaped. What every game shows is built here; each game's own
lines and the arguments of its texts come from its module (``bot.games``).
"""

from __future__ import annotations

import datetime
import math

from bot.games import game_of
from bot.i18n import Translator
from bot.models import SEED_LIMIT, Challenge, Finish, MatchRecord, Rivalry, SeasonStanding, Summary
from bot.seasons import year_month

# Imported "as" themselves: callers read these pieces of texts, and the views' type, through this module too.
from bot.texts import clip as clip
from bot.texts import game_name as game_name
from bot.texts import name, tiles
from bot.texts import tile as tile
from bot.texts import user_text as user_text
from engine import Award, Deal, DealEnd, Kind, Refusal, TrickView
from engine.fairness import commitment, fingerprint
from engine.games import View as View


def duration_args(seconds: float) -> dict[str, int | str]:
    """A span of time as a player would say it, for the ``duration`` messages: whole seconds under a minute,
    whole minutes under an hour, whole hours above (rounded: "23 часа", never "1381 минута"), whole days when
    the hours make days."""
    whole = round(seconds)
    if whole < 60:
        return {"unit": "s", "n": whole}
    minutes = _half_up(whole / 60)
    if minutes < 60:
        return {"unit": "m", "n": minutes}
    hours = _half_up(whole / 3600)
    return {"unit": "d", "n": hours // 24} if hours % 24 == 0 else {"unit": "h", "n": hours}


def _half_up(x: float) -> int:
    return math.floor(x + 0.5)


def duration(tr: Translator, seconds: float) -> str:
    """A span of time in the nominative ("10 минут"), for a message that puts it after a colon or a dash; a
    message that says it after a preposition takes ``duration_args`` and refers to ``duration-acc`` itself."""
    return tr("duration", **duration_args(seconds))


def date(when: float) -> str:
    """A day as players read it: 02.12.2026 (UTC)."""
    return datetime.datetime.fromtimestamp(when, datetime.UTC).strftime("%d.%m.%Y")


def clock_text(tr: Translator, seconds: int) -> str:
    """A turn clock setting: its time, or that there is none."""
    return duration(tr, seconds) if seconds else tr("clock-off")


def score_line(tr: Translator, record: MatchRecord, view: View) -> str:
    """The match score of the table and the Mini App: both names, their game points, the target."""
    return tr(
        "table-score",
        a=name(record, 0),
        b=name(record, 1),
        sa=view.score[0],
        sb=view.score[1],
        target=view.target,
    )


def last_trick_text(tr: Translator, record: MatchRecord, last: TrickView) -> str:
    """Who played which tile in a settled trick, and who took it."""
    return tr(
        "table-last",
        leader=name(record, last.leader),
        lead=tile(last.lead),
        other=name(record, 1 - last.leader),
        reply=tile(last.reply),
        winner=name(record, last.winner),
    )


def _trick_lines(tr: Translator, record: MatchRecord, view: View, *, lead: bool = True) -> list[str]:
    """The tile on the table (when ``lead``) and the last trick the game shows."""
    lines = []
    if lead and view.lead is not None and view.leader is not None:
        lines.append(tr("table-lead", tile=tile(view.lead), name=name(record, view.leader)))
    last = game_of(view).shown_last_trick(view)
    if last is not None:
        lines.append(last_trick_text(tr, record, last))
    return lines


def table_text(tr: Translator, record: MatchRecord, view: View) -> str:
    """The group's table message for the deal (``view`` is the seat-less table view)."""
    assert view.seat is None, "the table renders the table view only"
    game = game_of(view)
    lines = [tr("table-title", game=game_name(tr, view.preset), deal=view.deal)]
    if view.commitment is not None:
        lines.append(tr("table-commitment", hash=fingerprint(view.commitment)))
    lines += match_start_lines(tr, record, view, seeds=True)
    lines.append(score_line(tr, record, view))
    lines += game.table_lines(tr, record, view)
    lines += _trick_lines(tr, record, view)
    lines += game.tally_lines(tr, record, view)
    if view.turn is not None and record.is_active:
        lines.append(game.turn_line(tr, record, view) or tr("table-turn", name=name(record, view.turn)))
    return "\n".join(lines)


def panel_text(
    tr: Translator, record: MatchRecord, view: View, *, prev: Deal | None = None, summary: Summary | None = None
) -> str:
    """A player's private panel (``view`` is that seat's view).

    ``prev``: the deal that just ended, shown until the new deal's first move
    (its last trick, points, game points and why, the match score);
    ``summary``: the match's result, shown once it is over (with the rating change).
    """
    seat = view.seat
    assert seat is not None, "a panel renders a seat's view"
    other = 1 - seat
    lines = []
    if prev is not None:
        last = prev.view(None).last_trick
        if last is not None:
            lines.append(last_trick_text(tr, record, last))
        lines += [deal_result_text(tr, record, prev), ""]
    game = game_of(view)
    lines += [
        tr("panel-title", game=game_name(tr, view.preset), deal=view.deal, opponent=name(record, other)),
    ]
    if view.commitment is not None:
        # The group's table may skip a state when the group's budget is spent; a panel shows every deal before its
        # player acts in it, so each player reads the whole commitment before the deal is played.
        lines.append(tr("panel-commitment", hash=view.commitment))
    lines += match_start_lines(tr, record, view, seeds=False)
    lines += [
        tr("panel-score", me=view.score[seat], them=view.score[other], target=view.target),
    ]
    lines += game.panel_lines(tr, record, view)
    lines += _trick_lines(tr, record, view, lead=False)
    if game.replaces_hand(view) and record.is_active and view.hand:
        # The game's own buttons stand in for the tiles: the hand is listed instead.
        lines.append(tr("panel-hand", tiles=tiles(view.hand)))
    lines.append(prompt(tr, record, view))
    if record.turn_timeout and record.is_active and view.end is None and view.turn == seat:
        lines.append(tr("panel-clock", left=duration(tr, record.turn_timeout)))
    if summary is not None and not record.is_active:
        lines += ["", match_result_text(tr, record, summary)]
        rating = rating_text(tr, record, summary)
        if rating is not None:
            lines.append(rating)
        lines += key_reveal_lines(tr, record)
    return "\n".join(lines)


# -- fair deals (engine/fairness.py, docs/fairness.md) ---------------------------------


def key_commitment_line(tr: Translator, key: str) -> str:
    """The match key's commitment (SHA-256 of the key, 64 hex digits; ``key`` in hex), shown before the match."""
    return tr("fair-key-commitment", hash=commitment(bytes.fromhex(key)))


def seeds_line(tr: Translator, record: MatchRecord) -> str:
    """Both seats' seeds the match's deals were drawn with (the computer's seat has none)."""
    assert record.fair is not None, "a match without seeds"
    seeds = record.fair.seeds
    parts = [
        tr("fair-seed-computer", name=name(record, seat))
        if record.players[seat].computer
        else tr("fair-seed", name=name(record, seat), seed=user_text(seeds[seat], SEED_LIMIT))
        for seat in (0, 1)
    ]
    return tr("fair-seeds", a=parts[0], b=parts[1])


def match_start_lines(tr: Translator, record: MatchRecord, view: View, *, seeds: bool) -> list[str]:
    """The first deal of a match dealt from a committed key: the key's commitment (for a rematch's and a
    tournament's match, the first place it is shown) and, with ``seeds``, the seeds it was drawn with."""
    if record.fair is None or view.deal != 1:
        return []
    return [key_commitment_line(tr, record.fair.key), *([seeds_line(tr, record)] if seeds else [])]


def key_reveal_lines(tr: Translator, record: MatchRecord) -> list[str]:
    """A match that is over: its key and both seeds, all that checking its deals needs (none before its end)."""
    if record.fair is None or record.is_active:
        return []
    return [tr("fair-key", hex=record.fair.key), seeds_line(tr, record)]


def prompt(tr: Translator, record: MatchRecord, view: View) -> str:
    """What a seat's panel (and its Mini App page) asks of its player now, or whom they wait for."""
    seat = view.seat
    if not record.is_active:
        return tr("panel-match-over")
    if view.end is not None:
        return tr("panel-match-over") if max(view.score) >= view.target else tr("panel-over")
    if view.turn != seat:
        opponent = name(record, 1 - (seat or 0))
        if view.lead is not None and view.leader == seat:
            return tr("panel-wait-reply", name=opponent, tile=tile(view.lead))
        return tr("panel-wait", name=opponent)
    own = game_of(view).prompt(tr, view)
    if own is not None:
        return own
    if view.lead is None:
        return tr("panel-lead")
    prompt = tr("panel-reply", tile=tile(view.lead))
    playable = {a.value for a in view.legal if a.kind is Kind.PLAY}
    if any(t.index not in playable for t in view.hand):
        prompt += "\n" + tr("panel-hint")
    return prompt


def deal_result_text(tr: Translator, record: MatchRecord, deal: Deal) -> str:
    """The message posted when a deal ends: points, game points and why."""
    view = deal.view(None)
    secret = [] if view.secret is None else [tr("deal-secret", secret=view.secret)]
    if view.end is DealEnd.ALL_PASSED:
        return "\n".join([tr("deal-all-passed", name=name(record, deal.first)), *secret])
    pa, pb = view.points
    lines = [
        tr(
            "deal-result",
            deal=view.deal,
            a=name(record, 0),
            b=name(record, 1),
            pa=tr("points", n=pa),
            pb=tr("points", n=pb),
        )
    ]
    if not view.awards:
        lines.append(tr("deal-no-points"))
    lines += [award_text(tr, record, view, award) for award in view.awards]
    lines.append(tr("deal-score", a=name(record, 0), b=name(record, 1), sa=view.score[0], sb=view.score[1]))
    return "\n".join(lines + secret)


def award_text(tr: Translator, record: MatchRecord, view: View, award: Award) -> str:
    """One line saying who got game points and why (``view``: the table view of the finished deal)."""
    args: dict[str, object] = {"name": name(record, award.seat), "gp": tr("game-points", n=award.game_points)}
    args |= game_of(view).award_args(tr, view, award)
    return tr(f"reason-{award.reason.value}", **args)


def match_result_text(tr: Translator, record: MatchRecord, summary: Summary) -> str:
    if summary.winner is None:
        a, b = summary.score
        return tr("match-abandoned", a=name(record, 0), b=name(record, 1), sa=a, sb=b)
    w, lo = summary.winner, 1 - summary.winner
    sw, sl = summary.score[w], summary.score[lo]
    if summary.finish in (Finish.SURRENDER, Finish.FORFEIT):
        key = "match-surrender" if summary.finish is Finish.SURRENDER else "match-forfeit"
        return tr(key, loser=name(record, lo), winner=name(record, w), sw=sw, sl=sl)
    return tr("match-won", name=name(record, w), sw=sw, sl=sl)


def result_caption(
    tr: Translator,
    record: MatchRecord,
    summary: Summary,
    line: str | None = None,
    *,
    link: str | None = None,
    notes: tuple[str, ...] = (),
) -> str:
    """The group's match result (``group_result_text``), ``notes`` (each person's accuracy and hints), the match's
    key and seeds (``key_reveal_lines``), ``link`` (to the match's replay) and ``line`` under it (what became of
    the rematch)."""
    parts = (group_result_text(tr, record, summary), *notes, *key_reveal_lines(tr, record), link, line)
    return "\n".join(part for part in parts if part is not None)


def rating_text(tr: Translator, record: MatchRecord, summary: Summary) -> str | None:
    """The rating change line of a counted match (None when the summary carries no ratings)."""
    if summary.ratings is None or summary.winner is None:
        return None
    w, lo = summary.winner, 1 - summary.winner
    return tr(
        "rating-change",
        winner=name(record, w),
        loser=name(record, lo),
        rw=str(summary.ratings[0]),
        rl=str(summary.ratings[1]),
        d=summary.rating_change,
    )


def group_result_text(tr: Translator, record: MatchRecord, summary: Summary) -> str:
    """The match's result as the group reads it: how it ended, the rating change, the series."""
    extra = (rating_text(tr, record, summary), series_text(tr, record, summary))
    return "\n".join([match_result_text(tr, record, summary), *(line for line in extra if line is not None)])


def series_text(tr: Translator, record: MatchRecord, summary: Summary) -> str | None:
    """Who leads the two players' series in the chat after the match (None for a match not between two
    people, or counted before series were)."""
    if summary.series is None or summary.winner is None:
        return None
    won, lost = summary.series
    if won == lost:
        return tr("series-tie", n=won)
    leader = summary.winner if won > lost else 1 - summary.winner
    return tr("series-lead", name=name(record, leader), lead=max(won, lost), trail=min(won, lost))


def rivalry_text(tr: Translator, mine: str, theirs: str, rivalry: Rivalry) -> str:
    """Two people's head-to-head record in a chat, the asker's (``mine``: their name) first."""
    names = {rivalry.me: user_text(mine), rivalry.them: user_text(theirs)}
    lines = [
        tr("rivalry-title", a=names[rivalry.me], b=names[rivalry.them]),
        tr("rivalry-score", played=rivalry.played, won=rivalry.won, lost=rivalry.lost),
    ]
    if rivalry.streak is not None:
        holder, length = rivalry.streak
        lines.append(tr("rivalry-streak", name=names.get(holder, ""), wins=tr("wins", n=length)))
    for game, (won, lost) in sorted(rivalry.per_game.items()):
        lines.append(tr("rivalry-game", game=tr(f"game-{game}"), won=won, lost=lost))
    meetings = []
    for meeting in rivalry.last:
        won_it = meeting.winner == rivalry.me
        mine_score, their_score = meeting.score if won_it else meeting.score[::-1]
        meetings.append(tr("rivalry-meeting", result="won" if won_it else "lost", game=tr(f"game-{meeting.game}"),
                           mine=mine_score, theirs=their_score))  # fmt: skip
    if meetings:
        lines.append(tr("rivalry-last", meetings=" · ".join(meetings)))
    return "\n".join(lines)


def season_name(tr: Translator, season: str) -> str:
    """A season as players say it: «март 2026», «marzec 2026»."""
    year, month = year_month(season)
    return tr("season-name", month=month, year=str(year))


def season_line(tr: Translator, row: SeasonStanding) -> str:
    """One row of a season's table: place, name, wins, losses, the rating gained in the season."""
    return tr(
        "season-row",
        rank=row.rank,
        name=user_text(row.name or str(row.user_id)),
        wins=tr("wins", n=row.won),
        losses=tr("losses", n=row.lost),
        gained=signed(row.gained),
    )


def season_final_text(tr: Translator, season: str, rows: list[SeasonStanding]) -> str:
    """The group's post at a season's end: its final table and its champion (``rows``: best first)."""
    champion = rows[0]
    lines = [
        tr("season-final-title", season=season_name(tr, season)),
        tr("season-champion", name=user_text(champion.name or str(champion.user_id)), wins=tr("wins", n=champion.won)),
        "",
        *(season_line(tr, row) for row in rows),
        "",
        tr("season-final-next"),
    ]
    return "\n".join(lines)


MINUS = "\u2212"


def signed(change: int) -> str:
    """A rating change as players write it: +17, \u221217 (a real minus sign), 0."""
    return f"+{change}" if change > 0 else f"{MINUS}{-change}" if change < 0 else "0"


def private_result_text(
    tr: Translator, record: MatchRecord, summary: Summary, seat: int, *, link: str | None = None
) -> str:
    """What a player reads under the match card in private: won or lost, the score, their own rating change;
    ``link`` (to the match's replay) under it."""
    won = summary.winner == seat
    lines = [
        tr(
            "card-private",
            result="won" if won else "lost",
            opponent=name(record, 1 - seat),
            mine=summary.score[seat],
            theirs=summary.score[1 - seat],
        )
    ]
    if summary.ratings is not None and summary.winner is not None:
        change = summary.rating_change if won else -summary.rating_change
        rating = summary.ratings[0 if won else 1]
        lines.append(tr("card-private-rating", rating=str(rating), change=signed(change)))
    if link is not None:
        lines.append(link)
    return "\n".join(lines)


FOLLOW_REFUSALS = frozenset(
    {Refusal.MUST_FOLLOW_SUIT, Refusal.MUST_BEAT, Refusal.MUST_FOLLOW_LOWER_HALF, Refusal.MUST_TRUMP}
)
"""Refusals of a reply that breaks the duty to follow: their text names the led tile and the suit asked for."""


def refusal_text(tr: Translator, refusal: Refusal, view: View | None) -> str:
    """Why a press was refused, naming the led tile and the suit it asks for (``view``: the presser's seat)."""
    lead = view.lead if view is not None else None
    if refusal not in FOLLOW_REFUSALS or lead is None or view is None or view.trump is None:
        return tr(f"refusal-{refusal.value}")
    refusal, suit, low = game_of(view).follow_duty(view, lead, refusal)
    args = {"tile": tile(lead), "suit": view.trump if refusal is Refusal.MUST_TRUMP else suit, "low": low}
    return tr(f"refusal-{refusal.value}", **args)


# -- challenges and notices ----------------------------------------------------------


def challenge_text(tr: Translator, challenge: Challenge, *, inline: bool = False) -> str:
    """The group's message of an open challenge: who, to whom, which game, how long it stays open; ``inline``: one
    posted via the bot in any chat (inline mode), where the creator has no computer to play instead and the
    hands come in the private chat with the bot."""
    opponent = challenge.opponent_name or (f"@{challenge.opponent_username}" if challenge.opponent_username else None)
    args = {"creator": user_text(challenge.creator.name), "game": game_name(tr, challenge.preset)}
    if opponent:
        head = tr("challenge-invite", opponent=user_text(opponent), target=challenge.target, **args)
    else:
        head = tr("challenge-anyone", target=challenge.target, **args)
    expires = tr("challenge-expires", **duration_args(challenge.expires - challenge.created))
    # The key of the match it becomes is committed before anyone can accept (engine/fairness.py).
    key = [] if challenge.key is None else [key_commitment_line(tr, challenge.key)]
    return "\n".join([head, expires, *key, tr("inline-hint" if inline else "challenge-computer-hint")])


def challenge_closed_text(tr: Translator, challenge: Challenge, key: str) -> str:
    """What a challenge's message says once it is gone (``key``: withdrawn, cancelled or expired)."""
    return tr(key, creator=user_text(challenge.creator.name))


def challenge_accepted_text(tr: Translator, record: MatchRecord, preset: str, target: int) -> str:
    """What a challenge's message says once accepted: the match has begun."""
    key = "challenge-accepted" if record.computer_seat is None else "challenge-accepted-computer"
    text = tr(key, a=name(record, 0), b=name(record, 1), game=game_name(tr, preset), target=target)
    # The key's commitment the challenge showed stays in the chat.
    return text if record.fair is None else "\n".join([text, key_commitment_line(tr, record.fair.key)])


def surrender_question(tr: Translator, record: MatchRecord, seat: int) -> str:
    return tr("surrender-confirm", opponent=name(record, 1 - seat))


def player_notice(tr: Translator, record: MatchRecord, seat: int, *, started: bool) -> str:
    """The bot cannot write to a player: who never ``started`` it is asked to; who blocked it, to unblock it."""
    return tr("player-blocked" if started else "need-start", name=name(record, seat))


def reminder_texts(
    tr: Translator, record: MatchRecord, seat: int, left: float, private_tr: Translator | None = None
) -> tuple[str, str]:
    """Half the time for a move is gone: what the player to act reads in private (in ``private_tr``'s language
    when given: theirs), and the group's line that mentions them (so Telegram notifies them there too)."""
    # What is left, as a player would say it: whole minutes, or seconds by fives.
    seconds = 60 * round(left / 60) if left >= 60 else 5 * math.ceil(max(left, 1) / 5)
    player = record.players[seat]
    group = tr("reminder-group", id=str(player.id), name=name(record, seat), left=duration(tr, seconds))
    private_tr = private_tr or tr
    return private_tr("reminder-private", left=duration(private_tr, seconds)), group
