"""42 for four (RULES.md section 5): a referee written from the section alone, the rules as tables, views that
never show a partner's hand, the computer at every level (legal, honest, stronger level by level), the CLI."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import Action, Deal, DealEnd, IllegalAction, Match, Reason, Refusal, Tile
from engine.ai import LEVELS, choose
from engine.arena import arena
from engine.fortytwo import Phase
from engine.selfplay import replay, selfplay
from engine.texas import TexasDeal, TexasView, trick_winner
from engine.tiles import NOTATION, TILES
from tests.engine.helpers import check_invariants_texas

ROOT = Path(__file__).resolve().parents[2]

# -- the referee: section 5 read again, sharing no code with engine/texas.py ------------------------------------

COUNT = {(5, 5): 10, (6, 4): 10, (4, 1): 5, (3, 2): 5, (5, 0): 5}
"""5.1 (as 2.1): the count tiles, 35 points."""


def tile(text: str) -> tuple[int, int]:
    return int(text[0]), int(text[1])


def is_trump(t: tuple[int, int], trumps: str) -> bool:
    """5.1: a suit's number makes a tile a trump; with doubles, every double; with follow-me, nothing."""
    if trumps == "D":
        return t[0] == t[1]
    if trumps == "F":
        return False
    return int(trumps) in t


def follows(t: tuple[int, int], lead: tuple[int, int], trumps: str) -> bool:
    """5.2.4: the led suit is trumps if a trump is led, else the lead's higher end; a trump belongs to trumps
    only, every other tile to its two numbers."""
    if is_trump(lead, trumps):
        return is_trump(t, trumps)
    return not is_trump(t, trumps) and lead[0] in t


def rank(t: tuple[int, int], suit: int) -> int:
    """2.1: in a suit the double is highest, the others by their other end."""
    if t[0] == t[1]:
        return 7
    return t[1] if t[0] == suit else t[0]


def winner_of(tiles: list[tuple[int, int]], trumps: str) -> int:
    """5.2.4: the highest trump wins, else the highest tile of the led suit (doubles as trumps: by number)."""
    lead = tiles[0]
    trumped = [i for i, t in enumerate(tiles) if is_trump(t, trumps)]
    if trumped:
        if trumps == "D":
            return max(trumped, key=lambda i: tiles[i][0])
        return max(trumped, key=lambda i: rank(tiles[i], int(trumps)))
    suit = lead[0]
    return max((i for i, t in enumerate(tiles) if follows(t, lead, trumps)), key=lambda i: rank(tiles[i], suit))


def bid_allowed(value: int, highest: int) -> bool:
    """5.2.2: points 30..41 over the highest, 42 or 84 while no mark was bid, then one mark more each time."""
    if highest < 42:
        return (highest < value <= 41 and value >= 30) or value in (42, 84)
    return value == highest + 42


