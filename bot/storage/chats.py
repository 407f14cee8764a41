"""Chats and users in Redis: a group's settings, whether it removed the bot, each user's profile (name,
language, whether they started or blocked the bot); and moving a group's keys when it becomes a supergroup."""

from __future__ import annotations

import contextlib
from typing import Any

from redis.exceptions import ResponseError

from bot.storage.base import Store, text, texts
from bot.storage.layout import move_key


class ChatStore(Store):
    """Settings, profiles and the flags of chats that changed under a match."""

    async def settings(self, chat_id: int) -> dict[str, str]:
        """The chat's settings hash."""
        return texts(await self.call(self.redis.hgetall(self.keys.chat_settings(chat_id))))

    async def replace_settings(self, chat_id: int, settings: dict[str, str]) -> None:
        """The chat's settings become exactly ``settings`` (in one transaction)."""
        key = self.keys.chat_settings(chat_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            pipe.hset(key, mapping=dict[Any, Any](settings))
            await self.call(pipe.execute())

    async def profile(self, user_id: int) -> dict[str, str]:
        """The user's profile hash."""
        return texts(await self.call(self.redis.hgetall(self.keys.profile(user_id))))

    async def update_profile(self, user_id: int, fields: dict[str, str]) -> None:
        await self.call(self.redis.hset(self.keys.profile(user_id), mapping=dict[Any, Any](fields)))

    async def seed(self, user_id: int) -> str | None:
        """The user's seed (``/seed``), None when they have none yet."""
        found = await self.call(self.redis.hget(self.keys.profile(user_id), "seed"))
        return None if found is None else text(found)

    async def set_seed(self, user_id: int, seed: str) -> None:
        await self.call(self.redis.hset(self.keys.profile(user_id), "seed", seed))

    async def seed_or(self, user_id: int, default: str) -> str:
        """The user's seed; ``default`` kept as it when they have none (the first of two callers' wins)."""
        key = self.keys.profile(user_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hsetnx(key, "seed", default)
            pipe.hget(key, "seed")
            _, found = await self.call(pipe.execute())
        return text(found)

    async def remember_username(self, username: str, user_id: int) -> None:
        """The user now has this @username (kept lowercase; the last user seen with it wins)."""
        await self.call(self.redis.hset(self.keys.usernames(), username.lower(), user_id))

    async def user_by_username(self, username: str) -> int | None:
        """The id of the user last seen with this @username (any case), None when the bot never saw it."""
        found = await self.call(self.redis.hget(self.keys.usernames(), username.lower()))
        return None if found is None else int(found)

    async def blocked(self, user_id: int) -> bool:
        """Whether the user is marked as having blocked the bot."""
        return await self.call(self.redis.hget(self.keys.profile(user_id), "blocked")) is not None

    async def set_blocked(self, user_id: int, blocked: bool) -> bool:
        """Mark (or clear) a user as having blocked the bot; whether that changed anything."""
        key = self.keys.profile(user_id)
        if blocked:
            return bool(await self.call(self.redis.hsetnx(key, "blocked", "1")))
        return bool(await self.call(self.redis.hdel(key, "blocked")))

    async def gone(self, chat_id: int) -> bool:
        """Whether the group is marked as having removed the bot."""
        return bool(await self.call(self.redis.exists(self.keys.gone(chat_id))))

    async def set_gone(self, chat_id: int, gone: bool) -> bool:
        """Mark (or clear) a group as having removed the bot; whether that changed anything."""
        key = self.keys.gone(chat_id)
        if gone:
            return bool(await self.call(self.redis.set(key, "1", nx=True)))
        return bool(await self.call(self.redis.delete(key)))

    async def greet_once(self, chat_id: int, ttl: int) -> bool:
        """Whether the group is to be greeted now: not greeted in the last ``ttl`` seconds (then marked)."""
        return bool(await self.call(self.redis.set(self.keys.greeted(chat_id), "1", nx=True, ex=ttl)))

    def chat_keys(self, old: int, new: int) -> list[tuple[str, str]]:
        """The keys of this kind that move when chat ``old`` becomes ``new``: its settings."""
        return [(self.keys.chat_settings(old), self.keys.chat_settings(new))]

    async def move_keys(self, moves: list[tuple[str, str]]) -> None:
        """Move each (source, target) key that exists; a target present already is kept."""
        for source, target in moves:
            if await self.call(self.redis.exists(source)):
                with contextlib.suppress(ResponseError):
                    await self.call(move_key(self.redis, source, target))

    async def set_migrated(self, old: int, new: int, *, ttl: int) -> None:
        """Group ``old`` became supergroup ``new`` (remembered ``ttl`` seconds)."""
        await self.call(self.redis.set(self.keys.migrated(old), new, ex=ttl))

    async def migrated_to(self, chat_id: int) -> int | None:
        """The supergroup the group became, if it did."""
        found = await self.call(self.redis.get(self.keys.migrated(chat_id)))
        return None if found is None else int(found)

    async def forget_gone(self, chat_id: int) -> None:
        """A migrated group's old id is not marked gone any more."""
        await self.call(self.redis.delete(self.keys.gone(chat_id)))
