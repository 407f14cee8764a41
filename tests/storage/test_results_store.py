"""ResultStore's wrappers, each held to its script's contract: the steps of a finish in the chat's slot, the
global table's and each player's, done once however often they run; the Elo numbers; and the reads of the tables,
rating logs and histories."""

from __future__ import annotations

import math

import pytest

from bot.models import Finish, Player, Summary
from bot.services import Stores
from bot.storage.keys import GLOBAL, chat_scope
from bot.storage.results import CHAT_HISTORY, RATING_LOG, USER_HISTORY, ChatCount, ResultStore
from tests.bot.helpers import ALA, BOB, CEZ, CHAT, OTHER_CHAT

TTL = 600
FINISHED = 1000.0


def elo(winner: int, loser: int, k: int = 32) -> int:
    """The winner's gain: K times the winner's surprise, rounded half up."""
    return math.floor(k * (1 - 1 / (1 + 10 ** ((loser - winner) / 400))) + 0.5)


def summary(match_id: str, winner: Player, loser: Player) -> Summary:
    return Summary(
        id=match_id,
        chat_id=CHAT,
        preset="bingo",
        players=(winner, loser),
        score=(7, 3),
        winner=0,
        finish=Finish.TARGET,
        finished=FINISHED,
    )


def opening(match_id: str, winner: Player, loser: Player) -> str:
    """The summary as the chat's step gets it: JSON without the rating fields and its closing brace."""
    return summary(match_id, winner, loser).model_dump_json(exclude={"rating_change", "ratings", "series"})[:-1]


async def counted_chat(
    results: ResultStore,
    match_id: str = "m1",
    winner: Player = BOB,
    loser: Player = ALA,
    *,
    counts: str = "1",
    game: str = "bingo",
    chat_id: int = CHAT,
    finished: float = FINISHED,
    score: tuple[int, int] = (7, 3),
) -> ChatCount:
    """The chat's step of a match ``winner`` won ``score`` (the winner's game points first)."""
    return await results.count_chat(
        chat_id,
        match_id,
        (winner.id, loser.id),
        (winner.id, winner.name),
        (loser.id, loser.name),
        game=game,
        counts=counts,
        summary=opening(match_id, winner, loser),
        finished=finished,
        ttl=TTL,
        lang="ru",
        score=score,
    )


async def count_chat(
    results: ResultStore,
    match_id: str = "m1",
    winner: Player = BOB,
    loser: Player = ALA,
    *,
    counts: str = "1",
    game: str = "bingo",
    chat_id: int = CHAT,
) -> tuple[tuple[int, int, int], str]:
    """The chat's step: its rating numbers and the summary it kept."""
    counted = await counted_chat(results, match_id, winner, loser, counts=counts, game=game, chat_id=chat_id)
    return counted.numbers, counted.summary


async def count_global(results: ResultStore, match_id: str = "m1", winner: Player = BOB, loser: Player = ALA) -> int:
    return await results.count_global(
        match_id, (winner.id, winner.name), (loser.id, loser.name), game="bingo", finished=FINISHED, ttl=TTL
    )


async def ttl_of(stores: Stores, key: str) -> int:
    found: int = await stores.redis.ttl(key)
    return found


class TestElo:
    """The rating change: K = 32 from 1500, K times the winner's surprise rounded half up."""

    def test_reference(self) -> None:
        assert [elo(1500, 1500), elo(1484, 1516), elo(1501, 1499), elo(1483, 1517), elo(1500, 1484)] == [
            16,
            17,
            16,
            18,
            15,
        ]

    @pytest.mark.parametrize(("k", "start", "change"), [(1, 1500, 1), (5, 1000, 3), (32, 1500, 16)])
    async def test_half_up(self, stores: Stores, k: int, start: int, change: int) -> None:
        """Between equal ratings the change is K/2, a half rounded up (not to even, not down)."""
        results = ResultStore(stores.redis, stores.keys, elo_k=k, elo_start=start)
        assert (await count_chat(results))[0] == (change, start + change, start - change)
        assert await count_global(results) == change
        assert (await results.stats(None, BOB.id))["rating"] == str(start + change)


