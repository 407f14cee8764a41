"""Bingo ("Бинго"), RULES.md section 1.

Everything that depends only on the trump suit (which tiles are trumps, what
each is worth, which replies beat which lead) is tabled once per suit, so a
trick is settled with a few mask operations.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import CLAIM, CLOSE, PLAY, TAKE_HIDDEN, TAKE_INDICATOR, Action, Kind
from engine.deal import Deal, TrickView, mask_actions
from engine.outcomes import Award, DealEnd, Reason, Refusal
from engine.rules import BingoRules, ClosePenalty, LastPair
from engine.tiles import BIT, DOUBLES, HIGH, LOW, SUIT_MASK, SUIT_NAMES, TILE_COUNT, TILES, Tile, tile_index, tiles_of

BINGO = tile_index(0, 0)
"""``[0|0]``, always a trump."""
_SIX_FOUR = tile_index(6, 4)
_THREE_BLANK = tile_index(3, 0)


def value(end: int) -> int:
    """A tile end's value in Bingo: the blank counts 7."""
    return 7 if end == 0 else end


SUIT: tuple[int, ...] = tuple(LOW[t] if value(LOW[t]) > value(HIGH[t]) else HIGH[t] for t in range(TILE_COUNT))
"""The suit a tile leads: its higher end with blank = 7 (``[6|0]`` leads blanks)."""
LOWER: tuple[int, ...] = tuple(HIGH[t] if SUIT[t] == LOW[t] else LOW[t] for t in range(TILE_COUNT))
"""The other end of a led tile."""
PIPS: tuple[int, ...] = tuple(value(HIGH[t]) + value(LOW[t]) for t in range(TILE_COUNT))
"""Pip sum with blank = 7."""


def indicator_suit(indicator: int) -> int:
    """The trump suit an indicator names: its higher end, blank = 7."""
    return SUIT[indicator]


def _trump_mask(suit: int) -> int:
    return SUIT_MASK[suit] | BIT[BINGO]


def _points(suit: int, t: int) -> int:
    trump_double = tile_index(suit, suit)
    if t == trump_double:
        return 28
    if t == BINGO:
        return 14
    if t in (_SIX_FOUR, _THREE_BLANK):
        return 10
    if HIGH[t] == LOW[t] or BIT[t] & _trump_mask(suit):
        return PIPS[t]
    return 0


def _strength(suit: int, t: int) -> int:
    if t == BINGO:
        return 1000
    if t == tile_index(suit, suit):
        return 900
    if BIT[t] & _trump_mask(suit):
        return 100 + PIPS[t]
    return PIPS[t]


TRUMPS: tuple[int, ...] = tuple(_trump_mask(s) for s in range(7))
"""``TRUMPS[suit]``: mask of the trumps for that trump suit."""
POINTS: tuple[tuple[int, ...], ...] = tuple(tuple(_points(s, t) for t in range(TILE_COUNT)) for s in range(7))
"""``POINTS[suit][tile]``: tile points for that trump suit."""
STRENGTH: tuple[tuple[int, ...], ...] = tuple(tuple(_strength(s, t) for t in range(TILE_COUNT)) for s in range(7))
BEATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(BIT[r] for r in range(TILE_COUNT) if STRENGTH[s][r] > STRENGTH[s][t]) for t in range(TILE_COUNT))
    for s in range(7)
)
"""``BEATS[suit][lead]``: mask of the replies that win against ``lead``."""


def tile_points(tile: Tile | int, trump: int) -> int:
    """Points of a captured tile under a trump suit (RULES.md 1.1)."""
    return POINTS[trump][tile if isinstance(tile, int) else tile.index]


def trick_winner(lead: Tile | int, reply: Tile | int, trump: int) -> int:
    """0 if the leader wins the trick, 1 if the reply does (RULES.md 1.2)."""
    lead_i = lead if isinstance(lead, int) else lead.index
    reply_i = reply if isinstance(reply, int) else reply.index
    return 1 if BEATS[trump][lead_i] & BIT[reply_i] else 0


def oracle(trump: int) -> int:
    """Sum of the points of all 28 tiles under a trump suit."""
    return sum(POINTS[trump])


@dataclass(frozen=True, slots=True)
class ClaimView:
    """Doubles declared to the table; ``scored`` is None while the trick is open."""

    seat: int
    doubles: tuple[Tile, ...]
    scored: bool | None


