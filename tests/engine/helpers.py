"""Shared tools of the engine tests: building deals from notation, the section 3 invariants."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from engine import BingoDeal, Deal, FortyTwoDeal, Tile, find_preset
from engine.bingo import POINTS, oracle
from engine.fortytwo import COUNT, Phase
from engine.texas import TexasDeal
from engine.tiles import BIT, FULL_SET, TILE_COUNT, indices, parse_index, parse_mask


def deal_from(
    preset: str,
    hands: tuple[str, str],
    stock: str,
    first: int = 0,
    *,
    score: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> Deal:
    """A deal from notation: ``hands=("66 54 ...", "...")``, ``stock="20 ... 62"`` (drawing order)."""
    rules = find_preset(preset)
    cls = BingoDeal if rules.game == "bingo" else FortyTwoDeal
    masks = (parse_mask(hands[0].split()), parse_mask(hands[1].split()))
    order = tuple(parse_index(t) for t in stock.split())
    return cls(rules, masks, order, first, score=score, target=target)


def play(deal: Deal, actions: str) -> Deal:
    """Play space-separated actions in order (checked), returning the same deal."""
    for text in actions.split():
        deal.play(text)
    return deal


_TILE, _ITEMS, _LEAF = "tile", "items", ()
_KINDS: dict[type, str | tuple[str, ...]] = {Tile: _TILE, tuple: _ITEMS, list: _ITEMS}
_HOLDS: dict[type, bool] = {}


def _holds_tiles(hint: Any) -> bool:
    """Whether a value of the annotated type may hold a tile: a ``Tile``, ``Any``, or a tuple, list, union or
    dataclass with such a type inside. The views are typed (mypy checks them): an ``int`` or an enum holds none."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin is not None:
        return any(_holds_tiles(arg) for arg in typing.get_args(hint) if arg is not Ellipsis)
    if not isinstance(hint, type):
        return True
    if issubclass(hint, Tile):
        return True
    if not dataclasses.is_dataclass(hint):
        return False
    if hint not in _HOLDS:
        _HOLDS[hint] = True  # while it is being looked at (a dataclass that holds itself)
        _HOLDS[hint] = any(_holds_tiles(h) for h in typing.get_type_hints(hint).values())
    return _HOLDS[hint]


def _kind(cls: type) -> str | tuple[str, ...]:
    """How a value of ``cls`` holds tiles: it is one, its items, its fields that may (a dataclass's names, by
    their annotations), or none."""
    kind = _KINDS.get(cls)
    if kind is None:
        if issubclass(cls, Tile):
            kind = _TILE
        elif dataclasses.is_dataclass(cls):
            hints = typing.get_type_hints(cls)
            kind = tuple(f.name for f in dataclasses.fields(cls) if _holds_tiles(hints[f.name]))
        elif issubclass(cls, (tuple, list)):
            kind = _ITEMS
        else:
            kind = _LEAF
        _KINDS[cls] = kind
    return kind


