"""``python -m bot``: run the bot with long polling (``--help`` lists the settings)."""

import sys

from bot.cli import main

sys.exit(main())
