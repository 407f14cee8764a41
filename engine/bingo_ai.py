"""The computer's Bingo: what a seat knows from its view, a greedy player, and a search over sampled deals.

Everything here starts from a :class:`BingoView` and the rules. :class:`Knowledge`
works out where the tiles may be from what the seat has seen (its hand, every
trick of the deal, the claims shown, the indicator and who drew it, the suits
the opponent showed it lacked when it had to follow, what the table saw of a
close). The greedy player reads that; the search deals the unseen tiles at
random in agreement with it and tries each candidate move in every such
world: while the reserve is open with a fast greedy playout (:class:`Table`,
a bare re-statement of the rules on masks), and once nothing more is drawn
with the exact search of :mod:`engine.bingo_search`; it keeps the move with
the best average match equity. :mod:`engine.bingo_reference` is the search as
it was before the exact one, for the arena.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb, exp

from engine.actions import CLAIM, CLOSE, PLAY, TAKE_HIDDEN, TAKE_INDICATOR, Action, Kind
from engine.bingo import BEATS, BINGO, LOWER, POINTS, STRENGTH, SUIT, TRUMPS, BingoView
from engine.bingo_search import Endgame, follow_mask
from engine.equity import BINGO_DEAL_POINTS, equity
from engine.rules import BingoRules, ClosePenalty, LastPair
from engine.tiles import BIT, DOUBLES, FULL_SET, SUIT_MASK, TILE_COUNT, indices, mask_of, tile_index

OPEN_TRICKS = 7
"""Tricks after which the reserve is drawn (14 tiles, two a trick); the follow rules hold from the 8th."""
TRUMP_OR_DOUBLE: tuple[int, ...] = tuple(TRUMPS[s] | DOUBLES for s in range(7))

DISCARD: tuple[tuple[int, ...], ...] = tuple(
    tuple(POINTS[s][t] * 2048 + STRENGTH[s][t] for t in range(TILE_COUNT)) for s in range(7)
)
"""``DISCARD[trump][tile]``: the cost of giving a tile away; the least is thrown first (points, then strength)."""

SEARCH_ROLLOUTS = 1200
"""Playouts a move of the search spends in the open phase, shared among its candidates."""
SEARCH_WORLDS = 24
"""Fewest sampled deals each candidate is played out in."""
STRICT_WORLDS = 40
"""Sampled opponent's hands each candidate is solved exactly in, after a close."""
CLOSER_SCALE = 29.0
"""How much a closer's hand is presumed strong: a world's weight grows e-fold with this much more strength."""
PRACTICAL = 0.02
"""Weight of a greedy playout's value next to the exact one: among moves of the same exact value, the one that
leaves a fallible opponent more room to go wrong (or the seat less) is preferred."""
CLOSER_POOL = 3
"""Uniform samples drawn for each world kept, after the opponent closed."""
EXACT_RESERVE = 6
"""In the open phase the playouts end in the exact search only from this reserve down; greedy to the end before."""
EXACT_ROLLOUTS = 200
"""Playouts a move spends when they end in the exact search, shared among its candidates."""
EXACT_WORLDS = 24
"""Fewest sampled deals each candidate is played out in when the playouts end in the exact search."""
REVIEW_SCALE = 0.4
"""The share of those samples the post-mortem judges a decision with (:func:`judge`): the counts the level played
with until it took more (480 playouts, 10 deals, 16 hands, 80, 10), so that a match's review takes what it took
then; the hints and the level itself take them all."""
POINTS_WEIGHT = 0.0002
"""Match equity of one point of difference in the deal, to tell apart moves that give the same game points."""


def _least(mask: int, key: tuple[int, ...]) -> int:
    """The tile of ``mask`` with the least ``key``."""
    best = -1
    best_key = 1 << 30
    while mask:
        low = mask & -mask
        t = low.bit_length() - 1
        mask ^= low
        k = key[t]
        if k < best_key:
            best_key = k
            best = t
    return best


