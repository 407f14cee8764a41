"""TournamentStore's wrappers, each held to its script's contract: one tournament a chat at a time, a
compare-and-set write that ends it (its TTL, its champion's win), the start of a pairing refused to a player who
plays in the chat, and the one-time marks."""

from __future__ import annotations

from bot.services import Stores
from bot.storage.keys import challenge_id
from bot.storage.tournaments import Started
from tests.bot.helpers import CHAT

T1 = challenge_id("aaaaaaaa", CHAT)
T2 = challenge_id("bbbbbbbb", CHAT)
ANN, BOB, CAT = 11, 12, 13


async def opened(stores: Stores, data: str = '{"v":0}') -> bytes | str:
    assert await stores.tournaments.open(T1, CHAT, data) is None
    raw = await stores.tournaments.read(T1)
    assert raw is not None
    return raw


class TestOpen:
    async def test_one_a_chat(self, stores: Stores) -> None:
        await opened(stores)
        assert await stores.tournaments.current(CHAT) == T1
        assert await stores.tournaments.open(T2, CHAT, "{}") == T1
        assert await stores.tournaments.read(T2) is None


class TestWrite:
    async def test_compare_and_set(self, stores: Stores) -> None:
        raw = await opened(stores)
        assert await stores.tournaments.write(T1, CHAT, raw, '{"v":1}')
        assert not await stores.tournaments.write(T1, CHAT, raw, '{"v":2}'), "a stale write must fail"
        assert await stores.tournaments.read(T1) in (b'{"v":1}', '{"v":1}')
        assert await stores.redis.ttl(stores.keys.tournament(T1)) == -1

    async def test_an_end_counts_its_champion_once(self, stores: Stores) -> None:
        raw = await opened(stores)
        assert await stores.tournaments.write(T1, CHAT, raw, '{"v":1}', ends=True, champion=ANN, ttl=600)
        assert await stores.tournaments.current(CHAT) is None
        assert 0 < await stores.redis.ttl(stores.keys.tournament(T1)) <= 600
        assert await stores.tournaments.wins(CHAT, ANN) == 1
        assert not await stores.tournaments.write(T1, CHAT, raw, '{"v":1}', ends=True, champion=ANN, ttl=600)
        assert await stores.tournaments.wins(CHAT, ANN) == 1 and await stores.tournaments.wins(CHAT, BOB) == 0
        # The chat may open the next one.
        assert await stores.tournaments.open(T2, CHAT, "{}") is None


class TestStart:
    async def test_start_marks_both_active(self, stores: Stores) -> None:
        raw = await opened(stores)
        answer = await stores.tournaments.start(T1, CHAT, raw, '{"v":1}', (ANN, BOB), "m1", '{"id":"m1"}',
                                                accepted=f"{T1}.0", ttl=600)  # fmt: skip
        assert answer == (Started.STARTED, ())
        assert await stores.matches.active_match(CHAT, ANN) == "m1"
        assert await stores.matches.active_match(CHAT, BOB) == "m1"
        assert await stores.tournaments.accepted(CHAT, f"{T1}.0") in (b'{"id":"m1"}', '{"id":"m1"}')
        assert await stores.tournaments.read(T1) in (b'{"v":1}', '{"v":1}')
        # The same start again (a process that read the tournament before) changes nothing.
        again = await stores.tournaments.start(T1, CHAT, raw, '{"v":9}', (ANN, BOB), "m2", "{}",
                                               accepted=f"{T1}.0", ttl=600)  # fmt: skip
        assert again == (Started.CHANGED, ())
        assert await stores.matches.active_match(CHAT, ANN) == "m1"

    async def test_a_player_busy_in_the_chat_waits(self, stores: Stores) -> None:
        raw = await opened(stores)
        first = await stores.tournaments.start(T1, CHAT, raw, '{"v":1}', (ANN, BOB), "m1", "{}",
                                               accepted=f"{T1}.0", ttl=600)  # fmt: skip
        assert first == (Started.STARTED, ())
        raw = '{"v":1}'
        busy = await stores.tournaments.start(T1, CHAT, raw, '{"v":2}', (BOB, CAT), "m2", "{}",
                                              accepted=f"{T1}.1", ttl=600)  # fmt: skip
        assert busy == (Started.PLAYING, (0,))
        assert await stores.matches.active_match(CHAT, CAT) is None
        assert await stores.tournaments.read(T1) in (b'{"v":1}', '{"v":1}')


class TestMarks:
    async def test_once(self, stores: Stores) -> None:
        assert await stores.tournaments.mark(T1, "announced", ttl=60)
        assert not await stores.tournaments.mark(T1, "announced", ttl=60)
        assert await stores.tournaments.unmark(T1, "announced")
        assert await stores.tournaments.mark(T1, "announced", ttl=60)
