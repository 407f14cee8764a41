"""Bingo as the bot shows it: trumps and the reserve, claims, points to 70; claim, close and take buttons."""

from __future__ import annotations

from bot.games.base import Button, GameModule, MoveButton, tricks_line
from bot.i18n import Translator
from bot.models import MatchRecord, MomentRecord
from bot.texts import name, tile, tiles
from engine import Action, Award, BingoRules, BingoView, ClosePenalty, Kind, Reason, Refusal, Tile
from engine.actions import CLOSE, TAKE_HIDDEN, TAKE_INDICATOR
from engine.bingo import BEATS, LOWER, SUIT
from engine.tiles import BIT

BINGO_TILE = Tile(0, 0)
CLAIM_MOMENT = 6
"""A claim of this many doubles or more is a moment."""


def claim_title(tr: Translator, preset: str, count: int) -> str:
    """The name the preset's source gives to declaring ``count`` doubles («король»), or ""."""
    return tr("claim-name", preset=preset, n=count)


class Bingo(GameModule[BingoView, BingoRules]):
    name = "bingo"
    targets = (7, 8)
    messages = (
        "table-trump", "table-trump-hidden", "table-closed", "table-reserve", "table-reserve-empty", "table-claim",
        "claim-name", "doubles", "table-tricks", "table-choosing", "panel-points", "panel-opponent-claims",
        "panel-choose", "btn-claim", "claim-value", "btn-close", "btn-take-indicator", "btn-take-hidden",
        "settings-target", "reason-reached_goal", "reason-schneider", "reason-no_trick", "reason-closer_failed",
        "reason-closer_failed_penalty", "reason-reached_goal_after_close", "reason-claim",
        "reason-bingo_takes_trump_double", "card-moment-bingo", "card-moment-claim", "card-moment-close",
        "hint-why-wins-trick", "hint-why-gives-trick", "hint-why-claim-value", "hint-why-close-goal",
        "table-points",
    )  # fmt: skip

    def _common(self, tr: Translator, record: MatchRecord, view: BingoView) -> list[str]:
        """Lines the table and both panels share: trumps, the reserve (and that suit must be followed)."""
        lines = []
        if view.indicator is not None:
            lines.append(tr("table-trump", suit=view.trump, tile=tile(view.indicator)))
        else:
            lines.append(tr("table-trump-hidden", suit=view.trump))
        if view.closed_by is not None:
            playing = "yes" if view.end is None else "no"
            lines.append(tr("table-closed", name=name(record, view.closed_by), playing=playing))
        elif view.reserve:
            lines.append(tr("table-reserve", n=view.reserve))
        elif view.end is None:
            lines.append(tr("table-reserve-empty"))
        return lines

    def _claims(self, tr: Translator, record: MatchRecord, view: BingoView, seats: tuple[int, ...]) -> list[str]:
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
                    title=f" ({title})" if title else "",
                    n=len(claim.doubles),
                    tiles=tiles(claim.doubles),
                    state=state,
                )
            )
        return lines

    def table_lines(self, tr: Translator, record: MatchRecord, view: BingoView) -> list[str]:
        return self._common(tr, record, view) + self._claims(tr, record, view, (0, 1))

    def tally_lines(self, tr: Translator, record: MatchRecord, view: BingoView) -> list[str]:
        return [tricks_line(tr, record, view.tricks)]

    def replay_lines(self, tr: Translator, record: MatchRecord, seats: tuple[BingoView, BingoView]) -> list[str]:
        """Each seat's points so far (the table sees them only once the deal is over)."""
        pa, pb = seats[0].points[0] or 0, seats[1].points[1] or 0
        return [tr("table-points", a=name(record, 0), b=name(record, 1), pa=pa, pb=pb)]

    def turn_line(self, tr: Translator, record: MatchRecord, view: BingoView) -> str | None:
        if view.choosing and view.indicator is not None and view.turn is not None:
            return tr("table-choosing", name=name(record, view.turn), tile=tile(view.indicator))
        return None

    def panel_lines(self, tr: Translator, record: MatchRecord, view: BingoView) -> list[str]:
        seat = view.seat
        assert seat is not None, "a panel shows a seat's view"
        other = 1 - seat
        lines = self._common(tr, record, view)
        own = view.points[seat]
        goal = self.rules(view.preset).goal
        lines.append(tr("panel-points", points=own or 0, goal=goal, mine=view.tricks[seat], theirs=view.tricks[other]))
        shown = [c for c in view.claims if c.seat == other]
        if shown:
            lines.append(tr("panel-opponent-claims", tiles=tiles(shown[-1].doubles)))
        return lines + self._claims(tr, record, view, (seat,))

    def prompt(self, tr: Translator, view: BingoView) -> str | None:
        if view.choosing and view.indicator is not None:
            return tr("panel-choose", tile=tile(view.indicator))
        return None

    def own_rows(self, tr: Translator, view: BingoView, button: MoveButton) -> list[list[Button]]:
        """A claim button for each double the seat may lead with a claim, close, and the choice of the last pair."""
        rules = self.rules(view.preset)
        legal = set(view.legal)
        doubles = sum(1 for t in view.hand if t.is_double)
        rows = []
        for action in view.legal:
            if action.kind is Kind.CLAIM:
                pts, gp = rules.claim_value(doubles, BINGO_TILE in view.hand)
                value = tr("claim-value", gp=gp, n=gp or pts)
                rows.append([button(tr("btn-claim", tile=tile(action.tile), n=doubles, value=value), action)])
        if CLOSE in legal:
            rows.append([button(tr("btn-close"), CLOSE)])
        if TAKE_INDICATOR in legal and view.indicator is not None:
            rows.append(
                [
                    button(tr("btn-take-indicator", tile=tile(view.indicator)), TAKE_INDICATOR),
                    button(tr("btn-take-hidden"), TAKE_HIDDEN),
                ]
            )
        return rows

    def hint_reason(self, tr: Translator, view: BingoView, action: Action) -> str | None:
        """An answer wins the trick or gives it cheaply; a claim's value; a close's promise of the goal."""
        rules = self.rules(view.preset)
        if action.kind is Kind.PLAY and view.lead is not None and view.trump is not None:
            wins = BEATS[view.trump][view.lead.index] & BIT[action.value]
            return tr("hint-why-wins-trick" if wins else "hint-why-gives-trick")
        if action.kind is Kind.CLAIM:
            doubles = sum(1 for t in view.hand if t.is_double)
            pts, gp = rules.claim_value(doubles, BINGO_TILE in view.hand)
            return tr("hint-why-claim-value", value=tr("claim-value", gp=gp, n=gp or pts))
        if action.kind is Kind.CLOSE:
            return tr("hint-why-close-goal", goal=rules.goal)
        return None

    def follow_duty(self, view: BingoView, lead: Tile, refusal: Refusal) -> tuple[Refusal, int, int]:
        """A tile leads its higher end, blank counting 7 (``[6|0]`` asks for blanks)."""
        return refusal, SUIT[lead.index], LOWER[lead.index]

    def award_args(self, tr: Translator, view: BingoView, award: Award) -> dict[str, object]:
        """The preset's schneider threshold and close penalty; what a claim declared."""
        rules = self.rules(view.preset)
        args: dict[str, object] = {
            "threshold": rules.schneider,
            "penalty": "first" if rules.close_penalty is ClosePenalty.CLOSED_BEFORE_FIRST_TRICK else "notrick",
        }
        if award.reason is Reason.CLAIM:
            title = claim_title(tr, view.preset, award.claimed)
            args["claim"] = tr("doubles", n=award.claimed) + (f" ({title})" if title else "")
        return args

    def moment(self, view: BingoView, award: Award) -> MomentRecord | None:
        """Bingo taking the trump double, a scored claim of six or seven doubles, a close that failed."""
        seat, reason, trump = award.seat, award.reason, view.trump
        if reason is Reason.BINGO_TAKES_TRUMP_DOUBLE:
            return MomentRecord(k="bingo", s=seat, t=(BINGO_TILE.notation(), Tile(trump, trump).notation()))
        if reason is Reason.CLAIM and award.claimed >= CLAIM_MOMENT:
            doubles = next(
                (
                    c.doubles
                    for c in reversed(view.claims)
                    if c.seat == seat and c.scored and len(c.doubles) == award.claimed
                ),
                (),
            )
            return MomentRecord(k="claim", s=seat, t=tuple(t.notation() for t in doubles))
        if reason in (Reason.CLOSER_FAILED, Reason.CLOSER_FAILED_PENALTY):
            return MomentRecord(k="close", s=1 - seat)
        return None


GAME = Bingo()
