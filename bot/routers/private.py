"""Private chat: /start (with deep links), /hand, /play against the computer, /seed; and the commands valid in
the wrong chat."""

from __future__ import annotations

from typing import Any

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message

from bot import keyboards
from bot.i18n import I18n, Translator
from bot.models import SEED_LIMIT, Level
from bot.presenter import Presenter
from bot.routers.common import (
    GROUP_TYPES,
    choose_preset,
    join,
    level_words,
    play_computer,
    player_of,
    preset_words,
    unknown_game,
)
from bot.routers.replay import open_replay
from bot.routers.tournament import join_by_link
from bot.services.authority import Authority
from bot.services.challenges import Challenges
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.fairness import Fairness, clean_seed
from bot.services.records import Records
from bot.services.tournaments import Tournaments
from bot.texts import user_text


async def start(
    message: Message,
    command: CommandObject,
    chats: Chats,
    challenges: Challenges,
    records: Records,
    tournaments: Tournaments,
    authority: Authority,
    presenter: Presenter,
    i18n: I18n,
    tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """``/start``; ``/start j_<challenge>`` joins a challenge; ``/start m_<match>`` sends your panel;
    ``/start r_<match>`` opens a finished match's replay; ``/start t_<tournament>`` signs up for a tournament."""
    user = message.from_user
    if user is None:
        return
    await chats.update_profile(user.id, name=player_of(user).name, started=True, username=user.username)
    payload = command.args or ""
    if payload.startswith("j_"):
        log_ctx["action"] = "join"
        record, refusal = await join(payload[2:], user, tr, challenges, chats, presenter, i18n)
        if record is None:
            await message.answer(refusal or tr("toast-challenge-gone"))
        else:
            log_ctx["match"] = record.id
            presenter.start_match(record)
        return
    if payload.startswith("m_"):
        match_id = payload[2:]
        log_ctx["match"] = match_id
        if not await resend_panel(match_id, user.id, records, presenter):
            await message.answer(tr("error-no-match"))
        return
    if payload.startswith("t_"):
        log_ctx["action"] = "tournament:j"
        await message.answer(await join_by_link(payload[2:], user, tournaments, chats, presenter, tr))
        return
    if payload.startswith("r_") and message.bot is not None:
        log_ctx.update(match=payload[2:], action="replay")
        await open_replay(message.chat.id, message.bot, payload[2:], records, authority, tr)
        return
    await message.answer(tr("start-welcome"), reply_markup=keyboards.add_to_group_keyboard(tr, presenter.bot_username))


async def play_here(
    message: Message,
    command: CommandObject,
    chats: Chats,
    challenges: Challenges,
    presenter: Presenter,
    i18n: I18n,
    tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """``/play [game] [level]`` in private: a match against the computer right here (the table and the hand
    in this chat)."""
    user = message.from_user
    if user is None:
        return
    await chats.update_profile(user.id, name=player_of(user).name, started=True, username=user.username)
    settings = await chats.settings(message.chat.id)
    preset, target = settings.preset, settings.target
    level: Level = "normal"
    words, levels = preset_words(i18n), level_words(i18n)
    for word in (command.args or "").split():
        if word.lower() in levels:
            level = levels[word.lower()] or level
        elif word.lower() in words:
            preset, target = choose_preset(preset, target, words[word.lower()])
        else:
            await message.answer(unknown_game(tr, word))
            return
    await play_computer(message, user, preset, target, level, tr, challenges, chats, presenter, i18n, log_ctx)


async def help_command(message: Message, presenter: Presenter, tr: Translator) -> None:
    """What the bot does and how to start a match."""
    in_group = message.chat.type in GROUP_TYPES
    markup = None if in_group else keyboards.add_to_group_keyboard(tr, presenter.bot_username)
    await message.answer(tr("help-text"), reply_markup=markup)


async def resend_panel(match_id: str, user_id: int, records: Records, presenter: Presenter) -> bool:
    """Send the user's panel of a match at the bottom of the chat; the old one stops working."""
    try:
        record, _ = await records.get(match_id)
    except Rejected:
        return False
    seat = record.seat_of(user_id)
    if seat is None or not record.is_active:
        return False
    await presenter.resend_panel(record, seat)
    return True


async def hand(message: Message, chats: Chats, records: Records, presenter: Presenter, tr: Translator) -> None:
    """Re-send the panel of each of your active matches."""
    user = message.from_user
    if user is None:
        return
    await chats.update_profile(user.id, started=True)
    sent = False
    for match_id in await records.user_matches(user.id):
        sent = await resend_panel(match_id, user.id, records, presenter) or sent
    if not sent:
        await message.answer(tr("error-no-match"))


async def seed(message: Message, command: CommandObject, fairness: Fairness, tr: Translator) -> None:
    """``/seed`` shows your seed (docs/fairness.md); ``/seed <words>`` makes them your seed."""
    user = message.from_user
    if user is None:
        return
    words = clean_seed(command.args or "")
    if not words:
        shown = user_text(await fairness.seed(user.id), SEED_LIMIT)
        await message.answer(tr("seed-current", seed=shown, limit=SEED_LIMIT))
    elif len(words) > SEED_LIMIT:
        await message.answer(tr("seed-too-long", length=len(words), limit=SEED_LIMIT))
    else:
        kept = await fairness.set_seed(user.id, words)
        await message.answer(tr("seed-set", seed=user_text(kept, SEED_LIMIT)))


async def seed_in_group(message: Message, tr: Translator) -> None:
    await message.reply(tr("seed-private-only"))


async def hand_in_group(message: Message, tr: Translator) -> None:
    await message.reply(tr("error-private-only"))


async def group_command_in_private(message: Message, tr: Translator) -> None:
    await message.answer(tr("error-group-only"))


def build() -> Router:
    """A new router with this module's handlers (a router can have one parent only)."""
    router = Router(name="private")
    router.message.register(start, CommandStart(), F.chat.type == "private")
    router.message.register(help_command, Command("help"))
    router.message.register(hand, Command("hand"), F.chat.type == "private")
    router.message.register(hand_in_group, Command("hand"), F.chat.type.in_(GROUP_TYPES))
    router.message.register(play_here, Command("play"), F.chat.type == "private")
    router.message.register(seed, Command("seed"), F.chat.type == "private")
    router.message.register(seed_in_group, Command("seed"), F.chat.type.in_(GROUP_TYPES))
    router.message.register(group_command_in_private, Command("cancel", "settings"), F.chat.type == "private")
    return router
