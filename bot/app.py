"""Factories for the Bot, the Dispatcher and their dependencies; ``run`` starts long polling."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from dataclasses import dataclass, field

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    LinkPreviewOptions,
    User,
)
from redis.asyncio import Redis
from redis.exceptions import RedisClusterException, RedisError

from bot import webhook
from bot.backoff import with_backoff
from bot.clock import Clock, FileClock
from bot.config import Settings, StartupError
from bot.delivery import Delivery, Ledger, Passes
from bot.i18n import I18n
from bot.limits import Budget, CommandFlood, SharedLimiter
from bot.logs import masked
from bot.members import TelegramMembers
from bot.metrics import Metrics
from bot.middlewares import ButtonMiddleware, CommandFloodMiddleware, Handled, LanguageMiddleware, UpdateMiddleware
from bot.models import LANGS
from bot.monitor import Exposition, TelegramCalls, metrics_server
from bot.outbox import LimitMiddleware, Outbox
from bot.pictures.painter import Painter
from bot.presenter import Presenter
from bot.responses import keep_response_models
from bot.routers import build_router, inline
from bot.runtime import tune_collector, where_it_waits
from bot.scheduler import Scheduler, clock_job, expiry_job
from bot.services import Services
from bot.services.reviews import NoReviews, Reviewer
from bot.storage.layout import migrate
from bot.storage.redis import close as close_redis
from bot.storage.redis import create_redis, ping, redacted
from bot.timers import Timers
from bot.webapp.links import AppLinks
from bot.webapp.server import Tables, webapp_server

log = logging.getLogger(__name__)

SETTLE_WITHIN = 60.0
"""Real seconds ``App.settled`` waits (tests): a deadline that, when it passes, names what was still at work."""


async def wait_for_redis(redis: Redis, url: str) -> None:
    """Return once Redis answers a PING, saying what is wrong (with the URL) while it does not."""
    await with_backoff(
        functools.partial(ping, redis),
        (RedisError, RedisClusterException, OSError),
        lambda error, delay: f"Redis at {redacted(url)} does not answer ({error}); retrying in {delay:.0f} s",
    )


TELEGRAM_AWAY = (TelegramNetworkError, TelegramServerError, TelegramRetryAfter, ClientDecodeError)
"""What start-up waits out in a call to Telegram: the network, a 5xx, a 429, and an answer that is no JSON (a
proxy's HTML 502 while a local Bot API server starts passes as a 5xx)."""


async def who_am_i(bot: Bot, api: str) -> User:
    """The bot's own user, waiting while Telegram is unreachable; a rejected token is a StartupError. (Kept
    by ``bot.me()``: aiogram's polling asks for it again as it starts, and a 429 there would end the bot.)"""
    try:
        return await with_backoff(
            bot.me,
            TELEGRAM_AWAY,
            lambda error, delay: (
                f"Telegram ({api}) does not answer ({masked(str(error))}); retrying in {delay:.0f} s (check the "
                "network and DNS, or set TELEGRAM_API_BASE for a local Bot API server)"
            ),
        )
    except TelegramUnauthorizedError:
        raise StartupError(
            "Telegram rejected BOT_TOKEN (401 Unauthorized): check it with @BotFather (/token) and set it again"
        ) from None
    except TelegramNotFound:
        raise StartupError(
            f"Telegram ({api}) answered 404 to getMe: check TELEGRAM_API_BASE (a Bot API server's base URL, like "
            "http://127.0.0.1:8081) and BOT_TOKEN"
        ) from None
    except TelegramAPIError as error:
        raise StartupError(f"Telegram ({api}) refused getMe: {masked(str(error))}") from None


GROUP_COMMANDS = (
    "play", "tournament", "cancel", "surrender", "top", "stats", "history", "rules", "settings", "lang", "help",
)  # fmt: skip
PRIVATE_COMMANDS = (
    "start", "play", "hand", "surrender", "stats", "history", "replay", "top", "rules", "seed", "lang", "help",
)  # fmt: skip


def create_bot(settings: Settings) -> Bot:
    keep_response_models()
    session = None
    if settings.telegram_api_base:
        session = AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_base))
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        # link_preview, not link_preview_is_disabled: that one also fills in the legacy disable_web_page_preview.
        default=DefaultBotProperties(parse_mode="HTML", link_preview=LinkPreviewOptions(is_disabled=True)),
    )


