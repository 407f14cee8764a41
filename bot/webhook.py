"""Webhook mode: Telegram posts each update to ``WEBHOOK_URL``; any number of these processes may serve it.

The server is aiohttp with aiogram's own request handler: the secret token
Telegram sends with each update (``X-Telegram-Bot-Api-Secret-Token``) is
checked, and an update is answered once the bot handled it (so an update
whose process died is delivered again by Telegram, and the de-duplication in
Redis makes it count once). ``GET /healthz`` says whether Redis answers (for
a load balancer or an orchestrator); ``GET /metrics`` serves this process's
metrics to Prometheus (``bot/monitor.py``). On start each process sets the webhook
with the update types the bot handles (the same URL from every process: a
repeat changes nothing); on stop it leaves it, as the other processes serve
on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import signal
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter, TelegramServerError
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web
from redis.exceptions import RedisError

from bot.backoff import with_backoff
from bot.config import Settings, StartupError
from bot.monitor import Page, add_metrics
from bot.webapp.server import Tables, add_routes

log = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
HEALTH_TIMEOUT = 2.0


def webhook_secret(settings: Settings) -> str:
    """The secret token: ``WEBHOOK_SECRET``, else one derived from the bot's token (the same in every process;
    Telegram allows letters, digits, ``_`` and ``-``)."""
    if settings.webhook_secret is not None:
        return settings.webhook_secret.get_secret_value()
    return hashlib.sha256(b"webhook:" + settings.bot_token.get_secret_value().encode()).hexdigest()


def webhook_path(url: str) -> str:
    """The path the server takes updates at: the URL's own (``/`` when it has none)."""
    return urlsplit(url).path or "/"


Health = Callable[[], Awaitable[None]]
"""Returns when Redis answers; raises its error (or OSError) when it does not."""


def build_web_app(
    dispatcher: Dispatcher,
    bot: Bot,
    health: Health,
    secret: str,
    path: str,
    metrics: Page,
    tables: Tables | None = None,
) -> web.Application:
    """The aiohttp application: updates at ``path`` (secret checked), ``/healthz`` (``health`` asks Redis),
    ``/metrics`` (``metrics`` makes the page), the Mini App at ``/app`` (``tables``, when it is set up)."""
    app = web.Application()
    handler = SimpleRequestHandler(dispatcher=dispatcher, bot=bot, handle_in_background=False, secret_token=secret)
    handler.register(app, path=path)

    async def healthz(_: web.Request) -> web.Response:
        # Public: it says ok or not, never why (an error's text names hosts and ports); the log says why.
        try:
            await asyncio.wait_for(health(), HEALTH_TIMEOUT)
        except (RedisError, OSError, TimeoutError) as error:
            log.warning("/healthz: Redis does not answer (%s)", str(error) or type(error).__name__)
            return web.json_response({"ok": False, "redis": "down"}, status=503)
        return web.json_response({"ok": True, "redis": "ok"})

    app.router.add_get(HEALTH_PATH, healthz)
    add_metrics(app, metrics)
    if tables is not None:
        add_routes(app, tables)
    return app


async def set_webhook(bot: Bot, dispatcher: Dispatcher, url: str, secret: str) -> None:
    """Tell Telegram where to post updates, waiting while it pushes back or is unreachable."""
    await with_backoff(
        lambda: bot.set_webhook(
            url,
            secret_token=secret,
            allowed_updates=dispatcher.resolve_used_update_types(),
            drop_pending_updates=False,
        ),
        (TelegramNetworkError, TelegramServerError, TelegramRetryAfter),
        lambda error, delay: f"Telegram did not take the webhook ({error}); again in {delay:.0f} s",
    )


async def serve(
    dispatcher: Dispatcher,
    bot: Bot,
    health: Health,
    metrics: Page,
    settings: Settings,
    username: str,
    *,
    tables: Tables | None = None,
) -> None:
    """Serve updates (and ``/healthz``, ``/metrics``, the Mini App) until SIGINT or SIGTERM."""
    assert settings.webhook_url is not None
    secret = webhook_secret(settings)
    path = webhook_path(settings.webhook_url)
    app = build_web_app(dispatcher, bot, health, secret, path, metrics, tables)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    try:
        site = web.TCPSite(runner, settings.webhook_host, settings.webhook_port)
        try:
            await site.start()
        except OSError as error:
            raise StartupError(
                f"cannot listen on {settings.webhook_host}:{settings.webhook_port} ({error.strerror}): "
                "set WEBHOOK_HOST and WEBHOOK_PORT to a free address"
            ) from None
        await set_webhook(bot, dispatcher, settings.webhook_url, secret)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        # Said once SIGINT and SIGTERM are taken (a Ctrl-C from then on stops it cleanly).
        log.info(
            "bot @%s serving the webhook %s on %s:%s",
            username, settings.webhook_url, settings.webhook_host, settings.webhook_port,
        )  # fmt: skip
        await stop.wait()
        log.info("stopping: the webhook stays for the other processes")
    finally:
        await runner.cleanup()
