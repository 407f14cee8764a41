"""What every deal has: a hand a seat (two seats, or four in two partnerships), a stock drawn in order, tricks,
the match score.

The seat count is the rules' (``RuleSet.seats``). Whatever is counted for a side (tricks, points, captured
tiles, game points, the match score) has two entries: seat ``s`` plays for side ``s % 2``, which at a table of
two is the seat itself and at a table of four its team (partners sit across).

A deal is a mutable object with ``play`` (like python-chess's ``push``) so
that self-play runs without copies; :func:`engine.apply` gives the
functional form. A deal is fully determined by its initial hands, stock, first
seat, the match score before it, and its actions: its JSON-able form is its
deal record (RULES.md section 4), and ``from_record`` replays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.actions import PLAY, Action
from engine.fairness import commitment, deal_secret, parse_secret, shuffled
from engine.outcomes import Award, DealEnd, IllegalAction, Refusal
from engine.rules import RuleSet, find_preset
from engine.tiles import FULL_SET, NOTATION, TILE_COUNT, TILES, Tile, format_mask, parse_index, parse_mask

HAND_SIZE = 7


def stock_size(seats: int) -> int:
    """Tiles left to the stock when every seat holds 7: 14 at a table of two, none at four."""
    return TILE_COUNT - seats * HAND_SIZE


_BYTE_INDICES: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))


def mask_actions(mask: int, table: tuple[Action, ...]) -> list[Action]:
    """``[table[i] for each tile i in mask]``, lowest first, a byte at a time."""
    out: list[Action] = []
    base = 0
    while mask:
        for i in _BYTE_INDICES[mask & 255]:
            out.append(table[base + i])
        mask >>= 8
        base += 8
    return out


@dataclass(frozen=True, slots=True)
class TrickView:
    """A settled trick as the table saw it: its tiles in the order played, from the leader's."""

    leader: int
    tiles: tuple[Tile, ...]
    winner: int

    @property
    def lead(self) -> Tile:
        return self.tiles[0]

    @property
    def reply(self) -> Tile:
        """The second tile (at a table of two, the only reply)."""
        return self.tiles[1]


_TRICK_VIEWS: dict[tuple[int, ...], TrickView] = {}


def trick_view(trick: tuple[int, ...]) -> TrickView:
    """The :class:`TrickView` of ``(leader, *tiles, winner)``; the tricks of two are shared (a few thousand)."""
    found = _TRICK_VIEWS.get(trick)
    if found is None:
        found = TrickView(trick[0], tuple(TILES[t] for t in trick[1:-1]), trick[-1])
        if len(trick) == 4:
            _TRICK_VIEWS[trick] = found
    return found


