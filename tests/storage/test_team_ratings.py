"""The rating of matches played in teams (42 for four, ``ResultStore.count_teams``): each player's Elo moves
against the mean of the other team by the team's result, in a table of its own, once however often the step
runs; in a chat each pair of players counts as partners or as opponents."""

from __future__ import annotations

import math
from typing import cast

from bot.services import Stores
from bot.storage.base import text
from bot.storage.keys import GLOBAL, chat_scope

CHAT = -100900
TTL = 600
ANN, BOB, CEZ, DAN = (901, "Ann"), (902, "Bob"), (903, "Cez"), (904, "Dan")


def expected_changes(winners: list[float], losers: list[float], k: int = 32) -> list[int]:
    """Written from the rule alone: each player against the mean of the other team, rounded half up."""

    def change(rating: float, against: list[float], score: int) -> int:
        mean = sum(against) / len(against)
        return math.floor(k * (score - 1 / (1 + 10 ** ((mean - rating) / 400))) + 0.5)

    return [change(r, losers, 1) for r in winners] + [change(r, winners, 0) for r in losers]


async def test_a_first_match_moves_everyone_by_half_k(stores: Stores) -> None:
    changes = await stores.results.count_teams(CHAT, "m1", [ANN, CEZ], [BOB, DAN], game="42x4", finished=10.0, ttl=TTL)
    assert changes == [(16, 1516), (16, 1516), (-16, 1484), (-16, 1484)]
    ann = await stores.results.team_stats(CHAT, ANN[0])
    assert ann["rating"] == "1516" and ann["won"] == "1" and ann["played:42x4"] == "1" and ann["name"] == "Ann"
    bob = await stores.results.team_stats(CHAT, BOB[0])
    assert bob["lost"] == "1" and bob["streak"] == "0" and "won" not in bob
    # A table of its own: the chat's table of matches for two has nobody.
    assert await stores.results.stats(CHAT, ANN[0]) == {}
    board = await stores.redis.zrevrange(stores.keys.team_leaderboard(chat_scope(CHAT)), 0, -1, withscores=True)
    assert sorted((int(text(uid)), int(score)) for uid, score in cast(list[tuple[bytes, float]], board)) == [
        (901, 1516),
        (902, 1484),
        (903, 1516),
        (904, 1484),
    ]


async def test_against_the_mean_of_the_other_team(stores: Stores) -> None:
    """Unequal ratings: each match's changes are the rule's, from the ratings before it (kept here apart)."""
    results = stores.results
    rating = {uid: 1500 for uid, _ in (ANN, BOB, CEZ, DAN)}
    logged: dict[int, list[str]] = {uid: [] for uid in rating}
    matches = [([ANN, BOB], [CEZ, DAN]), ([ANN, CEZ], [BOB, DAN]), ([BOB, DAN], [ANN, CEZ]), ([ANN, DAN], [BOB, CEZ])]
    for n, (winners, losers) in enumerate(matches):
        want = expected_changes([rating[u] for u, _ in winners], [rating[u] for u, _ in losers])
        order = [u for u, _ in (*winners, *losers)]
        for uid, change in zip(order, want, strict=True):
            rating[uid] += change
            logged[uid].insert(0, str(change))
        changes = await results.count_teams(CHAT, f"m{n}", winners, losers, game="42x4", finished=n, ttl=TTL)
        assert changes == [(change, rating[uid]) for uid, change in zip(order, want, strict=True)]
    assert len(set(rating.values())) > 2, rating  # the ratings did come apart
    for uid in rating:
        assert int((await results.team_stats(CHAT, uid))["rating"]) == rating[uid]
        log = await results.redis.lrange(stores.keys.team_rating_log(chat_scope(CHAT), uid), 0, -1)
        assert [text(row).split(",")[1] for row in log] == logged[uid]


async def test_counted_once(stores: Stores) -> None:
    results = stores.results
    first = await results.count_teams(CHAT, "m1", [ANN, CEZ], [BOB, DAN], game="42x4", finished=1.0, ttl=TTL)
    again = await results.count_teams(CHAT, "m1", [ANN, CEZ], [BOB, DAN], game="42x4", finished=1.0, ttl=TTL)
    assert again == first
    assert (await results.team_stats(CHAT, ANN[0]))["played"] == "1"
    assert (await results.pair(CHAT, ANN[0], CEZ[0]))["with"] == "1"


async def test_partners_and_opponents(stores: Stores) -> None:
    results = stores.results
    await results.count_teams(CHAT, "m1", [ANN, CEZ], [BOB, DAN], game="42x4", finished=1.0, ttl=TTL)
    await results.count_teams(CHAT, "m2", [BOB, CEZ], [ANN, DAN], game="42x4", finished=2.0, ttl=TTL)
    await results.count_teams(CHAT, "m3", [ANN, DAN], [BOB, CEZ], game="42x4", finished=3.0, ttl=TTL)
    ann_cez = await results.pair(CHAT, CEZ[0], ANN[0])  # either order: one record
    assert ann_cez == {"with": "1", "with_won": "1", "against": "2", "w:903": "1", "w:901": "1"}
    bob_dan = await results.pair(CHAT, BOB[0], DAN[0])
    assert bob_dan == {"with": "1", "against": "2", "w:902": "1", "w:904": "1"}
    assert await results.pair(CHAT + 1, ANN[0], CEZ[0]) == {}


async def test_the_global_table(stores: Stores) -> None:
    """The global table of matches in teams counts the same, with no pairs (they are a chat's)."""
    results = stores.results
    await results.count_teams(None, "m1", [ANN, CEZ], [BOB, DAN], game="42x4", finished=1.0, ttl=TTL)
    assert (await results.team_stats(None, DAN[0]))["rating"] == "1484"
    assert await results.team_stats(CHAT, DAN[0]) == {}
    board = await stores.redis.zcard(stores.keys.team_leaderboard(GLOBAL))
    assert board == 4
