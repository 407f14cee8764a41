"""What every deal has: two hands, a stock drawn in order, tricks, the match score.

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
STOCK_SIZE = TILE_COUNT - 2 * HAND_SIZE

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
    """A settled trick as the table saw it."""

    leader: int
    lead: Tile
    reply: Tile
    winner: int


_TRICK_VIEWS: dict[tuple[int, int, int, int], TrickView] = {}


def trick_view(trick: tuple[int, int, int, int]) -> TrickView:
    """The shared :class:`TrickView` of ``(leader, lead, reply, winner)`` (there are a few thousand at most)."""
    found = _TRICK_VIEWS.get(trick)
    if found is None:
        leader, lead, reply, winner = trick
        found = _TRICK_VIEWS[trick] = TrickView(leader, TILES[lead], TILES[reply], winner)
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
    start_hands: tuple[int, int]
    stock: tuple[int, ...]
    """The stock (reserve) in drawing order."""
    drawn: int
    """How many tiles of the stock have been drawn."""
    hands: list[int]
    captured: list[int]
    tricks: list[int]
    points: list[int]
    turn: int
    lead: int
    """The tile led to the current trick, or -1 when nobody has led yet."""
    last_trick: tuple[int, int, int, int] | None
    """``(leader, lead, reply, winner)`` of the last settled trick."""
    history: list[tuple[int, int, int, int]]
    """Every settled trick of the deal in order, as ``last_trick`` (the table watched them all)."""
    actions: list[Action]
    awards: list[Award]
    end: DealEnd | None

    def __init__(
        self,
        rules: RuleSet,
        hands: tuple[int, int],
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
        if first not in (0, 1):
            raise ValueError("first must be seat 0 or 1")
        if len(stock) != STOCK_SIZE or any(h.bit_count() != HAND_SIZE for h in hands):
            raise ValueError("a deal needs 7 tiles in each hand and 14 in the stock")
        stock_mask = 0
        for t in stock:
            stock_mask |= 1 << t
        if hands[0] | hands[1] | stock_mask != FULL_SET or hands[0] & hands[1]:
            raise ValueError("hands and stock must hold each of the 28 tiles once")
        self.rules = rules
        self.target = rules.target if target is None else target
        self.seed = seed
        self.number = number
        self.secret = secret
        self.key = key
        self.first = first
        self.score = list(score)
        self.start_hands = (hands[0], hands[1])
        self.stock = tuple(stock)
        self.drawn = 0
        self.hands = [hands[0], hands[1]]
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
        7 tiles each, the other 14 form the stock."""
        secret = deal_secret(key, number)
        order = shuffled(secret, TILE_COUNT)
        game_cls = _deal_class(rules.game)
        hands = game_cls._hands_from_order(order, first)
        stock = tuple(order[2 * HAND_SIZE :])
        return game_cls(
            rules, hands, stock, first, score=score, target=target, seed=seed, number=number, secret=secret, key=key
        )

    @classmethod
    def from_secret(cls, rules: RuleSet, secret: bytes, first: int = 0) -> Deal:
        """The deal a secret gives (its number and score unknown: deal 1 at 0:0)."""
        order = shuffled(secret, TILE_COUNT)
        game_cls = _deal_class(rules.game)
        hands = game_cls._hands_from_order(order, first)
        return game_cls(rules, hands, tuple(order[2 * HAND_SIZE :]), first, secret=secret)

    @property
    def commitment(self) -> str | None:
        """SHA-256 of the secret in 64 hex digits, shown before the deal is played (None: no secret)."""
        return None if self.secret is None else commitment(self.secret)

    @property
    def revealed(self) -> str | None:
        """The secret in hex once the deal is over; None before (and for a deal without a secret)."""
        return self.secret.hex() if self.secret is not None and self.end is not None else None

    @staticmethod
    def _hands_from_order(order: list[int], first: int) -> tuple[int, int]:
        a = sum(1 << t for t in order[:HAND_SIZE])
        b = sum(1 << t for t in order[HAND_SIZE : 2 * HAND_SIZE])
        return (a, b)

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
        trick = (leader, lead, reply, winner)
        self.last_trick = trick
        self.history.append(trick)
        self.lead = -1
        self.turn = winner

    def last_trick_view(self) -> TrickView | None:
        if self.last_trick is None:
            return None
        return trick_view(self.last_trick)

    def history_view(self) -> tuple[TrickView, ...]:
        """Every settled trick of the deal, in order."""
        return tuple(map(trick_view, self.history))

    def tile_places(self) -> list[int]:
        """Masks of every place a tile can be; they partition the set (an invariant)."""
        stock = 0
        for t in self.reserve:
            stock |= 1 << t
        table = 0 if self.lead < 0 else 1 << self.lead
        return [self.hands[0], self.hands[1], stock, self.captured[0], self.captured[1], table]

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
            "hands": [format_mask(self.start_hands[0]), format_mask(self.start_hands[1])],
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
        hands = (parse_mask(record["hands"][0]), parse_mask(record["hands"][1]))
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
        hands = self._hands_from_order(order, self.first)
        return hands == self.start_hands and tuple(order[2 * HAND_SIZE :]) == self.stock


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