def lacked(lead: int, reply: int, trump: int, rules: BingoRules) -> int:
    """The tiles a seat cannot have held when it answered ``lead`` with ``reply`` under the follow rules."""
    trumps = TRUMPS[trump]
    reply_bit = BIT[reply]
    if BIT[lead] & trumps:
        return 0 if reply_bit & trumps else trumps
    suit = SUIT_MASK[SUIT[lead]] & ~trumps & ~BIT[lead]
    if reply_bit & suit:
        if rules.must_beat and not reply_bit & BEATS[trump][lead]:
            return suit & BEATS[trump][lead]
        return 0
    missing = suit
    if rules.follow_lower_half:
        lower = SUIT_MASK[LOWER[lead]] & ~trumps & ~BIT[lead]
        if reply_bit & lower:
            return missing
        missing |= lower
    if rules.must_trump_when_void:
        if reply_bit & trumps:
            return missing
        missing |= trumps
    return missing


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a seat knows of a Bingo deal, worked out from its view alone."""

    me: int
    trump: int
    hand: int
    lead: int
    """The tile the opponent led to the trick in progress, or -1."""
    indicator: int
    reserve: int
    """Tiles left in the reserve, the indicator (always the last) included."""
    closed_by: int
    closed_after: int
    opp_known: int
    """Tiles the opponent is known to hold: doubles it claimed and still has, the indicator it drew."""
    opp_unknown: int
    """How many of the opponent's tiles are not known."""
    unseen: int
    """Tiles in the opponent's hand or hidden in the reserve, which is not known."""
    lacking: int
    """Unseen tiles the opponent cannot hold: it showed it had none when it had to follow."""
    points: tuple[int, int]
    """Both seats' points: tricks are public, so the opponent's are counted too."""
    tricks: tuple[int, int]
    claim: int
    """Doubles the opponent claimed on the trick in progress (0 when none)."""
    closer_played: int = 0
    """Tiles the opponent played since it closed (its hand at the close is these and its hand now)."""

    @property
    def opp(self) -> int:
        return 1 - self.me

    @property
    def strict(self) -> bool:
        return self.closed_by >= 0 or self.reserve == 0

    @property
    def opp_may_hold(self) -> int:
        return self.opp_known | (self.unseen & ~self.lacking)

    @classmethod
    def of(cls, view: BingoView, rules: BingoRules) -> Knowledge:
        if view.seat is None:
            raise ValueError("the table's view has no seat to play for")
        me = view.seat
        opp = 1 - me
        trump = view.trump
        hand = mask_of(view.hand)
        played = 0
        points = [0, 0]
        claim_points = [0, 0]
        claimed_by_opp = 0
        claim = 0
        for c in view.claims:
            mask = mask_of(c.doubles)
            if c.seat == opp:
                claimed_by_opp |= mask
                if c.scored is None:
                    claim = mask
            if c.scored:
                claim_points[c.seat] += rules.claim_value(mask.bit_count(), bool(mask & BIT[BINGO]))[0]
        closed_by = -1 if view.closed_by is None else view.closed_by
        closed_after = OPEN_TRICKS if view.closed_at is None else view.closed_at
        lacking = 0
        closer_played = 0
        pts = POINTS[trump]
        for i, trick in enumerate(view.history):
            lead, reply = trick.lead.index, trick.reply.index
            played |= BIT[lead] | BIT[reply]
            if closed_by == opp and i >= closed_after:
                closer_played |= BIT[lead] if trick.leader == opp else BIT[reply]
            points[trick.winner] += pts[lead] + pts[reply]
            if trick.leader == me and i >= closed_after:
                lacking |= lacked(lead, reply, trump, rules)
        lead = -1 if view.lead is None else view.lead.index
        if lead >= 0:
            played |= BIT[lead]
            if closed_by == opp:
                closer_played |= BIT[lead]
        shown = view.indicator_seen or view.indicator
        indicator = -1 if shown is None else shown.index
        opp_known = claimed_by_opp & ~played
        if indicator >= 0 and view.indicator_holder == opp and not BIT[indicator] & played:
            opp_known |= BIT[indicator]
        unseen = FULL_SET & ~hand & ~played & ~opp_known
        if indicator >= 0:
            unseen &= ~BIT[indicator]
        return cls(
            me=me,
            trump=trump,
            hand=hand,
            lead=lead,
            indicator=indicator,
            reserve=view.reserve,
            closed_by=closed_by,
            closed_after=closed_after,
            opp_known=opp_known,
            opp_unknown=view.hand_sizes[opp] - opp_known.bit_count(),
            unseen=unseen,
            lacking=lacking & unseen,
            points=(points[0] + claim_points[0], points[1] + claim_points[1]),
            tricks=view.tricks,
            claim=claim,
            closer_played=closer_played,
        )

    def sample(self, rng: random.Random) -> tuple[int, tuple[int, ...]]:
        """A deal of the unseen tiles that agrees with everything seen: the opponent's hand and the reserve's order."""
        pool = list(indices(self.unseen))
        allowed = [t for t in pool if not BIT[t] & self.lacking]
        if len(allowed) < self.opp_unknown:
            allowed = pool
        picked = rng.sample(allowed, self.opp_unknown)
        hand = self.opp_known
        for t in picked:
            hand |= BIT[t]
        rest = [t for t in pool if not BIT[t] & hand]
        rng.shuffle(rest)
        if self.reserve:
            rest.append(self.indicator)
        return hand, tuple(rest)

    def chance_opp_lacks(self, tiles: int) -> float:
        """The chance that the opponent holds none of ``tiles``, every agreeing deal of the unseen alike."""
        if tiles & self.opp_known:
            return 0.0
        free = self.unseen & ~self.lacking
        n = free.bit_count()
        k = min(self.opp_unknown, n)
        bad = (tiles & free).bit_count()
        return comb(n - bad, k) / comb(n, k) if n else 1.0


