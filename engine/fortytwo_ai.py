"""The computer's 42: a greedy player, and one that plays the scored part exactly.

In 42 the stock is empty when the bidding starts, and every tile of the
draw phase was played in the open: the opponent's hand is then simply the
tiles the seat has not seen. From the bidding on, the hard player knows
both hands from its view alone and solves the play phase exactly
(:class:`Solver`: the most points the side on lead can make in the tricks
left, both sides playing their best). It bids what it can make, names the
trump suit that makes most, and in the draw phase plays out each move in
sampled deals of the unseen tiles, judging the hands it would end with.
The greedy player judges a hand by a linear estimate of what it makes.

:func:`evaluate` gives every legal move the hard level's chance to win the
match after it (:mod:`engine.equity`, a point of the deal a hair's weight),
and :func:`hard` plays its best: from the bidding on the deal's outcome is
known exactly (both hands are known, and both seats are taken to bid as the
hard level does); in the draw phase a discard's average margin of hand
estimates is turned into a chance of winning the deal (:data:`DRAW_SCALE`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import exp

from engine.actions import BID, PASS, PLAY, TRUMPS, Action, Kind
from engine.equity import FORTYTWO_DEAL_POINTS, equity, stakes
from engine.fortytwo import COUNT, DRAW_BEATS, PLAY_BEATS, FortyTwoView, Phase, rank_in_suit
from engine.rules import FortyTwoRules
from engine.tiles import BIT, DOUBLES, FULL_SET, HIGH, SUIT_MASK, SUITS, TILE_COUNT, indices, mask_of

TENS = sum(BIT[t] for t in range(TILE_COUNT) if COUNT[t] == 10)
"""``[5|5]`` and ``[6|4]``: 10 count points each."""
FIVES = sum(BIT[t] for t in range(TILE_COUNT) if COUNT[t] == 5)
"""``[4|1]``, ``[3|2]``, ``[5|0]``: 5 count points each."""

FOLLOW: tuple[tuple[int, ...], ...] = tuple(
    tuple(SUIT_MASK[s] if BIT[t] & SUIT_MASK[s] else SUIT_MASK[HIGH[t]] & ~SUIT_MASK[s] for t in range(TILE_COUNT))
    for s in SUITS
)
"""``FOLLOW[trump][lead]``: the tiles that follow ``lead`` (trumps for a trump led, else the led suit's non-trumps)."""

SOLVER_MEMO_LIMIT = 100_000
"""Positions the solvers remember (a deal's solve is some thousands) before they forget them all."""


def count_points(mask: int) -> int:
    return 10 * (mask & TENS).bit_count() + 5 * (mask & FIVES).bit_count()


def follow_mask(hand: int, lead: int, trump: int) -> int:
    """The tiles of ``hand`` that may answer ``lead`` in the play phase (RULES.md 2.2.5)."""
    m = hand & FOLLOW[trump][lead]
    if m:
        return m
    return hand & SUIT_MASK[trump] or hand


class Solver:
    """Exact play of 42's scored tricks with both hands known, for one trump suit.

    ``value(a, b)`` is the most points the side on lead holding ``a`` makes
    from the tricks left against ``b``, both sides playing their best; the
    points left in all are one a trick plus the count tiles in both hands.
    """

    __slots__ = ("beats", "memo", "trump")

    def __init__(self, trump: int) -> None:
        self.trump = trump
        self.beats = PLAY_BEATS[trump]
        self.memo: dict[tuple[int, int], int] = {}

    def value(self, a: int, b: int) -> int:
        key = (a, b)
        memo = self.memo
        found = memo.get(key)
        if found is not None:
            return found
        best = -1
        for lead in indices(a):
            worst = self.lead_value(a, b, lead, best)
            if worst > best:
                best = worst
        best = max(best, 0)
        if len(memo) >= SOLVER_MEMO_LIMIT:
            memo.clear()
        memo[key] = best
        return best

    def lead_value(self, a: int, b: int, lead: int, floor: int = -1) -> int:
        """The leader's points when it leads ``lead``; stops early (some value ``<= floor``) once no better."""
        rest = a & ~BIT[lead]
        worst = 99
        for reply in indices(follow_mask(b, lead, self.trump)):
            got = self.reply_value(rest, b & ~BIT[reply], lead, reply)
            if got < worst:
                worst = got
                if worst <= floor:
                    break
        return worst

    def reply_value(self, rest: int, other: int, lead: int, reply: int) -> int:
        """The leader's points from here when ``lead`` met ``reply`` (``rest``, ``other``: the hands after)."""
        if self.beats[lead] & BIT[reply]:
            left = rest.bit_count() + count_points(rest | other)
            return left - self.value(other, rest)
        return 1 + COUNT[lead] + COUNT[reply] + self.value(rest, other)


_SOLVERS: tuple[Solver, ...] = tuple(Solver(s) for s in SUITS)
"""One solver a trump suit, shared by every seat and thread: a memo holds exact values only, so a value
read from it, computed twice at once or forgotten by a clear is the same value (it only saves time)."""


def makes(hand: int, other: int, trump: int) -> int:
    """The points a declarer holding ``hand`` makes with ``trump`` against ``other``, leading, both playing best."""
    return _SOLVERS[trump].value(hand, other)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a seat knows of a 42 deal from its view alone."""

    me: int
    hand: int
    lead: int
    """The tile the opponent led to the trick in progress, or -1."""
    unseen: int
    """Tiles in the opponent's hand or the stock; from the bidding on, exactly the opponent's hand."""
    opp_count: int

    @property
    def opp(self) -> int:
        return 1 - self.me

    @classmethod
    def of(cls, view: FortyTwoView) -> Knowledge:
        if view.seat is None:
            raise ValueError("the table's view has no seat to play for")
        hand = mask_of(view.hand)
        played = 0
        for trick in view.history:
            played |= BIT[trick.lead.index] | BIT[trick.reply.index]
        lead = -1 if view.lead is None else view.lead.index
        if lead >= 0:
            played |= BIT[lead]
        return cls(
            me=view.seat,
            hand=hand,
            lead=lead,
            unseen=FULL_SET & ~hand & ~played,
            opp_count=view.hand_sizes[1 - view.seat],
        )


# -- judging a hand ----------------------------------------------------------

ESTIMATE = (-26, 259, 184, 202, 63)
"""Hundredths of a point: a least-squares fit of the exact points a declarer makes, leading, on 16,000
deals: a constant, then per trump held, for the trump double, per other double, per count point held."""


def estimate(hand: int, trump: int) -> int:
    """What a declarer holding ``hand`` can expect to make with ``trump``, in hundredths, from its own hand alone."""
    c, per_trump, trump_double, double, per_count = ESTIMATE
    trumps = hand & SUIT_MASK[trump]
    return (
        c
        + per_trump * trumps.bit_count()
        + trump_double * bool(trumps & DOUBLES)
        + double * (hand & DOUBLES & ~trumps).bit_count()
        + per_count * count_points(hand)
    )


def best_estimate(hand: int) -> tuple[int, int]:
    """The best estimate over the trump suits, and that suit."""
    return max((estimate(hand, s), s) for s in SUITS)


LOSS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        ESTIMATE[1] * bool(BIT[t] & SUIT_MASK[s])
        + (ESTIMATE[2] if BIT[t] & DOUBLES & SUIT_MASK[s] else ESTIMATE[3] if BIT[t] & DOUBLES else 0)
        + ESTIMATE[4] * COUNT[t]
        for s in SUITS
    )
    for t in range(TILE_COUNT)
)
"""``LOSS[tile][trump]``: what giving the tile away takes off the estimate with that trump suit."""


def weakest(hand: int) -> int:
    """The tile whose loss leaves the best estimate (of equals, the lowest)."""
    kept = [estimate(hand, s) for s in SUITS]
    best = -1
    best_value = -(1 << 30)
    m = hand
    while m:
        low = m & -m
        t = low.bit_length() - 1
        m ^= low
        loss = LOSS[t]
        value = max(kept[s] - loss[s] for s in SUITS)
        if value > best_value:
            best_value = value
            best = t
    return best


# -- the greedy player -------------------------------------------------------


def normal(view: FortyTwoView, rules: FortyTwoRules) -> Action:
    """Keep the tiles that make the best trump hand, bid what the hand is worth, take tricks cheaply."""
    k = Knowledge.of(view)
    phase = view.phase
    if phase is Phase.DRAW:
        return PLAY[weakest(k.hand)]
    if phase is Phase.BIDDING:
        need = max((view.bid or 0) + 1, rules.min_bid)
        worth, _ = best_estimate(k.hand)
        return BID[need] if worth - 200 >= 100 * need and need <= rules.max_bid else PASS
    if phase is Phase.TRUMPS:
        return TRUMPS[best_estimate(k.hand)[1]]
    assert view.trump is not None
    return PLAY[_greedy_play(k, view.trump)]


def _greedy_play(k: Knowledge, trump: int) -> int:
    beats = PLAY_BEATS[trump]
    hand = k.hand
    opp = k.unseen
    if k.lead >= 0:
        allowed = follow_mask(hand, k.lead, trump)
        winners = allowed & beats[k.lead]
        if winners:
            return min(indices(winners), key=lambda t: (COUNT[t] == 0, _rank(t, trump)))
        return min(indices(allowed), key=lambda t: (COUNT[t], _rank(t, trump)))
    sure = [t for t in indices(hand) if not follow_mask(opp, t, trump) & beats[t]]
    if sure:
        return max(sure, key=lambda t: (bool(BIT[t] & SUIT_MASK[trump]), COUNT[t], _rank(t, trump)))
    return min(indices(hand), key=lambda t: (COUNT[t], bool(BIT[t] & SUIT_MASK[trump]), _rank(t, trump)))


def _rank(tile: int, trump: int) -> int:
    if BIT[tile] & SUIT_MASK[trump]:
        return 10 + rank_in_suit(tile, trump)
    return rank_in_suit(tile, HIGH[tile])


# -- the exact player --------------------------------------------------------

DRAW_WORLDS = 12
"""Sampled deals of the unseen tiles each draw-phase candidate is played out in."""


POINTS_WEIGHT = 0.0001
"""Match equity of one point the seat makes in the deal, to tell apart moves with the same outcome."""
DRAW_SCALE = 800.0
"""Hundredths of a point of hand-estimate margin that make a won deal e (2.72) times as likely as a lost one."""


def hard(view: FortyTwoView, rules: FortyTwoRules, rng: random.Random) -> Action:
    """The move :func:`evaluate` values most (of equals, the first: the lowest tile, bid or suit)."""
    if len(view.legal) == 1:
        return view.legal[0]
    values = evaluate(view, rules, rng)
    return max(values, key=lambda mv: mv[1])[0]


def evaluate(view: FortyTwoView, rules: FortyTwoRules, rng: random.Random) -> list[tuple[Action, float]]:
    """Each legal move with the hard level's chance that the seat wins the match after it, from the view alone.

    Draw phase: each discard played out in sampled deals (:func:`_draw_margins`), the margin made a chance
    of winning the deal; bidding: the bidding played out with both seats bidding as :func:`_bid` does, then
    the declarer's best trumps solved exactly; trumps and play: solved exactly with both hands known.
    """
    k = Knowledge.of(view)
    phase = view.phase
    win, lose = _equities(view, k.me)
    if phase is Phase.DRAW:
        moves = [a.value for a in view.legal]
        margins = _draw_margins(k, view, moves, rng)
        return [
            (PLAY[m], lose + (win - lose) / (1 + exp(-margin / DRAW_SCALE)))
            for m, margin in zip(moves, margins, strict=True)
        ]
    opp = k.unseen
    if phase is Phase.BIDDING:
        return [(a, _bidding_value(k, view, a, rules, win, lose)) for a in view.legal]
    if phase is Phase.TRUMPS:
        assert view.bid is not None
        return [
            (a, _outcome(made, view.bid, True, win, lose) + POINTS_WEIGHT * made)
            for a in view.legal
            for made in (makes(k.hand, opp, a.value),)
        ]
    assert view.trump is not None and view.bid is not None and view.declarer is not None
    solver = _SOLVERS[view.trump]
    mine_now = view.points[k.me]
    left = k.hand.bit_count() + count_points(k.hand | opp) + (COUNT[k.lead] if k.lead >= 0 else 0)
    declaring = view.declarer == k.me
    values: list[tuple[Action, float]] = []
    for a in view.legal:
        t = a.value
        if k.lead < 0:
            future = solver.lead_value(k.hand, opp, t)
        else:
            future = left - solver.reply_value(opp, k.hand & ~BIT[t], k.lead, t)
        made = mine_now + future
        if not declaring:
            made = view.points[k.opp] + left - future
        values.append((a, _outcome(made, view.bid, declaring, win, lose) + POINTS_WEIGHT * (mine_now + future)))
    return values


def _equities(view: FortyTwoView, me: int) -> tuple[float, float]:
    """The seat's match equity after it wins the deal, and after it loses it."""
    return stakes(view.target - view.score[me], view.target - view.score[1 - me], 1, FORTYTWO_DEAL_POINTS)


def _outcome(made: int, bid: int, declaring: bool, win: float, lose: float) -> float:
    """The equity when the declarer makes ``made`` points of ``bid`` (``declaring``: the seat is the declarer)."""
    return win if (made >= bid) == declaring else lose


def _bidding_value(
    k: Knowledge, view: FortyTwoView, action: Action, rules: FortyTwoRules, win: float, lose: float
) -> float:
    """The bidding played out after ``action``, both seats bidding as :func:`_bid`; then the best trumps, exactly."""
    hands = {k.me: k.hand, k.opp: k.unseen}
    bid = view.bid or 0
    # The bidding is shown in order from the opener's opponent; the last bid's seat is the declarer so far.
    declarer = next(((i + 1 + view.opener) % 2 for i in reversed(range(len(view.bids))) if view.bids[i]), -1)
    spoken = len(view.bids)
    seat = k.me
    while True:
        if action.kind is Kind.PASS:
            spoken += 1
            if bid:
                break
            if spoken >= 2:
                return _redeal_value(view, k.me)
        else:
            bid, declarer = action.value, seat
            spoken += 1
            if bid >= rules.max_bid:
                break
        seat = 1 - seat
        action = _bid(hands[seat], hands[1 - seat], bid, rules)
    made = max(makes(hands[declarer], hands[1 - declarer], s) for s in SUITS)
    return _outcome(made, bid, declarer == k.me, win, lose)


def _redeal_value(view: FortyTwoView, me: int) -> float:
    """Both passed: the deal is dealt again at the same score."""
    return equity(view.target - view.score[me], view.target - view.score[1 - me], FORTYTWO_DEAL_POINTS)


def _bid(hand: int, opp: int, bid: int, rules: FortyTwoRules) -> Action:
    """Bid the least that outbids, while we make it and the opponent would make its bid; else pass."""
    mine = max(makes(hand, opp, s) for s in SUITS)
    if bid and bid > max(makes(opp, hand, s) for s in SUITS):
        return PASS
    need = max(bid + 1, rules.min_bid)
    return BID[need] if need <= min(mine, rules.max_bid) else PASS


def _draw_margins(k: Knowledge, view: FortyTwoView, moves: list[int], rng: random.Random) -> list[float]:
    """Each candidate discard, played out in sampled deals with both seats discarding their weakest tile:
    how far our best estimate ends above the opponent's, on average."""
    pool = list(indices(k.unseen))
    totals = [0.0] * len(moves)
    for _ in range(DRAW_WORLDS):
        picked = rng.sample(pool, k.opp_count)
        opp = sum(BIT[t] for t in picked)
        stock = [t for t in pool if not BIT[t] & opp]
        rng.shuffle(stock)
        for i, move in enumerate(moves):
            totals[i] += _draw_playout(k, view, opp, stock, move)
    return [total / DRAW_WORLDS for total in totals]


def _draw_playout(k: Knowledge, view: FortyTwoView, opp_hand: int, stock: list[int], move: int) -> float:
    hands = [0, 0]
    me = k.me
    hands[me] = k.hand
    hands[1 - me] = opp_hand
    pos = 0
    if k.lead >= 0:
        leader, lead, reply = 1 - me, k.lead, move
    else:
        leader, lead = me, move
        reply = weakest(hands[1 - me])
    while True:
        follower = 1 - leader
        hands[leader] &= ~BIT[lead]
        hands[follower] &= ~BIT[reply]
        winner = follower if DRAW_BEATS[lead] & BIT[reply] else leader
        hands[1 - winner] |= BIT[stock[pos]]
        hands[winner] |= BIT[stock[pos + 1]]
        pos += 2
        if pos >= len(stock):
            break
        leader = winner
        lead = weakest(hands[leader])
        reply = weakest(hands[1 - leader])
    mine, _ = best_estimate(hands[me])
    theirs, _ = best_estimate(hands[1 - me])
    return mine - theirs
