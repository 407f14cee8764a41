"""The Redis client factory and what a lost connection looks like to the service's callers."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot.models import Challenge
from bot.services import Services
from bot.storage.base import StorageUnavailable
from bot.storage.mux import MuxRedis
from bot.storage.redis import create_redis, redacted
from tests.bot.helpers import ALA, BOB, CHAT
from tests.redis_server import redis_url

DEAD_URL = "redis://127.0.0.1:1/0"
CHALLENGE = Challenge(
    id="c1", chat_id=CHAT, creator=ALA, preset="bingo", target=8, lang="ru", created=0.0, expires=300.0
)

Call = Callable[[Services], Awaitable[object]]
CALLS: dict[str, Call] = {
    "get": lambda s: s.records.get("m1"),
    "submit": lambda s: s.moves.submit("m1", ALA.id, "00", version=0, request_id="q"),
    "surrender": lambda s: s.moves.surrender("m1", ALA.id),
    "abandon": lambda s: s.moves.abandon("m1"),
    "active_match": lambda s: s.records.active_match(CHAT, ALA.id),
    "chat_matches": lambda s: s.records.chat_matches(CHAT),
    "user_matches": lambda s: s.records.user_matches(ALA.id),
    "messages": lambda s: s.stores.matches.messages("m1"),
    "panel_message": lambda s: s.records.panel_message("m1", 0),
    "shown": lambda s: s.stores.matches.shown("m1", t=1),
    "posted": lambda s: s.stores.matches.posted("m1", "{}"),
    "resend_panel": lambda s: s.stores.matches.shown_due("m1", p0n=-1),
    "screens_due": lambda s: s.stores.matches.screens_due(),
    "settle": lambda s: s.stores.matches.settle("m1", group_gone=False, blocked=(False, False)),
    "group_gone": lambda s: s.chats.group_gone(CHAT),
    "set_group_gone": lambda s: s.chats.set_group_gone(CHAT, True),
    "set_blocked": lambda s: s.chats.set_blocked(ALA.id, True),
    "migrate_chat": lambda s: s.chats.migrate(CHAT, CHAT - 1),
    "open_challenge": lambda s: s.challenges.open(CHAT, ALA, "bingo", "ru"),
    "challenge": lambda s: s.challenges.challenge("c1"),
    "open_challenge_of": lambda s: s.challenges.open_challenge_of(CHAT, ALA.id),
    "set_challenge_message": lambda s: s.challenges.set_message(CHALLENGE, 5),
    "withdraw": lambda s: s.challenges.withdraw("c1", ALA.id),
    "accept": lambda s: s.challenges.accept("c1", BOB),
    "chat_settings": lambda s: s.chats.settings(CHAT),
    "update_chat_settings": lambda s: s.chats.update_settings(CHAT, lang="pl"),
    "profile": lambda s: s.chats.profile(ALA.id),
    "update_profile": lambda s: s.chats.update_profile(ALA.id, name="Ala"),
    "first_delivery": lambda s: s.stores.updates.first(1, "attempt"),
    "forget_delivery": lambda s: s.stores.updates.forget(1, "attempt"),
    "notice": lambda s: s.challenges.notice("c1"),
    "expire_challenge": lambda s: s.challenges.expire(CHALLENGE),
    "forfeit": lambda s: s.moves.forfeit("m1", 0, version=1),
    "claim_win": lambda s: s.moves.claim_win("m1", ALA.id, version=1),
    "clock_marks": lambda s: s.stores.matches.clock_marks("m1"),
    "mark_clock": lambda s: s.stores.matches.mark_clock("m1", "r", 1, ttl=60),
    "leaderboard": lambda s: s.results.leaderboard(CHAT),
    "rank_of": lambda s: s.results.rank_of(None, ALA.id),
    "stats": lambda s: s.results.stats(ALA.id, CHAT),
    "history": lambda s: s.results.history(chat_id=CHAT),
}


@pytest.fixture
async def dead() -> AsyncIterator[Services]:
    """A service whose Redis does not answer (nothing listens on port 1); no retries (each waits 0.7 s in all, and
    every call of the service is tried: the retries themselves are test_reconnect's)."""
    client = create_redis(DEAD_URL, timeout=0.2, retries=0)
    try:
        yield Services.build(client, prefix="test:dead")
    finally:
        await client.aclose()


class TestStorageUnavailable:
    """Every call of the service turns a lost connection into StorageUnavailable."""

    @pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
    async def test_raised(self, dead: Services, call: Call) -> None:
        """The caller sees the service's own error, not a redis exception."""
        with pytest.raises(StorageUnavailable):
            await call(dead)


class TestCreateRedis:
    """create_redis: a bounded pool for any URL; redacted() hides a password."""

    async def test_with_url(self, caplog: pytest.LogCaptureFixture) -> None:
        """With a URL the client is redis-py's with one shared connection for single commands (MuxRedis), and
        nothing is logged."""
        with caplog.at_level(logging.WARNING, logger="bot.storage.redis"):
            client = create_redis(DEAD_URL)
        try:
            assert isinstance(client, MuxRedis)
            assert caplog.records == []
        finally:
            await client.aclose()

    async def test_pool_waits(self) -> None:
        """More concurrent commands than the pool has connections wait for one instead of failing (pipelines take
        the pool's connections; single commands share one)."""
        client = create_redis(redis_url(), max_connections=2)
        try:
            assert await asyncio.gather(*(client.ping() for _ in range(10))) == [True] * 10

            async def piped() -> list[object]:
                async with client.pipeline(transaction=False) as pipe:
                    for i in range(50):  # long enough for the others to start meanwhile
                        pipe.exists(f"pool-waits:nothing:{i}")
                    return list(await pipe.execute())

            assert await asyncio.gather(*(piped() for _ in range(40))) == [[0] * 50] * 40
        finally:
            await client.aclose()

    @pytest.mark.parametrize(
        ("url", "shown"),
        [
            ("redis://:s3cret@host:6379/0", "redis://:***@host:6379/0"),
            ("rediss://user:p@ss@host/1", "rediss://user:***@host/1"),
            ("redis://host:6379/0", "redis://host:6379/0"),
            ("unix:///tmp/r.sock", "unix:///tmp/r.sock"),
        ],
    )
    def test_redacted(self, url: str, shown: str) -> None:
        """A password never reaches the log."""
        assert redacted(url) == shown