class TestCountChat:
    """The finish's step in the chat's slot: the players leave the chat, a rated result counts in its table, a
    result worth keeping goes first in its history; once."""

    async def test_rated(self, stores: Stores) -> None:
        """The first rated match: +16/-16 from 1500, the counters, the board, the logs, the completed summary."""
        r = stores.results
        numbers, kept = await count_chat(r)
        assert numbers == (16, 1516, 1484)
        assert Summary.model_validate_json(kept) == summary("m1", BOB, ALA).model_copy(
            update={"rating_change": 16, "ratings": (1516, 1484), "series": (1, 0)}
        )
        assert await r.stats(CHAT, BOB.id) == {
            "name": "Bob",
            "rating": "1516",
            "played": "1",
            "won": "1",
            "played:bingo": "1",
            "won:bingo": "1",
            "streak": "1",
            "best": "1",
        }
        assert await r.stats(CHAT, ALA.id) == {
            "name": "Ala",
            "rating": "1484",
            "played": "1",
            "lost": "1",
            "played:bingo": "1",
            "streak": "0",
        }
        assert await r.ranked(CHAT, 10) == [BOB.id, ALA.id]
        assert (await r.rank(CHAT, BOB.id), await r.rank(CHAT, ALA.id)) == (1, 2)
        assert await r.rating_log(CHAT, BOB.id, 10) == ["1516,16,1000.0,1"]
        assert await r.rating_log(CHAT, ALA.id, 10) == ["1484,-16,1000.0,0"]
        assert await r.history(chat_id=CHAT, limit=10) == [kept]
        # The chat's table only.
        assert await r.stats(None, BOB.id) == {} and await r.ranked(None, 10) == []
        assert await r.rank(None, BOB.id) is None and await r.rating_log(None, BOB.id, 10) == []

    async def test_a_run_of_matches(self, stores: Stores) -> None:
        """Ratings carry from match to match; a win extends the streak, a loss resets it, the best stays until
        beaten; each game counts apart."""
        r = stores.results
        assert (await count_chat(r, "m1", BOB, ALA))[0] == (16, 1516, 1484)
        assert (await count_chat(r, "m2", ALA, BOB))[0] == (17, 1501, 1499)
        assert (await count_chat(r, "m3", ALA, BOB, game="42"))[0] == (16, 1517, 1483)
        assert (await count_chat(r, "m4", BOB, ALA))[0] == (18, 1501, 1499)
        assert (await count_chat(r, "m5", ALA, BOB))[0] == (16, 1515, 1485)
        ala, bob = await r.stats(CHAT, ALA.id), await r.stats(CHAT, BOB.id)
        assert (ala["played"], ala["won"], ala["lost"], ala["streak"], ala["best"]) == ("5", "3", "2", "1", "2")
        assert (bob["played"], bob["won"], bob["lost"], bob["streak"], bob["best"]) == ("5", "2", "3", "0", "1")
        assert (ala["played:bingo"], ala["won:bingo"], ala["played:42"], ala["won:42"]) == ("4", "2", "1", "1")
        assert (bob["played:bingo"], bob["won:bingo"], bob["played:42"]) == ("4", "2", "1")
        assert "won:42" not in bob
        assert await r.rating_log(CHAT, ALA.id, 10) == [
            "1515,16,1000.0,1",
            "1499,-18,1000.0,0",
            "1517,16,1000.0,1",
            "1501,17,1000.0,1",
            "1484,-16,1000.0,0",
        ]
        assert await r.rating_log(CHAT, ALA.id, 2) == ["1515,16,1000.0,1", "1499,-18,1000.0,0"]
        history = await r.history(chat_id=CHAT, limit=10)
        assert [Summary.model_validate_json(s).id for s in history] == ["m5", "m4", "m3", "m2", "m1"]
        assert await r.history(chat_id=CHAT, limit=2) == history[:2]

    async def test_once(self, stores: Stores) -> None:
        """Run again (even with other arguments), the step answers the same and changes nothing."""
        r = stores.results
        first = await count_chat(r)
        before = (await r.stats(CHAT, ALA.id), await r.stats(CHAT, BOB.id))
        assert await count_chat(r, winner=ALA, loser=BOB) == first
        assert await count_chat(r, counts="0") == first
        assert (await r.stats(CHAT, ALA.id), await r.stats(CHAT, BOB.id)) == before
        assert await r.history(chat_id=CHAT, limit=10) == [first[1]]
        assert len(await r.rating_log(CHAT, ALA.id, 10)) == 1
        assert TTL - 5 < await ttl_of(stores, stores.keys.counted(chat_scope(CHAT), "m1")) <= TTL

    @pytest.mark.parametrize(
        ("counts", "rated", "kept"), [("1", True, True), ("h", False, True), ("v", False, True), ("0", False, False)]
    )
    async def test_cases(self, stores: Stores, counts: str, rated: bool, kept: bool) -> None:
        """'1' counted and kept with its rating change, 'h' abandoned and 'v' against the computer kept without,
        '0' neither; in every case the players leave the chat."""
        r, k = stores.results, stores.keys
        for user in (ALA, BOB):
            await stores.redis.set(k.active(CHAT, user.id), "m1")
        await stores.redis.sadd(k.chat_matches(CHAT), "m1", "m2")
        numbers, summary_kept = await count_chat(r, counts=counts)
        assert (numbers != (0, 0, 0)) is rated
        assert bool(await r.stats(CHAT, BOB.id)) is rated and bool(await r.ranked(CHAT, 10)) is rated
        assert bool(await r.rating_log(CHAT, BOB.id, 10)) is rated
        if kept:
            assert Summary.model_validate_json(summary_kept).rating_change == numbers[0]
            assert await r.history(chat_id=CHAT, limit=10) == [summary_kept]
        else:
            assert summary_kept == "" and await r.history(chat_id=CHAT, limit=10) == []
        if counts in ("h", "v"):
            assert Summary.model_validate_json(summary_kept) == summary("m1", BOB, ALA)
        assert await stores.matches.active_match(CHAT, ALA.id) is None
        assert await stores.matches.active_match(CHAT, BOB.id) is None
        assert await stores.matches.chat_match_ids(CHAT) == ["m2"]

    async def test_active_keys_naming_the_match(self, stores: Stores) -> None:
        """A player's active key is dropped only while it names this match."""
        k = stores.keys
        await stores.redis.set(k.active(CHAT, ALA.id), "m1")
        await stores.redis.set(k.active(CHAT, BOB.id), "m2")
        await count_chat(stores.results)
        assert await stores.matches.active_match(CHAT, ALA.id) is None
        assert await stores.matches.active_match(CHAT, BOB.id) == "m2"

    async def test_trimmed(self, stores: Stores) -> None:
        """The chat's history keeps its last CHAT_HISTORY, each rating log its last RATING_LOG."""
        r, k = stores.results, stores.keys
        await stores.redis.rpush(k.chat_history(CHAT), *(f"old{i}" for i in range(CHAT_HISTORY)))
        await stores.redis.rpush(k.rating_log(chat_scope(CHAT), BOB.id), *(f"old{i}" for i in range(RATING_LOG)))
        _, kept = await count_chat(r)
        history = await r.history(chat_id=CHAT, limit=1000)
        assert len(history) == CHAT_HISTORY and history[0] == kept and history[-1] == f"old{CHAT_HISTORY - 2}"
        log = await r.rating_log(CHAT, BOB.id, 1000)
        assert len(log) == RATING_LOG and log[0] == "1516,16,1000.0,1" and log[-1] == f"old{RATING_LOG - 2}"


