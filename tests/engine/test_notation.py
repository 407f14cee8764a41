"""Notation of RULES.md section 4: tiles, actions and deal records, each with its parse/format round trip."""

from __future__ import annotations

import json
import random

import pytest

from engine import Action, Deal, Kind, Match, Tile
from tests.engine.helpers import deal_from, play

ALL_TILES = [f"{a}{b}" for a in range(7) for b in range(a + 1)]


class TestTile:
    """``Tile.parse`` and ``Tile.notation`` are inverses on the 28 tiles."""

    def test_twenty_eight_tiles(self) -> None:
        """The set has 28 distinct tiles, higher end first."""
        parsed = {Tile.parse(t) for t in ALL_TILES}
        assert len(parsed) == 28
        assert all(t.high >= t.low for t in parsed)

    @pytest.mark.parametrize("text", ALL_TILES)
    def test_round_trip(self, text: str) -> None:
        """Parsing a tile and writing it again gives the same two digits."""
        tile = Tile.parse(text)
        assert tile.notation() == str(tile) == text
        assert (tile.high, tile.low) == (int(text[0]), int(text[1]))
        assert Tile.from_index(tile.index) == tile

    @pytest.mark.parametrize("text", ["42", "24"])
    def test_either_order(self, text: str) -> None:
        """A tile may be typed lower end first; it is written higher end first."""
        assert Tile.parse(text).notation() == "42"

    @pytest.mark.parametrize("text", ["", "7", "4", "123", "ab", "4-2", " 42", "x", "-1"])
    def test_junk_rejected(self, text: str) -> None:
        """Anything that is not two digits is a ValueError."""
        with pytest.raises(ValueError):
            Tile.parse(text)

    @pytest.mark.parametrize("text", ["77", "70", "07", "68", "99"])
    def test_digits_above_six_rejected(self, text: str) -> None:
        """Two digits with one above 6 name no tile of a double-six set: a ValueError like other junk."""
        with pytest.raises(ValueError):
            Tile.parse(text)

    @pytest.mark.parametrize(("high", "low"), [(2, 4), (7, 0), (-1, 0), (6, 7)])
    def test_bad_ends_rejected(self, high: int, low: int) -> None:
        """A tile needs 0 <= low <= high <= 6."""
        with pytest.raises(ValueError):
            Tile(high, low)


ACTION_TABLE = [
    ("64", Kind.PLAY, Tile.parse("64").index),
    ("00", Kind.PLAY, 0),
    ("66*", Kind.CLAIM, Tile.parse("66").index),
    ("00*", Kind.CLAIM, 0),
    ("X", Kind.CLOSE, 0),
    ("I", Kind.TAKE_INDICATOR, 0),
    ("H", Kind.TAKE_HIDDEN, 0),
    ("B12", Kind.BID, 12),
    ("B4", Kind.BID, 4),
    ("B42", Kind.BID, 42),
    ("P", Kind.PASS, 0),
    ("T4", Kind.TRUMPS, 4),
    ("T0", Kind.TRUMPS, 0),
]

ALL_ACTION_TEXTS = [
    *ALL_TILES,
    *(f"{a}{a}*" for a in range(7)),
    "X",
    "I",
    "H",
    "P",
    *(f"B{n}" for n in range(4, 43)),
    *(f"T{s}" for s in range(7)),
]


class TestAction:
    """``Action.parse`` and ``Action.notation`` are inverses on every action of the notation."""

    @pytest.mark.parametrize(("text", "kind", "value"), ACTION_TABLE)
    def test_parse(self, text: str, kind: Kind, value: int) -> None:
        """Each kind of action parses to its kind and value."""
        action = Action.parse(text)
        assert (action.kind, action.value) == (kind, value)
        assert action == Action(kind, value)

    @pytest.mark.parametrize("text", ALL_ACTION_TEXTS)
    def test_round_trip(self, text: str) -> None:
        """Parsing an action and writing it again gives the same text."""
        assert Action.parse(text).notation() == str(Action.parse(text)) == text

    def test_all_distinct(self) -> None:
        """No two notations parse to the same action."""
        assert len({Action.parse(t) for t in ALL_ACTION_TEXTS}) == len(ALL_ACTION_TEXTS)

    @pytest.mark.parametrize(("text", "tile"), [("64", "64"), ("55*", "55")])
    def test_tile_of_play_and_claim(self, text: str, tile: str) -> None:
        """A play or a claim carries its tile."""
        assert Action.parse(text).tile == Tile.parse(tile)

    @pytest.mark.parametrize("text", ["X", "B12", "T4"])
    def test_no_tile_elsewhere(self, text: str) -> None:
        """Other actions carry no tile."""
        with pytest.raises(AttributeError):
            _ = Action.parse(text).tile

    @pytest.mark.parametrize(
        "text",
        ["", "7", "77", "B3", "B43", "T7", "65*", "x", "46", "i", "h", "p", "b12", "t4", "B", "T", "66**", "*", "X "],
    )
    def test_junk_rejected(self, text: str) -> None:
        """Junk, a non-double claim, a bid out of 4..42 and a suit out of 0..6 are ValueErrors."""
        with pytest.raises(ValueError):
            Action.parse(text)


class TestRecord:
    """A deal's record is its JSON form: ``Deal.from_record(deal.record()) == deal``."""

    def test_record_fields(self) -> None:
        """A hand-built deal's record lists hands higher tile first, the stock in order and the actions."""
        deal = deal_from(
            "bingo",
            ("00 55 65 54 66 64 30", "61 43 41 32 31 21 10"),
            "11 20 22 33 40 42 44 50 51 53 60 62 63 52",
            first=0,
        )
        play(deal, "X 00 21")
        record = json.loads(json.dumps(deal.record()))
        assert record["game"] == "bingo"
        assert record["preset"] == "bingo"
        assert record["hands"] == [
            ["66", "65", "64", "55", "54", "30", "00"],
            ["61", "43", "41", "32", "31", "21", "10"],
        ]
        assert record["stock"] == ["11", "20", "22", "33", "40", "42", "44", "50", "51", "53", "60", "62", "63", "52"]
        assert record["first"] == 0
        assert record["actions"] == ["X", "00", "21"]
        assert {"points", "tricks", "game_points", "match_score"} <= record.keys()
        assert Deal.from_record(record) == deal

    @pytest.mark.parametrize("preset", ["bingo", "bingo-classic", "bingo-domino", "42"])
    def test_json_round_trip(self, preset: str) -> None:
        """At every state of a random deal, the record through JSON replays to an equal deal."""
        rng = random.Random(preset)
        match = Match.new(preset, 21)
        deal = match.deal
        while True:
            back = Deal.from_record(json.loads(json.dumps(deal.record())))
            assert back == deal
            assert back.record() == deal.record()
            if deal.is_over:
                break
            deal.play(rng.choice(deal.legal_actions()))

    def test_from_record_rejects_bad_tiles(self) -> None:
        """A record with a tile twice is malformed."""
        record = Match.new("bingo", 1).to_dict()
        record["stock"][0] = record["hands"][0][0]
        with pytest.raises(ValueError):
            Deal.from_record(record)
