"""42 for two (RULES.md section 2): tricks, follow rules, drawing, bidding, scoring, matches, self-play."""

from __future__ import annotations

import io
import itertools
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass

import pytest

from engine import (
    Action,
    Award,
    Deal,
    DealEnd,
    FortyTwoDeal,
    IllegalAction,
    Kind,
    Match,
    Reason,
    Refusal,
    Tile,
    apply,
    find_preset,
)
from engine.fairness import deal_secret, seeded_key, shuffled
from engine.fortytwo import Phase, trick_winner
from engine.selfplay import replay, selfplay
from engine.tiles import FULL_SET, TILES, indices
from tests.engine.helpers import _check_fortytwo, _check_views, check_invariants, deal_from, play

# -- the rules of section 2, written again from the text ------------------------

COUNT_TILES = {"55": 10, "64": 10, "41": 5, "32": 5, "50": 5}
"""RULES.md 2.1: the count tiles, 35 points in all."""

ALL_TILES = [Tile(a, b) for a in range(7) for b in range(a + 1)]


def is_trump(tile: Tile, trump: int | None) -> bool:
    """A tile showing the trump number is a trump (there are none in the draw phase)."""
    return trump is not None and trump in (tile.high, tile.low)


def suit_led(lead: Tile, trump: int | None) -> int:
    """Trumps if a trump is led, else the led tile's higher end."""
    if trump is not None and is_trump(lead, trump):
        return trump
    return lead.high


def belongs(tile: Tile, suit: int, trump: int | None) -> bool:
    """A non-double is in both its numbers' suits, except that a trump is in the trump suit only."""
    if is_trump(tile, trump):
        return suit == trump
    return suit in (tile.high, tile.low)


def rank(tile: Tile, suit: int) -> int:
    """The double is highest of its suit; the others rank by their other end."""
    if tile.is_double:
        return 7
    return tile.low if tile.high == suit else tile.high


def reference_winner(lead: Tile, reply: Tile, trump: int | None) -> int:
    """0 if the leader wins, 1 if the reply does, from RULES.md 2.2.2 and 2.2.5."""
    suit = suit_led(lead, trump)
    if is_trump(reply, trump) and suit != trump:
        return 1
    if not belongs(reply, suit, trump):
        return 0
    return 1 if rank(reply, suit) > rank(lead, suit) else 0


def reference_replies(hand: Iterable[Tile], lead: Tile, trump: int | None) -> set[Tile]:
    """The tiles a reply may be: anything in the draw phase; led suit, then trumps, then anything."""
    tiles = set(hand)
    if trump is None:
        return tiles
    suit = suit_led(lead, trump)
    for must in ({t for t in tiles if belongs(t, suit, trump)}, {t for t in tiles if is_trump(t, trump)}):
        if must:
            return must
    return tiles


def count_of(notations: Iterable[str]) -> int:
    return sum(COUNT_TILES.get(n, 0) for n in notations)


# -- building deals ---------------------------------------------------------------


def fortytwo(hands: tuple[str, str], stock: str, first: int, *, score: tuple[int, int] = (0, 0)) -> FortyTwoDeal:
    deal = deal_from("42", hands, stock, first, score=score)
    assert isinstance(deal, FortyTwoDeal)
    return deal


def hand_of(deal: Deal, seat: int) -> list[str]:
    """A hand as sorted notations."""
    return sorted(TILES[i].notation() for i in indices(deal.hands[seat]))


def notations(actions: Iterable[Action]) -> list[str]:
    return sorted(a.notation() for a in actions)


def tiles(text: str) -> list[str]:
    return sorted(text.split())


def refused(deal: Deal, action: Action | str) -> Refusal:
    """Play an illegal action; check that it raises and leaves the deal as it was; return the reason."""
    before = deal.copy()
    with pytest.raises(IllegalAction) as caught:
        deal.play(action)
    assert deal == before
    return caught.value.reason


def pair_deal(lead: str, reply: str, first: int = 0) -> FortyTwoDeal:
    """A fresh deal where ``first`` holds ``lead`` and the other seat ``reply``, the rest filled in tile order."""
    rest = [t.notation() for t in ALL_TILES if t.notation() not in (lead, reply)]
    leader = " ".join([lead, *rest[:6]])
    other = " ".join([reply, *rest[6:12]])
    hands = (leader, other) if first == 0 else (other, leader)
    return fortytwo(hands, " ".join(rest[12:]), first)


# -- scripted deals, computed by hand from RULES.md -------------------------------


@dataclass(frozen=True)
class Script:
    """A whole deal in action notation with the results worked out by hand."""

    name: str
    hands: tuple[str, str]
    stock: str
    first: int
    draw: str
    draw_winners: tuple[int, ...]
    after_draw: tuple[str, str]
    bidding: str
    declarer: int
    bid: int
    trump: int
    play: str
    play_winners: tuple[int, ...]
    play_values: tuple[int, ...]
    """Points of each play-phase trick: 1 plus the count tiles in it."""
    points: tuple[int, int]
    tricks: tuple[int, int]
    game_points: tuple[int, int]
    reason: Reason

    def build(self, score: tuple[int, int] = (0, 0)) -> FortyTwoDeal:
        return fortytwo(self.hands, self.stock, self.first, score=score)

    @property
    def actions(self) -> list[str]:
        return [*self.draw.split(), *self.bidding.split(), f"T{self.trump}", *self.play.split()]


