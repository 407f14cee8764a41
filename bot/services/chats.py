"""Chats and users: a group's settings and language, profiles, the flags of a group that removed the bot or a
user who blocked it, and a group that becomes a supergroup."""

from __future__ import annotations

import logging
import time
from typing import Any

from bot.games import PRESETS
from bot.models import ChatSettings, Lang, UserProfile, known_lang, pick_lang
from bot.services.errors import Rejected
from bot.services.moves import Moves
from bot.services.records import Records
from bot.storage.chats import ChatStore
from bot.storage.matches import MatchStore
from bot.storage.results import ResultStore

log = logging.getLogger(__name__)

FLAG_TTL = 5.0
"""Seconds a flag this process read or wrote is trusted before it is read again."""
FLAGS_KEPT = 65536
GREET_AGAIN_AFTER = 86400
MIGRATION_KEPT = 90 * 86400
"""Seconds a group's upgrade to a supergroup is remembered (a tournament's job finds its new id by it)."""
"""Seconds after a greeting in which the bot, removed and added again, does not greet the group again."""


class Chats:
    """Settings, profiles, flags and migrations."""

    def __init__(
        self, store: ChatStore, matches: MatchStore, results: ResultStore, records: Records, moves: Moves
    ) -> None:
        self.store = store
        self.matches = matches
        self.results = results
        self.records = records
        self.moves = moves
        self._flags: dict[tuple[str, int], tuple[bool, float]] = {}
        """Recently read flags (a group gone, a user who blocked the bot) and until when they are trusted."""

    # -- settings and profiles ---------------------------------------------------------

    async def settings(self, chat_id: int) -> ChatSettings:
        return ChatSettings.model_validate(await self.store.settings(chat_id))

    async def update_settings(self, chat_id: int, **changes: Any) -> ChatSettings:
        settings = (await self.settings(chat_id)).model_copy(update=changes)
        ChatSettings.model_validate(settings.model_dump())
        if settings.preset not in PRESETS:
            raise ValueError(f"unknown preset {settings.preset}")
        stored = {k: str(v) for k, v in settings.model_dump().items() if v is not None}
        await self.store.replace_settings(chat_id, stored)
        return settings

    async def profile(self, user_id: int) -> UserProfile:
        fields = await self.store.profile(user_id)
        return UserProfile.model_validate(
            {"id": user_id, **fields, "started": fields.get("started") == "1", "blocked": fields.get("blocked") == "1"}
        )

    async def update_profile(
        self,
        user_id: int,
        *,
        name: str | None = None,
        lang: Lang | None = None,
        started: bool | None = None,
        username: str | None = None,
    ) -> None:
        """Change what is known of a user; ``username`` (their @username, when they have one) makes them found
        by it (``user_by_username``)."""
        if username:
            await self.store.remember_username(username, user_id)
        fields: dict[str, str] = {}
        if name is not None:
            fields["name"] = name
        if lang is not None:
            fields["lang"] = lang
        if started is not None:
            fields["started"] = "1" if started else "0"
        if fields:
            await self.store.update_profile(user_id, fields)

    async def user_by_username(self, username: str) -> int | None:
        """The user the bot last saw with this @username (without the @, any case); None when it never saw it."""
        return await self.store.user_by_username(username.lstrip("@"))

    async def chat_lang(self, chat_id: int, language_code: str | None) -> Lang:
        """A group's language: its setting, else the Telegram language (``language_code``) of the user who wrote
        when it is Russian or Polish, else Russian."""
        settings = await self.settings(chat_id)
        return settings.lang if settings.lang is not None else pick_lang(language_code)

    async def own_lang(self, user_id: int, language_code: str | None) -> Lang | None:
        """A player's own language: their choice (/lang in private), else their Telegram language when it is one
        of ours; None: they read the group's."""
        return (await self.profile(user_id)).lang or known_lang(language_code)

    async def user_lang(self, user_id: int, language_code: str | None) -> Lang:
        """A user's language in private: their choice (/lang), else their Telegram language, else Russian."""
        return (await self.profile(user_id)).lang or pick_lang(language_code)

    # -- flags ----------------------------------------------------------------------

    async def group_gone(self, chat_id: int) -> bool:
        """Whether the group removed the bot (its matches then go on in private)."""
        known = self._flag(("gone", chat_id))
        if known is None:
            known = self._note_flag(("gone", chat_id), await self.store.gone(chat_id))
        return known

    async def set_group_gone(self, chat_id: int, gone: bool) -> bool:
        """Mark (or clear) a group as having removed the bot; whether that changed anything."""
        self._flags.pop(("gone", chat_id), None)
        return await self.store.set_gone(chat_id, gone)

    async def greet_once(self, chat_id: int) -> bool:
        """Whether the bot, just added to the group, greets it: once a day at most (re-added in a day: no)."""
        return await self.store.greet_once(chat_id, GREET_AGAIN_AFTER)

    async def is_blocked(self, user_id: int) -> bool:
        """Whether the user blocked the bot (their panels then wait for /hand)."""
        known = self._flag(("blocked", user_id))
        if known is None:
            known = self._note_flag(("blocked", user_id), await self.store.blocked(user_id))
        return known

    async def set_blocked(self, user_id: int, blocked: bool) -> bool:
        """Mark (or clear) a user as having blocked the bot; whether that changed anything."""
        self._flags.pop(("blocked", user_id), None)
        return await self.store.set_blocked(user_id, blocked)

    def _flag(self, key: tuple[str, int]) -> bool | None:
        """A flag this process read or wrote less than ``FLAG_TTL`` s ago (another process may have changed
        it since: a delivery that acts on an old one is put right by the next)."""
        found = self._flags.get(key)
        if found is None or found[1] < time.monotonic():
            return None
        return found[0]

    def _note_flag(self, key: tuple[str, int], value: bool) -> bool:
        if len(self._flags) > FLAGS_KEPT:
            self._flags.clear()
        self._flags[key] = (value, time.monotonic() + FLAG_TTL)
        return value

    # -- a group that becomes a supergroup -----------------------------------------------

    async def migrated_to(self, chat_id: int) -> int | None:
        """The supergroup a group became, if it did."""
        return await self.store.migrated_to(chat_id)

    async def migrate(self, old: int, new: int) -> list[str]:
        """A group became a supergroup with a new id: its settings, leaderboard, stats, history and active
        matches move there (a key already present under the new id is kept). Returns the matches moved."""
        log.info("chat %s migrated to %s", old, new)
        await self.store.set_migrated(old, new, ttl=MIGRATION_KEPT)
        moves = [*self.store.chat_keys(old, new), *await self.results.chat_keys(old, new)]
        players: list[int] = []
        moved: list[str] = []
        for match_id in await self.matches.chat_match_ids(old):
            try:
                record, _ = await self.records.get(match_id)
            except Rejected:  # gone meanwhile
                continue
            players += [p.id for p in record.players]
            if await self.moves.move_chat(match_id, old, new):
                moved.append(match_id)
        await self.store.move_keys([*moves, *self.matches.chat_keys(old, new, players)])
        await self.store.forget_gone(old)
        return moved
