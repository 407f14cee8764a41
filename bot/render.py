"""Where engine values become words: texts of the table, the panels and the results.

Everything here works on views (``deal.view(seat)``), never on a raw state,
so a hand can only appear in its own seat's panel. Texts are HTML; player
names are escaped.
"""

from __future__ import annotations

from html import escape

from bot.i18n import Translator
from bot.services.models import Finish, MatchRecord, Summary
from engine import Award, BingoView, Deal, DealEnd, FortyTwoView, Kind, Reason, Tile, find_preset
from engine.fortytwo import Phase
from engine.rules import BingoRules, ClosePenalty, FortyTwoRules

View = BingoView | FortyTwoView


def tile(t: Tile) -> str:
    return f"[{t.high}|{t.low}]"


def tiles(ts: tuple[Tile, ...]) -> str:
    return " ".join(tile(t) for t in ts)


def name(record: MatchRecord, seat: int) -> str:
    return escape(record.players[seat].name)


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


def _trick_lines(tr: Translator, record: MatchRecord, view: View, *, lead: bool = True) -> list[str]:
    """The tile on the table (when ``lead``) and the last trick."""
    lines = []
    if lead and view.lead is not None and view.leader is not None:
        lines.append(tr("table-lead", tile=tile(view.lead), name=name(record, view.leader)))
    last = view.last_trick
    if last is not None:
        lines.append(tr("table-last", lead=tile(last.lead), reply=tile(last.reply), name=name(record, last.winner)))
    return lines


def _bingo_common(tr: Translator, record: MatchRecord, view: BingoView) -> list[str]:
    """Lines the table and both panels share in Bingo."""
    lines = []
    if view.indicator is not None:
        lines.append(tr("table-trump", suit=view.trump, tile=tile(view.indicator)))
    else:
        lines.append(tr("table-trump-hidden", suit=view.trump))
    if view.closed_by is not None:
        lines.append(tr("table-closed", name=name(record, view.closed_by)))
    elif view.reserve:
        lines.append(tr("table-reserve", n=view.reserve))
    return lines


def _claims(tr: Translator, record: MatchRecord, view: BingoView, seats: tuple[int, ...]) -> list[str]:
    lines = []
    for claim in view.claims:
        if claim.seat not in seats:
            continue
        state = "open" if claim.scored is None else "won" if claim.scored else "lost"
        lines.append(
            tr(
                "table-claim",
                name=name(record, claim.seat),
                n=len(claim.doubles),
                tiles=tiles(claim.doubles),
                state=state,
            )
        )
    return lines


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
            lines.append(tr("table-points", a=name(record, 0), b=name(record, 1), pa=view.points[0], pb=view.points[1]))
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
            lines.append(tr("table-last", lead=tile(last.lead), reply=tile(last.reply), name=name(record, last.winner)))
        lines += [deal_result_text(tr, record, prev), ""]
    lines += [
        tr("panel-title", game=game_name(tr, view.preset), deal=view.deal, opponent=name(record, other)),
        tr("panel-score", me=view.score[seat], them=view.score[other], target=view.target),
    ]
    if isinstance(view, BingoView):
        lines += _bingo_common(tr, record, view)
        own = view.points[seat]
        lines.append(tr("panel-points", points=own or 0, mine=view.tricks[seat], theirs=view.tricks[other]))
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
                    mine=view.points[seat],
                    theirs=view.points[other],
                    tm=view.tricks[seat],
                    tt=view.tricks[other],
                )
            )
    lines += _trick_lines(tr, record, view, lead=False)
    if isinstance(view, FortyTwoView) and view.phase in (Phase.BIDDING, Phase.TRUMPS) and view.hand:
        # These phases show bid or suit buttons instead of the tiles.
        lines.append(tr("panel-hand", tiles=tiles(view.hand)))
    lines.append(_prompt(tr, record, view))
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
        return tr("panel-wait", name=name(record, 1 - (seat or 0)))
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
        args["claim"] = tr("doubles", n=award.claimed)
    if isinstance(view, FortyTwoView) and reason in (Reason.BID_MADE, Reason.BID_SET):
        declarer = award.seat if reason is Reason.BID_MADE else 1 - award.seat
        args["bid"] = view.bid or 0
        args["pts"] = tr("points", n=view.points[declarer])
    return tr(f"reason-{reason.value}", **args)


def match_result_text(tr: Translator, record: MatchRecord, summary: Summary) -> str:
    w, lo = summary.winner, 1 - summary.winner
    sw, sl = summary.score[w], summary.score[lo]
    if summary.finish is Finish.SURRENDER:
        return tr("match-surrender", loser=name(record, lo), winner=name(record, w), sw=sw, sl=sl)
    return tr("match-won", name=name(record, w), sw=sw, sl=sl)


def rating_text(tr: Translator, record: MatchRecord, summary: Summary) -> str | None:
    """The rating change line of a counted match (None when the summary carries no ratings)."""
    if summary.ratings is None:
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
