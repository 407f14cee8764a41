"""42 for two as the bot shows it: the phase, the bids and the contract, the points against the bid; bid and
trump buttons in place of the tiles."""

from __future__ import annotations

from bot.games.base import Button, GameModule, MoveButton, rows_of, tricks_line
from bot.i18n import Translator
from bot.models import MatchRecord, MomentRecord
from bot.texts import name
from engine import Action, Award, FortyTwoRules, FortyTwoView, Kind, Reason, Refusal, Tile, TrickView
from engine.actions import PASS
from engine.fortytwo import DRAW_BEATS, PLAY_BEATS, Phase
from engine.tiles import BIT

BIDS_PER_ROW = 7
ALL_42 = 42
"""A bid of 42 made is a moment."""
PLAYED = (Phase.PLAY, Phase.OVER)
"""The phases after trumps are named: only their tricks score."""


def _points(view: FortyTwoView, seat: int) -> str:
    """A seat's points in the play; the declarer's against the bid ("12/30")."""
    points = view.points[seat]
    return f"{points}/{view.bid}" if seat == view.declarer and view.bid is not None else str(points)


class FortyTwo(GameModule[FortyTwoView, FortyTwoRules]):
    name = "42"
    messages = (
        "table-phase", "table-stock", "table-bids", "bid-pass", "table-contract", "table-contract-pending", "suit",
        "table-draw-tricks", "table-tricks", "table-points", "panel-points-42", "panel-bid-first", "panel-bid",
        "panel-trumps", "btn-pass", "btn-trump", "reason-bid_made", "reason-bid_set", "points",
        "card-moment-made42", "hint-why-wins-trick", "hint-why-gives-trick",
    )  # fmt: skip

    def _common(self, tr: Translator, record: MatchRecord, view: FortyTwoView) -> list[str]:
        """Lines the table and both panels share: the phase, the stock, the bids, the contract."""
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
            declarer = name(record, view.declarer)
            if view.trump is not None:
                lines.append(tr("table-contract", name=declarer, bid=view.bid, trump=tr("suit", suit=view.trump)))
            else:
                lines.append(tr("table-contract-pending", name=declarer, bid=view.bid))
        if view.phase in (Phase.DRAW, Phase.BIDDING, Phase.TRUMPS):
            lines.append(tricks_line(tr, record, view.draw_tricks, "table-draw-tricks"))
        return lines

    def table_lines(self, tr: Translator, record: MatchRecord, view: FortyTwoView) -> list[str]:
        return self._common(tr, record, view)

    def tally_lines(self, tr: Translator, record: MatchRecord, view: FortyTwoView) -> list[str]:
        if view.phase not in PLAYED or view.trump is None:
            return []
        points = tr("table-points", a=name(record, 0), b=name(record, 1), pa=_points(view, 0), pb=_points(view, 1))
        return [tricks_line(tr, record, view.tricks), points]

    def panel_lines(self, tr: Translator, record: MatchRecord, view: FortyTwoView) -> list[str]:
        seat = view.seat
        assert seat is not None, "a panel shows a seat's view"
        lines = self._common(tr, record, view)
        if view.phase in PLAYED and view.trump is not None:
            other = 1 - seat
            mine, theirs = _points(view, seat), _points(view, other)
            lines.append(tr("panel-points-42", mine=mine, theirs=theirs, tm=view.tricks[seat], tt=view.tricks[other]))
        return lines

    def shown_last_trick(self, view: FortyTwoView) -> TrickView | None:
        """The draw's tricks stay in the draw: none is shown once trumps are named, until a trick of the play."""
        if view.phase in PLAYED and not any(view.tricks):
            return None
        return view.last_trick

    def prompt(self, tr: Translator, view: FortyTwoView) -> str | None:
        if view.phase is Phase.BIDDING:
            if view.bid is None:
                return tr("panel-bid-first", min=self.rules(view.preset).min_bid)
            return tr("panel-bid", bid=view.bid)
        if view.phase is Phase.TRUMPS:
            return tr("panel-trumps")
        return None

    def replaces_hand(self, view: FortyTwoView) -> bool:
        """The player to bid or to name trumps has bid or suit buttons."""
        return view.turn == view.seat and view.phase in (Phase.BIDDING, Phase.TRUMPS)

    def own_rows(self, tr: Translator, view: FortyTwoView, button: MoveButton) -> list[list[Button]]:
        if view.phase is Phase.BIDDING:
            bids = [a for a in view.legal if a.kind is Kind.BID]
            return [*rows_of([button(str(a.value), a) for a in bids], BIDS_PER_ROW), [button(tr("btn-pass"), PASS)]]
        if view.phase is Phase.TRUMPS:
            trumps = [a for a in view.legal if a.kind is Kind.TRUMPS]
            return rows_of([button(tr("btn-trump", suit=a.value), a) for a in trumps], 2)
        return []

    def hint_reason(self, tr: Translator, view: FortyTwoView, action: Action) -> str | None:
        """An answer wins the trick or gives it cheaply (in the draw phase as in the play)."""
        if action.kind is not Kind.PLAY or view.lead is None:
            return None
        lead = view.lead.index
        beats = DRAW_BEATS[lead] if view.phase is Phase.DRAW else PLAY_BEATS[view.trump or 0][lead]
        return tr("hint-why-wins-trick" if beats & BIT[action.value] else "hint-why-gives-trick")

    def follow_duty(self, view: FortyTwoView, lead: Tile, refusal: Refusal) -> tuple[Refusal, int, int]:
        """A tile leads its higher end; a trump led is followed with a trump (the engine calls that following
        suit)."""
        if view.trump in (lead.high, lead.low):
            return Refusal.MUST_TRUMP, lead.high, lead.low
        return refusal, lead.high, lead.low

    def award_args(self, tr: Translator, view: FortyTwoView, award: Award) -> dict[str, object]:
        """The bid, and the points the declarer took."""
        if award.reason not in (Reason.BID_MADE, Reason.BID_SET):
            return {}
        declarer = award.seat if award.reason is Reason.BID_MADE else 1 - award.seat
        return {"bid": view.bid or 0, "pts": tr("points", n=view.points[declarer])}

    def moment(self, view: FortyTwoView, award: Award) -> MomentRecord | None:
        """A bid of 42 made."""
        if award.reason is Reason.BID_MADE and view.bid == ALL_42:
            trump = view.trump
            return MomentRecord(k="made42", s=award.seat, t=() if trump is None else (Tile(trump, trump).notation(),))
        return None


GAME = FortyTwo()
