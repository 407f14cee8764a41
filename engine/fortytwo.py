"""42 for two ("Czterdzieści dwa we dwóch"), RULES.md section 2.

A deal has a draw phase (seven tricks without trumps, both drawing after
each, the loser first), bidding, the declarer naming trumps, and a play phase
of seven tricks that alone scores: 1 a trick plus the count tiles.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.actions import BID, PASS, PLAY, TRUMPS, Action, Kind
from engine.deal import HAND_SIZE, Deal, TrickView, mask_actions
from engine.outcomes import Award, DealEnd, Reason, Refusal
from engine.rules import FortyTwoRules
from engine.tiles import BIT, HIGH, LOW, SUIT_MASK, SUIT_NAMES, TILE_COUNT, TILES, Tile, tile_index, tiles_of


class Phase(enum.Enum):
    """The part of a 42 deal being played."""

    DRAW = "draw"
    BIDDING = "bidding"
    TRUMPS = "trumps"
    PLAY = "play"
    OVER = "over"


COUNT: tuple[int, ...] = tuple(
    {tile_index(5, 5): 10, tile_index(6, 4): 10, tile_index(4, 1): 5, tile_index(3, 2): 5, tile_index(5, 0): 5}.get(
        t, 0
    )
    for t in range(TILE_COUNT)
)
"""Count points of each tile (35 in all)."""


def rank_in_suit(tile: int, suit: int) -> int:
    """Rank of a tile of ``suit``: the double is highest (7), others by their other end."""
    if HIGH[tile] == LOW[tile]:
        return 7
    return LOW[tile] if HIGH[tile] == suit else HIGH[tile]


def _beats_in_suit(lead: int, suit: int, exclude: int = 0) -> int:
    return sum(
        BIT[r]
        for r in range(TILE_COUNT)
        if BIT[r] & SUIT_MASK[suit] & ~exclude and rank_in_suit(r, suit) > rank_in_suit(lead, suit)
    )


DRAW_BEATS: tuple[int, ...] = tuple(_beats_in_suit(t, HIGH[t]) for t in range(TILE_COUNT))
"""``DRAW_BEATS[lead]``: replies that win a draw-phase trick (higher in the led suit)."""


def _play_beats(trump: int, lead: int) -> int:
    trumps = SUIT_MASK[trump]
    if BIT[lead] & trumps:
        return _beats_in_suit(lead, trump)
    return trumps | _beats_in_suit(lead, HIGH[lead], exclude=trumps)


PLAY_BEATS: tuple[tuple[int, ...], ...] = tuple(tuple(_play_beats(s, t) for t in range(TILE_COUNT)) for s in range(7))
"""``PLAY_BEATS[trump][lead]``: replies that win a play-phase trick."""


def trick_winner(lead: Tile | int, reply: Tile | int, trump: int | None) -> int:
    """0 if the leader wins, 1 if the reply does; ``trump=None`` is the draw phase."""
    lead_i = lead if isinstance(lead, int) else lead.index
    reply_i = reply if isinstance(reply, int) else reply.index
    beats = DRAW_BEATS[lead_i] if trump is None else PLAY_BEATS[trump][lead_i]
    return 1 if beats & BIT[reply_i] else 0


@dataclass(frozen=True, slots=True)
class FortyTwoView:
    """What one seat (or the table, ``seat=None``) may see of a 42 deal."""

    preset: str
    seat: int | None
    deal: int
    phase: Phase
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, int]
    stock: int
    opener: int
    turn: int | None
    leader: int | None
    lead: Tile | None
    last_trick: TrickView | None
    draw_tricks: tuple[int, int]
    tricks: tuple[int, int]
    """Tricks of the play phase."""
    points: tuple[int, int]
    """Points of the play phase (public: tricks and count tiles are seen by all)."""
    bids: tuple[int | None, ...]
    """The bidding so far, in order from the opener's opponent; None is a pass."""
    bid: int | None
    declarer: int | None
    trump: int | None
    score: tuple[int, int]
    target: int
    legal: tuple[Action, ...]
    end: DealEnd | None
    awards: tuple[Award, ...]

    game: str = "42"
    history: tuple[TrickView, ...] = ()
    """Every settled trick of the deal in order (the table watched them all): the draw phase's first."""
    commitment: str | None = None
    """SHA-256 of the deal's secret in 64 hex digits, shown from the deal's start (None: no secret); the group's
    table shows its first 16 (engine/fairness.py)."""
    secret: str | None = None
    """The deal's secret in hex, once the deal is over (engine/fairness.py)."""


