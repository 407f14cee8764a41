"""Whole Bingo deals designed by hand, with every result computed by hand from RULES.md sections 1 and 4.

Each deal gives the two starting hands, the 14 tiles of the reserve in drawing
order (the last one is the trump indicator, whose higher end, blank = 7, is
the trump suit), the first seat and the actions. The comments carry the
arithmetic: ``T3`` is the third trick, ``P0``/``P1`` are the seats' points.

Tile points used below (RULES.md 1.1): the trump double 28; ``[0|0]`` 14 when
blanks are not trumps; ``[6|4]`` and ``[3|0]`` 10; another double its pips
(``[5|5]`` 10); another trump its pips with blank = 7; anything else 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from engine import Action, Award, BingoDeal, Deal, DealEnd, Kind, Reason, Tile
from tests.engine.helpers import check_invariants, deal_from, play


@dataclass(frozen=True)
class Script:
    """One hand-made deal and the results worked out by hand."""

    preset: str
    hands: tuple[str, str]
    stock: str
    first: int
    actions: str
    trump: int
    points: tuple[int, int]
    tricks: tuple[int, int]
    game_points: tuple[int, int]
    end: DealEnd
    awards: tuple[Award, ...]
    score: tuple[int, int] = (0, 0)

    def start(self) -> BingoDeal:
        deal = deal_from(self.preset, self.hands, self.stock, self.first, score=self.score)
        assert isinstance(deal, BingoDeal)
        return deal

    def played(self, upto: int | None = None) -> BingoDeal:
        """The deal after its first ``upto`` actions (all of them by default)."""
        deal = self.start()
        play(deal, " ".join(self.actions.split()[:upto]))
        return deal


DEALS: dict[str, Script] = {
    # bingo: seat 0 closes before trick 1 and wins every trick: no-trick, 3 game points.
    # Trump 5 (indicator 52). Trumps: [0|0] and every tile with a five.
    # T1 X, 00 (bingo) vs 21 (seat 1 has no trump: any)     P0 = 14 + 0 = 14
    # T2 55 (trump double) vs 31                           P0 = 14 + 28 = 42
    # T3 65 (trump, 6+5) vs 32                             P0 = 42 + 11 = 53
    # T4 66 (double, 12 pips) vs 61 (the only six: must follow suit, 7 pips)  P0 = 53 + 12 = 65
    # T5 64 vs 43 (no six left: follow the lower half, a four; 41 or 43, not 10)  P0 = 65 + 10 = 75 >= 70
    # Closed by the winner, seat 1 took no trick: 3 (no_trick).
    "bingo-close-no-trick": Script(
        preset="bingo",
        hands=("00 55 65 54 66 64 30", "61 43 41 32 31 21 10"),
        stock="11 20 22 33 40 42 44 50 51 53 60 62 63 52",
        first=0,
        actions="X 00 21 55 31 65 32 66 61 64 43",
        trump=5,
        points=(75, 0),
        tricks=(5, 0),
        game_points=(3, 0),
        end=DealEnd.REACHED_GOAL,
        awards=(Award(0, 3, Reason.NO_TRICK),),
    ),
    # bingo: seat 1 closes before trick 1 and fails; seat 0 reaches 70: 3 (penalty) + 1 = 4.
    # Trump 0 (indicator 20: its blank counts 7, higher than the 2). Trumps: every tile with a blank.
    # T1 X, 65 vs 64 (seat 0 must follow sixes: 66 or 64, 60 is a trump); 11 > 10 pips   P1 = 0 + 10 = 10
    # T2 21 vs 60 (no two, no one: any; a trump wins)      P0 = 13 (6 + blank 7)
    # T3 00 (bingo and trump double) vs 31                 P0 = 13 + 28 = 41
    # T4 50 (trump 5 + 7) vs 32                            P0 = 41 + 12 = 53
    # T5 66 vs 42                                          P0 = 53 + 12 = 65
    # T6 55 vs 53 (must follow fives; 8 < 10 pips)         P0 = 65 + 10 = 75 >= 70
    # Closer failed, closed before trick 1 although he took a trick: 3; seat 0 reached 70: +1.
    "bingo-failed-close-penalty": Script(
        preset="bingo",
        hands=("00 60 50 66 64 55 40", "65 21 31 32 42 43 53"),
        stock="10 11 22 30 33 41 44 51 52 54 61 62 63 20",
        first=1,
        actions="X 65 64 21 60 00 31 50 32 66 42 55 53",
        trump=0,
        points=(75, 10),
        tricks=(5, 1),
        game_points=(4, 0),
        end=DealEnd.REACHED_GOAL,
        awards=(Award(0, 3, Reason.CLOSER_FAILED_PENALTY), Award(0, 1, Reason.REACHED_GOAL_AFTER_CLOSE)),
    ),
    # bingo: seat 0 closes after trick 2, claims three doubles and makes it; schneider: 2.
    # Trump 4 (indicator 42).
    # T1 65 (11 pips) vs 22 (4 pips)                       P1 = 0 + 4 = 4;  draws: 1 <- 30, 0 <- 50
    # T2 31 vs 43 (trump)                                  P0 = 0 + 7 = 7;  draws: 0 <- 51, 1 <- 53
    # T3 X, 66* claims 66 55 44 (3 doubles = 40 points) vs 61 (seat 1's only six)
    #                                                      P0 = 7 + 12 + 0 + 40 = 59
    # T4 44 (trump double) vs 52 (seat 1 has no trump: any)  P0 = 59 + 28 = 87 >= 70
    # Closed by the winner; seat 1 took a trick and has 4 < 20: 2 (schneider).
    "bingo-close-claim-schneider": Script(
        preset="bingo",
        hands=("66 55 44 43 22 62 10", "65 31 61 52 32 21 20"),
        stock="30 50 51 53 00 11 33 40 41 54 60 63 64 42",
        first=1,
        actions="65 22 31 43 X 66* 61 44 52",
        trump=4,
        points=(87, 4),
        tricks=(3, 1),
        game_points=(2, 0),
        end=DealEnd.REACHED_GOAL,
        awards=(Award(0, 2, Reason.SCHNEIDER),),
    ),
    # bingo at 7:3 (target 8): a won claim of six doubles is 1 game point at once and wins the match.
    # Trump 6 (indicator 63). T1 66* claims 66 55 44 33 22 11 (6 doubles: 0 points, 1 game point)
    # vs 62 (trump): P0 = 28 + 8 = 36. The score becomes 8:3 and the deal stops there.
    "bingo-six-doubles-win-match": Script(
        preset="bingo",
        hands=("66 55 44 33 22 11 65", "62 61 54 53 43 42 41"),
        stock="00 10 20 21 30 31 32 40 50 51 52 60 64 63",
        first=0,
        actions="66* 62",
        trump=6,
        points=(36, 0),
        tricks=(1, 0),
        game_points=(1, 0),
        end=DealEnd.MATCH_WON,
        awards=(Award(0, 1, Reason.CLAIM, claimed=6),),
        score=(7, 3),
    ),
    # bingo-classic: played to empty hands, nobody reaches 70: no game points. Seat 0 picks the hidden tile.
    # Trump 3 (indicator 32). Oracle for trump 3: 131, so 69 + 62 must come out.
    # Open reserve (any reply):
    # T1 11 (2 pips) vs 21 (3 pips)            P1 = 2          draws: 1 <- 20, 0 <- 40
    # T2 22 (4) vs 52 (7)                      P0 = 4          draws: 0 <- 41, 1 <- 42
    # T3 10 (1+7 = 8) vs 20 (2+7 = 9)          P1 = 2          draws: 1 <- 50, 0 <- 44
    # T4 51 (6) vs 61 (7)                      P0 = 4          draws: 0 <- 00, 1 <- 30
    # T5 00 (bingo, 14) vs 30 (10)             P0 = 4 + 24 = 28  draws: 0 <- 31, 1 <- 63
    # T6 41 vs 63 (trump, 9)                   P1 = 2 + 9 = 11   draws: 1 <- 43, 0 <- 53
    # T7 42 (6) vs 40 (4+7 = 11)               seat 0 wins and chooses: H takes 33, seat 1 gets 32.
    # Follow rules with must_beat from here:
    # T8 33 (trump double) vs 32 (a trump is due: 43 or 32)   P0 = 28 + 28 + 5 = 61
    # T9 31 (4) vs 43 (the only trump, 7 beats 4)             P1 = 11 + 4 + 7 = 22
    # T10 50 (leads blanks, 12 pips) vs 55 (no blank: any)    P1 = 22 + 10 = 32
    # T11 60 (13 pips) vs 66 (12 pips)                         P1 = 32 + 12 = 44
    # T12 54 vs 65 (the only non-trump five, and it beats)    P0 = 61
    # T13 44 (8) vs 64 (must beat: 10 pips)                    P1 = 44 + 8 + 10 = 62
    # T14 62 vs 53 (trump)                                      P0 = 61 + 8 = 69
    # Tricks 7:7, 69 + 62 = 131; not closed, nobody reached 70: no game points.
    "classic-empty-hands-hidden": Script(
        preset="bingo-classic",
        hands=("66 65 61 55 52 11 10", "64 62 60 54 51 22 21"),
        stock="20 40 41 42 50 44 00 30 31 63 43 53 33 32",
        first=0,
        actions="11 21 22 52 10 20 51 61 00 30 41 63 42 40 H 33 32 31 43 50 55 60 66 54 65 44 64 62 53",
        trump=3,
        points=(69, 62),
        tricks=(7, 7),
        game_points=(0, 0),
        end=DealEnd.HANDS_EMPTY,
        awards=(),
    ),
    # bingo-classic: a won claim with bingo among the doubles (+10); seat 1 at 26 < 30: schneider.
    # Trump 6 (indicator 61).
    # T1 65 (trump 11) vs 41                   P1 = 11         draws: 1 <- 20, 0 <- 50
    # T2 33 (6 pips) vs 42 (6 pips): equal, the leader wins   P1 = 11 + 6 = 17   draws: 1 <- 30, 0 <- 31
    # T3 63 (trump 9) vs 52                    P1 = 17 + 9 = 26   draws: 1 <- 32, 0 <- 40
    # T4 21 (3) vs 50 (5+7 = 12)               P0 = 0             draws: 0 <- 51, 1 <- 53
    # T5 00* claims 00 55 44 11 (4 doubles = 50, bingo among them +10) vs 43
    #                                          P0 = 14 + 0 + 50 + 10 = 74 >= 70
    # Seat 1 took tricks and has 26 < 30 (bingo-classic threshold): 2 (schneider).
    "classic-claim-with-bingo": Script(
        preset="bingo-classic",
        hands=("00 55 44 11 41 42 52", "65 63 33 22 43 21 10"),
        stock="20 50 30 31 32 40 51 53 54 60 62 64 66 61",
        first=1,
        actions="65 41 33 42 63 52 21 50 00* 43",
        trump=6,
        points=(74, 26),
        tricks=(2, 3),
        game_points=(2, 0),
        end=DealEnd.REACHED_GOAL,
        awards=(Award(0, 2, Reason.SCHNEIDER),),
    ),
    # bingo-classic: seat 1 takes the indicator (the trump double 22) and reaches 70; seat 0 at 40: 1.
    # Trump 2 (indicator 22).
    # T1 11 (2) vs 10 (8)                      P0 = 2          draws: 0 <- 00, 1 <- 62
    # T2 66 (12) vs 60 (13)                    P1 = 12         draws: 1 <- 52, 0 <- 20
    # T3 31 (4) vs 41 (5)                      P0 = 2          draws: 0 <- 21, 1 <- 42
    # T4 55 (10) vs 65 (11)                    P1 = 12 + 10 = 22  draws: 1 <- 44, 0 <- 32
    # T5 51 (6) vs 53 (8)                      P0 = 2          draws: 0 <- 33, 1 <- 30
    # T6 43 (7) vs 54 (9)                      P1 = 22         draws: 1 <- 40, 0 <- 50
    # T7 63 (9) vs 61 (7)                      seat 1 wins and chooses: I takes 22, seat 0 gets 64.
    # Follow rules with must_beat from here:
    # T8 22 (trump double) vs 21 (a trump is due)     P1 = 22 + 28 + 3 = 53
    # T9 62 (trump 8) vs 32 (trump 5)                 P1 = 53 + 8 + 5 = 66
    # T10 44 (8) vs 64 (the only four, and it beats)  P0 = 2 + 8 + 10 = 20
    # T11 00 (bingo) vs 42 (a trump is due)           P0 = 20 + 14 + 6 = 40
    # T12 33 (6) vs 30 (the only three, 3+7 beats)    P1 = 66 + 6 + 10 = 82 >= 70
    # Not closed; seat 0 took tricks and has 40 >= 30: 1 (reached_goal).
    "classic-indicator-taken": Script(
        preset="bingo-classic",
        hands=("66 55 61 53 43 41 10", "65 63 60 54 51 31 11"),
        stock="00 62 52 20 21 42 44 32 33 30 40 50 64 22",
        first=1,
        actions="11 10 66 60 31 41 55 65 51 53 43 54 63 61 I 22 21 62 32 44 64 00 42 33 30",
        trump=2,
        points=(40, 82),
        tricks=(5, 7),
        game_points=(0, 1),
        end=DealEnd.REACHED_GOAL,
        awards=(Award(1, 1, Reason.REACHED_GOAL),),
    ),
    # bingo-domino: seat 0 closes before trick 1, takes tricks, and the tiles run out: 2 (no penalty).
    # Trump 4 (indicator 43).
    # T1 X, 66 vs 44 (no six: a trump is due, the trump double)   P1 = 12 + 28 = 40
    # T2 55 (10) vs 65 (the only five, 11 pips)                    P0 = 10
    # T3 63 vs 11 (no six, no trump: any)                          P0 = 10 + 2 = 12
    # T4 62 vs 22                                                  P0 = 12 + 4 = 16
    # T5 33 (6) vs 53 (the only three, 8 pips)                     P1 = 40 + 6 = 46
    # T6 52 vs 32; T7 51 vs 31                                     P1 = 46
    # Hands empty, nobody reached 70, the closer took 3 tricks: seat 1 gets 2 (closer_failed).
    "domino-failed-close-runs-out": Script(
        preset="bingo-domino",
        hands=("66 65 63 62 33 32 31", "55 53 52 51 22 44 11"),
        stock="00 10 20 21 30 40 41 42 50 54 60 61 64 43",
        first=0,
        actions="X 66 44 55 65 63 11 62 22 33 53 52 32 51 31",
        trump=4,
        points=(16, 46),
        tricks=(3, 4),
        game_points=(0, 2),
        end=DealEnd.HANDS_EMPTY,
        awards=(Award(1, 2, Reason.CLOSER_FAILED),),
    ),
    # bingo-domino: seat 0 closes and takes no trick; seat 1 reaches 70 on the last trick: 3 + 1 = 4.
    # Trump 1 (indicator 11; [1|0] would name blanks).
    # T1 X, 62 vs 66 (sixes are due: 66 or 64)   P1 = 12
    # T2 00 (bingo, 14) vs 20 (no trump: any)    P1 = 12 + 14 = 26
    # T3 61 (trump 7) vs 43                      P1 = 26 + 7 = 33
    # T4 51 (trump 6) vs 22 (4)                  P1 = 33 + 6 + 4 = 43
    # T5 55 (10) vs 53 (fives are due: 53 or 52) P1 = 43 + 10 = 53
    # T6 64 (10) vs 33 (6; no six, no trump)     P1 = 53 + 10 + 6 = 69
    # T7 30 (10) vs 52                           P1 = 69 + 10 = 79 >= 70, hands empty too
    # The closer took no trick: 3 (penalty); seat 1 reached 70 himself: +1.
    "domino-failed-close-no-trick": Script(
        preset="bingo-domino",
        hands=("62 53 52 43 22 33 20", "00 61 51 66 55 64 30"),
        stock="10 21 31 32 40 41 42 44 50 54 60 63 65 11",
        first=0,
        actions="X 62 66 00 20 61 43 51 22 55 53 64 33 30 52",
        trump=1,
        points=(0, 79),
        tricks=(0, 7),
        game_points=(0, 4),
        end=DealEnd.REACHED_GOAL,
        awards=(Award(1, 3, Reason.CLOSER_FAILED_PENALTY), Award(1, 1, Reason.REACHED_GOAL_AFTER_CLOSE)),
    ),
    # bingo-domino: a lost claim, bingo takes the trump double (1 at once), then 70 with seat 1 at 33: 1.
    # Trump 5 (indicator 53).
    # T1 66* claims 66 33 (2 doubles) vs 51 (trump): the claim is lost   P1 = 12 + 6 = 18
    #                                          draws: 1 <- 10, 0 <- 00
    # T2 55 (trump double) vs 00 (bingo): bingo wins, +1 game point      P0 = 28 + 14 = 42
    #                                          draws: 0 <- 50, 1 <- 20
    # T3 64 (10 pips) vs 43 (7)                P0 = 42 + 10 = 52   draws: 0 <- 31, 1 <- 11
    # T4 30 (3+7 = 10) vs 42 (6)               P0 = 52 + 10 = 62   draws: 0 <- 60, 1 <- 22
    # T5 33 (6) vs 54 (trump 9)                P1 = 18 + 6 + 9 = 33   draws: 1 <- 61, 0 <- 63
    # T6 21 (3) vs 62 (8)                      P0 = 62             draws: 0 <- 44, 1 <- 52
    # T7 50 (trump 5+7 = 12) vs 32             P0 = 62 + 12 = 74 >= 70
    # Seat 1 took tricks and has 33 >= 20: 1 (reached_goal), after the bingo bonus of 1.
    "domino-lost-claim-bingo-bonus": Script(
        preset="bingo-domino",
        hands=("66 33 64 30 62 41 40", "55 51 54 43 42 32 21"),
        stock="10 00 50 20 31 11 60 22 61 63 44 52 65 53",
        first=0,
        actions="66* 51 55 00 64 43 30 42 33 54 21 62 50 32",
        trump=5,
        points=(74, 33),
        tricks=(5, 2),
        game_points=(2, 0),
        end=DealEnd.REACHED_GOAL,
        awards=(Award(0, 1, Reason.BINGO_TAKES_TRUMP_DOUBLE), Award(0, 1, Reason.REACHED_GOAL)),
    ),
}

NAMES = list(DEALS)


def tiles(notations: str) -> set[Tile]:
    return {Tile.parse(t) for t in notations.split()}


def hand(deal: BingoDeal, seat: int) -> set[Tile]:
    return set(deal.view(seat).hand)


def legal_tiles(deal: BingoDeal) -> set[Tile]:
    return {a.tile for a in deal.legal_actions() if a.kind is Kind.PLAY}


class TestScriptedDeals:
    """Each hand-made deal ends exactly as worked out by hand."""

    def test_every_preset_is_covered(self) -> None:
        """The scripted deals spread over the three Bingo presets."""
        assert {s.preset for s in DEALS.values()} == {"bingo", "bingo-classic", "bingo-domino"}

    @pytest.mark.parametrize("name", NAMES)
    def test_trump_suit(self, name: str) -> None:
        """The trump suit is the indicator's higher end, a blank counting 7."""
        assert DEALS[name].start().trump == DEALS[name].trump

    @pytest.mark.parametrize("name", NAMES)
    def test_points(self, name: str) -> None:
        """Captured tile points plus scored claims come out as computed."""
        assert tuple(DEALS[name].played().points) == DEALS[name].points

    @pytest.mark.parametrize("name", NAMES)
    def test_tricks(self, name: str) -> None:
        """Each seat took the tricks counted by hand."""
        assert tuple(DEALS[name].played().tricks) == DEALS[name].tricks

    @pytest.mark.parametrize("name", NAMES)
    def test_game_points(self, name: str) -> None:
        """The game points of the deal, bonuses included, are as computed."""
        script = DEALS[name]
        deal = script.played()
        assert deal.game_points == script.game_points
        expected_score = (script.score[0] + script.game_points[0], script.score[1] + script.game_points[1])
        assert tuple(deal.score) == expected_score

    @pytest.mark.parametrize("name", NAMES)
    def test_end_and_awards(self, name: str) -> None:
        """The deal ends the expected way, with the expected reasons in order."""
        script = DEALS[name]
        deal = script.played()
        assert deal.end is script.end
        assert tuple(deal.awards) == script.awards
        assert deal.legal_actions() == []

    @pytest.mark.parametrize("name", NAMES)
    def test_ends_on_its_last_action(self, name: str) -> None:
        """The deal is still running before its last action."""
        script = DEALS[name]
        assert script.played(len(script.actions.split()) - 1).end is None

    @pytest.mark.parametrize("name", NAMES)
    def test_invariants_after_every_action(self, name: str) -> None:
        """RULES.md section 3 holds after each action of the script."""
        script = DEALS[name]
        deal = script.start()
        check_invariants(deal)
        for text in script.actions.split():
            deal.play(text)
            check_invariants(deal)

    @pytest.mark.parametrize("name", NAMES)
    def test_record(self, name: str) -> None:
        """The deal record carries the scripted deal and replays to the same state through JSON."""
        script = DEALS[name]
        deal = script.played()
        record = json.loads(json.dumps(deal.record()))
        assert record["preset"] == script.preset
        assert record["stock"] == script.stock.split()
        assert record["first"] == script.first
        assert record["actions"] == script.actions.split()
        assert record["points"] == list(script.points)
        assert record["tricks"] == list(script.tricks)
        assert record["game_points"] == list(script.game_points)
        assert Deal.from_record(record) == deal


