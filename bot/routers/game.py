"""Buttons: joining, withdrawing, game moves, surrender, language; and /surrender, /lang.

A refusal a handler does not answer itself (``Rejected``: the match or the
challenge is gone, say) is answered by ``bot.middlewares.LanguageMiddleware``
in the user's language.
"""

from __future__ import annotations

from typing import Any

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot import keyboards, render
from bot.callbacks import (
    ClaimWinCb,
    ComputerCb,
    GreetingLangCb,
    JoinCb,
    LangCb,
    MoveCb,
    SurrenderCb,
    WithdrawCb,
    move_filter,
)
from bot.i18n import I18n, Translator
from bot.models import LANGS, LEVELS, Lang, Level, MatchRecord, Rejection, is_inline_chat
from bot.presenter import Presenter
from bot.routers.common import GROUP_TYPES, is_admin, join, rejection_text
from bot.services.challenges import Challenges
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.moves import Moves
from bot.services.records import Records


async def move(
    query: CallbackQuery,
    callback_data: MoveCb,
    records: Records,
    moves: Moves,
    presenter: Presenter,
    i18n: I18n,
    log_ctx: dict[str, Any],
) -> None:
    """A tile or an action pressed on a panel."""
    log_ctx.update(match=callback_data.m, action=callback_data.a)
    user = query.from_user
    record, match = await records.peek(callback_data.m)
    seat = record.seat_of(user.id)
    if seat is not None and not own_panel(query, record, seat):
        # A player's game button forged on a message that is not their panel of this match: nothing happens there.
        log_ctx["result"] = "not_on_message"
        await query.answer(i18n[record.lang_of(seat)]("toast-bad-button"))
        return
    # An older message than the panel Redis knows is an old panel (checked in the move's script); a newer one
    # is a panel whose sending is not recorded yet (another process sent it a moment ago): its button's
    # version decides, as any.
    message_id = query.message.message_id if query.message is not None and seat is not None else None
    ticket = presenter.ticket(record.id)
    try:
        result = await moves.submit(
            callback_data.m, user.id, callback_data.a, version=callback_data.v, request_id=query.id,
            message_id=message_id,
        )  # fmt: skip
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value if exc.refusal is None else exc.refusal.value
        if seat is not None and (
            exc.reason is Rejection.OLD_PANEL or await _from_old_panel(records, record, seat, message_id, exc)
        ):
            await _outdated_panel(query, record.id, seat, callback_data.v, records, presenter, log_ctx, "old-panel")
            return
        if exc.reason is Rejection.STALE and seat is not None:
            await _outdated_panel(query, record.id, seat, callback_data.v, records, presenter, log_ctx, "stale")
            return
        view = match.deal.view(seat) if seat is not None else None
        await query.answer(rejection_text(i18n[record.lang_of(seat)], exc, view))
        # A panel of a finished match that kept its buttons (one sent as the bot died, say) loses them. Only a panel
        # of this seat of this match (never another message a forged press came on), and not the seat's current
        # panel: the delivery brings that one to the match's end with its rematch button, and a tap made before that
        # edit reached the phone must not take the button away after it.
        pressed = query.message
        if (
            exc.reason is Rejection.MATCH_OVER
            and pressed is not None
            and own_panel(query, record, seat)
            and not await _current_panel(records, record, seat, pressed.chat.id, pressed.message_id)
        ):
            await presenter.strip(pressed.chat.id, pressed.message_id)
        return
    if result.duplicate:
        log_ctx["result"] = "duplicate"
    else:
        presenter.show(result, ticket)
    await query.answer()


def own_panel(query: CallbackQuery, record: MatchRecord, seat: int | None) -> bool:
    """Whether the pressed message is a panel of this seat of this match: in the seat's private chat, carrying a
    move, a hint or the rematch of the match (only the bot's panels do; one older than 48 hours, which Telegram no
    longer shows the bot, is taken for one when it is in that chat). Anything else a forged press came on is never
    stripped or shown again."""
    message = query.message
    if seat is None or message is None or message.chat.id != record.players[seat].id:
        return False
    if not isinstance(message, Message):
        return True
    rows = message.reply_markup.inline_keyboard if message.reply_markup is not None else []
    own = (f"a:{record.id}:", f"h:{record.id}:", f"rm:{record.id}")
    return any((button.callback_data or "").startswith(own) for row in rows for button in row)


