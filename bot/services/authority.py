"""Who may act on a challenge, a tournament, a match or a replay: decided from the object's own chat, never from
the chat where the command was written or the button pressed.

A member of group A who is an admin of group B must not cancel A's challenge from B: every check here takes
the object's ``chat_id`` (a challenge's, a tournament's, a match's) and asks Telegram about that chat. The
services call it; the routers only pass on who asked.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable

from bot.models import MatchRecord, is_inline_chat


class Membership(enum.Enum):
    """A user's place in a chat, as Telegram tells it."""

    ADMIN = "admin"
    """The chat's creator or one of its administrators."""
    MEMBER = "member"
    OUTSIDE = "outside"
    """Left, removed, or never joined."""
    UNKNOWN = "unknown"
    """Telegram could not say (the bot is not in that chat any more, a network failure): nothing is allowed."""


MembershipOf = Callable[[int, int], Awaitable[Membership]]
"""``membership(chat_id, user_id)``: what Telegram says of the user in that chat."""


async def everyone_a_member(chat_id: int, user_id: int) -> Membership:
    """The membership when no Telegram is wired (services tested alone): everyone a member, nobody an admin."""
    return Membership.MEMBER


class Authority:
    """The one place that says who may manage or join an object, from the object's own chat."""

    def __init__(self, membership: MembershipOf = everyone_a_member) -> None:
        self.membership = membership

    async def may_manage(self, chat_id: int, owner_id: int, user_id: int) -> bool:
        """Whether ``user_id`` may cancel, start or stop what ``owner_id`` opened in ``chat_id``: its owner, or an
        admin of that chat (Telegram is asked only then)."""
        if user_id == owner_id:
            return True
        if chat_id > 0 or is_inline_chat(chat_id):  # a private chat, an inline challenge: no admins but its owner
            return False
        return await self.membership(chat_id, user_id) is Membership.ADMIN

    async def belongs(self, chat_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is in ``chat_id`` (a member or an admin; a private chat: its own user), so may join
        what is open there or watch what was played there."""
        if chat_id > 0:
            return chat_id == user_id
        if is_inline_chat(chat_id):  # posted via the bot in a chat it is not in: whoever sees it may join
            return True
        return await self.membership(chat_id, user_id) in (Membership.ADMIN, Membership.MEMBER)

    async def may_watch(self, record: MatchRecord, user_id: int) -> bool:
        """Whether ``user_id`` may watch a match (the Mini App's table) or see it again with both hands open (a
        replay): its players, and the people of the chat it was played in. An inline match's chat is no chat the
        bot knows: only its players (the people of the chat where its message is read the table there; its id,
        which travels in links and forwards, opens nothing to anyone else)."""
        if record.seat_of(user_id) is not None:
            return True
        return not is_inline_chat(record.chat_id) and await self.belongs(record.chat_id, user_id)
