"""Rule-by-rule tests of Bingo (RULES.md section 1), every expected number worked out by hand.

Deals are written in the notation of RULES.md section 4: two hands of 7 tiles,
the 14 tiles of the reserve in drawing order (the last one is the trump
indicator, whose higher end, blank = 7, is the trump suit) and the actions.
Comments carry the arithmetic; ``P0``/``P1`` are the seats' points.

Tile points (RULES.md 1.1): the trump double 28 (``[0|0]`` too when blanks are
trumps), ``[0|0]`` 14 otherwise, ``[6|4]`` and ``[3|0]`` 10, another double its
pips, another trump its pips with blank = 7, anything else 0.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from engine import Action, Award, BingoDeal, DealEnd, IllegalAction, Reason, Refusal, Tile
from engine.bingo import POINTS, ClaimView, oracle, tile_points, trick_winner
from engine.tiles import BIT, NOTATION, parse_index, parse_mask
from tests.engine.helpers import check_invariants, deal_from, play

PRESETS = ("bingo", "bingo-classic", "bingo-domino")


# -- helpers -------------------------------------------------------------------


def bingo_deal(
    preset: str,
    hands: tuple[str, str],
    stock: str,
    first: int = 0,
    *,
    score: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> BingoDeal:
    """A Bingo deal from notation (``deal_from`` narrowed to the Bingo type)."""
    deal = deal_from(preset, hands, stock, first, score=score, target=target)
    assert isinstance(deal, BingoDeal)
    return deal


def fill_deal(
    preset: str,
    hand0: str,
    hand1: str,
    indicator: str,
    first: int = 0,
    *,
    score: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> BingoDeal:
    """A deal where only some tiles matter: the hands are topped up to 7, lowest tiles first, then the reserve.

    The reserve holds the remaining tiles lowest first and ``indicator`` last; use it only
    where the order of drawing does not matter to the test.
    """
    given = [hand0.split(), hand1.split()]
    used = {*given[0], *given[1], indicator}
    spare = [n for n in NOTATION if n not in used]
    for hand in given:
        while len(hand) < 7:
            hand.append(spare.pop(0))
    stock = " ".join([*spare, indicator])
    return bingo_deal(preset, (" ".join(given[0]), " ".join(given[1])), stock, first, score=score, target=target)


def run(deal: BingoDeal, actions: str) -> BingoDeal:
    """``play`` from the shared helpers, keeping the Bingo type."""
    play(deal, actions)
    return deal


def names(actions: Iterable[Action]) -> list[str]:
    """Notations of actions, sorted, to compare legal sets exactly."""
    return sorted(a.notation() for a in actions)


def sorted_names(text: str) -> list[str]:
    return sorted(text.split())


def assert_refused(deal: BingoDeal, action: str, reason: Refusal, seat: int | None = None) -> None:
    """``action`` raises IllegalAction with ``reason`` and leaves the deal exactly as it was."""
    before = deal.copy()
    with pytest.raises(IllegalAction) as info:
        deal.play(action, seat)
    assert info.value.reason is reason
    assert deal == before


def holds(deal: BingoDeal, seat: int, tiles: str) -> bool:
    """Whether the seat's hand is exactly these tiles."""
    return deal.hands[seat] == parse_mask(tiles.split())


def value(end: int) -> int:
    return 7 if end == 0 else end


def expected_points(tile: str, trump: int) -> int:
    """The points table of RULES.md 1.1, written out independently of the engine."""
    high, low = int(tile[0]), int(tile[1])
    is_trump = trump in (high, low) or tile == "00"
    if high == low == trump:  # [0|0] too when blanks are trumps
        return 28
    if tile == "00":
        return 14
    if tile in ("64", "30"):
        return 10
    if high == low:
        return high + low
    if is_trump:
        return value(high) + value(low)
    return 0


# -- 1.1 tile points -----------------------------------------------------------


class TestTilePoints:
    """Tile points and the per-suit oracle of RULES.md 1.1."""

    @pytest.mark.parametrize(
        ("trump", "total"),
        [(0, 143), (1, 135), (2, 138), (3, 131), (4, 134), (5, 147), (6, 140)],
    )
    def test_oracle(self, trump: int, total: int) -> None:
        """The 28 tiles are worth the oracle total of RULES.md 1.1 for each trump suit."""
        assert oracle(trump) == total
        assert sum(POINTS[trump]) == total
        assert sum(expected_points(n, trump) for n in NOTATION) == total

    @pytest.mark.parametrize(
        ("tile", "trump", "points"),
        [
            *[(f"{t}{t}", t, 28) for t in range(1, 7)],  # the trump double
            ("00", 0, 28),  # bingo is the trump double when blanks are trumps
            *[("00", t, 14) for t in range(1, 7)],
            *[("64", t, 10) for t in range(7)],  # a trump under 6 and 4, still 10
            *[("30", t, 10) for t in range(7)],  # a trump under 3 and 0, still 10
            ("55", 6, 10),  # another double: pips
            ("11", 6, 2),
            ("66", 0, 12),
            ("44", 3, 8),
            ("22", 5, 4),
            ("50", 5, 12),  # other trumps: pips, blank = 7: 5 + 7
            ("60", 0, 13),  # 6 + 7
            ("10", 0, 8),  # 1 + 7
            ("20", 2, 9),  # 2 + 7
            ("61", 6, 7),
            ("21", 1, 3),
            ("65", 5, 11),
            ("43", 3, 7),
            ("54", 6, 0),  # anything else: nothing
            ("65", 0, 0),
            ("43", 5, 0),
            ("21", 3, 0),
            ("60", 5, 0),
        ],
    )
    def test_tile(self, tile: str, trump: int, points: int) -> None:
        """One tile's points under one trump suit match the table of RULES.md 1.1."""
        assert POINTS[trump][parse_index(tile)] == points
        assert tile_points(Tile.parse(tile), trump) == points
        assert expected_points(tile, trump) == points

    @pytest.mark.parametrize("trump", range(7))
    def test_whole_table(self, trump: int) -> None:
        """Every tile's points under every trump suit follow the table of RULES.md 1.1."""
        assert {n: POINTS[trump][parse_index(n)] for n in NOTATION} == {n: expected_points(n, trump) for n in NOTATION}


# -- 1.2 who wins a trick ------------------------------------------------------

# Per trump suit: trump double, a trump with a blank (more pips than the double),
# a low trump, a high non-trump, two non-trumps where the second has more pips
# only because the blank counts 7 (or simply more pips), two non-trumps of equal
# pips, and an indicator naming the suit that is none of those tiles.
SUIT_TILES: dict[int, tuple[str, str, str, str, tuple[str, str], tuple[str, str], str]] = {
    # 00 = 28 is the trump double; 60 = 13, 10 = 8; 66 (12) non-trump; 65 (11) < 66 (12); 55 = 64 = 10.
    0: ("00", "60", "10", "66", ("65", "66"), ("55", "64"), "20"),
    # 11 (2 pips) is the trump double; 10 = 1 + 7 = 8 > 21 = 3; 60 = 13; 65 = 11 < 50 = 12; 50 = 66 = 12.
    1: ("11", "10", "21", "60", ("65", "50"), ("50", "66"), "11"),
    2: ("22", "20", "32", "60", ("65", "50"), ("50", "66"), "21"),
    3: ("33", "30", "31", "60", ("65", "50"), ("50", "66"), "32"),
    4: ("44", "40", "41", "60", ("65", "50"), ("50", "66"), "42"),
    # 55 = 10 < 50 = 12 pips; 64 = 10 < 40 = 4 + 7 = 11; 63 = 20 = 9.
    5: ("55", "50", "51", "60", ("64", "40"), ("63", "20"), "52"),
    # 66 = 12 < 60 = 13 pips; 50 = 12 non-trump; 54 = 9 < 30 = 3 + 7 = 10; 55 = 30 = 10.
    6: ("66", "60", "61", "50", ("54", "30"), ("55", "30"), "62"),
}


