"""``python -m bot``: run the bot with long polling."""

import asyncio
import logging

from bot.app import run
from bot.config import Settings

settings = Settings()
logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
# bot.updates logs one line per update; aiogram's own line would say it twice.
logging.getLogger("aiogram.event").setLevel(logging.WARNING)
asyncio.run(run(settings))
