"""Tournaments: ``/tournament [game]`` in a group opens a sign-up (or shows the one on), its ✅ ▶ 🚪 buttons,
``/cancel`` in reply to its message, and ``/start t_<tournament>`` for one sent to the bot to sign up."""

from __future__ import annotations

import contextlib
from typing import Any

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, User

from bot import keyboards
from bot.callbacks import TournamentCb
from bot.i18n import I18n, Translator
from bot.models import Rejection, Tournament
from bot.presenter import Presenter
from bot.routers.common import (
    GROUP_TYPES,
    button_data,
    choose_preset,
    own_reply,
    person,
    preset_words,
    topic_of,
    unknown_game,
)
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.moves import Moves
from bot.services.tournaments import Tournaments
from bot.texts import game_name

REFUSALS = {
    Rejection.TOURNAMENT_FULL: "toast-tournament-full",
    Rejection.TOURNAMENT_SMALL: "toast-tournament-small",
    Rejection.NOT_ALLOWED: "toast-tournament-creator-only",
    Rejection.NOT_ENTERED: "toast-tournament-not-entered",
    Rejection.NOT_MEMBER: "toast-not-member",
}


def refusal(tr: Translator, exc: Rejected) -> str:
    return tr(REFUSALS.get(exc.reason, "toast-tournament-gone"))


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
    """``/tournament [game]``: open a sign-up for the chat's game (or the one named); with one on, show it."""
    user = message.from_user
    if user is None or message.sender_chat is not None or user.is_bot:
        await message.reply(tr("error-not-a-person"))
        return
    words = (command.args or "").split()
    current = await tournaments.current(message.chat.id)
    if current is not None:
        log_ctx["action"] = "tournament:show"
        snapshot = presenter.tournament_snapshot(current)
        await message.reply(tr("tournament-on") + "\n\n" + snapshot if words else snapshot)
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
            await message.reply(presenter.tournament_snapshot(found))
        return
    log_ctx["action"] = f"tournament:{t.preset}"
    await tournaments.set_message(t.id, await presenter.post_tournament(t))


async def private_tournament(message: Message, tr: Translator) -> None:
    await message.answer(tr("tournament-in-groups"))


async def pressed(
    query: CallbackQuery,
    callback_data: TournamentCb,
    tournaments: Tournaments,
    chats: Chats,
    moves: Moves,
    presenter: Presenter,
    i18n: I18n,
    user_tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """✅ join or leave the sign-up, ▶ start it, 🚪 leave the started tournament (pressed twice)."""
    t = await tournaments.get(callback_data.t)
    tr = i18n[t.lang] if t is not None else user_tr
    log_ctx["action"] = f"tournament:{callback_data.a}"
    if t is None:
        await query.answer(tr("toast-tournament-gone"))
        return
    try:
        if callback_data.a == "j":
            await _join(query, t, tournaments, chats, presenter, tr, log_ctx)
        elif callback_data.a == "s":
            await _start(query, t, tournaments, presenter, tr)
        elif callback_data.a == "l":
            await _leave(query, t, tournaments, moves, presenter, tr)
        else:
            await query.answer(tr("toast-tournament-gone"))
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value
        await query.answer(refusal(tr, exc), show_alert=exc.reason is Rejection.TOURNAMENT_SMALL)


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
    query: CallbackQuery, t: Tournament, tournaments: Tournaments, moves: Moves, presenter: Presenter,
    tr: Translator,
) -> None:  # fmt: skip
    user = query.from_user
    at = t.entrant_of(user.id)
    if t.status != "running" or at is None or t.entrants[at].left:
        raise Rejected(Rejection.NOT_ENTERED)
    if not await tournaments.ask_to_leave(t.id, user.id):
        await query.answer(tr("toast-tournament-leave-confirm"), show_alert=True)
        return
    t, playing = await tournaments.leave(t.id, user.id)
    await query.answer(tr("toast-tournament-left"))
    presenter.tournament_board(t)
    if playing is not None:
        with contextlib.suppress(Rejected):  # it ended meanwhile
            presenter.show(await moves.surrender(playing, user.id))


async def cancel_in_reply(message: Message, tournaments: Tournaments, presenter: Presenter, tr: Translator) -> bool:
    """``/cancel`` in reply to a tournament's sign-up (this bot's own message): its creator (or an admin of its
    group) cancels it. False when the reply is to no tournament's message (``/cancel`` then means a challenge)."""
    user = message.from_user
    data = button_data(own_reply(message), TournamentCb.__prefix__)
    if data is None or user is None:
        return False
    try:
        t = await tournaments.cancel(TournamentCb.unpack(data).t, user.id)
    except Rejected as exc:
        await message.reply(refusal(tr, exc))
        return True
    presenter.tournament_board(t)
    return True


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
