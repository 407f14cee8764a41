"""Group commands: /play, /cancel."""

from __future__ import annotations

import re
from typing import Any

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot import render
from bot.callbacks import WithdrawCb
from bot.games import game_of
from bot.i18n import I18n
from bot.presenter import Presenter
from bot.routers.common import (
    GROUP_TYPES,
    chat_lang,
    choose_preset,
    is_admin,
    level_words,
    play_computer,
    player_of,
    preset_words,
    rejection_text,
    unknown_game,
)
from bot.services.matches import MatchService, Rejected
from bot.services.models import Level
from engine import find_preset

USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{4,31}")
"""What Telegram allows as a username: 5 to 32 Latin letters, digits and underscores, a letter first."""


async def play(
    message: Message,
    command: CommandObject,
    service: MatchService,
    presenter: Presenter,
    i18n: I18n,
    log_ctx: dict[str, Any],
) -> None:
    """Open a challenge: ``/play [game] [@friend]`` or in reply to a friend's message; ``/play bot [level]
    [game]`` plays the computer at once."""
    user = message.from_user
    if user is None:
        return
    lang = await chat_lang(service, message.chat.id, user)
    tr = i18n[lang]
    if message.sender_chat is not None or user.is_bot:
        # A channel or an anonymous admin (Telegram sends them as a bot): nobody who could ever move.
        log_ctx["result"] = "not_a_person"
        await message.reply(tr("error-not-a-person"))
        return
    settings = await service.chat_settings(message.chat.id)
    preset, target = settings.preset, settings.target
    opponent_id: int | None = None
    opponent_name: str | None = None
    opponent_username: str | None = None
    words = preset_words(i18n)
    computer: Level | None = None
    levels = level_words(i18n)
    for word in (command.args or "").split():
        if word.lower() in levels:
            computer = levels[word.lower()] or computer or "normal"
        elif word.startswith("@") and len(word) > 1:
            if not USERNAME.fullmatch(word[1:]):
                await message.reply(tr("error-bad-username", name=render.user_text(word)))
                return
            opponent_username = word[1:]
        elif word.lower() in words:
            preset, target = choose_preset(preset, target, words[word.lower()])
        else:
            await message.reply(unknown_game(tr, word))
            return
    if computer is not None:
        await play_computer(message, user, preset, target, computer, lang, service, presenter, i18n, log_ctx)
        return
    reply = message.reply_to_message
    if opponent_username is None and reply is not None and reply.from_user is not None:
        own = message.bot is not None and reply.from_user.id == message.bot.id
        if reply.sender_chat is not None or (reply.from_user.is_bot and not own):
            log_ctx["result"] = "opponent_not_a_person"
            await message.reply(tr("error-opponent-not-a-person"))
            return
        if not own:  # a reply to one of this bot's messages is a challenge to anyone
            opponent_id, opponent_name = reply.from_user.id, reply.from_user.full_name
    if opponent_id == user.id or (opponent_username and opponent_username.lower() == (user.username or "").lower()):
        await message.reply(tr("error-self-challenge"))
        return
    if target is not None and not game_of(find_preset(preset)).targets:
        target = None
    await service.update_profile(user.id, name=player_of(user).name)
    try:
        challenge = await service.open_challenge(
            message.chat.id,
            player_of(user),
            preset,
            lang,
            target=target,
            opponent_id=opponent_id,
            opponent_username=opponent_username,
            opponent_name=opponent_name,
        )
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value
        await message.reply(rejection_text(tr, exc))
        return
    log_ctx["action"] = f"challenge:{challenge.preset}"
    text, markup = presenter.challenge_message(challenge)
    sent = await presenter.outbox.send(message.chat.id, text, markup)
    await service.set_challenge_message(challenge, sent.message_id)


async def cancel(message: Message, service: MatchService, presenter: Presenter, i18n: I18n) -> None:
    """Remove your open challenge, or (an admin, in reply to it) anyone's."""
    user = message.from_user
    if user is None:
        return
    tr = i18n[await chat_lang(service, message.chat.id, user)]
    challenge_id: str | None = None
    reply = message.reply_to_message
    if reply is not None and reply.reply_markup is not None:
        for row in reply.reply_markup.inline_keyboard:
            for button in row:
                if button.callback_data and button.callback_data.startswith(WithdrawCb.__prefix__ + ":"):
                    challenge_id = WithdrawCb.unpack(button.callback_data).c
    if challenge_id is None:
        own = await service.open_challenge_of(message.chat.id, user.id)
        if own is None:
            await message.reply(tr("error-no-challenge"))
            return
        challenge_id = own.id
    challenge = await service.challenge(challenge_id)
    admin = False
    if challenge is not None and challenge.creator.id != user.id and message.bot is not None:
        admin = await is_admin(message.bot, message.chat, user.id)
    try:
        challenge = await service.withdraw(challenge_id, user.id, admin=admin)
    except Rejected as exc:
        await message.reply(rejection_text(tr, exc))
        return
    key = "challenge-withdrawn" if challenge.creator.id == user.id else "challenge-cancelled"
    presenter.close_challenge(challenge, key)


def build() -> Router:
    """A new router with this module's handlers (a router can have one parent only)."""
    router = Router(name="group")
    router.message.register(play, Command("play"), F.chat.type.in_(GROUP_TYPES))
    router.message.register(cancel, Command("cancel"), F.chat.type.in_(GROUP_TYPES))
    return router