SWEEP = Script(
    # Draw phase (seat 0 opens and leads): 21-42 seat 1 ([4|2] is a two, 4 > 1); 51-53 seat 0 (3 > 1 in fives);
    # 22-52 seat 0 (the double tops the twos); 10-31 seat 1 (3 > 0 in ones); 30-00 seat 1 (the lead is a three,
    # [0|0] is not); 40-20 seat 1; 33-11 seat 1. Draws, loser first: 55/66, 65/41, 64/32, 50/63, 54/62, 44/61,
    # 43/60, so seat 1 ends with all seven sixes and no count tile was taken in the draw phase.
    name="sweep",
    hands=("00 10 11 20 21 22 53", "30 31 33 40 42 51 52"),
    stock="55 66 65 41 64 32 50 63 54 62 44 61 43 60",
    first=0,
    draw="21 42 51 53 22 52 10 31 30 00 40 20 33 11",
    draw_winners=(1, 0, 0, 1, 1, 1, 1),
    after_draw=("55 54 50 44 43 41 32", "66 65 64 63 62 61 60"),
    # Seat 1 (the opener's opponent) speaks first; B42 ends the bidding at once.
    bidding="B30 B31 B42",
    declarer=1,
    bid=42,
    trump=6,
    # Seat 0 holds no six, so every lead of seat 1 wins: 1+10(55), 1, 1+10(64)+5(41), 1+5(32), 1+5(50), 1, 1.
    play="66 55 65 54 64 41 63 32 62 50 61 44 60 43",
    play_winners=(1, 1, 1, 1, 1, 1, 1),
    play_values=(11, 1, 16, 6, 6, 1, 1),
    # 11+1+16+6+6+1+1 = 42 = 7 tricks + 35 count: the bid of 42 is made.
    points=(0, 42),
    tricks=(0, 7),
    game_points=(0, 1),
    reason=Reason.BID_MADE,
)

COUNT_LOST = Script(
    # Draw phase (seat 1 opens and leads): 50-00 seat 1 (it takes the [5|0], 5 count points gone for good);
    # 61-62 seat 0 (2 > 1 in sixes); 10-21 seat 1 ([2|1] is a one, 2 > 0); 30-31 seat 0; 20-60 seat 0
    # ([6|0] is no two); 11-40 seat 0; 22-33 seat 0 (a double of another suit does not beat).
    # Draws, loser first: 62/64, 41/55, 54/32, 63/53, 44/52, 43/51, 42/65.
    name="count-lost",
    hands=("66 00 10 11 20 31 22", "30 21 33 40 50 60 61"),
    stock="62 64 41 55 54 32 63 53 44 52 43 51 42 65",
    first=1,
    draw="50 00 61 62 10 21 30 31 20 60 11 40 22 33",
    draw_winners=(1, 0, 1, 0, 0, 0, 0),
    after_draw=("66 65 55 54 53 52 51", "64 63 44 43 42 41 32"),
    bidding="B35 B36 B42",
    declarer=0,
    bid=42,
    trump=5,
    # Seat 0 holds every five still in play and [6|6]: 1+10(55)+10(64), 1+5(41), 1+5(32), 1, 1, 1,
    # then 66 takes the forced [6|3].
    play="55 64 65 41 54 32 53 44 52 43 51 42 66 63",
    play_winners=(0, 0, 0, 0, 0, 0, 0),
    play_values=(21, 6, 6, 1, 1, 1, 1),
    # 21+6+6+1+1+1+1 = 37 = 7 + (35 - 5): all seven tricks, yet short of 42, so the bid is set.
    points=(37, 0),
    tricks=(7, 0),
    game_points=(0, 1),
    reason=Reason.BID_SET,
)

EXACT = Script(
    # Draw phase (seat 0 leads): 30-31 seat 1; 52-53 seat 0; 60-61 seat 1; 21-22 seat 0 (double of the twos);
    # 11-51 seat 0 (double above [5|1] in ones); 20-54 seat 0; 00-33 seat 0.
    # Draws, loser first: 44/42, 40/64, 43/65, 63/41, 62/66, 50/55, 32/10.
    name="exact",
    hands=("30 53 60 22 00 11 20", "31 52 61 21 33 54 51"),
    stock="44 42 40 64 43 65 63 41 62 66 50 55 32 10",
    first=0,
    draw="30 31 52 53 60 61 21 22 11 51 20 54 00 33",
    draw_winners=(1, 0, 1, 0, 0, 0, 0),
    after_draw=("66 64 55 44 43 41 10", "65 63 62 50 42 40 32"),
    # Seat 1 passes, seat 0 bids 41, seat 1 passes after a bid: seat 0 declares.
    bidding="P B41 P",
    declarer=0,
    bid=41,
    trump=4,
    # 44-40: trump double, 1. 66-62: 1. 10-42: seat 1 has no one and must trump, 1 to seat 1.
    # 50-55: [5|5] is seat 0's only five, 1+5+10 = 16. 43-32: 1+5. 41-63: 1+5. 64-65: 1+10.
    play="44 40 66 62 10 42 50 55 43 32 41 63 64 65",
    play_winners=(0, 0, 1, 0, 0, 0, 0),
    play_values=(1, 1, 1, 16, 6, 6, 11),
    # Seat 0: 1+1+16+6+6+11 = 41, exactly the bid (made); seat 1: 1. 41+1 = 42.
    points=(41, 1),
    tricks=(6, 1),
    game_points=(1, 0),
    reason=Reason.BID_MADE,
)