def trick_cases() -> list[tuple[int, str, str, int, str]]:
    """(trump, lead, reply, 0 if the leader wins else 1, rule) for every trump suit."""
    cases: list[tuple[int, str, str, int, str]] = []
    for t, (double, high, low, plain, (less, more), (eq_a, eq_b), _) in SUIT_TILES.items():
        rows = [
            (high, "00", 1, "bingo over a trump"),
            ("00", high, 0, "bingo over a trump"),
            (plain, "00", 1, "bingo over a non-trump"),
            (plain, low, 1, "trump over non-trump"),
            (low, plain, 0, "trump over non-trump"),
            (low, high, 1, "two trumps: more pips, blank = 7"),
            (high, low, 0, "two trumps: more pips, blank = 7"),
            (less, more, 1, "non-trumps: more pips, blank = 7"),
            (more, less, 0, "non-trumps: more pips, blank = 7"),
            (eq_a, eq_b, 0, "equal pips: the leader"),
            (eq_b, eq_a, 0, "equal pips: the leader"),
        ]
        if t != 0:  # with blanks as trumps [0|0] is the trump double itself
            rows += [
                (double, "00", 1, "bingo over the trump double"),
                ("00", double, 0, "bingo over the trump double"),
                (high, double, 1, "trump double over a trump with more pips"),
                (double, high, 0, "trump double over a trump with more pips"),
            ]
        cases += [(t, lead, reply, winner, rule) for lead, reply, winner, rule in rows if lead != reply]
    return cases


TRICK_CASES = trick_cases()
# The trump double [1|1] is the only indicator of trump suit 1, so it cannot be in a hand at the start.
DEALT_CASES = [c for c in TRICK_CASES if SUIT_TILES[c[0]][6] not in (c[1], c[2])]


def trick_id(case: tuple[int, str, str, int, str]) -> str:
    t, lead, reply, _, rule = case
    return f"trump{t}-{lead}-{reply}-{rule.replace(' ', '_')}"


class TestTrickWinner:
    """Who takes a trick (RULES.md 1.2), for every trump suit."""

    @pytest.mark.parametrize("case", TRICK_CASES, ids=[trick_id(c) for c in TRICK_CASES])
    def test_trick_winner(self, case: tuple[int, str, str, int, str]) -> None:
        """``trick_winner`` names the tile the rules of 1.2 put first."""
        trump, lead, reply, winner, _ = case
        assert trick_winner(Tile.parse(lead), Tile.parse(reply), trump) == winner

    @pytest.mark.parametrize("first", [0, 1])
    @pytest.mark.parametrize("case", DEALT_CASES, ids=[trick_id(c) for c in DEALT_CASES])
    def test_in_a_deal(self, case: tuple[int, str, str, int, str], first: int) -> None:
        """In a real deal the same tile takes the trick, its winner scores both tiles and draws first."""
        trump, lead, reply, winner, _ = case
        hands = (lead, reply) if first == 0 else (reply, lead)
        deal = fill_deal("bingo", *hands, SUIT_TILES[trump][6], first)
        assert deal.trump == trump
        play(deal, f"{lead} {reply}")
        won = first if winner == 0 else 1 - first
        view = deal.last_trick_view()
        assert view is not None
        assert (view.leader, view.lead, view.reply, view.winner) == (first, Tile.parse(lead), Tile.parse(reply), won)
        assert deal.tricks[won] == 1 and deal.tricks[1 - won] == 0
        assert deal.points[won] == expected_points(lead, trump) + expected_points(reply, trump)
        assert deal.points[1 - won] == 0
        assert deal.turn == won
        assert deal.hands[won] & BIT[deal.stock[0]] and deal.hands[1 - won] & BIT[deal.stock[1]]
        check_invariants(deal)


# -- 1.3.7 follow rules ----------------------------------------------------------