def referee(record: dict[str, Any]) -> list[str]:
    """What is wrong with one deal record of ``42x4``, by section 5 alone (empty: nothing)."""
    wrong: list[str] = []
    if (record["game"], record["preset"], record["stock"]) != ("42x4", "texas", []):
        wrong.append("not a 42x4 record of four hands and no stock")
    hands = [{tile(t) for t in h} for h in record["hands"]]
    if len(hands) != 4 or any(len(h) != 7 for h in hands) or len(set().union(*hands)) != 28:
        return [*wrong, "not four hands of seven holding all 28 tiles"]
    actions = list(record["actions"])
    first = record["first"]
    highest, declarer = 0, -1
    for i in range(4):
        if not actions:
            return [*wrong, "the bidding does not end"]
        a = actions.pop(0)
        seat = (first + i) % 4
        if a == "P":
            continue
        if not a.startswith("B") or not bid_allowed(int(a[1:]), highest):
            return [*wrong, f"bid {a} of seat {seat} over {highest}"]
        highest, declarer = int(a[1:]), seat
    points, tricks, gp = [0, 0], [0, 0], [0, 0]
    if declarer < 0:
        if actions:
            wrong.append("all passed but the deal goes on")
    else:
        a = actions.pop(0) if actions else ""
        if a[:1] != "T" or a[1:] not in ("0", "1", "2", "3", "4", "5", "6", "D", "F"):
            return [*wrong, f"trumps {a!r}"]
        trumps = a[1:]
        ours, theirs = declarer % 2, 1 - declarer % 2
        leader = declarer
        decided: str | None = None
        while decided is None:
            trick: list[tuple[int, int]] = []
            for i in range(4):
                seat = (leader + i) % 4
                if not actions:
                    return [*wrong, "the deal stops before its outcome is certain"]
                t = tile(actions.pop(0))
                if t not in hands[seat]:
                    return [*wrong, f"seat {seat} plays {t}, not in its hand"]
                if (
                    trick
                    and not follows(t, trick[0], trumps)
                    and any(follows(u, trick[0], trumps) for u in hands[seat])
                ):
                    return [*wrong, f"seat {seat} does not follow {trick[0]} with {t}"]
                hands[seat].discard(t)
                trick.append(t)
            won = (leader + winner_of(trick, trumps)) % 4
            tricks[won % 2] += 1
            points[won % 2] += 1 + sum(COUNT.get(t, 0) for t in trick)
            leader = won
            # 5.2.5: stop as soon as the outcome is certain.
            if highest < 42:
                if points[ours] >= highest:
                    decided = "made"
                elif points[theirs] > 42 - highest:
                    decided = "set"
            elif tricks[theirs]:
                decided = "set"
            elif tricks[ours] == 7:
                decided = "made"
        if actions:
            wrong.append(f"actions after the outcome was certain: {actions}")
        marks = 1 if highest < 42 else highest // 42
        gp[ours if decided == "made" else theirs] = marks
    for field, mine in (("points", points), ("tricks", tricks), ("game_points", gp)):
        if record[field] != mine:
            wrong.append(f"{field} {record[field]}, the referee counts {mine}")
    return wrong


def referee_matches(lines: list[str]) -> tuple[int, list[str]]:
    """Every record checked, and every match: deals in order, the shake passing on, marks carried to 7."""
    wrong: list[str] = []
    previous: dict[str, Any] | None = None
    matches = 0
    for n, line in enumerate(lines, 1):
        record = json.loads(line)
        wrong.extend(f"line {n}: {w}" for w in referee(record))
        before = [m - g for m, g in zip(record["match_score"], record["game_points"], strict=True)]
        if record["deal"] == 1:
            matches += 1
            if previous is not None and max(previous["match_score"]) < 7:
                wrong.append(f"line {n}: a match ended at {previous['match_score']}")
            if before != [0, 0]:
                wrong.append(f"line {n}: a match starts at {before}")
        else:
            assert previous is not None
            if record["deal"] != previous["deal"] + 1 or record["seed"] != previous["seed"]:
                wrong.append(f"line {n}: not the next deal")
            if before != previous["match_score"]:
                wrong.append(f"line {n}: starts at {before}, the last deal ended at {previous['match_score']}")
            if record["first"] != (previous["first"] + 1) % 4:
                wrong.append(f"line {n}: the shake does not pass to the next seat")
        previous = record
    return matches, wrong


class TestReferee:
    def test_300_selfplay_matches_agree_with_the_referee(self) -> None:
        """300 random matches through the command line's own self-play: every record agrees with section 5."""
        log = io.StringIO()
        figures = selfplay("texas", 300, seed=42, log=log)
        lines = log.getvalue().splitlines()
        matches, wrong = referee_matches(lines)
        assert (matches, wrong) == (300, [])
        assert figures["deals"] == len(lines)
        assert replay(lines) == []

    def test_the_referee_finds_a_wrong_record(self) -> None:
        """A record with a trick's count moved to the other team, or with one action more, is refused."""
        log = io.StringIO()
        selfplay("texas", 5, seed=3, log=log)
        played = next(json.loads(x) for x in log.getvalue().splitlines() if len(json.loads(x)["actions"]) > 8)
        assert referee(played) == []
        moved = dict(played, points=played["points"][::-1])
        assert referee(moved)
        longer = dict(played, actions=[*played["actions"], "00"])
        assert referee(longer)


