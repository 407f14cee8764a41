"""Tournaments: ``/tournament [game]`` in a group opens a sign-up (or posts the one on again), its ✅ ▶ 🚪 buttons,
``/tournament kick`` and ``/tournament stop`` for its organiser or an admin, ``/cancel`` (in reply to its message,
or its organiser's without one), and ``/start t_<tournament>`` for one sent to the bot to sign up."""

from __future__ import annotations

import functools
import re
from typing import Any

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, User

from bot import keyboards
from bot.callbacks import TournamentCb
from bot.i18n import I18n, Translator
from bot.models import LANGS, Rejection, Tournament
from bot.presenter import Presenter
from bot.routers.common import (
    GROUP_TYPES,
    button_data,
    choose_preset,
    own_reply,
    person,
    player_of,
    preset_words,
    replied,
    topic_of,
    unknown_game,
)
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.tournaments import Tournaments
from bot.texts import game_name, user_text

REFUSALS = {
    Rejection.TOURNAMENT_FULL: "toast-tournament-full",
    Rejection.TOURNAMENT_SMALL: "toast-tournament-small",
    Rejection.NOT_ALLOWED: "toast-tournament-creator-only",
    Rejection.NOT_ENTERED: "toast-tournament-not-entered",
    Rejection.NOT_MEMBER: "toast-not-member",
    Rejection.TOURNAMENT_RUNNING: "tournament-cancel-running",
}
MANAGING = {
    Rejection.NO_TOURNAMENT: "tournament-none",
}
"""The refusals of the organiser's commands (``/tournament kick``, ``/tournament stop``, ``/cancel``)."""
USERNAME = re.compile(r"@[A-Za-z0-9_]{4,32}")


def refusal(tr: Translator, exc: Rejected) -> str:
    return tr(REFUSALS.get(exc.reason, "toast-tournament-gone"))


def managing_refusal(tr: Translator, exc: Rejected) -> str:
    return tr(MANAGING[exc.reason]) if exc.reason in MANAGING else refusal(tr, exc)


@functools.cache
def command_words(i18n: I18n) -> dict[str, str]:
    """The words after ``/tournament`` that name what its organiser does (``kick``, ``stop``), in every language,
    lower case (made once per set of locales)."""
    words: dict[str, str] = {}
    for lang in LANGS:
        for action in ("kick", "stop"):
            for word in i18n[lang](f"words-tournament-{action}").split(","):
                words[word.strip().lower()] = action
    return words