# Seat 1 replies to ``lead`` holding ``hand``; trump suit 5 (indicator [5|1]), so the
# trumps are [0|0] and every tile with a five. Each row: lead, hand, then per preset
# (bingo, bingo-classic, bingo-domino) the legal replies and an illegal one with its
# refusal, or None when every tile may be played.
Expect = tuple[str, tuple[str, Refusal] | None]
FOLLOW_ROWS: list[tuple[str, str, str, Expect, Expect, Expect]] = [
    # A trump led: a trump if you have one, in every preset.
    (
        "53",
        "52 65 64 33 21",
        "trump led",
        ("52 65", ("64", Refusal.MUST_TRUMP)),
        ("52 65", ("64", Refusal.MUST_TRUMP)),
        ("52 65", ("64", Refusal.MUST_TRUMP)),
    ),
    # Bingo is a trump, so it must answer a trump.
    (
        "53",
        "00 64 21",
        "bingo is the only trump",
        ("00", ("21", Refusal.MUST_TRUMP)),
        ("00", ("21", Refusal.MUST_TRUMP)),
        ("00", ("21", Refusal.MUST_TRUMP)),
    ),
    # Bingo led is a trump lead.
    (
        "00",
        "54 64 21",
        "bingo led",
        ("54", ("64", Refusal.MUST_TRUMP)),
        ("54", ("64", Refusal.MUST_TRUMP)),
        ("54", ("64", Refusal.MUST_TRUMP)),
    ),
    ("53", "64 33 21", "trump led, no trump", ("64 33 21", None), ("64 33 21", None), ("64 33 21", None)),
    # [6|3] leads sixes (9 pips). 65 shows a six but is a trump: only 62 follows; it does not beat 63.
    (
        "63",
        "62 65 31 44 00",
        "one six, not winning",
        ("62", ("65", Refusal.MUST_FOLLOW_SUIT)),
        ("62", ("65", Refusal.MUST_FOLLOW_SUIT)),
        ("62", ("65", Refusal.MUST_FOLLOW_SUIT)),
    ),
    # Sixes 62 (8), 64 (10), 60 (6 + 7 = 13) against 63 (9): must_beat keeps 64 and 60.
    (
        "63",
        "62 64 60 65 31",
        "sixes, some winning",
        ("60 62 64", ("31", Refusal.MUST_FOLLOW_SUIT)),
        ("60 64", ("62", Refusal.MUST_BEAT)),
        ("60 62 64", ("65", Refusal.MUST_FOLLOW_SUIT)),
    ),
    # [6|0] leads blanks (13 pips): 20 is the only non-trump blank (50 is a trump); it does not beat 13.
    (
        "60",
        "20 62 50 11",
        "[6|0] leads blanks",
        ("20", ("62", Refusal.MUST_FOLLOW_SUIT)),
        ("20", ("62", Refusal.MUST_FOLLOW_SUIT)),
        ("20", ("62", Refusal.MUST_FOLLOW_SUIT)),
    ),
    # No non-trump blank ([0|0] is a trump): bingo follows the lower half (a six), domino trumps.
    (
        "60",
        "00 62 11 43",
        "void in blanks",
        ("62", ("11", Refusal.MUST_FOLLOW_LOWER_HALF)),
        ("00 11 43 62", None),
        ("00", ("62", Refusal.MUST_TRUMP)),
    ),
    # [4|0] leads blanks (11 pips), not fours: 64 does not follow; 30 (10) and 20 (9) do not beat it.
    (
        "40",
        "30 20 64 11",
        "[4|0] leads blanks",
        ("20 30", ("64", Refusal.MUST_FOLLOW_SUIT)),
        ("20 30", ("64", Refusal.MUST_FOLLOW_SUIT)),
        ("20 30", ("64", Refusal.MUST_FOLLOW_SUIT)),
    ),
    # [2|0] leads blanks (9 pips): 10 (8) loses, 30 (10) and 40 (11) win.
    (
        "20",
        "10 30 40 62",
        "blanks, some winning",
        ("10 30 40", ("62", Refusal.MUST_FOLLOW_SUIT)),
        ("30 40", ("10", Refusal.MUST_BEAT)),
        ("10 30 40", ("62", Refusal.MUST_FOLLOW_SUIT)),
    ),
    # No non-trump six: the lower half (a three) in bingo, a trump in domino, anything in classic.
    (
        "63",
        "31 43 65 50 11",
        "void in sixes",
        ("31 43", ("11", Refusal.MUST_FOLLOW_LOWER_HALF)),
        ("11 31 43 50 65", None),
        ("50 65", ("31", Refusal.MUST_TRUMP)),
    ),
    # The only three is a trump: no lower half to follow; domino must still trump.
    (
        "63",
        "53 11 22",
        "lower half only in a trump",
        ("11 22 53", None),
        ("11 22 53", None),
        ("53", ("11", Refusal.MUST_TRUMP)),
    ),
    ("63", "11 22 42", "void everywhere", ("11 22 42", None), ("11 22 42", None), ("11 22 42", None)),
    # [4|2] leads fours (6 pips): 64 (10) and 44 (8) follow and both win.
    (
        "42",
        "64 44 21 32 00",
        "fours, all winning",
        ("44 64", ("21", Refusal.MUST_FOLLOW_SUIT)),
        ("44 64", ("21", Refusal.MUST_BEAT)),
        ("44 64", ("00", Refusal.MUST_FOLLOW_SUIT)),
    ),
    # A double leads its own number: [3|3] (6 pips) against 31 (4) and 63 (9).
    (
        "33",
        "31 63 22 50",
        "double led",
        ("31 63", ("22", Refusal.MUST_FOLLOW_SUIT)),
        ("63", ("31", Refusal.MUST_BEAT)),
        ("31 63", ("50", Refusal.MUST_FOLLOW_SUIT)),
    ),
]

FOLLOW_CASES = [
    (preset, lead, hand, expect)
    for lead, hand, _, *per_preset in FOLLOW_ROWS
    for preset, expect in zip(PRESETS, per_preset, strict=True)
]
FOLLOW_IDS = [f"{preset}-{row[2].replace(' ', '_')}" for row in FOLLOW_ROWS for preset in PRESETS]


def reply_position(preset: str, lead: str, hand: str, mode: str) -> BingoDeal:
    """Seat 1 to reply to ``lead`` under trump 5, set up by assigning the deal's fields directly.

    ``mode``: ``exhausted`` (all 14 tiles drawn), ``closed`` (seat 0 closed, reserve full)
    or ``open`` (reserve open and full).
    """
    deal = fill_deal(preset, "", "", "51")
    assert deal.trump == 5
    deal.lead = parse_index(lead)
    deal.turn = 1
    deal.hands[1] = parse_mask(hand.split())
    if mode == "exhausted":
        deal.drawn = len(deal.stock)
    elif mode == "closed":
        deal.closed_by = 0
    return deal


class TestFollowRules:
    """The follow rules of RULES.md 1.3.7 under each preset's flags."""

    @pytest.mark.parametrize("mode", ["exhausted", "closed"])
    @pytest.mark.parametrize(("preset", "lead", "hand", "expect"), FOLLOW_CASES, ids=FOLLOW_IDS)
    def test_legal_replies(self, preset: str, lead: str, hand: str, expect: Expect, mode: str) -> None:
        """Position set up by assigning fields: the legal replies are exactly the ones the rules allow."""
        deal = reply_position(preset, lead, hand, mode)
        legal, _ = expect
        assert names(deal.legal_actions()) == sorted_names(legal)

    @pytest.mark.parametrize("mode", ["exhausted", "closed"])
    @pytest.mark.parametrize(("preset", "lead", "hand", "expect"), FOLLOW_CASES, ids=FOLLOW_IDS)
    def test_illegal_reply(self, preset: str, lead: str, hand: str, expect: Expect, mode: str) -> None:
        """Position set up by assigning fields: a reply the rules forbid is refused with the rule's reason."""
        deal = reply_position(preset, lead, hand, mode)
        _, illegal = expect
        if illegal is None:
            assert names(deal.legal_actions()) == sorted_names(hand)
            return
        tile, reason = illegal
        assert_refused(deal, tile, reason)

    @pytest.mark.parametrize(("preset", "lead", "hand", "expect"), FOLLOW_CASES, ids=FOLLOW_IDS)
    def test_no_obligation_while_open(self, preset: str, lead: str, hand: str, expect: Expect) -> None:
        """Position set up by assigning fields: while the reserve is open any tile in hand may be played."""
        deal = reply_position(preset, lead, hand, "open")
        assert names(deal.legal_actions()) == sorted_names(hand)
        _, illegal = expect
        if illegal is not None:
            play(deal, illegal[0])
            assert deal.lead == -1

    def test_tile_not_in_hand(self) -> None:
        """Position set up by assigning fields: a tile the seat does not hold is refused as not in hand."""
        deal = reply_position("bingo", "53", "52 65 64 33 21", "exhausted")
        assert_refused(deal, "66", Refusal.NOT_IN_HAND)


# -- whole deals used by several tests -------------------------------------------

