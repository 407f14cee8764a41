"""An exact search of the rest of a Bingo deal once nobody draws any more (the reserve empty or closed).

From then on the follow rules hold and no tile comes into play, so when both
hands are known (the reserve is empty: the seat has seen every other tile) the
rest of the deal is a game of perfect information. :class:`Endgame` plays it
out by minimax with alpha-beta pruning and a transposition table on masks: a
position is the two hands, who leads, both seats' points and whether each has
taken a trick, and the score; its value is the match equity
(:func:`engine.equity.equity`) of the score the deal leaves, for one seat. A
claim is always made when a double is led from two or more (it can only gain).

After a close the opponent's hand is unknown: the hard level solves each of a
number of sampled hands exactly and averages (see :mod:`engine.bingo_ai`).
"""

from __future__ import annotations

from engine.bingo import BEATS, BINGO, LOWER, POINTS, SUIT, TRUMPS
from engine.equity import BINGO_DEAL_POINTS, equity
from engine.rules import BingoRules, ClosePenalty
from engine.tiles import BIT, DOUBLES, SUIT_MASK, tile_index

EXACT, AT_LEAST, AT_MOST = 0, 1, 2
"""What a stored value is: the exact value, or a bound found by a cut-off."""


def follow_mask(hand: int, lead: int, trump: int, rules: BingoRules) -> int:
    """The tiles of ``hand`` that may answer ``lead`` under the follow rules of RULES.md 1.3.7."""
    trumps = TRUMPS[trump]
    if BIT[lead] & trumps:
        return hand & trumps or hand
    m = hand & SUIT_MASK[SUIT[lead]] & ~trumps
    if m:
        if rules.must_beat:
            return m & BEATS[trump][lead] or m
        return m
    if rules.follow_lower_half:
        m = hand & SUIT_MASK[LOWER[lead]] & ~trumps
        if m:
            return m
    if rules.must_trump_when_void:
        m = hand & trumps
        if m:
            return m
    return hand