def create_services(
    settings: Settings, redis: Redis, bot: Bot, clock: Clock | None = None, metrics: Metrics | None = None
) -> Services:
    """The services; who may act on what is asked of Telegram through ``bot`` (each answer kept a minute)."""
    clock = clock or Clock()
    return Services.build(
        redis,
        clock=clock,
        metrics=metrics,
        membership=TelegramMembers(bot, clock=clock.monotonic).membership,
        prefix=settings.redis_prefix,
        active_ttl=settings.active_ttl,
        finished_ttl=settings.finished_ttl,
        challenge_ttl=settings.challenge_ttl,
        turn_timeout=settings.turn_timeout,
        claim_after=settings.claim_after,
        computer_pause=settings.computer_pause,
        live=webapp_on(settings),
    )


def webapp_on(settings: Settings) -> bool:
    """Whether this process serves the Mini App (or shares a Redis with processes that do: then its moves are
    published for their pages too)."""
    return settings.webapp_url is not None or settings.webapp_port is not None


def create_clock(settings: Settings) -> Clock:
    """The system clock, or (tests) the wall time of ``CLOCK_FILE``."""
    return FileClock(settings.clock_file) if settings.clock_file is not None else Clock()


@dataclass
class App:
    """Everything a running bot is made of."""

    bot: Bot
    dispatcher: Dispatcher
    services: Services
    presenter: Presenter
    outbox: Outbox
    delivery: Delivery
    redis: Redis
    scheduler: Scheduler
    painter: Painter | None
    reviewer: Reviewer | NoReviews
    metrics: Metrics
    exposition: Exposition
    """``/metrics``: its page."""
    tables: Tables | None = None
    """The Mini App (``bot.webapp``), when it is set up."""
    handled: Handled = field(default_factory=Handled)
    """Told of every update the dispatcher has finished with (``Handled``: the end-to-end tests listen)."""

    async def settled(self, timeout: float = SETTLE_WITHIN) -> None:
        """Wait until every due message was delivered and the outbox is empty (tests); AssertionError after
        ``timeout`` real seconds naming each task still at work, with where it waits."""

        async def both() -> None:
            await self.delivery.idle()
            await self.outbox.drain()

        waiting = asyncio.ensure_future(both())
        if not (await asyncio.wait({waiting}, timeout=timeout))[0]:
            at_work = self.at_work()  # before the waiter goes (the tasks it waits for go on)
            waiting.cancel()
            raise AssertionError(f"not settled after {timeout:.0f} s; still at work:\n{at_work}")
        waiting.result()

    def at_work(self) -> str:
        """Each delivery lane, settling and edit flusher still at work, with where it waits (a deadline's
        message)."""
        busy = {**self.delivery.busy(), **self.outbox.busy()}
        return "\n".join(f"--- {name}\n{where_it_waits(task)}" for name, task in busy.items()) or "nothing"

    async def close(self) -> None:
        """Stop the scheduler and deliveries (what is due stays in Redis), send what the outbox holds."""
        await self.scheduler.close()
        await self.delivery.close()
        await self.outbox.drain()
        if self.painter is not None:
            await self.painter.close()
        await self.reviewer.close()


def create_outbox(settings: Settings, bot: Bot, services: Services, clock: Clock) -> Outbox:
    """The outbox; the budgets it counts live in Redis: webhook workers share them, and a process started again
    (after a crash, a deploy) knows what the one before it sent in the window, so a restart in the middle of a
    busy minute does not send a group past Telegram's limit."""
    budget = Budget(settings.group_budget, settings.group_window, settings.private_gap)
    return Outbox(
        bot,
        group_budget=budget.group_budget,
        group_window=budget.group_window,
        private_gap=budget.private_gap,
        clock=clock.monotonic,
        sleep=clock.sleep,
        limiter=SharedLimiter(services.stores.budgets, budget, clock.shared),
    )


