"""42 for four ("Texas 42" in partnerships), RULES.md section 5: game ``42x4``, preset ``texas``.

Four seats in turn order, partners across: seat ``s`` plays for team ``s % 2``. All 28 tiles are dealt, seven
each, with no stock. A deal is one round of bidding from the seat after the shaker (30..41, then marks: 42 or 84
while no mark was bid, then one mark more each time), the declarer naming trumps (a suit, doubles or
follow-me) and leading, and up to seven tricks of four tiles: the led suit must be followed if one can, with no
obligation to trump. The deal stops as soon as its outcome is certain (5.2.5); the declaring team's marks go to
whoever the outcome favours, and the first team to 7 marks wins.

It is the same :class:`~engine.deal.Deal` as the games for two, with ``rules.seats == 4``: its tricks, points,
captured tiles and marks are counted per team (the deal's two sides), its hands per seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import BID, DOUBLES_TRUMP, MAX_MARKS, PASS, PLAY, TRUMP_CHOICES, Action, Kind
from engine.deal import Deal, TrickView, mask_actions
from engine.fortytwo import COUNT, Phase, rank_in_suit
from engine.outcomes import Award, DealEnd, Reason, Refusal
from engine.rules import TexasRules
from engine.tiles import BIT, DOUBLES, HIGH, SUIT_MASK, SUIT_NAMES, TILE_COUNT, TILES, Tile, tiles_of

SEATS = 4
CHOICES = range(9)
"""The trump choices: a suit 0..6, :data:`~engine.actions.DOUBLES_TRUMP`, :data:`~engine.actions.FOLLOW_ME`."""
TOTAL = 42
"""Points in a deal: 35 of count tiles and one a trick."""

TRUMP_MASK: tuple[int, ...] = (*SUIT_MASK, DOUBLES, 0)
"""``TRUMP_MASK[choice]``: the trumps (a suit's seven tiles, the seven doubles, or none for follow-me)."""


def led_suit(lead: int) -> int:
    """The suit ``lead`` calls for when it is not a trump: its higher end (a double: its number)."""
    return HIGH[lead]


def _followers(choice: int, lead: int) -> int:
    trumps = TRUMP_MASK[choice]
    if BIT[lead] & trumps:
        return trumps
    return SUIT_MASK[led_suit(lead)] & ~trumps


def _trump_rank(tile: int, choice: int) -> int:
    return HIGH[tile] if choice == DOUBLES_TRUMP else rank_in_suit(tile, choice)


def _strength(choice: int, lead: int, tile: int) -> int:
    if BIT[tile] & TRUMP_MASK[choice]:
        return 100 + _trump_rank(tile, choice)
    if BIT[tile] & _followers(choice, lead):
        return rank_in_suit(tile, led_suit(lead))
    return -1


FOLLOWERS: tuple[tuple[int, ...], ...] = tuple(tuple(_followers(c, t) for t in range(TILE_COUNT)) for c in CHOICES)
"""``FOLLOWERS[choice][lead]``: the tiles that follow ``lead`` (the trumps for a trump led, else the led suit's
tiles that are not trumps)."""
STRENGTH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_strength(c, lead, t) for t in range(TILE_COUNT)) for lead in range(TILE_COUNT)) for c in CHOICES
)
"""``STRENGTH[choice][lead][tile]``: a trump 100 + its rank, a tile of the led suit its rank, any other -1;
the highest of a trick wins it."""
ABOVE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            sum(BIT[u] for u in range(TILE_COUNT) if STRENGTH[c][lead][u] > STRENGTH[c][lead][t])
            for t in range(TILE_COUNT)
        )
        for lead in range(TILE_COUNT)
    )
    for c in CHOICES
)
"""``ABOVE[choice][lead][tile]``: the tiles that would beat ``tile`` in a trick led by ``lead``."""


def trick_winner(tiles: tuple[int, ...] | list[int], choice: int) -> int:
    """The index in ``tiles`` (from the leader's) of the tile that wins the trick."""
    strength = STRENGTH[choice][tiles[0]]
    best = 0
    for i in range(1, len(tiles)):
        if strength[tiles[i]] > strength[tiles[best]]:
            best = i
    return best


def settled(bid: int, points: list[int], tricks: list[int], ours: int) -> bool | None:
    """Whether the declaring team ``ours`` has made ``bid`` (True) or been set (False) by the points and tricks
    each team has taken, or None while the outcome is not certain (RULES.md 5.2.5)."""
    theirs = 1 - ours
    if bid < TOTAL:
        if points[ours] >= bid:
            return True
        return False if points[theirs] > TOTAL - bid else None
    if tricks[theirs]:
        return False
    return True if tricks[ours] == 7 else None


