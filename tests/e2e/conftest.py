"""The real bot (Dispatcher + aiogram's aiohttp session) against the fake Bot API, with real Redis."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator

import pytest

from bot.app import App, create_app, set_commands
from bot.clock import Clock
from bot.config import Settings
from bot.services import Services
from bot.storage.redis import create_redis
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.process import BotProcess
from tests.redis_server import redis_url

# Telegram's limit is about 20 sends+edits a minute per group; the tests run the
# same limiter on a compressed clock (20 per 2 s) and check it on that clock.
GROUP_WINDOW = 2.0
GROUP_BUDGET = 20
COMMAND_LIMIT = 1000
"""One member's commands answered per minute: out of the way of tests that send many (test_names sends seven in a
row); the flood tests set the real five (test_limits, test_real_limits)."""
WORKER_TIMEOUT = 600.0
"""How long the bot waits for a picture or a review from its worker before giving up on it (20 s in production):
longer than any test, so that a test that looks at a card or a post-mortem waits for it (its own wait names what
it waits for) and a worker slowed down on a saturated machine is not the bot giving up (fresh-clone runs s2 and u5
of 2026-12-07: a review and a card past 20 s in the niced Cluster step). The give-up itself is tested on the
painter and the reviewer (tests/bot)."""
PICTURES = False
"""The match card and the rating chart are drawn, and the post-mortem made, only where a test asks for them
(``pictures=True``, ``postmortems=True``): a card is a quarter of a second of CPU in the drawing worker, a match's
review a second or two in the review worker; the 130 cards and 350 deal reviews of a run made a quarter of the
suite's CPU."""
CLOSE_WITHIN = 60.0
"""Real seconds the bot has to close at a test's end (its deliveries stop, its outbox drains, its workers end)."""


@pytest.fixture
def prefix() -> str:
    return f"e2e:{uuid.uuid4().hex}"


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeTelegram, prefix: str, *, clock: Clock | None = None, redis_at: str | None = None, **overrides: object
) -> AsyncIterator[App]:
    """Start the bot polling the fake server (on the tests' Redis, or the one ``redis_at``); stop it and close
    everything on exit."""
    url = redis_at or redis_url()
    redis = create_redis(url)
    limits: dict[str, object] = {
        "group_window": GROUP_WINDOW, "group_budget": GROUP_BUDGET, "private_gap": 0.02,
        "command_limit": COMMAND_LIMIT, "pictures": PICTURES, "postmortems": PICTURES,
        "worker_timeout": WORKER_TIMEOUT,
    }  # fmt: skip
    settings = Settings(
        bot_token="123456:TEST-token",
        telegram_api_base=fake.base,
        redis_url=url,
        redis_prefix=prefix,
        **{**limits, **overrides},  # type: ignore[arg-type]
    )
    app = await create_app(settings, redis=redis, clock=clock)
    await set_commands(app.bot, app.presenter.i18n)
    fake.listen(app.handled)  # a step that sends an update returns once this bot is done with it
    polls = fake.polls  # a bot before this one may have polled the same fake
    polling = asyncio.create_task(
        app.dispatcher.start_polling(app.bot, handle_signals=False, polling_timeout=1, close_bot_session=False)
    )
    try:
        # Stopping a dispatcher that has not started polling yet would leave it polling.
        await fake.wait_for(lambda: fake.polls > polls, what="the bot to poll")
        yield app
    finally:
        fake.unlisten()
        with contextlib.suppress(RuntimeError):
            await app.dispatcher.stop_polling()
        fake.wake()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(polling, 5)
        try:
            await asyncio.wait_for(app.close(), CLOSE_WITHIN)
        except TimeoutError:
            raise AssertionError(f"the bot did not close in {CLOSE_WITHIN:.0f} s; at work:\n{app.at_work()}") from None
        await app.bot.session.close()
        await redis.aclose()


async def delete_keys(prefix: str) -> None:
    """Delete every key under ``prefix``."""
    redis = create_redis(redis_url())
    try:
        async for key in redis.scan_iter(match=f"{prefix}*"):
            await redis.delete(key)
    finally:
        await redis.aclose()


@pytest.fixture
async def cleanup_redis(prefix: str) -> AsyncIterator[None]:
    yield
    await delete_keys(prefix)


@pytest.fixture
async def outside(prefix: str) -> AsyncIterator[Services]:
    """The test's own view of the Redis of a bot that runs as another process; its keys go at the end."""
    redis = create_redis(redis_url())
    yield Services.build(redis, prefix=prefix)
    await delete_keys(prefix)
    await redis.aclose()


@pytest.fixture
async def processes() -> AsyncIterator[list[BotProcess]]:
    """Bot processes a test starts; any still running at its end are killed."""
    started: list[BotProcess] = []
    yield started
    for process in started:
        await process.close()