@dataclass(frozen=True, slots=True)
class BingoView:
    """What one seat (or the table, ``seat=None``) may see of a Bingo deal."""

    preset: str
    seat: int | None
    deal: int
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, int]
    trump: int
    indicator: Tile | None
    """The indicator while it lies face up in the reserve."""
    reserve: int
    closed_by: int | None
    turn: int | None
    choosing: bool
    """The seat to act picks the indicator or the hidden tile."""
    leader: int | None
    lead: Tile | None
    last_trick: TrickView | None
    tricks: tuple[int, int]
    points: tuple[int | None, int | None]
    """Own points; the opponent's (and both for the table) only once the deal is over."""
    claims: tuple[ClaimView, ...]
    score: tuple[int, int]
    target: int
    legal: tuple[Action, ...]
    end: DealEnd | None
    awards: tuple[Award, ...]

    game: str = "bingo"
    history: tuple[TrickView, ...] = ()
    """Every settled trick of the deal in order (the table watched them all); ``last_trick`` is the last."""
    indicator_seen: Tile | None = None
    """The trump indicator as everyone saw it turned up, wherever it is now (face down after a close, in a hand)."""
    indicator_holder: int | None = None
    """The seat that drew the indicator, for all to see; None while it is in the reserve."""
    closed_at: int | None = None
    """Tricks settled when the reserve was closed (0: before the first trick); None while not closed."""
    closed_points: tuple[int, int] | None = None
    """Both seats' points (tricks and scored claims) when the reserve was closed, as the table saw them then."""
    commitment: str | None = None
    """SHA-256 of the deal's secret in 64 hex digits, shown from the deal's start (None: no secret); the group's
    table shows its first 16 (engine/fairness.py)."""
    secret: str | None = None
    """The deal's secret in hex, once the deal is over (engine/fairness.py)."""