def marks_of(bid: int) -> int:
    """Marks a bid is worth: a point bid 1, a bid of ``42 k`` k."""
    return 1 if bid < TOTAL else bid // TOTAL


def bid_name(bid: int) -> str:
    """``30``, ``41``, ``1 mark``, ``2 marks``... (the engine's own words; the bot has its locales)."""
    if bid < TOTAL:
        return str(bid)
    marks = marks_of(bid)
    return f"{marks} mark" + ("s" if marks > 1 else "")


def choice_name(choice: int) -> str:
    return SUIT_NAMES[choice] if choice < 7 else ("doubles" if choice == DOUBLES_TRUMP else "follow-me")


def _bid_options(rules: TexasRules, highest: int) -> tuple[Action, ...]:
    """The bids that outbid ``highest`` (0: none yet), then the pass."""
    mark = rules.mark
    if highest < mark:
        points = range(max(rules.min_bid, highest + 1), mark)
        marks = [mark * k for k in range(1, rules.opening_marks + 1)]
    else:
        points = range(0)
        marks = [highest + mark] if highest // mark < MAX_MARKS else []
    return (*(BID[b] for b in points), *(BID[b] for b in marks), PASS)


@dataclass(frozen=True, slots=True)
class TexasView:
    """What one seat (or the table, ``seat=None``) may see of a deal of 42 for four: its own hand, never
    another's (not its partner's either), and everything played in the open."""

    preset: str
    seat: int | None
    deal: int
    phase: Phase
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    """Tiles in each seat's hand (four numbers)."""
    first: int
    """The seat that speaks first (the one after the shaker)."""
    turn: int | None
    leader: int | None
    """The seat that led the trick in progress, or None."""
    lead: Tile | None
    table: tuple[Tile, ...]
    """The trick in progress, in the order played from the leader's."""
    last_trick: TrickView | None
    history: tuple[TrickView, ...]
    tricks: tuple[int, int]
    """Tricks taken by each team."""
    points: tuple[int, int]
    """Points each team has counted (one a trick and its count tiles)."""
    bids: tuple[int | None, ...]
    """The bidding in order from :attr:`first`; None is a pass."""
    bid: int | None
    """The highest bid so far (the contract once the bidding is over)."""
    declarer: int | None
    """The seat that won the bidding (None while the bidding goes on)."""
    trump: int | None
    """The trump choice (a suit 0..6, 7 doubles, 8 follow-me), once named."""
    score: tuple[int, int]
    """Each team's marks."""
    target: int
    legal: tuple[Action, ...]
    end: DealEnd | None
    awards: tuple[Award, ...]

    game: str = "42x4"
    seats: int = SEATS
    commitment: str | None = None
    secret: str | None = None

    @property
    def shaker(self) -> int:
        return (self.first - 1) % SEATS

    @property
    def bidders(self) -> tuple[int, ...]:
        """The seat of each entry of :attr:`bids`."""
        return tuple((self.first + i) % SEATS for i in range(len(self.bids)))


