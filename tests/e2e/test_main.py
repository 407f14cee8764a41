"""``python -m bot`` starts long polling against TELEGRAM_API_BASE and stops cleanly on SIGINT."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.e2e.conftest import delete_keys
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.redis_server import redis_url

ROOT = Path(__file__).resolve().parents[2]


class TestMain:
    """The real entry point, as a process."""

    async def test_polls_answers_and_stops(self, fake: FakeTelegram, prefix: str) -> None:
        """It registers its commands, answers /start in private, and exits 0 on SIGINT."""
        env = {
            **os.environ,
            "BOT_TOKEN": "123456:TEST-token",
            "TELEGRAM_API_BASE": fake.base,
            "REDIS_URL": redis_url(),
            "REDIS_PREFIX": prefix,
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE
        )
        try:
            user = FakeUser(5001, "Ann", "ann_main", "pl")
            fake.send_text(user, user.id, "/start")
            welcome = await fake.wait_for(lambda: fake.last_message(user.id), timeout=30, what="the welcome")
            assert welcome.text.startswith("Cześć")
            assert {c["language_code"] for c in fake.commands if "language_code" in c} == {"ru", "pl"}
            process.send_signal(signal.SIGINT)
            _, stderr = await asyncio.wait_for(process.communicate(), 30)
            assert process.returncode == 0, stderr.decode()[-2000:]
            log = stderr.decode()
            assert "kind=message" in log and "Traceback" not in log
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
            await delete_keys(prefix)
