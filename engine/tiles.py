"""Tiles of a double-six set and the bitmask tables the games are built on.

A tile ``[a|b]`` with ``0 <= b <= a <= 6`` is stored as a small integer, its
*index* ``a * (a + 1) // 2 + b`` (``[0|0]`` is 0, ``[6|6]`` is 27). A set of
tiles (a hand, a reserve, captured tricks) is an ``int`` bitmask with bit
``index`` set for each tile in it. The public value type is :class:`Tile`;
the games work on indices and masks because that is what keeps a deal fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

SUITS = range(7)
"""The seven numbers of a double-six set, also the seven suits."""
SUIT_NAMES = ("blanks", "aces", "deuces", "treys", "fours", "fives", "sixes")
"""Each suit's English name, as the command line writes it."""

TILE_COUNT = 28
FULL_SET = (1 << TILE_COUNT) - 1


def tile_index(high: int, low: int) -> int:
    """Index of the tile with ends ``high >= low``."""
    return high * (high + 1) // 2 + low


HIGH: tuple[int, ...] = tuple(a for a in SUITS for _ in range(a + 1))
"""Higher end (face value) of each tile index."""
LOW: tuple[int, ...] = tuple(b for a in SUITS for b in range(a + 1))
"""Lower end (face value) of each tile index."""
BIT: tuple[int, ...] = tuple(1 << i for i in range(TILE_COUNT))
DOUBLES: int = sum(BIT[tile_index(a, a)] for a in SUITS)
"""Mask of the seven doubles."""
SUIT_MASK: tuple[int, ...] = tuple(sum(BIT[i] for i in range(TILE_COUNT) if a in (HIGH[i], LOW[i])) for a in SUITS)
"""Mask of the tiles showing the number ``a`` on either end."""


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One domino ``[high|low]``, written higher end first: ``Tile.parse("64")``."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if not (0 <= self.low <= self.high <= 6):
            raise ValueError(f"not a double-six tile: [{self.high}|{self.low}]")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse two digits in either order (``"64"`` or ``"46"``)."""
        if len(text) != 2 or not all(c in "0123456" for c in text):
            raise ValueError(f"not a tile: {text!r}")
        a, b = int(text[0]), int(text[1])
        return TILES[tile_index(max(a, b), min(a, b))]

    @classmethod
    def from_index(cls, index: int) -> Tile:
        return TILES[index]

    @property
    def index(self) -> int:
        return tile_index(self.high, self.low)

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def pips(self) -> int:
        """Face pips, a blank counting 0."""
        return self.high + self.low

    def notation(self) -> str:
        return f"{self.high}{self.low}"

    def __str__(self) -> str:
        return self.notation()


TILES: tuple[Tile, ...] = tuple(Tile(HIGH[i], LOW[i]) for i in range(TILE_COUNT))
NOTATION: tuple[str, ...] = tuple(t.notation() for t in TILES)
_BY_NOTATION = {n: i for i, n in enumerate(NOTATION)}


def parse_index(text: str) -> int:
    """Tile index of a notation such as ``"64"`` (higher end first only)."""
    try:
        return _BY_NOTATION[text]
    except KeyError:
        raise ValueError(f"not a tile: {text!r}") from None


def indices(mask: int) -> Iterator[int]:
    """Tile indices in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a mask as values, highest first (as a hand is shown)."""
    return tuple(TILES[i] for i in sorted(indices(mask), reverse=True))


def format_mask(mask: int) -> list[str]:
    """Notations of the tiles in a mask, highest first."""
    return [NOTATION[i] for i in sorted(indices(mask), reverse=True)]


def mask_of(tiles: Iterable[Tile]) -> int:
    """Mask of some tiles (a hand as a view shows it)."""
    mask = 0
    for tile in tiles:
        mask |= BIT[tile.index]
    return mask


def parse_mask(notations: Iterable[str]) -> int:
    """Mask of a list of notations; a repeated tile is an error."""
    mask = 0
    for n in notations:
        bit = BIT[parse_index(n)]
        if mask & bit:
            raise ValueError(f"tile {n} given twice")
        mask |= bit
    return mask