class Endgame:
    """The exact value of a Bingo deal in its strict phase, both hands known, for seat ``me``."""

    __slots__ = (
        "bonus",
        "closed_after",
        "closed_by",
        "lead_order",
        "me",
        "memo",
        "nodes",
        "pts",
        "reply_order",
        "rules",
        "target",
        "trump",
        "trump_double",
    )

    def __init__(self, rules: BingoRules, trump: int, target: int, me: int, closed_by: int, closed_after: int) -> None:
        self.rules = rules
        self.trump = trump
        self.target = target
        self.me = me
        self.closed_by = closed_by
        self.closed_after = closed_after
        self.pts = POINTS[trump]
        self.trump_double = tile_index(trump, trump)
        self.bonus = rules.bingo_bonus if trump != 0 else 0
        pts = self.pts
        beats = BEATS[trump]
        self.lead_order = sorted(range(28), key=lambda t: (-pts[t], beats[t].bit_count()))
        """Leads tried first: the richest, then the hardest to beat."""
        self.reply_order = sorted(range(28), key=lambda t: (-pts[t], -beats[t].bit_count()))
        """Replies tried first: the richest, then the weakest (a cheap win or a cheap loss)."""
        self.memo: dict[tuple[int, ...], tuple[float, int, int]] = {}
        self.nodes = 0

    # -- values --------------------------------------------------------------

    def equity_of(self, s0: int, s1: int) -> float:
        """The match equity of a score for ``me``."""
        s = (s0, s1)
        return equity(self.target - s[self.me], self.target - s[1 - self.me], BINGO_DEAL_POINTS)

    def finish(self, reached: int, p: tuple[int, int], t0: bool, t1: bool, s0: int, s1: int) -> float:
        """The value once the deal ends: ``reached`` got to the goal (-1: the hands ran out); RULES.md 1.4."""
        score = [s0, s1]
        took = (t0, t1)
        closer = self.closed_by
        rules = self.rules
        if closer < 0 or closer == reached:
            if reached >= 0:
                other = 1 - reached
                score[reached] += 3 if not took[other] else 2 if p[other] < rules.schneider else 1
        else:
            other = 1 - closer
            if rules.close_penalty is ClosePenalty.CLOSED_BEFORE_FIRST_TRICK:
                penalty = self.closed_after == 0
            else:
                penalty = not took[closer]
            score[other] += 3 if penalty else 2
            if reached == other and score[other] < self.target:
                score[other] += 1
        return self.equity_of(score[0], score[1])

    # -- the search ----------------------------------------------------------

    def allowed(self, hand: int, lead: int) -> int:
        """The tiles of ``hand`` that may answer ``lead`` (RULES.md 1.3.7)."""
        return follow_mask(hand, lead, self.trump, self.rules)

    def value(
        self,
        hands: tuple[int, int],
        leader: int,
        state: tuple[int, int, bool, bool, int, int],
        alpha: float,
        beta: float,
    ) -> float:
        """The value of a position at the start of a trick, ``leader`` to lead, within the window (alpha, beta)."""
        key = (hands[0], hands[1], leader, *state)
        stored = self.memo.get(key)
        first = -1
        if stored is not None:
            v, flag, first = stored
            if flag == EXACT or (flag == AT_LEAST and v >= beta) or (flag == AT_MOST and v <= alpha):
                return v
        self.nodes += 1
        maximize = leader == self.me
        start_alpha, start_beta = alpha, beta
        best = -1.0 if maximize else 2.0
        best_lead = -1
        hand = hands[leader]
        doubles = hand & DOUBLES
        claim_all = doubles if doubles & (doubles - 1) else 0
        order = self.lead_order if first < 0 else (first, *self.lead_order)
        tried = 0
        for lead in order:
            bit = BIT[lead]
            if not bit & hand or bit & tried:
                continue
            tried |= bit
            v = self.answer(hands, leader, lead, claim_all if bit & claim_all else 0, state, alpha, beta)
            if maximize:
                if v > best:
                    best, best_lead = v, lead
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_lead = v, lead
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        flag = AT_MOST if best <= start_alpha else AT_LEAST if best >= start_beta else EXACT
        self.memo[key] = (best, flag, best_lead)
        return best

    def answer(
        self,
        hands: tuple[int, int],
        leader: int,
        lead: int,
        claim: int,
        state: tuple[int, int, bool, bool, int, int],
        alpha: float,
        beta: float,
    ) -> float:
        """The value of ``leader`` leading ``lead`` (out of its hand or not yet), the other seat at its best."""
        replier = 1 - leader
        lead_bit = BIT[lead]
        h_leader = hands[leader] & ~lead_bit
        h_replier = hands[replier]
        allowed = self.allowed(h_replier, lead)
        maximize = replier == self.me
        best = -1.0 if maximize else 2.0
        beats = BEATS[self.trump][lead]
        pts = self.pts
        p0, p1, t0, t1, s0, s1 = state
        goal = self.rules.goal
        target = self.target
        lead_points = pts[lead]
        claim_points, claim_game = (
            self.rules.claim_value(claim.bit_count(), bool(claim & BIT[BINGO])) if claim else (0, 0)
        )
        bonus_pair = BIT[BINGO] | BIT[self.trump_double] if self.bonus else -1
        for reply in self.reply_order:
            bit = BIT[reply]
            if not bit & allowed:
                continue
            h_r = h_replier & ~bit
            winner = replier if beats & bit else leader
            gain = lead_points + pts[reply]
            gp = 0
            if winner == leader:
                gain += claim_points
                gp = claim_game
            if lead_bit | bit == bonus_pair:
                gp += self.bonus
            if winner == 0:
                q0, q1, u0, u1, r0, r1 = p0 + gain, p1, True, t1, s0 + gp, s1
                reached = q0 >= goal
            else:
                q0, q1, u0, u1, r0, r1 = p0, p1 + gain, t0, True, s0, s1 + gp
                reached = q1 >= goal
            if r0 >= target or r1 >= target:
                v = self.equity_of(r0, r1)
            elif reached:
                v = self.finish(winner, (q0, q1), u0, u1, r0, r1)
            elif not h_leader and not h_r:
                v = self.finish(-1, (q0, q1), u0, u1, r0, r1)
            else:
                nh = (h_leader, h_r) if leader == 0 else (h_r, h_leader)
                v = self.value(nh, winner, (q0, q1, u0, u1, r0, r1), alpha, beta)
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                return best
        return best

    def solve(self, hands: tuple[int, int], leader: int, state: tuple[int, int, bool, bool, int, int]) -> float:
        """The exact value of a position at the start of a trick."""
        return self.value(hands, leader, state, -1.0, 2.0)