class TestCountGlobal:
    """The finish's step in the global table's slot: the same Elo in the global table; once."""

    async def test_counted(self, stores: Stores) -> None:
        r = stores.results
        assert await count_global(r) == 16
        assert await r.stats(None, BOB.id) == {
            "name": "Bob",
            "rating": "1516",
            "played": "1",
            "won": "1",
            "played:bingo": "1",
            "won:bingo": "1",
            "streak": "1",
            "best": "1",
        }
        assert (await r.stats(None, ALA.id))["rating"] == "1484"
        assert await r.ranked(None, 10) == [BOB.id, ALA.id]
        assert await r.rating_log(None, ALA.id, 10) == ["1484,-16,1000.0,0"]
        assert await r.stats(CHAT, BOB.id) == {} and await r.ranked(CHAT, 10) == []
        assert await count_global(r, "m2", ALA, BOB) == 17

    async def test_once(self, stores: Stores) -> None:
        r = stores.results
        assert await count_global(r) == 16
        assert await count_global(r, winner=ALA, loser=BOB) == 16
        assert (await r.stats(None, BOB.id))["played"] == "1"
        assert len(await r.rating_log(None, BOB.id, 10)) == 1
        assert TTL - 5 < await ttl_of(stores, stores.keys.counted(GLOBAL, "m1")) <= TTL


