"""ChallengeStore's wrappers, each held to its script's contract: opening, accepting, withdrawing and expiring a
challenge in its chat's slot, its message, and the notices still to give."""

from __future__ import annotations

import pytest

from bot.models import Challenge, Player
from bot.services import Stores
from bot.storage.base import text
from bot.storage.challenges import Accepted, Opened
from bot.storage.keys import challenge_id
from tests.bot.helpers import ALA, BOB, CEZ, CHAT, OTHER_CHAT

TTL = 300
MATCH = "m1"
RECORD = '{"id":"m1"}'


def challenge(token: str, chat_id: int = CHAT, creator: Player = ALA) -> Challenge:
    return Challenge(
        id=challenge_id(token, chat_id),
        chat_id=chat_id,
        creator=creator,
        preset="bingo",
        target=8,
        lang="ru",
        created=0.0,
        expires=300.0,
    )


A = challenge("aaaaaaaa")
B = challenge("bbbbbbbb")


async def opened(stores: Stores, made: Challenge = A) -> bytes:
    """Open ``made`` and answer its JSON as read."""
    assert await stores.challenges.open(made, ttl=TTL) is Opened.OPENED
    raw = await stores.challenges.read(made.id)
    assert isinstance(raw, bytes)
    return raw


async def ttl_of(stores: Stores, key: str) -> int:
    found: int = await stores.redis.ttl(key)
    return found


class TestOpen:
    """A challenge opens unless its creator has one open in the chat or plays there."""

    async def test_opened(self, stores: Stores) -> None:
        """Opened: the challenge as JSON and the creator's open challenge, both with the TTL."""
        raw = await opened(stores)
        assert raw == A.model_dump_json().encode()
        assert Challenge.model_validate_json(raw) == A
        assert await stores.challenges.open_of(CHAT, ALA.id) == A.id
        for key in (stores.keys.challenge(A.id), stores.keys.chat_challenge(CHAT, ALA.id)):
            assert TTL - 5 < await ttl_of(stores, key) <= TTL

    async def test_one_open(self, stores: Stores) -> None:
        """A second one of the same creator in the chat is refused and not stored; other creators and other chats
        are free."""
        await opened(stores)
        assert await stores.challenges.open(B, ttl=TTL) is Opened.CHALLENGE_OPEN
        assert await stores.challenges.read(B.id) is None
        assert await stores.challenges.open_of(CHAT, ALA.id) == A.id
        assert await stores.challenges.open(challenge("cccccccc", creator=BOB), ttl=TTL) is Opened.OPENED
        assert await stores.challenges.open(challenge("dddddddd", chat_id=OTHER_CHAT), ttl=TTL) is Opened.OPENED
        assert await stores.challenges.open_of(OTHER_CHAT, ALA.id) == challenge_id("dddddddd", OTHER_CHAT)

    async def test_playing(self, stores: Stores) -> None:
        """A creator who plays in the chat is refused (before a challenge of theirs open is looked at)."""
        await stores.redis.set(stores.keys.active(CHAT, ALA.id), MATCH)
        assert await stores.challenges.open(A, ttl=TTL) is Opened.PLAYING
        assert await stores.challenges.read(A.id) is None
        assert await stores.challenges.open_of(CHAT, ALA.id) is None
        await stores.redis.delete(stores.keys.active(CHAT, ALA.id))
        await opened(stores)
        await stores.redis.set(stores.keys.active(CHAT, ALA.id), MATCH)
        assert await stores.challenges.open(B, ttl=TTL) is Opened.PLAYING


class TestAccept:
    """An accept consumes the challenge as it was read and makes both players active with the new match."""

    async def test_accepted(self, stores: Stores) -> None:
        """Both active keys name the match, the chat's set holds it, the record is kept; the challenge is gone."""
        raw = await opened(stores)
        assert await stores.challenges.accept(A, raw, BOB.id, MATCH, RECORD, ttl=900) is Accepted.ACCEPTED
        assert await stores.challenges.read(A.id) is None
        assert await stores.challenges.open_of(CHAT, ALA.id) is None
        assert await stores.matches.active_match(CHAT, ALA.id) == MATCH
        assert await stores.matches.active_match(CHAT, BOB.id) == MATCH
        assert await stores.matches.chat_match_ids(CHAT) == [MATCH]
        assert await stores.challenges.accepted(CHAT, A.id) == RECORD.encode()
        k = stores.keys
        for key in (k.active(CHAT, ALA.id), k.active(CHAT, BOB.id), k.accepted(CHAT, A.id)):
            assert 890 < await ttl_of(stores, key) <= 900
        assert await stores.challenges.accept(A, raw, CEZ.id, "m2", RECORD, ttl=900) is Accepted.CHANGED
        assert await stores.matches.active_match(CHAT, CEZ.id) is None

    async def test_changed(self, stores: Stores) -> None:
        """A challenge whose JSON changed since it was read (its message id), or that is gone, is not consumed."""
        raw = await opened(stores)
        await stores.challenges.set_message(A.model_copy(update={"message_id": 5}))
        assert await stores.challenges.accept(A, raw, BOB.id, MATCH, RECORD, ttl=900) is Accepted.CHANGED
        assert await stores.challenges.read(A.id) is not None
        assert await stores.challenges.open_of(CHAT, ALA.id) == A.id
        assert await stores.matches.active_match(CHAT, BOB.id) is None
        assert await stores.matches.chat_match_ids(CHAT) == []
        assert await stores.challenges.accepted(CHAT, A.id) is None
        assert await stores.challenges.accept(B, raw, BOB.id, MATCH, RECORD, ttl=900) is Accepted.CHANGED

    @pytest.mark.parametrize("playing", [ALA.id, BOB.id], ids=["creator", "joiner"])
    async def test_playing(self, stores: Stores, playing: int) -> None:
        """Either player already active in the chat: nothing changes, the challenge stays open."""
        raw = await opened(stores)
        await stores.redis.set(stores.keys.active(CHAT, playing), "m0")
        expected = Accepted.CREATOR_PLAYING if playing == ALA.id else Accepted.PLAYING
        assert await stores.challenges.accept(A, raw, BOB.id, MATCH, RECORD, ttl=900) is expected
        assert await stores.challenges.read(A.id) == raw
        assert await stores.challenges.open_of(CHAT, ALA.id) == A.id
        other = BOB.id if playing == ALA.id else ALA.id
        assert await stores.matches.active_match(CHAT, playing) == "m0"
        assert await stores.matches.active_match(CHAT, other) is None
        assert await stores.matches.chat_match_ids(CHAT) == []
        assert await stores.challenges.accepted(CHAT, A.id) is None