# -- the rules as tables -------------------------------------------------------------------------------------


def deal_of(hands: list[str], first: int = 0, score: tuple[int, int] = (0, 0)) -> TexasDeal:
    """A deal from four hands written as ``"66 65 ..."``."""
    record = {
        "game": "42x4",
        "preset": "texas",
        "hands": [h.split() for h in hands],
        "stock": [],
        "first": first,
        "actions": [],
        "points": [0, 0],
        "tricks": [0, 0],
        "game_points": [0, 0],
        "match_score": list(score),
    }
    deal = Deal.from_record(record)
    assert isinstance(deal, TexasDeal)
    return deal


HANDS = [
    "66 65 64 63 62 61 60",  # seat 0: every six
    "55 54 53 52 51 50 44",
    "43 42 41 40 33 32 31",
    "30 22 21 20 11 10 00",
]


def legal(deal: Deal) -> set[str]:
    return {a.notation() for a in deal.legal_actions()}


class TestBidding:
    def test_one_round_from_the_seat_after_the_shaker(self) -> None:
        deal = deal_of(HANDS, first=2)
        assert deal.shaker == 1 and deal.turn == 2
        assert legal(deal) == {*(f"B{b}" for b in range(30, 42)), "B42", "B84", "P"}
        deal.play("B31")
        assert deal.turn == 3
        assert legal(deal) == {*(f"B{b}" for b in range(32, 42)), "B42", "B84", "P"}
        deal.play("B42")
        assert legal(deal) == {"B84", "P"}
        deal.play("B84")
        assert legal(deal) == {"B126", "P"}
        with pytest.raises(IllegalAction) as refused:
            deal.play("B40")
        assert refused.value.reason is Refusal.BID_TOO_LOW
        deal.play("P")
        # The shaker spoke last: the declarer (seat 0, who bid 84) names trumps.
        assert deal.phase is Phase.TRUMPS and deal.turn == 0
        assert legal(deal) == {"T0", "T1", "T2", "T3", "T4", "T5", "T6", "TD", "TF"}

    def test_all_pass_is_shaken_again_by_the_next_shaker(self) -> None:
        match = Match.new("texas", 5)
        first = match.deal.first
        for _ in range(4):
            finished = match.play("P")
        assert finished is not None and finished.end is DealEnd.ALL_PASSED
        assert finished.record()["actions"] == ["P", "P", "P", "P"] and finished.game_points == (0, 0)
        assert match.deal.number == 2 and match.deal.first == (first + 1) % 4
        assert match.deal.start_hands != finished.start_hands

    def test_no_bid_out_of_turn(self) -> None:
        deal = deal_of(HANDS, first=0)
        with pytest.raises(IllegalAction) as refused:
            deal.play("B30", seat=1)
        assert refused.value.reason is Refusal.NOT_YOUR_TURN


def bid_and_name(deal: TexasDeal, bid: str, declarer: int, trumps: str) -> None:
    """Everyone passes but ``declarer``, who bids ``bid`` and names ``trumps``."""
    for i in range(4):
        deal.play(bid if (deal.first + i) % 4 == declarer else "P")
    deal.play(trumps)