class Deal:
    """Base of the games' deals; the subclasses add the rules."""

    game: ClassVar[str]

    __slots__ = (
        "actions",
        "awards",
        "captured",
        "drawn",
        "end",
        "first",
        "hands",
        "history",
        "key",
        "last_trick",
        "lead",
        "number",
        "points",
        "rules",
        "score",
        "secret",
        "seed",
        "start_hands",
        "stock",
        "target",
        "tricks",
        "turn",
    )

    rules: RuleSet
    target: int
    seed: int
    number: int
    secret: bytes | None
    """The secret this deal was shuffled from (engine/fairness.py); None for a deal given by its hands."""
    key: bytes | None
    """The match's deal key, which the next deal's secret is derived from (engine/fairness.py: the match key with
    the players' seeds, or the match key itself in a match without seeds); None when not known (a published
    record)."""
    first: int
    score: list[int]
    """The match score, this deal's game points included as they are given."""
    start_hands: tuple[int, ...]
    stock: tuple[int, ...]
    """The stock (reserve) in drawing order."""
    drawn: int
    """How many tiles of the stock have been drawn."""
    hands: list[int]
    """A hand a seat."""
    captured: list[int]
    """Tiles taken, a side."""
    tricks: list[int]
    """Tricks taken, a side."""
    points: list[int]
    """Points, a side."""
    turn: int
    lead: int
    """The tile led to the current trick, or -1 when nobody has led yet."""
    last_trick: tuple[int, ...] | None
    """``(leader, *tiles, winner)`` of the last settled trick (at a table of two ``(leader, lead, reply,
    winner)``)."""
    history: list[tuple[int, ...]]
    """Every settled trick of the deal in order, as ``last_trick`` (the table watched them all)."""
    actions: list[Action]
    awards: list[Award]
    end: DealEnd | None

    def __init__(
        self,
        rules: RuleSet,
        hands: tuple[int, ...],
        stock: tuple[int, ...],
        first: int,
        *,
        score: tuple[int, int] = (0, 0),
        target: int | None = None,
        seed: int = 0,
        number: int = 1,
        secret: bytes | None = None,
        key: bytes | None = None,
    ) -> None:
        if rules.game != self.game:
            raise ValueError(f"{rules.name} is not a {self.game} rule set")
        seats = rules.seats
        if not 0 <= first < seats:
            raise ValueError(f"first must be a seat 0..{seats - 1}")
        if len(hands) != seats or len(stock) != stock_size(seats) or any(h.bit_count() != HAND_SIZE for h in hands):
            raise ValueError(f"a deal needs {seats} hands of 7 tiles and {stock_size(seats)} in the stock")
        stock_mask = 0
        for t in stock:
            stock_mask |= 1 << t
        union = stock_mask
        for h in hands:
            if union & h:
                raise ValueError("hands and stock must hold each of the 28 tiles once")
            union |= h
        if union != FULL_SET:
            raise ValueError("hands and stock must hold each of the 28 tiles once")
        self.rules = rules
        self.target = rules.target if target is None else target
        self.seed = seed
        self.number = number
        self.secret = secret
        self.key = key
        self.first = first
        self.score = list(score)
        self.start_hands = tuple(hands)
        self.stock = tuple(stock)
        self.drawn = 0
        self.hands = list(hands)
        self.captured = [0, 0]
        self.tricks = [0, 0]
        self.points = [0, 0]
        self.turn = first
        self.lead = -1
        self.last_trick = None
        self.history = []
        self.actions = []
        self.awards = []
        self.end = None
        self._start()

    def _start(self) -> None:
        """Set the game's own fields of a fresh deal."""

    @classmethod
    def deal(
        cls,
        rules: RuleSet,
        key: bytes,
        first: int,
        *,
        score: tuple[int, int] = (0, 0),
        target: int | None = None,
        seed: int = 0,
        number: int = 1,
    ) -> Deal:
        """Deal ``number`` of the match with the deal key ``key``: shuffled from its secret (engine/fairness.py),
        7 tiles each, the others (14 at a table of two) form the stock."""
        secret = deal_secret(key, number)
        order = shuffled(secret, TILE_COUNT)
        game_cls = _deal_class(rules.game)
        hands = game_cls._hands_from_order(order, first, rules.seats)
        stock = tuple(order[rules.seats * HAND_SIZE :])
        return game_cls(
            rules, hands, stock, first, score=score, target=target, seed=seed, number=number, secret=secret, key=key
        )

    @classmethod
    def from_secret(cls, rules: RuleSet, secret: bytes, first: int = 0) -> Deal:
        """The deal a secret gives (its number and score unknown: deal 1 at 0:0)."""
        order = shuffled(secret, TILE_COUNT)
        game_cls = _deal_class(rules.game)
        hands = game_cls._hands_from_order(order, first, rules.seats)
        return game_cls(rules, hands, tuple(order[rules.seats * HAND_SIZE :]), first, secret=secret)

    @property
    def commitment(self) -> str | None:
        """SHA-256 of the secret in 64 hex digits, shown before the deal is played (None: no secret)."""
        return None if self.secret is None else commitment(self.secret)

    @property
    def revealed(self) -> str | None:
        """The secret in hex once the deal is over; None before (and for a deal without a secret)."""
        return self.secret.hex() if self.secret is not None and self.end is not None else None

    @staticmethod
    def _hands_from_order(order: list[int], first: int, seats: int) -> tuple[int, ...]:
        """Seat ``s`` gets the ``s``-th seven tiles of the shuffled order."""
        return tuple(sum(1 << t for t in order[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(seats))

    @property
    def seats(self) -> int:
        return self.rules.seats

    def next_first(self) -> int:
        """Who acts first in the next deal of the match: the next seat (a game may keep it, as 42's redeal)."""
        return (self.first + 1) % self.rules.seats

    # -- playing -------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (empty once the deal is over)."""
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        """Apply an action already known to be legal."""
        raise NotImplementedError

    def refusal(self, action: Action) -> Refusal:
        """Why ``action`` is not legal now (called only for an illegal one)."""
        raise NotImplementedError

    def why_not(self, tile: Tile | int) -> Refusal | None:
        """Why the seat to act may not play ``tile`` now, or None if it may."""
        action = PLAY[tile if isinstance(tile, int) else tile.index]
        if self.end is not None:
            return Refusal.GAME_OVER
        if action in self.legal_actions():
            return None
        return self.refusal(action)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may see (``None``: the table); the game's own view type."""
        raise NotImplementedError

    def play(self, action: Action | str, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (checked against ``seat`` when given).

        Raises :class:`IllegalAction` and changes nothing when it is not legal.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if self.end is not None:
            raise IllegalAction(action, Refusal.GAME_OVER)
        if seat is not None and seat != self.turn:
            raise IllegalAction(action, Refusal.NOT_YOUR_TURN)
        if action not in self.legal_actions():
            raise IllegalAction(action, self.refusal(action))
        self._apply(action)
        self.actions.append(action)

    def push_unchecked(self, action: Action) -> None:
        """Apply an action taken from :meth:`legal_actions` (self-play's hot path)."""
        self._apply(action)
        self.actions.append(action)

    def copy(self) -> Deal:
        new = object.__new__(type(self))
        for name in _all_slots(type(self)):
            value = getattr(self, name)
            setattr(new, name, value[:] if type(value) is list else value)
        return new

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        # The match key is not the deal's: a deal rebuilt from its record (which never holds the key) is the same.
        return all(getattr(self, n) == getattr(other, n) for n in _all_slots(type(self)) if n != "key")

    __hash__ = None  # type: ignore[assignment]

    # -- derived facts -------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.end is not None

    @property
    def game_points(self) -> tuple[int, int]:
        """Game points given in this deal so far, bonuses included."""
        gp = [0, 0]
        for award in self.awards:
            gp[award.seat] += award.game_points
        return (gp[0], gp[1])

    @property
    def score_before(self) -> tuple[int, int]:
        gp = self.game_points
        return (self.score[0] - gp[0], self.score[1] - gp[1])

    @property
    def match_over(self) -> bool:
        return max(self.score) >= self.target

    @property
    def reserve(self) -> tuple[int, ...]:
        """Tiles left in the stock, in drawing order."""
        return self.stock[self.drawn :]

    def _award(self, award: Award) -> bool:
        """Give game points; True when that reaches the match target."""
        self.awards.append(award)
        self.score[award.seat] += award.game_points
        return self.score[award.seat] >= self.target

    def _settle_trick(self, leader: int, lead: int, reply: int, winner: int) -> None:
        """A trick of two tiles is settled (a table of two)."""
        self._record_trick((leader, lead, reply, winner))

    def _record_trick(self, trick: tuple[int, ...]) -> None:
        """``(leader, *tiles, winner)`` is settled: the winner leads the next."""
        self.last_trick = trick
        self.history.append(trick)
        self.lead = -1
        self.turn = trick[-1]

    def last_trick_view(self) -> TrickView | None:
        if self.last_trick is None:
            return None
        return trick_view(self.last_trick)

    def history_view(self) -> tuple[TrickView, ...]:
        """Every settled trick of the deal, in order."""
        return tuple(map(trick_view, self.history))

    def on_table(self) -> int:
        """The tiles of the trick in progress, as a mask (a game of two: the lead, if any)."""
        return 0 if self.lead < 0 else 1 << self.lead

    def tile_places(self) -> list[int]:
        """Masks of every place a tile can be; they partition the set (an invariant)."""
        stock = 0
        for t in self.reserve:
            stock |= 1 << t
        return [*self.hands, stock, *self.captured, self.on_table()]

    # -- records -------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The deal record of RULES.md section 4 (also this deal's JSON-able form)."""
        gp = self.game_points
        return {
            "game": self.game,
            "preset": self.rules.name,
            "target": self.target,
            "seed": self.seed,
            "deal": self.number,
            **({"secret": self.secret.hex()} if self.secret is not None else {}),
            "hands": [format_mask(h) for h in self.start_hands],
            "stock": [NOTATION[t] for t in self.stock],
            "first": self.first,
            "actions": [a.notation() for a in self.actions],
            "points": list(self.points),
            "tricks": list(self.tricks),
            "game_points": list(gp),
            "match_score": list(self.score),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any], *, replay_actions: bool = True) -> Deal:
        """Rebuild a deal from its record by replaying its actions.

        The match score before the deal is ``match_score - game_points`` as
        recorded. Raises :class:`IllegalAction` if an action is illegal and
        ``ValueError`` if the record is malformed.
        """
        rules = find_preset(record["preset"])
        game_cls = _deal_class(rules.game)
        if record.get("game", rules.game) != rules.game:
            raise ValueError(f"preset {rules.name} is not a {record['game']} preset")
        if "match_score" in record:
            before = tuple(m - g for m, g in zip(record["match_score"], record["game_points"], strict=True))
        else:
            before = (0, 0)
        if len(record["hands"]) != rules.seats:
            raise ValueError(f"a {rules.game} record has {rules.seats} hands")
        hands = tuple(parse_mask(h) for h in record["hands"])
        stock = tuple(parse_index(t) for t in record["stock"])
        deal = game_cls(
            rules,
            hands,
            stock,
            int(record["first"]),
            score=(int(before[0]), int(before[1])),
            target=int(record.get("target", rules.target)),
            seed=int(record.get("seed", 0)),
            number=int(record.get("deal", 1)),
            secret=parse_secret(record["secret"]) if record.get("secret") else None,
            key=parse_secret(record["key"]) if record.get("key") else None,
        )
        if replay_actions:
            for text in record["actions"]:
                deal.play(Action.parse(text))
        return deal

    def mismatches(self, record: dict[str, Any]) -> list[str]:
        """Fields of ``record`` whose recorded value differs from this deal's."""
        mine = self.record()
        wrong: list[str] = [
            k for k in ("points", "tricks", "game_points", "match_score") if k in record and record[k] != mine[k]
        ]
        if self.secret is not None and not self.dealt_from_secret():
            wrong.append("secret")
        return wrong

    def dealt_from_secret(self) -> bool:
        """The hands and the stock are what the deal's secret gives (True when there is no secret to check)."""
        if self.secret is None:
            return True
        order = shuffled(self.secret, TILE_COUNT)
        hands = self._hands_from_order(order, self.first, self.rules.seats)
        return hands == self.start_hands and tuple(order[self.rules.seats * HAND_SIZE :]) == self.stock


def _deal_class(game: str) -> type[Deal]:
    """The deal class of ``game``, from the registry of games (imported here: it imports this module)."""
    from engine.games import game_of

    return game_of(game).deal


def _all_slots(cls: type) -> tuple[str, ...]:
    cached = _SLOTS.get(cls)
    if cached is None:
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            names.extend(klass.__dict__.get("__slots__", ()))
        cached = _SLOTS[cls] = tuple(names)
    return cached


_SLOTS: dict[type, tuple[str, ...]] = {}
