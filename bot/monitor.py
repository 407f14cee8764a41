"""The operator's view of a running bot: every Bot API call counted by its outcome (``TelegramCalls``, on the
bot's session), and ``/metrics`` (``Exposition``): on the webhook server in webhook mode, on a server of its own
(``METRICS_PORT``) in long polling."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from aiogram import Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramEntityTooLarge,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiohttp import web
from redis.exceptions import RedisError

from bot.config import StartupError
from bot.metrics import CONTENT_TYPE, Metrics
from bot.services.census import Census
from bot.storage.base import StorageUnavailable

log = logging.getLogger(__name__)

METRICS_PATH = "/metrics"
OUTCOMES: tuple[tuple[type[Exception], str], ...] = (
    (TelegramRetryAfter, "429"),
    (TelegramForbiddenError, "403"),
    (TelegramBadRequest, "400"),
    (TelegramMigrateToChat, "400"),
    (TelegramUnauthorizedError, "401"),
    (TelegramNotFound, "404"),
    (TelegramConflictError, "409"),
    (TelegramEntityTooLarge, "413"),
    (TelegramServerError, "5xx"),
    (TelegramNetworkError, "network"),
)
"""The outcome label of a call that raised (anything else: ``other``)."""


def outcome(error: Exception) -> str:
    """The ``outcome`` label of a Bot API call that raised ``error``."""
    return next((label for kind, label in OUTCOMES if isinstance(error, kind)), "other")


class TelegramCalls(BaseRequestMiddleware):
    """Counts every Bot API request by method and outcome, and the waits Telegram's 429s ask for. The
    innermost of the session's middlewares (registered last): a call the outbox tries again counts each time."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    async def __call__(
        self, make_request: NextRequestMiddlewareType[TelegramType], bot: Bot, method: TelegramMethod[TelegramType]
    ) -> Response[TelegramType]:
        name = method.__api_method__
        try:
            response = await make_request(bot, method)
        except Exception as exc:
            self.metrics.telegram_calls.labels(name, outcome(exc)).inc()
            if isinstance(exc, TelegramRetryAfter):
                self.metrics.telegram_retry_after.labels(name).inc(exc.retry_after)
            raise
        self.metrics.telegram_calls.labels(name, "ok").inc()
        return response


Page = Callable[[], Awaitable[bytes]]
"""What ``/metrics`` answers."""


class Exposition:
    """``/metrics``: the gauges read from Redis (``Census``, kept a few seconds) and this process's own, then
    every series. While Redis does not answer, its gauges keep their last values (``domino_redis_errors_total``
    says why)."""

    def __init__(self, metrics: Metrics, census: Census, lanes_running: Callable[[], int]) -> None:
        self.metrics = metrics
        self.census = census
        self.lanes_running = lanes_running

    async def page(self) -> bytes:
        m = self.metrics
        try:
            reading = await self.census.read()
        except (StorageUnavailable, RedisError, OSError) as exc:
            log.warning("metrics: Redis's figures not read (%s)", exc)
        else:
            process = m.process
            m.active_matches.labels(process).set(reading.active_matches)
            m.open_challenges.labels(process).set(reading.open_challenges)
            m.matches_due.labels(process).set(reading.matches_due)
            m.oldest_due.labels(process).set(reading.screens_lag)
            m.jobs_due.labels(process).set(reading.jobs_due)
            m.oldest_job.labels(process).set(reading.jobs_lag)
        m.lanes_running.set(self.lanes_running())
        return m.page()


def add_metrics(app: web.Application, page: Page) -> None:
    """Serve ``page`` at ``GET /metrics`` of ``app``."""

    async def metrics(_: web.Request) -> web.Response:
        return web.Response(body=await page(), headers={"Content-Type": CONTENT_TYPE})

    app.router.add_get(METRICS_PATH, metrics)


@contextlib.asynccontextmanager
async def metrics_server(page: Page, host: str, port: int) -> AsyncIterator[None]:
    """A server of its own for ``/metrics`` (long polling), listening while inside."""
    app = web.Application()
    add_metrics(app, page)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    try:
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as error:
            raise StartupError(
                f"cannot serve the metrics on {host}:{port} ({error.strerror}): set METRICS_HOST and METRICS_PORT "
                "to a free address"
            ) from None
        log.info("metrics at http://%s:%s%s", host, port, METRICS_PATH)
        yield
    finally:
        await runner.cleanup()
