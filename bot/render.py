"""Where engine values become words: texts of the table, the panels and the results.

Everything here works on views (``deal.view(seat)``), never on a raw state,
so a hand can only appear in its own seat's panel. Texts are HTML; player
names are escaped.
"""

from __future__ import annotations

import datetime
import functools
import math
from html import escape

from bot.i18n import Translator
from bot.models import Challenge, Finish, MatchRecord, Summary
from engine import Award, BingoView, Deal, DealEnd, FortyTwoView, Kind, Reason, Refusal, Tile, TrickView, find_preset
from engine.bingo import LOWER, SUIT
from engine.fortytwo import Phase
from engine.rules import BingoRules, ClosePenalty, FortyTwoRules

View = BingoView | FortyTwoView


NAME_LIMIT = 32
"""Characters of a user's name (or other text a user typed) that a message shows; longer ones end in "…"."""


def clip(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (the last one "…" when cut): user text never floods a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@functools.lru_cache(maxsize=4096)
def user_text(text: str, limit: int = NAME_LIMIT) -> str:
    """Text a user wrote (a name, a command's argument) made safe for an HTML message: cut, then escaped."""
    return escape(clip(text, limit))


def tile(t: Tile) -> str:
    return f"[{t.high}|{t.low}]"


def blocked_tile(t: Tile) -> str:
    """A tile the player may not play now, as its button shows it."""
    return f"🚫 {t.high}|{t.low}"


def tiles(ts: tuple[Tile, ...]) -> str:
    return " ".join(tile(t) for t in ts)


def name(record: MatchRecord, seat: int) -> str:
    return user_text(record.players[seat].name)


def duration(tr: Translator, seconds: float) -> str:
    """A span of time in whole days, hours, minutes or seconds ("10 минут"), the largest unit that fits."""
    whole = round(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if whole >= size and whole % size == 0:
            return tr("duration", unit=unit, n=whole // size)
    if whole >= 60:
        return tr("duration", unit="m", n=round(whole / 60))
    return tr("duration", unit="s", n=whole)


def date(when: float) -> str:
    """A day as players read it: 02.12.2026 (UTC)."""
    return datetime.datetime.fromtimestamp(when, datetime.UTC).strftime("%d.%m.%Y")


def clock_text(tr: Translator, seconds: int) -> str:
    """A turn clock setting: its time, or that there is none."""
    return duration(tr, seconds) if seconds else tr("clock-off")


def game_name(tr: Translator, preset: str) -> str:
    return tr(f"preset-{preset}")


def _score_line(tr: Translator, record: MatchRecord, view: View) -> str:
    return tr(
        "table-score",
        a=name(record, 0),
        b=name(record, 1),
        sa=view.score[0],
        sb=view.score[1],
        target=view.target,
    )


def _tricks(tr: Translator, record: MatchRecord, counts: tuple[int, int], key: str = "table-tricks") -> str:
    return tr(key, a=name(record, 0), b=name(record, 1), ta=counts[0], tb=counts[1])


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
    """The tile on the table (when ``lead``) and the last trick (of this phase: 42's draw tricks stay in the draw)."""
    lines = []
    if lead and view.lead is not None and view.leader is not None:
        lines.append(tr("table-lead", tile=tile(view.lead), name=name(record, view.leader)))
    last = view.last_trick
    if isinstance(view, FortyTwoView) and view.phase in (Phase.PLAY, Phase.OVER) and not any(view.tricks):
        last = None
    if last is not None:
        lines.append(last_trick_text(tr, record, last))
    return lines


def _bingo_common(tr: Translator, record: MatchRecord, view: BingoView) -> list[str]:
    """Lines the table and both panels share in Bingo: trumps, the reserve (and that suit must be followed)."""
    lines = []
    if view.indicator is not None:
        lines.append(tr("table-trump", suit=view.trump, tile=tile(view.indicator)))
    else:
        lines.append(tr("table-trump-hidden", suit=view.trump))
    if view.closed_by is not None:
        lines.append(tr("table-closed", name=name(record, view.closed_by), playing="yes" if view.end is None else "no"))
    elif view.reserve:
        lines.append(tr("table-reserve", n=view.reserve))
    elif view.end is None:
        lines.append(tr("table-reserve-empty"))
    return lines


def claim_title(tr: Translator, preset: str, count: int) -> str:
    """The name the preset's source gives to declaring ``count`` doubles («король»), or ""."""
    return tr("claim-name", preset=preset, n=count)


def _claims(tr: Translator, record: MatchRecord, view: BingoView, seats: tuple[int, ...]) -> list[str]:
    lines = []
    for claim in view.claims:
        if claim.seat not in seats:
            continue
        state = "open" if claim.scored is None else "won" if claim.scored else "lost"
        title = claim_title(tr, view.preset, len(claim.doubles))
        lines.append(
            tr(
                "table-claim",
                name=name(record, claim.seat),
                title=f"{title}, " if title else "",
                n=len(claim.doubles),
                tiles=tiles(claim.doubles),
                state=state,
            )
        )
    return lines


def _points_42(view: FortyTwoView, seat: int) -> str:
    """A seat's points in 42's play; the declarer's against the bid ("12/30")."""
    points = view.points[seat]
    return f"{points}/{view.bid}" if seat == view.declarer and view.bid is not None else str(points)


def _fortytwo_common(tr: Translator, record: MatchRecord, view: FortyTwoView) -> list[str]:
    lines = [tr("table-phase", phase=view.phase.value)]
    if view.phase is Phase.DRAW:
        lines.append(tr("table-stock", n=view.stock))
    if view.bids:
        speaker = 1 - view.opener
        said = []
        for i, bid in enumerate(view.bids):
            who = name(record, speaker if i % 2 == 0 else 1 - speaker)
            said.append(f"{who} {bid if bid is not None else tr('bid-pass')}")
        lines.append(tr("table-bids", list=", ".join(said)))
    if view.declarer is not None and view.bid is not None:
        if view.trump is not None:
            lines.append(
                tr("table-contract", name=name(record, view.declarer), bid=view.bid, trump=tr("suit", suit=view.trump))
            )
        else:
            lines.append(tr("table-contract-pending", name=name(record, view.declarer), bid=view.bid))
    if view.phase in (Phase.DRAW, Phase.BIDDING, Phase.TRUMPS):
        lines.append(_tricks(tr, record, view.draw_tricks, "table-draw-tricks"))
    return lines


def table_text(tr: Translator, record: MatchRecord, view: View) -> str:
    """The group's table message for the deal (``view`` is the seat-less table view)."""
    assert view.seat is None, "the table renders the table view only"
    lines = [tr("table-title", game=game_name(tr, view.preset), deal=view.deal), _score_line(tr, record, view)]
    if isinstance(view, BingoView):
        lines += _bingo_common(tr, record, view)
        lines += _claims(tr, record, view, (0, 1))
        lines += _trick_lines(tr, record, view)
        lines.append(_tricks(tr, record, view.tricks))
        if view.turn is not None and record.is_active:
            if view.choosing and view.indicator is not None:
                lines.append(tr("table-choosing", name=name(record, view.turn), tile=tile(view.indicator)))
            else:
                lines.append(tr("table-turn", name=name(record, view.turn)))
    else:
        lines += _fortytwo_common(tr, record, view)
        lines += _trick_lines(tr, record, view)
        if view.phase in (Phase.PLAY, Phase.OVER) and view.trump is not None:
            lines.append(_tricks(tr, record, view.tricks))
            lines.append(
                tr("table-points", a=name(record, 0), b=name(record, 1), pa=_points_42(view, 0), pb=_points_42(view, 1))
            )
        if view.turn is not None and record.is_active:
            lines.append(tr("table-turn", name=name(record, view.turn)))
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
    lines += [
        tr("panel-title", game=game_name(tr, view.preset), deal=view.deal, opponent=name(record, other)),
        tr("panel-score", me=view.score[seat], them=view.score[other], target=view.target),
    ]
    if isinstance(view, BingoView):
        lines += _bingo_common(tr, record, view)
        own = view.points[seat]
        goal = bingo_rules(view).goal
        lines.append(tr("panel-points", points=own or 0, goal=goal, mine=view.tricks[seat], theirs=view.tricks[other]))
        shown = [c for c in view.claims if c.seat == other]
        if shown:
            lines.append(tr("panel-opponent-claims", tiles=tiles(shown[-1].doubles)))
        lines += _claims(tr, record, view, (seat,))
    else:
        lines += _fortytwo_common(tr, record, view)
        if view.phase in (Phase.PLAY, Phase.OVER) and view.trump is not None:
            lines.append(
                tr(
                    "panel-points-42",
                    mine=_points_42(view, seat),
                    theirs=_points_42(view, other),
                    tm=view.tricks[seat],
                    tt=view.tricks[other],
                )
            )
    lines += _trick_lines(tr, record, view, lead=False)
    if (
        isinstance(view, FortyTwoView)
        and view.phase in (Phase.BIDDING, Phase.TRUMPS)
        and view.turn == seat
        and record.is_active
        and view.hand
    ):
        # The player to bid or name trumps has bid or suit buttons instead of the tiles.
        lines.append(tr("panel-hand", tiles=tiles(view.hand)))
    lines.append(_prompt(tr, record, view))
    if record.turn_timeout and record.is_active and view.end is None and view.turn == seat:
        lines.append(tr("panel-clock", left=duration(tr, record.turn_timeout)))
    if summary is not None and not record.is_active:
        lines += ["", match_result_text(tr, record, summary)]
        rating = rating_text(tr, record, summary)
        if rating is not None:
            lines.append(rating)
    return "\n".join(lines)


def _prompt(tr: Translator, record: MatchRecord, view: View) -> str:
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
    if isinstance(view, BingoView) and view.choosing and view.indicator is not None:
        return tr("panel-choose", tile=tile(view.indicator))
    if isinstance(view, FortyTwoView):
        if view.phase is Phase.BIDDING:
            if view.bid is None:
                rules = find_preset(view.preset)
                assert isinstance(rules, FortyTwoRules)
                return tr("panel-bid-first", min=rules.min_bid)
            return tr("panel-bid", bid=view.bid)
        if view.phase is Phase.TRUMPS:
            return tr("panel-trumps")
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
    if view.end is DealEnd.ALL_PASSED:
        return tr("deal-all-passed", name=name(record, deal.first))
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
    return "\n".join(lines)


def award_text(tr: Translator, record: MatchRecord, view: View, award: Award) -> str:
    """One line saying who got game points and why (``view``: the table view of the finished deal)."""
    args: dict[str, object] = {"name": name(record, award.seat), "gp": tr("game-points", n=award.game_points)}
    reason = award.reason
    rules = find_preset(view.preset)
    if isinstance(rules, BingoRules):
        args["threshold"] = rules.schneider
        args["penalty"] = "first" if rules.close_penalty is ClosePenalty.CLOSED_BEFORE_FIRST_TRICK else "notrick"
    if reason is Reason.CLAIM:
        title = claim_title(tr, view.preset, award.claimed)
        args["claim"] = tr("doubles", n=award.claimed) + (f" ({title})" if title else "")
    if isinstance(view, FortyTwoView) and reason in (Reason.BID_MADE, Reason.BID_SET):
        declarer = award.seat if reason is Reason.BID_MADE else 1 - award.seat
        args["bid"] = view.bid or 0
        args["pts"] = tr("points", n=view.points[declarer])
    return tr(f"reason-{reason.value}", **args)


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


MINUS = "\u2212"


def signed(change: int) -> str:
    """A rating change as players write it: +17, \u221217 (a real minus sign), 0."""
    return f"+{change}" if change > 0 else f"{MINUS}{-change}" if change < 0 else "0"


def private_result_text(tr: Translator, record: MatchRecord, summary: Summary, seat: int) -> str:
    """What a player reads under the match card in private: won or lost, the score, their own rating change."""
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
    return "\n".join(lines)


def bingo_rules(view: BingoView) -> BingoRules:
    """The rule set of a Bingo deal's preset."""
    rules = find_preset(view.preset)
    assert isinstance(rules, BingoRules)
    return rules


FOLLOW_REFUSALS = frozenset(
    {Refusal.MUST_FOLLOW_SUIT, Refusal.MUST_BEAT, Refusal.MUST_FOLLOW_LOWER_HALF, Refusal.MUST_TRUMP}
)
"""Refusals of a reply that breaks the duty to follow: their text names the led tile and the suit asked for."""


def refusal_text(tr: Translator, refusal: Refusal, view: View | None) -> str:
    """Why a press was refused, naming the led tile and the suit it asks for (``view``: the presser's seat)."""
    lead = view.lead if view is not None else None
    if refusal not in FOLLOW_REFUSALS or lead is None or view is None or view.trump is None:
        return tr(f"refusal-{refusal.value}")
    if isinstance(view, BingoView):
        suit, low = SUIT[lead.index], LOWER[lead.index]
    else:
        suit, low = lead.high, lead.low
        if view.trump in (lead.high, lead.low):
            # A trump led in 42 is followed with a trump: the engine calls it following suit.
            refusal = Refusal.MUST_TRUMP
    args = {"tile": tile(lead), "suit": view.trump if refusal is Refusal.MUST_TRUMP else suit, "low": low}
    return tr(f"refusal-{refusal.value}", **args)


# -- challenges and notices ----------------------------------------------------------


def challenge_text(tr: Translator, challenge: Challenge) -> str:
    """The group's message of an open challenge: who, to whom, which game, how long it stays open."""
    minutes = max(1, round((challenge.expires - challenge.created) / 60))
    opponent = challenge.opponent_name or (f"@{challenge.opponent_username}" if challenge.opponent_username else None)
    args = {"creator": user_text(challenge.creator.name), "game": game_name(tr, challenge.preset)}
    if opponent:
        head = tr("challenge-invite", opponent=user_text(opponent), target=challenge.target, **args)
    else:
        head = tr("challenge-anyone", target=challenge.target, **args)
    return head + "\n" + tr("challenge-expires", n=minutes) + "\n" + tr("challenge-computer-hint")


def challenge_closed_text(tr: Translator, challenge: Challenge, key: str) -> str:
    """What a challenge's message says once it is gone (``key``: withdrawn, cancelled or expired)."""
    return tr(key, creator=user_text(challenge.creator.name))


def challenge_accepted_text(tr: Translator, record: MatchRecord, preset: str, target: int) -> str:
    """What a challenge's message says once accepted: the match has begun."""
    key = "challenge-accepted" if record.computer_seat is None else "challenge-accepted-computer"
    return tr(key, a=name(record, 0), b=name(record, 1), game=game_name(tr, preset), target=target)


def surrender_question(tr: Translator, record: MatchRecord, seat: int) -> str:
    return tr("surrender-confirm", opponent=name(record, 1 - seat))


def player_notice(tr: Translator, record: MatchRecord, seat: int, *, started: bool) -> str:
    """The bot cannot write to a player: who never ``started`` it is asked to; who blocked it, to unblock it."""
    return tr("player-blocked" if started else "need-start", name=name(record, seat))


def reminder_texts(tr: Translator, record: MatchRecord, seat: int, left: float) -> tuple[str, str]:
    """Half the time for a move is gone: what the player to act reads in private, and the group's line that
    mentions them (so Telegram notifies them there too)."""
    # What is left, as a player would say it: whole minutes, or seconds by fives.
    wait = duration(tr, 60 * round(left / 60) if left >= 60 else 5 * math.ceil(max(left, 1) / 5))
    player = record.players[seat]
    group = tr("reminder-group", id=str(player.id), name=name(record, seat), left=wait)
    return tr("reminder-private", left=wait), group