def create_dispatcher(
    services: Services,
    presenter: Presenter,
    i18n: I18n,
    painter: Painter | None,
    flood: CommandFlood,
    metrics: Metrics | None = None,
    handled: Handled | None = None,
    inline_flood: CommandFlood | None = None,
) -> Dispatcher:
    """The dispatcher: the services and the presenter as the handlers' parameters; de-duplication and the log
    line around every update; the languages around every handler. No FSM: the state of everything lives in
    Redis, and aiogram's per-update FSM context costs CPU."""
    dispatcher = Dispatcher(
        records=services.records,
        moves=services.moves,
        challenges=services.challenges,
        rematches=services.rematches,
        chats=services.chats,
        fairness=services.fairness,
        results=services.results,
        terms=services.terms,
        tournaments=services.tournaments,
        authority=services.authority,
        presenter=presenter,
        i18n=i18n,
        painter=painter,
        inline_flood=inline_flood or flood,
        disable_fsm=True,
    )
    dispatcher.update.outer_middleware(UpdateMiddleware(services.stores.updates, i18n, metrics, handled))
    languages = LanguageMiddleware(services.chats, i18n)
    router = build_router()
    router.message.middleware(CommandFloodMiddleware(flood, languages))
    router.message.middleware(languages)
    router.callback_query.middleware(ButtonMiddleware(languages))
    router.callback_query.middleware(languages)
    router.my_chat_member.middleware(languages)
    dispatcher.include_router(router)
    return dispatcher


async def create_app(settings: Settings, *, redis: Redis, clock: Clock | None = None) -> App:
    """Build the bot once Telegram answers; asks Telegram for the bot's username (for deep links)."""
    bot = create_bot(settings)
    try:
        me = await who_am_i(bot, settings.telegram_api_base or "api.telegram.org")
    except BaseException:
        await bot.session.close()
        raise
    clock = clock or create_clock(settings)
    metrics = Metrics()  # here, not at import: a process forked from one that imported the bot has its own
    services = create_services(settings, redis, bot, clock, metrics)
    await migrate(redis, services.stores.keys)
    i18n = I18n()
    outbox = create_outbox(settings, bot, services, clock)
    bot.session.middleware(LimitMiddleware(outbox))
    bot.session.middleware(TelegramCalls(metrics))  # the innermost: each retry of a call counts
    painter = Painter(metrics=metrics, timeout=settings.worker_timeout) if settings.pictures else None
    reviewer = Reviewer(timeout=settings.worker_timeout) if settings.postmortems else NoReviews()
    username = me.username or ""
    stores = services.stores
    links = AppLinks(settings.webapp_url, settings.webapp_short_name, username)
    passes = Passes(outbox, i18n, stores.matches, services.chats, Ledger(), time=clock.time, bot_username=username,
                    painter=painter, reviewer=reviewer, links=links)  # fmt: skip
    delivery = Delivery(services.records, stores.matches, stores.lanes, services.chats, passes, time=clock.time,
                        sleep=clock.sleep, shared=settings.webhook_url is not None, metrics=metrics)  # fmt: skip
    presenter = Presenter(outbox, delivery, services.records, services.chats, i18n, bot_username=username,
                          painter=painter, clock=clock.time)  # fmt: skip
    flood = CommandFlood(services.stores.budgets, limit=settings.command_limit, window=settings.command_window,
                         clock=clock.shared)  # fmt: skip
    handled = Handled()
    inline_flood = CommandFlood(services.stores.budgets, limit=inline.QUERIES, window=60.0, clock=clock.shared)
    dispatcher = create_dispatcher(services, presenter, i18n, painter, flood, metrics, handled, inline_flood)
    Timers(services, presenter, clock, metrics).register(services.scheduler)
    await adopt_jobs(services)
    await delivery.resume()
    services.scheduler.start()
    exposition = Exposition(metrics, services.census, delivery.lanes_running)
    tables = None
    if webapp_on(settings):
        token = settings.bot_token.get_secret_value()
        tables = Tables(services, presenter, i18n, token=token, clock=clock.time)
    return App(bot, dispatcher, services, presenter, outbox, delivery, redis, services.scheduler, painter, reviewer,
               metrics, exposition, tables, handled)  # fmt: skip


async def adopt_jobs(services: Services) -> None:
    """Challenges and matches begun before the scheduler existed get their jobs (once): an expiry for each
    open challenge, a clock for each active match (with no turn clock of its own: the offer to claim the
    win and the abandonment)."""
    scheduler = services.scheduler
    for challenge in await services.challenges.pending_notices():
        await scheduler.schedule(expiry_job(challenge.id), challenge.expires, if_missing=True)
    for match_id in await services.records.all_active_matches():
        await scheduler.schedule(clock_job(match_id), scheduler.clock.time(), if_missing=True)


