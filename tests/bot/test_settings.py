"""Chat settings, user profiles and update deduplication."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pydantic
import pytest
from redis.asyncio import Redis

from bot.services.matches import MatchService
from bot.services.models import ChatSettings, UserProfile
from tests.bot.conftest import Backend
from tests.bot.helpers import ALA, BOB, CHAT, OTHER_CHAT


class TestChatSettings:
    """chat_settings and update_chat_settings."""

    async def test_defaults(self, service: MatchService) -> None:
        """A chat never configured has the defaults: no language, bingo, the preset's target."""
        assert await service.chat_settings(CHAT) == ChatSettings(lang=None, preset="bingo", target=None)

    @pytest.mark.parametrize(
        "changes",
        [{"lang": "pl"}, {"preset": "42"}, {"target": 5}, {"lang": "ru", "preset": "bingo-classic", "target": 3}],
    )
    async def test_persisted(self, backend: Backend, service: MatchService, changes: dict[str, Any]) -> None:
        """The changed settings are returned and read back by a new service instance; other chats keep the defaults."""
        settings = await service.update_chat_settings(CHAT, **changes)
        assert settings == ChatSettings(**changes)
        assert await backend.service().chat_settings(CHAT) == settings
        assert await service.chat_settings(OTHER_CHAT) == ChatSettings()

    async def test_changes_accumulate(self, service: MatchService) -> None:
        """Each update keeps the fields it does not name, and a target can be reset to the preset's."""
        await service.update_chat_settings(CHAT, lang="pl", target=4)
        await service.update_chat_settings(CHAT, preset="42")
        assert await service.chat_settings(CHAT) == ChatSettings(lang="pl", preset="42", target=4)
        await service.update_chat_settings(CHAT, target=None)
        assert await service.chat_settings(CHAT) == ChatSettings(lang="pl", preset="42", target=None)

    @pytest.mark.parametrize(
        ("changes", "error"),
        [({"preset": "poker"}, ValueError), ({"lang": "de"}, pydantic.ValidationError)],
        ids=["preset", "lang"],
    )
    async def test_refused(self, service: MatchService, changes: dict[str, Any], error: type[Exception]) -> None:
        """An unknown preset or language is refused and the stored settings stay as they were."""
        await service.update_chat_settings(CHAT, lang="pl")
        with pytest.raises(error):
            await service.update_chat_settings(CHAT, **changes)
        assert await service.chat_settings(CHAT) == ChatSettings(lang="pl")


class TestProfiles:
    """profile and update_profile."""

    async def test_defaults(self, service: MatchService) -> None:
        """An unknown user has an empty profile and has not started the bot."""
        assert await service.profile(ALA.id) == UserProfile(id=ALA.id, name="", lang=None, started=False)

    async def test_update(self, backend: Backend, service: MatchService) -> None:
        """Each update sets only the fields it is given, and a new instance reads the same profile."""
        await service.update_profile(ALA.id, name="Ala", lang="pl", started=True)
        assert await backend.service().profile(ALA.id) == UserProfile(id=ALA.id, name="Ala", lang="pl", started=True)
        await service.update_profile(ALA.id, started=False)
        await service.update_profile(ALA.id, lang="ru")
        assert await service.profile(ALA.id) == UserProfile(id=ALA.id, name="Ala", lang="ru", started=False)
        assert await service.profile(BOB.id) == UserProfile(id=BOB.id)

    async def test_empty_update(self, service: MatchService) -> None:
        """An update with nothing to change stores nothing."""
        await service.update_profile(ALA.id)
        assert not await service.redis.exists(service.keys.profile(ALA.id))


class TestFirstDelivery:
    """first_delivery: Telegram may deliver an update twice."""

    async def test_once(self, backend: Backend, service: MatchService) -> None:
        """True the first time an update id is seen (by any instance), False for any other handling after."""
        assert await service.first_delivery(1, "a1") is True
        assert await service.first_delivery(1, "a2") is False
        assert await backend.service().first_delivery(1, "a3") is False
        assert await service.first_delivery(2, "a4") is True

    async def test_expires(self, service: MatchService) -> None:
        """The seen mark expires after its TTL."""
        await service.first_delivery(3, "a", ttl=60)
        assert 0 < await service.redis.ttl(service.keys.update(3)) <= 60


def replies_lost_once(client: Redis) -> None:
    """The first reply to each SET of an update's mark is lost (Redis hung past the client's timeout after
    taking the command) and the client sends the same command again, as redis-py's retry does."""
    original: Callable[..., Awaitable[Any]] = client.execute_command
    lost: set[str] = set()

    async def execute(*args: Any, **options: Any) -> Any:
        result = await original(*args, **options)
        name = args[1].decode() if isinstance(args[1], bytes) else str(args[1]) if len(args) > 1 else ""
        if args[0] == "SET" and ":upd:" in name and name not in lost:
            lost.add(name)
            result = await original(*args, **options)
        return result

    client.execute_command = execute  # type: ignore[method-assign]


class TestDeliveryRetried:
    """A mark whose reply was lost is recognised by its own retry: the press is handled, not dropped."""

    async def test_own_retry(self, backend: Backend, service: MatchService) -> None:
        client = backend.client()
        replies_lost_once(client)
        flaky = backend.service(client)
        assert await flaky.first_delivery(7, "attempt-1") is True  # before #13: False, the press was lost
        assert await service.first_delivery(7, "attempt-2") is False  # a second delivery is still one

    async def test_failed_handling_can_run_again(self, backend: Backend, service: MatchService) -> None:
        """A handling that failed drops its own mark (not another's): a new delivery is handled."""
        assert await service.first_delivery(8, "failed") is True
        await service.forget_delivery(8, "someone-else")
        assert await service.first_delivery(8, "again") is False
        await service.forget_delivery(8, "failed")
        assert await service.first_delivery(8, "again") is True