def _add_tiles(value: Any, shown: set[int]) -> None:
    """Add the index of every tile in ``value`` (itself, in a dataclass's fields that may hold one, in a tuple's
    or list's items, however deep) to ``shown``. Called for every view of every action of the random playouts:
    a loop, not nested generators."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = _KINDS.get(type(item))
        if kind is None:
            kind = _kind(type(item))
        if kind is _TILE:
            shown.add(item.index)
        elif kind is _ITEMS:
            stack.extend(item)
        else:
            stack.extend(getattr(item, name) for name in kind)


def visible_tiles(view: Any, *, skip_hand: bool = True) -> set[int]:
    """Indices of every tile a view shows, its own hand left out."""
    shown: set[int] = set()
    for name in _kind(type(view)):
        if skip_hand and name == "hand":
            continue
        _add_tiles(getattr(view, name), shown)
    return shown


def check_invariants(deal: Deal) -> None:
    """RULES.md section 3, asserted on the deal as it stands."""
    places = deal.tile_places()
    union = 0
    for mask in places:
        assert union & mask == 0, "a tile is in two places"
        union |= mask
    assert union == FULL_SET, "a tile is missing"
    if isinstance(deal, BingoDeal):
        _check_bingo(deal)
    else:
        assert isinstance(deal, FortyTwoDeal)
        _check_fortytwo(deal)
    _check_views(deal)
    assert Deal.from_record(deal.record()) == deal, "replaying the record gives another state"


def check_invariants_texas(deal: TexasDeal) -> None:
    """RULES.md section 3 for a deal of four: the tiles partition, each seat holds 7 less its tricks (less one
    while its tile is on the table), the record replays to the same state."""
    union = 0
    for mask in deal.tile_places():
        assert union & mask == 0, "a tile is in two places"
        union |= mask
    assert union == FULL_SET, "a tile is missing"
    played = len(deal.history)
    for seat in range(4):
        on_table = deal.leader >= 0 and (seat - deal.leader) % 4 < len(deal.table)
        assert deal.hands[seat].bit_count() == 7 - played - on_table
    assert deal.tricks[0] + deal.tricks[1] == played
    assert deal.points[0] + deal.points[1] <= 42
    assert Deal.from_record(deal.record()) == deal, "replaying the record gives another state"


def _check_bingo(deal: BingoDeal) -> None:
    if deal.end is None and deal.lead < 0 and not deal.choosing and deal.closed_by < 0 and deal.reserve:
        assert deal.hands[0].bit_count() == deal.hands[1].bit_count() == 7
    pts = POINTS[deal.trump]
    captured = [sum(pts[t] for t in indices(deal.captured[s])) for s in (0, 1)]
    uncaptured = sum(pts[t] for t in range(TILE_COUNT) if not BIT[t] & (deal.captured[0] | deal.captured[1]))
    assert captured[0] + captured[1] + uncaptured == oracle(deal.trump)
    for seat in (0, 1):
        assert deal.points[seat] == captured[seat] + deal.claim_points_of(seat)


def _check_fortytwo(deal: FortyTwoDeal) -> None:
    if deal.phase is Phase.DRAW and deal.lead < 0:
        assert deal.hands[0].bit_count() == deal.hands[1].bit_count() == 7
    if deal.phase in (Phase.PLAY, Phase.OVER) and deal.trump >= 0:
        for seat in (0, 1):
            counted = sum(COUNT[t] for t in indices(deal.captured[seat]))
            assert deal.points[seat] == deal.tricks[seat] + counted
        assert sum(deal.points) <= 7 + deal.count_in_play() <= 42
        if deal.end is not None:
            assert sum(deal.tricks) == 7
            assert sum(deal.points) == 7 + deal.count_in_play()
    else:
        assert deal.points == [0, 0] and deal.tricks == [0, 0] and deal.captured == [0, 0]


def _check_views(deal: Deal) -> None:
    stock = deal.reserve
    revealed: set[int] = set()
    if isinstance(deal, BingoDeal):
        # Everyone saw the indicator turned up, wherever it went after (face down by a close, into a hand).
        revealed.add(deal.indicator)
        for _, mask, _ in deal.claims:
            revealed.update(indices(mask))
    hidden_stock = {t for t in stock if t not in revealed}
    for seat in (None, 0, 1):
        view = deal.view(seat)
        shown = visible_tiles(view)
        assert not shown & hidden_stock, "a view shows a hidden tile of the stock"
        for other in (0, 1):
            if other == seat:
                continue
            leaked = shown & set(indices(deal.hands[other])) - revealed
            assert not leaked, f"view of seat {seat} shows tiles of hand {other}: {leaked}"
        if seat is None:
            assert view.hand == ()
        else:
            assert {t.index for t in view.hand} == set(indices(deal.hands[seat]))