SET_BY_ONE = Script(
    # Draw phase (seat 1 leads): 20-42 seat 0 ([4|2] is a two, 4 > 0); 10-41 seat 1 (it takes the [4|1]);
    # 33-30 seat 1; 51-53 seat 0 (53 drawn after trick 1); 60-65 seat 1; 61-00 seat 1; 31-11 seat 1.
    # Draws, loser first: 65/53, 60/61, 21/52, 32/63, 55/50, 54/43, 64/40.
    name="set-by-one",
    hands=("22 66 00 10 11 42 30", "62 44 31 33 41 20 51"),
    stock="65 53 60 61 21 52 32 63 55 50 54 43 64 40",
    first=1,
    draw="20 42 10 41 33 30 51 53 60 65 61 00 31 11",
    draw_winners=(0, 1, 1, 0, 1, 1, 1),
    after_draw=("66 64 63 55 54 22 21", "62 52 50 44 43 40 32"),
    bidding="B20 B25 B30 P",
    declarer=0,
    bid=30,
    trump=2,
    # 63-32: seat 1 has no plain six ([6|2] is a trump only), trumps: 1+5 to seat 1. 44-54: the double tops
    # the fours, 1 to seat 1. 62-22: trump double, 1 to seat 0. 21-52: higher trump, 1 to seat 1.
    # 50-55: 1+5+10 to seat 0. 64-40: 1+10 to seat 0. 66-43: 1 to seat 0.
    play="63 32 44 54 62 22 21 52 50 55 64 40 66 43",
    play_winners=(1, 1, 0, 1, 0, 0, 0),
    play_values=(6, 1, 1, 1, 16, 11, 1),
    # Seat 0: 1+16+11+1 = 29 < 30, set; seat 1: 6+1+1 = 8. 29+8 = 37 = 7 + (35 - 5).
    points=(29, 8),
    tricks=(4, 3),
    game_points=(0, 1),
    reason=Reason.BID_SET,
)

SCRIPTS = [SWEEP, COUNT_LOST, EXACT, SET_BY_ONE]


def after_draw(script: Script) -> FortyTwoDeal:
    """The scripted deal at the start of the bidding."""
    deal = script.build()
    play(deal, script.draw)
    assert deal.phase is Phase.BIDDING
    return deal


def at_play(script: Script, bidding: str, trump: int) -> FortyTwoDeal:
    deal = after_draw(script)
    play(deal, f"{bidding} T{trump}")
    assert deal.phase is Phase.PLAY
    return deal


# -- tests -----------------------------------------------------------------------


class TestTrickWinner:
    """``trick_winner`` in both phases."""

    @pytest.mark.parametrize(
        ("lead", "reply", "winner"),
        [
            ("66", "65", 0),  # the double is highest of its suit
            ("65", "66", 1),
            ("00", "60", 0),
            ("10", "11", 1),
            ("55", "66", 0),  # a double of another suit does not beat
            ("64", "65", 1),  # higher in the led suit
            ("64", "62", 0),
            ("53", "54", 1),
            ("21", "20", 0),
            ("42", "64", 1),  # [6|4] belongs to the fours too, ranking 6
            ("42", "44", 1),
            ("30", "63", 1),
            ("42", "22", 0),  # the led suit is the higher end: a two does not beat [4|2]
            ("42", "52", 0),
            ("30", "00", 0),
            ("10", "00", 0),
            ("65", "55", 0),
            ("31", "43", 1),  # [4|3] is a three of rank 4
        ],
    )
    def test_draw_phase(self, lead: str, reply: str, winner: int) -> None:
        """In the draw phase only a higher tile of the led suit (the double highest) wins."""
        assert trick_winner(Tile.parse(lead), Tile.parse(reply), None) == winner

    @pytest.mark.parametrize(
        ("trump", "lead", "reply", "winner"),
        [
            (2, "64", "20", 1),  # a trump beats the led suit
            (2, "66", "20", 1),  # even its double
            (2, "64", "65", 1),  # no trump: the higher tile of the led suit
            (2, "65", "64", 0),
            (2, "64", "62", 1),  # [6|2] is a trump, not a low six
            (2, "65", "62", 1),
            (2, "62", "66", 0),  # a trump lead asks for trumps
            (2, "62", "65", 0),
            (2, "62", "22", 1),  # the trump double is the highest trump
            (2, "22", "62", 0),
            (2, "32", "62", 1),  # the higher trump wins
            (2, "62", "32", 0),
            (2, "52", "20", 0),
            (4, "63", "64", 1),
            (0, "65", "55", 0),
            (0, "60", "66", 0),  # [6|0] is a trump only when blanks are trumps
            (0, "61", "60", 1),
            (0, "00", "66", 0),
            (6, "54", "53", 0),
            (6, "54", "55", 1),
            (6, "54", "64", 1),
            (6, "54", "44", 0),  # [5|4] leads fives
            (5, "54", "44", 0),  # [5|4] is a trump only, so it leads trumps
            (3, "43", "44", 0),
            (1, "64", "61", 1),
            (1, "21", "22", 0),  # [2|1] is a trump: a two does not beat it
        ],
    )
    def test_play_phase(self, trump: int, lead: str, reply: str, winner: int) -> None:
        """Trumps beat the led suit, the highest trump wins, a tile with the trump number is a trump only."""
        assert trick_winner(Tile.parse(lead), Tile.parse(reply), trump) == winner

    @pytest.mark.parametrize("trump", [None, *range(7)])
    def test_every_pair_agrees_with_the_rules(self, trump: int | None) -> None:
        """Every lead and reply is settled as RULES.md 2.2 says, by tile or by index."""
        wrong = [
            (lead.notation(), reply.notation())
            for lead in ALL_TILES
            for reply in ALL_TILES
            if lead != reply
            and {trick_winner(lead, reply, trump), trick_winner(lead.index, reply.index, trump)}
            != {reference_winner(lead, reply, trump)}
        ]
        assert wrong == []

    @pytest.mark.parametrize(
        ("lead", "reply", "first", "winner"),
        [
            ("66", "65", 0, 0),
            ("64", "65", 0, 1),
            ("42", "64", 1, 0),
            ("42", "22", 1, 1),
            ("30", "00", 0, 0),
            ("10", "11", 1, 0),
            ("55", "66", 0, 0),
        ],
    )
    def test_draw_phase_in_a_deal(self, lead: str, reply: str, first: int, winner: int) -> None:
        """The opener leads the draw phase and the trick goes to the seat the rules say, who leads next."""
        deal = pair_deal(lead, reply, first)
        assert deal.turn == first
        play(deal, f"{lead} {reply}")
        view = deal.last_trick_view()
        assert view is not None
        assert (view.leader, view.lead, view.reply, view.winner) == (first, Tile.parse(lead), Tile.parse(reply), winner)
        assert deal.turn == winner
        assert deal.draw_tricks[winner] == 1
        assert deal.points == [0, 0] and deal.tricks == [0, 0]

    @pytest.mark.parametrize(
        ("trump", "lead", "reply", "winner"),
        [
            (2, "63", "32", 1),
            (2, "63", "62", 1),
            (2, "22", "62", 0),
            (2, "21", "52", 1),
            (2, "21", "32", 1),
            (4, "64", "44", 1),
            (4, "64", "43", 0),
            (4, "54", "43", 0),
            (4, "54", "44", 1),
            (0, "66", "62", 0),
            (0, "63", "62", 0),
            (3, "63", "43", 0),
            (3, "55", "52", 0),
            (5, "64", "62", 0),
            (5, "21", "32", 1),
            (5, "21", "62", 1),
            (6, "54", "50", 0),
            (1, "21", "40", 0),
        ],
    )
    def test_play_phase_in_a_deal(self, trump: int, lead: str, reply: str, winner: int) -> None:
        """The first play-phase trick, seat 0 declaring, goes to the seat the rules say."""
        # Seat 0 holds 66 64 63 55 54 22 21 and seat 1 62 52 50 44 43 40 32 after this draw phase.
        deal = at_play(SET_BY_ONE, "B20 P", trump)
        assert deal.turn == 0
        play(deal, f"{lead} {reply}")
        assert deal.last_trick == (0, Tile.parse(lead).index, Tile.parse(reply).index, winner)
        assert deal.turn == winner
        assert deal.tricks[winner] == 1
        assert deal.points[winner] == 1 + count_of([lead, reply])