class TexasDeal(Deal):
    """One deal of 42 for four."""

    game = "42x4"
    rules: TexasRules

    __slots__ = ("bid", "bids", "declarer", "leader", "phase", "table", "trump")

    phase: Phase
    bids: list[int]
    """The bidding in order from ``first``; 0 is a pass."""
    bid: int
    """The highest bid so far (0: none)."""
    declarer: int
    """The highest bidder so far, then the declarer (-1: none)."""
    trump: int
    """The trump choice (-1 until named)."""
    table: list[int]
    """The trick in progress, from the leader's."""
    leader: int
    """Who led the trick in progress (-1 before a lead)."""

    def _start(self) -> None:
        self.phase = Phase.BIDDING
        self.bids = []
        self.bid = 0
        self.declarer = -1
        self.trump = -1
        self.table = []
        self.leader = -1

    @property
    def shaker(self) -> int:
        return (self.first - 1) % SEATS

    # -- legality ------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase is Phase.PLAY:
            hand = self.hands[self.turn]
            if self.lead >= 0:
                follow = hand & FOLLOWERS[self.trump][self.lead]
                if follow:
                    return mask_actions(follow, PLAY)
            return mask_actions(hand, PLAY)
        if phase is Phase.BIDDING:
            return list(_bid_options(self.rules, self.bid))
        if phase is Phase.TRUMPS:
            return list(TRUMP_CHOICES)
        return []

    def refusal(self, action: Action) -> Refusal:
        kind = action.kind
        if self.phase is Phase.BIDDING and kind is Kind.BID:
            return Refusal.BID_TOO_LOW
        if kind is not Kind.PLAY or self.phase is not Phase.PLAY:
            return Refusal.WRONG_PHASE
        if not BIT[action.value] & self.hands[self.turn]:
            return Refusal.NOT_IN_HAND
        return Refusal.MUST_FOLLOW_SUIT

    # -- applying ------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        kind = action.kind
        seat = self.turn
        if kind is Kind.PLAY:
            tile = action.value
            self.hands[seat] &= ~BIT[tile]
            table = self.table
            if not table:
                self.leader = seat
                self.lead = tile
            table.append(tile)
            if len(table) == SEATS:
                self._settle()
            else:
                self.turn = (seat + 1) % SEATS
        elif kind is Kind.BID or kind is Kind.PASS:
            if kind is Kind.BID:
                self.bids.append(action.value)
                self.bid = action.value
                self.declarer = seat
            else:
                self.bids.append(0)
            if len(self.bids) < SEATS:
                self.turn = (seat + 1) % SEATS
            elif self.bid:
                self.phase = Phase.TRUMPS
                self.turn = self.declarer
            else:
                self.phase = Phase.OVER
                self.end = DealEnd.ALL_PASSED
        else:
            self.trump = action.value
            self.phase = Phase.PLAY

    def _settle(self) -> None:
        table = self.table
        leader = self.leader
        winner = (leader + trick_winner(table, self.trump)) % SEATS
        team = winner % 2
        taken = 0
        count = 0
        for t in table:
            taken |= BIT[t]
            count += COUNT[t]
        self.captured[team] |= taken
        self.tricks[team] += 1
        self.points[team] += 1 + count
        self._record_trick((leader, *table, winner))
        self.table = []
        self.leader = -1
        self._decide()

    def _decide(self) -> None:
        """Stop the deal once its outcome is certain (RULES.md 5.2.5), giving the marks."""
        ours = self.declarer % 2
        made = settled(self.bid, self.points, self.tricks, ours)
        if made is None:
            return
        self.phase = Phase.OVER
        self.end = DealEnd.PLAYED_OUT if self.tricks[0] + self.tricks[1] == 7 else DealEnd.DECIDED
        marks = marks_of(self.bid)
        self._award(Award(ours, marks, Reason.BID_MADE) if made else Award(1 - ours, marks, Reason.BID_SET))

    # -- what a seat sees ----------------------------------------------------

    def on_table(self) -> int:
        mask = 0
        for t in self.table:
            mask |= BIT[t]
        return mask

    def view(self, seat: int | None) -> TexasView:
        over = self.end is not None
        return TexasView(
            preset=self.rules.name,
            seat=seat,
            deal=self.number,
            phase=self.phase,
            hand=() if seat is None else tiles_of(self.hands[seat]),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            first=self.first,
            turn=None if over else self.turn,
            leader=self.leader if self.table else None,
            lead=TILES[self.table[0]] if self.table else None,
            table=tuple(TILES[t] for t in self.table),
            last_trick=self.last_trick_view(),
            history=self.history_view(),
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
            commitment=self.commitment,
            secret=self.revealed,
        )


def describe(view: TexasView, seat: int) -> list[str]:
    """A seat's view in ``python -m engine play``: the bidding, the contract, the trick on the table, the count."""
    team = seat % 2
    who = {seat: "you", (seat + 2) % SEATS: "partner"}
    lines = [f"phase: {view.phase.value}; shaker seat {view.shaker}; you are seat {seat}, team {team}"]
    if view.bids:
        lines.append(
            "bids: "
            + ", ".join(
                f"{who.get(s, f'seat {s}')} {'pass' if b is None else bid_name(b)}"
                for s, b in zip(view.bidders, view.bids, strict=True)
            )
        )
    if view.trump is not None and view.bid is not None and view.declarer is not None:
        lines.append(f"trumps: {choice_name(view.trump)}, bid {bid_name(view.bid)} by seat {view.declarer}")
        lines.append(f"your team {view.points[team]} points : {view.points[1 - team]}")
    if view.table and view.leader is not None:
        lines.append(
            "on the table: " + ", ".join(f"{t} (seat {(view.leader + i) % SEATS})" for i, t in enumerate(view.table))
        )
    return lines
