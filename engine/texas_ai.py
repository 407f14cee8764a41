"""The computer's 42 for four: a greedy player, and one that samples the hidden hands and plays them out.

Each level reads only its seat's view: its own hand, the bidding and every tile played. What that says of the
other three hands is :class:`Knowledge`: the tiles not seen, how many each seat holds, and the suits a seat has
shown it is void in (it did not follow a suit it was led).

- ``normal`` (:func:`normal`): bids what a linear estimate of its hand says its team makes (:func:`estimate`),
  never over its partner unless clearly stronger; names its best suit; in the play (:func:`pick`) wins a trick
  with the cheapest tile that no opponent still to play can beat, gives count to a partner whose tile no opponent
  can beat, and otherwise throws its least valuable tile.
- ``hard`` (:func:`hard`): a sampler of the hidden hands. It deals the unseen tiles to the other seats many
  times, each deal consistent with the voids and weighted by how well it explains the bidding (a seat that
  passed seldom holds a strong hand, a bidder seldom a weak one), and in each plays the rest of the deal out
  with every seat playing :func:`pick` with the hands of that sample open. A move is valued by the weighted
  chance to win the match after it (:mod:`engine.equity`); a bid by the chance of making it with the trumps
  that make most, against passing.

:func:`evaluate` is what hard thinks of each legal move (the hints and the post-mortem read it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import exp

from engine.actions import DOUBLES_TRUMP, FOLLOW_ME, PASS, PLAY, TRUMP_CHOICES, Action, Kind
from engine.equity import FORTYTWO_DEAL_POINTS, equity, stakes
from engine.fortytwo import COUNT, Phase
from engine.fortytwo_ai import count_points
from engine.rules import TexasRules
from engine.texas import (
    ABOVE,
    CHOICES,
    FOLLOWERS,
    SEATS,
    STRENGTH,
    TOTAL,
    TRUMP_MASK,
    TexasView,
    marks_of,
    settled,
    trick_winner,
)
from engine.tiles import BIT, DOUBLES, FULL_SET, indices, mask_of, tile_index

PLAY_SAMPLES = 40
"""Sampled deals of the hidden hands a play is judged in."""
BID_SAMPLES = 24
"""Sampled deals a bid, or the naming of trumps, is judged in."""
BID_CHOICES = 3
"""Trump choices (the best by :func:`estimate`) played out for a bid."""
POINTS_WEIGHT = 0.0002
"""Match equity of one point the team makes, to tell apart moves of the same outcome."""


# -- what a seat knows -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a seat knows of a deal of 42 for four from its view alone."""

    me: int
    hand: int
    unseen: int
    """Tiles in the other three hands."""
    sizes: tuple[int, ...]
    void: tuple[int, ...]
    """Per seat, tiles it cannot hold: of a suit it did not follow when that suit was led."""

    @classmethod
    def of(cls, view: TexasView) -> Knowledge:
        if view.seat is None:
            raise ValueError("the table's view has no seat to play for")
        hand = mask_of(view.hand)
        played = 0
        void = [0] * SEATS
        tricks = [(trick.leader, [t.index for t in trick.tiles]) for trick in view.history]
        if view.table and view.leader is not None:
            tricks.append((view.leader, [t.index for t in view.table]))
        for leader, tiles in tricks:
            for t in tiles:
                played |= BIT[t]
            if view.trump is None:
                continue
            follow = FOLLOWERS[view.trump][tiles[0]]
            for i in range(1, len(tiles)):
                if not BIT[tiles[i]] & follow:
                    void[(leader + i) % SEATS] |= follow
        return cls(view.seat, hand, FULL_SET & ~hand & ~played, view.hand_sizes, tuple(void))

    def possible(self) -> list[int]:
        """Per seat, the tiles it may hold (its own hand for this seat)."""
        return [self.hand if s == self.me else self.unseen & ~self.void[s] for s in range(SEATS)]