class TestTricks:
    @pytest.mark.parametrize(
        ("trumps", "tiles", "winner"),
        [
            ("T6", "53 55 66 44", 2),  # a six trumps a five led
            ("T6", "53 55 52 44", 1),  # the double of the led suit is highest
            ("T3", "53 55 52 44", 0),  # [5|3] led with threes trumps: a trump led, the only trump
            ("TD", "53 55 52 44", 1),  # doubles trumps: [5|5] is a trump
            ("TD", "44 55 11 53", 1),  # doubles led: the highest double wins
            ("TF", "53 52 66 54", 3),  # follow-me: fives led, [5|4] highest five that is not the double
            ("TF", "33 63 30 31", 0),  # follow-me: a double led calls its number and is its highest
            ("T0", "61 64 60 65", 2),  # [6|0] is a blank, a trump
        ],
    )
    def test_who_wins(self, trumps: str, tiles: str, winner: int) -> None:
        assert winner_of([tile(t) for t in tiles.split()], trumps[1:]) == winner
        indices = [NOTATION.index(t) for t in tiles.split()]
        assert trick_winner(indices, Action.parse(trumps).value) == winner

    def test_follow_suit_but_no_obligation_to_trump(self) -> None:
        deal = deal_of(["66 65 64 63 62 61 60", "55 54 53 52 51 50 44", "43 42 41 40 33 32 31", "30 22 21 20 11 10 00"])
        bid_and_name(deal, "B30", 2, "T3")
        # Seat 2 leads [4|2]: fours are led; seat 3 has no four and may play anything, a trump or not.
        deal.play("42")
        assert legal(deal) == {"30", "22", "21", "20", "11", "10", "00"}  # the trump [3|0] may, not must
        deal.play("10")
        # Seat 0 holds [6|4], a four: it must follow.
        assert legal(deal) == {"64"}
        with pytest.raises(IllegalAction) as refused:
            deal.play("60")
        assert refused.value.reason is Refusal.MUST_FOLLOW_SUIT

    def test_a_set_point_bid_stops_at_once(self) -> None:
        """Bid 41: the defenders' first trick counts more than 42 - 41 = 1, and the bid is set then."""
        deal = deal_of(HANDS, first=0)
        bid_and_name(deal, "B41", 2, "T3")
        for t in ("41", "30", "64", "54"):
            deal.play(t)
        # Seat 3, void in fours, trumps with [3|0]: 1 + 5 + 10 = 16 to the defenders (team 1), in one trick.
        assert deal.end is DealEnd.DECIDED
        assert deal.awards[0].seat == 1 and deal.awards[0].reason is Reason.BID_SET
        assert deal.points == [0, 16] and deal.game_points == (0, 1) and deal.score == [0, 1]

    def test_a_mark_bid_is_set_by_the_first_trick_lost(self) -> None:
        deal = deal_of(HANDS, first=3)
        bid_and_name(deal, "B84", 0, "T6")
        for t in ("60", "50", "40", "30"):
            deal.play(t)
        assert deal.end is None  # team 0 took it
        for t in ("61", "51", "41", "21"):
            deal.play(t)
        assert deal.end is None
        assert deal.tricks == [2, 0]

    def test_made_as_soon_as_the_points_are_counted(self) -> None:
        deal = deal_of(HANDS, first=0)
        bid_and_name(deal, "B30", 0, "T6")
        plays = [
            "66",
            "55",
            "43",
            "30",
            "65",
            "54",
            "42",
            "22",
            "64",
            "53",
            "41",
            "21",
            "63",
            "52",
            "40",
            "20",
            "62",
            "51",
            "33",
            "11",
        ]
        ended_at = None
        for n, t in enumerate(plays):
            deal.play(t)
            if deal.end is not None:
                ended_at = n
                break
        assert ended_at == 19 and deal.end is DealEnd.DECIDED and deal.points == [30, 0]
        assert deal.points[0] >= 30 and deal.awards == [deal.awards[0]]
        assert deal.awards[0].seat == 0 and deal.awards[0].reason is Reason.BID_MADE
        assert not deal.legal_actions()

    def test_marks_to_seven(self) -> None:
        match = Match.new("texas", 11)
        rng = random.Random(11)
        while not match.is_over:
            match.push_unchecked(rng.choice(match.legal_actions()))
        assert max(match.score) >= 7 and match.winner == (0 if match.score[0] >= 7 else 1)


# -- what a seat sees -----------------------------------------------------------------------------------------