async def _current_panel(
    records: Records, record: MatchRecord, seat: int | None, chat_id: int, message_id: int
) -> bool:
    """Whether the message is the seat's current panel, as Redis holds it."""
    if seat is None or chat_id != record.players[seat].id:
        return False
    return await records.panel_message(record.id, seat) == message_id


async def _from_old_panel(
    records: Records, record: MatchRecord, seat: int, message_id: int | None, exc: Rejected
) -> bool:
    """Whether a press refused before its script ran (stale, illegal, out of turn) came from an old panel of an
    active match: that is what the player is told then."""
    if message_id is None or not record.is_active or exc.reason in (Rejection.NO_MATCH, Rejection.MATCH_OVER):
        return False
    panel = await records.panel_message(record.id, seat)
    return panel is not None and message_id < panel


async def _outdated_panel(
    query: CallbackQuery,
    match_id: str,
    seat: int,
    version: int,
    records: Records,
    presenter: Presenter,
    log_ctx: dict[str, Any],
    toast: str,
) -> None:
    """A press on an outdated panel (its button made for ``version``): the player to act gets theirs again, at
    the bottom; the other a toast (``toast-<toast>``). A button newer than the match says that Redis lost writes
    (it went back to an earlier moment): every message of the match is shown again from what Redis holds, and
    the pressed message loses its buttons."""
    log_ctx["result"] = "old_panel"
    record, match = await records.get(match_id)
    tr = presenter.i18n[record.lang_of(seat)]
    # Only the seat's own panel of the match says that Redis lost writes: a button's version is the presser's to
    # forge, and a forged one on any other message must not make the bot show the match again.
    ahead = version > record.version and record.is_active and own_panel(query, record, seat)
    if ahead:
        log_ctx["result"] = "ahead"
        await presenter.resync(record)
    if record.is_active and match.turn == seat:
        await query.answer(tr("toast-panel-resent"))
        if not ahead:
            await presenter.resend_panel(record, seat)
    else:
        await query.answer(tr(f"toast-{toast}"))
    if ahead and query.message is not None:
        # A panel of moves Redis lost: Redis does not know it, so nothing else would take its buttons away.
        await presenter.strip(query.message.chat.id, query.message.message_id)