# Trump 3 (indicator [3|1]; trumps [0|0] and the threes). Seat 0 wins tricks 1-6, seat 1 trick 7.
# None of the 14 tiles of the hands is worth a point under trump 3 (no three, no double, no 64/30).
# T1 50 (5 + 7 = 12) vs 40 (11); T2 65 (11) vs 10 (8); T3 54 (9) vs 20 (9): equal, the leader;
# T4 62 (8) vs 61 (7); T5 52 (7) vs 41 (5); T6 51 (6) vs 21 (3); T7 42 (6) vs 60 (13): seat 1.
# Draws: seat 0 (the winner) takes 00 30 32 66 55 64, seat 1 takes 33 63 53 43 44 22;
# the last pair after T7: hidden 11 and the indicator 31.
FULL_HANDS = ("65 54 62 52 51 50 42", "61 60 41 40 21 20 10")
FULL_STOCK = "00 33 30 63 32 53 66 43 55 44 64 22 11 31"
SIX_TRICKS = "50 40 65 10 54 20 62 61 52 41 51 21"
SEVEN_TRICKS = SIX_TRICKS + " 42 60"
# With the reserve exhausted (seat 0: 00 30 31 32 66 55 64, seat 1: 33 63 53 43 44 22 11):
# T8 33 (28) vs 30 (10), a trump led so a trump must follow:      P1 = 38
# T9 63 (9) vs 31 (4):                                             P1 = 51
# T10 53 (8) vs 32 (5):                                            P1 = 64
# T11 43 (7) vs 00 (14), the only trump left, and bingo wins:      P0 = 21
# T12 64 (10) vs 44 (8): no six, so bingo follows the lower half:  P0 = 39
# T13 66 (12) vs 11 (2):                                           P0 = 53
# T14 55 (10) vs 22 (4):                                           P0 = 67
# 67 + 64 = 131, the oracle of trump 3; nobody reached 70.
LAST_SEVEN = "33 30 63 31 53 32 43 00 64 44 66 11 55 22"


def full_deal(preset: str) -> BingoDeal:
    return bingo_deal(preset, FULL_HANDS, FULL_STOCK)


# -- 1.3.4 the last pair ---------------------------------------------------------


class TestLastPair:
    """Who gets the hidden tile and the indicator (RULES.md 1.3.4)."""

    @pytest.mark.parametrize("preset", ["bingo", "bingo-domino"])
    def test_loser_gets_indicator(self, preset: str) -> None:
        """After the trick that leaves two tiles the winner draws the hidden tile and the loser the indicator."""
        deal = run(full_deal(preset), SEVEN_TRICKS)
        assert deal.tricks == [6, 1]
        assert holds(deal, 1, "33 63 53 43 44 22 11")  # seat 1 won T7: the hidden [1|1]
        assert holds(deal, 0, "00 30 32 66 55 64 31")  # seat 0 lost: the indicator [3|1]
        assert deal.reserve == () and deal.turn == 1
        assert deal.view(0).indicator is None
        check_invariants(deal)

    @pytest.mark.parametrize(("preset", "action"), [("bingo", "I"), ("bingo", "H"), ("bingo-domino", "I")])
    def test_no_choice(self, preset: str, action: str) -> None:
        """Without ``winner_chooses`` taking a tile of the last pair is not an action."""
        deal = run(full_deal(preset), SEVEN_TRICKS)
        assert_refused(deal, action, Refusal.WRONG_PHASE)

    def test_winner_chooses_offers_only_the_choice(self) -> None:
        """In bingo-classic the winner of the trick that leaves two tiles must choose, and only that."""
        deal = run(full_deal("bingo-classic"), SEVEN_TRICKS)
        assert deal.choosing and deal.turn == 1
        assert deal.drawn == 12
        assert names(deal.legal_actions()) == ["H", "I"]
        assert names(deal.view(1).legal) == ["H", "I"]
        assert deal.view(1).choosing
        assert_refused(deal, "33", Refusal.WRONG_PHASE)
        assert_refused(deal, "X", Refusal.WRONG_PHASE)
        assert_refused(deal, "I", Refusal.NOT_YOUR_TURN, seat=0)

    @pytest.mark.parametrize(
        ("action", "winner_hand", "loser_hand"),
        [
            ("I", "33 63 53 43 44 22 31", "00 30 32 66 55 64 11"),
            ("H", "33 63 53 43 44 22 11", "00 30 32 66 55 64 31"),
        ],
    )
    def test_winner_chooses(self, action: str, winner_hand: str, loser_hand: str) -> None:
        """The winner takes the tile chosen (I: indicator [3|1], H: hidden [1|1]) and the loser the other."""
        deal = run(full_deal("bingo-classic"), SEVEN_TRICKS + " " + action)
        assert holds(deal, 1, winner_hand)
        assert holds(deal, 0, loser_hand)
        assert not deal.choosing and deal.reserve == () and deal.turn == 1
        assert "X" not in names(deal.legal_actions())
        check_invariants(deal)


# -- 1.3.6 closing ---------------------------------------------------------------

# Trump 0 (indicator [6|0]: its blank counts 7). None of these 14 tiles has a blank; only 64 scores (10).
CLOSE_HANDS = ("21 31 41 51 61 32 42", "62 63 64 65 52 53 43")
CLOSE_STOCK = "00 10 11 20 22 30 33 40 44 50 54 55 66 60"


class TestClose:
    """Closing the reserve (RULES.md 1.3.6)."""

    @pytest.mark.parametrize("preset", PRESETS)
    def test_offered_to_the_leader(self, preset: str) -> None:
        """The seat on lead may close before leading while the reserve is open."""
        deal = bingo_deal(preset, CLOSE_HANDS, CLOSE_STOCK)
        assert names(deal.legal_actions()) == sorted_names("21 31 41 51 61 32 42 X")

    @pytest.mark.parametrize("preset", PRESETS)
    def test_not_after_leading(self, preset: str) -> None:
        """The replying seat cannot close."""
        deal = run(bingo_deal(preset, CLOSE_HANDS, CLOSE_STOCK), "21")
        assert "X" not in names(deal.legal_actions())
        assert_refused(deal, "X", Refusal.CANNOT_CLOSE)

    @pytest.mark.parametrize("preset", PRESETS)
    def test_not_twice(self, preset: str) -> None:
        """A closed reserve cannot be closed again."""
        deal = run(bingo_deal(preset, CLOSE_HANDS, CLOSE_STOCK), "X")
        assert "X" not in names(deal.legal_actions())
        assert_refused(deal, "X", Refusal.CANNOT_CLOSE)
        play(deal, "21 52")
        assert deal.turn == 1
        assert_refused(deal, "X", Refusal.CANNOT_CLOSE)

    @pytest.mark.parametrize("preset", ["bingo", "bingo-domino"])
    def test_with_the_last_pair_left(self, preset: str) -> None:
        """With two tiles left (hidden and indicator) the leader may still close."""
        deal = run(full_deal(preset), SIX_TRICKS)
        assert len(deal.reserve) == 2 and deal.turn == 0
        assert "X" in names(deal.legal_actions())
        play(deal, "X")
        assert deal.closed_by == 0

    @pytest.mark.parametrize("preset", PRESETS)
    def test_not_when_exhausted(self, preset: str) -> None:
        """Once the reserve is empty nobody can close."""
        actions = SEVEN_TRICKS + (" H" if preset == "bingo-classic" else "")
        deal = run(full_deal(preset), actions)
        assert deal.reserve == () and deal.turn == 1
        assert "X" not in names(deal.legal_actions())
        assert_refused(deal, "X", Refusal.CANNOT_CLOSE)

    @pytest.mark.parametrize("preset", PRESETS)
    def test_no_drawing_after(self, preset: str) -> None:
        """After closing nobody draws and the indicator is no longer shown."""
        deal = run(bingo_deal(preset, CLOSE_HANDS, CLOSE_STOCK), "X 21 52")
        assert deal.hands[0].bit_count() == deal.hands[1].bit_count() == 6
        assert deal.drawn == 0 and len(deal.reserve) == 14
        for seat in (None, 0, 1):
            view = deal.view(seat)
            assert view.indicator is None and view.closed_by == 0 and view.reserve == 14
        check_invariants(deal)

    @pytest.mark.parametrize(
        ("preset", "legal", "illegal", "reason"),
        [
            # 21 leads twos: 62 and 52 follow, both beat 3 pips.
            ("bingo", "52 62", "43", Refusal.MUST_FOLLOW_SUIT),
            ("bingo-classic", "52 62", "43", Refusal.MUST_BEAT),
            ("bingo-domino", "52 62", "43", Refusal.MUST_FOLLOW_SUIT),
        ],
    )
    def test_follow_rules_apply(self, preset: str, legal: str, illegal: str, reason: Refusal) -> None:
        """After closing the follow rules bind at once, with the reserve still full."""
        deal = run(bingo_deal(preset, CLOSE_HANDS, CLOSE_STOCK), "X 21")
        assert names(deal.legal_actions()) == sorted_names(legal)
        assert_refused(deal, illegal, reason)
        open_deal = run(bingo_deal(preset, CLOSE_HANDS, CLOSE_STOCK), "21")
        assert names(open_deal.legal_actions()) == sorted_names(CLOSE_HANDS[1])


