"""Actions and their notation (RULES.md section 4).

Every action a seat can take is one :class:`Action`, written as one short
string: ``64`` (play), ``66*`` (lead a double and claim the doubles in hand),
``X`` (close), ``I``/``H`` (take the indicator / the hidden tile), ``B12``,
``P`` (bid, pass) and ``T4`` (name trumps). The finite set of actions is built
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
    """42: the declarer names the trump suit."""


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
            return f"T{self.value}"
        return _LETTER[kind]

    def __str__(self) -> str:
        return self.notation()


_LETTER = {Kind.CLOSE: "X", Kind.TAKE_INDICATOR: "I", Kind.TAKE_HIDDEN: "H", Kind.PASS: "P"}

MIN_BID = 4
MAX_BID = 42

PLAY: tuple[Action, ...] = tuple(Action(Kind.PLAY, i) for i in range(TILE_COUNT))
"""``PLAY[tile_index]``."""
CLAIM: dict[int, Action] = {tile_index(a, a): Action(Kind.CLAIM, tile_index(a, a)) for a in range(7)}
"""``CLAIM[double_index]``."""
CLOSE = Action(Kind.CLOSE)
TAKE_INDICATOR = Action(Kind.TAKE_INDICATOR)
TAKE_HIDDEN = Action(Kind.TAKE_HIDDEN)
PASS = Action(Kind.PASS)
BID: dict[int, Action] = {n: Action(Kind.BID, n) for n in range(MIN_BID, MAX_BID + 1)}
"""``BID[points]``."""
TRUMPS: tuple[Action, ...] = tuple(Action(Kind.TRUMPS, s) for s in range(7))
"""``TRUMPS[suit]``."""

_ALL = (*PLAY, *CLAIM.values(), CLOSE, TAKE_INDICATOR, TAKE_HIDDEN, PASS, *BID.values(), *TRUMPS)
_BY_NOTATION = {a.notation(): a for a in _ALL}
