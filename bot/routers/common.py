"""What several routers share: toasts for refusals, the words of /play, admin checks, joining, forum topics."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from aiogram import Bot
from aiogram.types import Chat, InaccessibleMessage, Message, User

from bot import render
from bot.games import PRESETS
from bot.i18n import I18n, Translator
from bot.models import LANGS, LEVELS, Level, MatchRecord, Player, Rejection
from bot.presenter import Presenter
from bot.services.challenges import Challenges
from bot.services.chats import Chats
from bot.services.errors import Rejected
from engine import find_preset

GROUP_TYPES = {"group", "supergroup"}

REJECTION_TOASTS: dict[Rejection, str] = {
    Rejection.NO_MATCH: "toast-no-match",
    Rejection.MATCH_OVER: "toast-match-over",
    Rejection.NOT_A_PLAYER: "toast-not-player",
    Rejection.NOT_YOUR_TURN: "refusal-not_your_turn",
    Rejection.ILLEGAL: "toast-bad-button",
    Rejection.STALE: "toast-stale",
    Rejection.DUPLICATE: "toast-done",
    Rejection.BUSY: "toast-busy",
    Rejection.OLD_PANEL: "toast-old-panel",
    Rejection.NO_CHALLENGE: "toast-challenge-gone",
    Rejection.OWN_CHALLENGE: "toast-own-challenge",
    Rejection.NOT_INVITED: "toast-not-invited",
    Rejection.ALREADY_PLAYING: "toast-already-playing",
    Rejection.CHALLENGE_OPEN: "toast-challenge-open",
    Rejection.NOT_ALLOWED: "toast-only-creator",
    Rejection.TOO_EARLY: "toast-too-early",
    Rejection.REMATCH_OVER: "toast-rematch-over",
    Rejection.NOT_MEMBER: "toast-not-member",
    Rejection.CREATOR_PLAYING: "toast-creator-playing",
    Rejection.NO_REMATCH: "toast-no-rematch-in-tournament",
    Rejection.INLINE_UNKNOWN: "inline-press-accept",
    Rejection.NOT_ON_MESSAGE: "toast-bad-button",
}


def rejection_text(tr: Translator, exc: Rejected, view: render.View | None = None) -> str:
    """A refusal's toast; with the presser's ``view``, a broken duty to follow names the tile and the suit."""
    if exc.reason is Rejection.ILLEGAL and exc.refusal is not None:
        return render.refusal_text(tr, exc.refusal, view)
    return tr(REJECTION_TOASTS[exc.reason])


ENGLISH_WORDS = {"classic": "bingo-classic", "domino": "bingo-domino"}
"""The English words ``/play`` took before the locales named the games."""


@functools.cache
def preset_words(i18n: I18n) -> dict[str, str]:
    """Every word ``/play`` and ``/rules`` take for a game, lower case: its key, and its words in each language
    (made once per set of locales: the caller must not change it)."""
    words = {name: name for name in PRESETS} | ENGLISH_WORDS
    for lang in LANGS:
        for preset in PRESETS:
            for word in i18n[lang](f"words-{preset}").split(","):
                words.setdefault(word.strip().lower(), preset)
    return words


@functools.cache
def level_words(i18n: I18n) -> dict[str, Level | None]:
    """The words ``/play`` takes for the computer (None) and for each of its levels, lower case, in every
    language and in English."""
    words: dict[str, Level | None] = {"bot": None, "computer": None, "cpu": None, "ai": None}
    words |= {level: level for level in LEVELS}
    for lang in LANGS:
        tr = i18n[lang]
        for word in tr("words-computer").split(","):
            words.setdefault(word.strip().lower(), None)
        for level in LEVELS:
            for word in tr(f"words-level-{level}").split(","):
                words.setdefault(word.strip().lower(), level)
    return words


async def play_computer(
    message: Message,
    user: User,
    preset: str,
    target: int | None,
    level: Level,
    tr: Translator,
    challenges: Challenges,
    chats: Chats,
    presenter: Presenter,
    i18n: I18n,
    log_ctx: dict[str, Any],
) -> None:
    """Start a match of ``user`` against the computer in the message's chat (a group, or the private chat
    with the bot): a challenge the computer takes at once. A challenge of theirs still open there is the one
    the computer takes (its message then says the match began)."""
    player = await person(user, chats)
    challenge = await challenges.open_challenge_of(message.chat.id, user.id)
    try:
        if challenge is None:
            challenge = await challenges.open(
                message.chat.id, player, preset, tr.lang, target=target, thread_id=topic_of(message)
            )
        record = await challenges.play_computer(challenge.id, user.id, level, i18n[challenge.lang](f"computer-{level}"))
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value
        await message.reply(rejection_text(tr, exc))
        return
    log_ctx["action"] = f"computer:{level}:{challenge.preset}"
    log_ctx["match"] = record.id
    await presenter.challenge_taken(challenge, record)
    presenter.start_match(record)


def choose_preset(preset: str, target: int | None, chosen: str) -> tuple[str, int | None]:
    """The game a ``/play`` word names instead of the chat's, and the target: the chat's own is for its game."""
    return chosen, target if find_preset(chosen).game == find_preset(preset).game else None


def preset_hint(tr: Translator) -> str:
    """The games a user may name, one word each in ``tr``'s language."""
    return ", ".join(tr(f"words-{preset}").split(",")[0].strip() for preset in PRESETS)