class Table:
    """A Bingo deal on masks for playouts: the rules of ``BingoDeal`` without records, views or checks."""

    __slots__ = (
        "choosing",
        "claim",
        "closed_after",
        "closed_by",
        "hands",
        "lead",
        "over",
        "points",
        "pos",
        "reserve",
        "rules",
        "score",
        "target",
        "tricks",
        "trump",
        "turn",
    )

    def __init__(
        self,
        rules: BingoRules,
        target: int,
        trump: int,
        hands: list[int],
        reserve: tuple[int, ...],
        *,
        turn: int,
        lead: int = -1,
        claim: int = 0,
        closed_by: int = -1,
        closed_after: int = OPEN_TRICKS,
        choosing: bool = False,
        points: tuple[int, int] = (0, 0),
        tricks: tuple[int, int] = (0, 0),
        score: tuple[int, int] = (0, 0),
    ) -> None:
        self.rules = rules
        self.target = target
        self.trump = trump
        self.hands = hands
        self.reserve = reserve
        self.pos = 0
        self.turn = turn
        self.lead = lead
        self.claim = claim
        self.closed_by = closed_by
        self.closed_after = closed_after
        self.choosing = choosing
        self.points = list(points)
        self.tricks = list(tricks)
        self.score = list(score)
        self.over = False

    @classmethod
    def of(cls, k: Knowledge, view: BingoView, rules: BingoRules, opp_hand: int, reserve: tuple[int, ...]) -> Table:
        """The deal as the seat sees it, with one deal of the unseen tiles."""
        hands = [0, 0]
        hands[k.me] = k.hand
        hands[k.opp] = opp_hand
        return cls(
            rules,
            view.target,
            k.trump,
            hands,
            reserve,
            turn=k.me,
            lead=k.lead,
            claim=k.claim,
            closed_by=k.closed_by,
            closed_after=k.closed_after,
            choosing=view.choosing,
            points=k.points,
            tricks=k.tricks,
            score=view.score,
        )

    @property
    def strict(self) -> bool:
        return self.closed_by >= 0 or self.pos == len(self.reserve)

    def allowed(self) -> int:
        """The tiles the seat to act may answer the lead with."""
        hand = self.hands[self.turn]
        if not self.strict:
            return hand
        return follow_mask(hand, self.lead, self.trump, self.rules)

    def play(self, action: Action) -> None:
        """Apply a legal action of the seat to act."""
        kind = action.kind
        seat = self.turn
        if kind is Kind.CLOSE:
            self.closed_by = seat
            self.closed_after = self.tricks[0] + self.tricks[1]
        elif kind is Kind.TAKE_INDICATOR or kind is Kind.TAKE_HIDDEN:
            self._take(seat, kind is Kind.TAKE_INDICATOR)
        elif self.lead < 0:
            if kind is Kind.CLAIM:
                self.claim = self.hands[seat] & DOUBLES
            self.hands[seat] &= ~BIT[action.value]
            self.lead = action.value
            self.turn = 1 - seat
        else:
            self._reply(seat, action.value)

    def _take(self, seat: int, indicator: bool) -> None:
        hidden, face_up = self.reserve[-2], self.reserve[-1]
        mine, theirs = (face_up, hidden) if indicator else (hidden, face_up)
        self.hands[seat] |= BIT[mine]
        self.hands[1 - seat] |= BIT[theirs]
        self.pos = len(self.reserve)
        self.choosing = False

    def _reply(self, seat: int, reply: int) -> None:
        rules = self.rules
        trump = self.trump
        leader = 1 - seat
        lead = self.lead
        self.hands[seat] &= ~BIT[reply]
        winner = seat if BEATS[trump][lead] & BIT[reply] else leader
        self.lead = -1
        self.turn = winner
        self.tricks[winner] += 1
        pts = POINTS[trump]
        gain = pts[lead] + pts[reply]
        bonus = 0
        if self.claim:
            if winner == leader:
                claimed = self.claim
                points, bonus = rules.claim_value(claimed.bit_count(), bool(claimed & BIT[BINGO]))
                gain += points
            self.claim = 0
        self.points[winner] += gain
        if bonus and self._award(winner, bonus):
            return
        if (
            trump != 0
            and rules.bingo_bonus
            and BIT[lead] | BIT[reply] == BIT[BINGO] | BIT[tile_index(trump, trump)]
            and self._award(winner, rules.bingo_bonus)
        ):
            return
        if self.points[winner] >= rules.goal:
            self._finish(winner)
            return
        hands = self.hands
        if not hands[0] and not hands[1]:
            self._finish(-1)
            return
        pos = self.pos
        reserve = self.reserve
        if self.closed_by < 0 and pos < len(reserve):
            if len(reserve) - pos == 2 and rules.last_pair is LastPair.WINNER_CHOOSES:
                self.choosing = True
                return
            hands[winner] |= BIT[reserve[pos]]
            hands[1 - winner] |= BIT[reserve[pos + 1]]
            self.pos = pos + 2

    def _award(self, seat: int, game_points: int) -> bool:
        """Give game points; True (and the deal over) when that wins the match."""
        self.score[seat] += game_points
        if self.score[seat] >= self.target:
            self.over = True
            return True
        return False

    def _finish(self, reached: int) -> None:
        self.over = True
        rules = self.rules
        closer = self.closed_by
        if closer < 0 or closer == reached:
            if reached < 0:
                return
            other = 1 - reached
            if self.tricks[other] == 0:
                self._award(reached, 3)
            elif self.points[other] < rules.schneider:
                self._award(reached, 2)
            else:
                self._award(reached, 1)
            return
        other = 1 - closer
        if rules.close_penalty is ClosePenalty.CLOSED_BEFORE_FIRST_TRICK:
            penalty = self.closed_after == 0
        else:
            penalty = self.tricks[closer] == 0
        if self._award(other, 3 if penalty else 2):
            return
        if reached == other:
            self._award(other, 1)

    # -- the playout policy --------------------------------------------------

    def settle_value(self, me: int, solvers: dict[int, Endgame]) -> float:
        """Play greedily until nobody draws any more, solve the rest exactly; the match equity for ``me``.

        ``solvers`` keeps one :class:`Endgame` per closer of this sampled deal, its table shared by the
        candidates tried in it.
        """
        while not self.over and not self.strict and not (self.choosing and self.pos + 2 == len(self.reserve)):
            self.rollout_step()
        if self.over:
            return self.value(me)
        solver = solvers.get(self.closed_by)
        if solver is None:
            solver = Endgame(self.rules, self.trump, self.target, me, self.closed_by, self.closed_after)
            solvers[self.closed_by] = solver
        hands = (self.hands[0], self.hands[1])
        if self.choosing:
            return self._solve_choice(me, solver)
        state = self._state()
        if self.lead < 0:
            exact = solver.solve(hands, self.turn, state)
        else:
            exact = solver.answer(hands, 1 - self.turn, self.lead, self.claim, state, -1.0, 2.0)
        if PRACTICAL <= 0:
            return exact
        self.rollout()
        return (exact + PRACTICAL * self.value(me)) / (1 + PRACTICAL)

    def _state(self) -> tuple[int, int, bool, bool, int, int]:
        """What the exact search needs of the deal besides the hands: points, whether each seat took a trick,
        the match score."""
        return (self.points[0], self.points[1], self.tricks[0] > 0, self.tricks[1] > 0, self.score[0], self.score[1])

    def _solve_choice(self, me: int, solver: Endgame) -> float:
        """The last pair's choice made by the exact search: the better of taking either tile, for the chooser."""
        seat = self.turn
        hidden, face_up = self.reserve[-2], self.reserve[-1]
        state = self._state()
        values = []
        for mine, theirs in ((face_up, hidden), (hidden, face_up)):
            hands = [self.hands[0], self.hands[1]]
            hands[seat] |= BIT[mine]
            hands[1 - seat] |= BIT[theirs]
            values.append(solver.solve((hands[0], hands[1]), seat, state))
        return max(values) if seat == me else min(values)

    def rollout(self) -> None:
        """Play the deal out, both seats greedy and seeing both hands (it is one sampled deal)."""
        while not self.over:
            self.rollout_step()

    def rollout_step(self) -> None:
        """One greedy action of the seat to act."""
        trump = self.trump
        beats = BEATS[trump]
        pts = POINTS[trump]
        discard = DISCARD[trump]
        hands = self.hands
        seat = self.turn
        if self.choosing:
            hidden, face_up = self.reserve[-2], self.reserve[-1]
            self._take(seat, discard[face_up] >= discard[hidden])
            return
        if self.lead < 0:
            self._rollout_lead(seat, hands[seat], hands[1 - seat], beats, pts, discard)
            return
        allowed = self.allowed()
        lead = self.lead
        winners = allowed & beats[lead]
        if winners:
            w = _least(winners, STRENGTH[trump])
            if self.claim or pts[lead] + pts[w] or not BIT[w] & TRUMP_OR_DOUBLE[trump]:
                self._reply(seat, w)
                return
        self._reply(seat, _least(allowed, discard))

    def _rollout_lead(
        self,
        seat: int,
        hand: int,
        other: int,
        beats: tuple[int, ...],
        pts: tuple[int, ...],
        discard: tuple[int, ...],
    ) -> None:
        doubles = hand & DOUBLES
        if doubles & (doubles - 1):
            for d in indices(doubles):
                if not beats[d] & other:
                    self.claim = doubles
                    self._lead(seat, d)
                    return
        best = -1
        best_points = 0
        m = hand
        while m:
            low = m & -m
            t = low.bit_length() - 1
            m ^= low
            if pts[t] > best_points and not beats[t] & other:
                best_points = pts[t]
                best = t
        self._lead(seat, best if best >= 0 else _least(hand, discard))

    def _lead(self, seat: int, tile: int) -> None:
        self.hands[seat] &= ~BIT[tile]
        self.lead = tile
        self.turn = 1 - seat

    def value(self, seat: int) -> float:
        """The match equity of the score now for ``seat``, a point of the deal's difference a hair's weight."""
        need_me = self.target - self.score[seat]
        need_opp = self.target - self.score[1 - seat]
        diff = self.points[seat] - self.points[1 - seat]
        return equity(need_me, need_opp, BINGO_DEAL_POINTS) + POINTS_WEIGHT * diff