def sample(k: Knowledge, rng: random.Random) -> list[int]:
    """Four hands that agree with what the seat knows: its own, and the unseen tiles dealt to the others with
    their sizes and voids (a deal ignoring the voids if none is found, which does not happen in a real game)."""
    others = [s for s in range(SEATS) if s != k.me]
    pool = list(indices(k.unseen))
    allowed = {t: [s for s in others if not BIT[t] & k.void[s]] for t in pool}
    for attempt in range(30):
        hands = [0] * SEATS
        hands[k.me] = k.hand
        room = {s: k.sizes[s] for s in others}
        rng.shuffle(pool)
        # The most constrained tiles first: those fewest seats may hold.
        order = sorted(pool, key=lambda t: len(allowed[t])) if attempt < 29 else pool
        ok = True
        for t in order:
            seats = [s for s in allowed[t] if room[s]] if attempt < 29 else [s for s in others if room[s]]
            if not seats:
                ok = False
                break
            s = rng.choice(seats)
            hands[s] |= BIT[t]
            room[s] -= 1
        if ok:
            return hands
    raise AssertionError("no deal of the unseen tiles fits the hand sizes")


# -- judging a hand ----------------------------------------------------------


def estimate(hand: int, choice: int) -> float:
    """The points a declaring team can expect with ``hand`` and ``choice`` named, from the hand alone: a trump
    counts 5, the top trump 4 more, each other double 3.5, count tiles a third of their count, and a partner 6."""
    trumps = TRUMP_MASK[choice]
    held = hand & trumps
    if choice == FOLLOW_ME:
        return 3.5 * (hand & DOUBLES).bit_count() + count_points(hand) / 3 + 6
    top = BIT[tile_index(6, 6) if choice == DOUBLES_TRUMP else tile_index(choice, choice)]
    return (
        5.0 * held.bit_count()
        + 4.0 * bool(held & top)
        + 3.5 * (hand & DOUBLES & ~trumps).bit_count()
        + count_points(hand) / 3
        + 6
    )


def best_choices(hand: int, n: int = 1) -> list[int]:
    """The ``n`` trump choices :func:`estimate` rates best, best first."""
    return sorted(CHOICES, key=lambda c: -estimate(hand, c))[:n]


# -- the greedy player -------------------------------------------------------


def pick(seat: int, hand: int, table: list[int], choice: int, possible: list[int], exact: bool = False) -> int:
    """A greedy play for ``seat`` holding ``hand`` with ``table`` led (``possible[s]``: what seat ``s`` may hold;
    ``exact``: it is that seat's hand, as in a playout with every hand open).

    On lead: the most count among tiles no opponent can beat, else the least valuable. Following: count to a
    partner no opponent can beat, else the cheapest tile that wins for sure, else (with count on the table) the
    strongest winner, else the least valuable tile."""
    team = seat % 2
    if not table:
        best = -1
        best_key = (-1, -1)
        for t in indices(hand):
            if not _beaten(t, t, seat, 3, choice, possible, exact):
                key = (COUNT[t], STRENGTH[choice][t][t])
                if key > best_key:
                    best_key, best = key, t
        return best if best >= 0 else _cheapest(hand, choice)
    lead = table[0]
    allowed = hand & FOLLOWERS[choice][lead] or hand
    w = trick_winner(table, choice)
    leader = (seat - len(table)) % SEATS
    later = 3 - len(table)
    top = table[w]
    if (leader + w) % 2 == team and not _beaten(lead, top, seat, later, choice, possible, exact):
        return max(indices(allowed), key=lambda t: (COUNT[t], -STRENGTH[choice][lead][t]))
    winners = allowed & ABOVE[choice][lead][top]
    if winners:
        safe = [t for t in indices(winners) if not _beaten(lead, t, seat, later, choice, possible, exact)]
        if safe:
            return max(safe, key=lambda t: (COUNT[t], -STRENGTH[choice][lead][t]))
        if sum(COUNT[t] for t in table):
            return max(indices(winners), key=lambda t: STRENGTH[choice][lead][t])
    return _cheapest(allowed, choice)


def _beaten(lead: int, top: int, seat: int, later: int, choice: int, possible: list[int], exact: bool) -> bool:
    """Whether an opponent of ``seat`` among the ``later`` seats to play may beat ``top`` (``exact``: holding a
    follower, it must follow, so only a higher follower beats)."""
    above = ABOVE[choice][lead][top]
    follow = FOLLOWERS[choice][lead]
    for i in range(1, later + 1):
        s = (seat + i) % SEATS
        if s % 2 == seat % 2:
            continue
        can = possible[s]
        if exact and can & follow:
            can &= follow
        if can & above:
            return True
    return False