def tiles_in(value: object) -> set[int]:
    if isinstance(value, Tile):
        return {value.index}
    if isinstance(value, tuple | list):
        return set().union(*(tiles_in(v) for v in value)) if value else set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(tiles_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    return set()


def positions(seed: int, matches: int = 1) -> Iterator[TexasDeal]:
    rng = random.Random(seed)
    for i in range(matches):
        match = Match.new("texas", seed * 100 + i)
        while not match.is_over:
            deal = match.deal
            assert isinstance(deal, TexasDeal)
            yield deal
            match.push_unchecked(rng.choice(match.legal_actions()))


class TestViews:
    def test_a_seat_sees_its_hand_and_the_table_never_another_hand(self) -> None:
        """At every position of random matches, each seat's view shows its own hand and played tiles only: of
        its partner's and its opponents' hands, only their sizes."""
        seen = 0
        for deal in positions(3, matches=4):
            played = deal.on_table()
            for trick in deal.history:
                for t in trick[1:-1]:
                    played |= 1 << t
            for seat in range(4):
                view = deal.view(seat)
                assert sorted(t.index for t in view.hand) == [t for t in range(28) if deal.hands[seat] >> t & 1]
                others = {t for s in range(4) if s != seat for t in range(28) if deal.hands[s] >> t & 1}
                fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view) if f.name != "hand"}
                assert not tiles_in(list(fields.values())) & others
                assert view.hand_sizes == tuple(h.bit_count() for h in deal.hands)
            table = deal.view(None)
            assert table.hand == ()
            check_invariants_texas(deal)
            seen += 1
        assert seen > 200


# -- the computer ----------------------------------------------------------------------------------------------


def twin(deal: TexasDeal, rng: random.Random) -> TexasDeal | None:
    """The same deal with the three other hands' unplayed tiles dealt again among them (sizes kept), replayed:
    None unless the seat to act sees exactly the same view (a void shown must stay a void)."""
    seat = deal.turn
    view = deal.view(seat)
    record = deal.record()
    played = {NOTATION[t] for trick in deal.history for t in trick[1:-1]} | {NOTATION[t] for t in deal.table}
    for _ in range(50):
        hidden = [t for s in range(4) if s != seat for t in record["hands"][s] if t not in played]
        shuffled = hidden[:]
        rng.shuffle(shuffled)
        relabel = dict(zip(hidden, shuffled, strict=True))
        copy = dict(
            record, hands=[h if s == seat else [relabel.get(t, t) for t in h] for s, h in enumerate(record["hands"])]
        )
        try:
            other = Deal.from_record(copy)
        except (IllegalAction, ValueError):
            continue
        assert isinstance(other, TexasDeal)
        if other.view(seat) == view and other.hands != deal.hands:
            return other
    return None


class TestComputer:
    @pytest.mark.parametrize("level", LEVELS)
    def test_legal_everywhere(self, level: str) -> None:
        rng = random.Random(1)
        asked = 0
        for n, deal in enumerate(positions(5)):
            if n % (5 if level == "hard" else 1):
                continue
            view = deal.view(deal.turn)
            assert choose(level, view, rng) in view.legal
            asked += 1
        assert asked >= 20

    def test_the_others_hands_scrambled_change_no_move(self) -> None:
        """Two deals that differ only in the tiles the seat cannot see (its partner's and its opponents' hands
        dealt again among them) give the seat the same view, and every level the same move."""
        rng = random.Random(2)
        compared = 0
        for n, deal in enumerate(positions(7, matches=3)):
            if compared >= 12:
                break
            if n % 3 or len(deal.legal_actions()) < 2:
                continue
            other = twin(deal, rng)
            if other is None:
                continue
            view = deal.view(deal.turn)
            for level in LEVELS:
                assert choose(level, view, random.Random(n)) == choose(level, other.view(deal.turn), random.Random(n))
            compared += 1
        assert compared >= 10

    def test_the_table_view_has_no_move(self) -> None:
        deal = Match.new("texas", 1).deal
        view = deal.view((deal.turn + 1) % 4)
        assert isinstance(view, TexasView) and not view.legal
        with pytest.raises(ValueError, match="no move"):
            choose("hard", view, random.Random(1))

    def test_each_level_beats_the_one_below(self) -> None:
        """Team against team, a few matches at a fixed seed (the arena's figures are docs/benchmarks.md's)."""
        assert arena("texas", "normal", "easy", 6, seed=1)["wins_a"] >= 5
        assert arena("texas", "hard", "normal", 3, seed=1)["wins_a"] >= 2


