"""Between matches: /top, /stats, /history, /rules."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import weakref

from aiogram import Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, Message, User

from bot import render, replays
from bot.i18n import I18n, Translator
from bot.models import LANGS, LEVELS, OUTSIDE_GROUPS, Standing, Summary
from bot.pictures import build as pictures
from bot.pictures.cards import RatingChart
from bot.pictures.painter import Painter, caption_fits
from bot.presenter import Presenter
from bot.routers.common import GROUP_TYPES, preset_words, replied, unknown_game
from bot.routers.group import USERNAME
from bot.services.chats import Chats
from bot.services.results import Results
from bot.services.terms import Terms
from bot.services.tournaments import Tournaments

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


def top_words(i18n: I18n, key: str) -> set[str]:
    """The ``/top`` words of a locale list (``top-words-all-time``, ``top-words-all``), in every language,
    lowercase."""
    return {word.strip().lower() for lang in LANGS for word in i18n[lang](key).split(",") if word.strip()}


async def top(message: Message, command: CommandObject, results: Results, i18n: I18n, tr: Translator) -> None:
    """A group's current season (``/top``), its all-time table (``/top all-time``, ``/top за всё время``,
    ``/top wszystko``...), or the table across all chats (``/top all``; in private: always), top 10 and your
    own place."""
    word = " ".join((command.args or "").lower().split())
    if message.chat.type not in GROUP_TYPES:
        # In private: the table across all chats, then the one of matches played outside groups (inline mode).
        await all_time(message, results, tr, None)
        if await results.leaderboard(OUTSIDE_GROUPS, 1):
            await all_time(message, results, tr, OUTSIDE_GROUPS)
    elif word in top_words(i18n, "top-words-all"):
        await all_time(message, results, tr, None)
    elif word in top_words(i18n, "top-words-all-time"):
        await all_time(message, results, tr, message.chat.id)
    else:
        await season_table(message, results, tr)


async def all_time(message: Message, results: Results, tr: Translator, chat_id: int | None) -> None:
    """The all-time table of a chat (None: across all chats) by rating."""
    rows = await results.leaderboard(chat_id, TOP)
    if not rows:
        await message.answer(tr("top-empty"))
        return
    title = "top-title-all" if chat_id is None else "top-title-outside" if chat_id == OUTSIDE_GROUPS else "top-title"
    lines = [tr(title)]
    lines += [standing_line(tr, row) for row in rows]
    user = message.from_user
    if user is not None and all(row.user_id != user.id for row in rows):
        mine = await results.rank_of(chat_id, user.id)
        lines.append(standing_line(tr, mine) if mine else tr("top-you-unranked"))
    await message.answer("\n".join(lines))


async def season_table(message: Message, results: Results, tr: Translator) -> None:
    """The group's current season: wins, then the rating gained in it."""
    season, chat_id = results.current_season(), message.chat.id
    rows, _ = await results.season(chat_id, season, TOP)
    if not rows:
        await message.answer(tr("season-empty", season=render.season_name(tr, season)))
        return
    lines = [tr("season-title", season=render.season_name(tr, season))]
    lines += [render.season_line(tr, row) for row in rows]
    user = message.from_user
    if user is not None and all(row.user_id != user.id for row in rows):
        mine = await results.season_rank_of(chat_id, season, user.id)
        lines.append(render.season_line(tr, mine) if mine else tr("season-you-unranked"))
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


def replied_user(message: Message) -> User | None:
    """The author of the message ``message`` replies to (None: no reply; in a forum topic, Telegram's reply
    to the topic's first message is none: ``replied``)."""
    reply = replied(message)
    if reply is None:
        return None
    if reply.sender_chat is not None:
        return User(id=reply.sender_chat.id, is_bot=True, first_name=reply.sender_chat.title or "")
    return reply.from_user


async def rival_of(
    message: Message, command: CommandObject, chats: Chats, tr: Translator
) -> tuple[int, str] | str | None:
    """Whom ``/stats`` asks about: another person (their id and name), None when nobody (the asker's own
    stats), or the answer instead (asked in private, about oneself, a bot, an @username the bot never saw)."""
    user = message.from_user
    named = next((word for word in (command.args or "").split() if word.startswith("@")), None)
    author = None if named is not None else replied_user(message)
    if user is None or (named is None and author is None):
        return None
    if message.chat.type not in GROUP_TYPES:
        return tr("rivalry-group-only")
    if named is not None:
        if named[1:].lower().endswith("bot"):  # Telegram keeps names ending in "bot" for bots
            return tr("rivalry-not-a-person")
        found = await chats.user_by_username(named[1:]) if USERNAME.fullmatch(named[1:]) else None
        if found is None:
            return tr("rivalry-unknown", name=render.user_text(named))
        rival = found, (await chats.profile(found)).name or named
    elif author is not None and not author.is_bot:
        rival = author.id, author.full_name
    else:
        return tr("rivalry-not-a-person")
    return tr("rivalry-self") if rival[0] == user.id else rival