def _cheapest(allowed: int, choice: int) -> int:
    """The tile of ``allowed`` least worth keeping: no count, not a trump, not a double, low."""
    trumps = TRUMP_MASK[choice]
    return min(
        indices(allowed),
        key=lambda t: (COUNT[t], bool(BIT[t] & trumps), bool(BIT[t] & DOUBLES), STRENGTH[choice][t][t]),
    )


def normal(view: TexasView, rules: TexasRules) -> Action:
    """Bid what the hand's estimate says, name its best trumps, play :func:`pick` with the unseen tiles."""
    k = Knowledge.of(view)
    if view.phase is Phase.BIDDING:
        return _greedy_bid(view, k.hand, k.me)
    if view.phase is Phase.TRUMPS:
        return TRUMP_CHOICES[best_choices(k.hand)[0]]
    assert view.trump is not None
    return PLAY[pick(k.me, k.hand, [t.index for t in view.table], view.trump, k.possible())]


def _greedy_bid(view: TexasView, hand: int, me: int) -> Action:
    worth = max(estimate(hand, c) for c in CHOICES)
    partner_high = _high_bidder(view) == (me + 2) % SEATS
    options = [a for a in view.legal if a.kind is Kind.BID]
    for a in reversed(options):
        b = a.value
        need = b + (5 if partner_high else 0)
        if (b < TOTAL and worth >= need) or (b == TOTAL and worth >= 48):
            return a
    return PASS


def _high_bidder(view: TexasView) -> int | None:
    for seat, b in zip(reversed(view.bidders), reversed(view.bids), strict=True):
        if b:
            return seat
    return None


# -- playing out -------------------------------------------------------------


def playout(
    hands: list[int],
    table: list[int],
    turn: int,
    choice: int,
    points: list[int],
    tricks: list[int],
    declarer: int,
    bid: int | None,
) -> tuple[bool, int]:
    """Play the deal out from here with every seat playing :func:`pick` with all hands open; ``(made, the
    declaring team's points)``, stopping as the deal does once ``bid`` is decided (``bid`` None: all seven
    tricks are played, and made is whether the declaring team took them all). ``turn`` is the seat to play
    (with four tiles on the table, their leader). The lists are changed."""
    ours = declarer % 2
    while True:
        if len(table) == SEATS:
            leader = turn
            w = (leader + trick_winner(table, choice)) % SEATS
            team = w % 2
            tricks[team] += 1
            points[team] += 1 + COUNT[table[0]] + COUNT[table[1]] + COUNT[table[2]] + COUNT[table[3]]
            if bid is None:
                if tricks[0] + tricks[1] == 7:
                    return tricks[ours] == 7, points[ours]
            else:
                made = settled(bid, points, tricks, ours)
                if made is not None:
                    return made, points[ours]
            table = []
            turn = w
        t = pick(turn, hands[turn], table, choice, hands, True)
        hands[turn] &= ~BIT[t]
        table.append(t)
        # After the fourth tile this is the trick's leader again, as the settling above reads it.
        turn = (turn + 1) % SEATS


def _equities(view: TexasView, team: int, marks: int) -> tuple[float, float]:
    """The team's match equity after it wins ``marks`` marks, and after the other team does."""
    return stakes(view.target - view.score[team], view.target - view.score[1 - team], marks, FORTYTWO_DEAL_POINTS)


def _weight(k: Knowledge, view: TexasView, hands: list[int]) -> float:
    """How well a sampled deal explains the bidding: a passer with a strong hand, or a bidder with a hand far
    below its bid, is unlikely."""
    w = 1.0
    for seat, b in zip(view.bidders, view.bids, strict=True):
        if seat == k.me:
            continue
        worth = max(estimate(hands[seat], c) for c in best_choices(hands[seat], 2))
        level = 30 if b is None else min(b, TOTAL)
        x = (level - worth) / 4 if b is None else (worth - level + 4) / 4
        w *= 0.1 + 0.9 / (1 + exp(-x))
    return w


def _worlds(k: Knowledge, view: TexasView, rng: random.Random, n: int) -> list[tuple[list[int], float]]:
    out = []
    for _ in range(n):
        hands = sample(k, rng)
        out.append((hands, _weight(k, view, hands)))
    return out