class TestCountUser:
    """The finish's step in a player's slot: the match leaves their active matches and goes first in their
    history when it has a summary; once."""

    async def test_counted(self, stores: Stores) -> None:
        r, m = stores.results, stores.matches
        for match_id in ("m1", "m2", "m3"):
            await m.add_player_matches(match_id, [ALA.id])
            await m.create(match_id, "r0", ttl=TTL)
        await r.count_user(ALA.id, "m1", summary="s1", ttl=TTL)
        assert await m.user_matches(ALA.id) == ["m2", "m3"]
        assert await r.history(user_id=ALA.id, limit=10) == ["s1"]
        await r.count_user(ALA.id, "m2", summary="", ttl=TTL)
        assert await m.user_matches(ALA.id) == ["m3"]
        assert await r.history(user_id=ALA.id, limit=10) == ["s1"]
        assert TTL - 5 < await ttl_of(stores, stores.keys.counted(f"u{ALA.id}", "m2")) <= TTL

    async def test_once(self, stores: Stores) -> None:
        r, m = stores.results, stores.matches
        await r.count_user(ALA.id, "m1", summary="s1", ttl=TTL)
        await m.add_player_matches("m1", [ALA.id])
        await m.create("m1", "r0", ttl=TTL)
        await r.count_user(ALA.id, "m1", summary="s2", ttl=TTL)
        assert await r.history(user_id=ALA.id, limit=10) == ["s1"]
        assert await m.user_matches(ALA.id) == ["m1"]
        assert await r.history(user_id=BOB.id, limit=10) == []

    async def test_trimmed(self, stores: Stores) -> None:
        """A player's history keeps its last USER_HISTORY."""
        await stores.redis.rpush(stores.keys.user_history(ALA.id), *(f"old{i}" for i in range(USER_HISTORY)))
        await stores.results.count_user(ALA.id, "m1", summary="s1", ttl=TTL)
        history = await stores.results.history(user_id=ALA.id, limit=1000)
        assert len(history) == USER_HISTORY and history[0] == "s1" and history[-1] == f"old{USER_HISTORY - 2}"


class TestCountComputer:
    """A match against the computer counts in the person's global record at its level, never in the rating; once."""

    async def test_levels(self, stores: Stores) -> None:
        r = stores.results
        await r.count_computer(ALA.id, "m1", level="hard", won=True, ttl=TTL)
        await r.count_computer(ALA.id, "m2", level="hard", won=False, ttl=TTL)
        await r.count_computer(ALA.id, "m3", level="easy", won=False, ttl=TTL)
        await r.count_computer(ALA.id, "m1", level="hard", won=True, ttl=TTL)
        assert await r.stats(None, ALA.id) == {"cpu:hard:played": "2", "cpu:hard:won": "1", "cpu:easy:played": "1"}
        assert await r.ranked(None, 10) == [] and await r.stats(CHAT, ALA.id) == {}
        assert TTL - 5 < await ttl_of(stores, stores.keys.counted(GLOBAL, "m3")) <= TTL


class TestReads:
    """The tables, read: the best first, a player's place, none for a stranger."""

    async def test_ranked(self, stores: Stores) -> None:
        r = stores.results
        await count_chat(r, "m1", BOB, ALA)
        assert (await count_chat(r, "m2", CEZ, ALA))[0] == (15, 1515, 1469)
        assert await r.ranked(CHAT, 10) == [BOB.id, CEZ.id, ALA.id]
        assert await r.ranked(CHAT, 2) == [BOB.id, CEZ.id]
        assert [await r.rank(CHAT, u.id) for u in (BOB, CEZ, ALA)] == [1, 2, 3]
        assert await r.rank(CHAT, 999) is None
        assert await r.ranked(OTHER_CHAT, 10) == []

    async def test_history_by_chat_or_user(self, stores: Stores) -> None:
        r = stores.results
        _, kept = await count_chat(r)
        await r.count_user(BOB.id, "m1", summary="s1", ttl=TTL)
        assert await r.history(chat_id=CHAT, limit=5) == [kept]
        assert await r.history(user_id=BOB.id, limit=5) == ["s1"]
        assert await r.history(chat_id=OTHER_CHAT, limit=5) == []


class TestChatKeys:
    """A chat that becomes another takes its table, its history, and the stats and rating logs of everyone in it."""

    async def test_keys(self, stores: Stores) -> None:
        r, k = stores.results, stores.keys
        old, new = chat_scope(CHAT), chat_scope(OTHER_CHAT)
        tables = [(k.leaderboard(old), k.leaderboard(new)), (k.chat_history(CHAT), k.chat_history(OTHER_CHAT))]
        assert await r.chat_keys(CHAT, OTHER_CHAT) == tables
        await count_chat(r)
        assert await r.chat_keys(CHAT, OTHER_CHAT) == [
            *tables,
            (k.stats(old, ALA.id), k.stats(new, ALA.id)),
            (k.stats(old, BOB.id), k.stats(new, BOB.id)),
            (k.rating_log(old, ALA.id), k.rating_log(new, ALA.id)),
            (k.rating_log(old, BOB.id), k.rating_log(new, BOB.id)),
        ]
