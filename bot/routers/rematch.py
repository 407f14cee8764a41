"""The rematch button (``bot.services.rematches``)."""

from __future__ import annotations

from typing import Any

from aiogram import Router
from aiogram.types import CallbackQuery, Message

from bot.callbacks import RematchCb
from bot.i18n import Translator
from bot.models import Rejection
from bot.presenter import Presenter
from bot.routers.common import person, rejection_text
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.rematches import Pressed, Rematches, Step


async def rematch(
    query: CallbackQuery,
    callback_data: RematchCb,
    rematches: Rematches,
    chats: Chats,
    presenter: Presenter,
    user_tr: Translator,
    log_ctx: dict[str, Any],
) -> None:
    """A player of a finished match pressed 🔁 (under its result in the group, or on their last panel): the first
    press asks the other player, the other's starts the next match (against the computer, at once)."""
    log_ctx.update(match=callback_data.m, action="rematch")
    message = query.message
    on = None
    if isinstance(message, Message):
        on = Pressed(message.chat.id, message.message_id, photo=message.photo is not None)
    try:
        done = await rematches.press(callback_data.m, await person(query.from_user, chats), on=on)
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value
        await query.answer(rejection_text(user_tr, exc))
        if exc.reason is Rejection.REMATCH_OVER and query.message is not None:
            await presenter.strip(query.message.chat.id, query.message.message_id)
        return
    log_ctx["result"] = done.step.value
    if done.step is Step.ASKED:
        await query.answer(user_tr("toast-rematch-asked"))
        seat = done.old.seat_of(query.from_user.id)
        assert seat is not None
        await presenter.rematch_asked(done.old, seat)
    elif done.step is Step.WAITING:
        await query.answer(user_tr("toast-rematch-waiting"))
    else:
        assert done.record is not None
        log_ctx["match"] = done.record.id
        await query.answer()
        await presenter.rematch_started(done.old, done.record)


def build() -> Router:
    router = Router(name="rematch")
    router.callback_query.register(rematch, RematchCb.filter())
    return router