# -- the sampling player -----------------------------------------------------


def hard(view: TexasView, rules: TexasRules, rng: random.Random) -> Action:
    """The move :func:`evaluate` values most (of equals, the first)."""
    if len(view.legal) == 1:
        return view.legal[0]
    values = evaluate(view, rules, rng)
    return max(values, key=lambda mv: mv[1])[0]


def evaluate(view: TexasView, rules: TexasRules, rng: random.Random) -> list[tuple[Action, float]]:
    """Each legal move with the hard level's chance that the seat's team wins the match after it."""
    k = Knowledge.of(view)
    if view.phase is Phase.BIDDING:
        return _bid_values(k, view, rng)
    if view.phase is Phase.TRUMPS:
        assert view.bid is not None
        worlds = _worlds(k, view, rng, BID_SAMPLES)
        win, lose = _equities(view, k.me % 2, marks_of(view.bid))
        values = []
        for a in view.legal:
            made, pts = _contract(worlds, k.me, a.value, view.bid)
            values.append((a, lose + (win - lose) * made + POINTS_WEIGHT * pts))
        return values
    assert view.trump is not None and view.bid is not None and view.declarer is not None
    worlds = _worlds(k, view, rng, PLAY_SAMPLES)
    ours = view.declarer % 2
    team = k.me % 2
    win, lose = _equities(view, team, marks_of(view.bid))
    table = [t.index for t in view.table]
    leader = k.me if not table else (k.me - len(table)) % SEATS
    values = []
    total = sum(w for _, w in worlds)
    for a in view.legal:
        good = 0.0
        pts = 0.0
        for hands, w in worlds:
            hs = hands[:]
            hs[k.me] &= ~BIT[a.value]
            after = [*table, a.value]
            turn = leader if len(after) == SEATS else (k.me + 1) % SEATS
            made, mine = playout(hs, after, turn, view.trump, list(view.points), list(view.tricks), view.declarer,
                                 view.bid)  # fmt: skip
            good += w * (made == (team == ours))
            pts += w * (mine if team == ours else TOTAL - mine)
        values.append((a, lose + (win - lose) * good / total + POINTS_WEIGHT * pts / total))
    return values


def _contract(worlds: list[tuple[list[int], float]], declarer: int, choice: int, bid: int) -> tuple[float, float]:
    """The weighted chance the declarer's team makes ``bid`` with ``choice``, and its mean points."""
    made = pts = total = 0.0
    for hands, w in worlds:
        ok, got = playout(hands[:], [], declarer, choice, [0, 0], [0, 0], declarer, bid)
        made += w * ok
        pts += w * got
        total += w
    return made / total, pts / total


def _bid_values(k: Knowledge, view: TexasView, rng: random.Random) -> list[tuple[Action, float]]:
    """A bid: the chance of making it as declarer with the best trumps of the sampled deals, valued in match
    equity; a pass: the score as it stands."""
    worlds = _worlds(k, view, rng, BID_SAMPLES)
    team = k.me % 2
    choices = best_choices(k.hand, BID_CHOICES)
    # The points our team makes in each world with each choice, played out (made is judged per bid below).
    results = {c: [playout(h[:], [], k.me, c, [0, 0], [0, 0], k.me, None) for h, _ in worlds] for c in choices}
    weights = [w for _, w in worlds]
    total = sum(weights)
    neutral = equity(view.target - view.score[team], view.target - view.score[1 - team], FORTYTWO_DEAL_POINTS)
    values: list[tuple[Action, float]] = []
    for a in view.legal:
        if a.kind is Kind.PASS:
            values.append((a, neutral))
            continue
        b = a.value
        win, lose = _equities(view, team, marks_of(b))
        best = 0.0
        for c in choices:
            rate = sum(w * _makes(r, b) for r, w in zip(results[c], weights, strict=True)) / total
            best = max(best, rate)
        values.append((a, lose + (win - lose) * best))
    return values


def _makes(result: tuple[bool, int], bid: int) -> bool:
    """Whether a playout of all seven tricks makes ``bid``: a point bid by its points, a mark bid by taking every
    trick."""
    made_all, points = result
    return made_all if bid >= TOTAL else points >= bid
