"""A tournament's plan (bot/services/bracket.py): pairings, byes, forfeits, who goes on, the standings."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.models import Entrant, Player, Tournament
from bot.services import bracket


def running(n: int, ratings: list[int] | None = None) -> Tournament:
    ratings = ratings or [1500] * n
    t = Tournament(
        id="abcdefgh_-1", chat_id=-1, creator=Player(id=1, name="p0"), preset="bingo", target=7, lang="ru",
        created=0, expires=1, status="running",
        entrants=[Entrant(player=Player(id=i + 1, name=f"p{i}"), rating=ratings[i]) for i in range(n)],
    )  # fmt: skip
    t.format = bracket.format_for(n)
    if t.format == "rr":
        t.pairings = bracket.round_robin(n)
    else:
        t.pairings = bracket.knockout(sorted(range(n), key=lambda x: (-t.entrants[x].rating, x)))
    bracket.settle(t)
    return t


def play_out(t: Tournament, rng: random.Random, leaver: int | None = None) -> int:
    """Play every pairing as it becomes startable, random winners; ``leaver`` leaves after the first round.
    Returns the number of matches played."""
    played = 0
    while t.status == "running":
        ready = bracket.startable(t)
        assert ready, "a running tournament with nothing to start"
        for number, p in enumerate(ready):
            p.match = f"m{played + number}"
        played += len(ready)
        if leaver is not None:
            for p in bracket.leave(t, leaver):
                bracket.record_result(t, p, 1 if p.a == leaver else 0, (0, 0))
            leaver = None
        for p in ready:
            if not p.done:
                bracket.record_result(t, p, rng.randrange(2), (7, rng.randrange(7)))
        bracket.settle(t)
    return played


@pytest.mark.parametrize("n", range(3, 7))
def test_round_robin_every_pair_once(n: int) -> None:
    t = running(n)
    assert t.format == "rr"
    pairs = [frozenset((p.a, p.b)) for p in t.pairings]
    assert sorted(pairs, key=sorted) == sorted(map(frozenset, itertools.combinations(range(n), 2)), key=sorted)
    # A round's matches can run at once: nobody twice in a round.
    for rnd in bracket.rounds_of(t):
        players = [x for p in rnd for x in (p.a, p.b)]
        assert len(players) == len(set(players))
    assert play_out(t, random.Random(n)) == n * (n - 1) // 2
    assert t.status == "finished" and t.champion == bracket.standings(t)[0]


def test_seeds_in_bracket_order() -> None:
    assert bracket.seed_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    assert sorted(bracket.seed_order(16)) == list(range(16))


@pytest.mark.parametrize("n", range(7, 17))
def test_knockout_top_seeds_get_the_byes(n: int) -> None:
    ratings = [1400 + 10 * i for i in range(n)]  # the last to sign up is the best
    t = running(n, ratings)
    size = 8 if n <= 8 else 16
    first = bracket.rounds_of(t)[0]
    assert len(first) == size // 2 and t.format == "ko"
    byes = [p for p in first if p.bye]
    assert len(byes) == size - n
    best = sorted(range(n), key=lambda x: -ratings[x])
    assert {p.winner for p in byes} == set(best[: size - n])
    assert all(p.done and p.match is None for p in byes)
    assert play_out(t, random.Random(n)) == n - 1
    final = t.pairings[-1]
    assert t.status == "finished" and t.champion == final.winner is not None


def test_knockout_one_and_two_meet_only_in_the_final() -> None:
    t = running(8, [2000 - i for i in range(8)])
    rng = random.Random(3)
    while t.status == "running":
        for p in bracket.startable(t):
            p.match = "m"
            # The better seed (lower index here) always wins.
            assert p.a is not None and p.b is not None
            bracket.record_result(t, p, 0 if p.a < p.b else 1, (7, rng.randrange(7)))
        bracket.settle(t)
    final = t.pairings[-1]
    assert {final.a, final.b} == {0, 1} and t.champion == 0


def test_a_leaver_forfeits_what_is_left() -> None:
    t = running(5)
    rng = random.Random(5)
    play_out(t, rng, leaver=2)
    assert t.entrants[2].left and t.status == "finished"
    forfeits = [p for p in t.pairings if p.forfeit]
    assert forfeits and all(2 in (p.a, p.b) and p.winner != 2 and p.match is None for p in forfeits)
    assert bracket.table_row(t, 2)[1] <= 1


def test_a_knockout_leaver_sends_the_opponent_on() -> None:
    t = running(8)
    first = bracket.startable(t)
    for p in first:
        p.match = "m"
    leaver = first[0].a
    assert leaver is not None
    playing = bracket.leave(t, leaver)
    assert playing == [first[0]]
    bracket.record_result(t, first[0], 1, (0, 0))  # the leaver gave the match up
    for p in first[1:]:
        bracket.record_result(t, p, 0, (7, 1))
    bracket.settle(t)
    semis = bracket.rounds_of(t)[1]
    assert first[0].b in {x for p in semis for x in (p.a, p.b)}


def test_standings_head_to_head_breaks_a_tie_before_points() -> None:
    t = running(3)
    by_pair = {frozenset((p.a, p.b)): p for p in t.pairings}
    # 0 beats 1 by a little, 1 beats 2 by a lot, 2 beats 0 by a lot: one win each; then points decide.
    for (a, b), winner, score in (((0, 1), 0, 7), ((1, 2), 1, 7), ((0, 2), 2, 7)):
        p = by_pair[frozenset((a, b))]
        p.match = "m"
        bracket.record_result(t, p, 0 if p.a == winner else 1, (score, 0) if p.a == winner else (0, score))
    bracket.settle(t)
    assert t.status == "finished"
    assert [bracket.table_row(t, x)[1] for x in range(3)] == [1, 1, 1]
    # Four players: 0 and 1 tied on wins, 1 beat 0: 1 is above though 0 has more points.
    t = running(4)
    results = {(0, 1): 1, (0, 2): 0, (0, 3): 0, (1, 2): 2, (1, 3): 1, (2, 3): 3}
    for p in t.pairings:
        assert p.a is not None and p.b is not None
        winner = results[(p.a, p.b)]
        p.match = "m"
        big = 7 if winner == 0 else 1
        bracket.record_result(t, p, 0 if p.a == winner else 1, (big, 0) if p.a == winner else (0, big))
    bracket.settle(t)
    table = bracket.standings(t)
    assert table.index(1) < table.index(0)


def test_an_abandoned_knockout_match_sends_the_higher_seed_on() -> None:
    """Seeds by rating (0 the best). Lower seeds win the top half's first round, so the semi-final's upper slot
    holds seed 7 and its lower seed 3: abandoned with no winner, 3 goes on, not the upper slot."""
    t = running(8, [2000 - i for i in range(8)])
    wins = {frozenset((0, 7)): 7, frozenset((3, 4)): 3, frozenset((1, 6)): 1, frozenset((2, 5)): 2}
    for p in bracket.startable(t):
        p.match = "m"
        assert p.a is not None and p.b is not None
        bracket.record_result(t, p, 0 if wins[frozenset((p.a, p.b))] == p.a else 1, (7, 0))
    bracket.settle(t)
    semi = bracket.rounds_of(t)[1][0]
    assert (semi.a, semi.b) == (7, 3)
    assert bracket.higher_seed(t, 7, 3) == 3
    semi.match = "m"
    bracket.record_result(t, semi, None, (2, 2))
    assert semi.winner == 3
    # A round robin gives nobody the win.
    rr = running(3)
    p = rr.pairings[0]
    bracket.record_result(rr, p, None, (1, 1))
    assert p.done and p.winner is None


def test_a_result_of_a_player_who_left_goes_to_the_other() -> None:
    """A match its player left (or was removed from) mid-way counts for the other, whatever it says."""
    t = running(3)
    p = t.pairings[0]
    p.match = "m"
    assert p.a is not None
    bracket.leave(t, p.a)
    bracket.record_result(t, p, 0, (7, 0))
    assert p.winner == p.b


class TestWaitForBusy:
    """A pairing waiting for a player busy in another match of the chat: its wait starts, ends or is forfeited."""

    def test_forfeited_after_the_clock(self) -> None:
        t = running(3)
        t.clock = 600
        assert bracket.wait_for_busy(t, {0}, 1000.0) == []
        waiting = [p for p in t.pairings if p.waiting is not None]
        assert {p.n for p in waiting} == {p.n for p in t.pairings if 0 in (p.a, p.b)}
        assert all(p.waiting == 1000.0 for p in waiting)
        assert bracket.waiting_until(t) == 1600.0
        assert bracket.wait_for_busy(t, {0}, 1599.0) == []
        forfeited = bracket.wait_for_busy(t, {0}, 1600.0)
        assert sorted(p.n for p, _ in forfeited) == sorted(p.n for p in waiting)
        for p, busy in forfeited:
            assert busy == {0} and p.done and p.forfeit and p.match is None and p.winner != 0 and p.waiting is None
        assert bracket.waiting_until(t) is None

    def test_a_pairing_that_stops_waiting_forgets_it(self) -> None:
        t = running(3)
        t.clock = 600
        bracket.wait_for_busy(t, {0}, 1000.0)
        bracket.wait_for_busy(t, set(), 1300.0)  # free for a moment: the wait starts again next time
        assert all(p.waiting is None for p in t.pairings)
        bracket.wait_for_busy(t, {0}, 1400.0)
        assert bracket.wait_for_busy(t, {0}, 1700.0) == []

    def test_not_while_the_other_plays_for_the_tournament(self) -> None:
        """A pairing whose other player plays a match of this tournament waits for that, not for the busy one."""
        t = running(3)
        t.clock = 600
        other = next(p for p in t.pairings if 0 not in (p.a, p.b))
        other.match = "m"
        bracket.wait_for_busy(t, {0}, 1000.0)
        assert all(p.waiting is None for p in t.pairings)

    def test_both_busy(self) -> None:
        """Both busy: a round robin gives nobody the win; a knockout sends the higher seed on."""
        t = running(3)
        t.clock = 60
        p = t.pairings[0]
        assert p.a is not None and p.b is not None
        bracket.wait_for_busy(t, {p.a, p.b}, 0.0)
        [(forfeited, busy)] = [(q, b) for q, b in bracket.wait_for_busy(t, {p.a, p.b}, 60.0) if q is p]
        assert busy == {p.a, p.b} and forfeited.done and forfeited.winner is None
        ko = running(8, [2000 - i for i in range(8)])
        ko.clock = 60
        first = ko.pairings[0]
        assert (first.a, first.b) == (0, 7)
        bracket.wait_for_busy(ko, {0, 7}, 0.0)
        bracket.wait_for_busy(ko, {0, 7}, 60.0)
        assert first.done and first.forfeit and first.winner == 0