async def tournament_command(
    message: Message,
    command: CommandObject,
    tournaments: Tournaments,
    chats: Chats,
    presenter: Presenter,
    i18n: I18n,
    tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """``/tournament [game]``: open a sign-up for the chat's game (or the one named); with one on, post its
    message again (with its buttons). ``/tournament kick @user`` (or in reply to them), ``/tournament stop``: the
    organiser's (or an admin's)."""
    user = message.from_user
    if user is None or message.sender_chat is not None or user.is_bot:
        await message.reply(tr("error-not-a-person"))
        return
    words = (command.args or "").split()
    action = command_words(i18n).get(words[0].lower()) if words else None
    if action is not None:
        log_ctx["action"] = f"tournament:{action}"
        act = kick if action == "kick" else stop
        await act(message, user, words[1:], tournaments, chats, presenter, tr)
        return
    current = await tournaments.current(message.chat.id)
    if current is not None:
        log_ctx["action"] = "tournament:show"
        if words:
            await message.reply(tr("tournament-on"))
        await repost(current, tournaments, presenter)
        return
    settings = await chats.settings(message.chat.id)
    preset, target = settings.preset, settings.target
    games = preset_words(i18n)
    for word in words:
        if word.lower() not in games:
            await message.reply(unknown_game(tr, word))
            return
        preset, target = choose_preset(preset, target, games[word.lower()])
    if not (await chats.profile(user.id)).started:
        log_ctx["result"] = "not_started"
        await message.reply(tr("tournament-not-started"),
                            reply_markup=keyboards.open_bot_keyboard(tr, presenter.bot_username, "start"))  # fmt: skip
        return
    creator = await person(user, chats)
    try:
        t = await tournaments.open(message.chat.id, creator, preset, target, tr.lang, thread_id=topic_of(message))
    except Rejected:
        found = await tournaments.current(message.chat.id)
        if found is not None:
            await repost(found, tournaments, presenter)
        return
    log_ctx["action"] = f"tournament:{t.preset}"
    await post(t, tournaments, presenter)


async def repost(t: Tournament, tournaments: Tournaments, presenter: Presenter) -> None:
    """The tournament's message again at the bottom of its chat, with its buttons; it becomes the tournament's,
    and the one before loses its buttons (if it is still there)."""
    await post(t, tournaments, presenter)


async def post(t: Tournament, tournaments: Tournaments, presenter: Presenter) -> None:
    """Post the tournament's message and bind it (``Tournaments.bind_message``): a press on it may have come
    first, and is then what bound it."""
    message_id = await presenter.post_tournament(t)
    await presenter.tournament_bound(await tournaments.bind_message(t.id, t.chat_id, message_id, seen=t.version))


async def kick(
    message: Message, user: User, words: list[str], tournaments: Tournaments, chats: Chats, presenter: Presenter,
    tr: Translator,
) -> None:  # fmt: skip
    """``/tournament kick @user`` or in reply to the player's message: off the tournament (the organiser's, or an
    admin's of the tournament's chat)."""
    target, name = await kick_target(message, words, chats)
    if target is None:
        await message.reply(tr("tournament-kick-not-entrant", name=name) if name else tr("tournament-kick-who"))
        return
    current = await tournaments.current(message.chat.id)
    try:
        if current is None:
            raise Rejected(Rejection.NO_TOURNAMENT)
        t = await tournaments.remove(current.id, user.id, target)
    except Rejected as exc:
        text = tr("tournament-kick-not-entrant", name=name) if exc.reason is Rejection.NOT_ENTERED else None
        await message.reply(text or managing_refusal(tr, exc))
        return
    await message.reply(tr("tournament-kicked", name=name, signup="yes" if t.status == "signup" else "no"))
    presenter.tournament_board(t)


async def kick_target(message: Message, words: list[str], chats: Chats) -> tuple[int | None, str]:
    """Whom ``/tournament kick`` names: the author of the message it replies to, else an @username; their id (None:
    nobody named, or an @username the bot never saw) and their name as the answer shows it (HTML-escaped)."""
    reply = replied(message)
    if reply is not None and reply.from_user is not None and not reply.from_user.is_bot:
        return reply.from_user.id, user_text(player_of(reply.from_user).name)
    named = next((w for w in words if USERNAME.fullmatch(w)), None)
    if named is None:
        return None, ""
    return await chats.user_by_username(named[1:]), user_text(named)


async def stop(
    message: Message, user: User, words: list[str], tournaments: Tournaments, chats: Chats, presenter: Presenter,
    tr: Translator,
) -> None:  # fmt: skip
    """``/tournament stop``: the chat's tournament ends now with its standings so far (a sign-up is cancelled)."""
    current = await tournaments.current(message.chat.id)
    try:
        if current is None:
            raise Rejected(Rejection.NO_TOURNAMENT)
        t = await tournaments.stop(current.id, player_of(user))
    except Rejected as exc:
        await message.reply(managing_refusal(tr, exc))
        return
    presenter.tournament_board(t)


async def private_tournament(message: Message, tr: Translator) -> None:
    await message.answer(tr("tournament-in-groups"))


async def pressed(
    query: CallbackQuery,
    callback_data: TournamentCb,
    tournaments: Tournaments,
    chats: Chats,
    presenter: Presenter,
    i18n: I18n,
    user_tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """✅ join or leave the sign-up, ▶ start it, 🚪 leave the started tournament (one press)."""
    t = await tournaments.get(callback_data.t)
    tr = i18n[t.lang] if t is not None else user_tr
    log_ctx["action"] = f"tournament:{callback_data.a}"
    if t is None:
        await query.answer(tr("toast-tournament-gone"))
        return
    message = query.message
    binding = None
    if isinstance(message, Message) and (message.chat.id, message.message_id) != (t.chat_id, t.message_id):
        # A message that carries the tournament's buttons and is newer than its message is one the bot has just
        # posted and not yet written down (the press came first): it is the tournament's message now, as it will
        # be a moment later. An older one (left when it was posted again), or another chat's, is stale.
        binding = await tournaments.bind_message(t.id, message.chat.id, message.message_id)
        if not binding.current:
            log_ctx["result"] = Rejection.STALE.value
            await query.answer(tr("toast-stale"))
            return
        t = binding.tournament
    try:
        if callback_data.a == "j":
            await _join(query, t, tournaments, chats, presenter, tr, log_ctx)
        elif callback_data.a == "s":
            await _start(query, t, tournaments, presenter, tr)
        elif callback_data.a == "l":
            await _leave(query, t, tournaments, presenter, tr)
        else:
            await query.answer(tr("toast-tournament-gone"))
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value
        await query.answer(refusal(tr, exc), show_alert=exc.reason is Rejection.TOURNAMENT_SMALL)
    if binding is not None and binding.retire is not None:  # after the answer: a chat's call may wait its turn
        await presenter.retire_tournament_message(binding.tournament, binding.retire)


async def _join(
    query: CallbackQuery, t: Tournament, tournaments: Tournaments, chats: Chats, presenter: Presenter,
    tr: Translator, log_ctx: dict[str, Any],
) -> None:  # fmt: skip
    user = query.from_user
    if t.entrant_of(user.id) is None and not (await chats.profile(user.id)).started:
        log_ctx["result"] = "not_started"
        await query.answer(tr("toast-start-bot"), url=f"https://t.me/{presenter.bot_username}?start=t_{t.id}")
        return
    t, joined = await tournaments.toggle(t.id, await person(user, chats))
    await query.answer(tr("toast-tournament-joined" if joined else "toast-tournament-unjoined"))
    presenter.tournament_board(t)


async def _start(
    query: CallbackQuery, t: Tournament, tournaments: Tournaments, presenter: Presenter, tr: Translator
) -> None:
    t = await tournaments.begin(t.id, query.from_user.id)
    await query.answer()
    presenter.tournament_board(t)


async def _leave(
    query: CallbackQuery, t: Tournament, tournaments: Tournaments, presenter: Presenter, tr: Translator
) -> None:
    """One press leaves, at once: the answer says what it did (the match being played is given up by the
    tournament's job)."""
    t = await tournaments.leave(t.id, query.from_user.id)
    await query.answer(tr("toast-tournament-left-now"), show_alert=True)
    presenter.tournament_board(t)


async def cancel_in_reply(message: Message, tournaments: Tournaments, presenter: Presenter, tr: Translator) -> bool:
    """``/cancel`` in reply to a tournament's sign-up (this bot's own message): its creator (or an admin of its
    group) cancels it. False when the reply is to no tournament's message (``/cancel`` then means a challenge)."""
    user = message.from_user
    data = button_data(own_reply(message), TournamentCb.__prefix__)
    if data is None or user is None:
        return False
    await _cancel(message, TournamentCb.unpack(data).t, user.id, tournaments, presenter, tr)
    return True


async def cancel_own(message: Message, tournaments: Tournaments, presenter: Presenter, tr: Translator) -> bool:
    """``/cancel`` without a reply by the organiser of the chat's tournament: its sign-up is cancelled (a started
    one is refused with how to stop it). False when they organise none there."""
    user = message.from_user
    t = None if user is None else await tournaments.organised(message.chat.id, user.id)
    if t is None or user is None:
        return False
    await _cancel(message, t.id, user.id, tournaments, presenter, tr)
    return True


async def _cancel(
    message: Message, tournament_id: str, user_id: int, tournaments: Tournaments, presenter: Presenter,
    tr: Translator,
) -> None:  # fmt: skip
    try:
        t = await tournaments.cancel(tournament_id, user_id)
    except Rejected as exc:
        await message.reply(managing_refusal(tr, exc))
        return
    presenter.tournament_board(t)


async def join_by_link(
    tournament_id: str, user: User, tournaments: Tournaments, chats: Chats, presenter: Presenter, tr: Translator
) -> str:
    """``/start t_<tournament>``: sign up from the private chat; the answer's text."""
    try:
        t = await tournaments.join(tournament_id, await person(user, chats))
    except Rejected as exc:
        return refusal(tr, exc)
    presenter.tournament_board(t)
    return tr("tournament-joined-private", game=game_name(tr, t.preset))


def build() -> Router:
    router = Router(name="tournament")
    router.message.register(tournament_command, Command("tournament"), F.chat.type.in_(GROUP_TYPES))
    router.message.register(private_tournament, Command("tournament"), F.chat.type == "private")
    router.callback_query.register(pressed, TournamentCb.filter())
    return router