class BingoDeal(Deal):
    """One Bingo deal: 14 tricks at most, drawing while the reserve is open."""

    game = "bingo"
    rules: BingoRules

    __slots__ = (
        "choosing",
        "claim",
        "claims",
        "closed_after",
        "closed_by",
        "closed_points",
        "indicator_holder",
        "trump",
    )

    trump: int
    closed_by: int
    """The seat that closed, or -1."""
    closed_after: int
    """Tricks settled before the close."""
    closed_points: tuple[int, int]
    """Both seats' points when the reserve was closed."""
    choosing: bool
    """``winner_chooses``: the trick winner is to pick one of the last pair."""
    claim: int
    """Mask of the doubles claimed on the trick in progress (0 when none)."""
    claims: list[tuple[int, int, bool | None]]
    """Every claim of the deal: ``(seat, doubles mask, scored)``."""
    indicator_holder: int
    """The seat that drew the indicator, or -1."""

    def _start(self) -> None:
        self.trump = indicator_suit(self.stock[-1])
        self.closed_by = -1
        self.closed_after = 0
        self.closed_points = (0, 0)
        self.choosing = False
        self.claim = 0
        self.claims = []
        self.indicator_holder = -1

    @property
    def indicator(self) -> int:
        return self.stock[-1]

    @property
    def strict(self) -> bool:
        """Whether the follow rules of 1.3.7 are in force."""
        return self.closed_by >= 0 or self.drawn == len(self.stock)

    # -- legality ------------------------------------------------------------

    def _reply_mask(self) -> tuple[int, Refusal | None]:
        """The tiles the replying seat may play, and the rule that narrowed them."""
        hand = self.hands[self.turn]
        if not self.strict:
            return hand, None
        rules = self.rules
        lead = self.lead
        trumps = TRUMPS[self.trump]
        if BIT[lead] & trumps:
            m = hand & trumps
            return (m, Refusal.MUST_TRUMP) if m else (hand, None)
        m = hand & SUIT_MASK[SUIT[lead]] & ~trumps
        if m:
            if rules.must_beat:
                winning = m & BEATS[self.trump][lead]
                if winning:
                    return winning, Refusal.MUST_BEAT
            return m, Refusal.MUST_FOLLOW_SUIT
        if rules.follow_lower_half:
            m = hand & SUIT_MASK[LOWER[lead]] & ~trumps
            if m:
                return m, Refusal.MUST_FOLLOW_LOWER_HALF
        if rules.must_trump_when_void:
            m = hand & trumps
            if m:
                return m, Refusal.MUST_TRUMP
        return hand, None

    def _may_close(self) -> bool:
        return self.closed_by < 0 and self.drawn < len(self.stock)

    def legal_actions(self) -> list[Action]:
        if self.end is not None:
            return []
        if self.choosing:
            return [TAKE_INDICATOR, TAKE_HIDDEN]
        if self.lead >= 0:
            return mask_actions(self._reply_mask()[0], PLAY)
        hand = self.hands[self.turn]
        actions = mask_actions(hand, PLAY)
        doubles = hand & DOUBLES
        if doubles & (doubles - 1):
            actions += [CLAIM[d] for d in CLAIM if BIT[d] & doubles]
        if self._may_close():
            actions.append(CLOSE)
        return actions

    def refusal(self, action: Action) -> Refusal:
        kind = action.kind
        if self.choosing:
            return Refusal.WRONG_PHASE
        if kind is Kind.CLOSE:
            return Refusal.CANNOT_CLOSE
        if kind not in (Kind.PLAY, Kind.CLAIM):
            return Refusal.WRONG_PHASE
        if not BIT[action.value] & self.hands[self.turn]:
            return Refusal.NOT_IN_HAND
        if kind is Kind.CLAIM:
            return Refusal.NO_CLAIM
        return self._reply_mask()[1] or Refusal.WRONG_PHASE

    # -- applying ------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        kind = action.kind
        seat = self.turn
        if kind is Kind.PLAY or kind is Kind.CLAIM:
            tile = action.value
            if kind is Kind.CLAIM:
                self.claim = self.hands[seat] & DOUBLES
                self.claims.append((seat, self.claim, None))
            self.hands[seat] &= ~BIT[tile]
            if self.lead < 0:
                self.lead = tile
                self.turn = 1 - seat
            else:
                self._reply(seat, tile)
        elif kind is Kind.CLOSE:
            self.closed_by = seat
            self.closed_after = self.tricks[0] + self.tricks[1]
            self.closed_points = (self.points[0], self.points[1])
        else:
            self._take_last_pair(seat, kind is Kind.TAKE_INDICATOR)

    def _reply(self, seat: int, reply: int) -> None:
        rules = self.rules
        trump = self.trump
        leader = 1 - seat
        lead = self.lead
        winner = seat if BEATS[trump][lead] & BIT[reply] else leader
        self._settle_trick(leader, lead, reply, winner)
        self.captured[winner] |= BIT[lead] | BIT[reply]
        self.tricks[winner] += 1
        pts = POINTS[trump]
        gain = pts[lead] + pts[reply]
        instant: list[Award] = []
        if self.claim:
            won = winner == leader
            claimed = self.claim.bit_count()
            self.claims[-1] = (leader, self.claim, won)
            if won:
                points, game_points = rules.claim_value(claimed, bool(self.claim & BIT[BINGO]))
                gain += points
                if game_points:
                    instant.append(Award(winner, game_points, Reason.CLAIM, claimed))
            self.claim = 0
        self.points[winner] += gain
        if trump != 0 and {lead, reply} == {BINGO, tile_index(trump, trump)} and rules.bingo_bonus:
            instant.append(Award(winner, rules.bingo_bonus, Reason.BINGO_TAKES_TRUMP_DOUBLE))
        for award in instant:
            if self._award(award):
                self.end = DealEnd.MATCH_WON
                return
        if self.points[winner] >= rules.goal:
            self._finish(DealEnd.REACHED_GOAL, winner)
            return
        if not self.hands[0] and not self.hands[1]:
            self._finish(DealEnd.HANDS_EMPTY, None)
            return
        if self.closed_by < 0 and self.drawn < len(self.stock):
            if len(self.stock) - self.drawn == 2 and rules.last_pair is LastPair.WINNER_CHOOSES:
                self.choosing = True
                return
            loser = leader if winner == seat else seat
            self.hands[winner] |= BIT[self.stock[self.drawn]]
            self.hands[loser] |= BIT[self.stock[self.drawn + 1]]
            self.drawn += 2
            if self.drawn == len(self.stock):
                self.indicator_holder = loser

    def _take_last_pair(self, seat: int, indicator: bool) -> None:
        hidden, face_up = self.stock[-2], self.stock[-1]
        mine, theirs = (face_up, hidden) if indicator else (hidden, face_up)
        self.hands[seat] |= BIT[mine]
        self.hands[1 - seat] |= BIT[theirs]
        self.indicator_holder = seat if indicator else 1 - seat
        self.drawn = len(self.stock)
        self.choosing = False

    def _finish(self, end: DealEnd, reached: int | None) -> None:
        """End the deal and give the game points of RULES.md 1.4."""
        self.end = end
        rules = self.rules
        closer = self.closed_by
        if closer < 0 or closer == reached:
            if reached is None:
                return
            other = 1 - reached
            if self.tricks[other] == 0:
                self._award(Award(reached, 3, Reason.NO_TRICK))
            elif self.points[other] < rules.schneider:
                self._award(Award(reached, 2, Reason.SCHNEIDER))
            else:
                self._award(Award(reached, 1, Reason.REACHED_GOAL))
            return
        other = 1 - closer
        if rules.close_penalty is ClosePenalty.CLOSED_BEFORE_FIRST_TRICK:
            penalty = self.closed_after == 0
        else:
            penalty = self.tricks[closer] == 0
        if penalty:
            self._award(Award(other, 3, Reason.CLOSER_FAILED_PENALTY))
        else:
            self._award(Award(other, 2, Reason.CLOSER_FAILED))
        if reached == other:
            self._award(Award(other, 1, Reason.REACHED_GOAL_AFTER_CLOSE))

    # -- what a seat sees ----------------------------------------------------

    def claim_points_of(self, seat: int) -> int:
        """Points a seat has from scored claims."""
        return sum(
            self.rules.claim_value(mask.bit_count(), bool(mask & BIT[BINGO]))[0]
            for who, mask, scored in self.claims
            if who == seat and scored
        )

    def view(self, seat: int | None) -> BingoView:
        """What ``seat`` may see; ``None`` is the table (no hand at all)."""
        over = self.end is not None
        acting = self.end is None and seat == self.turn
        points: tuple[int | None, int | None]
        if over:
            points = (self.points[0], self.points[1])
        elif seat is None:
            points = (None, None)
        else:
            points = (self.points[0], None) if seat == 0 else (None, self.points[1])
        face_up = self.closed_by < 0 and self.drawn < len(self.stock)
        closed = self.closed_by >= 0
        return BingoView(
            preset=self.rules.name,
            seat=seat,
            deal=self.number,
            hand=() if seat is None else tiles_of(self.hands[seat]),
            hand_sizes=(self.hands[0].bit_count(), self.hands[1].bit_count()),
            trump=self.trump,
            indicator=TILES[self.indicator] if face_up else None,
            reserve=len(self.stock) - self.drawn,
            closed_by=self.closed_by if self.closed_by >= 0 else None,
            turn=None if over else self.turn,
            choosing=self.choosing,
            leader=None if self.lead < 0 else 1 - self.turn,
            lead=None if self.lead < 0 else TILES[self.lead],
            last_trick=self.last_trick_view(),
            tricks=(self.tricks[0], self.tricks[1]),
            points=points,
            claims=tuple(ClaimView(s, tiles_of(m), scored) for s, m, scored in self.claims),
            score=(self.score[0], self.score[1]),
            target=self.target,
            legal=tuple(self.legal_actions()) if acting else (),
            end=self.end,
            awards=tuple(self.awards),
            history=self.history_view(),
            indicator_seen=TILES[self.indicator],
            indicator_holder=self.indicator_holder if self.indicator_holder >= 0 else None,
            closed_at=self.closed_after if closed else None,
            closed_points=self.closed_points if closed else None,
            commitment=self.commitment,
            secret=self.revealed,
        )


def describe(view: BingoView, seat: int) -> list[str]:
    """A seat's view in ``python -m engine play``: trumps and the indicator, the reserve, points, the claims."""
    shown = view.indicator_seen
    where = "face up" if view.indicator is not None else "closed" if view.closed_by is not None else "drawn"
    lines = [f"trumps: {SUIT_NAMES[view.trump]} (indicator {shown}, {where}); reserve {view.reserve}"]
    if view.closed_by is not None and view.closed_points is not None:
        who = "you" if view.closed_by == seat else "computer"
        at = view.closed_points
        lines.append(f"closed by {who} after {view.closed_at} tricks, at {at[seat]} : {at[1 - seat]} points")
    lines.append(f"your points {view.points[seat]}, tricks {view.tricks[seat]} : {view.tricks[1 - seat]}")
    for claim in view.claims:
        who = "you" if claim.seat == seat else "computer"
        state = {None: "on this trick", True: "scored", False: "lost"}[claim.scored]
        lines.append(f"claim by {who}: {' '.join(map(str, claim.doubles))} ({state})")
    return lines