class TestClose:
    """Closing stops the drawing and brings in the follow rules at once."""

    def test_close_hides_indicator_and_stops_drawing(self) -> None:
        """After X the indicator is face down and nobody draws from the 10 tiles left."""
        script = DEALS["bingo-close-claim-schneider"]
        deal = script.played(5)
        view = deal.view(1)
        assert view.closed_by == 0
        assert view.indicator is None
        assert view.reserve == 10
        assert Action.parse("X") not in deal.legal_actions()
        deal.play("66*")
        deal.play("61")
        assert deal.view(0).reserve == 10
        assert deal.hands[0].bit_count() == 6

    def test_lower_half_after_close(self) -> None:
        """bingo: void in the led suit, seat 1 must reply with the led tile's lower end."""
        deal = DEALS["bingo-close-no-trick"].played(10)
        assert deal.lead == Tile.parse("64").index
        assert hand(deal, 1) == tiles("43 41 10")
        assert legal_tiles(deal) == tiles("43 41")

    def test_follow_suit_after_close(self) -> None:
        """bingo: seat 0 must follow the led six with a non-trump six."""
        deal = DEALS["bingo-failed-close-penalty"].played(2)
        assert legal_tiles(deal) == tiles("66 64")

    def test_trump_when_void_after_close(self) -> None:
        """bingo-domino: void in the led suit, seat 1 must trump."""
        deal = DEALS["domino-failed-close-runs-out"].played(2)
        assert legal_tiles(deal) == tiles("44")