class FortyTwoDeal(Deal):
    """One deal of 42 for two."""

    game = "42"
    rules: FortyTwoRules

    __slots__ = ("bid", "bids", "declarer", "draw_captured", "draw_tricks", "phase", "trump")

    phase: Phase
    draw_captured: list[int]
    """Tiles taken in the draw phase (they score nothing); ``captured`` is the play phase's."""
    draw_tricks: list[int]
    bids: list[int]
    """The bidding in order; 0 is a pass."""
    bid: int
    """The highest bid so far (0 when none)."""
    declarer: int
    """The last bidder during the bidding, then the declarer (-1 when none)."""
    trump: int
    """The named trump suit (-1 until named)."""

    def _start(self) -> None:
        self.phase = Phase.DRAW
        self.draw_captured = [0, 0]
        self.draw_tricks = [0, 0]
        self.bids = []
        self.bid = 0
        self.declarer = -1
        self.trump = -1

    @staticmethod
    def _hands_from_order(order: list[int], first: int, seats: int) -> tuple[int, ...]:
        # A game for two (``1 - seat`` throughout this module: RULES.md section 2 seats two). The opener's
        # opponent draws first.
        early = sum(1 << t for t in order[:HAND_SIZE])
        late = sum(1 << t for t in order[HAND_SIZE : 2 * HAND_SIZE])
        return (late, early) if first == 0 else (early, late)

    @property
    def opener(self) -> int:
        return self.first

    def next_first(self) -> int:
        """The opener alternates, but a deal that both passed is dealt again with the same opener."""
        return self.first if self.end is DealEnd.ALL_PASSED else 1 - self.first

    # -- legality ------------------------------------------------------------

    def _reply_mask(self) -> tuple[int, Refusal | None]:
        hand = self.hands[self.turn]
        if self.phase is Phase.DRAW:
            return hand, None
        trumps = SUIT_MASK[self.trump]
        lead = self.lead
        if BIT[lead] & trumps:
            m = hand & trumps
            return (m, Refusal.MUST_FOLLOW_SUIT) if m else (hand, None)
        m = hand & SUIT_MASK[HIGH[lead]] & ~trumps
        if m:
            return m, Refusal.MUST_FOLLOW_SUIT
        m = hand & trumps
        if m:
            return m, Refusal.MUST_TRUMP
        return hand, None

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase is Phase.DRAW or phase is Phase.PLAY:
            if self.lead < 0:
                return mask_actions(self.hands[self.turn], PLAY)
            return mask_actions(self._reply_mask()[0], PLAY)
        if phase is Phase.BIDDING:
            low = max(self.bid + 1, self.rules.min_bid)
            return [BID[n] for n in range(low, self.rules.max_bid + 1)] + [PASS]
        if phase is Phase.TRUMPS:
            return list(TRUMPS)
        return []

    def refusal(self, action: Action) -> Refusal:
        phase = self.phase
        kind = action.kind
        if phase is Phase.BIDDING and kind is Kind.BID:
            return Refusal.BID_TOO_LOW
        if kind is not Kind.PLAY or phase not in (Phase.DRAW, Phase.PLAY):
            return Refusal.WRONG_PHASE
        if not BIT[action.value] & self.hands[self.turn]:
            return Refusal.NOT_IN_HAND
        return self._reply_mask()[1] or Refusal.WRONG_PHASE

    # -- applying ------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        kind = action.kind
        seat = self.turn
        if kind is Kind.PLAY:
            tile = action.value
            self.hands[seat] &= ~BIT[tile]
            if self.lead < 0:
                self.lead = tile
                self.turn = 1 - seat
            elif self.phase is Phase.DRAW:
                self._draw_trick(seat, tile)
            else:
                self._play_trick(seat, tile)
        elif kind is Kind.BID:
            self.bids.append(action.value)
            self.bid = action.value
            self.declarer = seat
            if action.value >= self.rules.max_bid:
                self._to_trumps()
            else:
                self.turn = 1 - seat
        elif kind is Kind.PASS:
            self.bids.append(0)
            if self.bid:
                self._to_trumps()
            elif len(self.bids) == 2:
                self.phase = Phase.OVER
                self.end = DealEnd.ALL_PASSED
            else:
                self.turn = 1 - seat
        else:
            self.trump = action.value
            self.phase = Phase.PLAY

    def _to_trumps(self) -> None:
        self.phase = Phase.TRUMPS
        self.turn = self.declarer

    def _draw_trick(self, seat: int, reply: int) -> None:
        leader = 1 - seat
        lead = self.lead
        winner = seat if DRAW_BEATS[lead] & BIT[reply] else leader
        self._settle_trick(leader, lead, reply, winner)
        self.draw_captured[winner] |= BIT[lead] | BIT[reply]
        self.draw_tricks[winner] += 1
        loser = 1 - winner
        self.hands[loser] |= BIT[self.stock[self.drawn]]
        self.hands[winner] |= BIT[self.stock[self.drawn + 1]]
        self.drawn += 2
        if self.drawn == len(self.stock):
            self.phase = Phase.BIDDING
            self.turn = 1 - self.first

    def _play_trick(self, seat: int, reply: int) -> None:
        leader = 1 - seat
        lead = self.lead
        winner = seat if PLAY_BEATS[self.trump][lead] & BIT[reply] else leader
        self._settle_trick(leader, lead, reply, winner)
        self.captured[winner] |= BIT[lead] | BIT[reply]
        self.tricks[winner] += 1
        self.points[winner] += 1 + COUNT[lead] + COUNT[reply]
        if not self.hands[0] and not self.hands[1]:
            self.phase = Phase.OVER
            self.end = DealEnd.PLAYED_OUT
            declarer = self.declarer
            if self.points[declarer] >= self.bid:
                self._award(Award(declarer, 1, Reason.BID_MADE))
            else:
                self._award(Award(1 - declarer, 1, Reason.BID_SET))

    # -- what a seat sees ----------------------------------------------------

    def tile_places(self) -> list[int]:
        return [*super().tile_places(), *self.draw_captured]

    def count_in_play(self) -> int:
        """Count points of the tiles not taken in the draw phase (what the play phase can score)."""
        taken = self.draw_captured[0] | self.draw_captured[1]
        return sum(COUNT[t] for t in range(TILE_COUNT) if not BIT[t] & taken)

    def view(self, seat: int | None) -> FortyTwoView:
        over = self.end is not None
        # The bidding is stored in order; the first speaker is the opener's opponent.
        return FortyTwoView(
            preset=self.rules.name,
            seat=seat,
            deal=self.number,
            phase=self.phase,
            hand=() if seat is None else tiles_of(self.hands[seat]),
            hand_sizes=(self.hands[0].bit_count(), self.hands[1].bit_count()),
            stock=len(self.stock) - self.drawn,
            opener=self.first,
            turn=None if over else self.turn,
            leader=None if self.lead < 0 else 1 - self.turn,
            lead=None if self.lead < 0 else TILES[self.lead],
            last_trick=self.last_trick_view(),
            draw_tricks=(self.draw_tricks[0], self.draw_tricks[1]),
            tricks=(self.tricks[0], self.tricks[1]),
            points=(self.points[0], self.points[1]),
            bids=tuple(b or None for b in self.bids),
            bid=self.bid or None,
            declarer=self.declarer if self.declarer >= 0 and self.phase is not Phase.BIDDING else None,
            trump=self.trump if self.trump >= 0 else None,
            score=(self.score[0], self.score[1]),
            target=self.target,
            legal=tuple(self.legal_actions()) if not over and seat == self.turn else (),
            end=self.end,
            awards=tuple(self.awards),
            history=self.history_view(),
            commitment=self.commitment,
            secret=self.revealed,
        )


def describe(view: FortyTwoView, seat: int) -> list[str]:
    """A seat's view in ``python -m engine play``: the phase, the stock, the bids, the contract and the points."""
    lines = [f"phase: {view.phase.value}; stock {view.stock}"]
    if view.bids:
        lines.append("bids: " + ", ".join("pass" if b is None else str(b) for b in view.bids))
    if view.trump is not None:
        declarer = "you" if view.declarer == seat else "computer"
        lines.append(f"trumps: {SUIT_NAMES[view.trump]}, bid {view.bid} by {declarer}")
        lines.append(f"points {view.points[seat]} : {view.points[1 - seat]}")
    return lines
