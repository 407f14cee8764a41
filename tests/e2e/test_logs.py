"""One log line per handled update, with the match, the action and the time; no hands at info level."""

from __future__ import annotations

import logging
import random
import re

import pytest

from tests.e2e.conftest import running_bot
from tests.e2e.driver import new_match, panel_of, play, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser

GROUP = -100777
ANN = FakeUser(3001, "Ann", "ann_logs", "ru")
BOB = FakeUser(3002, "Bob", "bob_logs", "ru")
LINE = re.compile(r"^update=(\d+) kind=(\w+) match=(\S+) action=(\S+) result=(\S+) ms=(\d+\.\d)$")
TILE = re.compile(r"\[\d\|\d\]|\(\d\|\d\)")


class TestUpdateLog:
    """bot.updates logs each update once."""

    async def test_one_line_per_update(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, caplog: pytest.LogCaptureFixture
    ) -> None:
        """Every update handled gets exactly one line; presses name their match and action; no tile of a hand."""
        caplog.set_level(logging.INFO)
        async with running_bot(fake, prefix) as app:
            await start_bot(fake, ANN)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            await play(fake, (ANN, BOB), random.Random(5), max_moves=12)
            await app.settled()
            hands = {b["text"] for u in (ANN, BOB) if (p := panel_of(fake, u)) for b in p.buttons()}
        lines = [r.getMessage() for r in caplog.records if r.name == "bot.updates"]
        parsed = [m for line in lines if (m := LINE.match(line))]
        assert len(parsed) == len(lines), [line for line in lines if not LINE.match(line)]
        handled = [int(m[1]) for m in parsed]
        assert sorted(handled) == list(range(1, len(fake.updates) + 1))
        presses = [m for m in parsed if m[2] == "callback_query"]
        assert len(presses) >= 12
        assert all(m[3] == match_id and m[4] != "-" for m in presses)
        info = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
        assert not [line for line in info if TILE.search(line) or any(h in line for h in hands)]