class TestFollow:
    """Which replies are legal."""

    @pytest.mark.parametrize(
        ("trump", "lead", "legal", "illegal", "reason"),
        [
            (2, "63", "62 52 32", "50", Refusal.MUST_TRUMP),  # no plain six: trump
            (2, "66", "62 52 32", "44", Refusal.MUST_TRUMP),
            (0, "55", "52", "50", Refusal.MUST_FOLLOW_SUIT),  # [5|0] is a trump, not a five
            (0, "63", "62", "40", Refusal.MUST_FOLLOW_SUIT),
            (5, "21", "62 32", "52", Refusal.MUST_FOLLOW_SUIT),  # [5|2] is a trump, not a two
            (3, "54", "52 50", "43", Refusal.MUST_FOLLOW_SUIT),
            (6, "55", "52 50", "62", Refusal.MUST_FOLLOW_SUIT),
            (1, "64", "62", "44", Refusal.MUST_FOLLOW_SUIT),
            (4, "64", "44 43 40", "62", Refusal.MUST_FOLLOW_SUIT),  # a trump lead asks for trumps
            (2, "22", "62 52 32", "44", Refusal.MUST_FOLLOW_SUIT),
            (1, "21", "62 52 50 44 43 40 32", None, None),  # a trump lead, no trump in hand: anything
        ],
    )
    def test_play_phase(self, trump: int, lead: str, legal: str, illegal: str | None, reason: Refusal | None) -> None:
        """Led suit, then trumps, then anything; a wrong reply is refused and changes nothing."""
        deal = at_play(SET_BY_ONE, "B20 P", trump)
        play(deal, lead)
        assert notations(deal.legal_actions()) == tiles(legal)
        hand = [Tile.parse(t) for t in hand_of(deal, 1)]
        assert {Tile.parse(t) for t in legal.split()} == reference_replies(hand, Tile.parse(lead), trump)
        if illegal is not None:
            assert refused(deal, illegal) is reason
            assert deal.why_not(Tile.parse(illegal)) is reason

    def test_void_in_led_suit_and_trumps(self) -> None:
        """Void in the led suit and in trumps, any tile may be played."""
        deal = at_play(SET_BY_ONE, "B20 B25 B30 P", 2)
        play(deal, "63 32 44 54 62 22 21 52 50 55 64")
        assert notations(deal.legal_actions()) == ["40", "43"]

    def test_leader_plays_anything(self) -> None:
        """The leader may lead any tile of the hand."""
        deal = at_play(SET_BY_ONE, "B20 P", 2)
        assert notations(deal.legal_actions()) == tiles(SET_BY_ONE.after_draw[0])

    def test_other_refusals(self) -> None:
        """A tile not in hand, another seat's turn, or a bid while playing is refused."""
        deal = at_play(SET_BY_ONE, "B20 P", 2)
        play(deal, "63")
        assert refused(deal, "66") is Refusal.NOT_IN_HAND
        assert refused(deal, "B30") is Refusal.WRONG_PHASE
        assert refused(deal, "T3") is Refusal.WRONG_PHASE
        before = deal.copy()
        with pytest.raises(IllegalAction) as caught:
            deal.play("32", seat=0)
        assert caught.value.reason is Refusal.NOT_YOUR_TURN
        assert deal == before

    @pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.name)
    def test_no_obligation_in_the_draw_phase(self, script: Script) -> None:
        """In the draw phase every tile in hand is a legal reply."""
        deal = script.build()
        for lead, reply in zip(script.draw.split()[::2], script.draw.split()[1::2], strict=True):
            play(deal, lead)
            assert notations(deal.legal_actions()) == hand_of(deal, deal.turn)
            play(deal, reply)


