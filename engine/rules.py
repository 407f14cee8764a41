"""Rule sets and the registry of named presets (RULES.md sections 1.5 and 2).

Every difference between the sources is a field here; the games read fields
and never branch on a preset's name.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from engine.actions import MARK, MAX_BID, MIN_BID, TEXAS_MIN_BID


class LastPair(enum.Enum):
    """Bingo: who gets the last two tiles of the reserve."""

    LOSER_GETS_INDICATOR = "loser_gets_indicator"
    """The winner draws the hidden tile, the loser the indicator (``001``)."""
    WINNER_CHOOSES = "winner_chooses"
    """The winner takes either, the loser the other (``000``)."""


class ClosePenalty(enum.Enum):
    """Bingo: when a failed close costs 3 game points instead of 2."""

    CLOSED_BEFORE_FIRST_TRICK = "closed_before_first_trick"
    CLOSER_TOOK_NO_TRICK = "closer_took_no_trick"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """What every game's rules have: a name, the game, the match target."""

    name: str
    game: str
    target: int
    seats: int = 2
    """How many sit at the table: two, or four in two partnerships (seat ``s`` is on side ``s % 2``)."""

    def with_target(self, target: int) -> RuleSet:
        """The same rules with another match target (a group's setting)."""
        if target < 1:
            raise ValueError("the target must be at least 1 game point")
        return replace(self, target=target)


@dataclass(frozen=True, slots=True)
class BingoRules(RuleSet):
    """Bingo (RULES.md section 1); the table of 1.5 field by field."""

    schneider: int = 20
    """The loser below this many points gives the winner 2 game points."""
    claim_points: tuple[int, ...] = (0, 0, 20, 40, 50, 60, 0, 0)
    """Points of a won claim of ``n`` doubles, indexed by ``n``."""
    claim_game_points: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 1, 3)
    """Game points of a won claim of ``n`` doubles, indexed by ``n``."""
    claim_bingo_bonus: int = 0
    """Points added to a won claim when bingo ``[0|0]`` is among the doubles."""
    last_pair: LastPair = LastPair.LOSER_GETS_INDICATOR
    must_beat: bool = False
    """Following a non-trump lead, play a tile of the suit that wins if you have one."""
    follow_lower_half: bool = False
    """Void in the led suit, play a tile with the led tile's lower end."""
    must_trump_when_void: bool = False
    """Void in the led suit (and lower half), play a trump if you have one."""
    close_penalty: ClosePenalty = ClosePenalty.CLOSED_BEFORE_FIRST_TRICK
    goal: int = 70
    """The points that end a deal ("the first to 70")."""
    bingo_bonus: int = 1
    """Game points for taking the trump double with bingo (blanks not trumps)."""

    def claim_value(self, doubles: int, with_bingo: bool) -> tuple[int, int]:
        """``(points, game points)`` of a won claim of ``doubles`` doubles, bingo among them or not."""
        points = self.claim_points[doubles] + (self.claim_bingo_bonus if with_bingo else 0)
        return points, self.claim_game_points[doubles]


@dataclass(frozen=True, slots=True)
class FortyTwoRules(RuleSet):
    """42 for two (RULES.md section 2)."""

    min_bid: int = MIN_BID
    max_bid: int = MAX_BID


@dataclass(frozen=True, slots=True)
class TexasRules(RuleSet):
    """42 for four, in partnerships (RULES.md section 5)."""

    seats: int = 4
    min_bid: int = TEXAS_MIN_BID
    """The lowest point bid (30)."""
    mark: int = MARK
    """Points a mark bid is written in: 42 is one mark, 84 two, 126 three..."""
    opening_marks: int = 2
    """The most marks a first mark bid may be (84); after it, one mark more each time."""


PRESETS: dict[str, RuleSet] = {
    "bingo": BingoRules(
        name="bingo",
        game="bingo",
        target=8,
        schneider=20,
        follow_lower_half=True,
    ),
    "bingo-classic": BingoRules(
        name="bingo-classic",
        game="bingo",
        target=7,
        schneider=30,
        claim_points=(0, 0, 20, 40, 50, 60, 70, 210),
        claim_game_points=(0, 0, 0, 0, 0, 0, 0, 0),
        claim_bingo_bonus=10,
        last_pair=LastPair.WINNER_CHOOSES,
        must_beat=True,
    ),
    "bingo-domino": BingoRules(
        name="bingo-domino",
        game="bingo",
        target=7,
        schneider=20,
        must_trump_when_void=True,
        close_penalty=ClosePenalty.CLOSER_TOOK_NO_TRICK,
    ),
    "42": FortyTwoRules(name="42", game="42", target=7),
    "texas": TexasRules(name="texas", game="42x4", target=7),
}
"""Named rule sets; a group picks one and may change its target."""


def find_preset(name: str) -> RuleSet:
    """The preset called ``name``; ``KeyError`` naming the known ones otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}") from None


def presets_of(game: str) -> list[str]:
    return [name for name, rules in PRESETS.items() if rules.game == game]