async def join_here(
    query: CallbackQuery,
    callback_data: JoinCb,
    chats: Chats,
    challenges: Challenges,
    presenter: Presenter,
    i18n: I18n,
    user_tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """Join from the group; a user who never started the bot is sent to it by the deep link."""
    log_ctx["action"] = "join"
    user = query.from_user
    profile = await chats.profile(user.id)
    challenge = await challenges.challenge(callback_data.c)
    tr = i18n[challenge.lang] if challenge else user_tr
    if not profile.started:
        log_ctx["result"] = "not_started"
        await query.answer(
            tr("toast-start-bot"), url=f"https://t.me/{presenter.bot_username}?start=j_{callback_data.c}"
        )
        return
    # An inline challenge's message (posted via the bot) becomes the match's table: the accept binds it, if its
    # creator's posting did not (the press must then be on that message).
    record, refusal = await join(
        callback_data.c, user, user_tr, challenges, chats, presenter, i18n, inline_message_id=query.inline_message_id
    )
    if record is None:
        log_ctx["result"] = "refused"
        await query.answer(refusal)
        return
    log_ctx["match"] = record.id
    presenter.start_match(record)
    await query.answer()


async def computer_here(
    query: CallbackQuery,
    callback_data: ComputerCb,
    challenges: Challenges,
    presenter: Presenter,
    i18n: I18n,
    user_tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """The creator of a challenge plays the computer instead of waiting for a person."""
    user = query.from_user
    challenge = await challenges.challenge(callback_data.c)
    tr = i18n[challenge.lang] if challenge else user_tr
    if challenge is None or callback_data.l not in LEVELS:
        await query.answer(tr("toast-challenge-gone"))
        return
    level: Level = callback_data.l
    log_ctx["action"] = f"computer:{level}"
    try:
        record = await challenges.play_computer(challenge.id, user.id, level, tr(f"computer-{level}"))
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value
        await query.answer(tr("toast-computer-creator-only") if exc.reason is Rejection.NOT_ALLOWED
                           else rejection_text(tr, exc))  # fmt: skip
        return
    log_ctx["match"] = record.id
    await query.answer()
    await presenter.challenge_taken(challenge, record)
    presenter.start_match(record)


async def withdraw(
    query: CallbackQuery,
    callback_data: WithdrawCb,
    challenges: Challenges,
    presenter: Presenter,
    i18n: I18n,
    user_tr: Translator,
) -> None:
    user = query.from_user
    challenge = await challenges.challenge(callback_data.c)
    if challenge is None:
        await query.answer(user_tr("toast-challenge-gone"))
        return
    tr = i18n[challenge.lang]
    inline = query.inline_message_id
    if is_inline_chat(challenge.chat_id) and challenge.inline_message_id not in (None, inline):
        await query.answer(tr("toast-bad-button"))  # another inline message's press: not this challenge's
        return
    try:
        withdrawn = await challenges.withdraw(callback_data.c, user.id)
    except Rejected as exc:
        await query.answer(rejection_text(tr, exc))
        return
    if inline is not None and is_inline_chat(challenge.chat_id) and withdrawn.inline_message_id is None:
        # Allowed, so the press is its creator's (or an admin's) on its message: it says there that it is withdrawn.
        challenge = withdrawn.model_copy(update={"inline_message_id": inline})
    await query.answer()
    own = challenge.creator.id == user.id
    await presenter.close_challenge(challenge, "challenge-withdrawn" if own else "challenge-cancelled")


async def surrender_command(message: Message, records: Records, i18n: I18n, tr: Translator) -> None:
    """Ask to confirm giving up: the match in this group, or (in private) each active match."""
    user = message.from_user
    if user is None:
        return
    if message.chat.type in GROUP_TYPES:
        found = await records.active_match(message.chat.id, user.id)
        ids = [found] if found else []
    else:
        ids = await records.user_matches(user.id)
    asked = False
    for match_id in ids:
        try:
            record, _ = await records.peek(match_id)
        except Rejected:
            continue
        seat = record.seat_of(user.id)
        if seat is None or not record.is_active:
            continue
        mtr = i18n[record.lang if message.chat.type in GROUP_TYPES else record.lang_of(seat)]
        await message.reply(
            render.surrender_question(mtr, record, seat),
            reply_markup=keyboards.surrender_keyboard(mtr, match_id, user.id),
        )
        asked = True
    if not asked:
        await message.reply(tr("error-no-match"))


async def surrender(
    query: CallbackQuery,
    callback_data: SurrenderCb,
    records: Records,
    moves: Moves,
    presenter: Presenter,
    i18n: I18n,
    log_ctx: dict[str, Any],
) -> None:
    log_ctx.update(match=callback_data.m, action="surrender" if callback_data.yes else "keep")
    user = query.from_user
    record, _ = await records.peek(callback_data.m)
    seat = record.seat_of(user.id)
    private = query.message is not None and query.message.chat.type not in GROUP_TYPES
    tr = i18n[record.lang_of(seat) if private else record.lang]
    if user.id != callback_data.u:
        await query.answer(tr("toast-not-your-question"))
        return
    if seat is None:
        await query.answer(tr("toast-not-player"))
        return
    if not callback_data.yes:
        await query.answer(tr("surrender-kept"))
        if query.message is not None:
            presenter.edit(query.message.chat.id, query.message.message_id, tr("surrender-kept"))
        return
    try:
        result = await moves.surrender(callback_data.m, user.id, request_id=query.id)
    except Rejected as exc:
        await query.answer(rejection_text(tr, exc))
        return
    await query.answer()
    if query.message is not None:
        presenter.edit(query.message.chat.id, query.message.message_id, tr("toast-done"))
    if not result.duplicate:
        presenter.show(result)


async def claim_win(
    query: CallbackQuery,
    callback_data: ClaimWinCb,
    records: Records,
    moves: Moves,
    presenter: Presenter,
    i18n: I18n,
    log_ctx: dict[str, Any],
) -> None:
    """The waiting player takes the win from an opponent who has not moved for a day."""
    log_ctx.update(match=callback_data.m, action="claim_win")
    user = query.from_user
    record, _ = await records.peek(callback_data.m)
    # The offer went to the waiting player's private chat, in their language.
    tr = i18n[record.lang_of(record.seat_of(user.id))]
    try:
        result = await moves.claim_win(callback_data.m, user.id, version=callback_data.v, request_id=query.id)
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value
        toast = {Rejection.STALE: "toast-opponent-moved", Rejection.NOT_ALLOWED: "toast-claim-not-yours"}.get(
            exc.reason
        )
        await query.answer(tr(toast) if toast else rejection_text(tr, exc))
        if query.message is not None and exc.reason in (Rejection.STALE, Rejection.MATCH_OVER):
            await presenter.strip(query.message.chat.id, query.message.message_id)
        return
    await query.answer()
    if query.message is not None:
        await presenter.strip(query.message.chat.id, query.message.message_id)
    if not result.duplicate:
        await presenter.resend_panels(record)
        presenter.show(result)


async def lang_command(message: Message, tr: Translator) -> None:
    user = message.from_user
    if user is None:
        return
    if message.chat.type in GROUP_TYPES and (
        message.bot is None or not await is_admin(message.bot, message.chat, user.id)
    ):
        await message.reply(tr("error-admin-only"))
        return
    await message.reply(tr("lang-choose"), reply_markup=keyboards.lang_keyboard(tr))


async def set_lang(
    query: CallbackQuery,
    callback_data: LangCb | GreetingLangCb,
    chats: Chats,
    presenter: Presenter,
    i18n: I18n,
    tr: Translator,
) -> None:
    user = query.from_user
    message = query.message
    lang: Lang = "pl" if callback_data.lang == "pl" else "ru"
    if message is not None and message.chat.type in GROUP_TYPES:
        if query.bot is None or not await is_admin(query.bot, message.chat, user.id):
            await query.answer(tr("toast-admin-only"))
            return
        await chats.update_settings(message.chat.id, lang=lang)
    else:
        await chats.update_profile(user.id, lang=lang)
    chosen = i18n[lang]
    await query.answer(chosen("lang-set"))
    if message is not None and isinstance(callback_data, GreetingLangCb) and message.chat.type in GROUP_TYPES:
        # The greeting stays, now in the group's language, with its buttons (to switch back).
        markup = keyboards.lang_keyboard(chosen, greeting=True)
        presenter.edit(message.chat.id, message.message_id, chosen("greeting"), markup)
    elif message is not None:
        presenter.edit(message.chat.id, message.message_id, chosen("lang-set"))


async def unknown_button(query: CallbackQuery, user_tr: Translator, log_ctx: dict[str, Any]) -> None:
    """Junk or forged callback data: a toast, nothing else."""
    log_ctx["result"] = Rejection.ILLEGAL.value
    await query.answer(user_tr("toast-bad-button"))


def build() -> Router:
    """A new router with this module's handlers (a router can have one parent only). It goes first: a
    press on a tile is the update the bot gets most."""
    router = Router(name="game")
    router.callback_query.register(move, move_filter)
    router.callback_query.register(join_here, JoinCb.filter())
    router.callback_query.register(computer_here, ComputerCb.filter())
    router.callback_query.register(withdraw, WithdrawCb.filter())
    router.message.register(surrender_command, Command("surrender"))
    router.callback_query.register(surrender, SurrenderCb.filter())
    router.callback_query.register(claim_win, ClaimWinCb.filter())
    router.message.register(lang_command, Command("lang"))
    router.callback_query.register(set_lang, LangCb.filter(F.lang.in_(LANGS)))
    router.callback_query.register(set_lang, GreetingLangCb.filter(F.lang.in_(LANGS)))
    return router


def build_fallback() -> Router:
    """The handler of any button no other router took (it goes last)."""
    router = Router(name="unknown buttons")
    router.callback_query.register(unknown_button)
    return router