async def keep_setting_commands(bot: Bot, i18n: I18n) -> None:
    """Set the command menus, waiting while Telegram pushes back or is unreachable (a start in a flood must
    not stop the bot: the menus are a convenience, the updates are not); a refusal is one line."""
    try:
        await with_backoff(
            lambda: set_commands(bot, i18n),
            (TelegramNetworkError, TelegramServerError, TelegramRetryAfter),
            lambda error, delay: f"the command menus were not set ({error}); again in {delay:.0f} s",
        )
    except TelegramAPIError as error:
        log.warning("the command menus were not set: %s", error)


async def set_commands(bot: Bot, i18n: I18n) -> None:
    """Command menus for groups and private chats, in both languages (Russian as the default)."""
    for lang in (*LANGS, None):
        tr = i18n[lang or "ru"]
        for scope, names in (
            (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
            (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
        ):
            # In private, /play is a match against the computer.
            keys = {name: "cmd-play-computer" if name == "play" and names is PRIVATE_COMMANDS else f"cmd-{name}"
                    for name in names}  # fmt: skip
            commands = [BotCommand(command=name, description=tr(key)) for name, key in keys.items()]
            await bot.set_my_commands(commands, scope=scope, language_code=lang)


async def run(settings: Settings, redis_url: str) -> None:
    """Poll Telegram, or serve the webhook, until SIGINT or SIGTERM; ``redis_url`` is the shared server's (or
    cluster's) or the bot's own."""
    redis = create_redis(redis_url, cluster=settings.redis_cluster and redis_url == settings.redis_url)
    try:
        await wait_for_redis(redis, redis_url)
        app = await create_app(settings, redis=redis)
    except BaseException:
        await close_redis(redis)
        raise
    tune_collector()
    menus = asyncio.create_task(keep_setting_commands(app.bot, app.presenter.i18n))
    try:
        if settings.webhook_url:
            health = functools.partial(ping, app.redis)
            page = app.exposition.page
            await webhook.serve(
                app.dispatcher, app.bot, health, page, settings, app.presenter.bot_username, tables=app.tables
            )
        else:
            await poll(app, settings)
    finally:
        menus.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await menus
        await app.close()
        await close_redis(app.redis)
        await app.bot.session.close()


async def drop_webhook(bot: Bot) -> None:
    """Polling, so no webhook: one left by webhook workers (they leave it set when they stop) would answer every
    ``getUpdates`` with 409. Said in one line; its pending updates are kept and come by polling."""
    # Waiting while Telegram pushes back or is unreachable, as getMe does: a 429 at a start in a flood must not
    # end the bot (it did, in the soak's restart under 429s).
    info = await with_backoff(
        bot.get_webhook_info,
        TELEGRAM_AWAY,
        lambda error, delay: f"the webhook was not checked ({masked(str(error))}); again in {delay:.0f} s",
    )
    if info.url:
        log.warning("a webhook was set (%s): deleted, this bot polls (WEBHOOK_URL unset)", info.url)
        await with_backoff(
            lambda: bot.delete_webhook(drop_pending_updates=False),
            TELEGRAM_AWAY,
            lambda error, delay: f"the webhook was not deleted ({masked(str(error))}); again in {delay:.0f} s",
        )


async def poll(app: App, settings: Settings) -> None:
    """Long polling until SIGINT or SIGTERM, with ``/metrics`` on ``METRICS_PORT`` when it is set."""
    username = app.presenter.bot_username

    async def polling() -> None:
        # Said once aiogram has taken SIGINT and SIGTERM (a Ctrl-C from then on stops it cleanly).
        log.info("bot @%s polling", username)

    app.dispatcher.startup.register(polling)
    await drop_webhook(app.bot)
    async with contextlib.AsyncExitStack() as stack:
        if settings.metrics_port is not None:
            await stack.enter_async_context(
                metrics_server(app.exposition.page, settings.metrics_host, settings.metrics_port)
            )
        if settings.webapp_port is not None and app.tables is not None:
            await stack.enter_async_context(webapp_server(app.tables, settings.webapp_host, settings.webapp_port))
        await app.dispatcher.start_polling(app.bot, handle_signals=True)
