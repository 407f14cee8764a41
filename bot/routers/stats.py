"""Between matches: /top, /stats, /history, /rules."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, Message

from bot import render
from bot.i18n import I18n, Translator
from bot.models import LEVELS, Standing, Summary
from bot.pictures import build as pictures
from bot.pictures.painter import Painter, caption_fits
from bot.routers.common import GROUP_TYPES, preset_words, unknown_game
from bot.services.chats import Chats
from bot.services.results import Results

log = logging.getLogger(__name__)
TOP = 10
LAST_MATCHES = 5
HISTORY = 10
CHAT_ROWS = 50
"""How far back a group's /stats looks in the chat's history for the caller's matches."""


def standing_line(tr: Translator, row: Standing) -> str:
    return tr(
        "top-row",
        rank=row.rank,
        name=render.user_text(row.name or str(row.user_id)),
        rating=str(row.rating),
        won=row.won,
        lost=row.lost,
        played=row.played,
    )


async def top(message: Message, command: CommandObject, results: Results, tr: Translator) -> None:
    """The chat's leaderboard (``/top all``: across all chats), top 10 and your own rank."""
    everywhere = (command.args or "").strip().lower() in ("all", "все", "wszyscy", "global")
    if message.chat.type not in GROUP_TYPES:
        everywhere = True
    chat_id = None if everywhere else message.chat.id
    rows = await results.leaderboard(chat_id, TOP)
    if not rows:
        await message.answer(tr("top-empty"))
        return
    lines = [tr("top-title-all") if everywhere else tr("top-title")]
    lines += [standing_line(tr, row) for row in rows]
    user = message.from_user
    if user is not None and all(row.user_id != user.id for row in rows):
        mine = await results.rank_of(chat_id, user.id)
        lines.append(standing_line(tr, mine) if mine else tr("top-you-unranked"))
    await message.answer("\n".join(lines))


def summary_line(tr: Translator, summary: Summary, *, for_user: int | None = None) -> str:
    a, b = summary.players
    args: dict[str, object] = {
        "date": render.date(summary.finished),
        "game": render.game_name(tr, summary.preset),
        "a": render.user_text(a.name),
        "b": render.user_text(b.name),
        "sa": summary.score[0],
        "sb": summary.score[1],
        "how": summary.finish.value,
    }
    if summary.winner is None:
        if for_user is None:
            return tr("history-row-abandoned", **args)
        return tr("stats-match-row", result="abandoned", **args)
    winner = summary.players[summary.winner]
    if for_user is None:
        return tr("history-row", winner=render.user_text(winner.name), **args)
    return tr("stats-match-row", result="won" if winner.id == for_user else "lost", **args)


async def stats(message: Message, results: Results, tr: Translator, painter: Painter | None = None) -> None:
    """Your matches, wins, win rate, rating, streaks, per game, and your last five matches; with a picture of
    your rating over your last rated matches (in a group: there; in private: everywhere) as it shows them."""
    user = message.from_user
    if user is None:
        return
    in_group = message.chat.type in GROUP_TYPES
    data = await results.stats(user.id, message.chat.id if in_group else None)
    name = render.user_text(user.full_name)
    if not data.played and not data.computer:
        await message.answer(tr("stats-none", name=name))
        return
    lines = [tr("stats-title-chat" if in_group else "stats-title-all", name=name)]
    if data.played:
        lines += [
            tr(
                "stats-summary",
                played=data.played,
                won=data.won,
                rate=round(100 * data.won / data.played),
                rating=str(data.rating),
            ),
            tr("stats-streak", streak=data.streak, best=data.best_streak),
        ]
    for game, (played, won) in sorted(data.per_game.items()):
        lines.append(tr("stats-game", game=tr(f"game-{game}"), played=played, won=won))
    if data.computer:
        # Against the computer: every chat's matches, outside the rating.
        lines.append(tr("stats-computer"))
        for level in LEVELS:
            if level in data.computer:
                played, won = data.computer[level]
                lines.append(tr("stats-computer-level", level=tr(f"level-{level}"), played=played, won=won,
                                lost=played - won))  # fmt: skip
    if in_group:
        chat_rows = await results.history(chat_id=message.chat.id, limit=CHAT_ROWS)
        recent = [r for r in chat_rows if any(p.id == user.id for p in r.players)][:LAST_MATCHES]
    else:
        recent = await results.history(user_id=user.id, limit=LAST_MATCHES)
    if recent:
        lines.append(tr("stats-last"))
        lines += [summary_line(tr, s, for_user=user.id) for s in recent]
    text = "\n".join(lines)
    if painter is not None and data.played and caption_fits(text):
        ratings = await results.rating_log(user.id, message.chat.id if in_group else None)
        chart = pictures.rating_chart(tr, user.full_name, ratings, in_chat=in_group)
        png = None if chart is None else await painter.png(chart)
        if png is not None:
            try:
                await message.answer_photo(BufferedInputFile(png, filename="rating.png"), caption=text)
                return
            except TelegramBadRequest as exc:
                log.warning("the rating chart was refused (%s); the stats go as text", exc.message)
    await message.answer(text)


async def history(message: Message, results: Results, tr: Translator) -> None:
    """The chat's last ten finished matches (in private: your own)."""
    if message.chat.type in GROUP_TYPES:
        rows = await results.history(chat_id=message.chat.id, limit=HISTORY)
    else:
        rows = await results.history(user_id=message.from_user.id if message.from_user else 0, limit=HISTORY)
    if not rows:
        await message.answer(tr("history-empty"))
        return
    await message.answer("\n".join([tr("history-title")] + [summary_line(tr, s) for s in rows]))


async def rules(message: Message, command: CommandObject, chats: Chats, i18n: I18n, tr: Translator) -> None:
    """The rules of the chat's game, or of the one named (``/rules 42``)."""
    preset = (await chats.settings(message.chat.id)).preset if message.chat.type in GROUP_TYPES else "bingo"
    word = (command.args or "").strip().lower()
    if word:
        words = preset_words(i18n)
        if word not in words:
            await message.answer(unknown_game(tr, word))
            return
        preset = words[word]
    await message.answer(tr(f"rules-{preset}"))


def build() -> Router:
    """A new router with this module's handlers (a router can have one parent only)."""
    router = Router(name="stats")
    router.message.register(top, Command("top"))
    router.message.register(stats, Command("stats"))
    router.message.register(history, Command("history"))
    router.message.register(rules, Command("rules"))
    return router
