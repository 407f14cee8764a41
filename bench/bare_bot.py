"""A bare aiogram bot for ``bench/load.py``: the same Bot API calls per press as the domino bot, and nothing else.

    BARE_MATCHES='[["m1", -100, 11, 12], ...]' TELEGRAM_API_BASE=http://127.0.0.1:PORT python -m bench.bare_bot

No game, no storage, no rate limits: each match is a version counter and
whose turn it is, in memory. At start it sends each match's table to its
group and a panel to each player (as the bot's delivery does after a start);
a press on the panel of the player to act is answered at once, and then, as
the bot's delivery lanes do, the table is edited, the mover's panel edited,
and the other player gets a new panel at the bottom (the old one deleted).
Each update is logged as the bot logs it (``update=N kind=... ms=...``).

With ``BARE_LEAN=1`` it makes those calls as the bot makes them (``bot/lean.py``:
keyboards as JSON, Telegram's answers read for the message's id only) and
sets its garbage collector as the bot does (``bot/runtime.py``): what is left
between the two is then the game and the storage alone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from aiogram import BaseMiddleware, Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, TelegramObject, Update

from bot.lean import EditMessageTextLean, SendMessageLean, keyboard_json
from bot.responses import keep_response_models
from bot.runtime import tune_collector

log = logging.getLogger("bot.updates")

LEAN = os.environ.get("BARE_LEAN") == "1"
"""Make the calls as the bot does (``bot/lean.py``) instead of with aiogram's models (``--lean-bare``)."""
HAND = ["66", "64", "53", "42", "31", "20", "10"]
FILLER = "Счёт матча: ты 0, соперник 0 · до 8\nКозыри: шестёрки\nПрошлая взятка: Аня [6|6] · Piotr [4|1] → Аня\n"
"""About the length of a real panel's text."""


@dataclass
class Table:
    id: str
    group: int
    players: tuple[int, int]
    version: int = 0
    turn: int = 0
    table: int = 0
    panels: list[int] = field(default_factory=lambda: [0, 0])
    tasks: set[asyncio.Task[None]] = field(default_factory=set)


def panel_text(table: Table, seat: int) -> str:
    head = "Твой ход." if table.turn == seat else "⏳ Ход соперника."
    return f"<b>Бинго</b> · v{table.version}\n{FILLER}{head}"


def panel(table: Table, seat: int) -> tuple[str, InlineKeyboardMarkup]:
    buttons = [
        InlineKeyboardButton(text=f"[{t[0]}|{t[1]}]", callback_data=f"a:{table.id}:{table.version}:{t}") for t in HAND
    ]
    return panel_text(table, seat), InlineKeyboardMarkup(inline_keyboard=[buttons[:4], buttons[4:]])


def panel_json(table: Table, seat: int) -> tuple[str, str]:
    """``panel`` with its keyboard as JSON (``BARE_LEAN``)."""
    rows = [{"text": f"[{t[0]}|{t[1]}]", "callback_data": f"a:{table.id}:{table.version}:{t}"} for t in HAND]
    return panel_text(table, seat), keyboard_json([rows[:4], rows[4:]])


class LogMiddleware(BaseMiddleware):
    async def __call__(self, handler: Any, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, Update)
        started = time.perf_counter()
        try:
            return await handler(event, data)
        finally:
            log.info(
                "update=%s kind=%s ms=%.1f", event.update_id, event.event_type, (time.perf_counter() - started) * 1000
            )


async def deliver(bot: Bot, table: Table, mover: int) -> None:
    """What the bot's lanes do after a move: the table, the mover's panel, a new panel for the other."""
    other = 1 - mover
    table_text = f"Стол · v{table.version}\n{FILLER}"

    async def group() -> None:
        if LEAN:
            await bot(EditMessageTextLean(text=table_text, chat_id=table.group, message_id=table.table))
        else:
            await bot.edit_message_text(text=table_text, chat_id=table.group, message_id=table.table)

    async def mover_lane() -> None:
        chat, message = table.players[mover], table.panels[mover]
        if LEAN:
            text, raw = panel_json(table, mover)
            await bot(EditMessageTextLean(text=text, chat_id=chat, message_id=message, reply_markup=raw))
        else:
            text, markup = panel(table, mover)
            await bot.edit_message_text(text=text, chat_id=chat, message_id=message, reply_markup=markup)

    async def other_lane() -> None:
        chat, old = table.players[other], table.panels[other]
        if LEAN:
            text, raw = panel_json(table, other)
            sent: Any = await bot(SendMessageLean(chat_id=chat, text=text, reply_markup=raw))
        else:
            text, markup = panel(table, other)
            sent = await bot.send_message(chat, text, reply_markup=markup)
        table.panels[other] = sent.message_id
        await bot.delete_message(chat, old)

    await asyncio.gather(group(), mover_lane(), other_lane(), return_exceptions=True)


async def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    keep_response_models()  # the same fix of aiogram's hot path as the bot's, for a fair ceiling
    session = AiohttpSession(api=TelegramAPIServer.from_base(os.environ["TELEGRAM_API_BASE"]))
    bot = Bot(os.environ["BOT_TOKEN"], session=session, default=DefaultBotProperties(parse_mode="HTML"))
    tables = {m[0]: Table(m[0], int(m[1]), (int(m[2]), int(m[3]))) for m in json.loads(os.environ["BARE_MATCHES"])}
    for table in tables.values():
        table.table = (await bot.send_message(table.group, f"Стол · v0\n{FILLER}")).message_id
        for seat in (0, 1):
            text, markup = panel(table, seat)
            table.panels[seat] = (await bot.send_message(table.players[seat], text, reply_markup=markup)).message_id
    dispatcher = Dispatcher(disable_fsm=True)  # as the bot's
    dispatcher.update.outer_middleware(LogMiddleware())

    @dispatcher.callback_query()
    async def press(query: CallbackQuery, bot: Bot) -> None:
        _, match_id, version, _ = (query.data or "").split(":")
        table = tables[match_id]
        if int(version) != table.version or query.from_user.id != table.players[table.turn]:
            await query.answer("stale")
            return
        mover = table.turn
        table.version += 1
        table.turn = 1 - mover
        await query.answer()
        task = asyncio.create_task(deliver(bot, table, mover))
        table.tasks.add(task)
        task.add_done_callback(table.tasks.discard)

    logging.getLogger("aiogram.event").setLevel(logging.WARNING)
    if LEAN:  # and its collector set as the bot sets it
        tune_collector()
    log.info("bare bot polling")
    await dispatcher.start_polling(bot, handle_signals=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
