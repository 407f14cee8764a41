"""Factories for the Bot, the Dispatcher and their dependencies; ``run`` starts long polling."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from redis.asyncio import Redis

from bot.config import Settings
from bot.i18n import I18n
from bot.middlewares import UpdateMiddleware
from bot.outbox import Outbox
from bot.presenter import Presenter
from bot.routers import build_router
from bot.services.matches import MatchService
from bot.services.models import LANGS
from bot.storage.redis import create_redis

log = logging.getLogger(__name__)

GROUP_COMMANDS = ("play", "cancel", "surrender", "top", "stats", "history", "rules", "settings", "lang", "help")
PRIVATE_COMMANDS = ("start", "hand", "surrender", "stats", "history", "top", "rules", "lang", "help")


def create_bot(settings: Settings) -> Bot:
    session = None
    if settings.telegram_api_base:
        session = AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_base))
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True),
    )


def create_service(settings: Settings, redis: Redis) -> MatchService:
    return MatchService(
        redis,
        prefix=settings.redis_prefix,
        active_ttl=settings.active_ttl,
        finished_ttl=settings.finished_ttl,
        challenge_ttl=settings.challenge_ttl,
    )


@dataclass
class App:
    """Everything a running bot is made of."""

    bot: Bot
    dispatcher: Dispatcher
    service: MatchService
    presenter: Presenter
    outbox: Outbox
    redis: Redis


async def create_app(settings: Settings, *, redis: Redis | None = None) -> App:
    """Build the bot; asks Telegram for the bot's username (for deep links)."""
    bot = create_bot(settings)
    redis = redis if redis is not None else create_redis(settings.redis_url)
    service = create_service(settings, redis)
    i18n = I18n()
    outbox = Outbox(
        bot,
        group_budget=settings.group_budget,
        group_window=settings.group_window,
        private_gap=settings.private_gap,
    )
    me = await bot.get_me()
    presenter = Presenter(outbox, service, i18n, me.username or "")
    dispatcher = Dispatcher(service=service, presenter=presenter, i18n=i18n, outbox=outbox)
    dispatcher.update.outer_middleware(UpdateMiddleware(service, i18n))
    dispatcher.include_router(build_router())
    await presenter.resume_expiries()
    return App(bot, dispatcher, service, presenter, outbox, redis)


async def set_commands(bot: Bot, i18n: I18n) -> None:
    """Command menus for groups and private chats, in both languages (Russian as the default)."""
    for lang in (*LANGS, None):
        tr = i18n[lang or "ru"]
        for scope, names in (
            (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
            (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
        ):
            commands = [BotCommand(command=name, description=tr(f"cmd-{name}")) for name in names]
            await bot.set_my_commands(commands, scope=scope, language_code=lang)


async def run(settings: Settings) -> None:
    app = await create_app(settings)
    await set_commands(app.bot, app.presenter.i18n)
    log.info("bot @%s polling", app.presenter.bot_username)
    try:
        await app.dispatcher.start_polling(app.bot, handle_signals=True)
    finally:
        app.presenter.close()
        await app.outbox.drain()
        await app.redis.aclose()
        await app.bot.session.close()
