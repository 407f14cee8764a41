"""Actions and their notation (RULES.md section 4).

Every action a seat can take is one :class:`Action`, written as one short
string: ``64`` (play), ``66*`` (lead a double and claim the doubles in hand),
``X`` (close), ``I``/``H`` (take the indicator / the hidden tile), ``B12``,
``P`` (bid, pass) and ``T4`` (name trumps; ``TD`` doubles, ``TF`` follow-me). The finite set of actions is built
once; :meth:`Action.parse` returns those shared instances, so the hot paths
compare and hash nothing but small objects.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.tiles import NOTATION, TILE_COUNT, TILES, Tile, tile_index


class Kind(enum.Enum):
    """What an action does."""

    PLAY = "play"
    """Play a tile from the hand (lead or reply)."""
    CLAIM = "claim"
    """Bingo: lead a double and claim all doubles in hand."""
    CLOSE = "close"
    """Bingo: turn the indicator face down before leading."""
    TAKE_INDICATOR = "take_indicator"
    """Bingo, ``winner_chooses``: take the face-up indicator."""
    TAKE_HIDDEN = "take_hidden"
    """Bingo, ``winner_chooses``: take the hidden tile."""
    BID = "bid"
    """42: bid a number of points."""
    PASS = "pass"
    """42: pass in the bidding."""
    TRUMPS = "trumps"
    """42: the declarer names the trump suit (42 for four: or doubles, or follow-me)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action of the seat to act; ``value`` is a tile index, a bid or a suit."""

    kind: Kind
    value: int = 0

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the notation of RULES.md section 4; raise ``ValueError`` on junk."""
        try:
            return _BY_NOTATION[text]
        except (KeyError, TypeError):
            raise ValueError(f"not an action: {text!r}") from None

    @property
    def tile(self) -> Tile:
        """The tile of a play or a claim."""
        if self.kind not in (Kind.PLAY, Kind.CLAIM):
            raise AttributeError(f"{self.notation()} carries no tile")
        return TILES[self.value]

    def notation(self) -> str:
        kind = self.kind
        if kind is Kind.PLAY:
            return NOTATION[self.value]
        if kind is Kind.CLAIM:
            return NOTATION[self.value] + "*"
        if kind is Kind.BID:
            return f"B{self.value}"
        if kind is Kind.TRUMPS:
            return f"T{TRUMP_LETTERS.get(self.value, self.value)}"
        return _LETTER[kind]

    def __str__(self) -> str:
        return self.notation()


_LETTER = {Kind.CLOSE: "X", Kind.TAKE_INDICATOR: "I", Kind.TAKE_HIDDEN: "H", Kind.PASS: "P"}

MIN_BID = 4
MAX_BID = 42
TEXAS_MIN_BID = 30
"""42 for four: the lowest point bid."""
MARK = 42
"""42 for four: a mark bid of k marks is written ``B{42 k}``."""
MAX_MARKS = 7
"""The most marks a bid is written for (a single round of four bids reaches five at most)."""
DOUBLES_TRUMP = 7
"""42 for four: the value of ``TD``, the doubles named trumps."""
FOLLOW_ME = 8
"""42 for four: the value of ``TF``, no trumps (follow-me)."""
TRUMP_LETTERS = {DOUBLES_TRUMP: "D", FOLLOW_ME: "F"}

PLAY: tuple[Action, ...] = tuple(Action(Kind.PLAY, i) for i in range(TILE_COUNT))
"""``PLAY[tile_index]``."""
CLAIM: dict[int, Action] = {tile_index(a, a): Action(Kind.CLAIM, tile_index(a, a)) for a in range(7)}
"""``CLAIM[double_index]``."""
CLOSE = Action(Kind.CLOSE)
TAKE_INDICATOR = Action(Kind.TAKE_INDICATOR)
TAKE_HIDDEN = Action(Kind.TAKE_HIDDEN)
PASS = Action(Kind.PASS)
BID: dict[int, Action] = {
    n: Action(Kind.BID, n) for n in (*range(MIN_BID, MAX_BID + 1), *(MARK * k for k in range(2, MAX_MARKS + 1)))
}
"""``BID[points]``; 42 for four adds the mark bids ``BID[84]``, ``BID[126]``..."""
TRUMP_CHOICES: tuple[Action, ...] = tuple(Action(Kind.TRUMPS, s) for s in range(9))
"""``TRUMP_CHOICES[choice]``: a suit 0..6, then (42 for four) doubles ``TD`` and follow-me ``TF``."""
TRUMPS: tuple[Action, ...] = TRUMP_CHOICES[:7]
"""``TRUMPS[suit]``."""

_ALL = (*PLAY, *CLAIM.values(), CLOSE, TAKE_INDICATOR, TAKE_HIDDEN, PASS, *BID.values(), *TRUMP_CHOICES)
_BY_NOTATION = {a.notation(): a for a in _ALL}