class TestFollowRulesInPlay:
    """The follow rules in a deal played until the reserve is exhausted."""

    @pytest.mark.parametrize("preset", PRESETS)
    def test_trump_led(self, preset: str) -> None:
        """T8: seat 1 leads the trump double [3|3]; seat 0 must answer with one of its trumps."""
        choose = " H" if preset == "bingo-classic" else ""
        deal = run(full_deal(preset), SEVEN_TRICKS + choose + " 33")
        assert names(deal.legal_actions()) == sorted_names("00 30 31 32")
        assert_refused(deal, "66", Refusal.MUST_TRUMP)

    @pytest.mark.parametrize(
        ("preset", "legal"),
        [("bingo", "44"), ("bingo-classic", "44 22 11"), ("bingo-domino", "44 22 11")],
    )
    def test_lower_half(self, preset: str, legal: str) -> None:
        """T12: [6|4] led to a hand of 44 22 11 with no six; only bingo asks for the lower half (a four)."""
        choose = " H" if preset == "bingo-classic" else ""
        before = " ".join(LAST_SEVEN.split()[:8])
        deal = run(full_deal(preset), f"{SEVEN_TRICKS}{choose} {before} 64")
        assert holds(deal, 1, "44 22 11")
        assert names(deal.legal_actions()) == sorted_names(legal)
        if preset == "bingo":
            assert_refused(deal, "11", Refusal.MUST_FOLLOW_LOWER_HALF)


# -- 1.3.5 claims ----------------------------------------------------------------

# Trump 6 (indicator [6|1]): trumps [0|0] and the sixes; [6|6] is the trump double (28).
# Seat 1 holds no double and answers [6|6] with 43 (0 points, not a trump).
CLAIM_REPLY = "43 52 53 54 20 40 50"


def claim_hand(doubles: str) -> str:
    """Seat 0's hand: these doubles, topped up to 7 with tiles worth nothing under trump 6."""
    tiles = doubles.split()
    return " ".join(tiles + ["21", "31", "32", "41", "42"][: 7 - len(tiles)])


