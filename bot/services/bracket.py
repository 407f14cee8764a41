"""A tournament's plan, without Redis or Telegram: the pairings of a round robin or a knockout, what a result or
a leaver changes, which pairings may start, and the standings.

Round robin (3 to 6 players): every pair plays once, in rounds made by the
circle method (a round's matches can run at once). Standings: wins, then the
wins among the players tied on wins (head-to-head), then game points, then
who signed up first.

Single elimination (7 to 16): a bracket of 8 or 16 slots, seeded by the
group's rating (the best first; sign-up order breaks ties) in the usual
order (1 meets the lowest, 1 and 2 only in the final), so the top seeds get
the byes. A pairing with nobody in a slot is decided at once (a bye); one
whose player left is decided for the other (a forfeit), and one whose two
players both left sends nobody on. A match that ends with no winner (abandoned
after weeks without a move), and a pairing both of whose players stayed busy
in other matches too long, send the higher seed on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from bot.models import Pairing, Tournament

ROUND_ROBIN_MAX = 6
"""The most players a round robin takes; more play a knockout."""
PLAYERS_MIN = 3
PLAYERS_MAX = 16


def format_for(players: int) -> Literal["rr", "ko"]:
    """``rr`` (round robin) or ``ko`` (single elimination) for this many players."""
    return "rr" if players <= ROUND_ROBIN_MAX else "ko"


def round_robin(players: int) -> list[Pairing]:
    """Every pair once, round by round (the circle method; with an odd count one player rests each round)."""
    seats: list[int | None] = list(range(players))
    if players % 2:
        seats.append(None)
    size = len(seats)
    pairings: list[Pairing] = []
    for rnd in range(size - 1):
        for i in range(size // 2):
            a, b = seats[i], seats[size - 1 - i]
            if a is not None and b is not None:
                pairings.append(Pairing(n=len(pairings), round=rnd, a=min(a, b), b=max(a, b)))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return pairings


def seed_order(size: int) -> list[int]:
    """The seeds (0 the best) in bracket order for ``size`` slots: [0, 7, 3, 4, 1, 6, 2, 5] for 8."""
    order = [0]
    while len(order) < size:
        total = 2 * len(order) - 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def knockout(seeded: list[int]) -> list[Pairing]:
    """The bracket for the entrants in seed order (``seeded[0]`` the best): the first round's pairings (slots
    past the last seed are byes) and the later rounds' pairings, empty until their players are known."""
    size = 8 if len(seeded) <= 8 else 16
    slots = [seeded[s] if s < len(seeded) else None for s in seed_order(size)]
    pairings: list[Pairing] = []
    for i in range(size // 2):
        a, b = slots[2 * i], slots[2 * i + 1]
        pairings.append(Pairing(n=i, round=0, a=a, b=b, bye=a is None or b is None))
    rnd, count = 1, size // 4
    while count >= 1:
        for _ in range(count):
            pairings.append(Pairing(n=len(pairings), round=rnd))
        rnd, count = rnd + 1, count // 2
    return pairings


def rounds_of(t: Tournament) -> list[list[Pairing]]:
    """The pairings round by round."""
    rounds: list[list[Pairing]] = []
    for p in t.pairings:
        while len(rounds) <= p.round:
            rounds.append([])
        rounds[p.round].append(p)
    return rounds


def settle(t: Tournament) -> bool:
    """Decide what needs no match (byes, forfeits of leavers), move knockout winners on, and crown the champion
    once every pairing is decided. Changes ``t``; True when anything changed."""
    changed = False
    while True:
        step = _decide_without_play(t) | (t.format == "ko" and _advance(t))
        if not step:
            break
        changed = True
    if t.status == "running" and all(p.done for p in t.pairings):
        t.status = "finished"
        t.champion = champion_of(t)
        changed = True
    return changed


def _decide_without_play(t: Tournament) -> bool:
    """Pairings not started whose player is missing (a bye, a leaver, nobody came on): decided now."""
    changed = False
    for p in t.pairings:
        if p.done or p.match is not None or not _known(t, p):
            continue
        here = [x for x in (p.a, p.b) if x is not None and not t.entrants[x].left]
        if len(here) == 2:
            continue
        p.done = True
        p.winner = here[0] if here else None
        p.forfeit = p.a is not None and p.b is not None
        changed = True
    return changed


def _known(t: Tournament, p: Pairing) -> bool:
    """Whether both of a pairing's slots are settled (a later knockout round waits for its feeders)."""
    return t.format != "ko" or p.round == 0 or p.filled


def _feeders(t: Tournament, p: Pairing) -> tuple[Pairing, Pairing]:
    """The two pairings of the round before whose winners meet in knockout pairing ``p``."""
    rounds = rounds_of(t)
    k = rounds[p.round].index(p)
    before = rounds[p.round - 1]
    return before[2 * k], before[2 * k + 1]


def _advance(t: Tournament) -> bool:
    """Knockout: the winners of decided pairings into the next round's slots."""
    changed = False
    for p in t.pairings:
        if p.round == 0 or p.filled or p.done:
            continue
        first, second = _feeders(t, p)
        if first.done and second.done:
            p.a, p.b, p.filled = first.winner, second.winner, True
            p.bye = p.a is None or p.b is None
            changed = True
    return changed


def champion_of(t: Tournament) -> int | None:
    """The champion of a finished tournament: the final's winner, or the round robin's first."""
    if t.format == "ko":
        return t.pairings[-1].winner
    table = standings(t)
    return table[0] if table else None


def startable(t: Tournament, busy: Iterable[int] = ()) -> list[Pairing]:
    """The pairings that may start now, in order: both players known and here, neither in a match of this
    tournament (or in ``busy``, entrant indexes known to play elsewhere), a player in one pairing at most."""
    taken = set(busy)
    for p in t.pairings:
        if p.match is not None and not p.done:
            taken.update(x for x in (p.a, p.b) if x is not None)
    ready = []
    for p in t.pairings:
        if p.done or p.match is not None or p.a is None or p.b is None or not _known(t, p):
            continue
        if p.a in taken or p.b in taken or t.entrants[p.a].left or t.entrants[p.b].left:
            continue
        taken.update((p.a, p.b))
        ready.append(p)
    return ready


def wait_for_busy(t: Tournament, busy: set[int], now: float) -> list[tuple[Pairing, set[int]]]:
    """Pairings kept waiting by ``busy`` entrants (playing other matches in the chat): each such pairing whose
    players play no match of this tournament notes since when it waits (a pairing that no longer waits forgets
    it), and one that has waited the tournament's clock or longer is forfeited (``forfeit_busy``). Returns those
    forfeited, with their busy entrants."""
    taken = {x for p in t.pairings if p.match is not None and not p.done for x in (p.a, p.b) if x is not None}
    forfeited: list[tuple[Pairing, set[int]]] = []
    for p in t.pairings:
        if p.done or p.match is not None:
            continue
        a, b = p.a, p.b
        blocked = {x for x in (a, b) if x in busy}
        ready = (a is not None and b is not None and _known(t, p) and not {a, b} & taken
                 and not t.entrants[a].left and not t.entrants[b].left)  # fmt: skip
        if not blocked or not ready:
            p.waiting = None
        elif p.waiting is None:
            p.waiting = now
        elif now - p.waiting >= t.clock:
            forfeit_busy(t, p, blocked)
            forfeited.append((p, blocked))
    return forfeited


def waiting_until(t: Tournament) -> float | None:
    """When the first pairing waiting for a busy player is forfeited, unless it starts first."""
    ends = [p.waiting + t.clock for p in t.pairings if p.waiting is not None and not p.done]
    return min(ends) if ends else None


def leave(t: Tournament, entrant: int) -> list[Pairing]:
    """An entrant leaves: marked, and the pairings left to them decided for their opponents by ``settle``.
    Returns their pairing being played now (its match is given up), if any."""
    t.entrants[entrant].left = True
    return [p for p in t.pairings if p.match is not None and not p.done and entrant in (p.a, p.b)]


def seeds(t: Tournament) -> list[int]:
    """The entrants best seed first: by the group's rating at the start, then who signed up first."""
    return sorted(range(len(t.entrants)), key=lambda x: (-t.entrants[x].rating, x))


def higher_seed(t: Tournament, a: int | None, b: int | None) -> int | None:
    """The better seeded of two entrants (a missing one is no seed)."""
    if a is None or b is None:
        return b if a is None else a
    order = seeds(t)
    return a if order.index(a) < order.index(b) else b


def record_result(t: Tournament, p: Pairing, winner_seat: int | None, score: tuple[int, int]) -> None:
    """A pairing's match ended: seat 0 of its match is ``p.a``. A player who left (or was removed) meanwhile loses
    it whatever the match says. ``winner_seat`` None: no winner (abandoned after weeks without a move): in a round
    robin nobody gets the win; in a knockout the higher seed goes on."""
    p.done = True
    p.score = score
    p.waiting = None
    here = [x for x in (p.a, p.b) if x is not None and not t.entrants[x].left]
    if len(here) < 2:
        p.winner = here[0] if here else None
    elif winner_seat is not None:
        p.winner = p.a if winner_seat == 0 else p.b
    elif t.format == "ko":
        p.winner = higher_seed(t, p.a, p.b)


def forfeit_busy(t: Tournament, p: Pairing, busy: set[int]) -> None:
    """A pairing that waited longer than the tournament's clock for ``busy`` (entrants playing other matches in
    the chat) is decided without a match: one busy loses it; both busy, nobody wins in a round robin, and in a
    knockout the higher seed goes on (as when a match ends with no winner)."""
    p.done = True
    p.forfeit = True
    p.waiting = None
    free = [x for x in (p.a, p.b) if x is not None and x not in busy]
    if len(free) == 1:
        p.winner = free[0]
    else:
        p.winner = higher_seed(t, p.a, p.b) if t.format == "ko" else None


def standings(t: Tournament) -> list[int]:
    """Round robin: the entrants best first (wins, head-to-head wins among those tied, game points, sign-up)."""
    wins = [0] * len(t.entrants)
    points = [0] * len(t.entrants)
    for p in t.pairings:
        if p.winner is not None:
            wins[p.winner] += 1
        if p.score is not None and p.a is not None and p.b is not None:
            points[p.a] += p.score[0]
            points[p.b] += p.score[1]

    def head_to_head(x: int) -> int:
        tied = {y for y in range(len(wins)) if wins[y] == wins[x]}
        return sum(1 for p in t.pairings if p.winner == x and {p.a, p.b} <= tied)

    return sorted(range(len(t.entrants)), key=lambda x: (-wins[x], -head_to_head(x), -points[x], x))


def table_row(t: Tournament, x: int) -> tuple[int, int, int, int]:
    """An entrant's played, wins, losses and game points so far."""
    played = wins = losses = points = 0
    for p in t.pairings:
        if not p.done or x not in (p.a, p.b) or p.bye:
            continue
        played += 1
        if p.winner == x:
            wins += 1
        elif p.winner is not None:
            losses += 1
        if p.score is not None:
            points += p.score[0] if p.a == x else p.score[1]
    return played, wins, losses, points
