"""What a finished deal leaves in the match's log: game points won and the moments a match card shows."""

from __future__ import annotations

from bot.models import DealLine, MomentRecord
from engine import Deal
from engine.bingo import BingoView
from engine.fortytwo import FortyTwoView
from engine.outcomes import Reason
from engine.tiles import Tile

BINGO = Tile(0, 0)
CLAIM_MOMENT = 6
"""A claim of this many doubles or more is a moment."""
ALL_42 = 42
"""A bid of 42 made is a moment."""


def deal_line(deal: Deal) -> DealLine:
    """The log line of a finished deal: each seat's game points in it, its moments and its last trick."""
    view = deal.view(None)
    won = [0, 0]
    moments: list[MomentRecord] = []
    for award in view.awards:
        won[award.seat] += award.game_points
        moment = _moment(view, award.seat, award.reason, award.claimed)
        if moment is not None:
            moments.append(moment)
    last = view.last_trick
    return DealLine(
        n=view.deal,
        g=(won[0], won[1]),
        m=tuple(moments),
        last=None if last is None else (last.lead.notation(), last.reply.notation()),
    )


def _moment(view: BingoView | FortyTwoView, seat: int, reason: Reason, claimed: int) -> MomentRecord | None:
    trump = view.trump
    if reason is Reason.BINGO_TAKES_TRUMP_DOUBLE and trump is not None:
        return MomentRecord(k="bingo", s=seat, t=(BINGO.notation(), Tile(trump, trump).notation()))
    if reason is Reason.CLAIM and claimed >= CLAIM_MOMENT and isinstance(view, BingoView):
        doubles = next(
            (c.doubles for c in reversed(view.claims) if c.seat == seat and c.scored and len(c.doubles) == claimed),
            (),
        )
        return MomentRecord(k="claim", s=seat, t=tuple(t.notation() for t in doubles))
    if reason in (Reason.CLOSER_FAILED, Reason.CLOSER_FAILED_PENALTY):
        return MomentRecord(k="close", s=1 - seat)
    if reason is Reason.BID_MADE and isinstance(view, FortyTwoView) and view.bid == ALL_42:
        tiles = () if trump is None else (Tile(trump, trump).notation(),)
        return MomentRecord(k="made42", s=seat, t=tiles)
    return None
