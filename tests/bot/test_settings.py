"""Chat settings, user profiles and update deduplication."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pydantic
import pytest
from redis.asyncio import Redis

from bot.models import ChatSettings, UserProfile
from bot.services import Services
from tests.backends import Backend
from tests.bot.helpers import ALA, BOB, CHAT, OTHER_CHAT


class TestChatSettings:
    """chat_settings and update_chat_settings."""

    async def test_defaults(self, services: Services) -> None:
        """A chat never configured has the defaults: no language, bingo, the preset's target."""
        assert await services.chats.settings(CHAT) == ChatSettings(lang=None, preset="bingo", target=None)

    @pytest.mark.parametrize(
        "changes",
        [{"lang": "pl"}, {"preset": "42"}, {"target": 5}, {"lang": "ru", "preset": "bingo-classic", "target": 3}],
    )
    async def test_persisted(self, backend: Backend, services: Services, changes: dict[str, Any]) -> None:
        """The changed settings are returned and read back by a new service instance; other chats keep the defaults."""
        settings = await services.chats.update_settings(CHAT, **changes)
        assert settings == ChatSettings(**changes)
        assert await backend.services().chats.settings(CHAT) == settings
        assert await services.chats.settings(OTHER_CHAT) == ChatSettings()

    async def test_changes_accumulate(self, services: Services) -> None:
        """Each update keeps the fields it does not name, and a target can be reset to the preset's."""
        await services.chats.update_settings(CHAT, lang="pl", target=4)
        await services.chats.update_settings(CHAT, preset="42")
        assert await services.chats.settings(CHAT) == ChatSettings(lang="pl", preset="42", target=4)
        await services.chats.update_settings(CHAT, target=None)
        assert await services.chats.settings(CHAT) == ChatSettings(lang="pl", preset="42", target=None)

    @pytest.mark.parametrize(
        ("changes", "error"),
        [({"preset": "poker"}, ValueError), ({"lang": "de"}, pydantic.ValidationError)],
        ids=["preset", "lang"],
    )
    async def test_refused(self, services: Services, changes: dict[str, Any], error: type[Exception]) -> None:
        """An unknown preset or language is refused and the stored settings stay as they were."""
        await services.chats.update_settings(CHAT, lang="pl")
        with pytest.raises(error):
            await services.chats.update_settings(CHAT, **changes)
        assert await services.chats.settings(CHAT) == ChatSettings(lang="pl")


class TestProfiles:
    """profile and update_profile."""

    async def test_defaults(self, services: Services) -> None:
        """An unknown user has an empty profile and has not started the bot."""
        assert await services.chats.profile(ALA.id) == UserProfile(id=ALA.id, name="", lang=None, started=False)

    async def test_update(self, backend: Backend, services: Services) -> None:
        """Each update sets only the fields it is given, and a new instance reads the same profile."""
        await services.chats.update_profile(ALA.id, name="Ala", lang="pl", started=True)
        assert await backend.services().chats.profile(ALA.id) == UserProfile(
            id=ALA.id, name="Ala", lang="pl", started=True
        )
        await services.chats.update_profile(ALA.id, started=False)
        await services.chats.update_profile(ALA.id, lang="ru")
        assert await services.chats.profile(ALA.id) == UserProfile(id=ALA.id, name="Ala", lang="ru", started=False)
        assert await services.chats.profile(BOB.id) == UserProfile(id=BOB.id)

    async def test_empty_update(self, services: Services) -> None:
        """An update with nothing to change stores nothing."""
        await services.chats.update_profile(ALA.id)
        assert not await services.stores.redis.exists(services.stores.keys.profile(ALA.id))


class TestFirstDelivery:
    """first_delivery: Telegram may deliver an update twice."""

    async def test_once(self, backend: Backend, services: Services) -> None:
        """True the first time an update id is seen (by any instance), False for any other handling after."""
        assert await services.stores.updates.first(1, "a1") is True
        assert await services.stores.updates.first(1, "a2") is False
        assert await backend.services().stores.updates.first(1, "a3") is False
        assert await services.stores.updates.first(2, "a4") is True

    async def test_expires(self, services: Services) -> None:
        """The seen mark expires after its TTL."""
        await services.stores.updates.first(3, "a", ttl=60)
        assert 0 < await services.stores.redis.ttl(services.stores.keys.update(3)) <= 60


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

    async def test_own_retry(self, backend: Backend, services: Services) -> None:
        client = backend.client()
        replies_lost_once(client)
        flaky = backend.services(client)
        assert await flaky.stores.updates.first(7, "attempt-1") is True  # before #13: False, the press was lost
        assert await services.stores.updates.first(7, "attempt-2") is False  # a second delivery is still one

    async def test_failed_handling_can_run_again(self, backend: Backend, services: Services) -> None:
        """A handling that failed drops its own mark (not another's): a new delivery is handled."""
        assert await services.stores.updates.first(8, "failed") is True
        await services.stores.updates.forget(8, "someone-else")
        assert await services.stores.updates.first(8, "again") is False
        await services.stores.updates.forget(8, "failed")
        assert await services.stores.updates.first(8, "again") is True