class TestClaims:
    """Declaring doubles (RULES.md 1.3.5) and the claim table of 1.5."""

    def test_offered_with_two_doubles(self) -> None:
        """Leading with two doubles in hand offers a claim on each of them, besides plays and closing."""
        deal = fill_deal("bingo", "66 55 21 31 32 41 42", CLAIM_REPLY, "61")
        assert names(deal.legal_actions()) == sorted_names("66 55 21 31 32 41 42 66* 55* X")

    def test_not_offered_with_one_double(self) -> None:
        """A single double in hand gives no claim."""
        deal = fill_deal("bingo", "66 21 31 32 41 42 43", "52 53 54 20 40 50 10", "61")
        assert not any(a.endswith("*") for a in names(deal.legal_actions()))
        assert_refused(deal, "66*", Refusal.NO_CLAIM)

    def test_not_offered_to_the_replier(self) -> None:
        """The seat replying cannot claim, whatever doubles it holds."""
        deal = fill_deal("bingo", "21 31 32 41 42 43 52", "66 55 44 53 54 20 40", "61")
        play(deal, "21")
        assert not any(a.endswith("*") for a in names(deal.legal_actions()))
        assert_refused(deal, "66*", Refusal.NO_CLAIM)

    @pytest.mark.parametrize("preset", PRESETS)
    @pytest.mark.parametrize(
        ("doubles", "points", "end"),
        [
            ("66 55", 28 + 20, None),  # 2 doubles: 20
            ("66 55 44", 28 + 40, None),  # 3 doubles: 40; 68 does not end the deal
            ("66 55 44 33", 28 + 50, DealEnd.REACHED_GOAL),  # 4 doubles: 50
            ("66 55 44 33 22", 28 + 60, DealEnd.REACHED_GOAL),  # 5 doubles: 60
        ],
    )
    def test_points(self, preset: str, doubles: str, points: int, end: DealEnd | None) -> None:
        """A won claim of 2 to 5 doubles scores 20, 40, 50, 60 on top of the trick, in every preset."""
        deal = fill_deal(preset, claim_hand(doubles), CLAIM_REPLY, "61")
        play(deal, "66* 43")
        assert deal.points == [points, 0]
        assert deal.end is end
        # Reaching 70 before seat 1 took a trick: 3 game points.
        assert deal.awards == ([] if end is None else [Award(0, 3, Reason.NO_TRICK)])
        assert deal.claims == [(0, parse_mask(doubles.split()), True)]
        check_invariants(deal)

    @pytest.mark.parametrize(
        ("preset", "doubles", "points", "awards"),
        [
            ("bingo", "66 55 44 33 22 11", 28, [Award(0, 1, Reason.CLAIM, 6)]),
            ("bingo-domino", "66 55 44 33 22 11", 28, [Award(0, 1, Reason.CLAIM, 6)]),
            # 28 + 70 = 98 >= 70 and seat 1 took no trick: 3.
            ("bingo-classic", "66 55 44 33 22 11", 28 + 70, [Award(0, 3, Reason.NO_TRICK)]),
            ("bingo", "66 55 44 33 22 11 00", 28, [Award(0, 3, Reason.CLAIM, 7)]),
            ("bingo-domino", "66 55 44 33 22 11 00", 28, [Award(0, 3, Reason.CLAIM, 7)]),
            # 28 + 210 + 10 (bingo among them) = 248.
            ("bingo-classic", "66 55 44 33 22 11 00", 28 + 210 + 10, [Award(0, 3, Reason.NO_TRICK)]),
        ],
    )
    def test_six_and_seven(self, preset: str, doubles: str, points: int, awards: list[Award]) -> None:
        """Six and seven doubles give 1 and 3 game points at once, or 70 and 210 points in bingo-classic."""
        deal = fill_deal(preset, claim_hand(doubles), CLAIM_REPLY, "61")
        play(deal, "66* 43")
        assert deal.points == [points, 0]
        assert deal.awards == awards
        assert deal.game_points == (sum(a.game_points for a in awards), 0)
        check_invariants(deal)

    @pytest.mark.parametrize(
        ("preset", "lead", "points"),
        [
            ("bingo", "66*", 28 + 20),
            ("bingo-domino", "66*", 28 + 20),
            ("bingo-classic", "66*", 28 + 20 + 10),
            ("bingo", "00*", 14 + 20),  # bingo is worth 14 under trump 6 and takes any tile
            ("bingo-domino", "00*", 14 + 20),
            ("bingo-classic", "00*", 14 + 20 + 10),
        ],
    )
    def test_bingo_among_the_doubles(self, preset: str, lead: str, points: int) -> None:
        """A claim holding [0|0] earns 10 more only in bingo-classic."""
        deal = fill_deal(preset, claim_hand("66 00"), CLAIM_REPLY, "61")
        play(deal, f"{lead} 43")
        assert deal.points == [points, 0]
        assert deal.claim_points_of(0) == points - POINTS[6][parse_index(lead[:2])]

    @pytest.mark.parametrize("preset", PRESETS)
    def test_lost_when_the_trick_is_lost(self, preset: str) -> None:
        """A claim whose trick goes to the other seat scores nothing and is shown as not scored."""
        deal = fill_deal(preset, claim_hand("55 44"), "65 43 52 53 54 20 40", "61")
        play(deal, "55*")
        assert deal.view(1).claims == (ClaimView(0, (Tile(5, 5), Tile(4, 4)), None),)
        play(deal, "65")
        # [6|5] is a trump and takes [5|5]: P1 = 10 + 11 = 21, the claim counts nothing.
        assert deal.points == [0, 21]
        assert deal.claims == [(0, parse_mask(["55", "44"]), False)]
        assert deal.claim_points_of(0) == 0
        assert deal.view(1).claims == (ClaimView(0, (Tile(5, 5), Tile(4, 4)), False),)
        check_invariants(deal)

    def test_six_doubles_lost(self) -> None:
        """A lost claim of six doubles gives no game point."""
        deal = fill_deal("bingo", "55 44 33 22 11 00 21", "66 65 52 53 54 20 40", "61")
        play(deal, "55* 65")
        assert deal.awards == [] and deal.points == [0, 21]

    @pytest.mark.parametrize("preset", PRESETS)
    def test_repeated(self, preset: str) -> None:
        """A second claim on a later lead with the doubles left scores again; both show to the opponent."""
        hands = ("66 55 44 21 31 32 41", "43 52 53 54 20 40 50")
        # Seat 0 wins T1 and draws [1|0]; seat 1 draws [3|0].
        deal = bingo_deal(preset, hands, "10 30 42 51 60 62 63 64 65 00 11 22 33 61")
        play(deal, "66*")
        assert deal.view(1).claims == (ClaimView(0, (Tile(6, 6), Tile(5, 5), Tile(4, 4)), None),)
        play(deal, "43")
        # T1: 28 + 0 + 40 (three doubles) = 68, not yet 70.
        assert deal.points == [68, 0] and deal.end is None
        assert names(a for a in deal.legal_actions() if a.notation().endswith("*")) == ["44*", "55*"]
        # T2: 55 (10 pips) beats 52 (7): 10 + 0 + 20 (two doubles) = 30, so 98.
        play(deal, "55* 52")
        assert deal.points == [98, 0]
        assert deal.claim_points_of(0) == 40 + 20
        assert deal.view(1).claims == (
            ClaimView(0, (Tile(6, 6), Tile(5, 5), Tile(4, 4)), True),
            ClaimView(0, (Tile(5, 5), Tile(4, 4)), True),
        )
        assert deal.end is DealEnd.REACHED_GOAL
        check_invariants(deal)


# -- 1.3.9 the bingo bonus -------------------------------------------------------


class TestBingoBonus:
    """Bingo taking the trump double in one trick gives its owner 1 game point (RULES.md 1.3.9)."""

    @pytest.mark.parametrize("preset", PRESETS)
    @pytest.mark.parametrize("trump", [2, 3, 4, 5, 6])
    @pytest.mark.parametrize("bingo_leads", [False, True])
    def test_bonus(self, preset: str, trump: int, bingo_leads: bool) -> None:
        """Either order of play: the seat that played [0|0] gets 1 game point at once."""
        double = f"{trump}{trump}"
        hands = ("00", double) if bingo_leads else (double, "00")
        deal = fill_deal(preset, *hands, SUIT_TILES[trump][6])
        play(deal, " ".join(hands))
        owner = 0 if bingo_leads else 1
        assert deal.awards == [Award(owner, 1, Reason.BINGO_TAKES_TRUMP_DOUBLE)]
        assert deal.score[owner] == 1
        # 28 + 14 = 42 < 70: the deal goes on.
        assert deal.points[owner] == 42 and deal.end is None
        check_invariants(deal)

    def test_bonus_trump_one(self) -> None:
        """Trump 1 (indicator [1|1]): last trick set up by assigning fields, bingo takes [1|1]."""
        deal = fill_deal("bingo", "", "", "11")
        deal.drawn = 14
        deal.hands = [parse_mask(["11"]), parse_mask(["00"])]
        play(deal, "11 00")
        assert deal.awards == [Award(1, 1, Reason.BINGO_TAKES_TRUMP_DOUBLE)]
        assert deal.points == [0, 42]

    @pytest.mark.parametrize("preset", PRESETS)
    @pytest.mark.parametrize("double", ["11", "22", "33", "44", "55", "66"])
    @pytest.mark.parametrize("bingo_leads", [False, True])
    def test_none_when_blanks_are_trumps(self, preset: str, double: str, bingo_leads: bool) -> None:
        """With blanks as trumps [0|0] is itself the trump double: no bonus."""
        hands = ("00", double) if bingo_leads else (double, "00")
        deal = fill_deal(preset, *hands, "20")
        assert deal.trump == 0
        play(deal, " ".join(hands))
        assert deal.awards == []
        # 28 + the double's pips.
        assert deal.points[0 if bingo_leads else 1] == 28 + 2 * int(double[0])


# -- 1.3.8 and 1.4 game points at the end of a deal --------------------------------

