"""Group commands: /play, /cancel."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot import render
from bot.callbacks import WithdrawCb
from bot.games import game_of
from bot.i18n import I18n, Translator
from bot.models import Level
from bot.presenter import Presenter
from bot.routers import tournament
from bot.routers.common import (
    GROUP_TYPES,
    button_data,
    choose_preset,
    level_words,
    own_reply,
    person,
    play_computer,
    preset_words,
    rejection_text,
    replied,
    topic_of,
    unknown_game,
)
from bot.services.challenges import Challenges
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.tournaments import Tournaments
from engine import find_preset

USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{4,31}")
"""What Telegram allows as a username: 5 to 32 Latin letters, digits and underscores, a letter first."""


@dataclass
class Asked:
    """What ``/play``'s words ask for."""

    preset: str
    target: int | None
    computer: Level | None = None
    opponent_username: str | None = None


def parse_play(words: list[str], asked: Asked, i18n: I18n, tr: Translator) -> Asked | str:
    """The game, the computer's level and the friend ``/play``'s words name (``asked``: the chat's game), or the
    text of the answer to a word it does not know."""
    games, levels = preset_words(i18n), level_words(i18n)
    for word in words:
        if word.lower() in levels:
            asked.computer = levels[word.lower()] or asked.computer or "normal"
        elif word.startswith("@") and len(word) > 1:
            if not USERNAME.fullmatch(word[1:]):
                return tr("error-bad-username", name=render.user_text(word))
            asked.opponent_username = word[1:]
        elif word.lower() in games:
            asked.preset, asked.target = choose_preset(asked.preset, asked.target, games[word.lower()])
        else:
            return unknown_game(tr, word)
    return asked


def replied_opponent(message: Message) -> tuple[int, str] | Literal[False] | None:
    """The friend a ``/play`` in reply to their message challenges (None: anyone); False when the reply is to a
    bot or a channel, nobody who could ever move. In a forum topic, only a reply to a person's message counts
    (Telegram marks every message there as a reply to the topic's creation)."""
    reply = replied(message)
    if reply is None or reply.from_user is None:
        return None
    own = message.bot is not None and reply.from_user.id == message.bot.id
    if reply.sender_chat is not None or (reply.from_user.is_bot and not own):
        return False
    # A reply to one of this bot's messages is a challenge to anyone.
    return None if own else (reply.from_user.id, reply.from_user.full_name)


async def play(
    message: Message,
    command: CommandObject,
    challenges: Challenges,
    chats: Chats,
    presenter: Presenter,
    i18n: I18n,
    tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """Open a challenge: ``/play [game] [@friend]`` or in reply to a friend's message; ``/play bot [level]
    [game]`` plays the computer at once."""
    user = message.from_user
    if user is None:
        return
    if message.sender_chat is not None or user.is_bot:
        # A channel or an anonymous admin (Telegram sends them as a bot): nobody who could ever move.
        log_ctx["result"] = "not_a_person"
        await message.reply(tr("error-not-a-person"))
        return
    settings = await chats.settings(message.chat.id)
    asked = parse_play((command.args or "").split(), Asked(settings.preset, settings.target), i18n, tr)
    if isinstance(asked, str):
        await message.reply(asked)
        return
    if asked.computer is not None:
        await play_computer(message, user, asked.preset, asked.target, asked.computer, tr, challenges, chats,
                            presenter, i18n, log_ctx)  # fmt: skip
        return
    opponent: tuple[int, str] | Literal[False] | None = None
    if asked.opponent_username is None:
        opponent = replied_opponent(message)
    if opponent is False:
        log_ctx["result"] = "opponent_not_a_person"
        await message.reply(tr("error-opponent-not-a-person"))
        return
    username = asked.opponent_username
    if (opponent and opponent[0] == user.id) or (username and username.lower() == (user.username or "").lower()):
        await message.reply(tr("error-self-challenge"))
        return
    target = asked.target if game_of(find_preset(asked.preset)).targets else None
    creator = await person(user, chats)
    try:
        challenge = await challenges.open(
            message.chat.id, creator, asked.preset, tr.lang, target=target, opponent_username=username,
            opponent_id=opponent[0] if opponent else None, opponent_name=opponent[1] if opponent else None,
            thread_id=topic_of(message),
        )  # fmt: skip
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value
        await message.reply(rejection_text(tr, exc))
        return
    log_ctx["action"] = f"challenge:{challenge.preset}"
    posted, still_open = await challenges.posted(challenge, await presenter.post_challenge(challenge))
    if not still_open:
        # A friend accepted (or the creator withdrew) between the message and its id being stored: what did
        # that found no message to edit; this one is.
        await presenter.challenge_ended_unseen(posted, await challenges.accepted(posted))


async def cancel(
    message: Message, challenges: Challenges, tournaments: Tournaments, presenter: Presenter, tr: Translator
) -> None:
    """Remove your open challenge, or (an admin of its group, in reply to it) anyone's; in reply to a
    tournament's sign-up, cancel it (its creator, or an admin of its group). Only a reply to this bot's own
    message names anything: who may act is the services' to say, from the challenge's own chat. Without a
    reply and without an open challenge of yours, the sign-up of the tournament you organise there."""
    user = message.from_user
    if user is None or await tournament.cancel_in_reply(message, tournaments, presenter, tr):
        return
    challenge_id: str | None = None
    data = button_data(own_reply(message), WithdrawCb.__prefix__)
    if data is not None:
        challenge_id = WithdrawCb.unpack(data).c
    if challenge_id is None:
        own = await challenges.open_challenge_of(message.chat.id, user.id)
        if own is None:
            if not await tournament.cancel_own(message, tournaments, presenter, tr):
                await message.reply(tr("error-no-challenge"))
            return
        challenge_id = own.id
    try:
        challenge = await challenges.withdraw(challenge_id, user.id)
    except Rejected as exc:
        await message.reply(rejection_text(tr, exc))
        return
    key = "challenge-withdrawn" if challenge.creator.id == user.id else "challenge-cancelled"
    await presenter.close_challenge(challenge, key)


def build() -> Router:
    """A new router with this module's handlers (a router can have one parent only)."""
    router = Router(name="group")
    router.message.register(play, Command("play"), F.chat.type.in_(GROUP_TYPES))
    router.message.register(cancel, Command("cancel"), F.chat.type.in_(GROUP_TYPES))
    return router