class TestDrawing:
    """Drawing from the stock after each draw-phase trick."""

    @pytest.mark.parametrize(
        ("trick", "winner", "loser_draws", "winner_draws"),
        [(1, 1, "55", "66"), (2, 0, "65", "41"), (3, 0, "64", "32"), (4, 1, "50", "63"), (7, 1, "43", "60")],
    )
    def test_loser_draws_first(self, trick: int, winner: int, loser_draws: str, winner_draws: str) -> None:
        """After each trick the loser takes the next stock tile, the winner the one after, and the winner leads."""
        deal = SWEEP.build()
        moves = SWEEP.draw.split()
        play(deal, " ".join(moves[: 2 * trick - 2]))
        hands = [hand_of(deal, 0), hand_of(deal, 1)]
        drawn, leader = deal.drawn, deal.turn
        lead, reply = moves[2 * trick - 2 : 2 * trick]
        play(deal, f"{lead} {reply}")
        hands[leader].remove(lead)
        hands[1 - leader].remove(reply)
        hands[1 - winner].append(loser_draws)
        hands[winner].append(winner_draws)
        assert [hand_of(deal, 0), hand_of(deal, 1)] == [sorted(hands[0]), sorted(hands[1])]
        assert deal.drawn == drawn + 2
        assert deal.last_trick is not None and deal.last_trick[3] == winner
        if trick < 7:
            assert deal.turn == winner and deal.phase is Phase.DRAW

    @pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.name)
    def test_seven_tricks_empty_the_stock(self, script: Script) -> None:
        """Seven draw-phase tricks empty the stock and leave seven tiles in each hand, as worked out."""
        deal = script.build()
        moves = script.draw.split()
        for trick, winner in enumerate(script.draw_winners):
            assert deal.hands[0].bit_count() == deal.hands[1].bit_count() == 7
            assert deal.phase is Phase.DRAW
            play(deal, " ".join(moves[2 * trick : 2 * trick + 2]))
            assert deal.last_trick is not None and deal.last_trick[3] == winner
        assert deal.reserve == ()
        assert [hand_of(deal, 0), hand_of(deal, 1)] == [tiles(script.after_draw[0]), tiles(script.after_draw[1])]
        assert tuple(deal.draw_tricks) == (script.draw_winners.count(0), script.draw_winners.count(1))
        assert deal.points == [0, 0] and deal.tricks == [0, 0]
        assert deal.phase is Phase.BIDDING
        assert deal.turn == 1 - script.first

    @pytest.mark.parametrize("first", [0, 1])
    def test_opener_opponent_draws_first(self, first: int) -> None:
        """Dealing from a shuffle, the opener's opponent takes the first seven tiles."""
        key = seeded_key(11)
        order = shuffled(deal_secret(key, 1))
        deal = Deal.deal(find_preset("42"), key, first)
        assert deal.hands[1 - first] == sum(1 << t for t in order[:7])
        assert deal.hands[first] == sum(1 << t for t in order[7:14])
        assert deal.stock == tuple(order[14:])
        assert deal.turn == first