# Trump 6 (indicator [6|1]). T1 seat 0 leads and seat 1 takes it; T2 seat 1 leads [3|0] (10, not a
# trump) and seat 0 takes it with [6|5] (11): P0 = 21; T3 seat 0 claims and wins. Draws: seat 1 gets
# 00 and 31, seat 0 gets 10 and 20 (no double for seat 0).
GP_HANDS = ("55 44 33 22 11 65 21", "66 60 64 30 32 41 43")
GP_STOCK = "00 10 20 31 40 42 50 51 52 53 54 62 63 61"
GP_SCRIPTS: dict[str, tuple[str, tuple[int, int]]] = {
    # T1 21 vs 66: P1 = 0 + 28 = 28. T3 55* claims 55 44 33 22 11 (60): P0 = 21 + 10 + 60 = 91.
    "o28": ("21 66 30 65 55* 32", (91, 28)),
    # T1 11 vs 66: P1 = 2 + 28 = 30. T3 55* claims 55 44 33 22 (50): P0 = 21 + 10 + 50 = 81.
    "o30": ("11 66 30 65 55* 32", (81, 30)),
    # T1 33 vs 60 (trump, 6 + 7): P1 = 6 + 13 = 19. T3 55* claims 55 44 22 11 (50): P0 = 81.
    "o19": ("33 60 30 65 55* 32", (81, 19)),
    # T1 55 vs 64 (trump): P1 = 10 + 10 = 20. T3 44* (8 pips beats 32) claims 44 33 22 11 (50): 21 + 8 + 50.
    "o20": ("55 64 30 65 44* 32", (79, 20)),
    # T1 21 vs 41 (5 pips beat 3): P1 = 0 from one trick. T3 as in o28: P0 = 91.
    "o0": ("21 41 30 65 55* 32", (91, 0)),
    # T1 55* claims five doubles: 10 + 0 + 60 = 70 exactly; seat 1 took no trick.
    "none": ("55* 32", (70, 0)),
}
GP_AWARDS: dict[str, dict[str, Award]] = {
    # Schneider thresholds: 20 in bingo and bingo-domino, 30 in bingo-classic.
    "o28": {
        "bingo": Award(0, 1, Reason.REACHED_GOAL),
        "bingo-classic": Award(0, 2, Reason.SCHNEIDER),
        "bingo-domino": Award(0, 1, Reason.REACHED_GOAL),
    },
    "o30": {p: Award(0, 1, Reason.REACHED_GOAL) for p in PRESETS},
    "o19": {p: Award(0, 2, Reason.SCHNEIDER) for p in PRESETS},
    "o20": {
        "bingo": Award(0, 1, Reason.REACHED_GOAL),
        "bingo-classic": Award(0, 2, Reason.SCHNEIDER),
        "bingo-domino": Award(0, 1, Reason.REACHED_GOAL),
    },
    # A trick worth nothing is still a trick: 2, not 3.
    "o0": {p: Award(0, 2, Reason.SCHNEIDER) for p in PRESETS},
    "none": {p: Award(0, 3, Reason.NO_TRICK) for p in PRESETS},
}
GP_CASES = [(preset, name) for name in GP_SCRIPTS for preset in PRESETS]


class TestGamePoints:
    """Game points when a player reaches 70 (RULES.md 1.3.8 and 1.4)."""

    @pytest.mark.parametrize(("preset", "name"), GP_CASES, ids=[f"{p}-{n}" for p, n in GP_CASES])
    def test_reaching_70(self, preset: str, name: str) -> None:
        """3 when the other took no trick, 2 under the preset's schneider threshold, else 1."""
        actions, points = GP_SCRIPTS[name]
        deal = run(bingo_deal(preset, GP_HANDS, GP_STOCK), actions)
        assert tuple(deal.points) == points
        assert deal.end is DealEnd.REACHED_GOAL
        award = GP_AWARDS[name][preset]
        assert deal.awards == [award]
        assert deal.score == [award.game_points, 0]
        check_invariants(deal)

    @pytest.mark.parametrize("preset", PRESETS)
    def test_deal_ends_at_once(self, preset: str) -> None:
        """Reaching 70 ends the deal when the trick is settled: no draw, no further action."""
        deal = run(bingo_deal(preset, GP_HANDS, GP_STOCK), "55* 32")
        assert deal.drawn == 0
        assert deal.hands[0].bit_count() == deal.hands[1].bit_count() == 6
        assert deal.legal_actions() == []
        assert deal.view(0).legal == () and deal.view(0).turn is None
        assert_refused(deal, "44", Refusal.GAME_OVER)

    @pytest.mark.parametrize("preset", PRESETS)
    def test_nobody_reaches_70(self, preset: str) -> None:
        """Not closed and both under 70 when the hands run out: no game points (67 and 64 under trump 3)."""
        choose = " H" if preset == "bingo-classic" else ""
        deal = full_deal(preset)
        for action in f"{SEVEN_TRICKS}{choose} {LAST_SEVEN}".split():
            deal.play(action)
            check_invariants(deal)
        assert deal.end is DealEnd.HANDS_EMPTY
        assert deal.points == [67, 64]
        assert deal.tricks == [10, 4]
        assert deal.awards == [] and deal.game_points == (0, 0)


# Trump 0 (indicator [6|0]); see CLOSE_HANDS. Scripts where the closer fails.
# A: seat 0 closes before trick 1 and takes no trick. 21 leads twos: 52 follows and wins; then seat 1
#    leads every trick and seat 0's forced replies all lose. P1 = 10 (the [6|4]).
CLOSE_A = (CLOSE_HANDS, CLOSE_STOCK, "X 21 52 65 61 64 41 63 31 62 32 53 51 43 42", (0, 10))
# B: as A with 65 and 61 swapped: seat 0 leads 65 (11 pips), seat 1 must follow with a six and none
#    beats it; seat 0 takes that trick (0 points) and loses the rest. P1 = 10.
CLOSE_B = (
    ("21 31 41 51 65 32 42", "62 63 64 61 52 53 43"),
    CLOSE_STOCK,
    "X 65 61 21 52 64 41 63 31 62 32 53 51 43 42",
    (0, 10),
)
# C: T1 open, 21 vs 52: seat 1 wins, draws 11, seat 0 draws 22; seat 1 closes after trick 1 and wins
#    seven tricks (P1 = 10); seat 0 takes the last, 11 vs 22: P0 = 2 + 4 = 6.
CLOSE_C = (
    CLOSE_HANDS,
    "11 22 00 10 20 30 33 40 44 50 54 55 66 60",
    "21 52 X 65 61 64 41 63 31 62 32 53 51 43 42 11 22",
    (6, 10),
)
# D: the non-closer reaches 70. Seat 1 trumps 62 with 50 (5 + 7 = 12), then claims 55 44 33 11 (50)
#    leading [5|5] (10), which 51 (the only five of seat 0) cannot beat: P1 = 12 + 10 + 50 = 72.
D_HANDS = ("62 61 63 64 51 21 32", "55 44 33 11 50 40 43")
D_STOCK = "31 10 00 20 22 30 41 42 52 53 54 65 66 60"
# D1: seat 0 closes before trick 1.
CLOSE_D1 = (D_HANDS, D_STOCK, "X 62 50 55* 51", (0, 72))
# D2: T1 open, 64 (10) vs 43 (7): P0 = 10; seat 0 draws 31, seat 1 draws 10; seat 0 closes after trick 1.
CLOSE_D2 = (D_HANDS, D_STOCK, "64 43 X 62 50 55* 51", (10, 72))