# -- the greedy player -------------------------------------------------------


def normal(view: BingoView, rules: BingoRules) -> Action:
    """Win tricks cheaply, keep trumps and doubles, claim and close when it pays."""
    k = Knowledge.of(view, rules)
    legal = view.legal
    trump = k.trump
    if view.choosing:
        face_up = k.indicator
        unseen = list(indices(k.unseen))
        average = sum(DISCARD[trump][t] for t in unseen) / len(unseen) if unseen else 0
        return TAKE_INDICATOR if DISCARD[trump][face_up] >= average else TAKE_HIDDEN
    if k.lead >= 0:
        return PLAY[_normal_reply(k, legal)]
    if CLOSE in legal and _worth_closing(k, rules):
        return CLOSE
    return _normal_lead(k, legal)


def _allowed_mask(legal: tuple[Action, ...]) -> int:
    mask = 0
    for a in legal:
        if a.kind is Kind.PLAY:
            mask |= BIT[a.value]
    return mask


def _normal_reply(k: Knowledge, legal: tuple[Action, ...]) -> int:
    trump = k.trump
    allowed = _allowed_mask(legal)
    winners = allowed & BEATS[trump][k.lead]
    if winners:
        w = _least(winners, STRENGTH[trump])
        pts = POINTS[trump]
        if k.claim or pts[k.lead] + pts[w] or not BIT[w] & TRUMP_OR_DOUBLE[trump] or k.tricks[k.me] == 0:
            return w
    return _least(allowed, DISCARD[trump])


