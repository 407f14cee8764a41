"""``python -m bot``: settings, the bot's own Redis when ``REDIS_URL`` is unset, and a start that explains itself.

Every start-up failure an operator can fix ends in one line on stderr and
exit code 2, never a traceback: a missing or malformed ``BOT_TOKEN``, a
token Telegram rejects, a ``DATA_DIR`` the bot cannot use. What may come
back by itself (Telegram or Redis unreachable) is retried with backoff.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Sequence

from pydantic import ValidationError

from bot.config import Settings, StartupError, settings_help
from bot.logs import configure as configure_logs
from bot.storage.embedded import EmbeddedRedis, EmbeddedRedisError

log = logging.getLogger("bot")

USAGE_ERROR = 2


def _settings_problem(error: ValidationError) -> str:
    """One line per wrong setting, saying what to set."""
    lines = []
    for problem in error.errors():
        name = str(problem["loc"][0]) if problem["loc"] else "?"
        if name == "bot_token" and (problem["type"] == "missing" or not str(problem.get("input") or "").strip()):
            lines.append(
                "BOT_TOKEN is not set: create a bot with @BotFather in Telegram (/newbot) and put its token "
                "in the environment or in .env (BOT_TOKEN=123456789:AAE...)"
            )
        elif name == "bot_token":
            lines.append(
                "BOT_TOKEN is malformed (expected digits, a colon and the secret, like 123456789:AAE...): "
                "copy it again from @BotFather"
            )
        else:
            lines.append(f"{name.upper()}: {problem['msg']}")
    return "\n".join(lines)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args):
        print(settings_help())
        return 0
    if args:
        print(f"python -m bot takes no arguments (got {' '.join(args)}); see python -m bot --help", file=sys.stderr)
        return USAGE_ERROR
    try:
        settings = Settings()
    except ValidationError as error:
        print(_settings_problem(error), file=sys.stderr)
        return USAGE_ERROR
    configure_logs(settings.log_level, settings.log_format)
    # bot.updates logs one line per update; aiogram's own line would say it twice.
    logging.getLogger("aiogram.event").setLevel(logging.WARNING)

    embedded: EmbeddedRedis | None = None
    redis_url = settings.redis_url
    if not redis_url:
        embedded = EmbeddedRedis(settings.data_dir)
        try:
            redis_url = embedded.start()
        except EmbeddedRedisError as error:
            print(str(error), file=sys.stderr)
            return USAGE_ERROR
        log.info(
            "data: %s (a Redis of the bot's own, append-only file on); set REDIS_URL to use a shared Redis server",
            embedded.data_dir,
        )
    # Imported here: aiogram takes seconds to import, which --help and a bad token need not wait for.
    from bot.app import run

    # SIGTERM as Ctrl-C until polling takes both over (aiogram stops cleanly on either): a stop while the bot still
    # waits for Telegram or Redis ends it the same way, one line and exit code 0.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        asyncio.run(run(settings, redis_url))
    except StartupError as error:
        print(str(error), file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        log.info("stopped")
        return 0
    finally:
        if embedded is not None:
            embedded.stop()
    return 0