async def stats(
    message: Message,
    command: CommandObject,
    results: Results,
    chats: Chats,
    tournaments: Tournaments,
    tr: Translator,
    painter: Painter | None = None,
) -> None:
    """Your stats (below); in a group, in reply to a player's message or with their @username, your head-to-head
    record with them there."""
    user = message.from_user
    if user is None:
        return
    rival = await rival_of(message, command, chats, tr)
    if isinstance(rival, str):
        await message.answer(rival)
    elif rival is not None:
        record = await results.rivalry(message.chat.id, user.id, rival[0])
        if record.played:
            await message.answer(render.rivalry_text(tr, user.full_name, rival[1], record))
        else:
            names = render.user_text(user.full_name), render.user_text(rival[1])
            await message.answer(tr("rivalry-none", a=names[0], b=names[1]))
    else:
        won = await tournaments.wins(message.chat.id, user.id) if message.chat.type in GROUP_TYPES else 0
        await own_stats(message, user, results, tr, painter, tournaments_won=won)


async def own_stats(
    message: Message, user: User, results: Results, tr: Translator, painter: Painter | None, *, tournaments_won: int = 0
) -> None:
    """Your matches, wins, win rate, rating, streaks, per game, and your last five matches; with a picture of
    your rating over your last rated matches (in a group: there; in private: everywhere) as it shows them."""
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
    if tournaments_won:
        lines.append(tr("stats-tournaments", n=tournaments_won))
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
        if chart is not None and await send_chart(message, text, chart, user.id, results, painter):
            return
    await message.answer(text)


async def send_chart(
    message: Message, caption: str, chart: RatingChart, user_id: int, results: Results, painter: Painter
) -> bool:
    """Answer with the rating chart under ``caption``; False when it could not go (the caller sends the text).
    A chart Telegram already has (the same picture sent before: its ``file_id``) is sent again by its id, not
    drawn and uploaded anew: a member asking again costs no drawing."""
    digest = hashlib.sha256(repr(chart).encode()).hexdigest()[:32]
    # One at a time per chart in this process: a second /stats while the first is uploading waits for its file_id.
    lock = _SENDING.get(digest)
    if lock is None:
        lock = _SENDING[digest] = asyncio.Lock()
    async with lock:
        return await _send_chart(message, caption, chart, digest, user_id, results, painter)


_SENDING: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
"""The charts being sent now, by digest (a lock lives while a /stats holds or waits for it)."""


async def _send_chart(
    message: Message, caption: str, chart: RatingChart, digest: str, user_id: int, results: Results, painter: Painter
) -> bool:
    file_id = await results.chart_file(user_id, digest)
    if file_id is not None:
        try:
            await message.answer_photo(file_id, caption=caption)
            return True
        except TelegramBadRequest as exc:  # Telegram no longer knows the file: draw it again
            log.info("a kept chart was refused (%s); drawing it again", exc.message)
    png = await painter.png(chart, key=digest)
    if png is None:
        return False
    try:
        sent = await message.answer_photo(BufferedInputFile(png, filename="rating.png"), caption=caption)
    except TelegramBadRequest as exc:
        log.warning("the rating chart was refused (%s); the stats go as text", exc.message)
        return False
    if sent.photo:
        await results.keep_chart_file(user_id, digest, sent.photo[-1].file_id)
    return True


async def history(message: Message, results: Results, terms: Terms, presenter: Presenter, tr: Translator) -> None:
    """The chat's last ten finished matches (in private: your own), each still kept with a link to its replay."""
    if message.chat.type in GROUP_TYPES:
        rows = await results.history(chat_id=message.chat.id, limit=HISTORY)
    else:
        rows = await results.history(user_id=message.from_user.id if message.from_user else 0, limit=HISTORY)
    if not rows:
        await message.answer(tr("history-empty"))
        return
    lines = [tr("history-title")]
    for row in rows:
        line = summary_line(tr, row)
        if row.finished + terms.finished_ttl > results.clock():
            line += " " + tr("history-replay", url=replays.replay_url(presenter.bot_username, row.id))
        lines.append(line)
    await message.answer("\n".join(lines))


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
