"""What Telegram says of a user in a chat (``getChatMember``), for ``bot.services.authority``."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError

from bot.services.authority import Membership

log = logging.getLogger(__name__)

MEMBERSHIPS = {
    "creator": Membership.ADMIN,
    "administrator": Membership.ADMIN,
    "member": Membership.MEMBER,
    "left": Membership.OUTSIDE,
    "kicked": Membership.OUTSIDE,
}


MEMBERSHIP_TTL = 60.0
"""Seconds an answer of Telegram's about a user in a chat is kept, either way: a flood of requests (the Mini App's
pages, joins, replays) makes one ``getChatMember`` a minute per chat and user, and a 429 there no longer breaks
joining in every group. Someone who just joined, left or became an admin is seen so within a minute."""
MEMBERSHIPS_KEPT = 20_000
"""How many (chat, user) answers a process keeps at most (the oldest go first)."""


class TelegramMembers:
    """``membership(chat_id, user_id)`` asked of Telegram, each answer kept ``MEMBERSHIP_TTL`` seconds (and one
    question at a time per chat and user: those asked meanwhile wait for its answer). A refusal (the bot is no longer
    in that chat, no such user there) is ``UNKNOWN``: nothing is allowed on it; a network failure or a 429 is raised
    (and not kept), and the update gets the polite apology of any failed call."""

    def __init__(self, bot: Bot, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.clock = clock
        self._known: OrderedDict[tuple[int, int], tuple[float, Membership]] = OrderedDict()
        self._asking: dict[tuple[int, int], asyncio.Future[Membership]] = {}
        self.asked = 0
        """How many times Telegram was asked (``getChatMember`` calls made)."""

    async def membership(self, chat_id: int, user_id: int) -> Membership:
        key = (chat_id, user_id)
        known = self._known.get(key)
        if known is not None and known[0] > self.clock():
            return known[1]
        asking = self._asking.get(key)
        if asking is not None:
            return await asyncio.shield(asking)
        future: asyncio.Future[Membership] = asyncio.get_running_loop().create_future()
        self._asking[key] = future
        try:
            answer = await self._ask(chat_id, user_id)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: those who wait get it raised, and nobody else has to
            raise
        finally:
            self._asking.pop(key, None)
        future.set_result(answer)
        self._known[key] = (self.clock() + MEMBERSHIP_TTL, answer)
        self._known.move_to_end(key)
        while len(self._known) > MEMBERSHIPS_KEPT:
            self._known.popitem(last=False)
        return answer

    async def _ask(self, chat_id: int, user_id: int) -> Membership:
        self.asked += 1
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except (TelegramBadRequest, TelegramForbiddenError) as exc:
            log.info("getChatMember(%s, %s) refused: %s", chat_id, user_id, exc.message)
            return Membership.UNKNOWN
        if member.status == "restricted":  # a restricted user may still be a member (or may have left)
            return Membership.MEMBER if getattr(member, "is_member", False) else Membership.OUTSIDE
        return MEMBERSHIPS.get(member.status, Membership.UNKNOWN)