class TestBidding:
    """The bidding after the draw phase."""

    @pytest.mark.parametrize(("script", "speaker"), [(SWEEP, 1), (COUNT_LOST, 0)], ids=["opener-0", "opener-1"])
    def test_opener_opponent_speaks_first(self, script: Script, speaker: int) -> None:
        """The opener's opponent speaks first and may bid 4 to 42 or pass."""
        deal = after_draw(script)
        assert deal.first == 1 - speaker
        assert deal.turn == speaker
        assert notations(deal.legal_actions()) == sorted([*(f"B{n}" for n in range(4, 43)), "P"])

    @pytest.mark.parametrize(
        ("bidding", "declarer", "bid"),
        [
            ("B10 P", 1, 10),
            ("B10 B12 P", 0, 12),  # raise, then a pass after a bid ends it
            ("P B10 P", 0, 10),
            ("B4 B5 B6 B30 P", 0, 30),
            ("P B10 B11 P", 1, 11),  # a pass before any bid does not end the bidding
            ("B42", 1, 42),  # 42 ends the bidding at once
            ("B10 B42", 0, 42),
            ("P B42", 0, 42),
        ],
    )
    def test_last_bidder_declares(self, bidding: str, declarer: int, bid: int) -> None:
        """The bidding ends at a pass after a bid or at a bid of 42; the last bidder names trumps."""
        deal = after_draw(SWEEP)
        play(deal, bidding)
        assert deal.phase is Phase.TRUMPS
        assert (deal.declarer, deal.bid) == (declarer, bid)
        assert deal.turn == declarer
        assert notations(deal.legal_actions()) == [f"T{s}" for s in range(7)]
        assert refused(deal, "P") is Refusal.WRONG_PHASE
        assert refused(deal, "B5") is Refusal.WRONG_PHASE

    def test_raise(self) -> None:
        """After a bid only higher bids or a pass are legal, and the other seat speaks."""
        deal = after_draw(SWEEP)
        play(deal, "B10")
        assert deal.turn == 0
        assert notations(deal.legal_actions()) == sorted([*(f"B{n}" for n in range(11, 43)), "P"])

    @pytest.mark.parametrize("bid", [10, 9, 4])
    def test_non_raising_bid_refused(self, bid: int) -> None:
        """A bid not above the last one is refused with BID_TOO_LOW and changes nothing."""
        deal = after_draw(SWEEP)
        play(deal, "B10")
        assert refused(deal, f"B{bid}") is Refusal.BID_TOO_LOW

    @pytest.mark.parametrize("bid", [0, 3, 43, 99])
    def test_out_of_range_bid_refused(self, bid: int) -> None:
        """A bid outside 4..42 has no notation and is refused with BID_TOO_LOW."""
        with pytest.raises(ValueError):
            Action.parse(f"B{bid}")
        deal = after_draw(SWEEP)
        assert refused(deal, Action(Kind.BID, bid)) is Refusal.BID_TOO_LOW

    def test_bids_only_in_the_bidding(self) -> None:
        """A bid, a pass or trumps in the draw phase, or a tile in the bidding, is refused as WRONG_PHASE."""
        deal = SWEEP.build()
        for action in ("B10", "P", "T3"):
            assert refused(deal, action) is Refusal.WRONG_PHASE
        play(deal, SWEEP.draw)
        assert refused(deal, "T3") is Refusal.WRONG_PHASE
        assert refused(deal, "55") is Refusal.WRONG_PHASE

    def test_both_pass(self) -> None:
        """Both passing ends the deal as ALL_PASSED with no points and no game points."""
        deal = after_draw(EXACT)
        play(deal, "P P")
        assert deal.end is DealEnd.ALL_PASSED
        assert deal.awards == [] and deal.game_points == (0, 0)
        assert deal.points == [0, 0] and deal.tricks == [0, 0]
        assert deal.legal_actions() == []
        assert refused(deal, "B10") is Refusal.GAME_OVER
        record = deal.record()
        assert record["actions"][-2:] == ["P", "P"]
        assert (record["points"], record["game_points"], record["match_score"]) == ([0, 0], [0, 0], [0, 0])
        check_invariants(deal)

    def test_view_of_the_bidding(self) -> None:
        """The view lists the bids from the first speaker, and names the declarer only once the bidding is over."""
        deal = after_draw(SWEEP)
        play(deal, "B10 B12")
        view = deal.view(0)
        assert (view.bids, view.bid, view.declarer) == ((10, 12), 12, None)
        play(deal, "P T3")
        view = deal.view(None)
        assert (view.bids, view.bid, view.declarer, view.trump) == ((10, 12, None), 12, 0, 3)


class TestTrumps:
    """The declarer names trumps and leads."""

    @pytest.mark.parametrize("trump", range(7))
    def test_declarer_names_trumps_and_leads(self, trump: int) -> None:
        """After ``T<n>`` the play phase starts with the declarer on lead."""
        deal = after_draw(COUNT_LOST)
        play(deal, f"B10 B11 P T{trump}")
        assert (deal.declarer, deal.trump, deal.phase, deal.turn) == (1, trump, Phase.PLAY, 1)
        assert notations(deal.legal_actions()) == tiles(COUNT_LOST.after_draw[1])

    def test_only_the_declarer_names(self) -> None:
        """The other seat may not name trumps."""
        deal = after_draw(COUNT_LOST)
        play(deal, "B10 P")
        before = deal.copy()
        with pytest.raises(IllegalAction) as caught:
            deal.play("T3", seat=1)
        assert caught.value.reason is Refusal.NOT_YOUR_TURN
        assert deal == before