def _sure(k: Knowledge, tile: int) -> bool:
    """Nothing the opponent may hold beats ``tile``."""
    return not BEATS[k.trump][tile] & k.opp_may_hold


def _normal_lead(k: Knowledge, legal: tuple[Action, ...]) -> Action:
    trump = k.trump
    hand = k.hand
    doubles = hand & DOUBLES
    if doubles & (doubles - 1):
        best, chance = max(((d, k.chance_opp_lacks(BEATS[trump][d])) for d in indices(doubles)), key=lambda x: x[1])
        if chance >= 0.5:
            return CLAIM[best]
    pts = POINTS[trump]
    sure = [t for t in indices(hand) if pts[t] and _sure(k, t)]
    if sure:
        return PLAY[max(sure, key=pts.__getitem__)]
    return PLAY[_least(hand, DISCARD[trump])]


def _worth_closing(k: Knowledge, rules: BingoRules) -> bool:
    """Close when the points in hand that nothing can beat take the seat to the goal."""
    pts = POINTS[k.trump]
    mine = k.points[k.me]
    sure = sum(pts[t] + 5 for t in indices(k.hand) if _sure(k, t))
    return mine + sure >= rules.goal and mine >= k.points[k.opp]


# -- the search --------------------------------------------------------------


def candidates(legal: tuple[Action, ...]) -> list[Action]:
    """The moves worth searching: leading a double without claiming is never better than claiming it."""
    claimed = {a.value for a in legal if a.kind is Kind.CLAIM}
    return [a for a in legal if not (a.kind is Kind.PLAY and a.value in claimed)]