class TestClaims:
    """Claims are shown to the table and score only when the declarer wins the trick."""

    def test_claim_shown_while_trick_open(self) -> None:
        """After 66* the other seat sees the three claimed doubles, not yet scored."""
        deal = DEALS["bingo-close-claim-schneider"].played(6)
        (claim,) = deal.view(1).claims
        assert claim.seat == 0
        assert set(claim.doubles) == tiles("66 55 44")
        assert claim.scored is None

    @pytest.mark.parametrize(
        ("name", "doubles", "scored", "claim_points"),
        [
            ("bingo-close-claim-schneider", "66 55 44", True, 40),
            ("classic-claim-with-bingo", "00 55 44 11", True, 60),
            ("bingo-six-doubles-win-match", "66 55 44 33 22 11", True, 0),
            ("domino-lost-claim-bingo-bonus", "66 33", False, 0),
        ],
    )
    def test_claim_outcome(self, name: str, doubles: str, scored: bool, claim_points: int) -> None:
        """The claim lists every double in hand and scores its table value only when won."""
        deal = DEALS[name].played()
        (claim,) = deal.view(None).claims
        assert set(claim.doubles) == tiles(doubles)
        assert claim.scored is scored
        assert deal.claim_points_of(claim.seat) == claim_points


class TestBingoBonus:
    """Bingo taking the trump double gives its owner 1 game point at once."""

    def test_bonus_given_when_trick_is_won(self) -> None:
        """The score moves to 1:0 on trick 2, long before the deal ends."""
        deal = DEALS["domino-lost-claim-bingo-bonus"].played(4)
        assert deal.end is None
        assert tuple(deal.score) == (1, 0)
        assert deal.awards == [Award(0, 1, Reason.BINGO_TAKES_TRUMP_DOUBLE)]
        assert deal.points == [42, 18]


class TestLastPair:
    """bingo-classic: the winner of trick 7 chooses between the hidden tile and the indicator."""

    @pytest.mark.parametrize(
        ("name", "chooser", "action", "gets", "other_gets"),
        [
            ("classic-empty-hands-hidden", 0, "H", "33", "32"),
            ("classic-indicator-taken", 1, "I", "22", "64"),
        ],
    )
    def test_choice(self, name: str, chooser: int, action: str, gets: str, other_gets: str) -> None:
        """Only I and H are legal for the trick winner; the choice hands out the last pair."""
        deal = DEALS[name].played(14)
        assert deal.choosing
        assert deal.turn == chooser
        assert set(deal.legal_actions()) == {Action.parse("I"), Action.parse("H")}
        assert deal.view(chooser).choosing
        assert deal.view(chooser).reserve == 2
        deal.play(action)
        assert Tile.parse(gets) in hand(deal, chooser)
        assert Tile.parse(other_gets) in hand(deal, 1 - chooser)
        assert deal.view(0).reserve == 0
        assert deal.turn == chooser
        assert len(hand(deal, 0)) == len(hand(deal, 1)) == 7
