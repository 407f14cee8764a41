"""The 💡 of a panel in a match against the computer: a toast with the move the hard level prefers, and why."""

from __future__ import annotations

from typing import Any

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.callbacks import HintCb
from bot.i18n import I18n
from bot.presenter import Presenter
from bot.review_text import hint_toast
from bot.routers.game import own_panel
from bot.services.errors import Rejected
from bot.services.moves import Moves
from bot.services.records import Records
from bot.services.reviews import hint


async def hint_pressed(
    query: CallbackQuery,
    callback_data: HintCb,
    records: Records,
    moves: Moves,
    presenter: Presenter,
    i18n: I18n,
    log_ctx: dict[str, Any],
) -> None:
    """The player asks for a hint on their turn: the evaluation runs in a thread, the count is written, then the
    press is answered with the toast. Out of turn, on an older panel or in a match between two people: a
    refusal, and nothing changes."""
    log_ctx.update(match=callback_data.m, action="hint")
    user = query.from_user
    record, match = await records.peek(callback_data.m)
    seat = record.seat_of(user.id)
    tr = i18n[record.panel_lang(seat)]
    if seat is None:
        await query.answer(tr("toast-not-player"))
        return
    if record.computer_seat is None:
        await query.answer(tr("hint-not-here"))
        return
    if not own_panel(query, record, seat):
        log_ctx["result"] = "not_on_message"
        await query.answer(tr("toast-bad-button"))
        return
    fresh = record.is_active and record.version == callback_data.v and match.turn == seat
    if not fresh:
        log_ctx["result"] = "not-now"
        await query.answer(tr("hint-not-now"))
        return
    view = match.deal.view(seat)
    best, values = await hint(record, view)
    try:
        result = await moves.hint(record.id, user.id, version=callback_data.v, request_id=query.id)
    except Rejected as exc:
        log_ctx["result"] = exc.reason.value
        await query.answer(tr("hint-not-now"))
        return
    if not result.duplicate:
        presenter.show(result)
    log_ctx["action"] = f"hint:{best.notation()}"  # in the log line only: a metric's labels are a fixed set
    await query.answer(hint_toast(tr, view, best, values), show_alert=False)


def build() -> Router:
    router = Router(name="hints")
    router.callback_query.register(hint_pressed, HintCb.filter())
    return router