def hard(view: BingoView, rules: BingoRules, rng: random.Random) -> Action:
    """The candidate with the best value of :func:`evaluate`."""
    moves = candidates(view.legal)
    if len(moves) == 1:
        return moves[0]
    values = evaluate(view, rules, rng)
    return max(values, key=lambda mv: mv[1])[0]


def judge(view: BingoView, rules: BingoRules, rng: random.Random) -> list[tuple[Action, float]]:
    """:func:`evaluate` with :data:`REVIEW_SCALE` of its samples: what the post-mortem judges with."""
    return evaluate(view, rules, rng, scale=REVIEW_SCALE)


def evaluate(
    view: BingoView, rules: BingoRules, rng: random.Random, *, scale: float = 1.0
) -> list[tuple[Action, float]]:
    """Each candidate move (see :func:`candidates`) with the hard level's estimate of the seat's chance to win
    the match after it, from the view alone.

    Every candidate is tried in the same sampled deals that agree with the view (:func:`_deals`; one deal when
    the seat has seen every other tile). Once nothing more is drawn, and in the open phase from
    :data:`EXACT_RESERVE` tiles in the reserve down, the deal is played on greedily to the point where nobody
    draws any more and from there solved exactly (:meth:`Table.settle_value`); earlier it is played out
    greedily to its end (:meth:`Table.rollout`). The value is the match equity of the outcome; a candidate's
    is its average over the deals.
    """
    moves = candidates(view.legal)
    k = Knowledge.of(view, rules)
    worlds = _worlds(k, view, len(moves), scale)
    totals = [0.0] * len(moves)
    exact = k.strict or view.reserve <= EXACT_RESERVE
    for opp_hand, reserve in _deals(k, worlds, rng):
        solvers: dict[int, Endgame] = {}
        for i, move in enumerate(moves):
            table = Table.of(k, view, rules, opp_hand, reserve)
            table.play(move)
            if exact:
                totals[i] += table.settle_value(k.me, solvers)
            else:
                table.rollout()
                totals[i] += table.value(k.me)
    return [(move, min(1.0, max(0.0, total / worlds))) for move, total in zip(moves, totals, strict=True)]


