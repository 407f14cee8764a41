"""TournamentStore's wrappers, each held to its script's contract: one tournament a chat at a time (one moved in
arrives once), a compare-and-set write that ends it (its TTL, its champion's win), the start of a pairing refused
naming who plays in the chat, the kept record dropped, the wins moved to a supergroup, and the one-time marks and
counted tries."""

from __future__ import annotations

from bot.services import Stores
from bot.storage.keys import challenge_id
from bot.storage.tournaments import Started
from tests.bot.helpers import CHAT, OTHER_CHAT

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

    async def test_a_moved_one_arrives_once(self, stores: Stores) -> None:
        """Written again (a move carried through twice), it is left as it is and answers its own id; once ended
        there, it does not become current again."""
        await opened(stores, '{"v":0}')
        assert await stores.tournaments.open(T1, CHAT, '{"v":9}') == T1
        assert await stores.tournaments.read(T1) in (b'{"v":0}', '{"v":0}')
        raw = await stores.tournaments.read(T1)
        assert raw is not None
        assert await stores.tournaments.write(T1, CHAT, raw, '{"v":1}', ends=True, ttl=600)
        assert await stores.tournaments.open(T1, CHAT, '{"v":0}') == T1
        assert await stores.tournaments.current(CHAT) is None


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
        both = await stores.tournaments.start(T1, CHAT, raw, '{"v":2}', (BOB, ANN), "m3", "{}",
                                              accepted=f"{T1}.2", ttl=600)  # fmt: skip
        assert both == (Started.PLAYING, (0, 1))

    async def test_the_kept_record_dropped(self, stores: Stores) -> None:
        raw = await opened(stores)
        await stores.tournaments.start(T1, CHAT, raw, '{"v":1}', (ANN, BOB), "m1", "{}", accepted=f"{T1}.0",
                                       ttl=600)  # fmt: skip
        await stores.tournaments.forget_accepted(CHAT, f"{T1}.0")
        assert await stores.tournaments.accepted(CHAT, f"{T1}.0") is None


class TestWins:
    async def test_moved_to_a_supergroup(self, stores: Stores) -> None:
        """The wins follow the group to its new id (in another slot of a cluster), once."""
        raw = await opened(stores)
        await stores.tournaments.write(T1, CHAT, raw, '{"v":1}', ends=True, champion=ANN, ttl=600)
        assert await stores.tournaments.move_wins(CHAT, OTHER_CHAT)
        assert await stores.tournaments.wins(OTHER_CHAT, ANN) == 1 and await stores.tournaments.wins(CHAT, ANN) == 0
        assert not await stores.tournaments.move_wins(CHAT, OTHER_CHAT)
        assert await stores.tournaments.wins(OTHER_CHAT, ANN) == 1


class TestMarks:
    async def test_once(self, stores: Stores) -> None:
        assert await stores.tournaments.mark(T1, "announced", ttl=60)
        assert not await stores.tournaments.mark(T1, "announced", ttl=60)
        assert await stores.tournaments.unmark(T1, "announced")
        assert await stores.tournaments.mark(T1, "announced", ttl=60)

    async def test_tries_counted(self, stores: Stores) -> None:
        assert [await stores.tournaments.tries(T1, "announce", ttl=60) for _ in range(3)] == [1, 2, 3]
        assert 0 < await stores.redis.ttl(stores.keys.tournament_mark(T1, "tries:announce")) <= 60