Script = tuple[tuple[str, str], str, str, tuple[int, int]]
CLOSE_CASES: list[tuple[str, str, Script, list[Award]]] = [
    # Closed before trick 1: 3 in bingo and bingo-classic; bingo-domino: the closer took no trick, 3.
    *[(p, "A", CLOSE_A, [Award(1, 3, Reason.CLOSER_FAILED_PENALTY)]) for p in PRESETS],
    # Closed before trick 1 but the closer took a trick: 3 in bingo and bingo-classic, 2 in bingo-domino.
    ("bingo", "B", CLOSE_B, [Award(1, 3, Reason.CLOSER_FAILED_PENALTY)]),
    ("bingo-classic", "B", CLOSE_B, [Award(1, 3, Reason.CLOSER_FAILED_PENALTY)]),
    ("bingo-domino", "B", CLOSE_B, [Award(1, 2, Reason.CLOSER_FAILED)]),
    # Closed after trick 1 by a closer who took tricks: 2 everywhere.
    *[(p, "C", CLOSE_C, [Award(0, 2, Reason.CLOSER_FAILED)]) for p in PRESETS],
    # The non-closer reached 70: one more. Before trick 1 with no trick for the closer: 3 + 1.
    *[
        (p, "D1", CLOSE_D1, [Award(1, 3, Reason.CLOSER_FAILED_PENALTY), Award(1, 1, Reason.REACHED_GOAL_AFTER_CLOSE)])
        for p in PRESETS
    ],
    # After trick 1, which the closer took: 2 + 1.
    *[
        (p, "D2", CLOSE_D2, [Award(1, 2, Reason.CLOSER_FAILED), Award(1, 1, Reason.REACHED_GOAL_AFTER_CLOSE)])
        for p in PRESETS
    ],
]

# The closer reaches 70 himself. Trump 6 (indicator [6|1]); seat 1's only five is 52 (7 pips).
# X 55* 52: 10 + 0 + 60 (five doubles) = 70 and seat 1 took no trick: 3, as if not closed.
CW_HANDS = ("55 44 33 22 11 65 21", "66 60 64 30 52 41 43")
CW_STOCK = "00 10 20 31 32 40 42 50 51 53 54 62 63 61"


class TestCloseGamePoints:
    """Game points after a close (RULES.md 1.4)."""

    @pytest.mark.parametrize(
        ("preset", "name", "script", "awards"), CLOSE_CASES, ids=[f"{c[0]}-{c[1]}" for c in CLOSE_CASES]
    )
    def test_closer_fails(self, preset: str, name: str, script: Script, awards: list[Award]) -> None:
        """The non-closer gets 2, or 3 under the preset's penalty condition, plus 1 if he reached 70."""
        hands, stock, actions, points = script
        deal = bingo_deal(preset, hands, stock)
        for action in actions.split():
            deal.play(action)
            check_invariants(deal)
        assert tuple(deal.points) == points
        assert deal.end is (DealEnd.REACHED_GOAL if max(points) >= 70 else DealEnd.HANDS_EMPTY)
        assert deal.awards == awards
        seat = awards[0].seat
        assert deal.game_points[seat] == sum(a.game_points for a in awards)
        assert deal.game_points[1 - seat] == 0

    @pytest.mark.parametrize("preset", PRESETS)
    def test_closer_reaches_70_no_trick(self, preset: str) -> None:
        """A closer who reaches 70 scores as if not closed: 3 when the other took no trick."""
        deal = run(bingo_deal(preset, CW_HANDS, CW_STOCK), "X 55* 52")
        assert deal.points == [70, 0]
        assert deal.awards == [Award(0, 3, Reason.NO_TRICK)]
        check_invariants(deal)

    @pytest.mark.parametrize(
        ("preset", "award"),
        [("bingo", Award(0, 1, Reason.REACHED_GOAL)), ("bingo-classic", Award(0, 2, Reason.SCHNEIDER))],
    )
    def test_closer_reaches_70(self, preset: str, award: Award) -> None:
        """Closing after two tricks and reaching 70 (91 against 28) scores by the schneider rule only."""
        deal = run(bingo_deal(preset, GP_HANDS, GP_STOCK), "21 66 30 65 X 55*")
        # Seat 1 holds 60 64 32 41 43 00 31: no five, no lower half five, so any tile.
        assert names(deal.legal_actions()) == sorted_names("60 64 32 41 43 00 31")
        play(deal, "32")
        assert deal.points == [91, 28]
        assert deal.awards == [award]

    def test_domino_must_trump_after_close(self) -> None:
        """In bingo-domino the same position forces a trump: 60, 64 or [0|0]."""
        deal = run(bingo_deal("bingo-domino", GP_HANDS, GP_STOCK), "21 66 30 65 X 55*")
        assert names(deal.legal_actions()) == sorted_names("60 64 00")
        assert_refused(deal, "32", Refusal.MUST_TRUMP)


# -- 1.4 the match ends at the target ----------------------------------------------

SIX_DOUBLES = claim_hand("66 55 44 33 22 11")
SEVEN_DOUBLES = "66 55 44 33 22 11 00"


class TestMatchEnd:
    """Game points given during a deal end the match the moment they reach the target (RULES.md 1.4)."""

    @pytest.mark.parametrize(
        ("preset", "hand", "score", "target", "after"),
        [
            ("bingo", SIX_DOUBLES, (7, 0), None, [8, 0]),  # 7 + 1 = 8, bingo's target
            ("bingo-domino", SIX_DOUBLES, (6, 3), None, [7, 3]),  # 6 + 1 = 7, bingo-domino's target
            ("bingo", SIX_DOUBLES, (6, 0), 7, [7, 0]),  # a group's target of 7
            ("bingo", SEVEN_DOUBLES, (5, 0), None, [8, 0]),  # 5 + 3 = 8
        ],
    )
    def test_claim_wins_the_match(
        self, preset: str, hand: str, score: tuple[int, int], target: int | None, after: list[int]
    ) -> None:
        """A claim worth game points that reaches the target stops the deal as MATCH_WON."""
        deal = fill_deal(preset, hand, CLAIM_REPLY, "61", score=score, target=target)
        play(deal, "66* 43")
        assert deal.score == after
        assert deal.end is DealEnd.MATCH_WON and deal.match_over
        assert deal.points == [28, 0]
        assert deal.legal_actions() == []
        assert_refused(deal, "21" if hand == SIX_DOUBLES else "55", Refusal.GAME_OVER)

    def test_claim_below_the_target(self) -> None:
        """The same claim with 6 + 1 = 7 under bingo's target of 8 lets the deal go on."""
        deal = fill_deal("bingo", SIX_DOUBLES, CLAIM_REPLY, "61", score=(6, 0))
        play(deal, "66* 43")
        assert deal.score == [7, 0]
        assert deal.end is None and not deal.match_over

    @pytest.mark.parametrize(("preset", "score"), [("bingo", (0, 7)), ("bingo-classic", (2, 6))])
    def test_bingo_bonus_wins_the_match(self, preset: str, score: tuple[int, int]) -> None:
        """The bingo bonus reaching the target (8 in bingo, 7 in bingo-classic) ends the match at once."""
        deal = fill_deal(preset, "55", "00", "52", score=score)
        play(deal, "55 00")
        assert deal.score == [score[0], score[1] + 1]
        assert deal.end is DealEnd.MATCH_WON
        assert deal.awards == [Award(1, 1, Reason.BINGO_TAKES_TRUMP_DOUBLE)]
