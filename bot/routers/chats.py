"""Chats that change under a match: a group that removes or re-adds the bot, a group that becomes a
supergroup, a player who blocks or unblocks the bot."""

from __future__ import annotations

from typing import Any

from aiogram import F, Router
from aiogram.types import ChatMemberUpdated, Message

from bot.i18n import Translator
from bot.keyboards import lang_keyboard
from bot.presenter import Presenter
from bot.routers.common import GROUP_TYPES
from bot.services.chats import Chats
from bot.services.records import Records
from bot.services.tournaments import Tournaments

GONE = ("left", "kicked")


async def membership(
    update: ChatMemberUpdated,
    chats: Chats,
    records: Records,
    presenter: Presenter,
    tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """The bot's own membership changed: in a group, its matches go on in private while it is out, and once
    added it greets the group (once a day at most); in private, the user blocked the bot (or unblocked it:
    their panels come back)."""
    gone = update.new_chat_member.status in GONE
    log_ctx["action"] = "left" if gone else "joined"
    chat = update.chat
    if chat.type in GROUP_TYPES:
        if await chats.set_group_gone(chat.id, gone) and not gone:
            presenter.show_matches(await records.chat_matches(chat.id))
        added = not gone and update.old_chat_member.status in GONE
        if added and await chats.greet_once(chat.id):
            await presenter.send(chat.id, tr("greeting"), lang_keyboard(tr, greeting=True))
        return
    user = update.from_user
    if not await chats.set_blocked(user.id, gone) or gone:
        return
    for match_id in await records.user_matches(user.id):
        record, _ = await records.peek(match_id)
        seat = record.seat_of(user.id)
        if seat is not None:
            await presenter.resend_panel(record, seat)


async def migrated(message: Message, presenter: Presenter, tournaments: Tournaments, log_ctx: dict[str, Any]) -> None:
    """The group became a supergroup: its matches, settings, leaderboard and history move to the new id, and so
    do its tournament and tournament wins."""
    assert message.migrate_to_chat_id is not None
    log_ctx["action"] = "migrate"
    await presenter.migrated(message.chat.id, message.migrate_to_chat_id)
    await tournaments.migrated(message.chat.id, message.migrate_to_chat_id)


def build() -> Router:
    router = Router(name="chats")
    router.my_chat_member.register(membership)
    router.message.register(migrated, F.migrate_to_chat_id)
    return router