class TestCommandLine:
    def test_selfplay_and_arena(self, tmp_path: Path) -> None:
        log = tmp_path / "deals.jsonl"
        run = [sys.executable, "-m", "engine"]
        out = subprocess.run(
            [*run, "selfplay", "--game", "42x4", "--preset", "texas", "--matches", "3", "--log", str(log)],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert json.loads(out.stdout)["game"] == "42x4"
        records = [json.loads(x) for x in log.read_text().splitlines()]
        assert records and all(len(r["hands"]) == 4 and r["stock"] == [] for r in records)
        assert referee_matches(log.read_text().splitlines()) == (3, [])
        checked = subprocess.run([*run, "replay", str(log)], cwd=ROOT, capture_output=True, text=True, check=True)
        assert json.loads(checked.stdout)["ok"] is True
        duel = subprocess.run(
            [*run, "arena", "--game", "42x4", "--a", "normal", "--b", "easy", "--matches", "2"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        figures = json.loads(duel.stdout)
        assert (figures["game"], figures["preset"], figures["matches"]) == ("42x4", "texas", 2)

    def test_deal_from_a_key_and_four_seeds(self) -> None:
        """``deal --key`` with the four seats' seeds gives the deal the match's key and seeds give (four hands, no
        stock); two seeds for a table of four are refused."""
        from engine.fairness import deal_key, deal_secret

        key = bytes(range(32))
        seeds = ("ala", "", "ola", "ewa")
        run = [sys.executable, "-m", "engine", "deal", "--game", "42x4", "--key", key.hex(), "--deal", "2"]
        out = subprocess.run([*run, "--seeds", *seeds], cwd=ROOT, capture_output=True, text=True, check=True)
        facts = json.loads(out.stdout)
        secret = deal_secret(deal_key(key, seeds), 2)
        expected = Deal.from_secret(Match.new("texas", 1).rules, secret, 0)
        assert facts["secret"] == secret.hex() and facts["stock"] == []
        assert facts["hands"] == expected.record()["hands"] and len(facts["hands"]) == 4
        assert deal_key(key, seeds) != deal_key(key, seeds[:2])
        two = subprocess.run([*run, "--seeds", "a", "b"], cwd=ROOT, capture_output=True, text=True)
        assert two.returncode == 2 and "4 seeds" in two.stderr

    def test_review_and_play_in_the_terminal(self, tmp_path: Path) -> None:
        """The post-mortem reviews all four seats; a match against the computer in the terminal (move 1 each
        time) plays to its end as seat 2, the partner of seat 0."""
        log = tmp_path / "deals.jsonl"
        with log.open("w") as out_file:
            selfplay("texas", 1, seed=8, log=out_file)
        run = [sys.executable, "-m", "engine"]
        out = subprocess.run([*run, "review", str(log)], cwd=ROOT, capture_output=True, text=True, check=True)
        assert sorted(json.loads(x)["seat"] for x in out.stdout.splitlines()) == [0, 1, 2, 3]
        played = subprocess.run(
            [*run, "play", "--game", "42x4", "--seat", "2", "--level", "easy", "--seed", "4"],
            input="1\n" * 400, cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert "match over" in played.stdout and "your partner takes" in played.stdout


def test_every_tile_once() -> None:
    assert sorted(NOTATION) == sorted(t.notation() for t in TILES)
