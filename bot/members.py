"""What Telegram says of a user in a chat (``getChatMember``), for ``bot.services.authority``."""

from __future__ import annotations

import logging

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


class TelegramMembers:
    """``membership(chat_id, user_id)`` asked of Telegram. A refusal (the bot is no longer in that chat, no such
    user there) is ``UNKNOWN``: nothing is allowed on it; a network failure or a 429 is raised, and the update
    gets the polite apology of any failed call."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def membership(self, chat_id: int, user_id: int) -> Membership:
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except (TelegramBadRequest, TelegramForbiddenError) as exc:
            log.info("getChatMember(%s, %s) refused: %s", chat_id, user_id, exc.message)
            return Membership.UNKNOWN
        if member.status == "restricted":  # a restricted user may still be a member (or may have left)
            return Membership.MEMBER if getattr(member, "is_member", False) else Membership.OUTSIDE
        return MEMBERSHIPS.get(member.status, Membership.UNKNOWN)