class TestWithdraw:
    """A challenge is withdrawn only as it was read."""

    async def test_unchanged(self, stores: Stores) -> None:
        raw = await opened(stores)
        assert await stores.challenges.withdraw(A, raw) is True
        assert await stores.challenges.read(A.id) is None
        assert await stores.challenges.open_of(CHAT, ALA.id) is None
        assert await stores.challenges.withdraw(A, raw) is False

    async def test_changed(self, stores: Stores) -> None:
        raw = await opened(stores)
        updated = A.model_copy(update={"message_id": 5})
        await stores.challenges.set_message(updated)
        assert await stores.challenges.withdraw(A, raw) is False
        assert await stores.challenges.read(A.id) == updated.model_dump_json().encode()
        assert await stores.challenges.open_of(CHAT, ALA.id) == A.id


class TestExpire:
    """A challenge whose time is up is removed, unless it was accepted: then the record of its match answers."""

    async def test_expired(self, stores: Stores) -> None:
        await opened(stores)
        assert await stores.challenges.expire(A) == ""
        assert await stores.challenges.read(A.id) is None
        assert await stores.challenges.open_of(CHAT, ALA.id) is None
        assert await stores.challenges.expire(A) == ""

    async def test_accepted(self, stores: Stores) -> None:
        raw = await opened(stores)
        await stores.challenges.accept(A, raw, BOB.id, MATCH, RECORD, ttl=900)
        assert await stores.challenges.expire(A) == RECORD
        assert await stores.challenges.accepted(CHAT, A.id) == RECORD.encode()
        assert await stores.matches.active_match(CHAT, ALA.id) == MATCH

    async def test_keeps_the_next_challenge(self, stores: Stores) -> None:
        """The creator's open-challenge key is removed only while it names the expired challenge."""
        raw = await opened(stores)
        assert await stores.challenges.withdraw(A, raw)
        await opened(stores, B)
        assert await stores.challenges.expire(A) == ""
        assert await stores.challenges.open_of(CHAT, ALA.id) == B.id
        assert await stores.challenges.read(B.id) is not None


class TestSetMessage:
    """A challenge's new JSON is stored where it is open (keeping its TTL) and where its notice waits, and
    nowhere else."""

    async def test_open_keeps_its_ttl(self, stores: Stores) -> None:
        await stores.challenges.open(A, ttl=100)
        updated = A.model_copy(update={"message_id": 5})
        await stores.challenges.set_message(updated)
        assert await stores.challenges.read(A.id) == updated.model_dump_json().encode()
        assert 90 < await ttl_of(stores, stores.keys.challenge(A.id)) <= 100
        assert await stores.challenges.notice(A.id) is None

    async def test_notice_while_it_waits(self, stores: Stores) -> None:
        await stores.challenges.add_notice(A)
        updated = A.model_copy(update={"message_id": 5})
        await stores.challenges.set_message(updated)
        assert await stores.challenges.notice(A.id) == updated.model_dump_json().encode()
        assert await stores.challenges.read(A.id) is None, "a challenge not open is not made again"
        await stores.challenges.drop_notice(A.id)
        await stores.challenges.set_message(A.model_copy(update={"message_id": 6}))
        assert await stores.challenges.notice(A.id) is None


class TestNotices:
    """The challenges whose message must still say how they ended."""

    async def test_add_and_drop(self, stores: Stores) -> None:
        assert await stores.challenges.notices() == []
        await stores.challenges.add_notice(A)
        await stores.challenges.add_notice(B)
        assert await stores.challenges.open_count() == 2
        assert await stores.challenges.notice(A.id) == A.model_dump_json().encode()
        assert sorted(text(n) for n in await stores.challenges.notices()) == sorted(c.model_dump_json() for c in (A, B))
        assert await stores.challenges.drop_notice(A.id) is True
        assert await stores.challenges.drop_notice(A.id) is False
        assert await stores.challenges.notice(A.id) is None
        assert [text(n) for n in await stores.challenges.notices()] == [B.model_dump_json()]
        assert await stores.challenges.open_count() == 1