def _deals(k: Knowledge, worlds: int, rng: random.Random) -> list[tuple[int, tuple[int, ...]]]:
    """``worlds`` sampled deals of the unseen tiles. After the opponent closed, drawn in proportion to how
    strong a hand each gives it at the close (a closer holds a strong hand): from more uniform samples, each
    weighed by ``exp(strength / CLOSER_SCALE)`` (:func:`_closing_strength`)."""
    if k.closed_by != k.opp or k.opp_unknown == 0 or CLOSER_SCALE <= 0:
        return [k.sample(rng) for _ in range(worlds)]
    pool = [k.sample(rng) for _ in range(worlds * CLOSER_POOL)]
    weights = [exp(_closing_strength(k, hand | k.closer_played) / CLOSER_SCALE) for hand, _ in pool]
    return rng.choices(pool, weights, k=worlds)


def _closing_strength(k: Knowledge, hand: int) -> int:
    """What the closer's hand at the close was worth: its points and eight a trump."""
    pts = POINTS[k.trump]
    return sum(pts[t] for t in indices(hand)) + 8 * (hand & TRUMPS[k.trump]).bit_count()


def _worlds(k: Knowledge, view: BingoView, moves: int, scale: float = 1.0) -> int:
    """How many sampled deals the search spends: one when nothing is hidden, fewer the more candidates; ``scale``
    times the counts above (rounded)."""
    if not view.choosing and (k.unseen.bit_count() == k.opp_unknown or (k.opp_unknown == 0 and k.strict)):
        return 1
    if k.strict or view.choosing:
        return round(STRICT_WORLDS * scale)
    if view.reserve <= EXACT_RESERVE:
        return max(round(EXACT_WORLDS * scale), round(EXACT_ROLLOUTS * scale) // moves)
    return max(round(SEARCH_WORLDS * scale), round(SEARCH_ROLLOUTS * scale) // moves)
