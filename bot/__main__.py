"""``python -m bot``: run the bot with long polling."""

import asyncio
import logging

from bot.app import run
from bot.config import Settings

settings = Settings()
logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
asyncio.run(run(settings))