class TestScriptedDeals:
    """Whole deals in action notation, with results worked out by hand."""

    @pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.name)
    def test_result(self, script: Script) -> None:
        """Points, tricks, game points, declarer and the end are as computed from the rules."""
        deal = script.build()
        play(deal, " ".join(script.actions))
        assert deal.end is DealEnd.PLAYED_OUT
        assert (deal.declarer, deal.bid, deal.trump) == (script.declarer, script.bid, script.trump)
        assert tuple(deal.points) == script.points
        assert tuple(deal.tricks) == script.tricks
        assert deal.game_points == script.game_points
        winner = script.game_points.index(1)
        assert deal.awards == [Award(winner, 1, script.reason)]
        assert deal.legal_actions() == []
        record = deal.record()
        assert record["actions"] == script.actions
        assert record["points"] == list(script.points)
        assert record["tricks"] == list(script.tricks)
        assert record["game_points"] == record["match_score"] == list(script.game_points)
        assert record["first"] == script.first

    @pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.name)
    def test_trick_by_trick(self, script: Script) -> None:
        """Each play-phase trick goes to the worked-out winner and scores 1 plus its count tiles."""
        deal = after_draw(script)
        play(deal, f"{script.bidding} T{script.trump}")
        assert deal.turn == script.declarer
        moves = script.play.split()
        for trick, (winner, value) in enumerate(zip(script.play_winners, script.play_values, strict=True)):
            points = list(deal.points)
            lead, reply = moves[2 * trick : 2 * trick + 2]
            assert value == 1 + count_of([lead, reply])
            play(deal, f"{lead} {reply}")
            assert deal.last_trick is not None and deal.last_trick[3] == winner
            points[winner] += value
            assert deal.points == points
            assert deal.turn == winner or deal.is_over

    @pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.name)
    def test_invariants_at_every_step(self, script: Script) -> None:
        """The section 3 invariants hold before and after every action of the deal."""
        deal = script.build()
        check_invariants(deal)
        for action in script.actions:
            deal.play(action)
            check_invariants(deal)

    @pytest.mark.parametrize(
        ("script", "in_play"),
        [(SWEEP, 35), (COUNT_LOST, 30), (EXACT, 35), (SET_BY_ONE, 30)],
        ids=[s.name for s in SCRIPTS],
    )
    def test_count_in_play(self, script: Script, in_play: int) -> None:
        """The play phase can score 7 plus the count tiles left after the draw phase, and scores exactly that."""
        deal = after_draw(script)
        assert deal.count_in_play() == in_play == 35 - count_of(script.draw.split())
        play(deal, f"{script.bidding} T{script.trump} {script.play}")
        assert sum(deal.points) == 7 + in_play <= 42
        assert sum(deal.tricks) == 7

    def test_42_impossible_after_a_count_tile_is_taken(self) -> None:
        """With [5|0] taken in the draw phase, even all seven tricks fall short of a bid of 42."""
        deal = after_draw(COUNT_LOST)
        assert deal.count_in_play() < 35
        play(deal, f"{COUNT_LOST.bidding} T{COUNT_LOST.trump} {COUNT_LOST.play}")
        assert deal.tricks == [7, 0]
        assert deal.awards == [Award(1, 1, Reason.BID_SET)]

    def test_42_made_by_taking_everything(self) -> None:
        """With every count tile in play, the declarer taking all seven tricks makes 42."""
        deal = after_draw(SWEEP)
        play(deal, f"{SWEEP.bidding} T{SWEEP.trump} {SWEEP.play}")
        assert deal.points == [0, 42]
        assert deal.awards == [Award(1, 1, Reason.BID_MADE)]

    def test_apply_leaves_the_input(self) -> None:
        """``apply`` returns a new deal and leaves the one given unchanged."""
        deal = after_draw(EXACT)
        before = deal.copy()
        after = apply(deal, "B20")
        assert deal == before
        assert after.actions[-1] == Action.parse("B20") and len(after.actions) == len(deal.actions) + 1


class TestMatch:
    """Deals in a match of 42."""

    @staticmethod
    def _to_bidding(match: Match, rng: random.Random) -> FortyTwoDeal:
        deal = match.deal
        assert isinstance(deal, FortyTwoDeal)
        while deal.phase is Phase.DRAW:
            match.play(rng.choice(match.legal_actions()))
        return deal

    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_all_passed_redeals_with_the_same_opener(self, seed: int) -> None:
        """After both pass the next deal is a new shuffle with the same opener and the same score."""
        match = Match.new("42", seed)
        deal = self._to_bidding(match, random.Random(seed))
        assert match.play("P") is None
        assert match.play("P") is deal
        assert deal.end is DealEnd.ALL_PASSED
        new = match.deal
        assert new.first == deal.first
        assert new.number == deal.number + 1
        assert (new.start_hands, new.stock) != (deal.start_hands, deal.stock)
        assert match.score == (0, 0)

    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_opener_alternates_after_a_played_deal(self, seed: int) -> None:
        """After a played deal the other seat opens the next one."""
        rng = random.Random(seed)
        match = Match.new("42", seed)
        deal = self._to_bidding(match, rng)
        match.play("B4")
        match.play("P")
        finished = None
        while finished is None:
            finished = match.play(rng.choice(match.legal_actions()))
        assert finished is deal and deal.end is DealEnd.PLAYED_OUT
        assert match.deal.first == 1 - deal.first
        assert sum(match.score) == 1

    def test_scripted_deal_ends_the_match(self) -> None:
        """A made bid reaching 7 game points ends the match."""
        match = Match(EXACT.build(score=(6, 5)))
        finished = None
        for action in EXACT.actions:
            finished = match.play(action)
        assert finished is not None and finished.record()["match_score"] == [7, 5]
        assert match.is_over and match.winner == 0
        assert match.legal_actions() == []
        with pytest.raises(IllegalAction) as caught:
            match.play("P")
        assert caught.value.reason is Refusal.GAME_OVER

    def test_scripted_deal_goes_on(self) -> None:
        """A set bid below the target deals again with the other opener and the score carried."""
        match = Match(SET_BY_ONE.build(score=(6, 5)))
        for action in SET_BY_ONE.actions:
            match.play(action)
        assert not match.is_over
        assert match.score == (6, 6)
        assert match.deal.first == 1 - SET_BY_ONE.first
        assert match.deal.score_before == (6, 6)

    @pytest.mark.parametrize("seed", range(5))
    def test_match_to_seven(self, seed: int) -> None:
        """A random match ends when a seat reaches 7; each played deal gives one game point; openers alternate."""
        rng = random.Random(seed)
        match = Match.new("42", seed)
        assert match.deal.target == find_preset("42").target == 7
        finished: list[Deal] = []
        while not match.is_over:
            deal = match.play(rng.choice(match.legal_actions()))
            if deal is not None:
                finished.append(deal)
        assert max(match.score) == 7 and min(match.score) < 7
        assert match.winner == match.score.index(7)
        assert sum(match.score) == sum(d.end is DealEnd.PLAYED_OUT for d in finished)
        for before, after in itertools.pairwise(finished):
            expected = before.first if before.end is DealEnd.ALL_PASSED else 1 - before.first
            assert after.first == expected
            assert after.score_before == tuple(before.score)

    def test_first_opener_by_lot(self) -> None:
        """The first opener of a match is drawn by lot from the seed: both seats open some matches."""
        assert {Match.new("42", seed).deal.first for seed in range(40)} == {0, 1}

    @pytest.mark.parametrize("seed", [5, 6])
    def test_replay_from_seed(self, seed: int) -> None:
        """A match played again from its seed and its actions reaches the same state."""
        rng = random.Random(seed)
        match = Match.new("42", seed)
        actions: list[Action] = []
        while not match.is_over:
            action = rng.choice(match.legal_actions())
            actions.append(action)
            match.play(action)
        again = Match.new("42", seed)
        for action in actions:
            again.play(action.notation())
        assert again == match


