"""Replays (``bot.replays``): ``/replay`` lists your last matches, ``/start r_<match>`` opens one, and the
replay's buttons step through it by editing its message."""

from __future__ import annotations

import logging
from typing import Any

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot import replays
from bot.callbacks import ReplayCb
from bot.i18n import Translator
from bot.models import MatchRecord
from bot.replays import ReelDeal
from bot.routers.common import GROUP_TYPES
from bot.services.authority import Authority
from bot.services.errors import Rejected
from bot.services.records import Records
from bot.services.results import Results

log = logging.getLogger(__name__)
LISTED = 5
"""How many of the user's last matches /replay offers."""


async def replay_list(message: Message, results: Results, tr: Translator) -> None:
    """``/replay`` in private: the user's last finished matches, a button each."""
    user = message.from_user
    if user is None:
        return
    rows = await results.history(user_id=user.id, limit=LISTED)
    if not rows:
        await message.answer(tr("replay-none"))
        return
    await message.answer(tr("replay-list"), reply_markup=replays.list_keyboard(tr, rows, user.id))


async def replay_in_group(message: Message, tr: Translator) -> None:
    """``/replay`` in a group: replays are watched in private."""
    await message.reply(tr("replay-private-only"))


async def load(
    records: Records, authority: Authority, match_id: str, user_id: int
) -> tuple[MatchRecord, tuple[ReelDeal, ...]] | str:
    """A match's record and its deals to replay for ``user_id``, or the id of the message that says why there is
    none (an unknown or expired match, one still being played, one of a chat the user is not in)."""
    if not replays.MATCH_ID.fullmatch(match_id):
        return "replay-gone"
    try:
        record, _ = await records.get(match_id)
    except Rejected:
        return "replay-gone"
    if not await authority.may_watch(record, user_id):
        return "replay-not-member"
    if record.is_active:
        return "replay-active"
    reel = replays.reel_of(record)
    return (record, reel) if reel else "replay-empty"


async def open_replay(
    chat_id: int, bot: Bot, match_id: str, records: Records, authority: Authority, tr: Translator
) -> None:
    """Send a match's replay at its first step (``/start r_<match>`` in the private chat ``chat_id``), or why
    it cannot be shown."""
    loaded = await load(records, authority, match_id, chat_id)
    if isinstance(loaded, str):
        await bot.send_message(chat_id, tr(loaded))
        return
    record, reel = loaded
    text = replays.replay_text(tr, record, reel, 0, 0)
    await bot.send_message(chat_id, text, reply_markup=replays.replay_keyboard(tr, record.id, 0, 0))


async def step(
    query: CallbackQuery,
    callback_data: ReplayCb,
    records: Records,
    authority: Authority,
    tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """A replay's button: the message shows the position it leads to; a forged or outdated button, or one
    pressed at an end, gets a toast and changes nothing."""
    data = callback_data
    log_ctx.update(match=data.m, action="replay")
    message = query.message
    if message is None or query.bot is None or data.g not in replays.GOES:
        await query.answer(tr("toast-bad-button"))
        return
    loaded = await load(records, authority, data.m, query.from_user.id)
    if isinstance(loaded, str):
        await query.answer(tr(loaded))
        return
    record, reel = loaded
    if not replays.valid(reel, data.d, data.s):
        await query.answer(tr("toast-bad-button"))
        return
    target = replays.go(reel, data.d, data.s, data.g)
    if target is None:
        await query.answer(tr("replay-at-start" if data.g in ("p", "P") else "replay-at-end"))
        return
    await query.answer()
    deal, at = target
    text = replays.replay_text(tr, record, reel, deal, at)
    markup = replays.replay_keyboard(tr, record.id, deal, at)
    if data.g == "o":
        await query.bot.send_message(message.chat.id, text, reply_markup=markup)
        return
    try:
        await query.bot.edit_message_text(text=text, chat_id=message.chat.id, message_id=message.message_id,
                                          reply_markup=markup)  # fmt: skip
    except TelegramBadRequest as exc:
        # A second press of the same button before the first edit arrived: the message shows it already.
        if "not modified" not in exc.message:
            log.info("replay of %s: the edit was refused (%s)", record.id, exc.message)


def build() -> Router:
    """A new router with this module's handlers (a router can have one parent only)."""
    router = Router(name="replay")
    router.message.register(replay_list, Command("replay"), F.chat.type == "private")
    router.message.register(replay_in_group, Command("replay"), F.chat.type.in_(GROUP_TYPES))
    router.callback_query.register(step, ReplayCb.filter())
    return router