def unknown_game(tr: Translator, word: str) -> str:
    return tr("error-unknown-game", name=render.user_text(word), list=preset_hint(tr))


def topic_of(message: Message | InaccessibleMessage) -> int | None:
    """The forum topic a message was written in (its ``message_thread_id``); None outside a topic, also for a
    reply in the General topic, which carries the id of the thread of replies it started but is no topic."""
    if isinstance(message, InaccessibleMessage) or not message.is_topic_message:
        return None
    return message.message_thread_id


def replied(message: Message) -> Message | None:
    """The message this one replies to. Telegram marks every message in a forum topic as a reply to the topic's
    first message (the service message saying it was created): that is no reply to anyone."""
    reply = message.reply_to_message
    if reply is None or reply.forum_topic_created is not None:
        return None
    if message.is_topic_message and reply.message_id == message.message_thread_id:
        return None
    return reply


def own_reply(message: Message) -> Message | None:
    """The message this one replies to, when it is one of this bot's own (sent by it, not a message "via" it or
    any bot's inline result, which anyone can post with any buttons): what a ``/cancel`` in reply may name."""
    reply = replied(message)
    if reply is None or reply.from_user is None or message.bot is None:
        return None
    if reply.from_user.id != message.bot.id or reply.via_bot is not None:
        return None
    return reply


def button_data(message: Message | None, prefix: str) -> str | None:
    """The callback data of the first button of ``message`` whose data starts with ``prefix:`` (a ``/cancel``
    in reply to a challenge or a tournament names it by its buttons: pass ``own_reply(message)``)."""
    if message is None or message.reply_markup is None:
        return None
    for row in message.reply_markup.inline_keyboard:
        for button in row:
            if button.callback_data and button.callback_data.startswith(prefix + ":"):
                return button.callback_data
    return None


def player_of(user: User) -> Player:
    return Player(id=user.id, name=user.full_name or user.username or str(user.id))


async def person(user: User, chats: Chats) -> Player:
    """The user about to play: their name kept in their profile, and their own language (their /lang choice,
    else their Telegram language when it is ours) for what they read in private."""
    player = player_of(user)
    _, lang = await asyncio.gather(  # one round trip: the profile's language is not what changes
        chats.update_profile(user.id, name=player.name, username=user.username),
        chats.own_lang(user.id, user.language_code),
    )
    return player.model_copy(update={"lang": lang})


async def is_admin(bot: Bot, chat: Chat | int, user_id: int) -> bool:
    member = await bot.get_chat_member(chat if isinstance(chat, int) else chat.id, user_id)
    return member.status in ("creator", "administrator")


async def join(
    challenge_id: str,
    user: User,
    user_tr: Translator,
    challenges: Challenges,
    chats: Chats,
    presenter: Presenter,
    i18n: I18n,
    *,
    inline_message_id: str | None = None,
) -> tuple[MatchRecord | None, str | None]:
    """Accept a challenge for ``user`` (``inline_message_id``: the press came on that inline message); returns
    the match, or None and the refusal's text (in the challenge's language, or ``user_tr`` once it is gone).

    The caller answers the user, then calls ``presenter.start_match`` (so a
    callback is answered before the table and the panels go out).
    """
    challenge = await challenges.challenge(challenge_id)
    tr = i18n[challenge.lang] if challenge else user_tr
    try:
        player = await person(user, chats)
        record, taken = await challenges.take(
            challenge_id, player, username=user.username, inline_message_id=inline_message_id
        )
    except Rejected as exc:
        return None, rejection_text(tr, exc)
    await presenter.challenge_taken(taken, record)
    return record, None