def section3(deal: FortyTwoDeal) -> None:
    """Section 3 without the record round trip, which replays every action and is checked at deal ends."""
    union = 0
    for mask in deal.tile_places():
        assert union & mask == 0, "a tile is in two places"
        union |= mask
    assert union == FULL_SET, "a tile is missing"
    _check_fortytwo(deal)
    _check_views(deal)


def check_finished(deal: FortyTwoDeal) -> None:
    """The outcome of a finished deal, derived from its record alone."""
    record = deal.record()
    actions = record["actions"]
    draw, rest = actions[:14], actions[14:]
    assert all(a[0].isdigit() for a in draw)
    bids = [a for a in rest if a[0] in "BP"]
    assert all(a[0] in "BP" for a in rest[: len(bids)])
    if deal.end is DealEnd.ALL_PASSED:
        assert rest == ["P", "P"]
        assert record["points"] == record["tricks"] == record["game_points"] == [0, 0]
        return
    assert deal.end is DealEnd.PLAYED_OUT
    speakers = [(1 - deal.first + i) % 2 for i in range(len(bids))]
    bid, declarer = next((int(a[1:]), s) for a, s in zip(reversed(bids), reversed(speakers), strict=True) if a != "P")
    assert bids[-1] == "P" or bid == 42
    assert [int(b[1:]) for b in bids if b != "P"] == sorted({int(b[1:]) for b in bids if b != "P"})
    assert rest[len(bids)][0] == "T" and len(rest) == len(bids) + 1 + 14
    points = record["points"]
    assert sum(record["tricks"]) == 7
    assert sum(points) == 7 + 35 - count_of(draw) <= 42
    made = points[declarer] >= bid
    winner = declarer if made else 1 - declarer
    assert deal.awards == [Award(winner, 1, Reason.BID_MADE if made else Reason.BID_SET)]


class TestRandomPlayouts:
    """Seeded random legal actions over thousands of deals."""

    CHUNKS = 6
    DEALS_PER_CHUNK = 500

    @pytest.mark.parametrize("chunk", range(CHUNKS))
    def test_invariants_after_every_action(self, chunk: int) -> None:
        """Section 3 holds after every action; tricks, follow rules, draws and outcomes agree with the rules."""
        rng = random.Random(chunk)
        deals = 0
        seed = 1000 * chunk
        while deals < self.DEALS_PER_CHUNK:
            seed += 1
            match = Match.new("42", seed)
            while not match.is_over:
                deal = match.deal
                assert isinstance(deal, FortyTwoDeal)
                legal = match.legal_actions()
                phase, lead, drawn = deal.phase, deal.lead, deal.drawn
                trump = None if phase is Phase.DRAW else deal.trump
                if lead >= 0:
                    hand = [TILES[i] for i in indices(deal.hands[deal.turn])]
                    assert {a.tile for a in legal} == reference_replies(hand, TILES[lead], trump)
                action = rng.choice(legal)
                finished = match.play(action)
                section3(deal)
                if lead >= 0:
                    assert deal.last_trick is not None
                    leader, _, reply, winner = deal.last_trick
                    expected = reference_winner(TILES[lead], TILES[reply], trump)
                    assert winner == (leader if expected == 0 else 1 - leader)
                    if phase is Phase.DRAW:
                        assert deal.hands[1 - winner] >> deal.stock[drawn] & 1
                        assert deal.hands[winner] >> deal.stock[drawn + 1] & 1
                if finished is not None:
                    assert finished is deal
                    check_invariants(deal)
                    check_finished(deal)
                    deals += 1
                    if not match.is_over:
                        assert match.deal.first == (deal.first if deal.end is DealEnd.ALL_PASSED else 1 - deal.first)
        assert deals >= self.DEALS_PER_CHUNK


class TestSelfplay:
    """``engine.selfplay.selfplay`` for 42."""

    def test_figures_and_records(self) -> None:
        """Self-play returns its figures and writes one replayable record per deal, bids included."""
        log = io.StringIO()
        figures = selfplay("42", 12, 4, log=log)
        lines = log.getvalue().splitlines()
        records = [json.loads(line) for line in lines]
        assert (figures["game"], figures["preset"], figures["seed"], figures["matches"]) == ("42", "42", 4, 12)
        assert figures["deals"] == len(records) >= 12 * 7
        assert figures["actions"] == sum(len(r["actions"]) for r in records)
        assert all(r["game"] == "42" and r["preset"] == "42" for r in records)
        assert sum(max(r["match_score"]) == 7 for r in records) == 12
        played = [r for r in records if r["game_points"] != [0, 0]]
        assert played and all(any(a.startswith("B") for a in r["actions"]) for r in played)
        assert all(sum(1 for a in r["actions"] if a.startswith("T")) == 1 for r in played)
        assert replay(lines) == []

    def test_same_seed_same_log(self) -> None:
        """Self-play with the same seed writes the same records."""
        logs = [io.StringIO(), io.StringIO()]
        for log in logs:
            selfplay("42", 3, 9, log=log)
        assert logs[0].getvalue() == logs[1].getvalue() != ""
